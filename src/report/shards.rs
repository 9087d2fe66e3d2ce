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

use super::json::{indented_body, opening, path_body, rest, JsonDocument};
use super::Header;
use crate::explore::share::{Ledger, Place, Shard};
use crate::explore::{Finished, Observer, Stats, Unexplored};
use serde_json::{Map, Value};
use std::io::{self, Write};

/// One shard's report, named as the user gave it (for messages): what a
/// worker hands back ([`Collected`]) or a shard's file holds ([`ShardReport::parse`]).
pub struct ShardReport {
    pub name: String,
    /// Program, language and method.
    pub opening: Map<String, Value>,
    pub paths: Vec<ShardPath>,
    pub unexplored: Vec<Value>,
    pub stats: Map<String, Value>,
    pub ledger: Option<Ledger>,
}

/// A shard's path: where the shard found it, its node in the shard's
/// numbering, and the rest of its JSON ([`path_body`]).
pub struct ShardPath {
    pub place: Place,
    pub node: usize,
    pub body: String,
}

impl ShardReport {
    /// The report in `text`, a shard's JSON document (`explore --shard`).
    pub fn parse(name: &str, text: &str) -> Result<ShardReport, String> {
        let document: Map<String, Value> = serde_json::from_str(text)
            .map_err(|e| format!("{name}:{}:{}: not a JSON report: {e}", e.line(), e.column()))?;
        let mut document = document;
        let mut take = |key: &str| document.shift_remove(key).unwrap_or(Value::Null);
        let (paths, unexplored, stats, ledger) = (
            take("paths"),
            take("unexplored"),
            take("stats"),
            take("shard"),
        );
        if ledger.is_null() {
            return Err(not_a_shard(name));
        }
        let Value::Array(paths) = paths else {
            return Err(format!("{name}: no `paths` list"));
        };
        let Value::Array(unexplored) = unexplored else {
            return Err(format!("{name}: no `unexplored` list"));
        };
        let Value::Object(stats) = stats else {
            return Err(format!("{name}: no `stats`"));
        };
        let paths = paths
            .into_iter()
            .map(|path| shard_path(name, path))
            .collect::<Result<_, _>>()?;
        Ok(ShardReport {
            name: name.to_string(),
            opening: document,
            paths,
            unexplored,
            stats,
            ledger: serde_json::from_value(ledger).ok(),
        })
    }
}

/// A path of a shard's file as the shard's worker would have handed it back.
fn shard_path(name: &str, path: Value) -> Result<ShardPath, String> {
    let Value::Object(mut path) = path else {
        return Err(format!("{name}: a path that is not an object"));
    };
    path.shift_remove("id");
    let node = path.shift_remove("node").as_ref().and_then(Value::as_u64);
    let node = node.ok_or_else(|| format!("{name}: a path without its node number"))?;
    let place: Place = path
        .shift_remove("shard")
        .and_then(|place| serde_json::from_value(place).ok())
        .ok_or_else(|| format!("{name}: a path without its place in the tree"))?;
    let body = serde_json::to_string_pretty(&path).map_err(|e| format!("{name}: {e}"))?;
    Ok(ShardPath {
        place,
        node: node as usize,
        body: indented_body(&body),
    })
}

/// Collects a worker's report as values: the paths rendered on the
/// worker's thread (terms are the thread's own), with their places.
pub struct Collected {
    header: Header,
    report: ShardReport,
}

impl Collected {
    pub fn new(name: String, header: Header) -> Collected {
        let opening = match opening(&header) {
            Value::Object(opening) => opening,
            _ => Map::new(),
        };
        Collected {
            header,
            report: ShardReport {
                name,
                opening,
                paths: Vec::new(),
                unexplored: Vec::new(),
                stats: Map::new(),
                ledger: None,
            },
        }
    }

    pub fn into_report(self) -> ShardReport {
        self.report
    }
}

impl Observer for Collected {
    fn path(&mut self, mut path: Finished<'_>) -> io::Result<()> {
        let place = path.place.take().unwrap_or(Place {
            after: 0,
            top: true,
        });
        let body = path_body(&path, &self.header)?;
        self.report.paths.push(ShardPath {
            place,
            node: path.node.id,
            body,
        });
        Ok(())
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        let Value::Object(mut rest) = rest(unexplored, stats) else {
            return Ok(());
        };
        let mut take = |key: &str| rest.shift_remove(key).unwrap_or(Value::Null);
        let (unexplored, stats, ledger) = (take("unexplored"), take("stats"), take("shard"));
        self.report.unexplored = match unexplored {
            Value::Array(unexplored) => unexplored,
            _ => Vec::new(),
        };
        if let Value::Object(stats) = stats {
            self.report.stats = stats;
        }
        self.report.ledger = serde_json::from_value(ledger).ok();
        Ok(())
    }
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

/// The one-process report merged from shards.
pub struct Merged {
    opening: Map<String, Value>,
    /// In the one-process order, with their one-process node numbers.
    paths: Vec<(usize, String)>,
    unexplored: Vec<Value>,
    stats: Map<String, Value>,
}

impl Merged {
    /// Whether a limit left part of some shard's tree unexplored.
    pub fn cut_off(&self) -> bool {
        !self.unexplored.is_empty()
    }

    /// The configurations a limit left unexplored, each once.
    pub fn unexplored(&self) -> usize {
        self.unexplored.len()
    }
}

/// The one-process report of the shards' `reports`: one of each shard of
/// one exploration of one program, in any order.
pub fn merge(reports: Vec<ShardReport>) -> Result<Merged, String> {
    let ledgers = reports.iter().map(ledger).collect::<Result<Vec<_>, _>>()?;
    let Some((first, first_ledger)) = reports.iter().zip(&ledgers).next() else {
        return Err("merge: no shard reports given".to_string());
    };
    let count = first_ledger.shard.count;
    let mut seen = vec![None; count];
    for (report, ledger) in reports.iter().zip(&ledgers) {
        for key in ["program", "language", "method"] {
            if report.opening.get(key) != first.opening.get(key) {
                let shown =
                    |report: &ShardReport| report.opening.get(key).cloned().unwrap_or_default();
                return Err(format!(
                    "{}: {key} {} differs from {}'s {}: not shards of one exploration",
                    report.name,
                    shown(report),
                    first.name,
                    shown(first)
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
    let stats = added_stats(&reports)?;
    let opening = first.opening.clone();
    let mut paths = Vec::new();
    let mut unexplored = Vec::new();
    for (report, ledger) in reports.into_iter().zip(&ledgers) {
        for (order, path) in report.paths.into_iter().enumerate() {
            let key = (path.place.after, path.place.top, ledger.shard.index, order);
            paths.push((key, ledger.node_number(path.node, &sizes), path.body));
        }
        for mut entry in report.unexplored {
            let node = entry["node"]
                .as_u64()
                .ok_or_else(|| format!("{}: an unexplored node without its number", report.name))?;
            entry["node"] = Value::from(ledger.node_number(node as usize, &sizes));
            unexplored.push(entry);
        }
    }
    paths.sort_unstable_by_key(|(key, _, _)| *key);
    unexplored.sort_by_key(|entry| entry["node"].as_u64());
    unexplored.dedup();
    Ok(Merged {
        opening,
        paths: paths
            .into_iter()
            .map(|(_, node, body)| (node, body))
            .collect(),
        unexplored,
        stats,
    })
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

fn not_a_shard(name: &str) -> String {
    format!(
        "{name}: not a shard's report (write one with `symex explore FILE --shard I/N --format json`)"
    )
}

fn ledger(report: &ShardReport) -> Result<ShardLedger, String> {
    let not_a_shard = || not_a_shard(&report.name);
    let ledger = report.ledger.clone().ok_or_else(not_a_shard)?;
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

/// The shards' counters added up, `time_ms` the longest shard's (the
/// shards ran side by side), in the order the first shard wrote them.
fn added_stats(reports: &[ShardReport]) -> Result<Map<String, Value>, String> {
    let mut merged = Map::new();
    for report in reports {
        for (key, value) in &report.stats {
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
    Ok(merged)
}

/// Writes a merged report as `explore --format json` writes its report.
pub fn write_json(merged: &Merged, out: &mut dyn Write) -> io::Result<()> {
    let mut document = JsonDocument::new(out, Value::Object(merged.opening.clone()));
    for (node, body) in &merged.paths {
        document.path(*node, body)?;
    }
    write_rest(merged, &mut document)
}

/// Ends `document` with the merged frontier and counters.
pub fn write_rest<W: Write>(merged: &Merged, document: &mut JsonDocument<W>) -> io::Result<()> {
    let mut rest = Map::new();
    rest.insert(
        "unexplored".to_string(),
        Value::Array(merged.unexplored.clone()),
    );
    rest.insert("stats".to_string(), Value::Object(merged.stats.clone()));
    document.finish(&Value::Object(rest))
}
