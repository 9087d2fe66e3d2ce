//! The DOT view of an exploration: nodes are configurations, edges are
//! labelled with the rule and the condition it adds.

use crate::explore::{NodeId, Tree};
use std::collections::HashSet;
use std::fmt::Write;

pub fn tree_dot(tree: &Tree) -> String {
    let unexplored: HashSet<NodeId> = tree.unexplored.iter().map(|u| u.node).collect();
    let mut out = String::from("digraph symex {\n  node [shape=box, fontname=\"monospace\"];\n");
    for node in &tree.nodes {
        let mut label = node
            .configuration
            .clone()
            .unwrap_or_else(|| format!("#{}", node.id));
        let mut attributes = String::new();
        if let Some(leaf) = &node.leaf {
            let _ = write!(label, "\n{}", leaf.status);
            attributes.push_str(", peripheries=2");
        }
        if unexplored.contains(&node.id) {
            label.push_str("\nunexplored");
            attributes.push_str(", style=dashed");
        }
        let _ = writeln!(
            out,
            "  n{} [label=\"{}\"{attributes}];",
            node.id,
            escape(&label)
        );
        if let (Some(parent), Some(edge)) = (node.parent, &node.edge) {
            let label = if edge.condition.is_true() {
                edge.rule.name().to_string()
            } else {
                format!("{}\n{}", edge.rule.name(), edge.condition)
            };
            let _ = writeln!(
                out,
                "  n{parent} -> n{} [label=\"{}\"];",
                node.id,
                escape(&label)
            );
        }
    }
    out.push_str("}\n");
    out
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
