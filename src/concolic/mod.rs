//! Concolic testing (DART, CUTE, SAGE; Paduraru, Cernat & Staicu, ICSOFT
//! 2023): run the program on concrete inputs while recording the symbolic
//! path condition of the run, negate its branches one at a time to get new
//! inputs, and keep the negated branches in a worklist ordered by a
//! priority.
//!
//! Each iteration runs one input ([`run`]: the concrete semantics with the
//! symbolic computation it selects beside it, Theorem 2.4's construction).
//! Its branches from the *depth index* of the branch that produced it on
//! enter the worklist, each with the prefix of the path before it — the
//! generational search of Godefroid et al. (SAGE), which reaches every
//! path of the tree once: the run's branches above that index were negated
//! by the runs before it. The next input is solved from the entry of
//! highest priority ([`worklist`], [`solve`]). Search stops when a
//! coverage goal is reached, after `--iterations` runs or
//! `--time-limit-ms`, or when the worklist is empty: then every feasible
//! path within the bounds has been run (the explorer's paths, by
//! `proofs-tests/concolic_agrees_with_explore.rs`).

pub mod coverage;
pub mod jobs;
pub mod run;
pub mod sent;
pub mod solve;
pub mod worklist;

use crate::explore::run::{RunEnd, MAX_STEPS};
use crate::explore::{Bounds, Candidate, Limit, Promise, Status, Strategy};
use coverage::{Branch, Coverage, Site, Sites};
use jobs::{Endpoint, Fold, Here, Lanes, Limits, Negation, Outcome, Solving, LANES};
use run::Systems;
use solve::{Pinned, Solved};
use std::collections::{BTreeSet, HashMap};
use std::io;
use std::rc::Rc;
use std::time::Instant;
use symex_semantics::draws::as_drawn;
use symex_semantics::eval::Valuation;
use symex_semantics::system::{
    ConcreteConfiguration, Rule, SymbolicConfiguration, TransitionSystem,
};
use symex_semantics::term::Term;
use worklist::{Order, Worklist};

/// What ends the search early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Every statement covered.
    Statements,
    /// Every branch covered.
    Branches,
    /// Every path: search until the worklist is empty.
    Paths,
}

/// Which branches of a run enter the worklist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// Every branch from the run's depth index on (generational search).
    Generational,
    /// A deliberately broken search that never negates a run's last
    /// branch, for the test that shows the agreement with the explorer
    /// catches it.
    #[cfg(any(test, feature = "mutants"))]
    KeepsLastBranch,
}

/// How to search.
#[derive(Clone, Debug)]
pub struct ConcolicOptions {
    /// `--depth` and `--unfold` cut runs where the explorer cuts paths;
    /// `time_limit` bounds the search.
    pub bounds: Bounds,
    /// At most this many runs.
    pub iterations: Option<usize>,
    pub goal: Goal,
    /// The order of the worklist: [`Order::strategy`] for the orders
    /// `--priority` names, or any [`Strategy`] — a library user's own
    /// priority is a [`Strategy::Priority`] over what each entry knows
    /// ([`Candidate`]: depth index, length, rule, coverage).
    pub strategy: Strategy,
    /// Per solver query.
    pub timeout_ms: u64,
    /// A run cut by a bound goes on alone to at most this many transitions
    /// in all, so that its test ends as `symex run --max-steps` ends it
    /// ([`MAX_STEPS`], `symex run`'s default, for the tests a command prints).
    pub max_steps: usize,
    pub expansion: Expansion,
}

impl Default for ConcolicOptions {
    fn default() -> ConcolicOptions {
        ConcolicOptions {
            bounds: Bounds::default(),
            iterations: None,
            goal: Goal::Paths,
            strategy: Order::DepthIndex.strategy(),
            timeout_ms: 10_000,
            max_steps: MAX_STEPS,
            expansion: Expansion::Generational,
        }
    }
}

/// Why the search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The coverage goal was reached.
    Goal,
    /// `--iterations` runs were made.
    Iterations,
    /// `--time-limit-ms` passed, the memory budget ran out, or the user
    /// pressed Ctrl-C ([`crate::stop::reached`]).
    Limit(Limit),
    /// No branch is left to negate: every feasible path within the bounds
    /// has been run (unless some branch was undecided).
    WorklistEmpty,
}

impl Stop {
    /// As the text report words it: `goal reached`, `time limit reached`, …
    pub fn name(self) -> String {
        match self {
            Stop::Goal => "goal reached".to_string(),
            Stop::Iterations => "iteration limit reached".to_string(),
            Stop::Limit(limit) => limit.to_string(),
            Stop::WorklistEmpty => "worklist empty".to_string(),
        }
    }

    /// As JSON names it, in kebab-case like every command's `stopped`:
    /// `goal-reached`, `iteration-limit`, `worklist-empty`, or the limit's
    /// own name (`time-limit`, `memory`, `interrupted`).
    pub fn key(self) -> serde_json::Value {
        match self {
            Stop::Goal => "goal-reached".into(),
            Stop::Iterations => "iteration-limit".into(),
            Stop::Limit(limit) => serde_json::json!(limit),
            Stop::WorklistEmpty => "worklist-empty".into(),
        }
    }
}

/// Where an iteration's input came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The `k`-th input given (or drawn), counted from 0.
    Seed(usize),
    /// Solved from iteration `iteration`'s path with its branch at depth
    /// index `fork` negated, to take `branch` (`None` for a statement the
    /// program does not contain as written).
    Flip {
        iteration: usize,
        fork: usize,
        branch: (Option<Site>, Rule),
    },
}

/// One iteration: an input and the path its run took.
pub struct Iteration<'a> {
    /// Counted from 1.
    pub number: usize,
    pub origin: Origin,
    pub input: &'a Valuation,
    /// The path: the branch taken at each fork.
    pub forks: Vec<(Option<Site>, Rule)>,
    pub status: &'a Status,
    pub steps: usize,
    /// The symbolic path condition of the run, as the rules built it.
    pub path_condition: &'a Term,
    /// What no run before covered.
    pub new: Coverage,
    /// Inputs given their run values where Z3 could not decide.
    pub pinned: &'a [Pinned],
    /// The earlier iteration that took the same path, if one did.
    pub repeated: Option<usize>,
    /// The run left the path the negated branch asked for (its input was
    /// found for another one).
    pub diverged: bool,
}

/// A branch the search could not negate: no input was found, nor shown not to exist.
pub struct Undecided<'a> {
    pub iteration: usize,
    pub fork: usize,
    pub branch: (Option<Site>, Rule),
    pub why: &'a str,
}

/// Receives the search's events as they happen.
pub trait Listener {
    fn iteration(&mut self, iteration: &Iteration<'_>) -> io::Result<()>;

    fn undecided(&mut self, _undecided: &Undecided<'_>) -> io::Result<()> {
        Ok(())
    }
}

/// A path the search ran: a test.
#[derive(Clone, Debug)]
pub struct Test {
    /// The iteration that ran it first.
    pub iteration: usize,
    pub input: Valuation,
    pub choices: Vec<usize>,
    pub rules: Vec<Rule>,
    /// How the path ends.
    pub status: Status,
    pub steps: usize,
    pub path_condition: Term,
    /// How the concrete run ends (beyond the path where a bound cut it).
    pub ending: RunEnd,
    /// The concrete run's final state.
    pub final_state: Valuation,
}

/// Negated branches by what became of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flips {
    /// An input was found.
    pub solved: usize,
    /// No input takes the branch.
    pub infeasible: usize,
    /// Neither.
    pub undecided: usize,
    /// Solved with inputs pinned to a run's values.
    pub concretised: usize,
    /// Left in the worklist when the search stopped.
    pub left: usize,
}

/// What the search found.
pub struct Summary {
    pub iterations: usize,
    /// One per distinct path, in the order found.
    pub tests: Vec<Test>,
    pub coverage: Coverage,
    pub stop: Stop,
    pub flips: Flips,
    pub time_ms: u64,
    /// Rounds of negations solved ([`jobs`]): one per negation on one job.
    pub rounds: usize,
    /// Negations solved in a round ahead of their turn.
    pub solved_ahead: usize,
}

/// A worklist entry: a run's branch at depth index `fork`, negated to take
/// the successor `alternative`. It keeps the run's input, not its
/// configurations (as SAGE keeps inputs): solving it runs the input again
/// up to the fork ([`jobs::negate`]), so that an entry costs a few words
/// and a long search's worklist stays small enough to drop at once.
struct Entry {
    run: Rc<Ran>,
    fork: usize,
    /// Transitions before the fork.
    step: usize,
    /// The branch the entry asks for.
    branch: (Option<Site>, Rule),
    alternative: usize,
    /// Its place in the order entries were added.
    number: usize,
}

/// A run as its entries need it: its input and choices, the iteration
/// that made it and the score of its branches.
struct Ran {
    input: Valuation,
    choices: Vec<usize>,
    iteration: usize,
    /// Branches it covered first.
    score: usize,
}

/// Concolic search of `systems` from the inputs `seeds`, reporting each
/// iteration to `listener`; an error when the two systems disagree.
pub fn search<S, C>(
    systems: &Systems<'_, S, C>,
    sites: &Sites,
    seeds: Vec<Valuation>,
    options: &ConcolicOptions,
    listener: &mut dyn Listener,
) -> io::Result<Result<Summary, String>>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    let one = Jobs {
        count: 1,
        fold: Fold::InTurn,
    };
    search_on_workers(one, systems, sites, seeds, options, listener, |_| {})
}

/// Workers for [`search_on_workers`].
#[derive(Clone, Copy, Debug)]
pub struct Jobs {
    /// How many.
    pub count: usize,
    pub fold: Fold,
}

/// [`search`] with its negations solved on `jobs` workers ([`jobs`]): the
/// same report. Each worker runs `worker` on a thread of its own, which
/// builds the worker's own systems and sites from the program and calls
/// [`Endpoint::serve`] on them. One job solves them on this thread.
pub fn search_on_workers<S, C>(
    jobs: Jobs,
    systems: &Systems<'_, S, C>,
    sites: &Sites,
    seeds: Vec<Valuation>,
    options: &ConcolicOptions,
    listener: &mut dyn Listener,
    worker: impl Fn(Endpoint<'_>) + Sync,
) -> io::Result<Result<Summary, String>>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    let start = Instant::now();
    let limits = limits(options, start);
    let search = |solving: &mut dyn Solving| {
        search_with(systems, sites, seeds, options, listener, solving, start)
    };
    if jobs.count <= 1 {
        let mut here = Here {
            systems,
            sites,
            limits,
            lanes: Lanes::default(),
        };
        return search(&mut here);
    }
    jobs::on(jobs.count, jobs.fold, limits, worker, search)
}

/// What solving a negation needs of `options`, for a search started at `start`.
fn limits(options: &ConcolicOptions, start: Instant) -> Limits {
    Limits {
        bounds: options.bounds,
        timeout_ms: options.timeout_ms,
        deadline: options.bounds.time_limit.map(|limit| start + limit),
    }
}

fn search_with<S, C>(
    systems: &Systems<'_, S, C>,
    sites: &Sites,
    seeds: Vec<Valuation>,
    options: &ConcolicOptions,
    listener: &mut dyn Listener,
    solving: &mut dyn Solving,
    start: Instant,
) -> io::Result<Result<Summary, String>>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    let deadline = options.bounds.time_limit.map(|limit| start + limit);
    let mut search = Search {
        systems,
        sites,
        options,
        solving,
        ahead: HashMap::new(),
        negations: 0,
        rounds: 0,
        worklist: Worklist::new(&options.strategy),
        coverage: Coverage::default(),
        outcomes: BTreeSet::new(),
        paths: HashMap::new(),
        tests: Vec::new(),
        flips: Flips::default(),
        iterations: 0,
        listener,
    };
    let stop = match search.run(seeds, deadline)? {
        Ok(stop) => stop,
        Err(why) => return Ok(Err(why)),
    };
    search.flips.left += search.worklist.len();
    Ok(Ok(Summary {
        iterations: search.iterations,
        tests: search.tests,
        coverage: search.coverage,
        stop,
        flips: search.flips,
        time_ms: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
        rounds: search.rounds,
        solved_ahead: search.negations as usize - search.rounds,
    }))
}

struct Search<'a, 'l, S: TransitionSystem, C: TransitionSystem> {
    systems: &'a Systems<'a, S, C>,
    sites: &'a Sites,
    options: &'a ConcolicOptions,
    solving: &'a mut dyn Solving,
    /// Outcomes of entries solved ahead of their turn, by entry number.
    ahead: HashMap<usize, Outcome>,
    /// Negations solved so far.
    negations: u64,
    /// Rounds they were solved in.
    rounds: usize,
    worklist: Worklist<Entry>,
    coverage: Coverage,
    /// The branch taken at every fork any run passed.
    outcomes: BTreeSet<(Site, Rule)>,
    /// Each path run, as its choices, with the iteration that ran it first.
    paths: HashMap<Vec<usize>, usize>,
    tests: Vec<Test>,
    flips: Flips,
    iterations: usize,
    listener: &'l mut dyn Listener,
}

impl<S, C> Search<'_, '_, S, C>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    /// Runs the seeds, then negates branches until a stop.
    fn run(
        &mut self,
        seeds: Vec<Valuation>,
        deadline: Option<Instant>,
    ) -> io::Result<Result<Stop, String>> {
        let limited = |deadline: Option<Instant>| crate::stop::reached(deadline).map(Stop::Limit);
        for (k, seed) in seeds.into_iter().enumerate() {
            if let Some(stop) = self.stopped().or_else(|| limited(deadline)) {
                return Ok(Ok(stop));
            }
            if let Err(why) = self.iterate(seed, Origin::Seed(k), &[], None)? {
                return Ok(Err(why));
            }
        }
        loop {
            if let Some(stop) = self.stopped().or_else(|| limited(deadline)) {
                return Ok(Ok(stop));
            }
            let outcomes = &self.outcomes;
            let Some(entry) = self.worklist.pop(&|entry| candidate(entry, outcomes)) else {
                return Ok(Ok(Stop::WorklistEmpty));
            };
            let branch = entry.branch;
            let origin = Origin::Flip {
                iteration: entry.run.iteration,
                fork: entry.fork,
                branch,
            };
            let solved = match self.solved(&entry) {
                Ok(solved) => solved,
                Err(why) => return Ok(Err(why)),
            };
            match solved {
                Solved::Input { input, pinned } => {
                    self.flips.solved += 1;
                    self.flips.concretised += usize::from(!pinned.is_empty());
                    let mut expected = entry.run.choices[..entry.step].to_vec();
                    expected.push(entry.alternative);
                    if let Err(why) = self.iterate(input, origin, &pinned, Some(&expected))? {
                        return Ok(Err(why));
                    }
                }
                Solved::Infeasible => self.flips.infeasible += 1,
                Solved::Interrupted => {
                    // The branch is left unnegated, as the worklist's are.
                    self.flips.left += 1;
                    let stop = limited(deadline).unwrap_or(Stop::Limit(Limit::Interrupted));
                    return Ok(Ok(stop));
                }
                Solved::Undecided(why) => {
                    self.flips.undecided += 1;
                    self.listener.undecided(&Undecided {
                        iteration: entry.run.iteration,
                        fork: entry.fork,
                        branch,
                        why: &why,
                    })?;
                }
            }
        }
    }

    /// The outcome of negating `entry`: solved ahead of its turn, or now
    /// in a round with the entries the worklist gives next.
    fn solved(&mut self, entry: &Entry) -> Outcome {
        if let Some(outcome) = self.ahead.remove(&entry.number) {
            return outcome;
        }
        let outcomes = &self.outcomes;
        let ahead = &self.ahead;
        let upcoming =
            self.worklist
                .upcoming(LANES - 1, &|entry| candidate(entry, outcomes), |entry| {
                    (!ahead.contains_key(&entry.number)).then(|| (entry.number, negation(entry)))
                });
        let (numbers, mut negations): (Vec<usize>, Vec<Negation>) =
            upcoming.into_iter().flatten().unzip();
        negations.insert(0, negation(entry));
        self.negations += negations.len() as u64;
        self.rounds += 1;
        let mut outcomes = self.solving.solve(negations).into_iter();
        let outcome = outcomes
            .next()
            .unwrap_or_else(|| Err("no outcome for a negation".to_string()));
        self.ahead.extend(numbers.into_iter().zip(outcomes));
        outcome
    }

    /// The stop the goal or the iteration limit calls for now, if any.
    fn stopped(&self) -> Option<Stop> {
        let goal = match self.options.goal {
            Goal::Statements => self.coverage.statements.len() == self.sites.statements().count(),
            Goal::Branches => self.coverage.branches.len() == self.sites.branches().count(),
            Goal::Paths => false,
        };
        if goal {
            Some(Stop::Goal)
        } else if self
            .options
            .iterations
            .is_some_and(|limit| self.iterations >= limit)
        {
            Some(Stop::Iterations)
        } else {
            None
        }
    }

    /// Runs `input`, reports the iteration and puts into the worklist the
    /// run's branches past the `expected` prefix of choices, whose last is
    /// the negated branch (all of them for a seed, or a run that left it).
    fn iterate(
        &mut self,
        input: Valuation,
        origin: Origin,
        pinned: &[Pinned],
        expected: Option<&[usize]>,
    ) -> io::Result<Result<(), String>> {
        let run = match run::run(
            self.systems,
            self.sites,
            input,
            &self.options.bounds,
            self.options.max_steps,
        ) {
            Ok(run) => run,
            Err(why) => return Ok(Err(why)),
        };
        self.iterations += 1;
        crate::stop::progress::ran(self.iterations as u64);
        crate::stop::progress::explored(self.paths.len(), run.choices.len(), self.negations);
        let number = self.iterations;
        let diverged = expected.is_some_and(|prefix| !run.choices.starts_with(prefix));
        let repeated = self.paths.get(&run.choices).copied();
        let new = self.coverage.beyond(&run.coverage);
        self.coverage.extend(&new);
        let forks: Vec<(Option<Site>, Rule)> = run
            .forks
            .iter()
            .map(|fork| (fork.site, fork.rule()))
            .collect();
        self.outcomes.extend(
            forks
                .iter()
                .filter_map(|(site, rule)| site.map(|site| (site, *rule))),
        );
        self.listener.iteration(&Iteration {
            number,
            origin,
            input: &run.input,
            forks,
            status: &run.status,
            steps: run.choices.len(),
            path_condition: run.last.path_condition(),
            new: new.clone(),
            pinned,
            repeated,
            diverged,
        })?;
        if repeated.is_some() {
            return Ok(Ok(()));
        }
        self.paths.insert(run.choices.clone(), number);
        self.tests.push(Test {
            iteration: number,
            input: as_drawn(run.input.clone(), &run.final_state),
            choices: run.choices.clone(),
            rules: run.rules.clone(),
            status: run.status.clone(),
            steps: run.choices.len(),
            path_condition: run.last.path_condition().clone(),
            ending: run.ending,
            final_state: as_drawn(run.final_state.clone(), &run.final_state),
        });
        // The branches at and above the negated one were negated by the
        // runs before (generational search).
        let past = |step: usize| match expected {
            Some(prefix) if !diverged => step >= prefix.len(),
            _ => true,
        };
        let ran = Rc::new(Ran {
            input: run.input,
            choices: run.choices,
            iteration: number,
            score: new.branches.len(),
        });
        let forks = run.forks.len();
        let last = match self.options.expansion {
            Expansion::Generational => forks,
            #[cfg(any(test, feature = "mutants"))]
            Expansion::KeepsLastBranch => forks.saturating_sub(1),
        };
        let mut entries = Vec::new();
        let forks = run.forks.iter().enumerate().take(last);
        for (k, fork) in forks.filter(|(_, fork)| past(fork.step)) {
            for alternative in fork.others() {
                let entry = Entry {
                    run: ran.clone(),
                    fork: k,
                    step: fork.step,
                    branch: (fork.site, fork.successors[alternative].rule),
                    alternative,
                    number: self.worklist.added() + entries.len(),
                };
                entries.push((candidate(&entry, &self.outcomes), entry));
            }
        }
        self.worklist.extend(entries);
        Ok(Ok(()))
    }
}

/// `entry` as it is solved.
fn negation(entry: &Entry) -> Negation {
    Negation {
        input: entry.run.input.clone(),
        iteration: entry.run.iteration,
        fork: entry.fork,
        step: entry.step,
        alternative: entry.alternative,
    }
}

/// What an entry knows now: where its branch is, and what it promises.
fn candidate(entry: &Entry, outcomes: &BTreeSet<(Site, Rule)>) -> Candidate {
    let (site, rule) = entry.branch;
    let new_branch = site.is_some_and(|site| !outcomes.contains(&(site, rule)));
    Candidate {
        node: entry.number,
        depth: entry.step + 1,
        forks: entry.fork + 1,
        rule: Some(rule),
        coverage: Promise {
            new_branch,
            score: entry.run.score,
        },
    }
}

/// The branches of `sites` no run covered.
pub fn uncovered<'s>(
    sites: &'s Sites,
    coverage: &'s Coverage,
) -> impl Iterator<Item = Branch> + 's {
    sites
        .branches()
        .filter(|branch| !coverage.branches.contains(branch))
}
