//! Input values from the command line: `--input x=3`, `--input b=true`,
//! `--input a=[1,2,3]` for `run`, and `--fix x=3` for `explore`.

use super::CliError;
use num_bigint::BigInt;
use std::collections::BTreeMap;
use symex_semantics::eval::Valuation;
use symex_semantics::program::Program;
use symex_semantics::term::{BinOp, Name, Sort, Term};
use symex_semantics::value::{ArrayValue, Value};

/// `name=value`, with the value read at the sort of the input `name`.
pub fn parse_assignment(
    text: &str,
    globals: &BTreeMap<Name, Sort>,
    option: &str,
) -> Result<(Name, Value), CliError> {
    let bad = |why: String| CliError::new(format!("bad `{option} {text}`: {why}"));
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| bad("expected NAME=VALUE".to_string()))?;
    let name = name.trim();
    let Some((name, sort)) = globals.get_key_value(name) else {
        let known: Vec<&str> = globals.keys().map(|x| &**x).collect();
        let known = if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        };
        return Err(bad(format!(
            "the program has no input `{name}` (inputs: {known})"
        )));
    };
    let value = parse_value(value.trim(), sort).map_err(bad)?;
    Ok((name.clone(), value))
}

/// A value of `sort`: an integer, `true`/`false`, or an array as values
/// print, `[v0, v1, …]` or `{default: d, i: v, …; len n}` (so every model
/// `explore` and `verify` print can be given back).
fn parse_value(text: &str, sort: &Sort) -> Result<Value, String> {
    match sort {
        Sort::Int => text
            .parse::<BigInt>()
            .map(Value::Int)
            .map_err(|_| format!("`{text}` is not an integer")),
        Sort::Bool => match text {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(format!("`{text}` is not a boolean (true or false)")),
        },
        Sort::Array(element) => {
            if let Some(inner) = text
                .strip_prefix('{')
                .and_then(|rest| rest.strip_suffix('}'))
            {
                return parse_sparse(inner, element).map(Value::Array);
            }
            let inner = text
                .strip_prefix('[')
                .and_then(|rest| rest.strip_suffix(']'))
                .ok_or_else(|| {
                    format!(
                        "`{text}` is not an array ([v0, v1, …] or {{default: d, i: v, …; len n}})"
                    )
                })?;
            let default = Value::default_of(element);
            let items: Vec<&str> = if inner.trim().is_empty() {
                Vec::new()
            } else {
                inner.split(',').map(str::trim).collect()
            };
            let mut array = ArrayValue::constant(BigInt::from(items.len()), default);
            for (i, item) in items.into_iter().enumerate() {
                array = array.set(BigInt::from(i), parse_value(item, element)?);
            }
            Ok(Value::Array(array))
        }
        Sort::Object(class) | Sort::Field(class, _) => Err(format!(
            "objects of class {class} cannot be given on the command line"
        )),
    }
}

/// `default: d, i: v, …; len n`: an array with every entry given.
fn parse_sparse(inner: &str, element: &Sort) -> Result<ArrayValue, String> {
    let expected = || format!("`{{{inner}}}` is not an array {{default: d, i: v, …; len n}}");
    let (entries, len) = inner.rsplit_once(';').ok_or_else(expected)?;
    let len = len.trim().strip_prefix("len").ok_or_else(expected)?.trim();
    let len = len
        .parse::<BigInt>()
        .map_err(|_| format!("`{len}` is not a length"))?;
    let mut parts = entries
        .split(',')
        .map(|part| part.split_once(':').map(|(k, v)| (k.trim(), v.trim())));
    let Some(Some(("default", default))) = parts.next() else {
        return Err(expected());
    };
    let mut array = ArrayValue::constant(len, parse_value(default, element)?);
    for part in parts {
        let (index, value) = part.ok_or_else(expected)?;
        let index = index
            .parse::<BigInt>()
            .map_err(|_| format!("`{index}` is not an index"))?;
        array = array.set(index, parse_value(value, element)?);
    }
    Ok(array)
}

/// Every global: the values given, the defaults of SPEC §2 elsewhere
/// (`0`, `false`, `nil`, the empty array).
pub fn valuation(
    assignments: &[String],
    globals: &BTreeMap<Name, Sort>,
) -> Result<Valuation, CliError> {
    let mut valuation: Valuation = globals
        .iter()
        .map(|(x, sort)| (x.clone(), Value::default_of(sort)))
        .collect();
    for text in assignments {
        let (x, value) = parse_assignment(text, globals, "--input")?;
        valuation.insert(x, value);
    }
    Ok(valuation)
}

/// `--fix` as a condition on the inputs: `x = 3`; for an array
/// `len(a) = n ∧ a[0] = v0 ∧ …`. Only inputs (`Program::inputs`) can be
/// fixed: any other global is written before it is read, so a value given
/// for it would change no run, yet appear in no model (which shows the
/// inputs only) — it is refused rather than silently ignored.
pub fn fixed_condition(assignments: &[String], program: &Program) -> Result<Term, CliError> {
    let globals = &program.globals;
    let inputs = program.inputs();
    let mut conjuncts = Vec::new();
    for text in assignments {
        let (x, value) = parse_assignment(text, globals, "--fix")?;
        if !inputs.contains_key(&x) {
            let known: Vec<&str> = inputs.keys().map(|x| &**x).collect();
            let known = if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            };
            return Err(CliError::new(format!(
                "bad `--fix {text}`: `{x}` is not an input of the program: every run writes it before reading it, so its initial value changes nothing (inputs: {known})"
            )));
        }
        let variable = Term::var(&x, globals[&x].clone());
        match value {
            Value::Array(array) => {
                conjuncts.push(Term::binary(
                    BinOp::Eq,
                    Term::len(&x),
                    Term::int(array.len.clone()),
                ));
                let mut i = BigInt::from(0);
                while i < array.len {
                    let element = Term::select(variable.clone(), Term::int(i.clone()));
                    let value = literal(&array.get(&i)).ok_or_else(|| {
                        CliError::new(format!("bad `--fix {text}`: nested arrays"))
                    })?;
                    conjuncts.push(Term::binary(BinOp::Eq, element, value));
                    i += 1;
                }
            }
            scalar => {
                let value = literal(&scalar).ok_or_else(|| {
                    CliError::new(format!("bad `--fix {text}`: objects are given with --heap"))
                })?;
                conjuncts.push(Term::binary(BinOp::Eq, variable, value));
            }
        }
    }
    Ok(Term::conjunction(conjuncts))
}

/// An integer or boolean as a term.
fn literal(value: &Value) -> Option<Term> {
    match value {
        Value::Int(n) => Some(Term::int(n.clone())),
        Value::Bool(b) => Some(Term::bool(*b)),
        Value::Array(_) | Value::Nil | Value::Object(_) | Value::Field(_) => None,
    }
}
