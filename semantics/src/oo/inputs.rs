//! A model of a path condition as a program's inputs `(G, H)`: the solver
//! knows only the fields the condition reads, and may invent objects the
//! condition does not need. Every object gets each field of its class (the
//! default where the model is silent), and the heap is made as small as the
//! condition allows — so a counterexample shows the fewest objects that
//! exhibit the failure — then numbered `o1, o2, …` in the order a
//! breadth-first walk from the variables meets the objects.

use super::needed::objects_needed;
use crate::eval::{Conjunction, Valuation};
use crate::heap::{Heap, Object};
use crate::program::Program;
use crate::term::{Name, Term};
use crate::value::{Oid, Value};
use std::collections::HashMap;

/// Heaps larger than this are only completed and numbered: each shrinking
/// round evaluates the condition once per reference and candidate target.
const MAX_SHRUNK_OBJECTS: usize = 16;

/// `model`, completed and shrunk while it still satisfies `phi`.
pub fn inputs_from(model: Valuation, phi: &Term, program: &Program) -> Valuation {
    let complete = complete(model, program);
    // Without objects there is nothing to shrink, and checking that `phi`
    // holds would evaluate the whole path condition at every leaf.
    let shrunk = if (1..=MAX_SHRUNK_OBJECTS).contains(&complete.heap.len()) {
        shrink(complete, phi)
    } else {
        complete
    };
    numbered(&shrunk)
}

/// Every object with every field of its class, the default value where it had none.
fn complete(model: Valuation, program: &Program) -> Valuation {
    let mut heap = model.heap.clone();
    for (o, object) in model.heap.iter() {
        let Some(class) = program.classes.get(&object.class) else {
            continue;
        };
        if class.fields.keys().all(|f| object.fields.contains_key(f)) {
            continue;
        }
        let mut fields = object.fields.clone();
        for (f, sort) in &class.fields {
            fields
                .entry(f.clone())
                .or_insert_with(|| Value::default_of(sort));
        }
        heap = heap.insert(
            *o,
            Object {
                class: object.class.clone(),
                fields,
            },
        );
    }
    model.with_heap(heap)
}

/// A place that holds a reference: a variable or a field of an object.
#[derive(Clone)]
enum Slot {
    Var(Name),
    Field(Oid, Name),
}

impl Slot {
    fn set(&self, v: &Valuation, value: Value) -> Valuation {
        match self {
            Slot::Var(x) => v.update(x.clone(), value),
            Slot::Field(o, f) => v.with_heap(
                v.heap
                    .set_field(*o, f, value)
                    .unwrap_or_else(|| v.heap.clone()),
            ),
        }
    }
}

/// Greedily redirects references to `nil` or to another object of the same
/// class while `phi` holds and fewer objects stay reachable: the first
/// candidate that does, slot by slot and target by target, is taken, and
/// the search starts again from it. It stops without trying a candidate
/// once `v` reaches no more objects than `phi` needs ([`objects_needed`]).
pub fn shrink(mut v: Valuation, phi: &Term) -> Valuation {
    let needed = objects_needed(phi);
    let mut order = reachable(&v);
    if order.len() <= needed {
        return v;
    }
    let phi = Conjunction::new(phi);
    let holds = |v: &Valuation| phi.holds(v);
    if !holds(&v) {
        return v;
    }
    while let Some(smaller) = improvement(&v, &order, &holds) {
        (v, order) = smaller;
        if order.len() <= needed {
            return v;
        }
    }
    v
}

/// The first candidate, slot by slot and target by target, that reaches
/// fewer objects than `v` (whose reachable objects are `order`) and still
/// satisfies the condition, with the objects it reaches.
fn improvement(
    v: &Valuation,
    order: &[Oid],
    holds: &impl Fn(&Valuation) -> bool,
) -> Option<(Valuation, Vec<Oid>)> {
    for (slot, current) in slots(v, order) {
        let class = &v.heap.get(current).map(|object| object.class.clone());
        let others = order.iter().copied().filter(|o| {
            *o != current && v.heap.get(*o).map(|object| &object.class) == class.as_ref()
        });
        for target in std::iter::once(Value::Nil).chain(others.map(Value::Object)) {
            let candidate = slot.set(v, target);
            let reached = reachable(&candidate);
            if reached.len() < order.len() && holds(&candidate) {
                return Some((candidate, reached));
            }
        }
    }
    None
}

/// Every slot that holds an object, among the variables and the fields of
/// the `reachable` objects.
fn slots(v: &Valuation, reachable: &[Oid]) -> Vec<(Slot, Oid)> {
    let vars = v
        .iter()
        .filter_map(|(x, value)| Some((Slot::Var(x.clone()), value.as_reference()??)));
    let fields = reachable.iter().copied().flat_map(|o| {
        let object = v.heap.get(o).cloned();
        object.into_iter().flat_map(move |object| {
            object
                .fields
                .into_iter()
                .filter_map(move |(f, value)| Some((Slot::Field(o, f), value.as_reference()??)))
        })
    });
    vars.chain(fields).collect()
}

fn reachable(v: &Valuation) -> Vec<Oid> {
    v.heap.reachable(
        v.iter()
            .filter_map(|(_, value)| value.as_reference().flatten()),
    )
}

/// The reachable objects only, renumbered `o1, o2, …` in breadth-first order.
fn numbered(v: &Valuation) -> Valuation {
    let order = reachable(v);
    let renaming: HashMap<Oid, Oid> = order
        .iter()
        .enumerate()
        .map(|(i, o)| (*o, Oid(i as u32 + 1)))
        .collect();
    let rename = |value: &Value| match value {
        Value::Object(o) => Value::Object(renaming[o]),
        other => other.clone(),
    };
    let mut heap = Heap::new();
    for o in &order {
        if let Some(object) = v.heap.get(*o) {
            let fields = object
                .fields
                .iter()
                .map(|(f, value)| (f.clone(), rename(value)))
                .collect();
            heap = heap.insert(
                renaming[o],
                Object {
                    class: object.class.clone(),
                    fields,
                },
            );
        }
    }
    v.iter()
        .map(|(x, value)| (x.clone(), rename(value)))
        .collect::<Valuation>()
        .with_heap(heap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_program;
    use crate::term::{BinOp, Sort};

    fn node(next: Value, val: i64) -> Object {
        Object {
            class: "Node".into(),
            fields: [
                (Name::from("next"), next),
                (Name::from("val"), Value::Int(val.into())),
            ]
            .into_iter()
            .collect(),
        }
    }

    #[test]
    fn unneeded_objects_are_dropped_and_the_rest_completed_and_numbered() {
        let program = parse_program("class Node { field next: Node, val: int, flag: bool; }\nvar x: Node;\nassert x.val = 1").expect("a program");
        let heap = Heap::new()
            .insert(Oid(7), node(Value::Object(Oid(3)), 1))
            .insert(Oid(3), node(Value::Nil, 0));
        let model: Valuation = [("x".into(), Value::Object(Oid(7)))]
            .into_iter()
            .collect::<Valuation>()
            .with_heap(heap);
        let x = Term::var("x", Sort::Object("Node".into()));
        let phi = Term::binary(BinOp::Eq, Term::field(x, "val", Sort::Int), Term::int(1));
        let inputs = inputs_from(model, &phi, &program);
        assert_eq!(inputs["x"], Value::Object(Oid(1)));
        assert_eq!(
            inputs.heap.len(),
            1,
            "x.next is not read, so it becomes nil: {}",
            inputs.heap
        );
        let object = inputs.heap.get(Oid(1)).expect("o1");
        assert_eq!(object.fields["next"], Value::Nil);
        assert_eq!(
            object.fields["flag"],
            Value::Bool(false),
            "a field the model did not mention gets its default"
        );
    }

    #[test]
    fn objects_the_condition_needs_stay() {
        let program = parse_program(
            "class Node { field next: Node, val: int; }\nvar x: Node;\nassert x.next.val = 2",
        )
        .expect("a program");
        let heap = Heap::new()
            .insert(Oid(1), node(Value::Object(Oid(2)), 0))
            .insert(Oid(2), node(Value::Nil, 2));
        let model: Valuation = [("x".into(), Value::Object(Oid(1)))]
            .into_iter()
            .collect::<Valuation>()
            .with_heap(heap.clone());
        let x = Term::var("x", Sort::Object("Node".into()));
        let next = Term::field(x.clone(), "next", Sort::Object("Node".into()));
        let phi = Term::conjunction([
            Term::binary(BinOp::Ne, x, Term::nil("Node")),
            Term::binary(BinOp::Ne, next.clone(), Term::nil("Node")),
            Term::binary(BinOp::Eq, Term::field(next, "val", Sort::Int), Term::int(2)),
        ]);
        assert_eq!(inputs_from(model, &phi, &program).heap, heap);
    }
}
