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
//! unfolding's created names), and finally the same outcome. The statements
//! themselves are not compared: under the paper's literal `this` rule they
//! differ in spelling (`x.next.val` for `this₁.val`) even where they mean
//! the same. Along the way, each successor's incremental path condition is
//! true in `V` exactly when its trace runs (Theorem 4.5 on the unfolding's
//! own traces). A twentieth of the runs at least must terminate and a
//! twentieth end in `nil-dereference`.

use crate::oo_generators::Configuration;
use crate::oo_programs::OoProgram;
use crate::theorem_4_5_path_condition::true_in;
use crate::oo_mutants::caught;
use crate::distribution::{self, Required};
use crate::holds;
use quickcheck::TestResult;
use symex_semantics::eval::{ShowValuation, Valuation};
use symex_semantics::oo::concrete::{self, Concrete};
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::oo::trace::Traces;
use symex_semantics::oo::unfold::Unfold;
use symex_semantics::oo::ShowTrace;
use symex_semantics::program::{ErrorKind, Halt, Outcome};
use symex_semantics::system::{Configuration as _, Options, SymbolicConfiguration, TransitionSystem};

/// The most steps of the program semantics a case follows.
const STEPS: usize = 150;

/// The same heap, and the same values where both know a variable.
fn same_state(trace: &Valuation, program: &Valuation) -> bool {
    trace.heap == program.heap && program.iter().all(|(x, value)| trace.get(x).map_or(true, |w| w == value))
}

/// How the program halted, for the tally.
fn outcome(c: &concrete::Config) -> &'static str {
    match c.outcome() {
        Some(Outcome::Terminated) => "terminated",
        Some(Outcome::Halted(Halt::Error(ErrorKind::NilDereference))) => "nil-dereference",
        Some(Outcome::Halted(Halt::Error(ErrorKind::AssertionFailed))) => "assertion-failed",
        _ => "other",
    }
}

fn agree(this: ThisRule, program: &OoProgram, v: &Configuration) -> Result<TestResult, TestResult> {
    let program = program.0.clone();
    let v = v.0.retain(|x| program.globals.contains_key(x));
    let options = Options::default();
    let unfold = Unfold::new(program.clone(), options, this);
    let traces = Traces::new(program.clone(), options);
    let concrete = Concrete::new(program, options);
    let (mut c, mut u, mut after) = (concrete.initial(v.clone()), unfold.initial(), v.clone());
    for _ in 0..STEPS {
        let next = concrete.try_successors(&c).map_err(|error| TestResult::error(error.to_string()))?.into_iter().next();
        let mut runnable = Vec::new();
        for step in unfold.successors(&u) {
            let actions = step.next.state.actions();
            let added = actions.get(u.state.len()..).unwrap_or_default();
            let run = traces.run(after.clone(), added);
            if true_in(step.next.path_condition(), &v)? != run.is_ok() {
                let why = format!("V(path(ρ)) and ⟨V, ρ⟩ →* ε disagree on ρ = {}", ShowTrace(&actions));
                return Err(TestResult::error(why));
            }
            if let Ok(state) = run {
                runnable.push((step, state));
            }
        }
        let count = runnable.len();
        let (program_step, (step, state)) = match (next, runnable.pop()) {
            (None, None) => {
                distribution::record_case(outcome(&c));
                return Ok(TestResult::from_bool(c.outcome() == u.outcome()));
            }
            (Some(program_step), Some(unfolded)) if count == 1 => (program_step, unfolded),
            (program_step, _) => {
                let steps = if program_step.is_some() { "steps" } else { "has halted" };
                return Err(TestResult::error(format!("after {c}: the program {steps}, the unfolding has {count} runnable steps")));
            }
        };
        if step.rule != program_step.rule || !same_state(&state, &program_step.next.valuation) {
            let why = format!(
                "the program steps by {:?} to {}, the unfolding by {:?} to ⟨V', ε⟩ with V' = {}",
                program_step.rule,
                program_step.next,
                step.rule,
                ShowValuation(&state)
            );
            return Err(TestResult::error(why));
        }
        (c, u, after) = (program_step.next, step.next, state);
    }
    distribution::record_case("bound reached");
    Ok(TestResult::passed())
}

fn fresh_this(program: OoProgram, v: Configuration) -> TestResult {
    agree(ThisRule::Fresh, &program, &v).unwrap_or_else(|error| error)
}

fn literal_this(program: OoProgram, v: Configuration) -> TestResult {
    agree(ThisRule::Literal, &program, &v).unwrap_or_else(|error| error)
}

type Property = fn(OoProgram, Configuration) -> TestResult;

#[test]
fn the_unfolding_agrees_with_the_program_semantics() {
    holds("the unfolding agrees with the program semantics", &Required::frequent(&["terminated", "nil-dereference"]), fresh_this as Property);
}

#[test]
fn the_unfolding_with_the_literal_this_rule_disagrees() {
    caught("the unfolding with the literal this rule", literal_this as Property);
}
