//! `symex tests FILE`: one concrete test per feasible path, each replayed on
//! the concrete semantics, which must take the same rules and end in the
//! outcome and the state `V ∘ σ` the path predicts. With `--jobs N` the
//! workers of [`crate::explore::workers`] explore shares of the tree and
//! replay their paths; the tests are numbered and written in the order
//! one job finds them.

use super::language::{with_semantics, Semantics, Visitor};
use super::{CliError, Common, Exit, ReportFormat, Session, Source};
use crate::explore::share::{self, Segment};
use crate::explore::workers::{self, Worker};
use crate::explore::{
    explore_into, replay_leaf, ExploreOptions, Finished, Observer, Route, Stats, Unexplored,
};
use crate::report::shards::{self, Collected, ShardReport};
use crate::report::tests::{ending, write_json, write_text, Ending, ShownTest, Shows, Untested};
use crate::saved::{self, SavedTest};
use clap::Args;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io;
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::Sender;
use symex_semantics::machine::Integers;
use symex_semantics::program::Language;
use symex_semantics::system::Rule;
use symex_semantics::system::{ConcreteConfiguration, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::{Name, Sort};

/// Replays each path as soon as the explorer reports it, so that a limit
/// (`--time-limit-ms`, Ctrl-C) covers exploring and replaying alike and
/// every test made before it is kept.
struct ReplayAsFound<'a> {
    inputs: &'a BTreeMap<Name, Sort>,
    options: &'a ExploreOptions,
    shows: &'a Shows,
    /// A worker's: where it sends the tests of each stretch it finishes.
    to_main: Option<Sender<(usize, Stretch)>>,
}

/// The tests made, and what a limit left undone.
struct Found {
    /// The tests not yet sent (a worker sends each stretch's).
    tests: Vec<ShownTest>,
    paths: usize,
    unexplored: Vec<Unexplored>,
    /// A worker's frontier and counters, for the merge.
    report: Option<ShardReport>,
}

/// The tests of a finished stretch of a worker's exploration ([`Segment`]).
struct Stretch {
    /// Numbered from the stretch's first path.
    tests: Vec<ShownTest>,
    paths: usize,
}

/// A worker's side of [`Replaying`].
struct Stretches {
    to_main: Sender<(usize, Stretch)>,
    /// The paths reported before the stretch under way.
    paths_before: usize,
    rest: Collected,
}

/// The observer of [`ReplayAsFound`].
struct Replaying<'s, S: TransitionSystem, C: TransitionSystem> {
    semantics: &'s Semantics<S, C>,
    shows: &'s Shows,
    found: Found,
    stretches: Option<Stretches>,
}

impl<S, C> Observer for Replaying<'_, S, C>
where
    S: TransitionSystem,
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        let route = if path.node.ancestors().any(|node| node.join().is_some()) {
            Route::Joined {
                depth: path.node.depth,
            }
        } else {
            let mut rules: Vec<Rule> = path
                .node
                .ancestors()
                .filter_map(|node| node.edge().map(|edge| edge.rule))
                .collect();
            rules.reverse();
            Route::Rules(rules)
        };
        let semantics = self.semantics;
        let replayed = replay_leaf(&path.leaf, route, &semantics.concrete, |inputs| {
            semantics.start(inputs)
        });
        if let Some(replayed) = replayed {
            self.found.tests.push(self.shows.test(path.id, &replayed));
        }
        self.found.paths = path.id + 1;
        Ok(())
    }

    fn segment(&mut self, segment: Segment) -> io::Result<()> {
        let Some(stretches) = &mut self.stretches else {
            return Ok(());
        };
        let before = stretches.paths_before;
        let tests = std::mem::take(&mut self.found.tests)
            .into_iter()
            .map(|test| {
                let path = test.path - before;
                test.numbered(path)
            })
            .collect();
        stretches.paths_before = self.found.paths;
        let stretch = Stretch {
            tests,
            paths: self.found.paths - before,
        };
        stretches
            .to_main
            .send((segment.slot(), stretch))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the tests' collector stopped"))
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        self.found.unexplored = unexplored.to_vec();
        self.found.paths = stats.paths;
        match &mut self.stretches {
            Some(stretches) => stretches.rest.finish(unexplored, stats),
            None => Ok(()),
        }
    }
}

impl Visitor for ReplayAsFound<'_> {
    type Output = Found;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> Found
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let stretches = self.to_main.map(|to_main| Stretches {
            to_main,
            paths_before: 0,
            rest: Collected::new("worker".to_string(), self.shows.header.clone()),
        });
        let mut observer = Replaying {
            semantics: &semantics,
            shows: self.shows,
            found: Found {
                tests: Vec::new(),
                paths: 0,
                unexplored: Vec::new(),
                report: None,
            },
            stretches,
        };
        // The observer fails only when the collector of a worker's tests
        // has stopped; what it found is whole.
        let _ = explore_into(
            &semantics.symbolic,
            semantics.initial.clone(),
            self.inputs,
            self.options,
            &mut observer,
        );
        let mut found = observer.found;
        found.report = observer.stretches.map(|s| s.rest.into_report());
        found
    }
}

/// `symex tests`: the common options and the report's format.
#[derive(Clone, Debug, Args)]
pub struct TestsArgs {
    #[command(flatten)]
    pub common: Common,
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Also save each test as DIR/path-N.json, for `symex replay DIR`
    /// (earlier test files in DIR are replaced).
    #[arg(long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Explore and replay on N workers, sharing the tree's prefixes; the
    /// tests are those of one job, numbered alike (docs/commands.md).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
}

/// What rendering the tests of `session`'s program as `args` asks needs.
fn shows(args: &TestsArgs, session: &Session) -> Shows {
    let integers = session.loaded.integers;
    Shows {
        header: session.header(),
        json: args.format == ReportFormat::Json,
        heaps: session.choice.language == Language::Oo,
        saved: args.output.as_ref().map(|_| SavedTest {
            program: session.loaded.path.clone(),
            language: session.choice.language.to_string(),
            checked_arrays: session.semantics.checked_arrays,
            int: (integers != Integers::Mathematical).then(|| integers.name()),
            path: 0,
            inputs: Value::Null,
            outcome: String::new(),
            final_state: Value::Null,
        }),
    }
}

/// The tests of `session`'s program, made by this thread alone.
fn one_job(args: &TestsArgs, session: &Session) -> Result<(Vec<ShownTest>, Untested), CliError> {
    let program = session.loaded.program.clone();
    let shows = shows(args, session);
    let visitor = ReplayAsFound {
        inputs: &program.globals,
        options: &session.explore,
        shows: &shows,
        to_main: None,
    };
    let found = with_semantics(program.clone(), session.choice, session.semantics, visitor)?;
    let untested = Untested {
        paths: found.paths,
        stopped: found.unexplored.first().map(|left| left.reason),
        unexplored: found.unexplored.len(),
    };
    Ok((found.tests, untested))
}

/// The tests of `session`'s program made by `jobs` workers, each loading
/// the program again on its own thread: the stretches they send are put in
/// depth-first order, which numbers the paths as one job does.
fn on_workers(args: &TestsArgs, session: &Session) -> Result<(Vec<ShownTest>, Untested), CliError> {
    if let Some(conflict) = share::conflict(&session.explore) {
        return Err(CliError::new(conflict.replace("--shard", "--jobs")));
    }
    let source = session.loaded.text();
    let (found, stretches) = workers::on_workers(
        args.jobs,
        |worker, to_main| worker_tests(args, &source, &worker, to_main),
        workers::in_order,
    );
    let found = found
        .into_iter()
        .map(|found| {
            found.unwrap_or_else(|| Err(CliError::new("internal error: a worker did not finish")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut tests = Vec::new();
    let mut paths = 0;
    for stretch in stretches.into_values() {
        tests.extend(stretch.tests.into_iter().map(|test| {
            let path = test.path + paths;
            test.numbered(path)
        }));
        paths += stretch.paths;
    }
    let stopped = found
        .iter()
        .find_map(|found| found.unexplored.first().map(|left| left.reason));
    let reports = found.into_iter().filter_map(|found| found.report).collect();
    let merged = shards::merge(reports).map_err(CliError::new)?;
    let untested = Untested {
        paths,
        stopped,
        unexplored: merged.unexplored(),
    };
    Ok((tests, untested))
}

/// One worker's tests: its own copy of the program, its share of the tree.
fn worker_tests(
    args: &TestsArgs,
    source: &Source,
    worker: &Worker,
    to_main: Sender<(usize, Stretch)>,
) -> Result<Found, CliError> {
    let mut own = args.common.session_of(source.clone().parse()?, "tests")?;
    drop(own.backstop.take());
    worker.share(&mut own.explore);
    let program = own.loaded.program.clone();
    let shows = shows(args, &own);
    let visitor = ReplayAsFound {
        inputs: &program.globals,
        options: &own.explore,
        shows: &shows,
        to_main: Some(to_main),
    };
    with_semantics(program.clone(), own.choice, own.semantics, visitor)
}

pub fn command(args: &TestsArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let mut session = args.common.session("tests")?;
    let progress = crate::stop::progress::show();
    let (tests, untested) = match args.jobs {
        0 | 1 => one_job(args, &session)?,
        _ => on_workers(args, &session)?,
    };
    drop(progress);
    // Stopped in time: the report is written whole, however long that takes.
    drop(session.backstop.take());
    if let Some(dir) = &args.output {
        if session.loaded.path == "-" {
            return Err(CliError::new(
                "`--output` saves tests of a program file, not of standard input",
            ));
        }
        let saved: Vec<SavedTest> = tests.iter().filter_map(|test| test.saved.clone()).collect();
        saved::save(dir, &saved).map_err(|error| {
            CliError::new(format!("{}: cannot save the tests: {error}", dir.display()))
        })?;
    }
    match args.format {
        ReportFormat::Json => write_json(&tests, &untested, out)?,
        ReportFormat::Text => write_text(&tests, &untested, out)?,
    }
    Ok(if ending(&tests, Ending::Failed) > 0 {
        Exit::Failed
    } else if ending(&tests, Ending::Undecided) > 0 || untested.stopped.is_some() {
        Exit::Inconclusive
    } else {
        Exit::Done
    })
}
