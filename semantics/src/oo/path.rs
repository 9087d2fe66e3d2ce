//! The path condition of a symbolic trace by Definition 4.2, literally:
//! backwards through ρ with the substitutions of §4 — `e[x := e']`,
//! `e[h.f := e']` with its aliasing conditional, and `e[x := new C]` after
//! pushing conditionals that take `x` as an argument outward.
//!
//! Substituting through the whole condition at every action makes this
//! quadratic in the length of ρ; it is the reference that the incremental
//! computation of [`super::wp`], which the explorer uses, is checked
//! against (and what Lemma 4.4 and Theorem 4.5 are stated about).

use super::action::{Action, Location};
use crate::delta::Checks;
use crate::subst::substitute;
use crate::term::{BinOp, IdMap, Name, Sort, Term, TermKind};

/// `path(ρ)` (Definition 4.2):
/// `path(ε) = true`, `path(b · ρ) = path(ρ) ∧ b`,
/// `path(h := e · ρ) = path(ρ)[h := e] ∧ δ(h, e)`,
/// `path(x := new C · ρ) = path(ρ)[x := new C]`.
pub fn path(rho: &[Action], checks: Checks) -> Term {
    rho.iter().rev().fold(Term::bool(true), |phi, action| match action {
        Action::Test(b) => Term::and(phi, b.clone()),
        Action::Assign(h, e) => Term::and(assign(&phi, h, e), action.definedness(checks)),
        Action::New(x, _) => new_object(&phi, x),
    })
}

/// `e'[h := e]` for any heap variable `h`.
pub fn assign(e2: &Term, h: &Location, e: &Term) -> Term {
    match h {
        Location::Var(x, _) => assign_variable(e2, x, e),
        Location::Field(object, f, _) => assign_field(e2, object, f, e),
        // §2.1: a[i] := v is a := (a[i] := v).
        Location::Element(a, sort, index) => {
            assign_variable(e2, a, &Term::store(Term::var(a, sort.clone()), index.clone(), e.clone()))
        }
    }
}

/// `e'[x := e]`: every occurrence of the variable `x` replaced by `e`.
pub fn assign_variable(e2: &Term, x: &Name, e: &Term) -> Term {
    substitute(e2, |y| (y == x).then(|| e.clone()))
}

/// `e'[h.f := e]`:
/// `nil[h.f := e] = nil`, `x[h.f := e] = x`,
/// `(h'.f')[h.f := e] = h'[h.f := e].f'` for `f' ≠ f`,
/// `(h'.f)[h.f := e] = if h'[h.f := e] = h then e else h'[h.f := e].f fi`,
/// `op(e₁, …, eₙ)[h.f := e] = op(e₁[h.f := e], …, eₙ[h.f := e])`.
pub fn assign_field(e2: &Term, h: &Term, f: &Name, e: &Term) -> Term {
    let mut memo: IdMap<Term> = IdMap::default();
    for node in e2.nodes() {
        let children: Vec<Term> = node.children().into_iter().map(|c| memo[&c.id()].clone()).collect();
        let image = match (node.kind(), children.as_slice()) {
            (TermKind::Field(_, g, sort), [object]) if g == f => Term::ite(
                Term::binary(BinOp::Eq, object.clone(), h.clone()),
                e.clone(),
                Term::field(object.clone(), f, sort.clone()),
            ),
            _ => node.with_children(&children),
        };
        memo.insert(node.id(), image);
    }
    memo.remove(&e2.id()).unwrap_or_else(|| e2.clone())
}

/// `e[x := new C]`, for `e` other than `x` itself:
/// `nil[x := new C] = nil`, `y[x := new C] = y`, `(x.f)[x := new C] = nil`
/// (the default value of `f`: `nil`, `0` or `false`, SPEC §1.5),
/// `(e.f)[x := new C] = e[x := new C].f`, `(x = e)[x := new C] = false`,
/// `(e = x)[x := new C] = false`, `(x = x)[x := new C] = true`, and `op`
/// homomorphically. Conditionals with `x` as an argument are first pushed
/// outward: `(if b then e₁ else e₂ fi).f` is `if b then e₁.f else e₂.f fi`
/// and `(if b then e₁ else e₂ fi) = e` is `if b then e₁ = e else e₂ = e fi`.
pub fn new_object(e: &Term, x: &Name) -> Term {
    let mut memo: IdMap<Term> = IdMap::default();
    for node in e.nodes() {
        let children: Vec<Term> = node.children().into_iter().map(|c| memo[&c.id()].clone()).collect();
        let image = match (node.kind(), children.as_slice()) {
            (TermKind::Field(_, f, sort), [object]) => dereference(object, x, f, sort),
            (TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, _), [left, right]) if matches!(a.sort(), Sort::Object(_)) => {
                compare(left, right, x, *op == BinOp::Eq)
            }
            _ => node.with_children(&children),
        };
        memo.insert(node.id(), image);
    }
    memo.remove(&e.id()).unwrap_or_else(|| e.clone())
}

/// Whether the object expression `e` is `x` or a conditional with `x` among its values.
fn may_be(e: &Term, x: &Name) -> bool {
    match e.kind() {
        TermKind::Var(y, _) => y == x,
        TermKind::Ite(_, a, b) => may_be(a, x) || may_be(b, x),
        _ => false,
    }
}

/// `(e.f)[x := new C]` for `e` already substituted (it may still be `x`,
/// or a conditional with `x` among its values).
fn dereference(e: &Term, x: &Name, f: &Name, sort: &Sort) -> Term {
    match e.kind() {
        TermKind::Var(y, _) if y == x => match sort {
            Sort::Int => Term::int(0),
            Sort::Bool => Term::bool(false),
            Sort::Object(class) => Term::nil(class),
            Sort::Array(_) => Term::field(e.clone(), f, sort.clone()),
        },
        TermKind::Ite(c, a, b) if may_be(e, x) => Term::ite(c.clone(), dereference(a, x, f, sort), dereference(b, x, f, sort)),
        _ => Term::field(e.clone(), f, sort.clone()),
    }
}

/// `(a = b)[x := new C]` (or `!=` when not `positive`) for operands already substituted.
fn compare(a: &Term, b: &Term, x: &Name, positive: bool) -> Term {
    if let TermKind::Ite(c, then, otherwise) = a.kind() {
        if may_be(a, x) {
            return Term::ite(c.clone(), compare(then, b, x, positive), compare(otherwise, b, x, positive));
        }
    }
    if let TermKind::Ite(c, then, otherwise) = b.kind() {
        if may_be(b, x) {
            return Term::ite(c.clone(), compare(a, then, x, positive), compare(a, otherwise, x, positive));
        }
    }
    let is_x = |t: &Term| matches!(t.kind(), TermKind::Var(y, _) if y == x);
    match (is_x(a), is_x(b)) {
        (true, true) => Term::bool(positive),
        (true, false) | (false, true) => Term::bool(!positive),
        (false, false) => Term::binary(if positive { BinOp::Eq } else { BinOp::Ne }, a.clone(), b.clone()),
    }
}
