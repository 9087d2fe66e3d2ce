//! The views of a concolic search (`symex concolic`): text written as the
//! iterations come, or one JSON document at the end. Every test is shown
//! in a form `symex run` takes back: `--input` options, and for a program
//! with objects the heap as `run --heap` reads it.

use super::shell::{self, quoted};
use super::values::{heap_json, valuation_json};
use super::Header;
use crate::concolic::coverage::{way, Coverage, Site, Sites};
use crate::concolic::{Iteration, Listener, Origin, Summary, Test, Undecided};
use crate::simplify::Simplifier;
use serde_json::{json, Value as Json};
use std::io::{self, Write};
use symex_semantics::eval::{ShowValuation, Valuation};
use symex_semantics::program::Language;
use symex_semantics::system::Rule;

/// Forks of a path shown, at most, before the rest are counted.
const FORKS_SHOWN: usize = 24;

/// How a branch reads: `9:5 then`, or the rule where the statement is not
/// one the program has as written.
pub fn branch_text(sites: &Sites, (site, rule): (Option<Site>, Rule)) -> String {
    match site {
        Some(site) => format!("{} {}", sites.label(site), way(rule)),
        None => rule.name().to_string(),
    }
}

/// How a test is run: `symex run FILE` and the options that choose the
/// concrete semantics the search ran (`--lang`, `--checked-arrays`).
pub struct RunForm {
    pub program: String,
    pub options: Vec<String>,
}

/// `symex run FILE --input x=3 --input 'a=[1, 2]'`: the test's inputs as
/// options (a heap goes in a file of its own, [`heap_json`]).
pub fn run_command(form: &RunForm, header: &Header, input: &Valuation) -> String {
    shell::run_command(&form.program, &form.options, &header.inputs_of(input))
}

/// The text view: each iteration as it comes, then coverage, tests and
/// why the search stopped.
pub struct TextListener<'a, W: Write> {
    out: W,
    header: &'a Header,
    sites: &'a Sites,
    form: &'a RunForm,
    simplifier: Simplifier,
}

impl<'a, W: Write> TextListener<'a, W> {
    pub fn new(
        out: W,
        header: &'a Header,
        sites: &'a Sites,
        form: &'a RunForm,
    ) -> TextListener<'a, W> {
        TextListener {
            out,
            header,
            sites,
            form,
            simplifier: Simplifier::new(),
        }
    }

    /// Coverage, tests and the stop, after the last iteration.
    pub fn summary(&mut self, summary: &Summary, tests_dir: Option<&str>) -> io::Result<()> {
        let out = &mut self.out;
        let coverage = &summary.coverage;
        let statements = self.sites.statements().count();
        let branches = self.sites.branches().count();
        writeln!(
            out,
            "statements: {}",
            fraction(coverage.statements.len(), statements)
        )?;
        writeln!(
            out,
            "branches: {}",
            fraction(coverage.branches.len(), branches)
        )?;
        let missed: Vec<String> = crate::concolic::uncovered(self.sites, coverage)
            .map(|branch| self.sites.branch_label(branch))
            .collect();
        if !missed.is_empty() {
            writeln!(out, "  not covered: {}", missed.join(", "))?;
        }
        let flips = &summary.flips;
        writeln!(
            out,
            "{} iterations, {} paths; negated branches: {} solved ({} concretised), {} infeasible, {} undecided, {} left",
            summary.iterations,
            summary.tests.len(),
            flips.solved,
            flips.concretised,
            flips.infeasible,
            flips.undecided,
            flips.left
        )?;
        writeln!(out, "stopped: {}", summary.stop.name())?;
        writeln!(out, "tests:")?;
        for (n, test) in summary.tests.iter().enumerate() {
            let mut command = run_command(self.form, self.header, &test.input);
            if self.header.language == Language::Oo {
                match tests_dir {
                    Some(dir) => {
                        command.push_str(&format!(" --heap {}", quoted(&test_file(dir, n))))
                    }
                    None => command.push_str(&format!(
                        "  # heap: {}",
                        heap_json(&self.header.inputs_of(&test.input))
                    )),
                }
            }
            writeln!(out, "  {}. {command}  → {}", n + 1, outcome(test))?;
        }
        out.flush()
    }
}

impl<W: Write> Listener for TextListener<'_, W> {
    fn iteration(&mut self, it: &Iteration<'_>) -> io::Result<()> {
        let origin = match it.origin {
            Origin::Seed(k) => format!("seed {}", k + 1),
            Origin::Flip {
                iteration,
                fork,
                branch,
            } => format!(
                "from iteration {iteration}: {} at depth index {fork}",
                branch_text(self.sites, branch)
            ),
        };
        let input = self.header.inputs_of(it.input);
        writeln!(
            self.out,
            "iteration {} ({origin}): {}",
            it.number,
            ShowValuation(&input)
        )?;
        for pinned in it.pinned {
            writeln!(self.out, "  concretised: {pinned}")?;
        }
        let mut path: Vec<String> = it
            .forks
            .iter()
            .take(FORKS_SHOWN)
            .map(|fork| branch_text(self.sites, *fork))
            .collect();
        if it.forks.len() > FORKS_SHOWN {
            path.push(format!("… {} more", it.forks.len() - FORKS_SHOWN));
        }
        let path = if path.is_empty() {
            "no branch".to_string()
        } else {
            path.join(", ")
        };
        writeln!(
            self.out,
            "  path: {path} → {} after {} step{}",
            it.status,
            it.steps,
            if it.steps == 1 { "" } else { "s" }
        )?;
        if it.diverged {
            writeln!(
                self.out,
                "  diverged: the run left the path its input was solved for"
            )?;
        }
        match it.repeated {
            Some(earlier) => writeln!(self.out, "  the path of iteration {earlier}")?,
            None => {
                let phi = self.simplifier.simplify(it.path_condition);
                writeln!(self.out, "  φ = {phi}")?;
                writeln!(self.out, "  new: {}", new_text(self.sites, &it.new))?;
            }
        }
        // Each iteration shows as it ends (a search may run for long).
        self.out.flush()
    }

    fn undecided(&mut self, undecided: &Undecided<'_>) -> io::Result<()> {
        writeln!(
            self.out,
            "undecided: {} at depth index {} of iteration {}: {}",
            branch_text(self.sites, undecided.branch),
            undecided.fork,
            undecided.iteration,
            undecided.why
        )
    }
}

/// `3 statements; branches 9:5 then, 12:9 else`, or `nothing`.
fn new_text(sites: &Sites, new: &Coverage) -> String {
    if new.is_empty() {
        return "nothing".to_string();
    }
    let branches: Vec<String> = new
        .branches
        .iter()
        .map(|b| sites.branch_label(*b))
        .collect();
    let statements = new.statements.len();
    let mut text = format!(
        "{statements} statement{}",
        if statements == 1 { "" } else { "s" }
    );
    if !branches.is_empty() {
        text.push_str(&format!("; branches {}", branches.join(", ")));
    }
    text
}

/// `7 of 8 (87.5%)`.
fn fraction(covered: usize, total: usize) -> String {
    let percent = if total == 0 {
        100.0
    } else {
        100.0 * covered as f64 / total as f64
    };
    format!("{covered} of {total} covered ({percent:.1}%)")
}

/// How the test's run ends, as `symex run` says it, with the final state.
fn outcome(test: &Test) -> String {
    format!(
        "{}, final state {}",
        test.ending,
        ShowValuation(&test.final_state)
    )
}

/// Where `--tests DIR` writes the `n`-th test (counted from 0).
pub fn test_file(dir: &str, n: usize) -> String {
    format!("{}/test-{}.json", dir.trim_end_matches('/'), n + 1)
}

/// A test as `run --heap` reads it: `{"objects": …, "vars": …}`.
pub fn test_json(header: &Header, test: &Test) -> Json {
    heap_json(&header.inputs_of(&test.input))
}

/// The JSON view: the iterations kept as they come, one document at the end.
pub struct JsonListener<'a> {
    header: &'a Header,
    sites: &'a Sites,
    form: &'a RunForm,
    iterations: Vec<Json>,
    undecided: Vec<Json>,
    simplifier: Simplifier,
}

impl<'a> JsonListener<'a> {
    pub fn new(header: &'a Header, sites: &'a Sites, form: &'a RunForm) -> JsonListener<'a> {
        JsonListener {
            header,
            sites,
            form,
            iterations: Vec::new(),
            undecided: Vec::new(),
            simplifier: Simplifier::new(),
        }
    }

    /// The whole document.
    pub fn document(self, summary: &Summary, priority: &str) -> Json {
        let sites = self.sites;
        let coverage = &summary.coverage;
        let labels = |branches: &mut dyn Iterator<Item = (Site, Rule)>| -> Vec<String> {
            branches.map(|branch| sites.branch_label(branch)).collect()
        };
        let tests: Vec<Json> = summary
            .tests
            .iter()
            .map(|test| {
                let mut entry = json!({
                    "iteration": test.iteration,
                    "inputs": valuation_json(&self.header.inputs_of(&test.input)),
                    "path_status": test.status.to_string(),
                    "outcome": test.ending.to_string(),
                    "error": test.ending.error().map(|kind| kind.to_string()),
                    "final_state": valuation_json(&test.final_state),
                    "run": run_command(self.form, self.header, &test.input),
                });
                if self.header.language == Language::Oo {
                    entry["heap"] = test_json(self.header, test);
                }
                entry
            })
            .collect();
        let flips = &summary.flips;
        json!({
            "program": self.header.program,
            "language": self.header.language.to_string(),
            "method": self.header.method,
            "priority": priority,
            "iterations": self.iterations,
            "undecided": self.undecided,
            "coverage": {
                "statements": { "covered": coverage.statements.len(), "total": sites.statements().count() },
                "branches": {
                    "covered": coverage.branches.len(),
                    "total": sites.branches().count(),
                    "uncovered": labels(&mut crate::concolic::uncovered(sites, coverage)),
                },
            },
            "tests": tests,
            "stopped": summary.stop.key(),
            "stats": {
                "iterations": summary.iterations,
                "paths": summary.tests.len(),
                "solved": flips.solved,
                "concretised": flips.concretised,
                "infeasible": flips.infeasible,
                "undecided": flips.undecided,
                "left": flips.left,
                "time_ms": summary.time_ms,
            },
        })
    }
}

impl Listener for JsonListener<'_> {
    fn iteration(&mut self, it: &Iteration<'_>) -> io::Result<()> {
        let origin = match it.origin {
            Origin::Seed(k) => json!({ "seed": k }),
            Origin::Flip {
                iteration,
                fork,
                branch,
            } => json!({
                "iteration": iteration,
                "depth_index": fork,
                "branch": branch_text(self.sites, branch),
            }),
        };
        let path: Vec<String> = it
            .forks
            .iter()
            .map(|fork| branch_text(self.sites, *fork))
            .collect();
        let new_branches: Vec<String> = it
            .new
            .branches
            .iter()
            .map(|b| self.sites.branch_label(*b))
            .collect();
        let pinned: Vec<String> = it.pinned.iter().map(|p| p.to_string()).collect();
        self.iterations.push(json!({
            "iteration": it.number,
            "origin": origin,
            "input": valuation_json(&self.header.inputs_of(it.input)),
            "path": path,
            "status": it.status.name(),
            "error": it.status.error().map(|kind| kind.to_string()),
            "reason": it.status.reason(),
            "steps": it.steps,
            "path_condition": self.simplifier.simplify(it.path_condition).to_string(),
            "new_statements": it.new.statements.len(),
            "new_branches": new_branches,
            "concretised": pinned,
            "repeated": it.repeated,
            "diverged": it.diverged,
        }));
        Ok(())
    }

    fn undecided(&mut self, undecided: &Undecided<'_>) -> io::Result<()> {
        self.undecided.push(json!({
            "iteration": undecided.iteration,
            "depth_index": undecided.fork,
            "branch": branch_text(self.sites, undecided.branch),
            "why": undecided.why,
        }));
        Ok(())
    }
}
