//! `symex verify FILE`: King's verifier ([`crate::verify`]) on the
//! semantics the options choose. Without annotations and k-induction it
//! proves every `assert` on every path — an infeasible `assert (fails)`
//! successor means `φ → ψσ` is valid on that path — or gives a
//! counterexample input, confirmed by running it concretely.

use super::language::{with_semantics, Choice, Semantics, Visitor};
use super::run::Execute;
use super::{int_options, CliError, Common, Exit, ReportFormat, Session, Source};
use crate::explore::run::{run, RunEnd, RunLimits};
use crate::explore::share;
use crate::explore::workers::Worker;
use crate::explore::{explore_into, replay_path, ExploreOptions, Leaf, Observer, Route};
use crate::report::verify::{json_report, text_report, Shown};
use crate::verify::{
    verify_on, Explorer, FailureKind, OnWorkers, Options, PathReplay, Ran, Verdict,
};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::rc::Rc;
use symex_semantics::eval::Valuation;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::program::{Halt, Outcome, Program};
use symex_semantics::system::{
    ConcreteConfiguration, Options as SemanticsOptions, Rule, SymbolicConfiguration,
    TransitionSystem,
};
use symex_semantics::value::Value;

/// `symex verify`: the common options, the verifier's own and the report's format.
#[derive(Clone, Debug, Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub common: Common,
    /// Report every failing path, not only the first (by default the
    /// exploration stops at the first counterexample).
    #[arg(long)]
    pub all: bool,
    /// Prove loops without `invariant` by k-induction (with candidate
    /// invariants shown inductive first), `k` from 1 to `--max-k`.
    #[arg(long)]
    pub k_induction: bool,
    /// The largest `k` k-induction tries.
    #[arg(long, value_name = "K", default_value_t = 5)]
    pub max_k: usize,
    /// Print the verification program of each unit first (King's paths
    /// with ASSERT made ASSUME and PROVE, as the explorer runs them).
    #[arg(long)]
    pub show_programs: bool,
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Explore on N workers sharing the tree's prefixes, with the verdict,
    /// report and first counterexample of one job; no effect on
    /// k-induction's proofs (docs/verify.md).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
}

/// Concrete runs stop after this many steps when confirming a counterexample.
const MAX_RUN_STEPS: usize = 1_000_000;

/// The semantics and the explorer's settings the command line chose: how
/// the verifier explores and runs its programs.
pub struct Chosen {
    pub choice: Choice,
    pub semantics: SemanticsOptions,
    pub explore: ExploreOptions,
}

impl Chosen {
    /// The default semantics of `program` (SPEC §2) with these settings.
    pub fn for_program(
        program: &Program,
        explore: ExploreOptions,
        semantics: SemanticsOptions,
    ) -> Result<Chosen, CliError> {
        Ok(Chosen {
            choice: Choice::new(program, None, None, ThisRule::Fresh)?,
            semantics,
            explore,
        })
    }
}

impl Explorer for Chosen {
    fn explore(&self, program: &Rc<Program>, observer: &mut dyn Observer) -> bool {
        let visitor = Exploring {
            inputs: program.globals.clone(),
            options: &self.explore,
            observer,
        };
        with_semantics(program.clone(), self.choice, self.semantics, visitor).unwrap_or(false)
    }

    fn replay(&self, program: &Rc<Program>, leaf: &Leaf, route: Route) -> Option<PathReplay> {
        let visitor = Replaying { leaf, route };
        with_semantics(program.clone(), self.choice, self.semantics, visitor)
            .ok()
            .flatten()
    }

    fn run(&self, program: &Rc<Program>, inputs: Valuation) -> Ran {
        let visitor = Running { inputs };
        match with_semantics(program.clone(), self.choice, self.semantics, visitor) {
            Ok(ran) => ran,
            Err(_) => Ran {
                end: crate::explore::run::RunEnd::Stuck,
                state: Valuation::new(),
            },
        }
    }
}

/// `verify --jobs N`: each worker parses the program again (its terms are
/// its thread's) and explores its share of the tree.
struct VerifyWorkers<'a> {
    common: &'a Common,
    source: Source,
    jobs: usize,
}

impl OnWorkers for VerifyWorkers<'_> {
    fn jobs(&self) -> usize {
        self.jobs
    }

    fn load(&self, worker: &Worker) -> Result<(Program, Box<dyn Explorer>), String> {
        let loaded = self.source.clone().parse().map_err(|e| e.to_string())?;
        let mut own = self
            .common
            .session_of(loaded, "verify")
            .map_err(|e| e.to_string())?;
        drop(own.backstop.take());
        worker.share(&mut own.explore);
        let chosen = Chosen {
            choice: own.choice,
            semantics: own.semantics,
            explore: own.explore,
        };
        Ok((Program::clone(&own.loaded.program), Box::new(chosen)))
    }
}

/// Explores into an observer; conditions are left raw where configurations
/// are not condensed by them (§4's unfoldings), and only the printed ones
/// are simplified.
struct Exploring<'a> {
    inputs: std::collections::BTreeMap<symex_semantics::term::Name, symex_semantics::term::Sort>,
    options: &'a ExploreOptions,
    observer: &'a mut dyn Observer,
}

impl Visitor for Exploring<'_> {
    type Output = bool;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> bool
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let raw = self.options.simplify && !S::Config::CONDENSES;
        let options = ExploreOptions {
            simplify: self.options.simplify && !raw,
            ..self.options.clone()
        };
        // An observer that keeps what it needs never fails.
        let _ = explore_into(
            &semantics.symbolic,
            semantics.initial.clone(),
            &self.inputs,
            &options,
            self.observer,
        );
        raw
    }
}

/// The state of a concrete configuration: globals and the active locals.
fn visible<C: ConcreteConfiguration>(config: &C) -> Valuation {
    let mut state = config.global_state();
    for (x, value) in &config.local_state() {
        state.insert(x.clone(), value.clone());
    }
    state
}

struct Replaying<'a> {
    leaf: &'a Leaf,
    route: Route,
}

impl Visitor for Replaying<'_> {
    type Output = Option<PathReplay>;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> Option<PathReplay>
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let mut after_havocs = Vec::new();
        let mut last = Valuation::new();
        let replay = replay_path(
            self.leaf,
            self.route,
            &semantics.concrete,
            |inputs| semantics.start(inputs),
            |rule, config| {
                if rule == Rule::Havoc {
                    after_havocs.push(visible(config));
                }
                last = visible(config);
            },
        )?;
        Some(PathReplay {
            replay,
            after_havocs,
            last,
        })
    }
}

struct Running {
    inputs: Valuation,
}

impl Visitor for Running {
    type Output = Ran;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> Ran
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let finished = run(
            &semantics.concrete,
            semantics.start(self.inputs),
            RunLimits::steps(MAX_RUN_STEPS),
            |_, _| {},
        );
        Ran {
            end: finished.end,
            state: finished.last.global_state(),
        }
    }
}

/// Where a run on the first counterexample's inputs fails, as `symex run`
/// says it (the user's line and column, also inside sugar).
fn failing_at(report: &crate::verify::Report, session: &Session) -> Option<(usize, usize)> {
    let failure = crate::report::verify::counterexample(report)?;
    let FailureKind::Counterexample { inputs, error, .. } = &failure.kind else {
        return None;
    };
    let program = &session.loaded.program;
    let mut start = inputs.clone();
    for (x, sort) in &program.globals {
        if !start.contains_key(x) {
            start.insert(x.clone(), Value::default_of(sort));
        }
    }
    let execute = Execute {
        inputs: start,
        limits: RunLimits::steps(MAX_RUN_STEPS),
        trace: false,
        positions: Some(&session.loaded.positions),
    };
    let finished =
        with_semantics(program.clone(), session.choice, session.semantics, execute).ok()?;
    // Only where the run fails as the counterexample's path does.
    let failed = RunEnd::Finished(Outcome::Halted(Halt::Error(*error)));
    (finished.end == failed)
        .then_some(finished.site?.at)
        .flatten()
}

/// The options of `run` that make it run the program as `verify` did.
fn run_options(common: &Common) -> Vec<String> {
    let mut options = Vec::new();
    if common.checked_arrays {
        options.push("--checked-arrays".to_string());
    }
    if let Some(lang) = common.semantics.lang {
        options.extend(with_value("--lang", lang));
    }
    if let Some(precondition) = common.semantics.assume {
        options.extend(with_value("--assume", precondition));
    }
    options.extend(int_options(common.int.into()));
    options
}

/// `--flag value` as two words, the value as the command line names it.
fn with_value(flag: &str, value: impl ValueEnum) -> [String; 2] {
    let name = value
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string());
    [flag.to_string(), name]
}

pub fn command(args: &VerifyArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let common = &args.common;
    let mut session = common.session("verify")?;
    let program = session.loaded.program.clone();
    let options = Options {
        all: args.all,
        max_k: args.k_induction.then_some(args.max_k),
        semantics: session.semantics,
    };
    let chosen = Chosen {
        choice: session.choice,
        semantics: session.semantics,
        explore: session.explore.clone(),
    };
    if args.jobs > 1 {
        if let Some(conflict) = share::conflict(&session.explore) {
            return Err(CliError::new(conflict.replace("--shard", "--jobs")));
        }
    }
    let workers = VerifyWorkers {
        common,
        source: session.loaded.text(),
        jobs: args.jobs,
    };
    let workers = (args.jobs > 1).then_some(&workers as &dyn OnWorkers);
    let progress = crate::stop::progress::show();
    let report = verify_on(&program, &chosen, workers, options);
    drop(progress);
    // Stopped in time: the report is written whole, however long that takes.
    drop(session.backstop.take());
    let failing_at = failing_at(&report, &session);
    let shown = Shown {
        file: &session.loaded.path,
        program: &program,
        language: session.choice.language,
        legacy: program.annotations.is_empty() && !args.k_induction,
        run_options: run_options(common),
        failing_at,
    };
    if args.show_programs {
        for (unit, program) in &report.programs {
            writeln!(out, "// the verification program of {unit}\n{program}")?;
        }
    }
    match args.format {
        ReportFormat::Json => writeln!(out, "{:#}", json_report(&report, &shown))?,
        ReportFormat::Text => text_report(&report, &shown, out)?,
    }
    Ok(match report.verdict {
        Verdict::Proved => Exit::Done,
        Verdict::Failed => Exit::Failed,
        Verdict::Inconclusive => Exit::Inconclusive,
    })
}
