//! `--explain`: the chain of rewrites from a term to its simplified form,
//! read off egg's explanation (each step names the rule, or
//! `constant-fold` / `normal-form`, and shows the whole term after it).

use super::fold::ConstantFold;
use super::language::{to_term, Node};
use egg::{EGraph, FlatTerm, RecExpr};
use symex_semantics::term::Term;

/// One rewrite: the rule and the term it produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The rule's name, with ` (backwards)` when it was used right to left.
    pub rule: String,
    pub term: Term,
}

/// The steps from `from` to `to`, which the e-graph knows to be equal.
pub fn steps(
    egraph: &mut EGraph<Node, ConstantFold>,
    from: &RecExpr<Node>,
    to: &RecExpr<Node>,
) -> Vec<Step> {
    let mut explanation = egraph.explain_equivalence(from, to);
    let flat = explanation.make_flat_explanation();
    flat.iter()
        .skip(1)
        .map(|term| Step {
            rule: rule_of(term).unwrap_or_else(|| "?".to_string()),
            term: term_of(term),
        })
        .collect()
}

fn rule_of(term: &FlatTerm<Node>) -> Option<String> {
    if let Some(rule) = term.forward_rule {
        return Some(rule.to_string());
    }
    if let Some(rule) = term.backward_rule {
        return Some(format!("{rule} (backwards)"));
    }
    term.children.iter().find_map(rule_of)
}

fn term_of(term: &FlatTerm<Node>) -> Term {
    let children: Vec<Term> = term.children.iter().map(term_of).collect();
    to_term(&term.node, &children)
}
