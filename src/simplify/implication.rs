//! egg's result on an implication whose premise is a comparison, known
//! without the e-graph ([`super::known`] for the others): the definedness
//! checks of a heap program's guards, `l.next != nil ==> l != nil &&
//! l.next != nil` (about 430 K instructions a term in egg).
//!
//! Let `a ==> q` have `a` a quiet `=` or `!=` comparison
//! ([`unmatched`](super::unmatched)), `q` quiet, no literal and not `a`,
//! and `a'` be `!a` turned round (`not-eq`, `not-ne`), quiet, and, like `!a`,
//! not in the term. No left side matches but `implies-as-or`, which adds
//! `!a || q` in egg's first iteration; the second adds `a'` to the class of
//! `!a`; nothing else matches (`or-absorption` and `or-excluded-middle`
//! would need `q` to be a conjunction led by `!a` or `a'`, or a negation of
//! one, the unit rules a literal), so the third saturates. Extraction takes `a' || q` where it is shorter
//! than `a ==> q`; if that is its own normal form, the first round ends
//! with it.
//!
//! `!a ==> a'` (`a` as above, `a'` not in `a`): `not-eq` (`not-ne`) joins
//! the premise to the conclusion in the first iteration, so `implies-self`
//! joins the root to `true` in the second; `implies-as-or` adds `!!a ||
//! a'`, whose `!!a` joins `a` (`double-negation`, and `not-ne` turning `a'`
//! round again), so `or-excluded-middle` finds the root in the third, and
//! nothing changes: egg saturates with `true`, its own normal form.

use super::fold::turned_round;
use super::known::printed_length;
use super::Simplifier;
use crate::mutants::{self, Mutant};
use symex_semantics::term::{BinOp, Term, TermKind, UnOp};

impl Simplifier {
    /// egg's result on `a ==> q` or `!a ==> a'` (see the module
    /// documentation), when the first round ends with it.
    pub(super) fn implication(&mut self, term: &Term, size: usize) -> Option<Term> {
        let TermKind::Binary(BinOp::Implies, premise, q) = term.kind() else {
            return None;
        };
        let within = self.limits.iterations >= 3 && self.limits.rounds >= 1;
        if !within || size + 6 > self.limits.nodes {
            return None;
        }
        if let TermKind::Unary(UnOp::Not, a) = premise.kind() {
            let turned = turned_round(premise.clone());
            let proven = equality(a)
                && turned == *q
                && !a.nodes().contains(q)
                && self.quiet(a)
                && self.quiet(q);
            self.taken.implications += usize::from(proven);
            return proven.then(|| Term::bool(true));
        }
        let a = premise;
        let negation = Term::unary(UnOp::Not, a.clone());
        let turned = turned_round(negation.clone());
        let nodes = term.nodes();
        let plain = equality(a)
            && a != q
            && !matches!(q.kind(), TermKind::Bool(_) | TermKind::Int(_))
            && !nodes.contains(&negation)
            && !nodes.contains(&turned);
        if !(plain && self.quiet(a) && self.quiet(q) && self.quiet(&turned)) {
            return None;
        }
        let or = Term::binary(BinOp::Or, turned, q.clone());
        let shorter = mutants::active(Mutant::KnownImplicationWhateverItsLength)
            || printed_length(&or) < printed_length(term);
        if !shorter {
            return None;
        }
        let normal = self.normal.normalise(&or);
        let ends = normal == or;
        self.taken.implications += usize::from(ends);
        ends.then_some(normal)
    }
}

fn equality(a: &Term) -> bool {
    matches!(a.kind(), TermKind::Binary(BinOp::Eq | BinOp::Ne, ..))
}
