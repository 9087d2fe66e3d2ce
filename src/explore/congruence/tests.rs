//! The procedure agrees with Z3 whenever it answers: `Sat` ⇒ Z3 finds the
//! query satisfiable and the model satisfies it under the evaluator,
//! `Unsat` ⇒ Z3 finds it unsatisfiable; and it answers every query of its
//! fragment whose reads the evaluator can follow. On random conjunctions
//! in the fragment (and a few outside), and on the queries the explorer
//! asks while exploring random oo programs, under wp and forward. Each
//! deliberately broken rule (congruence forgotten, disequalities
//! forgotten, a strict bound made stricter) is caught, and sat, unsat and
//! don't-know all occur. The closure extended guard by guard, with pushes
//! and pops, answers as the closure of the same guards from scratch, and
//! so does the closure of an entailment question's context kept for the
//! next question about it.

use super::{decision, ClosureStack, ContextClosure, Decision};
use crate::explore::{explore, ExploreOptions};
use crate::mutants::{self, Mutant};
use crate::solver::{SatResult, Solver};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use symex_semantics::eval::eval_bool;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::oo::{forward, unfold::Unfold};
use symex_semantics::syntax::parse_program;
use symex_semantics::system::{Options, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::{BinOp, Name, Sort, Term};

/// A query [`super::decide`] answered (its conjuncts) with the answer.
type Query = (Vec<Term>, Decision);

thread_local! {
    /// The queries answered while recording.
    static RECORDED: RefCell<Option<Vec<Query>>> = const { RefCell::new(None) };
}

pub(super) fn record(conjuncts: &[Term], decision: &Decision) {
    RECORDED.with(|recorded| {
        if let Some(queries) = recorded.borrow_mut().as_mut() {
            queries.push((conjuncts.to_vec(), decision.clone()));
        }
    });
}

/// How often each answer was given.
#[derive(Debug, Default)]
struct Counts {
    sat: usize,
    unsat: usize,
    unknown: usize,
}

/// Z3's answer for the conjunction of `conjuncts`.
fn z3(conjuncts: &[Term]) -> SatResult {
    let mut solver = Solver::new(10_000);
    solver.assert(&Term::conjunction(conjuncts.iter().cloned()));
    solver.check()
}

/// Whether `decision` for `conjuncts` agrees with Z3 (and, when `complete`,
/// is an answer at all), counting the answer in `counts`.
fn agrees(
    conjuncts: &[Term],
    answer: &Decision,
    complete: bool,
    counts: &mut Counts,
) -> Result<(), String> {
    let query = Term::conjunction(conjuncts.iter().cloned());
    match answer {
        Decision::Sat(model) => {
            counts.sat += 1;
            if eval_bool(&query, model) != Ok(true) {
                return Err(format!("the model {model:?} does not satisfy {query}"));
            }
            if z3(conjuncts) != SatResult::Sat {
                return Err(format!("sat, but Z3 does not say so: {query}"));
            }
        }
        Decision::Unsat => {
            counts.unsat += 1;
            if z3(conjuncts) != SatResult::Unsat {
                return Err(format!("unsat, but Z3 does not say so: {query}"));
            }
        }
        Decision::Unknown => {
            counts.unknown += 1;
            if complete {
                return Err(format!("no answer on a query of the fragment: {query}"));
            }
        }
    }
    Ok(())
}

/// Random conjunctions over the references `p`, `q`, `r` (of class `C`,
/// fields `next: C` and `val: int`, none of them `nil`) and the integers
/// `a`, `b`: equalities of references, `nil`, field reads of `p`, `q`,
/// `r`, reads of updated fields and conditionals; bounds between integers
/// and `val` reads; disjunctions and negations. One in twenty has a
/// product, outside the fragment.
struct Conjunctions {
    random: StdRng,
}

impl Conjunctions {
    fn object(&self) -> Sort {
        Sort::Object("C".into())
    }

    fn variable(&mut self) -> Term {
        let name = ["p", "q", "r"][self.random.gen_range(0..3)];
        Term::var(name, self.object())
    }

    /// A reference that is never `nil`: a variable or a choice between two.
    fn object_term(&mut self) -> Term {
        if self.random.gen_bool(0.8) {
            self.variable()
        } else {
            let condition = self.reference_atom();
            Term::ite(condition, self.variable(), self.variable())
        }
    }

    fn reference(&mut self) -> Term {
        let next = || Term::field_array("next", "C", Sort::Object("C".into()));
        match self.random.gen_range(0..6) {
            0 | 1 => self.variable(),
            2 => Term::nil("C"),
            3 => Term::field(self.object_term(), "next", self.object()),
            4 => Term::select(next(), self.variable()),
            _ => Term::select(
                Term::store(next(), self.variable(), self.variable()),
                self.variable(),
            ),
        }
    }

    fn reference_atom(&mut self) -> Term {
        let (l, r) = (self.reference(), self.reference());
        let op = if self.random.gen_bool(0.5) {
            BinOp::Eq
        } else {
            BinOp::Ne
        };
        Term::binary(op, l, r)
    }

    fn integer(&mut self) -> Term {
        let term = match self.random.gen_range(0..5) {
            0 => Term::var("a", Sort::Int),
            1 => Term::var("b", Sort::Int),
            2 => Term::int(self.random.gen_range(-2..3)),
            _ => Term::field(self.object_term(), "val", Sort::Int),
        };
        if self.random.gen_bool(0.2) {
            Term::binary(BinOp::Add, term, Term::int(self.random.gen_range(-2..3)))
        } else {
            term
        }
    }

    fn atom(&mut self) -> Term {
        if self.random.gen_bool(0.5) {
            return self.reference_atom();
        }
        let ops = [
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
            BinOp::Eq,
            BinOp::Ne,
        ];
        let op = ops[self.random.gen_range(0..ops.len())];
        Term::binary(op, self.integer(), self.integer())
    }

    fn conjunct(&mut self) -> Term {
        match self.random.gen_range(0..6) {
            0 => Term::or(self.atom(), self.atom()),
            1 => Term::not(self.atom()),
            _ => self.atom(),
        }
    }

    /// A query and whether it is in the fragment.
    fn query(&mut self) -> (Vec<Term>, bool) {
        let mut conjuncts: Vec<Term> = ["p", "q", "r"]
            .iter()
            .map(|x| Term::binary(BinOp::Ne, Term::var(x, self.object()), Term::nil("C")))
            .collect();
        for _ in 0..self.random.gen_range(1..6) {
            conjuncts.push(self.conjunct());
        }
        let outside = self.random.gen_bool(0.05);
        if outside {
            let product = Term::binary(
                BinOp::Mul,
                Term::var("a", Sort::Int),
                Term::var("b", Sort::Int),
            );
            conjuncts.push(Term::binary(BinOp::Gt, product, Term::int(1)));
        }
        (conjuncts, !outside)
    }
}

/// The property on `cases` random conjunctions.
fn random_conjunctions(cases: usize) -> Result<Counts, String> {
    let mut generator = Conjunctions {
        random: StdRng::seed_from_u64(37),
    };
    let mut counts = Counts::default();
    for _ in 0..cases {
        let (conjuncts, complete) = generator.query();
        agrees(&conjuncts, &decision(&conjuncts), complete, &mut counts)?;
    }
    Ok(counts)
}

#[test]
fn random_conjunctions_agree_with_z3() {
    let counts = random_conjunctions(400).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("random conjunctions: {counts:?}");
    assert!(
        counts.sat >= 50 && counts.unsat >= 50 && counts.unknown >= 5,
        "every answer occurs: {counts:?}"
    );
}

#[test]
fn each_broken_rule_is_caught() {
    for mutant in [
        Mutant::CongruenceForgotten,
        Mutant::DisequalityForgotten,
        Mutant::StrictBoundTooStrict,
    ] {
        mutants::set(Some(mutant));
        let found = random_conjunctions(400);
        mutants::set(None);
        assert!(found.is_err(), "{mutant:?} goes unnoticed: {found:?}");
    }
}

/// A random oo program over `p`, `q` of class `C` and an integer `a`:
/// field writes, reads into variables, and branches on aliasing, `nil`
/// and the fields' values.
fn oo_program(random: &mut StdRng, statements: usize) -> String {
    let reference = |random: &mut StdRng| ["p", "q"][random.gen_range(0..2)];
    let mut body = Vec::new();
    for _ in 0..statements {
        let (x, y) = (reference(random), reference(random));
        let k = random.gen_range(0..3);
        let statement = match random.gen_range(0..8) {
            0 => format!("{x}.val := {k}"),
            1 => format!("{x}.val := a + {k}"),
            2 => format!("{x}.next := {y}"),
            3 => format!("if {x}.next != nil {{ {x} := {x}.next }}"),
            4 => format!("if {x} = {y}.next {{ a := a + 1 }} else {{ a := a - 1 }}"),
            5 => format!("if {x}.val < a {{ a := {y}.val }}"),
            6 => format!("if {x}.val = {y}.val + {k} {{ a := 0 }}"),
            _ => format!("if {x}.val * a > 2 {{ a := 1 }}"),
        };
        body.push(statement);
    }
    format!(
        "class C {{ field next: C; field val: int; }}\nvar p: C, q: C, a: int;\n{}",
        body.join(";\n")
    )
}

/// The queries the explorer gives the procedure on `system`, with its answers.
fn queries_of<S>(system: &S, initial: S::Config, globals: &BTreeMap<Name, Sort>) -> Vec<Query>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    RECORDED.with(|recorded| *recorded.borrow_mut() = Some(Vec::new()));
    explore(system, initial, globals, &ExploreOptions::default());
    RECORDED.with(|recorded| recorded.borrow_mut().take().unwrap_or_default())
}

#[test]
fn queries_of_random_oo_programs_agree_with_z3() {
    let mut random = StdRng::seed_from_u64(5);
    let mut counts = Counts::default();
    for _ in 0..30 {
        let source = oo_program(&mut random, 6);
        let program = Rc::new(parse_program(&source).expect("the generated program parses"));
        let wp = Unfold::new(program.clone(), Options::default(), ThisRule::Fresh);
        let fwd = forward::forward(program.clone(), Options::default(), ThisRule::Fresh);
        let mut queries = queries_of(&wp, wp.initial(), &program.globals);
        queries.extend(queries_of(&fwd, fwd.initial(), &program.globals));
        for (conjuncts, answer) in queries {
            if let Err(e) = agrees(&conjuncts, &answer, false, &mut counts) {
                panic!("{e}\nin\n{source}");
            }
        }
    }
    eprintln!("queries of random oo programs: {counts:?}");
    assert!(
        counts.sat >= 20 && counts.unsat >= 20 && counts.unknown >= 5,
        "every answer occurs: {counts:?}"
    );
}

/// How the incremental closure fared against the closure from scratch.
#[derive(Debug, Default)]
struct Walk {
    counts: Counts,
    pops: usize,
    /// Queries only the closure from scratch answered (a different case order).
    unanswered: usize,
}

/// The property on a random walk of `steps` pushes and pops of random
/// guards (after `p`, `q`, `r` non-`nil`): after each push, the stack's
/// answer is the answer from scratch whenever both answer.
fn random_walk(steps: usize) -> Result<Walk, String> {
    let mut generator = Conjunctions {
        random: StdRng::seed_from_u64(41),
    };
    let (base, _) = generator.query();
    let base = &base[..3];
    let mut stack = ClosureStack::default();
    let mut guards: Vec<Term> = Vec::new();
    for guard in base {
        stack.push(guard);
        guards.push(guard.clone());
    }
    let mut walk = Walk::default();
    for _ in 0..steps {
        if guards.len() > base.len() && generator.random.gen_bool(0.4) {
            let keep = generator.random.gen_range(base.len()..guards.len());
            stack.truncate(keep);
            guards.truncate(keep);
            walk.pops += 1;
            continue;
        }
        let guard = generator.conjunct();
        stack.push(&guard);
        guards.push(guard);
        let incremental = stack.top().decide(&guards);
        let scratch = decision(&guards);
        match (&incremental, &scratch) {
            (Decision::Sat(model), _)
                if eval_bool(&Term::conjunction(guards.clone()), model) != Ok(true) =>
            {
                return Err(format!("the model {model:?} does not satisfy {guards:?}"));
            }
            (Decision::Sat(_), Decision::Sat(_)) => walk.counts.sat += 1,
            (Decision::Unsat, Decision::Unsat) => walk.counts.unsat += 1,
            (Decision::Unknown, Decision::Unknown) => walk.counts.unknown += 1,
            (Decision::Unknown, _) => walk.unanswered += 1,
            (Decision::Sat(_), Decision::Unknown) => walk.counts.sat += 1,
            (Decision::Unsat, Decision::Unknown) => walk.counts.unsat += 1,
            _ => {
                return Err(format!(
                    "incrementally {incremental:?}, from scratch {scratch:?}: {guards:?}"
                ))
            }
        }
        if matches!(scratch, Decision::Unsat) {
            // An infeasible node has no children: back to its parent.
            stack.truncate(guards.len() - 1);
            guards.pop();
            walk.pops += 1;
        }
    }
    Ok(walk)
}

#[test]
fn the_closure_along_a_path_answers_as_from_scratch() {
    let walk = random_walk(1500).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("random walk: {walk:?}");
    let Walk {
        counts,
        pops,
        unanswered,
    } = &walk;
    assert!(
        counts.sat >= 100 && counts.unsat >= 100 && *pops >= 300,
        "sat, unsat and pops all occur: {walk:?}"
    );
    assert!(
        *unanswered * 20 <= counts.sat + counts.unsat,
        "the incremental closure answers (almost) whenever the closure from scratch does: {walk:?}"
    );
}

#[test]
fn a_pop_that_keeps_what_it_popped_is_caught() {
    mutants::set(Some(Mutant::ClosureNotRolledBack));
    let found = random_walk(1500);
    mutants::set(None);
    assert!(
        found.is_err(),
        "the stale closure goes unnoticed: {found:?}"
    );
}

/// How the kept closure of a context fared against the closure from scratch.
#[derive(Debug, Default)]
struct Questions {
    counts: Counts,
    reused: usize,
}

/// The property on `cases` random entailment questions, a few about each
/// random context in a row (as [`crate::simplify::InContext`] asks about
/// one conjunct's atoms), some about the previous context again: the kept
/// closure answers as [`decision`] of the context and the negated goal.
fn random_questions(cases: usize) -> Result<Questions, String> {
    let mut generator = Conjunctions {
        random: StdRng::seed_from_u64(43),
    };
    let mut closure = ContextClosure::default();
    let mut questions = Questions::default();
    let mut contexts = vec![Term::conjunction(generator.query().0)];
    for _ in 0..cases {
        if generator.random.gen_bool(0.3) {
            contexts.push(Term::conjunction(generator.query().0));
        }
        let back = generator.random.gen_range(0..contexts.len().min(2));
        let context = contexts[contexts.len() - 1 - back].clone();
        let goal = match generator.random.gen_bool(0.5) {
            true => generator.atom(),
            false => Term::not(generator.atom()),
        };
        let kept = closure.decide_negated(&context, &goal);
        let conjuncts = [context, Term::not(goal)];
        let scratch = decision(&conjuncts);
        match (&kept, &scratch) {
            (Decision::Sat(model), _)
                if eval_bool(&Term::conjunction(conjuncts.clone()), model) != Ok(true) =>
            {
                return Err(format!(
                    "the model {model:?} does not satisfy {conjuncts:?}"
                ));
            }
            (Decision::Sat(_), Decision::Sat(_)) => questions.counts.sat += 1,
            (Decision::Unsat, Decision::Unsat) => questions.counts.unsat += 1,
            (Decision::Unknown, Decision::Unknown) => questions.counts.unknown += 1,
            _ => {
                return Err(format!(
                    "with the kept closure {kept:?}, from scratch {scratch:?}: {conjuncts:?}"
                ))
            }
        }
    }
    questions.reused = closure.reused();
    Ok(questions)
}

#[test]
fn the_kept_closure_of_a_context_answers_as_from_scratch() {
    let questions = random_questions(600).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("entailment questions: {questions:?}");
    let Questions { counts, reused } = &questions;
    assert!(
        counts.sat >= 100 && counts.unsat >= 100 && *reused >= 200,
        "sat, unsat and reused closures all occur: {questions:?}"
    );
}

#[test]
fn a_closure_kept_for_another_context_is_caught() {
    mutants::set(Some(Mutant::ContextClosureKeptAcrossContexts));
    let found = random_questions(600);
    mutants::set(None);
    assert!(
        found.is_err(),
        "the other context's closure goes unnoticed: {found:?}"
    );
}

/// `n` disjunctions the literals leave undecided, `x_i < 0 || x_i > 5`:
/// every case weighs the splits still open again, so the work grows as
/// n² while the cases grow as n.
fn open_disjunctions(n: usize) -> Vec<Term> {
    (0..n)
        .map(|i| {
            let x = Term::var(&format!("x{i}"), Sort::Int);
            Term::or(
                Term::binary(BinOp::Lt, x.clone(), Term::int(0)),
                Term::binary(BinOp::Gt, x, Term::int(5)),
            )
        })
        .collect()
}

/// The search gives up past its work budget (Z3 is then asked), though far
/// within its budget of cases; below it, the same shape is decided.
#[test]
fn a_search_past_its_work_budget_answers_unknown() {
    let small = open_disjunctions(20);
    assert!(
        matches!(decision(&small), Decision::Sat(_)),
        "20 open disjunctions are decided"
    );
    let large = open_disjunctions(400);
    const { assert!(400 < super::CASE_BUDGET) };
    assert!(
        matches!(decision(&large), Decision::Unknown),
        "400 open disjunctions are past the work budget"
    );
    assert_eq!(z3(&large), SatResult::Sat);
}
