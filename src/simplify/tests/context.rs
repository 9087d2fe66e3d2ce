//! Conditions under themselves ([`InContext`]): the issue's examples, and
//! soundness — Z3 proves every rewritten path condition equivalent to the
//! original on random conjunctions whose conjuncts share variables — shown
//! to catch an entailment that answers "entailed" for "satisfiable", and
//! failing when too few cases are rewritten by the rules, by the solver, or
//! lose a conjunct.

use super::generate::{Kind, Shape};
use crate::commands::simplify::parse_expression;
use crate::explore::PathSolver;
use crate::mutants::Mutant;
use crate::simplify::{Entailment, InContext, Pins, Simplifier};
use crate::solver::{prove, Proof, SatResult, Solver};
use quickcheck::{Arbitrary, Gen};
use std::collections::BTreeMap;
use symex_semantics::eval::Valuation;
use symex_semantics::term::{BinOp, Term, UnOp};

const SEED: u64 = 0xC0_4E_E7;

/// The rewritten form of `source`, asking Z3.
fn under_itself(source: &str) -> String {
    let term = parse_expression(source).expect("the expression parses");
    let mut simplifier = Simplifier::new();
    let simplified = simplifier.simplify(&term);
    let mut solver = Solver::new(2_000);
    InContext::new()
        .condition(&simplified, &mut simplifier, &mut solver)
        .to_string()
}

#[test]
fn the_issues_examples_read_simply() {
    assert_eq!(
        under_itself("len(a) > 0 && n > 1 && !(len(a) > 1 && len(a) > 0)"),
        "len(a) = 1 && n > 1"
    );
    assert_eq!(
        under_itself("len(a) > 1 && n > 2 && !(len(a) > 2 && len(a) > 0)"),
        "len(a) = 2 && n > 2"
    );
    // The solver: `x > y && y > 5` entails `x > 3`, which no bound on one form shows.
    assert_eq!(
        under_itself("x > y && y > 5 && (x > 3 || z = 1)"),
        "x > y && y > 5"
    );
    // A disjunct the others contradict goes.
    assert_eq!(
        under_itself("x > y && y > 5 && (x < 2 || z = 1)"),
        "x > y && y > 5 && z = 1"
    );
    // Two conjuncts that imply each other: one stays.
    let one = under_itself("(x > 0 || y > 0) && (y > 0 || x > 1 || x = 1)");
    assert!(!one.contains("&&"), "{one}");
}

#[test]
fn a_pinned_input_is_shown_as_its_value() {
    let mut simplifier = Simplifier::new();
    let phi = parse_expression("k = 5 && n > 0").expect("parses");
    let pins = Pins::of(&phi);
    let value = parse_expression("8 * k - 35 + n").expect("parses");
    assert_eq!(
        pins.applied("r", &value, &mut simplifier).to_string(),
        "n + 5"
    );
    let own = parse_expression("k").expect("parses");
    assert_eq!(pins.applied("k", &own, &mut simplifier).to_string(), "k");
}

/// A conjunction of atoms and connectives over `x`, `y`, `b`, `len(a)`
/// (so that conjuncts share variables), with some random boolean terms.
#[derive(Clone, Debug)]
struct Conjunction(Vec<Shape>);

fn atom(g: &mut Gen) -> Shape {
    let forms = [
        Shape::Var("x", Kind::Int),
        Shape::Var("y", Kind::Int),
        Shape::Len,
    ];
    let form = g.choose(&forms).cloned().unwrap_or(Shape::Len);
    match u8::arbitrary(g) % 5 {
        0 => Shape::Var("b", Kind::Bool),
        1 => Shape::Binary(
            BinOp::Lt,
            Box::new(Shape::Var("x", Kind::Int)),
            Box::new(Shape::Var("y", Kind::Int)),
        ),
        _ => {
            let op = *g.choose(&BinOp::COMPARISONS).unwrap_or(&BinOp::Lt);
            Shape::Binary(
                op,
                Box::new(form),
                Box::new(Shape::Int(i64::from(i8::arbitrary(g) % 4))),
            )
        }
    }
}

fn conjunct(g: &mut Gen) -> Shape {
    let two = |g: &mut Gen| (Box::new(atom(g)), Box::new(atom(g)));
    match u8::arbitrary(g) % 7 {
        0 | 1 => atom(g),
        2 => {
            let (l, r) = two(g);
            Shape::Unary(UnOp::Not, Box::new(Shape::Binary(BinOp::And, l, r)))
        }
        3 => {
            let (l, r) = two(g);
            Shape::Binary(BinOp::Or, l, r)
        }
        4 => {
            let (l, r) = two(g);
            Shape::Binary(BinOp::Implies, l, r)
        }
        5 => Shape::Ite(Box::new(atom(g)), Box::new(atom(g)), Box::new(atom(g))),
        _ => Shape::generate(g, Kind::Bool, 4),
    }
}

impl Arbitrary for Conjunction {
    fn arbitrary(g: &mut Gen) -> Conjunction {
        let n = 2 + usize::from(u8::arbitrary(g) % 3);
        Conjunction((0..n).map(|_| conjunct(g)).collect())
    }
}

impl Conjunction {
    fn term(&self) -> Term {
        Term::conjunction(self.0.iter().map(Shape::term))
    }
}

/// "Entailed" whenever the goal is merely consistent with the context: the
/// mistake the property must catch.
struct Satisfiable;

impl Entailment for Satisfiable {
    fn entails(&mut self, context: &Term, goal: &Term) -> Option<bool> {
        let mut solver = Solver::new(2_000);
        solver.assert(context);
        Some(solver.check_assuming(goal) == SatResult::Sat)
    }
}

/// What became of one random conjunction.
#[derive(Default)]
struct Counts {
    cases: usize,
    rewritten: usize,
    fewer_conjuncts: usize,
    by_solver: usize,
    refuted: Vec<String>,
}

/// Rewrites random conjunctions with `entailment` and asks Z3 whether
/// each result is equivalent to the original.
fn check(entailment: &mut dyn Entailment, cases: usize) -> Counts {
    let mut g = Gen::from_size_and_seed(8, SEED);
    let mut counts = Counts::default();
    for _ in 0..cases {
        let phi = Conjunction::arbitrary(&mut g).term();
        let mut simplifier = Simplifier::new();
        let simplified = simplifier.simplify(&phi);
        let rewritten = InContext::new().condition(&simplified, &mut simplifier, entailment);
        let by_rules = InContext::new().condition(&simplified, &mut simplifier, &mut Unknown);
        counts.cases += 1;
        if rewritten == simplified {
            continue;
        }
        counts.rewritten += 1;
        counts.fewer_conjuncts +=
            usize::from(rewritten.conjuncts().len() < simplified.conjuncts().len());
        counts.by_solver += usize::from(rewritten != by_rules);
        let equivalent = Term::binary(BinOp::Eq, phi.clone(), rewritten.clone());
        if let Proof::Counterexample(_) = prove(&equivalent, &phi.free_vars(), 2_000) {
            counts.refuted.push(format!("{phi}  ~>  {rewritten}"));
        }
    }
    counts
}

/// No solver at all: only the rules rewrite.
struct Unknown;

impl Entailment for Unknown {
    fn entails(&mut self, _: &Term, _: &Term) -> Option<bool> {
        None
    }
}

/// Fails with the counterexamples Z3 found, if any.
fn none_refuted(refuted: &[String]) {
    assert!(
        refuted.is_empty(),
        "refuted (seed {SEED:#x}):\n{}",
        refuted.join("\n")
    );
}

#[test]
fn z3_proves_every_rewritten_condition_equivalent() {
    let mut solver = Solver::new(2_000);
    let counts = check(&mut solver, 200);
    none_refuted(&counts.refuted);
    assert!(
        counts.rewritten >= 50,
        "only {} of {} conditions rewritten",
        counts.rewritten,
        counts.cases
    );
    assert!(
        counts.fewer_conjuncts >= 25,
        "only {} lost a conjunct",
        counts.fewer_conjuncts
    );
    assert!(
        counts.by_solver >= 25,
        "only {} needed the solver",
        counts.by_solver
    );
    assert!(
        counts.rewritten - counts.by_solver >= 15,
        "only {} by the rules alone",
        counts.rewritten - counts.by_solver
    );
}

#[test]
fn z3_catches_an_entailment_that_means_satisfiable() {
    let counts = check(&mut Satisfiable, 200);
    assert!(
        !counts.refuted.is_empty(),
        "no counterexample to the mutant in {} cases",
        counts.cases
    );
}

/// `run` with `mutant` switched on (on this thread).
fn under<T>(mutant: Mutant, run: impl FnOnce() -> T) -> T {
    crate::mutants::set(Some(mutant));
    let result = run();
    crate::mutants::set(None);
    result
}

/// What became of random conjunctions read guard by guard.
#[derive(Default)]
struct Incremental {
    cases: usize,
    /// Those a prefix rewrote some guard under.
    by_prefix: usize,
    refuted: Vec<String>,
}

/// Each random conjunction read as the explorer reads a path: its
/// conjuncts simplified one at a time, the readable condition extended per
/// guard ([`InContext::extended`]) and rewritten once more at the leaf;
/// Z3 asked whether that equals [`InContext::condition`] of the whole.
fn check_incremental(cases: usize) -> Incremental {
    let mut g = Gen::from_size_and_seed(8, SEED);
    let mut counts = Incremental::default();
    let mut solver = Solver::new(2_000);
    for _ in 0..cases {
        let shapes = Conjunction::arbitrary(&mut g);
        let mut simplifier = Simplifier::new();
        let mut context = InContext::new();
        let (mut reported, mut readable) = (Term::bool(true), Term::bool(true));
        for shape in &shapes.0 {
            let guard = simplifier.simplify(&shape.term());
            reported = simplifier.conjoin(&reported, &guard);
            readable = context.extended(&readable, &guard, &mut simplifier, &mut solver);
        }
        let plain = InContext::new().condition(&reported, &mut simplifier, &mut solver);
        let incremental = context.condition(&readable, &mut simplifier, &mut solver);
        counts.cases += 1;
        counts.by_prefix += usize::from(readable != reported);
        let equivalent = Term::binary(BinOp::Eq, plain.clone(), incremental.clone());
        let vars = shapes.term().free_vars();
        if let Proof::Counterexample(_) = prove(&equivalent, &vars, 2_000) {
            counts.refuted.push(format!("{plain}  vs  {incremental}"));
        }
    }
    counts
}

#[test]
fn z3_proves_the_per_guard_rewriting_equivalent_to_the_whole() {
    let counts = check_incremental(200);
    none_refuted(&counts.refuted);
    assert!(
        counts.by_prefix >= 25,
        "only {} of {} rewritten under a prefix",
        counts.by_prefix,
        counts.cases
    );
}

#[test]
fn z3_catches_a_guard_rewritten_under_itself() {
    let counts = under(Mutant::ContextHoldsItsConjunct, || check_incremental(200));
    assert!(
        !counts.refuted.is_empty(),
        "no counterexample to the mutant in {} cases",
        counts.cases
    );
}

/// A reference: `o`, `p`, one of their `next` fields, or `nil`.
fn reference(g: &mut Gen) -> Shape {
    let base = |g: &mut Gen| Shape::Var(g.choose(&["o", "p"]).unwrap_or(&"o"), Kind::Object);
    match u8::arbitrary(g) % 4 {
        0 => Shape::Nil,
        1 => Shape::Field(Box::new(base(g)), "next"),
        _ => base(g),
    }
}

/// A conjunct of a heap program's path condition: aliasing and `nil`
/// tests, their disjunctions (a branch on a field written through
/// several names), negated conjunctions and conditionals, or one of the
/// integer conjuncts above.
fn heap_conjunct(g: &mut Gen) -> Shape {
    let aliasing = |g: &mut Gen| {
        let op = *g.choose(&[BinOp::Eq, BinOp::Ne]).unwrap_or(&BinOp::Eq);
        Shape::Binary(op, Box::new(reference(g)), Box::new(reference(g)))
    };
    match u8::arbitrary(g) % 6 {
        0 | 1 => aliasing(g),
        2 => {
            let n = 2 + u8::arbitrary(g) % 2;
            (1..n).fold(aliasing(g), |or, _| {
                Shape::Binary(BinOp::Or, Box::new(or), Box::new(aliasing(g)))
            })
        }
        3 => Shape::Unary(
            UnOp::Not,
            Box::new(Shape::Binary(
                BinOp::And,
                Box::new(aliasing(g)),
                Box::new(aliasing(g)),
            )),
        ),
        4 => Shape::Ite(
            Box::new(aliasing(g)),
            Box::new(aliasing(g)),
            Box::new(atom(g)),
        ),
        _ => conjunct(g),
    }
}

/// What a shortcut did on random heap conjunctions.
#[derive(Default)]
struct Spared {
    cases: usize,
    /// Questions the shortcut spared.
    spared: usize,
    /// Conditions the solver rewrote (so its answers mattered).
    by_solver: usize,
    differing: Vec<String>,
}

/// One of [`InContext`]'s shortcuts: the plain computation it is compared
/// with, and how many questions it spared.
struct Shortcut {
    plain: fn() -> InContext,
    spared: fn(&InContext) -> usize,
    /// Whether the shortcut is given a model of the condition (in every
    /// other case, a model of its negation, which must spare nothing
    /// under a context it does not satisfy).
    given_a_model: bool,
}

/// A refuted conjunct spares the questions about its disjuncts.
const DISJUNCTS: Shortcut = Shortcut {
    plain: InContext::asking_every_atom,
    spared: InContext::spared,
    given_a_model: false,
};

/// The models of refuted questions spare the questions they answer.
const MODELS: Shortcut = Shortcut {
    plain: InContext::without_models,
    spared: InContext::spared_by_models,
    given_a_model: false,
};

/// A model of the path spares the questions it answers.
const PATH_MODEL: Shortcut = Shortcut {
    plain: InContext::new,
    spared: InContext::spared_by_path_model,
    given_a_model: true,
};

/// The path's model, mended to satisfy an atom, spares the question
/// The path's model, mended at a field to satisfy an atom, spares the
/// A model of `phi` (the closure's refutation of `phi ⊨ false`).
fn model_of(phi: &Term, solver: &mut dyn Entailment) -> Option<Valuation> {
    solver.entails_or_refuting_model(phi, &Term::bool(false)).1
}

/// [`InContext::condition`] of random heap conjunctions, and
/// [`InContext::extended`] of their last conjunct under the others, with
/// the shortcuts and with `shortcut`'s plain computation, compared term
/// for term, under `solver`.
fn check_shortcut(shortcut: Shortcut, cases: usize, solver: &mut dyn Entailment) -> Spared {
    let mut g = Gen::from_size_and_seed(8, SEED);
    let mut counts = Spared::default();
    for case in 0..cases {
        let n = 3 + usize::from(u8::arbitrary(&mut g) % 3);
        let phi = Term::conjunction((0..n).map(|_| heap_conjunct(&mut g).term()));
        let mut simplifier = Simplifier::new();
        let simplified = simplifier.simplify(&phi);
        let model = match (shortcut.given_a_model, case % 2) {
            (false, _) => None,
            (true, 0) => model_of(&simplified, solver),
            (true, _) => model_of(&Term::not(simplified.clone()), solver),
        };
        let mut with_shortcut = InContext::new();
        let spared =
            with_shortcut.condition_under(&simplified, model.as_ref(), &mut simplifier, solver);
        let asked = (shortcut.plain)().condition(&simplified, &mut simplifier, solver);
        let by_rules = InContext::new().condition(&simplified, &mut simplifier, &mut Unknown);
        counts.cases += 1;
        counts.spared += (shortcut.spared)(&with_shortcut);
        counts.by_solver += usize::from(asked != by_rules);
        if spared != asked {
            counts
                .differing
                .push(format!("{phi}:  {spared}  vs  {asked}"));
        }
        // The last conjunct as a node's guard, under the others.
        let mut conjuncts = simplified.conjuncts();
        let guard = conjuncts.pop().unwrap_or_else(|| Term::bool(true));
        let prefix = Term::conjunction(conjuncts);
        let spared = with_shortcut.extended_under(
            (&prefix, &guard),
            (model.as_ref(), &[]),
            &mut simplifier,
            solver,
        );
        let asked = (shortcut.plain)().extended(&prefix, &guard, &mut simplifier, solver);
        if spared != asked {
            counts
                .differing
                .push(format!("{prefix} with {guard}:  {spared}  vs  {asked}"));
        }
    }
    counts
}

/// [`check_shortcut`] of the refuted conjuncts' shortcut, asking Z3.
fn check_spared(cases: usize) -> Spared {
    check_shortcut(DISJUNCTS, cases, &mut Solver::new(2_000))
}

/// [`check_shortcut`] of `shortcut` under the explorer's entailment (the
/// congruence closure, which has models, then Z3).
fn check_under_closure(shortcut: Shortcut, cases: usize) -> Spared {
    check_shortcut(
        shortcut,
        cases,
        &mut PathSolver::new(2_000, None, &BTreeMap::new()),
    )
}

/// Fails unless the shortcut changed nothing, spared at least `spared`
/// questions, and the solver's answers mattered in at least 15 cases.
fn assert_exact(counts: &Spared, spared: usize) {
    assert!(
        counts.differing.is_empty(),
        "the shortcut changed (seed {SEED:#x}):\n{}",
        counts.differing.join("\n")
    );
    assert!(
        counts.spared >= spared,
        "only {} questions spared in {} cases",
        counts.spared,
        counts.cases
    );
    assert!(
        counts.by_solver >= 15,
        "only {} of {} conditions rewritten by the solver",
        counts.by_solver,
        counts.cases
    );
}

/// Fails unless the mutant changed a condition.
fn assert_caught(counts: &Spared) {
    assert!(
        !counts.differing.is_empty(),
        "no difference from the mutant in {} cases",
        counts.cases
    );
}

#[test]
fn a_refuted_conjunct_spares_only_questions_whose_answer_is_no() {
    assert_exact(&check_spared(150), 60);
}

#[test]
fn sparing_every_atom_of_a_refuted_conjunct_is_caught() {
    assert_caught(&under(Mutant::RefutedConjunctSparesEveryAtom, || {
        check_spared(150)
    }));
}

#[test]
fn models_of_refuted_questions_spare_only_questions_whose_answer_is_no() {
    assert_exact(&check_under_closure(MODELS, 150), 40);
}

#[test]
fn a_model_sparing_the_other_question_is_caught() {
    assert_caught(&under(Mutant::ModelSparesTheOtherQuestion, || {
        check_under_closure(MODELS, 150)
    }));
}

#[test]
fn a_model_of_the_path_spares_only_questions_whose_answer_is_no() {
    assert_exact(&check_under_closure(PATH_MODEL, 150), 25);
}

#[test]
fn a_model_that_does_not_satisfy_the_context_is_caught() {
    assert_caught(&under(Mutant::PathModelUnchecked, || {
        check_under_closure(PATH_MODEL, 150)
    }));
}

/// A variable of a heap program: `o`, `p` or `q`.
fn variable(g: &mut Gen) -> Shape {
    Shape::Var(g.choose(&["o", "p", "q"]).unwrap_or(&"o"), Kind::Object)
}

/// `x = y` or `x != y` for a variable `x` and a variable or `nil` `y`.
fn aliasing(g: &mut Gen, op: BinOp) -> Shape {
    let other = match u8::arbitrary(g) % 4 {
        0 => Shape::Nil,
        _ => variable(g),
    };
    Shape::Binary(op, Box::new(variable(g)), Box::new(other))
}

/// A conjunct of a heap program's path to a branch: an aliasing of
/// variables or one of [`heap_conjunct`]'s.
fn prefix_conjunct(g: &mut Gen) -> Shape {
    match u8::arbitrary(g) % 3 {
        0 => heap_conjunct(g),
        _ => {
            let op = *g.choose(&[BinOp::Eq, BinOp::Ne]).unwrap_or(&BinOp::Ne);
            aliasing(g, op)
        }
    }
}

/// The guard of an `else` branch on a field written through several
/// names: `o = p || o = q || o = nil`.
fn aliasing_disjunction(g: &mut Gen) -> Shape {
    let n = 2 + u8::arbitrary(g) % 2;
    (1..n).fold(aliasing(g, BinOp::Eq), |or, _| {
        Shape::Binary(BinOp::Or, Box::new(or), Box::new(aliasing(g, BinOp::Eq)))
    })
}

/// [`InContext::extended`] of random aliasing disjunctions under random
/// heap conjunctions, given a model of the conjunctions that falsifies it where
/// there is one (in every other case, a model of their negation, which
/// must refute nothing), compared term for term with it given none, under
/// the explorer's entailment; `counted` counts what the model spared.
fn check_prefix_model(cases: usize, counted: fn(&InContext) -> usize) -> Spared {
    let mut solver = PathSolver::new(2_000, None, &BTreeMap::new());
    let mut g = Gen::from_size_and_seed(8, SEED);
    let mut counts = Spared::default();
    for case in 0..cases {
        let n = 2 + usize::from(u8::arbitrary(&mut g) % 3);
        let prefix = Term::conjunction((0..n).map(|_| prefix_conjunct(&mut g).term()));
        let mut simplifier = Simplifier::new();
        let prefix = simplifier.simplify(&prefix);
        let guard = simplifier.simplify(&aliasing_disjunction(&mut g).term());
        // As the explorer has them for an `else` branch: the parent's
        // check's, a model of the prefix, and the `then` branch's, of the
        // prefix and its guard, where there is one.
        let then = Term::and(prefix.clone(), Term::not(guard.clone()));
        let models = match case % 2 {
            0 => Vec::from_iter(
                model_of(&prefix, &mut solver)
                    .into_iter()
                    .chain(model_of(&then, &mut solver)),
            ),
            _ => Vec::from_iter(model_of(&Term::not(prefix.clone()), &mut solver)),
        };
        let mut with_model = InContext::new();
        let spared = with_model.extended_under(
            (&prefix, &guard),
            (None, &Vec::from_iter(&models)),
            &mut simplifier,
            &mut solver,
        );
        let asked = InContext::new().extended(&prefix, &guard, &mut simplifier, &mut solver);
        let by_rules = InContext::new().extended(&prefix, &guard, &mut simplifier, &mut Unknown);
        counts.cases += 1;
        counts.spared += counted(&with_model);
        counts.by_solver += usize::from(asked != by_rules);
        if spared != asked {
            counts
                .differing
                .push(format!("{prefix} with {guard}:  {spared}  vs  {asked}"));
        }
    }
    counts
}

#[test]
fn a_model_of_the_prefix_refutes_only_conjuncts_not_entailed() {
    assert_exact(
        &check_prefix_model(600, InContext::refuted_by_prefix_model),
        40,
    );
}

#[test]
fn a_mended_model_of_the_prefix_spares_only_questions_whose_answer_is_no() {
    assert_exact(&check_prefix_model(600, InContext::spared_by_mended), 60);
}

#[test]
fn a_mended_model_that_does_not_satisfy_the_context_is_caught() {
    assert_caught(&under(Mutant::MendedModelUnchecked, || {
        check_prefix_model(600, InContext::spared_by_mended)
    }));
}

#[test]
fn a_prefix_model_that_does_not_satisfy_the_context_is_caught() {
    assert_caught(&under(Mutant::PrefixModelUnchecked, || {
        check_prefix_model(600, InContext::refuted_by_prefix_model)
    }));
}

/// `o.f op x` or `o.f op k`: an integer field compared (the loop exit of
/// `while l.next != nil && v > l.next.val`).
fn field_comparison(g: &mut Gen) -> Shape {
    let op = *g.choose(&BinOp::COMPARISONS).unwrap_or(&BinOp::Lt);
    let other = match bool::arbitrary(g) {
        true => Shape::Var("x", Kind::Int),
        false => Shape::Int(i64::from(i8::arbitrary(g) % 4)),
    };
    Shape::Binary(
        op,
        Box::new(Shape::Field(Box::new(variable(g)), "f")),
        Box::new(other),
    )
}

/// A disjunction of aliasing and field comparisons, as left at a leaf.
fn leaf_disjunction(g: &mut Gen) -> Shape {
    let disjunct = |g: &mut Gen| match u8::arbitrary(g) % 3 {
        0 => field_comparison(g),
        _ => aliasing(g, BinOp::Eq),
    };
    let n = 2 + u8::arbitrary(g) % 2;
    (1..n).fold(disjunct(g), |or, _| {
        Shape::Binary(BinOp::Or, Box::new(or), Box::new(disjunct(g)))
    })
}

/// [`InContext::condition_under`] of random heap conjunctions ending in
/// [`leaf_disjunction`]s, and [`InContext::extended_under`] of the
/// disjunction under the rest, given a model of the whole (in every other
/// case, a model of its negation, which must spare nothing), compared term
/// for term with them given none, under the explorer's entailment;
/// `counted` counts what the mended models spared.
fn check_mended(cases: usize, counted: fn(&InContext) -> usize) -> Spared {
    let mut solver = PathSolver::new(2_000, None, &BTreeMap::new());
    let mut g = Gen::from_size_and_seed(8, SEED);
    let mut counts = Spared::default();
    for case in 0..cases {
        let n = 2 + usize::from(u8::arbitrary(&mut g) % 3);
        // Aliasing as often as not, so that some contexts entail the
        // disjunction (`o = p && p = q` entails `o = q || …`).
        let conjunct = |g: &mut Gen| match bool::arbitrary(g) {
            true => aliasing(g, BinOp::Eq),
            false => prefix_conjunct(g),
        };
        let prefix = Term::conjunction((0..n).map(|_| conjunct(&mut g).term()));
        let mut simplifier = Simplifier::new();
        let prefix = simplifier.simplify(&prefix);
        let guard = simplifier.simplify(&leaf_disjunction(&mut g).term());
        let phi = simplifier.conjoin(&prefix, &guard);
        let model = match case % 2 {
            0 => model_of(&phi, &mut solver),
            _ => model_of(&Term::not(phi.clone()), &mut solver),
        };
        let mut with_model = InContext::new();
        let spared = with_model.condition_under(&phi, model.as_ref(), &mut simplifier, &mut solver);
        let asked = InContext::new().condition(&phi, &mut simplifier, &mut solver);
        let by_rules = InContext::new().condition(&phi, &mut simplifier, &mut Unknown);
        counts.cases += 1;
        counts.by_solver += usize::from(asked != by_rules);
        if spared != asked {
            counts
                .differing
                .push(format!("{phi}:  {spared}  vs  {asked}"));
        }
        let spared = with_model.extended_under(
            (&prefix, &guard),
            (model.as_ref(), &[]),
            &mut simplifier,
            &mut solver,
        );
        let asked = InContext::new().extended(&prefix, &guard, &mut simplifier, &mut solver);
        if spared != asked {
            counts
                .differing
                .push(format!("{prefix} with {guard}:  {spared}  vs  {asked}"));
        }
        counts.spared += counted(&with_model);
    }
    counts
}

#[test]
fn a_fresh_copy_in_the_path_model_refutes_only_conjuncts_not_entailed() {
    assert_exact(&check_mended(3000, InContext::refuted_by_fresh_copy), 60);
}

#[test]
fn a_fresh_copy_that_does_not_satisfy_the_context_is_caught() {
    assert_caught(&under(Mutant::FreshCopyUnchecked, || {
        check_mended(3000, InContext::refuted_by_fresh_copy)
    }));
}

#[test]
fn a_mended_model_of_the_path_spares_only_questions_whose_answer_is_no() {
    assert_exact(&check_mended(600, InContext::spared_by_mended), 40);
}

#[test]
fn a_model_mended_at_a_field_spares_only_questions_whose_answer_is_no() {
    assert_exact(&check_mended(600, InContext::spared_by_mended_field), 10);
}

#[test]
fn a_mended_model_of_the_path_that_does_not_satisfy_the_context_is_caught() {
    assert_caught(&under(Mutant::MendedModelUnchecked, || {
        check_mended(600, InContext::spared_by_mended)
    }));
}
