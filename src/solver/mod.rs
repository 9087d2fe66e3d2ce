//! The Z3 bridge: feasibility of path conditions and validity of claims.
//!
//! One [`Solver`] follows one exploration path incrementally (`push` at a
//! branch, `pop` on backtracking). Terms are translated once per node
//! ([`encode`]), so path conditions that grow as DAGs stay cheap. A model is
//! never trusted blindly: [`Solver::model`] re-checks it with the project's
//! own evaluator, and `unknown` (timeouts, unsupported terms, models the
//! evaluator rejects) is a first-class answer.

mod encode;
mod model;
mod smtlib;
mod watchdog;

#[cfg(test)]
mod agrees_with_evaluator;
#[cfg(test)]
mod tests;

pub use encode::EncodeError;
#[cfg(any(test, feature = "mutants"))]
pub use encode::{break_encoding, Mutant};

use encode::Encoder;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use symex_semantics::eval::{eval_bool, Valuation};
use symex_semantics::term::{Name, Sort, Term};
use watchdog::Watchdog;
use z3::ast::Bool;

/// The answer to a satisfiability query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatResult {
    Sat,
    Unsat,
    /// Z3 gave up (timeout, incompleteness) or the query has no translation.
    Unknown,
    /// Not answered: the whole run was stopped (its time limit passed, or
    /// the user's Ctrl-C, [`crate::stop`]) before or while Z3 worked. Says
    /// nothing about the query, so it must never be reported as `unknown`.
    Interrupted,
}

/// An incremental solver along one exploration path.
pub struct Solver {
    z3: z3::Solver,
    encoder: Encoder,
    /// The conditions asserted in the open scopes, to re-check models with.
    asserted: Vec<Term>,
    /// For each open `push`, how many conditions were asserted before it.
    scopes: Vec<usize>,
    /// The first condition without translation in the open scopes, with the
    /// scope depth it was asserted at: every check is `Unknown` until it is popped.
    unsupported: Option<(usize, EncodeError)>,
    /// The domain axioms `len(a) ≥ 0`, each with the scope depth it lives at.
    axioms: Vec<(Bool, usize)>,
    /// The outcome of the last check and its `extra` condition, if any.
    last: Option<(SatResult, Option<Term>)>,
    calls: u64,
    /// Time spent in checks.
    time: Duration,
    /// No check runs past this instant (an exploration's overall time limit).
    deadline: Option<Instant>,
    watchdog: Watchdog,
}

impl Solver {
    /// A solver with nothing asserted; each check gives up after `timeout_ms`.
    pub fn new(timeout_ms: u64) -> Solver {
        let z3 = z3::Solver::new();
        let mut params = z3::Params::new();
        // Always the incremental core: the one-shot tactics (nlsat on nonlinear
        // integer problems) do not notice interrupts and can run forever.
        params.set_bool("ignore_solver1", true);
        // No SIGINT handler of Z3's own around each check: checks on
        // several threads install and restore it out of order, leaving a
        // handler to a finished check that crashes on Ctrl-C
        // ([`crate::stop`] and the watchdog interrupt queries instead).
        params.set_bool("ctrl_c", false);
        z3.set_params(&params);
        let watchdog = Watchdog::new(z3.get_context(), Duration::from_millis(timeout_ms));
        Solver {
            z3,
            encoder: Encoder::new(),
            asserted: Vec::new(),
            scopes: Vec::new(),
            unsupported: None,
            axioms: Vec::new(),
            last: None,
            calls: 0,
            time: Duration::ZERO,
            deadline: None,
            watchdog,
        }
    }

    /// Opens a scope: what is asserted from now on is retracted by the matching `pop`.
    pub fn push(&mut self) {
        self.z3.push();
        self.scopes.push(self.asserted.len());
        self.last = None;
    }

    /// Closes the innermost scope (no effect when none is open).
    pub fn pop(&mut self) {
        let Some(asserted) = self.scopes.pop() else {
            return;
        };
        self.z3.pop(1);
        self.asserted.truncate(asserted);
        self.last = None;
        let depth = self.scopes.len();
        if self.unsupported.as_ref().is_some_and(|(at, _)| *at > depth) {
            self.unsupported = None;
        }
        // A length constant outlives the scope that introduced it; so does its axiom.
        for (axiom, at) in &mut self.axioms {
            if *at > depth {
                self.z3.assert(&*axiom);
                *at = depth;
            }
        }
    }

    /// Adds the boolean `condition` to the current scope. A condition
    /// without translation (objects, ill-typed terms) makes every check
    /// `Unknown` until its scope is popped; [`Solver::unsupported`] says why.
    pub fn assert(&mut self, condition: &Term) {
        self.last = None;
        match self.encoder.boolean(condition) {
            Ok(encoded) => {
                self.assert_new_axioms();
                self.z3.assert(&encoded);
                self.asserted.push(condition.clone());
            }
            Err(error) => {
                if self.unsupported.is_none() {
                    self.unsupported = Some((self.scopes.len(), error));
                }
            }
        }
    }

    /// Is everything asserted satisfiable?
    pub fn check(&mut self) -> SatResult {
        self.run_check(None)
    }

    /// Is everything asserted, together with `extra`, satisfiable? `extra` is not kept.
    pub fn check_assuming(&mut self, extra: &Term) -> SatResult {
        self.run_check(Some(extra))
    }

    /// Whether `premise ⇒ ∃ bound. conclusion` is valid (State subsumption's
    /// numeric part, Anand et al. 2006): `Unsat` when it is (the premise
    /// with the conclusion's negation is unsatisfiable), `Sat` when not,
    /// `Unknown` when Z3 cannot tell in time or a term has no translation.
    /// Checked in a scope of its own, which is popped again.
    pub fn entails_exists(
        &mut self,
        premise: &Term,
        conclusion: &Term,
        bound: &BTreeMap<Name, Sort>,
    ) -> SatResult {
        let body = match self.encoder.boolean(conclusion) {
            Ok(body) => body,
            Err(_) => return SatResult::Unknown,
        };
        let mut consts = Vec::new();
        for (x, sort) in bound {
            match self.encoder.variable(x, sort) {
                Ok(encode::Encoded::Int(i)) => consts.push(z3::ast::Dynamic::from_ast(&i)),
                Ok(encode::Encoded::Bool(b)) => consts.push(z3::ast::Dynamic::from_ast(&b)),
                _ => return SatResult::Unknown,
            }
        }
        let bounds: Vec<&dyn z3::ast::Ast> =
            consts.iter().map(|c| c as &dyn z3::ast::Ast).collect();
        let exists = if bounds.is_empty() {
            body
        } else {
            z3::ast::exists_const(&bounds, &[], &body)
        };
        self.push();
        self.assert(premise);
        self.assert_new_axioms();
        self.z3.assert(exists.not());
        let result = self.check();
        self.pop();
        result
    }

    /// After `Sat`: a value for every variable of `inputs` (arrays with the
    /// length `len(a)` and the contents the model gives), re-checked by the
    /// evaluator against every asserted condition and the last `extra`.
    /// `None` when there is no model or the evaluator disagrees with Z3: the
    /// path must then count as `unknown`, never as feasible.
    pub fn model(&mut self, inputs: &BTreeMap<Name, Sort>) -> Option<Valuation> {
        let Some((SatResult::Sat, extra)) = &self.last else {
            return None;
        };
        let conditions = Term::conjunction(self.asserted.iter().chain(extra).cloned());
        let model = self.z3.get_model()?;
        let mut vars = conditions.free_vars();
        vars.extend(
            inputs
                .iter()
                .map(|(name, sort)| (name.clone(), sort.clone())),
        );
        let valuation = model::valuation(&model, &mut self.encoder, &vars)?;
        if eval_bool(&conditions, &valuation) != Ok(true) {
            return None;
        }
        Some(valuation.retain(|name| inputs.contains_key(name)))
    }

    /// After `Sat`: the model's values for `vars`, not yet confirmed by the
    /// evaluator. For callers that confirm what they rely on themselves
    /// (the explorer checks each path's model against its whole path
    /// condition before reporting it); [`Solver::model`] otherwise.
    pub fn unconfirmed_values(&mut self, vars: &BTreeMap<Name, Sort>) -> Option<Valuation> {
        let Some((SatResult::Sat, _)) = &self.last else {
            return None;
        };
        let model = self.z3.get_model()?;
        model::valuation(&model, &mut self.encoder, vars)
    }

    /// Whether `context` entails `goal` (`context ∧ ¬goal` unsatisfiable),
    /// asked in a scope of its own; `None` when Z3 does not know.
    pub fn entails(&mut self, context: &Term, goal: &Term) -> Option<bool> {
        match self.entails_exists(context, goal, &BTreeMap::new()) {
            SatResult::Unsat => Some(true),
            SatResult::Sat => Some(false),
            SatResult::Unknown | SatResult::Interrupted => None,
        }
    }

    /// The values Z3 gives `vars` in a model of `condition`, asked in a
    /// scope of its own and not yet confirmed; `None` without a model.
    pub fn values_satisfying(
        &mut self,
        condition: &Term,
        vars: &BTreeMap<Name, Sort>,
    ) -> Option<Valuation> {
        self.push();
        self.assert(condition);
        let values = (self.check() == SatResult::Sat)
            .then(|| self.unconfirmed_values(vars))
            .flatten();
        self.pop();
        values
    }

    /// The number of checks so far.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// The time spent in checks so far.
    pub fn time(&self) -> Duration {
        self.time
    }

    /// Checks end by `deadline` at the latest (answering `Interrupted` if
    /// cut), whatever the per-query time limit.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Why checks answer `Unknown` without asking Z3, if they do.
    pub fn unsupported(&self) -> Option<&EncodeError> {
        self.unsupported.as_ref().map(|(_, error)| error)
    }

    fn run_check(&mut self, extra: Option<&Term>) -> SatResult {
        self.calls += 1;
        let start = Instant::now();
        let stopped = |deadline: Option<Instant>| {
            crate::stop::interrupted()
                || deadline.is_some_and(|deadline| Instant::now() >= deadline)
        };
        let result = if stopped(self.deadline) {
            SatResult::Interrupted
        } else if self.unsupported.is_some() {
            SatResult::Unknown
        } else {
            match extra.map(|extra| self.encoder.boolean(extra)).transpose() {
                Ok(assumption) => {
                    self.assert_new_axioms();
                    let z3 = &self.z3;
                    let answer = self.watchdog.limit(self.deadline, || match assumption {
                        Some(assumption) => z3.check_assumptions(&[assumption]),
                        None => z3.check(),
                    });
                    match answer {
                        z3::SatResult::Sat => SatResult::Sat,
                        z3::SatResult::Unsat => SatResult::Unsat,
                        z3::SatResult::Unknown if stopped(self.deadline) => SatResult::Interrupted,
                        z3::SatResult::Unknown => SatResult::Unknown,
                    }
                }
                Err(_) => SatResult::Unknown,
            }
        };
        self.time += start.elapsed();
        self.last = Some((result, extra.cloned()));
        result
    }

    fn assert_new_axioms(&mut self) {
        for axiom in self.encoder.take_new_axioms() {
            self.z3.assert(&axiom);
            self.axioms.push((axiom, self.scopes.len()));
        }
    }
}

impl crate::simplify::Entailment for Solver {
    fn entails(&mut self, context: &Term, goal: &Term) -> Option<bool> {
        Solver::entails(self, context, goal)
    }
}

/// The outcome of [`prove`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    Valid,
    /// Inputs that make the formula false, confirmed by the evaluator.
    Counterexample(Valuation),
    Unknown,
    /// Stopped by the user before Z3 answered.
    Interrupted,
}

/// Is `formula` valid (¬formula unsatisfiable)? If not, a counterexample over `inputs`.
pub fn prove(formula: &Term, inputs: &BTreeMap<Name, Sort>, timeout_ms: u64) -> Proof {
    let mut solver = Solver::new(timeout_ms);
    solver.assert(&Term::not(formula.clone()));
    match solver.check() {
        SatResult::Unsat => Proof::Valid,
        SatResult::Sat => solver
            .model(inputs)
            .map_or(Proof::Unknown, Proof::Counterexample),
        SatResult::Unknown => Proof::Unknown,
        SatResult::Interrupted => Proof::Interrupted,
    }
}
