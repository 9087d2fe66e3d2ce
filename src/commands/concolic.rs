//! `symex concolic FILE`: concolic testing with a prioritised worklist
//! (`src/concolic/`), from given or random inputs.

use super::language::{with_semantics, Choice, Semantics, Visitor};
use super::{heap, inputs, int_options, load, CliError, Exit, IntArg, SemanticsArgs};
use crate::concolic::coverage::Sites;
use crate::concolic::jobs::{Endpoint, Fold};
use crate::concolic::run::Systems;
use crate::concolic::worklist::Order;
use crate::concolic::{
    search_on_workers, ConcolicOptions, Expansion, Goal, Jobs, Listener, Stop, Summary,
};
use crate::explore::run::MAX_STEPS;
use crate::explore::Bounds;
use crate::report::concolic::{test_file, JsonListener, RunForm, TextListener};
use crate::theorems::inputs::{random_heap_inputs, random_inputs};
use clap::{Args, ValueEnum};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::io::{self, IsTerminal, Write};
use std::rc::Rc;
use std::time::Duration;
use symex_semantics::eval::Valuation;
use symex_semantics::machine::Integers;
use symex_semantics::program::{Language, Program};
use symex_semantics::system::{
    ConcreteConfiguration, Options, SymbolicConfiguration, TransitionSystem,
};

/// `--priority`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PriorityArg {
    /// Branches near the root first (the paper's default).
    DepthIndex,
    /// The branches of the run that covered most new branches first (SAGE).
    Generational,
    /// A branch no run has taken yet first.
    NewBranch,
    /// At random (`--seed`).
    Random,
}

/// `--coverage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GoalArg {
    Statements,
    Branches,
    Paths,
}

/// `--format` of `concolic`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ConcolicFormat {
    Text,
    Json,
}

#[derive(Clone, Debug, Args)]
pub struct ConcolicArgs {
    /// The program (`-` for standard input).
    pub file: String,
    #[command(flatten)]
    pub semantics: SemanticsArgs,
    /// A value of the first input: `x=3`, `a=[1,2]`; inputs not given are 0, false, [].
    #[arg(long = "input", value_name = "NAME=VALUE")]
    pub inputs: Vec<String>,
    /// An initial heap and globals (`run --heap`'s JSON); each file is one more first input.
    #[arg(long = "heap", value_name = "H.json")]
    pub heaps: Vec<String>,
    /// Start from a random input drawn from this seed (also the seed of `--priority random`).
    #[arg(long)]
    pub seed: Option<u64>,
    #[arg(long, value_enum, default_value_t = PriorityArg::DepthIndex)]
    pub priority: PriorityArg,
    /// Stop once every statement, every branch, or every path (the worklist empty) is covered.
    #[arg(long, value_enum, default_value_t = GoalArg::Paths)]
    pub coverage: GoalArg,
    /// Stop after this many runs.
    #[arg(long, value_name = "N")]
    pub iterations: Option<usize>,
    /// Stop after this long.
    #[arg(long, value_name = "MS")]
    pub time_limit_ms: Option<u64>,
    /// Per solver query.
    #[arg(long, value_name = "T", default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// At most N transitions on a run (the rest is cut, as `explore` cuts a path).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub depth: usize,
    /// At most K executions of any one loop body, and K nested calls of any one procedure, on a run.
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub unfold: usize,
    /// Every array access must be within `0 <= i < len(a)` (§2.1).
    #[arg(long)]
    pub checked_arrays: bool,
    /// What `int` means: mathematical integers, or C's signed machine integers with overflow as an error.
    #[arg(long = "int", value_enum, default_value_t = IntArg::Math, value_name = "INT")]
    pub int: IntArg,
    /// Also write each test as DIR/test-N.json, the JSON `run --heap` reads.
    #[arg(long, value_name = "DIR")]
    pub tests: Option<String>,
    #[arg(long, value_enum, default_value_t = ConcolicFormat::Text)]
    pub format: ConcolicFormat,
    /// Solve the negated branches on N workers; the report is the same for any N (docs/concolic.md).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
}

/// What a worker builds its own program and systems from: terms and Z3
/// contexts do not cross threads.
struct Source<'a> {
    text: &'a str,
    integers: Integers,
    choice: Choice,
    semantics: Options,
}

/// The search on a program's semantics, reported to a listener, its
/// negations solved on `jobs` workers built from `source`.
struct Concolic<'a> {
    sites: &'a Sites,
    seeds: Vec<Valuation>,
    options: &'a ConcolicOptions,
    listener: &'a mut dyn Listener,
    jobs: usize,
    source: &'a Source<'a>,
}

impl Visitor for Concolic<'_> {
    type Output = io::Result<Result<Summary, String>>;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> Self::Output
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let jobs = Jobs {
            count: self.jobs,
            fold: Fold::InTurn,
        };
        let source = self.source;
        on_systems(&semantics, |systems| {
            search_on_workers(
                jobs,
                systems,
                self.sites,
                self.seeds,
                self.options,
                self.listener,
                |endpoint| serve(source, endpoint),
            )
        })
    }
}

/// `with` on the systems of `semantics`.
fn on_systems<S, C, T>(semantics: &Semantics<S, C>, with: impl FnOnce(&Systems<'_, S, C>) -> T) -> T
where
    S: TransitionSystem,
    C: TransitionSystem,
{
    let start = |inputs| semantics.start(inputs);
    with(&Systems {
        symbolic: &semantics.symbolic,
        initial: &semantics.initial,
        concrete: &semantics.concrete,
        start: &start,
    })
}

/// A worker: its own program from `source`, solving what `endpoint` gives it.
fn serve(source: &Source<'_>, endpoint: Endpoint<'_>) {
    let Ok((program, _)) = symex_semantics::syntax::parse_with(source.text, source.integers) else {
        return;
    };
    let program = Rc::new(program);
    let worker = Worker {
        sites: Sites::new(program.clone()),
        endpoint,
    };
    // A worker that cannot start ends, and the search says a worker did not finish.
    let _ = with_semantics(program, source.choice, source.semantics, worker);
}

/// A worker's search-free part: negations solved on its own semantics.
struct Worker<'a> {
    sites: Sites,
    endpoint: Endpoint<'a>,
}

impl Visitor for Worker<'_> {
    type Output = ();

    fn visit<S, C>(self, semantics: Semantics<S, C>)
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        on_systems(&semantics, |systems| {
            self.endpoint.serve(systems, &self.sites)
        });
    }
}

pub fn command(args: &ConcolicArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    if args.jobs == 0 {
        return Err(CliError::new("--jobs must be at least 1"));
    }
    let loaded = load(&args.file, args.int)?;
    let program = loaded.program.clone();
    let choice = args.semantics.choice(&program)?;
    let seeds = seeds(args, &program)?;
    let order = match args.priority {
        PriorityArg::DepthIndex => Order::DepthIndex,
        PriorityArg::Generational => Order::Generational,
        PriorityArg::NewBranch => Order::NewBranch,
        PriorityArg::Random => Order::Random {
            seed: args.seed.unwrap_or(0),
        },
    };
    let options = ConcolicOptions {
        bounds: Bounds {
            depth: args.depth,
            unfold: args.unfold,
            unwind: None,
            max_paths: None,
            time_limit: args.time_limit_ms.map(Duration::from_millis),
            max_objects: None,
        },
        iterations: args.iterations,
        goal: match args.coverage {
            GoalArg::Statements => Goal::Statements,
            GoalArg::Branches => Goal::Branches,
            GoalArg::Paths => Goal::Paths,
        },
        strategy: order.strategy(),
        timeout_ms: args.timeout_ms,
        max_steps: MAX_STEPS,
        expansion: Expansion::Generational,
    };
    let header = crate::report::Header {
        program: loaded.path.clone(),
        language: choice.language,
        method: choice.method.name(),
        inputs: program.inputs(),
    };
    let sites = Sites::new(program.clone());
    let mut form = RunForm {
        program: loaded.path.clone(),
        options: Vec::new(),
    };
    if let Some(lang) = args
        .semantics
        .lang
        .and_then(|lang| lang.to_possible_value())
    {
        form.options
            .extend(["--lang".to_string(), lang.get_name().to_string()]);
    }
    if args.checked_arrays {
        form.options.push("--checked-arrays".to_string());
    }
    form.options.extend(int_options(loaded.integers));
    let source = Source {
        text: &loaded.source,
        integers: loaded.integers,
        choice,
        semantics: args.semantics.options(args.checked_arrays),
    };
    let priority = args
        .priority
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string());
    // Text streams to a terminal iteration by iteration: no status line there.
    let streams = matches!(args.format, ConcolicFormat::Text) && io::stdout().is_terminal();
    let _progress = (!streams).then(crate::stop::progress::show);
    let summary = match args.format {
        ConcolicFormat::Text => {
            let mut listener =
                TextListener::new(io::BufWriter::new(&mut *out), &header, &sites, &form);
            let summary = run(
                &program,
                &sites,
                seeds,
                &options,
                &source,
                args.jobs,
                &mut listener,
            )?;
            listener.summary(&summary, args.tests.as_deref())?;
            summary
        }
        ConcolicFormat::Json => {
            let mut listener = JsonListener::new(&header, &sites, &form);
            let summary = run(
                &program,
                &sites,
                seeds,
                &options,
                &source,
                args.jobs,
                &mut listener,
            )?;
            writeln!(out, "{:#}", listener.document(&summary, &priority))?;
            summary
        }
    };
    if let Some(dir) = &args.tests {
        write_tests(dir, &header, &summary)?;
    }
    let failed = summary
        .tests
        .iter()
        .any(|test| test.ending.error().is_some());
    Ok(if failed {
        Exit::Failed
    } else if summary.flips.undecided > 0
        || matches!(summary.stop, Stop::Iterations | Stop::Limit(_))
    {
        Exit::Inconclusive
    } else {
        Exit::Done
    })
}

fn run(
    program: &Rc<Program>,
    sites: &Sites,
    seeds: Vec<Valuation>,
    options: &ConcolicOptions,
    source: &Source<'_>,
    jobs: usize,
    listener: &mut dyn Listener,
) -> Result<Summary, CliError> {
    let visitor = Concolic {
        sites,
        seeds,
        options,
        listener,
        jobs,
        source,
    };
    with_semantics(program.clone(), source.choice, source.semantics, visitor)??
        .map_err(|why| CliError::new(format!("internal error: {why}")))
}

/// The first inputs: the one `--input` gives (if any, or if nothing else
/// is given), one per `--heap` file on top of it, and one drawn from `--seed`.
fn seeds(args: &ConcolicArgs, program: &Program) -> Result<Vec<Valuation>, CliError> {
    let base = inputs::valuation(&args.inputs, &program.globals)?;
    let mut seeds = Vec::new();
    for path in &args.heaps {
        seeds.push(heap::read(path, program, base.clone())?);
    }
    if !args.inputs.is_empty() || (args.heaps.is_empty() && args.seed.is_none()) {
        seeds.insert(0, base);
    }
    if let Some(seed) = args.seed {
        let mut rng = StdRng::seed_from_u64(seed);
        seeds.push(if program.language == Language::Oo {
            random_heap_inputs(program, &mut rng)
        } else {
            let mut drawn = inputs::valuation(&[], &program.globals)?;
            for (x, value) in random_inputs(&program.globals, &mut rng).iter() {
                drawn.insert(x.clone(), value.clone());
            }
            drawn
        });
    }
    Ok(seeds)
}

/// Each test as DIR/test-N.json.
fn write_tests(
    dir: &str,
    header: &crate::report::Header,
    summary: &Summary,
) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| CliError::new(format!("{dir}: {e}")))?;
    for (n, test) in summary.tests.iter().enumerate() {
        let path = test_file(dir, n);
        let text = format!("{:#}\n", crate::report::concolic::test_json(header, test));
        std::fs::write(&path, text).map_err(|e| CliError::new(format!("{path}: {e}")))?;
    }
    Ok(())
}
