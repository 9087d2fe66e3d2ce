//! Valuations `V : Var → Val` and evaluation `V(e)` (§2), with SPEC §1.5's
//! choices: unbounded integers, Euclidean and total `/` and `%`, arrays as
//! functions. Evaluation is total on well-typed terms: errors of the
//! program (out-of-bound reads) are described by `δ`, not by evaluation.

use crate::subst::Substitution;
use crate::term::{BinOp, IdMap, Name, Term, TermKind, UnOp};
use crate::value::Value;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, Zero};
use std::fmt;

/// A valuation: the value of every variable it knows.
pub type Valuation = im::OrdMap<Name, Value>;

/// Why a term has no value: it is ill-typed or mentions an unknown variable.
/// Never a property of a well-typed program run on a complete valuation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    Unbound(Name),
    IllTyped(String),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Unbound(x) => write!(f, "variable `{x}` has no value"),
            EvalError::IllTyped(what) => write!(f, "ill-typed term: {what}"),
        }
    }
}

/// `V(e)`, with `lookup` giving `V(x)`.
pub fn eval_with(e: &Term, lookup: impl Fn(&Name) -> Option<Value>) -> Result<Value, EvalError> {
    let mut memo: IdMap<Value> = IdMap::default();
    for node in e.nodes() {
        let value = eval_node(&node, &memo, &lookup)?;
        memo.insert(node.id(), value);
    }
    Ok(memo.remove(&e.id()).expect("the root is the last node evaluated"))
}

/// `V(e)`.
pub fn eval(e: &Term, v: &Valuation) -> Result<Value, EvalError> {
    eval_with(e, |x| v.get(x).cloned())
}

/// `V(e)` for each of `terms`, with one memo table: terms that share
/// subterms (the local substitutions of nested calls) are evaluated in time
/// linear in their distinct nodes together, not each on its own.
pub fn eval_all(terms: &[Term], v: &Valuation) -> Result<Vec<Value>, EvalError> {
    let lookup = |x: &Name| v.get(x).cloned();
    let mut memo: IdMap<Value> = IdMap::default();
    let mut values = Vec::with_capacity(terms.len());
    for term in terms {
        let mut stack = vec![(term.clone(), false)];
        while let Some((node, expanded)) = stack.pop() {
            if memo.contains_key(&node.id()) {
                continue;
            }
            if expanded {
                let value = eval_node(&node, &memo, &lookup)?;
                memo.insert(node.id(), value);
            } else {
                stack.push((node.clone(), true));
                stack.extend(node.children().into_iter().filter(|c| !memo.contains_key(&c.id())).map(|c| (c.clone(), false)));
            }
        }
        values.push(memo[&term.id()].clone());
    }
    Ok(values)
}

/// `V(b)` for a boolean `b`.
pub fn eval_bool(b: &Term, v: &Valuation) -> Result<bool, EvalError> {
    eval(b, v)?.as_bool().ok_or_else(|| EvalError::IllTyped(format!("`{b}` is not boolean")))
}

/// `V ∘ σ`, on every variable of `V` and of σ's domain: `(V ∘ σ)(x) = V(σ(x))`.
pub fn compose(v: &Valuation, sigma: &Substitution) -> Result<Valuation, EvalError> {
    let mut composed = v.clone();
    for (x, e) in sigma.iter() {
        composed.insert(x.clone(), eval(e, v)?);
    }
    Ok(composed)
}

/// Displays a valuation as `{x ↦ 1, a ↦ [0, 2]}`.
pub struct ShowValuation<'a>(pub &'a Valuation);

impl fmt::Display for ShowValuation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, (x, v)) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{x} ↦ {v}")?;
        }
        write!(f, "}}")
    }
}

fn eval_node(
    node: &Term,
    memo: &IdMap<Value>,
    lookup: &impl Fn(&Name) -> Option<Value>,
) -> Result<Value, EvalError> {
    let value_of = |t: &Term| &memo[&t.id()];
    let int = |t: &Term| {
        value_of(t).as_int().cloned().ok_or_else(|| EvalError::IllTyped(format!("`{t}` is not an integer")))
    };
    let boolean = |t: &Term| {
        value_of(t).as_bool().ok_or_else(|| EvalError::IllTyped(format!("`{t}` is not boolean")))
    };
    let array = |t: &Term| {
        value_of(t).as_array().cloned().ok_or_else(|| EvalError::IllTyped(format!("`{t}` is not an array")))
    };
    Ok(match node.kind() {
        TermKind::Int(n) => Value::Int(n.clone()),
        TermKind::Bool(b) => Value::Bool(*b),
        TermKind::Var(x, _) => lookup(x).ok_or_else(|| EvalError::Unbound(x.clone()))?,
        TermKind::Len(a) => match lookup(a) {
            Some(Value::Array(array)) => Value::Int(array.len),
            Some(_) => return Err(EvalError::IllTyped(format!("`{a}` is not an array"))),
            None => return Err(EvalError::Unbound(a.clone())),
        },
        TermKind::Unary(UnOp::Neg, a) => Value::Int(-int(a)?),
        TermKind::Unary(UnOp::Not, a) => Value::Bool(!boolean(a)?),
        TermKind::Binary(op, a, b) => binary(*op, value_of(a), value_of(b))
            .ok_or_else(|| EvalError::IllTyped(node.to_string()))?,
        TermKind::Ite(c, a, b) => {
            if boolean(c)? {
                value_of(a).clone()
            } else {
                value_of(b).clone()
            }
        }
        TermKind::Select(a, i) => array(a)?.get(&int(i)?),
        TermKind::Store(a, i, v) => Value::Array(array(a)?.set(int(i)?, value_of(v).clone())),
        TermKind::Nil(_) | TermKind::Field(..) => {
            return Err(EvalError::IllTyped(format!("`{node}` needs a heap: objects are evaluated by the oo semantics")))
        }
    })
}

/// `x div y` and `x mod y` of SMT-LIB (Euclidean: `0 ≤ x mod y < |y|`), made
/// total by `x div 0 = 0` and `x mod 0 = x` (SPEC §1.5).
pub fn euclidean_div_mod(x: &BigInt, y: &BigInt) -> (BigInt, BigInt) {
    if y.is_zero() {
        return (BigInt::zero(), x.clone());
    }
    let (q, r) = x.div_mod_floor(y);
    if r.is_negative() {
        // Only reachable for y < 0: floor remainder has the sign of y.
        (q + 1, r - y)
    } else {
        (q, r)
    }
}

fn binary(op: BinOp, a: &Value, b: &Value) -> Option<Value> {
    use Value::{Bool, Int};
    Some(match (op, a, b) {
        (BinOp::Add, Int(x), Int(y)) => Int(x + y),
        (BinOp::Sub, Int(x), Int(y)) => Int(x - y),
        (BinOp::Mul, Int(x), Int(y)) => Int(x * y),
        (BinOp::Div, Int(x), Int(y)) => Int(euclidean_div_mod(x, y).0),
        (BinOp::Mod, Int(x), Int(y)) => Int(euclidean_div_mod(x, y).1),
        (BinOp::Lt, Int(x), Int(y)) => Bool(x < y),
        (BinOp::Le, Int(x), Int(y)) => Bool(x <= y),
        (BinOp::Gt, Int(x), Int(y)) => Bool(x > y),
        (BinOp::Ge, Int(x), Int(y)) => Bool(x >= y),
        (BinOp::Eq, x, y) => Bool(x == y),
        (BinOp::Ne, x, y) => Bool(x != y),
        (BinOp::And, Bool(x), Bool(y)) => Bool(*x && *y),
        (BinOp::Or, Bool(x), Bool(y)) => Bool(*x || *y),
        (BinOp::Implies, Bool(x), Bool(y)) => Bool(!*x || *y),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn div_mod(x: i64, y: i64) -> (i64, i64) {
        let (q, r) = euclidean_div_mod(&BigInt::from(x), &BigInt::from(y));
        (q.try_into().unwrap(), r.try_into().unwrap())
    }

    #[test]
    fn evaluating_together_agrees_with_one_at_a_time() {
        let x = Term::var("x", crate::term::Sort::Int);
        let mut terms = vec![x.clone()];
        for _ in 0..50 {
            let previous = terms.last().cloned().unwrap();
            terms.push(Term::binary(BinOp::Sub, previous, Term::int(1)));
        }
        let v: Valuation = [(Name::from("x"), Value::Int(BigInt::from(7)))].into_iter().collect();
        let one_at_a_time: Vec<Value> = terms.iter().map(|t| eval(t, &v).unwrap()).collect();
        assert_eq!(eval_all(&terms, &v).unwrap(), one_at_a_time);
        assert_eq!(one_at_a_time[50], Value::Int(BigInt::from(-43)));
    }

    #[test]
    fn division_is_euclidean_and_total() {
        assert_eq!(div_mod(7, 2), (3, 1));
        assert_eq!(div_mod(-7, 2), (-4, 1));
        assert_eq!(div_mod(7, -2), (-3, 1));
        assert_eq!(div_mod(-7, -2), (4, 1));
        assert_eq!(div_mod(5, 0), (0, 5));
        for x in -20..20 {
            for y in -6..6 {
                let (q, r) = div_mod(x, y);
                assert_eq!(x, q * y + r, "x = (x/y)*y + x%y for {x}, {y}");
                if y != 0 {
                    assert!(0 <= r && r < y.abs());
                }
            }
        }
    }
}
