//! Loop inner bounds with witnesses: Zhao, Feng, Tang et al., *A
//! symbolic-execution guided inner loop bound analysis* (Acta Electronica
//! Sinica 45(11), 2017). A loop's **inner bound** is the largest number of
//! iterations one entry of it reaches on a feasible path, reported with a
//! **witness** input that the concrete semantics runs to exactly that count.
//! It is **exact** when every path that stays in the loop ended infeasible
//! (no input does more: the inner bound is then also an outer bound), and
//! otherwise a **lower bound**, with the reason (the cap, the time limit, a
//! solver `unknown`).
//!
//! The search is the paper's, on the explorer with state merging
//! ([`search`]): configurations are joined where they meet, in the same
//! loop context `ζ` (each loop with its iteration count), so the paths
//! through one iteration become one configuration per count; the frontier
//! expands the configuration with the most statements left, so a path stays
//! in its loop body while the exits wait, merged, at the loop's
//! continuation. A loop still running after [`ACCELERATE_AFTER`] iterations
//! of one entry is summarised at once where its body moves the variables
//! of its condition by constants ([`accelerate`]): its largest count is
//! then asked of Z3 directly, so a bound of a million takes a few queries.
//! Witnesses are found and replayed by [`witness`], which also holds the
//! paper's fallback where Z3 gives up.

mod accelerate;
mod search;
mod witness;

use crate::explore::{explore_with, Bounds, ExploreOptions, Merge, Observer, Stats};
use crate::explore::{Finished, Unexplored};
use search::Search;
use std::collections::BTreeMap;
use std::io;
use std::time::{Duration, Instant};
use symex_semantics::eval::Valuation;
use symex_semantics::program::{LoopId, LoopSite, Outcome, Program};
use symex_semantics::system::{ConcreteConfiguration, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::Term;

/// The paper's iteration cap.
pub const DEFAULT_CAP: u64 = 5_000_000;

/// Iterations of one entry after which a loop is summarised, if it can be.
pub const ACCELERATE_AFTER: u64 = 64;

/// How to look for bounds.
#[derive(Clone, Debug)]
pub struct BoundOptions {
    /// No entry of a loop is followed past this many iterations.
    pub cap: u64,
    /// The whole search stops after this long.
    pub time_limit: Option<Duration>,
    /// Per solver query.
    pub timeout_ms: u64,
    /// A condition on the inputs (`--fix x=3`).
    pub assumption: Term,
}

impl Default for BoundOptions {
    fn default() -> BoundOptions {
        BoundOptions {
            cap: DEFAULT_CAP,
            time_limit: None,
            timeout_ms: 10_000,
            assumption: Term::bool(true),
        }
    }
}

/// Why a bound is only a lower bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shortfall {
    /// An entry reached the cap.
    Cap(u64),
    /// The time limit stopped the search.
    TimeLimit,
    /// Z3 could not decide a path in the loop (or before it); the bound is
    /// the largest count concrete runs of sampled models reached.
    SolverUnknown,
    /// A path in or before the loop was cut otherwise (memory, depth).
    Cut(String),
    /// The search's witness ran another number of iterations concretely
    /// (`ran`, reported instead of the search's `found`), its run stopped
    /// at a limit when `stopped`.
    Replay { found: u64, ran: u64, stopped: bool },
}

impl std::fmt::Display for Shortfall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Shortfall::Cap(cap) => write!(f, "cap {cap} reached"),
            Shortfall::TimeLimit => f.write_str("time limit reached"),
            Shortfall::SolverUnknown => {
                f.write_str("solver unknown; largest count of sampled runs")
            }
            Shortfall::Cut(why) => write!(f, "a path was cut: {why}"),
            Shortfall::Replay {
                found,
                ran,
                stopped,
            } => {
                let ran_how = match stopped {
                    true => "'s run stopped after",
                    false => " ran",
                };
                write!(
                    f,
                    "the search found {found}, its witness{ran_how} {ran} iterations"
                )
            }
        }
    }
}

/// A concrete run of a witness: the largest count of one entry of the
/// loop, and how the run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub count: u64,
    /// `None` when the run stopped at a limit.
    pub outcome: Option<Outcome>,
    pub steps: usize,
}

/// What was found for one loop.
#[derive(Clone, Debug)]
pub struct LoopBound {
    pub id: LoopId,
    pub site: Option<LoopSite>,
    /// `None`: no feasible path reaches the loop.
    pub inner: Option<u64>,
    /// `None`: exact.
    pub shortfall: Option<Shortfall>,
    /// What no input exceeds, when the search proved it.
    pub outer: Option<u64>,
    pub witness: Option<Valuation>,
    pub replay: Option<Replay>,
    /// The count came from the loop summarised at once.
    pub accelerated: bool,
}

/// The bounds of every loop, in the program's loop order.
pub struct Report {
    pub loops: Vec<LoopBound>,
    pub stats: Stats,
    pub time_ms: u64,
}

/// The bounds of every loop of `program`, found on `symbolic` from
/// `initial` and replayed on `concrete` (from `start(inputs)`).
pub fn analyse<S, C>(
    program: &Program,
    symbolic: &S,
    initial: S::Config,
    concrete: &C,
    start: &dyn Fn(Valuation) -> C::Config,
    options: &BoundOptions,
) -> Report
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    let begun = Instant::now();
    let deadline = options.time_limit.map(|limit| begun + limit);
    let inputs = program.inputs();
    let explore = ExploreOptions {
        bounds: Bounds {
            depth: usize::MAX,
            unfold: usize::MAX,
            unwind: None,
            max_paths: None,
            time_limit: options.time_limit,
            max_objects: None,
        },
        timeout_ms: options.timeout_ms,
        assumption: options.assumption.clone(),
        merge: Merge::Join,
        ..ExploreOptions::default()
    };
    let mut search = Search::new(program, symbolic, options);
    // The search reads loops, not paths: nothing is kept of them.
    let stats = explore_with(
        symbolic,
        initial,
        &inputs,
        &explore,
        &mut Unread,
        &mut search,
    )
    .unwrap_or_default();
    let found = search.into_found();
    let replayer = witness::Replayer {
        concrete,
        start,
        inputs: &inputs,
        assumption: &options.assumption,
        timeout_ms: options.timeout_ms,
        deadline,
    };
    let loops = witness::settle(program, found, &replayer);
    Report {
        loops,
        stats,
        time_ms: u64::try_from(begun.elapsed().as_millis()).unwrap_or(u64::MAX),
    }
}

/// An observer that keeps nothing.
struct Unread;

impl Observer for Unread {
    fn path(&mut self, _: Finished<'_>) -> io::Result<()> {
        Ok(())
    }

    fn reads_ancestors(&self) -> bool {
        false
    }

    fn finish(&mut self, _: &[Unexplored], _: &Stats) -> io::Result<()> {
        Ok(())
    }
}

/// What the search found for each loop, before witnesses.
#[derive(Default)]
pub(crate) struct Found {
    /// The largest count seen per loop, with the path condition it was seen under.
    pub(crate) best: BTreeMap<LoopId, Sighting>,
    /// Why a loop's count may be short of its bound.
    pub(crate) shortfalls: BTreeMap<LoopId, Shortfall>,
    /// Path conditions Z3 could not decide (the fallback samples their models).
    pub(crate) undecided: Vec<Term>,
}

/// A count reached under a path condition.
#[derive(Clone)]
pub(crate) struct Sighting {
    pub(crate) count: u64,
    pub(crate) condition: Term,
    pub(crate) accelerated: bool,
}
