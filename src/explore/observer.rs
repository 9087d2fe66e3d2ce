//! What an exploration reports as it goes: every node as it is made, every
//! path as it ends, and the frontier and counters at the end. A report
//! written from these events holds no tree; [`TreeRecorder`] builds the
//! whole [`Tree`] for the views that need it (DOT, tests, verification).

use super::node::PathNode;
use super::share::{Place, Segment};
use super::tree::{Leaf, Node, Pruned, Stats, Tree, Unexplored};
use std::io;

/// A path that has just ended.
pub struct Finished<'a> {
    /// The path's number, in the order paths are found.
    pub id: usize,
    /// Where it ends; its ancestors are the path.
    pub node: &'a PathNode,
    pub leaf: Leaf,
    /// The leaf's path condition is the conjunction of the conditions of
    /// the edges from the root (the assumption being `true`), so a reader
    /// that has the nodes has it.
    pub from_nodes: bool,
    /// Where a shard found it ([`super::share`]); `None` outside shards.
    pub place: Option<Place>,
    /// The exploration's time in Z3 so far, for observers that attribute
    /// it to paths (`compare`).
    pub solver_time: std::time::Duration,
}

/// Receives an exploration's events. An error (a closed output) stops the exploration.
pub trait Observer {
    /// A node was made (a parent always before its children).
    fn node(&mut self, _node: &PathNode) -> io::Result<()> {
        Ok(())
    }

    /// A successor was found infeasible.
    fn pruned(&mut self, _pruned: Pruned) -> io::Result<()> {
        Ok(())
    }

    /// A path ended.
    fn path(&mut self, path: Finished<'_>) -> io::Result<()>;

    /// A stretch of a shard's exploration is over: the paths reported
    /// since the last one are all of it ([`Segment`]; workers write their
    /// paths as they go by it).
    fn segment(&mut self, _segment: Segment) -> io::Result<()> {
        Ok(())
    }

    /// Whether [`Observer::path`] reads the ancestors of a path's node (its
    /// trace, its rules). When it does not, nodes are not linked to their
    /// parents, so a node is freed once its successors are made: depth-first
    /// exploration then holds the pending nodes, not the paths down to them.
    fn reads_ancestors(&self) -> bool {
        true
    }

    /// Whether the observer has what it needs (`verify` its first
    /// counterexample): the exploration then stops, the rest of the
    /// frontier left unexplored.
    fn answered(&self) -> bool {
        false
    }

    /// The exploration is over: the frontier a limit left, and the counters.
    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()>;
}

/// Builds the whole tree, with parent pointers (a path's trace is stored
/// once per node, not once per path).
#[derive(Default)]
pub struct TreeRecorder {
    tree: Tree,
}

impl TreeRecorder {
    pub fn into_tree(self) -> Tree {
        self.tree
    }
}

impl Observer for TreeRecorder {
    fn node(&mut self, node: &PathNode) -> io::Result<()> {
        debug_assert_eq!(node.id, self.tree.nodes.len());
        self.tree.nodes.push(Node {
            id: node.id,
            parent: node.parent_id,
            depth: node.depth,
            edge: node.edge().cloned(),
            join: node.join().cloned(),
            leaf: None,
            configuration: node.configuration.clone(),
        });
        Ok(())
    }

    fn pruned(&mut self, pruned: Pruned) -> io::Result<()> {
        self.tree.pruned.push(pruned);
        Ok(())
    }

    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        self.tree.nodes[path.node.id].leaf = Some(path.leaf);
        self.tree.paths.push(path.node.id);
        Ok(())
    }

    /// The tree links its nodes by id.
    fn reads_ancestors(&self) -> bool {
        false
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        self.tree.unexplored = unexplored.to_vec();
        self.tree.stats = stats.clone();
        Ok(())
    }
}

/// Passes every event on to `inner` and notes whether a limit left part of
/// the frontier unexplored: the tree is then not the whole tree, and a
/// command says so by its exit status.
pub struct NotesLimit<'a> {
    pub inner: &'a mut dyn Observer,
    pub limited: bool,
}

impl Observer for NotesLimit<'_> {
    fn node(&mut self, node: &PathNode) -> io::Result<()> {
        self.inner.node(node)
    }

    fn pruned(&mut self, pruned: Pruned) -> io::Result<()> {
        self.inner.pruned(pruned)
    }

    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        self.inner.path(path)
    }

    fn segment(&mut self, segment: Segment) -> io::Result<()> {
        self.inner.segment(segment)
    }

    fn reads_ancestors(&self) -> bool {
        self.inner.reads_ancestors()
    }

    fn answered(&self) -> bool {
        self.inner.answered()
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        self.limited = !unexplored.is_empty();
        self.inner.finish(unexplored, stats)
    }
}
