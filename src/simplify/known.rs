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

use super::language::{to_expr, Node};
use super::Simplifier;
use crate::mutants::{self, Mutant};
use egg::RecExpr;
use symex_semantics::term::{BinOp, Term, TermKind};

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
        let x = unit_operand(term)?;
        if self.limits.iterations < 2 || size > self.limits.nodes || is_literal(x) {
            return None;
        }
        if !self.first_round_quiet(&to_expr(x)) {
            return None;
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
        (comparison && within && self.first_round_quiet(&to_expr(a))).then(|| Term::bool(true))
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
fn unit_operand(term: &Term) -> Option<&Term> {
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

fn is_literal(term: &Term) -> bool {
    matches!(term.kind(), TermKind::Int(_) | TermKind::Bool(_))
}
