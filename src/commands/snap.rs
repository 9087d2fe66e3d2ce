//! `symex snap DIR`: snapshot testing for authors who do not write Rust.
//! Every `NAME.sx` under DIR keeps its `explore` output in `NAME.snap`
//! beside it; `snap` reports each snapshot that changed with a line diff and
//! exits 1, and `--accept` writes the new outputs instead.
//!
//! A program chooses its exploration options in a comment line
//! `// snap: --unfold 3 --checked-arrays`; the first line of a snapshot
//! records the command that made it, with the path relative to DIR, so a
//! snapshot holds no machine path and no timing.

use super::explore::view;
use super::{CliError, Common, Exit, Format};
use clap::{Args, Parser, ValueEnum};
use similar::{ChangeTag, TextDiff};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Args)]
pub struct SnapArgs {
    /// The folder whose `.sx` programs (in subfolders too) are snapshotted.
    pub dir: PathBuf,
    /// Write the new snapshots instead of comparing.
    #[arg(long)]
    pub accept: bool,
    /// The view snapshotted (timings make JSON unfit for snapshots).
    #[arg(long, value_enum, default_value_t = SnapFormat::Text)]
    pub format: SnapFormat,
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
}

/// How one program's snapshot compares.
enum Verdict {
    Same,
    New,
    Changed(String),
}

pub fn command(args: &SnapArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let mut programs = Vec::new();
    collect(&args.dir, &mut programs)?;
    if programs.is_empty() {
        return Err(CliError::new(format!("{}: no `.sx` program in this folder", args.dir.display())));
    }
    let (mut changed, mut written) = (0, 0);
    for program in &programs {
        let name = program.strip_prefix(&args.dir).unwrap_or(program).to_string_lossy().replace('\\', "/");
        let snapshot_path = program.with_extension("snap");
        let (command, output) = explore_output(program, &name, args.format)?;
        let snapshot = format!("$ {command}\n{output}");
        let verdict = match std::fs::read_to_string(&snapshot_path) {
            Err(_) => Verdict::New,
            Ok(old) if old == snapshot => Verdict::Same,
            Ok(old) => Verdict::Changed(diff(&old, &snapshot)),
        };
        match (&verdict, args.accept) {
            (Verdict::Same, _) => {}
            (_, true) => {
                std::fs::write(&snapshot_path, &snapshot)
                    .map_err(|error| CliError::new(format!("{}: cannot write the snapshot: {error}", snapshot_path.display())))?;
                written += 1;
                writeln!(out, "written: {name} → {}", snapshot_path.file_name().map_or_else(String::new, |f| f.to_string_lossy().into_owned()))?;
            }
            (Verdict::New, false) => {
                changed += 1;
                writeln!(out, "new: {name} has no snapshot yet (run with --accept to write it)")?;
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
    writeln!(out, "{total} programs, {} unchanged, {changed} changed or new", total - changed)?;
    Ok(if changed == 0 { Exit::Done } else { Exit::Failed })
}

/// The `.sx` files under `dir`, in name order, subfolders included.
fn collect(dir: &Path, programs: &mut Vec<PathBuf>) -> Result<(), CliError> {
    let entries = std::fs::read_dir(dir).map_err(|error| CliError::new(format!("{}: cannot read the folder: {error}", dir.display())))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|entry| entry.ok().map(|e| e.path())).collect();
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

/// The command line to show and the `explore` output for `program`.
fn explore_output(program: &Path, name: &str, format: SnapFormat) -> Result<(String, String), CliError> {
    let source = std::fs::read_to_string(program).map_err(|error| CliError::new(format!("{}: cannot read the program: {error}", program.display())))?;
    let options: Vec<String> = source
        .lines()
        .filter_map(|line| line.trim().strip_prefix("// snap:"))
        .flat_map(|options| options.split_whitespace().map(str::to_string))
        .collect();
    let format_name = format.to_possible_value().map_or_else(String::new, |v| v.get_name().to_string());
    let mut words = vec![program.to_string_lossy().into_owned()];
    words.extend(options.iter().cloned());
    words.extend(["--format".to_string(), format_name.clone()]);
    let line = ExploreLine::try_parse_from(&words)
        .map_err(|error| CliError::new(format!("{}: the `// snap:` options: {}", program.display(), error.render())))?;
    let mut output = Vec::new();
    view(&line.common, Some(name), &mut output).map_err(|error| CliError::new(format!("{}: {error}", program.display())))?;
    let mut command = format!("symex explore {name}");
    for option in &options {
        command.push(' ');
        command.push_str(option);
    }
    if format != SnapFormat::Text {
        command.push_str(&format!(" --format {format_name}"));
    }
    Ok((command, String::from_utf8_lossy(&output).into_owned()))
}

/// The lines that differ, `-` old and `+` new, with two lines of context.
fn diff(old: &str, new: &str) -> String {
    let diff = TextDiff::from_lines(old, new);
    let mut out = String::new();
    for group in diff.grouped_ops(2) {
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
