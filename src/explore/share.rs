//! A deterministic share of the tree, for exploring it across processes or
//! machines (`explore --shard I/N`, merged by `symex merge`, [`crate::merge`]).
//!
//! Every shard explores the top of the tree the same way, depth first,
//! down to a split depth; the configurations still pending at that depth
//! (the *prefixes*) are numbered in the order depth-first search reaches
//! them, which is the order of their branch choices (the `then` branch
//! before the `else` branch); shard `I` of `N` expands the prefixes whose
//! number is `I` modulo `N`, and shard 0 also reports the paths that end
//! above the split. The split depth is the shallowest with at least
//! [`PREFIXES_PER_SHARD`]·N prefixes ([`PREFIXES_PER_WORKER`]·N for
//! workers), found by a breadth-first survey of the top of the tree, so
//! that every shard has work where the tree is that wide.
//!
//! Workers on one machine (`--jobs`, [`super::workers`]) share the
//! prefixes out as they go instead ([`Claims`]): each reaches the prefixes
//! in the same order and expands the next one no worker has taken, so a
//! worker that finishes a small subtree takes more while one in a large
//! subtree is busy, and none waits idle while prefixes remain.
//!
//! Each shard records where the prefixes fell among its own node and path
//! numbers ([`Ledger`], [`Place`]), so that the merge can give every path
//! and node the number the one-process exploration gives it: depth-first
//! search numbers a prefix's descendants in one block, so a node's number
//! is its shard's number plus the sizes of the subtrees other shards
//! expanded before it.

use super::engine::ExploreOptions;
use super::merge::Merge;
use super::node::PathNode;
use super::observer::{Finished, Observer};
use super::strategy::Strategy;
use super::tree::{NodeId, Stats, Unexplored};
use crate::mutants::{self, Mutant};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Prefixes the split aims to give each shard (so that one slow subtree
/// does not leave the other shards idle).
pub const PREFIXES_PER_SHARD: usize = 8;

/// Prefixes the split aims to give each worker on one machine: more than
/// a shard, because a worker that finishes a prefix before the one being
/// written holds its report until then ([`super::lanes`] bounds how much),
/// so subtrees must be small for neither to wait.
pub const PREFIXES_PER_WORKER: usize = 256;

/// The prefixes the split of `shard` aims for: per shard, or per worker
/// when the workers of one process take them as they go.
pub(crate) fn prefixes_wanted(shard: Shard, workers: bool) -> usize {
    let per_shard = if workers {
        PREFIXES_PER_WORKER
    } else {
        PREFIXES_PER_SHARD
    };
    per_shard * shard.count
}

/// Shard `index` of `count` (`--shard I/N`, counted from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let expected = || format!("expected I/N with 0 <= I < N (e.g. 0/4), found `{text}`");
        let (index, count) = text.split_once('/').ok_or_else(expected)?;
        let index: usize = index.trim().parse().map_err(|_| expected())?;
        let count: usize = count.trim().parse().map_err(|_| expected())?;
        if index >= count {
            return Err(expected());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The prefixes the workers of one exploration have taken, shared by
/// them: a worker reaching prefix `p` takes it unless another worker has.
/// Every worker tries every prefix it passes, in the same order, so the
/// prefixes taken are always the first ones: one counter is the record.
/// The workers share the split depth too: the first that needs it
/// surveys the tree, the others wait for its answer instead of surveying
/// the same tree again (the survey walks as much of the tree as the top
/// above the split, and on a busy machine a second survey is that much
/// processor time taken from the exploration).
#[derive(Debug, Default)]
pub struct Claims {
    taken: AtomicUsize,
    split_depth: Mutex<Option<usize>>,
}

impl Claims {
    /// Claims whose first `taken` prefixes are taken already: a worker
    /// given them expands prefix `taken` and those after it, none before.
    pub fn after(taken: usize) -> Claims {
        Claims {
            taken: AtomicUsize::new(taken),
            split_depth: Mutex::default(),
        }
    }

    /// The split depth of the workers' exploration: `survey`'s answer,
    /// surveyed by the first worker that asks (the others wait for it).
    pub(crate) fn split_depth(
        &self,
        survey: impl FnOnce() -> io::Result<usize>,
    ) -> io::Result<usize> {
        let mut split_depth = self
            .split_depth
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(depth) = *split_depth {
            return Ok(depth);
        }
        let depth = survey()?;
        *split_depth = Some(depth);
        Ok(depth)
    }

    /// Whether the calling worker takes `prefix` (no other worker has).
    fn take(&self, prefix: usize) -> bool {
        self.taken
            .compare_exchange(prefix, prefix + 1, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }
}

/// Where a shard's path was found, for the merge to put it in the
/// one-process order: after `after` prefixes were reached, in the subtree
/// of the last of them or, when `top`, above the split (depth-first search
/// finishes a prefix's subtree before it goes on above the split).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    pub after: usize,
    pub top: bool,
}

impl Place {
    /// The number of its stretch in depth-first order: above the split
    /// after `k` prefixes is `2k`, prefix `k`'s subtree `2k + 1`.
    pub fn slot(&self) -> usize {
        2 * self.after - usize::from(!self.top)
    }
}

/// A stretch of a worker's exploration that is over, so that its paths
/// can be written before the other workers finish: the paths above the
/// split between two prefixes (every worker walks them, shard 0 reports
/// them) or one prefix's subtree (its owner reports it). Shard 0 ends one
/// stretch above the split between every two prefixes, empty when
/// depth-first search went from one prefix straight to the next, so the
/// stretches of all workers together number `0, 1, 2, …` ([`Segment::slot`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Where its paths were found (as [`Place`] says).
    pub place: Place,
    /// The nodes this worker made below the prefixes it expanded before
    /// the stretch began: a node's number less these is its number among
    /// the nodes above the split and in the subtrees of earlier prefixes.
    pub own_nodes_before: usize,
    /// For a prefix's subtree, its nodes.
    pub nodes: usize,
}

impl Segment {
    /// The stretch's number in depth-first order ([`Place::slot`]).
    pub fn slot(&self) -> usize {
        self.place.slot()
    }
}

/// What a shard tells the merge besides its paths.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    pub shard: Option<Shard>,
    pub split_depth: usize,
    /// The prefixes every shard reached.
    pub prefixes: usize,
    /// The shard's next node number when it reached each prefix, in order.
    pub reached_at: Vec<NodeId>,
    /// The nodes below each prefix the shard expanded: `(prefix, nodes)`.
    pub subtrees: Vec<(usize, usize)>,
}

/// Whose events the explorer is reporting now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Region {
    Top,
    Prefix { owned: bool },
}

/// The explorer's side of a shard: which prefixes it expands, and the ledger.
#[derive(Debug)]
pub(crate) struct Sharing {
    shard: Shard,
    /// Prefixes taken as the workers reach them; without, by number.
    claims: Option<Arc<Claims>>,
    /// Prefixes this shard has owned so far.
    owned: usize,
    region: Region,
    ledger: Ledger,
    /// Nodes below the prefixes this shard owned and has left.
    own_nodes: usize,
    /// Stretches ended and not yet handed to the observer.
    ended: Vec<Segment>,
}

impl Sharing {
    pub(crate) fn new(shard: Shard, claims: Option<Arc<Claims>>, split_depth: usize) -> Sharing {
        Sharing {
            shard,
            claims,
            owned: 0,
            region: Region::Top,
            ledger: Ledger {
                shard: Some(shard),
                split_depth,
                ..Ledger::default()
            },
            own_nodes: 0,
            ended: Vec::new(),
        }
    }

    /// A configuration at `depth` is about to be expanded, the shard's next
    /// node number being `next_id`: whether this shard expands it.
    pub(crate) fn expands(&mut self, depth: usize, next_id: NodeId) -> bool {
        let split = self.ledger.split_depth;
        if depth < split {
            if self.region != Region::Top {
                self.end_segment();
                self.region = Region::Top;
            }
        } else if depth == split {
            self.end_segment();
            if self.region != Region::Top {
                // Straight from one prefix to the next: an empty stretch above the split.
                self.region = Region::Top;
                self.end_segment();
            }
            let prefix = self.ledger.prefixes;
            let owned = match &self.claims {
                Some(claims) => claims.take(prefix),
                None => prefix % self.shard.count == self.shard.index,
            };
            let first = owned && self.owned == 0;
            self.owned += usize::from(owned);
            let owned = owned && !(first && mutants::active(Mutant::ShardSkipsItsFirstPrefix));
            self.ledger.prefixes += 1;
            self.ledger.reached_at.push(next_id);
            if owned {
                self.ledger.subtrees.push((prefix, 0));
            }
            self.region = Region::Prefix { owned };
        }
        self.region != Region::Prefix { owned: false }
    }

    /// A node was made at `depth`: counted in its prefix's subtree if below the split.
    pub(crate) fn made(&mut self, depth: usize) {
        if depth > self.ledger.split_depth {
            if let Some((_, nodes)) = self.ledger.subtrees.last_mut() {
                *nodes += 1;
            }
        }
    }

    /// Whether an event of the expansion under way (a path ending, a
    /// branch pruned) is this shard's to report: above the split shard 0
    /// reports it, below it the prefix's owner. (A path that ends as it
    /// arrives at the split depth ends above it; a prefix whose
    /// configuration has no step ends in its own subtree.)
    pub(crate) fn reports(&self) -> bool {
        match self.region {
            Region::Top => self.shard.index == 0,
            Region::Prefix { owned } => owned,
        }
    }

    /// The place of a path the shard reports now.
    pub(crate) fn place(&self) -> Place {
        Place {
            after: self.ledger.prefixes,
            top: self.region == Region::Top,
        }
    }

    /// Ends the stretch under way, noting it if this shard reports it.
    fn end_segment(&mut self) {
        if !self.reports() {
            return;
        }
        let nodes = match self.region {
            Region::Prefix { owned: true } => self.ledger.subtrees.last().map_or(0, |&(_, n)| n),
            _ => 0,
        };
        self.ended.push(Segment {
            place: self.place(),
            own_nodes_before: self.own_nodes,
            nodes,
        });
        self.own_nodes += nodes;
    }

    /// The exploration is over: ends the last stretch, and after a
    /// prefix's subtree the empty stretch above the split that follows it.
    pub(crate) fn end(&mut self) {
        self.end_segment();
        if self.region != Region::Top {
            self.region = Region::Top;
            self.end_segment();
        }
    }

    /// The stretches ended since the last call.
    pub(crate) fn take_ended(&mut self) -> Vec<Segment> {
        std::mem::take(&mut self.ended)
    }

    pub(crate) fn into_ledger(self) -> Ledger {
        self.ledger
    }
}

/// The split depth, from the pending configurations per depth the survey
/// counted: the shallowest depth with the `wanted` prefixes
/// ([`prefixes_wanted`]), else the one with the most.
pub(crate) fn split_depth(pending: &[usize], wanted: usize) -> usize {
    pending
        .iter()
        .position(|&n| n >= wanted)
        .or_else(|| {
            let most = pending.iter().copied().max()?;
            pending.iter().position(|&n| n == most)
        })
        .unwrap_or(0)
}

/// The breadth-first survey of the top of the tree: nodes made and paths
/// ended per depth, until a depth has enough configurations pending.
pub(crate) struct Survey {
    wanted: usize,
    made: Vec<usize>,
    ended: Vec<usize>,
    done: bool,
}

impl Survey {
    pub(crate) fn new(wanted: usize) -> Survey {
        Survey {
            wanted,
            made: Vec::new(),
            ended: Vec::new(),
            done: false,
        }
    }

    /// Configurations pending at each depth surveyed.
    pub(crate) fn pending(&self) -> Vec<usize> {
        let ended = |depth: usize| self.ended.get(depth).copied().unwrap_or(0);
        let mut pending: Vec<usize> = (0..self.made.len())
            .map(|depth| self.made[depth].saturating_sub(ended(depth)))
            .collect();
        // The deepest depth's nodes were not all made when the survey stopped.
        if self.done {
            pending.pop();
        }
        pending
    }
}

fn bump(counts: &mut Vec<usize>, depth: usize) {
    if counts.len() <= depth {
        counts.resize(depth + 1, 0);
    }
    counts[depth] += 1;
}

impl Observer for Survey {
    fn node(&mut self, node: &PathNode) -> io::Result<()> {
        bump(&mut self.made, node.depth);
        // Breadth first: the first node of a depth means the one above is complete.
        if node.depth > 0 && self.made[node.depth] == 1 {
            let above = node.depth - 1;
            let ended = self.ended.get(above).copied().unwrap_or(0);
            self.done = self.made[above].saturating_sub(ended) >= self.wanted;
        }
        Ok(())
    }

    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        bump(&mut self.ended, path.node.depth);
        Ok(())
    }

    fn reads_ancestors(&self) -> bool {
        false
    }

    fn answered(&self) -> bool {
        self.done
    }

    fn finish(&mut self, _unexplored: &[Unexplored], _stats: &Stats) -> io::Result<()> {
        Ok(())
    }
}

/// The option that keeps an exploration from being split into shards, if
/// any: the merge rebuilds the numbering of depth-first search, and every
/// shard must find the same paths above the split and nothing that
/// depends on another shard's paths.
pub fn conflict(options: &ExploreOptions) -> Option<&'static str> {
    if !matches!(options.strategy, Strategy::Dfs) {
        Some("--shard explores depth first (the order the merged report numbers paths in): drop --strategy")
    } else if options.merge != Merge::Off {
        Some("--shard cannot join configurations from different shards: drop --merge")
    } else if options.subsumption.is_some() {
        Some("--shard cannot subsume states stored by other shards: drop --subsume")
    } else if options.bounds.max_paths.is_some() {
        Some("--shard: which paths --max-paths keeps depends on the other shards; use --time-limit-ms")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workers_survey_once_and_share_the_split_depth() {
        let claims = Claims::default();
        let surveys = AtomicUsize::new(0);
        let survey = || {
            surveys.fetch_add(1, Ordering::Relaxed);
            Ok(7)
        };
        let depths: Vec<usize> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| claims.split_depth(survey).unwrap()))
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        assert_eq!(depths, vec![7; 4]);
        assert_eq!(surveys.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn a_survey_that_fails_is_tried_again_by_the_next_worker() {
        let claims = Claims::default();
        let failed = claims.split_depth(|| Err(io::Error::other("interrupted")));
        assert!(failed.is_err());
        assert_eq!(claims.split_depth(|| Ok(3)).unwrap(), 3);
    }
}
