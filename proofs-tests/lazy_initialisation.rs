//! Lazy initialisation (Khurshid, Păsăreanu & Visser 2003; `--method
//! lazy`) agrees with the paper's semantics. On random oo programs and
//! random concrete heaps `V`:
//!
//! - exactly one lazy path matches `V` — at every step exactly one
//!   successor's input heap embeds into `V` with its guard true there — and
//!   it takes the program semantics' steps to the same outcome and the same
//!   final globals and heap, predicted from `V`; every way of initialising
//!   a reference stands for real inputs (its model is a well-typed heap
//!   with that input heap) (`symex::theorems::lazy`, which `symex check
//!   --method lazy` runs too);
//! - the paths of `--method wp` and `--method forward` whose conditions
//!   `V` satisfies end in the outcome the lazy path ends in.
//!
//! The same on random basic programs over arrays, with and without
//! `--checked-arrays`: an element read for the first time is an earlier
//! cell, a new cell in a gap, or out of bounds (Anand et al. 2006, §2).
//!
//! The same under the precondition `acyclic` (`--assume acyclic`, Anand et
//! al. 2006's acyclic lists) on random heaps made acyclic: exactly one
//! lazy path matches each, and every way of initialising a reference has
//! an acyclic model.
//!
//! Each of lazy initialisation's choices is broken once — no alias choice,
//! aliases across classes, objects made by `new` as candidates, `nil`
//! forgotten, the precondition `acyclic` ignored — and each is caught.

use crate::distribution::{self, Required};
use crate::generators::{BasicProgram, Checked, Inputs};
use crate::oo_generators::Configuration;
use crate::oo_mutants::caught;
use crate::oo_programs::OoProgram;
use crate::{from_env, holds_on, Generated};
use quickcheck::TestResult;
use std::rc::Rc;
use symex::theorems::cases::Cases;
use symex::theorems::lazy::{LazyWalk, REFUSED_ALIAS};
use symex_semantics::eval::{eval_bool, Valuation};
use symex_semantics::oo::concrete::Concrete;
use symex_semantics::oo::forward;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::oo::lazy::{Paper, Rules, State};
use symex_semantics::oo::unfold::{PathState, Unfold};
use symex_semantics::oo::wp::Trace;
use symex_semantics::program::{Outcome, Program};
use symex_semantics::system::{
    Configuration as _, Options, Rule, SymbolicConfiguration, TransitionSystem,
};
use symex_semantics::term::Name;

/// The most steps of the program semantics a case follows.
const STEPS: usize = 150;

/// Cases per default run (`QUICKCHECK_TESTS` sets another number).
const CASES: u64 = 500;

/// The outcome of the path of `system` whose path condition `v`
/// satisfies (none where it is cut after `steps` steps or `v` leaves the
/// program's domain); an error where more than one path is satisfied.
fn outcome_followed<P: PathState>(
    program: Rc<Program>,
    v: &Valuation,
    options: Options,
    steps: usize,
) -> Result<Option<Outcome>, String> {
    let system = Unfold::<P>::with_state(program, options, ThisRule::Fresh);
    let mut config = system.initial();
    for _ in 0..steps {
        let successors = system.successors(&config);
        if successors.is_empty() {
            return Ok(config.outcome());
        }
        let mut satisfied: Vec<_> = successors
            .into_iter()
            .filter(|step| eval_bool(step.next.path_condition(), v) == Ok(true))
            .collect();
        match (satisfied.pop(), satisfied.is_empty()) {
            (None, _) => return Ok(None),
            (Some(step), true) => config = step.next,
            (Some(_), false) => return Err("two paths of one method are satisfied".into()),
        }
    }
    Ok(None)
}

fn agree<R: Rules>(program: OoProgram, v: Configuration) -> TestResult {
    let program = program.0.clone();
    let v = v.0.retain(|x| program.globals.contains_key(x));
    agree_on::<R>(program, &v, Options::default())
}

/// [`agree`] under the precondition `acyclic`, `v`'s cycles broken.
fn agree_acyclic<R: Rules>(program: OoProgram, v: Configuration) -> TestResult {
    let program = program.0.clone();
    let v = v.0.retain(|x| program.globals.contains_key(x));
    let heap = v.heap.without_cycles();
    let options = Options {
        acyclic: true,
        ..Options::default()
    };
    agree_on::<R>(program, &v.with_heap(heap), options)
}

/// The walk from `v` and the three methods' outcomes.
fn agree_on<R: Rules>(program: Rc<Program>, v: &Valuation, options: Options) -> TestResult {
    distribution::record_program(&program);
    let lazy = Unfold::<State<R>>::with_state(program.clone(), options, ThisRule::Fresh);
    let concrete = Concrete::new(program.clone(), options);
    let walk = LazyWalk {
        lazy: &lazy,
        concrete: &concrete,
        program: &program,
    };
    let mut cases = Cases::default();
    let outcome = walk.run(v, STEPS, &mut cases);
    distribution::record_checked(&cases);
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(why) => return TestResult::error(why),
    };
    let Some(outcome) = outcome else {
        return TestResult::passed();
    };
    for (method, followed) in [
        (
            "wp",
            outcome_followed::<Trace>(program.clone(), v, options, 4 * STEPS),
        ),
        (
            "forward",
            outcome_followed::<forward::State>(program.clone(), v, options, 4 * STEPS),
        ),
    ] {
        match followed {
            Ok(Some(other)) if other == outcome => {
                distribution::record_case(format!("{method} agrees"))
            }
            Ok(None) => {}
            Ok(Some(other)) => {
                return TestResult::error(format!("lazy ends in {outcome}, {method} in {other}"))
            }
            Err(why) => return TestResult::error(format!("{method}: {why}")),
        }
    }
    TestResult::passed()
}

/// A basic program over arrays from inputs `inputs`, `CHECKED` choosing
/// `--checked-arrays`.
fn agree_on_arrays<const CHECKED: bool>(
    program: Checked<BasicProgram>,
    inputs: Inputs,
) -> TestResult {
    let program = program.program();
    agree_on::<Paper>(
        program,
        &inputs.0,
        Options {
            checked_arrays: CHECKED,
            ..Options::default()
        },
    )
}

type Property = fn(OoProgram, Configuration) -> TestResult;
type ArrayProperty = fn(Checked<BasicProgram>, Inputs) -> TestResult;

fn cases() -> u64 {
    from_env("QUICKCHECK_TESTS").unwrap_or(CASES)
}

#[test]
fn exactly_one_lazy_path_matches_a_heap_and_predicts_the_run() {
    let required = Required::frequent(&[
        "terminated",
        "nil-dereference",
        "wp agrees",
        "forward agrees",
    ])
    .and(Rule::LazyNil)
    .and(Rule::LazyFresh)
    .and(Rule::LazyAlias)
    .and(Rule::Decision)
    .and(Rule::FieldAssignment)
    .and(Rule::MethodCall);
    holds_on(
        "lazy initialisation agrees with the program semantics",
        cases(),
        &required,
        agree::<Paper> as Property,
    );
}

#[test]
fn exactly_one_lazy_path_matches_an_acyclic_heap_and_predicts_the_run() {
    let required = Required::frequent(&["terminated", "wp agrees", REFUSED_ALIAS])
        .and(Rule::LazyNil)
        .and(Rule::LazyFresh)
        .and(Rule::LazyAlias)
        .and(Rule::FieldAssignment);
    holds_on(
        "lazy initialisation under the precondition acyclic agrees with the program semantics",
        cases(),
        &required,
        agree_acyclic::<Paper> as Property,
    );
}

#[test]
fn exactly_one_lazy_path_matches_arrays_and_predicts_the_run() {
    let required = Required::frequent(&["terminated", "wp agrees", "forward agrees"])
        .and(Rule::LazyFresh)
        .and(Rule::LazyAlias)
        .and(Rule::ArrayAssignment);
    holds_on(
        "lazy initialisation of arrays agrees with the program semantics",
        cases(),
        &required,
        agree_on_arrays::<false> as ArrayProperty,
    );
}

#[test]
fn exactly_one_lazy_path_matches_checked_arrays_and_predicts_the_run() {
    let required = Required::frequent(&["terminated", "wp agrees", "forward agrees"])
        .and(Rule::LazyFresh)
        .and(Rule::LazyAlias)
        .and(Rule::LazyOutOfBound)
        .and(Rule::ArrayOutOfBound);
    holds_on(
        "lazy initialisation of checked arrays agrees with the program semantics",
        cases(),
        &required,
        agree_on_arrays::<true> as ArrayProperty,
    );
}

/// Lazy initialisation without the alias choice.
#[derive(Clone, Default)]
struct NoAlias;

impl Rules for NoAlias {
    fn aliases(&self, _: &State<Self>, _: &Name) -> Vec<Name> {
        Vec::new()
    }
}

/// Aliases of every input object, whatever its class.
#[derive(Clone, Default)]
struct AcrossClasses;

impl Rules for AcrossClasses {
    fn aliases(&self, state: &State<Self>, _: &Name) -> Vec<Name> {
        state
            .input_objects()
            .map(|(name, _)| name.clone())
            .collect()
    }
}

/// Objects made by `new` as alias candidates too.
#[derive(Clone, Default)]
struct CreatedToo;

impl Rules for CreatedToo {
    fn aliases(&self, state: &State<Self>, class: &Name) -> Vec<Name> {
        state
            .input_objects()
            .chain(state.created_objects())
            .filter(|(_, c)| *c == class)
            .map(|(name, _)| name.clone())
            .collect()
    }
}

/// `nil` forgotten.
#[derive(Clone, Default)]
struct NilForgotten;

impl Rules for NilForgotten {
    fn nil(&self) -> bool {
        false
    }
}

/// The precondition `acyclic` ignored: an alias may close a cycle.
#[derive(Clone, Default)]
struct CyclesToo;

impl Rules for CyclesToo {
    fn keeps_acyclic(&self, _: &State<Self>, _: &Name, _: &Name) -> bool {
        true
    }
}

#[test]
fn the_agreement_catches_lazy_initialisation_without_aliases() {
    caught(
        "lazy initialisation without aliases",
        agree::<NoAlias> as Property,
    );
}

#[test]
fn the_agreement_catches_aliases_across_classes() {
    caught(
        "lazy initialisation aliasing across classes",
        agree::<AcrossClasses> as Property,
    );
}

#[test]
fn the_agreement_catches_created_objects_as_candidates() {
    caught(
        "lazy initialisation aliasing created objects",
        agree::<CreatedToo> as Property,
    );
}

#[test]
fn the_agreement_catches_the_precondition_acyclic_ignored() {
    caught(
        "lazy initialisation ignoring the precondition acyclic",
        agree_acyclic::<CyclesToo> as Property,
    );
}

#[test]
fn the_agreement_catches_nil_forgotten() {
    caught(
        "lazy initialisation without nil",
        agree::<NilForgotten> as Property,
    );
}
