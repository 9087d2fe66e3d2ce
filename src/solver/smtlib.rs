//! A path condition as a self-contained SMT-LIB script, for an external
//! solver (KLEE's one `.smt2` per test): the declarations and assertions Z3
//! holds for it, as Z3 prints them, then `(check-sat)` and `(get-model)`.

use super::{EncodeError, Solver};
use symex_semantics::term::Term;

impl Solver {
    /// The script deciding `condition` exactly as [`Solver::check`] would:
    /// the same encoding, with its axioms (`len(a) >= 0`), declarations
    /// first. `Err` when the condition has no translation.
    pub fn smtlib(condition: &Term) -> Result<String, EncodeError> {
        let mut solver = Solver::new(0);
        solver.assert(condition);
        if let Some(error) = solver.unsupported() {
            return Err(error.clone());
        }
        Ok(format!(
            "(set-logic ALL)\n{}(check-sat)\n(get-model)\n",
            solver.z3
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SatResult;
    use symex_semantics::term::{BinOp, Sort};

    /// Z3 reads the script back (its own SMT-LIB parser, in process) and
    /// answers as the encoding does.
    fn reread(condition: &Term) -> z3::SatResult {
        let script = Solver::smtlib(condition).expect("a translation");
        assert!(script.ends_with("(check-sat)\n(get-model)\n"), "{script}");
        let assertions = script.replace("(check-sat)\n(get-model)\n", "");
        let solver = z3::Solver::new();
        solver.from_string(assertions);
        solver.check()
    }

    fn answer(condition: &Term) -> SatResult {
        let mut solver = Solver::new(10_000);
        solver.assert(condition);
        solver.check()
    }

    #[test]
    fn the_script_declares_what_it_asserts_and_decides_as_the_tool_does() {
        let x = Term::var("x", Sort::Int);
        let a = Term::var("a", Sort::int_array());
        let o = Term::var("o", Sort::Object("C".into()));
        let field = Term::field(o.clone(), "f", Sort::Int);
        let sat = Term::and(
            Term::binary(BinOp::Gt, x.clone(), Term::int(3)),
            Term::binary(
                BinOp::Lt,
                Term::select(a.clone(), x.clone()),
                Term::len("a"),
            ),
        );
        let unsat = Term::and(
            Term::binary(BinOp::Eq, field.clone(), Term::int(1)),
            Term::and(
                Term::binary(BinOp::Eq, o.clone(), Term::nil("C")),
                Term::binary(BinOp::Eq, field, Term::int(2)),
            ),
        );
        let unsat_by_axiom = Term::binary(BinOp::Lt, Term::len("a"), Term::int(0));
        let cases = [
            (&sat, z3::SatResult::Sat, &["x", "a"][..]),
            (&unsat, z3::SatResult::Unsat, &["o"][..]),
            (&unsat_by_axiom, z3::SatResult::Unsat, &[][..]),
        ];
        for (condition, expected, variables) in cases {
            let script = Solver::smtlib(condition).expect("a translation");
            for declared in variables {
                assert!(
                    script.contains(&format!("(declare-fun {declared} ")),
                    "{declared} undeclared in {script}"
                );
            }
            assert_eq!(reread(condition), expected, "{script}");
            let tool = answer(condition);
            assert_eq!(format!("{tool:?}"), format!("{expected:?}"), "{condition}");
        }
    }
}
