//! Search strategies: the order in which the frontier of the tree is expanded.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::fmt;
use std::rc::Rc;
use symex_semantics::system::Rule;

/// What a custom priority sees of a configuration waiting to be expanded.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    pub node: usize,
    pub depth: usize,
    /// The rule that produced the configuration.
    pub rule: Option<Rule>,
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
}
