//! Terms no rule can rewrite as they enter the e-graph, found without one.
//!
//! On heap programs many guards are disjunctions of settled comparisons
//! (`l.next = nil || v <= l.next.val`) that the rules leave alone: egg
//! builds their e-graph, searches every rule in it once, extracts the term
//! it started with and joins its normal form, only to find the two equal.
//! A term enters the e-graph as a tree with one class per distinct subterm
//! (terms are hash-consed), so a left side matches there exactly where it
//! matches the term's tree, a repeated pattern variable being one subterm
//! twice; and the analysis adds nothing where no subterm above the leaves
//! folds to a constant. A rule's side condition asks of the class a
//! variable matched its constant and whether all its nodes are
//! conditionals: in that e-graph, whether the subterm is a literal and
//! whether it is a conditional, so a match whose condition fails changes
//! nothing either (`(f[r1] := 1)[r2]` is no read over a write to another
//! index while `r1` and `r2` are no literals). Where neither happens, the first round's search
//! finds nothing and extracts the term itself; if the normal form leaves
//! the term alone too, the simplifier has saturated on it, which is what
//! [`super::Simplifier::run`] returns without the e-graph.

use super::fold::{fold, Constant};
use super::language::Node;
use super::operators::Operators;
use super::rules::{Matched, Read};
use crate::mutants::{self, Mutant};
use egg::{ENodeOrVar, Id, Language, PatternAst, RecExpr, Var};

/// Whether some rule's left side matches a subterm of `term` (side
/// conditions taken as holding) or some subterm above the leaves folds to
/// a constant: either way egg's first round may change the e-graph.
pub fn may_change(rules: &[Read], term: &RecExpr<Node>) -> bool {
    let nodes = term.as_ref();
    let mut constants: Vec<Option<Constant>> = Vec::with_capacity(nodes.len());
    for node in nodes {
        let constant = fold(node, |id| constants[usize::from(id)].clone());
        if constant.is_some() && !node.is_leaf() {
            return true;
        }
        constants.push(constant);
    }
    let roots = match mutants::active(Mutant::UnmatchedLooksAtRootOnly) {
        true => nodes.len().saturating_sub(1)..nodes.len(),
        false => 0..nodes.len(),
    };
    // A left side matches only where all its operators occur.
    let present = Operators::of_expr(term);
    let candidates: Vec<&Read> = rules
        .iter()
        .filter(|rule| present.contains(rule.operators.0))
        .collect();
    // From the root down: a term the rules rewrite is mostly rewritten
    // near its root (a negation, a conditional compared).
    roots.rev().any(|at| {
        candidates
            .iter()
            .any(|rule| applies(rule, term, &constants, at.into()))
    })
}

/// Whether `rule` matches the subterm of `term` at `at` with its side
/// condition holding (`constants` of the subterms as folded).
fn applies(rule: &Read, term: &RecExpr<Node>, constants: &[Option<Constant>], at: Id) -> bool {
    let pattern = &rule.sides.0;
    let root = Id::from(pattern.as_ref().len() - 1);
    let mut matching = Matching {
        pattern,
        term,
        bound: Vec::new(),
    };
    if !matching.at(root, at) {
        return false;
    }
    let Some(condition) = rule.rule.condition else {
        return true;
    };
    if mutants::active(Mutant::UnmatchedSideConditionFails) {
        return false;
    }
    condition.holds(|name| {
        let var: Var = name.parse().ok()?;
        let (_, id) = matching.bound.iter().find(|(v, _)| *v == var)?;
        Some(Matched {
            constant: constants[usize::from(*id)].clone(),
            conditional: matches!(term[*id], Node::Ite(_)),
        })
    })
}

/// One attempt to match a pattern at one subterm: a tree has a single node
/// per subterm, so matching needs no backtracking.
struct Matching<'a> {
    pattern: &'a PatternAst<Node>,
    term: &'a RecExpr<Node>,
    /// The subterm each pattern variable matched so far.
    bound: Vec<(Var, Id)>,
}

impl Matching<'_> {
    fn at(&mut self, pattern: Id, subterm: Id) -> bool {
        match &self.pattern[pattern] {
            ENodeOrVar::Var(var) => match self.bound.iter().find(|(v, _)| v == var) {
                Some((_, earlier)) => *earlier == subterm,
                None => {
                    self.bound.push((*var, subterm));
                    true
                }
            },
            ENodeOrVar::ENode(node) => {
                let here = &self.term[subterm];
                node.matches(here)
                    && node
                        .children()
                        .iter()
                        .zip(here.children())
                        .all(|(p, t)| self.at(*p, *t))
            }
        }
    }
}
