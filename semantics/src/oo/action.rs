//! The elements of a symbolic trace ρ (§4): assignments `h := e` to a heap
//! variable, object creations `x := new C`, and Boolean tests `b`.

use crate::delta::{delta, Checks};
use crate::term::{Name, Sort, Term};
use std::fmt;

/// A heap variable `h` (§4): a variable `x`, a field `e.f`, or — for
/// §2.1's arrays, which the trace reads as functions — an element `a[e]`,
/// whose assignment `a[e] := e'` is the assignment `a := (a[e] := e')`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Var(Name, Sort),
    /// `e.f`, with the sort of `f`.
    Field(Term, Name, Sort),
    /// `a[e]`, with the sort of the array `a`.
    Element(Name, Sort, Term),
}

impl Location {
    /// `h` as an expression: `x`, `e.f` or `a[e]`.
    pub fn term(&self) -> Term {
        match self {
            Location::Var(x, sort) => Term::var(x, sort.clone()),
            Location::Field(object, f, sort) => Term::field(object.clone(), f, sort.clone()),
            Location::Element(a, sort, index) => {
                Term::select(Term::var(a, sort.clone()), index.clone())
            }
        }
    }
}

impl Location {
    /// What `h := e` evaluates before it acts: `e`, and for a field or an
    /// element `h` itself (its object, or its array index); a variable is
    /// always there to assign.
    pub fn evaluated(&self, e: &Term) -> Vec<Term> {
        self.target().into_iter().chain([e.clone()]).collect()
    }

    /// What assigning `h` evaluates of `h`: nothing for a variable, `e.f`
    /// or `a[e]` otherwise.
    pub fn target(&self) -> Option<Term> {
        match self {
            Location::Var(..) => None,
            Location::Field(..) | Location::Element(..) => Some(self.term()),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.term())
    }
}

/// One element of ρ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `h := e`.
    Assign(Location, Term),
    /// `x := new C`, for a fresh `x`.
    New(Name, Name),
    /// `b`: the path continues where `b` holds.
    Test(Term),
}

impl Action {
    /// `δ(h, e) = δ(h) ∧ δ(e)` (Definition 4.2) for an assignment, where
    /// `δ(a[e])` includes the bound with `--checked-arrays`; `δ(b)` for a
    /// test; `true` for a creation.
    ///
    /// The paper leaves `δ(b)` out, as implied by `b` being true. It is in
    /// the state of the test, but not after a later `[x := new C]`:
    /// `(e = x)[x := new C] = false` holds whether or not `e` has a value,
    /// so for `ρ = x := new C · ¬(y.f = x)` and `y = nil` the paper's
    /// `path(ρ)` is `¬false`, true, while `⟨V, ρ⟩` is stuck on `y.f` — a
    /// counterexample to Theorem 4.5 (`proofs-tests/theorem_4_5_path_condition.rs`).
    /// With `δ(b)` the condition is `y ≠ nil ∧ ¬false`, false as it must be.
    pub fn definedness(&self, checks: Checks) -> Term {
        match self {
            Action::Assign(h, e) => Term::and(delta(&h.term(), checks), delta(e, checks)),
            Action::Test(b) => delta(b, checks),
            Action::New(..) => Term::bool(true),
        }
    }

    /// What the action adds to a path condition, in the state before it
    /// (Definition 4.2): `δ(h, e)` for an assignment, `δ(b) ∧ b` for a
    /// test, `true` for a creation.
    pub fn condition(&self, checks: Checks) -> Term {
        match self {
            Action::Test(b) => Term::and(self.definedness(checks), b.clone()),
            _ => self.definedness(checks),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Assign(h, e) => write!(f, "{h} := {e}"),
            Action::New(x, class) => write!(f, "{x} := new {class}"),
            Action::Test(b) => write!(f, "{b}"),
        }
    }
}
