//! Search strategies: the order in which the frontier of the tree is expanded.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::fmt;
use std::rc::Rc;
use symex_semantics::system::Rule;

/// What a custom priority sees of a path waiting in a worklist: a
/// configuration waiting to be expanded (the explorer), or a branch of a
/// concrete run waiting to be negated (concolic search, `src/concolic/`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Candidate {
    /// The explorer's node, or the concolic worklist entry.
    pub node: usize,
    /// Transitions from the initial configuration: the path's length.
    pub depth: usize,
    /// Forks (configurations with more than one successor) the path has
    /// passed, the one its last step chose at included: the depth index
    /// of that branch in the tree (ICSOFT 2023, and Godefroid et al.'s
    /// generational search, promote branches near the root).
    pub forks: usize,
    /// The rule that produced the configuration (the negated branch's, in
    /// concolic search).
    pub rule: Option<Rule>,
    /// What the path promises for coverage. Concolic search tracks
    /// coverage; the explorer does not, and leaves this empty.
    pub coverage: Promise,
}

/// What a path in a worklist promises for coverage (concolic search).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Promise {
    /// Its last step takes a branch no run has taken yet.
    pub new_branch: bool,
    /// Branches first covered by the run it comes from (SAGE's score of
    /// a generation, Godefroid et al. 2008).
    pub score: usize,
}

/// A priority for [`Strategy::Priority`]: higher is expanded first; ties go
/// to the configuration found first.
pub type Priority = Rc<dyn Fn(&Candidate) -> i64>;

/// How to pick the next configuration to expand.
#[derive(Clone)]
pub enum Strategy {
    /// Depth first, the `then` branch before the `else` branch (the
    /// default). Like every strategy it orders configurations to expand: a
    /// path that ends where it arrives is reported at once.
    Dfs,
    /// Breadth first.
    Bfs,
    /// Uniformly among the frontier, from a seeded generator.
    Random { seed: u64 },
    /// Shallowest first.
    Depth,
    /// A caller's priority.
    Priority(Priority),
}

impl fmt::Debug for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Dfs => f.write_str("Dfs"),
            Strategy::Bfs => f.write_str("Bfs"),
            Strategy::Random { seed } => write!(f, "Random {{ seed: {seed} }}"),
            Strategy::Depth => f.write_str("Depth"),
            Strategy::Priority(_) => f.write_str("Priority(..)"),
        }
    }
}

/// The configurations waiting to be expanded, in the strategy's order.
pub(crate) enum Frontier<T> {
    Stack(Vec<T>),
    Queue(VecDeque<T>),
    Random(Vec<T>, Box<StdRng>),
    Heap(BinaryHeap<Ranked<T>>, Priority, u64),
}

/// A heap entry: priority, then first-come first-served.
pub(crate) struct Ranked<T> {
    key: (i64, Reverse<u64>),
    item: T,
}

/// What [`Frontier::pop_current`] asks of an item: its candidate now.
pub(crate) type Rescore<'a, T> = &'a dyn Fn(&T) -> Candidate;

impl<T> PartialEq for Ranked<T> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl<T> Eq for Ranked<T> {}

impl<T> PartialOrd for Ranked<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Ranked<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

impl<T> Frontier<T> {
    pub(crate) fn new(strategy: &Strategy) -> Frontier<T> {
        match strategy {
            Strategy::Dfs => Frontier::Stack(Vec::new()),
            Strategy::Bfs => Frontier::Queue(VecDeque::new()),
            Strategy::Random { seed } => {
                Frontier::Random(Vec::new(), Box::new(StdRng::seed_from_u64(*seed)))
            }
            Strategy::Depth => {
                let shallowest: Priority = Rc::new(|c: &Candidate| -(c.depth as i64));
                Frontier::Heap(BinaryHeap::new(), shallowest, 0)
            }
            Strategy::Priority(priority) => Frontier::Heap(BinaryHeap::new(), priority.clone(), 0),
        }
    }

    /// Adds the successors of one configuration, in rule order: the first
    /// one is expanded first wherever the strategy leaves a choice.
    pub(crate) fn extend(&mut self, items: Vec<(Candidate, T)>) {
        match self {
            Frontier::Stack(stack) => stack.extend(items.into_iter().rev().map(|(_, item)| item)),
            Frontier::Queue(queue) => queue.extend(items.into_iter().map(|(_, item)| item)),
            Frontier::Random(pool, _) => pool.extend(items.into_iter().map(|(_, item)| item)),
            Frontier::Heap(heap, priority, counter) => {
                for (candidate, item) in items {
                    *counter += 1;
                    heap.push(Ranked {
                        key: (priority(&candidate), Reverse(*counter)),
                        item,
                    });
                }
            }
        }
    }

    pub(crate) fn pop(&mut self) -> Option<T> {
        match self {
            Frontier::Stack(stack) => stack.pop(),
            Frontier::Queue(queue) => queue.pop_front(),
            Frontier::Random(pool, rng) => {
                if pool.is_empty() {
                    None
                } else {
                    let index = rng.gen_range(0..pool.len());
                    Some(pool.swap_remove(index))
                }
            }
            Frontier::Heap(heap, ..) => heap.pop().map(|ranked| ranked.item),
        }
    }

    /// The next item by priorities that may have fallen since items were
    /// added (a branch no longer new once another run covers it): the top
    /// item is re-scored by `rescore` and put back with its new priority
    /// while that is lower than it was, keeping its place among equals.
    /// Priorities that only fall make this pop what a heap re-sorted on
    /// every change would.
    pub(crate) fn pop_current(&mut self, rescore: Rescore<'_, T>) -> Option<T> {
        let Frontier::Heap(heap, priority, _) = self else {
            return self.pop();
        };
        pop_ranked(heap, priority, rescore).map(|ranked| ranked.item)
    }

    /// What `n` calls of [`Frontier::pop_current`] would give, as `key`
    /// sees it, if nothing were added meanwhile; the items stay, and the
    /// pops to come give the same items as they would have (a heap item
    /// keeps the priority it was re-scored to, which only lowers it to
    /// its current one). For work done on items ahead of their turn.
    pub(crate) fn upcoming<K>(
        &mut self,
        n: usize,
        rescore: Rescore<'_, T>,
        key: impl Fn(&T) -> K,
    ) -> Vec<K> {
        match self {
            Frontier::Stack(stack) => stack.iter().rev().take(n).map(key).collect(),
            Frontier::Queue(queue) => queue.iter().take(n).map(key).collect(),
            Frontier::Random(pool, rng) => {
                // The pops' draws and swaps, on a copy of the generator and
                // with the swapped positions noted instead of made.
                let mut rng = rng.clone();
                let mut swapped = std::collections::HashMap::new();
                let mut keys = Vec::new();
                for len in (1..=pool.len()).rev().take(n) {
                    let at = |i: usize| *swapped.get(&i).unwrap_or(&i);
                    let index = rng.gen_range(0..len);
                    keys.push(key(&pool[at(index)]));
                    let last = at(len - 1);
                    swapped.insert(index, last);
                }
                keys
            }
            Frontier::Heap(heap, priority, _) => {
                let ahead: Vec<Ranked<T>> =
                    std::iter::from_fn(|| pop_ranked(heap, priority, rescore))
                        .take(n)
                        .collect();
                let keys = ahead.iter().map(|ranked| key(&ranked.item)).collect();
                heap.extend(ahead);
                keys
            }
        }
    }

    /// How many items wait.
    pub(crate) fn len(&self) -> usize {
        match self {
            Frontier::Stack(items) | Frontier::Random(items, _) => items.len(),
            Frontier::Queue(queue) => queue.len(),
            Frontier::Heap(heap, ..) => heap.len(),
        }
    }
}

/// The top item of `heap` by its priority now ([`Frontier::pop_current`]).
fn pop_ranked<T>(
    heap: &mut BinaryHeap<Ranked<T>>,
    priority: &Priority,
    rescore: Rescore<'_, T>,
) -> Option<Ranked<T>> {
    loop {
        let mut top = heap.pop()?;
        let now = priority(&rescore(&top.item));
        if now >= top.key.0 {
            return Some(top);
        }
        top.key.0 = now;
        heap.push(top);
    }
}
