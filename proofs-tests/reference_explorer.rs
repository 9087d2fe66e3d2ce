//! The explorer's shortcuts checked against the plain definition. The
//! reference explorer below has none: it walks the symbolic system depth
//! first and decides every successor by a fresh Z3 query on its whole path
//! condition `φ'` (no model reuse, no intervals, no summaries, no
//! independence slices, no dropped guards, no repair), and takes each
//! leaf's model from a fresh query too. On random programs built to hit the
//! shortcuts — chains of bounds on one variable (`x > 1`, then `x > 3`, then
//! `x <= 3`), coefficients with a gcd other than 1 (`2 * x <= 3`), and
//! equalities chaining variables into one independence slice (`y = x + 1`,
//! `z = y`) — the real explorer must report the same leaves: the same
//! paths (by the rules taken) with the same statuses; each printed path
//! condition equivalent, by Z3, to the reference's raw one; and each model
//! satisfying the printed condition under the evaluator (and the raw one).
//! Each shortcut broken on purpose ([`symex::mutants::Mutant`]) is caught.

use crate::distribution::{self, Required};
use crate::mutated::with_mutant;
use crate::{catches_on, holds_on, TIMEOUT_MS};
use quickcheck::{Arbitrary, Gen, TestResult};
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use symex::explore::{explore, ExploreOptions, Status, Tree};
use symex::mutants::Mutant;
use symex::solver::{prove, Proof, SatResult, Solver};
use symex_semantics::basic::symbolic::{Config, Symbolic};
use symex_semantics::eval::{eval_bool, Valuation};
use symex_semantics::program::{Outcome, Program};
use symex_semantics::syntax::parse_program;
use symex_semantics::system::{
    Configuration, Options, Rule, SymbolicConfiguration, TransitionSystem,
};
use symex_semantics::term::Term;

/// A leaf of the reference explorer.
struct ReferenceLeaf {
    /// `None`: Z3 could not decide a step of the path.
    outcome: Option<Outcome>,
    phi: Term,
}

/// Every path of `system`, keyed by the rules it takes, each step decided
/// by a fresh query on the whole path condition.
fn reference(system: &Symbolic) -> BTreeMap<Vec<Rule>, ReferenceLeaf> {
    let mut leaves = BTreeMap::new();
    let mut stack: Vec<(Config, Vec<Rule>)> = vec![(system.initial(), Vec::new())];
    while let Some((config, rules)) = stack.pop() {
        if let Some(outcome) = config.outcome() {
            let phi = config.path_condition().clone();
            leaves.insert(
                rules,
                ReferenceLeaf {
                    outcome: Some(outcome),
                    phi,
                },
            );
            continue;
        }
        for step in system.successors(&config) {
            let mut taken = rules.clone();
            taken.push(step.rule);
            let mut solver = Solver::new(TIMEOUT_MS);
            solver.assert(step.next.path_condition());
            match solver.check() {
                SatResult::Sat => stack.push((step.next, taken)),
                SatResult::Unsat => distribution::record_case("pruned"),
                SatResult::Unknown | SatResult::Interrupted => {
                    let phi = step.next.path_condition().clone();
                    leaves.insert(taken, ReferenceLeaf { outcome: None, phi });
                }
            }
        }
    }
    leaves
}

/// The real explorer's leaves against the reference's.
fn same_leaves(program: &Rc<Program>) -> Result<(), String> {
    let options = Options::default();
    let system = Symbolic::new(program.clone(), options)?;
    let explore_options = ExploreOptions {
        timeout_ms: TIMEOUT_MS,
        ..ExploreOptions::default()
    };
    let tree = explore(
        &system,
        system.initial(),
        &program.globals,
        &explore_options,
    );
    let expected = reference(&system);
    let found = leaves(&tree);
    if found.len() != expected.len() {
        return Err(format!(
            "the explorer reports {} paths, the plain definition {}",
            found.len(),
            expected.len()
        ));
    }
    for (rules, (status, printed, model)) in &found {
        let Some(plain) = expected.get(rules) else {
            return Err(format!(
                "the explorer reports a path the plain definition prunes: {rules:?}"
            ));
        };
        match (status, plain.outcome) {
            (Status::Unknown(_), Some(_)) => {
                return Err(format!(
                    "path {rules:?} is unknown, the plain definition decides it ({})",
                    plain.phi
                ))
            }
            (status, Some(outcome)) if status.outcome() != Some(outcome) => {
                return Err(format!(
                    "path {rules:?} ends {status}, by the plain definition {outcome}"
                ))
            }
            _ => {}
        }
        let equivalent = Term::and(
            Term::implies(printed.clone(), plain.phi.clone()),
            Term::implies(plain.phi.clone(), printed.clone()),
        );
        match prove(&equivalent, &program.globals, TIMEOUT_MS) {
            Proof::Valid => distribution::record_case("condition equivalent"),
            Proof::Counterexample(v) => {
                return Err(format!(
                    "path {rules:?}: the printed φ = {printed} and the plain {} differ at {v:?}",
                    plain.phi
                ))
            }
            Proof::Unknown | Proof::Interrupted => {}
        }
        if let Some(model) = model {
            for (what, phi) in [("printed", printed), ("plain", &plain.phi)] {
                if eval_bool(phi, model) != Ok(true) {
                    return Err(format!(
                        "path {rules:?}: its model {model:?} does not satisfy the {what} φ = {phi}"
                    ));
                }
            }
            distribution::record_case("model satisfies φ");
        }
        distribution::record_case(format_args!("leaf {status}"));
    }
    Ok(())
}

/// The real explorer's leaves by the rules taken: status, printed path condition, model.
fn leaves(tree: &Tree) -> BTreeMap<Vec<Rule>, (Status, Term, Option<Valuation>)> {
    tree.paths
        .iter()
        .filter_map(|&node| {
            let leaf = tree.leaf(node)?;
            Some((
                tree.rules_to(node),
                (
                    leaf.status.clone(),
                    leaf.path_condition.clone(),
                    leaf.model.clone(),
                ),
            ))
        })
        .collect()
}

/// A basic program over `x`, `y`, `z` made to reach the shortcuts: guards
/// bounding one variable again and again, scaled by 2 or 3, equating
/// variables, or bounding a sum of two (model repair through a sum); assignments that shift or scale them; assertions.
#[derive(Clone)]
pub struct ShortcutProgram(Rc<Program>, String);

impl fmt::Debug for ShortcutProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.1)
    }
}

const VARS: [&str; 3] = ["x", "y", "z"];
const COMPARISONS: [&str; 6] = ["<", "<=", ">", ">=", "=", "!="];

fn pick<'a>(g: &mut Gen, options: &[&'a str]) -> &'a str {
    g.choose(options).copied().unwrap_or("x")
}

fn constant(g: &mut Gen) -> i64 {
    i64::from(u8::arbitrary(g) % 9) - 3
}

/// A guard, tallied by the shortcut it aims at.
fn guard(g: &mut Gen) -> String {
    let (v, op, c) = (pick(g, &VARS), pick(g, &COMPARISONS), constant(g));
    match u8::arbitrary(g) % 7 {
        0 | 1 => {
            distribution::record_case("bound x op c");
            format!("{v} {op} {c}")
        }
        2 => {
            distribution::record_case("scaled bound k * x op c");
            let k = *g.choose(&[2, 3, -2]).unwrap_or(&2);
            format!("{k} * {v} {op} {c}")
        }
        3 | 4 => {
            distribution::record_case("equality chaining variables");
            let w = pick(g, &VARS);
            format!("{v} = {w} + {c}")
        }
        5 => {
            distribution::record_case("sum of two variables op c");
            let w = pick(g, &VARS);
            format!("{v} + {w} {op} {c}")
        }
        _ => {
            let w = pick(g, &VARS);
            format!("{v} {op} {w} + {c}")
        }
    }
}

fn statement(g: &mut Gen, budget: &mut usize, nesting: usize) -> String {
    *budget = budget.saturating_sub(1);
    let v = pick(g, &VARS);
    match u8::arbitrary(g) % 8 {
        0 => format!("{v} := {v} + {}", constant(g)),
        1 => format!(
            "{v} := {} * {}",
            *g.choose(&[2, 3]).unwrap_or(&2),
            pick(g, &VARS)
        ),
        2 => format!("assert {}", guard(g)),
        _ if nesting > 0 && *budget > 0 => {
            let then = block(g, budget, nesting - 1);
            let otherwise = if bool::arbitrary(g) {
                block(g, budget, nesting - 1)
            } else {
                "skip".to_string()
            };
            format!("if {} {{ {then} }} else {{ {otherwise} }}", guard(g))
        }
        _ => format!("assume {}", guard(g)),
    }
}

fn block(g: &mut Gen, budget: &mut usize, nesting: usize) -> String {
    let mut statements = vec![statement(g, budget, nesting)];
    while *budget > 0 && u8::arbitrary(g) % 3 != 0 {
        statements.push(statement(g, budget, nesting));
    }
    statements.join(";\n")
}

impl Arbitrary for ShortcutProgram {
    fn arbitrary(g: &mut Gen) -> ShortcutProgram {
        let mut budget = 7;
        let mut source = String::from("var x: int, y: int, z: int;\n");
        // Bounds on one variable first, as a loop's guards chain them.
        for _ in 0..u8::arbitrary(g) % 3 {
            let c = constant(g);
            source.push_str(&format!("if x > {c} {{ skip }};\n"));
        }
        source.push_str(&block(g, &mut budget, 3));
        let program = parse_program(&source).unwrap_or_else(|e| panic!("{e:?}\n{source}"));
        ShortcutProgram(Rc::new(program), source)
    }
}

fn agrees(program: ShortcutProgram) -> TestResult {
    match same_leaves(&program.0) {
        Ok(()) => TestResult::passed(),
        Err(why) => TestResult::error(why),
    }
}

/// Programs: each asks Z3 for every step of every path, twice over.
fn tests() -> u64 {
    (crate::cases() / 10).max(1)
}

fn required() -> Required {
    Required::cases(&[
        "bound x op c",
        "scaled bound k * x op c",
        "equality chaining variables",
        "sum of two variables op c",
        "pruned",
        "condition equivalent",
        "model satisfies φ",
        "leaf terminated",
        "leaf error assertion-failed",
    ])
}

#[test]
fn the_explorer_reports_the_leaves_of_the_plain_definition() {
    holds_on(
        "the explorer against the reference explorer",
        tests(),
        &required(),
        agrees as fn(ShortcutProgram) -> TestResult,
    );
}

/// The property against the explorer with `mutant`: it must find a counterexample.
fn caught(mutant: Mutant) {
    with_mutant(mutant, || {
        catches_on(
            &format!("the explorer with {mutant:?} against the reference explorer"),
            tests() * 4,
            &Required::nothing(),
            agrees as fn(ShortcutProgram) -> TestResult,
        )
    });
}

#[test]
fn an_off_by_one_interval_for_greater_is_caught() {
    caught(Mutant::IntervalOfGreaterOffByOne);
}

#[test]
fn a_dropped_stronger_guard_in_the_solver_chain_is_caught() {
    caught(Mutant::StrongerGuardDropped);
}

#[test]
fn a_looser_interval_meet_is_caught() {
    caught(Mutant::LooserIntervalMeet);
}

#[test]
fn a_model_repair_left_unconfirmed_on_the_path_is_caught() {
    caught(Mutant::RepairUnconfirmed);
}

#[test]
fn a_non_transitive_independence_slice_is_caught() {
    caught(Mutant::NonTransitiveSlice);
}

#[test]
fn a_gcd_rounding_error_in_the_printed_condition_is_caught() {
    caught(Mutant::GcdRoundsUp);
}
