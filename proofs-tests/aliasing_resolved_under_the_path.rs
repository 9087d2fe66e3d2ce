//! The explorer's shortcut for aliasing ([`HeapFacts`]): each guard
//! `wp_ρ(b)` is resolved under the `nil` facts of the guards before it, as
//! the explorer does, and the result must be equivalent to the guard under
//! the path condition of the prefix (proved by Z3) — Definition 4.2's
//! incremental form against the resolved one, on random traces.
//!
//! The traces of [`Trace`] start with a walk along `x.next` that ends in
//! `nil` after one to three steps (as the list programs' first loop does),
//! so that the refuted cycles are reached, not only the `nil` facts; both
//! ways of deciding must be exercised, and conditionals `if h = h' then …`
//! settled. Shown to fail when every decided equality is decided the wrong
//! way round.

use crate::distribution::{self, Required};
use crate::holds_on;
use crate::mutated::with_mutant;
use crate::oo_generators::Trace;
use crate::oo_mutants::{caught, condition};
use crate::TIMEOUT_MS;
use quickcheck::{Arbitrary, Gen, TestResult};
use std::fmt;
use symex::mutants::Mutant;
use symex::simplify::{aliasing_decided, GuardFolder, HeapFacts};
use symex::solver::{prove, Proof};
use symex_semantics::oo::action::Action;
use symex_semantics::oo::wp;
use symex_semantics::term::{BinOp, Sort, Term, TermKind};

/// A random trace after a walk `x != nil; x.next != nil; …; x.next^k = nil`.
#[derive(Clone)]
pub struct Walked(usize, Trace);

impl Walked {
    fn actions(&self) -> Vec<Action> {
        let node = Sort::Object("N".into());
        let mut at = Term::var("x", node.clone());
        let mut walk = Vec::new();
        for _ in 0..self.0 {
            walk.push(Action::Test(Term::binary(
                BinOp::Ne,
                at.clone(),
                Term::nil("N"),
            )));
            at = Term::field(at, "next", node.clone());
        }
        walk.push(Action::Test(Term::binary(BinOp::Eq, at, Term::nil("N"))));
        walk.into_iter().chain(self.1 .0.iter().cloned()).collect()
    }
}

impl fmt::Debug for Walked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "walk of {} steps, then {:?}", self.0, self.1)
    }
}

impl Arbitrary for Walked {
    fn arbitrary(g: &mut Gen) -> Walked {
        Walked(1 + usize::arbitrary(g) % 3, Trace::arbitrary(g))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Walked>> {
        let k = self.0;
        Box::new(self.1.shrink().map(move |trace| Walked(k, trace)))
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
            Proof::Counterexample(v) => return TestResult::error(format!(
                "under {prefix}\nthe guard {raw}\nresolves to {resolved}\nwhich differs at {v:?}"
            )),
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
