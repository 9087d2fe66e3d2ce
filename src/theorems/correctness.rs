//! Theorem 2.3 (Correctness): if `⟨S, id, true⟩ →* ⟨S', σ, φ⟩` and `V(φ)`,
//! then `⟨S, V⟩ →* ⟨S', V∘σ⟩`; in §3, Theorem 3.5: `⟨(L, S), G⟩ →*
//! ⟨(V∘τ, S')·V•Δ, V∘σ⟩`.
//!
//! The symbolic run is random but feasible: at every step a random
//! successor whose path condition Z3 finds satisfiable, so no run is wasted
//! on an empty premise; the last model found is the `V` of the theorem.

use super::cases::{Cases, INITIAL};
use super::run::{symbolic_run, SymbolicRun};
use super::simulation::{Simulation, SymbolicConfig};
use crate::solver::{SatResult, Solver};
use symex_semantics::eval::{eval_bool, ShowValuation, Valuation};
use symex_semantics::system::{Step, SymbolicConfiguration, TransitionSystem};

/// A symbolic run through satisfiable path conditions and a valuation
/// that satisfies the last one.
pub struct FeasibleRun<C> {
    pub run: SymbolicRun<C>,
    pub model: Valuation,
    /// Successors left out because Z3 could not decide them.
    pub unknown: usize,
}

/// A run of at most `max_steps` steps from `⟨S, id, true⟩`, taking at every
/// step a feasible successor: `pick(n)` chooses one of `n` candidates
/// (`< n`); a candidate that `V` satisfies is feasible without asking Z3,
/// otherwise Z3 decides, and its model becomes the new `V`. `start` is the
/// first `V` (it must satisfy `true`, so any valuation of the inputs does).
/// Z3 gives up on a query after the time limit, and on every query after the
/// deadline (the run then ends there).
pub fn feasible_run<M: Simulation>(
    simulation: &M,
    start: Valuation,
    max_steps: usize,
    (timeout_ms, deadline): (u64, Option<std::time::Instant>),
    mut pick: impl FnMut(usize) -> usize,
) -> FeasibleRun<SymbolicConfig<M>> {
    let mut solver = Solver::new(timeout_ms);
    solver.set_deadline(deadline);
    let mut model = start;
    let mut unknown = 0;
    let run = symbolic_run(
        simulation,
        max_steps,
        |_, successors: &[Step<SymbolicConfig<M>>]| {
            let mut candidates: Vec<usize> = (0..successors.len()).collect();
            while !candidates.is_empty() {
                let chosen = candidates.remove(pick(candidates.len()) % candidates.len());
                let step = &successors[chosen];
                if eval_bool(step.next.path_condition(), &model) == Ok(true) {
                    solver.assert(&step.guard);
                    return Some(chosen);
                }
                match solver.check_assuming(&step.guard) {
                    SatResult::Sat => match solver.model(simulation.inputs()) {
                        Some(found) => {
                            model = found;
                            solver.assert(&step.guard);
                            return Some(chosen);
                        }
                        None => unknown += 1,
                    },
                    SatResult::Unsat => {}
                    SatResult::Unknown => unknown += 1,
                    // Stopped by the user: the run ends here, undecided by no one.
                    SatResult::Interrupted => return None,
                }
            }
            None
        },
    );
    FeasibleRun {
        run,
        model,
        unknown,
    }
}

/// Theorem 2.3 on `run` and `v`: for every `k` with `V(φₖ)`, the concrete
/// run from `⟨S, V⟩` is after `k` steps in the configuration `cₖ` stands
/// for under `V` (the same statement, and `V∘σₖ` on the globals). Returns
/// the configurations checked, by the rule that reached them.
pub fn check_correctness<M: Simulation>(
    simulation: &M,
    run: &SymbolicRun<SymbolicConfig<M>>,
    v: &Valuation,
) -> Result<Cases, String> {
    let mut checked = Cases::default();
    let mut concrete = simulation.concrete_initial(v);
    let rules = std::iter::once(None).chain(run.steps.iter().map(|step| Some(step.rule)));
    for (k, (c, rule)) in run.configs().zip(rules).enumerate() {
        if k > 0 {
            let successors = match simulation.concrete().try_successors(&concrete) {
                // Beyond the evaluator's integer bound the theorem cannot be checked: the run ends here.
                Err(error) if error.is_too_large() => return Ok(checked),
                successors => successors.unwrap_or_default(),
            };
            let Some(step) = successors.into_iter().next() else {
                return Err(format!(
                    "from V = {}, the concrete run stops after {} steps in {concrete}, the symbolic run goes on to {c}",
                    ShowValuation(v),
                    k - 1
                ));
            };
            concrete = step.next;
        }
        if eval_bool(c.path_condition(), v) != Ok(true) {
            return Ok(checked);
        }
        let expected = simulation.instantiate(c, v)?;
        if let Some(why) = simulation.difference(&expected, &concrete) {
            return Err(format!(
                "from V = {}, after {k} steps: {why}\n  symbolic: {c}\n  concrete: {concrete}",
                ShowValuation(v)
            ));
        }
        match rule {
            Some(rule) => checked.add(rule),
            None => checked.add(INITIAL),
        }
    }
    Ok(checked)
}
