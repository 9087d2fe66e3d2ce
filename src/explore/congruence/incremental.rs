//! The closure of a path condition extended guard by guard along the tree,
//! where [`decide`] starts from scratch for each query: a node's closure is
//! its parent's (persistent, shared) plus what its guard adds, so the
//! closure work of a query is what its guard adds, not the whole path. A
//! guard's literals are propagated when it is pushed; a disjunction the
//! path leaves undecided stays a split, tried both ways only when a query
//! is answered.
//!
//! The entailment questions about one conjunct's atoms share their
//! context ([`crate::simplify::InContext`] asks whether the other
//! conjuncts entail each atom and its negation): [`ContextClosure`] builds
//! the closure of the context once and extends it by each negated goal.

use super::{answer, decide, Decision, Literals, OutsideFragment, Reads, Search, Splits, Terms};
use crate::mutants::{self, Mutant};
use std::cell::OnceCell;
use symex_semantics::term::Term;

/// What the closure knows of a path's guards: consistent so far (with the
/// splits they leave undecided), contradictory (`None`), or outside the
/// fragment.
#[derive(Clone)]
pub(crate) struct Closure(Result<Option<Path>, OutsideFragment>);

/// The closure of a consistent path.
#[derive(Clone, Default)]
struct Path {
    terms: Terms,
    literals: Literals,
    splits: Splits,
}

impl Default for Closure {
    /// The closure of the empty path.
    fn default() -> Closure {
        Closure(Ok(Some(Path::default())))
    }
}

impl Closure {
    /// The closure of the path conjoined with `guard`.
    pub(crate) fn extended(&self, guard: &Term) -> Closure {
        let Ok(Some(path)) = &self.0 else {
            return self.clone();
        };
        let mut search = Search::new(path.terms.clone());
        let pending = vec![(guard.clone(), true)];
        let found = search.propagated(path.literals.clone(), pending, path.splits.clone());
        Closure(found.map(|found| {
            found.map(|(literals, splits)| Path {
                terms: search.terms,
                literals,
                splits,
            })
        }))
    }

    /// Whether the path, whose guards are `conjuncts`, is satisfiable (its
    /// model confirmed on them); from scratch ([`decide`]) when the path
    /// leaves the fragment, where the order of the guards may matter (a
    /// later contradiction is found before an earlier product).
    pub(crate) fn decide(&self, conjuncts: &[Term]) -> Decision {
        self.decide_reading(conjuncts, || Reads::of(conjuncts))
    }

    /// [`Closure::decide`] given what the conjuncts read.
    fn decide_reading(&self, conjuncts: &[Term], reads: impl FnOnce() -> Reads) -> Decision {
        let decision = match &self.0 {
            Err(OutsideFragment) => return decide(conjuncts),
            Ok(None) => Decision::Unsat,
            Ok(Some(path)) => {
                let mut search = Search::new(path.terms.clone());
                let found = search.case(path.literals.clone(), Vec::new(), path.splits.clone());
                answer(found, &search.terms, conjuncts, reads)
            }
        };
        #[cfg(test)]
        super::tests::record(conjuncts, &decision);
        decision
    }
}

/// The closures of the guards of the path being explored, outermost
/// first: moving to another node pops to the common prefix and pushes the
/// rest, like the solver's push levels.
#[derive(Default)]
pub(crate) struct ClosureStack {
    empty: Closure,
    levels: Vec<Closure>,
}

impl ClosureStack {
    /// Pops to the first `len` guards.
    pub(crate) fn truncate(&mut self, len: usize) {
        let top = self.levels.last().cloned();
        self.levels.truncate(len);
        if mutants::active(Mutant::ClosureNotRolledBack) {
            if let (Some(top), Some(last)) = (top, self.levels.last_mut()) {
                *last = top;
            }
        }
    }

    /// Pushes `guard` on the guards held.
    pub(crate) fn push(&mut self, guard: &Term) {
        let next = self.top().extended(guard);
        self.levels.push(next);
    }

    /// The closure of the guards held.
    pub(crate) fn top(&self) -> &Closure {
        self.levels.last().unwrap_or(&self.empty)
    }
}

/// The closure of the context of the last entailment question, by the
/// context's term id (ids are never reused), for the next question about
/// the same context, with what the context reads (for the models).
#[derive(Default)]
pub(crate) struct ContextClosure {
    last: Option<(u64, Closure, OnceCell<Reads>)>,
    /// Questions answered with the closure of an earlier one.
    #[cfg(test)]
    reused: usize,
}

impl ContextClosure {
    /// Whether `context && !goal` is satisfiable, as [`decide`] of the two
    /// (from scratch where the extended closure does not answer: a case
    /// order of its own may leave the fragment where the other does not).
    pub(crate) fn decide_negated(&mut self, context: &Term, goal: &Term) -> Decision {
        let negated = Term::not(goal.clone());
        let conjuncts = [context.clone(), negated.clone()];
        let known = match &self.last {
            Some((id, ..)) => {
                *id == context.id() || mutants::active(Mutant::ContextClosureKeptAcrossContexts)
            }
            None => false,
        };
        #[cfg(test)]
        {
            self.reused += usize::from(known);
        }
        if !known {
            self.last = None;
        }
        let (_, closure, context_reads) = self.last.get_or_insert_with(|| {
            let closure = Closure::default().extended(context);
            (context.id(), closure, OnceCell::new())
        });
        let reads = || {
            let context_reads = context_reads.get_or_init(|| Reads::of(&conjuncts[..1]));
            context_reads.and(&Reads::of(&conjuncts[1..]))
        };
        match closure.extended(&negated).decide_reading(&conjuncts, reads) {
            Decision::Unknown => decide(&conjuncts),
            decision => decision,
        }
    }

    /// How many questions reused the closure of an earlier one.
    #[cfg(test)]
    pub(crate) fn reused(&self) -> usize {
        self.reused
    }
}
