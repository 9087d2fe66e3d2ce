//! What the guards of a path say about each input, kept incrementally along
//! the path (persistent maps: a child shares its parent's): the interval an
//! integer input is confined to by comparisons with literals (`3 < n`,
//! `x <= 0`), and every other guard, indexed by the inputs it mentions.
//!
//! Two uses, each making a step cost what its guard touches instead of the
//! length of the path:
//! - **confirmation**: a model that differs from a confirmed one only at
//!   some inputs satisfies the path iff those inputs lie in their intervals
//!   and the other guards mentioning them hold — the guards that mention
//!   none of them keep the values they were confirmed with;
//! - **bounds**: a guard `x op c` on an input that only such guards
//!   constrain is decided exactly by intersecting intervals, with no query
//!   (the guards on other inputs are satisfied by the confirmed model).

use super::ranges::Range;
use crate::mutants::{self, Mutant};
use crate::simplify;
use num_bigint::BigInt;
use std::collections::BTreeSet;
use std::rc::Rc;
use symex_semantics::eval::{eval_bool, Valuation};
use symex_semantics::small_map::SmallMap;
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind};
use symex_semantics::value::Value;

/// Inclusive bounds; `None` is unbounded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Interval {
    low: Option<BigInt>,
    high: Option<BigInt>,
}

impl Interval {
    fn meet(&self, other: &Interval) -> Interval {
        let low = match (&self.low, &other.low) {
            (Some(a), Some(b)) if mutants::active(Mutant::LooserIntervalMeet) => {
                Some(a.min(b).clone())
            }
            (Some(a), Some(b)) => Some(a.max(b).clone()),
            (a, b) => a.clone().or_else(|| b.clone()),
        };
        let high = match (&self.high, &other.high) {
            (Some(a), Some(b)) => Some(a.min(b).clone()),
            (a, b) => a.clone().or_else(|| b.clone()),
        };
        Interval { low, high }
    }

    fn is_empty(&self) -> bool {
        matches!((&self.low, &self.high), (Some(low), Some(high)) if low > high)
    }

    fn contains(&self, n: &BigInt) -> bool {
        self.low.as_ref().is_none_or(|low| low <= n)
            && self.high.as_ref().is_none_or(|high| n <= high)
    }

    /// Whether every member of `self` is one of `outer`.
    fn within(&self, outer: &Interval) -> bool {
        let low = match (&outer.low, &self.low) {
            (None, _) => true,
            (Some(a), Some(b)) => a <= b,
            (Some(_), None) => false,
        };
        let high = match (&outer.high, &self.high) {
            (None, _) => true,
            (Some(a), Some(b)) => b <= a,
            (Some(_), None) => false,
        };
        low && high
    }

    /// The member nearest to `n` (the interval is not empty).
    fn nearest(&self, n: &BigInt) -> BigInt {
        match (&self.low, &self.high) {
            (Some(low), _) if n < low => low.clone(),
            (_, Some(high)) if n > high => high.clone(),
            _ => n.clone(),
        }
    }
}

/// A guard `x op c` (or `c op x`) on an integer input `x`: the input and the interval it allows.
fn bound(guard: &Term) -> Option<(&Name, Interval)> {
    let (side, op, c) = against_literal(guard)?;
    let TermKind::Var(x, Sort::Int) = side.kind() else {
        return None;
    };
    Some((x, allowed(op, c)?))
}

/// Whether `stronger` implies `weaker`, both bounds (plain or shifted) on
/// the same input: a loop's guard `3 < n` implies the `2 < n` before it.
pub(crate) fn implies(stronger: &Term, weaker: &Term) -> bool {
    let confines = |guard| bound(guard).or_else(|| shifted(guard));
    match (confines(stronger), confines(weaker)) {
        (Some((x, inner)), Some((y, outer))) => x == y && inner.within(&outer),
        _ => false,
    }
}

/// `guard` as `side op c` with a literal `c` (`c op side` mirrored).
fn against_literal(guard: &Term) -> Option<(&Term, BinOp, &BigInt)> {
    let TermKind::Binary(op, left, right) = guard.kind() else {
        return None;
    };
    match (left.kind(), right.kind()) {
        (_, TermKind::Int(c)) => Some((left, *op, c)),
        (TermKind::Int(c), _) => Some((right, mirrored(*op)?, c)),
        _ => None,
    }
}

/// What `x op c` allows `x`.
fn allowed(op: BinOp, c: &BigInt) -> Option<Interval> {
    let one = BigInt::from(1);
    Some(match op {
        BinOp::Lt => Interval {
            low: None,
            high: Some(c - &one),
        },
        BinOp::Le => Interval {
            low: None,
            high: Some(c.clone()),
        },
        BinOp::Gt => Interval {
            low: Some(if mutants::active(Mutant::IntervalOfGreaterOffByOne) {
                c.clone()
            } else {
                c + &one
            }),
            high: None,
        },
        BinOp::Ge => Interval {
            low: Some(c.clone()),
            high: None,
        },
        BinOp::Eq => Interval {
            low: Some(c.clone()),
            high: Some(c.clone()),
        },
        _ => return None,
    })
}

/// A guard `x + d op c` with literals `d` and `c` (`n - 1 - 1 > 0`, the
/// guards of a countdown): the input and the interval it allows, so that
/// confirming a model does not evaluate the ever longer sums again.
fn shifted(guard: &Term) -> Option<(&Name, Interval)> {
    let (side, op, c) = against_literal(guard)?;
    let (x, d) = offset(side)?;
    Some((x, allowed(op, &(c - d))?))
}

/// `interval` met with what `intervals` already allow `x`.
fn tightened(intervals: &SmallMap<Name, Interval>, x: &Name, interval: Interval) -> Interval {
    match intervals.get(x) {
        Some(old) => old.meet(&interval),
        None => interval,
    }
}

/// `x` and `d` when `term` is `x + d` written as sums and differences of
/// the integer input `x` and literals.
fn offset(term: &Term) -> Option<(&Name, BigInt)> {
    let mut d = BigInt::from(0);
    let mut term = term;
    loop {
        term = match (term.kind(), simplify::offset(term)) {
            (TermKind::Var(x, Sort::Int), _) => return Some((x, d)),
            (_, Some((inner, k))) => {
                d += k;
                inner
            }
            (TermKind::Binary(BinOp::Add, a, b), None) => match a.kind() {
                TermKind::Int(c) => {
                    d += c;
                    b
                }
                _ => return None,
            },
            _ => return None,
        };
    }
}

/// `op` with its operands exchanged (`c < x` is `x > c`).
fn mirrored(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Eq => op,
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        _ => return None,
    })
}

/// A persistent list of guards.
struct Guards {
    guard: Term,
    next: Option<Rc<Guards>>,
}

impl Drop for Guards {
    /// Iteratively, like every chain along a path.
    fn drop(&mut self) {
        let mut next = self.next.take();
        while let Some(node) = next {
            next = match Rc::try_unwrap(node) {
                Ok(mut node) => node.next.take(),
                Err(_) => None,
            };
        }
    }
}

/// The guards of one path, per input: the interval of the bounds `x op c`,
/// that of the shifted bounds `x + d op c` (kept apart: only the former
/// decide a guard without a query), and the other guards. Programs have few inputs, so the
/// maps are small and copied on write (a child shares its parent's until it
/// adds a guard), which costs far less memory per node than a persistent tree.
#[derive(Clone, Default)]
pub(crate) struct Summary {
    intervals: SmallMap<Name, Interval>,
    shifted: SmallMap<Name, Interval>,
    others: SmallMap<Name, Rc<Guards>>,
}

impl Summary {
    /// The summary after conjoining `guard`, whose variables are `vars`.
    pub(crate) fn with(&self, guard: &Term, vars: impl Iterator<Item = Name>) -> Summary {
        let mut next = self.clone();
        if let Some((x, interval)) = bound(guard) {
            next.intervals
                .insert(x.clone(), tightened(&self.intervals, x, interval));
            return next;
        }
        if let Some((x, interval)) = shifted(guard) {
            next.shifted
                .insert(x.clone(), tightened(&self.shifted, x, interval));
            return next;
        }
        for x in vars {
            let list = Guards {
                guard: guard.clone(),
                next: self.others.get(&x).cloned(),
            };
            next.others.insert(x, Rc::new(list));
        }
        next
    }

    /// Whether `model`, equal to a model of the path except at `changed`,
    /// satisfies the whole path.
    pub(crate) fn holds(&self, model: &Valuation, changed: &BTreeSet<Name>) -> bool {
        changed.iter().all(|x| {
            let within = |intervals: &SmallMap<Name, Interval>| match (
                intervals.get(x),
                model.get(x).and_then(Value::as_int),
            ) {
                (Some(interval), Some(n)) => interval.contains(n),
                (Some(_), None) => false,
                (None, _) => true,
            };
            within(&self.intervals)
                && within(&self.shifted)
                && std::iter::successors(self.others.get(x).map(Rc::as_ref), |list| {
                    list.next.as_deref()
                })
                .all(|list| eval_bool(&list.guard, model) == Ok(true))
        })
    }

    /// The range the path's bounds on `x` (plain and shifted) confine it to.
    pub(crate) fn range(&self, x: &Name) -> Range {
        let unbounded = Interval::default();
        let plain = self.intervals.get(x).unwrap_or(&unbounded);
        let met = plain.meet(self.shifted.get(x).unwrap_or(&unbounded));
        Range {
            low: met.low,
            high: met.high,
        }
    }

    /// For a guard `x op c` on an input no other kind of guard on the path
    /// mentions: `(x, None)` when the path leaves no room for it, or
    /// `(x, Some(v))` with the value nearest to `x`'s `current` one that
    /// satisfies the path and the guard; `None` when the guard is not of that kind.
    pub(crate) fn decide(
        &self,
        guard: &Term,
        current: impl Fn(&Name) -> Option<BigInt>,
    ) -> Option<(Name, Option<BigInt>)> {
        let (x, interval) = bound(guard)?;
        if self.others.contains_key(x) || self.shifted.contains_key(x) {
            return None;
        }
        let met = tightened(&self.intervals, x, interval);
        let value = (!met.is_empty()).then(|| met.nearest(&current(x).unwrap_or_default()));
        Some((x.clone(), value))
    }
}

/// The inputs at which `new` differs from `old`; `None` when their heaps differ.
pub(crate) fn changed(old: &Valuation, new: &Valuation) -> Option<BTreeSet<Name>> {
    if old.heap != new.heap {
        return None;
    }
    let mut changed: BTreeSet<Name> = new
        .iter()
        .filter(|(x, v)| old.get(x) != Some(*v))
        .map(|(x, _)| x.clone())
        .collect();
    changed.extend(old.keys().filter(|x| !new.contains_key(x)).cloned());
    Some(changed)
}

#[cfg(test)]
mod tests {
    use super::implies;
    use crate::commands::simplify::parse_expression;

    fn implied(stronger: &str, weaker: &str) -> bool {
        let term = |source: &str| parse_expression(source).expect("parses");
        implies(&term(stronger), &term(weaker))
    }

    #[test]
    fn a_bound_implies_the_looser_bounds_on_its_input() {
        assert!(implied("3 < n", "2 < n"));
        assert!(implied("n = 3", "n <= 3"));
        assert!(implied("n - 3 > 0", "n - 2 > 0"));
        assert!(implied("n - 3 > 0", "n > 1"));
        assert!(!implied("2 < n", "3 < n"));
        assert!(!implied("n <= 3", "n < 3"));
        assert!(!implied("3 < n", "n < 5"));
        assert!(!implied("3 < n", "3 < m"));
        assert!(!implied("3 < n + m", "2 < n + m"));
    }
}
