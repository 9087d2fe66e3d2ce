//! Inputs read during a run, King's READ (1976 §2): "each time a new input
//! value for the program is required, it is supplied symbolically from the
//! list of symbols {α₁, α₂, α₃, …}". The statement `havoc x̄` reads one new
//! input into each of `x̄`; the `n`-th read names them `x̄ₙ` (a subscript no
//! identifier has). Symbolically `xₙ` is a fresh symbol; concretely it is
//! the value the valuation gives `xₙ`, so a model of a path that reads
//! inputs, with `xₙ` among its variables, replays like any other.
//!
//! The source language has no `havoc`: the verifier writes it, to make the
//! variables a loop body may change arbitrary at a cut point (§8).

use crate::oo::fresh::fresh;
use crate::term::{Name, Sort, Term};
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

/// The name of the `n`-th input read into `x`, `xₙ`: a concrete run reads
/// the valuation's value of it (the default of its sort when there is none,
/// as for an input missing from `--input`).
pub fn read_name(x: &str, n: u32) -> Name {
    fresh(x, n)
}
