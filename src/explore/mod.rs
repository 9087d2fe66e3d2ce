//! The exploration engine: a worklist over any symbolic transition system,
//! with search strategies, bounds, incremental feasibility checks, and the
//! serialisable tree every report is drawn from.

mod bounds;
mod engine;
mod node;
mod observer;
mod path_solver;
mod readable;
mod repair;
mod replay;
pub mod run;
mod strategy;
mod summary;
#[cfg(test)]
mod tests;
mod trace;
pub mod tree;

pub use bounds::Bounds;
pub use engine::{explore, explore_into, ExploreOptions};
pub use node::PathNode;
pub use observer::{Finished, Observer, TreeRecorder};
pub use replay::{replay, state_difference, Replay, Verdict};
pub use strategy::{Candidate, Priority, Strategy};
pub use tree::{
    BoundReason, Edge, Leaf, Limit, Node, NodeId, Pruned, Stats, Status, Timings, TraceEntry, Tree,
    Unexplored, UnknownReason,
};
