//! Invariants for k-induction, by Houdini (Flanagan & Leino, FME 2001):
//! every loop without annotation is cut with all its candidate invariants
//! ([`super::candidates`]) as if the user had written them, every
//! candidate that fails on entry or after an iteration (or is left
//! undecided) is dropped, and the verification is run again until none
//! fails. What is left holds on entry and is preserved given the others:
//! it is inductive, so k-induction may assume it at the step's arbitrary
//! state. A path a bound cuts could break any candidate: then none is kept.

use super::candidates::candidates;
use super::encode::{encode, Treatment};
use super::observer::Collector;
use super::{Unit, Verifier};
use std::collections::{BTreeMap, BTreeSet};
use symex_semantics::annotations::CheckKind;
use symex_semantics::program::LoopId;
use symex_semantics::term::Term;

/// The candidate invariants of the unannotated loops that Houdini shows
/// inductive over `units`.
pub fn houdini(verifier: &Verifier, units: &[Unit]) -> BTreeMap<LoopId, Vec<Term>> {
    let mut kept = candidates(verifier.program);
    loop {
        let mut dropped: BTreeSet<(LoopId, u64)> = BTreeSet::new();
        for unit in units {
            let encoding = encode(
                verifier.program,
                unit,
                Treatment::Candidates(&kept),
                verifier.options.semantics,
            );
            let mut collector = Collector::new(true);
            verifier.explorer.explore(&encoding.program, &mut collector);
            if collector.incomplete > 0 || collector.unexplored > 0 {
                return BTreeMap::new();
            }
            for failed in &collector.failed {
                let Some(condition) = failed.label.and_then(|l| encoding.condition(l)) else {
                    continue;
                };
                let id = match condition.check.kind {
                    CheckKind::InvariantOnEntry(id) | CheckKind::InvariantPreserved(id) => id,
                    _ => continue,
                };
                if condition.candidate {
                    dropped.insert((id, condition.check.clause.id()));
                }
            }
        }
        if dropped.is_empty() {
            kept.retain(|_, clauses| !clauses.is_empty());
            return kept;
        }
        for (id, clauses) in kept.iter_mut() {
            clauses.retain(|clause| !dropped.contains(&(*id, clause.id())));
        }
    }
}

/// At most this many invariants are minimised; beyond, all are reported.
const MINIMISED: usize = 40;

/// The invariants the proof needs, of those Houdini kept: each left out in
/// turn, and dropped when every unit is still proved at its `k` without
/// it. Any subset of invariants is true at every loop head (they hold
/// together), so the proof with fewer of them is as sound.
pub fn used(
    verifier: &Verifier,
    ks: &[(Unit, usize)],
    invariants: BTreeMap<LoopId, Vec<Term>>,
) -> BTreeMap<LoopId, Vec<Term>> {
    let clauses: Vec<(LoopId, Term)> = invariants
        .iter()
        .flat_map(|(id, clauses)| clauses.iter().map(move |c| (*id, c.clone())))
        .collect();
    if clauses.len() > MINIMISED {
        return invariants;
    }
    let mut used = invariants;
    for (id, clause) in clauses {
        let mut without = used.clone();
        if let Some(kept) = without.get_mut(&id) {
            kept.retain(|c| *c != clause);
        }
        let proved = ks.iter().all(|(unit, k)| {
            let treatment = Treatment::Induction {
                k: *k,
                invariants: &without,
            };
            verifier.check(unit, treatment, false).proved()
        });
        if proved {
            used = without;
        }
    }
    used.retain(|_, clauses| !clauses.is_empty());
    used
}
