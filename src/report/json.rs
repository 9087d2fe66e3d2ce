//! The JSON view of an exploration (SPEC §2.1 `explore --format json`).

use super::Header;
use crate::explore::Tree;
use serde_json::{json, Map, Value as Json};

/// One object: the program, the paths with their conditions, states,
/// traces and models, the frontier left unexplored, and the counters.
pub fn tree_json(tree: &Tree, header: &Header) -> Json {
    let paths: Vec<Json> = tree
        .paths
        .iter()
        .enumerate()
        .filter_map(|(id, &node)| {
            let leaf = tree.leaf(node)?;
            let state: Map<String, Json> = leaf.state.iter().map(|(x, e)| (x.to_string(), Json::String(e.to_string()))).collect();
            let trace: Vec<String> = tree.trace_to(node).iter().map(|entry| entry.to_string()).collect();
            Some(json!({
                "id": id,
                "node": node,
                "status": leaf.status.name(),
                "error": leaf.status.error().map(|kind| kind.to_string()),
                "reason": leaf.status.reason(),
                "path_condition": leaf.path_condition.to_string(),
                "path_condition_size": leaf.path_condition.dag_size(),
                "state": state,
                "trace": trace,
                "model": leaf.model.as_ref().map(|model| super::values::inputs_json(&header.inputs_of(model), header.language)),
                "steps": tree.nodes[node].depth,
            }))
        })
        .collect();
    let unexplored: Vec<Json> = tree
        .unexplored
        .iter()
        .map(|u| json!({ "node": u.node, "depth": tree.nodes[u.node].depth, "reason": u.reason }))
        .collect();
    json!({
        "program": header.program,
        "language": header.language.to_string(),
        "method": header.method,
        "paths": paths,
        "unexplored": unexplored,
        "stats": tree.stats,
    })
}
