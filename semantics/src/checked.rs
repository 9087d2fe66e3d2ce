//! The side conditions of §2.1's `array-out-of-bound` transitions, shared by
//! every semantics: with `--checked-arrays` a symbolic rule that evaluates
//! `e` also requires `δ(e)`, and otherwise steps to `array-out-of-bound`; a
//! concrete rule does so when evaluating `e` reads out of bounds.
//! Reads of a sequence of draws ([`crate::draws`]) are never out of bounds.

use crate::delta::{base_array, delta, Checks};
use crate::draws::is_sequence;
use crate::eval::EvalError;
use crate::program::{Code, ErrorKind, Halt, Stmt};
use crate::system::Options;
use crate::term::Term;
use crate::term::{BinOp, TermKind};
use crate::value::Value;
use num_traits::Signed;

/// `δ(e₁) ∧ … ∧ δ(eₙ)` under `--checked-arrays`; `true` otherwise.
pub fn defined(options: Options, terms: &[Term]) -> Term {
    if options.checked_arrays {
        Term::conjunction(terms.iter().map(|e| delta(e, Checks::BOUNDS)))
    } else {
        Term::bool(true)
    }
}

/// Whether, under `--checked-arrays`, evaluating one of `terms` reads an
/// array out of bounds (concrete side); `value` evaluates a term in the
/// current valuation.
///
/// Decided by evaluation, as SPEC §1.5 evaluates (the second operand of
/// `&&`, `||`, `==>` and the branches of a conditional only when needed),
/// not by `V(δ(e))`: the concrete semantics is the reference the symbolic
/// rules' `δ` is checked against by Theorems 2.3 and 2.4, so it must not
/// share `δ`'s mistakes.
pub fn out_of_bound(
    options: Options,
    terms: &[Term],
    value: impl Fn(&Term) -> Result<Value, EvalError>,
) -> Result<bool, EvalError> {
    if !options.checked_arrays {
        return Ok(false);
    }
    for e in terms {
        if reads_out_of_bound(e, &value)? {
            return Ok(true);
        }
    }
    Ok(false)
}

fn reads_out_of_bound(
    e: &Term,
    value: &impl Fn(&Term) -> Result<Value, EvalError>,
) -> Result<bool, EvalError> {
    let holds = |b: &Term| {
        value(b)?
            .as_bool()
            .ok_or_else(|| EvalError::IllTyped(format!("`{b}` is not boolean")))
    };
    match e.kind() {
        TermKind::Binary(op @ (BinOp::And | BinOp::Or | BinOp::Implies), a, b) => {
            if reads_out_of_bound(a, value)? {
                return Ok(true);
            }
            let second_needed = holds(a)? != (*op == BinOp::Or);
            Ok(second_needed && reads_out_of_bound(b, value)?)
        }
        TermKind::Ite(c, a, b) => {
            if reads_out_of_bound(c, value)? {
                return Ok(true);
            }
            reads_out_of_bound(if holds(c)? { a } else { b }, value)
        }
        TermKind::Select(array, index) => {
            if reads_out_of_bound(array, value)? || reads_out_of_bound(index, value)? {
                return Ok(true);
            }
            if base_array(array).is_some_and(|a| is_sequence(&a)) {
                return Ok(false);
            }
            let length = value(array)?
                .as_array()
                .map(|a| a.len.clone())
                .ok_or_else(|| EvalError::IllTyped(format!("`{array}` is not an array")))?;
            let i = value(index)?
                .as_int()
                .cloned()
                .ok_or_else(|| EvalError::IllTyped(format!("`{index}` is not an integer")))?;
            Ok(i.is_negative() || i >= length)
        }
        _ => {
            for child in e.children() {
                if reads_out_of_bound(child, value)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
    }
}

/// The terminal statement `halt` (e.g. the paper's `array-out-of-bound`).
pub fn halted(halt: Halt) -> Code {
    Code::single(Stmt::Halt(halt))
}

/// The terminal statement `array-out-of-bound`.
pub fn array_out_of_bound() -> Code {
    halted(Halt::Error(ErrorKind::ArrayOutOfBound))
}
