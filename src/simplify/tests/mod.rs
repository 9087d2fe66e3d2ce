//! What the simplifier makes of King's (1976) displayed simplifications and
//! of other terms a reader meets, plus its limits and explanations;
//! `soundness` checks that it never changes a meaning.

mod append;
mod context;
mod edges;
mod folded_branch;
pub(crate) mod generate;
mod implication;
mod known;
mod operators;
mod plain;
mod scheduler;
mod shared;
mod soundness;
mod unmatched;

use super::{explain, simplify, Limits, Simplifier, Stop, RULES};
use crate::commands::simplify::parse_expression;
use symex_semantics::term::{BinOp, Sort, Term};

fn simplified(source: &str) -> String {
    let term = parse_expression(source).expect("the expression parses");
    simplify(&term).to_string()
}

#[test]
fn kings_simplifications_are_reproduced() {
    // King (1976), with his symbols as variables (α2 as a2, α1 as a1).
    assert_eq!(simplified("a2 >= 1 && !(a2 >= 2)"), "a2 = 1");
    assert_eq!(simplified("a > 0 && a > 5"), "a > 5");
    assert_eq!(simplified("!(X < A[3]) && X != A[3]"), "X > A[3]");
    assert_eq!(simplified("(N + N + 4) / 2"), "N + 2");
    assert_eq!(simplified("1 + (N + 1) / 2 - 1"), "(N + 1) / 2");
    assert_eq!(simplified("1 * a1"), "a1");
    // SEARCH(A, N, N+4, X): (2N + 1) / 2 is N for every N (SPEC §1.5).
    assert_eq!(simplified("(N + (N + 1)) / 2"), "N");
    // SUM: X + Y - B with X = A + B, Y = B + C.
    assert_eq!(simplified("a + b + (b + c) - b"), "a + b + c");
}

#[test]
fn like_terms_are_collected_in_canonical_order() {
    assert_eq!(simplified("n + n + 4"), "2 * n + 4");
    assert_eq!(simplified("4 + n + n"), "2 * n + 4");
    assert_eq!(simplified("y + x - y - x"), "0");
    assert_eq!(simplified("1 * x * x * x"), "x * x * x");
    assert_eq!(simplified("x - 2 * x"), "-x");
    assert_eq!(simplified("(2 * x + y + 5) / 2"), "x + (y + 1) / 2 + 2");
    assert_eq!(simplified("(2 * x + 5) % 2"), "1");
}

#[test]
fn division_and_modulo_by_zero_follow_spec() {
    assert_eq!(simplified("x / 0"), "0");
    assert_eq!(simplified("x % 0"), "x");
    assert_eq!(simplified("7 % 0 = 7"), "true");
    assert_eq!(simplified("-7 / 2"), "-4");
    assert_eq!(simplified("-7 % 2"), "1");
    assert_eq!(simplified("7 % -2"), "1");
}

#[test]
fn comparisons_and_connectives_are_normalised() {
    assert_eq!(simplified("!(0 < n)"), "n <= 0");
    assert_eq!(simplified("x + 1 > 3 && x <= 3"), "x = 3");
    assert_eq!(simplified("x > 3 && x < 2"), "false");
    assert_eq!(simplified("x >= 0 && x != 0 && x != 2 && x <= 2"), "x = 1");
    assert_eq!(simplified("2 * x + 4 = 3"), "false");
    assert_eq!(simplified("!(l <= u && !found)"), "l > u || found");
    assert_eq!(simplified("b = true && (b ==> false)"), "false");
    assert_eq!(simplified("if x > 0 then x else x fi + 0 * y"), "x");
    assert_eq!(
        simplified("if !b then 1 else 2 fi"),
        "if b then 2 else 1 fi"
    );
}

#[test]
fn conjuncts_keep_their_order() {
    assert_eq!(simplified("y > 0 && x > 0 && y > 3"), "y > 3 && x > 0");
    assert_eq!(simplified("b && x > 0 && b"), "b && x > 0");
}

#[test]
fn array_reads_over_updates_are_resolved() {
    let a = Term::var("a", Sort::int_array());
    let store = Term::store(a.clone(), Term::int(1), Term::var("v", Sort::Int));
    assert_eq!(
        simplify(&Term::select(store.clone(), Term::int(1))).to_string(),
        "v"
    );
    assert_eq!(
        simplify(&Term::select(store, Term::int(2))).to_string(),
        "a[2]"
    );
}

#[test]
fn every_rule_parses_and_compiles() {
    let mutants = [
        super::rules::MUTANT,
        super::rules::MUTANT_ITE,
        super::rules::MUTANT_COMMUTE,
    ];
    for rule in RULES.iter().chain(&mutants) {
        super::rules::Read::new(rule).compiled();
    }
}

#[test]
fn the_stop_reason_is_recorded() {
    let term = parse_expression("(x + 1) * (y + 2) > 3 ==> !(x < y)").expect("parses");
    assert_eq!(explain(&term).stop, Stop::Saturated);
    let mut tight = Simplifier::with_rules(
        RULES,
        Limits {
            iterations: 1,
            nodes: 10_000,
            rounds: 4,
        },
    );
    assert_eq!(tight.run(&term, false).stop, Stop::IterationLimit(1));
    let mut small = Simplifier::with_rules(
        RULES,
        Limits {
            iterations: 10,
            nodes: 5,
            rounds: 4,
        },
    );
    assert!(matches!(small.run(&term, false).stop, Stop::NodeLimit(_)));
}

/// `if a = 1 then x1 else if a = 2 then x2 … else x0 fi`, `depth` deep.
fn conditional_chain(a: &str, x: &str, depth: usize) -> String {
    (1..=depth).rev().fold(format!("{x}0"), |rest, k| {
        format!("if {a} = {k} then {x}{k} else {rest} fi")
    })
}

#[test]
fn a_comparison_is_pushed_into_one_conditional_operand_not_both() {
    assert_eq!(simplified("if c then 1 else 0 fi = 0"), "!c");
    assert_eq!(simplified("x = if c then x else y fi"), "c || x = y");
    // Aliasing conditionals nest on both sides of an object equality; pushed
    // into both, their branches multiply and the e-graph runs into its limits.
    let source = format!(
        "{} = {}",
        conditional_chain("a", "x", 5),
        conditional_chain("b", "y", 5)
    );
    let term = parse_expression(&source).expect("parses");
    assert_eq!(Simplifier::new().run(&term, false).stop, Stop::Saturated);
}

#[test]
fn explanations_name_each_rule_and_end_at_the_result() {
    let term = parse_expression("a2 >= 1 && !(a2 >= 2)").expect("parses");
    let result = explain(&term);
    let steps = result.steps.expect("asked for");
    let rules: Vec<&str> = steps.iter().map(|step| step.rule.as_str()).collect();
    assert_eq!(rules, ["not-ge", "normal-form"]);
    assert_eq!(
        steps.last().map(|step| step.term.clone()),
        Some(result.term)
    );
}

#[test]
fn the_incremental_simplifier_agrees_on_path_conditions() {
    let conditions = [
        "y >= 1 && y >= 2 && y >= 3 && !(y >= 4)",
        "a[3] != x && !(a[3] < x) && a[1] = x",
    ];
    for source in conditions {
        let term = parse_expression(source).expect("parses");
        assert_eq!(
            Simplifier::new().simplify(&term),
            simplify(&term),
            "{source}"
        );
    }
}

#[test]
fn a_hundred_thousand_deep_sum_simplifies_without_recursion() {
    let mut term = Term::int(0);
    for _ in 0..100_000 {
        term = Term::binary(BinOp::Add, term, Term::var("x", Sort::Int));
    }
    let condition = Term::binary(BinOp::Lt, term, Term::var("n", Sort::Int));
    assert_eq!(simplify(&condition).to_string(), "n > 100000 * x");
}

#[test]
fn guards_are_folded_without_an_egraph() {
    let mut folder = super::GuardFolder::default();
    let mut folded = |source: &str| {
        folder
            .fold(&parse_expression(source).expect("parses"))
            .to_string()
    };
    assert_eq!(folded("1 + 5 < 7 && !false"), "true");
    assert_eq!(folded("false && x > 0"), "false");
    assert_eq!(folded("!(a[(1 + 5) / 2] < x)"), "x <= a[3]");
    assert_eq!(folded("x > 0"), "x > 0");
    assert_eq!(folded("n - 1 - 1 + 5 > 0"), "n + 3 > 0");
    assert_eq!(folded("i + 2 - 2 < n"), "i < n");
    assert_eq!(folded("i - 1 - 1 < n"), "i - 2 < n");
    assert_eq!(folded("1 + i + 1 < n"), "1 + i + 1 < n");
}

/// Path conditions of `paper-examples/oo`, built as the unfolding builds them.
mod objects {
    use super::{simplify, Simplifier};
    use symex_semantics::term::{BinOp, Sort, Term, UnOp};

    fn object(name: &str) -> Term {
        Term::var(name, Sort::Object("C".into()))
    }

    fn both_ways(term: &Term) -> String {
        let whole = simplify(term).to_string();
        assert_eq!(
            Simplifier::new().simplify(term).to_string(),
            whole,
            "the incremental simplifier disagrees on {term}"
        );
        whole
    }

    #[test]
    fn a_conditional_compared_is_pushed_into_its_branches() {
        // clauses/field_same_field.sx: after `y.f := 0; x.f := 1`, `y.f = 0` reads
        // `if y = x then 1 else 0 fi = 0`, which holds exactly when `x != y`.
        let (x, y, nil) = (object("x"), object("y"), Term::nil("C"));
        let read = Term::ite(
            Term::binary(BinOp::Eq, y.clone(), x.clone()),
            Term::int(1),
            Term::int(0),
        );
        let assertion = Term::or(
            Term::binary(BinOp::Eq, read, Term::int(0)),
            Term::binary(BinOp::Eq, x.clone(), y.clone()),
        );
        let term = Term::and(
            Term::and(
                Term::binary(BinOp::Ne, x, nil.clone()),
                Term::binary(BinOp::Ne, y, nil),
            ),
            assertion,
        );
        assert_eq!(both_ways(&term), "x != nil && y != nil");
    }

    #[test]
    fn object_equality_has_one_operand_order() {
        let (x, y, nil) = (object("x"), object("y"), Term::nil("C"));
        let term = Term::and(
            Term::binary(BinOp::Ne, y.clone(), x.clone()),
            Term::binary(BinOp::Eq, x.clone(), y),
        );
        assert_eq!(both_ways(&term), "false");
        assert_eq!(
            both_ways(&Term::binary(BinOp::Eq, nil.clone(), x.clone())),
            "x = nil"
        );
        let next = Term::field(x, "next", Sort::Object("C".into()));
        assert_eq!(
            both_ways(&Term::unary(
                UnOp::Not,
                Term::binary(BinOp::Ne, next.clone(), next)
            )),
            "true"
        );
    }

    #[test]
    fn negated_literals_in_a_conjunction_are_folded() {
        // list_partition_buggy.sx at --unfold 2: `… && !false && !(0 + 1 = 0 + 1 + 1)`.
        let (l, nil) = (object("l"), Term::nil("C"));
        let one = Term::binary(BinOp::Add, Term::int(0), Term::int(1));
        let two = Term::binary(BinOp::Add, one.clone(), Term::int(1));
        let term = Term::and(
            Term::and(
                Term::binary(BinOp::Ne, l, nil),
                Term::unary(UnOp::Not, Term::bool(false)),
            ),
            Term::unary(UnOp::Not, Term::binary(BinOp::Eq, one, two)),
        );
        assert_eq!(both_ways(&term), "l != nil");
    }
}
