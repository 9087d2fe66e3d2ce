//! Lemma 2.1 (Substitution): `V∘σ(e) = V(eσ)`; in §3, Lemma 3.3 with
//! `V = G ∪ L` and `θ = σ ∪ τ`: `V∘θ(e) = V(eθ)`.

use super::cases::{expression_case, Cases};
use super::run::SymbolicRun;
use super::simulation::{Simulation, SymbolicConfig};
use symex_semantics::eval::{compose, eval, ShowValuation, Valuation};
use symex_semantics::subst::Substitution;
use symex_semantics::term::Term;

/// `eσ` as the symbolic rules compute it: [`Substitution::apply`], or a
/// deliberately broken stand-in.
pub type Apply = dyn Fn(&Substitution, &Term) -> Term;

/// Lemma 2.1 for one valuation `v`, substitution `sigma` and expression `e`.
pub fn substitution_lemma(
    apply: &Apply,
    v: &Valuation,
    sigma: &Substitution,
    e: &Term,
) -> Result<(), String> {
    let composed = compose(v, sigma).map_err(|error| format!("V∘σ is undefined: {error}"))?;
    let e_sigma = apply(sigma, e);
    let left = eval(e, &composed).map_err(|error| format!("V∘σ({e}) is undefined: {error}"))?;
    let right = eval(&e_sigma, v).map_err(|error| format!("V({e}σ) is undefined: {error}"))?;
    if left == right {
        return Ok(());
    }
    Err(format!(
        "V∘σ({e}) = {left} but V({e}σ) = V({e_sigma}) = {right}, for σ = {sigma} and V = {}",
        ShowValuation(v)
    ))
}

/// Lemma 2.1 at every configuration of `run`, for `σ` the configuration's
/// substitution and `e` each expression of the program and of `extra`.
/// Returns the pairs `(σ, e)` checked, by the kind of `e`.
pub fn check_substitution<M: Simulation>(
    simulation: &M,
    run: &SymbolicRun<SymbolicConfig<M>>,
    v: &Valuation,
    extra: &[Term],
    apply: &Apply,
) -> Result<Cases, String> {
    let mut checked = Cases::default();
    for (k, c) in run.configs().enumerate() {
        let sigma = simulation.substitution(c);
        for e in simulation.expressions(c).iter().chain(extra) {
            substitution_lemma(apply, v, &sigma, e)
                .map_err(|why| format!("after {k} symbolic steps: {why}"))?;
            checked.add(expression_case(e));
        }
    }
    Ok(checked)
}
