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
//!
//! What a path keeps of its actions is a [`PathState`]: the trace ρ itself,
//! its path condition by weakest preconditions (§4, `--method wp`), or a
//! substitution with fields as arrays that runs the same actions forward
//! (§4.1, [`super::forward`], `--method forward`). Both unfold the same
//! statements into the same actions, so their paths correspond one to one.

use super::action::{Action, Location};
use super::inline::{self, Call, Inlined, ThisRule};
use super::trace::Traces;
use super::wp::Trace;
use super::{fresh, inputs, location, Calls, Errors};
use crate::delta::not_nil;
use crate::delta::Checks;
use crate::eval::{GroundValues, Valuation};
use crate::program::{Block, Code, ErrorKind, Halt, Outcome, Program, Stmt, Target};
use crate::reads::{lengths_kept, Reads};
use crate::system::{
    evaluated_state, Configuration, Options, Rule, Step, SymbolicConfiguration, TransitionSystem,
};
use crate::term::{Name, Sort, Term};
use std::fmt;
use std::rc::Rc;

/// What a path of the unfolding keeps of the actions it has taken, and
/// the path condition it reads off them.
pub trait PathState: Clone + Default + fmt::Display {
    /// The state after `action`, and what `action` adds to the path
    /// condition: `δ(h, e)` for an assignment, `δ(b) ∧ b` for a test (see
    /// [`Action::definedness`]), over the initial state.
    fn then(&self, action: Action, program: &Program, checks: Checks) -> (Self, Term);

    /// The value of every global after the path, over the initial state
    /// (objects the path creates by their fresh names).
    fn global_state(&self, program: &Program) -> Vec<(Name, Term)>;

    /// The globals and the heap after the path, from `inputs`, a model of
    /// its path condition.
    fn predicted_state(
        &self,
        inputs: &Valuation,
        program: &Rc<Program>,
        options: Options,
    ) -> Result<Valuation, String>;

    /// The actions taken since `earlier`, where the state records them.
    fn actions_since(&self, earlier: &Self) -> Option<Vec<Action>>;

    /// The trace ρ, where the state is one.
    fn trace(&self) -> Option<Vec<Action>>;

    /// The value of `e` after the path, over the initial state.
    fn after(&self, e: &Term) -> Term;

    /// Lazy initialisation ([`super::lazy`]): the ways of initialising the
    /// first input `head` reads that the path has not initialised, when
    /// there is one; the statement runs once there is none. `None` for the
    /// states that read inputs as terms (a trace, σ).
    fn initialise(
        &self,
        _head: &Stmt,
        _program: &Program,
        _checks: Checks,
        _options: Options,
    ) -> Option<Vec<Initialised<Self>>> {
        None
    }

    /// A model of the path condition made into the program's inputs.
    fn inputs_from(&self, model: Valuation, phi: &Term, program: &Program) -> Valuation {
        inputs::inputs_from(model, phi, program)
    }

    /// The symbols besides the program's inputs that the path condition
    /// may mention and a model must give (lazy initialisation's fields).
    fn symbols(&self) -> Vec<(Name, Sort)> {
        Vec::new()
    }

    /// The part of the input heap the path has materialised, where the
    /// state keeps the heap explicit.
    fn input_heap(&self) -> Option<super::lazy::InputHeap> {
        None
    }

    /// How many input objects the path has materialised (`--max-objects`).
    fn materialised_objects(&self) -> usize {
        0
    }

    /// The state at the continuation `code` as a symbolic heap
    /// configuration, where the state keeps the heap explicit.
    fn graph(&self, _code: &Code, _program: &Program) -> Option<super::lazy::graph::StateGraph> {
        None
    }
}

/// One way of initialising an input (lazy initialisation): the rule, the
/// state it leaves, and what it adds to the path condition.
pub struct Initialised<P> {
    pub rule: Rule,
    pub state: P,
    pub guard: Term,
}

/// `⟨S, ρ⟩` (or `⟨S, σ⟩` forward), with the path condition, the fresh-name
/// counter and the active calls.
#[derive(Clone)]
pub struct Config<P = Trace> {
    pub code: Code,
    pub state: P,
    pub phi: Term,
    /// The conjuncts of `phi`, by term identity.
    known: im::HashSet<u64>,
    pub fresh: u32,
    pub calls: Calls,
    /// The inputs read by `havoc` (named by the fresh-name counter).
    pub reads: Reads,
    program: Rc<Program>,
    options: Options,
}

/// The unfolding of a program of any of the three languages.
pub struct Unfold<P = Trace> {
    program: Rc<Program>,
    errors: Errors,
    options: Options,
    this: ThisRule,
    state: std::marker::PhantomData<P>,
}

impl Unfold {
    /// The unfolding with `path(ρ)` by weakest preconditions (§4).
    pub fn new(program: Rc<Program>, options: Options, this: ThisRule) -> Unfold {
        Unfold::with_state(program, options, this)
    }
}

impl<P: PathState> Unfold<P> {
    /// The unfolding whose paths keep a `P`.
    pub fn with_state(program: Rc<Program>, options: Options, this: ThisRule) -> Unfold<P> {
        Unfold {
            program,
            errors: Errors::new(options),
            options,
            this,
            state: std::marker::PhantomData,
        }
    }

    /// `⟨S, ε⟩` for the main statement `S`.
    pub fn initial(&self) -> Config<P> {
        Config {
            code: Code::empty().push(&self.program.main),
            state: P::default(),
            phi: Term::bool(true),
            known: im::HashSet::new(),
            fresh: 0,
            calls: Calls::default(),
            reads: Reads::default(),
            program: self.program.clone(),
            options: self.options,
        }
    }

    /// The errors a path condition's assignments must be free of.
    pub fn checks(&self) -> Checks {
        self.errors.checks
    }

    /// The options the unfolding runs with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The step to `⟨code, ρ · actions⟩`; its guard is what the actions add
    /// to the path condition.
    fn step(&self, rule: Rule, c: &Config<P>, actions: Vec<Action>, code: Code) -> Step<Config<P>> {
        let mut state = c.state.clone();
        let mut guard = Term::bool(true);
        let mut known = c.known.clone();
        for action in actions {
            let (next, condition) = state.then(action, &self.program, self.errors.checks);
            // A conjunct φ already has (the same `e ≠ nil` of every access
            // through `e`) adds nothing: it is left out.
            for conjunct in condition.conjuncts() {
                if known.insert(conjunct.id()).is_none() {
                    guard = Term::and(guard, conjunct);
                }
            }
            state = next;
        }
        let phi = Term::and(c.phi.clone(), guard.clone());
        let next = Config {
            code,
            state,
            phi,
            known,
            fresh: c.fresh,
            calls: c.calls.clone(),
            reads: c.reads.clone(),
            program: c.program.clone(),
            options: c.options,
        };
        Step { rule, guard, next }
    }

    /// A lazy initialisation step: the statement stays, the state changes.
    fn initialisation(&self, c: &Config<P>, choice: Initialised<P>) -> Step<Config<P>> {
        let mut known = c.known.clone();
        let mut guard = Term::bool(true);
        for conjunct in choice.guard.conjuncts() {
            if known.insert(conjunct.id()).is_none() {
                guard = Term::and(guard, conjunct);
            }
        }
        let next = Config {
            code: c.code.clone(),
            state: choice.state,
            phi: Term::and(c.phi.clone(), guard.clone()),
            known,
            fresh: c.fresh,
            calls: c.calls.clone(),
            reads: c.reads.clone(),
            program: c.program.clone(),
            options: c.options,
        };
        Step {
            rule: choice.rule,
            guard,
            next,
        }
    }

    /// The error steps of a statement that evaluates `terms` first:
    /// `⟨nil-dereference, ρ · ¬δ(E)⟩`, and with checked arrays
    /// `⟨array-out-of-bound, ρ · δ_nil(E) ∧ ¬δ(E)⟩`; none where `δ` is `true`.
    fn error_steps(&self, c: &Config<P>, terms: &[Term]) -> Vec<Step<Config<P>>> {
        self.error_steps_for(c, self.errors.tests(None, terms))
    }

    /// The error steps of a call on `receiver`, which must also not be `nil`.
    fn error_steps_of_call(
        &self,
        c: &Config<P>,
        receiver: &Term,
        args: &[Term],
    ) -> Vec<Step<Config<P>>> {
        self.error_steps_for(c, self.errors.tests(Some(receiver), args))
    }

    fn error_steps_for(
        &self,
        c: &Config<P>,
        tests: Vec<(ErrorKind, Term)>,
    ) -> Vec<Step<Config<P>>> {
        tests
            .into_iter()
            .map(|(kind, test)| {
                let rule = if kind == ErrorKind::NilDereference {
                    Rule::NilDereference
                } else {
                    Rule::ArrayOutOfBound
                };
                self.step(
                    rule,
                    c,
                    vec![Action::Test(test)],
                    Code::single(Stmt::Halt(Halt::Error(kind))),
                )
            })
            .collect()
    }

    /// The test that `b` holds: `b`, with checked arrays `δ(b) ∧ b` (a true
    /// `b` is free of nil dereferences, not of reads out of bounds).
    fn holds(&self, b: Term) -> Action {
        Action::Test(self.errors.holds(b))
    }

    /// `⟨skip; S, ρ⟩ → ⟨S, ρ⟩`
    fn symbolic_skip(&self, c: &Config<P>, rest: Code) -> Vec<Step<Config<P>>> {
        vec![self.step(Rule::Skip, c, Vec::new(), rest)]
    }

    /// `⟨h := e; S, ρ⟩ → ⟨S, ρ · h := e⟩`  (§4, symbolic assignment), for
    /// `h` a variable, a field `e'.f` or (§2.1) an array element `a[i]`.
    fn symbolic_assignment(
        &self,
        c: &Config<P>,
        rule: Rule,
        h: Location,
        e: &Term,
        rest: Code,
    ) -> Vec<Step<Config<P>>> {
        let mut steps = vec![self.step(rule, c, vec![Action::Assign(h.clone(), e.clone())], rest)];
        steps.extend(self.error_steps(c, &h.evaluated(e)));
        steps
    }

    /// `⟨havoc x̄; S, ρ⟩ → ⟨S, ρ · x̄ := x̄ₙ · len(aₙ) = len(a) …⟩`, `x̄ₙ` the
    /// inputs read by the `n`-th fresh step (King's READ, [`crate::reads`]),
    /// arrays keeping their lengths
    fn symbolic_havoc(
        &self,
        c: &Config<P>,
        vars: &[(Name, Sort)],
        rest: Code,
    ) -> Vec<Step<Config<P>>> {
        let n = c.fresh + 1;
        let (values, reads) = c.reads.read(vars, n);
        let lengths = lengths_kept(&values);
        let mut actions: Vec<Action> = values
            .into_iter()
            .map(|(x, value)| Action::Assign(Location::Var(x, value.sort()), value))
            .collect();
        if !lengths.is_true() {
            actions.push(Action::Test(lengths));
        }
        let mut step = self.step(Rule::Havoc, c, actions, rest);
        step.next.fresh = n;
        step.next.reads = reads;
        vec![step]
    }

    /// `⟨h := new C; S, ρ⟩ → ⟨S, ρ · x := new C · h := x⟩`, `x` fresh
    /// (§4, symbolic object creation)
    fn symbolic_object_creation(
        &self,
        c: &Config<P>,
        h: &Target,
        class: &Name,
        rest: Code,
    ) -> Vec<Step<Config<P>>> {
        let n = c.fresh + 1;
        let x = fresh::object(class, n);
        let object = Term::var(&x, Sort::Object(class.clone()));
        let h = location(&self.program, h, &object.sort());
        let mut step = self.step(
            Rule::ObjectCreation,
            c,
            vec![
                Action::New(x, class.clone()),
                Action::Assign(h.clone(), object),
            ],
            rest,
        );
        step.next.fresh = n;
        let mut steps = vec![step];
        steps.extend(self.error_steps(c, &Vec::from_iter(h.target())));
        steps
    }

    /// `⟨h := e₀.m(ē); S', ρ⟩ → ⟨S[this, ū := y₀, ȳ]; h := r; S', ρ · e₀ ≠ nil · y₀ := e₀ · ȳ := ē⟩`
    /// with `y₀, ȳ` fresh (§4, symbolic method call; SPEC §1.6 binds `this`
    /// to `y₀`, the paper's literal rule substitutes `e₀` itself)
    fn symbolic_method_call(
        &self,
        c: &Config<P>,
        call: Call<'_>,
        rest: Code,
    ) -> Vec<Step<Config<P>>> {
        let n = c.fresh + 1;
        let Some(inlined) = inline::method_call(&self.program, call, n, self.this) else {
            return Vec::new();
        };
        let mut steps = vec![self.symbolic_call(
            c,
            Rule::MethodCall,
            Some(not_nil(call.receiver)),
            inlined,
            n,
            rest,
        )];
        steps.extend(self.error_steps_of_call(c, call.receiver, call.args));
        steps
    }

    /// `⟨return e; S, ρ⟩ → ⟨S, ρ · r := e⟩`  (§4, symbolic method return)
    fn symbolic_method_return(
        &self,
        c: &Config<P>,
        r: &Name,
        e: &Term,
        rest: Code,
    ) -> Vec<Step<Config<P>>> {
        let h = Location::Var(r.clone(), e.sort());
        let mut steps = self.symbolic_assignment(c, Rule::MethodReturn, h, e, rest);
        if let Some(step) = steps.first_mut() {
            step.next.calls = c.calls.leave();
        }
        steps
    }

    /// `⟨P(ē); S, ρ⟩ → ⟨S_P[ū := ȳ]; end P; S, ρ · ȳ := ē⟩`, `ȳ` fresh: a
    /// procedure call (§3) unfolded like a method call
    fn symbolic_procedure_call(
        &self,
        c: &Config<P>,
        p: &Name,
        args: &[Term],
        rest: Code,
    ) -> Vec<Step<Config<P>>> {
        let n = c.fresh + 1;
        let Some(inlined) = inline::procedure_call(&self.program, p, args, n) else {
            return Vec::new();
        };
        let mut steps = vec![self.symbolic_call(c, Rule::ProcedureCall, None, inlined, n, rest)];
        steps.extend(self.error_steps(c, args));
        steps
    }

    /// The inlined body of the `n`-th fresh step: `ρ · e₀ ≠ nil` (for a
    /// method call, `test`) `· ȳ := ē`.
    fn symbolic_call(
        &self,
        c: &Config<P>,
        rule: Rule,
        test: Option<Term>,
        inlined: Inlined,
        n: u32,
        rest: Code,
    ) -> Step<Config<P>> {
        let bindings = inlined
            .bindings
            .into_iter()
            .map(|(y, sort, e)| Action::Assign(Location::Var(y, sort), e));
        let actions = test.map(Action::Test).into_iter().chain(bindings).collect();
        let mut step = self.step(rule, c, actions, rest.push(&inlined.code));
        step.next.fresh = n;
        step.next.calls = c.calls.enter(inlined.callee);
        step
    }

    /// `⟨end P; S, ρ⟩ → ⟨S, ρ⟩`: the call of `P` ends (§3, procedure return)
    fn symbolic_procedure_return(&self, c: &Config<P>, rest: Code) -> Vec<Step<Config<P>>> {
        let mut step = self.step(Rule::ProcedureReturn, c, Vec::new(), rest);
        step.next.calls = c.calls.leave();
        vec![step]
    }

    /// `⟨if b {S₁}{S₂}; S, ρ⟩ → ⟨S₁; S, ρ · b⟩` and `→ ⟨S₂; S, ρ · ¬b⟩`
    /// (§4, symbolic choice)
    fn symbolic_choice(
        &self,
        c: &Config<P>,
        b: &Term,
        then: &Block,
        otherwise: &Block,
        rest: Code,
    ) -> Vec<Step<Config<P>>> {
        let mut steps = vec![
            self.step(
                Rule::ChoiceThen,
                c,
                vec![self.holds(b.clone())],
                rest.push(then),
            ),
            self.step(
                Rule::ChoiceElse,
                c,
                vec![self.holds(Term::not(b.clone()))],
                rest.push(otherwise),
            ),
        ];
        steps.extend(self.error_steps(c, std::slice::from_ref(b)));
        steps
    }

    /// `⟨while b {S}; S', ρ⟩ → ⟨S; while b {S}; S', ρ · b⟩` and
    /// `→ ⟨S', ρ · ¬b⟩`  (§4, symbolic iteration)
    fn symbolic_iteration(
        &self,
        c: &Config<P>,
        b: &Term,
        body: &Block,
        rest: Code,
    ) -> Vec<Step<Config<P>>> {
        let mut steps = vec![
            self.step(
                Rule::IterationEnter,
                c,
                vec![self.holds(b.clone())],
                c.code.push(body),
            ),
            self.step(
                Rule::IterationExit,
                c,
                vec![self.holds(Term::not(b.clone()))],
                rest,
            ),
        ];
        steps.extend(self.error_steps(c, std::slice::from_ref(b)));
        steps
    }

    /// `⟨assert e; S, ρ⟩ → ⟨S, ρ · e⟩` and `→ ⟨assertion-failed, ρ · ¬e⟩`
    fn symbolic_assert(&self, c: &Config<P>, e: &Term, rest: Code) -> Vec<Step<Config<P>>> {
        let failed = Code::single(Stmt::Halt(Halt::Error(ErrorKind::AssertionFailed)));
        let mut steps = vec![
            self.step(Rule::AssertHolds, c, vec![self.holds(e.clone())], rest),
            self.step(
                Rule::AssertFails,
                c,
                vec![self.holds(Term::not(e.clone()))],
                failed,
            ),
        ];
        steps.extend(self.error_steps(c, std::slice::from_ref(e)));
        steps
    }

    /// `⟨assume e; S, ρ⟩ → ⟨S, ρ · e⟩`
    fn symbolic_assume(&self, c: &Config<P>, e: &Term, rest: Code) -> Vec<Step<Config<P>>> {
        let mut steps = vec![self.step(Rule::Assume, c, vec![self.holds(e.clone())], rest)];
        steps.extend(self.error_steps(c, std::slice::from_ref(e)));
        steps
    }
}

impl<P: PathState> TransitionSystem for Unfold<P> {
    type Config = Config<P>;

    fn successors(&self, c: &Config<P>) -> Vec<Step<Config<P>>> {
        let Some((head, rest)) = c.code.split() else {
            return Vec::new();
        };
        if let Some(choices) =
            c.state
                .initialise(head, &self.program, self.errors.checks, self.options)
        {
            return choices
                .into_iter()
                .map(|choice| self.initialisation(c, choice))
                .collect();
        }
        match head {
            Stmt::Skip => self.symbolic_skip(c, rest),
            Stmt::Assign(x, e) => {
                let sort = self
                    .program
                    .globals
                    .get(x)
                    .cloned()
                    .unwrap_or_else(|| e.sort());
                self.symbolic_assignment(
                    c,
                    Rule::Assignment,
                    Location::Var(x.clone(), sort),
                    e,
                    rest,
                )
            }
            Stmt::ArrayAssign(a, i, e) => {
                let sort = self
                    .program
                    .globals
                    .get(a)
                    .cloned()
                    .unwrap_or_else(Sort::int_array);
                self.symbolic_assignment(
                    c,
                    Rule::ArrayAssignment,
                    Location::Element(a.clone(), sort, i.clone()),
                    e,
                    rest,
                )
            }
            Stmt::FieldAssign(object, f, e) => {
                let h = location(
                    &self.program,
                    &Target::Field(object.clone(), f.clone()),
                    &e.sort(),
                );
                self.symbolic_assignment(c, Rule::FieldAssignment, h, e, rest)
            }
            Stmt::New(h, class) => self.symbolic_object_creation(c, h, class, rest),
            Stmt::MethodCall {
                target,
                receiver,
                class,
                method,
                args,
            } => self.symbolic_method_call(
                c,
                Call {
                    target,
                    receiver,
                    class,
                    method,
                    args,
                },
                rest,
            ),
            Stmt::Return(Some(r), e) => self.symbolic_method_return(c, r, e, rest),
            Stmt::Call(p, args) => self.symbolic_procedure_call(c, p, args, rest),
            Stmt::EndCall(_) => self.symbolic_procedure_return(c, rest),
            Stmt::If(b, then, otherwise) => self.symbolic_choice(c, b, then, otherwise, rest),
            Stmt::While(_, b, body) => self.symbolic_iteration(c, b, body, rest),
            Stmt::Assert(e) => self.symbolic_assert(c, e, rest),
            Stmt::Assume(e) => self.symbolic_assume(c, e, rest),
            Stmt::Havoc(vars) => self.symbolic_havoc(c, vars, rest),
            // `Halt` is terminal; a `return` is only ever run inlined.
            Stmt::Halt(_) | Stmt::Return(None, _) => Vec::new(),
        }
    }
}

impl<P> Config<P> {
    /// The errors its path condition rules out.
    pub fn checks(&self) -> Checks {
        Errors::new(self.options).checks
    }
}

impl<P: PathState> Configuration for Config<P> {
    fn outcome(&self) -> Option<Outcome> {
        self.code.outcome()
    }

    fn head(&self) -> Option<&Stmt> {
        self.code.head()
    }

    fn max_active_calls(&self) -> usize {
        self.calls.max_active()
    }

    fn materialised_objects(&self) -> usize {
        self.state.materialised_objects()
    }
}

impl<P: PathState> SymbolicConfiguration for Config<P> {
    fn path_condition(&self) -> &Term {
        &self.phi
    }

    fn global_state(&self) -> Vec<(Name, Term)> {
        self.state.global_state(&self.program)
    }

    /// Without classes there is no heap to build: the state's values over
    /// the initial state are evaluated (`V(wp_ρ(x))` is `x` after ρ), sharing
    /// ground parts across paths, where running the trace would cost the
    /// whole trace at every leaf.
    fn predicted_state(
        &self,
        inputs: &Valuation,
        ground: &mut GroundValues,
    ) -> Result<Valuation, String> {
        if self.program.classes.is_empty() {
            return evaluated_state(self, inputs, ground);
        }
        self.state
            .predicted_state(inputs, &self.program, self.options)
    }

    fn inputs_from(&self, model: Valuation) -> Valuation {
        self.state.inputs_from(model, &self.phi, &self.program)
    }

    fn symbols(&self) -> Vec<(Name, Sort)> {
        self.state.symbols()
    }

    fn input_heap(&self) -> Option<super::lazy::InputHeap> {
        self.state.input_heap()
    }

    fn state_graph(&self) -> Option<super::lazy::graph::StateGraph> {
        self.state.graph(&self.code, &self.program)
    }

    fn read_inputs(&self) -> Vec<(Name, Sort)> {
        self.reads.inputs()
    }

    fn actions_since(&self, earlier: &Config<P>) -> Option<Vec<Action>> {
        self.state.actions_since(&earlier.state)
    }

    fn trace(&self) -> Option<Vec<Action>> {
        self.state.trace()
    }

    fn after(&self, e: &Term) -> Term {
        self.state.after(e)
    }
}

impl PathState for Trace {
    /// `ρ · a`, adding what Definition 4.2 adds for `a`: `wp_ρ` of its condition.
    fn then(&self, action: Action, _: &Program, checks: Checks) -> (Trace, Term) {
        let condition = self.condition(&action, checks);
        (Trace::then(self, action), condition)
    }

    /// `wp_ρ(x)` for every global `x`: its value after ρ over the initial
    /// state (objects created on ρ by their fresh names).
    fn global_state(&self, program: &Program) -> Vec<(Name, Term)> {
        program
            .globals
            .iter()
            .map(|(x, sort)| (x.clone(), self.wp(&Term::var(x, sort.clone()))))
            .collect()
    }

    /// `V'` of `⟨V, ρ⟩ →* ⟨V', ε⟩` on the globals, with the final heap.
    fn predicted_state(
        &self,
        inputs: &Valuation,
        program: &Rc<Program>,
        options: Options,
    ) -> Result<Valuation, String> {
        let rho = self.actions();
        let run = Traces::new(program.clone(), options).run(inputs.clone(), &rho);
        let end =
            run.map_err(|k| format!("the trace is stuck at its action {}, `{}`", k + 1, rho[k]))?;
        Ok(end.retain(|x| program.globals.contains_key(x)))
    }

    fn actions_since(&self, earlier: &Trace) -> Option<Vec<Action>> {
        let mut actions = Vec::new();
        let mut trace = self;
        while trace.len() > earlier.len() {
            actions.extend(trace.last().cloned());
            trace = trace.before()?;
        }
        actions.reverse();
        Some(actions)
    }

    fn trace(&self) -> Option<Vec<Action>> {
        Some(self.actions())
    }

    fn after(&self, e: &Term) -> Term {
        self.wp(e)
    }
}

impl fmt::Display for Trace {
    /// ρ as `a₁ · a₂ · …` or `ε`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", super::ShowTrace(&self.actions()))
    }
}

impl<P: PathState> fmt::Display for Config<P> {
    /// `⟨S, ρ⟩` (forward: `⟨S, σ⟩`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "⟨{}, {}⟩", self.code, self.state)
    }
}
