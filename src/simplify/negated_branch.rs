//! egg's result on the negation of a comparison of a conditional with one
//! of its branches ([`super::folded_branch`]), known without the e-graph:
//! the else guard of a list walk's branch, `!(false || if l = l.next then
//! l else nil fi = nil)`, which egg takes seven iterations (some 600 K
//! instructions) to bring to `l = l.next && l != nil`.
//!
//! Let `x` be as in [`super::folded_branch`], `x̄` the same with the other
//! of `=` and `!=`, both passing its checks, and `c'` (`c` turned round)
//! quiet, in neither, and neither `E` nor `Ē`. egg turns `!x` (or `!u`,
//! `u` a Boolean unit around `x`: de Morgan's rule and the folded negated
//! literal make the other unit) round into `x̄` and takes `x` and `x̄`
//! through their own iterations: the class of `x` gets `X`, the root `X̄`,
//! and de Morgan's rule adds `!X` pushed into its operands, `!E` joining
//! `Ē` (`not-eq`, `not-ne`) and `!c` joining the class of `c'`, or, where
//! `X` holds `!c`, `!!c` joining `c` (`double-negation`). Then `ite-not`
//! adds each conditional over `c` again over `!c` with its branches
//! swapped; with `c` in `x` as that condition only, the push and the rules
//! on literal branches find those nodes' classes again, and the eighth
//! iteration saturates at the latest. No class of `c`, `c'`, `E` and `Ē`
//! holds a connective or literal, so no other left side matches.
//! Extraction takes `X̄` (`c ∘ Ē` or `c' ∘ Ē`, each class's own comparison
//! no longer than its negation and one node fewer) where it is shorter
//! than `!X`, the only other candidate without a conditional; if `X̄` is
//! its own normal form, the first round ends with it.

use super::folded_branch::ADDED;
use super::known::{is_literal, printed_length, unit_operand};
use super::Simplifier;
use crate::mutants::{self, Mutant};
use symex_semantics::term::{BinOp, Term, TermKind, UnOp};

/// Iterations egg needs on `!x` (the eighth finds nothing, after a unit).
const ITERATIONS: usize = 8;

impl Simplifier {
    /// egg's result on `!x` or `!u` (see the module documentation), when
    /// the first round ends with it.
    pub(super) fn negated_branch(&mut self, term: &Term, size: usize) -> Option<Term> {
        let TermKind::Unary(UnOp::Not, u) = term.kind() else {
            return None;
        };
        let x = unit_operand(u).unwrap_or(u);
        let limits = self.limits;
        let within = limits.iterations >= ITERATIONS && limits.rounds >= 1;
        if !within || size + 2 * ADDED + 4 > limits.nodes || is_literal(x) {
            return None;
        }
        let TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), left, right) = x.kind() else {
            return None;
        };
        let flipped = match op {
            BinOp::Eq => BinOp::Ne,
            _ => BinOp::Eq,
        };
        let ours = self.branches(x)?;
        let theirs = self.branches(&Term::binary(flipped, left.clone(), right.clone()))?;
        let turned = &ours.turned;
        let new = !ours.nodes.contains(&ours.negation)
            && !ours.nodes.contains(turned)
            && *turned != ours.other
            && *turned != theirs.other;
        if !(new && self.quiet(turned)) {
            return None;
        }
        let below = |t: &Term| t.nodes().contains(&ours.c);
        if ours.negated && (below(&ours.e) || below(&ours.d)) {
            return None;
        }
        let pushed = Term::unary(UnOp::Not, ours.best.clone());
        let shorter = mutants::active(Mutant::KnownNegatedBranchWhateverItsLength)
            || printed_length(&theirs.best) < printed_length(&pushed);
        if !shorter {
            return None;
        }
        let normal = self.normal.normalise(&theirs.best);
        let ends = normal == theirs.best;
        self.taken.folded_branches += usize::from(ends);
        ends.then_some(normal)
    }
}
