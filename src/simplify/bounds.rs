//! Per-variable bound facts within one conjunction: the comparisons of a
//! conjunction that constrain the same linear form `L` (a variable, or a
//! difference like `x - a[3]`) are merged into one interval with holes,
//! written where the first of them stood. So King's `a > 0 && a > 5` is
//! `a > 5`, `k >= 1 && !(k >= 2)` is `k = 1`, `!(x < a[3]) && x != a[3]`
//! is `x > a[3]`, and contradictory bounds make the conjunction `false`.
//! Conjuncts keep their order (a path condition reads in execution order,
//! and `x != nil && x.f > 0` must not be turned round); repeated conjuncts
//! are dropped and a conjunct beside its negation makes `false`.

use super::linear::{Comparison, LinearForm, Polynomial};
use num_bigint::BigInt;
use num_traits::One;
use std::collections::HashMap;
use symex_semantics::term::{BinOp, IdMap, IdSet, Term, TermKind, UnOp};

/// What the conjuncts say about one linear form `L`.
struct Interval {
    lhs: Polynomial,
    /// `L >= lo`, and whether it was written strictly (`L > lo - 1`).
    lower: Option<(BigInt, bool)>,
    /// `L <= hi`, and whether it was written strictly (`L < hi + 1`).
    upper: Option<(BigInt, bool)>,
    excluded: Vec<BigInt>,
}

impl Interval {
    fn new(lhs: Polynomial) -> Interval {
        Interval { lhs, lower: None, upper: None, excluded: Vec::new() }
    }

    fn add(&mut self, comparison: Comparison) {
        let Comparison { op, k, .. } = comparison;
        let one = BigInt::one();
        match op {
            BinOp::Eq => {
                self.raise(k.clone(), false);
                self.lower_to(k, false);
            }
            BinOp::Ne => {
                if !self.excluded.contains(&k) {
                    self.excluded.push(k);
                }
            }
            BinOp::Ge => self.raise(k, false),
            BinOp::Gt => self.raise(k + one, true),
            BinOp::Le => self.lower_to(k, false),
            _ => self.lower_to(k - one, true),
        }
    }

    fn raise(&mut self, lo: BigInt, strict: bool) {
        if self.lower.as_ref().is_none_or(|(old, _)| lo > *old) {
            self.lower = Some((lo, strict));
        }
    }

    fn lower_to(&mut self, hi: BigInt, strict: bool) {
        if self.upper.as_ref().is_none_or(|(old, _)| hi < *old) {
            self.upper = Some((hi, strict));
        }
    }

    /// The conjuncts that say the same, or `None` when they contradict.
    fn conjuncts(mut self) -> Option<Vec<Term>> {
        let one = BigInt::one();
        while let Some((lo, strict)) = self.lower.as_mut().filter(|(lo, _)| self.excluded.contains(lo)) {
            *lo += &one;
            *strict = true;
        }
        while let Some((hi, strict)) = self.upper.as_mut().filter(|(hi, _)| self.excluded.contains(hi)) {
            *hi -= &one;
            *strict = true;
        }
        let compare = |op, k| Comparison { lhs: self.lhs.clone(), op, k }.term();
        match (&self.lower, &self.upper) {
            (Some((lo, _)), Some((hi, _))) if lo > hi => return None,
            (Some((lo, _)), Some((hi, _))) if lo == hi => return Some(vec![compare(BinOp::Eq, lo.clone())]),
            _ => {}
        }
        let mut conjuncts = Vec::new();
        if let Some((lo, strict)) = &self.lower {
            conjuncts.push(if *strict { compare(BinOp::Gt, lo - &one) } else { compare(BinOp::Ge, lo.clone()) });
        }
        if let Some((hi, strict)) = &self.upper {
            conjuncts.push(if *strict { compare(BinOp::Lt, hi + &one) } else { compare(BinOp::Le, hi.clone()) });
        }
        let inside = |k: &BigInt| self.lower.as_ref().is_none_or(|(lo, _)| k > lo) && self.upper.as_ref().is_none_or(|(hi, _)| k < hi);
        conjuncts.extend(self.excluded.iter().filter(|k| inside(k)).map(|k| compare(BinOp::Ne, k.clone())));
        Some(conjuncts)
    }
}

/// A linear form as a hashable key: its monomials' atom ids and coefficients.
type Key = Vec<(Vec<u64>, BigInt)>;

fn key(lhs: &Polynomial) -> Key {
    lhs.monomials.iter().map(|(m, c)| (m.iter().map(|atom| atom.term().id()).collect(), c.clone())).collect()
}

/// The normal form of a term: arithmetic by [`LinearForm`], and every
/// conjunction reachable through `&&` and `||` with its bounds merged.
pub struct NormalForm {
    linear: LinearForm,
    memo: IdMap<Term>,
}

impl NormalForm {
    pub fn new() -> NormalForm {
        NormalForm { linear: LinearForm::new(), memo: IdMap::default() }
    }

    pub fn normalise(&mut self, term: &Term) -> Term {
        if let Some(done) = self.memo.get(&term.id()) {
            return done.clone();
        }
        let normal = match term.kind() {
            TermKind::Binary(BinOp::And, ..) => self.conjunction(&operands(term, BinOp::And)),
            TermKind::Binary(BinOp::Or, ..) => {
                let disjuncts: Vec<Term> = operands(term, BinOp::Or).iter().map(|d| self.normalise(d)).collect();
                disjuncts.into_iter().reduce(Term::or).unwrap_or_else(|| Term::bool(false))
            }
            _ => self.linear.normalise(term),
        };
        self.memo.insert(term.id(), normal.clone());
        normal
    }

    fn conjunction(&mut self, conjuncts: &[Term]) -> Term {
        /// A conjunct of the result: a term, or the merged bounds on one form.
        enum Slot {
            Term(Term),
            Bounds(usize),
        }
        let mut slots = Vec::new();
        let mut intervals: Vec<Interval> = Vec::new();
        let mut by_form: HashMap<Key, usize> = HashMap::new();
        let mut seen = IdSet::default();
        for conjunct in conjuncts {
            if let Some(comparison) = self.linear.comparison(conjunct) {
                let index = *by_form.entry(key(&comparison.lhs)).or_insert_with(|| {
                    intervals.push(Interval::new(comparison.lhs.clone()));
                    slots.push(Slot::Bounds(intervals.len() - 1));
                    intervals.len() - 1
                });
                intervals[index].add(comparison);
                continue;
            }
            let normal = self.normalise(conjunct);
            for part in operands(&normal, BinOp::And) {
                if part.is_false() || seen.contains(&negation(&part).id()) {
                    return Term::bool(false);
                }
                if !part.is_true() && seen.insert(part.id()) {
                    slots.push(Slot::Term(part));
                }
            }
        }
        let mut merged: Vec<Option<Vec<Term>>> = intervals.into_iter().map(Interval::conjuncts).collect();
        let mut result = Vec::new();
        for slot in slots {
            match slot {
                Slot::Term(term) => result.push(term),
                Slot::Bounds(index) => match merged[index].take() {
                    Some(terms) => result.extend(terms),
                    None => return Term::bool(false),
                },
            }
        }
        Term::conjunction(result)
    }
}

/// The operands of a chain of `op` (`a && (b && c)` and `(a && b) && c`
/// alike), left to right, without recursion.
fn operands(term: &Term, op: BinOp) -> Vec<Term> {
    let mut found = Vec::new();
    let mut stack = vec![term.clone()];
    while let Some(t) = stack.pop() {
        match t.kind() {
            TermKind::Binary(o, a, b) if *o == op => {
                stack.push(b.clone());
                stack.push(a.clone());
            }
            _ => found.push(t),
        }
    }
    found
}

/// `¬t` as the rules write it (a negated comparison is another comparison,
/// so only `!` is looked through).
fn negation(term: &Term) -> Term {
    match term.kind() {
        TermKind::Unary(UnOp::Not, inner) => inner.clone(),
        _ => Term::unary(UnOp::Not, term.clone()),
    }
}
