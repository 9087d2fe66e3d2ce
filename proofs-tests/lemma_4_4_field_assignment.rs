//! Lemma 4.4 (Substitution), first part. "Let V(h) ≠ ⊥ and
//! V(e) = v (≠ ⊥). If V[h := v](e') ≠ ⊥ and V(e'[h := e]) ≠ ⊥ then
//! V[h := v](e') = V(e'[h := e])."
//!
//! `h` is a random variable or field `e₀.f` (through a possibly aliased
//! reference), `e` a random expression of its sort, `e'` a random
//! expression of any sort, `V` a random consistent configuration;
//! `V[h := v]` is the concrete assignment of the trace semantics. Cases
//! outside the lemma's premises are discarded. Each case checks `e'` and
//! an expression that reads `h` back (`y.next` after `x.next := e`). The aliasing branch of
//! `[h.f := e]` — `h''[h.f := e] = h` true under `V` for an access `h''.f`
//! of `e'` — must be taken in a twentieth of the cases at least.

use crate::distribution::{self, Required};
use crate::holds;
use crate::oo_generators::{program, Assignment, Configuration, Expression};
use crate::oo_mutants::{caught, WithoutAliasing};
use quickcheck::TestResult;
use symex_semantics::eval::{eval, eval_bool, Valuation};
use symex_semantics::oo::action::{Action, Location};
use symex_semantics::oo::path::{Calculus, Reference};
use symex_semantics::oo::trace::Traces;
use symex_semantics::system::Options;
use symex_semantics::term::{BinOp, Term, TermKind};
use symex_semantics::value::Value;

/// `V(e)`, `None` for `⊥`, or the property's error.
pub fn value(e: &Term, v: &Valuation) -> Result<Option<Value>, TestResult> {
    match eval(e, v) {
        Ok(value) => Ok(Some(value)),
        Err(error) if error.is_nil_dereference() => Ok(None),
        Err(error) => Err(TestResult::error(error.to_string())),
    }
}

/// The lemma for `e'`: `None` outside its premises, else whether it holds.
fn lemma_for(
    calculus: &impl Calculus,
    v: &Valuation,
    h: &Location,
    e: &Term,
    after: &Valuation,
    e2: &Term,
) -> Result<Option<bool>, TestResult> {
    let (Some(left), Some(right)) = (value(e2, after)?, value(&calculus.assign(e2, h, e), v)?)
    else {
        return Ok(None);
    };
    if let Location::Field(object, f, _) = h {
        for node in e2.nodes() {
            let TermKind::Field(other, g, _) = node.kind() else {
                continue;
            };
            let aliased = Term::binary(
                BinOp::Eq,
                Reference.assign_field(other, object, f, e),
                object.clone(),
            );
            if g == f && eval_bool(&aliased, v) == Ok(true) {
                distribution::record_case("aliasing");
            }
        }
    }
    Ok(Some(left == right))
}

/// The lemma for `e'` and for the expression that reads `h` back.
fn lemma(
    calculus: &impl Calculus,
    v: &Configuration,
    assignment: &Assignment,
    e2: &Expression,
) -> Result<TestResult, TestResult> {
    let (Assignment(h, e, read_back), Configuration(v)) = (assignment, v);
    if value(&h.term(), v)?.is_none() || value(e, v)?.is_none() {
        return Ok(TestResult::discard());
    }
    let traces = Traces::new(program(), Options::default());
    let after = traces
        .run(v.clone(), &[Action::Assign(h.clone(), e.clone())])
        .map_err(|_| TestResult::error("the assignment is stuck"))?;
    let mut verdicts = Vec::new();
    for e2 in [&e2.0, read_back] {
        verdicts.extend(lemma_for(calculus, v, h, e, &after, e2)?);
    }
    Ok(match verdicts.as_slice() {
        [] => TestResult::discard(),
        _ => TestResult::from_bool(verdicts.iter().all(|holds| *holds)),
    })
}

fn real(v: Configuration, assignment: Assignment, e2: Expression) -> TestResult {
    lemma(&Reference, &v, &assignment, &e2).unwrap_or_else(|error| error)
}

fn without_aliasing(v: Configuration, assignment: Assignment, e2: Expression) -> TestResult {
    lemma(&WithoutAliasing, &v, &assignment, &e2).unwrap_or_else(|error| error)
}

type Property = fn(Configuration, Assignment, Expression) -> TestResult;

#[test]
fn lemma_4_4_holds_for_field_assignments() {
    holds(
        "Lemma 4.4 [h := e]",
        &Required::frequent(&["aliasing"]),
        real as Property,
    );
}

#[test]
fn lemma_4_4_catches_a_field_assignment_without_aliasing() {
    caught(
        "Lemma 4.4 [h := e] without the aliasing case",
        without_aliasing as Property,
    );
}
