//! Negating branches on several workers (`concolic --jobs N`) without
//! changing what the search reports. The search stays on one thread and
//! takes entries in its order; when the entry it takes was not solved yet,
//! it solves it in a **round** together with the entries the worklist
//! would give next ([`super::worklist::Worklist::upcoming`]), up to
//! [`LANES`] negations, and keeps their outcomes until their turn (work
//! ahead of its turn, as a processor executes instructions speculatively).
//! Rounds do not depend on the number of jobs, and the `k`-th negation of
//! every round is solved in *lane* `k`: a Z3 context and solver of its own,
//! on whichever thread hosts the lane. Z3's models depend on what its
//! context has seen before, so a lane sees the same queries in the same
//! order for any `--jobs`, and every negation gets the same input: the
//! report is the one-job report, but for the time and what a limit cuts
//! short.
//!
//! Terms, configurations and Z3 contexts belong to the thread that made
//! them, so each worker builds its own program and systems (the caller's
//! `worker` closure does) and receives inputs as [`SentValuation`]s.

use super::coverage::Sites;
use super::run::{self, Fork, Systems};
use super::sent::{SentSolved, SentValuation};
use super::solve::{self, Solved};
use crate::explore::workers::on_workers;
use crate::explore::Bounds;
use crate::solver::Solver;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;
use symex_semantics::eval::Valuation;
use symex_semantics::system::{ConcreteConfiguration, SymbolicConfiguration, TransitionSystem};

/// Negations in a round, and lanes: enough for 8 workers, few enough that a
/// search stopped by a goal or `--iterations` wastes little.
pub const LANES: usize = 8;

/// A worklist entry as it is solved: the run's input, and its branch at
/// depth index `fork` (after `step` transitions) to negate by taking the
/// successor `alternative`.
#[derive(Clone, Debug)]
pub struct Negation {
    pub input: Valuation,
    /// The iteration that ran `input`, for messages.
    pub iteration: usize,
    pub fork: usize,
    pub step: usize,
    pub alternative: usize,
}

/// What solving a negation needs besides the program's systems.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub bounds: Bounds,
    /// Per query.
    pub timeout_ms: u64,
    /// No query runs past it (`--time-limit-ms`).
    pub deadline: Option<Instant>,
}

/// The outcome of a negation, or why it could not be attempted.
pub type Outcome = Result<Solved, String>;

/// Solves a round of negations, on this thread or on workers.
pub trait Solving {
    /// The outcome of each of `negations` (at most [`LANES`]), in their order.
    fn solve(&mut self, negations: Vec<Negation>) -> Vec<Outcome>;
}

/// A Z3 context and the solver that lives in it.
pub struct Lane {
    // Dropped before its context.
    solver: Solver,
    context: z3::Context,
}

/// The lanes a thread hosts, made as they are first needed.
#[derive(Default)]
pub struct Lanes(Vec<Option<Lane>>);

impl Lanes {
    fn lane(&mut self, k: usize, limits: &Limits) -> &mut Lane {
        if self.0.len() <= k {
            self.0.resize_with(k + 1, || None);
        }
        self.0[k].get_or_insert_with(|| {
            let context = z3::with_z3_config(&z3::Config::new(), || {
                OnThisThread(z3::Context::thread_local())
            })
            .0;
            let mut solver = in_context(&context, || Solver::new(limits.timeout_ms));
            solver.set_deadline(limits.deadline);
            Lane { solver, context }
        })
    }
}

/// Solving on the search's own thread, each negation in its lane.
pub struct Here<'a, S: TransitionSystem, C: TransitionSystem> {
    pub systems: &'a Systems<'a, S, C>,
    pub sites: &'a Sites,
    pub limits: Limits,
    pub lanes: Lanes,
}

impl<S, C> Solving for Here<'_, S, C>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    fn solve(&mut self, negations: Vec<Negation>) -> Vec<Outcome> {
        negations
            .iter()
            .enumerate()
            .map(|(k, negation)| {
                let lane = self.lanes.lane(k, &self.limits);
                negate(self.systems, self.sites, &self.limits, lane, negation)
            })
            .collect()
    }
}

/// An input that takes `negation`'s branch, from its run's input run again
/// up to the fork (the same path: the semantics are deterministic), solved
/// in `lane`.
pub fn negate<S, C>(
    systems: &Systems<'_, S, C>,
    sites: &Sites,
    limits: &Limits,
    lane: &mut Lane,
    negation: &Negation,
) -> Outcome
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    if crate::stop::reached(limits.deadline).is_some() {
        // A round's negations after Ctrl-C or the time limit: not run again.
        return Ok(Solved::Interrupted);
    }
    let fork = fork_of(systems, sites, &limits.bounds, negation)?;
    let target = &fork.successors[negation.alternative];
    let inputs = solve::Inputs {
        globals: sites.program().globals.clone(),
        read: sites.program().inputs(),
    };
    let solver = &mut lane.solver;
    Ok(in_context(&lane.context, || {
        solve::solve(
            solver,
            &target.next,
            &target.guard,
            &negation.input,
            &inputs,
        )
    }))
}

/// `f` with `context` as the thread's Z3 context (terms `f` encodes are made there).
fn in_context<T>(context: &z3::Context, f: impl FnOnce() -> T) -> T {
    let f = OnThisThread(f);
    z3::with_z3_context(context, move || OnThisThread(f.call())).0
}

/// A closure, its result, or a context, passed through
/// [`z3::with_z3_context`], whose `Send + Sync` bounds keep Z3 objects
/// from leaving their context.
struct OnThisThread<T>(T);

// SAFETY: `with_z3_context` runs its closure on the calling thread before
// it returns, so nothing wrapped crosses threads. What leaves the closure
// is a lane's context itself, or a solver used only in that context
// (every call on it is made through `in_context`).
unsafe impl<T> Send for OnThisThread<T> {}
unsafe impl<T> Sync for OnThisThread<T> {}

impl<T, F: FnOnce() -> T> OnThisThread<F> {
    fn call(self) -> T {
        (self.0)()
    }
}

fn fork_of<S, C>(
    systems: &Systems<'_, S, C>,
    sites: &Sites,
    bounds: &Bounds,
    negation: &Negation,
) -> Result<Fork<S::Config>, String>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    let bounds = Bounds {
        depth: negation.step + 1,
        ..*bounds
    };
    let run = run::run(systems, sites, negation.input.clone(), &bounds, 0)?;
    run.forks.into_iter().nth(negation.fork).ok_or_else(|| {
        format!(
            "iteration {}'s input, run again, did not reach its fork",
            negation.iteration
        )
    })
}

/// A negation on its way to a worker, numbered within its round.
struct Sent {
    number: usize,
    input: SentValuation,
    iteration: usize,
    fork: usize,
    step: usize,
    alternative: usize,
}

/// A worker's answer: the negation's number and its outcome.
type Answer = (usize, Result<SentSolved, String>);

/// How a round's outcomes are matched with its negations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// Each with its own negation.
    InTurn,
    /// In the order the workers finish: a deliberately broken fold, for
    /// the test that shows the comparison with one job catches it.
    #[cfg(any(test, feature = "mutants"))]
    AsTheyCome,
}

/// A worker's end of the channels: the negations all workers take from,
/// and where its answers go.
pub struct Endpoint<'a> {
    negations: &'a Mutex<Receiver<Sent>>,
    answers: Sender<Answer>,
    limits: Limits,
}

impl Endpoint<'_> {
    /// Solves negations on `systems` (the worker's own) until the search ends.
    pub fn serve<S, C>(self, systems: &Systems<'_, S, C>, sites: &Sites)
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let mut lanes = Lanes::default();
        loop {
            let next = self
                .negations
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .recv();
            let Ok(sent) = next else {
                return;
            };
            let lane = lanes.lane(sent.number, &self.limits);
            let negation = Negation {
                input: sent.input.receive(),
                iteration: sent.iteration,
                fork: sent.fork,
                step: sent.step,
                alternative: sent.alternative,
            };
            let outcome = negate(systems, sites, &self.limits, lane, &negation);
            let answer = outcome.map(|solved| SentSolved::send(&solved));
            if self.answers.send((sent.number, answer)).is_err() {
                return;
            }
        }
    }
}

/// Solving on workers, lane `k` on worker `k` modulo their number.
struct Workers {
    fold: Fold,
    negations: Vec<Sender<Sent>>,
    answers: Receiver<Answer>,
}

impl Solving for Workers {
    fn solve(&mut self, negations: Vec<Negation>) -> Vec<Outcome> {
        let count = negations.len();
        for (number, negation) in negations.into_iter().enumerate() {
            let sent = Sent {
                number,
                input: SentValuation::send(&negation.input),
                iteration: negation.iteration,
                fork: negation.fork,
                step: negation.step,
                alternative: negation.alternative,
            };
            if self.negations[number % self.negations.len()]
                .send(sent)
                .is_err()
            {
                break;
            }
        }
        let mut outcomes: Vec<Option<Outcome>> = (0..count).map(|_| None).collect();
        for _ in 0..count {
            let Ok((number, answer)) = self.answers.recv() else {
                break;
            };
            let slot = match self.fold {
                Fold::InTurn => number,
                #[cfg(any(test, feature = "mutants"))]
                Fold::AsTheyCome => outcomes.iter().flatten().count(),
            };
            outcomes[slot] = Some(answer.map(SentSolved::receive));
        }
        outcomes
            .into_iter()
            .map(|outcome| outcome.unwrap_or_else(|| Err("a worker did not finish".to_string())))
            .collect()
    }
}

/// Runs `search` on this thread with `jobs` workers solving its
/// negations, each running `worker` with its end of the channels (the
/// caller builds the worker's own program and systems there and calls
/// [`Endpoint::serve`]).
pub fn on<T>(
    jobs: usize,
    fold: Fold,
    limits: Limits,
    worker: impl Fn(Endpoint<'_>) + Sync,
    search: impl FnOnce(&mut dyn Solving) -> T,
) -> T {
    let (to_workers, negations): (Vec<_>, Vec<_>) = (0..jobs.min(LANES))
        .map(|_| {
            let (sender, receiver) = mpsc::channel();
            (sender, Mutex::new(receiver))
        })
        .unzip();
    let (_, found) = on_workers(
        to_workers.len(),
        |me, answers| {
            worker(Endpoint {
                negations: &negations[me.shard.index],
                answers,
                limits,
            })
        },
        |answers| {
            let mut workers = Workers {
                fold,
                negations: to_workers,
                answers,
            };
            // Dropping `workers` after the search closes the channel the
            // workers wait on, so that they end.
            search(&mut workers)
        },
    );
    found
}
