//! Concrete values in JSON (SPEC §2.1): integers as numbers (as strings
//! beyond 64 bits), booleans, arrays as `{"default": 0, "entries": {"3": 7}, "len": 4}`.

use serde_json::{json, Map, Value as Json};
use symex_semantics::eval::Valuation;
use symex_semantics::value::Value;

pub fn value_json(value: &Value) -> Json {
    match value {
        Value::Int(n) => i64::try_from(n).map_or_else(|_| Json::String(n.to_string()), Json::from),
        Value::Bool(b) => Json::Bool(*b),
        Value::Nil => Json::Null,
        Value::Object(o) => Json::String(o.to_string()),
        Value::Array(array) => {
            let entries: Map<String, Json> = array.entries.iter().map(|(i, v)| (i.to_string(), value_json(v))).collect();
            json!({ "default": value_json(&array.default), "entries": entries, "len": value_json(&Value::Int(array.len.clone())) })
        }
    }
}

/// A valuation as one JSON object, in name order.
pub fn valuation_json(valuation: &Valuation) -> Json {
    Json::Object(valuation.iter().map(|(x, v)| (x.to_string(), value_json(v))).collect())
}
