//! Terms where what egg would end with is known without the e-graph,
//! beyond those [`unmatched`](super::unmatched) finds saturated as they
//! stand.
//!
//! On heap programs many guards reach the simplifier as a Boolean unit
//! around a term no rule rewrites (`false || l.next.next = nil`, where
//! [`super::HeapFacts::resolve`] decided one side of a disjunction), or as
//! a term no rule rewrites but the normal form reorders (`if l.next = l
//! then … fi` becomes `if l = l.next then … fi`): egg builds the e-graph and
//! searches every rule in it for a round or two (about 400 K instructions
//! a term) to end where the following shows it must.
//!
//! Let `x` be quiet ([`unmatched`](super::unmatched): no left side
//! matches in its tree and nothing above its leaves folds) and `n` its
//! normal form.
//! - `n = x`: the first round ends with `x`, saturated.
//! - Otherwise, if `n` is quiet too, is its own normal form, is no literal,
//!   and neither of `x` and `n` contains the other: joined, the two roots
//!   make the one class with two nodes, every other class holds the one
//!   node of a subterm, so a left side matches at neither root (their operands'
//!   classes are the trees') and nowhere else; the second round finds
//!   nothing and extracts `x` or `n`, both of which normalise to `n`.
//! - `false || x`, `x || false`, `true && x` or `x && true`, `x` no
//!   literal: the unit rule joins the root to `x` in egg's first iteration.
//!   No other left side rooted at `||` (`&&`) matches there: each would need
//!   a class holding `false` (`true`), a negation or conjunction (disjunction)
//!   of it, that is a literal `x` or `n` or one that folds. The second
//!   iteration finds nothing new, extraction picks `x` over the longer unit
//!   node, and the rounds end as for `x` itself.
//! - `a ==> a`, `a ==> true && a` or `a ==> a && true`, `a` a quiet
//!   comparison (a guard's definedness check once the path has settled the
//!   references it reads): after the unit rule, `implies-self` joins the
//!   root to `true`, and the root holds nothing else from then on. Besides
//!   it only `implies-as-or` adds `!a || …`, whose `!a` is turned round
//!   into a comparison quiet as `a` is (its rules are those of `a`'s
//!   counterpart: `x = true` for `x != true`, `x = x` for `x != x`), and,
//!   where the conclusion is a conjunction, de Morgan's `!a || !true`, a
//!   unit again. Egg saturates in its third iteration with `true`, its own
//!   normal form.
//! - `!(a && b)` or `!(a || b)`, `a` and `b` two different quiet
//!   comparisons (a guard's negation: the loop exit of `while l != nil &&
//!   l.val < v`): de Morgan's rule adds `!a || !b` (`!a && !b`) in egg's
//!   first iteration, the second turns `!a` and `!b` round into `a'` and
//!   `b'`, comparisons of the same operands, quiet as `a` and `b` are
//!   (checked) and strictly shorter than `!a` and `!b` (as long at most,
//!   one node fewer). Where neither `a'` nor `b'` is in the term nor is the
//!   other operand, the two new classes are no operand of anything but
//!   the new root node, no other left side matches, and the third
//!   iteration saturates. Extraction takes the shorter of the original
//!   and `a' || b'` (never as long: one node fewer), the normal form of
//!   which ends the rounds if it is one of the five terms the root holds.

use super::cost::PrintedLength;
use super::fold::turned_round;
use super::language::{to_expr, Node};
use super::Simplifier;
use crate::mutants::{self, Mutant};
use egg::{CostFunction, RecExpr};
use symex_semantics::term::{BinOp, Term, TermKind, UnOp};

impl Simplifier {
    /// What the simplifier ends with, saturated, on `term` (whose tree is
    /// `expr`, `quiet` as [`Simplifier::first_round_quiet`] found it), when
    /// that is known without egg.
    pub(super) fn known(&mut self, term: &Term, expr: &RecExpr<Node>, quiet: bool) -> Option<Term> {
        if quiet {
            let normal = self.normal.normalise(term);
            return self.settled_by_second_round(term, normal, expr.as_ref().len());
        }
        let size = expr.as_ref().len();
        if let Some(known) = self.self_implication(term, size) {
            return Some(known);
        }
        if let Some(known) = self.negation_pushed(term, size) {
            return Some(known);
        }
        if let Some(known) = self.implication(term, size) {
            return Some(known);
        }
        if let Some(known) = self.folded_branch(term, size) {
            return Some(known);
        }
        if let Some(known) = self.negated_branch(term, size) {
            return Some(known);
        }
        if let Some(known) = self.nested_unit(term, size) {
            return Some(known);
        }
        let x = unit_operand(term)?;
        if self.limits.iterations < 2 || size > self.limits.nodes || is_literal(x) {
            return None;
        }
        if !self.quiet(x) {
            return self.folded_branch(x, size);
        }
        let normal = self.normal.normalise(x);
        match normal == *x {
            true => Some(normal),
            false => self.settled_by_second_round(x, normal, size),
        }
    }

    /// `true` for `a ==> a`, `a ==> true && a` and `a ==> a && true` with
    /// `a` a quiet comparison (see the module documentation), the
    /// definedness checks of a guard whose operands the path has settled.
    fn self_implication(&mut self, term: &Term, size: usize) -> Option<Term> {
        let a = implied_by_itself(term)?;
        let comparison = matches!(a.kind(), TermKind::Binary(op, ..) if op.is_comparison());
        let within = self.limits.iterations >= 3 && size + 7 <= self.limits.nodes;
        (comparison && within && self.quiet(a)).then(|| Term::bool(true))
    }

    /// egg's result on `!(a && b)` or `!(a || b)`, `a` and `b` quiet
    /// comparisons (see the module documentation), when the first round
    /// ends with it.
    fn negation_pushed(&mut self, term: &Term, size: usize) -> Option<Term> {
        let TermKind::Unary(UnOp::Not, inner) = term.kind() else {
            return None;
        };
        let TermKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) = inner.kind() else {
            return None;
        };
        let dual = match op {
            BinOp::And => BinOp::Or,
            _ => BinOp::And,
        };
        let comparison =
            |t: &Term| matches!(t.kind(), TermKind::Binary(op, ..) if op.is_comparison());
        let within = self.limits.iterations >= 3 && size + 7 <= self.limits.nodes;
        if !(comparison(a) && comparison(b) && a != b && within && self.limits.rounds >= 1) {
            return None;
        }
        let (a_not, b_not) = (
            Term::unary(UnOp::Not, a.clone()),
            Term::unary(UnOp::Not, b.clone()),
        );
        let (a_turned, b_turned) = (turned_round(a_not.clone()), turned_round(b_not.clone()));
        let nodes = term.nodes();
        let apart = a_turned != *b
            && b_turned != *a
            && !nodes.contains(&a_turned)
            && !nodes.contains(&b_turned);
        if !apart {
            return None;
        }
        for quiet in [a, b, &a_turned, &b_turned] {
            if !self.quiet(quiet) {
                return None;
            }
        }
        let pushed = Term::binary(dual, a_turned.clone(), b_turned.clone());
        let shorter = mutants::active(Mutant::KnownPushedWhateverItsLength)
            || printed_length(&pushed) < printed_length(term);
        let best = match shorter {
            true => pushed.clone(),
            false => term.clone(),
        };
        let result = self.normal.normalise(&best);
        let held = [
            term.clone(),
            Term::binary(dual, a_not.clone(), b_not.clone()),
            Term::binary(dual, a_turned.clone(), b_not),
            Term::binary(dual, a_not, b_turned.clone()),
            pushed,
        ];
        if held.contains(&result) {
            return Some(result);
        }
        let turned = [a_turned, b_turned];
        let settled = shorter && self.limits.rounds >= 2 && size + 10 <= self.limits.nodes;
        (settled && self.joined_settles(&result, dual, [a, b], &turned, &nodes)).then_some(result)
    }

    /// Whether the second round ends with `result`, the normal form of
    /// `a' || b'` (`a' && b'`, `op` the operator) extracted in the first:
    /// `result` is `c || d`, its own normal form, `c` and `d` two different
    /// comparisons each of which is `a'` or `b'` or new and quiet, and
    /// neither `a` nor `b`. Joined to the root, the node `c || d` is the
    /// only new one above them, no left side matches it (no class of `c`
    /// or `d` holds a negation of the other, a disjunction or a literal),
    /// and extraction takes `a' || b'` or `c || d` (the original is longer),
    /// both of which normalise to `result`.
    fn joined_settles(
        &mut self,
        result: &Term,
        op: BinOp,
        [a, b]: [&Term; 2],
        turned: &[Term; 2],
        nodes: &[Term],
    ) -> bool {
        let TermKind::Binary(result_op, c, d) = result.kind() else {
            return false;
        };
        let comparison =
            |t: &Term| matches!(t.kind(), TermKind::Binary(op, ..) if op.is_comparison());
        if *result_op != op || c == d || [c, d].iter().any(|t| *t == a || *t == b || !comparison(t))
        {
            return false;
        }
        if self.normal.normalise(result) != *result {
            return false;
        }
        let unchecked = mutants::active(Mutant::KnownJoinedUnchecked);
        [c, d]
            .into_iter()
            .all(|t| turned.contains(t) || (!nodes.contains(t) && (unchecked || self.quiet(t))))
    }

    /// `normal`, the normal form of the quiet `x`, when the second round
    /// (on an e-graph of `size` nodes with `normal` joined) finds nothing.
    fn settled_by_second_round(&mut self, x: &Term, normal: Term, size: usize) -> Option<Term> {
        if self.limits.rounds < 2 || is_literal(&normal) || normal == *x {
            return None;
        }
        let expr = to_expr(&normal);
        let quiet =
            mutants::active(Mutant::KnownNormalFormUnchecked) || self.first_round_quiet(&expr);
        let settled = quiet
            && size + expr.as_ref().len() <= self.limits.nodes
            && self.normal.normalise(&normal) == normal
            && !x.nodes().contains(&normal)
            && !normal.nodes().contains(x);
        settled.then_some(normal)
    }
}

/// `x` of `false || x`, `x || false`, `true && x` and `x && true`.
pub(super) fn unit_operand(term: &Term) -> Option<&Term> {
    let TermKind::Binary(op @ (BinOp::Or | BinOp::And), a, b) = term.kind() else {
        return None;
    };
    let unit = Term::bool(*op == BinOp::And);
    let is_unit = |t: &Term| match mutants::active(Mutant::KnownZeroTakenForUnit) {
        true => is_literal(t),
        false => *t == unit,
    };
    match (is_unit(a), is_unit(b)) {
        (true, false) => Some(b),
        (false, true) => Some(a),
        _ => None,
    }
}

/// `a` of `a ==> a`, `a ==> true && a` and `a ==> a && true`.
fn implied_by_itself(term: &Term) -> Option<&Term> {
    let TermKind::Binary(BinOp::Implies, a, b) = term.kind() else {
        return None;
    };
    let dropped = mutants::active(Mutant::KnownConjunctDropped);
    let itself = match b.kind() {
        TermKind::Binary(BinOp::And, l, r) if l.is_true() || dropped => r,
        TermKind::Binary(BinOp::And, l, r) if r.is_true() => l,
        _ => b,
    };
    (itself == a).then_some(a)
}

/// What extraction weighs `term` at (printed length, then nodes).
pub(super) fn printed_length(term: &Term) -> (usize, usize) {
    PrintedLength.cost_rec(&to_expr(term))
}

pub(super) fn is_literal(term: &Term) -> bool {
    matches!(term.kind(), TermKind::Int(_) | TermKind::Bool(_))
}
