//! Concrete values (SPEC §1.5): unbounded integers, booleans, and arrays as
//! total functions from integers to values with an input length.

use crate::term::Sort;
use num_bigint::BigInt;
use std::fmt;

/// A value of the concrete semantics.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Int(BigInt),
    Bool(bool),
    Array(ArrayValue),
}

/// An array as a total function (§2.1): `entries` where set, `default`
/// elsewhere. `len` is the input `len(a)`; no assignment changes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArrayValue {
    pub len: BigInt,
    pub default: Box<Value>,
    pub entries: im::OrdMap<BigInt, Value>,
}

impl ArrayValue {
    /// The array of length `len` holding `default` everywhere.
    pub fn constant(len: BigInt, default: Value) -> ArrayValue {
        ArrayValue { len, default: Box::new(default), entries: im::OrdMap::new() }
    }

    /// `a[i]`.
    pub fn get(&self, index: &BigInt) -> Value {
        self.entries.get(index).cloned().unwrap_or_else(|| (*self.default).clone())
    }

    /// `(a[i] := v)`; entries equal to the default are not stored, so equal
    /// functions are equal values.
    pub fn set(&self, index: BigInt, value: Value) -> ArrayValue {
        let mut entries = self.entries.clone();
        if value == *self.default {
            entries.remove(&index);
        } else {
            entries.insert(index, value);
        }
        ArrayValue { len: self.len.clone(), default: self.default.clone(), entries }
    }
}

impl Value {
    /// The value a variable of `sort` has when no input gives one (SPEC §2:
    /// `0`, `false`, the all-zero array of length 0); `None` for objects.
    pub fn default_of(sort: &Sort) -> Option<Value> {
        Some(match sort {
            Sort::Int => Value::Int(BigInt::from(0)),
            Sort::Bool => Value::Bool(false),
            Sort::Array(element) => Value::Array(ArrayValue::constant(BigInt::from(0), Value::default_of(element)?)),
            Sort::Object(_) => return None,
        })
    }

    pub fn as_int(&self) -> Option<&BigInt> {
        match self {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&ArrayValue> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    /// Integers and booleans as literals; arrays as `[v0, v1, …]` over
    /// `0..len` when that shows every entry, else as `{default: d, i: v, …; len n}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Array(a) => {
                let zero = BigInt::from(0);
                let dense = a.len <= BigInt::from(64)
                    && a.entries.keys().all(|i| *i >= zero && *i < a.len);
                if dense {
                    let mut i = zero;
                    write!(f, "[")?;
                    while i < a.len {
                        if i > BigInt::from(0) {
                            write!(f, ", ")?;
                        }
                        write!(f, "{}", a.get(&i))?;
                        i += 1;
                    }
                    write!(f, "]")
                } else {
                    write!(f, "{{default: {}", a.default)?;
                    for (i, v) in a.entries.iter() {
                        write!(f, ", {i}: {v}")?;
                    }
                    write!(f, "; len {}}}", a.len)
                }
            }
        }
    }
}
