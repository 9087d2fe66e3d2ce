//! Witnesses: a model of the path condition under which a loop reached its
//! largest count, run on the concrete semantics, which counts every loop's
//! iterations per entry (`ζ` again, on concrete steps). Where Z3 gave up
//! on a path, the paper's fallback (Zhao et al. 2017, §3.3): the conjuncts
//! Z3 cannot decide alone are dropped, a few models of the rest are
//! sampled and run, and the largest count they reach is a lower bound.

use super::{Found, LoopBound, Replay, Shortfall};
use crate::explore::run::{run, RunEnd, RunLimits};
use crate::explore::LoopContext;
use crate::solver::{SatResult, Solver};
use std::collections::BTreeMap;
use std::time::Instant;
use symex_semantics::draws::as_drawn;
use symex_semantics::eval::Valuation;
use symex_semantics::program::{LoopId, Program, Stmt};
use symex_semantics::system::{ConcreteConfiguration, TransitionSystem};
use symex_semantics::term::{BinOp, Name, Sort, Term};
use symex_semantics::value::Value;

/// Models sampled per undecided path condition, and such conditions sampled.
const SAMPLES: usize = 6;
const UNDECIDED_SAMPLED: usize = 4;

/// Steps a witness may run: five million iterations of a short body.
const REPLAY_STEPS: usize = 100_000_000;

/// Finds witnesses and runs them.
pub(crate) struct Replayer<'a, C: TransitionSystem> {
    pub(crate) concrete: &'a C,
    pub(crate) start: &'a dyn Fn(Valuation) -> C::Config,
    pub(crate) inputs: &'a BTreeMap<Name, Sort>,
    pub(crate) assumption: &'a Term,
    pub(crate) timeout_ms: u64,
    pub(crate) deadline: Option<Instant>,
}

/// The largest count of one entry of each loop in one concrete run.
struct Counted {
    counts: BTreeMap<LoopId, u64>,
    replay: Replay,
    /// The run's last state: how many values `nondet()` drew.
    final_state: Valuation,
}

impl Counted {
    /// `witness` with `nondet()`'s sequences listed as the run drew them,
    /// if the run ended (a run cut short would draw more).
    fn shown(&self, witness: Valuation) -> Valuation {
        match self.replay.outcome {
            Some(_) => as_drawn(witness, &self.final_state),
            None => witness,
        }
    }
}

impl<C> Replayer<'_, C>
where
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    fn solver(&self) -> Solver {
        let mut solver = Solver::new(self.timeout_ms);
        solver.assert(self.assumption);
        solver
    }

    /// Inputs satisfying `condition`, confirmed by the evaluator.
    fn witness(&self, condition: &Term) -> Option<Valuation> {
        let mut solver = self.solver();
        match solver.check_assuming(condition) {
            SatResult::Sat => solver.model(self.inputs),
            SatResult::Unsat | SatResult::Unknown | SatResult::Interrupted => None,
        }
    }

    /// Runs the program on `inputs`, counting iterations per loop entry.
    fn run(&self, inputs: &Valuation) -> Counted {
        let initial = (self.start)(inputs.clone());
        let mut at = loop_at(&initial);
        let mut context = LoopContext::default();
        let mut counts: BTreeMap<LoopId, u64> = BTreeMap::new();
        let mut record = |id: LoopId, count: u64| {
            let best = counts.entry(id).or_default();
            *best = (*best).max(count);
        };
        let limits = RunLimits {
            max_steps: REPLAY_STEPS,
            deadline: self.deadline,
        };
        let finished = run(self.concrete, initial, limits, |rule, next| {
            if let Some((id, frames)) = at {
                let (after, exit) = context.after_loop(rule, id, frames);
                if let Some(exit) = exit {
                    record(exit.id, exit.count);
                }
                context = after;
            }
            at = loop_at(next);
        });
        for entry in context.entries() {
            record(entry.id, entry.count);
        }
        let outcome = match finished.end {
            RunEnd::Finished(outcome) => Some(outcome),
            _ => None,
        };
        Counted {
            replay: Replay {
                count: 0,
                outcome,
                steps: finished.steps,
            },
            counts,
            final_state: finished.last.global_state(),
        }
    }

    /// The paper's fallback: models of `condition` without the conjuncts
    /// Z3 cannot decide on their own, each differing from the ones before.
    fn samples(&self, condition: &Term) -> Vec<Valuation> {
        let mut solver = self.solver();
        let decidable: Vec<Term> = condition
            .conjuncts()
            .into_iter()
            .filter(|conjunct| solver.check_assuming(conjunct) != SatResult::Unknown)
            .collect();
        solver.assert(&Term::conjunction(decidable));
        let mut samples: Vec<Valuation> = Vec::new();
        for _ in 0..SAMPLES {
            let Some(model) = (match solver.check() {
                SatResult::Sat => solver.model(self.inputs),
                _ => None,
            }) else {
                break;
            };
            let same = model
                .iter()
                .filter_map(|(x, value)| {
                    let sort = self.inputs.get(x)?;
                    let literal = match value {
                        Value::Int(n) => Term::int(n.clone()),
                        Value::Bool(b) => Term::bool(*b),
                        _ => return None,
                    };
                    Some(Term::binary(BinOp::Eq, Term::var(x, sort.clone()), literal))
                })
                .collect::<Vec<_>>();
            solver.assert(&Term::not(Term::conjunction(same)));
            samples.push(model);
        }
        samples
    }
}

/// The loop whose head `config` is at, with its frame.
fn loop_at<C: ConcreteConfiguration>(config: &C) -> Option<(LoopId, usize)> {
    match config.head() {
        Some(Stmt::While(id, ..)) => Some((*id, config.frames())),
        _ => None,
    }
}

/// Every loop's bound from what the search found: the best count's
/// witness, run concretely; the fallback's samples where Z3 gave up.
pub(crate) fn settle<C>(
    program: &Program,
    found: Found,
    replayer: &Replayer<'_, C>,
) -> Vec<LoopBound>
where
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    let mut bounds: Vec<LoopBound> = program
        .loops
        .0
        .iter()
        .map(|(id, site)| {
            let shortfall = found.shortfalls.get(id).cloned();
            let mut bound = LoopBound {
                id: *id,
                site: Some(site.clone()),
                inner: None,
                shortfall,
                outer: None,
                witness: None,
                replay: None,
                accelerated: false,
            };
            if let Some(best) = found.best.get(id) {
                bound.accelerated = best.accelerated;
                match replayer.witness(&best.condition) {
                    Some(witness) => {
                        let counted = replayer.run(&witness);
                        let reached = counted.counts.get(id).copied().unwrap_or(0);
                        bound.inner = Some(reached);
                        // The count reported is the run's, so the reason is too.
                        if reached != best.count {
                            bound.shortfall = Some(Shortfall::Replay {
                                found: best.count,
                                ran: reached,
                                stopped: counted.replay.outcome.is_none(),
                            });
                        }
                        bound.replay = Some(Replay {
                            count: reached,
                            ..counted.replay
                        });
                        bound.witness = Some(counted.shown(witness));
                    }
                    None => {
                        bound.shortfall.get_or_insert(Shortfall::SolverUnknown);
                    }
                }
            }
            bound
        })
        .collect();
    for condition in found.undecided.iter().take(UNDECIDED_SAMPLED) {
        for sample in replayer.samples(condition) {
            let counted = replayer.run(&sample);
            for bound in &mut bounds {
                let reached = counted.counts.get(&bound.id).copied().unwrap_or(0);
                if bound.inner.is_none_or(|inner| reached > inner)
                    && counted.counts.contains_key(&bound.id)
                {
                    bound.inner = Some(reached);
                    bound.witness = Some(counted.shown(sample.clone()));
                    bound.replay = Some(Replay {
                        count: reached,
                        ..counted.replay.clone()
                    });
                }
            }
        }
    }
    for bound in &mut bounds {
        if bound.shortfall.is_none() {
            bound.outer = bound.inner.or(Some(0));
        }
    }
    bounds
}
