//! Z3 models → the project's values.
//!
//! Every input is read with model completion, so a variable the model does
//! not mention gets some value. Arrays come back as `store` chains over a
//! `const` array, or as `as-array` of a function interpretation; both are
//! read. Objects are elements of their class's sort: each one an object
//! variable or a field reaches becomes an object of the heap (`o1, o2, …` in
//! the order a breadth-first walk from the variables meets them), with the
//! fields the encoder has met (the only ones the path condition reads).
//! Anything else yields `None`: the caller then has no model, never a
//! wrong one.

use super::encode::{Element, Encoded, Encoder};
use num_bigint::BigInt;
use std::collections::BTreeMap;
use std::collections::{HashMap, VecDeque};
use symex_semantics::eval::Valuation;
use symex_semantics::heap::{Heap, Object};
use symex_semantics::term::{Name, Sort};
use symex_semantics::value::{ArrayValue, Oid, Value};
use z3::ast::{Array, Ast, Bool, Dynamic, Int};
use z3::{DeclKind, Model};

/// The value of every variable of `vars` in `model`.
pub(crate) fn valuation(
    model: &Model,
    encoder: &mut Encoder,
    vars: &BTreeMap<Name, Sort>,
) -> Option<Valuation> {
    let mut valuation = Valuation::new();
    let mut objects = Objects::default();
    for (name, sort) in vars {
        let encoded = encoder.variable(name, sort).ok()?;
        valuation.insert(name.clone(), value(model, encoder, &mut objects, encoded)?);
    }
    let mut heap = Heap::new();
    while let Some((o, element, class)) = objects.pending.pop_front() {
        let mut fields = im::OrdMap::new();
        for (f, array, sort) in encoder.fields_of(&class) {
            let encoded = Encoder::read(array.select(&element), &sort)?;
            fields.insert(f, value(model, encoder, &mut objects, encoded)?);
        }
        heap = heap.insert(o, Object { class, fields });
    }
    Some(valuation.with_heap(heap))
}

/// The objects met so far: each model element with its identity, and those
/// whose fields are still to read.
#[derive(Default)]
struct Objects {
    known: HashMap<String, Oid>,
    pending: VecDeque<(Oid, Dynamic, Name)>,
}

/// The value of `encoded` in `model`.
fn value(
    model: &Model,
    encoder: &mut Encoder,
    objects: &mut Objects,
    encoded: Encoded,
) -> Option<Value> {
    Some(match encoded {
        Encoded::Int(x) => Value::Int(integer(&model.eval(&x, true)?)?),
        Encoded::Bool(b) => Value::Bool(model.eval(&b, true)?.as_bool()?),
        Encoded::Array {
            array,
            len,
            element,
        } => Value::Array(array_value(
            model,
            &array,
            integer(&model.eval(&len, true)?)?,
            element,
        )?),
        // A field array is the initial heap, read object by object below.
        Encoded::Field { .. } => return None,
        Encoded::Object { value, class } => {
            let element = model.eval(&value, true)?;
            if element == model.eval(&encoder.nil(&class), true)? {
                return Some(Value::Nil);
            }
            let next = Oid(objects.known.len() as u32 + 1);
            let o = *objects.known.entry(element.to_string()).or_insert(next);
            if o == next {
                objects.pending.push_back((o, element, class));
            }
            Value::Object(o)
        }
    })
}

/// The input array `array` (a constant) as a total function with length `len`.
fn array_value(model: &Model, array: &Array, len: BigInt, element: Element) -> Option<ArrayValue> {
    let mut entries: Vec<(BigInt, Value)> = Vec::new();
    let mut current = model.eval(array, true)?;
    let default = loop {
        if !current.is_app() {
            return None;
        }
        match current.decl().kind() {
            DeclKind::STORE => {
                let [inner, index, value] = <[Dynamic; 3]>::try_from(current.children()).ok()?;
                entries.push((integer(&index.as_int()?)?, element_value(&value, element)?));
                current = inner.as_array()?;
            }
            DeclKind::CONST_ARRAY => break element_value(&current.nth_child(0)?, element)?,
            DeclKind::AS_ARRAY if entries.is_empty() => {
                // The constant's own interpretation: read its function's graph.
                let function = model.get_func_interp(&array.decl())?;
                for entry in function.get_entries() {
                    let [index] = <[Dynamic; 1]>::try_from(entry.get_args()).ok()?;
                    entries.push((
                        integer(&index.as_int()?)?,
                        element_value(&entry.get_value(), element)?,
                    ));
                }
                break element_value(&function.get_else(), element)?;
            }
            _ => return None,
        }
    };
    // The outermost store of an index wins: apply the chain from the inside out.
    let mut value = ArrayValue::constant(len, default);
    for (index, v) in entries.into_iter().rev() {
        value = value.set(index, v);
    }
    Some(value)
}

fn element_value(value: &Dynamic, element: Element) -> Option<Value> {
    Some(match element {
        Element::Int => Value::Int(integer(&value.as_int()?)?),
        Element::Bool => Value::Bool(value.as_bool().as_ref().and_then(Bool::as_bool)?),
    })
}

/// An integer numeral: directly when it fits 64 bits, else from Z3's
/// spelling (`123…` or `(- 123…)`).
fn integer(numeral: &Int) -> Option<BigInt> {
    if let Some(small) = numeral.as_i64() {
        return Some(BigInt::from(small));
    }
    let spelled = numeral.to_string();
    match spelled
        .strip_prefix("(-")
        .and_then(|rest| rest.strip_suffix(')'))
    {
        Some(magnitude) => magnitude.trim().parse::<BigInt>().ok().map(|n| -n),
        None => spelled.trim().parse().ok(),
    }
}
