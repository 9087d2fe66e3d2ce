//! The DOT view of an exploration, for Graphviz: the compact tree
//! ([`super::compact`], every fork and end, nothing folded) with short
//! labels — the test or statement at a fork, the path, its status and its
//! condition at an end, `true`/`false` on the edges — and the full
//! configuration of each box as its tooltip (`dot -Tsvg` keeps it), so a
//! tree of a thousand paths lays out in well under a second.

use super::compact::{compact, Box};
use super::layout::{box_lines, look, Look};
use crate::explore::Tree;
use std::fmt::Write;

pub fn tree_dot(tree: &Tree) -> String {
    let root = compact(tree, usize::MAX);
    let mut out = String::from(
        "digraph symex {\n  forcelabels=true;\n  node [shape=box, style=rounded, fontname=\"monospace\", fontsize=10];\n  edge [fontname=\"monospace\", fontsize=9, color=\"#666666\"];\n",
    );
    for b in root.all() {
        node(&mut out, tree, b);
        for child in &b.children {
            let label = child.edge.as_deref().unwrap_or_default();
            // An external label: a real one becomes a node of its own in
            // dot's layout, four times slower on a thousand paths.
            let _ = writeln!(
                out,
                "  n{} -> n{} [xlabel=\"{}\"];",
                b.node,
                child.node,
                escape(label)
            );
        }
    }
    out.push_str("}\n");
    out
}

fn node(out: &mut String, tree: &Tree, b: &Box) {
    let label = box_lines(b).join("\n");
    let configuration = tree.nodes[b.node]
        .configuration
        .as_deref()
        .unwrap_or_default();
    let tooltip = match (configuration, b.tooltip.as_str()) {
        ("", tooltip) => tooltip.to_string(),
        (configuration, "") => configuration.to_string(),
        (configuration, tooltip) => format!("{configuration}\n{tooltip}"),
    };
    let style = match look(&b.kind) {
        Look::Fork => "",
        Look::Terminated => ", style=\"rounded,filled\", fillcolor=\"#e8f5e9\", color=\"#2e7d32\"",
        Look::Error => ", style=\"rounded,filled\", fillcolor=\"#fdecea\", color=\"#c62828\"",
        Look::Cut => ", style=\"rounded,filled\", fillcolor=\"#fff3e0\", color=\"#ef6c00\"",
        Look::Folded | Look::Unexplored => ", style=\"rounded,dashed\"",
    };
    let _ = writeln!(
        out,
        "  n{} [label=\"{}\", tooltip=\"{}\"{style}];",
        b.node,
        escape(&label),
        escape(&tooltip)
    );
}

/// A DOT string literal's contents: quotes and backslashes escaped, line breaks as `\n`.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => escaped.push_str("\\\""),
            '\\' => escaped.push_str("\\\\"),
            '\n' => escaped.push_str("\\n"),
            _ => escaped.push(c),
        }
    }
    escaped
}
