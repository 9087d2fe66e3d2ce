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

/// Displays a valuation as `{x ↦ 1, a ↦ [0, 2]}`, names in natural order
/// (`v2` before `v10`), followed by its heap when it has one:
/// `{l ↦ o1}, {o1: Node{next ↦ nil}}` (the pair `(G, H)`).
pub struct ShowValuation<'a>(pub &'a Valuation);

impl fmt::Display for ShowValuation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, (x, v)) in in_natural_order(self.0.iter()).into_iter().enumerate() {
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

/// `pairs` sorted by name in natural order.
pub fn in_natural_order<'a, K: AsRef<str> + 'a, V: 'a>(
    pairs: impl IntoIterator<Item = (&'a K, &'a V)>,
) -> Vec<(&'a K, &'a V)> {
    let mut pairs: Vec<_> = pairs.into_iter().collect();
    pairs.sort_by(|(a, _), (b, _)| natural_order(a.as_ref(), b.as_ref()));
    pairs
}

/// Names in natural order: runs of digits compare as numbers, so `v2`
/// comes before `v10` (and `x` before `x1`).
pub fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    let (mut a, mut b) = (a, b);
    loop {
        let (Some(x), Some(y)) = (a.chars().next(), b.chars().next()) else {
            return a.len().cmp(&b.len());
        };
        if x.is_ascii_digit() && y.is_ascii_digit() {
            let (digits_a, rest_a) =
                a.split_at(a.find(|c: char| !c.is_ascii_digit()).unwrap_or(a.len()));
            let (digits_b, rest_b) =
                b.split_at(b.find(|c: char| !c.is_ascii_digit()).unwrap_or(b.len()));
            let (value_a, value_b) = (
                digits_a.trim_start_matches('0'),
                digits_b.trim_start_matches('0'),
            );
            let order = value_a
                .len()
                .cmp(&value_b.len())
                .then(value_a.cmp(value_b))
                .then(digits_a.len().cmp(&digits_b.len()));
            if order.is_ne() {
                return order;
            }
            (a, b) = (rest_a, rest_b);
        } else if x != y {
            return x.cmp(&y);
        } else {
            (a, b) = (&a[x.len_utf8()..], &b[y.len_utf8()..]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::natural_order;
    use std::cmp::Ordering::*;

    #[test]
    fn digits_compare_as_numbers() {
        let mut names = vec!["v10", "v2", "x", "v1", "a", "x1", "v02", "b10c", "b9c", "v"];
        names.sort_by(|a, b| natural_order(a, b));
        assert_eq!(
            names,
            ["a", "b9c", "b10c", "v", "v1", "v2", "v02", "v10", "x", "x1"]
        );
        assert_eq!(natural_order("u₃", "u₃"), Equal);
        assert_eq!(natural_order("len", "len"), Equal);
        assert_eq!(natural_order("a1b", "a1c"), Less);
    }
}
