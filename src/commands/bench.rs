//! `symex bench`: explores program families that scale, generated as source
//! text so the front end is in the loop, depth first with a model for every
//! path and the report written (as `symex explore` does, to a sink), and
//! reports paths, solver calls, where the time went (front end, exploration,
//! solver, simplifier, output) and the peak memory of each run. The family
//! `path` measures `path(ρ)` of long traces instead ([`super::bench_path`]).
//! Measures speed; no test asserts a time.

use super::{bench_path, CliError};
use crate::explore::{
    explore_into, Bounds, ExploreOptions, Finished, Merge, Observer, PathNode, Pruned, Stats,
    Unexplored,
};
use crate::report::json::{JsonLinesReport, JsonReport};
use crate::report::text::TextReport;
use crate::report::Header;
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::io::{self, Write};
use std::rc::Rc;
use std::time::{Duration, Instant};
use symex_semantics::basic::symbolic::Symbolic;
use symex_semantics::program::Language;
use symex_semantics::syntax::parse_program;
use symex_semantics::system::Options;

/// A family of programs indexed by a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Family {
    /// `if x1 > 0 { c := c + 1 } else { c := c - 1 }; …` for `x1 … xn`: 2^n paths.
    Branches,
    /// `i := 0; while i < n { i := i + 1 }` with `--unfold k`: k + 1 terminated paths and one bounded.
    Loop,
    /// `while i < n { if a[i] = x { c := c + 1 }; i := i + 1 }` for a literal `n`: 2^n paths.
    Array,
    /// `path(ρ)` of a trace of n actions full of field writes through aliased references, both ways (§4).
    Path,
    All,
}

/// `--format` of `symex bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchFormat {
    Text,
    Json,
}

/// The report each exploration writes (to a sink), as `explore --format` would.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchOutput {
    /// JSON lines (`--format jsonl`): linear in the tree.
    Jsonl,
    /// The SPEC §2.1 document (`--format json`): every path's trace and condition in full.
    Json,
    Text,
    /// No report: the exploration alone.
    None,
}

#[derive(Clone, Debug, Args)]
pub struct BenchArgs {
    #[arg(long, value_enum, default_value_t = Family::All)]
    pub family: Family,
    /// The size (default: branches 12, loop 1000, array 10, path 1000).
    #[arg(long, value_name = "N")]
    pub size: Option<usize>,
    /// A scaling series: each family at each of these sizes (e.g. `--sizes 10,12,14`).
    #[arg(
        long,
        value_name = "N,N,…",
        value_delimiter = ',',
        conflicts_with = "size"
    )]
    pub sizes: Vec<usize>,
    /// Run each family R times and report the median time.
    #[arg(long, value_name = "R", default_value_t = 1)]
    pub repeat: usize,
    #[arg(long, value_enum, default_value_t = BenchFormat::Text)]
    pub format: BenchFormat,
    /// The report written for each exploration.
    #[arg(long, value_enum, default_value_t = BenchOutput::Jsonl)]
    pub output: BenchOutput,
    /// Each family also with state merging (`--merge`), its row beside the plain one.
    #[arg(long)]
    pub merge: bool,
}

/// Where the time of one run went, in milliseconds.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Split {
    /// Parsing, type checking, building the transition system.
    pub front_end_ms: f64,
    /// The explorer's own work: successors, bookkeeping, model confirmation.
    pub exploration_ms: f64,
    pub solver_ms: f64,
    pub simplifier_ms: f64,
    /// Writing the report.
    pub output_ms: f64,
}

impl Split {
    /// The simplifier's share of the exploration proper (explorer, solver
    /// and simplifier; without front end and report), in per cent.
    pub fn simplifier_percent(&self) -> f64 {
        let exploring = self.exploration_ms + self.solver_ms + self.simplifier_ms;
        if exploring > 0.0 {
            100.0 * self.simplifier_ms / exploring
        } else {
            0.0
        }
    }
}

/// One family's figures at one size.
#[derive(Debug, Serialize)]
pub struct Measurement {
    pub family: String,
    pub size: usize,
    /// Explored with state merging; `merges` configurations joined.
    pub merged: bool,
    pub merges: usize,
    pub paths: usize,
    pub expected_paths: u64,
    pub models: usize,
    pub solver_calls: u64,
    pub time_ms: f64,
    pub paths_per_second: f64,
    pub us_per_path: f64,
    /// The split of the median run.
    pub split: Split,
    /// [`Split::simplifier_percent`] of that split.
    pub simplifier_percent: f64,
    /// Bytes of report written.
    pub output_bytes: u64,
    /// Peak resident memory of the process during the runs (`VmHWM`, reset
    /// before them where Linux allows), in KiB.
    pub peak_memory_kib: Option<u64>,
}

/// The `loop` family's program: its size is the `--unfold` bound.
pub const LOOP: &str = "i := 0; while i < n { i := i + 1 }";

impl Family {
    fn name(self) -> &'static str {
        match self {
            Family::Branches => "branches",
            Family::Loop => "loop",
            Family::Array => "array",
            Family::Path => "path",
            Family::All => "all",
        }
    }

    fn default_size(self) -> usize {
        match self {
            Family::Branches => 12,
            Family::Loop | Family::Path => 1000,
            Family::Array | Family::All => 10,
        }
    }

    /// The program of size `n` as source text; `path` and `all` explore none of their own.
    pub fn source(self, n: usize) -> Option<String> {
        Some(match self {
            Family::Branches => (1..=n)
                .map(|i| format!("if x{i} > 0 {{ c := c + 1 }} else {{ c := c - 1 }}"))
                .collect::<Vec<_>>()
                .join(";\n"),
            Family::Loop => LOOP.to_string(),
            Family::Array => format!(
                "i := 0; c := 0; while i < {n} {{ if a[i] = x {{ c := c + 1 }}; i := i + 1 }}"
            ),
            Family::Path | Family::All => return None,
        })
    }

    /// The number of paths the exploration must report (saturating).
    pub fn expected_paths(self, n: usize) -> u64 {
        match self {
            Family::Loop => n as u64 + 2,
            _ => u32::try_from(n)
                .ok()
                .and_then(|n| 2u64.checked_pow(n))
                .unwrap_or(u64::MAX),
        }
    }

    /// Depth first (or merged), unfolding each loop exactly as far as the family needs.
    pub fn options(self, n: usize, merge: Merge) -> ExploreOptions {
        ExploreOptions {
            bounds: Bounds {
                unfold: n,
                ..Bounds::default()
            },
            merge,
            ..ExploreOptions::default()
        }
    }
}

/// A sink that counts what is written to it.
#[derive(Default)]
struct Counted(u64);

impl Write for Counted {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0 += bytes.len() as u64;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Times the report and counts the paths with a model, around the report itself.
struct Timed<'a> {
    report: Option<&'a mut dyn Observer>,
    time: Duration,
    models: usize,
}

impl Timed<'_> {
    fn around<T>(
        &mut self,
        event: impl FnOnce(&mut dyn Observer) -> io::Result<T>,
    ) -> io::Result<()> {
        let Some(report) = self.report.as_deref_mut() else {
            return Ok(());
        };
        let start = Instant::now();
        let result = event(report);
        self.time += start.elapsed();
        result.map(|_| ())
    }
}

impl Observer for Timed<'_> {
    fn node(&mut self, node: &PathNode) -> io::Result<()> {
        self.around(|report| report.node(node))
    }

    fn pruned(&mut self, pruned: Pruned) -> io::Result<()> {
        self.around(|report| report.pruned(pruned))
    }

    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        self.models += usize::from(path.leaf.model.is_some());
        self.around(|report| report.path(path))
    }

    fn reads_ancestors(&self) -> bool {
        self.report
            .as_deref()
            .is_some_and(|report| report.reads_ancestors())
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        self.around(|report| report.finish(unexplored, stats))
    }
}

/// The figures of one run.
struct Run {
    total: Duration,
    split: Split,
    stats: Stats,
    models: usize,
    bytes: u64,
}

/// Parses, explores and reports the family's program of size `n` once.
fn run_once(family: Family, n: usize, output: BenchOutput, merge: Merge) -> Result<Run, CliError> {
    let start = Instant::now();
    let source = family.source(n).ok_or_else(|| {
        CliError::new(format!("the family {} explores no program", family.name()))
    })?;
    let program = parse_program(&source).map_err(|d| {
        CliError::new(crate::report::diagnostic::render(
            &d,
            family.name(),
            &source,
            false,
        ))
    })?;
    let program = Rc::new(program);
    let system = Symbolic::new(program.clone(), Options::default()).map_err(CliError::new)?;
    let front_end = start.elapsed();
    let header = Header {
        program: format!("{}({n})", family.name()),
        language: Language::Basic,
        method: "forward",
        inputs: program.inputs(),
    };
    let mut sink = Counted::default();
    let mut json;
    let mut lines;
    let mut text;
    let report: Option<&mut dyn Observer> = match output {
        BenchOutput::Json => {
            json = JsonReport::new(&mut sink, header);
            Some(&mut json)
        }
        BenchOutput::Jsonl => {
            lines = JsonLinesReport::new(&mut sink, header)?;
            Some(&mut lines)
        }
        BenchOutput::Text => {
            text = TextReport::new(&mut sink, header, false);
            Some(&mut text)
        }
        BenchOutput::None => None,
    };
    let mut timed = Timed {
        report,
        time: Duration::ZERO,
        models: 0,
    };
    let explored = Instant::now();
    let stats = explore_into(
        &system,
        system.initial(),
        &program.globals,
        &family.options(n, merge),
        &mut timed,
    )?;
    let exploration = explored.elapsed();
    let Timed {
        time: output_time,
        models,
        ..
    } = timed;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let split = Split {
        front_end_ms: ms(front_end),
        exploration_ms: ms(exploration
            .saturating_sub(stats.timings.solver + stats.timings.simplifier + output_time)),
        solver_ms: ms(stats.timings.solver),
        simplifier_ms: ms(stats.timings.simplifier),
        output_ms: ms(output_time),
    };
    Ok(Run {
        total: start.elapsed(),
        split,
        stats,
        models,
        bytes: sink.0,
    })
}

/// Runs `family` at size `n` `repeat` times; the median run is reported.
pub fn measure(
    family: Family,
    n: usize,
    repeat: usize,
    output: BenchOutput,
    merge: Merge,
) -> Result<Measurement, CliError> {
    reset_peak_memory();
    let mut runs = Vec::new();
    for _ in 0..repeat.max(1) {
        runs.push(run_once(family, n, output, merge)?);
    }
    runs.sort_by_key(|run| run.total);
    let run = runs.swap_remove(runs.len() / 2);
    let seconds = run.total.max(Duration::from_nanos(1)).as_secs_f64();
    let paths = run.stats.paths;
    Ok(Measurement {
        family: family.name().to_string(),
        size: n,
        merged: merge != Merge::Off,
        merges: run.stats.merges,
        paths,
        expected_paths: family.expected_paths(n),
        models: run.models,
        solver_calls: run.stats.solver_calls,
        time_ms: seconds * 1e3,
        paths_per_second: paths as f64 / seconds,
        us_per_path: seconds * 1e6 / paths.max(1) as f64,
        split: run.split,
        simplifier_percent: run.split.simplifier_percent(),
        output_bytes: run.bytes,
        peak_memory_kib: peak_memory_kib(),
    })
}

/// Resets `VmHWM` to the current resident size (Linux ≥ 4.0; ignored elsewhere).
fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// `VmHWM` of `/proc/self/status` (Linux), in KiB.
fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub fn command(args: &BenchArgs, out: &mut dyn Write) -> Result<super::Exit, CliError> {
    let families = match args.family {
        Family::All => vec![Family::Branches, Family::Loop, Family::Array, Family::Path],
        one => vec![one],
    };
    let (mut results, mut path_conditions) = (Vec::new(), Vec::new());
    for family in families {
        let sizes = match (&args.sizes[..], args.size) {
            ([], size) => vec![size.unwrap_or_else(|| family.default_size())],
            (sizes, _) => sizes.to_vec(),
        };
        for n in sizes {
            match family {
                Family::Path => path_conditions.push(bench_path::measure(n)),
                _ => {
                    results.push(measure(family, n, args.repeat, args.output, Merge::Off)?);
                    if args.merge {
                        results.push(measure(family, n, args.repeat, args.output, Merge::Join)?);
                    }
                }
            }
        }
    }
    match args.format {
        BenchFormat::Json => {
            let output = args
                .output
                .to_possible_value()
                .map(|v| v.get_name().to_string());
            let document = serde_json::json!({ "repeat": args.repeat, "output": output, "results": results, "path_conditions": path_conditions });
            writeln!(out, "{document:#}")?;
        }
        BenchFormat::Text => {
            if !results.is_empty() {
                write_table(out, &results, args.repeat)?;
            }
            if !path_conditions.is_empty() {
                bench_path::write_table(out, &path_conditions)?;
            }
        }
    }
    let wrong = results
        .iter()
        // A merged exploration reports one path per join of the plain ones.
        .filter(|m| !m.merged && m.paths as u64 != m.expected_paths)
        .map(|m| {
            format!(
                "{}({}) reported {} paths, expected {}",
                m.family, m.size, m.paths, m.expected_paths
            )
        })
        .collect::<Vec<_>>();
    if wrong.is_empty() {
        Ok(super::Exit::Done)
    } else {
        Err(CliError::new(wrong.join("\n")))
    }
}

fn write_table(out: &mut dyn Write, results: &[Measurement], repeat: usize) -> io::Result<()> {
    writeln!(
        out,
        "{:<14} {:>7} {:>7} {:>6} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8} {:>6} {:>8} {:>9}",
        "family",
        "paths",
        "models",
        "calls",
        "µs/path",
        "total ms",
        "front",
        "explore",
        "solver",
        "simplify",
        "simp %",
        "output",
        "peak MiB"
    )?;
    for m in results {
        let peak = m.peak_memory_kib.map_or_else(
            || "?".to_string(),
            |kib| format!("{:.1}", kib as f64 / 1024.0),
        );
        let s = &m.split;
        writeln!(
            out,
            "{:<14} {:>7} {:>7} {:>6} {:>9.1} {:>9.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>6.1} {:>8.1} {:>9}",
            match m.merged {
                true => format!("{}({}) ⊔{}", m.family, m.size, m.merges),
                false => format!("{}({})", m.family, m.size),
            },
            m.paths,
            m.models,
            m.solver_calls,
            m.us_per_path,
            m.time_ms,
            s.front_end_ms,
            s.exploration_ms,
            s.solver_ms,
            s.simplifier_ms,
            m.simplifier_percent,
            s.output_ms,
            peak
        )?;
    }
    writeln!(
        out,
        "median of {} run{}; times in ms; simp % = simplify / (explore + solver + simplify); peak memory per row (VmHWM reset before each); ⊔N: merged, N joins",
        repeat.max(1),
        if repeat > 1 { "s" } else { "" }
    )
}
