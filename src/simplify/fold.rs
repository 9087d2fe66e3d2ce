//! Constant folding: the value of an e-node whose operands are literals,
//! computed by the project's own evaluator (so folding is sound by
//! construction), as an e-graph [`Analysis`] in the manner of egg's
//! `tests/math.rs`, with unbounded integers. The same function folds the
//! explorer's guards before they reach the solver, without an e-graph
//! ([`GuardFolder`]).

use super::language::{to_term, Node};
use egg::{Analysis, DidMerge, EGraph, Id, Language};
use num_bigint::{BigInt, Sign};
use num_traits::Zero;
use smallvec::SmallVec;
use symex_semantics::eval::eval_with;
use symex_semantics::memo::Generations;
use symex_semantics::term::{BinOp, Term, TermKind, UnOp};
use symex_semantics::value::Value;

/// A literal: what folding computes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constant {
    Int(BigInt),
    Bool(bool),
}

impl Constant {
    pub fn node(&self) -> Node {
        match self {
            Constant::Int(n) => Node::Int(n.clone()),
            Constant::Bool(b) => Node::Bool(*b),
        }
    }

    pub fn term(&self) -> Term {
        match self {
            Constant::Int(n) => Term::int(n.clone()),
            Constant::Bool(b) => Term::bool(*b),
        }
    }

    pub fn as_int(&self) -> Option<&BigInt> {
        match self {
            Constant::Int(n) => Some(n),
            Constant::Bool(_) => None,
        }
    }
}

/// The value of `node` whenever it is defined, given its operands'
/// constants: all operands literal, or one operand deciding the value on
/// its own (`false && b`, `b || true`, `0 * e`, a conditional with a
/// literal condition or equal literal branches).
pub fn fold(node: &Node, constant: impl Fn(Id) -> Option<Constant>) -> Option<Constant> {
    let known = |id: Id, value: Constant| constant(id) == Some(value);
    let decided = match node {
        Node::Int(n) => Some(Constant::Int(n.clone())),
        Node::Bool(b) => Some(Constant::Bool(*b)),
        Node::Binary(BinOp::And, [a, b])
            if known(*a, Constant::Bool(false)) || known(*b, Constant::Bool(false)) =>
        {
            Some(Constant::Bool(false))
        }
        Node::Binary(BinOp::Or, [a, b])
            if known(*a, Constant::Bool(true)) || known(*b, Constant::Bool(true)) =>
        {
            Some(Constant::Bool(true))
        }
        Node::Binary(BinOp::Implies, [a, b])
            if known(*a, Constant::Bool(false)) || known(*b, Constant::Bool(true)) =>
        {
            Some(Constant::Bool(true))
        }
        Node::Binary(BinOp::Mul, [a, b])
            if known(*a, Constant::Int(BigInt::zero()))
                || known(*b, Constant::Int(BigInt::zero())) =>
        {
            Some(Constant::Int(BigInt::zero()))
        }
        Node::Ite([c, a, b]) => match constant(*c) {
            Some(Constant::Bool(true)) => return constant(*a),
            Some(Constant::Bool(false)) => return constant(*b),
            _ => constant(*a).filter(|value| constant(*b).as_ref() == Some(value)),
        },
        _ => None,
    };
    if decided.is_some() || node.is_leaf() {
        return decided;
    }
    let operands: Option<SmallVec<[Term; 3]>> = node
        .children()
        .iter()
        .map(|&id| constant(id).map(|value| value.term()))
        .collect();
    let operands = operands?;
    let ground = to_term(node, &operands);
    match eval_with(&ground, |_| None).ok()? {
        Value::Int(n) => Some(Constant::Int(n)),
        Value::Bool(b) => Some(Constant::Bool(b)),
        Value::Array(_) | Value::Nil | Value::Object(_) | Value::Field(_) => None,
    }
}

/// Folds the explorer's guards before they reach the solver: every ground
/// subterm becomes its literal, literal offsets are added up (`n - 1 - 1`
/// is `n - 2`) and negated comparisons are turned round (`!(x < 1 + 2)` is
/// `3 <= x`), so a literal guard needs no query, a counter's guards and
/// values keep one size however often a loop is unfolded, and
/// model repair can mend a model for `a[3] = x` (not for
/// `a[(1 + 5) / 2] = x`). Memoised per node across the guards of one
/// exploration, which share their subterms, without an e-graph.
#[derive(Default)]
pub struct GuardFolder {
    memo: Generations<Folded>,
}

/// A node folded, kept with the node itself: a guard re-made after its
/// last use (the same test in a sibling subtree) would otherwise come back
/// under a new id and be folded again.
struct Folded {
    _node: Term,
    term: Term,
    constant: Option<Constant>,
}

impl GuardFolder {
    pub fn fold(&mut self, guard: &Term) -> Term {
        // A leaf folds to itself (a state's literals and untouched inputs).
        if guard.children().is_empty() {
            return guard.clone();
        }
        if let Some(folded) = self.memo.get(&guard.id()) {
            return folded.term.clone();
        }
        self.memo.age();
        for node in guard.nodes_besides(|node| self.memo.contains_key(&node.id())) {
            let folded = self.folded(node.clone());
            self.memo.insert(node.id(), folded);
        }
        self.memo[&guard.id()].term.clone()
    }

    /// The literal `term` folds to, if it is one or a guard folded so far
    /// contained it.
    pub fn literal(&self, term: &Term) -> Option<Term> {
        if matches!(term.kind(), TermKind::Int(_) | TermKind::Bool(_)) {
            return Some(term.clone());
        }
        self.memo
            .get(&term.id())
            .filter(|folded| folded.constant.is_some())
            .map(|folded| folded.term.clone())
    }

    /// `node` folded, and its constant if it has one, given its children's.
    fn folded(&self, node: Term) -> Folded {
        let children: SmallVec<[&Folded; 3]> = node
            .children()
            .iter()
            .map(|child| &self.memo[&child.id()])
            .collect();
        let constant = match positional(&node) {
            Some(enode) => fold(&enode, |id| children[usize::from(id)].constant.clone()),
            None => None,
        };
        let term = match &constant {
            Some(literal) => literal.term(),
            None => {
                let folded: SmallVec<[Term; 3]> =
                    children.iter().map(|child| child.term.clone()).collect();
                pushed_into_branches(turned_round(offsets_added(node.with_children(&folded))))
            }
        };
        Folded {
            _node: node,
            term,
            constant,
        }
    }
}

/// `node` as an e-node whose children are numbered by position, for
/// [`fold`]; `None` for the leaves folding leaves alone (variables, lengths, `nil`).
fn positional(node: &Term) -> Option<Node> {
    let id = |i: usize| Id::from(i);
    Some(match node.kind() {
        TermKind::Int(n) => Node::Int(n.clone()),
        TermKind::Bool(b) => Node::Bool(*b),
        TermKind::Var(..)
        | TermKind::Len(_)
        | TermKind::Nil(_)
        | TermKind::Field(..)
        | TermKind::FieldArray(..) => return None,
        TermKind::Unary(op, _) => Node::Unary(*op, [id(0)]),
        TermKind::Binary(op, ..) => Node::Binary(*op, [id(0), id(1)]),
        TermKind::Ite(..) => Node::Ite([id(0), id(1), id(2)]),
        TermKind::Select(..) => Node::Select([id(0), id(1)]),
        TermKind::Store(..) => Node::Store([id(0), id(1), id(2)]),
    })
}

/// `(e ± a) ± b` as `e ± c` for literals `a`, `b` and `c = ±a ± b` (`e`
/// alone when `c` is 0); any other term as it is.
fn offsets_added(term: Term) -> Term {
    let Some((inner, b)) = offset(&term) else {
        return term;
    };
    let Some((e, a)) = offset(inner) else {
        return term;
    };
    let c = a + b;
    match c.sign() {
        Sign::NoSign => e.clone(),
        Sign::Plus => Term::binary(BinOp::Add, e.clone(), Term::int(c)),
        Sign::Minus => Term::binary(BinOp::Sub, e.clone(), Term::int(-c)),
    }
}

/// `e + k` as `(e, k)` and `e - k` as `(e, -k)` for a literal `k`.
pub(crate) fn offset(term: &Term) -> Option<(&Term, BigInt)> {
    match term.kind() {
        TermKind::Binary(op @ (BinOp::Add | BinOp::Sub), e, k) => match k.kind() {
            TermKind::Int(k) if *op == BinOp::Add => Some((e, k.clone())),
            TermKind::Int(k) => Some((e, -k)),
            _ => None,
        },
        _ => None,
    }
}

/// `!(a op b)` as `a op' b` for a comparison `op` (integers are totally
/// ordered); any other term as it is.
pub(super) fn turned_round(term: Term) -> Term {
    let TermKind::Unary(UnOp::Not, inner) = term.kind() else {
        return term;
    };
    let TermKind::Binary(op, a, b) = inner.kind() else {
        return term;
    };
    let (a, b) = (a.clone(), b.clone());
    match op {
        BinOp::Lt => Term::binary(BinOp::Le, b, a),
        BinOp::Le => Term::binary(BinOp::Lt, b, a),
        BinOp::Gt => Term::binary(BinOp::Le, a, b),
        BinOp::Ge => Term::binary(BinOp::Lt, a, b),
        BinOp::Eq => Term::binary(BinOp::Ne, a, b),
        BinOp::Ne => Term::binary(BinOp::Eq, a, b),
        _ => term,
    }
}

/// `(if c then a else b) = k` for literals `a` and `k` as `c || b = k`
/// when `a` is `k` and `!c && b = k` when it is not (so too with `b`
/// literal, and for `!=`), pushed on into `b`: a read over a chain of field
/// writes compared with a literal (`r1.f = 1` after `r1.f := 1; …; rn.f :=
/// n`, wp's nested aliasing conditionals) becomes a conjunction of the
/// aliasing it needs, which the solver and the e-graph take in their
/// stride; any other term as it is.
fn pushed_into_branches(term: Term) -> Term {
    let TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), left, right) = term.kind() else {
        return term;
    };
    if is_literal(left) && is_literal(right) {
        return Term::bool((left == right) == (*op == BinOp::Eq));
    }
    let (conditional, k) = match (left.kind(), right.kind()) {
        (TermKind::Ite(..), _) if is_literal(right) => (left, right),
        (_, TermKind::Ite(..)) if is_literal(left) => (right, left),
        _ => return term,
    };
    let TermKind::Ite(c, a, b) = conditional.kind() else {
        return term;
    };
    let (c, literal, other) = match (is_literal(a), is_literal(b)) {
        (true, _) => (c.clone(), a, b),
        (false, true) => (Term::not(c.clone()), b, a),
        _ => return term,
    };
    let rest = pushed_into_branches(Term::binary(*op, other.clone(), k.clone()));
    match (literal == k) == (*op == BinOp::Eq) {
        true => Term::or(c, rest),
        false => Term::and(Term::not(c), rest),
    }
}

fn is_literal(t: &Term) -> bool {
    matches!(t.kind(), TermKind::Int(_) | TermKind::Bool(_))
}

/// The value of `term` when folding alone decides it (the rule-soundness
/// tests' side conditions).
#[cfg(test)]
pub fn constant(term: &Term) -> Option<Constant> {
    let expr = super::language::to_expr(term);
    let mut constants: Vec<Option<Constant>> = Vec::with_capacity(expr.as_ref().len());
    for node in expr.as_ref() {
        let value = fold(node, |id| constants[usize::from(id)].clone());
        constants.push(value);
    }
    constants.pop().flatten()
}

/// The e-graph analysis: each e-class's constant, if folding finds one;
/// a class with a constant is reduced to that literal.
#[derive(Default)]
pub struct ConstantFold;

impl Analysis<Node> for ConstantFold {
    type Data = Option<Constant>;

    fn make(egraph: &mut EGraph<Node, ConstantFold>, enode: &Node) -> Option<Constant> {
        fold(enode, |id| egraph[id].data.clone())
    }

    /// Two constants for one class can only come from an unsound rule; the
    /// first is kept, so the soundness checks see the wrong result rather
    /// than a panic.
    fn merge(&mut self, to: &mut Option<Constant>, from: Option<Constant>) -> DidMerge {
        match (to.as_ref(), from) {
            (None, Some(value)) => {
                *to = Some(value);
                DidMerge(true, false)
            }
            (Some(_), None) => DidMerge(false, true),
            _ => DidMerge(false, false),
        }
    }

    fn modify(egraph: &mut EGraph<Node, ConstantFold>, id: Id) {
        if let Some(value) = egraph[id].data.clone() {
            let literal = egraph.add(value.node());
            egraph.union_trusted(id, literal, "constant-fold");
            egraph[id].nodes.retain(Language::is_leaf);
        }
    }
}
