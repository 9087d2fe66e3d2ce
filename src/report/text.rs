//! The text view of an exploration: each path in the paper's notation,
//! written as soon as the path ends. Deterministic (no timings, no solver
//! counters), so it can be snapshotted.
//!
//! A path's trace repeats the trace of the path before it up to where the
//! two part; when that is more than `REPEATED_IN_FULL` (16) entries, the trace
//! names that path for them and prints only its own (`--full-traces`
//! prints every trace whole). Short traces read best whole, and with the
//! rule every path prints a bounded number of entries besides its own, so
//! the report grows with the tree, not with the paths times their length
//! (a loop unfolded k times would otherwise print k²/2 entries).

use super::Header;
use crate::explore::{Finished, Leaf, NodeId, Observer, PathNode, Stats, TraceEntry, Unexplored};
use std::io::{self, Write};
use symex_semantics::eval::ShowValuation;
use symex_semantics::valuation::in_natural_order;

/// Entries of the previous path's trace a trace repeats, at most, before it
/// names that path for them.
const REPEATED_IN_FULL: usize = 16;

/// Writes each path as it ends, then the counters and the frontier left.
pub struct TextReport<W: Write> {
    out: W,
    header: Header,
    full_traces: bool,
    last: LastPath,
}

/// The path reported last, node by node from the root: each node's id and
/// the number of trace entries from the root to it.
#[derive(Default)]
struct LastPath {
    id: usize,
    nodes: Vec<(NodeId, usize)>,
}

/// A path's trace as written: whole, or the first `entries` of path
/// `path`'s followed by its own.
enum Written<'a> {
    Whole(Vec<&'a TraceEntry>),
    After {
        path: usize,
        entries: usize,
        own: Vec<&'a TraceEntry>,
    },
}

impl<W: Write> TextReport<W> {
    /// A report that writes each trace whole when `full_traces`, else
    /// sharing long prefixes with the path before.
    pub fn new(out: W, header: Header, full_traces: bool) -> TextReport<W> {
        TextReport {
            out,
            header,
            full_traces,
            last: LastPath::default(),
        }
    }

    /// The trace of the path `id` ending at `node`, and the last path
    /// moved to it. Only the nodes below where it leaves the last path are
    /// visited, unless the trace is written whole.
    fn written<'n>(&mut self, id: usize, node: &'n PathNode) -> Written<'n> {
        if self.full_traces {
            return Written::Whole(node.trace());
        }
        let mut own_nodes = Vec::new();
        let mut parting = None;
        for ancestor in node.ancestors() {
            if let Some(&(on_last, entries)) = self.last.nodes.get(ancestor.depth) {
                if on_last == ancestor.id {
                    parting = Some((ancestor.depth, entries));
                    break;
                }
            }
            own_nodes.push(ancestor);
        }
        let (kept, shared) = parting.map_or((0, 0), |(depth, entries)| (depth + 1, entries));
        let last_path = std::mem::replace(&mut self.last.id, id);
        self.last.nodes.truncate(kept);
        let mut entries = shared;
        for ancestor in own_nodes.iter().rev() {
            entries += ancestor.edge().map_or(0, |edge| edge.trace.len());
            self.last.nodes.push((ancestor.id, entries));
        }
        if shared <= REPEATED_IN_FULL {
            return Written::Whole(node.trace());
        }
        Written::After {
            path: last_path,
            entries: shared,
            own: own_nodes
                .iter()
                .rev()
                .filter_map(|ancestor| ancestor.edge())
                .flat_map(|edge| &edge.trace)
                .collect(),
        }
    }
}

impl<W: Write> Observer for TextReport<W> {
    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        let trace = self.written(path.id, path.node);
        write_path(
            &mut self.out,
            &self.header,
            path.id,
            path.node.depth,
            &path.leaf,
            &trace,
        )
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        write_summary(&mut self.out, unexplored, stats)?;
        self.out.flush()
    }
}

fn write_path(
    out: &mut dyn Write,
    header: &Header,
    id: usize,
    steps: usize,
    leaf: &Leaf,
    trace: &Written<'_>,
) -> io::Result<()> {
    writeln!(
        out,
        "path {id}: {} after {steps} step{}",
        leaf.status,
        if steps == 1 { "" } else { "s" }
    )?;
    writeln!(out, "  φ = {}", leaf.path_condition)?;
    write!(out, "  σ = {{")?;
    let state = in_natural_order(leaf.state.iter().map(|(x, e)| (x, e)));
    for (i, (x, e)) in state.into_iter().enumerate() {
        write!(out, "{}{x} ↦ {e}", if i == 0 { "" } else { ", " })?;
    }
    writeln!(out, "}}")?;
    if let Some(heap) = &leaf.input_heap {
        writeln!(out, "  input heap: {heap}")?;
    }
    write!(out, "  trace: ")?;
    let entries = match trace {
        Written::Whole(entries) if entries.is_empty() => {
            write!(out, "ε")?;
            entries
        }
        Written::Whole(entries) => entries,
        Written::After { path, entries, own } => {
            write!(out, "path {path}'s first {entries} entries")?;
            if !own.is_empty() {
                write!(out, ", then ")?;
            }
            own
        }
    };
    for (i, entry) in entries.iter().enumerate() {
        write!(out, "{}{entry}", if i == 0 { "" } else { "; " })?;
    }
    writeln!(out)?;
    match &leaf.model {
        Some(model) => writeln!(out, "  model: {}", ShowValuation(&header.inputs_of(model))),
        None => writeln!(out, "  model: none"),
    }
}

fn write_summary(out: &mut dyn Write, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
    let pruned = stats.pruned;
    writeln!(
        out,
        "{}; {pruned} infeasible branch{} pruned",
        super::paths_summary(stats),
        if pruned == 1 { "" } else { "es" }
    )?;
    for u in unexplored {
        writeln!(
            out,
            "unexplored: node {} at depth {} ({})",
            u.node, u.depth, u.reason
        )?;
    }
    Ok(())
}
