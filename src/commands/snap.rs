//! `symex snap DIR`: snapshot testing for authors who do not write Rust.
//! Every `NAME.sx` under DIR keeps its `explore` output in `NAME.snap`
//! beside it; `snap` reports each snapshot that changed with a line diff and
//! exits 1, and `--accept` writes the new outputs instead.
//!
//! A program chooses its exploration options in a comment line
//! `// snap: --unfold 3 --checked-arrays`; a snapshot records before its
//! output the command that made it, with the path relative to DIR, so it
//! holds no machine path and no timing. An oo program's snapshot holds one
//! output per method (§4 and §4.1) unless its options choose one.

use super::explore::{view, ViewArgs};
use super::mutant::BrokenRule;
use super::{load, CliError, Common, Exit, Format, Method, SemanticsArgs, STACK_BYTES};
use clap::{Args, Parser, ValueEnum};
use similar::{ChangeTag, DiffTag, TextDiff};
use std::io::Write;
use std::path::{Path, PathBuf};
use symex_semantics::program::Language;

#[derive(Clone, Debug, Args)]
pub struct SnapArgs {
    /// The folder whose `.sx` programs (in subfolders too) are snapshotted,
    /// or one `.sx` program.
    pub dir: PathBuf,
    /// Write the new snapshots instead of comparing.
    #[arg(long)]
    pub accept: bool,
    /// The view snapshotted (timings make JSON unfit for snapshots).
    #[arg(long, value_enum, default_value_t = SnapFormat::Text)]
    pub format: SnapFormat,
    /// Explore with one rule broken on purpose (see `explore --break`), in
    /// every program whose semantics has it: the snapshots that change are
    /// those of the programs the rule matters to.
    #[arg(
        long = "break",
        value_enum,
        value_name = "RULE",
        conflicts_with = "accept"
    )]
    pub broken: Option<BrokenRule>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SnapFormat {
    Text,
    Dot,
    Svg,
}

impl From<SnapFormat> for Format {
    fn from(format: SnapFormat) -> Format {
        match format {
            SnapFormat::Text => Format::Text,
            SnapFormat::Dot => Format::Dot,
            SnapFormat::Svg => Format::Svg,
        }
    }
}

/// `symex explore`'s options, read from a `// snap:` line.
#[derive(Parser)]
#[command(no_binary_name = true)]
struct ExploreLine {
    #[command(flatten)]
    common: Common,
    #[command(flatten)]
    view: ViewArgs,
}

/// How one program's snapshot compares.
enum Verdict {
    Same,
    New,
    Changed(String),
}

/// The `explore` options a program's `// snap:` lines give its snapshot.
pub fn snap_options(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| line.trim().strip_prefix("// snap:"))
        .flat_map(|options| options.split_whitespace().map(str::to_string))
        .collect()
}

/// The `explore` options (defaults filled in) that `program`'s `// snap:`
/// lines give, for commands that honour them (`compare`).
pub fn snap_common(program: &Path, source: &str) -> Result<Common, CliError> {
    parse(program, &snap_options(source), SnapFormat::Text).map(|line| line.common)
}

pub fn command(args: &SnapArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let mut programs = Vec::new();
    let one_file = args.dir.extension().is_some_and(|ext| ext == "sx") && args.dir.is_file();
    if one_file {
        programs.push(args.dir.clone());
    } else {
        collect(&args.dir, &mut programs)?;
    }
    if programs.is_empty() {
        return Err(CliError::new(format!(
            "{}: no `.sx` program in this folder",
            args.dir.display()
        )));
    }
    let (mut changed, mut written) = (0, 0);
    for program in &programs {
        let snapshot_path = program.with_extension("snap");
        let name = if one_file {
            recorded_name(&snapshot_path, program)
        } else {
            program
                .strip_prefix(&args.dir)
                .unwrap_or(program)
                .to_string_lossy()
                .replace('\\', "/")
        };
        let snapshot = isolated(|| snapshot(program, &name, args.format, args.broken))?;
        let verdict = match std::fs::read_to_string(&snapshot_path) {
            Err(_) => Verdict::New,
            Ok(old) if old == snapshot => Verdict::Same,
            Ok(old) => Verdict::Changed(diff(&old, &snapshot)),
        };
        match (&verdict, args.accept) {
            (Verdict::Same, _) => {}
            (_, true) => {
                std::fs::write(&snapshot_path, &snapshot).map_err(|error| {
                    CliError::new(format!(
                        "{}: cannot write the snapshot: {error}",
                        snapshot_path.display()
                    ))
                })?;
                written += 1;
                writeln!(
                    out,
                    "written: {name} → {}",
                    snapshot_path
                        .file_name()
                        .map_or_else(String::new, |f| f.to_string_lossy().into_owned())
                )?;
            }
            (Verdict::New, false) => {
                changed += 1;
                writeln!(
                    out,
                    "new: {name} has no snapshot yet (run with --accept to write it)"
                )?;
            }
            (Verdict::Changed(diff), false) => {
                changed += 1;
                writeln!(out, "changed: {name}\n{diff}")?;
            }
        }
    }
    let total = programs.len();
    if args.accept {
        writeln!(out, "{total} programs, {written} snapshots written")?;
        return Ok(Exit::Done);
    }
    writeln!(
        out,
        "{total} programs, {} unchanged, {changed} changed or new",
        total - changed
    )?;
    Ok(if changed == 0 {
        Exit::Done
    } else {
        Exit::Failed
    })
}

/// The name a lone program's snapshot records it under: the one its
/// snapshot already has (so accepting one file writes what snapping its
/// folder writes), else its file name.
fn recorded_name(snapshot: &Path, program: &Path) -> String {
    let file_name = program
        .file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
    std::fs::read_to_string(snapshot)
        .ok()
        .and_then(|old| {
            let command = old.lines().next()?.strip_prefix("$ symex explore ")?;
            let name = command.split_whitespace().next()?;
            let same_file = name == file_name || name.ends_with(&format!("/{file_name}"));
            same_file.then(|| name.to_string())
        })
        .unwrap_or(file_name)
}

/// `make` on a thread of its own. Terms are numbered per thread and the
/// solver's models follow that numbering, so on one thread a snapshot would
/// depend on the programs snapshotted before it.
fn isolated(make: impl FnOnce() -> Result<String, CliError> + Send) -> Result<String, CliError> {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, make);
        match worker.map(|handle| handle.join()) {
            Ok(Ok(result)) => result,
            _ => Err(CliError::new("internal error: a snapshot did not finish")),
        }
    })
}

/// The `.sx` files under `dir`, in name order, subfolders included.
pub fn collect(dir: &Path, programs: &mut Vec<PathBuf>) -> Result<(), CliError> {
    let entries = std::fs::read_dir(dir).map_err(|error| {
        CliError::new(format!(
            "{}: cannot read the folder: {error}",
            dir.display()
        ))
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            collect(&path, programs)?;
        } else if path.extension().is_some_and(|ext| ext == "sx") {
            programs.push(path);
        }
    }
    Ok(())
}

/// The snapshot of `program`: its `explore` output after the command that
/// made it, or for an oo program one such section per method its semantics
/// offers (`wp`, and `forward` once [`super::language::Choice`] accepts
/// it), so a snapshot keeps both views of §4.
fn snapshot(
    program: &Path,
    name: &str,
    format: SnapFormat,
    broken: Option<BrokenRule>,
) -> Result<String, CliError> {
    let source = std::fs::read_to_string(program).map_err(|error| {
        CliError::new(format!(
            "{}: cannot read the program: {error}",
            program.display()
        ))
    })?;
    let options = snap_options(&source);
    let mut snapshot = String::new();
    for (method, broken) in methods(program, &options, broken)? {
        let mut options = options.clone();
        options.extend(
            method
                .map(|method| ["--method".to_string(), method.name().to_string()])
                .into_iter()
                .flatten(),
        );
        let (command, output) = explore_output(program, name, &options, format, broken)?;
        snapshot.push_str(&format!("$ {command}\n{output}"));
    }
    Ok(snapshot)
}

/// A method a program is snapshotted with (`None`: as its options say),
/// and the rule broken under it.
type SnapshotMethod = (Option<Method>, Option<BrokenRule>);

/// The methods an oo program is snapshotted with, each with `broken` if
/// its semantics has that rule. The program is
/// loaded once: terms are numbered in the order they are made, and Z3's
/// models follow the numbering, so a snapshot must not depend on `broken`
/// where the rule does not apply.
fn methods(
    program: &Path,
    options: &[String],
    broken: Option<BrokenRule>,
) -> Result<Vec<SnapshotMethod>, CliError> {
    let line = parse(program, options, SnapFormat::Text)?;
    let loaded = load(&line.common.file, line.common.int)?;
    let semantics = &line.common.semantics;
    let methods = if semantics.method.is_some()
        || semantics.choice(&loaded.program)?.language != Language::Oo
    {
        vec![None]
    } else {
        let offered = |method: &Method| {
            SemanticsArgs {
                method: Some(*method),
                ..semantics.clone()
            }
            .choice(&loaded.program)
            .is_ok()
        };
        [Method::Wp, Method::Forward]
            .into_iter()
            .filter(offered)
            .map(Some)
            .collect()
    };
    let breaks = |method: Option<Method>| {
        SemanticsArgs {
            broken,
            method: method.or(semantics.method),
            ..semantics.clone()
        }
        .choice(&loaded.program)
        .is_ok()
    };
    Ok(methods
        .into_iter()
        .map(|method| (method, broken.filter(|_| breaks(method))))
        .collect())
}

/// `options` read as `explore`'s, for `program` in `format`.
fn parse(program: &Path, options: &[String], format: SnapFormat) -> Result<ExploreLine, CliError> {
    let mut words = vec![program.to_string_lossy().into_owned()];
    words.extend(options.iter().cloned());
    words.extend(["--format".to_string(), format_name(format)]);
    ExploreLine::try_parse_from(&words).map_err(|error| {
        CliError::new(format!(
            "{}: the `// snap:` options: {}",
            program.display(),
            error.render()
        ))
    })
}

fn format_name(format: SnapFormat) -> String {
    format
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string())
}

/// The command line to show and the `explore` output for `program` with
/// `broken` (the command shown stays the snapshot's own, so that only the
/// output can differ).
fn explore_output(
    program: &Path,
    name: &str,
    options: &[String],
    format: SnapFormat,
    broken: Option<BrokenRule>,
) -> Result<(String, String), CliError> {
    let ExploreLine {
        mut common,
        view: shown,
    } = parse(program, options, format)?;
    common.semantics.broken = broken;
    let mut output = Vec::new();
    view(&common, &shown, Some(name), &mut output)
        .map_err(|error| CliError::new(format!("{}: {error}", program.display())))?;
    let mut command = format!("symex explore {name}");
    for option in options {
        command.push(' ');
        command.push_str(option);
    }
    if format != SnapFormat::Text {
        command.push_str(&format!(" --format {}", format_name(format)));
    }
    Ok((command, String::from_utf8_lossy(&output).into_owned()))
}

/// The lines that differ, `-` old and `+` new, with two lines of context,
/// each chunk headed by the command (the method's section) and the path it
/// falls in, as the old snapshot has them.
fn diff(old: &str, new: &str) -> String {
    let diff = TextDiff::from_lines(old, new);
    let old_lines: Vec<&str> = old.lines().collect();
    let mut out = String::new();
    for group in diff.grouped_ops(2) {
        let first_change = group
            .iter()
            .find(|op| op.tag() != DiffTag::Equal)
            .map_or(0, |op| op.old_range().start);
        out.push_str(&chunk_header(
            &old_lines[..(first_change + 1).min(old_lines.len())],
        ));
        for op in group {
            for change in diff.iter_changes(&op) {
                let sign = match change.tag() {
                    ChangeTag::Delete => "-",
                    ChangeTag::Insert => "+",
                    ChangeTag::Equal => " ",
                };
                out.push_str(&format!("  {sign} {}", change.value()));
                if change.missing_newline() {
                    out.push('\n');
                }
            }
        }
        out.push_str("  ...\n");
    }
    out
}

/// `  @@ symex explore oo/p.sx --method wp · path 2` for a chunk whose
/// first change is the last of `before`: the last command and path they name.
fn chunk_header(before: &[&str]) -> String {
    let command = before.iter().rev().find_map(|line| line.strip_prefix("$ "));
    let section = before
        .iter()
        .rev()
        .take_while(|line| !line.starts_with("$ "))
        .find_map(|line| {
            line.strip_prefix("path ")
                .and_then(|rest| rest.split(':').next())
        });
    match (command, section) {
        (Some(command), Some(path)) => format!("  @@ {command} · path {path}\n"),
        (Some(command), None) => format!("  @@ {command}\n"),
        (None, _) => String::new(),
    }
}
