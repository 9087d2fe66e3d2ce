//! The exploration engine: a worklist over any symbolic transition system,
//! with search strategies, bounds, incremental feasibility checks, and the
//! serialisable tree every report is drawn from.

pub mod blame;
mod bounds;
mod congruence;
mod engine;
mod hook;
pub mod lanes;
mod merge;
mod node;
mod observer;
mod path_solver;
mod ranges;
pub(crate) mod readable;
mod repair;
mod replay;
pub mod run;
pub mod share;
mod strategy;
mod summary;
#[cfg(test)]
mod tests;
mod trace;
pub mod tree;
pub mod workers;

pub(crate) use bounds::{calls_within, Unfoldings};
pub use bounds::{Bounds, LoopContext, LoopEntry, LoopExit};
pub use engine::{explore, explore_into, explore_with, ExploreOptions};
pub use hook::{LoopHook, NoHook, Stop};
pub use merge::Merge;
pub use node::PathNode;
pub use observer::{Finished, NotesLimit, Observer, TreeRecorder};
#[cfg(test)]
pub(crate) use path_solver::PathSolver;
pub use replay::{replay, replay_leaf, replay_path, state_difference, Replay, Route, Verdict};
pub(crate) use strategy::Frontier;
pub use strategy::{Candidate, Priority, Promise, Strategy};
pub use tree::{
    BoundReason, Edge, Join, Leaf, Limit, Node, NodeId, Pruned, Stats, Status, Timings, TraceEntry,
    Tree, Unexplored, UnknownReason,
};
