//! §2 and §2.1: the basic language with arrays, as a symbolic transition
//! system `⟨S, σ, φ⟩` ([`symbolic`]) and a concrete one `⟨S, V⟩`
//! ([`concrete`]), written side by side, rule for rule.

pub mod concrete;
pub mod symbolic;

use crate::program::Program;

/// The basic semantics runs programs without procedures or classes.
fn check_basic(program: &Program) -> Result<(), String> {
    if let Some(p) = program.procedures.keys().next() {
        return Err(format!(
            "the basic semantics has no procedures, but the program declares `{p}`"
        ));
    }
    if let Some(c) = program.classes.keys().next() {
        return Err(format!(
            "the basic semantics has no classes, but the program declares `{c}`"
        ));
    }
    Ok(())
}
