//! Evaluation `V(e)` (§2, §4), with SPEC §1.5's choices: unbounded
//! integers, Euclidean and total `/` and `%`, arrays as functions, and
//! `&&`, `||`, `==>` and conditionals that need their second operand only
//! when it decides the value. The one error of a well-typed program is §4's
//! `⊥`: dereferencing `nil` ([`EvalError::NilDereference`]); out-of-bound
//! array reads are described by `δ`, not by evaluation.
//!
//! Integers are unbounded in the semantics but not in the machine: `y := y * y`
//! doubles a number's size at every step, so a few dozen steps would take
//! minutes and gigabytes each. An arithmetic result beyond
//! [`MAX_INTEGER_BITS`] is therefore not computed: evaluation stops with
//! [`EvalError::TooLarge`], a limit of the implementation that commands
//! report as inconclusive, never as a property of the program.

use crate::heap::Heap;
use crate::memo::Generations;
use crate::subst::Substitution;
use crate::term::{BinOp, IdMap, Name, Term, TermKind, UnOp};
use crate::value::{FieldValue, Value};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, Zero};
use std::fmt;

pub use crate::valuation::{ShowValuation, Valuation};

/// The largest magnitude evaluation computes, in bits (about 19 700 decimal
/// digits): one operation on such numbers, and printing one, take
/// milliseconds.
pub const MAX_INTEGER_BITS: u64 = 1 << 16;

/// Why a term has no value: `⊥` (a field of `nil`, §4), or a term that is
/// ill-typed or mentions an unknown variable or object, which is never a
/// property of a well-typed program run on a complete, consistent valuation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// `V(e) = ⊥`: the named field access reads a field of `nil`.
    NilDereference(String),
    Unbound(Name),
    IllTyped(String),
    /// The named operation's result would exceed [`MAX_INTEGER_BITS`].
    TooLarge(String),
}

impl EvalError {
    /// Whether this is §4's `⊥`, an error of the program rather than of its input.
    pub fn is_nil_dereference(&self) -> bool {
        matches!(self, EvalError::NilDereference(_))
    }

    /// Whether evaluation stopped at the integer bound, a limit of the
    /// implementation rather than an error of the program or its input.
    pub fn is_too_large(&self) -> bool {
        matches!(self, EvalError::TooLarge(_))
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::NilDereference(access) => write!(f, "`{access}` dereferences nil"),
            EvalError::Unbound(x) => write!(f, "variable `{x}` has no value"),
            EvalError::IllTyped(what) => write!(f, "ill-typed term: {what}"),
            EvalError::TooLarge(operation) => write!(
                f,
                "`{operation}` exceeds the integer bound of {MAX_INTEGER_BITS} bits"
            ),
        }
    }
}

/// A node's value: `Some(v)`, or `None` for `⊥`.
type Defined = Option<Value>;

/// `V(e)` for `V = (G, H)` with `lookup` giving `G(x)`.
pub fn eval_in(
    e: &Term,
    lookup: impl Fn(&Name) -> Option<Value>,
    heap: &Heap,
) -> Result<Value, EvalError> {
    evaluate(e, &lookup, heap, None)
}

/// The values of ground terms (no variable, no heap read: the same under
/// every valuation), kept across evaluations: the state `0 + 1 + … + 1` of
/// a loop unfolded k times, whose prefixes every later path shares, then
/// costs each evaluation its new nodes rather than k. Kept in generations
/// ([`Generations`]), so its memory stays bounded.
#[derive(Default)]
pub struct GroundValues(Generations<Value>);

/// `V(e)`, reading and extending `ground`.
pub fn eval_sharing(
    e: &Term,
    v: &Valuation,
    ground: &mut GroundValues,
) -> Result<Value, EvalError> {
    ground.0.age();
    evaluate(
        e,
        &|x: &Name| v.get(x).cloned(),
        &v.heap,
        Some(&mut ground.0),
    )
}

/// `V(e)` over the nodes of `e` children first, skipping the ground nodes
/// whose values `ground` holds and adding those it computes.
fn evaluate(
    e: &Term,
    lookup: &impl Fn(&Name) -> Option<Value>,
    heap: &Heap,
    mut ground: Option<&mut Generations<Value>>,
) -> Result<Value, EvalError> {
    let nodes = match ground.as_deref() {
        Some(known) => {
            if let Some(value) = known.get(&e.id()) {
                return Ok(value.clone());
            }
            e.nodes_besides(|t| known.contains_key(&t.id()))
        }
        None => e.nodes_besides(|_| false),
    };
    let mut memo: IdMap<Defined> = IdMap::default();
    for node in nodes {
        if let Some(known) = ground.as_deref() {
            for child in node.children() {
                if let Some(value) = known.get(&child.id()) {
                    memo.entry(child.id())
                        .or_insert_with(|| Some(value.clone()));
                }
            }
        }
        let value = eval_node(&node, &memo, lookup, heap)?;
        if let (Some(known), Some(value)) = (ground.as_deref_mut(), &value) {
            if is_ground(&node, known) {
                known.insert(node.id(), value.clone());
            }
        }
        memo.insert(node.id(), value);
    }
    defined(e, memo.remove(&e.id()).flatten())
}

/// Whether `node` is a literal, or an operation on ground terms (those `known` holds).
fn is_ground(node: &Term, known: &Generations<Value>) -> bool {
    let operation = matches!(
        node.kind(),
        TermKind::Int(_)
            | TermKind::Bool(_)
            | TermKind::Nil(_)
            | TermKind::Unary(..)
            | TermKind::Binary(..)
            | TermKind::Ite(..)
    );
    operation
        && node
            .children()
            .iter()
            .all(|child| known.contains_key(&child.id()))
}

/// `V(e)` for variables only (no heap), with `lookup` giving `V(x)`.
pub fn eval_with(e: &Term, lookup: impl Fn(&Name) -> Option<Value>) -> Result<Value, EvalError> {
    eval_in(e, lookup, &Heap::new())
}

/// `V(e)`.
pub fn eval(e: &Term, v: &Valuation) -> Result<Value, EvalError> {
    eval_in(e, |x| v.get(x).cloned(), &v.heap)
}

/// `V(e)` for each of `terms`, with one memo table: terms that share
/// subterms (the local substitutions of nested calls) are evaluated in time
/// linear in their distinct nodes together, not each on its own.
pub fn eval_all(terms: &[Term], v: &Valuation) -> Result<Vec<Value>, EvalError> {
    let lookup = |x: &Name| v.get(x).cloned();
    let mut memo: IdMap<Defined> = IdMap::default();
    let mut values = Vec::with_capacity(terms.len());
    for term in terms {
        let mut stack = vec![(term.clone(), false)];
        while let Some((node, expanded)) = stack.pop() {
            if memo.contains_key(&node.id()) {
                continue;
            }
            if expanded {
                let value = eval_node(&node, &memo, &lookup, &v.heap)?;
                memo.insert(node.id(), value);
            } else {
                stack.push((node.clone(), true));
                stack.extend(
                    node.children()
                        .into_iter()
                        .filter(|c| !memo.contains_key(&c.id()))
                        .map(|c| (c.clone(), false)),
                );
            }
        }
        values.push(defined(term, memo[&term.id()].clone())?);
    }
    Ok(values)
}

/// The value of `e`, or `⊥` as an error naming the access that failed.
fn defined(e: &Term, value: Defined) -> Result<Value, EvalError> {
    value.ok_or_else(|| {
        let access = e
            .nodes()
            .into_iter()
            .find(|node| matches!(node.kind(), TermKind::Field(..)))
            .unwrap_or_else(|| e.clone());
        EvalError::NilDereference(access.to_string())
    })
}

/// `V(b)` for a boolean `b`.
pub fn eval_bool(b: &Term, v: &Valuation) -> Result<bool, EvalError> {
    eval(b, v)?
        .as_bool()
        .ok_or_else(|| EvalError::IllTyped(format!("`{b}` is not boolean")))
}

/// A condition that many valuations are tried against (model shrinking):
/// the conjunct that failed last is evaluated first, then the whole
/// condition (one memo table for the subterms its conjuncts share). A
/// valuation that fails mostly fails where the one before did, and then
/// costs one conjunct rather than the whole condition.
pub struct Conjunction {
    phi: Term,
    conjuncts: Vec<Term>,
    failed: std::cell::Cell<Option<usize>>,
}

impl Conjunction {
    pub fn new(phi: &Term) -> Conjunction {
        Conjunction {
            phi: phi.clone(),
            conjuncts: phi.conjuncts(),
            failed: std::cell::Cell::new(None),
        }
    }

    /// Whether `V(φ)` is `true` (an error is not).
    pub fn holds(&self, v: &Valuation) -> bool {
        let last = self.failed.get().and_then(|i| self.conjuncts.get(i));
        if last.is_some_and(|conjunct| eval_bool(conjunct, v) != Ok(true)) {
            return false;
        }
        if eval_bool(&self.phi, v) == Ok(true) {
            return true;
        }
        let failing = self
            .conjuncts
            .iter()
            .position(|conjunct| eval_bool(conjunct, v) != Ok(true));
        self.failed.set(failing);
        false
    }
}

/// `V ∘ σ`, on every variable of `V` and of σ's domain: `(V ∘ σ)(x) = V(σ(x))`.
pub fn compose(v: &Valuation, sigma: &Substitution) -> Result<Valuation, EvalError> {
    let mut composed = v.clone();
    for (x, e) in sigma.iter() {
        composed.insert(x.clone(), eval(e, v)?);
    }
    Ok(composed)
}

/// One node's value from its children's (`None` is `⊥`). Strict operators
/// are `⊥` when an operand is; `&&`, `||`, `==>` and conditionals only when
/// an operand they need is (SPEC §1.5).
fn eval_node(
    node: &Term,
    memo: &IdMap<Defined>,
    lookup: &impl Fn(&Name) -> Option<Value>,
    heap: &Heap,
) -> Result<Defined, EvalError> {
    let value_of = |t: &Term| memo[&t.id()].as_ref();
    let ill_typed = |t: &Term, what: &str| EvalError::IllTyped(format!("`{t}` is not {what}"));
    let boolean = |t: &Term| -> Result<Option<bool>, EvalError> {
        value_of(t)
            .map(|v| v.as_bool().ok_or_else(|| ill_typed(t, "boolean")))
            .transpose()
    };
    match node.kind() {
        TermKind::Binary(op @ (BinOp::And | BinOp::Or | BinOp::Implies), a, b) => {
            let Some(first) = boolean(a)? else {
                return Ok(None);
            };
            let decided = match op {
                BinOp::And => (!first).then_some(false),
                BinOp::Or => first.then_some(true),
                _ => (!first).then_some(true),
            };
            return Ok(match decided {
                Some(value) => Some(Value::Bool(value)),
                None => boolean(b)?.map(Value::Bool),
            });
        }
        TermKind::Ite(c, a, b) => {
            return Ok(match boolean(c)? {
                None => None,
                Some(true) => value_of(a).cloned(),
                Some(false) => value_of(b).cloned(),
            })
        }
        _ => {}
    }
    if node
        .children()
        .iter()
        .any(|child| value_of(child).is_none())
    {
        return Ok(None);
    }
    // Every operand below is defined (checked just above).
    let value = |t: &Term| value_of(t).unwrap_or(&Value::Nil);
    let int = |t: &Term| {
        value(t)
            .as_int()
            .cloned()
            .ok_or_else(|| ill_typed(t, "an integer"))
    };
    let array = |t: &Term| {
        value(t)
            .as_array()
            .cloned()
            .ok_or_else(|| ill_typed(t, "an array"))
    };
    Ok(Some(match node.kind() {
        TermKind::Int(n) => Value::Int(n.clone()),
        TermKind::Bool(b) => Value::Bool(*b),
        TermKind::Nil(_) => Value::Nil,
        TermKind::Var(x, _) => lookup(x).ok_or_else(|| EvalError::Unbound(x.clone()))?,
        TermKind::Len(a) => match lookup(a) {
            Some(Value::Array(array)) => Value::Int(array.len),
            Some(_) => return Err(EvalError::IllTyped(format!("`{a}` is not an array"))),
            None => return Err(EvalError::Unbound(a.clone())),
        },
        TermKind::Unary(UnOp::Neg, a) => Value::Int(-int(a)?),
        TermKind::Unary(UnOp::Not, a) => {
            Value::Bool(!value(a).as_bool().ok_or_else(|| ill_typed(a, "boolean"))?)
        }
        TermKind::Binary(op, a, b) => {
            binary(*op, value(a), value(b)).map_err(|fault| match fault {
                Fault::IllTyped => EvalError::IllTyped(node.to_string()),
                Fault::TooLarge => EvalError::TooLarge(node.to_string()),
            })?
        }
        TermKind::FieldArray(f, _) => Value::Field(FieldValue {
            field: f.clone(),
            writes: Default::default(),
        }),
        TermKind::Select(a, i) => match value(a) {
            // f[e] (§4.1): the latest write at V(e), else H(V(e).f); ⊥ for nil.
            Value::Field(field) => match field.written(value(i)) {
                Some(written) => written.clone(),
                None => match value(i).as_reference() {
                    Some(None) => return Ok(None),
                    Some(Some(o)) => heap.field(o, &field.field).cloned().ok_or_else(|| {
                        EvalError::IllTyped(format!(
                            "`{node}`: the heap has no object {o} with a field `{}`",
                            field.field
                        ))
                    })?,
                    None => return Err(ill_typed(i, "an object")),
                },
            },
            _ => array(a)?.get(&int(i)?),
        },
        TermKind::Store(a, i, v) => match value(a) {
            Value::Field(field) => Value::Field(field.set(value(i).clone(), value(v).clone())),
            _ => Value::Array(array(a)?.set(int(i)?, value(v).clone())),
        },
        TermKind::Field(object, f, _) => match value(object).as_reference() {
            Some(None) => return Ok(None),
            Some(Some(o)) => heap.field(o, f).cloned().ok_or_else(|| {
                EvalError::IllTyped(format!(
                    "`{node}`: the heap has no object {o} with a field `{f}`"
                ))
            })?,
            None => return Err(ill_typed(object, "an object")),
        },
        TermKind::Ite(..) => {
            return Err(EvalError::IllTyped(format!("`{node}` is evaluated lazily")))
        }
    }))
}

/// `x div y` and `x mod y` of SMT-LIB (Euclidean: `0 ≤ x mod y < |y|`), made
/// total by `x div 0 = 0` and `x mod 0 = x` (SPEC §1.5).
pub fn euclidean_div_mod(x: &BigInt, y: &BigInt) -> (BigInt, BigInt) {
    if y.is_zero() {
        return (BigInt::zero(), x.clone());
    }
    let (q, r) = x.div_mod_floor(y);
    if crate::mutants::active(crate::mutants::Mutant::DivisionFloorsNegativeDivisor) {
        return (q, r);
    }
    if r.is_negative() {
        // Only reachable for y < 0: floor remainder has the sign of y.
        (q + 1, r - y)
    } else {
        (q, r)
    }
}

/// Why a binary operation has no value.
enum Fault {
    IllTyped,
    TooLarge,
}

/// `n`, unless it is beyond [`MAX_INTEGER_BITS`].
fn bounded(n: BigInt) -> Result<Value, Fault> {
    if n.bits() > MAX_INTEGER_BITS {
        Err(Fault::TooLarge)
    } else {
        Ok(Value::Int(n))
    }
}

fn binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, Fault> {
    use Value::{Bool, Int};
    Ok(match (op, a, b) {
        (BinOp::Add, Int(x), Int(y)) => bounded(x + y)?,
        (BinOp::Sub, Int(x), Int(y)) => bounded(x - y)?,
        // The product has at least `bits(x) + bits(y) - 1` bits: refused before it is computed.
        (BinOp::Mul, Int(x), Int(y)) if x.bits() + y.bits() > MAX_INTEGER_BITS + 1 => {
            return Err(Fault::TooLarge)
        }
        (BinOp::Mul, Int(x), Int(y)) => bounded(x * y)?,
        (BinOp::Div, Int(x), Int(y)) => Int(euclidean_div_mod(x, y).0),
        (BinOp::Mod, Int(x), Int(y)) => Int(euclidean_div_mod(x, y).1),
        (BinOp::Lt, Int(x), Int(y)) => Bool(x < y),
        (BinOp::Le, Int(x), Int(y)) => Bool(x <= y),
        (BinOp::Gt, Int(x), Int(y)) => Bool(x > y),
        (BinOp::Ge, Int(x), Int(y)) => Bool(x >= y),
        (BinOp::Eq, x, y) => Bool(x == y),
        (BinOp::Ne, x, y) => Bool(x != y),
        _ => return Err(Fault::IllTyped),
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
        let v: Valuation = [(Name::from("x"), Value::Int(BigInt::from(7)))]
            .into_iter()
            .collect();
        let one_at_a_time: Vec<Value> = terms.iter().map(|t| eval(t, &v).unwrap()).collect();
        assert_eq!(eval_all(&terms, &v).unwrap(), one_at_a_time);
        assert_eq!(one_at_a_time[50], Value::Int(BigInt::from(-43)));
    }

    #[test]
    fn shared_ground_values_never_carry_a_variable_over() {
        let x = Term::var("x", crate::term::Sort::Int);
        let mut count = Term::int(0);
        for _ in 0..20 {
            count = Term::binary(BinOp::Add, count, Term::int(1));
        }
        let term = Term::binary(
            BinOp::Mul,
            count.clone(),
            Term::binary(BinOp::Add, x, Term::int(1)),
        );
        let mut ground = GroundValues::default();
        for n in [2, 5] {
            let v: Valuation = [(Name::from("x"), Value::Int(BigInt::from(n)))]
                .into_iter()
                .collect();
            assert_eq!(eval_sharing(&term, &v, &mut ground), eval(&term, &v));
        }
        assert!(ground.0.contains_key(&count.id()), "the count is ground");
        assert!(!ground.0.contains_key(&term.id()), "the product reads x");
    }

    #[test]
    fn arithmetic_stops_at_the_integer_bound() {
        let y = Term::var("y", crate::term::Sort::Int);
        let square = Term::binary(BinOp::Mul, y.clone(), y.clone());
        let at = |bits: u64| -> Valuation {
            [(Name::from("y"), Value::Int(BigInt::from(1) << bits))]
                .into_iter()
                .collect()
        };
        let within = MAX_INTEGER_BITS / 2 - 1;
        assert_eq!(
            eval(&square, &at(within)),
            Ok(Value::Int(BigInt::from(1) << (2 * within)))
        );
        assert!(eval(&square, &at(within + 1)).is_err_and(|error| error.is_too_large()));
        let double = Term::binary(BinOp::Add, y.clone(), y);
        assert!(eval(&double, &at(MAX_INTEGER_BITS - 1)).is_err_and(|error| error.is_too_large()));
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
