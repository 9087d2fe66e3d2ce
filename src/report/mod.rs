//! Views of an exploration tree (text, JSON, DOT, SVG, LaTeX), values in
//! JSON, and diagnostics for bad input.

pub mod compact;
pub mod concolic;
pub mod diagnostic;
pub mod dot;
pub mod json;
pub mod latex;
pub mod layout;
pub mod shards;
pub mod shell;
pub mod smtlib;
pub mod stream;
pub mod svg;
pub mod tests;
pub mod text;
pub mod values;
pub mod verify;

use crate::explore::tree::Stats;
use std::collections::BTreeMap;
use symex_semantics::eval::Valuation;
use symex_semantics::program::Language;
use symex_semantics::term::{Name, Sort};

/// What a report says about where the tree came from.
#[derive(Clone)]
pub struct Header {
    /// The program's path as given on the command line.
    pub program: String,
    pub language: Language,
    pub method: &'static str,
    /// The program's inputs (`Program::inputs`): the variables a model shows.
    pub inputs: BTreeMap<Name, Sort>,
}

impl Header {
    /// `model` on the program's inputs only: the other globals are written
    /// before they are read, so their initial values say nothing.
    pub fn inputs_of(&self, model: &Valuation) -> Valuation {
        model.retain(|x| self.inputs.contains_key(x))
    }
}

/// `11 paths: 11 terminated, 0 errors, 0 bounded, 0 unknown`.
pub fn paths_summary(stats: &Stats) -> String {
    let plural = |n: usize, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    let summary = format!(
        "{} {}: {} terminated, {} {}, {} bounded, {} unknown",
        stats.paths,
        plural(stats.paths, "path", "paths"),
        stats.terminated,
        stats.errors,
        plural(stats.errors, "error", "errors"),
        stats.bounded,
        stats.unknown
    );
    match stats.subsumption {
        Some(m) => format!(
            "{summary}, {} {}; {} subsumption {}, {} states stored",
            m.subsumed,
            if m.abstraction == "none" {
                "subsumed"
            } else {
                "abstracted"
            },
            m.checks,
            plural(m.checks as usize, "check", "checks"),
            m.stored
        ),
        None => summary,
    }
}
