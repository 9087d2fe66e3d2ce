//! Aliasing the path has decided already. A guard over the initial heap
//! asks again and again whether two references are one object: wp's read
//! over an earlier write is `if h = h' then e else h.f fi` (§4.1), forward
//! execution's a `select(store(f, h, e), h')`, and each later write nests
//! one more. Under the path condition most of these are settled: `l.next
//! != nil` excludes `l.next = nil`, and a chain `l, l.next, …, l.next^k`
//! that ends in `nil` (`l.next^k = nil`, the earlier ones not) has no
//! cycle, so no two of its references are one object. [`HeapFacts`] holds
//! what the guards of a path say about `nil`, and [`HeapFacts::resolve`]
//! replaces each equality of references it decides by its value, the
//! conditionals and reads over writes it settles by their branch, before
//! the solver or the e-graph simplifier sees the guard — so their terms
//! stay the size of the program's own, however many writes came before.
//!
//! The one lemma beyond the literal facts is congruence: if `a = a.π` for
//! a nonempty path of fields `π`, then `a.π^r.τ = a.τ` for every `r` and
//! every path `τ`; so a fact `a.π^r.τ = nil` with `a.τ != nil` (or the
//! other way round) refutes `a = a.π`. It holds in the array theory the
//! solver uses (`C.f[o]` is a function of `o`), whatever the heap.

use crate::mutants::{self, Mutant};
use rustc_hash::{FxBuildHasher, FxHashMap};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use symex_semantics::term::{BinOp, IdMap, Name, Sort, Term, TermKind, UnOp};

/// One step from an object to another: a field of the initial heap (`e.f`
/// and `C.f[e]` are one read), or a read of any other fixed array of
/// objects (a field array after writes the path has not settled).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Step {
    Field(Name),
    Read(u64),
}

/// A reference as a path from a base term (a variable) through steps.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Reference {
    base: Term,
    steps: Vec<Step>,
}

/// `t` as a [`Reference`], if it is a chain of field reads from a variable.
fn reference(t: &Term) -> Option<Reference> {
    let mut steps = Vec::new();
    let mut t = t;
    loop {
        match t.kind() {
            TermKind::Var(_, Sort::Object(_)) => break,
            TermKind::Field(object, f, Sort::Object(_)) => {
                steps.push(Step::Field(f.clone()));
                t = object;
            }
            TermKind::Select(array, index) => {
                steps.push(step_of(array)?);
                t = index;
            }
            _ => return None,
        }
    }
    steps.reverse();
    Some(Reference {
        base: t.clone(),
        steps,
    })
}

/// The step a read of `array` takes: an object field of the initial heap,
/// or writes to one.
fn step_of(array: &Term) -> Option<Step> {
    let mut base = array;
    while let TermKind::Store(inner, ..) = base.kind() {
        base = inner;
    }
    let TermKind::FieldArray(f, Sort::Field(_, element)) = base.kind() else {
        return None;
    };
    if !matches!(**element, Sort::Object(_)) {
        return None;
    }
    Some(match array.kind() {
        TermKind::FieldArray(..) => Step::Field(f.clone()),
        _ => Step::Read(array.id()),
    })
}

fn is_nil(t: &Term) -> bool {
    matches!(t.kind(), TermKind::Nil(_))
}

/// The facts about the references from one base: `nil` or not, by steps.
/// Hashed with Fx: a guard looks facts up at every comparison of
/// references, and SipHash over a path of field names cost more than the
/// rest of the lookup.
type Facts = im::HashMap<Vec<Step>, bool, FxBuildHasher>;

/// What a path's guards say about its references: which are `nil` and
/// which are not, by base term. Persistent: a node extends its parent's.
#[derive(Clone, Default)]
pub struct HeapFacts {
    nil: im::HashMap<Term, Facts, FxBuildHasher>,
    /// What [`HeapFacts::resolve`] made of each term (by id) under these
    /// facts, shared by the nodes below whose guards add none: a guard
    /// mostly repeats the heap terms of the guards before it, so each is
    /// resolved once, not once per node along the path.
    resolved: Rc<RefCell<IdMap<Term>>>,
    /// What [`HeapFacts::equal`] answered for each pair of terms (by id,
    /// the smaller first) under these facts, shared like `resolved`: the
    /// reads over writes of different paths ask about the same references
    /// again and again, and refuting a cycle walks every fact of the base.
    equalities: Rc<RefCell<Equalities>>,
}

/// Each pair of terms (by id) with what [`HeapFacts::equal`] answered.
type Equalities = FxHashMap<(u64, u64), Option<bool>>;

thread_local! {
    /// Equalities of references decided on this thread, by a `nil` fact
    /// and by a refuted cycle (the properties' coverage counts).
    static DECIDED: Cell<Decided> = const { Cell::new(Decided { by_nil: 0, by_acyclic_chain: 0 }) };
}

/// How many equalities of references [`HeapFacts::resolve`] has decided
/// on this thread, by how.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Decided {
    pub by_nil: u64,
    pub by_acyclic_chain: u64,
}

pub fn decided() -> Decided {
    DECIDED.with(Cell::get)
}

thread_local! {
    /// Equalities of references answered from [`HeapFacts`]'s memo on
    /// this thread (the properties' coverage counts).
    static EQUALITIES_REMEMBERED: Cell<u64> = const { Cell::new(0) };
}

/// How many equalities [`HeapFacts::resolve`] has answered from its memo
/// on this thread.
pub fn equalities_remembered() -> u64 {
    EQUALITIES_REMEMBERED.with(Cell::get)
}

fn count(acyclic_chain: bool) {
    DECIDED.with(|decided| {
        let mut n = decided.get();
        match acyclic_chain {
            true => n.by_acyclic_chain += 1,
            false => n.by_nil += 1,
        }
        decided.set(n);
    });
}

impl HeapFacts {
    pub fn new() -> HeapFacts {
        HeapFacts::default()
    }

    /// These facts with those the conjuncts of `guard` state (`t = nil`,
    /// `t != nil` for a reference `t`).
    pub fn with(&self, guard: &Term) -> HeapFacts {
        let mut nil = self.nil.clone();
        let mut learned = false;
        for conjunct in guard.conjuncts() {
            let (op, a, b) = match conjunct.kind() {
                TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => (*op, a, b),
                TermKind::Unary(UnOp::Not, inner) => match inner.kind() {
                    TermKind::Binary(BinOp::Eq, a, b) => (BinOp::Ne, a, b),
                    TermKind::Binary(BinOp::Ne, a, b) => (BinOp::Eq, a, b),
                    _ => continue,
                },
                _ => continue,
            };
            let t = match (is_nil(a), is_nil(b)) {
                (false, true) => a,
                (true, false) => b,
                _ => continue,
            };
            if let Some(Reference { base, steps }) = reference(t) {
                let is_nil = op == BinOp::Eq;
                learned |= nil.entry(base).or_default().insert(steps, is_nil) != Some(is_nil);
            }
        }
        match learned {
            false => self.clone(),
            true if mutants::active(Mutant::AliasingEqualitiesKept) => HeapFacts {
                nil,
                resolved: Rc::default(),
                equalities: self.equalities.clone(),
            },
            true => HeapFacts {
                nil,
                ..HeapFacts::default()
            },
        }
    }

    /// Whether the facts say `r` is `nil`.
    fn nil_of(&self, r: &Reference) -> Option<bool> {
        self.nil.get(&r.base)?.get(&r.steps).copied()
    }

    /// Whether `a = b` holds under the facts, when they decide it;
    /// remembered per pair.
    fn equal(&self, a: &Term, b: &Term) -> Option<bool> {
        if a == b {
            return Some(true);
        }
        let key = (a.id().min(b.id()), a.id().max(b.id()));
        if let Some(known) = self.equalities.borrow().get(&key) {
            EQUALITIES_REMEMBERED.with(|n| n.set(n.get() + 1));
            return *known;
        }
        let decided = self.decide_equal(a, b);
        self.equalities.borrow_mut().insert(key, decided);
        decided
    }

    /// [`HeapFacts::equal`] for two distinct terms, from the facts.
    fn decide_equal(&self, a: &Term, b: &Term) -> Option<bool> {
        let decided = match (is_nil(a), is_nil(b)) {
            (true, true) => None,
            (true, false) => self.nil_of(&reference(b)?).inspect(|_| count(false)),
            (false, true) => self.nil_of(&reference(a)?).inspect(|_| count(false)),
            (false, false) => self.distinct(&reference(a)?, &reference(b)?),
        }?;
        Some(decided != mutants::active(Mutant::AliasingDecidedWrongWay))
    }

    /// `Some(false)` when two references are known to be two objects: one
    /// is `nil` and the other not, or one extends the other and a cycle
    /// between them is refuted (see the module documentation).
    fn distinct(&self, a: &Reference, b: &Reference) -> Option<bool> {
        if let (Some(x), Some(y)) = (self.nil_of(a), self.nil_of(b)) {
            if x != y {
                count(false);
                return Some(false);
            }
        }
        if a.base != b.base {
            return None;
        }
        let (short, long) = match a.steps.len() <= b.steps.len() {
            true => (a, b),
            false => (b, a),
        };
        let refuted = long.steps.starts_with(&short.steps)
            && self.acyclic(&short.base, &short.steps, &long.steps[short.steps.len()..]);
        refuted.then(|| count(true)).map(|()| false)
    }

    /// Whether the facts refute `a = a.π` for `a` = `base.alpha`.
    fn acyclic(&self, base: &Term, alpha: &[Step], pi: &[Step]) -> bool {
        let Some(facts) = self.nil.get(base) else {
            return false;
        };
        if pi.is_empty() {
            return false;
        }
        let mut folded = alpha.to_vec();
        facts.iter().any(|(steps, nil)| {
            // Only a fact at `a.π^r.τ` with `r > 0` can refute the cycle.
            if steps.len() < alpha.len() + pi.len() {
                return false;
            }
            let Some(mut rest) = steps.strip_prefix(alpha) else {
                return false;
            };
            while let Some(shorter) = rest.strip_prefix(pi) {
                rest = shorter;
            }
            folded.truncate(alpha.len());
            folded.extend_from_slice(rest);
            facts.get(&folded).is_some_and(|other| other != nil)
        })
    }

    /// `term` with every equality of references the facts decide replaced
    /// by its value, and the conditionals and reads over writes that
    /// settles replaced by their branch; equivalent to `term` wherever the
    /// facts hold. Linear in the part of the term's DAG not resolved
    /// under these facts before.
    pub fn resolve(&self, term: &Term) -> Term {
        if self.nil.is_empty() {
            return term.clone();
        }
        term.rebuilt_into(&mut self.resolved.borrow_mut(), |node, children| {
            self.settled(node.with_children(children))
        })
    }

    /// `node`, whose children are settled, with its own operation settled.
    fn settled(&self, node: Term) -> Term {
        match node.kind() {
            TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => match self.equal(a, b) {
                Some(equal) => Term::bool(equal == (*op == BinOp::Eq)),
                None => node,
            },
            TermKind::Ite(c, then, otherwise) => match c.kind() {
                TermKind::Bool(true) => then.clone(),
                TermKind::Bool(false) => otherwise.clone(),
                _ if then == otherwise => then.clone(),
                _ => node,
            },
            TermKind::Select(..) => self.read_over_writes(node),
            _ => node,
        }
    }

    /// `(F[h] := v)[w]` as `v` when `h = w` is decided true, as `F[w]` when
    /// it is decided false (McCarthy's read over write), repeatedly; a read
    /// that reaches the initial field `f` this way is written `w.f`, as
    /// the paper writes a read of the initial heap.
    fn read_over_writes(&self, node: Term) -> Term {
        let mut read = node.clone();
        while let TermKind::Select(array, w) = read.kind() {
            let TermKind::Store(inner, h, v) = array.kind() else {
                break;
            };
            read = match self.equal(h, w) {
                Some(true) => return v.clone(),
                Some(false) => Term::select(inner.clone(), w.clone()),
                None => break,
            };
        }
        match read.kind() {
            TermKind::Select(array, w) if read != node => match array.kind() {
                TermKind::FieldArray(f, Sort::Field(_, element)) => {
                    Term::field(w.clone(), f, (**element).clone())
                }
                _ => read,
            },
            _ => read,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node() -> Sort {
        Sort::Object("Node".into())
    }

    fn next(t: Term) -> Term {
        Term::field(t, "next", node())
    }

    fn nil() -> Term {
        Term::nil("Node")
    }

    fn l() -> Term {
        Term::var("l", node())
    }

    /// `l != nil && l.next != nil && l.next.next = nil`.
    fn two_nodes() -> HeapFacts {
        HeapFacts::new().with(&Term::conjunction([
            Term::binary(BinOp::Ne, l(), nil()),
            Term::binary(BinOp::Ne, next(l()), nil()),
            Term::binary(BinOp::Eq, next(next(l())), nil()),
        ]))
    }

    #[test]
    fn a_chain_that_ends_in_nil_has_no_cycle() {
        let facts = two_nodes();
        let aliased = Term::ite(
            Term::binary(BinOp::Eq, next(l()), l()),
            nil(),
            next(next(l())),
        );
        let read = Term::binary(BinOp::Ne, aliased, nil());
        assert_eq!(facts.resolve(&read), Term::bool(false));
    }

    #[test]
    fn a_read_over_a_write_to_another_object_skips_the_write() {
        let facts = two_nodes();
        let array = Term::field_array("next", "Node", node());
        let written = Term::store(array.clone(), l(), nil());
        let read = Term::select(written, next(l()));
        assert_eq!(facts.resolve(&read), next(next(l())));
    }

    #[test]
    fn references_without_facts_are_left_as_they_are() {
        let facts = two_nodes();
        let other = Term::var("m", node());
        let equal = Term::binary(BinOp::Eq, other.clone(), next(other));
        assert_eq!(facts.resolve(&equal), equal);
    }
}
