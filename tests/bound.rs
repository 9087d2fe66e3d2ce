//! `symex bound` on loops translated from the Mälardalen WCET benchmarks
//! (bs, bsort, cnt, expint, fac, fdct, fibcall, insertsort, janne_complex,
//! matmult, ns, prime, …) and counting loops up to a million iterations,
//! each file naming its loops' known bounds in order (`// bounds: 15 4`):
//! every bound must be found, exact, with a witness whose concrete run
//! reaches exactly that count. A file that says `// lower bounds:` (and
//! why) expects lower bounds at most the true ones, still replayed; one
//! that says `// slow:` runs only with `BOUND_SLOW=1` (the default run
//! uses an unoptimised binary).

use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The value after `// key:` in `source`, if any.
fn header<'a>(source: &'a str, key: &str) -> Option<&'a str> {
    source
        .lines()
        .find_map(|line| line.strip_prefix(&format!("// {key}:")))
        .map(str::trim)
}

fn check(path: &Path) -> Result<usize, String> {
    let source = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let expected: Vec<u64> = header(&source, "bounds")
        .ok_or("no `// bounds:` line")?
        .split_whitespace()
        .map(|n| n.parse().map_err(|_| format!("bad bound {n}")))
        .collect::<Result<_, _>>()?;
    let lower = header(&source, "lower bounds").is_some();
    let options: Vec<&str> =
        header(&source, "options").map_or(Vec::new(), |o| o.split_whitespace().collect());
    let output = Command::new(env!("CARGO_BIN_EXE_symex"))
        .arg("bound")
        .arg(path)
        .args(["--format", "json"])
        .args(&options)
        .output()
        .map_err(|e| e.to_string())?;
    let report: Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("{e}: {}", String::from_utf8_lossy(&output.stderr)))?;
    let loops = report["loops"].as_array().ok_or("no loops")?;
    if loops.len() != expected.len() {
        return Err(format!(
            "{} loops reported, {} expected",
            loops.len(),
            expected.len()
        ));
    }
    for (found, bound) in loops.iter().zip(&expected) {
        let name = &found["loop"];
        let inner = found["inner_bound"]
            .as_u64()
            .ok_or(format!("loop {name}: no inner bound"))?;
        let replayed = found["replay"]["count"]
            .as_u64()
            .ok_or(format!("loop {name}: no replay"))?;
        if replayed != inner {
            return Err(format!(
                "loop {name}: the witness runs {replayed} iterations, the bound is {inner}"
            ));
        }
        let exact = found["exact"].as_bool() == Some(true);
        match lower {
            false if !exact || inner != *bound => {
                return Err(format!("loop {name}: {found}, expected exactly {bound}"))
            }
            true if exact || inner > *bound => {
                return Err(format!(
                    "loop {name}: {found}, expected a lower bound at most {bound}"
                ))
            }
            _ => {}
        }
        if exact && found["outer_bound"].as_u64() != Some(inner) {
            return Err(format!(
                "loop {name}: an exact bound is its own outer bound"
            ));
        }
    }
    Ok(loops.len())
}

#[test]
fn the_wcet_loops_get_their_known_bounds_with_replayed_witnesses() {
    let slow = std::env::var_os("BOUND_SLOW").is_some();
    let mut files: Vec<_> = std::fs::read_dir("tests/bound")
        .expect("tests/bound")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "sx"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut loops = 0;
    for path in &files {
        let source = std::fs::read_to_string(path).expect("readable");
        if header(&source, "slow").is_some() && !slow {
            continue;
        }
        match check(path) {
            Ok(n) => loops += n,
            Err(why) => failures.push(format!("{}: {why}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(loops >= 38, "only {loops} loops checked");
}

/// A witness whose run the time limit stops reports the count it ran, and
/// says so: the search summarises the loop up to the cap in milliseconds,
/// the run of five million iterations would take seconds.
#[test]
fn a_witness_run_the_time_limit_stops_says_so() {
    let dir = std::env::temp_dir().join(format!("symex-bound-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("count.sx");
    std::fs::write(&path, "i := 0;\nwhile i < n {\n    i := i + 1\n}\n").expect("written");
    let output = Command::new(env!("CARGO_BIN_EXE_symex"))
        .arg("bound")
        .arg(&path)
        .args(["--format", "json", "--time-limit-ms", "2000"])
        .output()
        .expect("symex runs");
    assert_eq!(output.status.code(), Some(3), "a lower bound");
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let found = &report["loops"][0];
    let inner = found["inner_bound"].as_u64().expect("an inner bound");
    assert_eq!(found["replay"]["count"].as_u64(), Some(inner));
    assert!(inner < 5_000_000, "{found}");
    let reason = found["lower_bound_reason"].as_str().expect("a reason");
    assert_eq!(
        reason,
        format!("the search found 5000000, its witness's run stopped after {inner} iterations")
    );
}
