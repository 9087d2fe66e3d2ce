//! `symex check`: the paper's results on one program, on random inputs and
//! random symbolic paths, with a minimal counterexample for each result
//! that fails.

use super::cases::Cases;
use super::completeness::check_completeness;
use super::correctness::{check_correctness, feasible_run};
use super::inputs::{random_inputs, shrink};
use super::run::{symbolic_run, SymbolicRun};
use super::simulation::{Simulation, SymbolicConfig};
use super::soundness_assignment::check_soundness_assignment;
use super::substitution::check_substitution;
use crate::stop::Limit;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::time::Instant;
use symex_semantics::eval::{eval_bool, Valuation};
use symex_semantics::subst::Substitution;
use symex_semantics::system::SymbolicConfiguration;

/// How long the runs of one check are, and how long Z3 may think.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Steps of a random symbolic run and of a concrete run.
    pub max_steps: usize,
    /// Steps of a feasible symbolic run (each may ask Z3).
    pub feasible_steps: usize,
    /// Steps of an oo run on which `path(ρ)` is also computed by
    /// Definition 4.2, which substitutes through the whole condition per action.
    pub definition_steps: usize,
    pub timeout_ms: u64,
    /// The check stops here (or at Ctrl-C) with the runs done so far.
    pub deadline: Option<Instant>,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            max_steps: 200,
            feasible_steps: 60,
            definition_steps: 30,
            timeout_ms: 2000,
            deadline: None,
        }
    }
}

/// What `symex check` found.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    pub language: String,
    pub seed: u64,
    pub runs: u64,
    /// The runs done: fewer than `runs` when a limit stopped the check.
    pub runs_done: u64,
    /// The limit that stopped the check early, if one did.
    pub stopped: Option<Limit>,
    pub checked_arrays: bool,
    pub results: Vec<ResultReport>,
}

/// One result of the paper on this program.
#[derive(Clone, Debug, Serialize)]
pub struct ResultReport {
    /// As the paper names it, e.g. `Theorem 2.3 (Correctness)`.
    pub result: String,
    /// How many instances were checked (pairs `(σ, e)`, assignments, runs).
    pub cases: u64,
    /// Symbolic successors Z3 could not decide (left out of the runs).
    pub undecided: u64,
    pub counterexample: Option<Counterexample>,
}

/// A minimal disagreement between the two systems.
#[derive(Clone, Debug, Serialize)]
pub struct Counterexample {
    /// The run (0-based) it was found in.
    pub run: u64,
    /// The inputs, shrunk: each value printed in source syntax.
    pub inputs: BTreeMap<String, String>,
    /// The initial heap of an oo program (SPEC §2.1's `"objects"` of `--heap`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heap: Option<serde_json::Value>,
    /// The length of the run, shrunk.
    pub steps: usize,
    pub explanation: String,
}

impl CheckReport {
    /// Whether no result has a counterexample.
    pub fn passed(&self) -> bool {
        self.results.iter().all(|r| r.counterexample.is_none())
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let arrays = if self.checked_arrays { "on" } else { "off" };
        writeln!(
            f,
            "{} program, {} runs, seed {}, checked arrays {arrays}",
            self.language, self.runs, self.seed
        )?;
        if let Some(limit) = self.stopped {
            writeln!(
                f,
                "  stopped after {} of {} runs: {limit}; the results below are of those runs",
                self.runs_done, self.runs
            )?;
        }
        for r in &self.results {
            let verdict = if r.counterexample.is_some() {
                "FAILED"
            } else {
                "ok"
            };
            write!(f, "  {:<40} {verdict:<6} {} cases", r.result, r.cases)?;
            if r.undecided > 0 {
                write!(f, " ({} successors undecided by Z3)", r.undecided)?;
            }
            writeln!(f)?;
            if let Some(c) = &r.counterexample {
                let inputs: Vec<String> =
                    c.inputs.iter().map(|(x, v)| format!("{x} = {v}")).collect();
                writeln!(
                    f,
                    "    counterexample (run {}, steps {}): {}",
                    c.run,
                    c.steps,
                    inputs.join(", ")
                )?;
                if let Some(heap) = &c.heap {
                    writeln!(f, "    heap: {heap}")?;
                }
                for line in c.explanation.lines() {
                    writeln!(f, "    {line}")?;
                }
            }
        }
        Ok(())
    }
}

/// Names of the four results for a language: substitution lemma, soundness
/// of assignment, correctness, completeness.
pub type ResultNames = [&'static str; 4];

/// §2's results.
pub const BASIC_RESULTS: ResultNames = [
    "Lemma 2.1 (Substitution)",
    "Corollary 2.2 (Soundness assignment)",
    "Theorem 2.3 (Correctness)",
    "Theorem 2.4 (Completeness)",
];

/// §3's results.
pub const RECURSIVE_RESULTS: ResultNames = [
    "Lemma 3.3 (Substitution)",
    "Corollary 3.4 (Soundness assignment)",
    "Theorem 3.5 (Correctness)",
    "Theorem 3.6 (Completeness)",
];

/// The four results on `runs` random inputs and paths drawn from `seed`.
pub fn check<M: Simulation>(
    simulation: &M,
    language: &str,
    names: ResultNames,
    checked_arrays: bool,
    runs: u64,
    seed: u64,
    bounds: Bounds,
) -> CheckReport {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut results: Vec<ResultReport> = names
        .iter()
        .map(|name| ResultReport {
            result: name.to_string(),
            cases: 0,
            undecided: 0,
            counterexample: None,
        })
        .collect();
    let apply = |sigma: &Substitution, e: &symex_semantics::term::Term| sigma.apply(e);
    let mut done = Done::default();
    for r in 0..runs {
        if done.stop(r, bounds.deadline) {
            break;
        }
        let inputs = random_inputs(simulation.inputs(), &mut rng);
        let run = symbolic_run(simulation, bounds.max_steps, |_, successors| {
            (!successors.is_empty()).then(|| rng.gen_range(0..successors.len()))
        });
        record(
            &mut results[0],
            r,
            &run,
            &inputs,
            |run, v| check_substitution(simulation, run, v, &[], &apply),
            |_, _| true,
        );
        record(
            &mut results[1],
            r,
            &run,
            &inputs,
            |run, v| check_soundness_assignment(simulation, run, v),
            |_, _| true,
        );
        if results[2].counterexample.is_none() {
            let feasible = feasible_run(
                simulation,
                inputs.clone(),
                bounds.feasible_steps,
                (bounds.timeout_ms, bounds.deadline),
                |n| rng.gen_range(0..n),
            );
            results[2].undecided += feasible.unknown as u64;
            let satisfies = |run: &SymbolicRun<SymbolicConfig<M>>, v: &Valuation| {
                eval_bool(run.last().path_condition(), v) == Ok(true)
            };
            record(
                &mut results[2],
                r,
                &feasible.run,
                &feasible.model,
                |run, v| check_correctness(simulation, run, v),
                satisfies,
            );
        }
        record_completeness(simulation, &mut results[3], r, &inputs, bounds.max_steps);
    }
    done.finished(runs);
    CheckReport {
        language: language.to_string(),
        seed,
        runs,
        runs_done: done.runs,
        stopped: done.stopped,
        checked_arrays,
        results,
    }
}

/// How far a check got before a limit stopped it.
#[derive(Default)]
pub(super) struct Done {
    pub(super) runs: u64,
    pub(super) stopped: Option<Limit>,
}

impl Done {
    /// Before run `r`: records the runs done and whether a limit (the
    /// deadline, Ctrl-C) stops the check here.
    pub(super) fn stop(&mut self, r: u64, deadline: Option<Instant>) -> bool {
        self.runs = r;
        crate::stop::progress::ran(r);
        self.stopped = crate::stop::reached(deadline);
        self.stopped.is_some()
    }

    /// After the last run, when no limit stopped the check.
    pub(super) fn finished(&mut self, runs: u64) {
        if self.stopped.is_none() {
            self.runs = runs;
        }
    }
}

/// Checks one run and, on failure, shrinks it to the shortest failing
/// prefix and then the inputs to a locally minimal failing valuation;
/// `premise` says which candidates the result speaks about at all.
fn record<C: Clone>(
    result: &mut ResultReport,
    r: u64,
    run: &SymbolicRun<C>,
    inputs: &Valuation,
    check: impl Fn(&SymbolicRun<C>, &Valuation) -> Result<Cases, String>,
    premise: impl Fn(&SymbolicRun<C>, &Valuation) -> bool,
) {
    if result.counterexample.is_some() {
        return;
    }
    match check(run, inputs) {
        Ok(cases) => result.cases += cases.total(),
        Err(_) => {
            let shortest = (0..=run.steps.len())
                .map(|n| {
                    let mut prefix = run.clone();
                    prefix.truncate(n);
                    prefix
                })
                .find(|prefix| check(prefix, inputs).is_err())
                .unwrap_or_else(|| run.clone());
            let fails = |v: &Valuation| premise(&shortest, v) && check(&shortest, v).is_err();
            let minimal = shrink(inputs.clone(), fails);
            let explanation = check(&shortest, &minimal).err().unwrap_or_default();
            result.counterexample = Some(counterexample(
                r,
                &minimal,
                shortest.steps.len(),
                explanation,
            ));
        }
    }
}

fn record_completeness<M: Simulation>(
    simulation: &M,
    result: &mut ResultReport,
    r: u64,
    inputs: &Valuation,
    max_steps: usize,
) {
    if result.counterexample.is_some() {
        return;
    }
    match check_completeness(simulation, inputs, max_steps) {
        Ok(_) => result.cases += 1,
        Err(_) => {
            let steps = (0..=max_steps)
                .find(|&n| check_completeness(simulation, inputs, n).is_err())
                .unwrap_or(max_steps);
            let minimal = shrink(inputs.clone(), |v| {
                check_completeness(simulation, v, steps).is_err()
            });
            let explanation = check_completeness(simulation, &minimal, steps)
                .err()
                .unwrap_or_default();
            result.counterexample = Some(counterexample(r, &minimal, steps, explanation));
        }
    }
}

/// The counterexample of run `run`, without a heap (oo programs add theirs).
pub(super) fn counterexample(
    run: u64,
    inputs: &Valuation,
    steps: usize,
    explanation: String,
) -> Counterexample {
    let variables = inputs
        .iter()
        .map(|(x, v)| (x.to_string(), v.to_string()))
        .collect();
    Counterexample {
        run,
        inputs: variables,
        heap: None,
        steps,
        explanation,
    }
}
