//! Workers on the cores of one machine: each explores a share of the
//! tree ([`super::share`]) on a thread of its own, taking the prefixes
//! below the split as it reaches them ([`Claims`]). Nothing of an
//! exploration crosses threads: each worker builds its own program, terms
//! (the interner is per thread), Z3 context (per thread in `z3` 0.19) and
//! simplifier memo, and hands back only what it was asked for (a report,
//! counters), which the caller combines in shard order.

use super::engine::ExploreOptions;
use super::lanes::{Lane, Lanes};
use super::share::{Claims, Shard};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;

/// One worker of an exploration on several threads.
#[derive(Clone, Debug)]
pub struct Worker {
    pub shard: Shard,
    /// The prefixes the workers have taken, shared by all of them.
    pub claims: Arc<Claims>,
}

impl Worker {
    /// `options` exploring this worker's share of the tree.
    pub fn share(&self, options: &mut ExploreOptions) {
        options.shard = Some(self.shard);
        options.claims = Some(self.claims.clone());
    }
}

/// `work` for each of `jobs` workers, each on a thread of its own with the
/// stack a command gets ([`crate::commands::STACK_BYTES`]), in worker
/// order; `None` for a worker that could not start or did not finish.
/// Each worker is given a sender to the calling thread, which runs
/// `beside` on the receiver meanwhile (writing what the workers send it)
/// before it waits for them. The receiver closes when every worker has
/// ended, whether it finished or not.
pub fn on_workers<T: Send, M: Send, R>(
    jobs: usize,
    work: impl Fn(Worker, Sender<M>) -> T + Sync,
    beside: impl FnOnce(Receiver<M>) -> R,
) -> (Vec<Option<T>>, R) {
    let (sender, receiver) = mpsc::channel();
    spawned(vec![sender; jobs], work, || beside(receiver))
}

/// [`on_workers`] with a bounded lane per worker instead of one channel
/// ([`super::lanes`]): a worker ahead of the calling thread waits for it.
/// A lane closes when its worker ends; when `beside` returns, workers
/// still sending are told the writer stopped.
pub fn on_workers_in_lanes<T: Send, M: Send, R>(
    jobs: usize,
    work: impl Fn(Worker, Lane<'_, M>) -> T + Sync,
    beside: impl FnOnce(&Lanes<M>) -> R,
) -> (Vec<Option<T>>, R) {
    let lanes = Lanes::new(jobs);
    let links = (0..jobs).map(|index| lanes.lane(index)).collect();
    spawned(links, work, || {
        let besides = beside(&lanes);
        lanes.close();
        besides
    })
}

/// `work` on a thread per link (worker `i` given `links[i]`), `beside`
/// run on the calling thread meanwhile, then the workers joined.
fn spawned<T: Send, L: Send, R>(
    links: Vec<L>,
    work: impl Fn(Worker, L) -> T + Sync,
    beside: impl FnOnce() -> R,
) -> (Vec<Option<T>>, R) {
    let work = &work;
    let jobs = links.len();
    let claims = Arc::new(Claims::default());
    std::thread::scope(|scope| {
        let workers: Vec<_> = links
            .into_iter()
            .enumerate()
            .map(|(index, link)| {
                let worker = Worker {
                    shard: Shard { index, count: jobs },
                    claims: claims.clone(),
                };
                std::thread::Builder::new()
                    .stack_size(crate::commands::STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let done = work(worker, link);
                        crate::memory::flush();
                        done
                    })
            })
            .collect();
        let besides = beside();
        let done = workers
            .into_iter()
            .map(|worker| worker.ok()?.join().ok())
            .collect();
        (done, besides)
    })
}

/// The workers' `stretches`, each with its slot ([`super::share::Segment::slot`]),
/// keyed by slot: in depth-first order.
pub fn in_order<T>(stretches: Receiver<(usize, T)>) -> std::collections::BTreeMap<usize, T> {
    let completed = crate::mutants::active(crate::mutants::Mutant::StretchesInCompletionOrder);
    stretches
        .into_iter()
        .enumerate()
        .map(|(arrival, (slot, stretch))| (if completed { arrival } else { slot }, stretch))
        .collect()
}

/// The number of cores this process may use (1 if unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
