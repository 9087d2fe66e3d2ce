//! King's verifier (CACM 1976, §8) is sound, checked as the paper checks
//! correctness against execution: on random annotated programs,
//!
//! 1. whenever `verify` proves a program (by its invariants and
//!    contracts, or by k-induction), no run of it violates an assertion
//!    or an annotation (`run --check-annotations`, King's Algol-W
//!    reading) on random inputs;
//! 2. whenever it gives a counterexample, the program run on that input
//!    with its annotations checked fails.
//!
//! The programs come from three families: a loop with invariant clauses
//! drawn from a pool of linear facts (some true, some not, some too weak);
//! the same loop without them, for k-induction; a procedure with a
//! contract that reads `old(g)`. Each verdict must be common, and the
//! property must catch the verifier with a rule broken: a cut point that
//! makes nothing arbitrary, k-induction that checks its base case only,
//! `old(e)` read at exit.

use crate::distribution::{self, Required};
use crate::{catches_on, holds_on, TIMEOUT_MS};
use quickcheck::{Arbitrary, Gen, TestResult};
use symex::commands::verify::Chosen;
use symex::explore::run::RunEnd;
use symex::explore::{Bounds, ExploreOptions};
use symex::verify::{break_verifier, verify, FailureKind, Mutant, Options, Report, Verdict};
use symex_semantics::annotations::{instrument, CheckKind};
use symex_semantics::eval::{ShowValuation, Valuation};
use symex_semantics::program::{Halt, Outcome, Program};
use symex_semantics::syntax::parse_program;
use symex_semantics::term::Sort;
use symex_semantics::value::Value;

/// Which kind of program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Invariant,
    Induction,
    Contract,
}

/// A random annotated program, as source text.
#[derive(Clone, Debug)]
struct Annotated {
    family: Family,
    source: String,
}

fn pick<'a>(g: &mut Gen, options: &[&'a str]) -> &'a str {
    g.choose(options).copied().unwrap_or_default()
}

fn small(g: &mut Gen, lo: i64, hi: i64) -> i64 {
    let span = (hi - lo + 1) as u64;
    lo + (u64::arbitrary(g) % span) as i64
}

/// A linear fact over `x`, `y` and `n`, true or not.
fn fact(g: &mut Gen) -> String {
    let c = small(g, -2, 4);
    let templates = [
        format!("x <= n + {c}"),
        format!("x >= {c}"),
        format!("y >= {c}"),
        format!("y <= x + {c}"),
        format!("x - y = {c}"),
        format!("y <= {c}"),
        "y >= x".to_string(),
    ];
    g.choose(&templates).cloned().unwrap_or_default()
}

/// A loop `while x < n { x := x + dx; y := … }` from `x₀ <= n`, `y₀`.
struct Loop {
    x0: i64,
    y0: i64,
    dx: i64,
    /// `y := y + dy` with `dy >= 0` when set; another change of `y` otherwise.
    dy: Option<i64>,
    change: String,
}

impl Loop {
    fn arbitrary(g: &mut Gen) -> Loop {
        let dx = small(g, 1, 2);
        let dy = small(g, 0, 2);
        let c = small(g, 0, 3);
        let (dy, change) = match small(g, 0, 2) {
            0 => (Some(dy), format!("y := y + {dy}")),
            1 => (
                None,
                format!("if x > {c} {{ y := y + {dy} }} else {{ y := y - 1 }}"),
            ),
            _ => (None, "y := y + x".to_string()),
        };
        Loop {
            x0: small(g, -1, 2),
            y0: small(g, -1, 2),
            dx,
            dy,
            change,
        }
    }

    /// Facts of the loop that hold at its head on every run (together
    /// inductive): `x` grows from `x₀` and stops within `dx` of `n`, `y`
    /// grows with it by constant steps.
    fn invariants(&self) -> Vec<String> {
        let (x0, y0, dx) = (self.x0, self.y0, self.dx);
        let mut facts = vec![format!("x >= {x0}"), format!("x <= n + {}", dx - 1)];
        if let Some(dy) = self.dy {
            facts.push(format!("y >= {y0}"));
            facts.push(format!("{dx} * (y - {y0}) = {dy} * (x - {x0})"));
        }
        facts
    }

    /// Facts that hold when the loop is done.
    fn consequences(&self) -> Vec<String> {
        let mut facts = vec!["x >= n".to_string(), format!("x <= n + {}", self.dx - 1)];
        if self.dy.is_some() {
            facts.push(format!("y >= {}", self.y0));
        }
        facts
    }

    fn prelude(&self, g: &mut Gen) -> String {
        let hi = small(g, 3, 8);
        format!(
            "assume n >= {} && n <= {hi};\nx := {};\ny := {};\n",
            self.x0, self.x0, self.y0
        )
    }

    fn body(&self, assertion: Option<String>) -> String {
        let assertion = assertion.map_or_else(String::new, |a| format!("; assert {a}"));
        format!("x := x + {}; {}{assertion}", self.dx, self.change)
    }
}

/// One of `true_facts` (mostly) or a random fact.
fn likely(g: &mut Gen, true_facts: &[String]) -> String {
    match small(g, 0, 2) {
        0 => fact(g),
        _ => g.choose(true_facts).cloned().unwrap_or_else(|| fact(g)),
    }
}

fn invariant_program(g: &mut Gen) -> String {
    let looping = Loop::arbitrary(g);
    let true_invariants = looping.invariants();
    let consequences = looping.consequences();
    let clauses = small(g, 1, 3);
    // Half the loops carry every fact of the loop (the annotation a user
    // who knows the loop writes), a quarter all but the bound that the
    // assertion after the loop needs (true, too weak: the condition fails
    // from the loop head), the others a random mix, sometimes with a clause
    // false when the loop is reached (its entry condition fails).
    let (invariants, post): (Vec<String>, String) = match small(g, 0, 3) {
        0 | 1 => {
            let post = g.choose(&consequences).cloned().unwrap_or_default();
            (true_invariants.clone(), post)
        }
        2 => (true_invariants[..1].to_vec(), consequences[1].clone()),
        _ => {
            let mut mixed: Vec<String> =
                (0..clauses).map(|_| likely(g, &true_invariants)).collect();
            match small(g, 0, 2) {
                0 => mixed.push(format!("x > {}", looping.x0)),
                // True for the first iteration only: not preserved.
                1 => mixed.push(format!("x <= {}", looping.x0 + looping.dx)),
                _ => {}
            }
            (mixed, likely(g, &consequences))
        }
    };
    let invariants: Vec<String> = invariants
        .iter()
        .map(|fact| format!("invariant {fact}"))
        .collect();
    format!(
        "{}while x < n {} {{ {} }};\nassert {post}\n",
        looping.prelude(g),
        invariants.join(" "),
        looping.body(None),
    )
}

fn induction_program(g: &mut Gen) -> String {
    let looping = Loop::arbitrary(g);
    let inside = match small(g, 0, 3) {
        0 => None,
        // Fails at the third iteration only: beyond the base case.
        1 => Some(format!("x <= {}", looping.x0 + 2 * looping.dx)),
        _ => Some(likely(g, &looping.invariants())),
    };
    format!(
        "{}while x < n {{ {} }};\nassert {}\n",
        looping.prelude(g),
        looping.body(inside),
        likely(g, &looping.consequences())
    )
}

fn contract_program(g: &mut Gen) -> String {
    // A change of `g`, the contracts it meets, and facts that follow from
    // them after the call (with `0 <= g, a <= 4` before it).
    // A change of `g`, the contracts it meets, facts that follow from them
    // after the call (with `0 <= g, a <= 4` before it), and contracts it
    // breaks for some `u >= 1` that hold if `old(g)` is `g`.
    type Contracts<'s> = (&'s str, &'s [&'s str], &'s [&'s str], &'s [&'s str]);
    let (change, true_ensures, true_after, broken_ensures): Contracts = match small(g, 0, 2) {
        0 => (
            "g := g + u",
            &["g >= old(g)", "g = old(g) + u", "g >= old(g) + u"],
            &["g >= 0", "g != -1"],
            &["g <= old(g)", "g - old(g) <= 0"],
        ),
        1 => (
            "g := g - u",
            &["g <= old(g)", "g = old(g) - u"],
            &["g <= 4", "g != 5"],
            &["g >= old(g)", "old(g) - g <= 0"],
        ),
        _ => (
            "g := g + 2 * u",
            &["g >= old(g) + u", "g = old(g) + 2 * u"],
            &["g >= 0", "g != -2"],
            &["g - old(g) <= 1", "g <= old(g)"],
        ),
    };
    let any_ensures = [
        "g >= old(g)",
        "g <= old(g)",
        "g = old(g) + u",
        "g = old(g) - u",
        "g - old(g) <= 3",
    ];
    let (ensures, after) = match small(g, 0, 3) {
        0 => (pick(g, &any_ensures), None),
        // A contract the body breaks (unless `old(g)` is read at exit), and
        // a caller that asks nothing of it.
        1 => (pick(g, broken_ensures), Some("true")),
        _ => (pick(g, true_ensures), None),
    };
    let extra = match small(g, 0, 5) {
        0 => format!("; if u > {} {{ g := g + 1 }}", small(g, 0, 3)),
        _ => String::new(),
    };
    let argument = pick(g, &["a", "a + 1", "2", "a - g"]);
    let after = after.unwrap_or_else(|| match small(g, 0, 3) {
        0 => pick(g, &["g >= a", "g <= a + 4", "g != 7", "g >= 0", "g <= 8"]),
        _ => pick(g, true_after),
    });
    format!(
        "var g: int;\nproc p(u: int) requires u >= 0 ensures {ensures} {{ {change}{extra} }}\n\
         assume a >= 0 && a <= 4 && g >= 0 && g <= 4;\np({argument});\nassert {after}\n"
    )
}

impl Arbitrary for Annotated {
    fn arbitrary(g: &mut Gen) -> Annotated {
        let family = *g
            .choose(&[Family::Invariant, Family::Induction, Family::Contract])
            .unwrap_or(&Family::Invariant);
        let source = match family {
            Family::Invariant => invariant_program(g),
            Family::Induction => induction_program(g),
            Family::Contract => contract_program(g),
        };
        Annotated { family, source }
    }
}

/// `verify`'s settings: small bounds, k-induction up to 2 for the loops
/// without annotation.
fn verified(program: &Program, family: Family) -> Result<(Report, Chosen), String> {
    let explore = ExploreOptions {
        bounds: Bounds {
            unfold: 4,
            depth: 2000,
            ..Bounds::default()
        },
        timeout_ms: TIMEOUT_MS,
        ..ExploreOptions::default()
    };
    let chosen =
        Chosen::for_program(program, explore, Default::default()).map_err(|e| e.to_string())?;
    let options = Options {
        max_k: (family == Family::Induction).then_some(2),
        ..Options::default()
    };
    Ok((verify(program, &chosen, options), chosen))
}

/// How a run of the program with its annotations checked ends on `inputs`.
fn run_checked(chosen: &Chosen, program: &Program, inputs: Valuation) -> RunEnd {
    use symex::verify::Explorer;
    let instrumented = instrument(program);
    chosen.run(&instrumented.program, inputs).end
}

fn failed(end: RunEnd) -> bool {
    matches!(end, RunEnd::Finished(Outcome::Halted(Halt::Error(_))))
}

/// Random inputs of `program` within the ranges its `assume`s allow (and a
/// little beyond, which the `assume`s reject).
fn random_inputs(program: &Program, seed: u64) -> Valuation {
    let mut state = seed;
    program
        .inputs()
        .iter()
        .map(|(x, sort)| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let value = match sort {
                Sort::Bool => Value::Bool(state >> 63 == 1),
                _ => Value::Int((((state >> 33) % 11) as i64 - 3).into()),
            };
            (x.clone(), value)
        })
        .collect()
}

/// Runs checked per program proved.
const RUNS: u64 = 24;

fn sound(program: Annotated) -> TestResult {
    let parsed = match parse_program(&program.source) {
        Ok(parsed) => parsed,
        Err(error) => return TestResult::error(format!("{}: {error}", program.source)),
    };
    let (report, chosen) = match verified(&parsed, program.family) {
        Ok(verified) => verified,
        Err(why) => return TestResult::error(why),
    };
    let counterexample = report.failures.iter().find_map(|f| match &f.kind {
        FailureKind::Counterexample { inputs, .. } => Some(inputs.clone()),
        _ => None,
    });
    // A failing entry condition: the run on its input fails at that very
    // invariant, on entry.
    for failure in &report.failures {
        let (Some(condition), FailureKind::Counterexample { check, .. }) =
            (&failure.condition, &failure.kind)
        else {
            continue;
        };
        if let CheckKind::InvariantOnEntry(_) = condition.check.kind {
            distribution::record_case("entry condition fails");
            let expected = condition.describe(&parsed);
            if check.as_ref() != Some(&expected) {
                return TestResult::error(format!(
                    "{expected} fails, but the run fails at {check:?}:\n{}",
                    program.source
                ));
            }
        }
    }
    let family = format!("{:?}", program.family);
    match (report.verdict, counterexample) {
        (Verdict::Proved, _) => {
            distribution::record_case(format!("proved ({family})"));
            for seed in 0..RUNS {
                let inputs = random_inputs(&parsed, seed);
                if failed(run_checked(&chosen, &parsed, inputs.clone())) {
                    return TestResult::error(format!(
                        "proved, yet the run on {} fails:\n{}",
                        ShowValuation(&inputs),
                        program.source
                    ));
                }
            }
        }
        (Verdict::Failed, Some(inputs)) => {
            distribution::record_case("counterexample");
            if !failed(run_checked(&chosen, &parsed, inputs.clone())) {
                return TestResult::error(format!(
                    "the counterexample {} does not fail the run:\n{}",
                    ShowValuation(&inputs),
                    program.source
                ));
            }
        }
        (Verdict::Failed, None) => {
            let entry = report
                .failures
                .iter()
                .any(|f| matches!(f.kind, FailureKind::FromEntry { .. }));
            distribution::record_case(match entry {
                true => "fails from an entry state",
                false => "fails from a cut point",
            });
        }
        (Verdict::Inconclusive, _) => distribution::record_case(format!("inconclusive ({family})")),
    }
    TestResult::passed()
}

/// Each case verifies a program, several explorations with Z3: a tenth of
/// the cases of the other properties.
fn tenth() -> u64 {
    (crate::cases() / 10).max(1)
}

fn required() -> Required {
    Required::frequent(&["proved (Invariant)", "proved (Induction)", "counterexample"]).and_cases(
        &[
            "proved (Contract)",
            "fails from a cut point",
            "fails from an entry state",
            "entry condition fails",
        ],
    )
}

#[test]
fn the_verifier_is_sound_on_random_annotated_programs() {
    holds_on(
        "King's verifier is sound",
        tenth(),
        &required(),
        sound as fn(Annotated) -> TestResult,
    );
}

/// The property on the verifier with `mutant`'s rule broken, which it must
/// catch within four times its usual cases.
fn catches(name: &str, mutant: Mutant) {
    break_verifier(Some(mutant));
    catches_on(
        name,
        4 * tenth(),
        &Required::nothing(),
        sound as fn(Annotated) -> TestResult,
    );
    break_verifier(None);
}

#[test]
fn the_soundness_property_catches_a_cut_point_that_makes_nothing_arbitrary() {
    catches("King's verifier without havoc", Mutant::SkipHavoc);
}

#[test]
fn the_soundness_property_catches_k_induction_without_its_step() {
    catches("k-induction with its base case only", Mutant::BaseCaseOnly);
}

#[test]
fn the_soundness_property_catches_old_read_at_exit() {
    catches("old(e) read at exit", Mutant::OldAtExit);
}
