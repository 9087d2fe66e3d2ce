//! `symex tests FILE`: one concrete test per feasible path, each replayed on
//! the concrete semantics, which must take the same rules and end in the
//! outcome and the state `V ∘ σ` the path predicts.

use super::language::{with_semantics, Semantics, Visitor};
use super::{CliError, Common, Exit, ReportFormat};
use crate::explore::{
    explore, explore_into, replay, replay_leaf, ExploreOptions, Finished, Observer, Replay, Route,
    Stats, Tree, Unexplored, Verdict,
};
use crate::report::values::{heap_json, valuation_json};
use crate::saved::{self, SavedTest};
use crate::simplify::{InContext, Simplifier};
use crate::solver::Solver;
use clap::Args;
use serde_json::json;
use std::collections::BTreeMap;
use std::io;
use std::io::Write;
use std::path::PathBuf;
use symex_semantics::eval::ShowValuation;
use symex_semantics::machine::Integers;
use symex_semantics::program::{ErrorKind, Language};
use symex_semantics::system::Rule;
use symex_semantics::system::{ConcreteConfiguration, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::{Name, Sort};

/// The tree and, for each path that ran to its end with a model, its replay.
pub struct Replayed {
    pub tree: Tree,
    /// `(path index, replay)`.
    pub tests: Vec<(usize, Replay)>,
}

/// Explores, then replays every complete path (or only the first error
/// path when `first_error_only`).
pub struct ExploreAndReplay<'a> {
    pub inputs: &'a BTreeMap<Name, Sort>,
    pub options: &'a ExploreOptions,
    pub first_error_only: bool,
}

impl Visitor for ExploreAndReplay<'_> {
    type Output = Replayed;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> Replayed
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        // `verify` prints one path condition, the counterexample's: where
        // configurations are not condensed by their simplified conditions
        // (§4's unfoldings), the others are left raw, and that one is
        // simplified alone.
        let deferred = self.first_error_only && self.options.simplify && !S::Config::CONDENSES;
        let options = ExploreOptions {
            simplify: self.options.simplify && !deferred,
            ..self.options.clone()
        };
        let mut tree = explore(
            &semantics.symbolic,
            semantics.initial.clone(),
            self.inputs,
            &options,
        );
        let mut tests = Vec::new();
        let mut order: Vec<(usize, usize)> = tree.paths.iter().copied().enumerate().collect();
        if self.first_error_only {
            // A failed assertion (what `verify` is about) before other
            // errors, and the smallest counterexample first: the fewest objects (§4).
            order.sort_by_key(|(_, node)| {
                let leaf = tree.leaf(*node);
                let assertion = leaf
                    .is_some_and(|leaf| leaf.status.error() == Some(ErrorKind::AssertionFailed));
                (
                    !assertion,
                    leaf.and_then(|leaf| leaf.model.as_ref())
                        .map_or(usize::MAX, |model| model.heap.len()),
                )
            });
        }
        for (path, node) in order {
            let is_error = tree
                .leaf(node)
                .is_some_and(|leaf| leaf.status.error().is_some());
            if self.first_error_only && !is_error {
                continue;
            }
            if let Some(replayed) = replay(&tree, node, &semantics.concrete, |inputs| {
                semantics.start(inputs)
            }) {
                tests.push((path, replayed));
                if self.first_error_only {
                    break;
                }
            }
        }
        if let Some(leaf) = tests
            .first()
            .filter(|_| deferred)
            .and_then(|(path, _)| tree.nodes[tree.paths[*path]].leaf.as_mut())
        {
            let mut simplifier = Simplifier::new();
            let simplified = simplifier.simplify(&leaf.path_condition);
            let mut solver = Solver::new(self.options.timeout_ms);
            leaf.path_condition =
                InContext::new().condition(&simplified, &mut simplifier, &mut solver);
        }
        Replayed { tree, tests }
    }
}

/// Replays each path as soon as the explorer reports it, so that a limit
/// (`--time-limit-ms`, Ctrl-C) covers exploring and replaying alike and
/// every test made before it is kept.
struct ReplayAsFound<'a> {
    inputs: &'a BTreeMap<Name, Sort>,
    options: &'a ExploreOptions,
}

/// The tests made, and what a limit left undone.
struct Found {
    tests: Vec<(usize, Replay)>,
    paths: usize,
    unexplored: Vec<Unexplored>,
}

/// The observer of [`ReplayAsFound`].
struct Replaying<'s, S: TransitionSystem, C: TransitionSystem> {
    semantics: &'s Semantics<S, C>,
    found: Found,
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
            self.found.tests.push((path.id, replayed));
        }
        Ok(())
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        self.found.unexplored = unexplored.to_vec();
        self.found.paths = stats.paths;
        Ok(())
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
        let mut observer = Replaying {
            semantics: &semantics,
            found: Found {
                tests: Vec::new(),
                paths: 0,
                unexplored: Vec::new(),
            },
        };
        // The observer never fails: what it found is whole.
        let _ = explore_into(
            &semantics.symbolic,
            semantics.initial.clone(),
            self.inputs,
            self.options,
            &mut observer,
        );
        observer.found
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
}

pub fn command(args: &TestsArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let mut session = args.common.session("tests")?;
    let program = session.loaded.program.clone();
    let visitor = ReplayAsFound {
        inputs: &program.globals,
        options: &session.explore,
    };
    let progress = crate::stop::progress::show();
    let Found {
        tests,
        paths,
        unexplored,
    } = with_semantics(program.clone(), session.choice, session.semantics, visitor)?;
    drop(progress);
    // Stopped in time: the report is written whole, however long that takes.
    drop(session.backstop.take());
    let stopped = unexplored.first().map(|u| u.reason);
    let header = session.header();
    let ending = |wanted: fn(&Verdict) -> bool| {
        tests
            .iter()
            .filter(|(_, test)| wanted(&test.verdict()))
            .count()
    };
    if let Some(dir) = &args.output {
        if session.loaded.path == "-" {
            return Err(CliError::new(
                "`--output` saves tests of a program file, not of standard input",
            ));
        }
        let saved: Vec<SavedTest> = tests
            .iter()
            .map(|(path, test)| SavedTest {
                program: session.loaded.path.clone(),
                language: session.choice.language.to_string(),
                checked_arrays: session.semantics.checked_arrays,
                int: (session.loaded.integers != Integers::Mathematical)
                    .then(|| session.loaded.integers.name()),
                path: *path,
                inputs: heap_json(&header.inputs_of(&test.inputs)),
                outcome: test.expected_outcome.to_string(),
                final_state: heap_json(&test.expected_state),
            })
            .collect();
        saved::save(dir, &saved).map_err(|error| {
            CliError::new(format!("{}: cannot save the tests: {error}", dir.display()))
        })?;
    }
    let undecided = ending(|verdict| matches!(verdict, Verdict::Undecided(_)));
    let failures = ending(|verdict| matches!(verdict, Verdict::Failed(_)));
    match args.format {
        ReportFormat::Json => {
            let tests: Vec<_> = tests
                .iter()
                .map(|(path, test)| {
                    let mut test_json = json!({
                        "path": path,
                        "inputs": valuation_json(&header.inputs_of(&test.inputs)),
                        "outcome": test.expected_outcome.to_string(),
                        "final_state": valuation_json(&test.expected_state),
                        "replayed": test.mismatch.is_none(),
                        "mismatch": test.mismatch,
                    });
                    if session.choice.language == Language::Oo {
                        test_json["heap"] = heap_json(&test.inputs);
                        test_json["final_heap"] = heap_json(&test.expected_state);
                    }
                    test_json
                })
                .collect();
            let stopped = stopped.map(|limit| json!(limit));
            let report =
                json!({ "tests": tests, "stopped": stopped, "unexplored": unexplored.len() });
            writeln!(out, "{report:#}")?;
        }
        _ => {
            for (path, test) in &tests {
                let verdict = match test.verdict() {
                    Verdict::Replayed => "replayed".to_string(),
                    Verdict::Undecided(why) => why.to_string(),
                    Verdict::Failed(why) => format!("NOT replayed: {why}"),
                };
                writeln!(
                    out,
                    "test of path {path}: inputs {} → {}, final state {}: {verdict}",
                    ShowValuation(&header.inputs_of(&test.inputs)),
                    test.expected_outcome,
                    ShowValuation(&test.expected_state)
                )?;
            }
            let untested = paths - tests.len();
            let replayed = tests.len() - undecided - failures;
            let undecided_text = if undecided > 0 {
                format!(", {undecided} undecided")
            } else {
                String::new()
            };
            writeln!(out, "{} tests, {replayed} replayed{undecided_text}; {untested} paths without a test (not run to their end)", tests.len())?;
            if let Some(limit) = stopped {
                writeln!(
                    out,
                    "stopped: {limit}; {} configurations unexplored, the tests above are those made before",
                    unexplored.len()
                )?;
            }
        }
    }
    Ok(if failures > 0 {
        Exit::Failed
    } else if undecided > 0 || stopped.is_some() {
        Exit::Inconclusive
    } else {
        Exit::Done
    })
}
