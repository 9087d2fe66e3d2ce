//! §4: the object-oriented language. Symbolic execution unfolds a program
//! into a symbolic trace ρ ([`unfold`]) whose path condition `path(ρ)` is a
//! weakest precondition ([`path`] by Definition 4.2, [`wp`] incrementally
//! for every prefix); traces have a concrete semantics `⟨V, ρ⟩` ([`trace`]),
//! and programs the standard one `⟨S, (G, H)⟩` ([`concrete`]). §4.1's
//! alternative runs the same unfolding forward, fields as arrays ([`forward`]).

pub mod action;
pub mod fresh;
pub mod path;
pub mod trace;
pub mod wp;

pub mod concrete;
mod created;
pub mod forward;
pub mod inline;
pub mod inputs;
pub mod lazy;
pub mod needed;
#[cfg(test)]
mod tests;
pub mod unfold;

use crate::delta::{delta, not_nil, Checks};
use crate::eval::{eval, eval_bool, EvalError, Valuation};
use crate::program::{ErrorKind, Program, Target};
use crate::system::Options;
use crate::term::{Name, Sort, Term};
use crate::value::Value;
use action::{Action, Location};
use std::fmt;

/// The errors a semantics of this section checks (a nil dereference
/// always; reads out of bounds with `--checked-arrays`) and the conditions
/// that rule them out, shared by the unfolding and the concrete semantics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Errors {
    pub checks: Checks,
}

impl Errors {
    pub fn new(options: Options) -> Errors {
        Errors {
            checks: if options.checked_arrays {
                Checks::ALL
            } else {
                Checks::NIL
            },
        }
    }

    /// The tests of the error steps of a statement that evaluates `terms`
    /// (and calls a method on `receiver`): `¬δ_nil(E)` leads to
    /// `nil-dereference`, then, with checked arrays, `δ_nil(E) ∧ ¬δ(E)` to
    /// `array-out-of-bound`; a test that is literally `false` is left out.
    pub fn tests(&self, receiver: Option<&Term>, terms: &[Term]) -> Vec<(ErrorKind, Term)> {
        let callee = receiver.map(|e| Term::and(delta(e, Checks::NIL), not_nil(e)));
        let defined = |checks: Checks| {
            Term::conjunction(
                callee
                    .iter()
                    .cloned()
                    .chain(terms.iter().map(|e| delta(e, checks))),
            )
        };
        let nil = defined(Checks::NIL);
        let mut tests = Vec::new();
        if !nil.is_true() {
            tests.push((ErrorKind::NilDereference, Term::not(nil.clone())));
        }
        if self.checks.bounds {
            let bounds = defined(Checks::BOUNDS);
            if !bounds.is_true() {
                tests.push((
                    ErrorKind::ArrayOutOfBound,
                    Term::and(nil, Term::not(bounds)),
                ));
            }
        }
        tests
    }

    /// The error that evaluating `terms` (after `receiver`, on which a method
    /// is called) in `v` runs into, if any: `⊥` (a field of `nil`, or a call
    /// on `nil`) first, then, with checked arrays, a read out of bounds.
    /// Decided by evaluation itself, not by `δ`: Lemma 4.3 relates the two.
    pub fn error_in(
        &self,
        receiver: Option<&Term>,
        terms: &[Term],
        v: &Valuation,
    ) -> Result<Option<ErrorKind>, EvalError> {
        for e in receiver.into_iter().chain(terms) {
            match eval(e, v) {
                Err(error) if error.is_nil_dereference() => {
                    return Ok(Some(ErrorKind::NilDereference))
                }
                Err(error) => return Err(error),
                Ok(Value::Nil) if receiver == Some(e) => {
                    return Ok(Some(ErrorKind::NilDereference))
                }
                Ok(_) => {}
            }
        }
        if self.checks.bounds {
            for e in terms {
                if !eval_bool(&delta(e, Checks::BOUNDS), v)? {
                    return Ok(Some(ErrorKind::ArrayOutOfBound));
                }
            }
        }
        Ok(None)
    }

    /// The test that `b` holds: `b`, or with checked arrays `δ(b) ∧ b` (a
    /// true `b` dereferences no `nil`, but may read out of bounds).
    pub fn holds(&self, b: Term) -> Term {
        if self.checks.bounds {
            Term::and(delta(&b, Checks::BOUNDS), b)
        } else {
            b
        }
    }
}

/// The heap variable a statement's target denotes (`x` or `e.f`), given the
/// sort of the value it is assigned (fresh variables are not globals).
pub fn location(program: &Program, h: &Target, sort: &Sort) -> Location {
    match h {
        Target::Var(x) => Location::Var(
            x.clone(),
            program
                .globals
                .get(x)
                .cloned()
                .unwrap_or_else(|| sort.clone()),
        ),
        Target::Field(object, f) => Location::Field(
            object.clone(),
            f.clone(),
            program
                .field_sort(f)
                .cloned()
                .unwrap_or_else(|| sort.clone()),
        ),
    }
}

/// The active calls on a path, innermost last, for `--unfold` (at most K
/// nested active calls of any one method or procedure).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Calls(im::Vector<Name>);

impl Calls {
    /// A call of `callee` starts.
    pub fn enter(&self, callee: Name) -> Calls {
        let mut calls = self.0.clone();
        calls.push_back(callee);
        Calls(calls)
    }

    /// The innermost call ends.
    pub fn leave(&self) -> Calls {
        let mut calls = self.0.clone();
        calls.pop_back();
        Calls(calls)
    }

    /// The most active calls of any one callee.
    pub fn max_active(&self) -> usize {
        crate::system::most_active(self.0.iter())
    }
}

/// A trace as `a₁ · a₂ · …`, or `ε`.
pub struct ShowTrace<'a>(pub &'a [Action]);

impl fmt::Display for ShowTrace<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("ε");
        }
        for (i, action) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" · ")?;
            }
            write!(f, "{action}")?;
        }
        Ok(())
    }
}
