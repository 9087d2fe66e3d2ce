//! Feasibility along the tree, with the field's tricks (KLEE's
//! counterexample cache and constraint independence, incremental solving)
//! and model repair:
//! - every node keeps a model of its path condition; a guard that model
//!   already satisfies is feasible without a query, and the model serves the
//!   child (so a two-way branch costs at most one query);
//! - a guard `x op c` on an input that only such guards constrain is decided
//!   by intervals ([`super::summary`]), without a query;
//! - a guard that interval arithmetic makes false over the ranges the
//!   path's bounds give its inputs is infeasible without a query
//!   ([`super::ranges`]);
//! - a guard that pins down one input (`a[3] = x`, `x5 > 0`) is tried on the
//!   model mended at that input ([`super::repair`]), again without a query;
//! - a query holds only the conjuncts that share variables, transitively,
//!   with the guard; the others keep their values from the parent's model.
//!   Identical independent queries are answered from a cache;
//! - before Z3, the congruence closure ([`super::congruence`]) decides
//!   the query if it is in its fragment; it follows the path like the
//!   solver does (below), so a query costs the closure what its guard adds;
//! - when every conjunct is relevant, the solver holds the guards of the
//!   path to one node, one push level per non-trivial guard (a bound the
//!   next guard implies is left out: `2 < n` under `3 < n`); moving to
//!   another node pops to the common prefix and pushes the rest.
//!
//! A model is adopted only when the evaluator confirms the guard under it,
//! and reported only when the evaluator confirms the whole path condition:
//! a node's model is *confirmed* when it is known to satisfy every guard of
//! the path, which a child's model inherits by re-evaluating only the
//! guards that mention the inputs where it differs ([`super::summary`]).

use super::congruence::{ClosureStack, ContextClosure, Decision};
use super::ranges::Ranges;
use super::readable::BoundedModels;
use super::repair::{candidates, repaired};
use super::summary::{changed, implies, Summary};
use crate::mutants::{self, Mutant};
use crate::simplify::Entailment;
use crate::solver::{SatResult, Solver};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;
use std::time::Instant;
use symex_semantics::eval::{eval_bool, Valuation};
use symex_semantics::small_map::SmallMap;
use symex_semantics::term::{Name, Sort, Term};
use symex_semantics::value::Value;

/// The solver was stopped with the run (its time limit, Ctrl-C) before it answered.
pub(crate) struct Stopped;

/// The answer for one step: feasibility and, when known, a model of the
/// path condition extended by the step's guard.
pub(crate) struct Feasibility {
    pub(crate) result: SatResult,
    pub(crate) model: Option<Valuation>,
    /// Whether `model` is known to satisfy every guard of the path and the step's.
    pub(crate) confirmed: bool,
    /// Whether `model` holds values Z3 chose, which [`super::readable`]
    /// makes readable; a model built of the inputs' defaults and of the
    /// values model repair and intervals pick (a guard's boundary) is
    /// readable as it is.
    pub(crate) solved: bool,
}

impl Feasibility {
    fn unsat() -> Feasibility {
        Feasibility {
            result: SatResult::Unsat,
            model: None,
            confirmed: false,
            solved: false,
        }
    }

    /// Sat, with a model derived from the model of `node`.
    fn sat(model: Option<Valuation>, confirmed: bool, node: &Link) -> Feasibility {
        Feasibility {
            result: SatResult::Sat,
            confirmed: confirmed && model.is_some(),
            model,
            solved: node.solved,
        }
    }

    /// Z3's answer, its model not yet confirmed on the path.
    fn solved(result: SatResult, model: Option<Valuation>) -> Feasibility {
        Feasibility {
            result,
            model,
            confirmed: false,
            solved: true,
        }
    }
}

/// Paths with more guards than this are not repaired from an unconfirmed
/// model: confirming the repair evaluates every guard of the path, which
/// would make long paths quadratic.
const REPAIR_DEPTH: usize = 64;

/// Independent queries remembered at most; the cache is emptied when full,
/// so memory stays bounded however many paths are explored.
const SLICE_CACHE_LIMIT: usize = 4096;

/// What the solver knows of one node: where its path condition comes from
/// (the guard of its nearest ancestor-or-self whose guard is not `true`),
/// and a model of it if one is known. Held by the explorer's node, so it
/// lives exactly as long as some pending path goes through the node.
pub(crate) struct Link {
    anchor: Option<Rc<GuardNode>>,
    model: Option<Valuation>,
    /// `model` satisfies every guard of the path.
    confirmed: bool,
    /// `model` holds values Z3 chose ([`Feasibility::solved`]).
    solved: bool,
    summary: Summary,
}

impl Link {
    /// The model of the path to the node that its check kept, if any
    /// (confirmed on the path's guards or not).
    pub(crate) fn model(&self) -> Option<&Valuation> {
        self.model.as_ref()
    }
}

/// A node with a non-trivial guard, chained to the previous such node
/// whose guard it does not imply.
struct GuardNode {
    guard: Term,
    vars: SmallMap<Name, Sort>,
    /// The variables of the path condition up to and including `guard`
    /// (shared with the previous guard's when `guard` adds none).
    path_vars: Rc<BTreeMap<Name, Sort>>,
    previous: Option<Rc<GuardNode>>,
    /// Position in the chain from the root: the push level holding `guard`.
    level: usize,
}

impl Drop for GuardNode {
    /// Frees a chain of guards iteratively: a path thousands of guards
    /// long must not overflow the stack when it is dropped.
    fn drop(&mut self) {
        let mut next = self.previous.take();
        while let Some(node) = next {
            next = match Rc::try_unwrap(node) {
                Ok(mut node) => node.previous.take(),
                Err(_) => None,
            };
        }
    }
}

/// `model` with a value for every input read that it leaves free (one no
/// guard mentions, so no model of the guards gives it one).
fn with_reads(mut model: Valuation, reads: &[(Name, Sort)]) -> Valuation {
    for (x, sort) in reads {
        if model.get(x).is_none() {
            model.insert(x.clone(), Value::default_of(sort));
        }
    }
    model
}

/// An independent query: the sorted ids of its conjuncts and guard.
type SliceKey = Vec<u64>;

pub(crate) struct PathSolver {
    /// Follows the exploration path incrementally; made at the first query
    /// (a Z3 context costs about 20 MB, and many explorations need none).
    solver: Option<Solver>,
    /// Answers independent queries, each in a scope of its own; made when first needed.
    scratch: Option<Solver>,
    /// Answers the queries that make a report readable (bounded models,
    /// [`super::readable`]; entailment, [`InContext`]), with a short time
    /// limit: they only make what is printed smaller, not worth a long wait.
    report: Option<Solver>,
    timeout_ms: u64,
    /// No query runs past this instant (the exploration's time limit).
    deadline: Option<Instant>,
    inputs: BTreeMap<Name, Sort>,
    /// The guards currently asserted in `solver`, outermost first.
    stack: Vec<Rc<GuardNode>>,
    /// The congruence closure of the guards in `closed`, outermost first.
    closure: ClosureStack,
    closed: Vec<Rc<GuardNode>>,
    /// The closure of the last entailment question's context.
    context_closure: ContextClosure,
    slices: HashMap<SliceKey, (SatResult, Option<Valuation>)>,
}

impl PathSolver {
    pub(crate) fn new(
        timeout_ms: u64,
        deadline: Option<Instant>,
        inputs: &BTreeMap<Name, Sort>,
    ) -> PathSolver {
        PathSolver {
            solver: None,
            scratch: None,
            report: None,
            timeout_ms,
            deadline,
            inputs: inputs.clone(),
            stack: Vec::new(),
            closure: ClosureStack::default(),
            closed: Vec::new(),
            context_closure: ContextClosure::default(),
            slices: HashMap::new(),
        }
    }

    /// The link of a node with `parent`'s link, its guard as given to
    /// [`PathSolver::check_step`], and the model that check gave. The root's
    /// model is the default input, if that satisfies its guard.
    pub(crate) fn link(
        &self,
        parent: Option<&Link>,
        guard: &Term,
        feasibility: Feasibility,
    ) -> Link {
        let solved = feasibility.solved;
        let (model, confirmed) = match parent {
            Some(_) => (feasibility.model, feasibility.confirmed),
            None => {
                let model =
                    Some(self.default_input()).filter(|input| eval_bool(guard, input) == Ok(true));
                let confirmed = model.is_some();
                (model, confirmed)
            }
        };
        let inherited = parent.and_then(|p| p.anchor.clone());
        let summary = parent.map(|p| p.summary.clone()).unwrap_or_default();
        if guard.is_true() {
            return Link {
                anchor: inherited,
                model,
                confirmed,
                solved,
                summary,
            };
        }
        let vars = self.vars_of(guard);
        let summary = summary.with(guard, vars.keys().cloned());
        let mut path_vars = inherited
            .as_ref()
            .map(|g| g.path_vars.clone())
            .unwrap_or_default();
        if !vars.keys().all(|x| path_vars.contains_key(x)) {
            Rc::make_mut(&mut path_vars)
                .extend(vars.iter().map(|(x, sort)| (x.clone(), sort.clone())));
        }
        let vars = match &inherited {
            // A loop's guards mention the same variables: shared, not copied.
            Some(g) if g.vars.iter().eq(vars.iter()) => g.vars.clone(),
            _ => vars.into_iter().collect(),
        };
        // A guard the new one implies is left out of the chain: a loop's
        // bounds `0 < n`, `1 < n`, … leave one guard, not one per unfolding.
        let previous = match inherited {
            Some(g)
                if mutants::active(Mutant::StrongerGuardDropped) && implies(&g.guard, guard) =>
            {
                g.previous.clone()
            }
            Some(g) if implies(guard, &g.guard) => g.previous.clone(),
            other => other,
        };
        let anchor = GuardNode {
            guard: guard.clone(),
            vars,
            level: previous.as_ref().map_or(0, |g| g.level + 1),
            path_vars,
            previous,
        };
        Link {
            anchor: Some(Rc::new(anchor)),
            model,
            confirmed,
            solved,
            summary,
        }
    }

    /// The link of a configuration joined from those of `a` and `b` (state
    /// merging): the guards their paths share, then the disjunction of the
    /// conjunctions of the rest, left out when `simplify` makes it `true`
    /// (`b ∨ ¬b`). The model of `a` satisfies it, so it serves the join.
    pub(crate) fn join(&self, a: &Link, b: &Link, simplify: &mut dyn FnMut(&Term) -> Term) -> Link {
        let common = common_anchor(a.anchor.as_ref(), b.anchor.as_ref());
        let rest = |link: &Link| {
            let guards: Vec<Term> =
                std::iter::successors(link.anchor.as_ref(), |g| g.previous.as_ref())
                    .take_while(|g| !common.as_ref().is_some_and(|c| Rc::ptr_eq(c, g)))
                    .map(|g| g.guard.clone())
                    .collect();
            Term::conjunction(guards.into_iter().rev())
        };
        let disjunction = simplify(&Term::or(rest(a), rest(b)));
        let mut anchor = common;
        if !disjunction.is_true() {
            let vars = self.vars_of(&disjunction);
            let mut path_vars = anchor
                .as_ref()
                .map(|g| g.path_vars.clone())
                .unwrap_or_default();
            Rc::make_mut(&mut path_vars).extend(vars.iter().map(|(x, s)| (x.clone(), s.clone())));
            anchor = Some(Rc::new(GuardNode {
                guard: disjunction,
                vars: vars.into_iter().collect(),
                path_vars,
                level: anchor.as_ref().map_or(0, |g| g.level + 1),
                previous: anchor,
            }));
        }
        let mut guards: Vec<&GuardNode> =
            std::iter::successors(anchor.as_deref(), |g| g.previous.as_deref()).collect();
        guards.reverse();
        let summary = guards.into_iter().fold(Summary::default(), |summary, g| {
            summary.with(&g.guard, g.vars.keys().cloned())
        });
        Link {
            anchor,
            model: a.model.clone(),
            confirmed: a.confirmed,
            solved: a.solved,
            summary,
        }
    }

    /// Is the path condition of `node` conjoined with `guard` satisfiable?
    pub(crate) fn check_step(&mut self, node: &Link, guard: &Term) -> Feasibility {
        let known = node.model.clone();
        if guard.is_true() {
            return Feasibility::sat(known, node.confirmed, node);
        }
        if guard.is_false() {
            return Feasibility::unsat();
        }
        if let Some(model) = known
            .as_ref()
            .filter(|model| eval_bool(guard, model) == Ok(true))
        {
            return Feasibility::sat(Some(model.clone()), node.confirmed, node);
        }
        let current = |x: &Name| {
            known
                .as_ref()
                .and_then(|model| model.get(x)?.as_int().cloned())
        };
        if let Some((x, decision)) = node.summary.decide(guard, |x| current(x)) {
            match (decision, &known) {
                (None, _) => return Feasibility::unsat(),
                (Some(value), Some(model)) if node.confirmed => {
                    let model = model.update(x, Value::Int(value));
                    if eval_bool(guard, &model) == Ok(true) {
                        return Feasibility::sat(Some(model), true, node);
                    }
                }
                _ => {}
            }
        }
        if let Some(model) = known.as_ref() {
            if let Some(mended) = self.confirmed_repair(node, model, guard) {
                return Feasibility::sat(Some(mended), true, node);
            }
        }
        let confined = |x: &Name| node.summary.range(x);
        if Ranges::new(&confined).truth(guard) == Some(false) {
            return Feasibility::unsat();
        }
        self.close(node);
        let query: Vec<Term> = path_guards(node).chain([guard]).cloned().collect();
        match self.closure.top().extended(guard).decide(&query) {
            Decision::Unsat => return Feasibility::unsat(),
            // The evaluator confirmed it on every guard of the path.
            Decision::Sat(model) => {
                return Feasibility {
                    result: SatResult::Sat,
                    model: Some(self.with_inputs(model)),
                    confirmed: true,
                    solved: false,
                }
            }
            Decision::Unknown => {}
        }
        let vars = self.vars_of(guard);
        let found = match node
            .model
            .is_some()
            .then(|| independent_slice(node, &vars))
            .flatten()
        {
            Some(slice) => self.check_slice(node, &slice, guard, vars),
            None => self.check_path(node, guard, vars),
        };
        let confirmed = match (&found.model, &known) {
            (Some(model), Some(base)) if node.confirmed => confirms(node, base, model),
            _ => false,
        };
        Feasibility { confirmed, ..found }
    }

    /// `model` mended to satisfy `guard` at an input it pins down, if
    /// the evaluator confirms the mended model on the whole path: on the
    /// guards that mention that input when `model` is confirmed, on every
    /// guard of a short path otherwise.
    fn confirmed_repair(&self, node: &Link, model: &Valuation, guard: &Term) -> Option<Valuation> {
        let unconfirmed = mutants::active(Mutant::RepairUnconfirmed);
        if node.confirmed || unconfirmed {
            return candidates(model, guard).into_iter().find(|mended| {
                eval_bool(guard, mended) == Ok(true)
                    && (unconfirmed || confirms(node, model, mended))
            });
        }
        let short = path_guards(node).nth(REPAIR_DEPTH).is_none();
        short
            .then(|| repaired(model, guard, path_guards(node)))
            .flatten()
    }

    /// Inputs that satisfy `path_condition`, the path condition of `node`,
    /// confirmed by the evaluator, and whether they hold values Z3 chose;
    /// `None` when no confirmed model is found; `Err` when the run was
    /// stopped before the solver answered. `conjoined` says that
    /// `path_condition` is literally the conjunction of the node's guards,
    /// so a confirmed model needs no further evaluation. `reads` are the
    /// symbols the path has besides the program's inputs (inputs read by
    /// `havoc`, lazy initialisation's symbols).
    pub(crate) fn model(
        &mut self,
        node: &Link,
        path_condition: &Term,
        conjoined: bool,
        reads: &[(Name, Sort)],
    ) -> Result<Option<(Valuation, bool)>, Stopped> {
        let is_input = |x: &Name| self.inputs.contains_key(x) || reads.iter().any(|(y, _)| y == x);
        let known = node.model.as_ref().filter(|model| {
            (conjoined && node.confirmed) || eval_bool(path_condition, model) == Ok(true)
        });
        let (model, solved) = if let Some(model) = known {
            if model.keys().all(is_input) {
                (model.clone(), node.solved)
            } else {
                // The inputs only, over the heap their references point into.
                (model.retain(is_input), node.solved)
            }
        } else if let Some(model) = self.decided(node, path_condition) {
            (model, false)
        } else {
            self.sync(node);
            let mut inputs = Cow::Borrowed(&self.inputs);
            if !reads.is_empty() {
                inputs.to_mut().extend(reads.iter().cloned());
            }
            let Some(solver) = self.solver.as_mut() else {
                return Ok(None);
            };
            let found = match solver.check() {
                SatResult::Sat => solver.model(&inputs),
                SatResult::Unsat | SatResult::Unknown => None,
                SatResult::Interrupted => return Err(Stopped),
            };
            let Some(model) = found else {
                return Ok(None);
            };
            (model, true)
        };
        Ok(Some((with_reads(model, reads), solved)))
    }

    /// A model of the path condition of `node` by the congruence closure, without Z3.
    fn decided(&mut self, node: &Link, path_condition: &Term) -> Option<Valuation> {
        self.close(node);
        let guards: Vec<Term> = path_guards(node).cloned().collect();
        match self.closure.top().decide(&guards) {
            Decision::Sat(model) => Some(self.with_inputs(model))
                .filter(|model| eval_bool(path_condition, model) == Ok(true)),
            Decision::Unsat | Decision::Unknown => None,
        }
    }

    /// `model` with every input it leaves free at its default value.
    fn with_inputs(&self, mut model: Valuation) -> Valuation {
        for (x, sort) in &self.inputs {
            if model.get(x).is_none() {
                model.insert(x.clone(), Value::default_of(sort));
            }
        }
        model
    }

    pub(crate) fn calls(&self) -> u64 {
        self.solvers().map(Solver::calls).sum()
    }

    /// Time spent in Z3 so far.
    pub(crate) fn solver_time(&self) -> std::time::Duration {
        self.solvers().map(Solver::time).sum()
    }

    fn solvers(&self) -> impl Iterator<Item = &Solver> {
        [&self.solver, &self.scratch, &self.report]
            .into_iter()
            .flatten()
    }

    /// The variables of `term` with their sorts: an input's as declared
    /// (a term that mentions an array only in `len(ba)` cannot tell that
    /// `ba` is a `bool[]`, and a model read at the wrong sort would not
    /// replay).
    fn vars_of(&self, term: &Term) -> BTreeMap<Name, Sort> {
        let mut vars = term.free_vars();
        for (x, sort) in vars.iter_mut() {
            if let Some(declared) = self.inputs.get(x) {
                *sort = declared.clone();
            }
        }
        vars
    }

    /// Every input at its default value.
    fn default_input(&self) -> Valuation {
        self.inputs
            .iter()
            .map(|(x, sort)| (x.clone(), Value::default_of(sort)))
            .collect()
    }

    /// A solver made on first use, with the query time limit and the deadline.
    fn make(slot: &mut Option<Solver>, timeout_ms: u64, deadline: Option<Instant>) -> &mut Solver {
        slot.get_or_insert_with(|| {
            let mut solver = Solver::new(timeout_ms);
            solver.set_deadline(deadline);
            solver
        })
    }

    /// `guard` against the independent conjuncts `slice` only; the other
    /// variables keep their values from the model of `node`.
    fn check_slice(
        &mut self,
        node: &Link,
        slice: &[&GuardNode],
        guard: &Term,
        vars: BTreeMap<Name, Sort>,
    ) -> Feasibility {
        let mut key: SliceKey = slice
            .iter()
            .map(|g| g.guard.id())
            .chain([guard.id()])
            .collect();
        key.sort_unstable();
        let (result, values) = match self.slices.get(&key) {
            Some(answer) => answer.clone(),
            None => {
                let mut slice_vars = vars;
                let scratch = Self::make(&mut self.scratch, self.timeout_ms, self.deadline);
                scratch.push();
                for conjunct in slice {
                    slice_vars.extend(
                        conjunct
                            .vars
                            .iter()
                            .map(|(x, sort)| (x.clone(), sort.clone())),
                    );
                    scratch.assert(&conjunct.guard);
                }
                let result = scratch.check_assuming(guard);
                let values = (result == SatResult::Sat)
                    .then(|| scratch.unconfirmed_values(&slice_vars))
                    .flatten();
                scratch.pop();
                if self.slices.len() >= SLICE_CACHE_LIMIT {
                    self.slices.clear();
                }
                if result != SatResult::Interrupted {
                    self.slices.insert(key, (result, values.clone()));
                }
                (result, values)
            }
        };
        let model = match (values, &node.model) {
            // Objects are numbered per model (a slice's `o1` is not the
            // parent's), so models with objects are not merged.
            (Some(values), Some(base)) if !has_objects(&values) && !has_objects(base) => {
                // The slice's values override the parent's (`im`'s `union` keeps the larger map's).
                let mut model = base.clone();
                for (x, value) in &values {
                    model.insert(x.clone(), value.clone());
                }
                Some(model).filter(|model| eval_bool(guard, model) == Ok(true))
            }
            _ => None,
        };
        Feasibility::solved(result, model)
    }

    /// `guard` against the whole path condition of `node`, incrementally.
    fn check_path(&mut self, node: &Link, guard: &Term, vars: BTreeMap<Name, Sort>) -> Feasibility {
        self.sync(node);
        let Some(solver) = self.solver.as_mut() else {
            return Feasibility::solved(SatResult::Unknown, None);
        };
        let result = solver.check_assuming(guard);
        let model = if result == SatResult::Sat {
            let mut all = self.inputs.clone();
            all.extend(vars);
            if let Some(g) = &node.anchor {
                all.extend(
                    g.path_vars
                        .iter()
                        .map(|(x, sort)| (x.clone(), sort.clone())),
                );
            }
            solver
                .unconfirmed_values(&all)
                .filter(|model| eval_bool(guard, model) == Ok(true))
        } else {
            None
        };
        Feasibility::solved(result, model)
    }

    /// Makes the solver hold exactly the path condition of `node`.
    fn sync(&mut self, node: &Link) {
        let solver = Self::make(&mut self.solver, self.timeout_ms, self.deadline);
        let (keep, missing) = divergence(&self.stack, node);
        while self.stack.len() > keep {
            solver.pop();
            self.stack.pop();
        }
        for g in missing {
            solver.push();
            solver.assert(&g.guard);
            self.stack.push(g);
        }
    }

    /// Makes the congruence closure hold exactly the path condition of `node`.
    fn close(&mut self, node: &Link) {
        let (keep, missing) = divergence(&self.closed, node);
        self.closure.truncate(keep);
        self.closed.truncate(keep);
        for g in missing {
            self.closure.push(&g.guard);
            self.closed.push(g);
        }
    }
}

/// How many guards of `held` (a path's guard nodes, outermost first) the
/// path to `node` shares, and its guards after those, outermost first.
fn divergence(held: &[Rc<GuardNode>], node: &Link) -> (usize, Vec<Rc<GuardNode>>) {
    let mut missing = Vec::new();
    let mut current = node.anchor.as_ref();
    while let Some(g) = current {
        if held.get(g.level).is_some_and(|h| Rc::ptr_eq(h, g)) {
            break;
        }
        missing.push(g.clone());
        current = g.previous.as_ref();
    }
    missing.reverse();
    (current.map_or(0, |g| g.level + 1), missing)
}

/// The time limit of a query of [`PathSolver::report`], in milliseconds.
const REPORT_TIMEOUT_MS: u64 = 200;

impl PathSolver {
    fn report(&mut self) -> &mut Solver {
        let timeout = self.timeout_ms.min(REPORT_TIMEOUT_MS);
        Self::make(&mut self.report, timeout, self.deadline)
    }
}

impl BoundedModels for PathSolver {
    fn model_of(&mut self, condition: &Term, vars: &BTreeMap<Name, Sort>) -> Option<Valuation> {
        self.report().values_satisfying(condition, vars)
    }
}

impl Entailment for PathSolver {
    fn entails(&mut self, context: &Term, goal: &Term) -> Option<bool> {
        self.entails_or_refuting_model(context, goal).0
    }

    /// The congruence closure's model where it refutes (Z3's answers come
    /// without one).
    fn entails_or_refuting_model(
        &mut self,
        context: &Term,
        goal: &Term,
    ) -> (Option<bool>, Option<Valuation>) {
        match self.context_closure.decide_negated(context, goal) {
            Decision::Unsat => (Some(true), None),
            Decision::Sat(model) => (Some(false), Some(model)),
            Decision::Unknown => (self.report().entails(context, goal), None),
        }
    }
}

/// The last guard node two chains share.
fn common_anchor(a: Option<&Rc<GuardNode>>, b: Option<&Rc<GuardNode>>) -> Option<Rc<GuardNode>> {
    let (mut a, mut b) = (a?, b?);
    loop {
        if Rc::ptr_eq(a, b) {
            return Some(a.clone());
        }
        if a.level >= b.level {
            a = a.previous.as_ref()?;
        } else {
            b = b.previous.as_ref()?;
        }
    }
}

/// Whether `model`, which satisfies the step's guard, satisfies the path to
/// `node`, whose confirmed model is `base`: only the guards that mention an
/// input where the two differ are evaluated.
fn confirms(node: &Link, base: &Valuation, model: &Valuation) -> bool {
    changed(base, model).is_some_and(|changed| node.summary.holds(model, &changed))
}

/// The guards of the path to `node`, innermost first.
fn path_guards(node: &Link) -> impl Iterator<Item = &Term> {
    std::iter::successors(node.anchor.as_deref(), |g| g.previous.as_deref()).map(|g| &g.guard)
}

/// Whether `v` names an object or holds a heap.
fn has_objects(v: &Valuation) -> bool {
    !v.heap.is_empty() || v.iter().any(|(_, value)| matches!(value, Value::Object(_)))
}

/// The guard nodes on the path to `node` that share variables,
/// transitively, with `vars`; `None` when that is all of them.
fn independent_slice<'n>(
    node: &'n Link,
    vars: &BTreeMap<Name, Sort>,
) -> Option<Vec<&'n GuardNode>> {
    let mut wanted: BTreeSet<&Name> = vars.keys().collect();
    let (mut slice, mut skipped): (Vec<&GuardNode>, Vec<&GuardNode>) = (Vec::new(), Vec::new());
    let mut current = node.anchor.as_deref();
    while let Some(guard) = current {
        if guard.path_vars.len() <= wanted.len()
            && guard.path_vars.keys().all(|x| wanted.contains(x))
        {
            // Everything from here to the root is in the slice, and adds
            // no variable; a guard skipped on the way may still share one
            // with a guard taken in after it (below).
            if skipped.is_empty() {
                return None;
            }
            slice.extend(std::iter::successors(Some(guard), |g| {
                g.previous.as_deref()
            }));
            break;
        }
        if guard.vars.keys().any(|x| wanted.contains(x)) {
            wanted.extend(guard.vars.keys());
            slice.push(guard);
        } else {
            skipped.push(guard);
        }
        current = guard.previous.as_deref();
    }
    while !mutants::active(Mutant::NonTransitiveSlice) {
        let (joining, apart): (Vec<&GuardNode>, Vec<&GuardNode>) = skipped
            .iter()
            .partition(|g| g.vars.keys().any(|x| wanted.contains(x)));
        if joining.is_empty() {
            break;
        }
        for g in &joining {
            wanted.extend(g.vars.keys());
        }
        slice.extend(joining);
        skipped = apart;
    }
    (!skipped.is_empty()).then_some(slice)
}
