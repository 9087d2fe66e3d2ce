//! Verification by symbolic execution, as King's EFFIGY does it (CACM
//! 1976, §8, after Floyd and Deutsch): the user's inductive assertions cut
//! every loop, each path segment between two of them is executed
//! symbolically once, "the ASSERT at the beginning of the path [made] an
//! ASSUME, the ASSERT at the end a PROVE", and the verification
//! conditions are those PROVEs. Procedures with contracts are proved once
//! against them, and their calls use the contract.
//!
//! [`encode`] writes each unit (the main statement, each body with a
//! contract) as a verification program whose labelled assertions are the
//! conditions; the explorer runs it ([`Explorer`], chosen by the caller);
//! [`observer`] keeps the failed paths, stopping at the first unless all
//! are wanted; each failure is replayed and classified ([`classify`]): a
//! real input that fails the program (run with its annotations checked),
//! a state at a cut point from which a condition fails (a Floyd condition
//! that does not hold, though the state may be unreachable), or undecided.
//!
//! Loops without annotation are explored within the bounds, or, with
//! k-induction, proved by [`induction`] with candidate invariants that
//! Houdini first shows inductive ([`candidates`]).

mod candidates;
mod classify;
mod conditions;
mod encode;
mod induction;
mod mutant;
mod observer;
mod workers;
mod writes;

pub use classify::{Failure, FailureKind};
pub use conditions::{Condition, CutPoint, Unit};
pub use encode::{encode, Encoding, Treatment};
#[cfg(any(test, feature = "mutants"))]
pub use mutant::break_verifier;
pub use mutant::Mutant;
pub use workers::OnWorkers;

use crate::explore::run::RunEnd;
use crate::explore::{Leaf, Observer, Replay, Route};
use observer::Collector;
use std::collections::BTreeMap;
use std::rc::Rc;
use symex_semantics::annotations::{instrument, Instrumented};
use symex_semantics::eval::Valuation;
use symex_semantics::program::{ErrorKind, LoopId, Program};
use symex_semantics::term::Term;

/// How the verifier explores and runs programs: the semantics and the
/// explorer's settings, chosen by the caller. Another exploration (state
/// merging, say) plugs in here.
pub trait Explorer {
    /// Explores `program` symbolically, reporting to `observer`; whether
    /// the leaves' path conditions were left raw (to be simplified when
    /// printed).
    fn explore(&self, program: &Rc<Program>, observer: &mut dyn Observer) -> bool;

    /// Runs the model of `leaf` concretely on `program`, which must take
    /// `route` and end as the leaf predicts.
    fn replay(&self, program: &Rc<Program>, leaf: &Leaf, route: Route) -> Option<PathReplay>;

    /// Runs `program` concretely from `inputs`.
    fn run(&self, program: &Rc<Program>, inputs: Valuation) -> Ran;
}

/// A path's replay, with the states a verifier reports.
pub struct PathReplay {
    pub replay: Replay,
    /// The state (globals and the active closure's locals) after each
    /// `havoc` step, in order.
    pub after_havocs: Vec<Valuation>,
    /// The state where the run ended, with the active closure's locals.
    pub last: Valuation,
}

/// How a concrete run ended, and in which state (globals).
pub struct Ran {
    pub end: RunEnd,
    pub state: Valuation,
}

/// What to verify and how.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Report every failing path, not only the first.
    pub all: bool,
    /// Prove loops without annotation by k-induction, `k` up to this.
    pub max_k: Option<usize>,
    /// The semantics' options (`--checked-arrays`): annotations are
    /// checked for definedness like any expression.
    pub semantics: symex_semantics::system::Options,
}

/// How verification ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every condition holds and every path was explored.
    Proved,
    /// A condition fails: a counterexample, or a Floyd condition that does not hold.
    Failed,
    /// Neither: a bound, the solver, or k-induction up to its `k`.
    Inconclusive,
}

/// What is known of one condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Proved,
    Fails,
    Unknown,
    /// Not reached: verification stopped at an earlier failure.
    Unchecked,
}

/// A proof by k-induction: the `k` that sufficed, and the candidate
/// invariants shown inductive and assumed at each loop's step.
#[derive(Clone, Debug, Default)]
pub struct Induction {
    pub k: usize,
    pub invariants: BTreeMap<LoopId, Vec<Term>>,
}

/// The verifier's answer.
pub struct Report {
    pub verdict: Verdict,
    /// Every condition once (a loop body copied by k-induction has its
    /// assertions once), in program order, with what is known of it.
    pub conditions: Vec<(Condition, Status)>,
    /// The failures found, the first first.
    pub failures: Vec<Failure>,
    /// With k-induction and a verdict other than `Failed`.
    pub induction: Option<Induction>,
    /// Assertion checks proved on some path (`assert` could not fail there).
    pub proved_checks: usize,
    /// Paths a bound cut or the solver left undecided, and configurations
    /// a limit left unexplored.
    pub incomplete: usize,
    pub unexplored: usize,
    /// Paths cut by abstract subsumption (`--abstract`): an
    /// under-approximation, so never a proof.
    pub abstracted: usize,
    /// The limit that left configurations unexplored, if one did.
    pub stopped: Option<crate::explore::Limit>,
    /// The main statement's exploration (the paths of the program itself).
    pub stats: crate::explore::Stats,
    /// Whether the failures' path conditions were left raw.
    pub raw_conditions: bool,
    /// The program with its annotations as checked assertions, whose runs
    /// confirm counterexamples.
    pub instrumented: Instrumented,
    /// The verification program each unit was last checked with.
    pub programs: Vec<(Unit, Rc<Program>)>,
}

/// One unit's exploration, its failures classified.
struct Checked {
    unit: Unit,
    encoding: Encoding,
    collector: Collector,
    failures: Vec<Failure>,
    raw: bool,
}

impl Checked {
    /// Whether every condition of the unit holds on every path.
    fn proved(&self) -> bool {
        self.failures.is_empty() && self.collector.incomplete == 0 && self.collector.unexplored == 0
    }
}

/// Verifies `program`.
pub fn verify(program: &Program, explorer: &dyn Explorer, options: Options) -> Report {
    verify_on(program, explorer, None, options)
}

/// Verifies `program`, exploring the units explored as they are on
/// `workers` when given ([`workers`]: k-induction's and Houdini's
/// programs hold terms, and are explored by `explorer` alone).
pub fn verify_on(
    program: &Program,
    explorer: &dyn Explorer,
    workers: Option<&dyn OnWorkers>,
    options: Options,
) -> Report {
    let verifier = Verifier {
        program,
        explorer,
        workers,
        options,
        instrumented: instrument(program),
    };
    verifier.verify()
}

struct Verifier<'a> {
    program: &'a Program,
    explorer: &'a dyn Explorer,
    workers: Option<&'a dyn OnWorkers>,
    options: Options,
    instrumented: Instrumented,
}

impl Verifier<'_> {
    /// The units: the main statement, then each body proved once against
    /// its contract.
    fn units(&self) -> Vec<Unit> {
        let bodies = self.program.annotations.procedures.keys();
        let modular = bodies.filter(|p| encode::modular(self.program, p));
        std::iter::once(Unit::Main)
            .chain(modular.map(|p| Unit::Body(p.clone())))
            .collect()
    }

    fn verify(self) -> Report {
        let loops_to_prove = !candidates::candidates(self.program).is_empty();
        let (checked, induction) = match self.options.max_k {
            Some(max_k) if loops_to_prove => {
                let invariants = induction::houdini(&self, &self.units());
                let (checked, ks) = self.by_induction(max_k, &invariants);
                let proved = checked.iter().all(|unit| unit.proved());
                let invariants = match proved {
                    true => induction::used(&self, &ks, invariants),
                    false => invariants,
                };
                let k = ks.iter().map(|(_, k)| *k).max().unwrap_or(1);
                (checked, Some(Induction { k, invariants }))
            }
            _ => (self.each_unit(|_| Treatment::Explore), None),
        };
        self.report(checked, induction)
    }

    /// Whether every failing path is looked for: when asked, and for a
    /// program with classes, whose counterexample is the one with the
    /// fewest objects (§4's examples are read best on the smallest heap).
    fn exhaustive(&self) -> bool {
        self.options.all || !self.program.classes.is_empty()
    }

    /// Checks each unit under `treatment`, stopping after the first that
    /// fails unless every failure is wanted.
    fn each_unit<'t>(&self, treatment: impl Fn(&Unit) -> Treatment<'t>) -> Vec<Checked> {
        let mut checked = Vec::new();
        for unit in self.units() {
            let unit_checked = self.check(&unit, treatment(&unit), self.exhaustive());
            let failed = unit_checked
                .failures
                .iter()
                .any(|failure| failure.kind.is_failure());
            checked.push(unit_checked);
            if failed && !self.exhaustive() {
                break;
            }
        }
        checked
    }

    /// k-induction, `k` from 1 up to `max_k` for each unit until it is
    /// proved or fails; the units' checks and the `k` each used.
    fn by_induction(
        &self,
        max_k: usize,
        invariants: &BTreeMap<LoopId, Vec<Term>>,
    ) -> (Vec<Checked>, Vec<(Unit, usize)>) {
        let mut ks = Vec::new();
        let mut all_checked = Vec::new();
        for unit in self.units() {
            let mut k = 1;
            let unit_checked = loop {
                let treatment = Treatment::Induction { k, invariants };
                let checked = self.check(&unit, treatment, self.exhaustive());
                let decided = checked
                    .failures
                    .iter()
                    .all(|failure| !failure.kind.is_induction_step());
                if decided || k >= max_k {
                    break checked;
                }
                k += 1;
            };
            ks.push((unit, k));
            let failed = unit_checked
                .failures
                .iter()
                .any(|failure| failure.kind.is_failure());
            all_checked.push(unit_checked);
            if failed && !self.exhaustive() {
                break;
            }
        }
        (all_checked, ks)
    }

    /// Explores the verification program of `unit` and classifies its failures.
    fn check(&self, unit: &Unit, treatment: Treatment, all: bool) -> Checked {
        let as_written = matches!(treatment, Treatment::Explore);
        let encoding = encode(self.program, unit, treatment, self.options.semantics);
        let mut collector = Collector::new(all);
        let on_workers = self
            .workers
            .filter(|_| as_written)
            .and_then(|on| workers::explore(on, unit, self.options.semantics, &mut collector).ok());
        // A worker that cannot load the program the caller loaded (it
        // cannot happen) leaves the unit to one job.
        let raw = on_workers.unwrap_or_else(|| {
            collector = Collector::new(all);
            self.explorer.explore(&encoding.program, &mut collector)
        });
        let failures = collector
            .failed
            .iter()
            .map(|failed| classify::classify(self, unit, &encoding, failed))
            .collect();
        Checked {
            unit: unit.clone(),
            encoding,
            collector,
            failures,
            raw,
        }
    }

    fn report(self, checked: Vec<Checked>, induction: Option<Induction>) -> Report {
        let mut conditions: Vec<(Condition, Status)> = Vec::new();
        let mut failures = Vec::new();
        let (mut proved_checks, mut incomplete, mut unexplored, mut abstracted) = (0, 0, 0, 0);
        let mut stats = crate::explore::Stats::default();
        let mut raw_conditions = false;
        let mut limit = None;
        for unit in &checked {
            let complete = unit.collector.incomplete == 0 && unit.collector.unexplored == 0;
            let stopped = unit.collector.stopped;
            for condition in &unit.encoding.conditions {
                let mut status = if complete && !stopped {
                    Status::Proved
                } else if stopped {
                    Status::Unchecked
                } else {
                    Status::Unknown
                };
                for failure in &unit.failures {
                    if failure.condition.as_ref() == Some(condition) {
                        status = match (&status, failure.kind.is_failure()) {
                            (_, true) | (Status::Fails, _) => Status::Fails,
                            _ => Status::Unknown,
                        };
                    }
                }
                merge(&mut conditions, condition, status);
            }
            proved_checks += unit.collector.proved_checks;
            incomplete += unit.collector.incomplete;
            unexplored += unit.collector.unexplored;
            abstracted += unit.collector.abstracted;
            limit = limit.or(unit.collector.limit);
            raw_conditions |= unit.raw;
        }
        if let Some(main) = checked.first() {
            stats = main.collector.stats.clone();
        }
        for unit in self.units().iter().skip(checked.len()) {
            let encoding = encode(
                self.program,
                unit,
                Treatment::Explore,
                self.options.semantics,
            );
            for condition in &encoding.conditions {
                merge(&mut conditions, condition, Status::Unchecked);
            }
        }
        let mut programs = Vec::new();
        for unit in checked {
            failures.extend(unit.failures);
            programs.push((unit.unit, unit.encoding.program));
        }
        // Failed assertions (what verification is about) before other
        // errors, and among counterexamples the fewest objects first.
        failures.sort_by_key(|failure| {
            let assertion = failure.status.error() == Some(ErrorKind::AssertionFailed);
            let objects = match &failure.kind {
                FailureKind::Counterexample { inputs, .. } => inputs.heap.len(),
                _ => usize::MAX,
            };
            (!failure.kind.is_failure(), !assertion, objects)
        });
        let failed = failures.iter().any(|f| f.kind.is_failure());
        let undecided = incomplete > 0
            || unexplored > 0
            || abstracted > 0
            || !failures.is_empty()
            || conditions.iter().any(|(_, s)| *s != Status::Proved);
        let verdict = if failed {
            Verdict::Failed
        } else if undecided {
            Verdict::Inconclusive
        } else {
            Verdict::Proved
        };
        Report {
            verdict,
            conditions,
            failures,
            induction: induction.filter(|_| verdict != Verdict::Failed),
            proved_checks,
            incomplete,
            unexplored,
            abstracted,
            stopped: limit,
            stats,
            raw_conditions,
            instrumented: self.instrumented,
            programs,
        }
    }
}

/// Adds `condition` with `status`, or merges it with an equal one already
/// there: a failure anywhere fails it, an unknown leaves it unknown.
fn merge(conditions: &mut Vec<(Condition, Status)>, condition: &Condition, status: Status) {
    match conditions.iter_mut().find(|(c, _)| c == condition) {
        Some((_, known)) => {
            *known = match (&*known, &status) {
                (Status::Fails, _) | (_, Status::Fails) => Status::Fails,
                (Status::Proved, Status::Proved) => Status::Proved,
                (Status::Unchecked, _) | (_, Status::Unchecked) => Status::Unchecked,
                _ => Status::Unknown,
            }
        }
        None => conditions.push((condition.clone(), status)),
    }
}
