//! A client that follows the loops of an exploration as it goes, and may
//! take a configuration's successors into its own hands: the loop-bound
//! analysis (`src/bound/`) counts each loop's iterations per entry, cuts a
//! loop at its cap, and accelerates a long loop, on the explorer's own
//! worklist, merging and solver.

use super::bounds::{LoopContext, LoopExit};
use super::node::PathNode;
use super::tree::{Limit, Status};
use symex_semantics::system::Step;

/// How a path stopped, for [`LoopHook::ended`].
#[derive(Clone, Copy, Debug)]
pub enum Stop<'a> {
    /// It ended with this status (terminated, error, bounded, unknown, …).
    Ended(&'a Status),
    /// A limit left it unexplored.
    Unexplored(Limit),
}

/// Follows loops during an exploration; every method does nothing by default.
pub trait LoopHook<C> {
    /// The steps to take from `config`, inside the loops of `context`,
    /// given the semantics' own `steps` (which it takes by default).
    fn steps(&mut self, _config: &C, _context: &LoopContext, steps: Vec<Step<C>>) -> Vec<Step<C>> {
        steps
    }

    /// A path left a loop by its exit rule: `exit` says which and after how
    /// many iterations of this entry; `node` and `config` are where it is now.
    fn exited(&mut self, _exit: LoopExit, _node: &PathNode, _config: &C) {}

    /// A path stopped at `config`, inside the loops of `context`.
    fn stopped(&mut self, _config: &C, _context: &LoopContext, _stop: Stop<'_>) {}
}

/// The hook of an ordinary exploration: the semantics' own steps.
pub struct NoHook;

impl<C> LoopHook<C> for NoHook {}
