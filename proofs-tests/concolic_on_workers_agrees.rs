//! Concolic search on workers (`concolic --jobs N`) reports what one job
//! reports: on random programs, from a random input, with and without an
//! iteration limit, the search whose negations 2 to 4 workers solve in
//! rounds gives the same iterations (origin, input, path, path condition,
//! coverage, pinned inputs), tests, counts and stop as the search that
//! solves each negation in turn on its own thread. It must catch a search
//! that folds a round's outcomes in the order the workers finish them, and
//! the cases it is meant to reach (several rounds, negations solved ahead
//! of their turn, a limit that stops the search with some of them unused)
//! must each occur in a twentieth of the cases.

use crate::concolic_agrees_with_explore::{concolic_options, on_systems, MOST_PATHS};
use crate::distribution::{self, Required};
use crate::generators::{BasicProgram, Inputs};
use crate::{build, catches_on, holds_on, options, Real, Systems as _};
use quickcheck::{Arbitrary, Gen, TestResult};
use std::io;
use std::rc::Rc;
use symex::concolic::coverage::Sites;
use symex::concolic::jobs::{Endpoint, Fold};
use symex::concolic::run::Systems;
use symex::concolic::{
    search, search_on_workers, ConcolicOptions, Expansion, Iteration, Jobs, Listener, Summary,
    Undecided,
};
use symex_semantics::eval::ShowValuation;
use symex_semantics::syntax::parse_program;
use symex_semantics::system::{ConcreteConfiguration, SymbolicConfiguration, TransitionSystem};

/// A quarter of the usual number of cases (250 by default): each runs a
/// search twice, once on up to four threads.
fn quarter() -> u64 {
    (crate::cases() / 4).max(1)
}

/// How many workers, and whether `--iterations` stops the search early.
#[derive(Clone, Debug)]
struct Workers {
    count: usize,
    iterations: Option<usize>,
}

impl Arbitrary for Workers {
    fn arbitrary(g: &mut Gen) -> Workers {
        Workers {
            count: 2 + usize::arbitrary(g) % 3,
            iterations: bool::arbitrary(g).then(|| 1 + usize::arbitrary(g) % 6),
        }
    }
}

/// Everything a search reports, as text.
#[derive(Default)]
struct Transcript(Vec<String>);

impl Listener for Transcript {
    fn iteration(&mut self, it: &Iteration<'_>) -> io::Result<()> {
        self.0.push(format!(
            "{} {:?} {} {:?} {} {} {} {:?} {:?} {:?} {}",
            it.number,
            it.origin,
            ShowValuation(it.input),
            it.forks,
            it.status,
            it.steps,
            it.path_condition,
            it.new,
            it.pinned,
            it.repeated,
            it.diverged
        ));
        Ok(())
    }

    fn undecided(&mut self, undecided: &Undecided<'_>) -> io::Result<()> {
        self.0.push(format!(
            "undecided {} {} {:?} {}",
            undecided.iteration, undecided.fork, undecided.branch, undecided.why
        ));
        Ok(())
    }
}

impl Transcript {
    /// The iterations, then the summary but for its time and rounds.
    fn with(mut self, summary: &Summary) -> Vec<String> {
        for test in &summary.tests {
            self.0.push(format!(
                "test {} {} {:?} {:?} {} {} {:?} {}",
                test.iteration,
                ShowValuation(&test.input),
                test.choices,
                test.status,
                test.steps,
                test.path_condition,
                test.ending,
                ShowValuation(&test.final_state)
            ));
        }
        self.0.push(format!(
            "{} iterations, {:?}, {:?}, {:?}",
            summary.iterations, summary.coverage, summary.stop, summary.flips
        ));
        self.0
    }
}

/// A worker of the search: its own program, parsed from `source`, and systems.
fn worker(source: &str, endpoint: Endpoint<'_>) {
    let Ok(program) = parse_program(source) else {
        return;
    };
    let program = Rc::new(program);
    let Ok(simulation) = Real::build(program.clone(), options(false)) else {
        return;
    };
    let sites = Sites::new(program);
    on_systems(&simulation, |systems| endpoint.serve(systems, &sites));
}

fn agrees(program: BasicProgram, inputs: Inputs, workers: Workers, fold: Fold) -> TestResult {
    let simulation = match build::<Real>(&program, false) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    on_systems(&simulation, |systems| {
        compare(systems, &program, inputs, workers, fold)
    })
}

/// [`agrees`] on the systems of `program`.
fn compare<S, C>(
    systems: &Systems<'_, S, C>,
    program: &BasicProgram,
    inputs: Inputs,
    workers: Workers,
    fold: Fold,
) -> TestResult
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    let sites = Sites::new(program.0.clone());
    let options = ConcolicOptions {
        iterations: workers.iterations,
        ..concolic_options(Expansion::Generational)
    };
    let mut alone = Transcript::default();
    let one = match search(
        systems,
        &sites,
        vec![inputs.0.clone()],
        &options,
        &mut alone,
    ) {
        Ok(Ok(summary)) => summary,
        Ok(Err(why)) => return TestResult::error(why),
        Err(error) => return TestResult::error(error.to_string()),
    };
    if one.tests.len() > MOST_PATHS {
        return TestResult::discard();
    }
    let source = program.0.to_string();
    let jobs = Jobs {
        count: workers.count,
        fold,
    };
    let mut shared = Transcript::default();
    let many = match search_on_workers(
        jobs,
        systems,
        &sites,
        vec![inputs.0],
        &options,
        &mut shared,
        |endpoint| worker(&source, endpoint),
    ) {
        Ok(Ok(summary)) => summary,
        Ok(Err(why)) => return TestResult::error(why),
        Err(error) => return TestResult::error(error.to_string()),
    };
    if many.rounds > 1 {
        distribution::record_case("several rounds");
    }
    if many.solved_ahead > 0 {
        distribution::record_case("negations solved ahead");
    }
    if many.solved_ahead > 0 && many.stop == symex::concolic::Stop::Iterations {
        distribution::record_case("stopped with work ahead");
    }
    let (one, many) = (alone.with(&one), shared.with(&many));
    match one.iter().zip(&many).position(|(a, b)| a != b) {
        None if one.len() == many.len() => TestResult::passed(),
        at => {
            let at = at.unwrap_or(one.len().min(many.len()));
            TestResult::error(format!(
                "on {} workers the report differs from one job's at line {at}:\n{:?}\n{:?}",
                workers.count,
                one.get(at),
                many.get(at)
            ))
        }
    }
}

fn in_turn(program: BasicProgram, inputs: Inputs, workers: Workers) -> TestResult {
    agrees(program, inputs, workers, Fold::InTurn)
}

fn as_they_come(program: BasicProgram, inputs: Inputs, workers: Workers) -> TestResult {
    agrees(program, inputs, workers, Fold::AsTheyCome)
}

fn required() -> Required {
    Required::frequent(&[
        "several rounds",
        "negations solved ahead",
        "stopped with work ahead",
    ])
}

#[test]
fn concolic_search_on_workers_reports_what_one_job_reports() {
    holds_on(
        "concolic search on workers agrees with one job",
        quarter(),
        &required(),
        in_turn as fn(BasicProgram, Inputs, Workers) -> TestResult,
    );
}

#[test]
fn the_comparison_catches_outcomes_folded_as_they_come() {
    catches_on(
        "concolic search folding outcomes in the order workers finish them",
        quarter(),
        &required(),
        as_they_come as fn(BasicProgram, Inputs, Workers) -> TestResult,
    );
}
