//! The concrete semantics of symbolic traces (§4): configurations
//! `⟨V, ρ⟩` with `V = (G, H)`, and the rules *concrete assignment*,
//! *concrete object creation* and *concrete Boolean test*. A configuration
//! with actions left but no rule that applies (a test that is false, an
//! assignment whose heap variable or value is `⊥`) is stuck: `⟨V, ρ⟩ →* ε`
//! fails, which is what Theorem 4.5 relates to `V(path(ρ))`.

use super::action::{Action, Location};
use super::Errors;
use crate::eval::{eval, eval_bool, EvalError, ShowValuation, Valuation};
use crate::program::Program;
use crate::system::{Options, Rule, Step, TransitionSystem};
use crate::term::{Name, Term};
use crate::value::Value;
use std::fmt;
use std::rc::Rc;

/// `⟨V, ρ⟩`: the valuation and the actions still to run, `trace[next..]`.
#[derive(Clone, PartialEq, Eq)]
pub struct Config {
    pub valuation: Valuation,
    pub trace: Rc<[Action]>,
    pub next: usize,
}

impl Config {
    /// `⟨V, ρ⟩` with all of `rho` to run.
    pub fn new(valuation: Valuation, rho: &[Action]) -> Config {
        Config {
            valuation,
            trace: rho.into(),
            next: 0,
        }
    }

    /// The actions still to run.
    pub fn rest(&self) -> &[Action] {
        self.trace.get(self.next..).unwrap_or_default()
    }
}

/// The transition system of traces for the classes of a program.
pub struct Traces {
    program: Rc<Program>,
    errors: Errors,
}

impl Traces {
    /// An assignment runs free of nil dereferences and, with
    /// `--checked-arrays`, of reads out of bounds.
    pub fn new(program: Rc<Program>, options: Options) -> Traces {
        Traces {
            program,
            errors: Errors::new(options),
        }
    }

    /// `⟨V, ρ⟩ →* ⟨V', ε⟩`: `Ok(V')`, or `Err(k)` when the run is stuck
    /// before the `k`-th action (counted from 0).
    pub fn run(&self, valuation: Valuation, rho: &[Action]) -> Result<Valuation, usize> {
        let mut config = Config::new(valuation, rho);
        for k in 0..rho.len() {
            config = self.successors(&config).pop().ok_or(k)?.next;
        }
        Ok(config.valuation)
    }

    /// `⟨V, h := e · ρ⟩ → ⟨V[V(h) := V(e)], ρ⟩`, provided `V(h) ≠ ⊥` and
    /// `V(e) ≠ ⊥`  (§4, concrete assignment; with checked arrays, `h` and
    /// `e` must also read no array out of bounds)
    fn concrete_assignment(&self, v: &Valuation, h: &Location, e: &Term) -> Option<Valuation> {
        match self.errors.error_in(None, &h.evaluated(e), v) {
            Ok(None) => eval(e, v)
                .and_then(|value| assign(v, h, value))
                .ok()
                .flatten(),
            _ => None,
        }
    }

    /// `⟨V, x := new C · ρ⟩ → ⟨V[x := new C], ρ⟩`  (§4, concrete object creation)
    fn concrete_object_creation(&self, v: &Valuation, x: &Name, class: &Name) -> Option<Valuation> {
        let fields = &self.program.classes.get(class)?.fields;
        let (o, heap) = v.heap.allocate(class, fields);
        Some(v.with_heap(heap).update(x.clone(), Value::Object(o)))
    }

    /// `⟨V, b · ρ⟩ → ⟨V, ρ⟩`, provided `V(b) = true`  (§4, concrete Boolean test)
    fn concrete_boolean_test(&self, v: &Valuation, b: &Term) -> Option<Valuation> {
        (eval_bool(b, v) == Ok(true)).then(|| v.clone())
    }
}

/// `V[V(h) := v]` for an `h` without errors: `V[x := v]`, `V[o.f := v]`
/// for `V(h) = o.f`, `V[a := V(a)[V(i) := v]]`; `None` when the object or
/// array of `h` does not exist.
pub(super) fn assign(
    v: &Valuation,
    h: &Location,
    value: Value,
) -> Result<Option<Valuation>, EvalError> {
    Ok(match h {
        Location::Var(x, _) => Some(v.update(x.clone(), value)),
        Location::Field(object, f, _) => match eval(object, v)? {
            Value::Object(o) => v.heap.set_field(o, f, value).map(|heap| v.with_heap(heap)),
            _ => None,
        },
        Location::Element(a, _, index) => {
            let i = eval(index, v)?.as_int().cloned();
            let array = v.get(a).and_then(Value::as_array);
            array
                .zip(i)
                .map(|(array, i)| v.update(a.clone(), Value::Array(array.set(i, value))))
        }
    })
}

impl TransitionSystem for Traces {
    type Config = Config;

    fn successors(&self, c: &Config) -> Vec<Step<Config>> {
        let Some(action) = c.rest().first() else {
            return Vec::new();
        };
        let (rule, next) = match action {
            Action::Assign(h, e) => (
                Rule::Assignment,
                self.concrete_assignment(&c.valuation, h, e),
            ),
            Action::New(x, class) => (
                Rule::ObjectCreation,
                self.concrete_object_creation(&c.valuation, x, class),
            ),
            Action::Test(b) => (
                Rule::BooleanTest,
                self.concrete_boolean_test(&c.valuation, b),
            ),
        };
        let config = |valuation| Config {
            valuation,
            trace: c.trace.clone(),
            next: c.next + 1,
        };
        next.map(|valuation| Step {
            rule,
            guard: Term::bool(true),
            next: config(valuation),
        })
        .into_iter()
        .collect()
    }
}

impl fmt::Display for Config {
    /// `⟨V, ρ⟩`, with ρ as `a₁ · a₂ · …` or `ε`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "⟨{}, {}⟩",
            ShowValuation(&self.valuation),
            super::ShowTrace(self.rest())
        )
    }
}
