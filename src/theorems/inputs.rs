//! Random inputs for the checkers, and shrinking them to a minimal
//! counterexample: small integers (−8..8, half of them −1..3, where array
//! lengths and their last indices lie), booleans, and arrays of small
//! length (0..4) with a few entries (SPEC §1.5: arrays are total functions,
//! so entries outside `0..len(a)` are inputs too). For oo programs (§4),
//! random *consistent* heaps: up to three objects of each class, every
//! reference `nil` or an object of its class, so aliasing is common.

use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use rand::Rng;
use std::collections::BTreeMap;
use symex_semantics::eval::Valuation;
use symex_semantics::heap::{Heap, Object};
use symex_semantics::program::Program;
use symex_semantics::term::{Name, Sort};
use symex_semantics::value::{ArrayValue, Oid, Value};

/// A random value of every variable of `inputs` (objects have none).
pub fn random_inputs(inputs: &BTreeMap<Name, Sort>, rng: &mut impl Rng) -> Valuation {
    let values = inputs
        .iter()
        .filter(|(_, sort)| !matches!(sort, Sort::Object(_)));
    values
        .map(|(x, sort)| (x.clone(), random_value(sort, &[], rng)))
        .collect()
}

/// Random inputs `(G, H)` of `program`: a consistent heap of up to three
/// objects of each class, and a value of every global.
pub fn random_heap_inputs(program: &Program, rng: &mut impl Rng) -> Valuation {
    let mut objects: Vec<(Oid, Name)> = Vec::new();
    for class in program.classes.keys() {
        for _ in 0..rng.gen_range(0..=3) {
            objects.push((Oid(objects.len() as u32 + 1), class.clone()));
        }
    }
    let mut heap = Heap::new();
    for (o, class) in &objects {
        let declared = &program.classes[class].fields;
        let fields = declared
            .iter()
            .map(|(f, sort)| (f.clone(), random_value(sort, &objects, rng)))
            .collect();
        heap = heap.insert(
            *o,
            Object {
                class: class.clone(),
                fields,
            },
        );
    }
    let globals: Valuation = program
        .globals
        .iter()
        .map(|(x, sort)| (x.clone(), random_value(sort, &objects, rng)))
        .collect();
    globals.with_heap(heap)
}

/// A random value of `sort`; an object is `nil` or one of `objects` of its class.
fn random_value(sort: &Sort, objects: &[(Oid, Name)], rng: &mut impl Rng) -> Value {
    match sort {
        Sort::Int if rng.gen() => Value::Int(BigInt::from(rng.gen_range(-1..4))),
        Sort::Int => Value::Int(BigInt::from(rng.gen_range(-8..8))),
        Sort::Bool => Value::Bool(rng.gen()),
        Sort::Array(element) => {
            let mut array = ArrayValue::constant(
                BigInt::from(rng.gen_range(0..4)),
                random_value(element, objects, rng),
            );
            for _ in 0..rng.gen_range(0..4) {
                array = array.set(
                    BigInt::from(rng.gen_range(-1..5)),
                    random_value(element, objects, rng),
                );
            }
            Value::Array(array)
        }
        Sort::Object(class) => {
            let candidates: Vec<Oid> = objects
                .iter()
                .filter(|(_, c)| c == class)
                .map(|(o, _)| *o)
                .collect();
            let never_nil = crate::mutants::active(crate::mutants::Mutant::GeneratorNeverNil)
                && !candidates.is_empty();
            match rng.gen_range(usize::from(never_nil)..=candidates.len()) {
                0 => Value::Nil,
                k => Value::Object(candidates[k - 1]),
            }
        }
        // Field arrays are the forward method's own terms, never a declared global.
        Sort::Field(..) => Value::default_of(sort),
    }
}

/// The valuations one shrinking step away from `v`: one value made
/// simpler, each strictly smaller than `v` (so shrinking terminates).
pub fn smaller_valuations(v: &Valuation) -> Vec<Valuation> {
    v.iter()
        .flat_map(|(x, value)| {
            smaller_values(value)
                .into_iter()
                .map(move |smaller| v.update(x.clone(), smaller))
        })
        .collect()
}

/// Simpler values: integers towards 0, `false`, arrays with fewer entries,
/// a shorter length or simpler elements.
pub fn smaller_values(value: &Value) -> Vec<Value> {
    match value {
        Value::Int(n) if n.is_zero() => Vec::new(),
        Value::Int(n) => {
            let mut smaller = vec![Value::Int(BigInt::zero()), Value::Int(n / 2)];
            smaller.push(Value::Int(n - n.signum()));
            smaller.dedup();
            smaller.retain(|m| m != value);
            smaller
        }
        Value::Bool(true) => vec![Value::Bool(false)],
        Value::Bool(false) | Value::Nil | Value::Object(_) | Value::Field(_) => Vec::new(),
        Value::Array(array) => smaller_arrays(array)
            .into_iter()
            .map(Value::Array)
            .collect(),
    }
}

fn smaller_arrays(array: &ArrayValue) -> Vec<ArrayValue> {
    let mut smaller = Vec::new();
    for index in array.entries.keys() {
        let mut fewer = array.clone();
        fewer.entries.remove(index);
        smaller.push(fewer);
    }
    for len in [BigInt::zero(), &array.len - 1] {
        if !len.is_negative() && len < array.len {
            smaller.push(ArrayValue {
                len,
                ..array.clone()
            });
        }
    }
    for default in smaller_values(&array.default) {
        // Entries stay as they are: only the elements not set change.
        let entries = array
            .entries
            .iter()
            .filter(|(_, v)| **v != default)
            .map(|(i, v)| (i.clone(), v.clone()))
            .collect();
        smaller.push(ArrayValue {
            default: Box::new(default),
            entries,
            len: array.len.clone(),
        });
    }
    for (index, element) in array.entries.iter() {
        for simpler in smaller_values(element) {
            smaller.push(array.set(index.clone(), simpler));
        }
    }
    smaller
}

/// Shrinks `v` greedily while `still_fails` holds: a locally minimal failing input.
pub fn shrink(mut v: Valuation, mut still_fails: impl FnMut(&Valuation) -> bool) -> Valuation {
    'outer: loop {
        for smaller in smaller_valuations(&v) {
            if still_fails(&smaller) {
                v = smaller;
                continue 'outer;
            }
        }
        return v;
    }
}
