//! The worklist of concolic search (ICSOFT 2023, Listing 1): branches of
//! finished runs waiting to be negated, ordered by a priority over what
//! each path knows ([`Candidate`]), on the explorer's own frontier and its
//! [`Strategy::Priority`] hook.

use crate::explore::{Candidate, Frontier, Priority, Strategy};
use std::rc::Rc;

/// The priorities `--priority` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Branches near the root first: the depth index where the branch is
    /// negated (the paper's default, after Godefroid et al.'s generational
    /// search); the first found among equals.
    DepthIndex,
    /// The branches of the run that covered most branches first, each
    /// run's by depth index (SAGE's score, Godefroid et al. 2008).
    Generational,
    /// A branch no run has taken yet first, then by depth index.
    NewBranch,
    /// Uniformly at random, from a seed.
    Random { seed: u64 },
}

impl Order {
    /// The explorer's strategy that orders entries this way.
    pub fn strategy(self) -> Strategy {
        let priority: Priority = match self {
            Order::Random { seed } => return Strategy::Random { seed },
            Order::DepthIndex => Rc::new(|c: &Candidate| -depth_index(c)),
            Order::Generational => Rc::new(|c: &Candidate| {
                (c.coverage.score as i64) << 32 | (u32::MAX as i64 - depth_index(c))
            }),
            Order::NewBranch => Rc::new(|c: &Candidate| {
                i64::from(c.coverage.new_branch) << 32 | (u32::MAX as i64 - depth_index(c))
            }),
        };
        Strategy::Priority(priority)
    }
}

/// The depth index, kept within 32 bits for the combined keys.
fn depth_index(c: &Candidate) -> i64 {
    c.forks.min(u32::MAX as usize) as i64
}

/// Entries in the order of a strategy, re-scored when they come out (a
/// branch is no longer new once a run has taken it).
pub struct Worklist<T> {
    frontier: Frontier<T>,
    added: usize,
}

impl<T> Worklist<T> {
    pub fn new(strategy: &Strategy) -> Worklist<T> {
        Worklist {
            frontier: Frontier::new(strategy),
            added: 0,
        }
    }

    /// Adds entries with what each knows now, in order.
    pub fn extend(&mut self, entries: Vec<(Candidate, T)>) {
        self.added += entries.len();
        self.frontier.extend(entries);
    }

    /// The entry of highest priority as `candidate` scores it now.
    pub fn pop(&mut self, candidate: &dyn Fn(&T) -> Candidate) -> Option<T> {
        self.frontier.pop_current(candidate)
    }

    /// What `n` pops would give, as `key` sees each entry, if nothing were
    /// added meanwhile; the entries stay, to be popped in that order.
    pub fn upcoming<K>(
        &mut self,
        n: usize,
        candidate: &dyn Fn(&T) -> Candidate,
        key: impl Fn(&T) -> K,
    ) -> Vec<K> {
        self.frontier.upcoming(n, candidate, key)
    }

    /// Entries waiting.
    pub fn len(&self) -> usize {
        self.frontier.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entries added so far.
    pub fn added(&self) -> usize {
        self.added
    }
}
