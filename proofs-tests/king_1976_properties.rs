//! King's properties of symbolic execution (J. C. King, *Symbolic execution
//! and program testing*, CACM 1976) on random programs, for the explorer as
//! a whole (engine, Z3 bridge, models, replay):
//!
//! 1. every feasible leaf has a model, satisfying its path condition, whose
//!    concrete run takes the leaf's path and ends in its state `V ∘ σ`;
//! 2. the path conditions of distinct leaves are pairwise unsatisfiable;
//! 3. when the whole tree was explored, every input satisfies exactly one
//!    leaf's path condition and its run ends in that leaf's state — or none,
//!    when its run violates an `assume` (the input is outside the program's
//!    domain, SPEC §1.5);
//! 4. a path whose feasibility is unknown carries no model; and no leaf is
//!    unknown for want of a model the evaluator confirms, or because no rule
//!    applies (an evaluator/Z3 disagreement, or a stuck system, is a failure
//!    and not a skipped case).
//!
//! Each case explores a whole tree with Z3, so these run a tenth of
//! `QUICKCHECK_TESTS` cases. Besides a swapped choice, they must catch a Z3
//! encoding that disagrees with the evaluator on `/` (`x / 0` left
//! unspecified, or division truncating towards zero).

use crate::distribution::{self, Required, BASIC_RULES, RECURSIVE_RULES};
use crate::generators::{BasicProgram, Inputs, RecursiveProgram};
use crate::mutants::{Mutated, MutatedRecursive, SwappedChoice};
use crate::{build, catches_on, holds_on, Generated, Real, RealRecursive, Systems, TIMEOUT_MS};
use quickcheck::TestResult;
use symex::explore::run::{run, RunEnd, RunLimits};
use symex::explore::{
    explore, replay, Bounds, ExploreOptions, Leaf, Merge, Status, Tree, UnknownReason,
};
use symex::solver::{break_encoding, Mutant, SatResult, Solver};
use symex::theorems::Simulation;
use symex_semantics::eval::{eval, eval_bool};
use symex_semantics::program::{Halt, Outcome};
use symex_semantics::system::ConcreteConfiguration;
use symex_semantics::term::Term;

/// How many leaves are checked pairwise (the first ones found).
const PAIRED_LEAVES: usize = 8;

/// The tree of `simulation`'s program within small bounds, its
/// configurations merged as `merge` says.
pub fn explored<M: Simulation>(simulation: &M, merge: Merge) -> Tree {
    let bounds = Bounds {
        unfold: 2,
        depth: 400,
        max_paths: Some(32),
        ..Bounds::default()
    };
    let options = ExploreOptions {
        bounds,
        timeout_ms: TIMEOUT_MS,
        merge,
        ..ExploreOptions::default()
    };
    explore(
        simulation.symbolic(),
        simulation.symbolic_initial(),
        simulation.inputs(),
        &options,
    )
}

pub fn leaves(tree: &Tree) -> Vec<(usize, &Leaf)> {
    tree.paths
        .iter()
        .filter_map(|&node| tree.leaf(node).map(|leaf| (node, leaf)))
        .collect()
}

fn models_replay<M: Simulation>(simulation: &M, tree: &Tree) -> Result<(), String> {
    for (node, leaf) in leaves(tree) {
        match (&leaf.status, &leaf.model) {
            (Status::Unknown(_), Some(_)) => {
                return Err(format!("leaf {node} is unknown yet has a model"))
            }
            (Status::Unknown(reason @ (UnknownReason::NoModel | UnknownReason::Stuck)), None) => {
                return Err(format!(
                    "leaf {node} is unknown ({reason}): `{}`",
                    leaf.path_condition
                ))
            }
            (Status::Terminated | Status::Error(_), None) => {
                return Err(format!("feasible leaf {node} has no model"))
            }
            (Status::Terminated | Status::Error(_), Some(model)) => {
                if eval_bool(&leaf.path_condition, model) != Ok(true) {
                    return Err(format!(
                        "the model of leaf {node} violates `{}`",
                        leaf.path_condition
                    ));
                }
                let replayed = replay(tree, node, simulation.concrete(), |v| {
                    simulation.concrete_initial(&v)
                });
                if let Some(mismatch) = replayed.and_then(|r| r.mismatch) {
                    return Err(format!("leaf {node}: {mismatch}"));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn pairwise_disjoint(tree: &Tree) -> Result<(), String> {
    let paired: Vec<_> = leaves(tree).into_iter().take(PAIRED_LEAVES).collect();
    let mut solver = Solver::new(TIMEOUT_MS);
    for (i, (first, phi)) in paired.iter().enumerate() {
        for (second, psi) in &paired[i + 1..] {
            let both = Term::and(phi.path_condition.clone(), psi.path_condition.clone());
            if solver.check_assuming(&both) == SatResult::Sat {
                return Err(format!("leaves {first} and {second} overlap"));
            }
        }
    }
    Ok(())
}

fn inputs_partitioned<M: Simulation>(
    simulation: &M,
    tree: &Tree,
    inputs: &Inputs,
) -> Result<(), String> {
    let all = leaves(tree);
    let complete = tree.unexplored.is_empty()
        && all
            .iter()
            .all(|(_, leaf)| matches!(leaf.status, Status::Terminated | Status::Error(_)));
    if !complete {
        return Ok(());
    }
    let satisfied: Vec<_> = all
        .iter()
        .filter(|(_, leaf)| eval_bool(&leaf.path_condition, &inputs.0) == Ok(true))
        .collect();
    let finished = run(
        simulation.concrete(),
        simulation.concrete_initial(&inputs.0),
        RunLimits::steps(10_000),
        |_, _| {},
    );
    if finished.end == RunEnd::Finished(Outcome::Halted(Halt::AssumptionViolated)) {
        return match satisfied.len() {
            0 => Ok(()),
            n => Err(format!(
                "an input that violates an assumption satisfies {n} leaves"
            )),
        };
    }
    let [(node, leaf)] = satisfied.as_slice() else {
        return Err(format!("the input satisfies {} leaves", satisfied.len()));
    };
    if Some(finished.end) != leaf.status.outcome().map(RunEnd::Finished) {
        return Err(format!(
            "the run ends {:?}, leaf {node} is {}",
            finished.end, leaf.status
        ));
    }
    let state = finished.last.global_state();
    for (x, e) in &leaf.state {
        if state.get(x) != eval(e, &inputs.0).ok().as_ref() {
            return Err(format!("`{x}` differs from leaf {node}'s prediction `{e}`"));
        }
    }
    Ok(())
}

fn king<M: Systems, P: Generated>(program: P, inputs: Inputs) -> TestResult {
    king_merging::<M, P>(program, inputs, Merge::Off)
}

/// King's properties of the tree explored with `merge`.
pub fn king_merging<M: Systems, P: Generated>(
    program: P,
    inputs: Inputs,
    merge: Merge,
) -> TestResult {
    let simulation = match build::<M>(&program, false) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    let tree = explored(&simulation, merge);
    if tree.stats.merges > 0 {
        distribution::record_case("join");
    }
    for node in &tree.nodes {
        if let Some(edge) = &node.edge {
            distribution::record_case(edge.rule);
        }
    }
    for (_, leaf) in leaves(&tree) {
        distribution::record_case(format_args!("leaf {}", leaf.status));
    }
    let verdict = models_replay(&simulation, &tree)
        .and_then(|()| pairwise_disjoint(&tree))
        .and_then(|()| inputs_partitioned(&simulation, &tree, &inputs));
    match verdict {
        Ok(()) => TestResult::passed(),
        Err(why) => TestResult::error(why),
    }
}

/// Each case explores a whole tree: a tenth of the cases of the other properties.
fn tenth() -> u64 {
    (crate::cases() / 10).max(1)
}

#[test]
fn king_properties_hold_on_basic_programs() {
    holds_on(
        "King's properties",
        tenth(),
        &Required::rules(&BASIC_RULES),
        king::<Real, BasicProgram> as fn(BasicProgram, Inputs) -> TestResult,
    );
}

#[test]
fn king_properties_hold_on_recursive_programs() {
    holds_on(
        "King's properties (recursive)",
        tenth(),
        &Required::rules(&RECURSIVE_RULES),
        king::<RealRecursive, RecursiveProgram> as fn(RecursiveProgram, Inputs) -> TestResult,
    );
}

#[test]
fn king_properties_catch_swapped_choice() {
    catches_on(
        "King's properties on a swapped choice",
        tenth(),
        &Required::rules(&BASIC_RULES),
        king::<Mutated<SwappedChoice>, BasicProgram> as fn(BasicProgram, Inputs) -> TestResult,
    );
}

#[test]
fn king_properties_catch_swapped_choice_in_procedures() {
    catches_on(
        "King's properties on a swapped choice (recursive)",
        tenth(),
        &Required::rules(&RECURSIVE_RULES),
        king::<MutatedRecursive<SwappedChoice>, RecursiveProgram>
            as fn(RecursiveProgram, Inputs) -> TestResult,
    );
}

/// King's properties on basic programs explored by a solver that translates
/// with `mutant`: they must find a counterexample within ten times their
/// usual cases (a disagreement shows only where a path condition forces a
/// negative dividend or a zero divisor, and only if Z3's model takes one:
/// about one seed in thirty found none in five times; the run stops at the
/// first one, usually within a few seconds).
fn catches_a_disagreement(name: &str, mutant: Mutant) {
    break_encoding(Some(mutant));
    catches_on(
        name,
        10 * tenth(),
        &Required::nothing(),
        king::<Real, BasicProgram> as fn(BasicProgram, Inputs) -> TestResult,
    );
}

#[test]
fn king_properties_catch_z3_leaving_division_by_zero_unspecified() {
    catches_a_disagreement(
        "King's properties with x / 0 unspecified in Z3",
        Mutant::DivisionByZeroUnspecified,
    );
}

#[test]
fn king_properties_catch_z3_truncating_division() {
    catches_a_disagreement(
        "King's properties with / truncating in Z3",
        Mutant::DivisionTruncates,
    );
}
