//! Issue 9's measure of the simplifier: on every paper example, the printed
//! path conditions (`φ = …` lines of `explore`, as each example's snapshot
//! in `paper-examples/` runs it) are at least halved against
//! `--no-simplify`, in geometric mean over the examples. Deterministic: it
//! counts characters, it times nothing. `cargo test --test condition_size
//! -- --nocapture` prints the table of docs/simplifier.md.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `.snap` files under `dir`, in name order.
fn snapshots(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).expect("the examples directory is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "snap") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Characters of the path conditions `symex explore ARGS` prints.
fn printed_conditions(examples: &Path, args: &[&str]) -> usize {
    let output = Command::new(env!("CARGO_BIN_EXE_symex"))
        .current_dir(examples)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the symex binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("φ = "))
        .map(|condition| condition.chars().count())
        .sum()
}

#[test]
fn printed_path_conditions_are_at_least_halved() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("paper-examples");
    let mut rows = Vec::new();
    for snapshot in snapshots(&examples) {
        let text = fs::read_to_string(&snapshot).expect("the snapshot is readable");
        let Some(command) = text
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("$ symex "))
        else {
            continue;
        };
        // The snapshot's own options, less a `--no-simplify` (the clause examples keep the raw terms).
        let args: Vec<&str> = command
            .split_whitespace()
            .filter(|arg| *arg != "--no-simplify")
            .collect();
        if args.first() != Some(&"explore") {
            continue;
        }
        let simplified = printed_conditions(&examples, &args);
        let raw = printed_conditions(&examples, &[&args[..], &["--no-simplify"]].concat());
        assert!(
            simplified > 0,
            "`symex {command}` printed no path condition"
        );
        rows.push((command.to_string(), raw, simplified));
    }
    assert!(
        rows.len() >= 30,
        "only {} explored examples found",
        rows.len()
    );
    println!("| example | `--no-simplify` | simplified | ratio |\n|---|---:|---:|---:|");
    let mut log_sum = 0.0;
    for (command, raw, simplified) in &rows {
        let ratio = *raw as f64 / *simplified as f64;
        log_sum += ratio.ln();
        println!("| `{command}` | {raw} | {simplified} | {ratio:.2} |");
    }
    let mean = (log_sum / rows.len() as f64).exp();
    println!(
        "geometric mean of the ratios over {} examples: {mean:.2}",
        rows.len()
    );
    assert!(
        mean >= 2.0,
        "printed path conditions shrink by only {mean:.2} (geometric mean)"
    );
}
