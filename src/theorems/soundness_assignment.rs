//! Corollary 2.2 (Soundness assignment): for `V' = V∘σ`,
//! `V∘(σ[x := eσ]) = V'[x := V'(e)]`; in §3, Corollary 3.4 for global and
//! local assignments under `θ = σ ∪ τ`.
//!
//! The left side is what the symbolic assignment rule makes of `σ`, the
//! right side what the concrete one makes of `V' = V∘σ`, so the corollary
//! is checked by taking both rules from corresponding configurations.

use super::cases::Cases;
use super::run::SymbolicRun;
use super::simulation::{Simulation, SymbolicConfig};
use symex_semantics::eval::{eval_bool, ShowValuation, Valuation};
use symex_semantics::system::{Configuration, Rule, Step, TransitionSystem};

/// The rules the corollary is about (§2.1's array assignment is the
/// assignment `a := (a[e] := e')`).
pub fn is_assignment(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::Assignment | Rule::ArrayAssignment | Rule::GlobalAssignment | Rule::LocalAssignment
    )
}

/// The corollary for the symbolic assignment step `c → step.next` and `v`:
/// from `V∘σ` the concrete system takes the same rule to `V∘σ'`. Returns
/// whether the step was checked: it is not when it is no assignment, or
/// when `V` falsifies its guard (`δ(eσ)`, then the concrete run leaves
/// through `array-out-of-bound`).
pub fn soundness_assignment<M: Simulation>(
    simulation: &M,
    c: &SymbolicConfig<M>,
    step: &Step<SymbolicConfig<M>>,
    v: &Valuation,
) -> Result<bool, String> {
    if !is_assignment(step.rule) || !eval_bool(&step.guard, v).map_err(|e| e.to_string())? {
        return Ok(false);
    }
    let assignment = c.head().map(ToString::to_string).unwrap_or_default();
    let before = simulation.instantiate(c, v)?;
    let concrete_steps = simulation.concrete().successors(&before);
    let Some(concrete) = concrete_steps.iter().find(|s| s.rule == step.rule) else {
        let rules: Vec<String> = concrete_steps.iter().map(|s| s.rule.to_string()).collect();
        return Err(format!(
            "`{assignment}` from {before}: the concrete system takes [{}], not {}",
            rules.join(", "),
            step.rule
        ));
    };
    let expected = simulation.instantiate(&step.next, v)?;
    match simulation.difference(&expected, &concrete.next) {
        None => Ok(true),
        Some(why) => Err(format!(
            "`{assignment}` with σ = {} and V = {}: V∘(σ[x := eσ]) and V'[x := V'(e)] differ: {why}",
            simulation.substitution(c),
            ShowValuation(v)
        )),
    }
}

/// The corollary at every assignment step of `run`; returns the steps
/// checked, by rule.
pub fn check_soundness_assignment<M: Simulation>(
    simulation: &M,
    run: &SymbolicRun<SymbolicConfig<M>>,
    v: &Valuation,
) -> Result<Cases, String> {
    let mut checked = Cases::default();
    let mut c = &run.initial;
    for step in &run.steps {
        if soundness_assignment(simulation, c, step, v)? {
            checked.add(step.rule);
        }
        c = &step.next;
    }
    Ok(checked)
}
