//! Saved tests: `tests --output DIR` writes one JSON file per test, as KLEE
//! writes a `.ktest` per path, and `symex replay DIR|FILE` runs each again
//! on the concrete semantics, as `klee-replay` does. A file names the
//! program (as given on the command line), the semantics it ran under, the
//! path it came from, the inputs in the form `run --heap` reads (so an oo
//! test's heap and a basic test's arrays look alike), the expected outcome
//! and the expected final state (`V ∘ σ`, with the final heap).

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::io;
use std::path::{Path, PathBuf};

/// One test as saved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedTest {
    /// The program's path as given to `tests`.
    pub program: String,
    /// The language whose concrete semantics runs it (`basic`, `recursive`, `oo`).
    pub language: String,
    pub checked_arrays: bool,
    /// What `int` meant (`--int`): absent for mathematical integers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub int: Option<String>,
    /// The path of the exploration the test drives.
    pub path: usize,
    /// `{"objects": {…}, "vars": {…}}`, as `run --heap` reads it.
    pub inputs: Json,
    /// `terminated`, or the error the path ends in (`assertion-failed`, …).
    pub outcome: String,
    /// The state the path predicts, in the form of `inputs`.
    pub final_state: Json,
}

/// The file a test of `path` is saved in.
pub fn file_name(path: usize) -> String {
    format!("path-{path}.json")
}

/// Writes `tests` into `dir` (made if missing), one file each, after
/// removing the test files an earlier run left there; returns the files.
pub fn save(dir: &Path, tests: &[SavedTest]) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    for stale in files(dir)? {
        std::fs::remove_file(stale)?;
    }
    tests
        .iter()
        .map(|test| {
            let file = dir.join(file_name(test.path));
            let text = serde_json::to_string_pretty(test).map_err(io::Error::other)?;
            std::fs::write(&file, text + "\n")?;
            Ok(file)
        })
        .collect()
}

/// The test read from `file`.
pub fn load(file: &Path) -> Result<SavedTest, String> {
    let text = std::fs::read_to_string(file).map_err(|error| format!("cannot read it: {error}"))?;
    serde_json::from_str(&text).map_err(|error| {
        format!(
            "{}:{}: not a saved test: {error}",
            error.line(),
            error.column()
        )
    })
}

/// The saved tests at `path`: the file itself, or the `path-N.json` files
/// of a folder in the order of `N`.
pub fn files(path: &Path) -> io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut found: Vec<(usize, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(path)? {
        let file = entry?.path();
        let number = file
            .file_name()
            .and_then(|name| name.to_str())
            .and_then(|name| {
                name.strip_prefix("path-")?
                    .strip_suffix(".json")?
                    .parse()
                    .ok()
            });
        if let Some(number) = number {
            found.push((number, file));
        }
    }
    found.sort();
    Ok(found.into_iter().map(|(_, file)| file).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn test(path: usize) -> SavedTest {
        SavedTest {
            program: "p.sx".into(),
            language: "basic".into(),
            checked_arrays: false,
            int: None,
            path,
            inputs: json!({"objects": {}, "vars": {"x": -1}}),
            outcome: "terminated".into(),
            final_state: json!({"objects": {}, "vars": {"x": -1, "y": 1}}),
        }
    }

    #[test]
    fn saved_tests_read_back_in_path_order_and_replace_earlier_ones() {
        let dir = std::env::temp_dir().join(format!("symex-saved-{}", std::process::id()));
        let tests: Vec<SavedTest> = [10, 2, 1].into_iter().map(test).collect();
        save(&dir, &tests).unwrap();
        let read: Vec<SavedTest> = files(&dir)
            .unwrap()
            .iter()
            .map(|f| load(f).unwrap())
            .collect();
        assert_eq!(read.iter().map(|t| t.path).collect::<Vec<_>>(), [1, 2, 10]);
        assert_eq!(read[0], tests[2]);
        save(&dir, &[test(3)]).unwrap();
        assert_eq!(files(&dir).unwrap(), [dir.join("path-3.json")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
