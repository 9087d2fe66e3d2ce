//! The text view of an exploration: each path in the paper's notation,
//! written as soon as the path ends. Deterministic (no timings, no solver
//! counters), so it can be snapshotted.

use super::Header;
use crate::explore::{Finished, Leaf, Observer, Stats, TraceEntry, Tree, Unexplored};
use std::io::{self, Write};
use symex_semantics::eval::ShowValuation;

/// Writes each path as it ends, then the counters and the frontier left.
pub struct TextReport<W: Write> {
    out: W,
    header: Header,
}

impl<W: Write> TextReport<W> {
    pub fn new(out: W, header: Header) -> TextReport<W> {
        TextReport { out, header }
    }
}

impl<W: Write> Observer for TextReport<W> {
    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        write_path(
            &mut self.out,
            &self.header,
            path.id,
            path.node.depth,
            &path.leaf,
            &path.node.trace(),
        )
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        write_summary(&mut self.out, unexplored, stats)?;
        self.out.flush()
    }
}

/// The whole tree as text, as [`TextReport`] writes it during the exploration.
pub fn tree_text(tree: &Tree, header: &Header) -> String {
    let mut out = Vec::new();
    for (id, &node) in tree.paths.iter().enumerate() {
        if let Some(leaf) = tree.leaf(node) {
            let _ = write_path(
                &mut out,
                header,
                id,
                tree.nodes[node].depth,
                leaf,
                &tree.trace_to(node),
            );
        }
    }
    let _ = write_summary(&mut out, &tree.unexplored, &tree.stats);
    String::from_utf8_lossy(&out).into_owned()
}

fn write_path(
    out: &mut dyn Write,
    header: &Header,
    id: usize,
    steps: usize,
    leaf: &Leaf,
    trace: &[&TraceEntry],
) -> io::Result<()> {
    writeln!(
        out,
        "path {id}: {} after {steps} step{}",
        leaf.status,
        if steps == 1 { "" } else { "s" }
    )?;
    writeln!(out, "  φ = {}", leaf.path_condition)?;
    write!(out, "  σ = {{")?;
    for (i, (x, e)) in leaf.state.iter().enumerate() {
        write!(out, "{}{x} ↦ {e}", if i == 0 { "" } else { ", " })?;
    }
    writeln!(out, "}}")?;
    write!(out, "  trace: ")?;
    if trace.is_empty() {
        write!(out, "ε")?;
    }
    for (i, entry) in trace.iter().enumerate() {
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
