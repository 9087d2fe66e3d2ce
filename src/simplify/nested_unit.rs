//! egg's result on a conjunction or disjunction of two comparisons, one
//! of them inside a Boolean unit, known without the e-graph
//! ([`super::known`] for the others): `l.next = nil || true && l.next !=
//! nil`, where [`super::InContext`] decided `l != nil` in a definedness
//! check (about 0.5 M instructions in egg, for a `true` it could not see).
//!
//! Let the term be `x op u` or `u op x`, `op` either connective, `u` a
//! unit around `y` (`true && y`, `y && true`, `false || y`, `y || false`),
//! `x` and `y` two different quiet comparisons
//! ([`unmatched`](super::unmatched)), and `b` the term with `y` for `u`,
//! quiet too. egg's first iteration joins `u` to `y` (the unit rule);
//! nothing else matches: a rule rooted at `op` would need `u`'s class to
//! hold a literal, a negation or `x` (it holds `y` and the unit, whose
//! other operand is a literal, never `x`), one rooted at the unit a
//! literal `y`, a negation or a connective, and `b`, `x`, `y` are quiet.
//! The second iteration saturates, extraction takes `y` for `u`, that is
//! `b`, and the round ends with `b`'s normal form `n`. Where `n` is `b`,
//! it is the root's own node: the rounds end with it. Where `n` is a
//! literal (the excluded middle, a contradiction), the root joins it and
//! holds nothing else; the second round changes nothing and ends with it.

use super::known::unit_operand;
use super::Simplifier;
use crate::mutants::{self, Mutant};
use symex_semantics::term::{BinOp, Term, TermKind};

impl Simplifier {
    /// egg's result on `x op u` or `u op x` (see the module documentation),
    /// when it is known.
    pub(super) fn nested_unit(&mut self, term: &Term, size: usize) -> Option<Term> {
        let TermKind::Binary(op @ (BinOp::And | BinOp::Or), left, right) = term.kind() else {
            return None;
        };
        let b = match (unit_operand(left), unit_operand(right)) {
            (None, Some(y)) => Term::binary(*op, left.clone(), y.clone()),
            (Some(y), None) => Term::binary(*op, y.clone(), right.clone()),
            _ => return None,
        };
        let TermKind::Binary(_, x, y) = b.kind() else {
            return None;
        };
        let comparison =
            |t: &Term| matches!(t.kind(), TermKind::Binary(op, ..) if op.is_comparison());
        let within =
            self.limits.iterations >= 2 && self.limits.rounds >= 2 && size + 2 <= self.limits.nodes;
        if !(within && comparison(x) && comparison(y) && x != y) {
            return None;
        }
        if !(self.quiet(x) && self.quiet(y) && self.quiet(&b)) {
            return None;
        }
        let normal = self.normal.normalise(&b);
        let ends = normal == b
            || matches!(normal.kind(), TermKind::Bool(_))
            || mutants::active(Mutant::KnownNestedUnitWhateverItsNormalForm);
        self.taken.nested_units += usize::from(ends);
        ends.then_some(normal)
    }
}
