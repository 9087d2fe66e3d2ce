//! `symex merge`: the JSON reports of the shards of one exploration
//! (`explore --shard I/N --format json`, [`crate::explore::share`]) made
//! into the report the one-process exploration gives: the same paths in
//! the same order with the same path and node numbers, the same frontier
//! left, and the counters added up.
//!
//! A path's place in depth-first order is where its shard says it was
//! found (after how many prefixes, above the split or in the last
//! prefix's subtree), then its order within its shard. A node's number
//! is its shard's number plus the sizes of the subtrees the other shards
//! expanded before the node was made, since depth-first search numbers a
//! prefix's descendants in one block.

use crate::explore::share::{Ledger, Place, Shard};
use serde_json::{Map, Value};
use std::io::{self, Write};

/// One shard's report, named as the user gave it (for messages).
pub struct ShardReport {
    pub name: String,
    pub document: Value,
}

/// The counters a merged report adds up (`time_ms` is the longest shard's).
const ADDED: [&str; 7] = [
    "paths",
    "terminated",
    "errors",
    "bounded",
    "unknown",
    "pruned",
    "solver_calls",
];

/// The one-process report of the shards' `reports`: one of each shard of
/// one exploration of one program, in any order.
pub fn merge(reports: &[ShardReport]) -> Result<Value, String> {
    let ledgers = reports
        .iter()
        .map(|report| ledger(report))
        .collect::<Result<Vec<_>, _>>()?;
    let Some((first, first_ledger)) = reports.iter().zip(&ledgers).next() else {
        return Err("merge: no shard reports given".to_string());
    };
    let count = first_ledger.shard.count;
    let mut seen = vec![None; count];
    for (report, ledger) in reports.iter().zip(&ledgers) {
        for key in ["program", "language", "method"] {
            if report.document[key] != first.document[key] {
                return Err(format!(
                    "{}: {key} {} differs from {}'s {}: not shards of one exploration",
                    report.name, report.document[key], first.name, first.document[key]
                ));
            }
        }
        let (shard, split) = (ledger.shard, ledger.ledger.split_depth);
        if shard.count != count || split != first_ledger.ledger.split_depth {
            return Err(format!(
                "{}: shard {shard} split at depth {split}, {}: shard {} at depth {}: not shards of one exploration",
                report.name,
                first.name,
                first_ledger.shard,
                first_ledger.ledger.split_depth
            ));
        }
        if let Some(other) = seen[shard.index].replace(&report.name) {
            return Err(format!(
                "{}: shard {shard} was given twice (also {other})",
                report.name
            ));
        }
    }
    if let Some(missing) = seen.iter().position(Option::is_none) {
        return Err(format!("merge: shard {missing}/{count} is missing"));
    }
    let sizes = subtree_sizes(&ledgers);
    let mut paths = Vec::new();
    let mut unexplored = Vec::new();
    for (report, ledger) in reports.iter().zip(&ledgers) {
        let renumber = |node: &Value| -> Result<Value, String> {
            let node = node
                .as_u64()
                .ok_or_else(|| format!("{}: a node number is not a number", report.name))?;
            Ok(Value::from(ledger.node_number(node as usize, &sizes)))
        };
        for (order, path) in array(report, "paths")?.iter().enumerate() {
            let mut path = object(report, path)?;
            let place: Place = path
                .remove("shard")
                .and_then(|place| serde_json::from_value(place).ok())
                .ok_or_else(|| format!("{}: a path without its place in the tree", report.name))?;
            let node = renumber(&path["node"])?;
            path.insert("node".to_string(), node);
            let key = (place.after, place.top, ledger.shard.index, order);
            paths.push((key, path));
        }
        for entry in array(report, "unexplored")? {
            let mut entry = object(report, entry)?;
            let node = renumber(&entry["node"])?;
            entry.insert("node".to_string(), node);
            unexplored.push(Value::Object(entry));
        }
    }
    paths.sort_by_key(|(key, _)| *key);
    let paths: Vec<Value> = paths
        .into_iter()
        .enumerate()
        .map(|(id, (_, mut path))| {
            path.insert("id".to_string(), Value::from(id));
            Value::Object(path)
        })
        .collect();
    unexplored.sort_by_key(|entry| entry["node"].as_u64());
    unexplored.dedup();
    let mut merged = Map::new();
    for key in ["program", "language", "method"] {
        merged.insert(key.to_string(), first.document[key].clone());
    }
    merged.insert("paths".to_string(), Value::Array(paths));
    merged.insert("unexplored".to_string(), Value::Array(unexplored));
    merged.insert("stats".to_string(), added_stats(reports)?);
    Ok(Value::Object(merged))
}

/// A shard's ledger, with its shard.
struct ShardLedger {
    shard: Shard,
    ledger: Ledger,
}

impl ShardLedger {
    /// The one-process number of the shard's node `node`: its own number
    /// plus the nodes below the prefixes other shards expanded before it
    /// was made (which prefixes a shard expanded is in its ledger: workers
    /// take them as they come, [`crate::explore::share::Claims`]).
    fn node_number(&self, node: usize, sizes: &[usize]) -> usize {
        let reached = self
            .ledger
            .reached_at
            .iter()
            .take_while(|&&at| at <= node)
            .count();
        let own: usize = self
            .ledger
            .subtrees
            .iter()
            .take_while(|(prefix, _)| *prefix < reached)
            .map(|&(prefix, _)| sizes.get(prefix).copied().unwrap_or(0))
            .sum();
        let all: usize = sizes.iter().take(reached).sum();
        node + all - own
    }
}

fn ledger(report: &ShardReport) -> Result<ShardLedger, String> {
    let not_a_shard = || {
        format!(
            "{}: not a shard's report (write one with `symex explore FILE --shard I/N --format json`)",
            report.name
        )
    };
    let ledger: Ledger = report
        .document
        .get("shard")
        .and_then(|ledger| serde_json::from_value(ledger.clone()).ok())
        .ok_or_else(not_a_shard)?;
    let shard = ledger.shard.ok_or_else(not_a_shard)?;
    Ok(ShardLedger { shard, ledger })
}

/// The nodes below each prefix, from the shard that expanded it.
fn subtree_sizes(ledgers: &[ShardLedger]) -> Vec<usize> {
    let prefixes = ledgers.iter().map(|l| l.ledger.prefixes).max().unwrap_or(0);
    let mut sizes = vec![0; prefixes];
    for (prefix, nodes) in ledgers.iter().flat_map(|l| &l.ledger.subtrees) {
        sizes[*prefix] = *nodes;
    }
    sizes
}

fn array<'a>(report: &'a ShardReport, key: &str) -> Result<&'a Vec<Value>, String> {
    report.document[key]
        .as_array()
        .ok_or_else(|| format!("{}: no `{key}` list", report.name))
}

fn object(report: &ShardReport, value: &Value) -> Result<Map<String, Value>, String> {
    value
        .as_object()
        .cloned()
        .ok_or_else(|| format!("{}: an entry that is not an object", report.name))
}

/// The shards' counters added up, `time_ms` the longest shard's (the
/// shards ran side by side), in the order the first shard wrote them.
fn added_stats(reports: &[ShardReport]) -> Result<Value, String> {
    let mut merged = Map::new();
    for report in reports {
        let stats = report.document["stats"]
            .as_object()
            .ok_or_else(|| format!("{}: no `stats`", report.name))?;
        for (key, value) in stats {
            let value = value
                .as_u64()
                .ok_or_else(|| format!("{}: stats.{key} is not a count", report.name))?;
            let total = merged.get(key).and_then(Value::as_u64);
            let merged_value = match total {
                None => value,
                Some(total) if ADDED.contains(&key.as_str()) => total + value,
                Some(total) => total.max(value),
            };
            merged.insert(key.clone(), Value::from(merged_value));
        }
    }
    Ok(Value::Object(merged))
}

/// Writes a merged report as `explore --format json` writes its report.
pub fn write_json(report: &Value, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report)?;
    writeln!(out)
}
