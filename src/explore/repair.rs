//! Model repair: before a query, try to mend the parent's model so that it
//! also satisfies the new guard, by changing one input the guard pins
//! down — `a[3] = x` sets the cell `a[3]` to the value of `x`, `x5 > 0` sets
//! `x5` to 1, `!b` sets `b` to false, `x0 + x1 > 0` sets `x1` to `1 - x0`
//! (or `x0` to `1 - x1`), `x0 > x1` sets `x1` to `x0 - 1` (or `x0` to
//! `x1 + 1`). The mended model counts only if the evaluator confirms the
//! guard and every condition of the path under it, so repair never claims
//! a path feasible wrongly; when every candidate fails, the solver is asked
//! as before.

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
fn wanted(op: BinOp, other: &Value) -> Option<Value> {
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

/// The candidate repairs of `model` for `guard`, unconfirmed: one for each
/// input the guard pins down, in the order the guard mentions them.
pub(crate) fn candidates(model: &Valuation, guard: &Term) -> Vec<Valuation> {
    let mut mends = Vec::new();
    match guard.kind() {
        TermKind::Var(..) => mends.extend(Location::of(guard).map(|l| (l, Value::Bool(true)))),
        TermKind::Unary(UnOp::Not, inner) => {
            mends.extend(Location::of(inner).map(|l| (l, Value::Bool(false))))
        }
        TermKind::Binary(op, left, right) => {
            let Some(mirror) = mirrored(*op) else {
                return Vec::new();
            };
            let sides = [(left, *op, right), (right, mirror, left)];
            // An input compared directly first, then one inside a sum.
            for direct in [true, false] {
                for (side, op, other) in sides {
                    if Location::of(side).is_some() == direct {
                        if let Ok(value) = eval(other, model) {
                            isolate(side, op, value, model, &mut mends);
                        }
                    }
                }
            }
        }
        _ => {}
    }
    mends
        .into_iter()
        .filter_map(|(location, value)| location.set(model, value))
        .collect()
}

/// The inputs in `side` that `side op value` pins down through sums,
/// differences and negations (`x0 + x1 > 0`: `x1 > -x0`, `x0 > -x1`), each
/// with the value that makes it hold when the rest of `side` keeps its
/// value under `model`.
fn isolate<'t>(
    side: &'t Term,
    op: BinOp,
    value: Value,
    model: &Valuation,
    mends: &mut Vec<(Location<'t>, Value)>,
) {
    if let Some(location) = Location::of(side) {
        mends.extend(wanted(op, &value).map(|wanted| (location, wanted)));
        return;
    }
    let int = |term: &Term| eval(term, model).ok()?.as_int().cloned();
    let Value::Int(n) = &value else {
        return;
    };
    match side.kind() {
        // a + b op n: a op n - b, b op n - a.
        TermKind::Binary(BinOp::Add, a, b) => {
            if let Some(vb) = int(b) {
                isolate(a, op, Value::Int(n - vb), model, mends);
            }
            if let Some(va) = int(a) {
                isolate(b, op, Value::Int(n - va), model, mends);
            }
        }
        // a - b op n: a op n + b, b op' a - n (op mirrored).
        TermKind::Binary(BinOp::Sub, a, b) => {
            if let Some(vb) = int(b) {
                isolate(a, op, Value::Int(n + vb), model, mends);
            }
            if let (Some(va), Some(op)) = (int(a), mirrored(op)) {
                isolate(b, op, Value::Int(va - n), model, mends);
            }
        }
        // -a op n: a op' -n.
        TermKind::Unary(UnOp::Neg, a) => {
            if let Some(op) = mirrored(op) {
                isolate(a, op, Value::Int(-n), model, mends);
            }
        }
        _ => {}
    }
}

/// `model`, mended to satisfy `guard`, if the evaluator confirms `guard`
/// and every condition of `path` under the mended model.
pub(crate) fn repaired<'p>(
    model: &Valuation,
    guard: &Term,
    path: impl Iterator<Item = &'p Term>,
) -> Option<Valuation> {
    let path: Vec<&Term> = path.collect();
    candidates(model, guard).into_iter().find(|mended| {
        let holds = |b: &&Term| eval_bool(b, mended) == Ok(true);
        holds(&guard) && path.iter().all(holds)
    })
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
    fn a_sum_is_mended_at_an_input_the_path_leaves_free() {
        let (x, y) = (Term::var("x", Sort::Int), Term::var("y", Sort::Int));
        let sum = Term::binary(BinOp::Add, x.clone(), y.clone());
        let guard = Term::binary(BinOp::Gt, sum.clone(), Term::int(10));
        let path = [Term::binary(BinOp::Eq, x.clone(), Term::int(7))];
        let mended = repaired(&model(), &guard, path.iter()).expect("y := 4");
        assert_eq!(mended.get("y"), Some(&Value::Int(BigInt::from(4))));
        let below = Term::binary(BinOp::Le, Term::binary(BinOp::Sub, y, x), Term::int(-9));
        let mended = repaired(&mended, &below, path.iter()).expect("y := -2");
        assert_eq!(mended.get("y"), Some(&Value::Int(BigInt::from(-2))));
    }

    #[test]
    fn a_chain_of_comparisons_mends_its_newest_input() {
        let (x, y) = (Term::var("x", Sort::Int), Term::var("y", Sort::Int));
        let path = [Term::binary(BinOp::Gt, Term::int(0), x.clone())];
        let guard = Term::binary(BinOp::Gt, x, y);
        assert!(
            repaired(&model(), &guard, path.iter()).is_none(),
            "x = 7 breaks 0 > x: no candidate may keep it"
        );
        let start = model().update(Name::from("x"), Value::Int(BigInt::from(-1)));
        let mended = repaired(&start, &guard, path.iter()).expect("y := -2");
        assert_eq!(mended.get("y"), Some(&Value::Int(BigInt::from(-2))));
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
