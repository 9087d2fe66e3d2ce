//! The JSON views of an exploration: the SPEC §2.1 document of
//! `explore --format json`, written path by path as the exploration goes
//! (the same document a whole tree would give), and `--format jsonl`, one
//! line per node and per path, in which a trace is the chain of a path's
//! nodes rather than a copy per path. Paths and nodes are serialised from
//! borrowed views, straight to the output.

use super::Header;
use crate::explore::{Finished, Observer, PathNode, Pruned, Stats, TraceEntry, Unexplored};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::json;
use std::fmt::Display;
use std::io::{self, Write};
use symex_semantics::term::{Name, Term};

/// Serialises as the string its `Display` writes, with no intermediate `String`.
struct AsText<'a, T: Display>(&'a T);

impl<T: Display> Serialize for AsText<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self.0)
    }
}

/// `σ` as `{"x": "term", …}`.
struct StateJson<'a>(&'a [(Name, Term)]);

impl Serialize for StateJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (x, e) in self.0 {
            map.serialize_entry(&**x, &AsText(e))?;
        }
        map.end()
    }
}

/// A trace as a list of strings.
struct TraceJson<'a>(&'a [&'a TraceEntry]);

impl Serialize for TraceJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for entry in self.0 {
            seq.serialize_element(&AsText(*entry))?;
        }
        seq.end()
    }
}

/// One path with the fields of SPEC §2.1, in the contract's order.
struct PathJson<'a> {
    path: &'a Finished<'a>,
    /// Which variables a model shows, and whether as a heap.
    header: &'a Header,
    /// The key of the path's number (`id` in the document, `path` in
    /// lines), written with its node; `None` leaves both to the writer
    /// of the document ([`JsonDocument::path`]).
    id_key: Option<&'static str>,
    /// `false` when the reader rebuilds the path condition from the nodes
    /// (then its size is left to the reader too).
    path_condition: bool,
    /// `None` when the nodes give the trace.
    trace: Option<&'a [&'a TraceEntry]>,
}

impl Serialize for PathJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let leaf = &self.path.leaf;
        let mut map = serializer.serialize_map(None)?;
        if let Some(id_key) = self.id_key {
            map.serialize_entry(id_key, &self.path.id)?;
            map.serialize_entry("node", &self.path.node.id)?;
        }
        map.serialize_entry("status", leaf.status.name())?;
        map.serialize_entry("error", &leaf.status.error().map(|kind| kind.to_string()))?;
        map.serialize_entry("reason", &leaf.status.reason())?;
        if self.path_condition {
            map.serialize_entry("path_condition", &AsText(&leaf.path_condition))?;
            map.serialize_entry("path_condition_size", &leaf.path_condition.dag_size())?;
        } else {
            map.serialize_entry("path_condition_from_nodes", &true)?;
        }
        map.serialize_entry("state", &StateJson(&leaf.state))?;
        if let Some(heap) = &leaf.input_heap {
            map.serialize_entry("input_heap", &super::values::input_heap_json(heap))?;
        }
        if let Some(trace) = self.trace {
            map.serialize_entry("trace", &TraceJson(trace))?;
        }
        let model = leaf.model.as_ref().map(|model| {
            super::values::inputs_json(&self.header.inputs_of(model), self.header.language)
        });
        map.serialize_entry("model", &model)?;
        map.serialize_entry("steps", &self.path.node.depth)?;
        if let Some(place) = &self.path.place {
            map.serialize_entry("shard", place)?;
        }
        map.end()
    }
}

fn header_json(header: &Header) -> serde_json::Value {
    json!({ "program": header.program, "language": header.language.to_string(), "method": header.method })
}

fn unexplored_json(unexplored: &[Unexplored]) -> serde_json::Value {
    unexplored
        .iter()
        .map(|u| json!({ "node": u.node, "depth": u.depth, "reason": u.reason }))
        .collect()
}

/// The pretty JSON of `path` without its number and node, indented to
/// stand in the document's list of paths, and without its opening brace:
/// [`JsonDocument::path`] writes it after the two.
pub fn path_body(path: &Finished<'_>, header: &Header) -> serde_json::Result<String> {
    let trace = path.node.trace();
    let view = PathJson {
        path,
        header,
        id_key: None,
        path_condition: true,
        trace: Some(&trace),
    };
    Ok(indented_body(&serde_json::to_string_pretty(&view)?))
}

/// A path object's pretty JSON as [`path_body`] gives it.
pub fn indented_body(pretty: &str) -> String {
    // Nested two levels deep; JSON strings hold no raw line breaks.
    pretty.trim_start_matches('{').replace('\n', "\n    ")
}

/// The SPEC §2.1 document, written a path at a time: the opening (program,
/// language, method), the paths numbered in the order they are written,
/// then the frontier left and the counters. Both the report of one
/// exploration and the merge of shards ([`super::shards`]) write it.
pub struct JsonDocument<W: Write> {
    out: W,
    opening: serde_json::Value,
    paths: usize,
}

impl<W: Write> JsonDocument<W> {
    /// A document that opens with `opening`, an object.
    pub fn new(out: W, opening: serde_json::Value) -> JsonDocument<W> {
        JsonDocument {
            out,
            opening,
            paths: 0,
        }
    }

    /// Everything before the first path.
    fn open(&mut self) -> io::Result<()> {
        let text = format!("{:#}", self.opening);
        // The opening object without its closing brace, continued by the paths.
        write!(
            self.out,
            "{},\n  \"paths\": [",
            text.trim_end().trim_end_matches('}').trim_end()
        )
    }

    /// The next path, ending at `node`, its fields but these two `body` ([`path_body`]).
    pub fn path(&mut self, node: usize, body: &str) -> io::Result<()> {
        if self.paths == 0 {
            self.open()?;
        }
        let id = self.paths;
        let comma = if id == 0 { "" } else { "," };
        write!(
            self.out,
            "{comma}\n    {{\n      \"id\": {id},\n      \"node\": {node},{body}"
        )?;
        self.paths += 1;
        Ok(())
    }

    /// The rest of the document: `rest` is an object of `unexplored`,
    /// `stats` and, for a shard, `shard`.
    pub fn finish(&mut self, rest: &serde_json::Value) -> io::Result<()> {
        if self.paths == 0 {
            self.open()?;
            write!(self.out, "]")?;
        } else {
            write!(self.out, "\n  ]")?;
        }
        let rest = format!("{rest:#}");
        // The rest object without its opening brace, continuing the document.
        writeln!(self.out, ",{}", rest.trim_start().trim_start_matches('{'))?;
        self.out.flush()
    }
}

/// The opening of a report's document: program, language and method.
pub fn opening(header: &Header) -> serde_json::Value {
    header_json(header)
}

/// The end of a report's document: the frontier left, the counters and,
/// for a shard, its ledger.
pub fn rest(unexplored: &[Unexplored], stats: &Stats) -> serde_json::Value {
    let mut rest = json!({ "unexplored": unexplored_json(unexplored), "stats": stats });
    if let Some(ledger) = &stats.shard {
        rest["shard"] = json!(ledger);
    }
    rest
}

/// `explore --format json`: `{"program", "language", "method", "paths":
/// [...], "unexplored": [...], "stats"}`, each path written when it ends.
pub struct JsonReport<W: Write> {
    document: JsonDocument<W>,
    header: Header,
}

impl<W: Write> JsonReport<W> {
    pub fn new(out: W, header: Header) -> JsonReport<W> {
        JsonReport {
            document: JsonDocument::new(out, header_json(&header)),
            header,
        }
    }
}

impl<W: Write> Observer for JsonReport<W> {
    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        self.document
            .path(path.node.id, &path_body(&path, &self.header)?)
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        self.document.finish(&rest(unexplored, stats))
    }
}

/// `explore --format jsonl`: a header line, then one line per node (its
/// parent, rule, condition and trace entry) and per path as they come, and
/// a last line with the frontier left and the counters. A path's trace is
/// the trace entries of its nodes from the root; its path condition is
/// written out unless it is the conjunction of its nodes' conditions
/// (`"path_condition_from_nodes": true`), so the stream grows linearly
/// with the tree.
pub struct JsonLinesReport<W: Write> {
    out: W,
    header: Header,
}

impl<W: Write> JsonLinesReport<W> {
    pub fn new(mut out: W, header: Header) -> io::Result<JsonLinesReport<W>> {
        writeln!(out, "{}", header_json(&header))?;
        Ok(JsonLinesReport { out, header })
    }
}

/// `value` on a line of its own.
fn line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

/// A node line of `--format jsonl`.
#[derive(serde::Serialize)]
struct NodeLine<'a> {
    node: usize,
    parent: Option<usize>,
    depth: usize,
    rule: Option<&'static str>,
    /// The edge's condition; the root's is the assumption.
    condition: AsText<'a, Term>,
    trace: Vec<AsText<'a, TraceEntry>>,
}

impl<W: Write> Observer for JsonLinesReport<W> {
    fn node(&mut self, node: &PathNode) -> io::Result<()> {
        let node_line = NodeLine {
            node: node.id,
            parent: node.parent_id,
            depth: node.depth,
            rule: node.edge().map(|edge| edge.rule.name()),
            condition: AsText(node.condition()),
            trace: node
                .edge()
                .into_iter()
                .flat_map(|edge| &edge.trace)
                .map(AsText)
                .collect(),
        };
        line(&mut self.out, &node_line)
    }

    fn pruned(&mut self, pruned: Pruned) -> io::Result<()> {
        line(
            &mut self.out,
            &json!({ "pruned": pruned.parent, "rule": pruned.rule.name() }),
        )
    }

    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        let path_condition = !path.from_nodes;
        line(
            &mut self.out,
            &PathJson {
                path: &path,
                header: &self.header,
                id_key: Some("path"),
                path_condition,
                trace: None,
            },
        )
    }

    /// A path's trace is its nodes' lines.
    fn reads_ancestors(&self) -> bool {
        false
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        line(
            &mut self.out,
            &json!({ "unexplored": unexplored_json(unexplored), "stats": stats }),
        )?;
        self.out.flush()
    }
}
