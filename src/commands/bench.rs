//! `symex bench`: explores program families that scale, generated as source
//! text so the front end is in the loop, depth first with a model for every
//! path (as `symex explore` does), and reports paths, solver calls, times
//! and peak memory. Measures speed; no test asserts a time.

use super::CliError;
use crate::explore::{explore, Bounds, ExploreOptions, Tree};
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::io::Write;
use std::rc::Rc;
use std::time::{Duration, Instant};
use symex_semantics::basic::symbolic::Symbolic;
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
    All,
}

/// `--format` of `symex bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchFormat {
    Text,
    Json,
}

#[derive(Clone, Debug, Args)]
pub struct BenchArgs {
    #[arg(long, value_enum, default_value_t = Family::All)]
    pub family: Family,
    /// The size (default: branches 12, loop 1000, array 10).
    #[arg(long, value_name = "N")]
    pub size: Option<usize>,
    /// Run each family R times and report the median time.
    #[arg(long, value_name = "R", default_value_t = 1)]
    pub repeat: usize,
    #[arg(long, value_enum, default_value_t = BenchFormat::Text)]
    pub format: BenchFormat,
}

/// One family's figures.
#[derive(Debug, Serialize)]
pub struct Measurement {
    pub family: String,
    pub size: usize,
    pub paths: usize,
    pub expected_paths: u64,
    pub models: usize,
    pub solver_calls: u64,
    pub time_ms: f64,
    pub paths_per_second: f64,
    pub us_per_path: f64,
    /// The simplifier's share of the exploration time (in the last run), in percent.
    pub simplify_percent: f64,
    /// The process's peak resident memory so far (`VmHWM`), in KiB.
    pub peak_memory_kib: Option<u64>,
}

impl Family {
    fn name(self) -> &'static str {
        match self {
            Family::Branches => "branches",
            Family::Loop => "loop",
            Family::Array => "array",
            Family::All => "all",
        }
    }

    fn default_size(self) -> usize {
        match self {
            Family::Branches => 12,
            Family::Loop => 1000,
            Family::Array | Family::All => 10,
        }
    }

    /// The program of size `n` as source text.
    pub fn source(self, n: usize) -> String {
        match self {
            Family::Branches => {
                (1..=n).map(|i| format!("if x{i} > 0 {{ c := c + 1 }} else {{ c := c - 1 }}")).collect::<Vec<_>>().join(";\n")
            }
            Family::Loop => "i := 0; while i < n { i := i + 1 }".to_string(),
            Family::Array | Family::All => {
                format!("i := 0; c := 0; while i < {n} {{ if a[i] = x {{ c := c + 1 }}; i := i + 1 }}")
            }
        }
    }

    /// The number of paths the exploration must report (saturating).
    pub fn expected_paths(self, n: usize) -> u64 {
        match self {
            Family::Loop => n as u64 + 2,
            _ => u32::try_from(n).ok().and_then(|n| 2u64.checked_pow(n)).unwrap_or(u64::MAX),
        }
    }

    /// Depth first, unfolding each loop exactly as far as the family needs.
    pub fn options(self, n: usize) -> ExploreOptions {
        ExploreOptions { bounds: Bounds { unfold: n, ..Bounds::default() }, ..ExploreOptions::default() }
    }
}

/// Parses and explores the family's program of size `n` once.
pub fn explore_family(family: Family, n: usize) -> Result<Tree, CliError> {
    let source = family.source(n);
    let program = parse_program(&source).map_err(|d| CliError::new(crate::report::diagnostic::render(&d, family.name(), &source, false)))?;
    let program = Rc::new(program);
    let system = Symbolic::new(program.clone(), Options::default()).map_err(CliError::new)?;
    Ok(explore(&system, system.initial(), &program.globals, &family.options(n)))
}

/// Runs `family` at size `n` `repeat` times; the median time is reported.
pub fn measure(family: Family, n: usize, repeat: usize) -> Result<Measurement, CliError> {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        let tree = explore_family(family, n)?;
        times.push(start.elapsed());
        last = Some(tree);
    }
    let tree = last.ok_or_else(|| CliError::new("no run"))?;
    times.sort();
    let median = times[times.len() / 2].max(Duration::from_nanos(1));
    let paths = tree.stats.paths;
    let models = tree.paths.iter().filter(|&&node| tree.leaf(node).is_some_and(|leaf| leaf.model.is_some())).count();
    let seconds = median.as_secs_f64();
    Ok(Measurement {
        family: family.name().to_string(),
        size: n,
        paths,
        expected_paths: family.expected_paths(n),
        models,
        solver_calls: tree.stats.solver_calls,
        time_ms: seconds * 1e3,
        paths_per_second: paths as f64 / seconds,
        us_per_path: seconds * 1e6 / paths.max(1) as f64,
        simplify_percent: 100.0 * tree.stats.simplify_us as f64 / (tree.stats.time_ms.max(1) as f64 * 1e3),
        peak_memory_kib: peak_memory_kib(),
    })
}

/// `VmHWM` of `/proc/self/status` (Linux), in KiB.
fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub fn command(args: &BenchArgs, out: &mut dyn Write) -> Result<super::Exit, CliError> {
    let families = match args.family {
        Family::All => vec![Family::Branches, Family::Loop, Family::Array],
        one => vec![one],
    };
    let mut results = Vec::new();
    for family in families {
        let n = args.size.unwrap_or_else(|| family.default_size());
        results.push(measure(family, n, args.repeat)?);
    }
    match args.format {
        BenchFormat::Json => writeln!(out, "{:#}", serde_json::json!({ "repeat": args.repeat, "results": results }))?,
        BenchFormat::Text => {
            writeln!(
                out,
                "{:<14} {:>8} {:>8} {:>12} {:>10} {:>12} {:>10} {:>10} {:>10}",
                "family", "paths", "models", "solver calls", "paths/s", "µs/path", "time ms", "simplify %", "peak MiB"
            )?;
            for m in &results {
                let peak = m.peak_memory_kib.map_or_else(|| "?".to_string(), |kib| format!("{:.1}", kib as f64 / 1024.0));
                writeln!(
                    out,
                    "{:<14} {:>8} {:>8} {:>12} {:>10.0} {:>12.1} {:>10.1} {:>10.1} {:>10}",
                    format!("{}({})", m.family, m.size),
                    m.paths,
                    m.models,
                    m.solver_calls,
                    m.paths_per_second,
                    m.us_per_path,
                    m.time_ms,
                    m.simplify_percent,
                    peak
                )?;
            }
            writeln!(out, "median of {} run{}; peak memory is the process's so far", args.repeat.max(1), if args.repeat > 1 { "s" } else { "" })?;
        }
    }
    let wrong = results.iter().filter(|m| m.paths as u64 != m.expected_paths).map(|m| format!("{}({}) reported {} paths, expected {}", m.family, m.size, m.paths, m.expected_paths)).collect::<Vec<_>>();
    if wrong.is_empty() {
        Ok(super::Exit::Done)
    } else {
        Err(CliError::new(wrong.join("\n")))
    }
}
