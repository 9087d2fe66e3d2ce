//! Meaning-preserving simplification of terms: every ground subterm (no
//! variable, no `len(a)`) is folded to its value by the project's own
//! evaluator, so folding is sound by construction, and the unit laws of the
//! connectives (`true && b = b`, `!!b = b`, `if true then a else b fi = a`, …)
//! are applied. Used on guards before they reach the solver (a guard that
//! folds to `true` or `false` needs no query) and on reported path
//! conditions and states (`a[3] = x` rather than `a[(1 + 5) / 2] = x`).
//!
//! Memoised per node id across calls, and iterative: one exploration
//! simplifies each distinct node once, however deep the term.

#[cfg(test)]
mod tests;

use symex_semantics::eval::eval_with;
use symex_semantics::term::{BinOp, IdMap, Term, TermKind, UnOp};
use symex_semantics::value::Value;

/// Memo entries beyond which the table is cleared before the next call (it
/// holds its terms alive, so this bounds the memory of a long exploration):
/// ids of dropped terms are never reused, so stale entries are dead weight.
const MEMO_LIMIT: usize = 1 << 12;

/// A deliberately wrong rule, to show that the soundness property can fail.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mutant {
    /// `!(a < b)` rewritten to `a > b` (forgets `a = b`).
    NotLessIsGreater,
}

/// A simplifier with its memo table (keep one per exploration).
#[derive(Default)]
pub struct Simplifier {
    memo: IdMap<Term>,
    #[cfg(test)]
    mutant: Option<Mutant>,
}

impl Simplifier {
    pub fn new() -> Simplifier {
        Simplifier::default()
    }

    #[cfg(test)]
    pub(crate) fn with_mutant(mutant: Mutant) -> Simplifier {
        Simplifier { mutant: Some(mutant), ..Simplifier::default() }
    }

    /// A term equal to `term` under every valuation, with its ground parts folded.
    pub fn simplify(&mut self, term: &Term) -> Term {
        if let Some(done) = self.memo.get(&term.id()) {
            return done.clone();
        }
        if self.memo.len() > MEMO_LIMIT {
            self.memo.clear();
        }
        // Post-order over the nodes not simplified yet.
        let mut stack = vec![(term.clone(), false)];
        while let Some((node, children_done)) = stack.pop() {
            if self.memo.contains_key(&node.id()) {
                continue;
            }
            if children_done {
                let simplified = self.rebuild(&node);
                self.memo.insert(node.id(), simplified);
            } else {
                stack.push((node.clone(), true));
                for child in node.children() {
                    if !self.memo.contains_key(&child.id()) {
                        stack.push((child.clone(), false));
                    }
                }
            }
        }
        self.memo[&term.id()].clone()
    }

    /// `node` with its children replaced by their simplified forms, then
    /// folded or reduced by a unit law where one applies.
    fn rebuild(&self, node: &Term) -> Term {
        let s = |t: &Term| self.memo[&t.id()].clone();
        let rebuilt = match node.kind() {
            TermKind::Int(_) | TermKind::Bool(_) | TermKind::Var(..) | TermKind::Len(_) | TermKind::Nil(_) => {
                return node.clone()
            }
            TermKind::Field(a, f, sort) => return Term::field(s(a), f, sort.clone()),
            TermKind::Unary(UnOp::Not, a) => self.not(s(a)),
            TermKind::Unary(op, a) => Term::unary(*op, s(a)),
            TermKind::Binary(BinOp::And, a, b) => Term::and(s(a), s(b)),
            TermKind::Binary(BinOp::Or, a, b) => Term::or(s(a), s(b)),
            TermKind::Binary(BinOp::Implies, a, b) => Term::implies(s(a), s(b)),
            TermKind::Binary(op, a, b) => Term::binary(*op, s(a), s(b)),
            TermKind::Ite(c, a, b) => {
                let (c, a, b) = (s(c), s(a), s(b));
                match c.kind() {
                    TermKind::Bool(true) => return a,
                    TermKind::Bool(false) => return b,
                    _ if a == b => return a,
                    _ => Term::ite(c, a, b),
                }
            }
            TermKind::Select(a, i) => Term::select(s(a), s(i)),
            TermKind::Store(a, i, v) => Term::store(s(a), s(i), s(v)),
        };
        fold(&rebuilt).unwrap_or(rebuilt)
    }

    /// `¬b` by the unit laws of [`Term::not`], with negated comparisons
    /// turned round: `!(0 < n)` is `n <= 0`, `!(x > 0)` is `x <= 0`,
    /// `!(a = b)` is `a != b` (integers are totally ordered).
    fn not(&self, operand: Term) -> Term {
        #[cfg(test)]
        if self.mutant == Some(Mutant::NotLessIsGreater) {
            if let TermKind::Binary(BinOp::Lt, a, b) = operand.kind() {
                return Term::binary(BinOp::Gt, a.clone(), b.clone());
            }
        }
        let TermKind::Binary(op, a, b) = operand.kind() else {
            return Term::not(operand);
        };
        let (a, b) = (a.clone(), b.clone());
        match op {
            BinOp::Lt => Term::binary(BinOp::Le, b, a),
            BinOp::Le => Term::binary(BinOp::Lt, b, a),
            BinOp::Gt => Term::binary(BinOp::Le, a, b),
            BinOp::Ge => Term::binary(BinOp::Lt, a, b),
            BinOp::Eq => Term::binary(BinOp::Ne, a, b),
            BinOp::Ne => Term::binary(BinOp::Eq, a, b),
            _ => Term::not(operand),
        }
    }
}

/// The value of `node` as a literal when all its children are literals
/// (integers and booleans; arrays have no literal form).
fn fold(node: &Term) -> Option<Term> {
    let ground = !node.children().is_empty() && node.children().iter().all(|child| is_literal(child));
    if !ground {
        return None;
    }
    match eval_with(node, |_| None).ok()? {
        Value::Int(n) => Some(Term::int(n)),
        Value::Bool(b) => Some(Term::bool(b)),
        Value::Array(_) | Value::Nil | Value::Object(_) => None,
    }
}

fn is_literal(term: &Term) -> bool {
    matches!(term.kind(), TermKind::Int(_) | TermKind::Bool(_))
}
