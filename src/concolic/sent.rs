//! Inputs in a form that crosses threads. A [`Valuation`]'s names are
//! `Rc<str>`, shared with the program that made them, so a worker
//! ([`super::jobs`]) gets a copy with owned names and rebuilds the
//! valuation on its own thread, and hands back what it solved the same way.

use super::solve::{Pinned, Solved};
use num_bigint::BigInt;
use symex_semantics::eval::Valuation;
use symex_semantics::heap::{Heap, Object};
use symex_semantics::term::Name;
use symex_semantics::value::{ArrayValue, FieldValue, Oid, Value};

/// A [`Value`] with owned names.
pub enum SentValue {
    Int(BigInt),
    Bool(bool),
    Array {
        len: BigInt,
        default: Box<SentValue>,
        entries: Vec<(BigInt, SentValue)>,
    },
    Nil,
    Object(Oid),
    Field {
        field: String,
        writes: Vec<(SentValue, SentValue)>,
    },
}

/// A [`Valuation`] with owned names: the variables, and each object of
/// the heap with its class and fields.
pub struct SentValuation {
    vars: Named,
    heap: Vec<(Oid, String, Named)>,
}

/// Values by name: the variables, or an object's fields.
type Named = Vec<(String, SentValue)>;

/// [`Solved`] with owned names.
pub enum SentSolved {
    Input {
        input: SentValuation,
        pinned: Vec<(Named, super::solve::Why)>,
    },
    Infeasible,
    Undecided(String),
    Interrupted,
}

fn name(text: &str) -> Name {
    Name::from(text)
}

impl SentValue {
    pub fn send(value: &Value) -> SentValue {
        match value {
            Value::Int(n) => SentValue::Int(n.clone()),
            Value::Bool(b) => SentValue::Bool(*b),
            Value::Array(array) => SentValue::Array {
                len: array.len.clone(),
                default: Box::new(SentValue::send(&array.default)),
                entries: array
                    .entries
                    .iter()
                    .map(|(i, v)| (i.clone(), SentValue::send(v)))
                    .collect(),
            },
            Value::Nil => SentValue::Nil,
            Value::Object(o) => SentValue::Object(*o),
            Value::Field(field) => SentValue::Field {
                field: field.field.to_string(),
                writes: field
                    .writes
                    .oldest_first()
                    .into_iter()
                    .map(|(r, v)| (SentValue::send(r), SentValue::send(v)))
                    .collect(),
            },
        }
    }

    pub fn receive(self) -> Value {
        match self {
            SentValue::Int(n) => Value::Int(n),
            SentValue::Bool(b) => Value::Bool(b),
            SentValue::Array {
                len,
                default,
                entries,
            } => {
                let mut array = ArrayValue::constant(len, default.receive());
                array.entries = entries.into_iter().map(|(i, v)| (i, v.receive())).collect();
                Value::Array(array)
            }
            SentValue::Nil => Value::Nil,
            SentValue::Object(o) => Value::Object(o),
            SentValue::Field { field, writes } => Value::Field(FieldValue {
                field: name(&field),
                writes: writes
                    .into_iter()
                    .map(|(r, v)| (r.receive(), v.receive()))
                    .collect(),
            }),
        }
    }
}

fn send_vars<'a>(vars: impl Iterator<Item = (&'a Name, &'a Value)>) -> Named {
    vars.map(|(x, v)| (x.to_string(), SentValue::send(v)))
        .collect()
}

impl SentValuation {
    pub fn send(valuation: &Valuation) -> SentValuation {
        SentValuation {
            vars: send_vars(valuation.iter()),
            heap: valuation
                .heap
                .iter()
                .map(|(o, object)| {
                    (
                        *o,
                        object.class.to_string(),
                        send_vars(object.fields.iter()),
                    )
                })
                .collect(),
        }
    }

    pub fn receive(self) -> Valuation {
        let mut valuation: Valuation = self
            .vars
            .into_iter()
            .map(|(x, v)| (name(&x), v.receive()))
            .collect();
        valuation.heap = self
            .heap
            .into_iter()
            .fold(Heap::new(), |heap, (o, class, fields)| {
                let fields = fields
                    .into_iter()
                    .map(|(f, v)| (name(&f), v.receive()))
                    .collect();
                heap.insert(
                    o,
                    Object {
                        class: name(&class),
                        fields,
                    },
                )
            });
        valuation
    }
}

impl SentSolved {
    pub fn send(solved: &Solved) -> SentSolved {
        match solved {
            Solved::Input { input, pinned } => SentSolved::Input {
                input: SentValuation::send(input),
                pinned: pinned
                    .iter()
                    .map(|pins| {
                        let inputs = pins.inputs.iter().map(|(x, v)| (x, v));
                        (send_vars(inputs), pins.why)
                    })
                    .collect(),
            },
            Solved::Infeasible => SentSolved::Infeasible,
            Solved::Undecided(why) => SentSolved::Undecided(why.clone()),
            Solved::Interrupted => SentSolved::Interrupted,
        }
    }

    pub fn receive(self) -> Solved {
        match self {
            SentSolved::Input { input, pinned } => Solved::Input {
                input: input.receive(),
                pinned: pinned
                    .into_iter()
                    .map(|(inputs, why)| Pinned {
                        inputs: inputs
                            .into_iter()
                            .map(|(x, v)| (name(&x), v.receive()))
                            .collect(),
                        why,
                    })
                    .collect(),
            },
            SentSolved::Infeasible => Solved::Infeasible,
            SentSolved::Undecided(why) => Solved::Undecided(why),
            SentSolved::Interrupted => Solved::Interrupted,
        }
    }
}
