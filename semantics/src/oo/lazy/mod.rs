//! Lazy initialisation (Khurshid, Păsăreanu & Visser, *Generalized symbolic
//! execution for model checking and testing*, TACAS 2003), the way Symbolic
//! PathFinder treats an unknown input heap, and the third `--method` for
//! oo programs beside §4's weakest preconditions and §4.1's fields as
//! arrays.
//!
//! A path keeps an explicit symbolic heap ([`State`]): every reference is
//! a known node — `nil`, an input object `C@k` (the k-th one the path
//! materialised), or an object the program created (`node₄`, named as the
//! unfolding names it) — and only integers and booleans are symbolic. A
//! reference input (a variable, or a field of an input object) is
//! initialised when it is first read, by a step of its own that branches
//! (Rule by rule, in [`initialise`]):
//! - `nil` (*lazy initialisation (nil)*);
//! - a fresh input object of the field's class, whose reference fields are
//!   uninitialised and whose integer and boolean fields are fresh symbols
//!   `C@k.f` (*lazy initialisation (new object)*);
//! - each input object of that class materialised before (*lazy
//!   initialisation (alias)*): aliasing, systematically.
//!
//! Objects made by `new` are concrete and are never alias candidates (they
//! are not part of the input). An input array is its cells in index order
//! (Anand, Păsăreanu & Visser 2006, §2 and §5.2): an element read or
//! written for the first time is an earlier cell (its index equal to the
//! cell's) or a new cell in one of the gaps between them, the path
//! condition saying which, and with `--checked-arrays` lies out of bounds.
//! A condition the evaluation must know before it reads on — the first
//! operand of `&&`, `||`, `==>` guarding an uninitialised read, the test
//! of a conditional — is decided by a step of its own (*decision*), as a
//! bytecode branch decides it in SPF.
//!
//! Once everything a statement reads is initialised, the statement runs by
//! the rules of the unfolding ([`super::unfold`]: calls inlined, the same
//! error steps), its actions applied to the heap ([`State`] is its
//! [`PathState`](super::unfold::PathState)); so paths end as they do for
//! `--method wp` and `forward`, only split by the shape of the input heap
//! rather than by conditions over field functions. A path's model is a
//! concrete heap: its materialised input objects, numbered `o1, o2, …` in
//! the order they were materialised, with its symbols' values and every
//! other field at its default.

mod arrays;
mod eval;
pub mod graph;
mod heap;
mod initialise;
mod model;
mod rules;
mod state;
mod taken;
#[cfg(test)]
mod tests;

pub use heap::{InputHeap, InputObject};
pub use rules::{Paper, Rules};
pub use state::State;

use super::inline::ThisRule;
use super::unfold::Unfold;
use crate::program::Program;
use crate::system::Options;
use std::rc::Rc;

/// Lazy initialisation: the unfolding whose paths keep an explicit heap,
/// initialised by the rules `R`.
pub type Lazy<R = Paper> = Unfold<State<R>>;

/// `--method lazy` on a program of any of the three languages.
pub fn lazy(program: Rc<Program>, options: Options, this: ThisRule) -> Lazy {
    Unfold::with_state(program, options, this)
}
