//! §4's results on the traces of one program: the program semantics
//! `⟨S, (G, H)⟩` and the unfolding `⟨S, ρ⟩` are run in lockstep from one
//! consistent configuration `V`, and at every step, for every successor
//! `⟨S', ρ'⟩` of the unfolding:
//!
//! - Theorem 4.5 by Definition 4.2: `⟨V, ρ'⟩ →* ε` iff `V(path(ρ'))`;
//! - Theorem 4.5 for the path condition the unfolding carries, built
//!   incrementally by `oo::wp`: `⟨V, ρ'⟩ →* ε` iff `V(φ')`;
//! - the result §4 states only in words: exactly one successor's trace runs
//!   from `V` (none once the program has halted), taken by the same rule as
//!   the program's step, reaching the same heap and the same values of the
//!   variables both know, and finally the same outcome — for the inputs
//!   the program's `assume`s admit, the only ones the unfolding stands for.
//!
//! The traces the lockstep follows are feasible (`V` runs them); their
//! siblings are the stuck cases. Statements are not compared: under the
//! paper's literal `this` rule they differ in spelling even where they mean
//! the same.

use super::cases::Cases;
use symex_semantics::delta::Checks;
use symex_semantics::eval::{eval_bool, ShowValuation, Valuation};
use symex_semantics::oo::concrete::{self, Concrete};
use symex_semantics::oo::path::Calculus;
use symex_semantics::oo::trace::Traces;
use symex_semantics::oo::unfold;
use symex_semantics::oo::ShowTrace;
use symex_semantics::program::{ErrorKind, Halt, Outcome};
use symex_semantics::system::{Configuration, Rule, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::Term;

/// Theorem 4.5 with `path(ρ)` by Definition 4.2.
pub const DEFINITION: usize = 0;
/// Theorem 4.5 with the unfolding's incremental path condition.
pub const INCREMENTAL: usize = 1;
/// The unfolding with the trace semantics agrees with the program semantics.
pub const AGREEMENT: usize = 2;

/// §4's results, in the order of [`DEFINITION`], [`INCREMENTAL`], [`AGREEMENT`].
pub const OO_RESULTS: [&str; 3] = [
    "Theorem 4.5 (path(ρ), Definition 4.2)",
    "Theorem 4.5 (incremental wp)",
    "§4 unfolding agrees with program semantics",
];

/// The case of a trace that runs to its end.
pub const RUNS: &str = "⟨V, ρ⟩ →* ε";
/// The case of a trace that gets stuck.
pub const STUCK: &str = "stuck";

/// The systems one lockstep compares; `U` is the real unfolding or a
/// broken one, `C` the calculus Definition 4.2 is computed by.
pub struct Lockstep<'a, U, C: ?Sized> {
    pub unfold: &'a U,
    /// `⟨S, ε⟩` for the main statement `S`.
    pub initial: unfold::Config,
    pub concrete: &'a Concrete,
    pub traces: &'a Traces,
    pub calculus: &'a C,
    pub checks: Checks,
}

/// The first disagreement: the result it refutes, and why.
#[derive(Clone, Debug)]
pub struct Disagreement {
    pub result: usize,
    pub explanation: String,
}

fn disagree(result: usize, explanation: String) -> Disagreement {
    Disagreement {
        result,
        explanation,
    }
}

/// Whether `V(φ) = true` (`⊥` is not).
fn true_in(phi: &Term, v: &Valuation, result: usize) -> Result<bool, Disagreement> {
    match eval_bool(phi, v) {
        Ok(truth) => Ok(truth),
        Err(error) if error.is_nil_dereference() => Ok(false),
        Err(error) => Err(disagree(
            result,
            format!("{error} in the path condition {phi}"),
        )),
    }
}

/// The same heap, and the same values where both know a variable.
pub fn same_state(trace: &Valuation, program: &Valuation) -> bool {
    (trace.heap == program.heap
        || crate::mutants::active(crate::mutants::Mutant::AgreementIgnoresHeap))
        && program
            .iter()
            .all(|(x, value)| trace.get(x).is_none_or(|w| w == value))
}

/// How the program halted, as a case of the agreement.
pub fn outcome_case(c: &concrete::Config) -> &'static str {
    match c.outcome() {
        Some(Outcome::Terminated) => "terminated",
        Some(Outcome::Halted(Halt::Error(ErrorKind::NilDereference))) => "nil-dereference",
        Some(Outcome::Halted(Halt::Error(ErrorKind::AssertionFailed))) => "assertion-failed",
        _ => "other outcome",
    }
}

impl<U, C> Lockstep<'_, U, C>
where
    U: TransitionSystem<Config = unfold::Config>,
    C: Calculus + ?Sized,
{
    /// Runs both semantics from `v` for at most `steps` steps, Definition
    /// 4.2 (quadratic in ρ) on the first `definition_steps` of them only;
    /// adds what was checked to `cases`, one per result. Returns the first
    /// disagreement of each result that has one: a result stops being
    /// checked at its first, and the lockstep ends at a disagreement of
    /// the agreement itself.
    pub fn run(
        &self,
        v: &Valuation,
        steps: usize,
        definition_steps: usize,
        cases: &mut [Cases; 3],
    ) -> Vec<Disagreement> {
        let mut found = Vec::new();
        if let Err(disagreement) = self.walk(v, steps, definition_steps, cases, &mut found) {
            found.push(disagreement);
        }
        found
    }

    fn walk(
        &self,
        v: &Valuation,
        steps: usize,
        definition_steps: usize,
        cases: &mut [Cases; 3],
        found: &mut Vec<Disagreement>,
    ) -> Result<(), Disagreement> {
        let (mut c, mut u, mut after) = (
            self.concrete.initial(v.clone()),
            self.initial.clone(),
            v.clone(),
        );
        for k in 0..steps {
            let next = match self.concrete.try_successors(&c) {
                // Beyond the evaluator's integer bound nothing can be compared: the lockstep ends here.
                Err(error) if error.is_too_large() => return Ok(()),
                successors => successors
                    .map_err(|error| disagree(AGREEMENT, format!("in {c}: {error}")))?
                    .into_iter()
                    .next(),
            };
            let mut runnable = Vec::new();
            for step in self.unfold.successors(&u) {
                let actions = step.next.state.actions();
                let run = self.traces.run(
                    after.clone(),
                    actions.get(u.state.len()..).unwrap_or_default(),
                );
                let case = if run.is_ok() { RUNS } else { STUCK };
                let mut theorem = |result: usize, phi: &Term| {
                    if found.iter().any(|d| d.result == result) {
                        return;
                    }
                    match true_in(phi, v, result) {
                        Ok(holds) if holds == run.is_ok() => cases[result].add(case),
                        Ok(_) => {
                            let runs = if run.is_ok() { "→* ε" } else { "is stuck" };
                            let why = format!("from V = {}: ⟨V, ρ⟩ {runs}, but V(φ) differs, for\n  ρ = {}\n  φ = {phi}", ShowValuation(v), ShowTrace(&actions));
                            found.push(disagree(result, why));
                        }
                        Err(disagreement) => found.push(disagreement),
                    }
                };
                theorem(INCREMENTAL, step.next.path_condition());
                if k < definition_steps {
                    theorem(DEFINITION, &self.calculus.path(&actions, self.checks));
                }
                if let Ok(state) = run {
                    runnable.push((step, state));
                }
            }
            let count = runnable.len();
            let (program_step, (step, state)) = match (next, runnable.pop()) {
                (None, None) => {
                    cases[AGREEMENT].add(outcome_case(&c));
                    return match c.outcome() == u.outcome() {
                        true => Ok(()),
                        false => Err(disagree(
                            AGREEMENT,
                            format!("the program ends in {c}, the unfolding in {u}"),
                        )),
                    };
                }
                (Some(program_step), Some(unfolded)) if count == 1 => (program_step, unfolded),
                // The unfolding stands for the inputs an `assume` admits only.
                (Some(program_step), None) if program_step.rule == Rule::AssumptionViolated => {
                    cases[AGREEMENT].add("assumption violated");
                    return Ok(());
                }
                (program_step, _) => {
                    let steps = if program_step.is_some() {
                        "steps"
                    } else {
                        "has halted"
                    };
                    let why = format!("from V = {}, after {c}: the program {steps}, the unfolding has {count} runnable steps", ShowValuation(v));
                    return Err(disagree(AGREEMENT, why));
                }
            };
            if step.rule != program_step.rule || !same_state(&state, &program_step.next.valuation) {
                let why = format!(
                    "from V = {}: the program steps by {:?} to {}, the unfolding by {:?} to ⟨V', ε⟩ with V' = {}",
                    ShowValuation(v),
                    program_step.rule,
                    program_step.next,
                    step.rule,
                    ShowValuation(&state)
                );
                return Err(disagree(AGREEMENT, why));
            }
            cases[AGREEMENT].add(step.rule);
            (c, u, after) = (program_step.next, step.next, state);
        }
        cases[AGREEMENT].add("bound reached");
        Ok(())
    }
}
