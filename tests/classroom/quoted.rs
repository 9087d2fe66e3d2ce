//! Prose cannot drift from the tool: every ```` ```console ```` block of the
//! README, `docs/` and the lab sheets starts with `$ symex ARGS…`, and run
//! from the project root (from the lab's folder for a lab sheet) that
//! command must print the rest of the block. A line `…` stands for any
//! number of lines the quote leaves out. A fenced block that quotes a
//! `$ symex` command without being a console block fails too, so no quote
//! escapes the check.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Markdown files whose quotes are checked, each with the folder its
/// commands run in.
fn documents() -> Vec<(PathBuf, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = vec![(root.join("README.md"), root.to_path_buf())];
    let markdown = |dir: &Path| -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|entries| entries.flatten().map(|entry| entry.path()).collect())
            .unwrap_or_default();
        files.retain(|path| path.extension().is_some_and(|ext| ext == "md"));
        files.sort();
        files
    };
    found.extend(
        markdown(&root.join("docs"))
            .into_iter()
            .map(|file| (file, root.to_path_buf())),
    );
    found.extend(
        markdown(&root.join("labs"))
            .into_iter()
            .map(|file| (file, root.to_path_buf())),
    );
    let mut labs: Vec<PathBuf> = std::fs::read_dir(root.join("labs"))
        .expect("labs/ exists")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    labs.sort();
    for lab in labs {
        found.extend(markdown(&lab).into_iter().map(|file| (file, lab.clone())));
    }
    found
}

/// The fenced blocks of `text`: `(info string, line of the fence, body
/// lines)`, a block indented in a list item read without its indentation.
fn fenced_blocks(text: &str) -> Vec<(String, usize, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, usize, Vec<String>)> = None;
    let mut indent = 0;
    for (number, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (None, Some(info)) => {
                indent = line.len() - line.trim_start().len();
                open = Some((info.trim().to_string(), number + 1, Vec::new()));
            }
            (Some(_), Some(_)) => blocks.extend(open.take()),
            (Some((_, _, body)), None) => {
                let unindented = line
                    .get(indent..)
                    .filter(|_| line[..indent].trim().is_empty());
                body.push(unindented.unwrap_or(line).to_string());
            }
            (None, None) => {}
        }
    }
    blocks
}

/// `ARGS…` split as a shell would for the simple quoting docs use (`'…'`, `"…"`).
fn split_args(command: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut current: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => current.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                current.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => args.extend(current.take()),
            (None, c) => current.get_or_insert_with(String::new).push(c),
        }
    }
    args.extend(current);
    args
}

/// Whether `printed` matches `quoted`, where a quoted line `…` matches any
/// run of lines (none included).
fn matches(quoted: &[String], printed: &[&str]) -> bool {
    match quoted.split_first() {
        None => printed.is_empty(),
        Some((first, rest)) if first == "…" => {
            (0..=printed.len()).any(|skip| matches(rest, &printed[skip..]))
        }
        Some((first, rest)) => printed
            .split_first()
            .is_some_and(|(line, more)| line == first && matches(rest, more)),
    }
}

#[test]
fn every_quoted_output_is_what_the_tool_prints() {
    let mut checked = 0;
    let mut elided = 0;
    let mut failures = Vec::new();
    for (file, dir) in documents() {
        let text = std::fs::read_to_string(&file).expect("a document is readable");
        for (info, line, body) in fenced_blocks(&text) {
            let quotes_symex = body.iter().any(|l| l.starts_with("$ symex "));
            if info != "console" {
                if quotes_symex {
                    failures.push(format!(
                        "{}:{line}: a quoted `$ symex` run outside a console block",
                        file.display()
                    ));
                }
                continue;
            }
            let Some(command) = body
                .first()
                .and_then(|first| first.strip_prefix("$ symex "))
            else {
                failures.push(format!(
                    "{}:{line}: a console block must start with `$ symex …`",
                    file.display()
                ));
                continue;
            };
            let output = Command::new(env!("CARGO_BIN_EXE_symex"))
                .current_dir(&dir)
                .args(split_args(command))
                .env("NO_COLOR", "1")
                .output()
                .expect("the symex binary runs");
            let printed = String::from_utf8_lossy(&output.stdout);
            let printed: Vec<&str> = printed.lines().collect();
            checked += 1;
            elided += usize::from(body.iter().any(|l| l == "…"));
            if !matches(&body[1..], &printed) {
                failures.push(format!(
                    "{}:{line}: `symex {command}` prints\n{}\nbut the document quotes\n{}",
                    file.display(),
                    printed.join("\n"),
                    body[1..].join("\n")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The README, docs/commands.md, docs/semantics.md, docs/bound-and-merge.md and lab 2 quote runs.
    assert!(checked >= 8, "only {checked} quoted runs found");
    assert!(elided >= 1, "no quote with `…` was checked");
}

#[test]
fn a_quote_that_differs_in_one_line_does_not_match() {
    let quoted: Vec<String> = ["path 0: terminated", "…", "1 path"]
        .map(String::from)
        .into();
    assert!(matches(
        &quoted,
        &["path 0: terminated", "  φ = x > 0", "  σ = {}", "1 path"]
    ));
    assert!(matches(&quoted, &["path 0: terminated", "1 path"]));
    assert!(!matches(
        &quoted,
        &["path 0: terminated", "  φ = x > 0", "2 paths"]
    ));
    assert!(!matches(&quoted, &["path 1: terminated", "1 path"]));
    let exact: Vec<String> = ["a", "b"].map(String::from).into();
    assert!(
        !matches(&exact, &["a", "b", "c"]),
        "a quote is the whole output unless it says `…`"
    );
    assert_eq!(
        split_args("run f.sx --input 'a=[1, 2]'"),
        ["run", "f.sx", "--input", "a=[1, 2]"]
    );
}

/// Issue 33: the README is a newcomer's five-minute read; the reference is in `docs/`.
#[test]
fn the_readme_stays_short() {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let bytes = std::fs::metadata(readme).expect("README.md exists").len();
    assert!(
        bytes <= 12 * 1024,
        "README.md is {bytes} bytes, more than 12 KB"
    );
}
