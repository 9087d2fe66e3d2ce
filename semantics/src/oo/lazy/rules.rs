//! Which values lazy initialisation offers a reference input read for the
//! first time, besides a fresh input object. The provided methods are the
//! rules of Khurshid, Păsăreanu & Visser; a property test overrides one to
//! show that its property catches the change (as §4's calculus is broken
//! through [`Calculus`](crate::oo::path::Calculus)).

use super::State;
use crate::term::Name;

/// The choices of lazy initialisation.
pub trait Rules: Clone + Default + 'static {
    /// Lazy initialisation (nil): `nil` is offered.
    fn nil(&self) -> bool {
        true
    }

    /// Lazy initialisation (alias): the objects an input of `class` may
    /// be, the input objects of `class` the path materialised before, in
    /// that order — not the objects made by `new`, which are no part of
    /// the input.
    fn aliases(&self, state: &State<Self>, class: &Name) -> Vec<Name> {
        state
            .input_objects()
            .filter(|(_, c)| *c == class)
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// Under the precondition `acyclic`: whether the input field of
    /// `object` may be the input object `candidate` — only when
    /// `candidate` does not reach `object` through the input values the
    /// path initialised, so that the new edge closes no cycle. (An object
    /// not materialised yet, or `nil`, can close none.)
    fn keeps_acyclic(&self, state: &State<Self>, object: &Name, candidate: &Name) -> bool {
        !state.input_reaches(candidate, object)
    }
}

/// The paper's rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct Paper;

impl Rules for Paper {}
