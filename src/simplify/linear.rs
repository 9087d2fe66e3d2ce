//! Polynomial normal form of integer terms: like terms collected
//! (`n + n + 4` is `2 * n + 4`), atoms in a canonical order (variables
//! first, alphabetically), constants last — the canonical operand order
//! that replaces commutativity and associativity rules. Division and
//! modulo by a literal `d ≠ 0` take out what `d` divides exactly
//! (Euclidean: `(d*q + r) / d = q + r / d` and `(d*q + r) % d = r % d`),
//! so King's `(N + N + 4) / 2` is `N + 2` and `(2*N + 1) / 2` is `N`.
//! Integer comparisons become `L op k` with `L`'s coefficients coprime and
//! its first one positive ([`Comparison`]), printed with the negative
//! monomials moved to the right (`x - a[3] < 0` is `x < a[3]`).

use crate::mutants::{self, Mutant};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use smallvec::SmallVec;
use std::borrow::Cow;
use std::cell::OnceCell;
use std::cmp::Ordering;
use std::rc::Rc;
use symex_semantics::eval::euclidean_div_mod;
use symex_semantics::memo::Generations;
use symex_semantics::term::{BinOp, Sort, Term, TermKind, UnOp};

/// An integer term that is not a sum, product or literal (or an operand of
/// an object equality), ordered for printing: variables, then lengths,
/// fields, array reads, the rest, `nil` last.
#[derive(Clone, Debug)]
pub struct Atom {
    term: Term,
    rank: u8,
    /// The printed term, written when two atoms of one rank are compared
    /// (an operand of an object equality is often a large aliasing
    /// conditional, and most are told apart by rank); shared, as
    /// polynomials are cloned often.
    printed: OnceCell<Rc<str>>,
}

impl Atom {
    fn new(term: Term) -> Atom {
        let rank = match term.kind() {
            TermKind::Var(..) => 0,
            TermKind::Len(_) => 1,
            TermKind::Field(..) => 2,
            TermKind::Select(..) => 3,
            TermKind::Nil(_) => 5,
            _ => 4,
        };
        Atom {
            term,
            rank,
            printed: OnceCell::new(),
        }
    }

    fn printed(&self) -> &str {
        self.printed.get_or_init(|| Rc::from(self.term.to_string()))
    }
}

impl Atom {
    pub fn term(&self) -> &Term {
        &self.term
    }
}

impl PartialEq for Atom {
    fn eq(&self, other: &Atom) -> bool {
        self.term == other.term
    }
}

impl Eq for Atom {}

impl PartialOrd for Atom {
    fn partial_cmp(&self, other: &Atom) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Atom {
    fn cmp(&self, other: &Atom) -> Ordering {
        if self.term == other.term {
            return Ordering::Equal;
        }
        if mutants::active(Mutant::AtomsOrderedById) {
            return (self.rank, self.term.id()).cmp(&(other.rank, other.term.id()));
        }
        self.rank
            .cmp(&other.rank)
            .then_with(|| self.printed().cmp(other.printed()))
            // Two terms printed alike (`nil` of two classes): by structure,
            // so the order does not depend on which was made first; by id
            // only if their hashes collide.
            .then_with(|| {
                let hash = |atom: &Atom| atom.term.structure_hash();
                hash(self).cmp(&hash(other))
            })
            .then_with(|| self.term.id().cmp(&other.term.id()))
    }
}

/// A product of atoms, in canonical order (`x * x * y`).
pub type Monomial = Vec<Atom>;

/// `Σ cᵢ·mᵢ + k` with every `cᵢ ≠ 0`, the monomials sorted and distinct
/// (a vector, not a B-tree map: most polynomials have one or two monomials,
/// and a map's node is ten times their size in the memo of every guard).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Polynomial {
    pub monomials: Vec<(Monomial, BigInt)>,
    pub constant: BigInt,
}

impl Polynomial {
    pub fn constant(k: BigInt) -> Polynomial {
        Polynomial {
            monomials: Vec::new(),
            constant: k,
        }
    }

    fn atom(term: Term) -> Polynomial {
        Polynomial {
            monomials: vec![(vec![Atom::new(term)], BigInt::one())],
            constant: BigInt::zero(),
        }
    }

    pub fn as_constant(&self) -> Option<&BigInt> {
        self.monomials.is_empty().then_some(&self.constant)
    }

    /// `self + other`, or `self - other` when `subtract`.
    fn add(mut self, other: &Polynomial, subtract: bool) -> Polynomial {
        let signed = |c: &BigInt| if subtract { -c } else { c.clone() };
        if self.monomials.is_empty() {
            // A literal and a sum (`3 < n`): the sum's monomials, copied once.
            self.monomials = other
                .monomials
                .iter()
                .map(|(m, c)| (m.clone(), signed(c)))
                .collect();
        } else {
            for (monomial, c) in &other.monomials {
                match self.monomials.binary_search_by(|(m, _)| m.cmp(monomial)) {
                    Ok(i) => {
                        self.monomials[i].1 += signed(c);
                        if self.monomials[i].1.is_zero() {
                            self.monomials.remove(i);
                        }
                    }
                    Err(i) => self.monomials.insert(i, (monomial.clone(), signed(c))),
                }
            }
        }
        if subtract {
            self.constant -= &other.constant;
        } else {
            self.constant += &other.constant;
        }
        self
    }

    fn scale(&self, factor: &BigInt) -> Polynomial {
        if factor.is_zero() {
            return Polynomial::default();
        }
        Polynomial {
            monomials: self
                .monomials
                .iter()
                .map(|(m, c)| (m.clone(), c * factor))
                .collect(),
            constant: &self.constant * factor,
        }
    }

    /// The product when it is again a polynomial of one monomial or a
    /// scaled one (products of sums are kept as atoms: expanding them
    /// lengthens what is printed).
    fn times(&self, other: &Polynomial) -> Option<Polynomial> {
        if let Some(k) = other.as_constant() {
            return Some(self.scale(k));
        }
        if let Some(k) = self.as_constant() {
            return Some(other.scale(k));
        }
        let single = |p: &Polynomial| match (&p.monomials[..], p.constant.is_zero()) {
            ([(m, c)], true) => Some((m.clone(), c.clone())),
            _ => None,
        };
        let ((mut m, c), (n, d)) = (single(self)?, single(other)?);
        m.extend(n);
        m.sort();
        Some(Polynomial {
            monomials: vec![(m, c * d)],
            constant: BigInt::zero(),
        })
    }

    /// `(q, r)` with `self = d·q + r`, `q` collecting every monomial whose
    /// coefficient `d` divides and the constant's Euclidean quotient.
    fn divide(&self, d: &BigInt) -> (Polynomial, Polynomial) {
        let (mut q, mut r) = (Polynomial::default(), Polynomial::default());
        for (m, c) in &self.monomials {
            if (c % d).is_zero() {
                q.monomials.push((m.clone(), c / d));
            } else {
                r.monomials.push((m.clone(), c.clone()));
            }
        }
        (q.constant, r.constant) = euclidean_div_mod(&self.constant, d);
        (q, r)
    }

    /// The gcd of the monomials' coefficients (`0` for a constant).
    fn content(&self) -> BigInt {
        self.monomials
            .iter()
            .fold(BigInt::zero(), |g, (_, c)| g.gcd(c))
    }

    /// The polynomial written out: positive monomials first, constant last.
    pub fn term(&self) -> Term {
        sum(
            self.monomials.iter().map(|(m, c)| (m, c.clone())),
            &self.constant,
        )
    }
}

/// `Σ cᵢ·mᵢ + k` written out: the positive monomials first, then the
/// negative ones subtracted, the constant last.
fn sum<'a>(monomials: impl Iterator<Item = (&'a Monomial, BigInt)>, constant: &BigInt) -> Term {
    let mut negative: SmallVec<[(&Monomial, BigInt); 2]> = SmallVec::new();
    let mut sum: Option<Term> = None;
    for (m, c) in monomials {
        if c.is_positive() {
            let scaled = scaled(m, &c);
            sum = Some(match sum {
                None => scaled,
                Some(s) => Term::binary(BinOp::Add, s, scaled),
            });
        } else {
            negative.push((m, -c));
        }
    }
    for (m, c) in negative {
        let scaled = scaled(m, &c);
        sum = Some(match sum {
            None => Term::unary(UnOp::Neg, scaled),
            Some(s) => Term::binary(BinOp::Sub, s, scaled),
        });
    }
    match sum {
        None => Term::int(constant.clone()),
        Some(s) if constant.is_zero() => s,
        Some(s) if constant.is_negative() => Term::binary(BinOp::Sub, s, Term::int(-constant)),
        Some(s) => Term::binary(BinOp::Add, s, Term::int(constant.clone())),
    }
}

/// `c * m` (`m` alone when `c = 1`).
fn scaled(m: &Monomial, c: &BigInt) -> Term {
    let product = m
        .iter()
        .map(|atom| atom.term.clone())
        .reduce(|p, a| Term::binary(BinOp::Mul, p, a));
    let product = product.unwrap_or_else(|| Term::int(1));
    if c.is_one() {
        product
    } else {
        Term::binary(BinOp::Mul, Term::int(c.clone()), product)
    }
}

/// An integer comparison in normal form: `L op k`, `L` without constant,
/// its coefficients coprime, its first coefficient positive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    pub lhs: Polynomial,
    pub op: BinOp,
    pub k: BigInt,
}

impl Comparison {
    /// `left op right` in normal form, or its truth value when `L` vanishes.
    fn new(op: BinOp, left: Polynomial, right: &Polynomial) -> Result<Comparison, bool> {
        let mut lhs = left.add(right, true);
        let mut k = -std::mem::take(&mut lhs.constant);
        let mut op = op;
        if lhs.monomials.is_empty() {
            return Err(holds(op, &k));
        }
        if lhs.monomials.first().is_some_and(|(_, c)| c.is_negative()) {
            for (_, c) in &mut lhs.monomials {
                *c = -std::mem::take(c);
            }
            k = -k;
            op = flip(op);
        }
        let g = lhs.content();
        if g.is_one() {
            // Coprime already (most comparisons): nothing to divide.
            return Ok(Comparison { lhs, op, k });
        }
        let k = match op {
            BinOp::Eq | BinOp::Ne if !(&k % &g).is_zero() => return Err(op == BinOp::Ne),
            BinOp::Eq | BinOp::Ne => &k / &g,
            // g > 0: floor(k / g) for `<=` and `>`, ceil(k / g) for `<` and `>=`.
            BinOp::Le | BinOp::Gt if mutants::active(Mutant::GcdRoundsUp) => -((-&k).div_floor(&g)),
            BinOp::Le | BinOp::Gt => k.div_floor(&g),
            _ => -((-&k).div_floor(&g)),
        };
        let lhs = Polynomial {
            monomials: lhs
                .monomials
                .into_iter()
                .map(|(m, c)| (m, c / &g))
                .collect(),
            constant: BigInt::zero(),
        };
        Ok(Comparison { lhs, op, k })
    }

    /// `¬(L op k)` as `L op' k`.
    pub fn negated(&self) -> Comparison {
        let op = match self.op {
            BinOp::Eq => BinOp::Ne,
            BinOp::Ne => BinOp::Eq,
            BinOp::Lt => BinOp::Ge,
            BinOp::Le => BinOp::Gt,
            BinOp::Gt => BinOp::Le,
            _ => BinOp::Lt,
        };
        Comparison {
            lhs: self.lhs.clone(),
            op,
            k: self.k.clone(),
        }
    }

    /// `positive op negative + k` ([`written`]).
    pub fn term(&self) -> Term {
        written(&self.lhs, self.op, &self.k)
    }
}

/// `L op k` written `positive op negative + k`, the constant moved to the
/// left when it is negative and the right has monomials (`x - a[3] < -1`
/// is `x + 1 < a[3]`).
pub fn written(lhs: &Polynomial, op: BinOp, k: &BigInt) -> Term {
    let monomials = &lhs.monomials;
    if let [(monomial, c)] = &monomials[..] {
        if let ([atom], true) = (&monomial[..], c.is_one()) {
            // One atom (a loop counter's bound, `n > 3`): nothing to arrange.
            return Term::binary(op, atom.term.clone(), Term::int(k.clone()));
        }
    }
    let positive = monomials
        .iter()
        .filter(|(_, c)| c.is_positive())
        .map(|(m, c)| (m, c.clone()));
    let negative = monomials
        .iter()
        .filter(|(_, c)| c.is_negative())
        .map(|(m, c)| (m, -c));
    let zero = BigInt::zero();
    let moved = k.is_negative() && monomials.iter().any(|(_, c)| c.is_negative());
    let (left, right) = if moved {
        (sum(positive, &-k), sum(negative, &zero))
    } else {
        (sum(positive, &zero), sum(negative, k))
    };
    Term::binary(op, left, right)
}

/// `0 op k` decided.
fn holds(op: BinOp, k: &BigInt) -> bool {
    let zero = &BigInt::zero();
    match op {
        BinOp::Eq => zero == k,
        BinOp::Ne => zero != k,
        BinOp::Lt => zero < k,
        BinOp::Le => zero <= k,
        BinOp::Gt => zero > k,
        _ => zero >= k,
    }
}

/// The operator after multiplying both sides by `-1`.
pub fn flip(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

/// What a node normalises to.
enum Normal {
    Integer(Polynomial),
    /// The comparison and its term, built once (conjunctions rebuild their
    /// comparisons on every path that extends them).
    Compared(Comparison, Term),
    Other(Term),
}

/// A node's normal form and what decides whether the normal form is all
/// the simplifier does with it: one table for both, as every term the
/// simplifier meets is asked both.
struct Normalised {
    normal: Normal,
    /// Every node below is [`arithmetic_node`].
    arithmetic: bool,
    /// An integer polynomial over variables, lengths, array reads and
    /// integer or object fields, or a comparison (or negated comparison)
    /// of two such terms or of two objects (`l.next != nil`, `a[3] = x`):
    /// no rule rewrites these (no rule reads a field, and `select` only
    /// over `store`), so the normal form alone settles them.
    settled: bool,
}

/// The linear normal form of every integer subterm and comparison of
/// `term` (one pass over its distinct nodes), with each normalised
/// comparison of the result listed for [`super::bounds`].
pub struct LinearForm {
    /// Shared: a normal form is a few words, and the table, which keeps
    /// one for every guard of a long path, has more slots than entries; a
    /// written comparison shares its node's.
    memo: Generations<Rc<Normalised>>,
}

impl LinearForm {
    pub fn new() -> LinearForm {
        LinearForm {
            memo: Generations::default(),
        }
    }

    /// Between two terms: retires the memo table's generation if it is full.
    pub fn age(&mut self) {
        self.memo.age();
    }

    /// `term` with its arithmetic in normal form.
    pub fn normalise(&mut self, term: &Term) -> Term {
        self.memoise(term);
        self.rebuilt(term)
    }

    /// Records the normal form of every node of `term`, children first, so
    /// a known node needs no walk below it; a written comparison is known
    /// without its children, which nothing reads through it.
    pub fn memoise(&mut self, term: &Term) {
        if self.memo.contains_key(&term.id()) {
            return;
        }
        match bound(term) {
            Some((x, op, k)) if self.memo.contains_key(&x.id()) => {
                let lhs = self.polynomial(x).into_owned();
                self.record(term, compared(Comparison { lhs, op, k }), false, true);
            }
            _ => self.memoise_nodes(term),
        }
    }

    /// [`LinearForm::memoise`] node by node, however simple the term.
    fn memoise_nodes(&mut self, term: &Term) {
        for node in term.nodes_besides(|node| self.memo.contains_key(&node.id())) {
            let arithmetic = |t: &Term| self.memo[&t.id()].arithmetic;
            let throughout = arithmetic_node(&node) && node.children().into_iter().all(arithmetic);
            let settled = match node.kind() {
                TermKind::Unary(UnOp::Not, inner) if comparison(inner) => {
                    self.memo[&inner.id()].settled
                }
                _ if comparison(&node) => node.children().into_iter().all(arithmetic),
                _ => throughout,
            };
            let normal = self.node(&node);
            self.record(&node, normal, throughout, settled);
        }
    }

    fn record(&mut self, node: &Term, normal: Normal, arithmetic: bool, settled: bool) {
        let normal = Rc::new(Normalised {
            normal,
            arithmetic,
            settled,
        });
        if let Normal::Compared(_, written) = &normal.normal {
            // A comparison in normal form is its own normal form: the
            // conjunctions of a path read the written ones again.
            if written.id() != node.id() {
                self.memo
                    .get_or_insert_with(written.id(), || normal.clone());
            }
        }
        self.memo.insert(node.id(), normal);
    }

    /// Whether the normal form alone settles `term` ([`Normalised::settled`]).
    pub fn settled(&mut self, term: &Term) -> bool {
        self.memoise(term);
        self.memo[&term.id()].settled
    }

    /// The comparison `term` normalised to, if it is an integer comparison,
    /// with its term.
    pub fn compared(&mut self, term: &Term) -> Option<(&Comparison, &Term)> {
        self.memoise(term);
        self.known(term)
    }

    /// [`LinearForm::compared`] for a term already normalised.
    pub fn known(&self, term: &Term) -> Option<(&Comparison, &Term)> {
        match self.memo.get(&term.id()).map(|known| &known.normal) {
            Some(Normal::Compared(c, written)) => Some((c, written)),
            _ => None,
        }
    }

    fn rebuilt(&self, term: &Term) -> Term {
        match &self.memo[&term.id()].normal {
            Normal::Integer(p) => p.term(),
            Normal::Compared(_, written) => written.clone(),
            Normal::Other(t) => t.clone(),
        }
    }

    /// The polynomial of a memoised integer term, borrowed from the memo
    /// where it is one (most are only read).
    fn polynomial(&self, term: &Term) -> Cow<'_, Polynomial> {
        match &self.memo[&term.id()].normal {
            Normal::Integer(p) => Cow::Borrowed(p),
            _ => Cow::Owned(Polynomial::atom(self.rebuilt(term))),
        }
    }

    fn node(&self, node: &Term) -> Normal {
        let p = |t: &Term| self.polynomial(t);
        let one = BigInt::one();
        match node.kind() {
            TermKind::Int(n) => Normal::Integer(Polynomial::constant(n.clone())),
            TermKind::Unary(UnOp::Neg, a) => Normal::Integer(p(a).scale(&-one)),
            TermKind::Binary(BinOp::Add, a, b) => {
                Normal::Integer(p(a).into_owned().add(&p(b), false))
            }
            TermKind::Binary(BinOp::Sub, a, b) => {
                Normal::Integer(p(a).into_owned().add(&p(b), true))
            }
            TermKind::Binary(BinOp::Mul, a, b) => match p(a).times(&p(b)) {
                Some(product) => Normal::Integer(product),
                None => self.atom(node),
            },
            TermKind::Binary(op @ (BinOp::Div | BinOp::Mod), a, b) => match p(b).as_constant() {
                Some(d) if !d.is_zero() => Normal::Integer(divide(*op, &p(a), d)),
                _ => self.atom(node),
            },
            TermKind::Unary(UnOp::Not, a) => match &self.memo[&a.id()].normal {
                Normal::Compared(c, _) => compared(c.negated()),
                Normal::Other(inner) => Normal::Other(complement(inner)),
                Normal::Integer(_) => Normal::Other(self.with_children(node)),
            },
            TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) if a.sort() != Sort::Int => {
                Normal::Other(equality(*op, self.rebuilt(a), self.rebuilt(b)))
            }
            TermKind::Binary(op, a, b) if op.is_comparison() && a.sort() == Sort::Int => {
                match Comparison::new(*op, p(a).into_owned(), &p(b)) {
                    Ok(comparison) => compared(comparison),
                    Err(truth) => Normal::Other(Term::bool(truth)),
                }
            }
            _ if node.sort() == Sort::Int && !node.children().is_empty() => self.atom(node),
            TermKind::Var(_, Sort::Int) | TermKind::Len(_) => {
                Normal::Integer(Polynomial::atom(node.clone()))
            }
            _ => Normal::Other(self.with_children(node)),
        }
    }

    fn atom(&self, node: &Term) -> Normal {
        Normal::Integer(Polynomial::atom(self.with_children(node)))
    }

    /// `node` over its children's normal forms.
    fn with_children(&self, node: &Term) -> Term {
        let children: Vec<Term> = node
            .children()
            .into_iter()
            .map(|child| self.rebuilt(child))
            .collect();
        node.with_children(&children)
    }
}

/// `x op k` or `k op x` for an integer variable or length `x` and a literal
/// `k` (a loop counter's guard, folded, new on every unfolding) as `x op' k`,
/// what [`Comparison::new`] makes of it, without the literal's polynomial
/// or any arithmetic on polynomials.
fn bound(term: &Term) -> Option<(&Term, BinOp, BigInt)> {
    let TermKind::Binary(op, left, right) = term.kind() else {
        return None;
    };
    let atom = |t: &Term| matches!(t.kind(), TermKind::Var(_, Sort::Int) | TermKind::Len(_));
    let (x, op, k) = match (left.kind(), right.kind()) {
        (_, TermKind::Int(k)) if atom(left) => (left, *op, k),
        (TermKind::Int(k), _) if atom(right) => (right, flip(*op), k),
        _ => return None,
    };
    op.is_comparison().then(|| (x, op, k.clone()))
}

/// Whether `term` is a comparison (of any sort).
fn comparison(term: &Term) -> bool {
    matches!(term.kind(), TermKind::Binary(op, ..) if op.is_comparison())
}

/// Whether `node` itself is integer arithmetic over variables, lengths,
/// array reads and fields, or an object variable or `nil`.
fn arithmetic_node(node: &Term) -> bool {
    matches!(
        node.kind(),
        TermKind::Int(_)
            | TermKind::Var(_, Sort::Int | Sort::Array(_) | Sort::Object(_))
            | TermKind::Nil(_)
            | TermKind::Len(_)
            | TermKind::Select(..)
            | TermKind::Field(_, _, Sort::Int | Sort::Object(_))
            | TermKind::Unary(UnOp::Neg, _)
            | TermKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul, ..)
    )
}

/// `¬t` without `!` where one can go: a literal flipped, `!!t` as `t`,
/// `=` and `!=` swapped (on every sort); otherwise `!t`.
pub fn complement(term: &Term) -> Term {
    match term.kind() {
        TermKind::Bool(b) => Term::bool(!b),
        TermKind::Unary(UnOp::Not, inner) => inner.clone(),
        TermKind::Binary(BinOp::Eq, a, b) => Term::binary(BinOp::Ne, a.clone(), b.clone()),
        TermKind::Binary(BinOp::Ne, a, b) => Term::binary(BinOp::Eq, a.clone(), b.clone()),
        _ => Term::unary(UnOp::Not, term.clone()),
    }
}

/// `a = b` or `a != b` on booleans, arrays or objects, decided when both
/// sides are one term (`=` is reflexive on every sort), otherwise with its
/// operands in the canonical order of [`Atom`] (so `y = x` and `x = y` are
/// one term, and `nil` comes last: `l != nil`).
fn equality(op: BinOp, a: Term, b: Term) -> Term {
    if a == b {
        return Term::bool(op == BinOp::Eq);
    }
    let (a, b) = if Atom::new(b.clone()) < Atom::new(a.clone()) {
        (b, a)
    } else {
        (a, b)
    };
    Term::binary(op, a, b)
}

/// A comparison with its term, written once.
fn compared(comparison: Comparison) -> Normal {
    let written = comparison.term();
    Normal::Compared(comparison, written)
}

/// `p / d` or `p % d` for a literal `d ≠ 0`.
fn divide(op: BinOp, p: &Polynomial, d: &BigInt) -> Polynomial {
    let (q, r) = p.divide(d);
    let rest = match r.as_constant() {
        // 0 ≤ r < |d|: the remainder's own quotient is 0.
        Some(r) => {
            return if op == BinOp::Div {
                q
            } else {
                Polynomial::constant(r.clone())
            }
        }
        None => Polynomial::atom(Term::binary(op, r.term(), Term::int(d.clone()))),
    };
    if op == BinOp::Div {
        q.add(&rest, false)
    } else {
        rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every comparison of a variable or length with a literal, either way
    /// round, for literals around zero: the shortcut must record what the
    /// node-by-node normal form records.
    #[test]
    fn a_bound_is_read_off_as_the_normal_form_would_make_it() {
        let mut checked = 0;
        for x in [Term::var("n", Sort::Int), Term::len("a")] {
            for op in BinOp::COMPARISONS {
                for k in -3..=3 {
                    let k = Term::int(k);
                    for term in [
                        Term::binary(op, x.clone(), k.clone()),
                        Term::binary(op, k.clone(), x.clone()),
                    ] {
                        let mut shortcut = LinearForm::new();
                        shortcut.memoise(&x);
                        shortcut.memoise(&term);
                        let mut general = LinearForm::new();
                        general.memoise_nodes(&term);
                        assert!(bound(&term).is_some(), "{term} is a bound");
                        assert_eq!(shortcut.known(&term), general.known(&term), "{term}");
                        assert_eq!(shortcut.settled(&term), general.settled(&term), "{term}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 2 * 6 * 7 * 2);
    }
}
