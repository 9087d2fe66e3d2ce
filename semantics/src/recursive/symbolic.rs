//! The symbolic transition system of §3: configurations `⟨Δ, σ, φ⟩`, where
//! `Δ` is a stack of closures `(τ, S)` with local substitutions `τ`, `σ` is
//! the global substitution and `φ` the path condition. Expressions are
//! evaluated under `θ = τ ∪ σ`. Arrays (§2.1) and `assert`/`assume` as in §2.

use crate::checked;
use crate::program::{Block, Code, ErrorKind, Halt, Outcome, Point, Program, Stmt};
use crate::subst::{substitute, Substitution};
use crate::system::{
    most_active, Configuration, Options, Rule, Step, SymbolicConfiguration, TransitionSystem,
};
use crate::term::{Name, Sort, Term};
use std::fmt;
use std::rc::Rc;
use std::slice;

/// A closure `(τ, S)`: the local substitution and the statement of one
/// activation; `procedure` names the called procedure (`None` for main).
#[derive(Clone, PartialEq, Eq)]
pub struct Frame {
    pub tau: Substitution,
    pub code: Code,
    pub procedure: Option<Name>,
}

/// `⟨Δ, σ, φ⟩`; the top of the stack `Δ` is `stack[0]`.
#[derive(Clone, PartialEq, Eq)]
pub struct Config {
    pub stack: im::Vector<Frame>,
    pub sigma: Substitution,
    pub phi: Term,
    program: Rc<Program>,
}

impl Config {
    /// `eθ` for `θ = τ ∪ σ`, with `τ` the top closure's local substitution.
    pub fn theta(&self, e: &Term) -> Term {
        let tau = self.stack.front().map(|frame| &frame.tau);
        substitute(e, |x| {
            tau.and_then(|tau| tau.lookup(x))
                .or_else(|| self.sigma.lookup(x))
                .cloned()
        })
    }

    fn top(&self) -> Option<&Frame> {
        self.stack.front()
    }
}

/// The symbolic semantics of a program with procedures.
pub struct Symbolic {
    program: Rc<Program>,
    options: Options,
}

impl Symbolic {
    pub fn new(program: Rc<Program>, options: Options) -> Result<Symbolic, String> {
        super::check_recursive(&program)?;
        Ok(Symbolic { program, options })
    }

    /// `⟨(id, S), id, true⟩` for the main statement `S`.
    pub fn initial(&self) -> Config {
        let main = Frame {
            tau: Substitution::identity(),
            code: Code::empty().push(&self.program.main),
            procedure: None,
        };
        Config {
            stack: im::vector![main],
            sigma: Substitution::identity(),
            phi: Term::bool(true),
            program: self.program.clone(),
        }
    }

    /// The step to `⟨(τ', S)·Δ, σ', φ ∧ guard⟩`: the top closure replaced.
    fn step(
        &self,
        rule: Rule,
        c: &Config,
        guard: Term,
        top: Frame,
        sigma: Substitution,
    ) -> Step<Config> {
        let mut stack = c.stack.clone();
        stack.set(0, top);
        self.step_to(rule, c, guard, stack, sigma)
    }

    fn step_to(
        &self,
        rule: Rule,
        c: &Config,
        guard: Term,
        stack: im::Vector<Frame>,
        sigma: Substitution,
    ) -> Step<Config> {
        let phi = Term::and(c.phi.clone(), guard.clone());
        Step {
            rule,
            guard,
            next: Config {
                stack,
                sigma,
                phi,
                program: c.program.clone(),
            },
        }
    }

    /// The top closure `(τ, S)` continuing with `code`.
    fn continue_with(frame: &Frame, code: Code) -> Frame {
        Frame {
            code,
            ..frame.clone()
        }
    }

    /// `⟨(τ, array-out-of-bound)·Δ, σ, φ ∧ ¬d⟩` (§2.1), left out when `d` is
    /// trivially true (its path condition would be `false`).
    fn out_of_bound(&self, c: &Config, frame: &Frame, d: &Term) -> Option<Step<Config>> {
        (!d.is_true()).then(|| {
            let top = Self::continue_with(frame, checked::array_out_of_bound());
            self.step(
                Rule::ArrayOutOfBound,
                c,
                Term::not(d.clone()),
                top,
                c.sigma.clone(),
            )
        })
    }

    /// `⟨(τ, skip; S)·Δ, σ, φ⟩ → ⟨(τ, S)·Δ, σ, φ⟩`
    fn symbolic_skip(&self, c: &Config, frame: &Frame, rest: Code) -> Vec<Step<Config>> {
        vec![self.step(
            Rule::Skip,
            c,
            Term::bool(true),
            Self::continue_with(frame, rest),
            c.sigma.clone(),
        )]
    }

    /// `⟨(τ, x := e; S)·Δ, σ, φ⟩ → ⟨(τ, S)·Δ, σ[x := eθ], φ⟩`, `x` global
    /// (§3, symbolic assignment global variable); checked: `∧ δ(eθ)`
    fn symbolic_global_assignment(
        &self,
        c: &Config,
        frame: &Frame,
        x: &Name,
        e: &Term,
        rest: Code,
    ) -> Vec<Step<Config>> {
        let e_theta = c.theta(e);
        let d = checked::defined(self.options, slice::from_ref(&e_theta));
        let sigma = c.sigma.update(x.clone(), e_theta);
        let mut steps = vec![self.step(
            Rule::GlobalAssignment,
            c,
            d.clone(),
            Self::continue_with(frame, rest),
            sigma,
        )];
        steps.extend(self.out_of_bound(c, frame, &d));
        steps
    }

    /// `⟨(τ, u := e; S)·Δ, σ, φ⟩ → ⟨(τ[u := eθ], S)·Δ, σ, φ⟩`, `u` local
    /// (§3, symbolic assignment local variable); checked: `∧ δ(eθ)`
    fn symbolic_local_assignment(
        &self,
        c: &Config,
        frame: &Frame,
        u: &Name,
        e: &Term,
        rest: Code,
    ) -> Vec<Step<Config>> {
        let e_theta = c.theta(e);
        let d = checked::defined(self.options, slice::from_ref(&e_theta));
        let top = Frame {
            tau: frame.tau.update(u.clone(), e_theta),
            code: rest,
            procedure: frame.procedure.clone(),
        };
        let mut steps = vec![self.step(Rule::LocalAssignment, c, d.clone(), top, c.sigma.clone())];
        steps.extend(self.out_of_bound(c, frame, &d));
        steps
    }

    /// `⟨(τ, a[e] := e'; S)·Δ, σ, φ⟩ → ⟨(τ, S)·Δ, σ[a := (σ(a)[eθ] := e'θ)], φ⟩`
    /// (§2.1 under θ; arrays are global); checked: `∧ δ(a[eθ]) ∧ δ(e'θ)`
    fn symbolic_array_assignment(
        &self,
        c: &Config,
        frame: &Frame,
        a: &Name,
        e: &Term,
        e2: &Term,
        rest: Code,
    ) -> Vec<Step<Config>> {
        let array = Term::var(
            a,
            self.program
                .globals
                .get(a)
                .cloned()
                .unwrap_or_else(Sort::int_array),
        );
        let (e_theta, e2_theta) = (c.theta(e), c.theta(e2));
        let d = checked::defined(
            self.options,
            &[
                Term::select(array.clone(), e_theta.clone()),
                e2_theta.clone(),
            ],
        );
        let sigma = c
            .sigma
            .update(a.clone(), Term::store(c.theta(&array), e_theta, e2_theta));
        let mut steps = vec![self.step(
            Rule::ArrayAssignment,
            c,
            d.clone(),
            Self::continue_with(frame, rest),
            sigma,
        )];
        steps.extend(self.out_of_bound(c, frame, &d));
        steps
    }

    /// `⟨(τ, P(ē); S)·Δ, σ, φ⟩ → ⟨(τ', S')·(τ, S)·Δ, σ, φ⟩` with
    /// `τ'(ū) = ē(τ ∪ σ)`, for `P(ū) :: S'` (§3, symbolic procedure call);
    /// checked: `∧ δ(ēθ)`
    fn symbolic_procedure_call(
        &self,
        c: &Config,
        frame: &Frame,
        p: &Name,
        args: &[Term],
        rest: Code,
    ) -> Vec<Step<Config>> {
        let Some(declaration) = super::declaration(&self.program, p) else {
            return Vec::new();
        };
        let actuals: Vec<Term> = args.iter().map(|e| c.theta(e)).collect();
        let d = checked::defined(self.options, &actuals);
        let tau: Substitution = declaration
            .params
            .iter()
            .map(|(u, _)| u.clone())
            .zip(actuals)
            .collect();
        let callee = Frame {
            tau,
            code: Code::empty().push(&declaration.body),
            procedure: Some(p.clone()),
        };
        let mut stack = c.stack.clone();
        stack.set(0, Self::continue_with(frame, rest));
        stack.push_front(callee);
        let mut steps =
            vec![self.step_to(Rule::ProcedureCall, c, d.clone(), stack, c.sigma.clone())];
        steps.extend(self.out_of_bound(c, frame, &d));
        steps
    }

    /// `⟨(τ, ε)·Δ, σ, φ⟩ → ⟨Δ, σ, φ⟩`  (§3, symbolic procedure return)
    fn symbolic_procedure_return(&self, c: &Config) -> Vec<Step<Config>> {
        let mut stack = c.stack.clone();
        stack.pop_front();
        vec![self.step_to(
            Rule::ProcedureReturn,
            c,
            Term::bool(true),
            stack,
            c.sigma.clone(),
        )]
    }

    /// `⟨(τ, if b {S₁}{S₂}; S)·Δ, σ, φ⟩ → ⟨(τ, S₁; S)·Δ, σ, φ ∧ bθ⟩` and
    /// `→ ⟨(τ, S₂; S)·Δ, σ, φ ∧ ¬bθ⟩`  (§3, symbolic choice); checked: `∧ δ(bθ)`
    fn symbolic_choice(
        &self,
        c: &Config,
        frame: &Frame,
        b: &Term,
        then: &Block,
        otherwise: &Block,
        rest: Code,
    ) -> Vec<Step<Config>> {
        let b_theta = c.theta(b);
        let d = checked::defined(self.options, slice::from_ref(&b_theta));
        let mut steps = vec![
            self.step(
                Rule::ChoiceThen,
                c,
                Term::and(d.clone(), b_theta.clone()),
                Self::continue_with(frame, rest.push(then)),
                c.sigma.clone(),
            ),
            self.step(
                Rule::ChoiceElse,
                c,
                Term::and(d.clone(), Term::not(b_theta)),
                Self::continue_with(frame, rest.push(otherwise)),
                c.sigma.clone(),
            ),
        ];
        steps.extend(self.out_of_bound(c, frame, &d));
        steps
    }

    /// `⟨(τ, while b {S}; S')·Δ, σ, φ⟩ → ⟨(τ, S; while b {S}; S')·Δ, σ, φ ∧ bθ⟩`
    /// and `→ ⟨(τ, S')·Δ, σ, φ ∧ ¬bθ⟩`  (§3, symbolic iteration); checked: `∧ δ(bθ)`
    fn symbolic_iteration(
        &self,
        c: &Config,
        frame: &Frame,
        b: &Term,
        body: &Block,
        rest: Code,
    ) -> Vec<Step<Config>> {
        let b_theta = c.theta(b);
        let d = checked::defined(self.options, slice::from_ref(&b_theta));
        let mut steps = vec![
            self.step(
                Rule::IterationEnter,
                c,
                Term::and(d.clone(), b_theta.clone()),
                Self::continue_with(frame, frame.code.push(body)),
                c.sigma.clone(),
            ),
            self.step(
                Rule::IterationExit,
                c,
                Term::and(d.clone(), Term::not(b_theta)),
                Self::continue_with(frame, rest),
                c.sigma.clone(),
            ),
        ];
        steps.extend(self.out_of_bound(c, frame, &d));
        steps
    }

    /// `⟨(τ, assert e; S)·Δ, σ, φ⟩ → ⟨(τ, S)·Δ, σ, φ ∧ eθ⟩` and
    /// `→ ⟨(τ, assertion-failed)·Δ, σ, φ ∧ ¬eθ⟩`; checked: `∧ δ(eθ)`
    fn symbolic_assert(
        &self,
        c: &Config,
        frame: &Frame,
        e: &Term,
        rest: Code,
    ) -> Vec<Step<Config>> {
        let e_theta = c.theta(e);
        let d = checked::defined(self.options, slice::from_ref(&e_theta));
        let failed = Self::continue_with(
            frame,
            checked::halted(Halt::Error(ErrorKind::AssertionFailed)),
        );
        let mut steps = vec![
            self.step(
                Rule::AssertHolds,
                c,
                Term::and(d.clone(), e_theta.clone()),
                Self::continue_with(frame, rest),
                c.sigma.clone(),
            ),
            self.step(
                Rule::AssertFails,
                c,
                Term::and(d.clone(), Term::not(e_theta)),
                failed,
                c.sigma.clone(),
            ),
        ];
        steps.extend(self.out_of_bound(c, frame, &d));
        steps
    }

    /// `⟨(τ, assume e; S)·Δ, σ, φ⟩ → ⟨(τ, S)·Δ, σ, φ ∧ eθ⟩`; checked: `∧ δ(eθ)`
    fn symbolic_assume(
        &self,
        c: &Config,
        frame: &Frame,
        e: &Term,
        rest: Code,
    ) -> Vec<Step<Config>> {
        let e_theta = c.theta(e);
        let d = checked::defined(self.options, slice::from_ref(&e_theta));
        let mut steps = vec![self.step(
            Rule::Assume,
            c,
            Term::and(d.clone(), e_theta),
            Self::continue_with(frame, rest),
            c.sigma.clone(),
        )];
        steps.extend(self.out_of_bound(c, frame, &d));
        steps
    }
}

impl TransitionSystem for Symbolic {
    type Config = Config;

    fn successors(&self, c: &Config) -> Vec<Step<Config>> {
        let Some(frame) = c.top() else {
            return Vec::new();
        };
        let Some((head, rest)) = frame.code.split() else {
            // The main closure has no caller: ⟨(id, ε), σ, φ⟩ is terminal.
            return if c.stack.len() > 1 {
                self.symbolic_procedure_return(c)
            } else {
                Vec::new()
            };
        };
        match head {
            Stmt::Skip => self.symbolic_skip(c, frame, rest),
            Stmt::Assign(x, e) if super::is_local(&self.program, frame.procedure.as_ref(), x) => {
                self.symbolic_local_assignment(c, frame, x, e, rest)
            }
            Stmt::Assign(x, e) => self.symbolic_global_assignment(c, frame, x, e, rest),
            Stmt::ArrayAssign(a, e, e2) => self.symbolic_array_assignment(c, frame, a, e, e2, rest),
            Stmt::Call(p, args) => self.symbolic_procedure_call(c, frame, p, args, rest),
            Stmt::If(b, then, otherwise) => {
                self.symbolic_choice(c, frame, b, then, otherwise, rest)
            }
            Stmt::While(_, b, body) => self.symbolic_iteration(c, frame, b, body, rest),
            Stmt::Assert(e) => self.symbolic_assert(c, frame, e, rest),
            Stmt::Assume(e) => self.symbolic_assume(c, frame, e, rest),
            // `Halt` is terminal; oo statements never occur (`new` rejects classes).
            _ => Vec::new(),
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

impl SymbolicConfiguration for Config {
    const CONDENSES: bool = true;

    fn path_condition(&self) -> &Term {
        &self.phi
    }

    fn global_state(&self) -> Vec<(Name, Term)> {
        self.sigma.state(&self.program.globals)
    }

    /// Only the top closure's `τ` is folded: a step changes no other, and
    /// each was folded while it was on top.
    fn condense(&mut self, path_condition: &Term, fold: &mut dyn FnMut(&Term) -> Term) {
        self.phi = path_condition.clone();
        self.sigma = self.sigma.map_values(&mut *fold);
        if let Some(top) = self.stack.front_mut() {
            top.tau = top.tau.map_values(fold);
        }
    }

    fn continuation(&self) -> Option<Vec<&Stmt>> {
        Some(self.stack.iter().flat_map(|frame| frame.code.statements()).collect())
    }

    fn point(&self) -> Option<Point> {
        let mut point = Point::default();
        for frame in &self.stack {
            frame.code.extend_point(&mut point);
            point.end_frame();
        }
        Some(point)
    }

    /// `⟨(τ₁ ⊔ τ₁', S₁)·…, σ ⊔ σ', φ⟩`: the frames run the same statements.
    fn join(
        &self,
        other: &Config,
        phi: Term,
        value: &mut dyn FnMut(&Name, &Term, &Term) -> Term,
    ) -> Option<Config> {
        let stack = self
            .stack
            .iter()
            .zip(&other.stack)
            .map(|(mine, theirs)| Frame {
                tau: mine.tau.join(&theirs.tau, value),
                ..mine.clone()
            })
            .collect();
        Some(Config {
            stack,
            sigma: self.sigma.join(&other.sigma, value),
            phi,
            program: self.program.clone(),
        })
    }
}

impl fmt::Display for Config {
    /// `⟨(τ, S)·(τ', S')·…, σ, φ⟩`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "⟨")?;
        for (i, frame) in self.stack.iter().enumerate() {
            if i > 0 {
                write!(f, " · ")?;
            }
            write!(f, "({}, {})", frame.tau, frame.code)?;
        }
        write!(f, ", {}, {}⟩", self.sigma, self.phi)
    }
}
