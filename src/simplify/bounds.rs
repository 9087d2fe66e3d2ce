//! Per-variable bound facts within one conjunction: the comparisons of a
//! conjunction that constrain the same linear form `L` (a variable, or a
//! difference like `x - a[3]`) are merged into one interval with holes,
//! written where the first of them stood. So King's `a > 0 && a > 5` is
//! `a > 5`, `k >= 1 && !(k >= 2)` is `k = 1`, `!(x < a[3]) && x != a[3]`
//! is `x > a[3]`, and contradictory bounds make the conjunction `false`.
//! Conjuncts keep their order (a path condition reads in execution order,
//! and `x != nil && x.f > 0` must not be turned round); repeated conjuncts
//! are dropped and a conjunct beside its negation makes `false`.

use super::append::Tags;
use super::linear::{complement, written, Comparison, LinearForm, Polynomial};
use num_bigint::BigInt;
use num_traits::One;
use std::collections::HashMap;
use symex_semantics::memo::Generations;
use symex_semantics::subst::substitute;
use symex_semantics::term::{BinOp, IdSet, Name, Term, TermKind};

/// What the conjuncts say about one linear form `L`.
struct Interval {
    lhs: Polynomial,
    /// `L >= lo`, and whether it was written strictly (`L > lo - 1`).
    lower: Option<(BigInt, bool)>,
    /// `L <= hi`, and whether it was written strictly (`L < hi + 1`).
    upper: Option<(BigInt, bool)>,
    excluded: Vec<BigInt>,
    /// The term of the comparison while it is the only one: what the
    /// interval writes then (so a path condition's conjuncts are not
    /// rebuilt on every path that extends it).
    only: Option<Term>,
    compared: usize,
}

impl Interval {
    fn new(lhs: Polynomial) -> Interval {
        Interval {
            lhs,
            lower: None,
            upper: None,
            excluded: Vec::new(),
            only: None,
            compared: 0,
        }
    }

    fn add(&mut self, comparison: &Comparison, written: &Term) {
        self.compared += 1;
        self.only = (self.compared == 1).then(|| written.clone());
        let k = comparison.k.clone();
        match (one_way(comparison), comparison.op) {
            (Some((true, lo, strict)), _) => self.raise(lo, strict),
            (Some((false, hi, strict)), _) => self.lower_to(hi, strict),
            (None, BinOp::Eq) => {
                self.raise(k.clone(), false);
                self.lower_to(k, false);
            }
            (None, _) => {
                if !self.excluded.contains(&k) {
                    self.excluded.push(k);
                }
            }
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

    /// `x` and `k` when the conjuncts pin a variable: `x = k`. The other
    /// conjuncts may then read `k` for `x` (`x = 2 && (x <= 0 || x = 2)` is
    /// `x = 2`).
    fn pinned_variable(&self) -> Option<(Name, BigInt)> {
        let (lo, hi) = (&self.lower.as_ref()?.0, &self.upper.as_ref()?.0);
        if lo != hi {
            return None;
        }
        Some((variable(&self.lhs)?, lo.clone()))
    }

    /// The conjuncts that say the same, or `None` when they contradict.
    fn conjuncts(mut self) -> Option<Vec<Term>> {
        if let Some(written) = self.only.take() {
            // One comparison `L op k` is its own interval, written as it was.
            return Some(vec![written]);
        }
        let one = BigInt::one();
        while let Some((lo, strict)) = self
            .lower
            .as_mut()
            .filter(|(lo, _)| self.excluded.contains(lo))
        {
            *lo += &one;
            *strict = true;
        }
        while let Some((hi, strict)) = self
            .upper
            .as_mut()
            .filter(|(hi, _)| self.excluded.contains(hi))
        {
            *hi -= &one;
            *strict = true;
        }
        let compare = |op, k: &BigInt| written(&self.lhs, op, k);
        match (&self.lower, &self.upper) {
            (Some((lo, _)), Some((hi, _))) if lo > hi => return None,
            (Some((lo, _)), Some((hi, _))) if lo == hi => {
                return Some(vec![compare(BinOp::Eq, lo)])
            }
            _ => {}
        }
        let mut conjuncts = Vec::new();
        if let Some((lo, strict)) = &self.lower {
            conjuncts.push(if *strict {
                compare(BinOp::Gt, &(lo - &one))
            } else {
                compare(BinOp::Ge, lo)
            });
        }
        if let Some((hi, strict)) = &self.upper {
            conjuncts.push(if *strict {
                compare(BinOp::Lt, &(hi + &one))
            } else {
                compare(BinOp::Le, hi)
            });
        }
        let inside = |k: &BigInt| {
            self.lower.as_ref().is_none_or(|(lo, _)| k > lo)
                && self.upper.as_ref().is_none_or(|(hi, _)| k < hi)
        };
        conjuncts.extend(
            self.excluded
                .iter()
                .filter(|k| inside(k))
                .map(|k| compare(BinOp::Ne, k)),
        );
        Some(conjuncts)
    }
}

/// `L op k` for an `op` other than `=` and `!=` as the bound it puts on
/// `L`: whether it is a lower one, the bound, and whether it was written
/// strictly (`L > k` is `L >= k + 1`).
fn one_way(comparison: &Comparison) -> Option<(bool, BigInt, bool)> {
    let k = &comparison.k;
    match comparison.op {
        BinOp::Ge => Some((true, k.clone(), false)),
        BinOp::Gt => Some((true, k + 1, true)),
        BinOp::Le => Some((false, k.clone(), false)),
        BinOp::Lt => Some((false, k - 1, true)),
        _ => None,
    }
}

/// For two lower bounds or two upper bounds on one linear form, whether
/// the second is strictly tighter (what [`Interval`] keeps of them: the
/// first unless the second is); `None` for any other pair.
fn tighter(first: &Comparison, second: &Comparison) -> Option<bool> {
    let ((lower, a, _), (second_lower, b, _)) = (one_way(first)?, one_way(second)?);
    (lower == second_lower).then(|| if lower { b > a } else { b < a })
}

/// `x` when the linear form is the variable `x` itself, which an equality
/// pins.
pub fn variable(lhs: &Polynomial) -> Option<Name> {
    let [(monomial, coefficient)] = &lhs.monomials[..] else {
        return None;
    };
    match (&monomial[..], coefficient.is_one()) {
        ([atom], true) => match atom.term().kind() {
            TermKind::Var(x, _) => Some(x.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// A linear form as a hashable key: its monomials' atom ids and coefficients.
type Key = Vec<(Vec<u64>, BigInt)>;

fn key(lhs: &Polynomial) -> Key {
    lhs.monomials
        .iter()
        .map(|(m, c)| (m.iter().map(|atom| atom.term().id()).collect(), c.clone()))
        .collect()
}

/// The normal form of a term: arithmetic by [`LinearForm`], and every
/// conjunction reachable through `&&` and `||` with its bounds merged.
pub struct NormalForm {
    pub(super) linear: LinearForm,
    memo: Generations<Term>,
    /// The conjunctions known to be plain ([`super::append`]) with what
    /// their conjuncts are.
    pub(super) plain: Generations<Tags>,
    /// The term of each compared linear form, by the comparison's term
    /// (built once per comparison, for its structure hash).
    pub(super) forms: Generations<Term>,
}

impl NormalForm {
    pub fn new() -> NormalForm {
        NormalForm {
            linear: LinearForm::new(),
            memo: Generations::default(),
            plain: Generations::default(),
            forms: Generations::default(),
        }
    }

    /// Between two terms: retires the full generations of the memo tables.
    pub fn age(&mut self) {
        self.linear.age();
        self.memo.age();
        self.plain.age();
        self.forms.age();
    }

    /// Whether the normal form alone settles `term` (no rule improves on it).
    pub fn settled(&mut self, term: &Term) -> bool {
        self.linear.settled(term)
    }

    pub fn normalise(&mut self, term: &Term) -> Term {
        let operator = match term.kind() {
            TermKind::Binary(op @ (BinOp::And | BinOp::Or), ..) => *op,
            // Memoised node by node in the linear form.
            _ => return self.linear.normalise(term),
        };
        if let Some(done) = self.memo.get(&term.id()) {
            return done.clone();
        }
        let operands = operands(term, operator);
        let normal = match operator {
            BinOp::And => self.conjunction(&operands),
            _ => self.disjunction(&operands),
        };
        self.memo.insert(term.id(), normal.clone());
        normal
    }

    /// `left && right` for two comparisons on one linear form (a loop
    /// counter's guards, `n > 2 && n <= 3`): what [`NormalForm::normalise`]
    /// makes of them, their interval, without the general merge.
    pub(super) fn merged(&mut self, left: &Term, right: &Term) -> Option<Term> {
        if connective(left) || connective(right) {
            // No comparison: spare the walk over a whole path condition.
            return None;
        }
        self.linear.memoise(left);
        self.linear.memoise(right);
        let (first, first_written) = self.linear.known(left)?;
        let (second, second_written) = self.linear.known(right)?;
        if first.lhs != second.lhs {
            return None;
        }
        if let Some(tighter) = tighter(first, second) {
            // The interval of two bounds one way is the tighter one, as written.
            return Some(
                if tighter {
                    second_written
                } else {
                    first_written
                }
                .clone(),
            );
        }
        let mut interval = Interval::new(first.lhs.clone());
        interval.add(first, first_written);
        interval.add(second, second_written);
        Some(
            interval
                .conjuncts()
                .map_or_else(|| Term::bool(false), Term::conjunction),
        )
    }

    /// The disjuncts normalised, repeats dropped, `true` when one is
    /// beside its complement (`x != a[3] || x = a[3]`).
    fn disjunction(&mut self, disjuncts: &[Term]) -> Term {
        let mut seen = IdSet::default();
        let mut kept = Vec::new();
        for disjunct in disjuncts {
            let normal = self.normalise(disjunct);
            for part in operands(&normal, BinOp::Or) {
                if part.is_true() || seen.contains(&self.complement(&part).id()) {
                    return Term::bool(true);
                }
                if !part.is_false() && seen.insert(part.id()) {
                    kept.push(part);
                }
            }
        }
        kept.into_iter()
            .reduce(Term::or)
            .unwrap_or_else(|| Term::bool(false))
    }

    /// `¬t` in normal form: a comparison turned round, otherwise `!t` (or
    /// `t` for `!t`).
    fn complement(&mut self, term: &Term) -> Term {
        match self.linear.compared(term) {
            Some((comparison, _)) => comparison.negated().term(),
            None => complement(term),
        }
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
            if let Some((comparison, written)) = self.linear.compared(conjunct) {
                let index = *by_form.entry(key(&comparison.lhs)).or_insert_with(|| {
                    intervals.push(Interval::new(comparison.lhs.clone()));
                    slots.push(Slot::Bounds(intervals.len() - 1));
                    intervals.len() - 1
                });
                intervals[index].add(comparison, written);
                continue;
            }
            let normal = self.normalise(conjunct);
            for part in operands(&normal, BinOp::And) {
                if part.is_false() || seen.contains(&self.complement(&part).id()) {
                    return Term::bool(false);
                }
                if !part.is_true() && seen.insert(part.id()) {
                    slots.push(Slot::Term(part));
                }
            }
        }
        let pinned: Vec<(Name, BigInt)> = intervals
            .iter()
            .filter_map(Interval::pinned_variable)
            .collect();
        let mut merged: Vec<Option<Vec<Term>>> =
            intervals.into_iter().map(Interval::conjuncts).collect();
        let mut result = Vec::new();
        for slot in slots {
            match slot {
                Slot::Term(term) if !pinned.is_empty() && !has_fields(&term) => {
                    let known = substitute(&term, |x| {
                        pinned
                            .iter()
                            .find(|(y, _)| y == x)
                            .map(|(_, k)| Term::int(k.clone()))
                    });
                    match self.normalise(&known) {
                        known if known.is_false() => return Term::bool(false),
                        known => result.push(known),
                    }
                }
                Slot::Term(term) => result.push(term),
                Slot::Bounds(index) => match merged[index].take() {
                    Some(terms) => result.extend(terms),
                    None => return Term::bool(false),
                },
            }
        }
        // Absorption: `a && (a || b)` is `a`.
        let present: IdSet = result.iter().map(Term::id).collect();
        let absorbed = |t: &Term| {
            matches!(t.kind(), TermKind::Binary(BinOp::Or, ..))
                && operands(t, BinOp::Or)
                    .iter()
                    .any(|d| present.contains(&d.id()))
        };
        Term::conjunction(result.iter().filter(|t| !absorbed(t)).cloned())
    }
}

/// Whether `term` is a conjunction or a disjunction (not a comparison).
pub(super) fn connective(term: &Term) -> bool {
    matches!(term.kind(), TermKind::Binary(BinOp::And | BinOp::Or, ..))
}

/// Whether `term` reads a field (and may be undefined, so must keep its place).
fn has_fields(term: &Term) -> bool {
    term.nodes()
        .iter()
        .any(|node| matches!(node.kind(), TermKind::Field(..)))
}

/// The operands of a chain of `op` (`a && (b && c)` and `(a && b) && c`
/// alike), left to right, without recursion.
pub(super) fn operands(term: &Term, op: BinOp) -> Vec<Term> {
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
