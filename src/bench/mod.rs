//! `symex bench`: explores program families that scale ([`families`]),
//! generated as source text so the front end is in the loop, depth first
//! with a model for every path and the report written (as `symex explore`
//! does, to a sink), and reports paths, solver calls, where the time went
//! (front end, exploration, solver, simplifier, output) and the peak memory
//! of each run. The family `path` measures `path(ρ)` of long traces instead
//! ([`path`]). Measures speed; no test asserts a time.

pub mod families;
pub mod path;

use crate::commands::language::{with_semantics, Choice, Semantics, Visitor};
use crate::commands::{parse_generated, CliError, Method};
use crate::explore::lanes::Lane;
use crate::explore::share::Segment;
use crate::explore::workers::Worker;
use crate::explore::{
    explore_into, Bounds, ExploreOptions, Finished, Merge, Observer, PathNode, Pruned, Stats,
    Unexplored,
};
use crate::report::json::{JsonLinesReport, JsonReport};
use crate::report::shards::ShardReport;
use crate::report::stream::{self, Piece, Streamed};
use crate::report::text::TextReport;
use crate::report::Header;
use clap::ValueEnum;
use families::Family;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::{Duration, Instant};
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::system::{
    ConcreteConfiguration, Options, SymbolicConfiguration, TransitionSystem,
};
use symex_semantics::term::{Name, Sort};

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
    /// Adds `other`'s times to these (workers side by side: processor time).
    fn add(&mut self, other: &Split) {
        self.front_end_ms += other.front_end_ms;
        self.exploration_ms += other.exploration_ms;
        self.solver_ms += other.solver_ms;
        self.simplifier_ms += other.simplifier_ms;
        self.output_ms += other.output_ms;
    }

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
    /// Workers, each exploring its shard of the tree on a thread of its own.
    pub jobs: usize,
    /// How path conditions were computed (`forward`, `wp`).
    pub method: &'static str,
    /// Explored with state merging; `merges` configurations joined.
    pub merged: bool,
    pub merges: usize,
    pub paths: usize,
    pub expected_paths: u64,
    pub models: usize,
    /// Nodes of the tree explored: a path costs what its nodes do, and
    /// where a family's paths lengthen with its size, so do they. Added
    /// up over `--jobs` workers, each of which explores the top of the
    /// tree again ([`crate::explore::share`]).
    pub nodes: usize,
    pub solver_calls: u64,
    pub time_ms: f64,
    pub paths_per_second: f64,
    pub us_per_path: f64,
    /// The CPU time of the median run (the thread's time on a processor,
    /// which other processes on a busy machine do not inflate).
    pub cpu_ms: Option<f64>,
    pub cpu_us_per_path: Option<f64>,
    pub cpu_us_per_node: Option<f64>,
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
    /// Nodes of the tree reported (a line each in `explore --format jsonl`).
    nodes: usize,
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
        self.nodes += 1;
        self.around(|report| report.node(node))
    }

    fn pruned(&mut self, pruned: Pruned) -> io::Result<()> {
        self.around(|report| report.pruned(pruned))
    }

    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        self.models += usize::from(path.leaf.model.is_some());
        self.around(|report| report.path(path))
    }

    fn segment(&mut self, segment: Segment) -> io::Result<()> {
        self.around(|report| report.segment(segment))
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
    cpu: Option<Duration>,
    method: &'static str,
    split: Split,
    stats: Stats,
    models: usize,
    nodes: usize,
    bytes: u64,
    /// A worker's report, when it hands one back for the merge.
    collected: Option<ShardReport>,
}

/// Depth first (or merged), unfolding each loop exactly as far as the family needs.
fn options(family: Family, n: usize, merge: Merge) -> ExploreOptions {
    ExploreOptions {
        bounds: Bounds {
            unfold: family.unfold(n),
            ..Bounds::default()
        },
        merge,
        ..ExploreOptions::default()
    }
}

/// Runs the family's program of size `n` once on `jobs` workers, as
/// `explore --jobs` does: each explores its share of the tree
/// ([`crate::explore::share`]) on a thread of its own (its own program,
/// terms, Z3 context and simplifier memo) and hands back its paths, which
/// are merged and written; the run is the wall-clock time of all, their
/// processor times and counters added up.
fn run_on(
    family: Family,
    n: usize,
    method: Option<Method>,
    (output, merge): (BenchOutput, Merge),
    jobs: usize,
) -> Result<Run, CliError> {
    if jobs <= 1 {
        return run_once(family, n, method, (output, merge), None);
    }
    if merge != Merge::Off {
        return Err(CliError::new(
            "--jobs splits the tree into shards, which cannot join configurations: use --jobs 1 with --merge",
        ));
    }
    if matches!(output, BenchOutput::Jsonl | BenchOutput::Text) {
        return Err(CliError::new(
            "--jobs merges the workers' reports as JSON: use --output json (or none) with --jobs",
        ));
    }
    let start = Instant::now();
    // The report, as `explore --jobs` writes it: on this thread, as the blocks come.
    let mut sink = Counted::default();
    let writer_cpu = thread_cpu_time();
    let streaming = stream::on_workers(
        jobs,
        &mut sink,
        |worker, to_writer| {
            run_once(
                family,
                n,
                method,
                (output, merge),
                Some((&worker, to_writer)),
            )
        },
        |run| run.collected.take(),
    )
    .map_err(CliError::from)?;
    let writer_cpu = thread_cpu_time()
        .zip(writer_cpu)
        .map(|(end, start)| end - start);
    let mut runs = streaming.done.into_iter();
    let Some(mut all) = runs.next() else {
        return Err(CliError::new("internal error: no bench worker ran"));
    };
    for run in runs {
        all.cpu = all.cpu.zip(run.cpu).map(|(a, b)| a + b);
        all.split.add(&run.split);
        all.stats.add(&run.stats);
        all.models += run.models;
        all.nodes += run.nodes;
        all.bytes += run.bytes;
    }
    if streaming.merged.is_some() {
        all.split.output_ms += streaming.writing.as_secs_f64() * 1e3;
        all.cpu = all.cpu.zip(writer_cpu).map(|(a, b)| a + b);
        all.bytes = sink.0;
    }
    all.total = start.elapsed();
    Ok(all)
}

/// Parses, explores and reports the family's program of size `n` once,
/// with `method` (the language's default when `None`), the whole tree or
/// one shard of it.
fn run_once(
    family: Family,
    n: usize,
    method: Option<Method>,
    (output, merge): (BenchOutput, Merge),
    worker: Option<(&Worker, Lane<'_, Piece>)>,
) -> Result<Run, CliError> {
    let (worker, to_writer) = worker.unzip();
    let start = Instant::now();
    let cpu_start = thread_cpu_time();
    let source = family.source(n).ok_or_else(|| {
        CliError::new(format!("the family {} explores no program", family.name()))
    })?;
    let program = parse_generated(family.name(), &source)?;
    let choice = Choice::new(&program, None, method, ThisRule::Fresh)?;
    let header = Header {
        program: format!("{}({n})", family.name()),
        language: choice.language,
        method: choice.method.name(),
        inputs: program.inputs(),
    };
    let mut sink = Counted::default();
    let mut json;
    let mut lines;
    let mut text;
    let mut collected = None;
    let report: Option<&mut dyn Observer> = match output {
        // A worker's paths, sent to the writing thread stretch by stretch.
        BenchOutput::Json if to_writer.is_some() => {
            let name = format!("{}({n})", family.name());
            to_writer.map(|to_writer| {
                collected.insert(Streamed::new(name, header, to_writer)) as &mut dyn Observer
            })
        }
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
        nodes: 0,
    };
    let mut options = options(family, n, merge);
    if let Some(worker) = worker {
        worker.share(&mut options);
    }
    let visitor = Explored {
        inputs: &program.globals,
        options: &options,
        observer: &mut timed,
    };
    let (begun, stats) = with_semantics(program.clone(), choice, Options::default(), visitor)??;
    let exploration = begun.elapsed();
    let front_end = begun - start;
    let Timed {
        time: output_time,
        models,
        nodes,
        ..
    } = timed;
    // A worker waiting for the writer neither explores nor writes.
    let waited = collected.as_ref().map_or(Duration::ZERO, Streamed::waited);
    let output_time = output_time.saturating_sub(waited);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let split = Split {
        front_end_ms: ms(front_end),
        exploration_ms: ms(exploration.saturating_sub(
            stats.timings.solver + stats.timings.simplifier + output_time + waited,
        )),
        solver_ms: ms(stats.timings.solver),
        simplifier_ms: ms(stats.timings.simplifier),
        output_ms: ms(output_time),
    };
    Ok(Run {
        total: start.elapsed(),
        cpu: thread_cpu_time()
            .zip(cpu_start)
            .map(|(end, start)| end - start),
        method: choice.method.name(),
        split,
        stats,
        models,
        nodes,
        bytes: sink.0,
        collected: collected.map(Streamed::into_report),
    })
}

/// Explores the symbolic semantics, noting when the exploration proper
/// begins (the semantics built: the front end ends there).
struct Explored<'a> {
    inputs: &'a BTreeMap<Name, Sort>,
    options: &'a ExploreOptions,
    observer: &'a mut dyn Observer,
}

impl Visitor for Explored<'_> {
    type Output = io::Result<(Instant, Stats)>;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> io::Result<(Instant, Stats)>
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let begun = Instant::now();
        let stats = explore_into(
            &semantics.symbolic,
            semantics.initial,
            self.inputs,
            self.options,
            self.observer,
        )?;
        Ok((begun, stats))
    }
}

/// Runs `family` at size `n` `repeat` times with `method` (merged where
/// `merge` says) on `jobs` workers; the median run is reported.
pub fn measure(
    family: Family,
    n: usize,
    method: Option<Method>,
    repeat: usize,
    (output, merge): (BenchOutput, Merge),
    jobs: usize,
) -> Result<Measurement, CliError> {
    reset_peak_memory();
    let mut runs = Vec::new();
    for _ in 0..repeat.max(1) {
        runs.push(run_on(family, n, method, (output, merge), jobs)?);
    }
    runs.sort_by_key(|run| run.total);
    let run = runs.swap_remove(runs.len() / 2);
    let seconds = run.total.max(Duration::from_nanos(1)).as_secs_f64();
    let paths = run.stats.paths;
    Ok(Measurement {
        family: family.name().to_string(),
        size: n,
        jobs: jobs.max(1),
        method: run.method,
        merged: merge != Merge::Off,
        merges: run.stats.merges,
        paths,
        expected_paths: family.expected_paths(n),
        models: run.models,
        nodes: run.nodes,
        solver_calls: run.stats.solver_calls,
        time_ms: seconds * 1e3,
        paths_per_second: paths as f64 / seconds,
        us_per_path: seconds * 1e6 / paths.max(1) as f64,
        cpu_ms: run.cpu.map(|cpu| cpu.as_secs_f64() * 1e3),
        cpu_us_per_path: cpu_us_each(run.cpu, paths),
        cpu_us_per_node: cpu_us_each(run.cpu, run.nodes),
        split: run.split,
        simplifier_percent: run.split.simplifier_percent(),
        output_bytes: run.bytes,
        peak_memory_kib: peak_memory_kib(),
    })
}

/// Microseconds of `cpu` for each of `count` things (paths, nodes).
fn cpu_us_each(cpu: Option<Duration>, count: usize) -> Option<f64> {
    cpu.map(|cpu| cpu.as_secs_f64() * 1e6 / count.max(1) as f64)
}

/// The time the calling thread has run on a processor (Linux: the first
/// field of `/proc/thread-self/schedstat`, in nanoseconds).
fn thread_cpu_time() -> Option<Duration> {
    let schedstat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = schedstat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
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
