//! `--method lazy` with state subsumption from the command line (Anand,
//! Păsăreanu & Visser 2006): exact subsumption proves a list loop that
//! bounded exploration leaves inconclusive; the list abstraction ends the
//! fixed list partition `abstracted`, never `proved`, with the paper's
//! counts give or take two; the buggy list and array partitions give
//! counterexamples whose printed `--heap` and input replay with `run`;
//! the precondition `acyclic` refuses a cyclic `--heap`; subsumption
//! without lazy initialisation is refused.

use std::process::{Command, Output};

fn symex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(args)
        .output()
        .expect("symex runs")
}

fn write(name: &str, source: &str) -> String {
    let path = std::env::temp_dir().join(format!("symex-lazy-{}-{name}", std::process::id()));
    std::fs::write(&path, source).expect("writable");
    path.display().to_string()
}

/// Walks a list by its own input variable: every node left behind is
/// garbage, so the state at the loop head repeats up to renaming.
const CLAMP: &str = "class Node { field elem: int, next: Node; }
var l: Node;
while l != nil {
    if l.elem < 0 { l.elem := 0 };
    assert l.elem >= 0;
    l := l.next
}";

#[test]
fn exact_subsumption_proves_a_list_loop_that_bounds_leave_inconclusive() {
    let file = write("clamp.sx", CLAMP);
    let bounded = symex(&["verify", &file, "--method", "lazy", "--unfold", "3"]);
    let text = String::from_utf8_lossy(&bounded.stdout);
    assert_eq!(bounded.status.code(), Some(3), "{text}");
    assert!(text.starts_with("inconclusive"), "{text}");
    let subsumed = symex(&["verify", &file, "--method", "lazy", "--subsume"]);
    let text = String::from_utf8_lossy(&subsumed.stdout);
    assert_eq!(subsumed.status.code(), Some(0), "{text}");
    assert!(text.starts_with("proved"), "{text}");
    assert!(text.contains("closed by exact subsumption"), "{text}");
}

/// Anand et al.'s counts for the fixed list partition (§6): 23 checks,
/// 11 subsumed, 12 stored.
const PAPER_LIST_PARTITION: [u64; 3] = [23, 11, 12];

/// The paper's analysis of the list partition: lazy initialisation of an
/// acyclic input list, states matched under the list abstraction.
const ACYCLIC_LISTS: [&str; 6] = [
    "--method",
    "lazy",
    "--abstract",
    "list",
    "--assume",
    "acyclic",
];

#[test]
fn the_list_abstraction_ends_the_fixed_partition_abstracted_with_the_papers_counts() {
    let file = "paper-examples/oo/anand_list_partition_fixed.sx";
    let output = symex(&[&["verify", file][..], &ACYCLIC_LISTS, &["--format", "json"]].concat());
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(output.status.code(), Some(3), "{report}");
    let counts = &report["stats"]["subsumption"];
    assert_eq!(counts["abstraction"], "list", "{report}");
    let ours: Vec<u64> = ["checks", "subsumed", "stored"]
        .iter()
        .map(|k| counts[k].as_u64().expect("a count"))
        .collect();
    assert_eq!(ours, [25, 13, 12], "{report}");
    assert_eq!(ours[0], ours[1] + ours[2]);
    for (ours, paper) in ours.iter().zip(PAPER_LIST_PARTITION) {
        assert!(
            2 * ours >= paper && *ours <= 2 * paper,
            "{ours} vs the paper's {paper}"
        );
    }
}

/// The printed `--heap` of the counterexample `verify` finds in `file`.
fn counterexample_heap(file: &str, options: &[&str]) -> serde_json::Value {
    let output = symex(&[&["verify", file][..], options].concat());
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}");
    let heap = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("as --heap: "))
        .expect("a printed --heap");
    serde_json::from_str(heap).expect("json heap")
}

#[test]
fn the_buggy_list_partition_fails_on_the_papers_two_node_list_that_run_replays() {
    let file = "paper-examples/oo/anand_list_partition_buggy.sx";
    let heap = counterexample_heap(file, &ACYCLIC_LISTS);
    // The paper's list: l ↦ o1 ↦ o2 ↦ nil, o1.elem <= v < o2.elem.
    let objects = &heap["objects"];
    assert_eq!(objects.as_object().map(|o| o.len()), Some(2), "{heap}");
    let first = heap["vars"]["l"].as_str().expect("l is an object");
    let second = objects[first]["next"].as_str().expect("a second node");
    assert!(objects[second]["next"].is_null(), "{heap}");
    let v = &heap["vars"]["v"];
    let elem = |o: &str| objects[o]["elem"].as_i64().expect("an elem");
    assert!(elem(first) <= v.as_i64().expect("v") && elem(second) > v.as_i64().expect("v"));
    let path = write("heap.json", &heap.to_string());
    let run = symex(&["run", file, "--assume", "acyclic", "--heap", &path]);
    let ran = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{ran}");
    assert!(ran.starts_with("assertion-failed"), "{ran}");
}

/// Without the precondition the first counterexample is the cyclic 2-node
/// heap `o2.next ↦ o1`: a real run, which `run` replays, and which `run
/// --assume acyclic` refuses, naming the cycle.
#[test]
fn without_the_precondition_the_counterexample_is_cyclic_and_run_assume_acyclic_refuses_it() {
    let file = "paper-examples/oo/anand_list_partition_buggy.sx";
    let heap = counterexample_heap(file, &["--method", "lazy", "--abstract", "list"]);
    let path = write("cyclic.json", &heap.to_string());
    let run = symex(&["run", file, "--heap", &path]);
    let ran = String::from_utf8_lossy(&run.stdout);
    assert!(ran.starts_with("assertion-failed"), "{heap}: {ran}");
    let refused = symex(&["run", file, "--assume", "acyclic", "--heap", &path]);
    let error = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{error}");
    assert!(
        error.contains("--assume acyclic: the input heap has a cycle, o1.next ↦ o2, o2.next ↦ o1"),
        "{heap}: {error}"
    );
}

/// `check --method lazy --assume acyclic` draws acyclic heaps, each of
/// which exactly one lazy path matches.
#[test]
fn check_holds_lazy_initialisation_to_the_precondition() {
    let file = "paper-examples/oo/anand_list_partition_buggy.sx";
    let args = ["check", file, "--method", "lazy", "--assume", "acyclic"];
    let output = symex(&[&args[..], &["--runs", "200", "--seed", "7"]].concat());
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(text.contains("lazy initialisation agrees"), "{text}");
}

#[test]
fn the_precondition_needs_lazy_initialisation() {
    let file = write("assume.sx", CLAMP);
    let output = symex(&["explore", &file, "--method", "wp", "--assume", "acyclic"]);
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("it needs --method lazy"), "{error}");
}

#[test]
fn the_buggy_array_partition_reads_out_of_bounds_and_run_replays_it() {
    let file = "paper-examples/basic/anand_array_partition_buggy.sx";
    let args = [
        "--checked-arrays",
        "--method",
        "lazy",
        "--abstract",
        "array",
    ];
    let output = symex(&[&["verify", file][..], &args[..], &["--format", "json"]].concat());
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(output.status.code(), Some(1), "{report}");
    // The array as JSON: its length, default and the cells that differ.
    let a = &report["counterexample"]["inputs"]["a"];
    let len = a["len"].as_u64().expect("a length");
    let cells: Vec<String> = (0..len)
        .map(|i| {
            a["entries"]
                .get(i.to_string())
                .unwrap_or(&a["default"])
                .to_string()
        })
        .collect();
    let input = format!("a=[{}]", cells.join(","));
    let run = symex(&["run", file, "--checked-arrays", "--input", &input]);
    let ran = String::from_utf8_lossy(&run.stdout);
    assert!(ran.starts_with("array-out-of-bound"), "{input}: {ran}");
}

#[test]
fn subsumption_without_lazy_initialisation_is_refused() {
    let file = write("refused.sx", CLAMP);
    let output = symex(&["verify", &file, "--subsume"]);
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("add --method lazy"), "{error}");
}

/// The buggy array partition fails on a 3-element array, the shortest its
/// precondition `len(a) > 2` admits; the paper's 4-element array fails too
/// (JPF's search met it first; it is not the smallest).
#[test]
fn the_buggy_array_partition_fails_on_the_shortest_array_its_precondition_admits() {
    let file = "paper-examples/basic/anand_array_partition_buggy.sx";
    let ran = |input: &str| {
        let run = symex(&["run", file, "--checked-arrays", "--input", input]);
        String::from_utf8_lossy(&run.stdout).into_owned()
    };
    assert!(ran("a=[0,0]").starts_with("assumption-violated"));
    for input in ["a=[0,0,0]", "a=[0,0,0,0]"] {
        let out = ran(input);
        assert!(out.starts_with("array-out-of-bound"), "{input}: {out}");
    }
}

/// A loop guard whose definedness condition (`--checked-arrays`) reads an
/// element the guard itself never reads (behind `0 <= len(a) && len(a) <
/// len(a)`): lazy initialisation resolves what `δ` reads too, so both
/// values of `b` have their path (a random program found this: the step
/// met a read nothing had initialised).
#[test]
fn what_only_the_definedness_condition_reads_is_initialised_too() {
    let file = write(
        "delta-reads.sx",
        "var a: int[];
var b: bool;
while !b || (!(0 <= len(a) && len(a) < len(a)) || a[len(a)] <= 0 || len(a) > a[-1]) {
}",
    );
    let explored = symex(&[
        "explore",
        &file,
        "--method",
        "lazy",
        "--lang",
        "oo",
        "--checked-arrays",
        "--unfold",
        "1",
    ]);
    let text = String::from_utf8_lossy(&explored.stdout);
    assert_eq!(explored.status.code(), Some(0), "{text}");
    assert!(
        text.contains("2 paths: 0 terminated, 0 errors, 2 bounded"),
        "{text}"
    );
    assert!(
        text.contains("b ↦ true}") && text.contains("b ↦ false}"),
        "{text}"
    );
}
