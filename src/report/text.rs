//! The text view of an exploration: each path in the paper's notation.
//! Deterministic (no timings, no solver counters), so it can be snapshotted.

use super::Header;
use crate::explore::Tree;
use std::fmt::Write;
use symex_semantics::eval::ShowValuation;

pub fn tree_text(tree: &Tree, header: &Header) -> String {
    let mut out = String::new();
    for (id, &node) in tree.paths.iter().enumerate() {
        let Some(leaf) = tree.leaf(node) else { continue };
        let steps = tree.nodes[node].depth;
        let _ = writeln!(out, "path {id}: {} after {steps} step{}", leaf.status, if steps == 1 { "" } else { "s" });
        let _ = writeln!(out, "  φ = {}", leaf.path_condition);
        let state: Vec<String> = leaf.state.iter().map(|(x, e)| format!("{x} ↦ {e}")).collect();
        let _ = writeln!(out, "  σ = {{{}}}", state.join(", "));
        let trace: Vec<String> = tree.trace_to(node).iter().map(|entry| entry.to_string()).collect();
        let _ = writeln!(out, "  trace: {}", if trace.is_empty() { "ε".to_string() } else { trace.join("; ") });
        match &leaf.model {
            Some(model) => {
                let _ = writeln!(out, "  model: {}", ShowValuation(&header.inputs_of(model)));
            }
            None => {
                let _ = writeln!(out, "  model: none");
            }
        }
    }
    let pruned = tree.stats.pruned;
    let _ = writeln!(out, "{}; {pruned} infeasible branch{} pruned", super::paths_summary(&tree.stats), if pruned == 1 { "" } else { "es" });
    for unexplored in &tree.unexplored {
        let _ = writeln!(out, "unexplored: node {} at depth {} ({})", unexplored.node, tree.nodes[unexplored.node].depth, unexplored.reason);
    }
    out
}
