//! One method's exploration of one program, as `compare` needs it: every
//! path's key (its branch choices and outcome), its raw path condition, and
//! the time the explorer (and its Z3) spent reaching it.

use crate::explore::{
    Finished, Limit, NodeId, Observer, PathNode, Pruned, Stats, Status, Unexplored,
};
use std::collections::HashMap;
use std::io;
use std::time::{Duration, Instant};
use symex_semantics::system::Rule;
use symex_semantics::term::Term;

/// A path as one method found it.
pub struct Collected {
    /// The branch choices taken, then the outcome: the same for both methods
    /// on the same path, whatever steps each takes in between.
    pub key: String,
    pub status: String,
    /// The path condition as the method's rules build it (not simplified).
    pub condition: Term,
    /// Exploration time since the previous path ended (depth first: the
    /// work this path added, feasibility checks included).
    pub build: Duration,
    /// Of which in Z3 (the exploration's feasibility checks, incremental).
    pub solver: Duration,
    /// Whether Z3 could decide the path (`Unknown` paths are kept, undecided).
    pub decided: bool,
}

/// Records the paths of an exploration run with `simplify: false`.
pub struct PathCollector {
    pub paths: Vec<Collected>,
    pub stats: Stats,
    /// The limit that cut the exploration short, if one did.
    pub stopped: Option<Limit>,
    since: Instant,
    /// The exploration's Z3 time when the previous path ended.
    solver_since: Duration,
    /// The number of successors (kept or pruned) of each expanded node.
    successors: HashMap<NodeId, usize>,
}

impl Default for PathCollector {
    fn default() -> PathCollector {
        PathCollector {
            paths: Vec::new(),
            stats: Stats::default(),
            stopped: None,
            since: Instant::now(),
            solver_since: Duration::ZERO,
            successors: HashMap::new(),
        }
    }
}

/// The letter of a step taken where there was a choice: `T` and `F` for
/// the two sides of a test, `!` for an error, `.` for carrying on past a
/// possible error (an assignment that could dereference `nil`).
fn choice(rule: Rule) -> char {
    match rule {
        Rule::ChoiceThen | Rule::IterationEnter | Rule::AssertHolds => 'T',
        Rule::ChoiceElse | Rule::IterationExit | Rule::AssertFails => 'F',
        Rule::ArrayOutOfBound | Rule::NilDereference | Rule::AssumptionViolated => '!',
        _ => '.',
    }
}

impl PathCollector {
    /// The letters of the steps to `end` taken from a node with more than
    /// one successor: the steps where a path chooses, which both methods
    /// take in the same order, however many other steps each takes.
    fn choices(&self, end: &PathNode) -> String {
        let mut letters: Vec<char> = end
            .ancestors()
            .filter_map(|node| Some((node.parent_id?, node.edge()?.rule)))
            .filter(|(parent, _)| self.successors.get(parent).copied().unwrap_or(0) > 1)
            .map(|(_, rule)| choice(rule))
            .collect();
        letters.reverse();
        letters.into_iter().collect()
    }
}

impl Observer for PathCollector {
    fn node(&mut self, node: &PathNode) -> io::Result<()> {
        if let Some(parent) = node.parent_id {
            *self.successors.entry(parent).or_default() += 1;
        }
        Ok(())
    }

    fn pruned(&mut self, pruned: Pruned) -> io::Result<()> {
        *self.successors.entry(pruned.parent).or_default() += 1;
        Ok(())
    }

    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        let choices = self.choices(path.node);
        let status = path.leaf.status.to_string();
        let decided = !matches!(path.leaf.status, Status::Unknown(_));
        self.paths.push(Collected {
            key: format!(
                "{} {status}",
                if choices.is_empty() { "-" } else { &choices }
            ),
            status,
            condition: path.leaf.path_condition,
            build: self.since.elapsed(),
            solver: path.solver_time.saturating_sub(self.solver_since),
            decided,
        });
        self.since = Instant::now();
        self.solver_since = path.solver_time;
        Ok(())
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        self.stats = stats.clone();
        self.stopped = unexplored.first().map(|u| u.reason);
        Ok(())
    }
}
