//! Models of a context mended from one at hand, to spare entailment
//! questions without the solver.
//!
//! At a leaf of a heap program the conjuncts left to rewrite are
//! disjunctions of aliasing, `p3 = p5 || p3 = p4`, under a context of
//! `nil` tests and other aliasing (`p3 != nil && p1 != p3 && …`). The
//! path's model satisfies them all; each question about them is a case
//! split of the congruence closure with a model built (about 130 K
//! instructions on `pointers(5)`). One change to the path's model often
//! answers it instead: `p3` set to `p4`'s object shows that the context
//! does not entail `p3 != p4`; `p3` set to a copy of its object, equal to
//! no other reference and with the same fields, shows that it does not
//! entail the disjunction; at a node, `v` or the field `l.next.val` set
//! to one value shows that `v > l.val` does not entail `!(v <=
//! l.next.val)`. [`super::InContext`] uses such a model only
//! once the evaluator confirms it satisfies the context and settles the
//! question; mended from a model of the context, only the conjuncts that
//! read the changed variable are evaluated again ([`still_satisfies`]).

use std::collections::BTreeSet;
use symex_semantics::eval::{eval, eval_bool, Valuation};
use symex_semantics::term::{BinOp, Name, Term, TermKind};
use symex_semantics::value::Value;

/// Models of a context to mend: the path's, confirmed, then the
/// prefix's, evaluated on the context only when first asked for.
pub struct Bases<'a> {
    models: Vec<&'a Valuation>,
    prefix: &'a [&'a Valuation],
    context: &'a Term,
}

impl<'a> Bases<'a> {
    pub fn new(
        path: Option<&'a Valuation>,
        prefix: &'a [&'a Valuation],
        context: &'a Term,
    ) -> Self {
        Bases {
            models: path.into_iter().collect(),
            prefix,
            context,
        }
    }

    /// The first thing `found` finds in one of the models, the prefix's
    /// evaluated on the context (and kept when they satisfy it) only when
    /// the earlier ones give nothing.
    pub fn find<T>(&mut self, mut found: impl FnMut(&Valuation) -> Option<T>) -> Option<T> {
        if let Some(thing) = self.models.iter().find_map(|model| found(model)) {
            return Some(thing);
        }
        while let Some((&model, rest)) = self.prefix.split_first() {
            self.prefix = rest;
            if eval_bool(self.context, model) == Ok(true) {
                self.models.push(model);
                if let Some(thing) = found(model) {
                    return Some(thing);
                }
            }
        }
        None
    }
}

/// The variables compared in `term` as themselves (`x` in `x = t`,
/// `x != t`): a fresh copy of another's object reads as before.
pub fn compared(term: &Term) -> BTreeSet<Name> {
    let mut compared = BTreeSet::new();
    for node in term.nodes() {
        if let TermKind::Binary(BinOp::Eq | BinOp::Ne, left, right) = node.kind() {
            for side in [left, right] {
                if let TermKind::Var(x, _) = side.kind() {
                    compared.insert(x.clone());
                }
            }
        }
    }
    compared
}

/// Where a mended model differs from the one it was mended from.
pub enum Changed {
    /// The value of a variable.
    Var(Name),
    /// A field, at one object of the heap.
    Field(Name),
}

/// `model` changed at one place so that `atom`, a comparison, holds: a
/// side that is a variable or reads a field (`r1`, `l.next.val`) set to a
/// value the other side's value makes true (`r1 = r5` sets `r1` to `r5`'s
/// object, `v <= l.next.val` sets that field to `v`), left side first,
/// each with where it changed.
pub fn satisfying<'a>(
    model: &'a Valuation,
    atom: &'a Term,
) -> impl Iterator<Item = (Changed, Valuation)> + 'a {
    let sides = match atom.kind() {
        TermKind::Binary(op, left, right) if op.is_comparison() => {
            vec![(*op, left, right, true), (*op, right, left, false)]
        }
        _ => Vec::new(),
    };
    sides
        .into_iter()
        .filter_map(move |(op, side, other, is_left)| {
            let other = eval(other, model).ok()?;
            match side.kind() {
                TermKind::Var(x, _) if op == BinOp::Ne && other.as_reference().is_some() => {
                    Some((Changed::Var(x.clone()), fresh_copy(model, x)?))
                }
                TermKind::Var(x, _) => {
                    let value = making_true(op, other, is_left)?;
                    Some((Changed::Var(x.clone()), model.update(x.clone(), value)))
                }
                TermKind::Field(object, f, _) => {
                    let Value::Object(o) = eval(object, model).ok()? else {
                        return None;
                    };
                    let value = match other {
                        Value::Object(_) if op == BinOp::Ne => Value::Nil,
                        other => making_true(op, other, is_left)?,
                    };
                    let heap = model.heap.set_field(o, f, value)?;
                    Some((Changed::Field(f.clone()), model.with_heap(heap)))
                }
                _ => None,
            }
        })
}

/// A value `v` that makes `v op other` true (`other op v` when `v` is
/// not the left side), for integers and, with `=`, any value.
fn making_true(op: BinOp, other: Value, is_left: bool) -> Option<Value> {
    if op == BinOp::Eq {
        return Some(other);
    }
    let Value::Int(w) = other else {
        return None;
    };
    let above = |w: num_bigint::BigInt| Value::Int(w + 1);
    let below = |w: num_bigint::BigInt| Value::Int(w - 1);
    Some(match (op, is_left) {
        (BinOp::Le | BinOp::Ge, _) => Value::Int(w),
        (BinOp::Ne, _) | (BinOp::Gt, true) | (BinOp::Lt, false) => above(w),
        (BinOp::Lt, true) | (BinOp::Gt, false) => below(w),
        _ => return None,
    })
}

/// `model` with the variable `x` set to a new object, a copy of the one
/// it refers to: every field reads as before, but `x` equals no other
/// reference. `None` when `x` is no object.
pub fn fresh_copy(model: &Valuation, x: &str) -> Option<Valuation> {
    let Some(Value::Object(o)) = model.get(x) else {
        return None;
    };
    let object = model.heap.get(*o)?.clone();
    let copy = model.heap.unused();
    let mended = model.update(x.into(), Value::Object(copy));
    Some(mended.with_heap(model.heap.insert(copy, object)))
}

/// Whether `mended`, a model of `context` changed only where `changed`
/// says, still satisfies it: a conjunct that does not read there has its
/// old value.
pub fn still_satisfies(context: &[Term], changed: &Changed, mended: &Valuation) -> bool {
    context
        .iter()
        .filter(|conjunct| reads(conjunct, changed))
        .all(|conjunct| eval_bool(conjunct, mended) == Ok(true))
}

/// Whether `term` reads where `changed` says.
fn reads(term: &Term, changed: &Changed) -> bool {
    let here = match (term.kind(), changed) {
        (TermKind::Var(y, _), Changed::Var(x)) => y == x,
        (TermKind::Field(_, g, _) | TermKind::FieldArray(g, _), Changed::Field(f)) => g == f,
        _ => false,
    };
    here || term
        .children()
        .into_iter()
        .any(|child| reads(child, changed))
}
