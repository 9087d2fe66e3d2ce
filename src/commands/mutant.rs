//! `--break RULE`: a rule of the paper broken on purpose, so that a student
//! sees what it changes (`explore`, `snap`), which theorem then fails
//! (`check`) and where forward and wp stop agreeing (`compare`).

use super::Method;
use crate::theorems::broken::{self, Edit, OoMutant};
use clap::ValueEnum;
use symex_semantics::basic::symbolic;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::program::Language;

/// The rules a user can break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BrokenRule {
    /// Symbolic choice with `bσ` and `¬bσ` exchanged (§2, forward).
    Choice,
    /// Symbolic assignment `σ[x := e]` instead of `σ[x := eσ]` (§2, forward).
    Assignment,
    /// Symbolic loop exit without `¬bσ` (§2, forward).
    LoopExit,
    /// `[h.f := e]` without its aliasing case (§4, wp).
    Aliasing,
    /// The paper's literal `this` rule, `e₀` itself for `this` (§4, wp).
    LiteralThis,
}

/// What breaking a rule changes: an edit of §2's symbolic system, or a
/// mutant of §4's calculus.
#[derive(Clone, Copy, Debug)]
pub enum Mutant {
    Basic(Edit<symbolic::Config>),
    Oo(OoMutant),
}

impl BrokenRule {
    pub fn mutant(self) -> Mutant {
        match self {
            BrokenRule::Choice => Mutant::Basic(broken::SWAPPED_CHOICE),
            BrokenRule::Assignment => Mutant::Basic(broken::ASSIGNMENT_WITHOUT_SIGMA),
            BrokenRule::LoopExit => Mutant::Basic(broken::LOOP_EXIT_WITHOUT_GUARD),
            BrokenRule::Aliasing => Mutant::Oo(OoMutant::WithoutAliasing),
            BrokenRule::LiteralThis => Mutant::Oo(OoMutant::LiteralThis),
        }
    }
}

impl Mutant {
    /// The `this` rule the broken rules run with, if the mutant sets one
    /// (the paper's literal rule is the one `--literal-this` chooses).
    pub fn this(self) -> Option<ThisRule> {
        match self {
            Mutant::Oo(oo) => oo.this(),
            Mutant::Basic(_) => None,
        }
    }

    /// The language whose rules are broken.
    pub fn language(self) -> Language {
        match self {
            Mutant::Basic(_) => Language::Basic,
            Mutant::Oo(_) => Language::Oo,
        }
    }

    /// The method whose rules are broken: §2's symbolic system computes
    /// path conditions forward, §4's calculus by weakest preconditions.
    pub fn method(self) -> Method {
        match self {
            Mutant::Basic(_) => Method::Forward,
            Mutant::Oo(_) => Method::Wp,
        }
    }

    /// Where the rule belongs, for messages.
    pub fn place(self) -> &'static str {
        match self {
            Mutant::Basic(_) => "§2's forward rules (basic programs, --method forward)",
            Mutant::Oo(_) => "§4's weakest-precondition calculus (oo programs, --method wp)",
        }
    }
}
