//! The lab sheets of `labs/` never rot: every `labs/*/solution/*.out`
//! starts with a command `$ symex ARGS…`, and run from the lab's folder that
//! command must print the rest of the file, ending with its exit status.
//! `LABS_ACCEPT=1 cargo test --test classroom labs` rewrites the files after
//! a deliberate change (review the diff as you would a snapshot's).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The transcript of `symex ARGS` run in `dir`.
fn transcript(dir: &Path, command: &str) -> String {
    let args: Vec<&str> = command.split_whitespace().collect();
    let output = Command::new(env!("CARGO_BIN_EXE_symex"))
        .current_dir(dir)
        .args(&args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the symex binary runs");
    format!(
        "$ symex {command}\n{}{}[exit status {}]\n",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        output
            .status
            .code()
            .map_or("signal".to_string(), |code| code.to_string())
    )
}

fn solutions() -> Vec<(PathBuf, PathBuf)> {
    let labs = Path::new(env!("CARGO_MANIFEST_DIR")).join("labs");
    let mut found = Vec::new();
    for lab in std::fs::read_dir(&labs)
        .expect("labs/ exists")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
    {
        let Ok(entries) = std::fs::read_dir(lab.join("solution")) else {
            continue;
        };
        for file in entries
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "out"))
        {
            found.push((lab.clone(), file));
        }
    }
    found.sort();
    found
}

#[test]
fn every_lab_solution_matches_the_tool() {
    let accept = std::env::var_os("LABS_ACCEPT").is_some();
    let solutions = solutions();
    assert!(
        solutions.len() >= 34,
        "the six labs have their solutions ({} found)",
        solutions.len()
    );
    let mut stale = Vec::new();
    for (lab, file) in &solutions {
        let expected = std::fs::read_to_string(file).expect("readable");
        let command = expected
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("$ symex "))
            .expect("a solution starts with `$ symex …`");
        let actual = transcript(lab, command);
        if actual != expected {
            if accept {
                std::fs::write(file, &actual).expect("rewritten");
            } else {
                stale.push(format!("{}:\n{actual}", file.display()));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "lab solutions that no longer match the tool (LABS_ACCEPT=1 rewrites them):\n{}",
        stale.join("\n")
    );
}
