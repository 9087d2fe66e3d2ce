//! The context-free rewrite rules, one equation each, read left to right.
//! They hold under every valuation where the left side is defined (SPEC
//! §1.5: `x / 0 = 0`, `x % 0 = x`, so no rule needs a non-zero divisor).
//! There is no commutativity or associativity: sums, comparisons and
//! conjunctions are put in a canonical order by the normal forms
//! ([`super::linear`], [`super::bounds`]) instead.
//! Constant folding is not a rule but the e-graph analysis ([`super::fold`]).

use super::edges::Needs;
use super::fold::{Constant, ConstantFold};
use super::language::Node;
use super::operators::{Operators, Sides};
use egg::{ConditionalApplier, EGraph, Id, Pattern, PatternAst, Rewrite, Subst, Var};

/// What a side condition may ask of the subterm a pattern variable matched.
#[derive(Clone, Debug)]
pub struct Matched {
    /// Its value, where it is a constant.
    pub constant: Option<Constant>,
    /// Whether it is a conditional (in the e-graph: every way of writing
    /// it is one; `nil` stays `nil` though some `if c then nil else nil fi`
    /// has joined its class).
    pub conditional: bool,
}

/// A side condition on the subterms a rule matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// The two pattern variables are distinct integer literals.
    DistinctLiterals(&'static str, &'static str),
    /// The pattern variable is not a conditional: a comparison is pushed
    /// into the branches of one operand only, since pushing it into both of
    /// `if … fi = if … fi`, nested as aliasing conditionals nest, multiplies
    /// their branches (thousands of e-nodes for one guard of a list walk).
    NotConditional(&'static str),
}

impl Condition {
    /// Whether the condition holds, given what each pattern variable matched.
    pub fn holds(self, matched: impl Fn(&str) -> Option<Matched>) -> bool {
        match self {
            Condition::DistinctLiterals(i, j) => {
                let constant = |v| matched(v).and_then(|m| m.constant);
                match (constant(i), constant(j)) {
                    (Some(Constant::Int(i)), Some(Constant::Int(j))) => i != j,
                    _ => false,
                }
            }
            Condition::NotConditional(v) => matched(v).is_some_and(|m| !m.conditional),
        }
    }
}

/// One rewrite rule: `lhs → rhs` (s-expressions over the operators of
/// [`super::language`]), when `condition` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    pub name: &'static str,
    pub lhs: &'static str,
    pub rhs: &'static str,
    pub condition: Option<Condition>,
}

const fn rule(name: &'static str, lhs: &'static str, rhs: &'static str) -> Rule {
    Rule {
        name,
        lhs,
        rhs,
        condition: None,
    }
}

/// A comparison pushed into the branches of a conditional operand, when
/// the other operand `?d` is not one.
const fn pushed(name: &'static str, lhs: &'static str, rhs: &'static str) -> Rule {
    Rule {
        name,
        lhs,
        rhs,
        condition: Some(Condition::NotConditional("?d")),
    }
}

/// Every rule of the simplifier, by family.
#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    // Boolean algebra.
    rule("double-negation",   "(! (! ?a))",          "?a"),
    rule("and-true-left",     "(&& true ?a)",        "?a"),
    rule("and-true-right",    "(&& ?a true)",        "?a"),
    rule("or-false-left",     "(|| false ?a)",       "?a"),
    rule("or-false-right",    "(|| ?a false)",       "?a"),
    rule("and-idempotent",    "(&& ?a ?a)",          "?a"),
    rule("or-idempotent",     "(|| ?a ?a)",          "?a"),
    rule("and-contradiction", "(&& ?a (! ?a))",      "false"),
    rule("or-excluded-middle","(|| ?a (! ?a))",      "true"),
    rule("and-absorption",    "(&& ?a (|| ?a ?b))",  "?a"),
    rule("or-absorption",     "(|| ?a (&& ?a ?b))",  "?a"),
    rule("de-morgan-and",     "(! (&& ?a ?b))",      "(|| (! ?a) (! ?b))"),
    rule("de-morgan-or",      "(! (|| ?a ?b))",      "(&& (! ?a) (! ?b))"),
    rule("implies-true-left", "(==> true ?a)",       "?a"),
    rule("implies-false-right","(==> ?a false)",     "(! ?a)"),
    rule("implies-self",      "(==> ?a ?a)",         "true"),
    rule("implies-as-or",     "(==> ?a ?b)",         "(|| (! ?a) ?b)"),
    rule("eq-true",           "(= ?a true)",         "?a"),
    rule("eq-false",          "(= ?a false)",        "(! ?a)"),
    rule("ne-true",           "(!= ?a true)",        "(! ?a)"),
    rule("ne-false",          "(!= ?a false)",       "?a"),
    // Comparisons (integers are totally ordered; `=` is reflexive on every sort).
    rule("eq-self",           "(= ?a ?a)",           "true"),
    rule("ne-self",           "(!= ?a ?a)",          "false"),
    rule("not-eq",            "(! (= ?a ?b))",       "(!= ?a ?b)"),
    rule("not-ne",            "(! (!= ?a ?b))",      "(= ?a ?b)"),
    rule("not-lt",            "(! (< ?a ?b))",       "(<= ?b ?a)"),
    rule("not-le",            "(! (<= ?a ?b))",      "(< ?b ?a)"),
    rule("not-gt",            "(! (> ?a ?b))",       "(<= ?a ?b)"),
    rule("not-ge",            "(! (>= ?a ?b))",      "(< ?a ?b)"),
    // Conditionals.
    rule("ite-true",          "(ite true ?a ?b)",    "?a"),
    rule("ite-false",         "(ite false ?a ?b)",   "?b"),
    rule("ite-same",          "(ite ?c ?a ?a)",      "?a"),
    rule("ite-not",           "(ite (! ?c) ?a ?b)",  "(ite ?c ?b ?a)"),
    rule("ite-condition",     "(ite ?c true false)", "?c"),
    rule("ite-negation",      "(ite ?c false true)", "(! ?c)"),
    rule("ite-as-and",        "(ite ?c ?a false)",   "(&& ?c ?a)"),
    rule("ite-as-or",         "(ite ?c true ?b)",    "(|| ?c ?b)"),
    rule("ite-as-or-not",     "(ite ?c ?a true)",    "(|| (! ?c) ?a)"),
    rule("ite-as-and-not",    "(ite ?c false ?b)",   "(&& (! ?c) ?b)"),
    rule("ite-then-same",     "(ite ?c (ite ?c ?a ?b) ?d)", "(ite ?c ?a ?d)"),
    rule("ite-else-same",     "(ite ?c ?a (ite ?c ?b ?d))", "(ite ?c ?a ?d)"),
    // A comparison with a conditional operand is a conditional of
    // comparisons (both sides need the same operands: `if c then 1 else 0
    // fi = 0` becomes `if c then false else true fi`, that is `!c`), when
    // the other operand is not a conditional too.
    pushed("eq-ite-left",     "(= (ite ?c ?a ?b) ?d)",  "(ite ?c (= ?a ?d) (= ?b ?d))"),
    pushed("eq-ite-right",    "(= ?d (ite ?c ?a ?b))",  "(ite ?c (= ?d ?a) (= ?d ?b))"),
    pushed("ne-ite-left",     "(!= (ite ?c ?a ?b) ?d)", "(ite ?c (!= ?a ?d) (!= ?b ?d))"),
    pushed("ne-ite-right",    "(!= ?d (ite ?c ?a ?b))", "(ite ?c (!= ?d ?a) (!= ?d ?b))"),
    pushed("lt-ite-left",     "(< (ite ?c ?a ?b) ?d)",  "(ite ?c (< ?a ?d) (< ?b ?d))"),
    pushed("lt-ite-right",    "(< ?d (ite ?c ?a ?b))",  "(ite ?c (< ?d ?a) (< ?d ?b))"),
    pushed("le-ite-left",     "(<= (ite ?c ?a ?b) ?d)", "(ite ?c (<= ?a ?d) (<= ?b ?d))"),
    pushed("le-ite-right",    "(<= ?d (ite ?c ?a ?b))", "(ite ?c (<= ?d ?a) (<= ?d ?b))"),
    pushed("gt-ite-left",     "(> (ite ?c ?a ?b) ?d)",  "(ite ?c (> ?a ?d) (> ?b ?d))"),
    pushed("gt-ite-right",    "(> ?d (ite ?c ?a ?b))",  "(ite ?c (> ?d ?a) (> ?d ?b))"),
    pushed("ge-ite-left",     "(>= (ite ?c ?a ?b) ?d)", "(ite ?c (>= ?a ?d) (>= ?b ?d))"),
    pushed("ge-ite-right",    "(>= ?d (ite ?c ?a ?b))", "(ite ?c (>= ?d ?a) (>= ?d ?b))"),
    // Division and modulo (Euclidean, total).
    rule("div-zero",          "(/ ?a 0)",            "0"),
    rule("mod-zero",          "(% ?a 0)",            "?a"),
    rule("div-one",           "(/ ?a 1)",            "?a"),
    rule("mod-one",           "(% ?a 1)",            "0"),
    rule("div-minus-one",     "(/ ?a -1)",           "(neg ?a)"),
    rule("mod-minus-one",     "(% ?a -1)",           "0"),
    rule("mod-mod",           "(% (% ?a ?b) ?b)",    "(% ?a ?b)"),
    // Arrays (§2.1: total functions updated by `store`).
    rule("select-store-same", "(select (store ?a ?i ?v) ?i)", "?v"),
    Rule {
        name: "select-store-other",
        lhs: "(select (store ?a ?i ?v) ?j)",
        rhs: "(select ?a ?j)",
        condition: Some(Condition::DistinctLiterals("?i", "?j")),
    },
    rule("store-store-same",  "(store (store ?a ?i ?v) ?i ?w)", "(store ?a ?i ?w)"),
    rule("store-select-same", "(store ?a ?i (select ?a ?i))",   "?a"),
];

/// A deliberately unsound rule for the mutant tests: `(a * d) / d = a`
/// forgets that `d` may be `0`.
#[cfg(test)]
pub const MUTANT: Rule = rule("mutant-cancel-division", "(/ (* ?a ?d) ?d)", "?a");

/// A deliberately unsound conditional rule for the mutant tests: the
/// comparison pushed into the first branch only (caught on objects, where
/// `if c then x else nil fi = y` meets aliasing).
#[cfg(test)]
pub const MUTANT_ITE: Rule = rule(
    "mutant-ite-first-branch",
    "(= (ite ?c ?a ?b) ?d)",
    "(= ?a ?d)",
);

/// A deliberately unsound rule that only a heap can refute: `&&` made
/// commutative, forgetting that `x != nil && x.f > 0` is `false` where
/// `x.f > 0 && x != nil` dereferences `nil`.
#[cfg(test)]
pub const MUTANT_COMMUTE: Rule = rule("mutant-and-commutes", "(&& ?a ?b)", "(&& ?b ?a)");

/// A rule's two sides read, with their operators, and not yet compiled:
/// compiling a pattern costs several times reading it, and a rule no
/// e-graph of a run can match never needs it.
pub struct Read {
    pub rule: Rule,
    pub sides: (PatternAst<Node>, PatternAst<Node>),
    pub operators: Sides,
    /// The edges its left side needs in the e-graph to match.
    pub needs: Needs,
}

impl Read {
    pub fn new(rule: &Rule) -> Read {
        let (lhs, rhs) = (pattern_ast(rule.lhs), pattern_ast(rule.rhs));
        let operators = (Operators::of_ast(&lhs), Operators::of_ast(&rhs));
        Read {
            rule: *rule,
            needs: Needs::of(&lhs),
            sides: (lhs, rhs),
            operators,
        }
    }

    /// The rule as an egg rewrite.
    pub fn compiled(&self) -> Rewrite<Node, ConstantFold> {
        let (lhs, rhs) = &self.sides;
        rewrite_of(
            &self.rule,
            Pattern::new(lhs.clone()),
            Pattern::new(rhs.clone()),
        )
    }
}

fn rewrite_of(rule: &Rule, lhs: Pattern<Node>, rhs: Pattern<Node>) -> Rewrite<Node, ConstantFold> {
    let result = match rule.condition {
        None => Rewrite::new(rule.name, lhs, rhs),
        Some(condition) => {
            let check = move |egraph: &mut EGraph<Node, ConstantFold>, _: Id, subst: &Subst| {
                condition.holds(|var| {
                    let class = &egraph[*subst.get(var.parse::<Var>().ok()?)?];
                    Some(Matched {
                        constant: class.data.clone(),
                        conditional: class.nodes.iter().all(|n| matches!(n, Node::Ite(_))),
                    })
                })
            };
            Rewrite::new(
                rule.name,
                lhs,
                ConditionalApplier {
                    condition: check,
                    applier: rhs,
                },
            )
        }
    };
    result.unwrap_or_else(|error| panic!("rule {} is malformed: {error}", rule.name))
}

/// A rule side as egg's pattern tree; the rules are constants of this
/// file, checked by a test.
pub fn pattern_ast(source: &str) -> PatternAst<Node> {
    source
        .parse()
        .unwrap_or_else(|error| panic!("pattern `{source}` is malformed: {error:?}"))
}
