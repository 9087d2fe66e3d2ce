//! Machine integers (`--int i32`, `--int i64`): C's signed `int` and
//! `long` with overflow as an error, compiled into the core program, so
//! every semantics, method and command runs them unchanged (docs/surface.md).
//!
//! - every value read from outside — an input variable, an array element,
//!   a field — is assumed in range ([`inputs_in_range`], [`reads_in_range`]);
//! - before a statement, every arithmetic operation it evaluates is asserted
//!   in range, and every divisor nonzero ([`no_overflow`]): a run that
//!   overflows ends in `assertion-failed` at that statement, the assertion
//!   naming the operation;
//! - `/` and `%` are C's, truncating towards zero ([`c_division`]),
//!   written with the core's Euclidean operators. The checks are made on
//!   the program as written (where `x / y` stands for C's quotient), and
//!   then both are rewritten.

use crate::delta::guarded;
use crate::mutants::{self, Mutant};
use crate::term::{BinOp, Sort, Term, TermKind, UnOp};
use num_bigint::BigInt;

/// What `int` means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Integers {
    /// The paper's mathematical integers (the default).
    #[default]
    Mathematical,
    /// Two's complement with `bits` bits; overflow is an error.
    Machine { bits: u32 },
}

impl Integers {
    pub const I32: Integers = Integers::Machine { bits: 32 };
    pub const I64: Integers = Integers::Machine { bits: 64 };

    /// The smallest and largest value, for machine integers.
    pub fn range(self) -> Option<(BigInt, BigInt)> {
        match self {
            Integers::Mathematical => None,
            Integers::Machine { bits } => {
                let half = BigInt::from(1) << (bits - 1);
                Some((-half.clone(), half - 1))
            }
        }
    }

    /// `i32`, `i64`, or `math`: the value of `--int`.
    pub fn name(self) -> String {
        match self {
            Integers::Mathematical => "math".to_string(),
            Integers::Machine { bits } => format!("i{bits}"),
        }
    }

    /// `lo ≤ e ≤ hi` (`true` for mathematical integers).
    pub fn in_range(self, e: &Term) -> Term {
        match self.range() {
            None => Term::bool(true),
            Some((lo, hi)) => Term::and(
                Term::binary(BinOp::Le, Term::int(lo), e.clone()),
                Term::binary(BinOp::Le, e.clone(), Term::int(hi)),
            ),
        }
    }
}

/// Every integer `e` reads from an array or a field is in range, each
/// under the condition that `e` evaluates it. Values the program writes are
/// checked by [`no_overflow`], so this only constrains the inputs.
pub fn reads_in_range(e: &Term, integers: Integers) -> Term {
    guarded(e, |node| match node.kind() {
        TermKind::Select(..) | TermKind::Field(..) if node.sort() == Sort::Int => {
            integers.in_range(node)
        }
        _ => Term::bool(true),
    })
}

/// Every arithmetic operation `e` evaluates stays in range, and every
/// divisor is nonzero (C's undefined behaviour, an error here).
pub fn no_overflow(e: &Term, integers: Integers) -> Term {
    if integers == Integers::Mathematical {
        return Term::bool(true);
    }
    guarded(e, |node| match node.kind() {
        TermKind::Binary(BinOp::Mul, ..) if mutants::active(Mutant::ProductUnchecked) => {
            Term::bool(true)
        }
        TermKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul, ..)
        | TermKind::Unary(UnOp::Neg, _) => integers.in_range(node),
        // C11 §6.5.5: `x % y` is undefined where `x / y` is.
        TermKind::Binary(BinOp::Div | BinOp::Mod, dividend, divisor) => match integers.range() {
            // The one quotient out of range: lo / -1.
            Some((lo, _)) => Term::and(
                Term::binary(BinOp::Ne, divisor.clone(), Term::int(0)),
                Term::not(Term::and(
                    Term::binary(BinOp::Eq, dividend.clone(), Term::int(lo)),
                    Term::binary(BinOp::Eq, divisor.clone(), Term::int(-1)),
                )),
            ),
            None => Term::bool(true),
        },
        _ => Term::bool(true),
    })
}

/// `lo ≤ x ≤ hi` for each integer input `x`.
pub fn inputs_in_range<'a>(
    inputs: impl IntoIterator<Item = (&'a str, &'a Sort)>,
    integers: Integers,
) -> Term {
    Term::conjunction(
        inputs
            .into_iter()
            .filter(|(_, sort)| **sort == Sort::Int)
            .map(|(x, _)| integers.in_range(&Term::var(x, Sort::Int))),
    )
}

/// `e` with every `x / y` and `x % y` made C's ([`c_quotient`], [`c_remainder`]).
pub fn c_division(e: &Term) -> Term {
    if mutants::active(Mutant::EuclideanMachineDivision) {
        return e.clone();
    }
    e.rebuilt(|node, children| {
        let rebuilt = node.with_children(children);
        match rebuilt.kind() {
            TermKind::Binary(BinOp::Div, x, y) => c_quotient(x.clone(), y.clone()),
            TermKind::Binary(BinOp::Mod, x, y) => c_remainder(x.clone(), y.clone()),
            _ => rebuilt,
        }
    })
}

/// C's `x / y`, rounded towards zero, from the Euclidean `/` (which rounds
/// so that the remainder is nonnegative): the two differ when `x < 0` and
/// `y` does not divide `x`, by one towards zero. Every operation it adds
/// stays in range when the quotient does (the Euclidean quotient differs
/// from C's by one only when `|y| ≥ 2`).
pub fn c_quotient(x: Term, y: Term) -> Term {
    let euclidean = Term::binary(BinOp::Div, x.clone(), y.clone());
    let exact = exact_or_nonnegative(&x, &y);
    let step = match positive(&y) {
        Some(true) => Term::int(1),
        Some(false) => Term::int(-1),
        None => Term::ite(
            Term::binary(BinOp::Gt, y, Term::int(0)),
            Term::int(1),
            Term::int(-1),
        ),
    };
    Term::ite(
        exact,
        euclidean.clone(),
        Term::binary(BinOp::Add, euclidean, step),
    )
}

/// C's `x % y`, with the sign of `x` (`x == (x / y) * y + x % y` with C's
/// `/`), from the Euclidean `%`, which is nonnegative.
pub fn c_remainder(x: Term, y: Term) -> Term {
    let euclidean = Term::binary(BinOp::Mod, x.clone(), y.clone());
    let exact = exact_or_nonnegative(&x, &y);
    let below = Term::binary(BinOp::Sub, euclidean.clone(), y.clone());
    let above = Term::binary(BinOp::Add, euclidean.clone(), y.clone());
    let towards_zero = match positive(&y) {
        Some(true) => below,
        Some(false) => above,
        None => Term::ite(Term::binary(BinOp::Gt, y, Term::int(0)), below, above),
    };
    Term::ite(exact, euclidean, towards_zero)
}

/// Whether `y` is a literal above zero (`None` if it is no literal).
fn positive(y: &Term) -> Option<bool> {
    match y.kind() {
        TermKind::Int(n) => Some(n.sign() == num_bigint::Sign::Plus),
        _ => None,
    }
}

/// `x >= 0 || x % y = 0`: where Euclidean and C division agree.
fn exact_or_nonnegative(x: &Term, y: &Term) -> Term {
    Term::or(
        Term::binary(BinOp::Ge, x.clone(), Term::int(0)),
        Term::binary(
            BinOp::Eq,
            Term::binary(BinOp::Mod, x.clone(), y.clone()),
            Term::int(0),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::eval;
    use crate::valuation::Valuation;
    use crate::value::Value;

    fn value(e: &Term) -> BigInt {
        match eval(e, &Valuation::default()) {
            Ok(Value::Int(n)) => n,
            other => panic!("`{e}` evaluates to {other:?}"),
        }
    }

    #[test]
    fn c_division_truncates_towards_zero_and_keeps_the_dividends_sign() {
        for (x, y, q, r) in [
            (7, 2, 3, 1),
            (-7, 2, -3, -1),
            (7, -2, -3, 1),
            (-7, -2, 3, -1),
            (-8, 2, -4, 0),
            (-8, -2, 4, 0),
            (0, -3, 0, 0),
        ] {
            let (x, y) = (Term::int(x), Term::int(y));
            assert_eq!(value(&c_quotient(x.clone(), y.clone())), q.into());
            assert_eq!(value(&c_remainder(x, y)), r.into());
        }
    }

    #[test]
    fn ranges_are_twos_complement() {
        let (lo, hi) = Integers::I32.range().unwrap();
        assert_eq!((lo, hi), (BigInt::from(i32::MIN), BigInt::from(i32::MAX)));
        let (lo, hi) = Integers::I64.range().unwrap();
        assert_eq!((lo, hi), (BigInt::from(i64::MIN), BigInt::from(i64::MAX)));
        assert_eq!(Integers::Mathematical.range(), None);
    }

    #[test]
    fn overflow_checks_are_guarded_like_definedness() {
        let x = Term::var("x", Sort::Int);
        let sum = Term::binary(BinOp::Add, x.clone(), Term::int(1));
        let guard = Term::binary(BinOp::Gt, x.clone(), Term::int(0));
        let b = Term::binary(
            BinOp::And,
            guard,
            Term::binary(BinOp::Lt, sum, Term::int(9)),
        );
        assert_eq!(
            no_overflow(&b, Integers::I32).to_string(),
            "x > 0 ==> -2147483648 <= x + 1 && x + 1 <= 2147483647"
        );
        assert!(no_overflow(&b, Integers::Mathematical).is_true());
        let quotient = Term::binary(BinOp::Div, x.clone(), Term::var("y", Sort::Int));
        assert_eq!(
            no_overflow(&quotient, Integers::I32).to_string(),
            "y != 0 && !(x = -2147483648 && y = -1)"
        );
        assert_eq!(
            c_division(&quotient).to_string(),
            "if x >= 0 || x % y = 0 then x / y else x / y + if y > 0 then 1 else -1 fi fi"
        );
    }
}
