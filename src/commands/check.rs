//! `symex check FILE`: the symbolic and concrete systems run side by side on
//! this program, and the paper's correctness and completeness results are
//! checked on random inputs and random symbolic paths (`theorems`).

use super::backstop::Backstop;
use super::language::choose;
use super::mutant::{BrokenRule, Mutant};
use super::{load, AssumeArg, CliError, Exit, IntArg, LanguageArg, Method};
use crate::theorems::broken;
use crate::theorems::lazy::check_lazy;
use crate::theorems::{check_program, Bounds, CheckReport};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::rc::Rc;
use std::time::{Duration, Instant};
use symex_semantics::program::Program;
use symex_semantics::system::Options;

/// `--format` of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
}

#[derive(Clone, Debug, Args)]
pub struct CheckArgs {
    /// The program (`-` for standard input).
    pub file: String,
    /// How many random inputs and symbolic paths to check each result on.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub runs: u64,
    /// Seed of the random inputs and paths (default: drawn at random; always printed).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Every array access must be within `0 <= i < len(a)` (§2.1).
    #[arg(long)]
    pub checked_arrays: bool,
    /// What `int` means: mathematical integers, or C's signed machine integers with overflow as an error.
    #[arg(long = "int", value_enum, default_value_t = IntArg::Math, value_name = "INT")]
    pub int: IntArg,
    #[arg(long, value_enum)]
    pub lang: Option<LanguageArg>,
    /// `lazy`: check lazy initialisation against the program semantics (the
    /// lazy paths partition random heaps and predict each run); otherwise
    /// the paper's results for the program's language.
    #[arg(long, value_enum)]
    pub method: Option<Method>,
    /// With `--method lazy`: a precondition on the input heap, which the
    /// random heaps then satisfy and every lazy path's model must too.
    #[arg(long, value_enum, value_name = "PRECONDITION")]
    pub assume: Option<AssumeArg>,
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Break one rule on purpose, to watch a theorem fail (§2's symbolic system for basic programs, §4's for oo).
    #[arg(long = "break", value_enum, value_name = "RULE")]
    pub broken: Option<BrokenRule>,
    /// The whole check ends within this long (plus a margin), with exit status 3 if cut.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    pub time_limit_ms: u64,
}

/// The paper's results for `program` with `rule` broken.
fn check_broken(
    rule: BrokenRule,
    program: Rc<Program>,
    options: Options,
    runs: u64,
    seed: u64,
    deadline: Option<Instant>,
) -> Result<CheckReport, String> {
    match rule.mutant() {
        Mutant::Basic(edit) => broken::check_broken(program, edit, options, runs, seed, deadline),
        Mutant::Oo(mutant) => {
            broken::check_broken_oo(program, mutant, options, runs, seed, deadline)
        }
    }
}

/// Checks the results; exit 1 when one of them has a counterexample, 3
/// when a limit stopped the check before its runs were done.
pub fn command(args: &CheckArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let limit = Duration::from_millis(args.time_limit_ms);
    let deadline = Some(Instant::now() + limit);
    let backstop = Backstop::arm(limit, "symex check".to_string());
    let loaded = load(&args.file, args.int)?;
    let language = choose(&loaded.program, args.lang.map(Into::into))?;
    let seed = args.seed.unwrap_or_else(rand::random);
    if args.assume.is_some() && args.method != Some(Method::Lazy) {
        return Err(CliError::new(
            "--assume acyclic restricts the aliases lazy initialisation offers: it needs --method lazy",
        ));
    }
    let options = Options {
        checked_arrays: args.checked_arrays,
        acyclic: args.assume == Some(AssumeArg::Acyclic),
    };
    let progress = crate::stop::progress::show();
    let report = match (args.broken, args.method) {
        (Some(_), Some(Method::Lazy)) => {
            return Err(CliError::new(
                "--break breaks a rule of §2 or §4; it does not combine with --method lazy",
            ))
        }
        (None, Some(Method::Lazy)) => Ok(check_lazy(
            loaded.program,
            options,
            args.runs,
            seed,
            Bounds {
                deadline,
                ..Bounds::default()
            },
        )),
        (None, _) => check_program(loaded.program, language, options, args.runs, seed, deadline),
        (Some(rule), _) => check_broken(rule, loaded.program, options, args.runs, seed, deadline),
    }
    .map_err(CliError::new)?;
    drop(progress);
    // Stopped in time: the report is written whole, however long that takes.
    drop(backstop);
    match args.format {
        CheckFormat::Text => write!(out, "{report}")?,
        CheckFormat::Json => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| CliError::new(e.to_string()))?
        )?,
    }
    Ok(if !report.passed() {
        Exit::Failed
    } else if report.stopped.is_some() {
        Exit::Inconclusive
    } else {
        Exit::Done
    })
}
