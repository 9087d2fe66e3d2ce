//! Models people can read. Z3 answers with whatever model its search meets
//! (`a ↦ {default: -20537, 0: 15921, 2: -8945; len 3}`); KLEE's `ktest-tool`
//! and CrossHair print plain values. A path's model is rewritten before it
//! is reported, and every change is kept only if the evaluator confirms the
//! whole path condition under it, so the result is still a model:
//!
//! 1. an input array keeps only the entries the path condition reads, at
//!    their indices under the model, over the default `0` (`false`): within
//!    its length it prints as a list, `[0, 1, 2]`;
//! 2. each integer — a scalar input, an array's length, an entry kept —
//!    moves towards 0: `0`, then one step closer, then a binary search on
//!    its magnitude;
//! 3. when an integer is still larger than the literals of the path
//!    condition can explain (Z3's arbitrary choices among coupled inputs),
//!    Z3 is asked again with every integer bounded, `|t| ≤ B` for
//!    B = 1, 10, 100, … (bounded, then relaxed until satisfiable), and its
//!    answer goes through steps 1 and 2.
//!
//! Only models that hold values Z3 chose come here: a model built of the
//! inputs' defaults and the boundary values model repair and intervals
//! pick is readable already (the bench families' models are), and a model
//! whose integers are all within ±1 and whose arrays print as lists is
//! left as it is.

use num_bigint::{BigInt, Sign};
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, BTreeSet};
use symex_semantics::eval::{eval, eval_bool, Conjunction, Valuation};
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind};
use symex_semantics::valuation::natural_order;
use symex_semantics::value::{ArrayValue, Oid, Value};

/// Asks Z3 for a model of a condition; `None` when it has none (or gives up).
pub(crate) trait BoundedModels {
    fn model_of(&mut self, condition: &Term, vars: &BTreeMap<Name, Sort>) -> Option<Valuation>;
}

/// The bounds tried in step 3, smallest first.
const BOUNDS: [u32; 6] = [1, 10, 100, 1_000, 10_000, 100_000];

/// `model` of `phi` made readable (see the module documentation); `model`
/// itself when it is plain already or nothing smaller is found.
pub(crate) fn readable(
    model: Valuation,
    phi: &Term,
    inputs: &BTreeMap<Name, Sort>,
    z3: &mut dyn BoundedModels,
) -> Valuation {
    if is_plain(&model) {
        return model;
    }
    let model = shrunk(model, phi);
    let before = largest(&model);
    let explained = literal_sum(phi) * 2u32 + 2u32;
    if before <= explained || has_objects(&model) {
        return model;
    }
    for bound in BOUNDS.map(BigInt::from) {
        if bound >= before {
            break;
        }
        let condition = Term::and(phi.clone(), bounded(&model, &bound));
        let mut vars = phi.free_vars();
        vars.extend(inputs.iter().map(|(x, sort)| (x.clone(), sort.clone())));
        let Some(found) = z3.model_of(&condition, &vars) else {
            continue;
        };
        let found = found.retain(|x| model.contains_key(x));
        if eval_bool(phi, &found) == Ok(true) {
            let found = shrunk(found, phi);
            if largest(&found) < before {
                return found;
            }
        }
        break;
    }
    model
}

/// Rounds of step 2 at most: an integer held by another (`v > l.val`)
/// moves once the other has.
const ROUNDS: usize = 3;

/// Steps 1 and 2: arrays reduced to the entries `phi` reads, then every
/// integer moved towards 0, each change confirmed, until nothing moves.
/// A change is confirmed on the conjuncts that read the integer's name
/// (the others hold as they did), so a long path condition costs each
/// integer only its own conjuncts; the result is confirmed on the whole.
fn shrunk(model: Valuation, phi: &Term) -> Valuation {
    let model = read_entries_only(model, phi);
    let conjuncts: Vec<(Term, BTreeSet<Name>)> = phi
        .conjuncts()
        .into_iter()
        .map(|conjunct| {
            let names = names_read(&conjunct);
            (conjunct, names)
        })
        .collect();
    let mut shrunk = model.clone();
    for _ in 0..ROUNDS {
        let before = shrunk.clone();
        for atom in atoms(&shrunk) {
            let reading = conjuncts
                .iter()
                .filter(|(_, names)| names.contains(atom.name()))
                .map(|(conjunct, _)| conjunct.clone());
            let phi = Conjunction::new(&Term::conjunction(reading));
            shrunk = towards_zero(shrunk, &atom, &phi);
        }
        if shrunk == before {
            break;
        }
    }
    match eval_bool(phi, &shrunk) {
        Ok(true) => shrunk,
        _ => model,
    }
}

/// The variables and fields `t` reads, by name.
fn names_read(t: &Term) -> BTreeSet<Name> {
    t.nodes()
        .iter()
        .filter_map(|node| match node.kind() {
            TermKind::Var(x, _) | TermKind::Len(x) => Some(x.clone()),
            TermKind::Field(_, f, _) | TermKind::FieldArray(f, _) => Some(f.clone()),
            _ => None,
        })
        .collect()
}

/// An integer of a model: a scalar input, an array's length, an entry, or
/// an integer field of an object of the initial heap.
#[derive(Clone, Debug)]
enum Atom {
    Var(Name),
    Len(Name),
    Entry(Name, BigInt),
    Field(Oid, Name),
}

impl Atom {
    /// The name a term reads the atom by: its variable, array or field.
    fn name(&self) -> &Name {
        match self {
            Atom::Var(x) | Atom::Len(x) | Atom::Entry(x, _) => x,
            Atom::Field(_, f) => f,
        }
    }

    fn get(&self, model: &Valuation) -> Option<BigInt> {
        match self {
            Atom::Var(x) => model.get(x)?.as_int().cloned(),
            Atom::Len(a) => Some(model.get(a)?.as_array()?.len.clone()),
            Atom::Entry(a, i) => model.get(a)?.as_array()?.get(i).as_int().cloned(),
            Atom::Field(o, f) => model.heap.field(*o, f)?.as_int().cloned(),
        }
    }

    fn set(&self, model: &Valuation, n: BigInt) -> Option<Valuation> {
        let (name, value) = match self {
            Atom::Var(x) => (x, Value::Int(n)),
            Atom::Len(a) => {
                let array = model.get(a)?.as_array()?;
                (
                    a,
                    Value::Array(ArrayValue {
                        len: n,
                        ..array.clone()
                    }),
                )
            }
            Atom::Entry(a, i) => (
                a,
                Value::Array(model.get(a)?.as_array()?.set(i.clone(), Value::Int(n))),
            ),
            Atom::Field(o, f) => {
                return Some(model.with_heap(model.heap.set_field(*o, f, Value::Int(n))?))
            }
        };
        Some(model.update(name.clone(), value))
    }

    /// The atom as a term over the inputs; `None` for a field, whose
    /// object has no name a term could use.
    fn term(&self) -> Option<Term> {
        Some(match self {
            Atom::Var(x) => Term::var(x, Sort::Int),
            Atom::Len(a) => Term::len(a),
            Atom::Entry(a, i) => {
                Term::select(Term::var(a, Sort::int_array()), Term::int(i.clone()))
            }
            Atom::Field(..) => return None,
        })
    }
}

/// The integers of `model` in the order they print: names in natural
/// order (`v2` before `v10`), an array's length before its entries, then
/// the objects' fields.
fn atoms(model: &Valuation) -> Vec<Atom> {
    let mut names: Vec<&Name> = model.keys().collect();
    names.sort_by(|a, b| natural_order(a, b));
    let mut atoms = Vec::new();
    for x in names {
        match model.get(x) {
            Some(Value::Int(_)) => atoms.push(Atom::Var(x.clone())),
            Some(Value::Array(array)) => {
                atoms.push(Atom::Len(x.clone()));
                if matches!(*array.default, Value::Int(_)) {
                    atoms.extend(
                        array
                            .entries
                            .keys()
                            .map(|i| Atom::Entry(x.clone(), i.clone())),
                    );
                }
            }
            _ => {}
        }
    }
    for (o, object) in model.heap.iter() {
        let integers = object
            .fields
            .iter()
            .filter(|(_, v)| matches!(v, Value::Int(_)));
        atoms.extend(integers.map(|(f, _)| Atom::Field(*o, f.clone())));
    }
    atoms
}

/// `model` with the atom moved as close to 0 as the evaluator allows:
/// 0, then one step closer (a value held by a bound stays after two
/// evaluations), then a binary search on the magnitude.
fn towards_zero(model: Valuation, atom: &Atom, phi: &Conjunction) -> Valuation {
    let Some(value) = atom.get(&model) else {
        return model;
    };
    if value.bits() <= 1 {
        return model;
    }
    let holds = |n: &BigInt| {
        atom.set(&model, n.clone())
            .filter(|candidate| phi.holds(candidate))
    };
    if let Some(zero) = holds(&BigInt::zero()) {
        return zero;
    }
    let sign = if value.sign() == Sign::Minus {
        -BigInt::one()
    } else {
        BigInt::one()
    };
    let Some(mut best) = holds(&(&value - &sign)).map(|m| (value.abs() - 1u32, m)) else {
        return model;
    };
    // The smallest magnitude in (low, best.0] that holds, assuming the
    // condition is monotone there; every probe is confirmed all the same.
    let mut low = BigInt::zero();
    while &best.0 - &low > One::one() {
        let middle: BigInt = (&low + &best.0) / 2u32;
        match holds(&(&middle * &sign)) {
            Some(candidate) => best = (middle, candidate),
            None => low = middle,
        }
    }
    best.1
}

/// `model` with each input array reduced to the entries `phi` reads (its
/// selects of the input array, at their indices under `model`) over the
/// element's default, if `phi` still holds.
fn read_entries_only(model: Valuation, phi: &Term) -> Valuation {
    let arrays: Vec<(Name, ArrayValue)> = model
        .iter()
        .filter_map(|(a, v)| Some((a.clone(), v.as_array()?.clone())))
        .filter(|(_, array)| !is_plain_array(array))
        .collect();
    if arrays.is_empty() {
        return model;
    }
    let read = read_indices(phi, &model);
    let mut reduced = model.clone();
    for (a, array) in arrays {
        let mut plain =
            ArrayValue::constant(array.len.clone(), Value::default_of(&element_sort(&array)));
        for i in read.get(&a).into_iter().flatten() {
            plain = plain.set(i.clone(), array.get(i));
        }
        reduced.insert(a, Value::Array(plain));
    }
    if eval_bool(phi, &reduced) == Ok(true) {
        reduced
    } else {
        model
    }
}

/// The sort of an array's elements, from its default.
fn element_sort(array: &ArrayValue) -> Sort {
    match *array.default {
        Value::Bool(_) => Sort::Bool,
        _ => Sort::Int,
    }
}

/// For each input array, the indices at which `phi` reads it under `model`.
fn read_indices(phi: &Term, model: &Valuation) -> BTreeMap<Name, BTreeSet<BigInt>> {
    let mut read: BTreeMap<Name, BTreeSet<BigInt>> = BTreeMap::new();
    for node in phi.nodes() {
        let TermKind::Select(array, index) = node.kind() else {
            continue;
        };
        let mut base = array;
        while let TermKind::Store(inner, _, _) = base.kind() {
            base = inner;
        }
        if let (TermKind::Var(a, _), Ok(Value::Int(i))) = (base.kind(), eval(index, model)) {
            read.entry(a.clone()).or_default().insert(i);
        }
    }
    read
}

/// `|t| ≤ bound` for every integer of `model`.
fn bounded(model: &Valuation, bound: &BigInt) -> Term {
    Term::conjunction(
        atoms(model)
            .into_iter()
            .filter_map(|atom| atom.term())
            .flat_map(|t| {
                [
                    Term::binary(BinOp::Le, t.clone(), Term::int(bound.clone())),
                    Term::binary(BinOp::Ge, t, Term::int(-bound)),
                ]
            }),
    )
}

/// Whether every integer is within ±1 and every array prints as a list.
fn is_plain(model: &Valuation) -> bool {
    let fields = model
        .heap
        .iter()
        .flat_map(|(_, object)| object.fields.values());
    model.iter().map(|(_, v)| v).chain(fields).all(|v| match v {
        Value::Int(n) => n.bits() <= 1,
        Value::Array(array) => is_plain_array(array),
        _ => true,
    })
}

/// An array over the element's default with small entries within its length.
fn is_plain_array(array: &ArrayValue) -> bool {
    let default = Value::default_of(&element_sort(array));
    *array.default == default
        && array.entries.iter().all(|(i, v)| {
            !i.is_negative() && i < &array.len && v.as_int().is_none_or(|n| n.bits() <= 1)
        })
}

/// The largest magnitude of an integer of `model`.
fn largest(model: &Valuation) -> BigInt {
    atoms(model)
        .iter()
        .filter_map(|atom| atom.get(model))
        .map(|n| n.abs())
        .max()
        .unwrap_or_default()
}

/// The sum of the magnitudes of the integer literals of `phi`: a bound on
/// the values a path condition with unit coefficients needs.
fn literal_sum(phi: &Term) -> BigInt {
    phi.nodes()
        .iter()
        .filter_map(|node| match node.kind() {
            TermKind::Int(n) => Some(n.abs()),
            _ => None,
        })
        .sum()
}

fn has_objects(model: &Valuation) -> bool {
    !model.heap.is_empty() || model.iter().any(|(_, v)| matches!(v, Value::Object(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Solver;

    /// Z3 itself, as the path solver asks it.
    struct Z3;

    impl BoundedModels for Z3 {
        fn model_of(&mut self, condition: &Term, vars: &BTreeMap<Name, Sort>) -> Option<Valuation> {
            Solver::new(1_000).values_satisfying(condition, vars)
        }
    }

    /// A solver that answers with a fixed valuation, model or not.
    struct Answers(Valuation, usize);

    impl BoundedModels for Answers {
        fn model_of(&mut self, _: &Term, _: &BTreeMap<Name, Sort>) -> Option<Valuation> {
            self.1 += 1;
            Some(self.0.clone())
        }
    }

    fn int(x: &str) -> Term {
        Term::var(x, Sort::Int)
    }

    fn cell(a: &str, i: i64) -> Term {
        Term::select(Term::var(a, Sort::int_array()), Term::int(i))
    }

    fn compare(op: BinOp, l: Term, r: Term) -> Term {
        Term::binary(op, l, r)
    }

    fn model(pairs: &[(&str, Value)]) -> Valuation {
        pairs
            .iter()
            .map(|(x, v)| (Name::from(*x), v.clone()))
            .collect()
    }

    fn array(len: i64, default: i64, entries: &[(i64, i64)]) -> Value {
        let mut array = ArrayValue::constant(len.into(), Value::Int(default.into()));
        for (i, v) in entries {
            array = array.set((*i).into(), Value::Int((*v).into()));
        }
        Value::Array(array)
    }

    fn inputs(model: &Valuation) -> BTreeMap<Name, Sort> {
        model
            .iter()
            .map(|(x, v)| {
                (
                    x.clone(),
                    if v.as_array().is_some() {
                        Sort::int_array()
                    } else {
                        Sort::Int
                    },
                )
            })
            .collect()
    }

    /// Lab 2's `max.sx`, a path through both turns of the loop with checked
    /// arrays: Z3's model reads as a list of small numbers.
    #[test]
    fn an_array_model_becomes_a_short_list_of_small_numbers() {
        let phi = Term::conjunction([
            compare(BinOp::Gt, Term::len("a"), Term::int(2)),
            compare(BinOp::Eq, int("n"), Term::int(3)),
            compare(BinOp::Lt, cell("a", 0), cell("a", 1)),
            compare(BinOp::Lt, cell("a", 1), cell("a", 2)),
        ]);
        let z3 = model(&[
            ("a", array(3, 32285, &[(0, 32284), (2, 32286)])),
            ("n", Value::Int(3.into())),
        ]);
        assert_eq!(eval_bool(&phi, &z3), Ok(true));
        let shown = readable(z3.clone(), &phi, &inputs(&z3), &mut Z3);
        assert_eq!(eval_bool(&phi, &shown), Ok(true));
        assert_eq!(
            shown.get("a").map(ToString::to_string).as_deref(),
            Some("[0, 1, 2]")
        );
    }

    /// Unchecked, an array keeps the entries the path reads, with their
    /// indices, over 0 elsewhere.
    #[test]
    fn an_unchecked_array_keeps_the_entries_read() {
        let phi = compare(BinOp::Gt, cell("a", 3), int("x"));
        let z3 = model(&[
            ("a", array(0, -7, &[(3, 40), (9, 5)])),
            ("x", Value::Int(2.into())),
        ]);
        let shown = readable(z3.clone(), &phi, &inputs(&z3), &mut Z3);
        assert_eq!(
            shown.get("a").map(ToString::to_string).as_deref(),
            Some("{3: 1; len 0}")
        );
        assert_eq!(shown.get("x"), Some(&Value::Int(0.into())));
    }

    /// `x = y` holds neither value alone: only a bounded query finds small ones.
    #[test]
    fn coupled_inputs_are_bounded_by_asking_again() {
        let phi = Term::and(
            compare(BinOp::Eq, int("x"), int("y")),
            compare(BinOp::Ne, int("x"), Term::int(0)),
        );
        let z3 = model(&[
            ("x", Value::Int(28958.into())),
            ("y", Value::Int(28958.into())),
        ]);
        let shown = readable(z3.clone(), &phi, &inputs(&z3), &mut Z3);
        assert_eq!(eval_bool(&phi, &shown), Ok(true));
        assert!(largest(&shown) <= BigInt::one(), "{shown:?}");
    }

    /// An answer that is not a model is never adopted (the evaluator
    /// confirms it first), however small it is.
    #[test]
    fn a_wrong_answer_of_the_solver_is_refused() {
        let phi = Term::and(
            compare(BinOp::Eq, int("x"), int("y")),
            compare(BinOp::Gt, int("x"), Term::int(5)),
        );
        let z3 = model(&[
            ("x", Value::Int(28958.into())),
            ("y", Value::Int(28958.into())),
        ]);
        let wrong = model(&[("x", Value::Int(1.into())), ("y", Value::Int(1.into()))]);
        let mut solver = Answers(wrong, 0);
        let shown = readable(z3.clone(), &phi, &inputs(&z3), &mut solver);
        assert!(solver.1 > 0, "the bounded query was not asked");
        assert_eq!(shown, z3);
    }

    /// Values a bound holds stay where they are after two evaluations; values
    /// below a lower bound move down to it.
    #[test]
    fn each_integer_moves_towards_zero_as_far_as_the_condition_allows() {
        let phi = Term::and(
            compare(BinOp::Gt, int("x"), Term::int(40)),
            compare(BinOp::Le, int("y"), Term::int(-3)),
        );
        let z3 = model(&[
            ("x", Value::Int(9000.into())),
            ("y", Value::Int((-70000).into())),
        ]);
        let mut never = Answers(Valuation::new(), 0);
        let shown = readable(z3.clone(), &phi, &inputs(&z3), &mut never);
        assert_eq!(
            shown,
            model(&[("x", Value::Int(41.into())), ("y", Value::Int((-3).into()))])
        );
        assert_eq!(never.1, 0, "the evaluator alone suffices here");
    }
}
