//! Which rules can match in one iteration, by the edges of their left sides.
//!
//! egg searches for a rule in every e-class holding its left side's root
//! operator, running its matching machine in each: on `list_reverse`
//! about 1,270 runs of ~950 instructions, nearly all finding nothing. A
//! match of `(&& ?a (! ?a))` needs an `&&` e-node whose second child's
//! class holds a `!` e-node; one of `(&& ?a ?a)` an `&&` e-node with both
//! children in one class. egg searches for every rule before it applies
//! any, so the e-graph's edges, read once per iteration, hold for all of
//! its searches, and a rule that lacks one of its edges would find
//! nothing: it is not searched for.

use super::language::Node;
use super::operators::{position, OPERATORS};
use crate::mutants::{self, Mutant};
use egg::{Analysis, EClass, EGraph, ENodeOrVar, Language, PatternAst};
use smallvec::SmallVec;

/// The kinds of e-nodes a child may hold: the operators, then `true`,
/// `false` and any integer literal (the leaves a rule's left side names).
const TRUE: usize = OPERATORS;
const FALSE: usize = OPERATORS + 1;
const INTEGER: usize = OPERATORS + 2;

/// The slot of an operator's edges that holds the pairs of its children
/// in one class (slots 0 to 2 are its child positions).
const ALIKE: usize = 3;

/// The kind of `node` as a bit position; `None` for variables, lengths,
/// `nil` and fields, which no rule's left side names.
fn kind(node: &Node) -> Option<usize> {
    match node {
        Node::Bool(true) => Some(TRUE),
        Node::Bool(false) => Some(FALSE),
        Node::Int(_) => Some(INTEGER),
        _ => position(node),
    }
}

/// The kinds of the e-nodes of a class, one bit each.
fn kinds<D>(class: &EClass<Node, D>) -> u32 {
    class
        .iter()
        .filter_map(kind)
        .fold(0, |set, kind| set | 1 << kind)
}

/// The bit of children `i < j` (of at most three) in the [`ALIKE`] slot.
fn pair(i: usize, j: usize) -> u32 {
    1 << (i + j - 1)
}

/// The edges of an e-graph: for each operator and child position, the
/// kinds of the e-nodes of the child classes of its e-nodes; and for each
/// operator, the pairs of children some one of its e-nodes has in one class.
#[derive(Clone, Debug, Default)]
pub struct Edges([[u32; 4]; OPERATORS]);

/// One edge a left side needs: a bit in a slot of an operator's edges.
#[derive(Clone, Copy, Debug)]
struct Need {
    operator: usize,
    slot: usize,
    bit: u32,
}

/// The edges a rule's left side needs the e-graph to have.
#[derive(Clone, Debug)]
pub struct Needs(SmallVec<[Need; 2]>);

impl Edges {
    pub fn of<N: Analysis<Node>>(egraph: &EGraph<Node, N>) -> Edges {
        let mut edges = Edges::default();
        for node in egraph.classes().flat_map(|class| class.iter()) {
            let Some(operator) = position(node) else {
                continue;
            };
            let slots = &mut edges.0[operator];
            let children = node.children();
            for (i, &child) in children.iter().enumerate() {
                let slot = match mutants::active(Mutant::EdgesAtFirstChild) {
                    true => 0,
                    false => i,
                };
                slots[slot] |= kinds(&egraph[child]);
                for (j, &other) in children.iter().enumerate().skip(i + 1) {
                    if egraph.find(child) == egraph.find(other) {
                        slots[ALIKE] |= pair(i, j);
                    }
                }
            }
        }
        edges
    }

    /// Whether the e-graph has every edge of `needs`.
    pub fn has(&self, needs: &Needs) -> bool {
        needs
            .0
            .iter()
            .all(|need| self.0[need.operator][need.slot] & need.bit != 0)
    }
}

impl Needs {
    /// The edges of `lhs`: for each of its e-nodes, the kind of each child
    /// at its position, and each two children that are one variable.
    pub fn of(lhs: &PatternAst<Node>) -> Needs {
        let mut needs = SmallVec::new();
        for node in lhs.as_ref() {
            let ENodeOrVar::ENode(node) = node else {
                continue;
            };
            let Some(operator) = position(node) else {
                continue;
            };
            let children = node.children();
            for (i, &child) in children.iter().enumerate() {
                match &lhs[child] {
                    ENodeOrVar::ENode(child) => needs.extend(kind(child).map(|kind| Need {
                        operator,
                        slot: i,
                        bit: 1 << kind,
                    })),
                    var @ ENodeOrVar::Var(_) => {
                        for (j, &other) in children.iter().enumerate().skip(i + 1) {
                            if &lhs[other] == var {
                                needs.push(Need {
                                    operator,
                                    slot: ALIKE,
                                    bit: pair(i, j),
                                });
                            }
                        }
                    }
                }
            }
        }
        Needs(needs)
    }
}
