//! State merging (Kuznetsov et al., PLDI 2012; Zhao et al. 2017,
//! Algorithm 5): two configurations waiting at the same point, in the same
//! loop context and stack of frames, become one, whose path condition is
//! `φ₁ ∨ φ₂` and whose values are `ite(φ₁, v₁, v₂)` where they differ.
//!
//! The frontier ([`MergingFrontier`]) expands the configuration with the
//! most statements left first, so that the configurations a fork made meet
//! again where their branches join (an `if`'s continuation, a loop's exit)
//! before either goes on: every configuration still inside a branch or a
//! loop body has more statements left than one at the join.
//!
//! The conditions factor their common conjuncts out: `φ ∧ b` and `φ ∧ ¬b`
//! join as `φ ∧ (b ∨ ¬b)`, which the simplifier makes `φ`, and the values
//! are chosen by the differing part alone (under `φ` it decides the side).

use super::bounds::LoopContext;
use crate::simplify::{offset, Simplifier};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use symex_semantics::program::Point;
use symex_semantics::system::SymbolicConfiguration;
use num_bigint::BigInt;
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind};

/// Whether and how the explorer merges configurations (`--merge`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Merge {
    /// Every path on its own (the paper's tree).
    #[default]
    Off,
    /// Configurations at the same point and loop context are joined.
    Join,
    /// A deliberately wrong join that keeps the first side's value where the
    /// two differ, for the tests that show King's properties catch it.
    #[cfg(any(test, feature = "mutants"))]
    DropsOtherValue,
}

/// Where configurations may be joined: the same point, in the same loop
/// context (the loops the path is inside, each with its iteration count).
pub(crate) type MergeKey = (Point, LoopContext);

/// The join of two configurations at one point, and the condition under
/// which the joined configuration came from `a` (its differing conjuncts).
pub(crate) struct Joined<C> {
    pub(crate) config: C,
    /// `φ₁ ∨ φ₂` with the common conjuncts factored out.
    pub(crate) condition: Term,
}

/// `a ⊔ b`: the path conditions' common conjuncts, and the disjunction of
/// the rest (simplified: `b ∨ ¬b` is `true`); values chosen by what only
/// `a`'s condition says.
pub(crate) fn join<C: SymbolicConfiguration>(
    a: &C,
    b: &C,
    merge: Merge,
    simplifier: &mut Simplifier,
) -> Option<Joined<C>> {
    let (phi_a, phi_b) = (a.path_condition(), b.path_condition());
    let in_b: HashSet<u64> = phi_b.conjuncts().iter().map(Term::id).collect();
    let (common, only_a): (Vec<Term>, Vec<Term>) = phi_a
        .conjuncts()
        .into_iter()
        .partition(|conjunct| in_b.contains(&conjunct.id()));
    let shared: HashSet<u64> = common.iter().map(Term::id).collect();
    let only_b = phi_b
        .conjuncts()
        .into_iter()
        .filter(|conjunct| !shared.contains(&conjunct.id()));
    let side_a = Term::conjunction(only_a);
    let side_b = Term::conjunction(only_b);
    let condition = simplifier.simplify(&Term::or(side_a.clone(), side_b));
    let phi = Term::conjunction(common.into_iter().chain([condition.clone()]));
    let mut value = |_: &Name, v1: &Term, v2: &Term| match merge {
        #[cfg(any(test, feature = "mutants"))]
        Merge::DropsOtherValue => v1.clone(),
        _ => choose(&side_a, v1, v2),
    };
    let config = a.join(b, phi, &mut value)?;
    Some(Joined { config, condition })
}

/// `ite(c, v1, v2)`, kept small: equal values stay one, and a common
/// operand of both is taken out (`ite(c, e + 1, e - 1)` is
/// `e + ite(c, 1, -1)`), so a counter that each branch moves grows by one
/// conditional per join, not by a copy of its whole history.
fn choose(c: &Term, v1: &Term, v2: &Term) -> Term {
    if v1 == v2 {
        return v1.clone();
    }
    if let (Some((e1, k1)), Some((e2, k2))) = (shifted(v1), shifted(v2)) {
        if e1 == e2 {
            let k = choose(c, &Term::int(k1), &Term::int(k2));
            return Term::binary(BinOp::Add, e1.clone(), k);
        }
    }
    match (v1.kind(), v2.kind()) {
        (TermKind::Binary(op1, l1, r1), TermKind::Binary(op2, l2, r2))
            if op1 == op2 && l1 == l2 && !op1.is_boolean() =>
        {
            Term::binary(*op1, l1.clone(), choose(c, r1, r2))
        }
        (TermKind::Store(a1, i1, x1), TermKind::Store(a2, i2, x2)) if a1 == a2 && i1 == i2 => {
            Term::store(a1.clone(), i1.clone(), choose(c, x1, x2))
        }
        _ => Term::ite(c.clone(), v1.clone(), v2.clone()),
    }
}

/// An integer `e + k` or `e - k` as `(e, ±k)`, and any other integer
/// term but a literal as `(e, 0)`.
fn shifted(v: &Term) -> Option<(&Term, BigInt)> {
    match v.kind() {
        TermKind::Int(_) => None,
        _ if v.sort() != Sort::Int => None,
        _ => Some(offset(v).unwrap_or((v, BigInt::from(0)))),
    }
}

/// The configurations waiting to be expanded, the one with the most
/// statements left first (first come, first served among equals), each
/// findable by its merge key while it waits.
pub(crate) struct MergingFrontier<T> {
    /// Statements left, arrival, slot: an entry whose slot holds another
    /// arrival by now (taken to be joined) is stale.
    heap: BinaryHeap<(usize, Reverse<u64>, usize)>,
    slots: Vec<Option<(u64, Option<MergeKey>, T)>>,
    free: Vec<usize>,
    waiting: HashMap<MergeKey, usize>,
    counter: u64,
}

impl<T> MergingFrontier<T> {
    pub(crate) fn new() -> MergingFrontier<T> {
        MergingFrontier {
            heap: BinaryHeap::new(),
            slots: Vec::new(),
            free: Vec::new(),
            waiting: HashMap::new(),
            counter: 0,
        }
    }

    /// Takes out the configuration waiting at `key`, to join it with another.
    pub(crate) fn take(&mut self, key: &MergeKey) -> Option<T> {
        let slot = *self.waiting.get(key)?;
        let (_, _, item) = self.slots[slot].take()?;
        self.waiting.remove(key);
        self.free.push(slot);
        Some(item)
    }

    /// Adds a configuration waiting at `key` (none is waiting there); one
    /// without a key (a configuration that does not merge) is never joined.
    pub(crate) fn push(&mut self, key: Option<MergeKey>, item: T) {
        let remaining = key.as_ref().map_or(0, |(point, _)| point.remaining);
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                self.slots.push(None);
                self.slots.len() - 1
            }
        };
        self.counter += 1;
        if let Some(key) = &key {
            self.waiting.insert(key.clone(), slot);
        }
        self.slots[slot] = Some((self.counter, key, item));
        self.heap.push((remaining, Reverse(self.counter), slot));
    }

    /// The configuration with the most statements left.
    pub(crate) fn pop(&mut self) -> Option<T> {
        while let Some((_, Reverse(arrival), slot)) = self.heap.pop() {
            if !matches!(&self.slots[slot], Some((held, ..)) if *held == arrival) {
                continue;
            }
            if let Some((_, key, item)) = self.slots[slot].take() {
                if let Some(key) = key {
                    self.waiting.remove(&key);
                }
                self.free.push(slot);
                return Some(item);
            }
        }
        None
    }
}
