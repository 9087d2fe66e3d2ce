//! State subsumption (Anand, Păsăreanu & Visser, *Symbolic Execution with
//! Abstract Subsumption Checking*, SPIN 2006), the explorer's hook at loop
//! heads (`--subsume`): once per iteration, before the body, the state of
//! a lazy path ([`symex_semantics::oo::lazy`]) is matched against the
//! states stored at the same program point with the same calls pending. A
//! state one of them subsumes is not explored further; any other is
//! stored. A stored state `s₂` subsumes `s₁` when its heap does
//! (Algorithm 1, [`heap`]) and, under the labelling of the matched nodes,
//! the numeric part of `s₁` entails that of `s₂` ([`entail`]).
//!
//! Exact subsumption is sound: every concrete state of `s₁` is one of
//! `s₂`, whose subtree is explored, so a tree closed by it is a proof. With
//! an abstraction (`--abstract list`, [`list`]; `--abstract array`,
//! [`array`]) states are stored and matched abstractly but run concretely,
//! which explores an under-approximation: a path cut there ends
//! `abstracted`, and every error found is still a real path.

mod array;
mod entail;
mod heap;
mod list;
mod shape;

use crate::explore::{LoopHook, PathNode, Stats, Status};
use crate::mutants::{self, Mutant};
use crate::solver::Solver;
use serde::Serialize;
use shape::Shape;
use std::collections::HashMap;
use symex_semantics::oo::lazy::graph::StateGraph;
use symex_semantics::program::Code;
use symex_semantics::system::SymbolicConfiguration;
use symex_semantics::term::{Name, Term};

/// How states are stored and matched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Abstraction {
    /// As they are: exact subsumption.
    Exact,
    /// Lists summarised (§5.1).
    List,
    /// Arrays as lists of cells with gaps, summarised, with these index
    /// roots (§5.2).
    Array { roots: Vec<Name> },
}

/// The counters the paper reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MatchStats {
    /// `none`, `list` or `array`.
    pub abstraction: &'static str,
    /// States checked at loop heads.
    pub checks: u64,
    /// Checked states a stored one subsumed (their paths end there).
    pub subsumed: u64,
    /// Checked states stored (those not subsumed).
    pub stored: u64,
}

/// What a check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Stored, to be explored on.
    Stored,
    /// Subsumed by the state stored at the node `by`; `exact` without an abstraction.
    Subsumed { by: usize, exact: bool },
}

/// A state kept for matching.
struct Stored {
    shape: Shape,
    condition: Term,
    node: usize,
    /// Keeps the blocks of the state's program point alive, so that no
    /// other block takes their addresses.
    _code: Code,
}

/// The states stored so far, by program point, and the solver that
/// decides entailment.
pub struct Matcher {
    abstraction: Abstraction,
    /// What the run assumes of its inputs (`--fix`), part of every state's condition.
    assumption: Term,
    solver: Solver,
    stored: HashMap<Vec<(usize, usize)>, Vec<Stored>>,
    stats: MatchStats,
}

impl Abstraction {
    /// As `--abstract` names it (`none` without).
    pub fn name(&self) -> &'static str {
        match self {
            Abstraction::Exact => "none",
            Abstraction::List => "list",
            Abstraction::Array { .. } => "array",
        }
    }
}

impl Matcher {
    /// A matcher whose entailment queries give up after `timeout_ms`, on
    /// runs that assume `assumption`.
    pub fn new(abstraction: Abstraction, timeout_ms: u64, assumption: Term) -> Matcher {
        let stats = MatchStats {
            abstraction: abstraction.name(),
            ..MatchStats::default()
        };
        Matcher {
            abstraction,
            assumption,
            solver: Solver::new(timeout_ms),
            stored: HashMap::new(),
            stats,
        }
    }

    /// Checks the state `graph` with the path condition `condition`, at
    /// the node `node`, against the states stored at its program point.
    pub fn check(&mut self, graph: StateGraph, condition: &Term, node: usize) -> Verdict {
        self.stats.checks += 1;
        let shape = match &self.abstraction {
            Abstraction::Exact => Shape::exact(&graph),
            Abstraction::List => list::abstract_lists(&Shape::exact(&graph)),
            Abstraction::Array { roots } => {
                array::abstract_arrays(&graph, condition, roots, &mut self.solver)
            }
        };
        let candidates = self.stored.entry(graph.point).or_default();
        for stored in candidates.iter() {
            let Some(labels) = heap::subsumes(&shape, &stored.shape) else {
                continue;
            };
            let new = entail::Side {
                shape: &shape,
                condition,
            };
            let old = entail::Side {
                shape: &stored.shape,
                condition: &stored.condition,
            };
            if mutants::active(Mutant::SubsumptionIgnoresNumbers)
                || entail::entails(&mut self.solver, new, old, &labels)
            {
                self.stats.subsumed += 1;
                return Verdict::Subsumed {
                    by: stored.node,
                    exact: self.abstraction == Abstraction::Exact,
                };
            }
        }
        candidates.push(Stored {
            shape,
            condition: condition.clone(),
            node,
            _code: graph.code,
        });
        self.stats.stored += 1;
        Verdict::Stored
    }

    pub fn stats(&self) -> MatchStats {
        self.stats
    }
}

/// The explorer's hook: a check each time a path enters an iteration.
impl<C: SymbolicConfiguration> LoopHook<C> for Matcher {
    fn entered(&mut self, node: &PathNode, config: &C) -> Option<Status> {
        let graph = config.state_graph()?;
        let condition = Term::and(self.assumption.clone(), config.path_condition().clone());
        match self.check(graph, &condition, node.id) {
            Verdict::Stored => None,
            Verdict::Subsumed { by, exact: true } => Some(Status::Subsumed(by)),
            Verdict::Subsumed { by, exact: false } => Some(Status::Abstracted(by)),
        }
    }

    fn finish(&mut self, stats: &mut Stats) {
        stats.solver_calls += self.solver.calls();
        stats.subsumption = Some(self.stats);
    }
}
