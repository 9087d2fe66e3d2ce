//! The JSON report of `explore --jobs N` written as the workers go: each
//! worker renders its paths on its own thread (terms are the thread's)
//! and sends them in blocks of about [`BLOCK_BYTES`] through its lane
//! ([`crate::explore::lanes`]), the last block of each stretch of the tree
//! it finishes ([`Segment`]) saying so; the writing thread takes the
//! blocks in depth-first order (by the slot of their stretch) and writes
//! each as it takes it, so the workers hold at most a lane each of the
//! report. What [`super::shards::merge`] does at the end, done block by
//! block: a node's number is its worker's number less the nodes the
//! worker made below earlier prefixes plus the nodes below all earlier
//! prefixes (the sizes of the stretches written before it).

use super::json::{opening, path_body, JsonDocument};
use super::shards::{write_rest, Collected, Merged, ShardReport};
use super::Header;
use crate::explore::lanes::{Lane, Lanes, Stuck};
use crate::explore::share::Segment;
use crate::explore::workers::{self, Worker};
use crate::explore::{Finished, Observer, Stats, Unexplored};
use crate::mutants::{self, Mutant};
use serde_json::Value;
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// The bytes of rendered paths a worker gathers before it sends them.
pub const BLOCK_BYTES: usize = 64 << 10;

/// Paths of one stretch of one worker's exploration, rendered.
pub struct Block {
    /// Its stretch's place in depth-first order ([`Segment::slot`]).
    pub slot: usize,
    /// Each path's node, numbered among the nodes above the split and
    /// below earlier prefixes, and the rest of its JSON ([`path_body`]).
    pub paths: Vec<(usize, String)>,
    /// On the stretch's last block: the nodes below its prefix (0 above the split).
    pub ends: Option<usize>,
}

/// What a worker sends the writing thread.
pub enum Piece {
    /// The report's opening (program, language, method).
    Opening(Value),
    Block(Block),
}

/// A worker's side: renders each path as it ends and sends them in
/// blocks; the frontier and counters are collected for the end
/// ([`Streamed::into_report`]).
pub struct Streamed<'a> {
    header: Header,
    /// Paths rendered and not yet sent, numbered as [`Block::paths`] says.
    paths: Vec<(usize, String)>,
    bytes: usize,
    /// The nodes this worker made below the prefixes it expanded and left.
    own_nodes: usize,
    /// The time it waited for room in its lane.
    waited: Duration,
    to_writer: Lane<'a, Piece>,
    rest: Collected,
}

impl<'a> Streamed<'a> {
    pub fn new(name: String, header: Header, to_writer: Lane<'a, Piece>) -> Streamed<'a> {
        // The writer takes the first opening a worker sends; a closed writer ends the exploration.
        let _ = to_writer.send(Piece::Opening(opening(&header)), 0);
        Streamed {
            rest: Collected::new(name, header.clone()),
            header,
            paths: Vec::new(),
            bytes: 0,
            own_nodes: 0,
            waited: Duration::ZERO,
            to_writer,
        }
    }

    /// The time the worker waited for the writer (its lane full).
    pub fn waited(&self) -> Duration {
        self.waited
    }

    /// The worker's report without its paths (they were sent): its
    /// frontier, counters and ledger, for the end of the merge.
    pub fn into_report(self) -> ShardReport {
        self.rest.into_report()
    }

    /// Sends the paths gathered, of the stretch at `slot`, and whether it ends.
    fn send(&mut self, slot: usize, ends: Option<usize>) -> io::Result<()> {
        let block = Block {
            slot,
            paths: std::mem::take(&mut self.paths),
            ends,
        };
        let bytes = std::mem::take(&mut self.bytes);
        self.waited += self
            .to_writer
            .send(Piece::Block(block), bytes)
            .map_err(|_| {
                io::Error::new(io::ErrorKind::BrokenPipe, "the report's writer stopped")
            })?;
        Ok(())
    }
}

impl Observer for Streamed<'_> {
    fn path(&mut self, mut path: Finished<'_>) -> io::Result<()> {
        // Its place is the block's.
        let slot = path.place.take().map_or(0, |place| place.slot());
        let body = path_body(&path, &self.header)?;
        self.bytes += body.len();
        self.paths.push((path.node.id - self.own_nodes, body));
        if self.bytes >= BLOCK_BYTES {
            self.send(slot, None)?;
        }
        Ok(())
    }

    fn segment(&mut self, segment: Segment) -> io::Result<()> {
        debug_assert_eq!(self.own_nodes, segment.own_nodes_before);
        self.send(segment.slot(), Some(segment.nodes))?;
        self.own_nodes += segment.nodes;
        Ok(())
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        self.rest.finish(unexplored, stats)
    }
}

/// The writing thread's side: the blocks in slot order, each written as
/// it is taken.
pub struct Reorder<W: Write> {
    document: Option<JsonDocument<W>>,
    out: Option<W>,
    /// The slot being written.
    next: usize,
    /// Nodes below the prefixes written so far.
    nodes_before: usize,
}

impl<W: Write> Reorder<W> {
    pub fn new(out: W) -> Reorder<W> {
        Reorder {
            document: None,
            out: Some(out),
            next: 0,
            nodes_before: 0,
        }
    }

    /// Whether `piece` can be written now: an opening, or a block of the
    /// slot being written once the report is open.
    pub fn wants(&self, piece: &Piece) -> bool {
        match piece {
            Piece::Opening(_) => true,
            Piece::Block(_) if mutants::active(Mutant::BlocksWrittenAsTheyFinish) => true,
            Piece::Block(block) => self.document.is_some() && block.slot == self.next,
        }
    }

    /// Writes a piece it [`Reorder::wants`].
    pub fn take(&mut self, piece: Piece) -> io::Result<()> {
        match piece {
            Piece::Opening(opening) => {
                if let Some(out) = self.out.take() {
                    self.document = Some(JsonDocument::new(out, opening));
                }
            }
            Piece::Block(block) => {
                let Some(document) = &mut self.document else {
                    return Ok(());
                };
                for (node, body) in &block.paths {
                    document.path(node + self.nodes_before, body)?;
                }
                if let Some(nodes) = block.ends {
                    self.nodes_before += nodes;
                    self.next += 1;
                }
            }
        }
        Ok(())
    }

    /// The workers are done: the frontier and counters of the workers'
    /// `reports` (sent without their paths) merged and written.
    pub fn finish(mut self, reports: Vec<ShardReport>) -> Result<Merged, String> {
        let merged = super::shards::merge(reports)?;
        if let Some(document) = &mut self.document {
            write_rest(&merged, document).map_err(|e| e.to_string())?;
        }
        Ok(merged)
    }
}

/// Why an exploration on workers gave no report.
#[derive(Debug)]
pub enum Failed<E> {
    /// Writing the report failed (its reader went away, a full disk).
    Output(io::Error),
    /// A worker's own error.
    Worker(E),
    /// A worker ended without a result, or their stretches do not add up.
    Internal(String),
}

/// What the workers of [`on_workers`] handed back.
pub struct Streaming<T> {
    /// Each worker's result, in worker order.
    pub done: Vec<T>,
    /// The report's frontier and counters, when a worker sent a report.
    pub merged: Option<Merged>,
    /// The writing thread's time spent writing (not waiting for blocks).
    pub writing: Duration,
}

/// Explores on `jobs` workers ([`workers::on_workers_in_lanes`]): `work` is each
/// worker's exploration, given its lane to this thread, which writes the
/// blocks into `out` in depth-first order as they become writable
/// ([`Reorder`]) and at the end the frontier and counters of the workers'
/// reports (`report` takes a worker's out of its result, if it made one).
pub fn on_workers<T: Send, E: Send, W: Write>(
    jobs: usize,
    out: W,
    work: impl Fn(Worker, Lane<'_, Piece>) -> Result<T, E> + Sync,
    report: impl Fn(&mut T) -> Option<ShardReport>,
) -> Result<Streaming<T>, Failed<E>> {
    let mut reorder = Reorder::new(out);
    let mut writing = Duration::ZERO;
    let write = |lanes: &Lanes<Piece>| -> Result<(), Failed<E>> {
        let misordered = || {
            Failed::Internal(
                "internal error: the workers' stretches of the tree do not follow each other"
                    .to_string(),
            )
        };
        while let Some(piece) = lanes
            .next(|piece| reorder.wants(piece))
            .map_err(|Stuck| misordered())?
        {
            let begun = Instant::now();
            reorder.take(piece).map_err(Failed::Output)?;
            writing += begun.elapsed();
        }
        if lanes.left() {
            return Err(misordered());
        }
        Ok(())
    };
    let (done, written) = workers::on_workers_in_lanes(jobs, work, write);
    if let Err(Failed::Output(error)) = written {
        return Err(Failed::Output(error));
    }
    let mut done = done
        .into_iter()
        .map(|result| {
            result
                .ok_or_else(|| {
                    Failed::Internal("internal error: a worker did not finish".to_string())
                })?
                .map_err(Failed::Worker)
        })
        .collect::<Result<Vec<T>, _>>()?;
    written?;
    let begun = Instant::now();
    let reports: Vec<_> = done.iter_mut().filter_map(report).collect();
    let merged = match reports.is_empty() {
        true => None,
        false => Some(reorder.finish(reports).map_err(Failed::Internal)?),
    };
    writing += begun.elapsed();
    Ok(Streaming {
        done,
        merged,
        writing,
    })
}
