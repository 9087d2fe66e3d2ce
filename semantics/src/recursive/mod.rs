//! §3: recursive procedures with call-by-value parameters, as a symbolic
//! transition system `⟨Δ, σ, φ⟩` over a stack of closures `(τ, S)`
//! ([`symbolic`]) and a concrete one `⟨Γ, G⟩` over closures `(L, S)`
//! ([`concrete`]), written side by side, rule for rule.
//!
//! The main statement runs in the bottom closure `(id, S)`; it has no caller,
//! so a run ends when the bottom closure's statement is `ε` (only closures
//! of procedure calls are popped by *procedure return*). A basic program
//! thus takes the same steps as under §2.

pub mod concrete;
pub mod symbolic;

use crate::program::{Code, Outcome, Procedure, Program};
use crate::term::Name;

/// The recursive semantics runs programs without classes.
fn check_recursive(program: &Program) -> Result<(), String> {
    match program.classes.keys().next() {
        Some(c) => Err(format!(
            "the recursive semantics has no classes, but the program declares `{c}`"
        )),
        None => Ok(()),
    }
}

/// The declaration `P(ū) :: S` of a called procedure.
fn declaration<'p>(program: &'p Program, name: &Name) -> Option<&'p Procedure> {
    program.procedures.get(name)
}

/// Whether `x` is a local variable (a formal parameter) of `procedure`.
fn is_local(program: &Program, procedure: Option<&Name>, x: &str) -> bool {
    procedure
        .and_then(|p| program.procedures.get(p))
        .is_some_and(|p| p.params.iter().any(|(u, _)| &**u == x))
}

/// How a run with `depth` closures and top statement `top` has ended: only
/// the main closure's `ε` terminates (a called body's `ε` returns).
fn outcome(depth: usize, top: Option<&Code>) -> Option<Outcome> {
    match top {
        Some(code) if depth > 1 && code.is_empty() => None,
        Some(code) => code.outcome(),
        None => Some(Outcome::Terminated),
    }
}

#[cfg(test)]
mod tests {
    use super::{concrete, symbolic};
    use crate::eval::{eval, Valuation};
    use crate::program::{Language, Procedure, Program, Stmt};
    use crate::system::{Configuration, Options, Rule, SymbolicConfiguration, TransitionSystem};
    use crate::term::{BinOp, Sort, Term};
    use crate::value::Value;
    use std::rc::Rc;

    fn int(name: &str) -> Term {
        Term::var(name, Sort::Int)
    }

    /// `proc fact(n) { if n <= 1 { r := 1 } else { fact(n - 1); r := r * n } }; fact(x)`
    fn factorial() -> Rc<Program> {
        let n = int("n");
        let body = Stmt::If(
            Term::binary(BinOp::Le, n.clone(), Term::int(1)),
            Rc::from(vec![Stmt::Assign("r".into(), Term::int(1))]),
            Rc::from(vec![
                Stmt::Call(
                    "fact".into(),
                    vec![Term::binary(BinOp::Sub, n.clone(), Term::int(1))],
                ),
                Stmt::Assign("r".into(), Term::binary(BinOp::Mul, int("r"), n)),
            ]),
        );
        let fact = Procedure {
            name: "fact".into(),
            params: vec![("n".into(), Sort::Int)],
            body: Rc::from(vec![body]),
        };
        Rc::new(Program {
            language: Language::Recursive,
            globals: [("r".into(), Sort::Int), ("x".into(), Sort::Int)]
                .into_iter()
                .collect(),
            procedures: [("fact".into(), fact)].into_iter().collect(),
            classes: Default::default(),
            loops: Default::default(),
            main: Rc::from(vec![Stmt::Call("fact".into(), vec![int("x")])]),
        })
    }

    fn inputs(x: i64) -> Valuation {
        [("r", 0), ("x", x)]
            .into_iter()
            .map(|(name, value): (&str, i64)| (Rc::<str>::from(name), Value::Int(value.into())))
            .collect()
    }

    #[test]
    fn concrete_factorial_pushes_and_pops_closures() {
        let system = concrete::Concrete::new(factorial(), Options::default()).unwrap();
        let mut config = system.initial(inputs(5));
        let mut deepest = 0;
        while let Some(step) = system.successors(&config).pop() {
            config = step.next;
            deepest = deepest.max(config.stack.len());
        }
        assert_eq!(config.globals["r"], Value::Int(120.into()));
        assert_eq!(deepest, 6, "main and five active calls of fact");
        assert_eq!(config.stack.len(), 1);
    }

    /// The symbolic run that the concrete run from `x = 4` selects ends in a
    /// state that, under `V`, is the concrete final state (Theorems 3.5/3.6).
    #[test]
    fn symbolic_factorial_follows_the_concrete_run() {
        let program = factorial();
        let symbolic = symbolic::Symbolic::new(program.clone(), Options::default()).unwrap();
        let v = inputs(4);
        let mut config = symbolic.initial();
        let mut rules = Vec::new();
        while config.outcome().is_none() {
            let step = symbolic
                .successors(&config)
                .into_iter()
                .find(|step| eval(&step.next.phi, &v) == Ok(Value::Bool(true)))
                .expect("one successor's path condition holds under V");
            rules.push(step.rule);
            config = step.next;
        }
        let state: Valuation = config
            .global_state()
            .into_iter()
            .map(|(x, e)| (x, eval(&e, &v).unwrap()))
            .collect();
        assert_eq!(state["r"], Value::Int(24.into()));
        assert_eq!(
            rules.iter().filter(|r| **r == Rule::ProcedureCall).count(),
            4
        );
        assert_eq!(
            rules
                .iter()
                .filter(|r| **r == Rule::ProcedureReturn)
                .count(),
            4
        );
        assert_eq!(
            config.phi.to_string(),
            "!(x <= 1) && !(x - 1 <= 1) && !(x - 1 - 1 <= 1) && x - 1 - 1 - 1 <= 1"
        );
    }
}
