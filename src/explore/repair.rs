//! Model repair: before a query, try to mend the parent's model so that it
//! also satisfies the new guard, by changing the one input the guard pins
//! down — `a[3] = x` sets the cell `a[3]` to the value of `x`, `x5 > 0` sets
//! `x5` to 1, `!b` sets `b` to false. The mended model counts only if the
//! evaluator confirms the guard and every condition of the path under it,
//! so repair never claims a path feasible wrongly; when it fails, the solver
//! is asked as before.

use num_bigint::BigInt;
use symex_semantics::eval::{eval, eval_bool, Valuation};
use symex_semantics::term::{BinOp, Name, Term, TermKind, UnOp};
use symex_semantics::value::Value;

/// An input location a guard can pin down: a variable, or an input array's
/// cell at a literal index.
enum Location<'t> {
    Var(&'t Name),
    Cell(&'t Name, &'t BigInt),
}

impl Location<'_> {
    fn of(term: &Term) -> Option<Location<'_>> {
        match term.kind() {
            TermKind::Var(x, _) => Some(Location::Var(x)),
            TermKind::Select(array, index) => match (array.kind(), index.kind()) {
                (TermKind::Var(a, _), TermKind::Int(k)) => Some(Location::Cell(a, k)),
                _ => None,
            },
            _ => None,
        }
    }

    /// `model` with this location set to `value`.
    fn set(&self, model: &Valuation, value: Value) -> Option<Valuation> {
        Some(match self {
            Location::Var(x) => model.update((*x).clone(), value),
            Location::Cell(a, k) => {
                let array = model.get(a)?.as_array()?.set((*k).clone(), value);
                model.update((*a).clone(), Value::Array(array))
            }
        })
    }
}

/// The value that makes `location op other` true, given `other`'s value.
fn wanted(op: BinOp, other: &Value, location_on_left: bool) -> Option<Value> {
    let op = if location_on_left { op } else { mirrored(op)? };
    Some(match (op, other) {
        (BinOp::Eq, v) => v.clone(),
        (BinOp::Ne, Value::Int(n)) => Value::Int(n + 1),
        (BinOp::Ne, Value::Bool(b)) => Value::Bool(!b),
        (BinOp::Lt, Value::Int(n)) => Value::Int(n - 1),
        (BinOp::Le | BinOp::Ge, Value::Int(n)) => Value::Int(n.clone()),
        (BinOp::Gt, Value::Int(n)) => Value::Int(n + 1),
        _ => return None,
    })
}

/// `op` with its operands exchanged (`a < b` is `b > a`).
fn mirrored(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Eq | BinOp::Ne => op,
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        _ => return None,
    })
}

/// The candidate repair of `model` for `guard`, unconfirmed.
pub(crate) fn candidate(model: &Valuation, guard: &Term) -> Option<Valuation> {
    match guard.kind() {
        TermKind::Var(..) => Location::of(guard)?.set(model, Value::Bool(true)),
        TermKind::Unary(UnOp::Not, inner) => Location::of(inner)?.set(model, Value::Bool(false)),
        TermKind::Binary(op, left, right) => {
            if let Some(location) = Location::of(left) {
                let value = wanted(*op, &eval(right, model).ok()?, true)?;
                location.set(model, value)
            } else {
                let location = Location::of(right)?;
                let value = wanted(*op, &eval(left, model).ok()?, false)?;
                location.set(model, value)
            }
        }
        _ => None,
    }
}

/// `model`, mended to satisfy `guard`, if the evaluator confirms `guard`
/// and every condition of `path` under the mended model.
pub(crate) fn repaired<'p>(
    model: &Valuation,
    guard: &Term,
    mut path: impl Iterator<Item = &'p Term>,
) -> Option<Valuation> {
    let mended = candidate(model, guard)?;
    let holds = |b: &Term| eval_bool(b, &mended) == Ok(true);
    (holds(guard) && path.all(holds)).then_some(mended)
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_semantics::term::Sort;
    use symex_semantics::value::ArrayValue;

    fn model() -> Valuation {
        let a = ArrayValue::constant(BigInt::from(0), Value::Int(BigInt::from(0)));
        [
            ("a", Value::Array(a)),
            ("x", Value::Int(BigInt::from(7))),
            ("y", Value::Int(BigInt::from(0))),
        ]
        .into_iter()
        .map(|(name, value)| (Name::from(name), value))
        .collect()
    }

    #[test]
    fn a_cell_is_set_to_what_the_guard_compares_it_with() {
        let cell = Term::select(Term::var("a", Sort::int_array()), Term::int(3));
        let x = Term::var("x", Sort::Int);
        let guard = Term::binary(BinOp::Eq, cell.clone(), x.clone());
        let mended = repaired(&model(), &guard, std::iter::empty()).expect("a[3] := 7");
        assert_eq!(eval(&cell, &mended), Ok(Value::Int(BigInt::from(7))));
        let differs = Term::binary(BinOp::Ne, x, cell);
        assert!(repaired(&mended, &differs, std::iter::empty()).is_some());
    }

    #[test]
    fn a_repair_that_breaks_the_path_is_refused() {
        let y = Term::var("y", Sort::Int);
        let path = [Term::binary(BinOp::Lt, y.clone(), Term::int(1))];
        let guard = Term::binary(BinOp::Gt, y.clone(), Term::int(0));
        assert!(
            repaired(&model(), &guard, path.iter()).is_none(),
            "y > 0 contradicts y < 1"
        );
        let guard = Term::binary(BinOp::Gt, Term::int(0), y);
        let mended = repaired(&model(), &guard, path.iter()).expect("y := -1");
        assert_eq!(mended.get("y"), Some(&Value::Int(BigInt::from(-1))));
    }
}
