//! The concrete transition system of §3: configurations `⟨Γ, G⟩`, where `Γ`
//! is a stack of closures `(L, S)` with local valuations `L` and `G` values
//! the global variables. Expressions are evaluated in `V = L ∪ G`. Each rule
//! mirrors its symbolic counterpart in `symbolic.rs`.

use crate::checked;
use crate::eval::{eval_with, EvalError, Valuation};
use crate::program::{Block, Code, ErrorKind, Halt, Outcome, Program, Stmt};
use crate::system::{
    most_active, ConcreteConfiguration, Configuration, Options, Rule, Step, TransitionSystem,
};
use crate::term::{Name, Sort, Term};
use crate::value::Value;
use std::fmt;
use std::rc::Rc;
use std::slice;

/// A closure `(L, S)`; `procedure` names the called procedure (`None` for main).
#[derive(Clone, PartialEq, Eq)]
pub struct Frame {
    pub locals: Valuation,
    pub code: Code,
    pub procedure: Option<Name>,
}

/// `⟨Γ, G⟩`; the top of the stack `Γ` is `stack[0]`.
#[derive(Clone, PartialEq, Eq)]
pub struct Config {
    pub stack: im::Vector<Frame>,
    pub globals: Valuation,
}

impl Config {
    /// `(L ∪ G)(e)`, with `L` the top closure's local valuation.
    pub fn value(&self, e: &Term) -> Result<Value, EvalError> {
        let locals = self.stack.front().map(|frame| &frame.locals);
        eval_with(e, |x| {
            locals
                .and_then(|l| l.get(x))
                .or_else(|| self.globals.get(x))
                .cloned()
        })
    }

    fn holds(&self, b: &Term) -> Result<bool, EvalError> {
        self.value(b)?
            .as_bool()
            .ok_or_else(|| EvalError::IllTyped(format!("`{b}` is not boolean")))
    }

    fn top(&self) -> Option<&Frame> {
        self.stack.front()
    }
}

/// The concrete semantics of a program with procedures.
pub struct Concrete {
    program: Rc<Program>,
    options: Options,
}

type Steps = Result<Vec<Step<Config>>, EvalError>;

impl Concrete {
    pub fn new(program: Rc<Program>, options: Options) -> Result<Concrete, String> {
        super::check_recursive(&program)?;
        Ok(Concrete { program, options })
    }

    /// `⟨(∅, S), G⟩` for the main statement `S` and the inputs `G`.
    pub fn initial(&self, globals: Valuation) -> Config {
        let main = Frame {
            locals: Valuation::new(),
            code: Code::empty().push(&self.program.main),
            procedure: None,
        };
        Config {
            stack: im::vector![main],
            globals,
        }
    }

    /// The step to `⟨(L', S)·Γ, G'⟩`: the top closure replaced.
    fn step(rule: Rule, c: &Config, top: Frame, globals: Valuation) -> Steps {
        let mut stack = c.stack.clone();
        stack.set(0, top);
        Ok(Concrete::step_to(rule, stack, globals))
    }

    fn step_to(rule: Rule, stack: im::Vector<Frame>, globals: Valuation) -> Vec<Step<Config>> {
        vec![Step {
            rule,
            guard: Term::bool(true),
            next: Config { stack, globals },
        }]
    }

    fn continue_with(frame: &Frame, code: Code) -> Frame {
        Frame {
            code,
            ..frame.clone()
        }
    }

    /// With `--checked-arrays`, `Some(⟨(L, array-out-of-bound)·Γ, G⟩)` when
    /// `V(δ(e))` is false for one of `terms` (§2.1).
    fn out_of_bound(
        &self,
        c: &Config,
        frame: &Frame,
        terms: &[Term],
    ) -> Result<Option<Vec<Step<Config>>>, EvalError> {
        if !checked::out_of_bound(self.options, terms, |e| c.value(e))? {
            return Ok(None);
        }
        let top = Concrete::continue_with(frame, checked::array_out_of_bound());
        Concrete::step(Rule::ArrayOutOfBound, c, top, c.globals.clone()).map(Some)
    }

    /// `⟨(L, skip; S)·Γ, G⟩ → ⟨(L, S)·Γ, G⟩`
    fn concrete_skip(&self, c: &Config, frame: &Frame, rest: Code) -> Steps {
        Concrete::step(
            Rule::Skip,
            c,
            Concrete::continue_with(frame, rest),
            c.globals.clone(),
        )
    }

    /// `⟨(L, x := e; S)·Γ, G⟩ → ⟨(L, S)·Γ, G[x := V(e)]⟩`, `x` global
    /// (§3, concrete assignment global variable)
    fn concrete_global_assignment(
        &self,
        c: &Config,
        frame: &Frame,
        x: &Name,
        e: &Term,
        rest: Code,
    ) -> Steps {
        if let Some(error) = self.out_of_bound(c, frame, slice::from_ref(e))? {
            return Ok(error);
        }
        let globals = c.globals.update(x.clone(), c.value(e)?);
        Concrete::step(
            Rule::GlobalAssignment,
            c,
            Concrete::continue_with(frame, rest),
            globals,
        )
    }

    /// `⟨(L, u := e; S)·Γ, G⟩ → ⟨(L[u := V(e)], S)·Γ, G⟩`, `u` local
    /// (§3, concrete assignment local variable)
    fn concrete_local_assignment(
        &self,
        c: &Config,
        frame: &Frame,
        u: &Name,
        e: &Term,
        rest: Code,
    ) -> Steps {
        if let Some(error) = self.out_of_bound(c, frame, slice::from_ref(e))? {
            return Ok(error);
        }
        let top = Frame {
            locals: frame.locals.update(u.clone(), c.value(e)?),
            code: rest,
            procedure: frame.procedure.clone(),
        };
        Concrete::step(Rule::LocalAssignment, c, top, c.globals.clone())
    }

    /// `⟨(L, a[e] := e'; S)·Γ, G⟩ → ⟨(L, S)·Γ, G[a := G(a)[V(e) := V(e')]]⟩`  (§2.1)
    fn concrete_array_assignment(
        &self,
        c: &Config,
        frame: &Frame,
        a: &Name,
        e: &Term,
        e2: &Term,
        rest: Code,
    ) -> Steps {
        let array = Term::var(
            a,
            self.program
                .globals
                .get(a)
                .cloned()
                .unwrap_or_else(Sort::int_array),
        );
        if let Some(error) = self.out_of_bound(
            c,
            frame,
            &[Term::select(array.clone(), e.clone()), e2.clone()],
        )? {
            return Ok(error);
        }
        let globals = c.globals.update(
            a.clone(),
            c.value(&Term::store(array, e.clone(), e2.clone()))?,
        );
        Concrete::step(
            Rule::ArrayAssignment,
            c,
            Concrete::continue_with(frame, rest),
            globals,
        )
    }

    /// `⟨(L, P(ē); S)·Γ, G⟩ → ⟨(L', S')·(L, S)·Γ, G⟩` with
    /// `L'(ū) = (L ∪ G)(ē)`, for `P(ū) :: S'` (§3, concrete procedure call)
    fn concrete_procedure_call(
        &self,
        c: &Config,
        frame: &Frame,
        p: &Name,
        args: &[Term],
        rest: Code,
    ) -> Steps {
        let Some(declaration) = super::declaration(&self.program, p) else {
            return Ok(Vec::new());
        };
        if let Some(error) = self.out_of_bound(c, frame, args)? {
            return Ok(error);
        }
        let mut locals = Valuation::new();
        for ((u, _), e) in declaration.params.iter().zip(args) {
            locals.insert(u.clone(), c.value(e)?);
        }
        let callee = Frame {
            locals,
            code: Code::empty().push(&declaration.body),
            procedure: Some(p.clone()),
        };
        let mut stack = c.stack.clone();
        stack.set(0, Concrete::continue_with(frame, rest));
        stack.push_front(callee);
        Ok(Concrete::step_to(
            Rule::ProcedureCall,
            stack,
            c.globals.clone(),
        ))
    }

    /// `⟨(L, ε)·Γ, G⟩ → ⟨Γ, G⟩`  (§3, concrete procedure return)
    fn concrete_procedure_return(&self, c: &Config) -> Steps {
        let mut stack = c.stack.clone();
        stack.pop_front();
        Ok(Concrete::step_to(
            Rule::ProcedureReturn,
            stack,
            c.globals.clone(),
        ))
    }

    /// `⟨(L, if b {S₁}{S₂}; S)·Γ, G⟩ → ⟨(L, S₁; S)·Γ, G⟩` if `V(b)`, else
    /// `→ ⟨(L, S₂; S)·Γ, G⟩`  (§3, concrete choice)
    fn concrete_choice(
        &self,
        c: &Config,
        frame: &Frame,
        b: &Term,
        then: &Block,
        otherwise: &Block,
        rest: Code,
    ) -> Steps {
        if let Some(error) = self.out_of_bound(c, frame, slice::from_ref(b))? {
            return Ok(error);
        }
        let (rule, branch) = if c.holds(b)? {
            (Rule::ChoiceThen, then)
        } else {
            (Rule::ChoiceElse, otherwise)
        };
        Concrete::step(
            rule,
            c,
            Concrete::continue_with(frame, rest.push(branch)),
            c.globals.clone(),
        )
    }

    /// `⟨(L, while b {S}; S')·Γ, G⟩ → ⟨(L, S; while b {S}; S')·Γ, G⟩` if
    /// `V(b)`, else `→ ⟨(L, S')·Γ, G⟩`  (§3, concrete iteration)
    fn concrete_iteration(
        &self,
        c: &Config,
        frame: &Frame,
        b: &Term,
        body: &Block,
        rest: Code,
    ) -> Steps {
        if let Some(error) = self.out_of_bound(c, frame, slice::from_ref(b))? {
            return Ok(error);
        }
        let (rule, code) = if c.holds(b)? {
            (Rule::IterationEnter, frame.code.push(body))
        } else {
            (Rule::IterationExit, rest)
        };
        Concrete::step(
            rule,
            c,
            Concrete::continue_with(frame, code),
            c.globals.clone(),
        )
    }

    /// `⟨(L, assert e; S)·Γ, G⟩ → ⟨(L, S)·Γ, G⟩` if `V(e)`, else
    /// `→ ⟨(L, assertion-failed)·Γ, G⟩`
    fn concrete_assert(&self, c: &Config, frame: &Frame, e: &Term, rest: Code) -> Steps {
        if let Some(error) = self.out_of_bound(c, frame, slice::from_ref(e))? {
            return Ok(error);
        }
        let (rule, code) = if c.holds(e)? {
            (Rule::AssertHolds, rest)
        } else {
            (
                Rule::AssertFails,
                checked::halted(Halt::Error(ErrorKind::AssertionFailed)),
            )
        };
        Concrete::step(
            rule,
            c,
            Concrete::continue_with(frame, code),
            c.globals.clone(),
        )
    }

    /// `⟨(L, assume e; S)·Γ, G⟩ → ⟨(L, S)·Γ, G⟩` if `V(e)`, else
    /// `→ ⟨(L, assumption-violated)·Γ, G⟩`
    fn concrete_assume(&self, c: &Config, frame: &Frame, e: &Term, rest: Code) -> Steps {
        if let Some(error) = self.out_of_bound(c, frame, slice::from_ref(e))? {
            return Ok(error);
        }
        let (rule, code) = if c.holds(e)? {
            (Rule::Assume, rest)
        } else {
            (
                Rule::AssumptionViolated,
                checked::halted(Halt::AssumptionViolated),
            )
        };
        Concrete::step(
            rule,
            c,
            Concrete::continue_with(frame, code),
            c.globals.clone(),
        )
    }
}

impl TransitionSystem for Concrete {
    type Config = Config;

    /// The successor of `c`; none if `c` is terminal or its expressions have no value.
    fn successors(&self, c: &Config) -> Vec<Step<Config>> {
        self.try_successors(c).unwrap_or_default()
    }

    /// The successor of `c`, or why its expressions have no value (when
    /// `G` lacks a variable or has one of the wrong type, or an integer
    /// outgrows the evaluator's bound).
    fn try_successors(&self, c: &Config) -> Steps {
        let Some(frame) = c.top() else {
            return Ok(Vec::new());
        };
        let Some((head, rest)) = frame.code.split() else {
            // The main closure has no caller: ⟨(L, ε), G⟩ is terminal.
            return if c.stack.len() > 1 {
                self.concrete_procedure_return(c)
            } else {
                Ok(Vec::new())
            };
        };
        match head {
            Stmt::Skip => self.concrete_skip(c, frame, rest),
            Stmt::Assign(x, e) if super::is_local(&self.program, frame.procedure.as_ref(), x) => {
                self.concrete_local_assignment(c, frame, x, e, rest)
            }
            Stmt::Assign(x, e) => self.concrete_global_assignment(c, frame, x, e, rest),
            Stmt::ArrayAssign(a, e, e2) => self.concrete_array_assignment(c, frame, a, e, e2, rest),
            Stmt::Call(p, args) => self.concrete_procedure_call(c, frame, p, args, rest),
            Stmt::If(b, then, otherwise) => {
                self.concrete_choice(c, frame, b, then, otherwise, rest)
            }
            Stmt::While(_, b, body) => self.concrete_iteration(c, frame, b, body, rest),
            Stmt::Assert(e) => self.concrete_assert(c, frame, e, rest),
            Stmt::Assume(e) => self.concrete_assume(c, frame, e, rest),
            // `Halt` is terminal; oo statements never occur (`new` rejects classes).
            _ => Ok(Vec::new()),
        }
    }
}

impl Configuration for Config {
    fn outcome(&self) -> Option<Outcome> {
        super::outcome(self.stack.len(), self.top().map(|frame| &frame.code))
    }

    fn head(&self) -> Option<&Stmt> {
        self.top().and_then(|frame| frame.code.head())
    }

    fn frames(&self) -> usize {
        self.stack.len()
    }

    fn max_active_calls(&self) -> usize {
        most_active(
            self.stack
                .iter()
                .filter_map(|frame| frame.procedure.as_ref()),
        )
    }
}

impl ConcreteConfiguration for Config {
    fn global_state(&self) -> Valuation {
        self.globals.clone()
    }
}

impl fmt::Display for Config {
    /// `⟨(L, S)·(L', S')·…, G⟩`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "⟨")?;
        for (i, frame) in self.stack.iter().enumerate() {
            if i > 0 {
                write!(f, " · ")?;
            }
            write!(
                f,
                "({}, {})",
                crate::eval::ShowValuation(&frame.locals),
                frame.code
            )?;
        }
        write!(f, ", {}⟩", crate::eval::ShowValuation(&self.globals))
    }
}
