//! `symex check` (`check_program`): no disagreement on the paper's examples,
//! and a shrunk counterexample, named after the failing result, on a mutant.

use crate::mutants::{Mutated, SwappedChoice};
use crate::{options, Systems};
use std::path::Path;
use std::rc::Rc;
use symex::theorems::check::{check, Bounds, BASIC_RESULTS};
use symex::theorems::check_program;
use symex_semantics::syntax::parse_program;

fn example(path: &str) -> Rc<symex_semantics::program::Program> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("paper-examples")
        .join(path);
    let source =
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    Rc::new(parse_program(&source).unwrap_or_else(|d| panic!("{}: {d}", file.display())))
}

#[test]
fn the_basic_paper_examples_pass_with_and_without_checked_arrays() {
    for name in [
        "abs.sx",
        "array_max.sx",
        "array_swap.sx",
        "gcd.sx",
        "king_search.sx",
        "king_sum.sx",
        "while_loop.sx",
    ] {
        let program = example(&format!("basic/{name}"));
        for checked in [false, true] {
            let report = check_program(
                program.clone(),
                program.language,
                options(checked),
                5,
                7,
                None,
            )
            .unwrap();
            assert!(report.passed(), "{name}:\n{report}");
            // Random indices seldom fall inside random arrays: under checked
            // arrays an assignment may always leave through `array-out-of-bound`.
            let every_result_checked = report.results.iter().all(|r| r.cases > 0);
            assert!(
                every_result_checked || (checked && name.starts_with("array")),
                "{name}: a result was never checked\n{report}"
            );
            assert!(report.to_string().contains("seed 7"));
        }
    }
}

#[test]
fn the_recursive_paper_examples_pass() {
    for name in [
        "accumulate.sx",
        "countdown.sx",
        "even_odd.sx",
        "factorial.sx",
        "fibonacci.sx",
    ] {
        let program = example(&format!("recursive/{name}"));
        let report = check_program(
            program.clone(),
            program.language,
            options(false),
            3,
            7,
            None,
        )
        .unwrap();
        assert!(report.passed(), "{name}:\n{report}");
        assert!(
            report.to_string().contains("Theorem 3.5 (Correctness)"),
            "{report}"
        );
    }
}

#[test]
fn a_mutant_fails_with_a_minimal_counterexample() {
    let program = example("basic/abs.sx");
    let simulation = Mutated::<SwappedChoice>::build(program, options(false)).unwrap();
    let report = check(
        &simulation,
        "basic",
        BASIC_RESULTS,
        false,
        20,
        1,
        Bounds::default(),
    );
    assert!(!report.passed());
    let completeness = &report.results[3];
    let counterexample = completeness
        .counterexample
        .as_ref()
        .expect("completeness fails on swapped choice");
    // The first choice is where the runs part: one step, and `x` shrunk to 0.
    assert_eq!(counterexample.steps, 1, "{report}");
    assert_eq!(counterexample.inputs["x"], "0", "{report}");
    let json = serde_json::to_string(&report).unwrap();
    assert!(json.contains("\"Theorem 2.4 (Completeness)\""), "{json}");
}
