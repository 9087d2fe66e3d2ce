//! Limits and streams keep what was found (`docs/reliability.md`): a
//! command cut by its time limit or by Ctrl-C prints everything it found,
//! in the requested format, names the limit and exits 3 (130 for Ctrl-C);
//! a closed standard output or error ends it quietly, never with exit 2
//! for a closed pipe, never with a panic.

use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn symex() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_symex"));
    command.env("NO_COLOR", "1");
    command
}

/// A program of 2^24 paths, none of them hard: minutes of work even for a
/// fast machine's release build. In a file of the calling test's own
/// (`name`): tests run at once, and one rewriting a shared file would let
/// another's command read it half-written.
fn branches(name: &str) -> PathBuf {
    let source: Vec<String> = (0..24)
        .map(|i| format!("if x{i} > 0 {{ c := c + 1 }} else {{ c := c - 1 }}"))
        .collect();
    let path = std::env::temp_dir().join(format!("symex-limits-{name}-{}.sx", std::process::id()));
    std::fs::write(&path, source.join(";\n")).unwrap();
    path
}

fn run(args: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let output = symex().args(args).output().unwrap();
    (output, start.elapsed())
}

fn json(output: &Output) -> Json {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)))
}

#[test]
fn tests_cut_at_its_time_limit_prints_the_tests_made_in_json() {
    let file = branches("tests_cut_at_its_time_limit_prints_the_tests_made_in_json");
    let (output, _) = run(&[
        "tests",
        file.to_str().unwrap(),
        "--time-limit-ms",
        "1000",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(3));
    let report = json(&output);
    assert_eq!(report["stopped"], "time-limit");
    let tests = report["tests"].as_array().unwrap();
    assert!(!tests.is_empty(), "no test kept");
    assert!(tests.iter().all(|t| t["replayed"] == true));
}

#[test]
fn check_cut_at_its_time_limit_prints_the_runs_done() {
    let file = branches("check_cut_at_its_time_limit_prints_the_runs_done");
    for format in ["json", "text"] {
        let (output, _) = run(&[
            "check",
            file.to_str().unwrap(),
            "--runs",
            "1000000",
            "--time-limit-ms",
            "1000",
            "--format",
            format,
        ]);
        assert_eq!(output.status.code(), Some(3));
        if format == "json" {
            let report = json(&output);
            assert_eq!(report["stopped"], "time-limit");
            assert!(report["runs_done"].as_u64().unwrap() < 1_000_000);
            assert!(report["results"][0]["cases"].as_u64().unwrap() > 0);
        } else {
            let text = String::from_utf8_lossy(&output.stdout);
            assert!(text.contains("runs: time limit reached"), "{text}");
        }
    }
}

#[test]
fn verify_and_compare_cut_at_their_time_limit_name_it() {
    let file = branches("verify_and_compare_cut_at_their_time_limit_name_it");
    let (output, _) = run(&[
        "verify",
        file.to_str().unwrap(),
        "--time-limit-ms",
        "500",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(3));
    let report = json(&output);
    assert_eq!(report["verdict"], "inconclusive");
    assert_eq!(report["stopped"], "time-limit");
    let (output, _) = run(&[
        "compare",
        file.to_str().unwrap(),
        "--time-limit-ms",
        "500",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(json(&output)["comparisons"][0]["stopped"], "time-limit");
}

#[test]
fn a_closed_standard_output_ends_the_run_quietly_with_141() {
    let program = std::env::temp_dir().join(format!("symex-pipe-{}.sx", std::process::id()));
    std::fs::write(&program, "x := 0;\nwhile x < n { x := x + 1 }\n").unwrap();
    let mut child = symex()
        .args([
            "run",
            program.to_str().unwrap(),
            "--input",
            "n=100000",
            "--trace",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader goes away after one line, as `head -1` does.
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(first.starts_with("  ⟨x := 0"), "{first}");
    assert_eq!(status.code(), Some(141), "{stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn a_closed_standard_error_never_makes_a_panic() {
    let program = std::env::temp_dir().join(format!("symex-bad-{}.sx", std::process::id()));
    std::fs::write(&program, "x := \n").unwrap();
    let mut child = symex()
        .args(["run", program.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2), "bad input, said to no one");
}

/// Runs symex with `args`, presses Ctrl-C (SIGINT) after 1.5 s, and
/// checks it ends within 2 s (a second, as asked, with room for a loaded
/// machine) with exit 130; waits at most ten seconds, so a command that
/// ignores Ctrl-C fails the test instead of hanging it. Its standard output.
fn interrupted_at_once(args: &[&str]) -> String {
    let mut child = symex().args(args).stdout(Stdio::piped()).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let interrupted = Instant::now();
    let signalled = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(signalled.success());
    while child.try_wait().unwrap().is_none() && interrupted.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let took = interrupted.elapsed();
    let _ = child.kill();
    let output = child.wait_with_output().unwrap();
    assert!(
        took < Duration::from_secs(2),
        "stopped {took:?} after Ctrl-C"
    );
    assert_eq!(output.status.code(), Some(130));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn ctrl_c_stops_at_once_with_what_was_found() {
    let file = branches("ctrl_c_stops_at_once_with_what_was_found");
    let text = interrupted_at_once(&["verify", file.to_str().unwrap()]);
    // The report itself shows the stop was clean: the last resort ends a
    // command silently.
    assert!(
        text.starts_with("inconclusive") && text.contains("unexplored (interrupted)"),
        "{text}"
    );
}

#[test]
fn ctrl_c_stops_a_concrete_run_at_once() {
    let file = std::env::temp_dir().join(format!("symex-limits-run-{}.sx", std::process::id()));
    std::fs::write(&file, "while x >= 0 { x := x + 1 }").unwrap();
    let file = file.to_str().unwrap();
    let max_steps = ["--max-steps", "1000000000000"];
    let text = interrupted_at_once(&[&["run", file, "--input", "x=0"], &max_steps[..]].concat());
    assert!(text.contains("interrupted after"), "{text}");
}

#[test]
fn a_terminal_sees_the_status_line_and_quiet_silences_it() {
    let file = branches("a_terminal_sees_the_status_line_and_quiet_silences_it");
    let line = |quiet: &str| {
        // `script` gives the command a pseudo-terminal; its log is what the terminal showed.
        let command = format!(
            "{} {quiet} check {} --runs 1000000 --time-limit-ms 1800",
            env!("CARGO_BIN_EXE_symex"),
            file.display()
        );
        let output = Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let shown = line("");
    assert!(
        shown.contains(" runs, 1.") && shown.contains("Ctrl-C stops"),
        "{shown}"
    );
    let quiet = line("--quiet");
    assert!(!quiet.contains("Ctrl-C stops"), "{quiet}");
}
