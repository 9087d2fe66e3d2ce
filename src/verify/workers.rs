//! `verify --jobs N`: a unit's verification program explored as it is
//! ([`Treatment::Explore`]) by workers that share the tree's prefixes
//! ([`crate::explore::workers`]), each with its own copy of the program
//! (terms are per thread). A worker sends, for each stretch of the tree it
//! finishes, what the verifier counts and where its failed paths are
//! ([`Tally`]); this thread adds the stretches up in depth-first order.
//!
//! Without `--all` one job stops at the first error in depth-first order,
//! so the workers do too: a worker that finds an error publishes its
//! stretch, the others stop once they are past it, and the stretches
//! after the first one with an error are dropped — the counters are those
//! of one job, stopped where it stops. The failed paths kept (their
//! leaves are terms) are found again on this thread by exploring only
//! their stretches ([`Claims::after`]).

use super::encode::{encode, Treatment};
use super::observer::{Collector, Ending};
use super::{Explorer, Unit};
use crate::explore::share::{Claims, Segment, Shard};
use crate::explore::workers::{self, Worker};
use crate::explore::{Finished, Limit, Observer, Pruned, Stats, Status, Unexplored};
use std::io;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use symex_semantics::program::Program;
use symex_semantics::system::Options as SemanticsOptions;

/// What the verifier's workers are built from, on their own threads.
pub trait OnWorkers: Sync {
    fn jobs(&self) -> usize;

    /// On the calling thread: its own copy of the program, and an explorer
    /// of `worker`'s share of the tree.
    fn load(&self, worker: &Worker) -> Result<(Program, Box<dyn Explorer>), String>;
}

/// A unit named without terms, to cross threads.
#[derive(Clone, Debug)]
enum UnitName {
    Main,
    Body(String),
}

impl UnitName {
    fn of(unit: &Unit) -> UnitName {
        match unit {
            Unit::Main => UnitName::Main,
            Unit::Body(name) => UnitName::Body(name.to_string()),
        }
    }

    fn unit(&self) -> Unit {
        match self {
            UnitName::Main => Unit::Main,
            UnitName::Body(name) => Unit::Body(Rc::from(name.as_str())),
        }
    }
}

/// What the verifier counts in one stretch of a worker's exploration.
#[derive(Debug, Default)]
struct Tally {
    slot: usize,
    /// The explorer's counters of the stretch (paths, their ends, pruned branches).
    stats: Stats,
    proved_checks: usize,
    incomplete: usize,
    abstracted: usize,
    /// The failed paths: their positions among the stretch's paths, and
    /// whether each ends in an error (which stops one job).
    failed: Vec<(usize, bool)>,
    /// Whether anything happened in it.
    nodes: usize,
}

impl Tally {
    fn has_error(&self) -> bool {
        self.failed.iter().any(|&(_, error)| error)
    }

    fn is_empty(&self) -> bool {
        self.stats.paths == 0 && self.stats.pruned == 0 && self.nodes == 0
    }
}

/// The first stretch known to hold an error (`usize::MAX` while none is).
type FirstError = Arc<AtomicUsize>;

/// A worker's observer: tallies each stretch and sends it when it ends.
struct Tallying {
    all: bool,
    first_error: FirstError,
    tally: Tally,
    /// The stretch under way is at least this one.
    at_least: usize,
    to_main: Sender<(usize, Tally)>,
    end: WorkerEnd,
}

/// What a worker tells at its end.
#[derive(Debug, Default)]
struct WorkerEnd {
    /// Configurations a limit other than the answer left, and that limit.
    limited: usize,
    limit: Option<Limit>,
    /// Whether it left configurations once the answer was known.
    answered: bool,
    /// Its solver calls and time (the rest is counted per stretch).
    stats: Stats,
    raw: bool,
}

impl Observer for Tallying {
    fn pruned(&mut self, pruned: Pruned) -> io::Result<()> {
        self.tally.stats.pruned += 1;
        if pruned.rule == symex_semantics::system::Rule::AssertFails {
            self.tally.proved_checks += 1;
        }
        Ok(())
    }

    fn node(&mut self, _node: &crate::explore::PathNode) -> io::Result<()> {
        self.tally.nodes += 1;
        Ok(())
    }

    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        if let Some(place) = path.place {
            self.at_least = place.slot();
        }
        let tally = &mut self.tally;
        let position = tally.stats.paths;
        tally.stats.count_path(&path.leaf.status);
        match Ending::of(&path) {
            Ending::Failed => {
                let error = matches!(path.leaf.status, Status::Error(_));
                tally.failed.push((position, error));
                if error && !self.all {
                    self.first_error.fetch_min(self.at_least, Ordering::AcqRel);
                }
            }
            Ending::Incomplete => tally.incomplete += 1,
            Ending::Abstracted => tally.abstracted += 1,
            Ending::Fine => {}
        }
        Ok(())
    }

    fn segment(&mut self, segment: Segment) -> io::Result<()> {
        let slot = segment.slot();
        self.at_least = slot + 1;
        let tally = std::mem::take(&mut self.tally);
        self.to_main
            .send((slot, Tally { slot, ..tally }))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the verifier stopped"))
    }

    /// One job stops at its first error: so does a worker past a stretch
    /// with one (its own or another's).
    fn answered(&self) -> bool {
        !self.all
            && (self.tally.has_error() || self.first_error.load(Ordering::Acquire) < self.at_least)
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        let limited: Vec<_> = unexplored
            .iter()
            .filter(|left| left.reason != Limit::Answered)
            .collect();
        self.end = WorkerEnd {
            limited: limited.len(),
            limit: limited.first().map(|left| left.reason),
            answered: limited.len() < unexplored.len(),
            stats: Stats {
                solver_calls: stats.solver_calls,
                time_ms: stats.time_ms,
                ..Stats::default()
            },
            raw: false,
        };
        Ok(())
    }
}

/// Explores the verification program of `unit` on the workers into
/// `collector`, as one job explores it; whether conditions were left raw.
pub(super) fn explore(
    on: &dyn OnWorkers,
    unit: &Unit,
    semantics: SemanticsOptions,
    collector: &mut Collector,
) -> Result<bool, String> {
    let jobs = on.jobs();
    let all = collector.all();
    let first_error: FirstError = Arc::new(AtomicUsize::new(usize::MAX));
    let name = UnitName::of(unit);
    let work = |worker: Worker, to_main: Sender<(usize, Tally)>| -> Result<WorkerEnd, String> {
        let (program, explorer) = on.load(&worker)?;
        let encoding = encode(&program, &name.unit(), Treatment::Explore, semantics);
        let mut tallying = Tallying {
            all,
            first_error: first_error.clone(),
            tally: Tally::default(),
            at_least: 0,
            to_main,
            end: WorkerEnd::default(),
        };
        let raw = explorer.explore(&encoding.program, &mut tallying);
        Ok(WorkerEnd {
            raw,
            ..tallying.end
        })
    };
    let (ends, tallies) = workers::on_workers(jobs, work, workers::in_order);
    let ends = ends
        .into_iter()
        .map(|end| end.unwrap_or_else(|| Err("internal error: a worker did not finish".into())))
        .collect::<Result<Vec<_>, _>>()?;
    let mut stats = Stats::default();
    let mut wanted: Vec<(usize, usize, Vec<usize>)> = Vec::new();
    let mut after_error = false;
    for tally in tallies.into_values() {
        if after_error {
            collector.stopped |= !tally.is_empty();
            continue;
        }
        let positions: Vec<usize> = match all {
            true => tally.failed.iter().map(|&(at, _)| at).collect(),
            false => {
                let first = tally.failed.iter().position(|&(_, error)| error);
                let kept = first.map_or(tally.failed.len(), |i| i + 1);
                tally.failed[..kept].iter().map(|&(at, _)| at).collect()
            }
        };
        if !positions.is_empty() {
            wanted.push((tally.slot, stats.paths, positions));
        }
        stats.add(&tally.stats);
        collector.proved_checks += tally.proved_checks;
        collector.incomplete += tally.incomplete;
        collector.abstracted += tally.abstracted;
        after_error = !all && tally.has_error();
    }
    for end in &ends {
        stats.add(&end.stats);
        collector.unexplored += end.limited;
        collector.limit = collector.limit.or(end.limit);
        collector.stopped |= after_error && end.answered;
    }
    collector.stats = stats;
    for (slot, paths_before, positions) in wanted {
        found_again(on, unit, semantics, jobs, slot, &positions, collector)?;
        let failed = collector.failed.iter_mut().rev().take(positions.len());
        for (failed, position) in failed.zip(positions.iter().rev()) {
            failed.path = paths_before + position;
        }
    }
    Ok(ends.iter().any(|end| end.raw))
}

/// Explores stretch `slot` of the tree (as `jobs` workers split it) on
/// this thread, adding the failed paths at `positions` among its paths
/// to `collector`.
fn found_again(
    on: &dyn OnWorkers,
    unit: &Unit,
    semantics: SemanticsOptions,
    jobs: usize,
    slot: usize,
    positions: &[usize],
    collector: &mut Collector,
) -> Result<(), String> {
    // A prefix's subtree is its owner's (shard 1 reports nothing above
    // the split); above the split, shard 0 reports, taking no prefix.
    let (index, taken) = match slot % 2 {
        1 => (1, slot / 2),
        _ => (0, usize::MAX),
    };
    let worker = Worker {
        shard: Shard { index, count: jobs },
        claims: Arc::new(Claims::after(taken)),
    };
    let (program, explorer) = on.load(&worker)?;
    let encoding = encode(&program, unit, Treatment::Explore, semantics);
    let mut only = OnlyStretch {
        slot,
        positions,
        seen: 0,
        inner: Collector::new(true),
    };
    explorer.explore(&encoding.program, &mut only);
    let found = only.inner.failed.len();
    if found != positions.len() {
        return Err(format!(
            "internal error: {found} failed paths found again in stretch {slot}, not {}",
            positions.len()
        ));
    }
    collector.failed.extend(only.inner.failed);
    Ok(())
}

/// Passes on the paths at `positions` of stretch `slot`, and stops once it has them.
struct OnlyStretch<'a> {
    slot: usize,
    positions: &'a [usize],
    seen: usize,
    inner: Collector,
}

impl Observer for OnlyStretch<'_> {
    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        if path.place.map(|place| place.slot()) != Some(self.slot) {
            return Ok(());
        }
        let position = self.seen;
        self.seen += 1;
        match self.positions.contains(&position) {
            true => self.inner.path(path),
            false => Ok(()),
        }
    }

    fn answered(&self) -> bool {
        self.inner.failed.len() >= self.positions.len()
    }

    fn finish(&mut self, _unexplored: &[Unexplored], _stats: &Stats) -> io::Result<()> {
        Ok(())
    }
}
