//! The path condition of a symbolic trace by Definition 4.2 (with `δ(b)`
//! for a test, which the paper leaves out: see [`Action::definedness`]):
//! backwards through ρ with the substitutions of §4 — `e[x := e']`,
//! `e[h.f := e']` with its aliasing conditional, and `e[x := new C]` after
//! pushing conditionals that take `x` as an argument outward.
//!
//! Substituting through the whole condition at every action makes this at
//! least quadratic in the length of ρ (cubic where, as on `symex bench
//! --family path`, the aliasing conditionals grow with ρ); it is the
//! reference that the incremental
//! computation of [`super::wp`], which the explorer uses, is checked
//! against (and what Lemma 4.4 and Theorem 4.5 are stated about).
//!
//! The clauses are the provided methods of [`Calculus`]: [`Reference`] takes
//! them all, and the proofs' deliberately broken calculi override one
//! clause each, so that every property about the calculus is seen to fail
//! when a clause is wrong.

use super::action::{Action, Location};
use crate::delta::Checks;
use crate::subst::substitute;
use crate::term::{BinOp, Name, Sort, Term, TermKind};

/// The weakest-precondition calculus of §4, clause by clause.
pub trait Calculus {
    /// `δ(h, e) = δ(h) ∧ δ(e)` of an assignment (Definition 4.2), `δ(b)`
    /// of a test (which the paper leaves out: see [`Action::definedness`]),
    /// `true` for a creation.
    fn definedness(&self, action: &Action, checks: Checks) -> Term {
        action.definedness(checks)
    }

    /// `(h'.f)[h.f := e] = if h'[h.f := e] = h then e else h'[h.f := e].f fi`,
    /// given `object = h'[h.f := e]`: the aliasing case.
    fn same_field(&self, object: &Term, h: &Term, f: &Name, sort: &Sort, e: &Term) -> Term {
        Term::ite(
            Term::binary(BinOp::Eq, object.clone(), h.clone()),
            e.clone(),
            Term::field(object.clone(), f, sort.clone()),
        )
    }

    /// `(x.f)[x := new C]`: the default value of `f` (the paper's `nil`;
    /// `0` or `false` for SPEC §1.5's other field types). An array field
    /// has no default and stays `x.f`.
    fn created_field(&self, x: &Term, f: &Name, sort: &Sort) -> Term {
        match sort {
            Sort::Int => Term::int(0),
            Sort::Bool => Term::bool(false),
            Sort::Object(class) => Term::nil(class),
            Sort::Array(_) | Sort::Field(..) => Term::field(x.clone(), f, sort.clone()),
        }
    }

    /// `(a = b)[x := new C]` (`!=` when not `positive`) for operands already
    /// substituted, at least one of them `x`: `(x = x)[x := new C] = true`,
    /// `(x = e)[x := new C] = (e = x)[x := new C] = false`.
    fn created_comparison(&self, a: &Term, b: &Term, positive: bool) -> Term {
        Term::bool((a == b) == positive)
    }

    /// `path(ρ)` (Definition 4.2, with `δ(b)` for a test):
    /// `path(ε) = true`, `path(b · ρ) = path(ρ) ∧ δ(b) ∧ b`,
    /// `path(h := e · ρ) = path(ρ)[h := e] ∧ δ(h, e)`,
    /// `path(x := new C · ρ) = path(ρ)[x := new C]`.
    fn path(&self, rho: &[Action], checks: Checks) -> Term {
        rho.iter()
            .rev()
            .fold(Term::bool(true), |phi, action| match action {
                Action::Test(b) => {
                    Term::and(phi, Term::and(self.definedness(action, checks), b.clone()))
                }
                Action::Assign(h, e) => {
                    Term::and(self.assign(&phi, h, e), self.definedness(action, checks))
                }
                Action::New(x, _) => self.new_object(&phi, x),
            })
    }

    /// `e'[h := e]` for any heap variable `h`.
    fn assign(&self, e2: &Term, h: &Location, e: &Term) -> Term {
        match h {
            Location::Var(x, _) => assign_variable(e2, x, e),
            Location::Field(object, f, _) => self.assign_field(e2, object, f, e),
            // §2.1: a[i] := v is a := (a[i] := v).
            Location::Element(a, sort, index) => assign_variable(
                e2,
                a,
                &Term::store(Term::var(a, sort.clone()), index.clone(), e.clone()),
            ),
        }
    }

    /// `e'[h.f := e]`:
    /// `nil[h.f := e] = nil`, `x[h.f := e] = x`,
    /// `(h'.f')[h.f := e] = h'[h.f := e].f'` for `f' ≠ f`,
    /// `(h'.f)[h.f := e] = if h'[h.f := e] = h then e else h'[h.f := e].f fi`,
    /// `op(e₁, …, eₙ)[h.f := e] = op(e₁[h.f := e], …, eₙ[h.f := e])`.
    fn assign_field(&self, e2: &Term, h: &Term, f: &Name, e: &Term) -> Term {
        e2.rebuilt(|node, children| match (node.kind(), children) {
            (TermKind::Field(_, g, sort), [object]) if g == f => {
                self.same_field(object, h, f, sort, e)
            }
            _ => node.with_children(children),
        })
    }

    /// `e[x := new C]`, for `e` other than `x` itself:
    /// `nil[x := new C] = nil`, `y[x := new C] = y`, `(x.f)[x := new C] = nil`,
    /// `(e.f)[x := new C] = e[x := new C].f`, `(x = e)[x := new C] = false`,
    /// `(e = x)[x := new C] = false`, `(x = x)[x := new C] = true`, and `op`
    /// homomorphically. Conditionals with `x` as an argument are first pushed
    /// outward: `(if b then e₁ else e₂ fi).f` is `if b then e₁.f else e₂.f fi`
    /// and `(if b then e₁ else e₂ fi) = e` is `if b then e₁ = e else e₂ = e fi`.
    fn new_object(&self, e: &Term, x: &Name) -> Term {
        e.rebuilt(|node, children| match (node.kind(), children) {
            (TermKind::Field(_, f, sort), [object]) => dereference(self, object, x, f, sort),
            (TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, _), [left, right])
                if matches!(a.sort(), Sort::Object(_)) =>
            {
                compare(self, left, right, x, *op == BinOp::Eq)
            }
            _ => node.with_children(children),
        })
    }
}

/// The calculus of §4: the paper's clauses, and `δ(b)` for a test.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Calculus for Reference {}

/// `path(ρ)` (Definition 4.2) by the paper's calculus.
pub fn path(rho: &[Action], checks: Checks) -> Term {
    Reference.path(rho, checks)
}

/// `path(ρ)` (Definition 4.2) by `calculus`.
pub fn path_with(rho: &[Action], checks: Checks, calculus: &impl Calculus) -> Term {
    calculus.path(rho, checks)
}

/// `e'[h := e]` for any heap variable `h`, by the paper's calculus.
pub fn assign(e2: &Term, h: &Location, e: &Term) -> Term {
    Reference.assign(e2, h, e)
}

/// `e'[x := e]`: every occurrence of the variable `x` replaced by `e`.
pub fn assign_variable(e2: &Term, x: &Name, e: &Term) -> Term {
    substitute(e2, |y| (y == x).then(|| e.clone()))
}

/// `e'[h.f := e]` by the paper's calculus.
pub fn assign_field(e2: &Term, h: &Term, f: &Name, e: &Term) -> Term {
    Reference.assign_field(e2, h, f, e)
}

/// `e[x := new C]` by the paper's calculus.
pub fn new_object(e: &Term, x: &Name) -> Term {
    Reference.new_object(e, x)
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
fn dereference<C: Calculus + ?Sized>(
    calculus: &C,
    e: &Term,
    x: &Name,
    f: &Name,
    sort: &Sort,
) -> Term {
    match e.kind() {
        TermKind::Var(y, _) if y == x => calculus.created_field(e, f, sort),
        TermKind::Ite(c, a, b) if may_be(e, x) => Term::ite(
            c.clone(),
            dereference(calculus, a, x, f, sort),
            dereference(calculus, b, x, f, sort),
        ),
        _ => Term::field(e.clone(), f, sort.clone()),
    }
}

/// `(a = b)[x := new C]` (or `!=` when not `positive`) for operands already substituted.
fn compare<C: Calculus + ?Sized>(
    calculus: &C,
    a: &Term,
    b: &Term,
    x: &Name,
    positive: bool,
) -> Term {
    if let TermKind::Ite(c, then, otherwise) = a.kind() {
        if may_be(a, x) {
            return Term::ite(
                c.clone(),
                compare(calculus, then, b, x, positive),
                compare(calculus, otherwise, b, x, positive),
            );
        }
    }
    if let TermKind::Ite(c, then, otherwise) = b.kind() {
        if may_be(b, x) {
            return Term::ite(
                c.clone(),
                compare(calculus, a, then, x, positive),
                compare(calculus, a, otherwise, x, positive),
            );
        }
    }
    let is_x = |t: &Term| matches!(t.kind(), TermKind::Var(y, _) if y == x);
    if is_x(a) || is_x(b) {
        calculus.created_comparison(a, b, positive)
    } else {
        Term::binary(
            if positive { BinOp::Eq } else { BinOp::Ne },
            a.clone(),
            b.clone(),
        )
    }
}
