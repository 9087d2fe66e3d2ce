//! The shortcuts the simplifier takes over plain saturation, each exact:
//! a test turns one off ([`Simplifier::without`](super::Simplifier)) and
//! compares the two on random terms, requiring it to have been taken.

use std::cell::Cell;
use std::rc::Rc;

/// One shortcut, named for what it leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    /// The search for a rule whose operators the e-graph cannot come to
    /// hold ([`operators`](super::operators)).
    RulesByOperator,
    /// egg on a term no rule can rewrite ([`unmatched`](super::unmatched))
    /// or whose result is [`known`](super::known).
    Egg,
    /// The application of a rule that found nothing
    /// ([`scheduler`](super::scheduler)).
    EmptyApplications,
    /// The search for a rule lacking one of its left side's
    /// [`edges`](super::edges) in an iteration.
    SearchesByEdge,
}

/// How often the shortcuts were taken: what each test requires of them.
#[derive(Clone, Debug, Default)]
pub struct Taken {
    /// Rule searches left out by their operators (a rule in a round).
    pub by_operator: usize,
    /// First rounds left out as [`unmatched`](super::unmatched) found them.
    pub unmatched: usize,
    /// Terms whose result was [`known`](super::known) without egg.
    pub known: usize,
    /// Of those, comparisons of a conditional with one of its branches
    /// ([`folded_branch`](super::folded_branch)).
    pub folded_branches: usize,
    /// Of those, implications with a comparison for premise
    /// ([`implication`](super::implication)).
    pub implications: usize,
    /// Of those, two comparisons joined, one inside a Boolean unit
    /// ([`nested_unit`](super::nested_unit)).
    pub nested_units: usize,
    /// Applications of rules that found nothing (egg's scheduler counts them).
    pub unapplied: Rc<Cell<usize>>,
    /// Rule searches left out by their edges (a rule in an iteration).
    pub by_edge: Rc<Cell<usize>>,
}
