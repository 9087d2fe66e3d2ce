//! `explore --shard I/N` and `symex merge` (docs/shards.md): the shards of
//! an exploration, run as separate processes, merge into the report the
//! one-process exploration writes, byte for byte but for its time; bad
//! shard sets and options that cannot be split are refused clearly.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use symex::bench::families::Family;

fn symex() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_symex"));
    command.env("NO_COLOR", "1");
    command
}

/// A scratch folder of the calling test's own (tests run at once).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("symex-shards-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The report without its `time_ms` line, the one timing field.
fn untimed(report: &[u8]) -> String {
    text(report)
        .lines()
        .filter(|line| !line.trim_start().starts_with("\"time_ms\""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn explore(program: &Path, extra: &[&str], out: &Path) -> Child {
    let file = std::fs::File::create(out).unwrap();
    symex()
        .arg("explore")
        .arg(program)
        .args(["--format", "json"])
        .args(extra)
        .stdout(file)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn finished(child: Child) -> Output {
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    output
}

/// The size of `branches` the test explores: 12 (4096 paths) by default,
/// the acceptance size 16 (65536 paths, a minute of a debug build's CPU)
/// with `SHARDS_SIZE=16`.
fn size() -> usize {
    std::env::var("SHARDS_SIZE")
        .ok()
        .and_then(|size| size.parse().ok())
        .unwrap_or(12)
}

/// Four shards of the bench family `branches`, each its own process, all
/// at once, merged: the unsharded report byte for byte but `time_ms`; and
/// so is the report of three workers (`--jobs 3`).
#[test]
fn four_shards_of_branches_merge_into_the_whole_report() {
    let n = size();
    let dir = scratch("branches");
    let program = dir.join("branches.sx");
    std::fs::write(&program, Family::Branches.source(n).unwrap()).unwrap();
    let whole = dir.join("whole.json");
    let mut children = vec![explore(&program, &[], &whole)];
    let shards: Vec<PathBuf> = (0..4)
        .map(|i| dir.join(format!("shard-{i}.json")))
        .collect();
    for (i, shard) in shards.iter().enumerate() {
        children.push(explore(&program, &["--shard", &format!("{i}/4")], shard));
    }
    children.into_iter().for_each(|child| drop(finished(child)));
    let sizes: Vec<usize> = shards
        .iter()
        .map(|shard| {
            let report: serde_json::Value =
                serde_json::from_slice(&std::fs::read(shard).unwrap()).unwrap();
            report["paths"].as_array().unwrap().len()
        })
        .collect();
    assert!(
        sizes.iter().all(|&paths| paths > 0) && sizes.iter().sum::<usize>() == 1 << n,
        "every shard has work, and together they have every path: {sizes:?}"
    );
    // The shards in another order than their numbers.
    let merged = symex()
        .arg("merge")
        .args([&shards[2], &shards[0], &shards[3], &shards[1]])
        .output()
        .unwrap();
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let whole = std::fs::read(&whole).unwrap();
    assert!(
        untimed(&merged.stdout) == untimed(&whole),
        "the merged report differs from the whole one"
    );
    let workers = symex()
        .arg("explore")
        .arg(&program)
        .args(["--format", "json", "--jobs", "3"])
        .output()
        .unwrap();
    assert!(workers.status.success(), "{}", text(&workers.stderr));
    assert!(
        untimed(&workers.stdout) == untimed(&whole),
        "the report of 3 workers differs from the one of one"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A program whose paths end above the split, error, and prune branches:
/// the merge puts them where the one-process exploration finds them.
#[test]
fn paths_above_the_split_and_pruned_branches_keep_their_places() {
    let dir = scratch("shapes");
    let program = dir.join("shapes.sx");
    std::fs::write(
        &program,
        "if x > 5 { c := 1 } else { \
           if x > 7 { c := 2 } else { c := 3 }; \
           i := 0; while i < n { if a[i] > x { c := c + 1 }; i := i + 1 }; \
           assert c < 6 }",
    )
    .unwrap();
    let whole = finished(explore(
        &program,
        &["--unfold", "3"],
        &dir.join("whole.json"),
    ));
    drop(whole);
    for count in [2, 3, 5] {
        let shards: Vec<PathBuf> = (0..count)
            .map(|i| {
                let shard = dir.join(format!("shard-{i}-of-{count}.json"));
                let spec = format!("{i}/{count}");
                finished(explore(
                    &program,
                    &["--unfold", "3", "--shard", &spec],
                    &shard,
                ));
                shard
            })
            .collect();
        let merged = symex().arg("merge").args(&shards).output().unwrap();
        assert!(merged.status.success(), "{}", text(&merged.stderr));
        let whole: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("whole.json")).unwrap()).unwrap();
        let merged: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
        assert!(whole["stats"]["pruned"].as_u64() > Some(0));
        assert!(whole["stats"]["errors"].as_u64() > Some(0));
        for (a, b) in whole["paths"]
            .as_array()
            .unwrap()
            .iter()
            .zip(merged["paths"].as_array().unwrap())
        {
            for key in ["id", "node", "status", "path_condition", "state", "trace"] {
                assert_eq!(a[key], b[key], "{count} shards: {key} of path {}", a["id"]);
            }
        }
        for key in [
            "paths",
            "terminated",
            "errors",
            "bounded",
            "unknown",
            "pruned",
        ] {
            assert_eq!(
                whole["stats"][key], merged["stats"][key],
                "{count} shards: {key}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every mistake in a set of shards is named; options that cannot be
/// split are refused before any work.
#[test]
fn bad_shard_sets_and_unsplittable_options_are_refused() {
    let dir = scratch("refused");
    let program = dir.join("p.sx");
    std::fs::write(&program, Family::Branches.source(6).unwrap()).unwrap();
    let shard = |spec: &str| {
        let out = dir.join(format!("{}.json", spec.replace('/', "-of-")));
        finished(explore(&program, &["--shard", spec], &out));
        out
    };
    let (first, second) = (shard("0/2"), shard("1/2"));
    let other = shard("0/3");
    let refused = |args: &[&Path], expected: &str| {
        let output = symex().arg("merge").args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2));
        let message = text(&output.stderr);
        assert!(message.contains(expected), "{message}");
    };
    refused(&[&first], "shard 1/2 is missing");
    refused(&[&first, &first, &second], "given twice");
    refused(&[&first, &other], "not shards of one exploration");
    let plain = dir.join("plain.json");
    finished(explore(&program, &[], &plain));
    refused(&[&plain], "not a shard's report");
    let cases: [(&[&str], &str); 5] = [
        (&["--shard", "2/2"], "expected I/N"),
        (&["--shard", "0/2", "--strategy", "bfs"], "drop --strategy"),
        (&["--shard", "0/2", "--max-paths", "3"], "--max-paths"),
        (&["--shard", "0/2", "--merge"], "drop --merge"),
        (&["--shard", "0/2", "--format", "text"], "--format json"),
    ];
    for (args, expected) in cases {
        let mut command = symex();
        command.arg("explore").arg(&program).args(args);
        if !args.contains(&"--format") {
            command.args(["--format", "json"]);
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            text(&output.stderr).contains(expected),
            "{args:?}: {}",
            text(&output.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
