//! Feasibility along the tree, with the field's tricks (KLEE's
//! counterexample cache and constraint independence, incremental solving)
//! and model repair:
//! - every node keeps a model of its path condition; a guard that model
//!   already satisfies is feasible without a query, and the model serves the
//!   child (so a two-way branch costs at most one query);
//! - a guard that pins down one input (`a[3] = x`, `x5 > 0`) is tried on the
//!   model mended at that input ([`super::repair`]), again without a query;
//! - a query holds only the conjuncts that share variables, transitively,
//!   with the guard; the others keep their values from the parent's model.
//!   Identical independent queries are answered from a cache;
//! - when every conjunct is relevant, the solver holds the guards of the
//!   path to one node, one push level per non-trivial guard; moving to
//!   another node pops to the common prefix and pushes the rest.
//!
//! A model is adopted only when the evaluator confirms the guard under it,
//! and reported only when the evaluator confirms the whole path condition.

use super::repair::repaired;
use super::tree::NodeId;
use crate::solver::{SatResult, Solver};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use symex_semantics::eval::{eval_bool, Valuation};
use symex_semantics::term::{Name, Sort, Term};
use symex_semantics::value::Value;

/// The answer for one step: feasibility and, when known, a model of the
/// path condition extended by the step's guard.
pub(crate) struct Feasibility {
    pub(crate) result: SatResult,
    pub(crate) model: Option<Valuation>,
}

/// Paths with more guards than this are not repaired: confirming a repair
/// evaluates every guard of the path, which would make long paths quadratic.
const REPAIR_DEPTH: usize = 64;

/// An index into [`PathSolver::guards`].
type GuardId = usize;

/// Where a node's path condition comes from (the guard of its nearest
/// ancestor-or-self whose guard is not `true`), and a model of it if one is known.
struct Link {
    anchor: Option<GuardId>,
    model: Option<Valuation>,
}

/// A node with a non-trivial guard, chained to the previous such node.
struct GuardNode {
    guard: Term,
    vars: BTreeMap<Name, Sort>,
    /// The variables of the path condition up to and including `guard`.
    path_vars: im::OrdMap<Name, Sort>,
    previous: Option<GuardId>,
    /// Position in the chain from the root: the push level holding `guard`.
    level: usize,
}

/// An independent query: the sorted ids of its conjuncts and guard.
type SliceKey = Vec<u64>;

pub(crate) struct PathSolver {
    /// Follows the exploration path incrementally.
    solver: Solver,
    /// Answers independent queries, each in a scope of its own.
    scratch: Solver,
    inputs: BTreeMap<Name, Sort>,
    links: Vec<Link>,
    guards: Vec<GuardNode>,
    /// The guards currently asserted in `solver`, outermost first.
    stack: Vec<GuardId>,
    slices: HashMap<SliceKey, (SatResult, Option<Valuation>)>,
}

impl PathSolver {
    pub(crate) fn new(timeout_ms: u64, inputs: &BTreeMap<Name, Sort>) -> PathSolver {
        PathSolver {
            solver: Solver::new(timeout_ms),
            scratch: Solver::new(timeout_ms),
            inputs: inputs.clone(),
            links: Vec::new(),
            guards: Vec::new(),
            stack: Vec::new(),
            slices: HashMap::new(),
        }
    }

    /// Records node `node` (ids are given out in order) with its parent, its
    /// guard as given to [`PathSolver::check_step`], and the model that check
    /// gave. The root's model is the default input, if that satisfies its guard.
    pub(crate) fn add_node(&mut self, node: NodeId, parent: Option<NodeId>, guard: &Term, model: Option<Valuation>) {
        debug_assert_eq!(node, self.links.len());
        let model = match parent {
            Some(_) => model,
            None => Some(self.default_input()).filter(|input| eval_bool(guard, input) == Ok(true)),
        };
        let inherited = parent.and_then(|p| self.links[p].anchor);
        if guard.is_true() {
            self.links.push(Link { anchor: inherited, model });
            return;
        }
        let vars = self.vars_of(guard);
        let (mut path_vars, level) = match inherited {
            Some(g) => (self.guards[g].path_vars.clone(), self.guards[g].level + 1),
            None => (im::OrdMap::new(), 0),
        };
        path_vars.extend(vars.iter().map(|(x, sort)| (x.clone(), sort.clone())));
        self.guards.push(GuardNode { guard: guard.clone(), vars, path_vars, previous: inherited, level });
        self.links.push(Link { anchor: Some(self.guards.len() - 1), model });
    }

    /// Is the path condition of `node` conjoined with `guard` satisfiable?
    pub(crate) fn check_step(&mut self, node: NodeId, guard: &Term) -> Feasibility {
        let known = self.links[node].model.clone();
        if guard.is_true() {
            return Feasibility { result: SatResult::Sat, model: known };
        }
        if guard.is_false() {
            return Feasibility { result: SatResult::Unsat, model: None };
        }
        if let Some(model) = known.as_ref().filter(|model| eval_bool(guard, model) == Ok(true)) {
            return Feasibility { result: SatResult::Sat, model: Some(model.clone()) };
        }
        let short = self.path_guards(node).nth(REPAIR_DEPTH).is_none();
        if let Some(model) = known.filter(|_| short).and_then(|model| repaired(&model, guard, self.path_guards(node))) {
            return Feasibility { result: SatResult::Sat, model: Some(model) };
        }
        let vars = self.vars_of(guard);
        match self.links[node].model.is_some().then(|| self.independent_slice(node, &vars)).flatten() {
            Some(slice) => self.check_slice(node, &slice, guard, vars),
            None => self.check_path(node, guard, vars),
        }
    }

    /// Inputs that satisfy `path_condition`, the path condition of `node`,
    /// confirmed by the evaluator; `None` when no confirmed model is found.
    pub(crate) fn model(&mut self, node: NodeId, path_condition: &Term) -> Option<Valuation> {
        let known = self.links[node].model.as_ref().filter(|model| eval_bool(path_condition, model) == Ok(true));
        if let Some(model) = known {
            if model.keys().all(|x| self.inputs.contains_key(x)) {
                return Some(model.clone());
            }
            return Some(model.iter().filter(|(x, _)| self.inputs.contains_key(*x)).map(|(x, v)| (x.clone(), v.clone())).collect());
        }
        self.sync(node);
        match self.solver.check() {
            SatResult::Sat => self.solver.model(&self.inputs),
            SatResult::Unsat | SatResult::Unknown => None,
        }
    }

    /// The guards of the path to `node`, innermost first.
    fn path_guards(&self, node: NodeId) -> impl Iterator<Item = &Term> {
        std::iter::successors(self.links[node].anchor, |&g| self.guards[g].previous).map(|g| &self.guards[g].guard)
    }

    pub(crate) fn calls(&self) -> u64 {
        self.solver.calls() + self.scratch.calls()
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
        self.inputs.iter().map(|(x, sort)| (x.clone(), Value::default_of(sort))).collect()
    }

    /// The guard nodes on the path to `node` that share variables,
    /// transitively, with `vars`; `None` when that is all of them.
    fn independent_slice(&self, node: NodeId, vars: &BTreeMap<Name, Sort>) -> Option<Vec<GuardId>> {
        let mut wanted: BTreeSet<&Name> = vars.keys().collect();
        let (mut slice, mut skipped) = (Vec::new(), Vec::new());
        let mut current = self.links[node].anchor;
        while let Some(g) = current {
            let guard = &self.guards[g];
            if guard.path_vars.len() <= wanted.len() && guard.path_vars.keys().all(|x| wanted.contains(x)) {
                // Everything from here to the root is in the slice, and adds
                // no variable; a guard skipped on the way may still share one
                // with a guard taken in after it (below).
                if skipped.is_empty() {
                    return None;
                }
                let mut rest = Some(g);
                while let Some(r) = rest {
                    slice.push(r);
                    rest = self.guards[r].previous;
                }
                break;
            }
            if guard.vars.keys().any(|x| wanted.contains(x)) {
                wanted.extend(guard.vars.keys());
                slice.push(g);
            } else {
                skipped.push(g);
            }
            current = guard.previous;
        }
        loop {
            let (joining, apart): (Vec<GuardId>, Vec<GuardId>) =
                skipped.iter().partition(|&&g| self.guards[g].vars.keys().any(|x| wanted.contains(x)));
            if joining.is_empty() {
                break;
            }
            for &g in &joining {
                wanted.extend(self.guards[g].vars.keys());
            }
            slice.extend(joining);
            skipped = apart;
        }
        (!skipped.is_empty()).then_some(slice)
    }

    /// `guard` against the independent conjuncts `slice` only; the other
    /// variables keep their values from the model of `node`.
    fn check_slice(&mut self, node: NodeId, slice: &[GuardId], guard: &Term, vars: BTreeMap<Name, Sort>) -> Feasibility {
        let mut key: SliceKey = slice.iter().map(|&g| self.guards[g].guard.id()).chain([guard.id()]).collect();
        key.sort_unstable();
        let (result, values) = match self.slices.get(&key) {
            Some(answer) => answer.clone(),
            None => {
                let mut slice_vars = vars;
                self.scratch.push();
                for &g in slice {
                    let conjunct = &self.guards[g];
                    slice_vars.extend(conjunct.vars.iter().map(|(x, sort)| (x.clone(), sort.clone())));
                    self.scratch.assert(&conjunct.guard);
                }
                let result = self.scratch.check_assuming(guard);
                let values = (result == SatResult::Sat).then(|| self.scratch.unconfirmed_values(&slice_vars)).flatten();
                self.scratch.pop();
                self.slices.insert(key, (result, values.clone()));
                (result, values)
            }
        };
        let model = match (values, &self.links[node].model) {
            (Some(values), Some(base)) => {
                // The slice's values override the parent's (`im`'s `union` keeps the larger map's).
                let mut model = base.clone();
                for (x, value) in &values {
                    model.insert(x.clone(), value.clone());
                }
                Some(model).filter(|model| eval_bool(guard, model) == Ok(true))
            }
            _ => None,
        };
        Feasibility { result, model }
    }

    /// `guard` against the whole path condition of `node`, incrementally.
    fn check_path(&mut self, node: NodeId, guard: &Term, vars: BTreeMap<Name, Sort>) -> Feasibility {
        self.sync(node);
        let result = self.solver.check_assuming(guard);
        let model = if result == SatResult::Sat {
            let mut all = self.inputs.clone();
            all.extend(vars);
            if let Some(g) = self.links[node].anchor {
                all.extend(self.guards[g].path_vars.iter().map(|(x, sort)| (x.clone(), sort.clone())));
            }
            self.solver.unconfirmed_values(&all).filter(|model| eval_bool(guard, model) == Ok(true))
        } else {
            None
        };
        Feasibility { result, model }
    }

    /// Makes the solver hold exactly the path condition of `node`.
    fn sync(&mut self, node: NodeId) {
        let mut missing = Vec::new();
        let mut current = self.links[node].anchor;
        while let Some(g) = current {
            let guard = &self.guards[g];
            if self.stack.get(guard.level) == Some(&g) {
                break;
            }
            missing.push(g);
            current = guard.previous;
        }
        let keep = current.map_or(0, |g| self.guards[g].level + 1);
        while self.stack.len() > keep {
            self.solver.pop();
            self.stack.pop();
        }
        for g in missing.into_iter().rev() {
            self.solver.push();
            self.solver.assert(&self.guards[g].guard);
            self.stack.push(g);
        }
    }
}
