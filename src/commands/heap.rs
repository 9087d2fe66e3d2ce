//! `run --heap H.json` or `run --heap-json JSON` (SPEC §2.1): an initial heap and values of the
//! globals, `{"objects": {"o1": {"class": "Node", "elem": 1, "next": "o2"}},
//! "vars": {"l": "o1", "v": 3}}` with `null` for `nil` — the form in which
//! `explore`, `tests` and `verify` print models of oo programs. The heap must
//! be consistent (§4): every reference names an object of the class its
//! variable or field is declared with; fields left out get their defaults.

use super::CliError;
use num_bigint::BigInt;
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;
use symex_semantics::eval::Valuation;
use symex_semantics::heap::{Heap, Object};
use symex_semantics::program::Program;
use symex_semantics::term::{Name, Sort};
use symex_semantics::value::{ArrayValue, Oid, Value};

/// The valuation `(G, H)` that `path` describes, on top of `base` (the
/// `--input` values and the defaults).
pub fn read(path: &str, program: &Program, base: Valuation) -> Result<Valuation, CliError> {
    from_text(&read_text(path)?, path, program, base)
}

/// The text of the heap file `path`.
pub fn read_text(path: &str) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|error| CliError::new(format!("{path}: cannot read the heap: {error}")))
}

/// The valuation `(G, H)` that the JSON `text` (from `origin`, a file or
/// `--heap-json`) describes, on top of `base`.
pub fn from_text(
    text: &str,
    origin: &str,
    program: &Program,
    base: Valuation,
) -> Result<Valuation, CliError> {
    let json: Json = serde_json::from_str(text).map_err(|error| {
        CliError::new(format!(
            "{origin}:{}:{}: not JSON: {error}",
            error.line(),
            error.column()
        ))
    })?;
    parse(&json, program, base).map_err(|why| CliError::new(format!("{origin}: {why}")))
}

/// The valuation `(G, H)` that `json` describes on top of `base`: the
/// objects' identities and classes, then their fields and the variables.
pub fn parse(json: &Json, program: &Program, base: Valuation) -> Result<Valuation, String> {
    let document = json
        .as_object()
        .ok_or("expected an object with \"objects\" and \"vars\"")?;
    if let Some(key) = document
        .keys()
        .find(|key| *key != "objects" && *key != "vars")
    {
        return Err(format!(
            "unexpected key \"{key}\" (expected \"objects\" and \"vars\")"
        ));
    }
    let empty = Map::new();
    let objects = member(document, "objects", &empty)?;
    let mut classes: BTreeMap<&str, (Oid, Name)> = BTreeMap::new();
    for (id, object) in objects {
        let oid = id
            .strip_prefix('o')
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| *n > 0)
            .ok_or(format!("object \"{id}\": identities are o1, o2, …"))?;
        let class = object
            .get("class")
            .and_then(Json::as_str)
            .ok_or(format!("object \"{id}\": expected \"class\": \"C\""))?;
        if !program.classes.contains_key(class) {
            return Err(format!(
                "object \"{id}\": the program has no class `{class}`"
            ));
        }
        classes.insert(id, (Oid(oid), class.into()));
    }
    let mut heap = Heap::new();
    for (id, object) in objects {
        let (oid, class) = &classes[id.as_str()];
        let declared = &program.classes[class].fields;
        let mut fields: im::OrdMap<Name, Value> = declared
            .iter()
            .map(|(f, sort)| (f.clone(), Value::default_of(sort)))
            .collect();
        for (f, value) in object
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(f, _)| *f != "class")
        {
            let sort = declared.get(f.as_str()).ok_or(format!(
                "object \"{id}\": class `{class}` has no field `{f}`"
            ))?;
            let value = self::value(value, sort, &classes)
                .map_err(|why| format!("object \"{id}\", field `{f}`: {why}"))?;
            fields.insert(f.as_str().into(), value);
        }
        heap = heap.insert(
            *oid,
            Object {
                class: class.clone(),
                fields,
            },
        );
    }
    let mut valuation = base.with_heap(heap);
    for (x, value) in member(document, "vars", &empty)? {
        let sort = program
            .globals
            .get(x.as_str())
            .ok_or(format!("the program has no input `{x}`"))?;
        let value =
            self::value(value, sort, &classes).map_err(|why| format!("variable `{x}`: {why}"))?;
        valuation.insert(x.as_str().into(), value);
    }
    Ok(valuation)
}

fn member<'j>(
    document: &'j Map<String, Json>,
    key: &str,
    empty: &'j Map<String, Json>,
) -> Result<&'j Map<String, Json>, String> {
    match document.get(key) {
        None => Ok(empty),
        Some(json) => json
            .as_object()
            .ok_or(format!("\"{key}\" must be an object")),
    }
}

/// A value of `sort`: a number (or a string of digits), a boolean, `null`
/// or `"oK"` for an object of the right class, an array as a list or as
/// `{"default": …, "entries": {…}, "len": n}`.
fn value(json: &Json, sort: &Sort, objects: &BTreeMap<&str, (Oid, Name)>) -> Result<Value, String> {
    let wrong = || format!("expected a value of type {sort}, found {json}");
    match (sort, json) {
        (Sort::Int, Json::Number(n)) => n
            .to_string()
            .parse::<BigInt>()
            .map(Value::Int)
            .map_err(|_| wrong()),
        (Sort::Int, Json::String(digits)) => digits
            .parse::<BigInt>()
            .map(Value::Int)
            .map_err(|_| wrong()),
        (Sort::Bool, Json::Bool(b)) => Ok(Value::Bool(*b)),
        (Sort::Object(_), Json::Null) => Ok(Value::Nil),
        (Sort::Object(class), Json::String(id)) => match objects.get(id.as_str()) {
            Some((oid, c)) if c == class => Ok(Value::Object(*oid)),
            Some((_, c)) => Err(format!("\"{id}\" is a {c}, not a {class}")),
            None => Err(format!("no object \"{id}\" in \"objects\"")),
        },
        (Sort::Array(element), Json::Array(items)) => {
            let mut array =
                ArrayValue::constant(BigInt::from(items.len()), Value::default_of(element));
            for (i, item) in items.iter().enumerate() {
                array = array.set(BigInt::from(i), value(item, element, objects)?);
            }
            Ok(Value::Array(array))
        }
        (Sort::Array(element), Json::Object(fields)) => {
            let len = match fields.get("len") {
                Some(len) => value(len, &Sort::Int, objects)?
                    .as_int()
                    .cloned()
                    .ok_or_else(wrong)?,
                None => BigInt::from(0),
            };
            let default = match fields.get("default") {
                Some(default) => value(default, element, objects)?,
                None => Value::default_of(element),
            };
            let mut array = ArrayValue::constant(len, default);
            for (index, item) in fields
                .get("entries")
                .and_then(Json::as_object)
                .into_iter()
                .flatten()
            {
                let index = index
                    .parse::<BigInt>()
                    .map_err(|_| format!("entry \"{index}\" is not an index"))?;
                array = array.set(index, value(item, element, objects)?);
            }
            Ok(Value::Array(array))
        }
        _ => Err(wrong()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use symex_semantics::syntax::parse_program;

    fn program() -> Program {
        parse_program(
            "class Node { field next: Node, val: int; }\nvar x: Node, y: Node, n: int;\nx.val := n",
        )
        .expect("a program")
    }

    #[test]
    fn objects_and_variables_are_read_with_defaults_for_missing_fields() {
        let json = json!({"objects": {"o1": {"class": "Node", "next": "o2"}, "o2": {"class": "Node", "val": 7}}, "vars": {"x": "o1", "y": null, "n": 3}});
        let v = parse(&json, &program(), Valuation::new()).expect("a heap");
        assert_eq!(v["x"], Value::Object(Oid(1)));
        assert_eq!(v["y"], Value::Nil);
        assert_eq!(v["n"], Value::Int(3.into()));
        assert_eq!(v.heap.field(Oid(1), "val"), Some(&Value::Int(0.into())));
        assert_eq!(v.heap.field(Oid(1), "next"), Some(&Value::Object(Oid(2))));
        assert_eq!(v.heap.field(Oid(2), "next"), Some(&Value::Nil));
    }

    #[test]
    fn inconsistent_heaps_are_refused_with_the_reason() {
        let cases = [
            (
                json!({"objects": {"o1": {"class": "Node", "next": "o9"}}}),
                "object \"o1\", field `next`: no object \"o9\"",
            ),
            (
                json!({"objects": {"o1": {"class": "Tree"}}}),
                "no class `Tree`",
            ),
            (
                json!({"objects": {"o1": {"class": "Node", "colour": 1}}}),
                "has no field `colour`",
            ),
            (
                json!({"vars": {"n": "o1"}}),
                "variable `n`: expected a value of type int",
            ),
            (json!({"vars": {"z": 1}}), "no input `z`"),
            (
                json!({"objects": {"node": {"class": "Node"}}}),
                "identities are o1, o2",
            ),
            (json!([1]), "expected an object"),
        ];
        for (json, expected) in cases {
            let error = parse(&json, &program(), Valuation::new()).expect_err("refused");
            assert!(error.contains(expected), "{json}: {error}");
        }
    }
}
