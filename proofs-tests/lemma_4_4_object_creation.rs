//! Lemma 4.4 (Substitution), second part. "If V[x := new C](e) ≠ ⊥ and
//! V(e[x := new C]) ≠ ⊥ then V[x := new C](e) = V(e[x := new C]), where
//! the expression e is different from x and also does not contain
//! conditional expressions with the variable x as argument."
//!
//! `x` is a global object variable (`x`, `y: N` or `p: P`), so random
//! expressions over the globals mention it often; `V[x := new C]` is the
//! concrete object creation of the trace semantics. The implementation
//! pushes conditionals with `x` as an argument outward, so `e` may contain
//! them anywhere except as its value (`if b then x else y fi` itself, which
//! no substitution can turn into the new object): only those, `x` itself
//! and cases outside the premises are discarded. A twentieth of the cases at
//! least must mention `x`.

use crate::distribution::{self, Required};
use crate::holds;
use crate::lemma_4_4_field_assignment::value;
use crate::oo_generators::{program, Configuration, Expression};
use crate::oo_mutants::{caught, ComparisonSurvivesCreation, CreatedFieldNotDefault};
use quickcheck::{Arbitrary, Gen, TestResult};
use std::fmt;
use symex_semantics::oo::action::Action;
use symex_semantics::oo::path::{Calculus, Reference};
use symex_semantics::oo::trace::Traces;
use symex_semantics::system::Options;
use symex_semantics::term::{Name, Term, TermKind};

/// `x := new C` for a global `x` of class `C`.
#[derive(Clone)]
pub struct Creation(Name, Name);

impl fmt::Debug for Creation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} := new {}", self.0, self.1)
    }
}

impl Arbitrary for Creation {
    fn arbitrary(g: &mut Gen) -> Creation {
        let (x, class) = [("x", "N"), ("y", "N"), ("p", "P")][usize::arbitrary(g) % 3];
        Creation(x.into(), class.into())
    }
}

/// Whether `x` is among the values `e` may have: `x`, or a conditional with `x` in a branch.
fn may_be(e: &Term, x: &Name) -> bool {
    match e.kind() {
        TermKind::Var(y, _) => y == x,
        TermKind::Ite(_, a, b) => may_be(a, x) || may_be(b, x),
        _ => false,
    }
}

fn lemma(
    calculus: &impl Calculus,
    v: &Configuration,
    creation: &Creation,
    e: &Expression,
) -> Result<TestResult, TestResult> {
    let (Configuration(v), Creation(x, class), Expression(e)) = (v, creation, e);
    if may_be(e, x) {
        return Ok(TestResult::discard());
    }
    let traces = Traces::new(program(), Options::default());
    let after = traces
        .run(v.clone(), &[Action::New(x.clone(), class.clone())])
        .map_err(|_| TestResult::error("the creation is stuck"))?;
    let (Some(left), Some(right)) = (value(e, &after)?, value(&calculus.new_object(e, x), v)?)
    else {
        return Ok(TestResult::discard());
    };
    if e.free_vars().contains_key(x) {
        distribution::record_case("mentions x");
    }
    Ok(TestResult::from_bool(left == right))
}

fn real(v: Configuration, creation: Creation, e: Expression) -> TestResult {
    lemma(&Reference, &v, &creation, &e).unwrap_or_else(|error| error)
}

fn field_not_default(v: Configuration, creation: Creation, e: Expression) -> TestResult {
    lemma(&CreatedFieldNotDefault, &v, &creation, &e).unwrap_or_else(|error| error)
}

fn comparison_survives(v: Configuration, creation: Creation, e: Expression) -> TestResult {
    lemma(&ComparisonSurvivesCreation, &v, &creation, &e).unwrap_or_else(|error| error)
}

type Property = fn(Configuration, Creation, Expression) -> TestResult;

#[test]
fn lemma_4_4_holds_for_object_creation() {
    holds(
        "Lemma 4.4 [x := new C]",
        &Required::frequent(&["mentions x"]),
        real as Property,
    );
}

#[test]
fn lemma_4_4_catches_a_new_field_that_is_not_the_default() {
    caught(
        "Lemma 4.4 [x := new C] with (x.f)[x := new C] = x.f",
        field_not_default as Property,
    );
}

#[test]
fn lemma_4_4_catches_a_comparison_that_survives_creation() {
    caught(
        "Lemma 4.4 [x := new C] with x = e surviving",
        comparison_survives as Property,
    );
}
