//! The definedness predicate `δ(e)`: `e` reads no array out of bounds
//! (§2.1, with `--checked-arrays`) and dereferences no `nil` (§4,
//! Definition 4.1). `&&`, `||`, `==>` and conditionals only evaluate what
//! they need (SPEC §1.5), so their second operand is guarded; every other
//! operator is strict, as in the paper.
//!
//! Each subterm's `δ` comes before the condition of the node itself
//! (`δ(e.f) = δ(e) ∧ e ≠ nil`, where the paper writes `e ≠ nil ∧ δ(e)`):
//! the two orders mean the same in two-valued logic, but `∧` evaluates
//! left to right, and only this order makes `δ(e)` itself always defined.

use crate::term::{BinOp, IdMap, Name, Sort, Term, TermKind};

/// Which errors `δ` rules out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checks {
    /// `0 ≤ i < len(a)` for every read `a[i]` (§2.1).
    pub bounds: bool,
    /// `e ≠ nil` for every field access `e.f` (Definition 4.1).
    pub nil: bool,
}

impl Checks {
    /// Definition 4.1: absence of nil-pointer errors.
    pub const NIL: Checks = Checks {
        bounds: false,
        nil: true,
    };
    /// §2.1: absence of array-out-of-bound errors.
    pub const BOUNDS: Checks = Checks {
        bounds: true,
        nil: false,
    };
    /// Both.
    pub const ALL: Checks = Checks {
        bounds: true,
        nil: true,
    };
}

/// `δ(e)` for the errors `checks` names, with SPEC §1.5's half-open bound:
/// `δ(a[e]) = δ(e) ∧ 0 ≤ e < len(a)`, and `δ(e.f) = δ(e) ∧ e ≠ nil`.
pub fn delta(e: &Term, checks: Checks) -> Term {
    guarded(e, |node| match node.kind() {
        TermKind::Field(object, ..) if checks.nil => not_nil(object),
        // f[e] (§4.1) dereferences e, as e.f does.
        TermKind::Select(array, index) if matches!(array.sort(), Sort::Field(..)) => {
            if checks.nil {
                not_nil(index)
            } else {
                Term::bool(true)
            }
        }
        TermKind::Select(array, index) if checks.bounds => in_bounds(array, index),
        _ => Term::bool(true),
    })
}

/// The conjunction of `own(n)` over the nodes `n` of `e` that evaluating
/// `e` evaluates, each after those of its operands: the second operand of
/// `&&`, `||`, `==>` and the branches of a conditional under the condition
/// that they are evaluated. `δ` is this with `own` its per-node condition;
/// the range checks of machine integers ([`crate::machine`]) are another.
pub fn guarded(e: &Term, own: impl Fn(&Term) -> Term) -> Term {
    let mut memo: IdMap<Term> = IdMap::default();
    for node in e.nodes() {
        let d = |t: &Term| memo[&t.id()].clone();
        let operands = match node.kind() {
            TermKind::Binary(BinOp::And | BinOp::Implies, a, b) => {
                Term::and(d(a), Term::implies(a.clone(), d(b)))
            }
            TermKind::Binary(BinOp::Or, a, b) => {
                Term::and(d(a), Term::implies(Term::not(a.clone()), d(b)))
            }
            TermKind::Ite(c, a, b) => Term::conjunction([
                d(c),
                Term::implies(c.clone(), d(a)),
                Term::implies(Term::not(c.clone()), d(b)),
            ]),
            _ => Term::conjunction(node.children().iter().map(|child| d(child))),
        };
        memo.insert(node.id(), Term::and(operands, own(&node)));
    }
    memo.remove(&e.id()).unwrap_or_else(|| Term::bool(true))
}

/// `e ≠ nil`, with `nil` of `e`'s class.
pub fn not_nil(object: &Term) -> Term {
    Term::binary(BinOp::Ne, object.clone(), nil_of(&object.sort()))
}

/// `nil` of an object sort.
pub fn nil_of(sort: &Sort) -> Term {
    match sort {
        Sort::Object(class) => Term::nil(class),
        other => Term::nil(&other.to_string()),
    }
}

/// `0 ≤ index < len(a)`, where `a` is the array variable `array` updates;
/// `true` for a sequence of draws ([`crate::draws`]), which has no end.
pub fn in_bounds(array: &Term, index: &Term) -> Term {
    match base_array(array) {
        Some(a) if !crate::draws::is_sequence(&a) => Term::and(
            Term::binary(BinOp::Le, Term::int(0), index.clone()),
            Term::binary(BinOp::Lt, index.clone(), Term::len(&a)),
        ),
        _ => Term::bool(true),
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
        let read = Term::select(a.clone(), lo.clone());
        assert_eq!(
            delta(&read, Checks::BOUNDS).to_string(),
            "0 <= lo && lo < len(a)"
        );
        let guarded = Term::binary(
            BinOp::And,
            Term::binary(BinOp::Le, lo.clone(), Term::var("hi", Sort::Int)),
            Term::binary(BinOp::Le, read.clone(), Term::var("p", Sort::Int)),
        );
        assert_eq!(
            delta(&guarded, Checks::BOUNDS).to_string(),
            "lo <= hi ==> 0 <= lo && lo < len(a)"
        );
        assert!(delta(&Term::binary(BinOp::Add, lo, Term::int(1)), Checks::BOUNDS).is_true());
        assert!(
            delta(&read, Checks::NIL).is_true(),
            "arrays are total functions without --checked-arrays"
        );
        let nested = Term::select(a, read);
        assert_eq!(
            delta(&nested, Checks::BOUNDS).to_string(),
            "0 <= lo && lo < len(a) && (0 <= a[lo] && a[lo] < len(a))",
            "the index is known defined before it is compared"
        );
    }

    #[test]
    fn a_field_access_needs_its_object_defined_first_then_not_nil() {
        let node = Sort::Object("Node".into());
        let x = Term::var("x", node.clone());
        let next = Term::field(x, "next", node);
        let val = Term::field(next, "val", Sort::Int);
        assert_eq!(
            delta(&val, Checks::NIL).to_string(),
            "x != nil && x.next != nil"
        );
        assert!(delta(&val, Checks::BOUNDS).is_true());
    }
}
