//! Views of an exploration tree (text, JSON, DOT), values in JSON, and
//! diagnostics for bad input.

pub mod diagnostic;
pub mod dot;
pub mod json;
pub mod text;
pub mod values;

use symex_semantics::program::Language;

/// What a report says about where the tree came from.
pub struct Header {
    /// The program's path as given on the command line.
    pub program: String,
    pub language: Language,
    pub method: &'static str,
}
