//! The numeric part of state subsumption (Anand et al. 2006, Definitions 2
//! and 4): under a labelling of the matched nodes, the new state `s₁`
//! entails the stored `s₂` when
//!
//! `(∃v_{s₁}. val(s₁, l) ∧ PC₁) ⇒ (∃v_{s₂}. val(s₂, l) ∧ PC₂)`
//!
//! is valid, `val(s, l)` saying `fn(ℓ, f) = val^s(n, f)` for each matched
//! node `n` labelled `ℓ` and each of its integer and boolean fields `f` (a
//! summary node: the disjunction over the objects it stands for, Definition
//! 4), and likewise for the variables. The names `fn(ℓ, f)` are shared; the
//! symbols of `s₂` are renamed apart and quantified (those of `s₁` are free,
//! which for validity is the same as quantifying the premise). Omega's
//! projection is left to Z3 over the integers: equalities `fn = x` with `x`
//! a symbol of `s₂` are substituted away first, and what remains is asked
//! as `PC₁ ∧ val(s₁) ∧ ¬∃v. (val(s₂) ∧ PC₂)`, `unsat` meaning entailed; a
//! timeout or `unknown` is no subsumption.

use super::heap::Labelling;
use super::shape::{Shape, ShapeNode};
use crate::solver::{SatResult, Solver};
use std::collections::BTreeMap;
use symex_semantics::subst::Substitution;
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind};

/// One side of the implication: the state's path condition and valuation.
pub struct Side<'a> {
    pub shape: &'a Shape,
    pub condition: &'a Term,
}

/// Whether `new` entails `stored` under `labels`.
pub fn entails(solver: &mut Solver, new: Side<'_>, stored: Side<'_>, labels: &Labelling) -> bool {
    let premise = Term::and(
        flatten(new.condition),
        valuation(new.shape, labels, |(a, _)| a),
    );
    let conclusion = Term::and(
        flatten(stored.condition),
        valuation(stored.shape, labels, |(_, b)| b),
    );
    // The stored state's symbols renamed apart, the names fn(ℓ, f) kept.
    let renaming = conclusion
        .free_vars()
        .into_iter()
        .filter(|(x, _)| !is_label(x))
        .fold(Substitution::identity(), |s, (x, sort)| {
            let primed: Name = format!("{x}′").into();
            s.update(x, Term::var(&primed, sort))
        });
    let conclusion = renaming.apply(&conclusion);
    let (conclusion, bound) = eliminate(conclusion);
    solver.entails_exists(&premise, &conclusion, &bound) == SatResult::Unsat
}

/// `val(s, l)`: for each matched pair (`side` picks this state's node),
/// each field's `fn(ℓ, f)` equal to its value, a disjunction over the
/// objects a summary node stands for; and each variable's `fn(x)`.
fn valuation(shape: &Shape, labels: &Labelling, side: impl Fn((usize, usize)) -> usize) -> Term {
    let mut conjuncts = Vec::new();
    for (label, pair) in labels.iter().enumerate() {
        let node: &ShapeNode = &shape.nodes[side(*pair)];
        let objects = node.values.iter().map(|fields| {
            Term::conjunction(fields.iter().map(|(f, value)| {
                let name = Term::var(&format!("ℓ{label}.{f}"), value.sort());
                Term::binary(BinOp::Eq, name, flatten(value))
            }))
        });
        conjuncts.push(objects.reduce(Term::or).unwrap_or_else(|| Term::bool(true)));
    }
    for (x, value) in &shape.numbers {
        let name = Term::var(&format!("ℓ·{x}"), value.sort());
        conjuncts.push(Term::binary(BinOp::Eq, name, flatten(value)));
    }
    Term::conjunction(conjuncts)
}

fn is_label(x: &str) -> bool {
    x.starts_with('ℓ')
}

/// Array reads and lengths of a state as plain variables (`a[lo]`,
/// `len(a)`), so that quantifying a state's symbols quantifies integers
/// only. Faithful within one state: the input cells it read have distinct
/// indices under its path condition, so their values are independent.
fn flatten(e: &Term) -> Term {
    e.rebuilt(|node, children| match node.kind() {
        TermKind::Select(array, _) if matches!(array.kind(), TermKind::Var(..)) => {
            Term::var(&node.to_string(), node.sort())
        }
        TermKind::Len(_) => Term::var(&node.to_string(), Sort::Int),
        _ => node.with_children(children),
    })
}

/// The conclusion with each equality `fn = x′` (a renamed symbol defined
/// by a label) substituted away, and the symbols left to quantify.
fn eliminate(conclusion: Term) -> (Term, BTreeMap<Name, Sort>) {
    let mut substitution = Substitution::identity();
    for conjunct in conclusion.conjuncts() {
        if let TermKind::Binary(BinOp::Eq, name, value) = conjunct.kind() {
            match (name.kind(), value.kind()) {
                (TermKind::Var(l, _), TermKind::Var(x, _))
                    if is_label(l) && !is_label(x) && substitution.lookup(x).is_none() =>
                {
                    substitution = substitution.update(x.clone(), name.clone());
                }
                _ => {}
            }
        }
    }
    let conclusion = substitution.apply(&conclusion);
    let bound = conclusion
        .free_vars()
        .into_iter()
        .filter(|(x, _)| !is_label(x))
        .collect();
    (conclusion, bound)
}
