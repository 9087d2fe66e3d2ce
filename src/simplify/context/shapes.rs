//! The shapes of Boolean terms contextual rewriting works on: atoms,
//! disjuncts, literals, and replacing subterms by id.

use std::collections::{BTreeSet, HashMap};
use symex_semantics::term::{BinOp, Sort, Term, TermKind, UnOp};

/// Whether each conjunct of `phi` is an atom, read along the left spine of
/// its conjunctions without collecting them (most path conditions are).
pub(super) fn atoms_only(phi: &Term) -> bool {
    let mut base = phi;
    while let TermKind::Binary(BinOp::And, left, right) = base.kind() {
        if !is_atom(right) {
            return false;
        }
        base = left;
    }
    is_atom(base)
}

/// Whether `term` is an atom: a boolean term without connectives.
pub(super) fn is_atom(term: &Term) -> bool {
    match term.kind() {
        TermKind::Unary(UnOp::Not, _) => false,
        TermKind::Binary(BinOp::And | BinOp::Or | BinOp::Implies, ..) => false,
        TermKind::Binary(BinOp::Eq | BinOp::Ne, left, _) => left.sort() != Sort::Bool,
        TermKind::Ite(..) => false,
        _ => true,
    }
}

pub(super) fn is_literal(term: &Term) -> bool {
    matches!(term.kind(), TermKind::Int(_) | TermKind::Bool(_))
}

/// The disjuncts of `term`, a disjunction nested either way (`term` itself
/// when it is none).
pub(super) fn disjuncts(term: &Term) -> Vec<Term> {
    let mut found = Vec::new();
    let mut pending = vec![term.clone()];
    while let Some(term) = pending.pop() {
        match term.kind() {
            TermKind::Binary(BinOp::Or, left, right) => {
                pending.extend([left.clone(), right.clone()]);
            }
            _ => found.push(term),
        }
    }
    found
}

/// The atoms of a boolean term, below its connectives, each once.
pub(super) fn atoms(term: &Term) -> Vec<Term> {
    let mut found = Vec::new();
    let mut seen = BTreeSet::new();
    let mut pending = vec![term.clone()];
    while let Some(term) = pending.pop() {
        if !seen.insert(term.id()) || is_literal(&term) {
            continue;
        }
        if is_atom(&term) {
            found.push(term);
        } else {
            pending.extend(
                term.children()
                    .into_iter()
                    .filter(|c| c.sort() == Sort::Bool)
                    .cloned(),
            );
        }
    }
    found
}

/// `term` with each node whose id `replacements` maps replaced.
pub(super) fn replaced(term: &Term, replacements: &HashMap<u64, Term>) -> Term {
    if replacements.is_empty() {
        return term.clone();
    }
    term.rebuilt(|node, children| match replacements.get(&node.id()) {
        Some(replacement) => replacement.clone(),
        None => node.with_children(children),
    })
}
