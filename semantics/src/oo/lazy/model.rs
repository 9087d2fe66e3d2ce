//! What a lazy path reports: its final symbolic state, the input it
//! materialised, and from a model of its path condition a concrete input
//! heap — the materialised objects `C@k` as `ok`, every field the path did
//! not read at its default — and the final state a run from it reaches.

use super::heap::{field_symbol, input_index, InputHeap, InputObject, Node};
use super::rules::Rules;
use super::state::{fields_of, State};
use crate::eval::{eval, Valuation};
use crate::program::Program;
use crate::term::{Name, Sort, Term, TermKind};
use crate::value::{Oid, Value};

/// The value of every global after the path: its term over the input
/// symbols, a reference input never read as itself, an array as its input
/// updated at the cells the path wrote.
pub(super) fn global_state<R: Rules>(state: &State<R>, program: &Program) -> Vec<(Name, Term)> {
    program
        .globals
        .iter()
        .map(|(x, sort)| {
            let value = match sort {
                Sort::Array(_) => array_value(state, x, sort),
                _ => state
                    .vars
                    .get(x)
                    .cloned()
                    .unwrap_or_else(|| Term::var(x, sort.clone())),
            };
            (x.clone(), value)
        })
        .collect()
}

/// `(a[i₁] := e₁)…`: the input array with each cell written since.
fn array_value<R: Rules>(state: &State<R>, a: &Name, sort: &Sort) -> Term {
    let input = Term::var(a, sort.clone());
    state.arrays.get(a).map_or(input.clone(), |cells| {
        cells
            .iter()
            .filter(|cell| cell.current != cell.initial)
            .fold(input, |array, cell| {
                Term::store(array, cell.index.clone(), cell.current.clone())
            })
    })
}

/// The symbols `C@k.f` of the input objects' integer and boolean fields.
pub(super) fn symbols<R: Rules>(state: &State<R>) -> Vec<(Name, Sort)> {
    state
        .inputs
        .iter()
        .filter_map(|name| state.objects.get(name))
        .flat_map(|object| object.initial.values())
        .filter_map(|term| match term.kind() {
            TermKind::Var(x, sort) if !matches!(sort, Sort::Object(_)) => {
                Some((x.clone(), sort.clone()))
            }
            _ => None,
        })
        .collect()
}

/// The reference inputs read and the input objects materialised.
pub(super) fn input_heap<R: Rules>(state: &State<R>) -> InputHeap {
    let objects = state
        .inputs
        .iter()
        .filter_map(|name| {
            let object = state.objects.get(name)?;
            let fields = object
                .fields
                .keys()
                .map(|f| (f.clone(), object.initial.get(f).cloned()))
                .collect();
            Some(InputObject {
                name: name.clone(),
                class: object.class.clone(),
                fields,
            })
        })
        .collect();
    InputHeap {
        vars: state
            .initial_vars
            .iter()
            .map(|(x, v)| (x.clone(), v.clone()))
            .collect(),
        objects,
    }
}

/// The input object `C@k` as the object `ok` of a model's heap.
pub(super) fn oid(name: &Name) -> Option<Oid> {
    input_index(name)
        .and_then(|k| u32::try_from(k).ok())
        .map(Oid)
}

/// The value of an input term: a node as its object, a symbol by `model`
/// (its sort's default where the model is silent).
fn input_value(term: &Term, model: &Valuation, sort: &Sort) -> Value {
    match Node::of(term) {
        Node::Nil => Value::Nil,
        Node::Object(name) => oid(name).map_or(Value::Nil, Value::Object),
        Node::Unknown => eval(term, model).unwrap_or_else(|_| Value::default_of(sort)),
    }
}

/// The program's inputs from `model`, a model of the path condition with
/// the path's symbols: the materialised input objects as `o1, o2, …` in
/// the order they were materialised, each field the path read at its input
/// value and every other at its default, and each reference variable read
/// pointing into them (`nil` where it was not read).
pub(super) fn inputs_from<R: Rules>(
    state: &State<R>,
    model: Valuation,
    program: &Program,
) -> Valuation {
    let mut heap = crate::heap::Heap::new();
    for name in &state.inputs {
        let (Some(object), Some(o)) = (state.objects.get(name), oid(name)) else {
            continue;
        };
        let fields = fields_of(program, &object.class)
            .into_iter()
            .map(|(f, sort)| {
                let value = object.initial.get(&f).map_or_else(
                    || Value::default_of(&sort),
                    |t| input_value(t, &model, &sort),
                );
                (f, value)
            })
            .collect();
        heap = heap.insert(
            o,
            crate::heap::Object {
                class: object.class.clone(),
                fields,
            },
        );
    }
    let mut inputs = Valuation::new();
    for (x, sort) in &program.globals {
        let value = match sort {
            Sort::Object(_) => state
                .initial_vars
                .get(x)
                .map_or(Value::Nil, |t| input_value(t, &model, sort)),
            _ => model
                .get(x)
                .cloned()
                .unwrap_or_else(|| Value::default_of(sort)),
        };
        inputs.insert(x.clone(), value);
    }
    inputs.with_heap(heap)
}

/// `inputs` extended by the path's names: each input object as the object
/// `object` gives it, each symbol `C@k.f` as that object's field, each
/// created object as the object a run from `inputs` creates at that point
/// (allocated in order, as the program semantics allocates).
fn named<R: Rules>(
    state: &State<R>,
    inputs: &Valuation,
    program: &Program,
    object: &dyn Fn(&Name) -> Option<Oid>,
) -> Valuation {
    let mut v = inputs.clone();
    for name in &state.inputs {
        let (Some(input), Some(o)) = (state.objects.get(name), object(name)) else {
            continue;
        };
        v.insert(name.clone(), Value::Object(o));
        for f in input.fields.keys() {
            if let Some(value) = inputs.heap.field(o, f) {
                v.insert(field_symbol(name, f).into(), value.clone());
            }
        }
    }
    for x in &state.created {
        let Some(created) = state.objects.get(x) else {
            continue;
        };
        let fields: std::collections::BTreeMap<Name, Sort> =
            fields_of(program, &created.class).into_iter().collect();
        let (o, heap) = v.heap.allocate(&created.class, &fields);
        v = v.with_heap(heap).update(x.clone(), Value::Object(o));
    }
    v
}

/// The globals and the heap after the path, for a run from `inputs`, in
/// which the input object `C@k` is the object `object` gives it.
pub(super) fn predicted_state<R: Rules>(
    state: &State<R>,
    inputs: &Valuation,
    program: &Program,
    object: &dyn Fn(&Name) -> Option<Oid>,
) -> Result<Valuation, String> {
    let v = named(state, inputs, program, object);
    let failed =
        |what: String| move |error| format!("the final value of {what} has no value: {error}");
    let mut predicted = Valuation::new();
    for (x, e) in global_state(state, program) {
        predicted.insert(x.clone(), eval(&e, &v).map_err(failed(format!("`{x}`")))?);
    }
    let mut heap = v.heap.clone();
    for (name, object) in &state.objects {
        let Some(Value::Object(o)) = v.get(name) else {
            continue;
        };
        for (f, current) in &object.fields {
            if let Some(current) = current {
                let value = eval(current, &v).map_err(failed(format!("`{name}.{f}`")))?;
                heap = heap.set_field(*o, f, value).unwrap_or_else(|| heap.clone());
            }
        }
    }
    Ok(predicted.with_heap(heap))
}
