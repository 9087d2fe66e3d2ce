//! What several test files share.

use std::path::PathBuf;

/// The `.sx` programs under `dir`, in name order, each with the options its
/// `// snap:` lines give it.
pub fn programs(dir: &str) -> Vec<(PathBuf, Vec<String>)> {
    let mut found = Vec::new();
    let mut pending = vec![PathBuf::from(dir)];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "sx") {
                let source = std::fs::read_to_string(&path).unwrap();
                found.push((path, symex::commands::snap::snap_options(&source)));
            }
        }
    }
    found.sort();
    found
}
