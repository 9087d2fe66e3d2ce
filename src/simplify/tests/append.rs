//! Appending a conjunct to a plain conjunction ([`crate::simplify::append`])
//! and merging two comparisons on one form give what the whole normal form
//! gives, on random guard sequences built as an exploration builds path
//! conditions: one guard at a time, with one memo for all of them (so the
//! comparisons the normal form wrote are read back from it).

use super::generate::{Kind, Shape};
use crate::mutants::{self, Mutant};
use crate::simplify::bounds::NormalForm;
use quickcheck::{Arbitrary, Gen};
use symex_semantics::term::{BinOp, Sort, Term, TermKind, UnOp};

const SEED: u64 = 0x5EED_2021;

/// A guard: a random boolean term, a ground one (`0 < 3`, decided by
/// the normal form), or a comparison of one of several
/// linear forms with a small constant (many forms, so that most
/// appends keep the conjunction plain), possibly negated.
fn guard(g: &mut Gen) -> Term {
    match u8::arbitrary(g) % 8 {
        0 | 1 => return Shape::generate(g, Kind::Bool, 4).term(),
        2 => return Term::binary(BinOp::Lt, Term::int(0), Term::int(3)),
        _ => {}
    }
    let int = |name: &str| Term::var(name, Sort::Int);
    let forms = [
        int("x"),
        int("y"),
        int("z"),
        int("w"),
        Term::binary(BinOp::Add, int("x"), int("y")),
        Term::binary(
            BinOp::Sub,
            int("z"),
            Term::select(Term::var("a", Sort::int_array()), Term::int(0)),
        ),
        Term::binary(BinOp::Mul, Term::int(2), int("w")),
    ];
    let ops = BinOp::COMPARISONS;
    let form = g.choose(&forms).cloned().unwrap_or_else(|| int("x"));
    let op = *g.choose(&ops).unwrap_or(&BinOp::Lt);
    let comparison = Term::binary(op, form, Term::int(i64::from(i8::arbitrary(g) % 4)));
    if bool::arbitrary(g) {
        Term::unary(UnOp::Not, comparison)
    } else {
        comparison
    }
}

/// The next guard of a sequence: a fresh one, a disjunction of an
/// earlier one and a fresh one, or a disjunct of an earlier disjunction
/// (so that disjunctions meet the disjuncts that absorb them).
fn next_guard(g: &mut Gen, earlier: &[Term]) -> Term {
    let before = g.choose(earlier).cloned();
    match (u8::arbitrary(g) % 4, before) {
        (0, Some(before)) => Term::or(before, guard(g)),
        (1, Some(before)) => match before.kind() {
            TermKind::Binary(BinOp::Or, left, _) => left.clone(),
            _ => guard(g),
        },
        _ => guard(g),
    }
}

/// The property on 2 000 random guard sequences: each append's result,
/// its number of appends of a disjunction that kept the conjunction
/// plain, and of disjunctions the normal form did not keep as they stand
/// (absorbed by a disjunct, or the whole false).
fn appends_agree() -> Result<(usize, usize), String> {
    let mut g = Gen::from_size_and_seed(12, SEED);
    let (mut appends, mut plain, mut merged) = (0, 0, 0);
    let (mut disjunctions, mut dropped) = (0, 0);
    for _ in 0..2_000 {
        let mut normal = NormalForm::new();
        let mut condition = normal.normalise(&guard(&mut g));
        let mut earlier = vec![condition.clone()];
        for _ in 0..usize::from(u8::arbitrary(&mut g) % 8) {
            let next = normal.normalise(&next_guard(&mut g, &earlier));
            earlier.push(next.clone());
            let whole = NormalForm::new().normalise(&Term::binary(
                BinOp::And,
                condition.clone(),
                next.clone(),
            ));
            plain += usize::from(normal.plain.contains_key(&condition.id()));
            merged += usize::from(normal.merged(&condition, &next).is_some());
            let appended = normal.conjoin(&condition, &next);
            if appended != whole {
                return Err(format!(
                    "appending {next} to {condition} gives {appended}, the normal form {whole} (seed {SEED:#x})"
                ));
            }
            let disjunction = matches!(next.kind(), TermKind::Binary(BinOp::Or, ..));
            disjunctions += usize::from(disjunction && normal.plain.contains_key(&appended.id()));
            dropped += usize::from(disjunction && !appended.conjuncts().contains(&next));
            appends += 1;
            condition = appended;
        }
    }
    // The check means something only if the plain and the merged
    // (two comparisons on one form) cases are common.
    if plain * 3 <= appends || merged * 100 <= appends {
        return Err(format!(
            "{plain} of {appends} appends were to a plain conjunction, {merged} merged two comparisons"
        ));
    }
    Ok((disjunctions, dropped))
}

#[test]
fn appending_a_conjunct_agrees_with_the_whole_normal_form() {
    let (disjunctions, dropped) = appends_agree().unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{disjunctions} disjunctions appended plain, {dropped} not kept");
    assert!(
        disjunctions >= 100 && dropped >= 20,
        "disjunctions kept plain and not kept (absorbed, or the whole false) both occur: {disjunctions}, {dropped}"
    );
}

#[test]
fn a_disjunction_appended_beside_its_disjunct_is_caught() {
    mutants::set(Some(Mutant::DisjunctionAbsorptionIgnored));
    let found = appends_agree();
    mutants::set(None);
    assert!(
        found.is_err(),
        "the absorbed disjunction goes unnoticed: {found:?}"
    );
}
