//! Incremental feasibility along the tree: the solver holds the guards of
//! the path to one node, one push level per non-trivial guard. Moving to
//! another node pops to the common prefix and pushes the rest, so depth-first
//! exploration costs one push per branching step.

use super::tree::NodeId;
use crate::solver::{SatResult, Solver};
use std::collections::BTreeMap;
use symex_semantics::eval::Valuation;
use symex_semantics::term::{Name, Sort, Term};

/// Where a node's path condition comes from: its nearest ancestor-or-self
/// whose guard is not `true`.
#[derive(Clone, Copy)]
struct Link {
    anchor: Option<NodeId>,
}

/// A node with a non-trivial guard, chained to the previous such node.
struct GuardNode {
    guard: Term,
    previous: Option<NodeId>,
    /// Position in the chain from the root: the push level holding `guard`.
    level: usize,
}

pub(crate) struct PathSolver {
    solver: Solver,
    links: Vec<Link>,
    guards: BTreeMap<NodeId, GuardNode>,
    /// The guard nodes currently asserted, outermost first.
    stack: Vec<NodeId>,
}

impl PathSolver {
    pub(crate) fn new(timeout_ms: u64) -> PathSolver {
        PathSolver { solver: Solver::new(timeout_ms), links: Vec::new(), guards: BTreeMap::new(), stack: Vec::new() }
    }

    /// Records node `node` (ids are given out in order) with its parent and guard.
    pub(crate) fn add_node(&mut self, node: NodeId, parent: Option<NodeId>, guard: &Term) {
        debug_assert_eq!(node, self.links.len());
        let inherited = parent.and_then(|p| self.links[p].anchor);
        if guard.is_true() {
            self.links.push(Link { anchor: inherited });
        } else {
            let level = inherited.map_or(0, |g| self.guards[&g].level + 1);
            self.guards.insert(node, GuardNode { guard: guard.clone(), previous: inherited, level });
            self.links.push(Link { anchor: Some(node) });
        }
    }

    /// Makes the solver hold exactly the path condition of `node`.
    fn sync(&mut self, node: NodeId) {
        let mut missing = Vec::new();
        let mut current = self.links[node].anchor;
        while let Some(g) = current {
            let guard = &self.guards[&g];
            if self.stack.get(guard.level) == Some(&g) {
                break;
            }
            missing.push(g);
            current = guard.previous;
        }
        let keep = current.map_or(0, |g| self.guards[&g].level + 1);
        while self.stack.len() > keep {
            self.solver.pop();
            self.stack.pop();
        }
        for g in missing.into_iter().rev() {
            self.solver.push();
            self.solver.assert(&self.guards[&g].guard);
            self.stack.push(g);
        }
    }

    /// Is the path condition of `node` conjoined with `guard` satisfiable?
    pub(crate) fn check_step(&mut self, node: NodeId, guard: &Term) -> SatResult {
        if guard.is_true() {
            return SatResult::Sat;
        }
        if guard.is_false() {
            return SatResult::Unsat;
        }
        self.sync(node);
        self.solver.check_assuming(guard)
    }

    /// Inputs that satisfy the path condition of `node`, confirmed by the
    /// evaluator; `None` when the solver cannot give one.
    pub(crate) fn model(&mut self, node: NodeId, inputs: &BTreeMap<Name, Sort>) -> Option<Valuation> {
        self.sync(node);
        match self.solver.check() {
            SatResult::Sat => self.solver.model(inputs),
            SatResult::Unsat | SatResult::Unknown => None,
        }
    }

    pub(crate) fn calls(&self) -> u64 {
        self.solver.calls()
    }
}
