//! The symbolic transition system of §2: configurations `⟨S, σ, φ⟩`, with
//! the array extension of §2.1 and the `assert`/`assume` extensions.

use crate::checked;
use crate::program::{Block, Code, ErrorKind, Halt, Outcome, Point, Program, Stmt};
use crate::subst::Substitution;
use crate::system::{Configuration, Options, Rule, Step, SymbolicConfiguration, TransitionSystem};
use crate::term::{Name, Sort, Term};
use std::fmt;
use std::rc::Rc;
use std::slice;

/// `⟨S, σ, φ⟩`: statement to execute, substitution, path condition.
#[derive(Clone, PartialEq, Eq)]
pub struct Config {
    pub code: Code,
    pub sigma: Substitution,
    pub phi: Term,
    program: Rc<Program>,
}

/// The symbolic semantics of a basic program.
pub struct Symbolic {
    program: Rc<Program>,
    options: Options,
}

impl Symbolic {
    pub fn new(program: Rc<Program>, options: Options) -> Result<Symbolic, String> {
        super::check_basic(&program)?;
        Ok(Symbolic { program, options })
    }

    /// `⟨S, id, true⟩` for the main statement `S`.
    pub fn initial(&self) -> Config {
        Config {
            code: Code::empty().push(&self.program.main),
            sigma: Substitution::identity(),
            phi: Term::bool(true),
            program: self.program.clone(),
        }
    }

    fn step(
        &self,
        rule: Rule,
        c: &Config,
        guard: Term,
        code: Code,
        sigma: Substitution,
    ) -> Step<Config> {
        let phi = Term::and(c.phi.clone(), guard.clone());
        Step {
            rule,
            guard,
            next: Config {
                code,
                sigma,
                phi,
                program: c.program.clone(),
            },
        }
    }

    /// `δ(e₁σ) ∧ … ∧ δ(eₙσ)` with `--checked-arrays`, else `true`.
    fn defined(&self, terms: &[Term]) -> Term {
        checked::defined(self.options, terms)
    }

    /// `⟨array-out-of-bound, σ, φ ∧ ¬d⟩` (§2.1), left out when `d` is
    /// trivially true: that configuration's path condition is `false`.
    fn out_of_bound(&self, c: &Config, d: &Term) -> Option<Step<Config>> {
        (!d.is_true()).then(|| {
            let code = checked::array_out_of_bound();
            self.step(
                Rule::ArrayOutOfBound,
                c,
                Term::not(d.clone()),
                code,
                c.sigma.clone(),
            )
        })
    }

    /// `⟨skip; S, σ, φ⟩ → ⟨S, σ, φ⟩`
    fn symbolic_skip(&self, c: &Config, rest: Code) -> Vec<Step<Config>> {
        vec![self.step(Rule::Skip, c, Term::bool(true), rest, c.sigma.clone())]
    }

    /// `⟨x := e; S, σ, φ⟩ → ⟨S, σ[x := eσ], φ⟩`  (§2, symbolic assignment);
    /// checked: `∧ δ(eσ)`, and `→ ⟨array-out-of-bound, σ, φ ∧ ¬δ(eσ)⟩` (§2.1)
    fn symbolic_assignment(&self, c: &Config, x: &Name, e: &Term, rest: Code) -> Vec<Step<Config>> {
        let e_sigma = c.sigma.apply(e);
        let d = self.defined(slice::from_ref(&e_sigma));
        let sigma = c.sigma.update(x.clone(), e_sigma);
        let mut steps = vec![self.step(Rule::Assignment, c, d.clone(), rest, sigma)];
        steps.extend(self.out_of_bound(c, &d));
        steps
    }

    /// `⟨a[e] := e'; S, σ, φ⟩ → ⟨S, σ[a := (σ(a)[eσ] := e'σ)], φ⟩`  (§2.1,
    /// array assignment: `a := (a[e] := e')`); checked: `∧ δ(a[eσ]) ∧ δ(e'σ)`,
    /// and `→ ⟨array-out-of-bound, σ, φ ∧ ¬(δ(a[eσ]) ∧ δ(e'σ))⟩`
    fn symbolic_array_assignment(
        &self,
        c: &Config,
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
        let a_sigma = c.sigma.apply(&array);
        let (e_sigma, e2_sigma) = (c.sigma.apply(e), c.sigma.apply(e2));
        let d = self.defined(&[Term::select(array, e_sigma.clone()), e2_sigma.clone()]);
        let sigma = c
            .sigma
            .update(a.clone(), Term::store(a_sigma, e_sigma, e2_sigma));
        let mut steps = vec![self.step(Rule::ArrayAssignment, c, d.clone(), rest, sigma)];
        steps.extend(self.out_of_bound(c, &d));
        steps
    }

    /// `⟨if b {S₁}{S₂}; S, σ, φ⟩ → ⟨S₁; S, σ, φ ∧ bσ⟩` and
    /// `→ ⟨S₂; S, σ, φ ∧ ¬bσ⟩`  (§2, symbolic choice); checked: both `∧ δ(bσ)`,
    /// and `→ ⟨array-out-of-bound, σ, φ ∧ ¬δ(bσ)⟩` (§2.1)
    fn symbolic_choice(
        &self,
        c: &Config,
        b: &Term,
        then: &Block,
        otherwise: &Block,
        rest: Code,
    ) -> Vec<Step<Config>> {
        let b_sigma = c.sigma.apply(b);
        let d = self.defined(slice::from_ref(&b_sigma));
        let mut steps = vec![
            self.step(
                Rule::ChoiceThen,
                c,
                Term::and(d.clone(), b_sigma.clone()),
                rest.push(then),
                c.sigma.clone(),
            ),
            self.step(
                Rule::ChoiceElse,
                c,
                Term::and(d.clone(), Term::not(b_sigma)),
                rest.push(otherwise),
                c.sigma.clone(),
            ),
        ];
        steps.extend(self.out_of_bound(c, &d));
        steps
    }

    /// `⟨while b {S}; S', σ, φ⟩ → ⟨S; while b {S}; S', σ, φ ∧ bσ⟩` and
    /// `→ ⟨S', σ, φ ∧ ¬bσ⟩`  (§2, symbolic iteration); checked as choice
    fn symbolic_iteration(
        &self,
        c: &Config,
        b: &Term,
        body: &Block,
        rest: Code,
    ) -> Vec<Step<Config>> {
        let b_sigma = c.sigma.apply(b);
        let d = self.defined(slice::from_ref(&b_sigma));
        let mut steps = vec![
            self.step(
                Rule::IterationEnter,
                c,
                Term::and(d.clone(), b_sigma.clone()),
                c.code.push(body),
                c.sigma.clone(),
            ),
            self.step(
                Rule::IterationExit,
                c,
                Term::and(d.clone(), Term::not(b_sigma)),
                rest,
                c.sigma.clone(),
            ),
        ];
        steps.extend(self.out_of_bound(c, &d));
        steps
    }

    /// `⟨assert e; S, σ, φ⟩ → ⟨S, σ, φ ∧ eσ⟩` and
    /// `→ ⟨assertion-failed, σ, φ ∧ ¬eσ⟩`  (EFFIGY's ASSERT); checked as choice
    fn symbolic_assert(&self, c: &Config, e: &Term, rest: Code) -> Vec<Step<Config>> {
        let e_sigma = c.sigma.apply(e);
        let d = self.defined(slice::from_ref(&e_sigma));
        let failed = checked::halted(Halt::Error(ErrorKind::AssertionFailed));
        let mut steps = vec![
            self.step(
                Rule::AssertHolds,
                c,
                Term::and(d.clone(), e_sigma.clone()),
                rest,
                c.sigma.clone(),
            ),
            self.step(
                Rule::AssertFails,
                c,
                Term::and(d.clone(), Term::not(e_sigma)),
                failed,
                c.sigma.clone(),
            ),
        ];
        steps.extend(self.out_of_bound(c, &d));
        steps
    }

    /// `⟨assume e; S, σ, φ⟩ → ⟨S, σ, φ ∧ eσ⟩`  (EFFIGY's ASSUME); checked:
    /// `∧ δ(eσ)`, and `→ ⟨array-out-of-bound, σ, φ ∧ ¬δ(eσ)⟩`
    fn symbolic_assume(&self, c: &Config, e: &Term, rest: Code) -> Vec<Step<Config>> {
        let e_sigma = c.sigma.apply(e);
        let d = self.defined(slice::from_ref(&e_sigma));
        let mut steps = vec![self.step(
            Rule::Assume,
            c,
            Term::and(d.clone(), e_sigma),
            rest,
            c.sigma.clone(),
        )];
        steps.extend(self.out_of_bound(c, &d));
        steps
    }
}

impl TransitionSystem for Symbolic {
    type Config = Config;

    fn successors(&self, c: &Config) -> Vec<Step<Config>> {
        let Some((head, rest)) = c.code.split() else {
            return Vec::new();
        };
        match head {
            Stmt::Skip => self.symbolic_skip(c, rest),
            Stmt::Assign(x, e) => self.symbolic_assignment(c, x, e, rest),
            Stmt::ArrayAssign(a, e, e2) => self.symbolic_array_assignment(c, a, e, e2, rest),
            Stmt::If(b, then, otherwise) => self.symbolic_choice(c, b, then, otherwise, rest),
            Stmt::While(_, b, body) => self.symbolic_iteration(c, b, body, rest),
            Stmt::Assert(e) => self.symbolic_assert(c, e, rest),
            Stmt::Assume(e) => self.symbolic_assume(c, e, rest),
            // `Halt` is terminal; calls and oo statements never occur (`new`
            // rejects programs that have them).
            _ => Vec::new(),
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
        0
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

    fn condense(&mut self, path_condition: &Term, fold: &mut dyn FnMut(&Term) -> Term) {
        self.phi = path_condition.clone();
        self.sigma = self.sigma.map_values(fold);
    }

    fn continuation(&self) -> Option<Vec<&Stmt>> {
        Some(self.code.statements())
    }

    fn rebuilt(
        &self,
        code: &dyn Fn(&Code) -> Code,
        updates: &[(Name, Term)],
        phi: Term,
    ) -> Option<Config> {
        let sigma = updates
            .iter()
            .fold(self.sigma.clone(), |sigma, (x, e)| sigma.update(x.clone(), e.clone()));
        Some(Config {
            code: code(&self.code),
            sigma,
            phi,
            program: self.program.clone(),
        })
    }

    fn point(&self) -> Option<Point> {
        let mut point = Point::default();
        self.code.extend_point(&mut point);
        Some(point)
    }

    /// `⟨S, σ₁ ⊔ σ₂, φ⟩`
    fn join(
        &self,
        other: &Config,
        phi: Term,
        value: &mut dyn FnMut(&Name, &Term, &Term) -> Term,
    ) -> Option<Config> {
        Some(Config {
            code: self.code.clone(),
            sigma: self.sigma.join(&other.sigma, value),
            phi,
            program: self.program.clone(),
        })
    }
}

impl fmt::Display for Config {
    /// `⟨S, σ, φ⟩`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "⟨{}, {}, {}⟩", self.code, self.sigma, self.phi)
    }
}
