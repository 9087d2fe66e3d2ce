//! The explorer's shortcut for aliasing ([`HeapFacts`]): each guard
//! `wp_ρ(b)` is resolved under the `nil` facts of the guards before it, as
//! the explorer does, and the result must be equivalent to the guard under
//! the path condition of the prefix (proved by Z3) — Definition 4.2's
//! incremental form against the resolved one, on random traces.
//!
//! The traces of [`Trace`] start with a walk along `x.next` that ends in
//! `nil` after one to three steps (as the list programs' first loop does)
//! and end with a write and a read along it, so that the refuted cycles
//! are reached, not only the `nil` facts; both
//! ways of deciding must be exercised, and conditionals `if h = h' then …`
//! settled. Shown to fail when every decided equality is decided the wrong
//! way round.
//!
//! The equalities [`HeapFacts`] remembers under a set of facts against
//! resolving afresh: every guard of the walk so far, under the facts after
//! each step and under those of the sibling that takes the other branch,
//! must resolve to the very same term as under the same facts learned by
//! facts that have resolved nothing. Shown to fail when a new fact keeps
//! the equalities answered before it.

use crate::distribution::{self, Required};
use crate::holds_on;
use crate::mutated::with_mutant;
use crate::oo_generators::Trace;
use crate::oo_mutants::{caught, condition};
use crate::TIMEOUT_MS;
use quickcheck::{Arbitrary, Gen, TestResult};
use std::fmt;
use symex::mutants::Mutant;
use symex::simplify::{aliasing_decided, equalities_remembered, GuardFolder, HeapFacts};
use symex::solver::{prove, Proof};
use symex_semantics::oo::action::{Action, Location};
use symex_semantics::oo::wp;
use symex_semantics::oo::ShowTrace;
use symex_semantics::term::{BinOp, Sort, Term, TermKind};

/// A walk `x != nil; x.next != nil; …; x.next^k = nil`, a random trace,
/// then a probe: `x.next^i.val := c` and the test `x.next^j.val = c`,
/// whose read over the write asks whether the two are one object.
#[derive(Clone)]
pub struct Walked {
    k: usize,
    trace: Trace,
    probe: (usize, usize),
}

/// `x.next^steps`.
fn along(steps: usize) -> Term {
    let node = Sort::Object("N".into());
    (0..steps).fold(Term::var("x", node.clone()), |at, _| {
        Term::field(at, "next", node.clone())
    })
}

impl Walked {
    fn actions(&self) -> Vec<Action> {
        let nil = || Term::nil("N");
        let walk = (0..self.k).map(|i| Action::Test(Term::binary(BinOp::Ne, along(i), nil())));
        let end = Action::Test(Term::binary(BinOp::Eq, along(self.k), nil()));
        let c = Term::var("c", Sort::Int);
        let (i, j) = self.probe;
        let write = Action::Assign(
            Location::Field(along(i), "val".into(), Sort::Int),
            c.clone(),
        );
        let read = Term::field(along(j), "val", Sort::Int);
        let probe = [write, Action::Test(Term::binary(BinOp::Eq, read, c))];
        walk.chain([end])
            .chain(self.trace.0.iter().cloned())
            .chain(probe)
            .collect()
    }
}

impl fmt::Debug for Walked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", ShowTrace(&self.actions()))
    }
}

impl Arbitrary for Walked {
    fn arbitrary(g: &mut Gen) -> Walked {
        let k = 1 + usize::arbitrary(g) % 3;
        Walked {
            k,
            trace: Trace::arbitrary(g),
            probe: (usize::arbitrary(g) % k, usize::arbitrary(g) % k),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Walked>> {
        let (k, probe) = (self.k, self.probe);
        Box::new(
            self.trace
                .shrink()
                .map(move |trace| Walked { k, trace, probe }),
        )
    }
}

fn conditionals(t: &Term) -> usize {
    t.nodes()
        .iter()
        .filter(|node| matches!(node.kind(), TermKind::Ite(..)))
        .count()
}

fn iff(a: Term, b: Term) -> Term {
    Term::and(Term::implies(a.clone(), b.clone()), Term::implies(b, a))
}

fn property(walked: Walked) -> TestResult {
    let before = aliasing_decided();
    let mut trace = wp::Trace::new();
    let mut facts = HeapFacts::new();
    let mut folder = GuardFolder::default();
    let mut prefix = Term::bool(true);
    for action in walked.actions() {
        let raw = condition(&trace, &action);
        let resolved = folder.fold(&facts.resolve(&raw));
        if conditionals(&resolved) < conditionals(&raw) {
            distribution::record_case("aliasing conditional settled");
        }
        let claim = Term::implies(prefix.clone(), iff(raw.clone(), resolved.clone()));
        match prove(&claim, &claim.free_vars(), TIMEOUT_MS) {
            Proof::Valid => {}
            Proof::Counterexample(v) => {
                return TestResult::error(format!(
                "under {prefix}\nthe guard {raw}\nresolves to {resolved}\nwhich differs at {v:?}"
            ))
            }
            Proof::Unknown | Proof::Interrupted => return TestResult::discard(),
        }
        facts = facts.with(&resolved);
        prefix = Term::and(prefix, raw);
        trace = trace.then(action);
    }
    let after = aliasing_decided();
    if after.by_nil > before.by_nil {
        distribution::record_case("decided by a nil fact");
    }
    if after.by_acyclic_chain > before.by_acyclic_chain {
        distribution::record_case("decided by a refuted cycle");
    }
    TestResult::passed()
}

fn required() -> Required {
    Required::frequent(&[
        "aliasing conditional settled",
        "decided by a nil fact",
        "decided by a refuted cycle",
    ])
}

#[test]
fn resolved_guards_are_equivalent_under_the_path() {
    holds_on(
        "aliasing resolved under the path",
        crate::cases() / 4,
        &required(),
        property as fn(Walked) -> TestResult,
    );
}

#[test]
fn resolving_the_wrong_way_round_is_caught() {
    with_mutant(Mutant::AliasingDecidedWrongWay, || {
        caught(
            "aliasing resolved under the path, decided the wrong way round",
            property as fn(Walked) -> TestResult,
        )
    });
}

/// The facts `guards` state, learned by facts that have resolved nothing.
fn afresh(guards: &[Term]) -> HeapFacts {
    guards
        .iter()
        .fold(HeapFacts::new(), |facts, g| facts.with(g))
}

/// The first guard of `guards` that `facts` resolves otherwise than the
/// facts of `learned` do afresh.
fn disagreement(facts: &HeapFacts, learned: &[Term], guards: &[Term]) -> Option<String> {
    let plain = afresh(learned);
    guards.iter().find_map(|g| {
        let (remembered, fresh) = (facts.resolve(g), plain.resolve(g));
        (remembered != fresh).then(|| format!("{g}\nresolves to {remembered}, afresh to {fresh}"))
    })
}

fn remembered_equalities_agree(walked: Walked) -> TestResult {
    let before = equalities_remembered();
    let mut trace = wp::Trace::new();
    let mut facts = HeapFacts::new();
    let (mut guards, mut learned) = (Vec::new(), Vec::new());
    for action in walked.actions() {
        let raw = condition(&trace, &action);
        guards.push(raw.clone());
        let resolved = facts.resolve(&raw);
        let earlier: Vec<Term> = guards.iter().map(|g| facts.resolve(g)).collect();
        let mut otherwise = learned.clone();
        otherwise.push(Term::not(resolved.clone()));
        let sibling = facts.with(&Term::not(resolved.clone()));
        learned.push(resolved.clone());
        facts = facts.with(&resolved);
        let mismatch = disagreement(&sibling, &otherwise, &guards)
            .map(|m| format!("in the sibling: {m}"))
            .or_else(|| disagreement(&facts, &learned, &guards));
        if let Some(mismatch) = mismatch {
            return TestResult::error(format!("after {}: {mismatch}", ShowTrace(&[action])));
        }
        if guards
            .iter()
            .zip(&earlier)
            .any(|(g, e)| facts.resolve(g) != *e)
        {
            distribution::record_case("a guard resolved further under a new fact");
        }
        trace = trace.then(action);
    }
    if equalities_remembered() > before {
        distribution::record_case("an equality answered from memory");
    }
    TestResult::passed()
}

#[test]
fn remembered_equalities_agree_with_resolving_afresh() {
    holds_on(
        "aliasing equalities remembered",
        crate::cases() / 4,
        &Required::frequent(&[
            "an equality answered from memory",
            "a guard resolved further under a new fact",
        ]),
        remembered_equalities_agree as fn(Walked) -> TestResult,
    );
}

#[test]
fn equalities_kept_across_a_new_fact_are_caught() {
    with_mutant(Mutant::AliasingEqualitiesKept, || {
        caught(
            "aliasing equalities remembered across a new fact",
            remembered_equalities_agree as fn(Walked) -> TestResult,
        )
    });
}
