//! Appending a conjunct to a plain conjunction ([`crate::simplify::append`])
//! and merging two comparisons on one form give what the whole normal form
//! gives, on random guard sequences built as an exploration builds path
//! conditions: one guard at a time, with one memo for all of them (so the
//! comparisons the normal form wrote are read back from it).

use super::generate::{Kind, Shape};
use crate::simplify::bounds::NormalForm;
use quickcheck::{Arbitrary, Gen};
use symex_semantics::term::{BinOp, Sort, Term, UnOp};

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

#[test]
fn appending_a_conjunct_agrees_with_the_whole_normal_form() {
    let mut g = Gen::from_size_and_seed(12, SEED);
    let (mut appends, mut plain, mut merged) = (0, 0, 0);
    for _ in 0..2_000 {
        let mut normal = NormalForm::new();
        let mut condition = normal.normalise(&guard(&mut g));
        for _ in 0..usize::from(u8::arbitrary(&mut g) % 8) {
            let next = normal.normalise(&guard(&mut g));
            let whole = NormalForm::new().normalise(&Term::binary(
                BinOp::And,
                condition.clone(),
                next.clone(),
            ));
            plain += usize::from(normal.plain.contains_key(&condition.id()));
            merged += usize::from(normal.merged(&condition, &next).is_some());
            let appended = normal.conjoin(&condition, &next);
            assert_eq!(
                appended, whole,
                "appending {next} to {condition} (seed {SEED:#x})"
            );
            appends += 1;
            condition = appended;
        }
    }
    // The check means something only if the plain and the merged
    // (two comparisons on one form) cases are common.
    assert!(
        plain * 3 > appends && merged * 100 > appends,
        "{plain} of {appends} appends were to a plain conjunction, {merged} merged two comparisons"
    );
}
