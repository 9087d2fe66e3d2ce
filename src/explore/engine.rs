//! The worklist: expand configurations in the strategy's order, keep the
//! feasible successors, end each path with an explicit status.

use super::bounds::{Bounds, Unfoldings};
use super::path_solver::{Feasibility, PathSolver};
use super::strategy::{Candidate, Frontier, Strategy};
use super::trace::trace_entry;
use super::tree::{BoundReason, Edge, Leaf, Limit, Node, NodeId, Pruned, Stats, Status, TraceEntry, Tree, Unexplored, UnknownReason};
use crate::simplify::{GuardFolder, Simplifier};
use crate::solver::SatResult;
use std::collections::BTreeMap;
use std::time::Instant;
use symex_semantics::eval::Valuation;
use symex_semantics::system::{Configuration, Step, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::{Name, Sort, Term};

/// How to explore.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    pub strategy: Strategy,
    pub bounds: Bounds,
    /// Per solver query.
    pub timeout_ms: u64,
    /// Report infeasible successors as paths with status `infeasible`.
    pub keep_infeasible: bool,
    /// Keep each configuration's text in the tree (for the DOT view).
    pub record_configurations: bool,
    /// A condition on the inputs every path starts from (`--fix x=3` gives
    /// `x = 3`): asserted below every path condition and conjoined to the
    /// reported ones, so models honour it and states stay symbolic.
    pub assumption: Term,
    /// Report path conditions, states and edge conditions simplified by the
    /// e-graph simplifier (`--no-simplify` keeps the raw terms of the paper's
    /// rules; feasibility checks fold the ground parts of guards either way).
    pub simplify: bool,
}

impl Default for ExploreOptions {
    fn default() -> ExploreOptions {
        ExploreOptions {
            strategy: Strategy::Dfs,
            bounds: Bounds::default(),
            timeout_ms: 10_000,
            keep_infeasible: false,
            record_configurations: false,
            assumption: Term::bool(true),
            simplify: true,
        }
    }
}

/// A configuration waiting in the frontier; `end` is set when it is already
/// known to end its path (bounded, unknown, infeasible).
struct Pending<C> {
    node: NodeId,
    config: C,
    unfoldings: Unfoldings,
    end: Option<Status>,
}

/// Symbolic execution of `system` from `initial`: the tree of all paths
/// within the bounds. `inputs` are the program's globals, the variables
/// every model assigns.
pub fn explore<S>(system: &S, initial: S::Config, inputs: &BTreeMap<Name, Sort>, options: &ExploreOptions) -> Tree
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    let mut explorer = Explorer {
        system,
        inputs,
        options,
        solver: PathSolver::new(options.timeout_ms, inputs),
        simplifier: Simplifier::new(),
        guards: GuardFolder::default(),
        tree: Tree { nodes: Vec::new(), paths: Vec::new(), unexplored: Vec::new(), pruned: Vec::new(), stats: Stats::default() },
    };
    explorer.run(initial);
    explorer.tree
}

struct Explorer<'a, S: TransitionSystem> {
    system: &'a S,
    inputs: &'a BTreeMap<Name, Sort>,
    options: &'a ExploreOptions,
    solver: PathSolver,
    simplifier: Simplifier,
    guards: GuardFolder,
    tree: Tree,
}

impl<S> Explorer<'_, S>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    fn run(&mut self, initial: S::Config) {
        let start = Instant::now();
        let bounds = self.options.bounds;
        let root = self.add_node(None, None, &initial, 0, &self.options.assumption.clone(), None);
        let mut frontier = Frontier::new(&self.options.strategy);
        let root_candidate = Candidate { node: root, depth: 0, rule: None };
        frontier.extend(vec![(root_candidate, Pending { node: root, config: initial, unfoldings: Unfoldings::default(), end: None })]);
        while let Some(pending) = frontier.pop() {
            let limit = if bounds.max_paths.is_some_and(|max| self.tree.paths.len() >= max) {
                Some(Limit::MaxPaths)
            } else if bounds.time_limit.is_some_and(|limit| start.elapsed() >= limit) {
                Some(Limit::TimeLimit)
            } else {
                None
            };
            if let Some(reason) = limit {
                self.tree.unexplored.push(Unexplored { node: pending.node, reason });
                while let Some(rest) = frontier.pop() {
                    self.tree.unexplored.push(Unexplored { node: rest.node, reason });
                }
                break;
            }
            let successors = self.expand(pending);
            frontier.extend(successors);
        }
        self.tree.stats.solver_calls = self.solver.calls();
        self.tree.stats.time_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    }

    /// Ends the path at `pending` or returns its feasible successors.
    fn expand(&mut self, pending: Pending<S::Config>) -> Vec<(Candidate, Pending<S::Config>)> {
        let Pending { node, config, unfoldings, end } = pending;
        let depth = self.tree.nodes[node].depth;
        if let Some(status) = end {
            self.end_path(node, &config, status);
            return Vec::new();
        }
        if let Some(outcome) = config.outcome() {
            self.end_path(node, &config, Status::from(outcome));
            return Vec::new();
        }
        if depth >= self.options.bounds.depth {
            self.end_path(node, &config, Status::Bounded(BoundReason::Depth(depth)));
            return Vec::new();
        }
        let steps = self.system.successors(&config);
        if steps.is_empty() {
            self.end_path(node, &config, Status::Unknown(UnknownReason::Stuck));
            return Vec::new();
        }
        let mut children = Vec::with_capacity(steps.len());
        for step in steps {
            if let Some(child) = self.successor(node, &config, &unfoldings, step) {
                children.push(child);
            }
        }
        children
    }

    /// The successor `step` of `config` (at `node`) unless it is pruned.
    fn successor(
        &mut self,
        node: NodeId,
        config: &S::Config,
        unfoldings: &Unfoldings,
        step: Step<S::Config>,
    ) -> Option<(Candidate, Pending<S::Config>)> {
        let Step { rule, guard, next } = step;
        let folded = self.guards.fold(&guard);
        let Feasibility { result, model } = self.solver.check_step(node, &folded);
        let mut end = match result {
            SatResult::Sat => None,
            SatResult::Unknown => Some(Status::Unknown(UnknownReason::Solver)),
            SatResult::Unsat => {
                self.tree.stats.pruned += 1;
                self.tree.pruned.push(Pruned { parent: node, rule });
                if !self.options.keep_infeasible {
                    return None;
                }
                Some(Status::Infeasible)
            }
        };
        let head = config.head();
        let unfoldings = match unfoldings.after(rule, head, &self.options.bounds) {
            Ok(counts) => counts,
            Err(reason) => {
                end.get_or_insert(Status::Bounded(reason));
                unfoldings.clone()
            }
        };
        if next.max_active_calls() > self.options.bounds.unfold {
            end.get_or_insert(Status::Bounded(BoundReason::CallDepth(self.options.bounds.unfold)));
        }
        let condition = if self.options.simplify { self.simplified(&guard) } else { guard };
        let trace = match next.actions_since(config) {
            Some(actions) => actions.into_iter().map(TraceEntry::Action).collect(),
            None => trace_entry(rule, head, self.inputs).into_iter().collect(),
        };
        let edge = Edge { rule, trace, condition };
        let depth = self.tree.nodes[node].depth + 1;
        let child = self.add_node(Some(node), Some(edge), &next, depth, &folded, model);
        let candidate = Candidate { node: child, depth, rule: Some(rule) };
        Some((candidate, Pending { node: child, config: next, unfoldings, end }))
    }

    /// `term` simplified for the report, its time counted in the stats.
    fn simplified(&mut self, term: &Term) -> Term {
        let start = Instant::now();
        let simplified = self.simplifier.simplify(term);
        let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.tree.stats.simplify_us = self.tree.stats.simplify_us.saturating_add(micros);
        simplified
    }

    /// Adds a node reached under `guard` (folded), with the model its check gave.
    fn add_node(
        &mut self,
        parent: Option<NodeId>,
        edge: Option<Edge>,
        config: &S::Config,
        depth: usize,
        guard: &Term,
        model: Option<Valuation>,
    ) -> NodeId {
        let id = self.tree.nodes.len();
        self.solver.add_node(id, parent, guard, model);
        let configuration = self.options.record_configurations.then(|| config.to_string());
        self.tree.nodes.push(Node { id, parent, depth, edge, leaf: None, configuration });
        id
    }

    /// Records the path ending at `node`, with a model where it is feasible.
    fn end_path(&mut self, node: NodeId, config: &S::Config, status: Status) {
        let wants_model = !matches!(status, Status::Unknown(_) | Status::Infeasible);
        let path_condition = Term::and(self.options.assumption.clone(), config.path_condition().clone());
        let model = if wants_model { self.solver.model(node, &path_condition).map(|model| config.inputs_from(model)) } else { None };
        let prediction = model.as_ref().map(|inputs| config.predicted_state(inputs));
        let status = if wants_model && model.is_none() { Status::Unknown(UnknownReason::NoModel) } else { status };
        let stats = &mut self.tree.stats;
        stats.paths += 1;
        match status {
            Status::Terminated | Status::AssumptionViolated => stats.terminated += 1,
            Status::Error(_) => stats.errors += 1,
            Status::Bounded(_) => stats.bounded += 1,
            Status::Unknown(_) => stats.unknown += 1,
            Status::Infeasible => {}
        }
        let mut state = config.global_state();
        let path_condition = if self.options.simplify {
            for (_, value) in &mut state {
                *value = self.simplified(value);
            }
            self.simplified(&path_condition)
        } else {
            path_condition
        };
        let leaf = Leaf { status, path_condition, state, model, prediction };
        self.tree.nodes[node].leaf = Some(leaf);
        self.tree.paths.push(node);
    }
}
