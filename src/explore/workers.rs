//! Workers on the cores of one machine: each explores one shard of the
//! tree ([`super::share`]) on a thread of its own. Nothing of an
//! exploration crosses threads: each worker builds its own program, terms
//! (the interner is per thread), Z3 context (per thread in `z3` 0.19) and
//! simplifier memo, and hands back only what it was asked for (a report,
//! counters), which the caller combines in shard order.

use super::share::Shard;

/// `work` for each of `jobs` shards, each on a thread of its own with the
/// stack a command gets ([`crate::commands::STACK_BYTES`]), in shard
/// order; `None` for a worker that could not start or did not finish.
pub fn on_workers<T: Send>(jobs: usize, work: impl Fn(Shard) -> T + Sync) -> Vec<Option<T>> {
    let work = &work;
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|index| {
                let shard = Shard { index, count: jobs };
                std::thread::Builder::new()
                    .stack_size(crate::commands::STACK_BYTES)
                    .spawn_scoped(scope, move || work(shard))
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.ok()?.join().ok())
            .collect()
    })
}

/// The number of cores this process may use (1 if unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
