//! Forward versus weakest precondition (issue 8): both methods explore the
//! same program, their paths are matched by branch choices and outcome, and
//! each path condition is measured (size raw and simplified, time to build,
//! time for Z3 to decide) and the two are proved equivalent by Z3.

pub mod agreement;
mod collect;
pub mod families;
pub mod figures;
pub mod plot;
pub mod repeat;
pub mod table;

use crate::commands::explore::ExploreInto;
use crate::commands::language::{with_semantics, Choice};
use crate::commands::mutant::Mutant;
use crate::commands::{int_options, Method};
use crate::explore::ExploreOptions;
use crate::explore::Limit;
use crate::simplify::Simplifier;
use agreement::{Agreement, Equivalence};
use collect::PathCollector;
use figures::{measure, PathFigures};
use repeat::Timings;
use serde::Serialize;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Instant;
use symex_semantics::machine::Integers;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::program::{Language, Program};
use symex_semantics::system::Options;
use symex_semantics::term::Term;

/// How both methods explore.
#[derive(Clone, Debug)]
pub struct Settings {
    pub language: Option<Language>,
    pub this: ThisRule,
    pub semantics: Options,
    /// What `int` means in the programs compared (`--int`).
    pub integers: Integers,
    /// Must keep `simplify: false`: the raw conditions are measured; and
    /// may leave models unreadable (`readable_models: false`): none is printed.
    pub explore: ExploreOptions,
    /// A rule broken on purpose on the side it belongs to (§2's on forward,
    /// §4's on wp), to watch the agreement fail.
    pub broken: Option<Mutant>,
    /// The whole comparison stops here (or at Ctrl-C), keeping the paths
    /// compared so far.
    pub deadline: Option<Instant>,
    /// Each method explores the program this many times; the timings
    /// reported are medians ([`repeat`]).
    pub runs: usize,
}

impl Settings {
    /// The options of `symex run` that run the same semantics.
    fn run_options(&self) -> Vec<String> {
        let mut options = Vec::new();
        if let Some(language) = self.language {
            options.push(format!("--lang={language}"));
        }
        if self.semantics.checked_arrays {
            options.push("--checked-arrays".to_string());
        }
        options.extend(int_options(self.integers));
        options
    }
}

/// One method's totals over a program.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MethodSummary {
    pub method: &'static str,
    /// Why the method could not run on the program (`None` when it ran).
    pub unavailable: Option<String>,
    pub paths: usize,
    /// The whole exploration, feasibility checks included.
    pub explore_ms: f64,
    /// Of which in the solver.
    pub explore_solver_ms: f64,
    pub dag_total: usize,
    pub dag_max: usize,
    pub simplified_dag_total: usize,
    pub printed_total: usize,
    /// Z3's time deciding the paths' branches, summed over the paths.
    pub decide_ms_total: f64,
    /// The three timings above (medians) with their least and greatest value over the runs.
    pub spread: Timings,
}

/// One path, both methods side by side.
#[derive(Clone, Debug, Serialize)]
pub struct PathRow {
    /// Branch choices (`T`, `F`, `!` for an error step) and status.
    pub key: String,
    pub status: String,
    pub forward: Option<PathFigures>,
    pub wp: Option<PathFigures>,
    pub agreement: Agreement,
}

/// A program compared.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub program: String,
    /// The family's size, for a family member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
    /// The language whose semantics ran (SPEC §2.1's `"language"`).
    pub language: String,
    /// The options of `symex run` that choose the semantics compared
    /// (`--lang`, `--checked-arrays`), for the replay of a disagreement.
    #[serde(skip)]
    pub run_options: Vec<String>,
    /// The options the program's `// snap:` line chose for it (the user gave none of them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub from_snap: Vec<String>,
    pub forward: MethodSummary,
    pub wp: MethodSummary,
    pub paths: Vec<PathRow>,
    /// How many times each method explored the program (the timings are medians).
    pub runs: usize,
    /// The limit that cut the comparison short (paths one method did not
    /// reach are then not compared), if one did.
    pub stopped: Option<Limit>,
}

impl Comparison {
    /// Paths on which the methods disagree.
    pub fn disagreements(&self) -> usize {
        self.paths
            .iter()
            .filter(|row| row.agreement.is_disagreement())
            .count()
    }

    /// Paths proved equivalent.
    pub fn agreements(&self) -> usize {
        self.paths
            .iter()
            .filter(|row| row.agreement == Agreement::Equivalent)
            .count()
    }
}

/// One method's paths, measured.
struct Measured {
    summary: MethodSummary,
    paths: Vec<(String, String, PathFigures)>,
    stopped: Option<Limit>,
}

/// Explores `program` with `method` and measures every path.
fn run(
    program: &Rc<Program>,
    method: Method,
    settings: &Settings,
) -> Result<(Measured, Vec<Term>), String> {
    let mut choice = Choice::new(program, settings.language, Some(method), settings.this)
        .map_err(|e| e.to_string())?;
    if let Some(mutant) = settings.broken.filter(|mutant| mutant.method() == method) {
        choice = choice.breaking(mutant).map_err(|e| e.to_string())?;
    }
    let mut collector = PathCollector::default();
    let start = Instant::now();
    let mut options = settings.explore.clone();
    if let Some(deadline) = settings.deadline {
        options.bounds.time_limit = Some(deadline.saturating_duration_since(start));
    }
    let visitor = ExploreInto {
        inputs: &program.globals,
        options: &options,
        observer: &mut collector,
    };
    with_semantics(program.clone(), choice, settings.semantics, visitor)
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let mut summary = MethodSummary {
        method: method.name(),
        explore_ms: ms(start.elapsed()),
        explore_solver_ms: ms(collector.stats.timings.solver),
        ..MethodSummary::default()
    };
    let mut simplifier = Simplifier::new();
    let mut paths = Vec::new();
    let mut conditions = Vec::new();
    let stopped = collector.stopped;
    for path in collector.paths {
        let figures = measure(&path, &mut simplifier);
        summary.paths += 1;
        summary.dag_total += figures.raw.dag;
        summary.dag_max = summary.dag_max.max(figures.raw.dag);
        summary.simplified_dag_total += figures.simplified.dag;
        summary.printed_total += figures.raw.printed;
        summary.decide_ms_total += figures.decide_ms;
        paths.push((path.key, path.status, figures));
        conditions.push(path.condition);
    }
    Ok((
        Measured {
            summary,
            paths,
            stopped,
        },
        conditions,
    ))
}

/// Both methods on `program`, path by path.
pub fn compare(name: &str, program: &Rc<Program>, settings: &Settings) -> Comparison {
    let language = settings.language.unwrap_or(program.language);
    let (forward, wp, runs) = explored(program, settings);
    let mut rows = Vec::new();
    let mut stopped = None;
    let summaries = match (forward, wp) {
        (Ok((forward, forward_conditions)), Ok((wp, wp_conditions))) => {
            stopped = forward.stopped.or(wp.stopped);
            let cut = stopped;
            let mut equivalence = Equivalence::new(
                &program.globals,
                language,
                settings.explore.timeout_ms,
                settings.deadline,
            );
            let mut unmatched: BTreeMap<String, usize> = wp
                .paths
                .iter()
                .enumerate()
                .map(|(i, (key, ..))| (key.clone(), i))
                .collect();
            for ((key, status, figures), condition) in
                forward.paths.into_iter().zip(&forward_conditions)
            {
                let (wp_figures, agreement) = match unmatched.remove(&key) {
                    Some(i) => {
                        let agreement = match crate::stop::reached(settings.deadline) {
                            Some(limit) => {
                                stopped = Some(limit);
                                Agreement::NotCompared(limit.to_string())
                            }
                            None => equivalence.agree(condition, &wp_conditions[i]),
                        };
                        (Some(wp.paths[i].2.clone()), agreement)
                    }
                    None => (None, only_in(&mut equivalence, cut, "forward", condition)),
                };
                rows.push(PathRow {
                    key,
                    status,
                    forward: Some(figures),
                    wp: wp_figures,
                    agreement,
                });
            }
            for i in unmatched.into_values() {
                let (key, status, figures) = wp.paths[i].clone();
                rows.push(PathRow {
                    key,
                    status,
                    forward: None,
                    wp: Some(figures),
                    agreement: only_in(&mut equivalence, cut, "wp", &wp_conditions[i]),
                });
            }
            (forward.summary, wp.summary)
        }
        (forward, wp) => {
            let why = |result: &Result<_, String>, method| match result {
                Ok(_) => String::new(),
                Err(error) => format!("{method}: {error}"),
            };
            let reason = [why(&forward, "forward"), why(&wp, "wp")]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("; ");
            (
                alone(Method::Forward, forward, &reason, &mut rows),
                alone(Method::Wp, wp, &reason, &mut rows),
            )
        }
    };
    Comparison {
        program: name.to_string(),
        size: None,
        language: language.to_string(),
        run_options: settings.run_options(),
        from_snap: Vec::new(),
        forward: summaries.0,
        wp: summaries.1,
        paths: rows,
        runs,
        stopped,
    }
}

/// The verdict on a path only `method` found: inputs that reach it, or,
/// when a limit stopped the exploration, that the other method may not
/// have got there yet.
fn only_in(
    equivalence: &mut Equivalence,
    cut: Option<Limit>,
    method: &'static str,
    condition: &Term,
) -> Agreement {
    match cut {
        Some(limit) => Agreement::NotCompared(format!(
            "{limit} before {} reached it",
            if method == "forward" { "wp" } else { "forward" }
        )),
        None => equivalence.unmatched(method, condition),
    }
}

/// A method's exploration of a program, measured, with its paths' conditions.
type Explored = Result<(Measured, Vec<Term>), String>;

/// Both methods' explorations of `program`, `settings.runs` times (the two
/// alternating), with the timings' medians, and how many runs they are over.
fn explored(program: &Rc<Program>, settings: &Settings) -> (Explored, Explored, usize) {
    let mut forward = run(program, Method::Forward, settings);
    let mut wp = run(program, Method::Wp, settings);
    let mut again = (Vec::new(), Vec::new());
    if let (Ok((first_forward, _)), Ok((first_wp, _))) = (&mut forward, &mut wp) {
        for _ in 1..settings.runs {
            match (
                run(program, Method::Forward, settings),
                run(program, Method::Wp, settings),
            ) {
                (Ok((f, _)), Ok((w, _)))
                    if first_forward.same_paths(&f) && first_wp.same_paths(&w) =>
                {
                    again.0.push(f);
                    again.1.push(w);
                }
                _ => break,
            }
        }
        first_forward.medians(&again.0);
        first_wp.medians(&again.1);
    }
    (forward, wp, 1 + again.0.len())
}

/// The rows of a method whose paths cannot be matched (the other one could
/// not run), or its summary as unavailable.
fn alone(
    method: Method,
    result: Result<(Measured, Vec<Term>), String>,
    reason: &str,
    rows: &mut Vec<PathRow>,
) -> MethodSummary {
    match result {
        Ok((measured, _)) => {
            for (key, status, figures) in measured.paths {
                let (forward, wp) = if method == Method::Forward {
                    (Some(figures), None)
                } else {
                    (None, Some(figures))
                };
                rows.push(PathRow {
                    key,
                    status,
                    forward,
                    wp,
                    agreement: Agreement::NotCompared(reason.to_string()),
                });
            }
            measured.summary
        }
        Err(error) => MethodSummary {
            method: method.name(),
            unavailable: Some(error),
            ..MethodSummary::default()
        },
    }
}
