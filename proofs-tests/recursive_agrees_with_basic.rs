//! A basic program run under the recursive semantics of §3 behaves as
//! under §2 (SPEC §1: "a basic program can be run under the recursive or
//! the oo semantics, and the results must agree"): the same paths (rule
//! sequences, up to the name of the assignment rule), Z3-equivalent path
//! conditions and symbolic states, and the same concrete final states.

use crate::distribution::Required;
use crate::generators::{BasicProgram, Inputs, Path};
use crate::mutants::{MutatedRecursive, SwappedChoice};
use crate::{build, catches, holds, outcome, Real, RealRecursive, Systems, TIMEOUT_MS};
use quickcheck::TestResult;
use std::collections::BTreeMap;
use symex::solver::{prove, Proof};
use symex::theorems::Simulation;
use symex_semantics::eval::{ShowValuation, Valuation};
use symex_semantics::system::{
    ConcreteConfiguration, Rule, Step, SymbolicConfiguration, TransitionSystem,
};
use symex_semantics::term::{BinOp, Name, Sort, Term};

/// The longest concrete run compared.
const MAX_STEPS: usize = 200;

/// A rule's name in §2: §3 splits assignment into global and local.
fn in_basic(rule: Rule) -> Rule {
    match rule {
        Rule::GlobalAssignment => Rule::Assignment,
        other => other,
    }
}

fn rules<C>(steps: &[Step<C>]) -> Vec<Rule> {
    steps.iter().map(|s| in_basic(s.rule)).collect()
}

/// `Ok` when `a = b` is valid (or Z3 cannot tell), else a counterexample.
fn equivalent(a: &Term, b: &Term, inputs: &BTreeMap<Name, Sort>, what: &str) -> Result<(), String> {
    if a == b {
        return Ok(());
    }
    match prove(
        &Term::binary(BinOp::Eq, a.clone(), b.clone()),
        inputs,
        TIMEOUT_MS,
    ) {
        Proof::Valid | Proof::Unknown | Proof::Interrupted => Ok(()),
        Proof::Counterexample(v) => Err(format!(
            "{what}: `{a}` and `{b}` differ for {}",
            ShowValuation(&v)
        )),
    }
}

/// The two concrete runs from `inputs` take the same rules to the same state.
fn same_concrete_runs<A: Simulation, B: Simulation>(
    basic: &A,
    recursive: &B,
    inputs: &Valuation,
) -> Result<(), String> {
    let (mut a, mut b) = (
        basic.concrete_initial(inputs),
        recursive.concrete_initial(inputs),
    );
    for k in 0..MAX_STEPS {
        let (steps_a, steps_b) = (
            basic.concrete().successors(&a),
            recursive.concrete().successors(&b),
        );
        if rules(&steps_a) != rules(&steps_b) {
            return Err(format!(
                "concrete step {k}: {:?} under §2 but {:?} under §3, from {a}",
                rules(&steps_a),
                rules(&steps_b)
            ));
        }
        match (steps_a.into_iter().next(), steps_b.into_iter().next()) {
            (Some(step_a), Some(step_b)) => (a, b) = (step_a.next, step_b.next),
            _ => break,
        }
    }
    let (state_a, state_b) = (a.global_state(), b.global_state());
    if state_a != state_b {
        return Err(format!(
            "final states {} under §2 but {} under §3",
            ShowValuation(&state_a),
            ShowValuation(&state_b)
        ));
    }
    Ok(())
}

/// The symbolic runs `path` selects take the same rules, with equivalent
/// path conditions at every step and equivalent final symbolic states.
fn same_symbolic_runs<A: Simulation, B: Simulation>(
    basic: &A,
    recursive: &B,
    path: &Path,
) -> Result<(), String> {
    let inputs = basic.inputs();
    let (mut a, mut b) = (basic.symbolic_initial(), recursive.symbolic_initial());
    for k in 0..path.steps {
        let (steps_a, steps_b) = (
            basic.symbolic().successors(&a),
            recursive.symbolic().successors(&b),
        );
        if rules(&steps_a) != rules(&steps_b) {
            return Err(format!(
                "symbolic step {k}: {:?} under §2 but {:?} under §3, from {a}",
                rules(&steps_a),
                rules(&steps_b)
            ));
        }
        if steps_a.is_empty() {
            break;
        }
        let i = path.choice(k, steps_a.len());
        match (steps_a.into_iter().nth(i), steps_b.into_iter().nth(i)) {
            (Some(step_a), Some(step_b)) => (a, b) = (step_a.next, step_b.next),
            _ => break,
        }
        equivalent(
            a.path_condition(),
            b.path_condition(),
            inputs,
            &format!("path conditions after {} steps", k + 1),
        )?;
    }
    for ((x, value_a), (_, value_b)) in a.global_state().iter().zip(b.global_state().iter()) {
        equivalent(
            value_a,
            value_b,
            inputs,
            &format!("final symbolic value of `{x}`"),
        )?;
    }
    Ok(())
}

fn agreement<M: Systems>(program: BasicProgram, inputs: Inputs, path: Path) -> TestResult {
    let (basic, recursive) = match (build::<Real>(&program, false), build::<M>(&program, false)) {
        (Ok(basic), Ok(recursive)) => (basic, recursive),
        (Err(error), _) | (_, Err(error)) => return error,
    };
    outcome(
        same_concrete_runs(&basic, &recursive, &inputs.0)
            .and_then(|()| same_symbolic_runs(&basic, &recursive, &path)),
    )
}

type Property = fn(BasicProgram, Inputs, Path) -> TestResult;

#[test]
fn basic_programs_run_alike_under_the_recursive_semantics() {
    holds(
        "§3 on basic programs",
        &Required::nothing(),
        agreement::<RealRecursive> as Property,
    );
}

#[test]
fn agreement_catches_swapped_choice_in_the_recursive_semantics() {
    catches(
        "§3 on basic programs with swapped choice",
        &Required::nothing(),
        agreement::<MutatedRecursive<SwappedChoice>> as Property,
    );
}
