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

/// A value of a term after `[x := new C]` for every created `x`: the
/// value of each case under its condition, over the initial state. The
/// conditions exclude each other and together hold, so the last needs no
/// test. The cases of one value are kept by value — one per created object
/// and one for all initial terms (§2.1's `if c then a else b fi` of the
/// two) — so a value has at most one case more than the path created
/// objects, however deep the conditionals that chose it; the plain tree of
/// conditionals ([`Creations::new`]) doubles with each level.
#[derive(Clone)]
struct Eliminated(Vec<(Value, Term)>);

/// One case: a term over the initial state, or the variable of a created object.
#[derive(Clone, PartialEq)]
enum Value {
    Initial(Term),
    Created(Term),
}

impl Value {
    /// Whether two cases are kept as one: the same created object, or both initial.
    fn merges_with(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Initial(_), Value::Initial(_)) => true,
            (Value::Created(x), Value::Created(y)) => x == y,
            _ => false,
        }
    }
}

/// `if c then p else q fi` for Booleans, folded where an arm is a constant
/// or both arms are equal.
fn choose(c: &Term, p: Term, q: Term) -> Term {
    match (p.kind(), q.kind()) {
        _ if p == q => p,
        (TermKind::Bool(true), TermKind::Bool(false)) => c.clone(),
        (TermKind::Bool(false), TermKind::Bool(true)) => Term::not(c.clone()),
        (_, TermKind::Bool(false)) => Term::and(c.clone(), p),
        (TermKind::Bool(false), _) => Term::and(Term::not(c.clone()), q),
        _ => Term::ite(c.clone(), p, q),
    }
}

impl Eliminated {
    fn initial(term: Term) -> Eliminated {
        Eliminated(vec![(Value::Initial(term), Term::bool(true))])
    }

    /// The term, when every case is over the initial state.
    fn as_initial(&self) -> Option<Term> {
        let (last, rest) = self.0.split_last()?;
        let Value::Initial(mut term) = last.0.clone() else {
            return None;
        };
        for (value, c) in rest.iter().rev() {
            let Value::Initial(a) = value else {
                return None;
            };
            term = Term::ite(c.clone(), a.clone(), term);
        }
        Some(term)
    }

    /// The created object, when it is the only case.
    fn as_created(&self) -> Option<&Term> {
        match self.0.as_slice() {
            [(Value::Created(x), _)] => Some(x),
            _ => None,
        }
    }

    /// `if c then a else b fi`; with `merge`, the cases of one value (see
    /// [`Value::merges_with`]) become one, under `if c then cₐ else c_b fi`.
    fn cases(c: Term, a: Eliminated, b: Eliminated, merge: bool) -> Eliminated {
        match c.kind() {
            TermKind::Bool(true) => return a,
            TermKind::Bool(false) => return b,
            _ => {}
        }
        if !merge {
            let under = |e: Eliminated, c: Term| {
                e.0.into_iter()
                    .map(move |(value, d)| (value, Term::and(c.clone(), d)))
            };
            let not_c = Term::not(c.clone());
            return Eliminated(under(a, c).chain(under(b, not_c)).collect());
        }
        let find =
            |e: &Eliminated, value: &Value| e.0.iter().find(|(v, _)| v.merges_with(value)).cloned();
        let mut merged: Vec<(Value, Term)> = Vec::new();
        for (value, _) in a.0.iter().chain(&b.0) {
            if merged.iter().any(|(v, _)| v.merges_with(value)) {
                continue;
            }
            let no = Term::bool(false);
            let both = |p: Term, q: Term| {
                if crate::mutants::active(crate::mutants::Mutant::MergedCasesWithoutCondition) {
                    Term::or(p, q)
                } else {
                    choose(&c, p, q)
                }
            };
            merged.push(match (find(&a, value), find(&b, value)) {
                (Some((Value::Initial(x), p)), Some((Value::Initial(y), q))) => {
                    let term = if x == y {
                        x
                    } else {
                        Term::ite(c.clone(), x, y)
                    };
                    (Value::Initial(term), both(p, q))
                }
                (Some((v, p)), Some((_, q))) => (v, both(p, q)),
                (Some((v, p)), None) => (v, choose(&c, p, no)),
                (_, Some((v, q))) => (v, choose(&c, no, q)),
                (None, None) => continue,
            });
        }
        Eliminated(merged)
    }

    /// The same cases with each value `v` replaced by `f(v)`.
    fn map(&self, merge: bool, f: &mut impl FnMut(&Value) -> Eliminated) -> Eliminated {
        let Some(((last, _), rest)) = self.0.split_last() else {
            return self.clone();
        };
        let mut result = f(last);
        for (value, c) in rest.iter().rev() {
            result = Eliminated::cases(c.clone(), f(value), result, merge);
        }
        result
    }
}

/// The memoised elimination, shared by all configurations of one exploration.
pub struct Creations {
    /// Whether the cases of one value are merged ([`Eliminated::cases`]).
    merge: bool,
    memo: RefCell<Memo>,
}

impl Default for Creations {
    fn default() -> Creations {
        Creations::new(true)
    }
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
    /// The elimination, with the cases of one value merged or (`merge`
    /// false) as the plain tree of conditionals: exponential in the depth of
    /// nested reads, kept as the definition the merged cases are checked against.
    pub fn new(merge: bool) -> Creations {
        Creations {
            merge,
            memo: RefCell::default(),
        }
    }

    /// `b[x := new C]` for every created `x` of a Boolean or integer term:
    /// a term over the initial state only.
    pub fn eliminate(&self, b: &Term) -> Term {
        // Only object terms can be a created object; callers pass Booleans.
        self.eliminated(b).as_initial().unwrap_or_else(|| b.clone())
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

    fn cases(&self, c: Term, a: Eliminated, b: Eliminated) -> Eliminated {
        Eliminated::cases(c, a, b, self.merge)
    }

    fn map(&self, e: &Eliminated, mut f: impl FnMut(&Value) -> Eliminated) -> Eliminated {
        e.map(self.merge, &mut f)
    }

    fn eliminated(&self, e: &Term) -> Eliminated {
        if !self.mentions(e) {
            return Eliminated::initial(e.clone());
        }
        if let Some(known) = self.memo.borrow().eliminated.get(&e.id()) {
            return known.clone();
        }
        let result = match e.kind() {
            TermKind::Var(..) => Eliminated(vec![(Value::Created(e.clone()), Term::bool(true))]),
            TermKind::Ite(c, a, b) => {
                self.cases(self.eliminate(c), self.eliminated(a), self.eliminated(b))
            }
            TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b)
                if matches!(a.sort(), Sort::Object(_)) =>
            {
                let equal = self.equal(&self.eliminated(a), &self.eliminated(b));
                Eliminated::initial(if *op == BinOp::Eq {
                    equal
                } else {
                    Term::not(equal)
                })
            }
            // (x.f)[x := new C] = the default of f; (e.f)[x := new C] = e[x := new C].f
            TermKind::Field(object, f, sort) => {
                self.map(&self.eliminated(object), |value| match value {
                    Value::Created(x) => Eliminated::initial(
                        initial_value(sort)
                            .unwrap_or_else(|| Term::field(x.clone(), f, sort.clone())),
                    ),
                    Value::Initial(object) => {
                        Eliminated::initial(Term::field(object.clone(), f, sort.clone()))
                    }
                })
            }
            TermKind::Select(array, index) if matches!(array.sort(), Sort::Field(..)) => {
                self.map(&self.eliminated(index), |value| self.read(array, value))
            }
            _ => {
                let children: Vec<Term> = e
                    .children()
                    .into_iter()
                    .map(|child| self.eliminate(child))
                    .collect();
                Eliminated::initial(e.with_children(&children))
            }
        };
        self.memo
            .borrow_mut()
            .eliminated
            .insert(e.id(), result.clone());
        result
    }

    /// `a = b` for objects: `(x = x)[x := new C] = true`, `(x = e)[x := new C] = false`,
    /// case by case: `if c₁ then (v₁ = b) else … fi` over the cases `vᵢ` of
    /// `a`, a case left out where its answer is the next one's.
    fn equal(&self, a: &Eliminated, b: &Eliminated) -> Term {
        let chain = |cases: &Eliminated, test: &mut dyn FnMut(&Value) -> Term| {
            let Some(((last, _), rest)) = cases.0.split_last() else {
                return Term::bool(false);
            };
            let mut result = test(last);
            for (value, c) in rest.iter().rev() {
                let here = test(value);
                if here != result {
                    result = Term::ite(c.clone(), here, result);
                }
            }
            result
        };
        chain(a, &mut |va| {
            chain(b, &mut |vb| match (va, vb) {
                (Value::Created(x), Value::Created(y)) => Term::bool(
                    x == y || crate::mutants::active(crate::mutants::Mutant::CreatedObjectsEqual),
                ),
                (Value::Initial(a), Value::Initial(b)) => {
                    Term::binary(BinOp::Eq, a.clone(), b.clone())
                }
                _ => Term::bool(false),
            })
        })
    }

    /// `(f[v])[x := new C]` for a field array `f` and a value `v`. The
    /// updates whose index is surely not `v` are passed over in a loop (a
    /// created object is read through every later write of its field), and
    /// the read of each array passed over is memoised with the answer.
    fn read(&self, array: &Term, at: &Value) -> Eliminated {
        let (Value::Initial(at_term) | Value::Created(at_term)) = at;
        let at_cases = Eliminated(vec![(at.clone(), Term::bool(true))]);
        let mut passed = Vec::new();
        let mut array = array.clone();
        let result = loop {
            if let Some(known) = self.memo.borrow().reads.get(&(array.id(), at_term.id())) {
                break known.clone();
            }
            let part = match at {
                Value::Initial(_) => self.initial_part(&array),
                Value::Created(_) => None,
            };
            let read = match (array.kind(), at, part) {
                (_, Value::Initial(index), Some(part)) => Eliminated::initial(read(&part, index)),
                // (f[x])[x := new C] = the default of f
                (TermKind::FieldArray(f, Sort::Field(_, sort)), Value::Created(x), _) => {
                    Eliminated::initial(
                        initial_value(sort)
                            .unwrap_or_else(|| Term::field(x.clone(), f, (**sort).clone())),
                    )
                }
                // (a[e] := e')[e''] = if e = e'' then e' else a[e''] fi
                (TermKind::Store(inner, written, value), _, _) => {
                    let aliased = self.equal(&self.eliminated(written), &at_cases);
                    match aliased.kind() {
                        TermKind::Bool(false) => {
                            passed.push(array.clone());
                            array = inner.clone();
                            continue;
                        }
                        TermKind::Bool(true) => self.eliminated(value),
                        _ => self.cases(aliased, self.eliminated(value), self.read(inner, at)),
                    }
                }
                // No other array forward execution builds mentions a created object.
                _ => Eliminated::initial(read(&array, at_term)),
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
            let (index, value) = (self.eliminated(&index), self.eliminated(&value));
            part = match (index.as_created(), index.as_initial(), value.as_initial()) {
                (Some(_), _, _) => part,
                (_, Some(index), Some(value)) => part.map(|inner| Term::store(inner, index, value)),
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
