//! The objects of a lazy path's heap, and the input heap a path reports:
//! the part of the input it materialised, the rest unconstrained.

use crate::term::{Name, Sort, Term, TermKind};
use std::fmt;

/// An object a path knows: an input object it materialised, or one the
/// program created.
#[derive(Clone)]
pub(super) struct Object {
    pub(super) class: Name,
    /// An input object (`C@k`), not one made by `new`.
    pub(super) input: bool,
    /// The current value of each field; `None` for a reference field of an
    /// input object that is not yet initialised (neither read nor written).
    pub(super) fields: im::OrdMap<Name, Option<Term>>,
    /// The input value of each field initialised by a read (and of every
    /// integer and boolean field of an input object: a symbol `C@k.f`).
    pub(super) initial: im::OrdMap<Name, Term>,
}

impl Object {
    /// The `k`-th input object of `class`, materialised: its reference
    /// fields uninitialised, the others the fresh symbols `C@k.f`.
    pub(super) fn input(name: &Name, class: &Name, fields: &[(Name, Sort)]) -> Object {
        let mut object = Object {
            class: class.clone(),
            input: true,
            fields: im::OrdMap::new(),
            initial: im::OrdMap::new(),
        };
        for (f, sort) in fields {
            if matches!(sort, Sort::Object(_)) {
                object.fields.insert(f.clone(), None);
            } else {
                let symbol = Term::var(&field_symbol(name, f), sort.clone());
                object.fields.insert(f.clone(), Some(symbol.clone()));
                object.initial.insert(f.clone(), symbol);
            }
        }
        object
    }

    /// An object of `class` made by `new`: every field at its default.
    pub(super) fn created(class: &Name, fields: &[(Name, Sort)]) -> Object {
        Object {
            class: class.clone(),
            input: false,
            fields: fields
                .iter()
                .map(|(f, sort)| (f.clone(), super::super::wp::initial_value(sort)))
                .collect(),
            initial: im::OrdMap::new(),
        }
    }
}

/// The name of the `k`-th input object a path materialises, of class
/// `class`: `Node@3` (no identifier contains `@`, so no variable or created
/// object shares it).
pub(super) fn input_name(class: &str, k: usize) -> Name {
    format!("{class}@{k}").into()
}

/// The symbol holding the input value of the field `f` of the input object
/// `object`: `Node@3.val`.
pub(super) fn field_symbol(object: &str, f: &str) -> String {
    format!("{object}.{f}")
}

/// The position `k` of an input object named `C@k`.
pub(super) fn input_index(name: &str) -> Option<usize> {
    name.rsplit_once('@')?.1.parse().ok()
}

/// The reference a term stands for, once evaluated on a lazy path.
pub(super) enum Node<'a> {
    Nil,
    Object(&'a Name),
    /// Not a reference the heap knows (never for a well-typed statement).
    Unknown,
}

impl Node<'_> {
    pub(super) fn of(term: &Term) -> Node<'_> {
        match term.kind() {
            TermKind::Nil(_) => Node::Nil,
            TermKind::Var(name, Sort::Object(_)) => Node::Object(name),
            _ => Node::Unknown,
        }
    }
}

/// The input a path has materialised: the reference inputs it read, the
/// input objects with the fields it initialised (`?` where it did not: the
/// rest of the input is unconstrained), and its symbols `C@k.f`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputHeap {
    /// Each reference variable initialised by a read, with its input value.
    pub vars: Vec<(Name, Term)>,
    /// In the order they were materialised.
    pub objects: Vec<InputObject>,
}

/// One materialised input object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputObject {
    pub name: Name,
    pub class: Name,
    /// Each field with its input value, `None` where the path did not read it.
    pub fields: Vec<(Name, Option<Term>)>,
}

impl fmt::Display for InputHeap {
    /// As a model is shown: `{l ↦ Node@1}, {Node@1: Node{next ↦ nil, val ↦ Node@1.val}}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, (x, value)) in self.vars.iter().enumerate() {
            let separator = if i > 0 { ", " } else { "" };
            write!(f, "{separator}{x} ↦ {value}")?;
        }
        f.write_str("}, {")?;
        for (i, object) in self.objects.iter().enumerate() {
            let separator = if i > 0 { ", " } else { "" };
            write!(f, "{separator}{}: ", object.name)?;
            write_object(f, &object.class, object.fields.iter().map(|(x, v)| (x, v)))?;
        }
        f.write_str("}")
    }
}

/// Writes `Class{f ↦ v, g ↦ ?}`, `?` for a field not initialised yet.
pub(super) fn write_object<'a>(
    f: &mut fmt::Formatter<'_>,
    class: &Name,
    fields: impl Iterator<Item = (&'a Name, &'a Option<Term>)>,
) -> fmt::Result {
    write!(f, "{class}{{")?;
    for (j, (field, value)) in fields.enumerate() {
        let separator = if j > 0 { ", " } else { "" };
        match value {
            Some(value) => write!(f, "{separator}{field} ↦ {value}")?,
            None => write!(f, "{separator}{field} ↦ ?")?,
        }
    }
    f.write_str("}")
}
