//! The symex tool: the Z3 bridge, the exploration engine, the reports and
//! the commands, over the formal core in `symex-semantics`; and the paper's
//! results checked mechanically (`theorems`, behind `symex check`).

// Module docs map their private submodules for whoever reads the code
// (`cargo doc --document-private-items` resolves every such link).
#![allow(rustdoc::private_intra_doc_links)]

pub mod bench;
pub mod bound;
pub mod commands;
pub mod compare;
pub mod concolic;
pub mod explore;
pub mod memory;
pub mod mutants;
pub mod report;
pub mod saved;
pub mod serve;
pub mod simplify;
pub mod solver;
pub mod step;
pub mod stop;
pub mod subsume;
pub mod theorems;
pub mod verify;

#[global_allocator]
static ALLOCATOR: memory::Counting = memory::Counting;
