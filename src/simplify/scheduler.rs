//! egg's backoff scheduler, without applying a rule that found nothing.
//!
//! egg applies every rule it searched for, each with its matches; with
//! none, applying allocates the right side's buffer and reads the clock
//! for nothing (about 550 instructions a rule and iteration, an eighth of
//! the simplifier on `list_reverse`). Applying no match changes no
//! e-class, so leaving it out changes nothing else.

use super::fold::ConstantFold;
use super::language::Node;
use crate::mutants::{self, Mutant};
use egg::{BackoffScheduler, EGraph, Rewrite, RewriteScheduler, SearchMatches};
use std::cell::Cell;
use std::rc::Rc;

/// [`BackoffScheduler`] with a count of the applications it left out.
pub struct Backoff {
    backoff: BackoffScheduler,
    unapplied: Rc<Cell<usize>>,
}

impl Backoff {
    pub fn new(unapplied: Rc<Cell<usize>>) -> Backoff {
        Backoff {
            backoff: BackoffScheduler::default(),
            unapplied,
        }
    }
}

impl RewriteScheduler<Node, ConstantFold> for Backoff {
    fn can_stop(&mut self, iteration: usize) -> bool {
        RewriteScheduler::<Node, ConstantFold>::can_stop(&mut self.backoff, iteration)
    }

    fn search_rewrite<'a>(
        &mut self,
        iteration: usize,
        egraph: &EGraph<Node, ConstantFold>,
        rewrite: &'a Rewrite<Node, ConstantFold>,
    ) -> Vec<SearchMatches<'a, Node>> {
        self.backoff.search_rewrite(iteration, egraph, rewrite)
    }

    fn apply_rewrite(
        &mut self,
        iteration: usize,
        egraph: &mut EGraph<Node, ConstantFold>,
        rewrite: &Rewrite<Node, ConstantFold>,
        matches: Vec<SearchMatches<Node>>,
    ) -> usize {
        let nothing = match mutants::active(Mutant::SingleMatchUnapplied) {
            true => matches.iter().map(|m| m.substs.len()).sum::<usize>() <= 1,
            false => matches.is_empty(),
        };
        if nothing {
            self.unapplied.set(self.unapplied.get() + 1);
            return 0;
        }
        self.backoff
            .apply_rewrite(iteration, egraph, rewrite, matches)
    }
}
