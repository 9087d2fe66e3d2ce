//! `--int i32` (docs/surface.md, "Machine integers") against C: random
//! programs over `x`, `y`, `z` with `+`, `-`, `*`, `/`, `%` and unary `-`,
//! on inputs near the ends of the range, are run by a direct interpreter
//! with Rust's `i32` and its checked operations (C's semantics, overflow and
//! division by zero an error) and, compiled with `--int i32`, by §2's
//! concrete semantics: the same outcome and final `x`, `y`, `z`. The same
//! compiled programs keep Theorems 2.3 and 2.4, so the concrete and the
//! symbolic semantics agree under machine integers too. A compilation that
//! leaves products unchecked, or keeps the core's Euclidean division, is
//! caught; overflow, division by zero, negative operands of `/` and `%`
//! and both outcomes must each occur in a twentieth of the cases.

use crate::distribution::{self, Required, BASIC_RULES};
use crate::generators::{Inputs, Path};
use crate::mutants::{AssignmentWithoutSigma, Mutated};
use crate::mutated::with_core_mutant;
use crate::surface_agrees_with_desugared::run_core;
use crate::theorem_2_3_correctness::correctness;
use crate::theorem_2_4_completeness::completeness;
use crate::{catches, holds, Generated, Real, Systems};
use quickcheck::{Arbitrary, Gen, TestResult};
use std::fmt::{self, Write};
use std::rc::Rc;
use symex_semantics::eval::Valuation;
use symex_semantics::machine::Integers;
use symex_semantics::mutants::Mutant;
use symex_semantics::program::Program;
use symex_semantics::syntax::parse_with;
use symex_semantics::system::Rule;
use symex_semantics::term::Name;
use symex_semantics::value::Value;

const GLOBALS: [&str; 3] = ["x", "y", "z"];

#[derive(Clone, Debug)]
enum Expr {
    Var(usize),
    Int(i32),
    Neg(Box<Expr>),
    Binary(char, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Debug)]
enum Stmt {
    Assign(usize, Expr),
    /// `if a < b { … } else { … }`.
    If(Expr, Expr, Vec<Stmt>, Vec<Stmt>),
    /// `assert a != b`.
    Assert(Expr, Expr),
}

/// A main statement over `x`, `y`, `z`.
#[derive(Clone, Debug)]
pub struct MachineProgram(Vec<Stmt>);

/// Values where C's arithmetic and the integers part.
const EDGES: [i32; 10] = [
    i32::MIN,
    i32::MIN + 1,
    i32::MAX,
    i32::MAX - 1,
    46341, // its square overflows
    -46341,
    65536,
    -1,
    0,
    1,
];

fn expr(g: &mut Gen, depth: usize) -> Expr {
    match u8::arbitrary(g) % if depth == 0 { 3 } else { 9 } {
        0 | 1 => Expr::Var(usize::arbitrary(g) % 3),
        2 => Expr::Int(match u8::arbitrary(g) % 8 {
            0 => i32::MAX,
            1 => 65536,
            n => i32::from(n) - 4,
        }),
        3 => Expr::Neg(Box::new(expr(g, depth - 1))),
        n => Expr::Binary(
            ['+', '-', '*', '/', '%', '*'][usize::from(n - 4)],
            Box::new(expr(g, depth - 1)),
            Box::new(expr(g, depth - 1)),
        ),
    }
}

fn block(g: &mut Gen, depth: usize) -> Vec<Stmt> {
    (0..1 + usize::arbitrary(g) % 3)
        .map(|_| match u8::arbitrary(g) % 5 {
            0 | 1 => Stmt::Assign(usize::arbitrary(g) % 3, expr(g, 2)),
            2 if depth > 0 => Stmt::If(
                expr(g, 1),
                expr(g, 1),
                block(g, depth - 1),
                block(g, depth - 1),
            ),
            _ => Stmt::Assert(expr(g, 1), expr(g, 1)),
        })
        .collect()
}

impl Arbitrary for MachineProgram {
    fn arbitrary(g: &mut Gen) -> MachineProgram {
        MachineProgram(block(g, 2))
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Var(i) => f.write_str(GLOBALS[*i]),
            Expr::Int(n) => write!(f, "({n})"),
            Expr::Neg(a) => write!(f, "-({a})"),
            Expr::Binary(op, a, b) => write!(f, "({a} {op} {b})"),
        }
    }
}

fn write_block(out: &mut String, stmts: &[Stmt]) {
    for (i, s) in stmts.iter().enumerate() {
        if i > 0 {
            out.push_str(";\n");
        }
        let _ = match s {
            Stmt::Assign(x, e) => write!(out, "{} := {e}", GLOBALS[*x]),
            Stmt::If(a, b, then, otherwise) => {
                let _ = writeln!(out, "if {a} < {b} {{");
                write_block(out, then);
                out.push_str("\n} else {\n");
                write_block(out, otherwise);
                write!(out, "\n}}")
            }
            Stmt::Assert(a, b) => write!(out, "assert {a} != {b}"),
        };
    }
}

impl MachineProgram {
    fn source(&self) -> String {
        let mut out = String::from("var x: int;\nvar y: int;\nvar z: int;\n");
        write_block(&mut out, &self.0);
        out.push('\n');
        out
    }

    fn compiled(&self) -> Result<Program, String> {
        parse_with(&self.source(), Integers::I32)
            .map(|(program, _)| program)
            .map_err(|d| format!("{}\ndoes not compile: {}", self.source(), d.message))
    }
}

/// C's `int`, directly: `None` for an overflow or a division by zero.
fn value(e: &Expr, vars: &[i32; 3]) -> Option<i32> {
    Some(match e {
        Expr::Var(i) => vars[*i],
        Expr::Int(n) => *n,
        Expr::Neg(a) => value(a, vars)?.checked_neg()?,
        Expr::Binary(op, a, b) => {
            let (a, b) = (value(a, vars)?, value(b, vars)?);
            if matches!(op, '/' | '%') {
                distribution::record_case(if a < 0 || b < 0 {
                    "negative division"
                } else {
                    "division"
                });
                if b == 0 {
                    distribution::record_case("division by zero");
                }
            }
            let result = match op {
                '+' => a.checked_add(b),
                '-' => a.checked_sub(b),
                '*' => a.checked_mul(b),
                '/' => a.checked_div(b),
                _ => a.checked_rem(b),
            };
            if result.is_none() && b != 0 {
                distribution::record_case("overflow");
            }
            result?
        }
    })
}

/// Runs `stmts`; `false` when the run failed (an assertion or an error).
fn run(stmts: &[Stmt], vars: &mut [i32; 3]) -> bool {
    for s in stmts {
        let ok = match s {
            Stmt::Assign(x, e) => value(e, vars).map(|v| vars[*x] = v).is_some(),
            Stmt::If(a, b, then, otherwise) => match (value(a, vars), value(b, vars)) {
                (Some(a), Some(b)) => run(if a < b { then } else { otherwise }, vars),
                _ => false,
            },
            Stmt::Assert(a, b) => {
                matches!((value(a, vars), value(b, vars)), (Some(a), Some(b)) if a != b)
            }
        };
        if !ok {
            return false;
        }
    }
    true
}

/// Inputs: mostly the edges of the range, sometimes small values.
#[derive(Clone, Debug)]
pub struct MachineInputs([i32; 3]);

impl Arbitrary for MachineInputs {
    fn arbitrary(g: &mut Gen) -> MachineInputs {
        let one = |g: &mut Gen| match u8::arbitrary(g) % 3 {
            0 => i32::from(u8::arbitrary(g) % 9) - 4,
            _ => *g.choose(&EDGES).unwrap_or(&0),
        };
        MachineInputs([one(g), one(g), one(g)])
    }
}

fn valuation(inputs: &MachineInputs) -> Valuation {
    GLOBALS
        .iter()
        .zip(inputs.0)
        .map(|(x, v)| (Name::from(*x), Value::Int(v.into())))
        .collect()
}

/// C's run and the compiled program's run end alike.
fn agrees_with_c(program: MachineProgram, inputs: MachineInputs) -> TestResult {
    let mut vars = inputs.0;
    let expected = if run(&program.0, &mut vars) {
        "terminated"
    } else {
        "assertion-failed"
    };
    distribution::record_case(expected);
    let expected = (expected.to_string(), vars.map(i64::from).to_vec());
    let core = match program.compiled() {
        Ok(core) => core,
        Err(why) => return TestResult::error(why),
    };
    match run_core(&core, valuation(&inputs)) {
        Ok(got) if got == expected => TestResult::passed(),
        Ok(got) => TestResult::error(format!(
            "{}\n{inputs:?}: C {expected:?}, --int i32 {got:?}\ncore:\n{core}",
            program.source()
        )),
        Err(why) => TestResult::error(why),
    }
}

type Property = fn(MachineProgram, MachineInputs) -> TestResult;

fn required() -> Required {
    Required::frequent(&[
        "terminated",
        "assertion-failed",
        "overflow",
        "division by zero",
        "negative division",
    ])
}

#[test]
fn programs_under_int_i32_run_as_c_runs_them() {
    holds(
        "--int i32 runs as C's int",
        &required(),
        agrees_with_c as Property,
    );
}

#[test]
fn unchecked_products_are_caught() {
    with_core_mutant(Mutant::ProductUnchecked, || {
        catches(
            "--int i32 without checks of products",
            &required(),
            agrees_with_c as Property,
        )
    });
}

#[test]
fn euclidean_division_under_i32_is_caught() {
    with_core_mutant(Mutant::EuclideanMachineDivision, || {
        catches(
            "--int i32 with Euclidean division",
            &required(),
            agrees_with_c as Property,
        )
    });
}

/// A random program compiled with `--int i32`, for the theorems.
#[derive(Clone)]
pub struct Compiled(Rc<Program>);

impl fmt::Debug for Compiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.0)
    }
}

impl Arbitrary for Compiled {
    fn arbitrary(g: &mut Gen) -> Compiled {
        loop {
            if let Ok(program) = MachineProgram::arbitrary(g).compiled() {
                return Compiled(Rc::new(program));
            }
        }
    }
}

impl Generated for Compiled {
    fn program(&self) -> Rc<Program> {
        self.0.clone()
    }
}

/// The rules the compiled programs run through: §2's without loops and
/// array writes, which they have none of.
fn machine_rules() -> Vec<Rule> {
    BASIC_RULES
        .into_iter()
        .filter(|rule| {
            !matches!(
                rule,
                Rule::Skip | Rule::ArrayAssignment | Rule::IterationEnter | Rule::IterationExit
            )
        })
        .collect()
}

fn theorem_2_3<M: Systems>(program: Compiled, inputs: MachineInputs, path: Path) -> TestResult {
    correctness::<M, _, false>(program, Inputs(valuation(&inputs)), path)
}

type Correctness = fn(Compiled, MachineInputs, Path) -> TestResult;

fn theorem_2_4(program: Compiled, inputs: MachineInputs) -> TestResult {
    completeness::<Real, _, false>(program, Inputs(valuation(&inputs)))
}

#[test]
fn theorem_2_3_holds_under_int_i32() {
    holds(
        "Theorem 2.3 under --int i32",
        &Required::rules(&machine_rules()).and_initial(),
        theorem_2_3::<Real> as Correctness,
    );
}

#[test]
fn theorem_2_3_under_int_i32_catches_an_assignment_without_sigma() {
    catches(
        "Theorem 2.3 under --int i32, an assignment that ignores σ",
        &Required::rules(&machine_rules()).and_initial(),
        theorem_2_3::<Mutated<AssignmentWithoutSigma>> as Correctness,
    );
}

#[test]
fn theorem_2_4_holds_under_int_i32() {
    holds(
        "Theorem 2.4 under --int i32",
        &Required::rules(&machine_rules()),
        theorem_2_4 as fn(Compiled, MachineInputs) -> TestResult,
    );
}
