//! The worklist: expand configurations in the strategy's order, keep the
//! feasible successors, end each path with an explicit status.

use super::bounds::{calls_within, objects_within, Bounds, LoopContext, Unfoldings};
use super::hook::{LoopHook, NoHook, Stop};
use super::merge::{join, Merge, MergingFrontier};
use super::node::{Arrival, PathNode};
use super::observer::{Finished, Observer, TreeRecorder};
use super::path_solver::{Feasibility, Link, PathSolver, Stopped};
use super::readable::readable;
use super::share::{prefixes_wanted, split_depth, Claims, Shard, Sharing, Survey};
use super::strategy::{Candidate, Frontier, Strategy};
use super::trace::trace_entry;
use super::tree::{
    BoundReason, Edge, Join, Leaf, Limit, NodeId, Pruned, Stats, Status, Timings, TraceEntry, Tree,
    Unexplored, UnknownReason,
};
use crate::mutants::{self, Mutant};
use crate::simplify::{GuardFolder, HeapFacts, InContext, Pins, Simplifier};
use crate::solver::SatResult;
use crate::subsume::{Abstraction, Matcher};
use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use symex_semantics::draws::as_drawn;
use symex_semantics::eval::{GroundValues, Valuation};
use symex_semantics::system::{Configuration, Rule, Step, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind};
use symex_semantics::value::Value;

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
    /// Rewrite each model Z3 found into a readable one ([`super::readable`]:
    /// values moved towards zero, re-asked with bounds). `compare`, which
    /// prints no model, turns it off: on array programs it was most of the
    /// exploration's time (63 % of `anand_array_partition_fixed`'s).
    pub readable_models: bool,
    /// State subsumption at loop heads (`--subsume`, [`crate::subsume`]),
    /// matching states as they are or abstracted.
    pub subsumption: Option<Abstraction>,
    /// Join configurations that meet at the same point (`--merge`).
    pub merge: Merge,
    /// The globals a model shows, the program's inputs
    /// ([`Program::inputs`](symex_semantics::program::Program)): every other
    /// global has its default value in each model, as `run` gives it, so a
    /// model as printed is the model predicted and replayed. `None` keeps
    /// the solver's values of every global.
    pub shown: Option<BTreeSet<Name>>,
    /// Explore only this shard's share of the tree ([`super::share`]):
    /// depth first (the strategy is not consulted), without merging,
    /// subsumption or a path limit ([`super::share::conflict`] says which
    /// option stands in the way).
    pub shard: Option<Shard>,
    /// With `shard`: the prefixes shared out among the workers of one
    /// process as they reach them ([`super::share::Claims`]), instead of
    /// by number.
    pub claims: Option<Arc<Claims>>,
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
            readable_models: true,
            subsumption: None,
            merge: Merge::Off,
            shown: None,
            shard: None,
            claims: None,
        }
    }
}

/// A configuration waiting in the frontier to be expanded. A path that
/// ends where it arrives never waits: it is finished and reported at once,
/// while the memo tables still hold its terms (under DFS a loop's exit
/// would otherwise wait below every deeper path).
struct Pending<C> {
    node: Rc<PathNode>,
    known: Known,
    config: C,
    unfoldings: Unfoldings,
    loops: LoopContext,
    /// Forks on the path to it ([`Candidate::forks`]).
    forks: usize,
}

/// What is known of a pending node, dropped once it is expanded (its
/// children having their own): what the solver knows (`link`: its model,
/// its guards), and its guards as reported (simplified, one merge per node
/// from the parent's, or as they stand under `--no-simplify`).
struct Known {
    link: Link,
    reported: Term,
    /// `reported` with each guard rewritten under the ones before it as
    /// the node was made ([`InContext::extended`]), or `reported` itself.
    readable: Term,
    /// `reported` is literally the conjunction of the conditions of the
    /// edges from the root (as [`Term::and`] builds it from `true`).
    literal: bool,
    /// What the path condition says about `nil` ([`HeapFacts`]): each
    /// guard is resolved under it before the solver or the simplifier
    /// sees it.
    facts: HeapFacts,
}

/// What became of one successor. Returned once per successor and taken
/// apart at once, so its size costs nothing that boxing the pending one
/// (an allocation per node) would not cost more.
#[allow(clippy::large_enum_variant)]
enum Next<C> {
    /// It waits in the frontier.
    Pending((Candidate, Pending<C>)),
    /// It was pruned, or its path ended and was reported.
    Ended,
    /// The solver was stopped before it could decide it.
    Stopped,
}

/// Symbolic execution of `system` from `initial`: the tree of all paths
/// within the bounds. `inputs` are the program's globals, the variables
/// every model assigns.
pub fn explore<S>(
    system: &S,
    initial: S::Config,
    inputs: &BTreeMap<Name, Sort>,
    options: &ExploreOptions,
) -> Tree
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    let mut recorder = TreeRecorder::default();
    // A recorder never fails, so the tree is whole.
    let _ = explore_into(system, initial, inputs, options, &mut recorder);
    recorder.into_tree()
}

/// Symbolic execution of `system` from `initial`, reported to `observer` as
/// it goes: each path is handed over as soon as it ends and then dropped,
/// so memory is bounded by the pending part of the tree (under DFS, the
/// pending configurations, with the path to them when the observer reads
/// ancestors), not by the number of paths.
/// Stops early when the observer fails (its output was closed).
pub fn explore_into<S>(
    system: &S,
    initial: S::Config,
    inputs: &BTreeMap<Name, Sort>,
    options: &ExploreOptions,
    observer: &mut dyn Observer,
) -> io::Result<Stats>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    match &options.subsumption {
        None => explore_with(system, initial, inputs, options, observer, &mut NoHook),
        Some(abstraction) => {
            let mut matcher = Matcher::new(
                abstraction.clone(),
                options.timeout_ms,
                options.assumption.clone(),
            );
            explore_with(system, initial, inputs, options, observer, &mut matcher)
        }
    }
}

/// [`explore_into`] with a hook that follows the loops (and may replace
/// a configuration's steps).
pub fn explore_with<S>(
    system: &S,
    initial: S::Config,
    inputs: &BTreeMap<Name, Sort>,
    options: &ExploreOptions,
    observer: &mut dyn Observer,
    hook: &mut dyn LoopHook<S::Config>,
) -> io::Result<Stats>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    let start = Instant::now();
    let deadline = options.bounds.time_limit.map(|limit| start + limit);
    let sharing = match options.shard {
        Some(shard) => {
            let survey = || survey(system, initial.clone(), inputs, options, shard);
            let split_depth = match &options.claims {
                Some(claims) => claims.split_depth(survey)?,
                None => survey()?,
            };
            Some(Sharing::new(shard, options.claims.clone(), split_depth))
        }
        None => None,
    };
    let mut explorer = Explorer {
        system,
        inputs,
        options,
        solver: PathSolver::new(options.timeout_ms, deadline, inputs),
        simplifier: Simplifier::new(),
        in_context: InContext::new(),
        guards: GuardFolder::default(),
        ground: GroundValues::default(),
        link_parents: observer.reads_ancestors(),
        observer,
        hook,
        deadline,
        unexplored: Vec::new(),
        next_id: 0,
        expansions: 0,
        stats: Stats::default(),
        simplifier_time: Duration::ZERO,
        sharing,
    };
    explorer.run(initial)?;
    explorer.stats.shard = explorer.sharing.take().map(Sharing::into_ledger);
    explorer.stats.solver_calls = explorer.solver.calls();
    explorer.hook.finish(&mut explorer.stats);
    explorer.stats.time_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    explorer.stats.timings = Timings {
        solver: explorer.solver.solver_time(),
        simplifier: explorer.simplifier_time,
    };
    explorer
        .observer
        .finish(&explorer.unexplored, &explorer.stats)?;
    Ok(explorer.stats)
}

/// The split depth of `shard`'s exploration: a breadth-first survey of the
/// top of the tree, with the same bounds.
fn survey<S>(
    system: &S,
    initial: S::Config,
    inputs: &BTreeMap<Name, Sort>,
    options: &ExploreOptions,
    shard: Shard,
) -> io::Result<usize>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    let wanted = prefixes_wanted(shard, options.claims.is_some());
    let options = ExploreOptions {
        strategy: Strategy::Bfs,
        shard: None,
        claims: None,
        ..options.clone()
    };
    let mut survey = Survey::new(wanted);
    explore_with(system, initial, inputs, &options, &mut survey, &mut NoHook)?;
    Ok(split_depth(&survey.pending(), wanted))
}

/// Expansions between two updates of the status line's counters
/// ([`crate::stop::progress`]): they are shared by all threads, and
/// workers writing them at every expansion would pass their cache line
/// between the cores at every node.
const PROGRESS_EVERY: usize = 64;

struct Explorer<'a, S: TransitionSystem> {
    system: &'a S,
    inputs: &'a BTreeMap<Name, Sort>,
    options: &'a ExploreOptions,
    solver: PathSolver,
    simplifier: Simplifier,
    /// Rewrites each reported condition and state under the path condition.
    in_context: InContext,
    guards: GuardFolder,
    /// The values of the ground parts of the states predicted so far.
    ground: GroundValues,
    /// Whether nodes keep their parents: the observer reads ancestors.
    link_parents: bool,
    observer: &'a mut dyn Observer,
    hook: &'a mut dyn LoopHook<S::Config>,
    deadline: Option<Instant>,
    /// Where a limit cut exploration off.
    unexplored: Vec<Unexplored>,
    next_id: NodeId,
    /// Configurations expanded, for [`PROGRESS_EVERY`].
    expansions: usize,
    stats: Stats,
    simplifier_time: Duration,
    /// This shard's share of the tree, when exploring one.
    sharing: Option<Sharing>,
}

impl<S> Explorer<'_, S>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    /// Explores until the frontier is empty or a limit is reached; what
    /// the limit cut off is left in `unexplored`.
    fn run(&mut self, mut initial: S::Config) -> io::Result<()> {
        let assumption = self.guards.fold(&self.options.assumption);
        let unknown = Feasibility {
            result: SatResult::Sat,
            model: None,
            confirmed: false,
            solved: false,
        };
        let (root, known) = self.add_node(
            None,
            None,
            &mut initial,
            (&assumption, &Term::bool(true)),
            (unknown, &[]),
        )?;
        let strategy = match self.sharing {
            Some(_) => &Strategy::Dfs,
            None => &self.options.strategy,
        };
        let mut frontier = match self.options.merge {
            Merge::Off => Waiting::Strategy(Frontier::new(strategy)),
            _ => Waiting::Merging(MergingFrontier::new()),
        };
        let root_candidate = Candidate {
            node: root.id,
            ..Candidate::default()
        };
        let start = (Unfoldings::default(), LoopContext::default(), 0);
        if let Some(pending) = self.arrive(root, known, initial, start, None)? {
            self.wait(&mut frontier, vec![(root_candidate, pending)])?;
        }
        while let Some(pending) = frontier.pop() {
            if let Some(reason) = self.limit() {
                for pending in std::iter::once(pending).chain(std::iter::from_fn(|| frontier.pop()))
                {
                    // A shard leaves what it would have expanded (every
                    // shard the top, merged into one).
                    if self.expands(&pending)? {
                        self.leave_pending(&pending, reason);
                    }
                }
                break;
            }
            if !self.expands(&pending)? {
                continue;
            }
            let successors = self.expand(pending)?;
            self.wait(&mut frontier, successors)?;
        }
        if let Some(sharing) = &mut self.sharing {
            sharing.end();
        }
        self.hand_over_segments()
    }

    /// Whether this exploration expands `pending` (always, unless it
    /// explores a shard that does not own its prefix).
    fn expands(&mut self, pending: &Pending<S::Config>) -> io::Result<bool> {
        let next_id = self.next_id;
        let Some(sharing) = &mut self.sharing else {
            return Ok(true);
        };
        let expands = sharing.expands(pending.node.depth, next_id);
        self.hand_over_segments()?;
        Ok(expands)
    }

    /// Tells the observer of the stretches of a shard's exploration that
    /// are over ([`super::share::Segment`]).
    fn hand_over_segments(&mut self) -> io::Result<()> {
        let Some(sharing) = &mut self.sharing else {
            return Ok(());
        };
        for segment in sharing.take_ended() {
            self.observer.segment(segment)?;
        }
        Ok(())
    }

    /// Puts successors in the frontier; with merging, one that meets a
    /// configuration waiting at its point is joined with it.
    fn wait(
        &mut self,
        frontier: &mut Waiting<Pending<S::Config>>,
        successors: Vec<(Candidate, Pending<S::Config>)>,
    ) -> io::Result<()> {
        let merging = match frontier {
            Waiting::Strategy(frontier) => {
                frontier.extend(successors);
                return Ok(());
            }
            Waiting::Merging(merging) => merging,
        };
        for (_, pending) in successors {
            let Some(point) = pending.config.point() else {
                merging.push(None, pending);
                continue;
            };
            let key = (point, pending.loops.clone());
            let pending = match merging.take(&key) {
                Some(waiting) => self.join(waiting, pending)?,
                None => pending,
            };
            merging.push(Some(key), pending);
        }
        Ok(())
    }

    /// The configuration joined from `waiting` and `arriving` (at the same
    /// point and loop context), at a node of its own that names both.
    fn join(
        &mut self,
        waiting: Pending<S::Config>,
        arriving: Pending<S::Config>,
    ) -> io::Result<Pending<S::Config>> {
        let start = Instant::now();
        let Some(joined) = join(
            &waiting.config,
            &arriving.config,
            self.options.merge,
            &mut self.simplifier,
        ) else {
            // Unreachable: configurations with a point join.
            return Ok(waiting);
        };
        let simplifier = &mut self.simplifier;
        let link = self
            .solver
            .join(&waiting.known.link, &arriving.known.link, &mut |term| {
                simplifier.simplify(term)
            });
        self.simplifier_time += start.elapsed();
        let mut config = joined.config;
        if self.options.simplify {
            let folder = &mut self.guards;
            let phi = config.path_condition().clone();
            config.condense(&phi, &mut |e| folder.fold(e));
        }
        let id = self.next_id;
        self.next_id += 1;
        let from = vec![waiting.node.id, arriving.node.id];
        let node = Rc::new(PathNode {
            id,
            parent_id: Some(waiting.node.id),
            parent: self.link_parents.then(|| waiting.node.clone()),
            depth: waiting.node.depth.max(arriving.node.depth),
            arrival: Arrival::Join(Join::new(from, joined.condition)),
            configuration: self
                .options
                .record_configurations
                .then(|| config.to_string()),
            guards: config.path_condition().clone(),
        });
        self.stats.merges += 1;
        self.made(&node)?;
        let known = Known {
            link,
            reported: config.path_condition().clone(),
            readable: config.path_condition().clone(),
            literal: false,
            facts: HeapFacts::new().with(config.path_condition()),
        };
        Ok(Pending {
            node,
            known,
            config,
            unfoldings: waiting.unfoldings.max(&arriving.unfoldings),
            loops: waiting.loops,
            forks: waiting.forks.max(arriving.forks),
        })
    }

    /// The limit that stops exploration now, if one is reached.
    fn limit(&self) -> Option<Limit> {
        if self.observer.answered() {
            Some(Limit::Answered)
        } else if self
            .options
            .bounds
            .max_paths
            .is_some_and(|max| self.stats.paths >= max)
        {
            Some(Limit::MaxPaths)
        } else {
            crate::stop::reached(self.deadline)
        }
    }

    /// Records the paths through a pending configuration as cut off by `reason`.
    fn leave_pending(&mut self, pending: &Pending<S::Config>, reason: Limit) {
        self.leave_at(&pending.node, &pending.config, &pending.loops, reason);
    }

    /// Records the paths through `node`, at `config`, as cut off by
    /// `reason`, and tells the hook.
    fn leave_at(
        &mut self,
        node: &PathNode,
        config: &S::Config,
        loops: &LoopContext,
        reason: Limit,
    ) {
        self.hook.stopped(config, loops, Stop::Unexplored(reason));
        self.leave(node, reason);
    }

    /// The limit that stopped the solver (the deadline if the clock has
    /// not quite reached it here).
    fn stopped(&self) -> Limit {
        self.limit().unwrap_or(Limit::TimeLimit)
    }

    /// Records the paths through `node` as cut off by `reason`.
    fn leave(&mut self, node: &PathNode, reason: Limit) {
        self.unexplored.push(Unexplored {
            node: node.id,
            depth: node.depth,
            reason,
        });
    }

    /// The feasible successors of a pending configuration; a successor
    /// where the path ends is reported instead.
    fn expand(
        &mut self,
        pending: Pending<S::Config>,
    ) -> io::Result<Vec<(Candidate, Pending<S::Config>)>> {
        let Pending {
            node,
            known,
            config,
            unfoldings,
            loops,
            forks,
        } = pending;
        let steps = self
            .hook
            .steps(&config, &loops, self.system.successors(&config));
        if steps.is_empty() {
            let stuck = Status::Unknown(UnknownReason::Stuck);
            self.end(&node, &known, &config, &loops, stuck)?;
            return Ok(Vec::new());
        }
        self.expansions += 1;
        if self.expansions.is_multiple_of(PROGRESS_EVERY) {
            crate::stop::progress::explored(self.stats.paths, node.depth, self.solver.calls());
        }
        let mut children = Vec::with_capacity(steps.len());
        let forks = forks + usize::from(steps.len() > 1);
        // The models of the earlier successors' checks, models of the path
        // to `node` that spare questions about the later ones' guards.
        let mut siblings = Vec::new();
        let last = steps.len() - 1;
        for (i, step) in steps.into_iter().enumerate() {
            let counts = (&unfoldings, &loops, forks);
            let earlier = (&mut siblings, i < last);
            match self.successor((&node, &known, earlier), &config, counts, step)? {
                Next::Pending(child) => children.push(child),
                Next::Ended => {}
                Next::Stopped => {
                    // The other successors wait with this one, unexplored.
                    let reason = self.stopped();
                    self.leave_at(&node, &config, &loops, reason);
                    break;
                }
            }
        }
        Ok(children)
    }

    /// The path arriving at `node` with `config`: pending when it goes on;
    /// finished and reported when it ends there (`end` being set when that
    /// is already known: bounded, unknown, infeasible).
    fn arrive(
        &mut self,
        node: Rc<PathNode>,
        known: Known,
        config: S::Config,
        (unfoldings, loops, forks): (Unfoldings, LoopContext, usize),
        end: Option<Status>,
    ) -> io::Result<Option<Pending<S::Config>>> {
        let ended = end
            .or_else(|| config.outcome().map(Status::from))
            .or_else(|| {
                (node.depth >= self.options.bounds.depth)
                    .then_some(Status::Bounded(BoundReason::Depth(node.depth)))
            });
        match ended {
            Some(status) => {
                self.end(&node, &known, &config, &loops, status)?;
                Ok(None)
            }
            None => Ok(Some(Pending {
                node,
                known,
                config,
                unfoldings,
                loops,
                forks,
            })),
        }
    }

    /// Finishes and reports the path ending at `node`, unless a limit has
    /// been reached first.
    fn end(
        &mut self,
        node: &PathNode,
        known: &Known,
        config: &S::Config,
        loops: &LoopContext,
        status: Status,
    ) -> io::Result<()> {
        if let Some(reason) = self.limit() {
            self.leave_at(node, config, loops, reason);
            return Ok(());
        }
        match self.finish(node, known, config, status) {
            Ok((leaf, from_nodes)) => {
                self.hook.stopped(config, loops, Stop::Ended(&leaf.status));
                self.report(node, leaf, from_nodes)
            }
            Err(Stopped) => {
                let reason = self.stopped();
                self.leave_at(node, config, loops, reason);
                Ok(())
            }
        }
    }

    /// The successor `step` of `config` (at `node`), pending, unless it is
    /// pruned or ends there; its check's model joins `siblings`, the
    /// earlier successors' models, when other successors follow.
    fn successor(
        &mut self,
        (node, known, (siblings, followed)): (&Rc<PathNode>, &Known, (&mut Vec<Valuation>, bool)),
        config: &S::Config,
        (unfoldings, loops, forks): (&Unfoldings, &LoopContext, usize),
        step: Step<S::Config>,
    ) -> io::Result<Next<S::Config>> {
        let Step {
            rule,
            guard,
            mut next,
        } = step;
        let folded = self.guards.fold(&known.facts.resolve(&guard));
        let feasibility = self.solver.check_step(&known.link, &folded);
        let mut end = match feasibility.result {
            SatResult::Sat => None,
            SatResult::Unknown => Some(Status::Unknown(UnknownReason::Solver)),
            SatResult::Interrupted => return Ok(Next::Stopped),
            SatResult::Unsat => {
                if self.reports() {
                    self.stats.pruned += 1;
                    self.observer.pruned(Pruned {
                        parent: node.id,
                        rule,
                    })?;
                }
                if !self.options.keep_infeasible {
                    return Ok(Next::Ended);
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
        if let Err(reason) = calls_within(rule, &next, &self.options.bounds)
            .and_then(|()| objects_within(&next, &self.options.bounds))
        {
            end.get_or_insert(Status::Bounded(reason));
        }
        let (loops, exit) = loops.after(rule, head, config.frames());
        let trace = match next.actions_since(config) {
            Some(actions) => actions.into_iter().map(TraceEntry::Action).collect(),
            None => trace_entry(rule, head, self.inputs).into_iter().collect(),
        };
        // Simplified with the path condition, in `add_node`.
        let edge = Edge {
            rule,
            trace,
            condition: guard.clone(),
        };
        // Kept for the later siblings, if any follow.
        let model = followed.then(|| feasibility.model.clone()).flatten();
        let (child, known) = self.add_node(
            Some((node, known)),
            Some(edge),
            &mut next,
            (&folded, &guard),
            (feasibility, siblings),
        )?;
        siblings.extend(model);
        if end.is_none() && rule == Rule::IterationEnter {
            end = self.hook.entered(&child, &next);
        }
        let candidate = Candidate {
            node: child.id,
            depth: child.depth,
            forks,
            rule: Some(rule),
            ..Candidate::default()
        };
        if let Some(exit) = exit.filter(|_| end.is_none()) {
            self.hook.exited(exit, &child, &next);
        }
        let pending = self.arrive(child, known, next, (unfoldings, loops, forks), end)?;
        Ok(pending.map_or(Next::Ended, |pending| Next::Pending((candidate, pending))))
    }

    /// Adds a node reached under `guard` (folded, and as the rule built
    /// it), with what its check found, and condenses `config` when its
    /// conditions are reported simplified.
    fn add_node(
        &mut self,
        parent: Option<(&Rc<PathNode>, &Known)>,
        mut edge: Option<Edge>,
        config: &mut S::Config,
        (guard, built): (&Term, &Term),
        (feasibility, siblings): (Feasibility, &[Valuation]),
    ) -> io::Result<(Rc<PathNode>, Known)> {
        let guards = match parent {
            Some((parent, _)) => Term::and(parent.guards.clone(), built.clone()),
            None => built.clone(),
        };
        let (reported, readable) = match parent {
            // `guards && true` is `guards`: the parent's, reported as they were.
            Some((_, known)) if built.is_true() => (known.reported.clone(), known.readable.clone()),
            _ if self.options.simplify => {
                // Timed as one block: a clock read costs about what a guard's
                // simplification does.
                let start = Instant::now();
                let models = (feasibility.model.as_ref(), siblings);
                let simplified = self.simplified(parent, edge.as_mut(), (guard, models), &guards);
                self.simplifier_time += start.elapsed();
                simplified
            }
            _ => (guards.clone(), guards.clone()),
        };
        let (depth, literal, arrival) = match (parent, edge) {
            (Some((parent, known)), Some(edge)) => (
                parent.depth + 1,
                known.literal && reported.is_and_of(&known.reported, &edge.condition),
                Arrival::Edge(edge),
            ),
            _ => {
                let assumption = match self.options.simplify {
                    true => guard,
                    false => &self.options.assumption,
                };
                let assumption = assumption.clone();
                (0, reported.is_true(), Arrival::Root { assumption })
            }
        };
        // The configuration's `φ` is the parent's with the guard: it becomes
        // the condition as reported, and its state is folded.
        let guards = if self.options.simplify && *config.path_condition() == guards {
            let folder = &mut self.guards;
            config.condense(&reported, &mut |e| folder.fold(e));
            config.path_condition().clone()
        } else {
            guards
        };
        let id = self.next_id;
        self.next_id += 1;
        let link = self
            .solver
            .link(parent.map(|(_, known)| &known.link), guard, feasibility);
        let configuration = self
            .options
            .record_configurations
            .then(|| config.to_string());
        let node = Rc::new(PathNode {
            id,
            parent_id: parent.map(|(node, _)| node.id),
            parent: parent
                .filter(|_| self.link_parents)
                .map(|(node, _)| node.clone()),
            depth,
            arrival,
            configuration,
            guards,
        });
        self.made(&node)?;
        let facts = match parent {
            Some((_, known)) => known.facts.with(guard),
            None => HeapFacts::new().with(guard),
        };
        let known = Known {
            link,
            reported,
            readable,
            literal,
            facts,
        };
        Ok((node, known))
    }

    /// Simplifies the condition of `edge` from its guard as folded for the
    /// solver (which has already evaluated the ground arithmetic a loop
    /// counter builds up), and returns the node's `guards` simplified (the
    /// parent's with the condition merged in, one merge per node) and
    /// readable (the parent's with the condition rewritten under them,
    /// with `model`, the step's check's, and the parent's and the earlier
    /// `siblings`' checks' sparing questions).
    fn simplified(
        &mut self,
        parent: Option<(&Rc<PathNode>, &Known)>,
        edge: Option<&mut Edge>,
        (folded, (model, siblings)): (&Term, (Option<&Valuation>, &[Valuation])),
        guards: &Term,
    ) -> (Term, Term) {
        let condition = edge.map(|edge| {
            edge.condition = self.simplifier.simplify(folded);
            edge.condition.clone()
        });
        match (parent, condition, guards.kind()) {
            (Some((parent, known)), Some(condition), TermKind::Binary(BinOp::And, left, _))
                if *left == parent.guards =>
            {
                let reported = self.simplifier.conjoin(&known.reported, &condition);
                let prefix_models = Vec::from_iter(known.link.model().into_iter().chain(siblings));
                let readable = self.in_context.extended_under(
                    (&known.readable, &condition),
                    (model, &prefix_models),
                    &mut self.simplifier,
                    &mut self.solver,
                );
                (reported, readable)
            }
            _ => {
                let reported = self.simplifier.simplify(guards);
                (reported.clone(), reported)
            }
        }
    }

    /// The leaf of the path ending at `node`, with a model where it is
    /// feasible, and whether its path condition is the conjunction of the
    /// conditions of its edges.
    fn finish(
        &mut self,
        node: &PathNode,
        known: &Known,
        config: &S::Config,
        status: Status,
    ) -> Result<(Leaf, bool), Stopped> {
        let wants_model = !matches!(status, Status::Unknown(_) | Status::Infeasible);
        let path_condition = Term::and(
            self.options.assumption.clone(),
            config.path_condition().clone(),
        );
        let mut state = config.global_state();
        let reported = if self.options.simplify {
            // Timed as one block: a clock read per value would be a tenth of
            // what it measures.
            let start = Instant::now();
            for (_, value) in &mut state {
                // A ground value a guard contained (a loop counter) was
                // folded to its literal with the guard.
                *value = match self.guards.literal(value) {
                    Some(literal) => literal,
                    None => self.simplifier.simplify(&known.facts.resolve(value)),
                };
            }
            let reported = match path_condition.kind() {
                // The node's guards, simplified as they grew (the assumption,
                // if any, on the left of `&&`).
                _ if path_condition == node.guards => known.reported.clone(),
                TermKind::Binary(BinOp::And, assumption, guards) if *guards == node.guards => {
                    let assumption = self.simplifier.simplify(assumption);
                    self.simplifier.conjoin(&assumption, &known.reported)
                }
                _ => self.simplifier.simplify(&path_condition),
            };
            self.simplifier_time += start.elapsed();
            reported
        } else {
            path_condition.clone()
        };
        // The path condition is the guards the solver holds (folded), either
        // as the rules conjoined them, or as the nodes' simplified conditions
        // (merged as they grew when the configuration was condensed).
        let from_nodes =
            self.options.assumption.is_true() && known.literal && reported == known.reported;
        let conjoined = config.path_condition() == &node.guards || from_nodes;
        // Found before the condition is rewritten for reading: it is a model
        // of the path, which spares half of the entailment questions.
        let valuation = if wants_model {
            self.solver
                .model(
                    &known.link,
                    &path_condition,
                    conjoined,
                    &[config.read_inputs(), config.symbols()].concat(),
                )?
                .and_then(
                    |(model, solved)| match (solved, self.options.readable_models) {
                        (true, true) => Some(readable(
                            model,
                            &path_condition,
                            self.inputs,
                            &mut self.solver,
                        )),
                        (true, false) if mutants::active(Mutant::UnreadModelDropped) => None,
                        _ => Some(model),
                    },
                )
        } else {
            None
        };
        let (reported, from_nodes) = if self.options.simplify {
            let start = Instant::now();
            // The node's readable guards when they are the path condition:
            // only their non-atomic conjuncts are rewritten again.
            let base = match path_condition == node.guards {
                true => &known.readable,
                false => &reported,
            };
            let readable = self.in_context.condition_under(
                base,
                valuation.as_ref(),
                &mut self.simplifier,
                &mut self.solver,
            );
            if state.iter().any(|(x, value)| Pins::may_change(x, value)) {
                let pins = Pins::of(&readable);
                for (x, value) in &mut state {
                    *value = pins.applied(x, value, &mut self.simplifier);
                }
            }
            self.simplifier_time += start.elapsed();
            let unchanged = readable == reported;
            (readable, from_nodes && unchanged)
        } else {
            (reported, from_nodes)
        };
        let model = valuation.map(|model| config.inputs_from(self.as_shown(model)));
        let prediction = model
            .as_ref()
            .map(|inputs| config.predicted_state(inputs, &mut self.ground));
        // `nondet()`'s sequences shown as the values the path draws.
        let (model, prediction) = match (model, prediction) {
            (Some(model), Some(Ok(end))) => (
                Some(as_drawn(model, &end)),
                Some(Ok(as_drawn(end.clone(), &end))),
            ),
            other => other,
        };
        let status = if wants_model && model.is_none() {
            Status::Unknown(UnknownReason::NoModel)
        } else {
            status
        };
        let leaf = Leaf {
            status,
            path_condition: reported,
            state,
            model,
            prediction,
            input_heap: config.input_heap(),
        };
        Ok((leaf, from_nodes))
    }

    /// `model` with every global it does not show at its default value.
    fn as_shown(&self, model: Valuation) -> Valuation {
        let Some(shown) = &self.options.shown else {
            return model;
        };
        let mut model = model;
        for (x, sort) in self.inputs.iter().filter(|(x, _)| !shown.contains(*x)) {
            model.insert(x.clone(), Value::default_of(sort));
        }
        model
    }

    /// Tells the observer (and a shard's ledger) of a new node.
    fn made(&mut self, node: &PathNode) -> io::Result<()> {
        if let Some(sharing) = &mut self.sharing {
            sharing.made(node.depth);
        }
        self.observer.node(node)
    }

    /// Whether what the expansion under way finds is this exploration's to
    /// report (always, unless it explores a shard).
    fn reports(&self) -> bool {
        self.sharing.as_ref().is_none_or(Sharing::reports)
    }

    /// Hands the path ending at `node` to the observer.
    fn report(&mut self, node: &PathNode, leaf: Leaf, from_nodes: bool) -> io::Result<()> {
        if !self.reports() {
            return Ok(());
        }
        let place = self.sharing.as_ref().map(Sharing::place);
        let id = self.stats.paths;
        self.stats.count_path(&leaf.status);
        self.observer.path(Finished {
            id,
            node,
            leaf,
            from_nodes,
            place,
            solver_time: self.solver.solver_time(),
        })
    }
}

/// The configurations waiting to be expanded: in a strategy's order, or
/// merged where they meet.
enum Waiting<T> {
    Strategy(Frontier<T>),
    Merging(MergingFrontier<T>),
}

impl<T> Waiting<T> {
    fn pop(&mut self) -> Option<T> {
        match self {
            Waiting::Strategy(frontier) => frontier.pop(),
            Waiting::Merging(frontier) => frontier.pop(),
        }
    }
}
