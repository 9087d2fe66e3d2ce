//! Which rules can match an e-graph at all, by the operators they name.
//!
//! egg indexes e-classes by an e-node's operator ([`super::language::Operator`]),
//! so a rule is searched for only in the classes holding its left side's
//! root operator; but each rule searched for still costs a pass over
//! those, and on heap guards (`l.next != nil ==> l != nil`) no `/`,
//! `ite` or `store` occurs. A rule matches only where every
//! operator of its left side occurs; the e-graph gains operators only
//! from a rule's right side (constant folding adds literals, which the
//! sets leave out) and from the normal form joined between rounds. So the
//! rules whose left sides fit in the closure of the e-graph's operators
//! under the right sides of such rules are all that can ever match in a
//! round; the others are left out of its search, which changes nothing
//! else (egg's scheduler keeps each rule's record on its own).

use super::language::{Node, BINARY};
use crate::mutants::{self, Mutant};
use egg::{EGraph, ENodeOrVar, PatternAst, RecExpr};
use symex_semantics::term::UnOp;

/// A set of operators, one bit each (literals, variables and fields
/// excluded: no rule's left side needs one to be present).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Operators(u32);

impl Operators {
    /// The operators of `node`: none for a leaf or a field read.
    fn of(node: &Node) -> Operators {
        Operators(position(node).map_or(0, |bit| 1 << bit))
    }

    /// The operators of a rule side.
    pub fn of_ast(side: &PatternAst<Node>) -> Operators {
        side.as_ref()
            .iter()
            .fold(Operators::default(), |set, node| match node {
                ENodeOrVar::ENode(node) => set.with(Operators::of(node)),
                ENodeOrVar::Var(_) => set,
            })
    }

    /// The operators of a term's nodes.
    pub fn of_expr(term: &RecExpr<Node>) -> Operators {
        term.as_ref()
            .iter()
            .fold(Operators::default(), |set, node| {
                set.with(Operators::of(node))
            })
    }

    /// The operators of every e-node of `egraph`.
    pub fn in_egraph<N: egg::Analysis<Node>>(egraph: &EGraph<Node, N>) -> Operators {
        egraph
            .classes()
            .flat_map(|class| class.iter())
            .fold(Operators::default(), |set, node| {
                set.with(Operators::of(node))
            })
    }

    fn with(self, other: Operators) -> Operators {
        Operators(self.0 | other.0)
    }

    pub fn contains(self, other: Operators) -> bool {
        self.0 & other.0 == other.0
    }
}

/// How many operators there are.
pub const OPERATORS: usize = BINARY.len() + 5;

/// The operator of `node` as a number below [`OPERATORS`]; `None` for a
/// leaf or a field read.
pub fn position(node: &Node) -> Option<usize> {
    match node {
        Node::Binary(op, _) => BINARY.iter().position(|o| o == op),
        Node::Unary(UnOp::Not, _) => Some(BINARY.len()),
        Node::Unary(UnOp::Neg, _) => Some(BINARY.len() + 1),
        Node::Ite(_) => Some(BINARY.len() + 2),
        Node::Select(_) => Some(BINARY.len() + 3),
        Node::Store(_) => Some(BINARY.len() + 4),
        _ => None,
    }
}

/// The operators of a rule's left and right sides.
pub type Sides = (Operators, Operators);

/// The operators of each rule's two sides.
#[derive(Clone, Debug, Default)]
pub struct RuleOperators(pub Vec<Sides>);

impl RuleOperators {
    /// Whether each rule can match while rules run on an e-graph with the
    /// operators `present`: its left side's operators are among those the
    /// rules that can match may bring in.
    pub fn may_match(&self, present: Operators) -> Vec<bool> {
        let mut reachable = present;
        while !mutants::active(Mutant::RulesForPresentOperatorsOnly) {
            let grown = self
                .0
                .iter()
                .filter(|(lhs, _)| reachable.contains(*lhs))
                .fold(reachable, |set, (_, rhs)| set.with(*rhs));
            if grown == reachable {
                break;
            }
            reachable = grown;
        }
        self.0
            .iter()
            .map(|(lhs, _)| reachable.contains(*lhs))
            .collect()
    }
}
