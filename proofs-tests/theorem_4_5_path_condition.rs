//! Theorem 4.5 (Soundness and completeness). "For any symbolic execution
//! trace ρ we have that ⟨V, ρ⟩ →* ε iff V(path(ρ)) = true."
//!
//! `path(ρ)` by Definition 4.2 literally ([`path_with`]), on random
//! well-typed traces (field writes through possibly aliased references,
//! creations, tests) and random consistent configurations; `⟨V, ρ⟩` is the
//! concrete semantics of traces. Once on traces in the unfolding's form
//! (creations name fresh variables), once on traces that also create into
//! the globals, which the theorem covers as well. Fails unless a twentieth of
//! the runs reach `ε`, a twentieth get stuck, and the aliasing branch of
//! `[h.f := e]` is taken a twentieth as often as there are cases.
//!
//! As the paper states it, the theorem is false: its Definition 4.2 leaves
//! `δ(b)` out of `path(b · ρ)`, and `(x = e)[x := new C] = false` turns a
//! test that has no value into one that has. `path` here conjoins `δ(b)`
//! (see `Action::definedness`); the paper's definition is kept as the
//! broken calculus [`TestsWithoutDelta`], which the property catches, and
//! the smallest counterexample is a test of its own.

use crate::distribution::{self, Required};
use crate::holds;
use crate::oo_generators::{program, AnyTrace, Configuration, Trace};
use crate::oo_mutants::{
    caught, ComparisonSurvivesCreation, CreatedFieldNotDefault, TestsWithoutDelta, WithoutAliasing,
    WithoutDeltaOfH,
};
use quickcheck::TestResult;
use symex_semantics::delta::Checks;
use symex_semantics::eval::{eval_bool, Valuation};
use symex_semantics::oo::action::{Action, Location};
use symex_semantics::oo::fresh;
use symex_semantics::oo::path::{path, path_with, Calculus, Reference};
use symex_semantics::oo::trace::Traces;
use symex_semantics::system::Options;
use symex_semantics::term::{BinOp, Sort, Term, TermKind};
use symex_semantics::value::Value;

/// Whether `V(φ) = true` (`⊥` is not), or the property's error.
pub fn true_in(phi: &Term, v: &Valuation) -> Result<bool, TestResult> {
    match eval_bool(phi, v) {
        Ok(truth) => Ok(truth),
        Err(error) if error.is_nil_dereference() => Ok(false),
        Err(error) => Err(TestResult::error(format!("{error} in {phi}"))),
    }
}

/// `⟨V, ρ⟩ →* ε` iff `V(φ) = true`, noting which of the two it was.
pub fn equivalent(rho: &[Action], phi: &Term, v: &Valuation) -> TestResult {
    let runs = Traces::new(program(), Options::default())
        .run(v.clone(), rho)
        .is_ok();
    distribution::record_case(if runs { "⟨V, ρ⟩ →* ε" } else { "stuck" });
    match true_in(phi, v) {
        Ok(holds) if holds == runs => TestResult::passed(),
        Ok(_) => TestResult::error(format!(
            "path(ρ) = {phi}, but ⟨V, ρ⟩ {}",
            if runs { "→* ε" } else { "is stuck" }
        )),
        Err(error) => error,
    }
}

/// Notes each aliasing conditional of `path(ρ)` whose condition is true
/// where it is evaluated: for every field write `h.f := e` that the run
/// reaches in a state `Vₖ`, and every access `h'.f` of `path` of the rest
/// of ρ, whether `Vₖ(h'[h.f := e] = h)`.
pub fn note_aliasing(rho: &[Action], v: &Valuation) {
    let traces = Traces::new(program(), Options::default());
    let mut state = v.clone();
    for (k, action) in rho.iter().enumerate() {
        if let Action::Assign(Location::Field(object, f, _), e) = action {
            for node in path(&rho[k + 1..], Checks::NIL).nodes() {
                let TermKind::Field(other, g, _) = node.kind() else {
                    continue;
                };
                let aliased = Term::binary(
                    BinOp::Eq,
                    Reference.assign_field(other, object, f, e),
                    object.clone(),
                );
                if g == f && eval_bool(&aliased, &state) == Ok(true) {
                    distribution::record_case("aliasing");
                }
            }
        }
        match traces.run(state.clone(), std::slice::from_ref(action)) {
            Ok(next) => state = next,
            Err(_) => return,
        }
    }
}

fn theorem(calculus: &impl Calculus, rho: &[Action], v: &Configuration) -> TestResult {
    equivalent(rho, &path_with(rho, Checks::NIL, calculus), &v.0)
}

fn real(rho: Trace, v: Configuration) -> TestResult {
    note_aliasing(&rho.0, &v.0);
    theorem(&Reference, &rho.0, &v)
}

fn real_on_any_trace(rho: AnyTrace, v: Configuration) -> TestResult {
    note_aliasing(&rho.0, &v.0);
    theorem(&Reference, &rho.0, &v)
}

fn without_aliasing(rho: Trace, v: Configuration) -> TestResult {
    theorem(&WithoutAliasing, &rho.0, &v)
}

fn field_not_default(rho: Trace, v: Configuration) -> TestResult {
    theorem(&CreatedFieldNotDefault, &rho.0, &v)
}

fn comparison_survives(rho: Trace, v: Configuration) -> TestResult {
    theorem(&ComparisonSurvivesCreation, &rho.0, &v)
}

fn without_delta_of_h(rho: Trace, v: Configuration) -> TestResult {
    theorem(&WithoutDeltaOfH, &rho.0, &v)
}

fn without_delta_of_tests(rho: Trace, v: Configuration) -> TestResult {
    theorem(&TestsWithoutDelta, &rho.0, &v)
}

type Property = fn(Trace, Configuration) -> TestResult;

/// What a run of Theorem 4.5 must meet: traces that run to the end,
/// traces stuck on `⊥`, and the aliasing branch of `[h.f := e]`.
pub fn variety() -> Required {
    Required::frequent(&["⟨V, ρ⟩ →* ε", "stuck", "aliasing"])
}

#[test]
fn theorem_4_5_holds() {
    holds("Theorem 4.5", &variety(), real as Property);
}

#[test]
fn theorem_4_5_holds_when_creating_into_globals() {
    holds(
        "Theorem 4.5 (creating into globals)",
        &variety(),
        real_on_any_trace as fn(AnyTrace, Configuration) -> TestResult,
    );
}

#[test]
fn theorem_4_5_catches_a_field_assignment_without_aliasing() {
    caught(
        "Theorem 4.5 without the aliasing case",
        without_aliasing as Property,
    );
}

#[test]
fn theorem_4_5_catches_a_new_field_that_is_not_the_default() {
    caught(
        "Theorem 4.5 with (x.f)[x := new C] = x.f",
        field_not_default as Property,
    );
}

#[test]
fn theorem_4_5_catches_a_comparison_that_survives_creation() {
    caught(
        "Theorem 4.5 with x = e surviving [x := new C]",
        comparison_survives as Property,
    );
}

#[test]
fn theorem_4_5_catches_a_forgotten_delta_of_h() {
    caught(
        "Theorem 4.5 with δ(h, e) = δ(e)",
        without_delta_of_h as Property,
    );
}

#[test]
fn theorem_4_5_catches_tests_without_delta_as_in_the_paper() {
    caught(
        "Theorem 4.5 with path(b · ρ) = path(ρ) ∧ b",
        without_delta_of_tests as Property,
    );
}

/// `ρ = n₁ := new N · ¬(y.next = n₁)` with `y = nil`: the test dereferences
/// `nil`, so `⟨V, ρ⟩` is stuck, but by the paper's Definition 4.2
/// `path(ρ) = ¬(y.next = n₁)[n₁ := new N] = ¬false`, which is true.
#[test]
fn the_papers_definition_4_2_breaks_theorem_4_5_on_a_test_after_a_creation() {
    let node = Sort::Object("N".into());
    let created = fresh::object("N", 1);
    let compared = Term::binary(
        BinOp::Eq,
        Term::field(Term::var("y", node.clone()), "next", node.clone()),
        Term::var(&created, node),
    );
    let rho = [
        Action::New(created, "N".into()),
        Action::Test(Term::not(compared)),
    ];
    let v = Valuation::from_iter([("y".into(), Value::Nil)]);
    assert!(Traces::new(program(), Options::default())
        .run(v.clone(), &rho)
        .is_err());
    let paper = path_with(&rho, Checks::NIL, &TestsWithoutDelta);
    assert_eq!(
        eval_bool(&paper, &v),
        Ok(true),
        "the paper's path(ρ) = {paper}"
    );
    let amended = path(&rho, Checks::NIL);
    assert_eq!(eval_bool(&amended, &v), Ok(false), "path(ρ) = {amended}");
}
