//! egg's result on a comparison of a conditional with one of its own
//! branches, known without the e-graph ([`super::known`] for the others).
//!
//! A list walk's guards read a field through an aliasing conditional and
//! compare it with `nil`: `if l.next = l then nil else l.next.next fi !=
//! nil`. egg pushes the comparison into the branches, folds the one that
//! compares `nil` with itself and turns the conditional into a connective,
//! five iterations and a second round (about 430 K instructions a term)
//! to end with `l != l.next && l.next.next != nil`.
//!
//! Let `x` be `if c then d else e fi op d` (or `d op if … fi`, or `d` the
//! else branch), `op` one of `=` and `!=`, `c` a comparison, `d` no
//! literal and no conditional, `e` not `d`; the conditional, `d` and `E`
//! (`e op d`) quiet ([`unmatched`](super::unmatched)), and none of `S`
//! (`d op d`), its value `L` (`true` for `=`) and `E` in `x`. Then only the
//! push matches in the first iteration, adding `S`, `E` and `if c then S
//! else E fi` to the root (every other class is a subterm's own); the
//! second joins `S` to `L` (`eq-self`, `ne-self`); the third turns the
//! conditional into `X`: `c || E` (`ite-as-or`), `!c && E`
//! (`ite-as-and-not`), `c && E`, `!c || E`. Where `X` holds `!c`, neither
//! it nor `c'`, `c` turned round, in `x`, `c'` quiet and not `E`, the
//! fourth adds `c'` to the class of `!c`. No left side matches the new
//! nodes (no class of `c`, `E`, `c'` holds a literal, a negation or a
//! connective), so the fifth saturates. Extraction takes `X` with `c'` for
//! `!c` (as long at most, one node fewer), strictly shorter than the
//! conditional forms. A Boolean unit around `x` (`false || x`) joins the
//! root in the first iteration and matches nothing more: its literal's
//! class holds at most `S` besides, no negation or connective.
//!
//! If the normal form `n` of `X` is `X`, the first round ends with it.
//! Otherwise `n` joins the root; if it is its own normal form `p ∘ q`,
//! `∘` the connective of `X`, `p` and `q` two different comparisons, not
//! `c` and `c'` together, each `c`, `E`, `c'` where `X` holds `!c`, or new
//! and quiet over subterms whose classes are their own, nothing matches in
//! the second round (no class of `p` or `q` holds a literal, a connective,
//! or a negation of the other) and extraction takes `X` or `n`, both of
//! which normalise to `n`.

use super::fold::turned_round;
use super::language::to_expr;
use super::Simplifier;
use crate::mutants::{self, Mutant};
use symex_semantics::term::{BinOp, Term, TermKind, UnOp};

/// Iterations egg needs on `x` (the fifth finds nothing) and e-nodes it
/// adds at most (`S`, `L`, `E`, the conditional, `!c`, `c'`, `X`).
const ITERATIONS: usize = 5;
pub(super) const ADDED: usize = 8;

/// `x` read as a comparison of a conditional with one of its branches,
/// the checks of the module documentation passed.
pub(super) struct Branches {
    pub c: Term,
    pub e: Term,
    pub d: Term,
    /// `S`, `d op d`.
    pub same: Term,
    /// `E`, `e op d`.
    pub other: Term,
    /// `L`, the value of `S`.
    pub literal: Term,
    /// `!c` and `c'`.
    pub negation: Term,
    pub turned: Term,
    /// Whether `X` holds `!c` (and so `c'`), not `c`.
    pub negated: bool,
    pub connective: BinOp,
    /// `X` as extracted.
    pub best: Term,
    /// The subterms of `x`.
    pub nodes: Vec<Term>,
}

impl Simplifier {
    /// egg's result on `x` (a comparison of a conditional with one of its
    /// branches, see the module documentation), the whole term of `size`
    /// e-nodes being `x` or a Boolean unit around it.
    pub(super) fn folded_branch(&mut self, x: &Term, size: usize) -> Option<Term> {
        let limits = self.limits;
        let within = limits.iterations >= ITERATIONS && limits.rounds >= 1;
        if !within || size + ADDED > limits.nodes {
            return None;
        }
        let branches = self.branches(x)?;
        let normal = self.normal.normalise(&branches.best);
        if normal == branches.best {
            self.taken.folded_branches += 1;
            return Some(normal);
        }
        let Branches {
            c,
            same,
            other,
            literal,
            negation,
            turned,
            negated,
            connective,
            best,
            nodes,
            ..
        } = branches;
        let mut held = vec![c, other];
        if negated {
            held.push(turned.clone());
        }
        let graph = Graph {
            merged: [x.clone(), same, literal, negation, turned, best],
            held,
            nodes,
        };
        let settled = limits.rounds >= 2
            && size + ADDED + to_expr(&normal).as_ref().len() <= limits.nodes
            && self.normal.normalise(&normal) == normal
            && self.branches_joined_settle(&normal, connective, &graph);
        self.taken.folded_branches += usize::from(settled);
        settled.then_some(normal)
    }

    /// `x` read as in the module documentation, where egg's first round
    /// on it goes as described there.
    pub(super) fn branches(&mut self, x: &Term) -> Option<Branches> {
        let TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), left, right) = x.kind() else {
            return None;
        };
        let (conditional, d, conditional_left) = match (left.kind(), right.kind()) {
            (TermKind::Ite(..), _) => (left, right, true),
            (_, TermKind::Ite(..)) => (right, left, false),
            _ => return None,
        };
        let TermKind::Ite(c, a, b) = conditional.kind() else {
            return None;
        };
        let plain = |t: &Term| {
            !matches!(
                t.kind(),
                TermKind::Int(_) | TermKind::Bool(_) | TermKind::Ite(..)
            )
        };
        if !(comparison(c) && plain(d) && a != b) {
            return None;
        }
        let (e, then_folds) = match (a == d, b == d) {
            (true, _) => (b, true),
            (_, true) => (a, false),
            _ => return None,
        };
        let compared = |t: &Term| match conditional_left {
            true => Term::binary(*op, t.clone(), d.clone()),
            false => Term::binary(*op, d.clone(), t.clone()),
        };
        let (same, other) = (compared(d), compared(e));
        let literal = Term::bool(*op == BinOp::Eq);
        let nodes = x.nodes();
        if [&same, &other, &literal].iter().any(|t| nodes.contains(t)) {
            return None;
        }
        let unchecked = mutants::active(Mutant::KnownBranchOtherUnchecked);
        // The conditional holds `d`: both are quiet.
        if !self.quiet(conditional) {
            return None;
        }
        if !unchecked && !self.quiet(&other) {
            return None;
        }
        let negation = Term::unary(UnOp::Not, c.clone());
        let turned = turned_round(negation.clone());
        // `!c` where `c` is `false` in the then branch, `true` in the else.
        let negated = then_folds != (*op == BinOp::Eq);
        if negated {
            let new = !nodes.contains(&negation) && !nodes.contains(&turned) && turned != other;
            if !(new && self.quiet(&turned)) {
                return None;
            }
        }
        let connective = match op {
            BinOp::Eq => BinOp::Or,
            _ => BinOp::And,
        };
        let first = match negated {
            true => turned.clone(),
            false => c.clone(),
        };
        Some(Branches {
            best: Term::binary(connective, first, other.clone()),
            c: c.clone(),
            e: e.clone(),
            d: d.clone(),
            same,
            other,
            literal,
            negation,
            turned,
            negated,
            connective,
            nodes,
        })
    }

    /// Whether the second round finds nothing once `normal` (not `X`) has
    /// joined the root: see the module documentation.
    fn branches_joined_settle(&mut self, normal: &Term, connective: BinOp, graph: &Graph) -> bool {
        let TermKind::Binary(op, p, q) = normal.kind() else {
            return false;
        };
        let (c, turned) = (&graph.held[0], &graph.merged[4]);
        let both = (p == c && q == turned) || (p == turned && q == c);
        if *op != connective || p == q || both {
            return false;
        }
        [p, q]
            .into_iter()
            .all(|t| comparison(t) && (graph.held.contains(t) || self.new_and_quiet(t, graph)))
    }

    /// Whether `t` is in no class of the e-graph, and quiet over subterms
    /// each of which is alone in its class.
    fn new_and_quiet(&mut self, t: &Term, graph: &Graph) -> bool {
        let below = t.nodes();
        !graph.nodes.contains(t) && !below.iter().any(|u| graph.merged.contains(u)) && self.quiet(t)
    }
}

/// What the e-graph holds after the first round, besides the subterms of
/// `x`, each alone in its class.
struct Graph {
    /// Terms in classes of more than one node, or new there: `x`, `S`,
    /// `L`, `!c`, `c'` and `X`.
    merged: [Term; 6],
    /// The comparisons a conjunct of the normal form may be as they are,
    /// each alone in its class but `c'` with `!c`: `c`, `E` and, where
    /// `X` holds `!c`, `c'`.
    held: Vec<Term>,
    /// The subterms of `x`.
    nodes: Vec<Term>,
}

fn comparison(t: &Term) -> bool {
    matches!(t.kind(), TermKind::Binary(op, ..) if op.is_comparison())
}
