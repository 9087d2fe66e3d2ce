//! Floyd's inductive assertions and procedure contracts, as King's EFFIGY
//! reads them (King 1976 §8): a loop's `invariant` clauses (the inductive
//! predicate placed in the loop), and a procedure's or method's `requires`
//! and `ensures` clauses (its input and output predicates).
//!
//! The transition systems of §2–§4 ignore annotations: `run` and `explore`
//! execute the program as written. [`instrument`] gives them King's other
//! reading, the Algol-W `ASSERT`: each annotation becomes an `assert` at
//! the point where it must hold, so a concrete run fails where an
//! annotation does. The verifier reads them as cut points instead.

mod instrument;

pub use instrument::{entry_values, instrument, loop_name, Body, Check, CheckKind, Instrumented};

use crate::program::LoopId;
use crate::term::{Name, Sort, Term};
use std::collections::BTreeMap;
use std::fmt;

/// The ghost variable a labelled assertion sets just before it is checked
/// ([`labelled_assert`]): the number of the check, so that a run or a path
/// that fails tells which one failed. No identifier contains `#`.
pub const CHECK: &str = "check#";

/// Whether `x` is a ghost variable that instrumentation or the verifier
/// added (its name is no identifier of the source language).
pub fn is_ghost(x: &str) -> bool {
    x.contains('#')
}

/// The variable that names `old(e)` in an `ensures` clause: `old(e)` as
/// written, so that the printed clause parses back to the same variable.
pub fn old_name(e: &Term) -> Name {
    format!("old({e})").into()
}

/// `check# := number; assert e`: an assertion that says which it is.
pub fn labelled_assert(number: usize, e: Term) -> [crate::program::Stmt; 2] {
    use crate::program::Stmt;
    [
        Stmt::Assign(CHECK.into(), Term::int(number)),
        Stmt::Assert(e),
    ]
}

/// The ghost [`CHECK`] as a global of a program that labels its assertions.
pub fn check_global() -> (Name, Sort) {
    (CHECK.into(), Sort::Int)
}

/// A place in the source: 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// `requires P₁ … ensures Q₁ …` of a procedure or method (King's input and
/// output predicates). In `ensures`, `old(e)` is the value `e` had at entry,
/// and a parameter stands for its value at entry (the caller's argument):
/// both are the variables of [`Contract::olds`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contract {
    pub requires: Vec<Term>,
    pub ensures: Vec<Term>,
    /// `(old(e), e)` for every value at entry that `ensures` reads: the
    /// variable ([`old_name`]) and the expression evaluated at entry.
    pub olds: Vec<(Name, Term)>,
}

impl Contract {
    /// The variables of [`Contract::olds`] with their sorts.
    pub fn old_vars(&self) -> Vec<(Name, Sort)> {
        self.olds
            .iter()
            .map(|(old, e)| (old.clone(), e.sort()))
            .collect()
    }
}

/// Where procedures and methods are written (loops are in
/// [`crate::program::LoopSites`]). Places say where a program came from,
/// not what it means: two programs that differ only in their places are
/// equal (printing and parsing again moves every place).
#[derive(Clone, Debug, Default)]
pub struct Places {
    pub procedures: BTreeMap<Name, Place>,
    /// By class and method.
    pub methods: BTreeMap<(Name, Name), Place>,
}

impl PartialEq for Places {
    fn eq(&self, _: &Places) -> bool {
        true
    }
}

impl Eq for Places {}

/// A program's annotations; absent clauses are absent entries (a loop
/// without `invariant`, a procedure without `requires` or `ensures`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// The `invariant` clauses of each annotated loop, all of which must hold.
    pub invariants: BTreeMap<LoopId, Vec<Term>>,
    /// The contract of each procedure that has one.
    pub procedures: BTreeMap<Name, Contract>,
    /// The contract of each method that has one, by class and method.
    pub methods: BTreeMap<(Name, Name), Contract>,
    pub places: Places,
}

impl Annotations {
    /// Whether the program carries any annotation.
    pub fn is_empty(&self) -> bool {
        self.invariants.is_empty() && self.procedures.is_empty() && self.methods.is_empty()
    }
}
