//! Rules left out of a round's search by their operators
//! ([`crate::simplify::operators`]) against searching for every rule, and
//! the operators egg indexes e-classes by ([`crate::simplify::language::Operator`]).

use super::generate::Case;
use super::plain::{against_plain, AgainstPlain};
use crate::mutants::{self, Mutant};
use crate::simplify::language::{to_expr, Node};
use crate::simplify::rules::{pattern_ast, RULES};
use crate::simplify::{Shortcut, Simplifier};
use egg::{ENodeOrVar, Language};
use quickcheck::{Arbitrary, Gen};

fn check(cases: usize) -> AgainstPlain {
    against_plain(
        || Simplifier::without(Shortcut::RulesByOperator),
        |s| s.taken().by_operator,
        cases,
    )
}

#[test]
fn rules_left_out_change_nothing() {
    check(400).assert_exact("leaving rules out", 10);
}

#[test]
fn forgetting_the_operators_rules_bring_in_is_caught() {
    mutants::set(Some(Mutant::RulesForPresentOperatorsOnly));
    let counts = check(400);
    mutants::set(None);
    counts.assert_caught();
}

/// Pairs of e-nodes [`Language::matches`] takes as alike, and those of
/// them whose discriminants differ: the root of every rule's left side
/// against the nodes of random terms, and those nodes against each other.
fn alike_with_other_discriminants(cases: usize) -> (usize, Vec<String>) {
    let mut g = Gen::from_size_and_seed(12, 0x0DE5_2026);
    let roots: Vec<Node> = RULES
        .iter()
        .filter_map(|rule| match pattern_ast(rule.lhs).as_ref().last() {
            Some(ENodeOrVar::ENode(root)) => Some(root.clone()),
            _ => None,
        })
        .collect();
    let (mut alike, mut differing) = (0, Vec::new());
    for _ in 0..cases {
        let expr = to_expr(&Case::arbitrary(&mut g).shape.term());
        let nodes = expr.as_ref();
        for node in nodes {
            for other in roots.iter().chain(nodes) {
                if other.matches(node) {
                    alike += 1;
                    if other.discriminant() != node.discriminant() {
                        differing.push(format!("{other:?} and {node:?}"));
                    }
                }
            }
        }
    }
    (alike, differing)
}

#[test]
fn nodes_alike_have_one_discriminant() {
    let (alike, differing) = alike_with_other_discriminants(200);
    assert!(differing.is_empty(), "{}", differing.join("\n"));
    assert!(alike >= 2_000, "only {alike} pairs alike");
}

#[test]
fn a_discriminant_that_sees_children_is_caught() {
    mutants::set(Some(Mutant::DiscriminantSeesChildren));
    let (_, differing) = alike_with_other_discriminants(200);
    mutants::set(None);
    assert!(!differing.is_empty(), "no pair told apart");
}
