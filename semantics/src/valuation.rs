//! Valuations `V : Var → Val` (§2) and, for objects, the concrete
//! configurations `V = (G, H)` of §4: the values of the variables and the heap.

use crate::heap::Heap;
use crate::small_map::{self, SmallMap};
use crate::term::Name;
use crate::value::Value;
use std::fmt;

/// `V`: the value of every variable it knows, and the heap its object
/// references point into (empty for programs without objects).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Valuation {
    vars: SmallMap<Name, Value>,
    pub heap: Heap,
}

impl Valuation {
    pub fn new() -> Valuation {
        Valuation::default()
    }

    /// `V(x)`.
    pub fn get(&self, x: &str) -> Option<&Value> {
        self.vars.get(x)
    }

    pub fn contains_key(&self, x: &str) -> bool {
        self.vars.contains_key(x)
    }

    /// Sets `V(x) := v` in place; returns the previous value.
    pub fn insert(&mut self, x: Name, v: Value) -> Option<Value> {
        self.vars.insert(x, v)
    }

    /// `V[x := v]`.
    pub fn update(&self, x: Name, v: Value) -> Valuation {
        Valuation {
            vars: self.vars.update(x, v),
            heap: self.heap.clone(),
        }
    }

    pub fn remove(&mut self, x: &str) -> Option<Value> {
        self.vars.remove(x)
    }

    /// The variables and their values, in name order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&Name, &Value)> {
        self.vars.iter()
    }

    pub fn keys(&self) -> impl Iterator<Item = &Name> {
        self.vars.keys()
    }

    pub fn len(&self) -> usize {
        self.vars.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vars.is_empty()
    }

    /// `(G, H')`: the same variables over another heap.
    pub fn with_heap(&self, heap: Heap) -> Valuation {
        Valuation {
            vars: self.vars.clone(),
            heap,
        }
    }

    /// Only the variables `keep` accepts, over the same heap.
    pub fn retain(&self, keep: impl Fn(&Name) -> bool) -> Valuation {
        Valuation {
            vars: self
                .vars
                .iter()
                .filter(|(x, _)| keep(x))
                .map(|(x, v)| (x.clone(), v.clone()))
                .collect(),
            heap: self.heap.clone(),
        }
    }
}

impl std::ops::Index<&str> for Valuation {
    type Output = Value;

    /// Panics when `x` has no value, as indexing a map does.
    fn index(&self, x: &str) -> &Value {
        self.vars
            .get(x)
            .unwrap_or_else(|| panic!("no value for `{x}`"))
    }
}

impl FromIterator<(Name, Value)> for Valuation {
    fn from_iter<I: IntoIterator<Item = (Name, Value)>>(pairs: I) -> Valuation {
        Valuation {
            vars: pairs.into_iter().collect(),
            heap: Heap::new(),
        }
    }
}

impl Extend<(Name, Value)> for Valuation {
    fn extend<I: IntoIterator<Item = (Name, Value)>>(&mut self, pairs: I) {
        self.vars.extend(pairs);
    }
}

impl<'a> IntoIterator for &'a Valuation {
    type Item = (&'a Name, &'a Value);
    type IntoIter = small_map::Iter<'a, Name, Value>;

    fn into_iter(self) -> Self::IntoIter {
        self.vars.iter()
    }
}

/// Displays a valuation as `{x ↦ 1, a ↦ [0, 2]}`, followed by its heap
/// when it has one: `{l ↦ o1}, {o1: Node{next ↦ nil}}` (the pair `(G, H)`).
pub struct ShowValuation<'a>(pub &'a Valuation);

impl fmt::Display for ShowValuation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, (x, v)) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{x} ↦ {v}")?;
        }
        write!(f, "}}")?;
        if !self.0.heap.is_empty() {
            write!(f, ", {}", self.0.heap)?;
        }
        Ok(())
    }
}
