//! The formal core of symex: the languages of de Boer & Bonsangue,
//! *Symbolic execution formally explained* (FAoC 2021), and their symbolic
//! and concrete transition systems, readable next to the paper.
//!
//! - [`term`], [`subst`], [`eval`], [`delta`]: expressions as shared terms,
//!   substitutions `eσ`, valuations `V(e)` and the definedness predicate `δ`;
//! - [`program`]: statements and programs; [`syntax`]: parsing them;
//!   [`annotations`]: their invariants and contracts (King 1976 §8);
//! - [`machine`]: `--int i32`, machine integers compiled into the core;
//! - [`system`]: the transition-system trait every semantics implements;
//! - [`basic`] (§2, §2.1) and [`recursive`] (§3): the semantics.
//!
//! This crate knows nothing of solvers, simplifiers or command lines.

// Module docs map their private submodules for whoever reads the code
// (`cargo doc --document-private-items` resolves every such link).
#![allow(rustdoc::private_intra_doc_links)]

pub mod annotations;
pub mod basic;
pub mod checked;
pub mod delta;
pub mod draws;
pub mod eval;
pub mod heap;
pub mod inputs;
pub mod machine;
pub mod memo;
pub mod mutants;
pub mod oo;
pub mod print;
pub mod program;
pub mod reads;
pub mod recursive;
pub mod small_map;
pub mod subst;
pub mod syntax;
pub mod system;
pub mod term;
pub mod valuation;
pub mod value;
