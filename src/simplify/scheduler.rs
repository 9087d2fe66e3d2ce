//! egg's backoff scheduler, without searching for a rule that cannot match
//! nor applying one that found nothing.
//!
//! egg applies every rule it searched for, each with its matches; with
//! none, applying allocates the right side's buffer and reads the clock
//! for nothing (about 550 instructions a rule and iteration, an eighth of
//! the simplifier on `list_reverse`). Applying no match changes no
//! e-class, so leaving it out changes nothing else.
//!
//! A rule whose left side lacks one of its [`Edges`] in the e-graph of the
//! iteration would find nothing; [`BackoffScheduler`] would count it as
//! applied, a number it uses for its log alone, and ban it only for more
//! matches than its limit, so leaving its search out changes nothing
//! either.

use super::edges::{Edges, Needs};
use super::fold::ConstantFold;
use super::language::Node;
use crate::mutants::{self, Mutant};
use egg::{
    BackoffScheduler, EGraph, Rewrite, RewriteScheduler, RunnerLimits, RunnerResult, SearchMatches,
};
use std::cell::Cell;
use std::rc::Rc;

/// [`BackoffScheduler`] with counts of the searches and applications it
/// left out.
pub struct Backoff {
    backoff: BackoffScheduler,
    unapplied: Rc<Cell<usize>>,
    /// The edges each rule needs, in the order egg is given the rules;
    /// `None` to search for every rule.
    needs: Option<Vec<Needs>>,
    /// The first search's edges, kept only under the mutant
    /// `EdgesKeptAcrossIterations` (each search reads the e-graph's own).
    stale: Option<Edges>,
    unsearched: Rc<Cell<usize>>,
}

impl Backoff {
    pub fn new(
        unapplied: Rc<Cell<usize>>,
        needs: Option<Vec<Needs>>,
        unsearched: Rc<Cell<usize>>,
    ) -> Backoff {
        Backoff {
            backoff: BackoffScheduler::default(),
            unapplied,
            needs,
            stale: None,
            unsearched,
        }
    }
}

impl RewriteScheduler<Node, ConstantFold> for Backoff {
    fn can_stop(&mut self, iteration: usize) -> bool {
        RewriteScheduler::<Node, ConstantFold>::can_stop(&mut self.backoff, iteration)
    }

    /// egg's search (each rule in turn, the limits checked after each),
    /// leaving out the rules whose edges the e-graph lacks; the check after
    /// them too, since it reads the e-graph, the iteration and the (mock,
    /// stopped) clock, none of which a search left out changes.
    fn search_rewrites<'a>(
        &mut self,
        iteration: usize,
        egraph: &EGraph<Node, ConstantFold>,
        rewrites: &[&'a Rewrite<Node, ConstantFold>],
        limits: &RunnerLimits,
    ) -> RunnerResult<Vec<Vec<SearchMatches<'a, Node>>>> {
        let edges =
            self.needs.as_ref().map(
                |_| match mutants::active(Mutant::EdgesKeptAcrossIterations) {
                    true => self.stale.get_or_insert_with(|| Edges::of(egraph)).clone(),
                    false => Edges::of(egraph),
                },
            );
        let mut matches = Vec::with_capacity(rewrites.len());
        for (i, rewrite) in rewrites.iter().enumerate() {
            let needs = self.needs.as_ref().and_then(|needs| needs.get(i));
            if let (Some(edges), Some(needs)) = (&edges, needs) {
                if !edges.has(needs) {
                    self.unsearched.set(self.unsearched.get() + 1);
                    matches.push(Vec::new());
                    continue;
                }
            }
            matches.push(self.backoff.search_rewrite(iteration, egraph, rewrite));
            limits.check_limits(iteration, egraph)?;
        }
        Ok(matches)
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
