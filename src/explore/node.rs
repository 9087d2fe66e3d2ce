//! The explorer's own nodes: each linked to its parent when the observer
//! reads ancestors, so the trace of a path is its chain of ancestors,
//! shared by every path through it (a prefix is stored once, however many
//! paths extend it). A node is freed when no pending configuration lies
//! below it, so depth-first exploration holds the nodes of the current path
//! and their pending siblings only, or the pending nodes alone when no
//! ancestor is read.

use super::tree::{Edge, Join, NodeId, TraceEntry};
use std::rc::Rc;
use symex_semantics::system::Rule;
use symex_semantics::term::Term;

/// How a node was reached.
pub enum Arrival {
    /// The root, under the exploration's assumption as reported (folded
    /// when simplified).
    Root { assumption: Term },
    /// The transition from the parent.
    Edge(Edge),
    /// Configurations joined (state merging); the parent is the first.
    Join(Join),
}

/// A configuration reached, as the explorer holds it while paths below it are pending.
pub struct PathNode {
    pub id: NodeId,
    /// `None` for the root.
    pub parent_id: Option<NodeId>,
    /// The parent, linked when the observer reads ancestors
    /// ([`super::Observer::reads_ancestors`]).
    pub parent: Option<Rc<PathNode>>,
    /// Number of transitions from the initial configuration.
    pub depth: usize,
    pub arrival: Arrival,
    /// The configuration as text, kept only when asked for (the DOT view).
    pub configuration: Option<String>,
    /// The path condition of the configuration as the explorer keeps it:
    /// the guards from the root to here as the rules built them, conjoined
    /// as the semantics conjoins them from `true` (so that the solver's
    /// guards, and the assumption at the root, are all of it), or, once
    /// the configuration is condensed, as reported.
    pub guards: Term,
}

impl PathNode {
    /// The transition from the parent; `None` for the root.
    pub fn edge(&self) -> Option<&Edge> {
        match &self.arrival {
            Arrival::Edge(edge) => Some(edge),
            Arrival::Root { .. } | Arrival::Join(_) => None,
        }
    }

    /// The configurations joined here, if this node is a join.
    pub fn join(&self) -> Option<&Join> {
        match &self.arrival {
            Arrival::Join(join) => Some(join),
            Arrival::Root { .. } | Arrival::Edge(_) => None,
        }
    }

    /// What arriving here adds to the trace: the edge's entries, or the join.
    pub fn entries(&self) -> &[TraceEntry] {
        match &self.arrival {
            Arrival::Edge(edge) => &edge.trace,
            Arrival::Join(join) => std::slice::from_ref(&join.trace),
            Arrival::Root { .. } => &[],
        }
    }

    /// The condition this node was reached under: its edge's, the
    /// assumption at the root, or at a join the disjunction of what the
    /// joined paths' conditions do not share.
    pub fn condition(&self) -> &Term {
        match &self.arrival {
            Arrival::Edge(edge) => &edge.condition,
            Arrival::Root { assumption } => assumption,
            Arrival::Join(join) => &join.condition,
        }
    }

    /// This node and its ancestors, this node first (the node alone when
    /// parents are not linked).
    pub fn ancestors(&self) -> impl Iterator<Item = &PathNode> {
        std::iter::successors(Some(self), |node| node.parent.as_deref())
    }

    /// The symbolic trace (§4) of the path to this node, root first.
    pub fn trace(&self) -> Vec<&TraceEntry> {
        let mut trace: Vec<&TraceEntry> = self
            .ancestors()
            .flat_map(|node| node.entries().iter().rev())
            .collect();
        trace.reverse();
        trace
    }

    /// The rules taken from the root to this node.
    pub fn rules(&self) -> Vec<Rule> {
        let mut rules: Vec<Rule> = self
            .ancestors()
            .filter_map(|node| node.edge().map(|edge| edge.rule))
            .collect();
        rules.reverse();
        rules
    }
}

impl Drop for PathNode {
    /// Frees a chain of nodes iteratively: a path a hundred thousand steps
    /// long must not overflow the stack when it is dropped.
    fn drop(&mut self) {
        let mut next = self.parent.take();
        while let Some(node) = next {
            next = match Rc::try_unwrap(node) {
                Ok(mut node) => node.parent.take(),
                Err(_) => None,
            };
        }
    }
}
