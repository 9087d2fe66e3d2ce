//! Inputs read during a run, King's READ (1976 §2): "each time a new input
//! value for the program is required, it is supplied symbolically from the
//! list of symbols {α₁, α₂, α₃, …}". The statement `havoc x̄` reads one new
//! input into each of `x̄`; the `n`-th read names them `x̄ₙ` (a subscript no
//! identifier has). Symbolically `xₙ` is a fresh symbol; concretely it is
//! the value the valuation gives `xₙ`, so a model of a path that reads
//! inputs, with `xₙ` among its variables, replays like any other.
//!
//! An array read this way keeps its length (`len(a)` is an input that no
//! statement changes, §2.1): symbolically the read conjoins `len(aₙ) =
//! len(a)` to the path condition, and concretely a read of another length
//! ends the run as `assumption-violated`, as a false `assume` does.
//!
//! The source language has no `havoc`: the verifier writes it, to make the
//! variables a loop body may change arbitrary at a cut point (§8).

use crate::oo::fresh::fresh;
use crate::term::{BinOp, Name, Sort, Term};
use crate::value::Value;
use std::rc::Rc;

/// The inputs a path has read, newest first (persistent: forks share them).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Reads {
    count: u32,
    newest: Option<Rc<Read>>,
}

#[derive(PartialEq, Eq)]
struct Read {
    name: Name,
    sort: Sort,
    previous: Option<Rc<Read>>,
}

impl Reads {
    /// How many `havoc` steps the path has taken.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The `n`-th read into `vars`: each variable with its new input `xₙ`,
    /// and the reads with them added.
    pub fn read(&self, vars: &[(Name, Sort)], n: u32) -> (Vec<(Name, Term)>, Reads) {
        let mut newest = self.newest.clone();
        let mut values = Vec::with_capacity(vars.len());
        for (x, sort) in vars {
            let name = fresh(x, n);
            values.push((x.clone(), Term::var(&name, sort.clone())));
            newest = Some(Rc::new(Read {
                name,
                sort: sort.clone(),
                previous: newest,
            }));
        }
        let reads = Reads {
            count: self.count.max(n),
            newest,
        };
        (values, reads)
    }

    /// The reads of two paths joined (state merging): every input either
    /// has read, and the larger count, so that the next read's names are
    /// fresh on both (a name read on both stands for each path's own input:
    /// the paths' conditions keep them apart).
    pub fn join(&self, other: &Reads) -> Reads {
        let (mut joined, extra) = match self.count >= other.count {
            true => (self.clone(), other),
            false => (other.clone(), self),
        };
        let known = joined.inputs();
        for (name, sort) in extra.inputs() {
            if !known.iter().any(|(x, _)| *x == name) {
                joined.newest = Some(Rc::new(Read {
                    name,
                    sort,
                    previous: joined.newest.take(),
                }));
            }
        }
        joined
    }

    /// The inputs read, oldest first.
    pub fn inputs(&self) -> Vec<(Name, Sort)> {
        let mut inputs = Vec::new();
        let mut current = self.newest.as_deref();
        while let Some(read) = current {
            inputs.push((read.name.clone(), read.sort.clone()));
            current = read.previous.as_deref();
        }
        inputs.reverse();
        inputs
    }
}

impl Drop for Read {
    /// Frees a long chain iteratively.
    fn drop(&mut self) {
        let mut next = self.previous.take();
        while let Some(read) = next {
            next = match Rc::try_unwrap(read) {
                Ok(mut read) => read.previous.take(),
                Err(_) => None,
            };
        }
    }
}

/// `len(aₙ) = len(a)` for every array among the `values` a read gives:
/// what a symbolic read conjoins to the path condition.
pub fn lengths_kept(values: &[(Name, Term)]) -> Term {
    Term::conjunction(values.iter().filter_map(|(x, value)| {
        let crate::term::TermKind::Var(read, Sort::Array(_)) = value.kind() else {
            return None;
        };
        Some(Term::binary(BinOp::Eq, Term::len(read), Term::len(x)))
    }))
}

/// What the `n`-th read gives `vars` in a concrete run: the value of `xₙ`
/// that `value` finds (the valuation's inputs), or else `x`'s own; `None`
/// when an array read has another length than the array.
pub fn read_values(
    vars: &[(Name, Sort)],
    n: u32,
    value: impl Fn(&str) -> Option<Value>,
) -> Option<Vec<(Name, Value)>> {
    vars.iter()
        .map(|(x, sort)| {
            let current = value(x).unwrap_or_else(|| Value::default_of(sort));
            let read = value(&fresh(x, n)).unwrap_or_else(|| current.clone());
            match (&read, &current) {
                (Value::Array(new), Value::Array(old)) if new.len != old.len => None,
                _ => Some((x.clone(), read)),
            }
        })
        .collect()
}
