//! What a checker checked, case by case: the rules of the steps it
//! compared, or the kinds of expression it evaluated. The property tests
//! require every case a result speaks about to occur (PLT Redex's relation
//! coverage), so a checker that silently skips a case is caught as surely
//! as one that compares wrongly.

use std::collections::BTreeMap;
use std::fmt;
use symex_semantics::term::{Term, TermKind, UnOp};

/// How often each case occurred.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cases(BTreeMap<String, u64>);

impl Cases {
    /// One more occurrence of `case`.
    pub fn add(&mut self, case: impl fmt::Display) {
        *self.0.entry(case.to_string()).or_default() += 1;
    }

    /// How often `case` occurred.
    pub fn count(&self, case: &str) -> u64 {
        self.0.get(case).copied().unwrap_or(0)
    }

    /// Every occurrence of every case.
    pub fn total(&self) -> u64 {
        self.0.values().sum()
    }

    /// Adds every occurrence of `other`.
    pub fn merge(&mut self, other: &Cases) {
        for (case, n) in &other.0 {
            *self.0.entry(case.clone()).or_default() += n;
        }
    }

    /// The cases in name order with their counts.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.0.iter().map(|(case, n)| (case.as_str(), *n))
    }
}

/// The case of the initial configuration, reached by no rule.
pub const INITIAL: &str = "initial";

/// The kind of `e`'s outermost constructor: its operator's spelling, or a
/// word for the rest (`variable`, `constant`, `len`, `a[e]`, `(a[e] := e')`, `?:`).
pub fn expression_case(e: &Term) -> &'static str {
    match e.kind() {
        TermKind::Int(_) | TermKind::Bool(_) | TermKind::Nil(_) => "constant",
        TermKind::Var(..) => "variable",
        TermKind::Len(_) => "len",
        TermKind::Unary(UnOp::Neg, _) => "-(negation)",
        TermKind::Unary(UnOp::Not, _) => "!",
        TermKind::Binary(op, ..) => op.symbol(),
        TermKind::Ite(..) => "?:",
        TermKind::Select(..) => "a[e]",
        TermKind::Store(..) => "(a[e] := e')",
        TermKind::Field(..) => "e.f",
        TermKind::FieldArray(..) => "f",
    }
}
