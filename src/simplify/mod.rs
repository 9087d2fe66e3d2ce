//! The e-graph simplifier: path conditions and states as a reader expects
//! them (King 1976: `α2 ≥ 1 ∧ ¬(α2 ≥ 2)` "or simply `α2 = 1`"), never
//! changing what a term means.
//!
//! A term enters an egg e-graph ([`language`]) whose analysis folds
//! constants ([`fold`]); the context-free [`rules`] run within iteration and
//! node limits; the shortest printed form is extracted ([`cost`]); its
//! normal form — like terms collected in canonical order ([`linear`]), bound
//! facts merged per conjunction ([`bounds`]) — joins the e-graph as one more
//! equality, and the rules run again until nothing changes. Every step
//! holds wherever the original term is defined; `proofs` checks each rule,
//! and the whole, on random valuations and with Z3.

mod aliasing;
mod append;
mod bounds;
mod context;
mod cost;
mod edges;
mod explain;
mod fold;
mod folded_branch;
mod implication;
mod known;
mod language;
mod linear;
mod mended;
mod negated_branch;
mod nested_unit;
mod operators;
mod rules;
mod scheduler;
mod shortcuts;
mod unmatched;

#[cfg(test)]
pub(crate) mod tests;

pub use aliasing::{decided as aliasing_decided, equalities_remembered, Decided, HeapFacts};
pub use context::{Entailment, InContext, Pins};
pub use explain::Step;
pub(crate) use fold::offset;
pub use fold::GuardFolder;
pub use rules::{Rule, RULES};
pub use shortcuts::{Shortcut, Taken};

use bounds::NormalForm;
use cost::PrintedLength;
use egg::{EGraph, Extractor, Rewrite, Runner, StopReason};
use fold::ConstantFold;
use language::{from_expr, to_expr, Node};
use operators::{Operators, RuleOperators};
use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use symex_semantics::memo::Generations;
use symex_semantics::term::{BinOp, Term, TermKind};

/// Bounds on one simplification: e-graph iterations and e-nodes per
/// round, and rounds of rules-then-normal-form.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub iterations: usize,
    pub nodes: usize,
    pub rounds: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            iterations: 8,
            nodes: 4_000,
            rounds: 4,
        }
    }
}

/// Why simplification stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Neither the rules nor the normal form change the term any more.
    Saturated,
    /// The last round of rules hit the iteration limit.
    IterationLimit(usize),
    /// The last round of rules hit the e-node limit.
    NodeLimit(usize),
    /// The normal form still changed the term after the last round.
    RoundLimit(usize),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Saturated => write!(f, "saturated"),
            Stop::IterationLimit(n) => write!(f, "iteration limit ({n})"),
            Stop::NodeLimit(n) => write!(f, "e-node limit ({n})"),
            Stop::RoundLimit(n) => write!(f, "round limit ({n})"),
        }
    }
}

/// A simplified term, why the simplifier stopped, and (when asked for)
/// the rewrites that lead from the original to it.
#[derive(Clone, Debug)]
pub struct Simplification {
    pub term: Term,
    pub stop: Stop,
    pub steps: Option<Vec<Step>>,
}

/// A term equal to `term` wherever `term` is defined, in its simplest
/// printed form.
pub fn simplify(term: &Term) -> Term {
    Simplifier::new().run(term, false).term
}

/// [`simplify`] with the chain of rewrites that justifies the result.
pub fn explain(term: &Term) -> Simplification {
    Simplifier::new().run(term, true)
}

/// Rules read, with the operators of their sides, each compiled to an egg
/// rewrite when a round first searches for it (on heap guards the rules
/// of `/`, `%`, `select` and `store` never are).
struct Compiled {
    read: Vec<rules::Read>,
    rewrites: Vec<OnceLock<Rewrite<Node, ConstantFold>>>,
    operators: RuleOperators,
    /// Whether the rules are [`RULES`], for which the answers known
    /// without egg are argued ([`known`]); other sets (the soundness
    /// tests' mutated ones) always run egg.
    standard: bool,
}

impl Compiled {
    fn new(rules: &[Rule]) -> Arc<Compiled> {
        let read: Vec<rules::Read> = rules.iter().map(rules::Read::new).collect();
        Arc::new(Compiled {
            standard: rules == RULES,
            rewrites: read.iter().map(|_| OnceLock::new()).collect(),
            operators: RuleOperators(read.iter().map(|rule| rule.operators).collect()),
            read,
        })
    }

    fn rewrite(&self, i: usize) -> &Rewrite<Node, ConstantFold> {
        self.rewrites[i].get_or_init(|| self.read[i].compiled())
    }
}

/// A simplifier with its rules, limits and memo table (keep one per
/// exploration: path conditions share their prefixes).
pub struct Simplifier {
    rules: Arc<Compiled>,
    limits: Limits,
    /// Each term simplified, kept with the term itself: a term re-made
    /// after its last use (a guard met again in a sibling subtree) would
    /// otherwise come back under a new id.
    memo: Generations<(Term, Term)>,
    /// Whether each term checked was quiet ([`Simplifier::quiet`]), kept
    /// with the term as `memo` keeps it.
    quiet: Generations<(Term, bool)>,
    /// The normal form with its memo tables, shared by the terms of one
    /// exploration (each distinct conjunct is normalised once).
    normal: NormalForm,
    /// The clock egg reads while it runs: a mock one. egg times its
    /// iterations with `quanta`, whose first real reading calibrates the
    /// CPU's time-stamp counter against the OS clock (about 11 M
    /// instructions, most of the simplifier's time on a small heap
    /// program); the only limit egg could check against it, time, is not
    /// used (the watchdog bounds a command's time).
    clock: quanta::Clock,
    /// The shortcut left out, to compare with the plain computation.
    plain: Option<Shortcut>,
    /// How often each shortcut was taken.
    taken: Taken,
}

impl Default for Simplifier {
    fn default() -> Simplifier {
        Simplifier::new()
    }
}

impl Simplifier {
    /// A simplifier with [`RULES`], compiled once per process: parsing and
    /// compiling all their patterns cost about 2 M instructions, as much as
    /// the whole simplification of a small program.
    pub fn new() -> Simplifier {
        static COMPILED: OnceLock<Arc<Compiled>> = OnceLock::new();
        let rules = COMPILED.get_or_init(|| Compiled::new(RULES));
        Simplifier::with_compiled(rules.clone(), Limits::default())
    }

    pub fn with_rules(rules: &[Rule], limits: Limits) -> Simplifier {
        Simplifier::with_compiled(Compiled::new(rules), limits)
    }

    fn with_compiled(rules: Arc<Compiled>, limits: Limits) -> Simplifier {
        Simplifier {
            rules,
            limits,
            memo: Generations::default(),
            quiet: Generations::default(),
            normal: NormalForm::new(),
            clock: quanta::Clock::mock().0,
            plain: None,
            taken: Taken::default(),
        }
    }

    /// A simplifier without `shortcut`: the plain computation it is
    /// checked against.
    #[cfg(test)]
    pub(crate) fn without(shortcut: Shortcut) -> Simplifier {
        Simplifier {
            plain: Some(shortcut),
            ..Simplifier::new()
        }
    }

    /// How often each shortcut was taken so far.
    #[cfg(test)]
    pub(crate) fn taken(&self) -> &Taken {
        &self.taken
    }

    /// Whether `shortcut` is taken (all are but where a test compares).
    fn takes(&self, shortcut: Shortcut) -> bool {
        self.plain != Some(shortcut)
    }

    /// [`simplify`] for the terms of one exploration, memoised: a
    /// conjunction `φ && b` is the normal form of `simplify(φ) && simplify(b)`
    /// (bounds merged, repeats dropped), so the path conditions of an
    /// exploration, which share their prefixes, cost one small e-graph per
    /// distinct guard rather than one per path that grows with it.
    pub fn simplify(&mut self, term: &Term) -> Term {
        if matches!(
            term.kind(),
            TermKind::Var(..) | TermKind::Int(_) | TermKind::Bool(_)
        ) {
            // Most values of a reported state: their own simplest form.
            return term.clone();
        }
        self.memo.age();
        self.quiet.age();
        self.normal.age();
        self.memoised(term)
    }

    /// [`Simplifier::simplify`] within one generation of the memo tables.
    fn memoised(&mut self, term: &Term) -> Term {
        if let Some((_, done)) = self.memo.get(&term.id()) {
            return done.clone();
        }
        let mut spine = Vec::new();
        let mut base = term.clone();
        while let TermKind::Binary(BinOp::And, left, _) = base.kind() {
            if self.memo.contains_key(&base.id()) {
                break;
            }
            spine.push(base.clone());
            base = left.clone();
        }
        let mut simplified = match self.memo.get(&base.id()) {
            Some((_, done)) => done.clone(),
            // `true`, the guard of every assignment, needs no e-graph.
            None if matches!(base.kind(), TermKind::Bool(_)) => base.clone(),
            None => {
                let simplified = self.run(&base, false).term;
                self.memo
                    .insert(base.id(), (base.clone(), simplified.clone()));
                simplified
            }
        };
        for conjunction in spine.iter().rev() {
            if let TermKind::Binary(BinOp::And, _, right) = conjunction.kind() {
                let right = self.memoised(right);
                simplified = self.normal.conjoin(&simplified, &right);
                self.memo
                    .insert(conjunction.id(), (conjunction.clone(), simplified.clone()));
            }
        }
        simplified
    }

    /// `simplify(φ && b)` from `simplify(φ)` and `simplify(b)`: the merge
    /// alone, so a path condition grown by one guard costs the guard (the
    /// explorer keeps each node's simplified path condition).
    pub fn conjoin(&mut self, left: &Term, right: &Term) -> Term {
        self.normal.age();
        self.normal.conjoin(left, right)
    }

    /// One simplification, the e-graph from scratch (the normal form's
    /// memo tables shared: the rounds of one term, and the guards of one
    /// exploration, meet the same subterms again).
    pub fn run(&mut self, term: &Term, explained: bool) -> Simplification {
        if !explained && self.normal.settled(term) {
            return Simplification {
                term: self.normal.normalise(term),
                stop: Stop::Saturated,
                steps: None,
            };
        }
        let original = to_expr(term);
        let quiet = self.takes(Shortcut::Egg) && self.first_round_quiet(&original);
        if quiet && !explained && self.normal.normalise(term) == *term {
            // The first round ends with the term itself, saturated.
            self.taken.unmatched += 1;
            return Simplification {
                term: term.clone(),
                stop: Stop::Saturated,
                steps: None,
            };
        }
        if !explained && self.takes(Shortcut::Egg) && self.rules.standard {
            if let Some(known) = self.known(term, &original, quiet) {
                self.taken.known += 1;
                return Simplification {
                    term: known,
                    stop: Stop::Saturated,
                    steps: None,
                };
            }
        }
        let clock = self.clock.clone();
        quanta::with_clock(&clock, || self.saturate(term, original, explained, quiet))
    }

    /// [`Simplifier::first_round_quiet`] on `t`, memoised: the answers
    /// known without egg check the same subterms again (a list walk's
    /// guards compare one conditional with `nil` both ways and negated).
    pub(super) fn quiet(&mut self, t: &Term) -> bool {
        if let Some((_, quiet)) = self.quiet.get(&t.id()) {
            return *quiet;
        }
        let quiet = self.first_round_quiet(&to_expr(t));
        self.quiet.insert(t.id(), (t.clone(), quiet));
        quiet
    }

    /// Whether the first round's search would find nothing, so that it
    /// ends with the term itself ([`unmatched`]): no rule's left side
    /// matches the term, nothing in it folds, and egg's limits let the
    /// round search at all.
    fn first_round_quiet(&self, original: &egg::RecExpr<Node>) -> bool {
        let limits = self.limits;
        let within_limits =
            limits.rounds > 0 && limits.iterations > 0 && original.as_ref().len() <= limits.nodes;
        within_limits && !unmatched::may_change(&self.rules.read, original)
    }

    /// [`Simplifier::run`] on an e-graph: rounds of the rules, then the
    /// normal form, until neither changes the term; the first round's
    /// search left out when it is `quiet` ([`unmatched`]).
    fn saturate(
        &mut self,
        term: &Term,
        original: egg::RecExpr<Node>,
        explained: bool,
        quiet: bool,
    ) -> Simplification {
        let by_operator = self.takes(Shortcut::RulesByOperator);
        let by_edge = self.takes(Shortcut::SearchesByEdge);
        let empty_unapplied = self.takes(Shortcut::EmptyApplications);
        let normal_form = &mut self.normal;
        let mut egraph = EGraph::new(ConstantFold);
        if explained {
            egraph = egraph.with_explanations_enabled();
        }
        let root = egraph.add_expr_uncanonical(&original);
        let mut stop = Stop::RoundLimit(self.limits.rounds);
        let mut result = term.clone();
        for round in 0..self.limits.rounds {
            if round == 0 && quiet {
                self.taken.unmatched += 1;
                result = normal_form.normalise(term);
                let normal = egraph.add_expr_uncanonical(&to_expr(&result));
                if egraph.find(normal) == egraph.find(root) {
                    stop = Stop::Saturated;
                    break;
                }
                // As after a search: the term extracted is added again.
                let best = egraph.add_expr_uncanonical(&original);
                egraph.union_trusted(best, normal, "normal-form");
                egraph.rebuild();
                continue;
            }
            // Only the rules that can match on this e-graph are searched for
            // (see [`operators`]).
            let present = Operators::in_egraph(&egraph);
            let may_match = match by_operator {
                false => vec![true; self.rules.read.len()],
                true => self.rules.operators.may_match(present),
            };
            self.taken.by_operator += may_match.iter().filter(|may| !**may).count();
            let rules = &self.rules;
            let searched: Vec<usize> = may_match
                .iter()
                .enumerate()
                .filter_map(|(i, may)| may.then_some(i))
                .collect();
            let needs = by_edge.then(|| {
                searched
                    .iter()
                    .map(|&i| rules.read[i].needs.clone())
                    .collect()
            });
            let runner = match empty_unapplied {
                false => Runner::default(),
                true => Runner::default().with_scheduler(scheduler::Backoff::new(
                    self.taken.unapplied.clone(),
                    needs,
                    self.taken.by_edge.clone(),
                )),
            };
            let runner = runner
                .with_egraph(egraph)
                .with_iter_limit(self.limits.iterations)
                .with_node_limit(self.limits.nodes)
                .with_time_limit(Duration::from_secs(3600))
                .run(searched.iter().map(|&i| rules.rewrite(i)));
            let limited = match runner.stop_reason {
                Some(StopReason::IterationLimit(n)) => Some(Stop::IterationLimit(n)),
                Some(StopReason::NodeLimit(n)) => Some(Stop::NodeLimit(n)),
                _ => None,
            };
            egraph = runner.egraph;
            let (_, best) = Extractor::new(&egraph, PrintedLength).find_best(root);
            let best = from_expr(&best);
            result = normal_form.normalise(&best);
            let normal = egraph.add_expr_uncanonical(&to_expr(&result));
            if egraph.find(normal) == egraph.find(root) {
                stop = limited.unwrap_or(Stop::Saturated);
                break;
            }
            let best = egraph.add_expr_uncanonical(&to_expr(&best));
            egraph.union_trusted(best, normal, "normal-form");
            egraph.rebuild();
            stop = limited.unwrap_or(Stop::RoundLimit(self.limits.rounds));
        }
        let steps = explained.then(|| explain::steps(&mut egraph, &original, &to_expr(&result)));
        Simplification {
            term: result,
            stop,
            steps,
        }
    }
}
