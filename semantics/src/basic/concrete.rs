//! The concrete transition system of §2: configurations `⟨S, V⟩`, with the
//! array extension of §2.1 and the `assert`/`assume` extensions. Each rule
//! mirrors its symbolic counterpart in `symbolic.rs`.

use crate::checked;
use crate::eval::{eval, eval_bool, EvalError, Valuation};
use crate::program::{Block, Code, ErrorKind, Halt, Outcome, Program, Stmt};
use crate::reads::read_values;
use crate::system::{ConcreteConfiguration, Configuration, Options, Rule, Step, TransitionSystem};
use crate::term::{Name, Sort, Term};
use std::fmt;
use std::rc::Rc;
use std::slice;

/// `⟨S, V⟩`: statement to execute and valuation (and how many `havoc`
/// steps have read inputs, which the paper's language has not).
#[derive(Clone, PartialEq, Eq)]
pub struct Config {
    pub code: Code,
    pub valuation: Valuation,
    pub reads: u32,
}

/// The concrete semantics of a basic program.
pub struct Concrete {
    program: Rc<Program>,
    options: Options,
}

impl Concrete {
    pub fn new(program: Rc<Program>, options: Options) -> Result<Concrete, String> {
        super::check_basic(&program)?;
        Ok(Concrete { program, options })
    }

    /// `⟨S, V⟩` for the main statement `S` and the inputs `V`.
    pub fn initial(&self, valuation: Valuation) -> Config {
        Config {
            code: Code::empty().push(&self.program.main),
            valuation,
            reads: 0,
        }
    }

    fn step(c: &Config, rule: Rule, code: Code, valuation: Valuation) -> Vec<Step<Config>> {
        vec![Step {
            rule,
            guard: Term::bool(true),
            next: Config {
                code,
                valuation,
                reads: c.reads,
            },
        }]
    }

    /// With `--checked-arrays`, `Some(⟨array-out-of-bound, V⟩)` when `V(δ(e))`
    /// is false for one of `terms` (§2.1).
    fn out_of_bound(
        &self,
        c: &Config,
        terms: &[Term],
    ) -> Result<Option<Vec<Step<Config>>>, EvalError> {
        let out = checked::out_of_bound(self.options, terms, |e| eval(e, &c.valuation))?;
        Ok(out.then(|| {
            Concrete::step(
                c,
                Rule::ArrayOutOfBound,
                checked::array_out_of_bound(),
                c.valuation.clone(),
            )
        }))
    }

    /// `⟨skip; S, V⟩ → ⟨S, V⟩`
    fn concrete_skip(&self, c: &Config, rest: Code) -> Result<Vec<Step<Config>>, EvalError> {
        Ok(Concrete::step(c, Rule::Skip, rest, c.valuation.clone()))
    }

    /// `⟨x := e; S, V⟩ → ⟨S, V[x := V(e)]⟩`  (§2, concrete assignment)
    fn concrete_assignment(
        &self,
        c: &Config,
        x: &Name,
        e: &Term,
        rest: Code,
    ) -> Result<Vec<Step<Config>>, EvalError> {
        if let Some(error) = self.out_of_bound(c, slice::from_ref(e))? {
            return Ok(error);
        }
        let valuation = c.valuation.update(x.clone(), eval(e, &c.valuation)?);
        Ok(Concrete::step(c, Rule::Assignment, rest, valuation))
    }

    /// `⟨a[e] := e'; S, V⟩ → ⟨S, V[a := V(a)[V(e) := V(e')]]⟩`  (§2.1)
    fn concrete_array_assignment(
        &self,
        c: &Config,
        a: &Name,
        e: &Term,
        e2: &Term,
        rest: Code,
    ) -> Result<Vec<Step<Config>>, EvalError> {
        let array = Term::var(
            a,
            self.program
                .globals
                .get(a)
                .cloned()
                .unwrap_or_else(Sort::int_array),
        );
        if let Some(error) =
            self.out_of_bound(c, &[Term::select(array.clone(), e.clone()), e2.clone()])?
        {
            return Ok(error);
        }
        let updated = eval(&Term::store(array, e.clone(), e2.clone()), &c.valuation)?;
        Ok(Concrete::step(
            c,
            Rule::ArrayAssignment,
            rest,
            c.valuation.update(a.clone(), updated),
        ))
    }

    /// `⟨if b {S₁}{S₂}; S, V⟩ → ⟨S₁; S, V⟩` if `V(b)`, `→ ⟨S₂; S, V⟩` if
    /// `¬V(b)`  (§2, concrete choice)
    fn concrete_choice(
        &self,
        c: &Config,
        b: &Term,
        then: &Block,
        otherwise: &Block,
        rest: Code,
    ) -> Result<Vec<Step<Config>>, EvalError> {
        if let Some(error) = self.out_of_bound(c, slice::from_ref(b))? {
            return Ok(error);
        }
        Ok(if eval_bool(b, &c.valuation)? {
            Concrete::step(c, Rule::ChoiceThen, rest.push(then), c.valuation.clone())
        } else {
            Concrete::step(
                c,
                Rule::ChoiceElse,
                rest.push(otherwise),
                c.valuation.clone(),
            )
        })
    }

    /// `⟨while b {S}; S', V⟩ → ⟨S; while b {S}; S', V⟩` if `V(b)`,
    /// `→ ⟨S', V⟩` if `¬V(b)`  (§2, concrete iteration)
    fn concrete_iteration(
        &self,
        c: &Config,
        b: &Term,
        body: &Block,
        rest: Code,
    ) -> Result<Vec<Step<Config>>, EvalError> {
        if let Some(error) = self.out_of_bound(c, slice::from_ref(b))? {
            return Ok(error);
        }
        Ok(if eval_bool(b, &c.valuation)? {
            Concrete::step(
                c,
                Rule::IterationEnter,
                c.code.push(body),
                c.valuation.clone(),
            )
        } else {
            Concrete::step(c, Rule::IterationExit, rest, c.valuation.clone())
        })
    }

    /// `⟨assert e; S, V⟩ → ⟨S, V⟩` if `V(e)`, `→ ⟨assertion-failed, V⟩` if `¬V(e)`
    fn concrete_assert(
        &self,
        c: &Config,
        e: &Term,
        rest: Code,
    ) -> Result<Vec<Step<Config>>, EvalError> {
        if let Some(error) = self.out_of_bound(c, slice::from_ref(e))? {
            return Ok(error);
        }
        Ok(if eval_bool(e, &c.valuation)? {
            Concrete::step(c, Rule::AssertHolds, rest, c.valuation.clone())
        } else {
            let failed = checked::halted(Halt::Error(ErrorKind::AssertionFailed));
            Concrete::step(c, Rule::AssertFails, failed, c.valuation.clone())
        })
    }

    /// `⟨assume e; S, V⟩ → ⟨S, V⟩` if `V(e)`, `→ ⟨assumption-violated, V⟩` if `¬V(e)`
    fn concrete_assume(
        &self,
        c: &Config,
        e: &Term,
        rest: Code,
    ) -> Result<Vec<Step<Config>>, EvalError> {
        if let Some(error) = self.out_of_bound(c, slice::from_ref(e))? {
            return Ok(error);
        }
        Ok(if eval_bool(e, &c.valuation)? {
            Concrete::step(c, Rule::Assume, rest, c.valuation.clone())
        } else {
            let violated = checked::halted(Halt::AssumptionViolated);
            Concrete::step(c, Rule::AssumptionViolated, violated, c.valuation.clone())
        })
    }
}

impl Concrete {
    /// `⟨havoc x̄; S, V⟩ → ⟨S, V[x̄ := V(x̄ₙ)]⟩`: the `n`-th inputs read, as
    /// the valuation gives them (King's READ, [`crate::reads`]); `→
    /// ⟨assumption-violated, V⟩` when an array read changes a length
    fn concrete_havoc(&self, c: &Config, vars: &[(Name, Sort)], rest: Code) -> Vec<Step<Config>> {
        let n = c.reads + 1;
        let mut steps = match read_values(vars, n, |x| c.valuation.get(x).cloned()) {
            Some(values) => {
                let valuation = values
                    .into_iter()
                    .fold(c.valuation.clone(), |v, (x, value)| v.update(x, value));
                Concrete::step(c, Rule::Havoc, rest, valuation)
            }
            None => Concrete::step(
                c,
                Rule::AssumptionViolated,
                checked::halted(Halt::AssumptionViolated),
                c.valuation.clone(),
            ),
        };
        steps[0].next.reads = n;
        steps
    }
}

impl TransitionSystem for Concrete {
    type Config = Config;

    /// The successor of `c`; none if `c` is terminal or its expressions have no value.
    fn successors(&self, c: &Config) -> Vec<Step<Config>> {
        self.try_successors(c).unwrap_or_default()
    }

    /// The successor of `c`, or why its expressions have no value (when
    /// `V` lacks a variable or has one of the wrong type, or an integer
    /// outgrows the evaluator's bound).
    fn try_successors(&self, c: &Config) -> Result<Vec<Step<Config>>, EvalError> {
        let Some((head, rest)) = c.code.split() else {
            return Ok(Vec::new());
        };
        match head {
            Stmt::Skip => self.concrete_skip(c, rest),
            Stmt::Assign(x, e) => self.concrete_assignment(c, x, e, rest),
            Stmt::ArrayAssign(a, e, e2) => self.concrete_array_assignment(c, a, e, e2, rest),
            Stmt::If(b, then, otherwise) => self.concrete_choice(c, b, then, otherwise, rest),
            Stmt::While(_, b, body) => self.concrete_iteration(c, b, body, rest),
            Stmt::Assert(e) => self.concrete_assert(c, e, rest),
            Stmt::Assume(e) => self.concrete_assume(c, e, rest),
            Stmt::Havoc(vars) => Ok(self.concrete_havoc(c, vars, rest)),
            // `Halt` is terminal; calls and oo statements never occur (`new`
            // rejects programs that have them).
            _ => Ok(Vec::new()),
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

impl ConcreteConfiguration for Config {
    fn global_state(&self) -> Valuation {
        self.valuation.clone()
    }

    fn current(&self) -> Option<(&Stmt, Valuation)> {
        Some((self.code.head()?, self.valuation.clone()))
    }
}

impl fmt::Display for Config {
    /// `⟨S, V⟩` with `V` as `{x ↦ 1, …}`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "⟨{}, {}⟩",
            self.code,
            crate::eval::ShowValuation(&self.valuation)
        )
    }
}
