//! The JSON report of `explore --jobs N` written as the workers go: each
//! worker renders its paths on its own thread (terms are the thread's)
//! and hands over each stretch of the tree it has finished
//! ([`Segment`]) as a [`Block`]; the writing thread writes the blocks in
//! depth-first order (by their slot) as soon as every earlier block is
//! written, so it holds only the blocks that finished before an earlier
//! one, not the whole report. What [`super::shards::merge`] does at the
//! end, done block by block: a node's number is its worker's number less
//! the nodes the worker made below earlier prefixes
//! ([`Segment::own_nodes_before`]) plus the nodes below all earlier
//! prefixes (the sizes of the blocks written before it).

use super::json::{opening, path_body, JsonDocument};
use super::shards::{write_rest, Collected, Merged, ShardReport};
use super::Header;
use crate::explore::share::Segment;
use crate::explore::{Finished, Observer, Stats, Unexplored};
use crate::mutants::{self, Mutant};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::mpsc::Sender;

/// A finished stretch of one worker's exploration, its paths rendered.
pub struct Block {
    /// Its place in depth-first order ([`Segment::slot`]).
    pub slot: usize,
    /// Each path's node, numbered among the nodes above the split and
    /// below earlier prefixes, and the rest of its JSON ([`path_body`]).
    pub paths: Vec<(usize, String)>,
    /// The nodes below its prefix (0 above the split).
    pub nodes: usize,
}

/// What a worker sends the writing thread.
pub enum Piece {
    /// The report's opening (program, language, method).
    Opening(Value),
    Block(Block),
}

/// A worker's side: renders each path as it ends and sends the block of
/// each finished stretch; the frontier and counters are collected for
/// the end ([`Streamed::into_report`]).
pub struct Streamed {
    header: Header,
    /// The paths of the stretch under way: their nodes as the worker numbers them.
    paths: Vec<(usize, String)>,
    to_writer: Sender<Piece>,
    rest: Collected,
}

impl Streamed {
    pub fn new(name: String, header: Header, to_writer: Sender<Piece>) -> Streamed {
        // The writer takes the first opening a worker sends; a closed writer ends the exploration.
        let _ = to_writer.send(Piece::Opening(opening(&header)));
        Streamed {
            rest: Collected::new(name, header.clone()),
            header,
            paths: Vec::new(),
            to_writer,
        }
    }

    /// The worker's report without its paths (they were sent): its
    /// frontier, counters and ledger, for the end of the merge.
    pub fn into_report(self) -> ShardReport {
        self.rest.into_report()
    }
}

impl Observer for Streamed {
    fn path(&mut self, mut path: Finished<'_>) -> io::Result<()> {
        // Its place is the block's.
        path.place = None;
        let body = path_body(&path, &self.header)?;
        self.paths.push((path.node.id, body));
        Ok(())
    }

    fn segment(&mut self, segment: Segment) -> io::Result<()> {
        let paths = std::mem::take(&mut self.paths)
            .into_iter()
            .map(|(node, body)| (node - segment.own_nodes_before, body))
            .collect();
        let block = Block {
            slot: segment.slot(),
            paths,
            nodes: segment.nodes,
        };
        self.to_writer
            .send(Piece::Block(block))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the report's writer stopped"))
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        self.rest.finish(unexplored, stats)
    }
}

/// The writing thread's side: the blocks in slot order, each written as
/// soon as the blocks before it are.
pub struct Reorder<W: Write> {
    document: Option<JsonDocument<W>>,
    out: Option<W>,
    /// The next slot to write.
    next: usize,
    /// Blocks that finished before an earlier one.
    waiting: BTreeMap<usize, Block>,
    /// Nodes below the prefixes written so far.
    nodes_before: usize,
}

impl<W: Write> Reorder<W> {
    pub fn new(out: W) -> Reorder<W> {
        Reorder {
            document: None,
            out: Some(out),
            next: 0,
            waiting: BTreeMap::new(),
            nodes_before: 0,
        }
    }

    /// Takes a worker's piece, writing what it makes writable.
    pub fn take(&mut self, piece: Piece) -> io::Result<()> {
        match piece {
            Piece::Opening(opening) => {
                if let Some(out) = self.out.take() {
                    self.document = Some(JsonDocument::new(out, opening));
                }
            }
            Piece::Block(block) if mutants::active(Mutant::BlocksWrittenAsTheyFinish) => {
                return self.write(block);
            }
            Piece::Block(block) => {
                self.waiting.insert(block.slot, block);
            }
        }
        while self.document.is_some() {
            let Some(block) = self.waiting.remove(&self.next) else {
                break;
            };
            self.write(block)?;
            self.next += 1;
        }
        Ok(())
    }

    fn write(&mut self, block: Block) -> io::Result<()> {
        let Some(document) = &mut self.document else {
            return Ok(());
        };
        for (node, body) in &block.paths {
            document.path(node + self.nodes_before, body)?;
        }
        self.nodes_before += block.nodes;
        Ok(())
    }

    /// The workers are done: the blocks still waiting (after a slot no
    /// worker sent, which only a broken worker leaves) in slot order, then
    /// the frontier and counters of the workers' `reports` (sent without
    /// their paths) merged.
    pub fn finish(mut self, reports: Vec<ShardReport>) -> Result<Merged, String> {
        let waiting = std::mem::take(&mut self.waiting);
        for block in waiting.into_values() {
            self.write(block).map_err(|e| e.to_string())?;
        }
        let merged = super::shards::merge(reports)?;
        if let Some(document) = &mut self.document {
            write_rest(&merged, document).map_err(|e| e.to_string())?;
        }
        Ok(merged)
    }
}
