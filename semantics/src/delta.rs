//! The definedness predicate `δ(e)` of §2.1: `e` reads no array out of
//! bounds. `&&`, `||`, `==>` and conditionals only evaluate what they need
//! (SPEC §1.5), so their second operand is guarded; every other operator is
//! strict, as in the paper.

use crate::term::{BinOp, IdMap, Name, Term, TermKind};

/// `δ(e)`, with SPEC §1.5's half-open bound: `δ(a[e]) = 0 ≤ e < len(a) ∧ δ(e)`.
pub fn delta(e: &Term) -> Term {
    let mut memo: IdMap<Term> = IdMap::default();
    for node in e.nodes() {
        let d = |t: &Term| memo[&t.id()].clone();
        let defined = match node.kind() {
            TermKind::Int(_) | TermKind::Bool(_) | TermKind::Var(..) | TermKind::Len(_) | TermKind::Nil(_) => {
                Term::bool(true)
            }
            // Definition 4.1: δ(e.f) = e ≠ nil ∧ δ(e).
            TermKind::Field(object, _) => Term::and(
                Term::binary(BinOp::Ne, object.clone(), nil_like(object)),
                d(object),
            ),
            TermKind::Unary(_, a) => d(a),
            TermKind::Binary(BinOp::And | BinOp::Implies, a, b) => {
                Term::and(d(a), Term::implies(a.clone(), d(b)))
            }
            TermKind::Binary(BinOp::Or, a, b) => {
                Term::and(d(a), Term::implies(Term::not(a.clone()), d(b)))
            }
            TermKind::Binary(_, a, b) => Term::and(d(a), d(b)),
            TermKind::Ite(c, a, b) => Term::conjunction([
                d(c),
                Term::implies(c.clone(), d(a)),
                Term::implies(Term::not(c.clone()), d(b)),
            ]),
            TermKind::Select(array, index) => Term::conjunction([
                in_bounds(array, index),
                d(index),
                d(array),
            ]),
            TermKind::Store(array, index, value) => Term::conjunction([d(array), d(index), d(value)]),
        };
        memo.insert(node.id(), defined);
    }
    memo.remove(&e.id()).unwrap_or_else(|| Term::bool(true))
}

/// `nil` of the class of `object`.
fn nil_like(object: &Term) -> Term {
    match object.kind() {
        TermKind::Var(_, crate::term::Sort::Object(class)) | TermKind::Nil(class) => Term::nil(class),
        _ => Term::nil("Object"),
    }
}

/// `0 ≤ index < len(a)`, where `a` is the array variable `array` updates.
pub fn in_bounds(array: &Term, index: &Term) -> Term {
    match base_array(array) {
        Some(a) => Term::and(
            Term::binary(BinOp::Le, Term::int(0), index.clone()),
            Term::binary(BinOp::Lt, index.clone(), Term::len(&a)),
        ),
        None => Term::bool(true),
    }
}

/// The array variable at the bottom of a chain of updates `(…(a[i] := v)…)`.
pub fn base_array(array: &Term) -> Option<Name> {
    let mut current = array;
    loop {
        match current.kind() {
            TermKind::Var(a, _) => return Some(a.clone()),
            TermKind::Store(inner, ..) => current = inner,
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Sort;

    #[test]
    fn array_reads_are_bounded_and_conjunctions_guarded() {
        let a = Term::var("a", Sort::int_array());
        let lo = Term::var("lo", Sort::Int);
        let read = Term::select(a, lo.clone());
        assert_eq!(delta(&read).to_string(), "0 <= lo && lo < len(a)");
        let guarded = Term::binary(
            BinOp::And,
            Term::binary(BinOp::Le, lo.clone(), Term::var("hi", Sort::Int)),
            Term::binary(BinOp::Le, read, Term::var("p", Sort::Int)),
        );
        assert_eq!(delta(&guarded).to_string(), "lo <= hi ==> 0 <= lo && lo < len(a)");
        assert!(delta(&Term::binary(BinOp::Add, lo, Term::int(1))).is_true());
    }
}
