//! Theorem 2.4 (Completeness): for any concrete computation
//! `⟨S, V₀⟩ →* ⟨S', V⟩` there is a symbolic computation
//! `⟨S, id, true⟩ →* ⟨S', σ, φ⟩` with `V₀(φ)` and `V = V₀∘σ`; in §3,
//! Theorem 3.6 with `Γ = V•Δ`, `L' = V∘τ` and `G' = V∘σ`.
//!
//! The symbolic computation is the one the concrete run selects: at every
//! step the symbolic successor by the same rule, whose guard must hold
//! under `V₀`, and the invariant is checked after every step.
//!
//! One concrete step has no symbolic counterpart, by design (SPEC §1.5):
//! symbolically `assume e` only conjoins `e` to the path condition, so a
//! concrete run that ends `assumption-violated` (its input lies outside the
//! program's domain) is followed up to that last step, which is exempt.

use super::cases::Cases;
use super::simulation::Simulation;
use symex_semantics::eval::{eval_bool, ShowValuation, Valuation};
use symex_semantics::system::{selected, Rule, SymbolicConfiguration, TransitionSystem};

/// Theorem 2.4 for the concrete run from the inputs `v0`, followed for at
/// most `max_steps` steps. Returns the steps checked, by rule (the exempt
/// last step included).
pub fn check_completeness<M: Simulation>(
    simulation: &M,
    v0: &Valuation,
    max_steps: usize,
) -> Result<Cases, String> {
    let mut checked = Cases::default();
    let mut concrete = simulation.concrete_initial(v0);
    let mut symbolic = simulation.symbolic_initial();
    let at =
        |k: usize, why: String| format!("from V₀ = {}, after {k} steps: {why}", ShowValuation(v0));
    for k in 0..=max_steps {
        if eval_bool(symbolic.path_condition(), v0) != Ok(true) {
            return Err(at(
                k,
                format!(
                    "V₀ falsifies the path condition {}",
                    symbolic.path_condition()
                ),
            ));
        }
        let expected = simulation.instantiate(&symbolic, v0)?;
        if let Some(why) = simulation.difference(&expected, &concrete) {
            return Err(at(
                k,
                format!("{why}\n  symbolic: {symbolic}\n  concrete: {concrete}"),
            ));
        }
        if k == max_steps {
            break;
        }
        let Some(step) = simulation
            .concrete()
            .successors(&concrete)
            .into_iter()
            .next()
        else {
            return Ok(checked);
        };
        checked.add(step.rule);
        let mut successors = simulation.symbolic().successors(&symbolic);
        let counterpart =
            selected(&successors, step.rule, v0).map(|index| successors.swap_remove(index));
        match counterpart {
            Some(symbolic_step) => symbolic = symbolic_step.next,
            None if step.rule == Rule::AssumptionViolated => return Ok(checked),
            None => {
                return Err(at(k, format!(
                    "the concrete run takes {} from {concrete}, but no symbolic step by that rule has a guard V₀ satisfies from {symbolic}",
                    step.rule
                )))
            }
        }
        concrete = step.next;
    }
    Ok(checked)
}
