//! Concrete values (SPEC §1.5): unbounded integers, booleans, arrays as
//! total functions from integers to values with an input length, and
//! references to objects (§4): `nil` or the identity of an object of the heap.

use crate::term::Sort;
use num_bigint::BigInt;
use std::fmt;
use std::rc::Rc;

/// A value of the concrete semantics.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Int(BigInt),
    Bool(bool),
    Array(ArrayValue),
    /// `nil`, a value of every class (SPEC §1.5).
    Nil,
    /// An object of the heap; equality of objects is identity.
    Object(Oid),
    /// A field as an array over references (§4.1), as forward execution
    /// updates it: never a program's value, only an operand of `f[e]`.
    Field(FieldValue),
}

/// The field `field` of the heap, updated at some references: `f[e]`
/// reads the latest write at `e`'s value, else the heap.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldValue {
    pub field: crate::term::Name,
    pub writes: Writes,
}

impl FieldValue {
    /// `(f[o] := v)`.
    pub fn set(&self, reference: Value, value: Value) -> FieldValue {
        FieldValue {
            field: self.field.clone(),
            writes: self.writes.then(reference, value),
        }
    }

    /// The latest write at `reference`, if any.
    pub fn written(&self, reference: &Value) -> Option<&Value> {
        self.writes
            .newest_first()
            .find(|(r, _)| r == reference)
            .map(|(_, v)| v)
    }
}

/// The `(reference, value)` writes to a field, each sharing the ones
/// before it: a field array is evaluated write by write, and each of
/// those values stays alive (the evaluator memoises it), so adding a write
/// must not copy the earlier ones. Compared, hashed and shown oldest first.
#[derive(Clone, Default)]
pub struct Writes(Option<Rc<Write>>);

struct Write {
    write: (Value, Value),
    before: Writes,
}

impl Writes {
    /// These writes, then `reference := value`.
    pub fn then(&self, reference: Value, value: Value) -> Writes {
        Writes(Some(Rc::new(Write {
            write: (reference, value),
            before: self.clone(),
        })))
    }

    pub fn newest_first(&self) -> impl Iterator<Item = &(Value, Value)> {
        std::iter::successors(self.0.as_deref(), |w| w.before.0.as_deref()).map(|w| &w.write)
    }

    pub fn oldest_first(&self) -> Vec<&(Value, Value)> {
        let mut writes: Vec<_> = self.newest_first().collect();
        writes.reverse();
        writes
    }
}

impl FromIterator<(Value, Value)> for Writes {
    /// The writes in order, oldest first.
    fn from_iter<I: IntoIterator<Item = (Value, Value)>>(writes: I) -> Writes {
        writes
            .into_iter()
            .fold(Writes::default(), |before, (r, v)| before.then(r, v))
    }
}

impl Drop for Write {
    /// Frees a long chain of writes iteratively, not one stack frame a write.
    fn drop(&mut self) {
        let mut before = self.before.0.take();
        while let Some(write) = before {
            match Rc::try_unwrap(write) {
                Ok(mut write) => before = write.before.0.take(),
                Err(_) => break,
            }
        }
    }
}

impl PartialEq for Writes {
    fn eq(&self, other: &Writes) -> bool {
        self.newest_first().eq(other.newest_first())
    }
}

impl Eq for Writes {}

impl PartialOrd for Writes {
    fn partial_cmp(&self, other: &Writes) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Writes {
    fn cmp(&self, other: &Writes) -> std::cmp::Ordering {
        self.oldest_first().cmp(&other.oldest_first())
    }
}

impl std::hash::Hash for Writes {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.oldest_first().hash(state)
    }
}

impl fmt::Debug for Writes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.oldest_first()).finish()
    }
}

/// An object identity `o1, o2, …` (§4: for each class an unbounded set of
/// identities; the heap records each object's class).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Oid(pub u32);

impl fmt::Display for Oid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "o{}", self.0)
    }
}

/// An array as a total function (§2.1): `entries` where set, `default`
/// elsewhere. `len` is the input `len(a)`; no assignment changes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArrayValue {
    pub len: BigInt,
    pub default: Box<Value>,
    pub entries: im::OrdMap<BigInt, Value>,
}

thread_local! {
    /// No entries, shared: `im` allocates a whole B-tree node for every new map.
    static NO_ENTRIES: im::OrdMap<BigInt, Value> = im::OrdMap::new();
}

impl ArrayValue {
    /// The array of length `len` holding `default` everywhere.
    pub fn constant(len: BigInt, default: Value) -> ArrayValue {
        ArrayValue {
            len,
            default: Box::new(default),
            entries: NO_ENTRIES.with(Clone::clone),
        }
    }

    /// `a[i]`.
    pub fn get(&self, index: &BigInt) -> Value {
        self.entries
            .get(index)
            .cloned()
            .unwrap_or_else(|| (*self.default).clone())
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
        ArrayValue {
            len: self.len.clone(),
            default: self.default.clone(),
            entries,
        }
    }
}

impl Value {
    /// The value a variable of `sort` has when no input gives one, which is
    /// also the value of a new object's field (SPEC §1.5, §2: `0`, `false`,
    /// `nil`, the all-zero array of length 0).
    pub fn default_of(sort: &Sort) -> Value {
        match sort {
            Sort::Int => Value::Int(BigInt::from(0)),
            Sort::Bool => Value::Bool(false),
            Sort::Array(element) => Value::Array(ArrayValue::constant(
                BigInt::from(0),
                Value::default_of(element),
            )),
            Sort::Object(_) => Value::Nil,
            Sort::Field(_, _) => Value::Field(FieldValue {
                field: "".into(),
                writes: Writes::default(),
            }),
        }
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

    /// `Some(None)` for `nil`, `Some(Some(o))` for the object `o`.
    pub fn as_reference(&self) -> Option<Option<Oid>> {
        match self {
            Value::Nil => Some(None),
            Value::Object(o) => Some(Some(*o)),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    /// Integers and booleans as literals; arrays as `[v0, v1, …]` over
    /// `0..len` when that shows every entry and the default is `0` or
    /// `false`, else as `{i: v, …; len n}` (entries outside the length, the
    /// rest `0` or `false`) or `{default: d, i: v, …; len n}` (all read
    /// back by `run --input`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Nil => f.write_str("nil"),
            Value::Object(o) => write!(f, "{o}"),
            Value::Field(array) => {
                write!(f, "{}", array.field)?;
                for (reference, value) in array.writes.oldest_first() {
                    write!(f, "[{reference} := {value}]")?;
                }
                Ok(())
            }
            Value::Array(a) => {
                let zero = BigInt::from(0);
                // The list shows no default: only when it is the element's own.
                let plain_default = matches!(*a.default, Value::Int(ref n) if n == &zero)
                    || *a.default == Value::Bool(false);
                let dense = plain_default
                    && a.len <= BigInt::from(64)
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
                    write!(f, "{{")?;
                    let mut separator = "";
                    if !plain_default {
                        write!(f, "default: {}", a.default)?;
                        separator = ", ";
                    }
                    for (i, v) in a.entries.iter() {
                        write!(f, "{separator}{i}: {v}")?;
                        separator = ", ";
                    }
                    let separator = if separator.is_empty() { "" } else { "; " };
                    write!(f, "{separator}len {}}}", a.len)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every write sequence over three references, up to length five, read
    /// as `Writes` and as the plain list they replace: the latest write at
    /// each reference, equality and order (oldest first) agree.
    #[test]
    fn shared_writes_read_as_the_plain_list() {
        let value = |n: usize| Value::Int(BigInt::from(n));
        let sequences: Vec<Vec<(Value, Value)>> = (0..=5)
            .flat_map(|len| {
                (0..3usize.pow(len)).map(move |code| {
                    (0..len as usize)
                        .map(|i| (value(code / 3usize.pow(i as u32) % 3), value(i)))
                        .collect()
                })
            })
            .collect();
        let field = |plain: &Vec<(Value, Value)>| FieldValue {
            field: "f".into(),
            writes: plain.iter().cloned().collect(),
        };
        for plain in &sequences {
            let shared = plain
                .iter()
                .fold(field(&Vec::new()), |f, (r, v)| f.set(r.clone(), v.clone()));
            assert_eq!(shared, field(plain));
            for r in 0..3 {
                let latest = plain.iter().rev().find(|(at, _)| *at == value(r));
                assert_eq!(shared.written(&value(r)), latest.map(|(_, v)| v));
            }
        }
        let compared = sequences.iter().zip(sequences.iter().skip(7));
        for (a, b) in compared {
            assert_eq!(field(a).cmp(&field(b)), a.cmp(b), "{a:?} against {b:?}");
        }
    }

    /// A field written a million times is freed without a stack frame a write.
    #[test]
    fn a_long_chain_of_writes_drops_iteratively() {
        let field = (0..1_000_000).fold(
            Value::default_of(&Sort::Field("C".into(), Box::new(Sort::Int))),
            |f, i| match f {
                Value::Field(f) => Value::Field(f.set(Value::Nil, Value::Int(BigInt::from(i)))),
                other => other,
            },
        );
        assert!(matches!(&field, Value::Field(f) if f.writes.newest_first().count() == 1_000_000));
    }
}
