//! How many objects a condition needs: a lower bound, read off its
//! conjuncts, on the objects reachable in any valuation that satisfies it.
//! Shrinking a model ([`super::inputs`]) that already reaches no more
//! objects than that has no candidate to try: every one would have to reach
//! fewer and still satisfy the condition.

use crate::mutants::{active, Mutant};
use crate::term::{BinOp, Name, Term, TermKind, UnOp};

/// At least how many objects are reachable from the variables in every
/// valuation in which `phi` is true (each conjunct is then true).
///
/// A conjunct `x.f…f = nil` with `m` reads of one field `f` (also spelt
/// `!(x.f…f != nil)`, or with `f[e]` for `e.f` as forward execution reads
/// the input heap) needs `m` objects: `x, x.f, …` up to `m − 1` reads are
/// objects, as reading a field of `nil` is `⊥`, and distinct, as a repeat
/// would make the walk periodic and never reach `nil`. A conjunct
/// `x.f…g != nil`, or `x.f…g = nil` through different fields, needs one
/// object (the walk may be a cycle, or come back through another field).
pub fn objects_needed(phi: &Term) -> usize {
    phi.conjuncts().iter().map(needed_by).max().unwrap_or(0)
}

/// The objects one true conjunct needs.
fn needed_by(conjunct: &Term) -> usize {
    let (is_nil, operands) = match conjunct.kind() {
        TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => (*op == BinOp::Eq, (a, b)),
        TermKind::Unary(UnOp::Not, negated) => match negated.kind() {
            TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => (*op == BinOp::Ne, (a, b)),
            _ => return 0,
        },
        _ => return 0,
    };
    let walked = match operands {
        (t, nil) | (nil, t) if matches!(nil.kind(), TermKind::Nil(_)) => walk(t),
        _ => None,
    };
    match walked {
        Some(Walk { reads, one_field }) if is_nil && one_field => reads,
        Some(Walk { reads, .. }) if is_nil => reads.min(1),
        Some(Walk { reads, .. }) if active(Mutant::NonNilWalkNeedsDistinctObjects) => reads + 1,
        Some(_) => 1,
        None => 0,
    }
}

/// A term `x.f₁…fₘ` read from a variable.
struct Walk {
    reads: usize,
    /// Whether all `m` reads are of the same field.
    one_field: bool,
}

/// `t` as a walk from a variable through fields, if it is one.
fn walk(t: &Term) -> Option<Walk> {
    let mut fields: Vec<&Name> = Vec::new();
    let mut at = t;
    loop {
        at = match at.kind() {
            TermKind::Var(..) => break,
            TermKind::Field(object, f, _) => {
                fields.push(f);
                object
            }
            TermKind::Select(array, object) => match array.kind() {
                TermKind::FieldArray(f, _) => {
                    fields.push(f);
                    object
                }
                _ => return None,
            },
            _ => return None,
        };
    }
    Some(Walk {
        reads: fields.len(),
        one_field: fields.windows(2).all(|pair| pair[0] == pair[1]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Sort;

    fn node() -> Sort {
        Sort::Object("Node".into())
    }

    fn nexts(m: usize) -> Term {
        (0..m).fold(Term::var("l", node()), |t, _| {
            Term::field(t, "next", node())
        })
    }

    #[test]
    fn a_list_ending_in_nil_needs_one_object_per_read() {
        let nil = Term::nil("Node");
        let phi = Term::conjunction([
            Term::binary(BinOp::Ne, nexts(2), nil.clone()),
            Term::not(Term::binary(BinOp::Ne, nexts(3), nil.clone())),
        ]);
        assert_eq!(objects_needed(&phi), 3);
        let forward = (0..2).fold(Term::var("l", node()), |t, _| {
            Term::select(Term::field_array("next", "Node", node()), t)
        });
        assert_eq!(
            objects_needed(&Term::binary(BinOp::Eq, nil, forward)),
            2,
            "`next[next[l]] = nil` reads the input heap as `l.next.next` does"
        );
    }

    #[test]
    fn walks_that_may_repeat_an_object_need_less() {
        let nil = Term::nil("Node");
        assert_eq!(
            objects_needed(&Term::binary(BinOp::Ne, nexts(3), nil.clone())),
            1,
            "`l.next.next.next != nil` holds on a one-object cycle"
        );
        let mixed = Term::field(Term::field(nexts(1), "prev", node()), "next", node());
        assert_eq!(
            objects_needed(&Term::binary(BinOp::Eq, mixed, nil.clone())),
            1,
            "`l.next.prev.next = nil` may walk back: only `l` is sure"
        );
        assert_eq!(objects_needed(&Term::binary(BinOp::Eq, nexts(0), nil)), 0);
    }
}
