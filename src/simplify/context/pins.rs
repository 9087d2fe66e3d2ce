//! Inputs that a path condition pins to one value, shown as that value.

use super::shapes::{is_literal, replaced};
use crate::simplify::Simplifier;
use std::collections::HashMap;
use symex_semantics::term::{BinOp, Sort, Term, TermKind};

/// The inputs a path condition pins to a literal: `x = 5`, `len(a) = 1`.
#[derive(Default)]
pub struct Pins(HashMap<u64, Term>);

impl Pins {
    pub fn of(phi: &Term) -> Pins {
        let mut pins = HashMap::new();
        for conjunct in phi.conjuncts() {
            if let TermKind::Binary(BinOp::Eq, left, right) = conjunct.kind() {
                for (input, value) in [(left, right), (right, left)] {
                    let is_input =
                        matches!(input.kind(), TermKind::Var(_, Sort::Int) | TermKind::Len(_));
                    if is_input && matches!(value.kind(), TermKind::Int(_)) {
                        pins.insert(input.id(), value.clone());
                    }
                }
            }
        }
        Pins(pins)
    }

    /// Whether pins may change `value`, the value of `x`: not a literal,
    /// nor the variable's own value (`x ↦ x`: the input is unchanged).
    pub fn may_change(x: &str, value: &Term) -> bool {
        let own = matches!(value.kind(), TermKind::Var(y, _) if y.as_ref() == x);
        !own && !is_literal(value)
    }

    /// `value`, the value of `x`, with the inputs pinned replaced by their
    /// values, simplified; a variable's own value (`x ↦ x`) and literals
    /// stay as they are.
    pub fn applied(&self, x: &str, value: &Term, simplifier: &mut Simplifier) -> Term {
        if self.0.is_empty() || !Pins::may_change(x, value) {
            return value.clone();
        }
        let pinned = replaced(value, &self.0);
        if pinned == *value {
            return value.clone();
        }
        simplifier.simplify(&pinned)
    }
}
