//! Path conditions and states in their simplest form *under the path
//! condition*: the e-graph rules see one term at a time, so
//! `len(a) > 0 && !(len(a) > 1 && len(a) > 0)` stays as it is although it
//! means `len(a) = 1`, and `σ(r) = 8 * k - 35` stays under `k = 5`.
//!
//! Contextual rewriting: each conjunct that is not an atom (a disjunction,
//! a negated conjunction, an implication, a conditional) is rewritten under
//! the others, as they stand after their own rewriting (so two conjuncts
//! that imply each other do not both go). An atom of it that a fact of the
//! context decides is replaced by `true` or `false`: by the rules when the
//! fact is the atom or its negation, or when the normal form's bounds on
//! one linear form settle it (`len(a) > 1` decides `len(a) > 0`); otherwise
//! Z3 is asked whether the context entails the conjunct, then each atom or
//! its negation, with answers cached. A conjunct that becomes `true` is
//! subsumed and goes; the conjunction is normalised again (bounds merge:
//! `len(a) > 0 && len(a) <= 1` is `len(a) = 1`). Atoms themselves are left
//! to the normal form, which merges bounds on one linear form: asking Z3
//! about every atom would cost a query per conjunct per path (the `array`
//! family's `a[3] = x` guards all share `x`).
//!
//! The explorer rewrites each guard under the path's earlier ones as it
//! makes the node ([`InContext::extended`], kept per node), and at the
//! leaf only the non-atoms left under all the others: a path then pays
//! for its newest guard, where rewriting the whole condition at every leaf
//! repeated the work of every prefix (the cache, keyed by context, missed).
//!
//! A value the condition pins (`k = 5`, `len(a) = 1`) is shown as that
//! value in every state value other than the variable's own (`k ↦ k`
//! stays: the input is unchanged).

mod pins;
mod shapes;
mod spared;

use super::fold::turned_round;
use super::mended::Bases;
use super::Simplifier;
use crate::mutants::{self, Mutant};
pub use pins::Pins;
use shapes::{atoms, atoms_only, disjuncts, is_atom, is_literal, replaced};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use symex_semantics::eval::{eval_bool, Valuation};
use symex_semantics::term::{Name, Term};

/// Decides entailment for [`InContext`]; the explorer asks Z3.
pub trait Entailment {
    /// Whether `context` entails `goal`: `Some(true)` proved, `Some(false)`
    /// refuted (a model of `context` falsifies `goal`), `None` unknown.
    fn entails(&mut self, context: &Term, goal: &Term) -> Option<bool>;

    /// [`Entailment::entails`] with, where it refutes and has one at hand,
    /// a model of `context` that falsifies `goal`, confirmed by the
    /// evaluator.
    fn entails_or_refuting_model(
        &mut self,
        context: &Term,
        goal: &Term,
    ) -> (Option<bool>, Option<Valuation>) {
        (self.entails(context, goal), None)
    }
}

/// The models at hand for a rewriting: `path`, one of the whole path
/// condition (the leaf's inputs, a node's check's), and `prefix`, models
/// of the path to a node's parent; each spares the questions it answers
/// where it satisfies the context.
#[derive(Clone, Copy, Default)]
struct Given<'a> {
    path: Option<&'a Valuation>,
    prefix: &'a [&'a Valuation],
}

/// Entailment answers remembered at most; the cache is emptied when full.
const CACHE_LIMIT: usize = 4096;

/// Rewrites conditions and values under a path condition, caching the
/// solver's answers by (context, goal) (term ids are never reused).
pub struct InContext {
    cache: HashMap<(u64, u64), Option<bool>>,
    /// The free variables of each conjunct seen, by id: the conjuncts of
    /// a path's prefix are taken again at every node below it.
    vars: HashMap<u64, Rc<BTreeSet<Name>>>,
    /// Whether a refuted conjunct spares the questions about its
    /// disjuncts (see [`InContext::rewrite`]); off only to compare.
    refuted_spares_disjuncts: bool,
    /// Questions that shortcut spared.
    spared: usize,
    /// Whether the models of a context found by refuted questions spare
    /// the questions they answer (see [`InContext::rewrite`]); off only to
    /// compare.
    models_spare_questions: bool,
    /// Questions those models spared.
    spared_by_models: usize,
    /// Questions the path's model spared.
    spared_by_path_model: usize,
    /// Whole conjuncts the prefix's model refuted.
    refuted_by_prefix_model: usize,
    /// Questions a model of the path or the prefix, mended, spared.
    spared_by_mended: usize,
    /// Whole conjuncts a model of the path with a fresh copy refuted.
    refuted_by_fresh_copy: usize,
    /// Questions spared by a model mended at a field.
    spared_by_mended_field: usize,
}

impl Default for InContext {
    fn default() -> InContext {
        InContext {
            cache: HashMap::new(),
            vars: HashMap::new(),
            refuted_spares_disjuncts: true,
            spared: 0,
            models_spare_questions: true,
            spared_by_models: 0,
            spared_by_path_model: 0,
            refuted_by_prefix_model: 0,
            spared_by_mended: 0,
            refuted_by_fresh_copy: 0,
            spared_by_mended_field: 0,
        }
    }
}

impl InContext {
    pub fn new() -> InContext {
        InContext::default()
    }

    /// An [`InContext`] that asks the solver about every atom, the plain
    /// definition the shortcut is checked against.
    #[cfg(test)]
    pub(crate) fn asking_every_atom() -> InContext {
        InContext {
            refuted_spares_disjuncts: false,
            ..InContext::default()
        }
    }

    /// How many entailment questions the refuted conjuncts spared.
    #[cfg(test)]
    pub(crate) fn spared(&self) -> usize {
        self.spared
    }

    /// An [`InContext`] that asks every question the models of refuted
    /// ones would spare, the plain definition that shortcut is checked
    /// against.
    #[cfg(test)]
    pub(crate) fn without_models() -> InContext {
        InContext {
            models_spare_questions: false,
            ..InContext::default()
        }
    }

    /// How many entailment questions the models of refuted ones spared.
    #[cfg(test)]
    pub(crate) fn spared_by_models(&self) -> usize {
        self.spared_by_models
    }

    /// How many entailment questions the path's model spared.
    #[cfg(test)]
    pub(crate) fn spared_by_path_model(&self) -> usize {
        self.spared_by_path_model
    }

    /// How many whole conjuncts the prefix's model refuted.
    #[cfg(test)]
    pub(crate) fn refuted_by_prefix_model(&self) -> usize {
        self.refuted_by_prefix_model
    }

    /// How many questions a model of the path or the prefix, mended,
    /// spared.
    #[cfg(test)]
    pub(crate) fn spared_by_mended(&self) -> usize {
        self.spared_by_mended
    }

    /// How many questions a model mended at a field spared.
    #[cfg(test)]
    pub(crate) fn spared_by_mended_field(&self) -> usize {
        self.spared_by_mended_field
    }

    /// How many whole conjuncts a model of the path with a fresh copy
    /// refuted.
    #[cfg(test)]
    pub(crate) fn refuted_by_fresh_copy(&self) -> usize {
        self.refuted_by_fresh_copy
    }

    /// [`InContext::condition`] given `model`, a model of `phi` (the leaf's
    /// inputs): an atom it makes false is not entailed by the other
    /// conjuncts, which it also satisfies, and one it makes true has no
    /// entailed negation, so one of each atom's two questions is spared
    /// (on heap programs each is a case split of the congruence closure).
    /// A context `model` does not satisfy takes nothing from it.
    pub fn condition_under(
        &mut self,
        phi: &Term,
        model: Option<&Valuation>,
        simplifier: &mut Simplifier,
        solver: &mut dyn Entailment,
    ) -> Term {
        let given = Given {
            path: model,
            prefix: &[],
        };
        self.condition_given(phi, given, simplifier, solver)
    }

    /// [`InContext::extended`] given `model`, a model of the path to the
    /// node (its feasibility check's), as [`InContext::condition_under`],
    /// and `prefix_models`, models of the path to its parent (the
    /// parent's check's, the earlier siblings' checks'): where one
    /// satisfies a conjunct's context and falsifies the conjunct, the
    /// context does not entail it, and the question is spared (the guard
    /// of an `else` branch or a loop's exit is a disjunction that the
    /// model found for the `then` branch or the loop's body falsifies; on
    /// heap programs each question is a case split of the congruence
    /// closure, with a model built).
    pub fn extended_under(
        &mut self,
        (prefix, guard): (&Term, &Term),
        (model, prefix_models): (Option<&Valuation>, &[&Valuation]),
        simplifier: &mut Simplifier,
        solver: &mut dyn Entailment,
    ) -> Term {
        let given = Given {
            path: model,
            prefix: prefix_models,
        };
        self.extended_given((prefix, guard), given, simplifier, solver)
    }

    /// `phi`, a simplified path condition, with each non-atomic conjunct
    /// rewritten under the others (see the module documentation).
    pub fn condition(
        &mut self,
        phi: &Term,
        simplifier: &mut Simplifier,
        solver: &mut dyn Entailment,
    ) -> Term {
        self.condition_given(phi, Given::default(), simplifier, solver)
    }

    /// [`InContext::condition`] with the models `given`.
    fn condition_given(
        &mut self,
        phi: &Term,
        given: Given,
        simplifier: &mut Simplifier,
        solver: &mut dyn Entailment,
    ) -> Term {
        if atoms_only(phi) {
            return phi.clone();
        }
        let mut conjuncts = phi.conjuncts();
        if conjuncts.len() < 2 {
            return phi.clone();
        }
        // The variables of each conjunct as it was: a rewritten conjunct
        // mentions no more, so a context chosen by them is at worst larger.
        let vars = self.variables(&conjuncts);
        let mut changed = false;
        for i in 0..conjuncts.len() {
            if is_atom(&conjuncts[i]) {
                continue;
            }
            let context = related(&conjuncts, &vars, i);
            if context.is_empty() {
                continue;
            }
            let rewritten = self.rewrite(&conjuncts[i], &context, given, simplifier, solver);
            if rewritten != conjuncts[i] {
                conjuncts[i] = rewritten;
                changed = true;
            }
        }
        if !changed {
            return phi.clone();
        }
        let conjunction = Term::conjunction(conjuncts.into_iter().filter(|c| !c.is_true()));
        simplifier.simplify(&conjunction)
    }

    /// The readable path condition of a node: `prefix`, its parent's, with
    /// `guard` (the node's simplified condition) rewritten conjunct by
    /// conjunct under the conjuncts of `prefix` it shares variables with.
    /// Kept per node, so a path pays for its newest guard only: the
    /// contexts differ on every path, and [`InContext::condition`] of a
    /// whole path condition rewrites every conjunct again (its cache
    /// misses). [`InContext::condition`] of the result at the leaf sees
    /// only the non-atomic conjuncts left, under the later ones as well.
    pub fn extended(
        &mut self,
        prefix: &Term,
        guard: &Term,
        simplifier: &mut Simplifier,
        solver: &mut dyn Entailment,
    ) -> Term {
        self.extended_given((prefix, guard), Given::default(), simplifier, solver)
    }

    /// [`InContext::extended`] with the models `given`.
    fn extended_given(
        &mut self,
        (prefix, guard): (&Term, &Term),
        given: Given,
        simplifier: &mut Simplifier,
        solver: &mut dyn Entailment,
    ) -> Term {
        let mut readable = prefix.clone();
        for conjunct in guard.conjuncts() {
            let rewritten = if is_atom(&conjunct) || readable.is_true() {
                conjunct
            } else {
                let mut conjuncts = readable.conjuncts();
                conjuncts.push(conjunct.clone());
                let vars = self.variables(&conjuncts);
                let mut context = related(&conjuncts, &vars, conjuncts.len() - 1);
                if mutants::active(Mutant::ContextHoldsItsConjunct) {
                    context.push(conjunct.clone());
                }
                let rewritten = match context.is_empty() {
                    true => conjunct.clone(),
                    false => self.rewrite(&conjunct, &context, given, simplifier, solver),
                };
                // Left as it was when it became an atom that is neither
                // `true` nor `false`: the leaf rewrites non-atoms only, and a
                // later guard may still decide it (`l != l.next` goes under
                // `l.next.next = nil`).
                match is_atom(&rewritten) && !is_literal(&rewritten) {
                    true => conjunct,
                    false => rewritten,
                }
            };
            readable = simplifier.conjoin(&readable, &rewritten);
        }
        readable
    }

    /// `conjunct` under `context` (the related other conjuncts): its atoms
    /// the rules decide replaced, then the whole asked about, then each
    /// atom and its negation. A disjunct implies the disjunction, so when
    /// a model of the context falsifies the whole (it is refuted), the
    /// context entails none of its disjuncts and they are not asked about
    /// (on heap programs the conjuncts left at a leaf are disjunctions of
    /// aliasing, `p3 = p5 || p3 = p4`, each question a case split).
    fn rewrite(
        &mut self,
        conjunct: &Term,
        context: &[Term],
        given: Given,
        simplifier: &mut Simplifier,
        solver: &mut dyn Entailment,
    ) -> Term {
        let facts: Vec<(&Term, Rc<BTreeSet<Name>>)> = context
            .iter()
            .filter(|c| is_atom(c))
            .map(|fact| (fact, self.vars_of(fact)))
            .collect();
        let mut decided = HashMap::new();
        for atom in atoms(conjunct) {
            let vars = self.vars_of(&atom);
            if let Some(value) = decided_by_rules((&atom, &vars), &facts, simplifier) {
                decided.insert(atom.id(), Term::bool(value));
            }
        }
        let mut rewritten = simplifier.simplify(&replaced(conjunct, &decided));
        if is_literal(&rewritten) {
            return rewritten;
        }
        let conjuncts = context;
        let context = Term::conjunction(context.iter().cloned());
        let path_model = given.path.filter(|model| {
            mutants::active(Mutant::PathModelUnchecked) || eval_bool(&context, model) == Ok(true)
        });
        let mut models = Vec::new();
        let mut bases = Bases::new(path_model, given.prefix, &context);
        let refuting = self
            .refuting_prefix_model(&context, &rewritten, given.prefix)
            .or_else(|| self.refuting_fresh_copy((&context, conjuncts), &rewritten, &mut bases));
        let refuted = match refuting {
            Some(model) => {
                models.push(model);
                true
            }
            // A conjunct the rules left an atom (`l != l.next || l = nil`
            // under `l != nil`): mended so that its negation holds.
            None => {
                is_atom(&rewritten) && {
                    let negation = turned_round(Term::not(rewritten.clone()));
                    let within = (&context, conjuncts);
                    self.mended_refutes(within, (&rewritten, &negation), (&mut bases, &mut models))
                }
            }
        };
        let whole = match refuted {
            true => Some(false),
            false => self.entails(solver, &context, &rewritten, &mut models),
        };
        if whole == Some(true) {
            return Term::bool(true);
        }
        let not_entailed: BTreeSet<u64> = match whole {
            Some(false) if self.refuted_spares_disjuncts => {
                match mutants::active(Mutant::RefutedConjunctSparesEveryAtom) {
                    true => atoms(&rewritten).iter().map(Term::id).collect(),
                    false => disjuncts(&rewritten).iter().map(Term::id).collect(),
                }
            }
            _ => BTreeSet::new(),
        };
        let mut decided = HashMap::new();
        for atom in atoms(&rewritten) {
            let spared = not_entailed.contains(&atom.id());
            self.spared += usize::from(spared);
            let negation = Term::not(atom.clone());
            let within = (&context, conjuncts);
            if !spared
                && !self.holds_in_some((path_model, &models), &atom, false)
                && !self.mended_refutes(
                    within,
                    (&atom, &turned_round(negation.clone())),
                    (&mut bases, &mut models),
                )
                && self.entails(solver, &context, &atom, &mut models) == Some(true)
            {
                decided.insert(atom.id(), Term::bool(true));
            } else if !self.holds_in_some((path_model, &models), &atom, true)
                && !self.mended_refutes(within, (&negation, &atom), (&mut bases, &mut models))
                && self.entails(solver, &context, &negation, &mut models) == Some(true)
            {
                decided.insert(atom.id(), Term::bool(false));
            }
        }
        if !decided.is_empty() {
            rewritten = simplifier.simplify(&replaced(&rewritten, &decided));
        }
        rewritten
    }

    /// Whether `context` entails `goal`, cached; a model of `context` the
    /// solver found refuting it joins `models`.
    fn entails(
        &mut self,
        solver: &mut dyn Entailment,
        context: &Term,
        goal: &Term,
        models: &mut Vec<Valuation>,
    ) -> Option<bool> {
        let key = (context.id(), goal.id());
        if let Some(answer) = self.cache.get(&key) {
            return *answer;
        }
        let (answer, model) = solver.entails_or_refuting_model(context, goal);
        models.extend(model);
        self.remember(key, answer);
        answer
    }

    /// The free variables of each of `conjuncts`, for [`related`].
    fn variables(&mut self, conjuncts: &[Term]) -> Vec<Rc<BTreeSet<Name>>> {
        conjuncts.iter().map(|c| self.vars_of(c)).collect()
    }

    /// The free variables of `term`, remembered (term ids are never
    /// reused); forgotten all at once when full, as the answers are.
    fn vars_of(&mut self, term: &Term) -> Rc<BTreeSet<Name>> {
        if let Some(vars) = self.vars.get(&term.id()) {
            return vars.clone();
        }
        if self.vars.len() >= CACHE_LIMIT {
            self.vars.clear();
        }
        let vars = Rc::new(term.free_vars().into_keys().collect::<BTreeSet<Name>>());
        self.vars.insert(term.id(), vars.clone());
        vars
    }

    /// Caches `answer` to the question `key` (context and goal ids).
    fn remember(&mut self, key: (u64, u64), answer: Option<bool>) {
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        self.cache.insert(key, answer);
    }
}

/// The value of `atom` that a fact decides by the rules: the fact itself or
/// its negation, or bounds the normal form merges to `false`. Each fact
/// comes with its free variables (taken once for all the atoms).
fn decided_by_rules(
    (atom, vars): (&Term, &BTreeSet<Name>),
    facts: &[(&Term, Rc<BTreeSet<Name>>)],
    simplifier: &mut Simplifier,
) -> Option<bool> {
    let related = facts
        .iter()
        .filter(|(_, fact_vars)| !fact_vars.is_disjoint(vars))
        .map(|(fact, _)| fact);
    let negation = simplifier.simplify(&Term::not(atom.clone()));
    for fact in related {
        if *fact == atom || simplifier.conjoin(fact, &negation).is_false() {
            return Some(true);
        }
        if **fact == negation || simplifier.conjoin(fact, atom).is_false() {
            return Some(false);
        }
    }
    None
}

/// The conjuncts other than `conjuncts[i]` that share variables with it,
/// directly or through one another (the others cannot decide anything in
/// it), by the variables `vars` of each.
fn related(conjuncts: &[Term], vars: &[Rc<BTreeSet<Name>>], i: usize) -> Vec<Term> {
    let mut wanted = BTreeSet::clone(&vars[i]);
    let mut taken = vec![false; conjuncts.len()];
    taken[i] = true;
    loop {
        let joining: Vec<usize> = (0..conjuncts.len())
            .filter(|&j| !taken[j] && !conjuncts[j].is_true() && !vars[j].is_disjoint(&wanted))
            .collect();
        if joining.is_empty() {
            break;
        }
        for j in joining {
            taken[j] = true;
            wanted.extend(vars[j].iter().cloned());
        }
    }
    taken[i] = false;
    (0..conjuncts.len())
        .filter(|&j| taken[j])
        .map(|j| conjuncts[j].clone())
        .collect()
}
