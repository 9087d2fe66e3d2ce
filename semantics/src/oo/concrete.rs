//! The standard concrete semantics of programs (§4, which the paper
//! omits as standard): configurations `⟨S, (G, H)⟩`, with method and
//! procedure calls by body replacement, the locals renamed to fresh
//! variables of `G` (`inline.rs`, shared with the unfolding), and `⊥` (a
//! field of `nil`, a call on `nil`) stepping to `nil-dereference`. Each rule
//! mirrors its symbolic counterpart in `unfold.rs`.

use super::action::Location;
use super::inline::{self, Call, Inlined, ThisRule};
use super::trace::assign;
use super::{location, Calls, Errors};
use crate::eval::{eval, eval_bool, EvalError, ShowValuation, Valuation};
use crate::program::{Block, Code, ErrorKind, Halt, Outcome, Program, Stmt, Target};
use crate::reads::read_values;
use crate::system::{ConcreteConfiguration, Configuration, Options, Rule, Step, TransitionSystem};
use crate::term::{Name, Sort, Term};
use crate::value::Value;
use std::fmt;
use std::rc::Rc;

/// `⟨S, (G, H)⟩`, with the fresh-name counter and the active calls.
#[derive(Clone, PartialEq, Eq)]
pub struct Config {
    pub code: Code,
    pub valuation: Valuation,
    pub fresh: u32,
    pub calls: Calls,
}

/// The concrete semantics of a program of any of the three languages.
pub struct Concrete {
    program: Rc<Program>,
    errors: Errors,
}

type Steps = Result<Vec<Step<Config>>, EvalError>;

impl Concrete {
    pub fn new(program: Rc<Program>, options: Options) -> Concrete {
        Concrete {
            program,
            errors: Errors::new(options),
        }
    }

    /// `⟨S, (G, H)⟩` for the main statement `S` and the inputs `(G, H)`.
    pub fn initial(&self, valuation: Valuation) -> Config {
        Config {
            code: Code::empty().push(&self.program.main),
            valuation,
            fresh: 0,
            calls: Calls::default(),
        }
    }

    fn step(rule: Rule, c: &Config, valuation: Valuation, code: Code) -> Vec<Step<Config>> {
        let next = Config {
            code,
            valuation,
            fresh: c.fresh,
            calls: c.calls.clone(),
        };
        vec![Step {
            rule,
            guard: Term::bool(true),
            next,
        }]
    }

    /// `⟨nil-dereference, V⟩` or `⟨array-out-of-bound, V⟩` when evaluating
    /// `terms` (after the callee `receiver`) runs into that error.
    fn error(
        &self,
        c: &Config,
        receiver: Option<&Term>,
        terms: &[Term],
    ) -> Result<Option<Vec<Step<Config>>>, EvalError> {
        Ok(self
            .errors
            .error_in(receiver, terms, &c.valuation)?
            .map(|kind| {
                let rule = if kind == ErrorKind::NilDereference {
                    Rule::NilDereference
                } else {
                    Rule::ArrayOutOfBound
                };
                Concrete::step(
                    rule,
                    c,
                    c.valuation.clone(),
                    Code::single(Stmt::Halt(Halt::Error(kind))),
                )
            }))
    }

    /// `⟨skip; S, V⟩ → ⟨S, V⟩`
    fn concrete_skip(&self, c: &Config, rest: Code) -> Steps {
        Ok(Concrete::step(Rule::Skip, c, c.valuation.clone(), rest))
    }

    /// `⟨havoc x̄; S, V⟩ → ⟨S, V[x̄ := V(x̄ₙ)]⟩`: the inputs read by the `n`-th
    /// fresh step, as the valuation gives them (King's READ, [`crate::reads`]);
    /// `→ ⟨assumption-violated, V⟩` when an array read changes a length
    fn concrete_havoc(&self, c: &Config, vars: &[(Name, Sort)], rest: Code) -> Steps {
        let n = c.fresh + 1;
        let mut steps = match read_values(vars, n, |x| c.valuation.get(x).cloned()) {
            Some(values) => {
                let valuation = values
                    .into_iter()
                    .fold(c.valuation.clone(), |v, (x, value)| v.update(x, value));
                Concrete::step(Rule::Havoc, c, valuation, rest)
            }
            None => Concrete::step(
                Rule::AssumptionViolated,
                c,
                c.valuation.clone(),
                Code::single(Stmt::Halt(Halt::AssumptionViolated)),
            ),
        };
        steps[0].next.fresh = n;
        Ok(steps)
    }

    /// `⟨h := e; S, V⟩ → ⟨S, V[V(h) := V(e)]⟩`, `h` a variable, a field or an array element
    fn concrete_assignment(
        &self,
        c: &Config,
        rule: Rule,
        h: Location,
        e: &Term,
        rest: Code,
    ) -> Steps {
        if let Some(error) = self.error(c, None, &h.evaluated(e))? {
            return Ok(error);
        }
        let Some(valuation) = assign(&c.valuation, &h, eval(e, &c.valuation)?)? else {
            return Ok(Vec::new());
        };
        Ok(Concrete::step(rule, c, valuation, rest))
    }

    /// `⟨h := new C; S, V⟩ → ⟨S, V'[h := o]⟩` for `V' = (G, H')` with a new
    /// object `o` of class `C` whose fields hold their default values
    fn concrete_object_creation(&self, c: &Config, h: &Target, class: &Name, rest: Code) -> Steps {
        let h = location(&self.program, h, &Sort::Object(class.clone()));
        if let Some(error) = self.error(c, None, &Vec::from_iter(h.target()))? {
            return Ok(error);
        }
        let Some(fields) = self
            .program
            .classes
            .get(class)
            .map(|declaration| &declaration.fields)
        else {
            return Ok(Vec::new());
        };
        let (o, heap) = c.valuation.heap.allocate(class, fields);
        let Some(valuation) = assign(&c.valuation.with_heap(heap), &h, Value::Object(o))? else {
            return Ok(Vec::new());
        };
        let mut steps = Concrete::step(Rule::ObjectCreation, c, valuation, rest);
        // The unfolding names the object with a fresh variable: keep the count in step.
        steps
            .iter_mut()
            .for_each(|step| step.next.fresh = c.fresh + 1);
        Ok(steps)
    }

    /// `⟨h := e₀.m(ē); S', V⟩ → ⟨S[this, ū := y₀, ȳ]; h := r; S', V[y₀, ȳ := V(e₀), V(ē)]⟩`
    /// with `y₀, ȳ` fresh, provided `V(e₀)` is an object
    fn concrete_method_call(&self, c: &Config, call: Call<'_>, rest: Code) -> Steps {
        if let Some(error) = self.error(c, Some(call.receiver), call.args)? {
            return Ok(error);
        }
        let n = c.fresh + 1;
        let inlined = inline::method_call(&self.program, call, n, ThisRule::Fresh);
        self.concrete_call(c, Rule::MethodCall, inlined, n, rest)
    }

    /// `⟨return e; S, V⟩ → ⟨S, V[r := V(e)]⟩`
    fn concrete_method_return(&self, c: &Config, r: &Name, e: &Term, rest: Code) -> Steps {
        let mut steps = self.concrete_assignment(
            c,
            Rule::MethodReturn,
            Location::Var(r.clone(), e.sort()),
            e,
            rest,
        )?;
        for step in steps
            .iter_mut()
            .filter(|step| step.rule == Rule::MethodReturn)
        {
            step.next.calls = c.calls.leave();
        }
        Ok(steps)
    }

    /// `⟨P(ē); S, V⟩ → ⟨S_P[ū := ȳ]; end P; S, V[ȳ := V(ē)]⟩`, `ȳ` fresh
    fn concrete_procedure_call(&self, c: &Config, p: &Name, args: &[Term], rest: Code) -> Steps {
        if let Some(error) = self.error(c, None, args)? {
            return Ok(error);
        }
        let n = c.fresh + 1;
        let inlined = inline::procedure_call(&self.program, p, args, n);
        self.concrete_call(c, Rule::ProcedureCall, inlined, n, rest)
    }

    /// The inlined body of the `n`-th fresh step, its fresh variables bound
    /// to the values of their expressions in `V`.
    fn concrete_call(
        &self,
        c: &Config,
        rule: Rule,
        inlined: Option<Inlined>,
        n: u32,
        rest: Code,
    ) -> Steps {
        let Some(inlined) = inlined else {
            return Ok(Vec::new());
        };
        let mut valuation = c.valuation.clone();
        for (y, _, e) in &inlined.bindings {
            valuation.insert(y.clone(), eval(e, &c.valuation)?);
        }
        let next = Config {
            code: rest.push(&inlined.code),
            valuation,
            fresh: n,
            calls: c.calls.enter(inlined.callee),
        };
        Ok(vec![Step {
            rule,
            guard: Term::bool(true),
            next,
        }])
    }

    /// `⟨end P; S, V⟩ → ⟨S, V⟩`
    fn concrete_procedure_return(&self, c: &Config, rest: Code) -> Steps {
        let mut steps = Concrete::step(Rule::ProcedureReturn, c, c.valuation.clone(), rest);
        steps
            .iter_mut()
            .for_each(|step| step.next.calls = c.calls.leave());
        Ok(steps)
    }

    /// `⟨if b {S₁}{S₂}; S, V⟩ → ⟨S₁; S, V⟩` if `V(b)`, `→ ⟨S₂; S, V⟩` if `¬V(b)`
    fn concrete_choice(
        &self,
        c: &Config,
        b: &Term,
        then: &Block,
        otherwise: &Block,
        rest: Code,
    ) -> Steps {
        if let Some(error) = self.error(c, None, std::slice::from_ref(b))? {
            return Ok(error);
        }
        Ok(if eval_bool(b, &c.valuation)? {
            Concrete::step(Rule::ChoiceThen, c, c.valuation.clone(), rest.push(then))
        } else {
            Concrete::step(
                Rule::ChoiceElse,
                c,
                c.valuation.clone(),
                rest.push(otherwise),
            )
        })
    }

    /// `⟨while b {S}; S', V⟩ → ⟨S; while b {S}; S', V⟩` if `V(b)`, `→ ⟨S', V⟩` if `¬V(b)`
    fn concrete_iteration(&self, c: &Config, b: &Term, body: &Block, rest: Code) -> Steps {
        if let Some(error) = self.error(c, None, std::slice::from_ref(b))? {
            return Ok(error);
        }
        Ok(if eval_bool(b, &c.valuation)? {
            Concrete::step(
                Rule::IterationEnter,
                c,
                c.valuation.clone(),
                c.code.push(body),
            )
        } else {
            Concrete::step(Rule::IterationExit, c, c.valuation.clone(), rest)
        })
    }

    /// `⟨assert e; S, V⟩ → ⟨S, V⟩` if `V(e)`, `→ ⟨assertion-failed, V⟩` if `¬V(e)`
    fn concrete_assert(&self, c: &Config, e: &Term, rest: Code) -> Steps {
        if let Some(error) = self.error(c, None, std::slice::from_ref(e))? {
            return Ok(error);
        }
        Ok(if eval_bool(e, &c.valuation)? {
            Concrete::step(Rule::AssertHolds, c, c.valuation.clone(), rest)
        } else {
            let failed = Code::single(Stmt::Halt(Halt::Error(ErrorKind::AssertionFailed)));
            Concrete::step(Rule::AssertFails, c, c.valuation.clone(), failed)
        })
    }

    /// `⟨assume e; S, V⟩ → ⟨S, V⟩` if `V(e)`, `→ ⟨assumption-violated, V⟩` if `¬V(e)`
    fn concrete_assume(&self, c: &Config, e: &Term, rest: Code) -> Steps {
        if let Some(error) = self.error(c, None, std::slice::from_ref(e))? {
            return Ok(error);
        }
        Ok(if eval_bool(e, &c.valuation)? {
            Concrete::step(Rule::Assume, c, c.valuation.clone(), rest)
        } else {
            Concrete::step(
                Rule::AssumptionViolated,
                c,
                c.valuation.clone(),
                Code::single(Stmt::Halt(Halt::AssumptionViolated)),
            )
        })
    }
}

impl TransitionSystem for Concrete {
    type Config = Config;

    /// The successor of `c`; none if `c` is terminal or its expressions have no value.
    fn successors(&self, c: &Config) -> Vec<Step<Config>> {
        self.try_successors(c).unwrap_or_default()
    }

    /// The successor of `c`, or why its expressions have no value (when
    /// `V` lacks a variable, has one of the wrong type, or refers to an
    /// object the heap does not have, or an integer outgrows the evaluator's
    /// bound).
    fn try_successors(&self, c: &Config) -> Steps {
        let Some((head, rest)) = c.code.split() else {
            return Ok(Vec::new());
        };
        match head {
            Stmt::Skip => self.concrete_skip(c, rest),
            Stmt::Assign(x, e) => {
                let sort = self
                    .program
                    .globals
                    .get(x)
                    .cloned()
                    .unwrap_or_else(|| e.sort());
                self.concrete_assignment(
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
                self.concrete_assignment(
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
                self.concrete_assignment(c, Rule::FieldAssignment, h, e, rest)
            }
            Stmt::New(h, class) => self.concrete_object_creation(c, h, class, rest),
            Stmt::MethodCall {
                target,
                receiver,
                class,
                method,
                args,
            } => self.concrete_method_call(
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
            Stmt::Return(Some(r), e) => self.concrete_method_return(c, r, e, rest),
            Stmt::Call(p, args) => self.concrete_procedure_call(c, p, args, rest),
            Stmt::EndCall(_) => self.concrete_procedure_return(c, rest),
            Stmt::If(b, then, otherwise) => self.concrete_choice(c, b, then, otherwise, rest),
            Stmt::While(_, b, body) => self.concrete_iteration(c, b, body, rest),
            Stmt::Assert(e) => self.concrete_assert(c, e, rest),
            Stmt::Assume(e) => self.concrete_assume(c, e, rest),
            Stmt::Havoc(vars) => self.concrete_havoc(c, vars, rest),
            // `Halt` is terminal; a `return` is only ever run inlined.
            Stmt::Halt(_) | Stmt::Return(None, _) => Ok(Vec::new()),
        }
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

impl ConcreteConfiguration for Config {
    /// `(G, H)` without the fresh variables that hold the locals of calls.
    fn global_state(&self) -> Valuation {
        self.valuation.retain(|x| !super::fresh::is_fresh(x))
    }

    fn current(&self) -> Option<(&Stmt, Valuation)> {
        Some((self.code.head()?, self.valuation.clone()))
    }
}

impl fmt::Display for Config {
    /// `⟨S, (G, H)⟩`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "⟨{}, {}⟩", self.code, ShowValuation(&self.valuation))
    }
}
