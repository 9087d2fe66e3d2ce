//! `symex step`: EFFIGY's interactive walk of the symbolic execution tree
//! (King 1976, SPEC §2), over any symbolic transition system.
//!
//! The walk stops at *forks*, configurations with more than one feasible
//! successor, and at the ends of paths; a branch whose condition the path
//! condition decides is taken without asking, as EFFIGY does with an IF it
//! can resolve. Every place the walk stops is a numbered *stop*; `tree`
//! draws them, `back` and `restore` return to them. A choice the path
//! condition rules out is refused with the reason, never taken.

pub mod command;

use crate::simplify::Simplifier;
use crate::solver::{SatResult, Solver};
use command::{Branch, Command, HELP};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::rc::Rc;
use symex_semantics::eval::{ShowValuation, Valuation};
use symex_semantics::oo::ShowTrace;
use symex_semantics::program::{Program, Stmt};
use symex_semantics::syntax::Positions;
use symex_semantics::system::{Configuration, Rule, Step, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind};

/// Settings of a stepping session.
#[derive(Clone, Copy, Debug)]
pub struct StepOptions {
    /// `go` stops after this many transitions without reaching a fork.
    pub max_steps: usize,
    /// Per solver query.
    pub timeout_ms: u64,
}

/// Index of a stop in [`Stepper::stops`]; `#N` to the user.
type StopId = usize;

/// A configuration the walk stopped at.
struct Stop<C> {
    config: C,
    /// The conditions added by `assume` on the way here (`true` if none).
    assumed: Term,
    parent: Option<StopId>,
    /// The command that led here, as the user typed it.
    how: String,
    /// Transitions from the initial configuration.
    steps: usize,
}

/// What an answer to one command says: a line or more of text, and whether
/// the session should end.
pub struct Answer {
    pub text: String,
    pub quit: bool,
}

/// A stepping session over `system`.
pub struct Stepper<'a, S: TransitionSystem> {
    system: &'a S,
    program: &'a Program,
    /// Where each statement starts in the user's source (sugar included:
    /// a desugared statement has the place of the construct it comes from).
    positions: Option<&'a Positions>,
    /// The variables a model shows (`Program::inputs`).
    inputs: BTreeMap<Name, Sort>,
    options: StepOptions,
    solver: Solver,
    simplifier: Simplifier,
    stops: Vec<Stop<S::Config>>,
    current: StopId,
    /// Stops visited before the current one, for `back`.
    history: Vec<StopId>,
    saved: Vec<StopId>,
}

impl<'a, S> Stepper<'a, S>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    pub fn new(
        system: &'a S,
        initial: S::Config,
        program: &'a Program,
        positions: Option<&'a Positions>,
        options: StepOptions,
    ) -> Stepper<'a, S> {
        let root = Stop {
            config: initial,
            assumed: Term::bool(true),
            parent: None,
            how: "start".to_string(),
            steps: 0,
        };
        Stepper {
            system,
            program,
            positions,
            inputs: program.inputs(),
            options,
            solver: Solver::new(options.timeout_ms),
            simplifier: Simplifier::new(),
            stops: vec![root],
            current: 0,
            history: Vec::new(),
            saved: Vec::new(),
        }
    }

    /// Where the walk is, as printed when a session starts.
    pub fn where_now(&mut self) -> String {
        self.describe(self.current)
    }

    /// Carries out one command.
    pub fn execute(&mut self, command: &Command) -> Answer {
        let text = match command {
            Command::Go => self.go(None),
            Command::GoBranch(branch) => self.go(Some(*branch)),
            Command::Assume(e) => self.assume(e),
            Command::Save => {
                self.saved.push(self.current);
                Ok(format!("saved #{} as {}\n", self.current, self.saved.len()))
            }
            Command::Restore(n) => match n.checked_sub(1).and_then(|i| self.saved.get(i)) {
                Some(&stop) => Ok(self.move_to(stop)),
                None => Err(format!(
                    "nothing saved as {n} ({} saved so far)",
                    self.saved.len()
                )),
            },
            Command::Back => match self.history.pop() {
                Some(stop) => {
                    self.current = stop;
                    Ok(self.describe(stop))
                }
                None => Err("nothing to undo: this is where the session started".to_string()),
            },
            Command::Show => Ok(self.show()),
            Command::Tree => Ok(self.tree()),
            Command::Help => Ok(format!("{HELP}\n")),
            Command::Quit => {
                return Answer {
                    text: String::new(),
                    quit: true,
                }
            }
        };
        Answer {
            text: text.unwrap_or_else(|refusal| format!("refused: {refusal}\n")),
            quit: false,
        }
    }

    /// `go` and `go b`: take branch `b` of the fork here, then run on to the
    /// next fork or the end of the path.
    fn go(&mut self, branch: Option<Branch>) -> Result<String, String> {
        let here = &self.stops[self.current];
        let (mut config, assumed, mut steps) =
            (here.config.clone(), here.assumed.clone(), here.steps);
        if config.outcome().is_some() {
            return Err(format!(
                "the path ends at #{}: `back` or `restore N` to walk another",
                self.current
            ));
        }
        let mut how = "go".to_string();
        if let Some(branch) = branch {
            let successors = self.successors(&config);
            if successors.len() < 2 {
                return Err(format!(
                    "`go {branch}` chooses at a fork, and #{} is none: type `go`",
                    self.current
                ));
            }
            let chosen = successors
                .into_iter()
                .find(|step| classify(step.rule) == branch);
            let Some(step) = chosen else {
                return Err(format!("this fork has no {branch} branch"));
            };
            let phi = self.phi(&config, &assumed);
            let guard = self.simplifier.simplify(&step.guard);
            let name = condition_name(&config);
            match self.satisfiable(&phi, &guard) {
                SatResult::Sat => {}
                SatResult::Unsat => {
                    return Err(format!(
                        "`go {branch}` is infeasible: {name} = {phi} implies ¬({guard})"
                    ))
                }
                SatResult::Unknown | SatResult::Interrupted => {
                    return Err(format!(
                    "`go {branch}`: the solver cannot tell whether {name} ∧ {guard} is satisfiable"
                ))
                }
            }
            config = step.next;
            steps += 1;
            how = format!("go {branch}");
        }
        let mut taken = 0;
        loop {
            if config.outcome().is_some() {
                break;
            }
            if taken >= self.options.max_steps {
                let stop = self.add_stop(config, assumed, how, steps);
                return Ok(format!(
                    "stopped after {taken} steps without reaching a fork (type `go` to go on)\n{}",
                    self.describe(stop)
                ));
            }
            let mut choices = self.feasible(&config, &assumed)?;
            if choices.len() != 1 {
                if choices.is_empty() {
                    return Err("no successor of this configuration is feasible".to_string());
                }
                if branch.is_none() && taken == 0 {
                    let offered: Vec<String> = choices
                        .iter()
                        .map(|step| format!("`go {}`", classify(step.rule)))
                        .collect();
                    return Err(format!(
                        "#{} is a fork: choose a branch with {}",
                        self.current,
                        offered.join(" or ")
                    ));
                }
                break;
            }
            config = choices.remove(0).next;
            steps += 1;
            taken += 1;
        }
        let stop = self.add_stop(config, assumed, how, steps);
        Ok(self.describe(stop))
    }

    /// `assume e`: `e` over the globals, evaluated here (`eσ`, or `wp_ρ(e)`
    /// for an unfolding), conjoined to the path condition.
    fn assume(&mut self, text: &str) -> Result<String, String> {
        let e = self.condition(text)?;
        let here = &self.stops[self.current];
        let (config, assumed, steps) = (here.config.clone(), here.assumed.clone(), here.steps);
        let e_sigma = self.simplifier.simplify(&config.after(&e));
        if e_sigma.is_false() {
            return Err(format!(
                "`assume {text}` is false here: it reads `false` after the path"
            ));
        }
        let phi = self.phi(&config, &assumed);
        let name = condition_name(&config);
        match self.satisfiable(&phi, &e_sigma) {
            SatResult::Sat => {}
            SatResult::Unsat => return Err(format!("`assume {text}` contradicts the path condition: {name} = {phi} implies ¬({e_sigma})")),
            SatResult::Unknown | SatResult::Interrupted => return Err(format!("the solver cannot tell whether φ ∧ {e_sigma} is satisfiable")),
        }
        let assumed = Term::and(assumed, e_sigma);
        let stop = self.add_stop(config, assumed, format!("assume {text}"), steps);
        Ok(self.describe(stop))
    }

    /// Reads `text` as a Boolean expression over the program's globals (and
    /// the fields of its classes).
    fn condition(&self, text: &str) -> Result<Term, String> {
        let declarations = Program {
            loops: Default::default(),
            main: Rc::from([]),
            annotations: Default::default(),
            ..self.program.clone()
        };
        let parsed =
            symex_semantics::syntax::parse_program(&format!("{declarations}assume {text}"))
                .map_err(|diagnostic| format!("cannot read `{text}`: {}", diagnostic.message))?;
        let Some(Stmt::Assume(e)) = parsed.main.first().filter(|_| parsed.main.len() == 1) else {
            return Err(format!("`{text}` is not one Boolean expression"));
        };
        if let Some(x) = e
            .free_vars()
            .keys()
            .find(|x| !self.program.globals.contains_key(*x))
        {
            return Err(format!("`{x}` is not a global variable of the program"));
        }
        Ok(e.clone())
    }

    fn successors(&self, config: &S::Config) -> Vec<Step<S::Config>> {
        self.system.successors(config)
    }

    /// The successors of `config` whose path condition (with `assumed`) is satisfiable.
    fn feasible(
        &mut self,
        config: &S::Config,
        assumed: &Term,
    ) -> Result<Vec<Step<S::Config>>, String> {
        let phi = self.phi(config, assumed);
        let mut feasible = Vec::new();
        for step in self.successors(config) {
            let guard = self.simplifier.simplify(&step.guard);
            match self.satisfiable(&phi, &guard) {
                SatResult::Sat => feasible.push(step),
                SatResult::Unsat => {}
                SatResult::Unknown | SatResult::Interrupted => {
                    return Err(format!(
                        "the solver cannot tell whether the `{}` step is feasible",
                        step.rule
                    ))
                }
            }
        }
        Ok(feasible)
    }

    /// Is `phi ∧ guard` satisfiable? A trivial guard needs no query: `phi` is.
    fn satisfiable(&mut self, phi: &Term, guard: &Term) -> SatResult {
        if guard.is_true() {
            return SatResult::Sat;
        }
        if guard.is_false() {
            return SatResult::Unsat;
        }
        self.solver.push();
        self.solver.assert(phi);
        let result = self.solver.check_assuming(guard);
        self.solver.pop();
        result
    }

    /// `φ` of `config` with the assumptions not already among its conjuncts, simplified.
    fn phi(&mut self, config: &S::Config, assumed: &Term) -> Term {
        let mut all = Vec::new();
        for term in [config.path_condition(), assumed] {
            conjuncts(&self.simplifier.simplify(term), &mut all);
        }
        Term::conjunction(all)
    }

    fn add_stop(&mut self, config: S::Config, assumed: Term, how: String, steps: usize) -> StopId {
        self.stops.push(Stop {
            config,
            assumed,
            parent: Some(self.current),
            how,
            steps,
        });
        self.history.push(self.current);
        self.current = self.stops.len() - 1;
        self.current
    }

    fn move_to(&mut self, stop: StopId) -> String {
        self.history.push(self.current);
        self.current = stop;
        self.describe(stop)
    }

    /// A stop in a few lines: where it is, `σ` and `φ` (`ρ` and `path(ρ)`
    /// for an unfolding), and at a fork the condition over the symbols with
    /// the branches on offer.
    fn describe(&mut self, id: StopId) -> String {
        let (config, assumed, steps) = (
            self.stops[id].config.clone(),
            self.stops[id].assumed.clone(),
            self.stops[id].steps,
        );
        let phi = self.phi(&config, &assumed);
        let name = condition_name(&config);
        let mut out = String::new();
        if let Some(outcome) = config.outcome() {
            let _ = writeln!(
                out,
                "#{id}: path ends: {outcome} after {steps} step{}",
                plural(steps)
            );
            let _ = writeln!(out, "  {name} = {phi}");
            let _ = writeln!(out, "  {}", self.state(&config));
            let _ = writeln!(
                out,
                "  model: {}",
                self.model(&config, &phi)
                    .map_or_else(|| "none".to_string(), |m| ShowValuation(&m).to_string())
            );
            return out;
        }
        let head = config.head().map_or_else(|| "ε".to_string(), summary);
        let place = config
            .head()
            .and_then(|statement| self.positions?.of(statement))
            .map_or_else(String::new, |(line, column)| format!("{line}:{column} "));
        let _ = writeln!(
            out,
            "#{id}: after {steps} step{}, at {place}`{head}`",
            plural(steps)
        );
        let _ = writeln!(out, "  {}", self.state(&config));
        let _ = writeln!(out, "  {name} = {phi}");
        let choices = match self.feasible(&config, &assumed) {
            Ok(choices) => choices,
            Err(why) => {
                let _ = writeln!(out, "  {why}");
                return out;
            }
        };
        if choices.len() > 1 {
            let condition = self
                .successors(&config)
                .into_iter()
                .find(|s| classify(s.rule) == Branch::True)
                .map(|s| self.simplifier.simplify(&s.guard));
            if let Some(condition) = condition {
                let _ = writeln!(out, "  fork on {condition}");
            }
            for step in &choices {
                let guard = self.simplifier.simplify(&step.guard);
                let _ = writeln!(
                    out,
                    "    go {:<5}  {}: {name} ∧ {guard}",
                    classify(step.rule).to_string(),
                    step.rule
                );
            }
        }
        out
    }

    /// `σ` on the globals, simplified, or for an unfolding its trace `ρ`.
    fn state(&mut self, config: &S::Config) -> String {
        if let Some(rho) = config.trace() {
            return format!("ρ = {}", ShowTrace(&rho));
        }
        let pairs: Vec<String> = config
            .global_state()
            .iter()
            .map(|(x, e)| format!("{x} ↦ {}", self.simplifier.simplify(e)))
            .collect();
        format!("σ = {{{}}}", pairs.join(", "))
    }

    /// Inputs satisfying `phi`, confirmed by the evaluator, on the program's
    /// inputs (objects with all their fields, only those the path needs).
    fn model(&mut self, config: &S::Config, phi: &Term) -> Option<Valuation> {
        self.solver.push();
        self.solver.assert(phi);
        let model = match self.solver.check() {
            SatResult::Sat => self.solver.model(&self.program.globals),
            SatResult::Unsat | SatResult::Unknown | SatResult::Interrupted => None,
        };
        self.solver.pop();
        model.map(|model| {
            config
                .inputs_from(model)
                .retain(|x| self.inputs.contains_key(x))
        })
    }

    /// `show`: the configuration in the paper's notation, then `φ` (or
    /// `path(ρ)`), whether it is satisfiable, and a model.
    fn show(&mut self) -> String {
        let stop = &self.stops[self.current];
        let (config, assumed) = (stop.config.clone(), stop.assumed.clone());
        let phi = self.phi(&config, &assumed);
        let name = condition_name(&config);
        let mut out = format!("#{}: {config}\n", self.current);
        if !assumed.is_true() {
            let _ = writeln!(out, "  assumed: {assumed}");
        }
        let _ = writeln!(out, "  {}", self.state(&config));
        let _ = writeln!(out, "  {name} = {phi}");
        let verdict = match self.model(&config, &phi) {
            Some(model) => format!("satisfiable, e.g. {}", ShowValuation(&model)),
            None if self.satisfiable(&Term::bool(true), &phi) == SatResult::Unsat => {
                "unsatisfiable".to_string()
            }
            None => "not known to be satisfiable".to_string(),
        };
        let _ = writeln!(out, "  {name} is {verdict}");
        out
    }

    /// `tree`: the stops so far, each under the one it was reached from.
    fn tree(&mut self) -> String {
        let mut children: BTreeMap<StopId, Vec<StopId>> = BTreeMap::new();
        for (id, stop) in self.stops.iter().enumerate() {
            if let Some(parent) = stop.parent {
                children.entry(parent).or_default().push(id);
            }
        }
        let mut out = String::new();
        let mut pending = vec![(0, 0)];
        while let Some((id, indent)) = pending.pop() {
            let label = self.label(id);
            let here = if id == self.current {
                "   ◀ here"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "{}#{id} {}: {label}{here}",
                "  ".repeat(indent),
                self.stops[id].how
            );
            for &child in children.get(&id).into_iter().flatten().rev() {
                pending.push((child, indent + 1));
            }
        }
        out
    }

    /// One line about a stop: its outcome, or the fork's condition.
    fn label(&mut self, id: StopId) -> String {
        let (config, assumed) = (
            self.stops[id].config.clone(),
            self.stops[id].assumed.clone(),
        );
        if let Some(outcome) = config.outcome() {
            return format!(
                "{outcome}, {} = {}",
                condition_name(&config),
                self.phi(&config, &assumed)
            );
        }
        let head = config.head().map_or_else(|| "ε".to_string(), summary);
        format!("at `{head}`")
    }
}

/// The conjuncts of `term` not yet in `all`, appended to it in order.
fn conjuncts(term: &Term, all: &mut Vec<Term>) {
    match term.kind() {
        TermKind::Binary(BinOp::And, left, right) => {
            conjuncts(left, all);
            conjuncts(right, all);
        }
        _ if term.is_true() || all.contains(term) => {}
        _ => all.push(term.clone()),
    }
}

/// How the paper writes a configuration's path condition: `φ` in
/// `⟨S, σ, φ⟩` (§2, §3), `path(ρ)` for `⟨S, ρ⟩` (§4).
fn condition_name<C: SymbolicConfiguration>(config: &C) -> &'static str {
    if config.trace().is_some() {
        "path(ρ)"
    } else {
        "φ"
    }
}

/// Which branch of a fork a rule takes.
fn classify(rule: Rule) -> Branch {
    match rule {
        Rule::ChoiceElse | Rule::IterationExit | Rule::AssertFails => Branch::False,
        Rule::ArrayOutOfBound | Rule::NilDereference => Branch::Error,
        _ => Branch::True,
    }
}

/// A statement on one short line: compound statements by their condition.
fn summary(stmt: &Stmt) -> String {
    match stmt {
        Stmt::If(b, _, _) => format!("if {b}"),
        Stmt::While(_, b, _) => format!("while {b}"),
        other => other.to_string(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
