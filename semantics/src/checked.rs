//! The side conditions of §2.1's `array-out-of-bound` transitions, shared by
//! every semantics: with `--checked-arrays` a rule that evaluates `e` also
//! requires `δ(e)`, and otherwise steps to `array-out-of-bound`.

use crate::delta::{delta, Checks};
use crate::eval::EvalError;
use crate::program::{Code, ErrorKind, Halt, Stmt};
use crate::system::Options;
use crate::term::Term;

/// `δ(e₁) ∧ … ∧ δ(eₙ)` under `--checked-arrays`; `true` otherwise.
pub fn defined(options: Options, terms: &[Term]) -> Term {
    if options.checked_arrays {
        Term::conjunction(terms.iter().map(|e| delta(e, Checks::BOUNDS)))
    } else {
        Term::bool(true)
    }
}

/// Whether some `V(δ(e))` is false under `--checked-arrays` (concrete side);
/// `holds` evaluates a boolean term in the current valuation.
pub fn out_of_bound(
    options: Options,
    terms: &[Term],
    holds: impl Fn(&Term) -> Result<bool, EvalError>,
) -> Result<bool, EvalError> {
    if !options.checked_arrays {
        return Ok(false);
    }
    for e in terms {
        if !holds(&delta(e, Checks::BOUNDS))? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The terminal statement `halt` (e.g. the paper's `array-out-of-bound`).
pub fn halted(halt: Halt) -> Code {
    Code::single(Stmt::Halt(halt))
}

/// The terminal statement `array-out-of-bound`.
pub fn array_out_of_bound() -> Code {
    halted(Halt::Error(ErrorKind::ArrayOutOfBound))
}
