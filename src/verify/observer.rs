//! What the verifier keeps of an exploration: the paths that end in an
//! error or undecided, each with its label, its cut point, its leaf and
//! its rules; nothing of the paths that end well, so memory stays flat in
//! the number of paths (as `explore`'s streamed reports). It stops the
//! exploration at the first error unless every failure is wanted.

use super::encode::AT;
use crate::explore::{
    Finished, Leaf, Limit, Observer, Pruned, Route, Stats, Status, TraceEntry, Unexplored,
};
use std::io;
use symex_semantics::annotations::CHECK;
use symex_semantics::system::Rule;
use symex_semantics::term::{Name, Term, TermKind};

/// A path that ended in an error or whose end is undecided.
pub struct FailedPath {
    /// The path's number in the exploration.
    pub path: usize,
    pub leaf: Leaf,
    /// The label of the last assertion reached (the failing one when the
    /// path ends in `assertion-failed`).
    pub label: Option<usize>,
    /// The number of the last cut point passed, if any.
    pub cut_point: Option<usize>,
    pub rules: Vec<Rule>,
    /// Whether the path passes a join (state merging): a run then takes the
    /// rules of one of the paths joined, not `rules`.
    pub joined: bool,
    /// The path's length.
    pub depth: usize,
    pub trace: Vec<TraceEntry>,
}

impl FailedPath {
    /// What a run that replays the path must take.
    pub fn route(&self) -> Route {
        match self.joined {
            true => Route::Joined { depth: self.depth },
            false => Route::Rules(self.rules.clone()),
        }
    }
}

/// What a path's end means to the verifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// An error, or undecided at an assertion: kept ([`FailedPath`]).
    Failed,
    /// Cut by a bound or undecided outside an assertion.
    Incomplete,
    /// Cut by abstract subsumption.
    Abstracted,
    Fine,
}

impl Ending {
    pub fn of(path: &Finished<'_>) -> Ending {
        let ends_at_assertion = path
            .node
            .edge()
            .is_some_and(|edge| edge.rule == Rule::AssertFails);
        match &path.leaf.status {
            Status::Error(_) => Ending::Failed,
            Status::Unknown(_) if ends_at_assertion => Ending::Failed,
            Status::Bounded(_) | Status::Unknown(_) => Ending::Incomplete,
            Status::Abstracted(_) => Ending::Abstracted,
            Status::Terminated
            | Status::AssumptionViolated
            | Status::Infeasible
            | Status::Subsumed(_) => Ending::Fine,
        }
    }
}

/// Collects failed paths; ends the exploration at the first error unless `all`.
pub struct Collector {
    all: bool,
    pub failed: Vec<FailedPath>,
    /// Assertion checks found to hold on a path (`assert (fails)` infeasible).
    pub proved_checks: usize,
    /// Paths cut by a bound or left undecided outside an assertion.
    pub incomplete: usize,
    /// Paths cut by abstract subsumption (`--abstract`).
    pub abstracted: usize,
    pub stats: Stats,
    /// Configurations a limit left unexplored (not counting those left
    /// once the answer was known).
    pub unexplored: usize,
    /// The limit that left them (`--time-limit-ms`, Ctrl-C, …).
    pub limit: Option<Limit>,
    /// Whether the exploration stopped at its answer with paths left.
    pub stopped: bool,
}

impl Collector {
    pub fn new(all: bool) -> Collector {
        Collector {
            all,
            failed: Vec::new(),
            proved_checks: 0,
            incomplete: 0,
            abstracted: 0,
            stats: Stats::default(),
            unexplored: 0,
            limit: None,
            stopped: false,
        }
    }

    /// Whether every failed path is wanted.
    pub fn all(&self) -> bool {
        self.all
    }

    /// Whether some path ends in an error.
    fn has_error(&self) -> bool {
        self.failed
            .iter()
            .any(|failed| matches!(failed.leaf.status, Status::Error(_)))
    }
}

/// The literal value of ghost `x` in a path's final state.
pub fn ghost_value(state: &[(Name, Term)], x: &str) -> Option<usize> {
    let (_, value) = state.iter().find(|(y, _)| &**y == x)?;
    match value.kind() {
        TermKind::Int(n) => usize::try_from(n).ok().filter(|&n| n > 0),
        _ => None,
    }
}

impl Observer for Collector {
    fn pruned(&mut self, pruned: Pruned) -> io::Result<()> {
        if pruned.rule == Rule::AssertFails {
            self.proved_checks += 1;
        }
        Ok(())
    }

    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        let kept = match Ending::of(&path) {
            Ending::Failed => true,
            Ending::Incomplete => {
                self.incomplete += 1;
                false
            }
            Ending::Abstracted => {
                self.abstracted += 1;
                false
            }
            Ending::Fine => false,
        };
        if kept {
            let state = &path.leaf.state;
            self.failed.push(FailedPath {
                path: path.id,
                label: ghost_value(state, CHECK),
                cut_point: ghost_value(state, AT),
                rules: path.node.rules(),
                joined: path.node.ancestors().any(|node| node.join().is_some()),
                depth: path.node.depth,
                trace: path.node.trace().into_iter().cloned().collect(),
                leaf: path.leaf,
            });
        }
        Ok(())
    }

    fn answered(&self) -> bool {
        !self.all && self.has_error()
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        self.unexplored = unexplored
            .iter()
            .filter(|left| left.reason != Limit::Answered)
            .count();
        self.limit = unexplored
            .iter()
            .map(|left| left.reason)
            .find(|reason| *reason != Limit::Answered);
        self.stopped = unexplored.len() > self.unexplored;
        self.stats = stats.clone();
        Ok(())
    }
}
