//! Symbolic execution as the unfolding of a program into a symbolic trace
//! (§4): configurations `⟨S, ρ⟩`, each carrying `path(ρ)` (computed
//! incrementally, [`super::wp`]). Every statement of the three languages
//! unfolds, so `--method wp` runs basic and recursive programs too.
//!
//! The paper's unfolding "abstracts from nil-pointer errors"; following its
//! remark that such errors "can be modeled following the basic approach
//! described in subsection 2.1", a statement whose expressions may be `⊥`
//! also steps to `nil-dereference` with the test `¬δ(E)` (and, with
//! `--checked-arrays`, to `array-out-of-bound` with `δ_nil(E) ∧ ¬δ(E)`:
//! a nil dereference is reported first). Each rule mirrors its concrete
//! counterpart in `concrete.rs`.

use super::action::{Action, Location};
use super::inline::{self, Inlined, ThisRule};
use super::wp::Trace;
use super::trace::Traces;
use super::{fresh, inputs, location, Calls, Errors};
use crate::eval::Valuation;
use crate::delta::Checks;
use crate::program::{Block, Code, ErrorKind, Halt, Outcome, Program, Stmt, Target};
use crate::system::{Configuration, Options, Rule, Step, SymbolicConfiguration, TransitionSystem};
use crate::delta::not_nil;
use crate::term::{Name, Sort, Term};
use std::fmt;
use std::rc::Rc;

/// `⟨S, ρ⟩`, with `path(ρ)`, the fresh-name counter and the active calls.
#[derive(Clone)]
pub struct Config {
    pub code: Code,
    pub trace: Trace,
    pub phi: Term,
    /// The conjuncts of `phi`, by term identity.
    known: im::HashSet<u64>,
    pub fresh: u32,
    pub calls: Calls,
    program: Rc<Program>,
    options: Options,
}

/// The unfolding of a program of any of the three languages.
pub struct Unfold {
    program: Rc<Program>,
    errors: Errors,
    options: Options,
    this: ThisRule,
}

impl Unfold {
    pub fn new(program: Rc<Program>, options: Options, this: ThisRule) -> Unfold {
        Unfold { program, errors: Errors::new(options), options, this }
    }

    /// `⟨S, ε⟩` for the main statement `S`.
    pub fn initial(&self) -> Config {
        Config {
            code: Code::empty().push(&self.program.main),
            trace: Trace::new(),
            phi: Term::bool(true),
            known: im::HashSet::new(),
            fresh: 0,
            calls: Calls::default(),
            program: self.program.clone(),
            options: self.options,
        }
    }

    /// The errors a path condition's assignments must be free of.
    pub fn checks(&self) -> Checks {
        self.errors.checks
    }

    /// The step to `⟨code, ρ · actions⟩`; its guard is what the actions add
    /// to the path condition.
    fn step(&self, rule: Rule, c: &Config, actions: Vec<Action>, code: Code) -> Step<Config> {
        let mut trace = c.trace.clone();
        let mut guard = Term::bool(true);
        let mut known = c.known.clone();
        for action in actions {
            // A conjunct φ already has (the same `e ≠ nil` of every access
            // through `e`) adds nothing: it is left out.
            for conjunct in trace.condition(&action, self.errors.checks).conjuncts() {
                if known.insert(conjunct.id()).is_none() {
                    guard = Term::and(guard, conjunct);
                }
            }
            trace = trace.then(action);
        }
        let phi = Term::and(c.phi.clone(), guard.clone());
        let next = Config { code, trace, phi, known, fresh: c.fresh, calls: c.calls.clone(), program: c.program.clone(), options: c.options };
        Step { rule, guard, next }
    }

    /// The error steps of a statement that evaluates `terms` first:
    /// `⟨nil-dereference, ρ · ¬δ(E)⟩`, and with checked arrays
    /// `⟨array-out-of-bound, ρ · δ_nil(E) ∧ ¬δ(E)⟩`; none where `δ` is `true`.
    fn error_steps(&self, c: &Config, terms: &[Term]) -> Vec<Step<Config>> {
        self.error_steps_for(c, self.errors.tests(None, terms))
    }

    /// The error steps of a call on `receiver`, which must also not be `nil`.
    fn error_steps_of_call(&self, c: &Config, receiver: &Term, args: &[Term]) -> Vec<Step<Config>> {
        self.error_steps_for(c, self.errors.tests(Some(receiver), args))
    }

    fn error_steps_for(&self, c: &Config, tests: Vec<(ErrorKind, Term)>) -> Vec<Step<Config>> {
        tests
            .into_iter()
            .map(|(kind, test)| {
                let rule = if kind == ErrorKind::NilDereference { Rule::NilDereference } else { Rule::ArrayOutOfBound };
                self.step(rule, c, vec![Action::Test(test)], Code::single(Stmt::Halt(Halt::Error(kind))))
            })
            .collect()
    }

    /// The test that `b` holds: `b`, with checked arrays `δ(b) ∧ b` (a true
    /// `b` is free of nil dereferences, not of reads out of bounds).
    fn holds(&self, b: Term) -> Action {
        Action::Test(self.errors.holds(b))
    }

    /// `⟨skip; S, ρ⟩ → ⟨S, ρ⟩`
    fn symbolic_skip(&self, c: &Config, rest: Code) -> Vec<Step<Config>> {
        vec![self.step(Rule::Skip, c, Vec::new(), rest)]
    }

    /// `⟨h := e; S, ρ⟩ → ⟨S, ρ · h := e⟩`  (§4, symbolic assignment), for
    /// `h` a variable, a field `e'.f` or (§2.1) an array element `a[i]`.
    fn symbolic_assignment(&self, c: &Config, rule: Rule, h: Location, e: &Term, rest: Code) -> Vec<Step<Config>> {
        let mut steps = vec![self.step(rule, c, vec![Action::Assign(h.clone(), e.clone())], rest)];
        steps.extend(self.error_steps(c, &h.evaluated(e)));
        steps
    }

    /// `⟨h := new C; S, ρ⟩ → ⟨S, ρ · x := new C · h := x⟩`, `x` fresh
    /// (§4, symbolic object creation)
    fn symbolic_object_creation(&self, c: &Config, h: &Target, class: &Name, rest: Code) -> Vec<Step<Config>> {
        let n = c.fresh + 1;
        let x = fresh::object(class, n);
        let object = Term::var(&x, Sort::Object(class.clone()));
        let h = location(&self.program, h, &object.sort());
        let mut step = self.step(Rule::ObjectCreation, c, vec![Action::New(x, class.clone()), Action::Assign(h.clone(), object)], rest);
        step.next.fresh = n;
        let mut steps = vec![step];
        steps.extend(self.error_steps(c, &Vec::from_iter(h.target())));
        steps
    }

    /// `⟨h := e₀.m(ē); S', ρ⟩ → ⟨S[this, ū := y₀, ȳ]; h := r; S', ρ · e₀ ≠ nil · y₀ := e₀ · ȳ := ē⟩`
    /// with `y₀, ȳ` fresh (§4, symbolic method call; SPEC §1.6 binds `this`
    /// to `y₀`, the paper's literal rule substitutes `e₀` itself)
    fn symbolic_method_call(&self, c: &Config, call: Call<'_>, rest: Code) -> Vec<Step<Config>> {
        let n = c.fresh + 1;
        let Some(inlined) = inline::method_call(&self.program, call.target, call.receiver, call.class, call.method, call.args, n, self.this) else {
            return Vec::new();
        };
        let mut steps = vec![self.symbolic_call(c, Rule::MethodCall, Some(not_nil(call.receiver)), inlined, n, rest)];
        steps.extend(self.error_steps_of_call(c, call.receiver, call.args));
        steps
    }

    /// `⟨return e; S, ρ⟩ → ⟨S, ρ · r := e⟩`  (§4, symbolic method return)
    fn symbolic_method_return(&self, c: &Config, r: &Name, e: &Term, rest: Code) -> Vec<Step<Config>> {
        let h = Location::Var(r.clone(), e.sort());
        let mut steps = self.symbolic_assignment(c, Rule::MethodReturn, h, e, rest);
        if let Some(step) = steps.first_mut() {
            step.next.calls = c.calls.leave();
        }
        steps
    }

    /// `⟨P(ē); S, ρ⟩ → ⟨S_P[ū := ȳ]; end P; S, ρ · ȳ := ē⟩`, `ȳ` fresh: a
    /// procedure call (§3) unfolded like a method call
    fn symbolic_procedure_call(&self, c: &Config, p: &Name, args: &[Term], rest: Code) -> Vec<Step<Config>> {
        let n = c.fresh + 1;
        let Some(inlined) = inline::procedure_call(&self.program, p, args, n) else { return Vec::new() };
        let mut steps = vec![self.symbolic_call(c, Rule::ProcedureCall, None, inlined, n, rest)];
        steps.extend(self.error_steps(c, args));
        steps
    }

    /// The inlined body of the `n`-th fresh step: `ρ · e₀ ≠ nil` (for a
    /// method call, `test`) `· ȳ := ē`.
    fn symbolic_call(&self, c: &Config, rule: Rule, test: Option<Term>, inlined: Inlined, n: u32, rest: Code) -> Step<Config> {
        let bindings = inlined.bindings.into_iter().map(|(y, sort, e)| Action::Assign(Location::Var(y, sort), e));
        let actions = test.map(Action::Test).into_iter().chain(bindings).collect();
        let mut step = self.step(rule, c, actions, rest.push(&inlined.code));
        step.next.fresh = n;
        step.next.calls = c.calls.enter(inlined.callee);
        step
    }

    /// `⟨end P; S, ρ⟩ → ⟨S, ρ⟩`: the call of `P` ends (§3, procedure return)
    fn symbolic_procedure_return(&self, c: &Config, rest: Code) -> Vec<Step<Config>> {
        let mut step = self.step(Rule::ProcedureReturn, c, Vec::new(), rest);
        step.next.calls = c.calls.leave();
        vec![step]
    }

    /// `⟨if b {S₁}{S₂}; S, ρ⟩ → ⟨S₁; S, ρ · b⟩` and `→ ⟨S₂; S, ρ · ¬b⟩`
    /// (§4, symbolic choice)
    fn symbolic_choice(&self, c: &Config, b: &Term, then: &Block, otherwise: &Block, rest: Code) -> Vec<Step<Config>> {
        let mut steps = vec![
            self.step(Rule::ChoiceThen, c, vec![self.holds(b.clone())], rest.push(then)),
            self.step(Rule::ChoiceElse, c, vec![self.holds(Term::not(b.clone()))], rest.push(otherwise)),
        ];
        steps.extend(self.error_steps(c, std::slice::from_ref(b)));
        steps
    }

    /// `⟨while b {S}; S', ρ⟩ → ⟨S; while b {S}; S', ρ · b⟩` and
    /// `→ ⟨S', ρ · ¬b⟩`  (§4, symbolic iteration)
    fn symbolic_iteration(&self, c: &Config, b: &Term, body: &Block, rest: Code) -> Vec<Step<Config>> {
        let mut steps = vec![
            self.step(Rule::IterationEnter, c, vec![self.holds(b.clone())], c.code.push(body)),
            self.step(Rule::IterationExit, c, vec![self.holds(Term::not(b.clone()))], rest),
        ];
        steps.extend(self.error_steps(c, std::slice::from_ref(b)));
        steps
    }

    /// `⟨assert e; S, ρ⟩ → ⟨S, ρ · e⟩` and `→ ⟨assertion-failed, ρ · ¬e⟩`
    fn symbolic_assert(&self, c: &Config, e: &Term, rest: Code) -> Vec<Step<Config>> {
        let failed = Code::single(Stmt::Halt(Halt::Error(ErrorKind::AssertionFailed)));
        let mut steps = vec![
            self.step(Rule::AssertHolds, c, vec![self.holds(e.clone())], rest),
            self.step(Rule::AssertFails, c, vec![self.holds(Term::not(e.clone()))], failed),
        ];
        steps.extend(self.error_steps(c, std::slice::from_ref(e)));
        steps
    }

    /// `⟨assume e; S, ρ⟩ → ⟨S, ρ · e⟩`
    fn symbolic_assume(&self, c: &Config, e: &Term, rest: Code) -> Vec<Step<Config>> {
        let mut steps = vec![self.step(Rule::Assume, c, vec![self.holds(e.clone())], rest)];
        steps.extend(self.error_steps(c, std::slice::from_ref(e)));
        steps
    }
}

/// The parts of `h := e₀.m(ē)`.
struct Call<'s> {
    target: &'s Target,
    receiver: &'s Term,
    class: &'s Name,
    method: &'s Name,
    args: &'s [Term],
}

impl TransitionSystem for Unfold {
    type Config = Config;

    fn successors(&self, c: &Config) -> Vec<Step<Config>> {
        let Some((head, rest)) = c.code.split() else { return Vec::new() };
        match head {
            Stmt::Skip => self.symbolic_skip(c, rest),
            Stmt::Assign(x, e) => {
                let sort = self.program.globals.get(x).cloned().unwrap_or_else(|| e.sort());
                self.symbolic_assignment(c, Rule::Assignment, Location::Var(x.clone(), sort), e, rest)
            }
            Stmt::ArrayAssign(a, i, e) => {
                let sort = self.program.globals.get(a).cloned().unwrap_or_else(Sort::int_array);
                self.symbolic_assignment(c, Rule::ArrayAssignment, Location::Element(a.clone(), sort, i.clone()), e, rest)
            }
            Stmt::FieldAssign(object, f, e) => {
                let h = location(&self.program, &Target::Field(object.clone(), f.clone()), &e.sort());
                self.symbolic_assignment(c, Rule::FieldAssignment, h, e, rest)
            }
            Stmt::New(h, class) => self.symbolic_object_creation(c, h, class, rest),
            Stmt::MethodCall { target, receiver, class, method, args } => {
                self.symbolic_method_call(c, Call { target, receiver, class, method, args }, rest)
            }
            Stmt::Return(Some(r), e) => self.symbolic_method_return(c, r, e, rest),
            Stmt::Call(p, args) => self.symbolic_procedure_call(c, p, args, rest),
            Stmt::EndCall(_) => self.symbolic_procedure_return(c, rest),
            Stmt::If(b, then, otherwise) => self.symbolic_choice(c, b, then, otherwise, rest),
            Stmt::While(_, b, body) => self.symbolic_iteration(c, b, body, rest),
            Stmt::Assert(e) => self.symbolic_assert(c, e, rest),
            Stmt::Assume(e) => self.symbolic_assume(c, e, rest),
            // `Halt` is terminal; a `return` is only ever run inlined.
            Stmt::Halt(_) | Stmt::Return(None, _) => Vec::new(),
        }
    }
}

impl Config {
    /// The errors its path condition rules out.
    pub fn checks(&self) -> Checks {
        Errors::new(self.options).checks
    }
}

impl Configuration for Config {
    fn outcome(&self) -> Option<Outcome> {
        self.code.outcome()
    }

    fn head(&self) -> Option<&Stmt> {
        self.code.head()
    }

    fn max_active_calls(&self) -> usize {
        self.calls.max_active()
    }
}

impl SymbolicConfiguration for Config {
    fn path_condition(&self) -> &Term {
        &self.phi
    }

    /// `wp_ρ(x)` for every global `x`: its value after ρ over the initial
    /// state (objects created on ρ by their fresh names).
    fn global_state(&self) -> Vec<(Name, Term)> {
        self.program.globals.iter().map(|(x, sort)| (x.clone(), self.trace.wp(&Term::var(x, sort.clone())))).collect()
    }

    /// `V'` of `⟨V, ρ⟩ →* ⟨V', ε⟩` on the globals, with the final heap.
    fn predicted_state(&self, inputs: &Valuation) -> Result<Valuation, String> {
        let rho = self.trace.actions();
        let run = Traces::new(self.program.clone(), self.options).run(inputs.clone(), &rho);
        let end = run.map_err(|k| format!("the trace is stuck at its action {}, `{}`", k + 1, rho[k]))?;
        Ok(end.retain(|x| self.program.globals.contains_key(x)))
    }

    fn inputs_from(&self, model: Valuation) -> Valuation {
        inputs::inputs_from(model, &self.phi, &self.program)
    }

    fn actions_since(&self, earlier: &Config) -> Option<Vec<Action>> {
        let mut actions = Vec::new();
        let mut trace = &self.trace;
        while trace.len() > earlier.trace.len() {
            actions.extend(trace.last().cloned());
            trace = trace.before()?;
        }
        actions.reverse();
        Some(actions)
    }
}

impl fmt::Display for Config {
    /// `⟨S, ρ⟩`, with ρ as `a₁ · a₂ · …` or `ε`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "⟨{}, {}⟩", self.code, super::ShowTrace(&self.trace.actions()))
    }
}
