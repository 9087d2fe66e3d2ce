//! `symex bench`: the command over [`crate::bench`], which explores
//! program families that scale and measures where the time and memory go.
//! Measures speed; no test asserts a time.

use super::{CliError, Method};
use crate::bench::families::Family;
use crate::bench::{measure, path, BenchOutput, Measurement};
use crate::explore::Merge;
use clap::{Args, ValueEnum};
use std::io::{self, Write};

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
    /// The size (default: branches, sums and chains 12, loop 1000, array 10,
    /// pointers 5, list 6, aliasing 8, path 1000).
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
    /// Each family with each of these methods (default: the language's,
    /// `forward` for integer programs and `wp` for heap programs).
    #[arg(
        long = "method",
        value_enum,
        value_name = "METHOD,…",
        value_delimiter = ','
    )]
    pub methods: Vec<Method>,
    /// Each family also with state merging (`--merge`), its row beside the plain one.
    #[arg(long)]
    pub merge: bool,
    /// Explore each program on N workers, one shard of the tree each
    /// (docs/shards.md); 1, the default, keeps the figures per core.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    /// Print the family's program at the size instead of measuring (to
    /// measure another command on it, such as `verify`).
    #[arg(long)]
    pub source: bool,
}

pub fn command(args: &BenchArgs, out: &mut dyn Write) -> Result<super::Exit, CliError> {
    if args.source {
        let n = match (&args.sizes[..], args.size) {
            ([], size) => size.unwrap_or_else(|| args.family.default_size()),
            ([n], _) => *n,
            _ => return Err(CliError::new("--source prints one program: give one size")),
        };
        let source = args.family.source(n).ok_or_else(|| {
            CliError::new(
                "--source prints the program of one family that explores one (not path or all)",
            )
        })?;
        writeln!(out, "{source}")?;
        return Ok(super::Exit::Done);
    }
    let families = match args.family {
        Family::All => [&Family::EXPLORED[..], &[Family::Path]].concat(),
        one => vec![one],
    };
    let (mut results, mut path_conditions) = (Vec::new(), Vec::new());
    for family in families {
        let sizes = match (&args.sizes[..], args.size) {
            ([], size) => vec![size.unwrap_or_else(|| family.default_size())],
            (sizes, _) => sizes.to_vec(),
        };
        for n in sizes {
            if family == Family::Path {
                path_conditions.push(path::measure(n));
                continue;
            }
            let methods = match &args.methods[..] {
                [] => vec![None],
                methods => methods.iter().copied().map(Some).collect(),
            };
            for method in methods {
                results.push(measure(
                    family,
                    n,
                    method,
                    args.repeat,
                    (args.output, Merge::Off),
                    args.jobs,
                )?);
                if args.merge {
                    results.push(measure(
                        family,
                        n,
                        method,
                        args.repeat,
                        (args.output, Merge::Join),
                        1,
                    )?);
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
                path::write_table(out, &path_conditions)?;
            }
        }
    }
    let wrong = results
        .iter()
        // A merged exploration reports one path per join of the plain ones.
        .filter(|m| !m.merged && m.paths as u64 != m.expected_paths)
        .map(|m| {
            format!(
                "{}({}) with {} reported {} paths, expected {}",
                m.family, m.size, m.method, m.paths, m.expected_paths
            )
        })
        .collect::<Vec<_>>();
    if wrong.is_empty() {
        Ok(super::Exit::Done)
    } else {
        Err(CliError::new(wrong.join("\n")))
    }
}

/// `value` with `decimals` digits after the point, `?` when not measured.
fn shown(value: Option<f64>, decimals: usize) -> String {
    value.map_or_else(|| "?".to_string(), |v| format!("{v:.decimals$}"))
}

fn write_table(out: &mut dyn Write, results: &[Measurement], repeat: usize) -> io::Result<()> {
    writeln!(
        out,
        "{:<14} {:<7} {:>7} {:>7} {:>6} {:>7} {:>9} {:>9} {:>8} {:>9} {:>8} {:>8} {:>8} {:>8} {:>6} {:>8} {:>9}",
        "family",
        "method",
        "paths",
        "models",
        "calls",
        "nodes",
        "µs/path",
        "cpu µs/p",
        "cpu µs/n",
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
        let peak = shown(m.peak_memory_kib.map(|kib| kib as f64 / 1024.0), 1);
        let s = &m.split;
        writeln!(
            out,
            "{:<14} {:<7} {:>7} {:>7} {:>6} {:>7} {:>9.1} {:>9} {:>8} {:>9.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>6.1} {:>8.1} {:>9}",
            match (m.merged, m.jobs) {
                (true, _) => format!("{}({}) ⊔{}", m.family, m.size, m.merges),
                (false, 1) => format!("{}({})", m.family, m.size),
                (false, jobs) => format!("{}({}) ×{jobs}", m.family, m.size),
            },
            m.method,
            m.paths,
            m.models,
            m.solver_calls,
            m.nodes,
            m.us_per_path,
            shown(m.cpu_us_per_path, 1),
            shown(m.cpu_us_per_node, 2),
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
        "median of {} run{}; nodes: of the tree explored; times in ms (wall clock; cpu: the exploring threads' processor time per path and per node, added up over --jobs workers, as are the front end … output columns); simp % = simplify / (explore + solver + simplify); peak memory per row (VmHWM reset before each); ⊔N: merged, N joins; ×N: on N workers",
        repeat.max(1),
        if repeat > 1 { "s" } else { "" }
    )
}
