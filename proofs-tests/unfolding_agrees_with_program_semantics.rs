//! The result §4 states only in words: "the standard concrete semantics of
//! a program … can be defined also in terms of the concrete semantics of
//! its symbolic execution traces". That is, `⟨S, V⟩ →* ⟨S', V'⟩` exactly
//! when the unfolding reaches `⟨S', ρ⟩` with `⟨V, ρ⟩ →* ⟨V', ε⟩`.
//!
//! On random oo programs and random consistent configurations, the program
//! semantics and the unfolding are run in lockstep for up to `STEPS` steps
//! (the claim is about every finite run, so a bound loses nothing): at each
//! step, of all the unfolding's successors exactly one has a trace that
//! runs from `V` — none once the program has halted — and it is taken by
//! the same rule as the program's step, and reaches the same heap and the
//! same values of the variables both have (the program's fresh locals, the
//! unfolding's created names), and finally the same outcome (the lockstep
//! of `symex::theorems::unfolding`, which `symex check` runs too). The
//! statements themselves are not compared: under the paper's literal `this` rule they
//! differ in spelling (`x.next.val` for `this₁.val`) even where they mean
//! the same. Along the way, each successor's incremental path condition is
//! true in `V` exactly when its trace runs (Theorem 4.5 on the unfolding's
//! own traces). A twentieth of the runs at least must terminate and a
//! twentieth end in `nil-dereference`.

use crate::distribution::{self, Required};
use crate::holds;
use crate::oo_generators::Configuration;
use crate::oo_mutants::caught;
use crate::oo_programs::OoProgram;
use quickcheck::TestResult;
use symex::theorems::cases::Cases;
use symex::theorems::unfolding::{Lockstep, AGREEMENT};
use symex_semantics::delta::Checks;
use symex_semantics::oo::concrete::Concrete;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::oo::path::Reference;
use symex_semantics::oo::trace::Traces;
use symex_semantics::oo::unfold::Unfold;
use symex_semantics::system::Options;

/// The most steps of the program semantics a case follows.
const STEPS: usize = 150;

fn agree(this: ThisRule, program: &OoProgram, v: &Configuration) -> TestResult {
    let program = program.0.clone();
    let v = v.0.retain(|x| program.globals.contains_key(x));
    let options = Options::default();
    let unfold = Unfold::new(program.clone(), options, this);
    let traces = Traces::new(program.clone(), options);
    let concrete = Concrete::new(program, options);
    let lockstep = Lockstep {
        unfold: &unfold,
        initial: unfold.initial(),
        concrete: &concrete,
        traces: &traces,
        calculus: &Reference,
        checks: Checks::NIL,
    };
    let mut cases: [Cases; 3] = Default::default();
    let disagreements = lockstep.run(&v, STEPS, 0, &mut cases);
    distribution::record_checked(&cases[AGREEMENT]);
    match disagreements.into_iter().next() {
        None => TestResult::passed(),
        Some(disagreement) => TestResult::error(disagreement.explanation),
    }
}

fn fresh_this(program: OoProgram, v: Configuration) -> TestResult {
    agree(ThisRule::Fresh, &program, &v)
}

fn literal_this(program: OoProgram, v: Configuration) -> TestResult {
    agree(ThisRule::Literal, &program, &v)
}

type Property = fn(OoProgram, Configuration) -> TestResult;

#[test]
fn the_unfolding_agrees_with_the_program_semantics() {
    holds(
        "the unfolding agrees with the program semantics",
        &Required::frequent(&["terminated", "nil-dereference"]),
        fresh_this as Property,
    );
}

#[test]
fn the_unfolding_with_the_literal_this_rule_disagrees() {
    caught(
        "the unfolding with the literal this rule",
        literal_this as Property,
    );
}
