//! `symex`: symbolic execution as formalised by de Boer & Bonsangue (FAoC 2021).

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use symex::commands::{
    self, bench::BenchArgs, check::CheckArgs, compare::CompareArgs, run::RunArgs,
    simplify::SimplifyArgs, snap::SnapArgs, step::StepArgs, CliError, Exit,
};
use symex::stop;

#[derive(Parser)]
#[command(
    name = "symex",
    version,
    about = "Symbolic execution formally explained: run, explore, test and verify programs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// No status line on standard error (shown, when it is a terminal, for
    /// commands that run longer than a second).
    #[arg(long, global = true)]
    quiet: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Run a program concretely. Exit status: 0 terminated or assumption
    /// violated, 1 error, 3 step limit reached.
    Run(RunArgs),
    /// Explore the symbolic execution tree.
    Explore(commands::explore::ExploreArgs),
    /// Generate one concrete test per feasible path and replay it (exit 1 if a replay fails).
    Tests(commands::tests::TestsArgs),
    /// Run saved tests (`tests --output DIR`) again and report each as passed
    /// or failed (exit 1 if one fails).
    Replay(commands::replay::ReplayArgs),
    /// Prove every assertion and annotation (loop invariants, contracts) by
    /// King's inductive assertions (exit 0), or give a counterexample or the
    /// condition that fails (exit 1); exit 3 when a bound, the solver or
    /// k-induction left something undecided.
    Verify(commands::verify::VerifyArgs),
    /// Every loop's inner bound (Zhao et al. 2017): the largest iteration
    /// count of one entry on a feasible path, with a witness input replayed
    /// to it; exact (exit 0) or a lower bound (exit 3).
    Bound(commands::bound::BoundArgs),
    /// Concolic testing: run inputs concretely with their symbolic path
    /// conditions, negate branches from a prioritised worklist, report
    /// coverage and replayable tests (exit 1 if a run ends in an error, 3
    /// if stopped by a limit or with a branch undecided).
    Concolic(commands::concolic::ConcolicArgs),
    /// Combine the JSON reports of `explore --shard I/N` into the report of
    /// the whole exploration: the same paths, numbering and counters.
    Merge(commands::merge::MergeArgs),
    /// Run the symbolic and concrete semantics side by side on random inputs
    /// and check the paper's theorems on this program (exit 1 on a disagreement).
    Check(CheckArgs),
    /// Explore scalable program families (branches, loop, array) and report
    /// paths, solver calls, times and peak memory.
    Bench(BenchArgs),
    /// Forward symbolic execution versus weakest preconditions on the same
    /// paths: path-condition sizes, times, and Z3-checked agreement (exit 1
    /// if they disagree); `--family` runs scalable families.
    Compare(CompareArgs),
    /// Print the program of the paper's core syntax that the other commands
    /// run: functions, locals, break/continue/return, for and nondet() compiled away.
    Desugar(commands::desugar::DesugarArgs),
    /// Simplify an expression (free variables typed from their use);
    /// `--explain` shows the rewrites.
    Simplify(SimplifyArgs),
    /// Walk the symbolic execution tree by hand (EFFIGY's commands: go true,
    /// go false, go, assume, save, restore N, back, show, tree, help, quit).
    Step(StepArgs),
    /// A browser playground: the editor, the commands and the stepper on a
    /// web page, each request run as a job under limits (localhost unless `--bind`).
    Serve(commands::serve::ServeArgs),
    /// Keep NAME.snap (the `explore` output) beside every NAME.sx of a
    /// folder; exit 1 with a diff when one changed, or write them with --accept.
    Snap(SnapArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(budget) = symex::memory::default_budget() {
        symex::memory::set_budget(budget);
    }
    stop::progress::set_quiet(cli.quiet);
    // `step` reads Ctrl-C from its line editor and `serve` simply ends on
    // it; every other command stops on it with what it found.
    if !matches!(cli.command, Command::Step(_) | Command::Serve(_)) {
        stop::signal::install();
    }
    let worker = std::thread::Builder::new()
        .stack_size(symex::commands::STACK_BYTES)
        .spawn(move || execute(cli.command));
    let result = match worker.map(|handle| handle.join()) {
        Ok(Ok(result)) => result,
        _ => Err(CliError::new("internal error: the command did not finish")),
    };
    match result {
        Ok(Exit::Failed) => ExitCode::from(Exit::Failed.code()),
        Ok(_) if stop::interrupted() => ExitCode::from(stop::signal::INTERRUPTED),
        Ok(exit) => ExitCode::from(exit.code()),
        Err(error) if error.is_closed_output() => ExitCode::from(stop::output::CLOSED),
        Err(error) => {
            stop::output::error(error);
            ExitCode::from(2)
        }
    }
}

fn execute(command: Command) -> Result<Exit, CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let exit = match &command {
        Command::Run(args) => commands::run::command(args, &mut out),
        Command::Explore(args) => commands::explore::command(args, &mut out),
        Command::Tests(args) => commands::tests::command(args, &mut out),
        Command::Replay(args) => commands::replay::command(args, &mut out),
        Command::Verify(args) => commands::verify::command(args, &mut out),
        Command::Bound(args) => commands::bound::command(args, &mut out),
        Command::Concolic(args) => commands::concolic::command(args, &mut out),
        Command::Merge(args) => commands::merge::command(args, &mut out),
        Command::Check(args) => commands::check::command(args, &mut out),
        Command::Bench(args) => commands::bench::command(args, &mut out),
        Command::Compare(args) => commands::compare::command(args, &mut out),
        Command::Desugar(args) => commands::desugar::command(args, &mut out),
        Command::Simplify(args) => commands::simplify::command(args, &mut out),
        Command::Step(args) => commands::step::command(args, &mut out),
        Command::Snap(args) => commands::snap::command(args, &mut out),
        Command::Serve(args) => commands::serve::command(args, &mut out),
    }?;
    out.flush()?;
    Ok(exit)
}
