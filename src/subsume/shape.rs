//! The states state subsumption stores and matches: a deterministic heap
//! graph (Anand et al.'s Definition 1) whose nodes may stand for several
//! objects (a summary node of an abstraction, Definition 4), with the
//! numeric part beside it. A lazy path's state gives one as it is
//! ([`Shape::exact`]); the abstractions make smaller ones from it.

use symex_semantics::oo::lazy::graph::{StateGraph, Target};
use symex_semantics::term::{Name, Term};

/// Where a reference points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ref {
    Null,
    /// The cloud: not initialised.
    Uninit,
    Node(usize),
}

impl From<Target> for Ref {
    fn from(target: Target) -> Ref {
        match target {
            Target::Null => Ref::Null,
            Target::Uninit => Ref::Uninit,
            Target::Node(k) => Ref::Node(k),
        }
    }
}

/// A node: an object, a summary of several, an array cell or a gap.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeNode {
    /// The class, or for an array's nodes a name of the array's own.
    pub class: Name,
    /// Stands for input objects only (or an array's cells): an input
    /// object may be the alias of a reference initialised later, an object
    /// made by `new` never.
    pub input: bool,
    /// Its references in a fixed order (of fields, or the list's `next`).
    pub refs: Vec<Ref>,
    /// The values of its integer and boolean fields, one valuation per
    /// object it stands for (one for a plain node, several for a summary:
    /// Definition 4 takes their disjunction).
    pub values: Vec<Vec<(Name, Term)>>,
    /// Which of `refs` links a singly linked list (`next`), if any.
    pub next: Option<usize>,
}

/// A state as stored and matched.
#[derive(Clone, Debug)]
pub struct Shape {
    /// The roots in a fixed order: the reference variables by name, then
    /// each array's head, then the index roots.
    pub roots: Vec<Ref>,
    pub nodes: Vec<ShapeNode>,
    /// The integer and boolean variables with their values (an
    /// abstraction discards them, as Anand et al. discard local numbers).
    pub numbers: Vec<(Name, Term)>,
}

/// The class of an array's head node and of its cells.
pub fn array_classes(array: &Name) -> (Name, Name) {
    (format!("{array}[]").into(), format!("{array}[·]").into())
}

impl Shape {
    /// The state as it is: objects as nodes, each input array as its head
    /// (its length) followed by its cells in index order, each with its
    /// index and value.
    pub fn exact(graph: &StateGraph) -> Shape {
        let mut shape = Shape {
            roots: graph.roots.iter().map(|(_, t)| Ref::from(*t)).collect(),
            nodes: graph
                .nodes
                .iter()
                .map(|node| ShapeNode {
                    class: node.class.clone(),
                    input: node.input,
                    refs: node.refs.iter().map(|(_, t)| Ref::from(*t)).collect(),
                    values: vec![node.prims.clone()],
                    next: node.next,
                })
                .collect(),
            numbers: graph.numbers.clone(),
        };
        for (array, cells) in &graph.arrays {
            let (head, cell) = array_classes(array);
            let values = cells
                .cells
                .iter()
                .map(|(index, value)| {
                    vec![
                        ("index".into(), index.clone()),
                        ("value".into(), value.clone()),
                    ]
                })
                .collect();
            let root = shape.chain(
                &head,
                vec![("len".into(), cells.len.clone())],
                &cell,
                values,
            );
            shape.roots.push(root);
        }
        shape
    }

    /// Appends a head node of class `head` with `fields`, followed by one
    /// node of class `cell` per valuation of `cells`, linked in order and
    /// ended by `null`; the head.
    pub fn chain(
        &mut self,
        head: &Name,
        fields: Vec<(Name, Term)>,
        cell: &Name,
        cells: Vec<Vec<(Name, Term)>>,
    ) -> Ref {
        let first = self.nodes.len();
        let count = cells.len();
        let link = |k: usize| {
            if k < count {
                Ref::Node(first + 1 + k)
            } else {
                Ref::Null
            }
        };
        self.nodes.push(ShapeNode {
            class: head.clone(),
            input: true,
            refs: vec![link(0)],
            values: vec![fields],
            next: None,
        });
        for (k, values) in cells.into_iter().enumerate() {
            self.nodes.push(ShapeNode {
                class: cell.clone(),
                input: true,
                refs: vec![link(k + 1)],
                values: vec![values],
                next: Some(0),
            });
        }
        Ref::Node(first)
    }
}
