//! `[x := new C]` reformulated for fields as arrays (§4.1): forward
//! execution names each object a path creates by a fresh variable `x`,
//! and a path condition must speak of the initial state only. The clauses
//! of §4 apply where a created object is compared or dereferenced —
//! `(x = x)[x := new C] = true`, `(x = e)[x := new C] = false` — and, in
//! array form, `(f[x])[x := new C]` is the default value of `f` (SPEC
//! §1.5: `nil`, `0`, `false`), the value the initial field array has at an
//! object that did not exist. A read `f[e]` whose array was updated at
//! created objects keeps its array form over the updates at initial
//! objects; only where a created object is stored at an index that may be
//! `e`'s, or is itself the value read, is the read unfolded into the
//! conditional of §2.1, `(a[e] := e')[e''] = if e = e'' then e' else a[e''] fi`.
//! As in `wp.rs`, conditionals with a created object among their values
//! are pushed outward first.
//!
//! Every object variable with a fresh name in a forward term, or in a
//! `wp_ρ` result ([`super::wp`], which keeps field arrays the same way), is
//! a created object (parameters and `this` are substituted away), so the
//! elimination depends on the term alone and is memoised across all paths.

use super::fresh::is_fresh;
use super::wp::initial_value;
use crate::term::{BinOp, IdMap, Sort, Term, TermKind};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A term after `[x := new C]` for every created `x`: over the initial
/// state, or — for an object — possibly a created object, by cases.
#[derive(Clone)]
enum Eliminated {
    Initial(Term),
    /// The variable of a created object.
    Created(Term),
    Cases(Term, Rc<Eliminated>, Rc<Eliminated>),
}

impl Eliminated {
    /// `if c then a else b fi`, a term again where both are.
    fn cases(c: Term, a: Eliminated, b: Eliminated) -> Eliminated {
        match (c.kind(), a, b) {
            (TermKind::Bool(true), a, _) => a,
            (TermKind::Bool(false), _, b) => b,
            (_, Eliminated::Initial(a), Eliminated::Initial(b)) => {
                Eliminated::Initial(Term::ite(c, a, b))
            }
            (_, a, b) => Eliminated::Cases(c, Rc::new(a), Rc::new(b)),
        }
    }

    /// The same cases with each value `v` replaced by `f(v)`.
    fn map(&self, f: &mut impl FnMut(&Eliminated) -> Eliminated) -> Eliminated {
        match self {
            Eliminated::Cases(c, a, b) => {
                let a = a.map(f);
                Eliminated::cases(c.clone(), a, b.map(f))
            }
            value => f(value),
        }
    }
}

/// The memoised elimination, shared by all configurations of one exploration.
#[derive(Default)]
pub struct Creations {
    memo: RefCell<Memo>,
}

#[derive(Default)]
struct Memo {
    mentions: IdMap<bool>,
    eliminated: IdMap<Eliminated>,
    /// `f[v]` by the ids of the array and of the value read at.
    reads: HashMap<(u64, u64), Eliminated>,
    /// The array on initial objects, by the array's id.
    initial_part: IdMap<Option<Term>>,
}

impl Creations {
    /// `b[x := new C]` for every created `x` of a Boolean or integer term:
    /// a term over the initial state only.
    pub fn eliminate(&self, b: &Term) -> Term {
        match self.eliminated(b) {
            Eliminated::Initial(term) => term,
            // Only object terms can be a created object; callers pass Booleans.
            _ => b.clone(),
        }
    }

    /// Whether `e` mentions a created object; only the nodes not yet
    /// memoised are visited, so a long shared field array costs once.
    fn mentions(&self, e: &Term) -> bool {
        if let Some(known) = self.memo.borrow().mentions.get(&e.id()) {
            return *known;
        }
        let new = e.nodes_besides(|node| self.memo.borrow().mentions.contains_key(&node.id()));
        let mut memo = self.memo.borrow_mut();
        for node in new {
            let created = matches!(node.kind(), TermKind::Var(x, Sort::Object(_)) if is_fresh(x));
            let mentions = created
                || node
                    .children()
                    .iter()
                    .any(|child| memo.mentions.get(&child.id()).copied().unwrap_or(false));
            memo.mentions.insert(node.id(), mentions);
        }
        memo.mentions.get(&e.id()).copied().unwrap_or(false)
    }

    fn eliminated(&self, e: &Term) -> Eliminated {
        if !self.mentions(e) {
            return Eliminated::Initial(e.clone());
        }
        if let Some(known) = self.memo.borrow().eliminated.get(&e.id()) {
            return known.clone();
        }
        let result = match e.kind() {
            TermKind::Var(..) => Eliminated::Created(e.clone()),
            TermKind::Ite(c, a, b) => {
                Eliminated::cases(self.eliminate(c), self.eliminated(a), self.eliminated(b))
            }
            TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b)
                if matches!(a.sort(), Sort::Object(_)) =>
            {
                let equal = self.equal(&self.eliminated(a), &self.eliminated(b));
                Eliminated::Initial(if *op == BinOp::Eq {
                    equal
                } else {
                    Term::not(equal)
                })
            }
            // (x.f)[x := new C] = the default of f; (e.f)[x := new C] = e[x := new C].f
            TermKind::Field(object, f, sort) => {
                self.eliminated(object).map(&mut |value| match value {
                    Eliminated::Created(x) => Eliminated::Initial(
                        initial_value(sort)
                            .unwrap_or_else(|| Term::field(x.clone(), f, sort.clone())),
                    ),
                    Eliminated::Initial(object) => {
                        Eliminated::Initial(Term::field(object.clone(), f, sort.clone()))
                    }
                    cases => cases.clone(),
                })
            }
            TermKind::Select(array, index) if matches!(array.sort(), Sort::Field(..)) => self
                .eliminated(index)
                .map(&mut |value| self.read(array, value)),
            _ => {
                let children: Vec<Term> = e
                    .children()
                    .into_iter()
                    .map(|child| self.eliminate(child))
                    .collect();
                Eliminated::Initial(e.with_children(&children))
            }
        };
        self.memo
            .borrow_mut()
            .eliminated
            .insert(e.id(), result.clone());
        result
    }

    /// `a = b` for objects: `(x = x)[x := new C] = true`, `(x = e)[x := new C] = false`.
    fn equal(&self, a: &Eliminated, b: &Eliminated) -> Term {
        match (a, b) {
            (Eliminated::Cases(c, a1, a2), b) => {
                Term::ite(c.clone(), self.equal(a1, b), self.equal(a2, b))
            }
            (a, Eliminated::Cases(c, b1, b2)) => {
                Term::ite(c.clone(), self.equal(a, b1), self.equal(a, b2))
            }
            (Eliminated::Created(x), Eliminated::Created(y)) => Term::bool(
                x == y || crate::mutants::active(crate::mutants::Mutant::CreatedObjectsEqual),
            ),
            (Eliminated::Created(_), Eliminated::Initial(_))
            | (Eliminated::Initial(_), Eliminated::Created(_)) => Term::bool(false),
            (Eliminated::Initial(a), Eliminated::Initial(b)) => {
                Term::binary(BinOp::Eq, a.clone(), b.clone())
            }
        }
    }

    /// `(f[v])[x := new C]` for a field array `f` and a value `v`. The
    /// updates whose index is surely not `v` are passed over in a loop (a
    /// created object is read through every later write of its field), and
    /// the read of each array passed over is memoised with the answer.
    fn read(&self, array: &Term, at: &Eliminated) -> Eliminated {
        let at_term = match at {
            Eliminated::Initial(t) | Eliminated::Created(t) => t,
            Eliminated::Cases(..) => return at.map(&mut |value| self.read(array, value)),
        };
        let mut passed = Vec::new();
        let mut array = array.clone();
        let result = loop {
            if let Some(known) = self.memo.borrow().reads.get(&(array.id(), at_term.id())) {
                break known.clone();
            }
            let part = match at {
                Eliminated::Initial(_) => self.initial_part(&array),
                _ => None,
            };
            let read = match (array.kind(), at, part) {
                (_, Eliminated::Initial(index), Some(part)) => {
                    Eliminated::Initial(read(&part, index))
                }
                // (f[x])[x := new C] = the default of f
                (TermKind::FieldArray(f, Sort::Field(_, sort)), Eliminated::Created(x), _) => {
                    Eliminated::Initial(
                        initial_value(sort)
                            .unwrap_or_else(|| Term::field(x.clone(), f, (**sort).clone())),
                    )
                }
                // (a[e] := e')[e''] = if e = e'' then e' else a[e''] fi
                (TermKind::Store(inner, written, value), at, _) => {
                    let aliased = self.equal(&self.eliminated(written), at);
                    match aliased.kind() {
                        TermKind::Bool(false) => {
                            passed.push(array.clone());
                            array = inner.clone();
                            continue;
                        }
                        TermKind::Bool(true) => self.eliminated(value),
                        _ => {
                            Eliminated::cases(aliased, self.eliminated(value), self.read(inner, at))
                        }
                    }
                }
                // No other array forward execution builds mentions a created object.
                _ => Eliminated::Initial(read(&array, at_term)),
            };
            passed.push(array.clone());
            break read;
        };
        let mut memo = self.memo.borrow_mut();
        for array in passed {
            memo.reads
                .insert((array.id(), at_term.id()), result.clone());
        }
        result
    }

    /// The array that agrees with `array` on every initial object, without
    /// created objects: updates at created objects left out. `None` where
    /// an update may be at a created object or stores one. The updates
    /// down to the first array whose part is known are walked in a loop: a
    /// path that creates an object per iteration has as many of them.
    fn initial_part(&self, array: &Term) -> Option<Term> {
        let mut above = Vec::new();
        let mut below = array.clone();
        let mut part = loop {
            if !self.mentions(&below) {
                break Some(below);
            }
            if let Some(known) = self.memo.borrow().initial_part.get(&below.id()) {
                break known.clone();
            }
            let TermKind::Store(inner, index, value) = below.kind() else {
                break None;
            };
            let (inner, index, value) = (inner.clone(), index.clone(), value.clone());
            above.push((below, index, value));
            below = inner;
        };
        for (update, index, value) in above.into_iter().rev() {
            part = match (self.eliminated(&index), self.eliminated(&value)) {
                (Eliminated::Created(_), _) => part,
                (Eliminated::Initial(index), Eliminated::Initial(value)) => {
                    part.map(|inner| Term::store(inner, index, value))
                }
                _ => None,
            };
            self.memo
                .borrow_mut()
                .initial_part
                .insert(update.id(), part.clone());
        }
        part
    }
}

/// `f[e]`, written `e.f` where `f` is the field of the initial heap.
pub fn read(array: &Term, index: &Term) -> Term {
    match array.kind() {
        TermKind::FieldArray(f, Sort::Field(_, sort)) => {
            Term::field(index.clone(), f, (**sort).clone())
        }
        _ => Term::select(array.clone(), index.clone()),
    }
}
