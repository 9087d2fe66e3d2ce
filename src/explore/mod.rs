//! The exploration engine: a worklist over any symbolic transition system,
//! with search strategies, bounds, incremental feasibility checks, and the
//! serialisable tree every report is drawn from.

mod bounds;
mod engine;
mod path_solver;
mod repair;
mod replay;
pub mod run;
mod strategy;
#[cfg(test)]
mod tests;
mod trace;
pub mod tree;

pub use bounds::Bounds;
pub use engine::{explore, ExploreOptions};
pub use replay::{replay, Replay};
pub use strategy::{Candidate, Priority, Strategy};
pub use tree::{BoundReason, Leaf, Limit, Node, NodeId, Status, Tree, UnknownReason};
