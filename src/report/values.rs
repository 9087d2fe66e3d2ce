//! Concrete values in JSON (SPEC §2.1): integers as numbers (as strings
//! beyond 64 bits), booleans, arrays as `{"default": 0, "entries": {"3": 7}, "len": 4}`,
//! `nil` as `null`, objects by identity (`"o1"`) with the heap beside the variables.

use serde_json::{json, Map, Value as Json};
use symex_semantics::eval::Valuation;
use symex_semantics::oo::lazy::InputHeap;
use symex_semantics::program::Language;
use symex_semantics::value::Value;

pub fn value_json(value: &Value) -> Json {
    match value {
        Value::Int(n) => i64::try_from(n).map_or_else(|_| Json::String(n.to_string()), Json::from),
        Value::Bool(b) => Json::Bool(*b),
        Value::Nil => Json::Null,
        Value::Object(o) => Json::String(o.to_string()),
        // Never a variable's value: only forward execution's field arrays evaluate to it.
        Value::Field(_) => Json::String(value.to_string()),
        Value::Array(array) => {
            let entries: Map<String, Json> = array
                .entries
                .iter()
                .map(|(i, v)| (i.to_string(), value_json(v)))
                .collect();
            json!({ "default": value_json(&array.default), "entries": entries, "len": value_json(&Value::Int(array.len.clone())) })
        }
    }
}

/// A valuation as one JSON object, in name order.
pub fn valuation_json(valuation: &Valuation) -> Json {
    Json::Object(
        valuation
            .iter()
            .map(|(x, v)| (x.to_string(), value_json(v)))
            .collect(),
    )
}

/// A valuation with its heap, as `run --heap` reads it (SPEC §2.1):
/// `{"objects": {"o1": {"class": "Node", "next": "o2", …}, …}, "vars": {…}}`.
pub fn heap_json(valuation: &Valuation) -> Json {
    let objects: Map<String, Json> = valuation
        .heap
        .iter()
        .map(|(o, object)| {
            let mut fields = Map::new();
            fields.insert("class".to_string(), Json::String(object.class.to_string()));
            fields.extend(
                object
                    .fields
                    .iter()
                    .map(|(f, v)| (f.to_string(), value_json(v))),
            );
            (o.to_string(), Json::Object(fields))
        })
        .collect();
    json!({ "objects": objects, "vars": valuation_json(valuation) })
}

/// A program's inputs: for an oo program with the heap, as `run --heap`
/// reads them; otherwise the variables alone.
pub fn inputs_json(inputs: &Valuation, language: Language) -> Json {
    if language == Language::Oo {
        heap_json(inputs)
    } else {
        valuation_json(inputs)
    }
}

/// The input heap a lazy path materialised: `{"vars": {"l": "Node@1"},
/// "objects": {"Node@1": {"class": "Node", "next": null, "val": "Node@1.val"}}}`,
/// terms as text, `nil` as `null`, a field the path did not read left out.
pub fn input_heap_json(heap: &InputHeap) -> Json {
    let term = |t: &symex_semantics::term::Term| match t.kind() {
        symex_semantics::term::TermKind::Nil(_) => Json::Null,
        _ => Json::String(t.to_string()),
    };
    let vars: Map<String, Json> = heap
        .vars
        .iter()
        .map(|(x, t)| (x.to_string(), term(t)))
        .collect();
    let objects: Map<String, Json> = heap
        .objects
        .iter()
        .map(|object| {
            let mut fields = Map::new();
            fields.insert("class".to_string(), Json::String(object.class.to_string()));
            fields.extend(
                object
                    .fields
                    .iter()
                    .filter_map(|(f, t)| Some((f.to_string(), term(t.as_ref()?)))),
            );
            (object.name.to_string(), Json::Object(fields))
        })
        .collect();
    json!({ "vars": vars, "objects": objects })
}
