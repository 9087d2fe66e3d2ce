//! The surface language against its desugaring (issue 34, docs/surface.md):
//! random programs with a function that returns a value (also from inside
//! loops), locals, `for`, `break`, `continue`, calls in expressions and
//! `nondet()` are run by a direct interpreter of the sugar — written here
//! from the documented meaning of each construct, sharing nothing with the
//! desugarer — and, desugared, by §3's concrete semantics on the same
//! inputs and drawn values. They must end the same way (terminated or
//! assertion-failed) with the same `x`, `y`, `z`. Every sugar construct must
//! be executed in at least a twentieth of the cases, and a desugaring whose
//! `return` or `break` does not leave must be caught.

use crate::distribution::{self, Required};
use crate::{catches, holds, Generated};
use quickcheck::{Arbitrary, Gen, TestResult};
use std::collections::BTreeMap;
use std::fmt::{self, Write};
use std::rc::Rc;
use symex_semantics::eval::Valuation;
use symex_semantics::program::Program;
use symex_semantics::recursive::concrete::Concrete;
use symex_semantics::syntax::parse_program;
use symex_semantics::system::{ConcreteConfiguration, Configuration, Options, TransitionSystem};
use symex_semantics::term::Name;
use symex_semantics::value::{ArrayValue, Value};

/// The main statement's variables, all inputs.
const GLOBALS: [&str; 3] = ["x", "y", "z"];
/// How many values `nondet()` may draw; a case that draws more is discarded.
const DRAWS: usize = 40;
/// The most steps of the core run (the programs always terminate well before).
const STEPS: usize = 50_000;

#[derive(Clone, Debug)]
enum Expr {
    Var(String),
    Int(i64),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Nondet,
    Call(Box<Expr>),
}

/// `a < b` or `a = b`.
#[derive(Clone, Debug)]
struct Cond {
    less: bool,
    left: Expr,
    right: Expr,
}

#[derive(Clone, Debug)]
enum Stmt {
    Assign(String, Expr),
    If(Cond, Vec<Stmt>, Vec<Stmt>),
    /// `for i in lo..lo + k { … }`.
    For(String, Expr, i64, Vec<Stmt>),
    Break,
    Continue,
    Return(Expr),
    Assert(Cond),
}

/// `func f(n: int): int { var t: int := init; body; return last }` and a
/// main statement over `x`, `y`, `z`.
#[derive(Clone, Debug)]
pub struct Surface {
    init: Expr,
    body: Vec<Stmt>,
    last: Expr,
    main: Vec<Stmt>,
}

/// What the generator may use where it stands.
#[derive(Clone)]
struct Scope {
    vars: Vec<String>,
    in_function: bool,
    in_loop: bool,
    loops: usize,
}

fn expr(g: &mut Gen, scope: &Scope, depth: usize) -> Expr {
    let choice = u8::arbitrary(g) % if depth == 0 { 4 } else { 9 };
    match choice {
        0 | 1 => Expr::Var(g.choose(&scope.vars).cloned().unwrap_or_default()),
        2 => Expr::Int(i64::from(u8::arbitrary(g) % 7) - 2),
        3 => Expr::Nondet,
        4 | 5 => Expr::Add(
            Box::new(expr(g, scope, depth - 1)),
            Box::new(expr(g, scope, depth - 1)),
        ),
        6 => Expr::Sub(
            Box::new(expr(g, scope, depth - 1)),
            Box::new(expr(g, scope, depth - 1)),
        ),
        // The function calls nothing: no recursion, so every run ends.
        _ if scope.in_function => Expr::Nondet,
        _ => Expr::Call(Box::new(expr(g, scope, depth - 1))),
    }
}

fn cond(g: &mut Gen, scope: &Scope) -> Cond {
    Cond {
        less: bool::arbitrary(g),
        left: expr(g, scope, 1),
        right: expr(g, scope, 1),
    }
}

fn block(g: &mut Gen, scope: &Scope, depth: usize) -> Vec<Stmt> {
    let n = 1 + usize::arbitrary(g) % 3;
    (0..n).map(|_| stmt(g, scope, depth)).collect()
}

fn stmt(g: &mut Gen, scope: &Scope, depth: usize) -> Stmt {
    let assignable: Vec<String> = scope
        .vars
        .iter()
        .filter(|x| !x.starts_with('i'))
        .cloned()
        .collect();
    loop {
        match u8::arbitrary(g) % 10 {
            0..=2 => {
                let x = g.choose(&assignable).cloned().unwrap_or_default();
                return Stmt::Assign(x, expr(g, scope, 2));
            }
            3 | 4 if depth > 0 => {
                return Stmt::If(
                    cond(g, scope),
                    block(g, scope, depth - 1),
                    block(g, scope, depth - 1),
                )
            }
            5 if depth > 0 => {
                let i = format!("i{}", scope.loops);
                let mut inner = scope.clone();
                inner.vars.push(i.clone());
                inner.in_loop = true;
                inner.loops += 1;
                let k = i64::from(u8::arbitrary(g) % 4);
                return Stmt::For(i, expr(g, scope, 1), k, block(g, &inner, depth - 1));
            }
            // A `return` inside a loop of the function is the rarest
            // construct to reach: it gets half of the function's breaks
            // and continues.
            6 | 7 if scope.in_function && scope.in_loop && bool::arbitrary(g) => {
                return Stmt::Return(expr(g, scope, 1))
            }
            6 if scope.in_loop => return Stmt::Break,
            7 if scope.in_loop => return Stmt::Continue,
            8 if scope.in_function => return Stmt::Return(expr(g, scope, 1)),
            9 => return Stmt::Assert(cond(g, scope)),
            _ => {}
        }
    }
}

impl Arbitrary for Surface {
    fn arbitrary(g: &mut Gen) -> Surface {
        let function = Scope {
            vars: vec!["n".into(), "t".into(), "x".into()],
            in_function: true,
            in_loop: false,
            loops: 10,
        };
        let main = Scope {
            vars: GLOBALS.iter().map(|x| x.to_string()).collect(),
            in_function: false,
            in_loop: false,
            loops: 0,
        };
        Surface {
            init: expr(g, &function, 1),
            body: block(g, &function, 2),
            last: expr(g, &function, 1),
            main: block(g, &main, 3),
        }
    }
}

/// A random sugared program, desugared: the programs of the theorem
/// properties written in the surface language
/// ([`crate::theorems_on_desugared_programs`]). Every generated program
/// desugars (the property below fails otherwise), so drawing again on an
/// error only guards the generator.
#[derive(Clone)]
pub struct Desugared(pub Rc<Program>);

impl fmt::Debug for Desugared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.0)
    }
}

impl Arbitrary for Desugared {
    fn arbitrary(g: &mut Gen) -> Desugared {
        loop {
            if let Ok(program) = parse_program(&Surface::arbitrary(g).source()) {
                return Desugared(Rc::new(program));
            }
        }
    }
}

impl Generated for Desugared {
    fn program(&self) -> Rc<Program> {
        self.0.clone()
    }
}

// The surface text.

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Var(x) => write!(f, "{x}"),
            Expr::Int(n) => write!(f, "({n})"),
            Expr::Add(a, b) => write!(f, "({a} + {b})"),
            Expr::Sub(a, b) => write!(f, "({a} - {b})"),
            Expr::Nondet => write!(f, "nondet()"),
            Expr::Call(a) => write!(f, "f({a})"),
        }
    }
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = if self.less { "<" } else { "=" };
        write!(f, "{} {op} {}", self.left, self.right)
    }
}

fn write_block(out: &mut String, stmts: &[Stmt]) {
    out.push_str("{ ");
    write_sequence(out, stmts);
    out.push_str(" }");
}

fn write_sequence(out: &mut String, stmts: &[Stmt]) {
    for (i, s) in stmts.iter().enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        let _ = match s {
            Stmt::Assign(x, e) => write!(out, "{x} := {e}"),
            Stmt::If(c, then, otherwise) => {
                let _ = write!(out, "if {c} ");
                write_block(out, then);
                out.push_str(" else ");
                write_block(out, otherwise);
                Ok(())
            }
            Stmt::For(i, lo, k, body) => {
                let _ = write!(out, "for {i} in {lo}..({lo} + {k}) ");
                write_block(out, body);
                Ok(())
            }
            Stmt::Break => write!(out, "break"),
            Stmt::Continue => write!(out, "continue"),
            Stmt::Return(e) => write!(out, "return {e}"),
            Stmt::Assert(c) => write!(out, "assert {c}"),
        };
    }
}

impl Surface {
    fn source(&self) -> String {
        let mut out = format!("var x: int;\nvar y: int;\nvar z: int;\nfunc f(n: int): int {{\n    var t: int := {};\n    ", self.init);
        write_sequence(&mut out, &self.body);
        let _ = write!(out, ";\n    return {}\n}}\n", self.last);
        write_sequence(&mut out, &self.main);
        out.push('\n');
        out
    }
}

// The direct interpreter of the sugar.

/// How a statement ends: normally, or leaving its loop or function.
enum Flow {
    Normal,
    Break,
    Continue,
    Return(i64),
}

/// An expression whose calls were made and draws drawn.
enum Pure {
    Var(String),
    Int(i64),
    Add(Box<Pure>, Box<Pure>),
    Sub(Box<Pure>, Box<Pure>),
}

/// Why a run stopped before its end.
enum Stop {
    AssertionFailed,
    /// More `nondet()` values drawn than the case supplies.
    OutOfDraws,
}

struct Interpreter<'s> {
    program: &'s Surface,
    globals: BTreeMap<String, i64>,
    draws: &'s [i64],
    drawn: usize,
}

type Locals = BTreeMap<String, i64>;

impl Interpreter<'_> {
    fn read(&self, locals: &Locals, x: &str) -> i64 {
        locals
            .get(x)
            .or_else(|| self.globals.get(x))
            .copied()
            .unwrap_or(0)
    }

    fn write(&mut self, locals: &mut Locals, x: &str, v: i64) {
        match locals.get_mut(x) {
            Some(slot) => *slot = v,
            None => {
                self.globals.insert(x.to_string(), v);
            }
        }
    }

    /// `e`'s value. Its calls and draws come first, left to right, each
    /// call's argument just before the call; the variables are read after
    /// all of them (docs/surface.md, "Evaluation order").
    fn eval(&mut self, locals: &mut Locals, e: &Expr) -> Result<i64, Stop> {
        let pure = self.made(locals, e)?;
        Ok(self.value(locals, &pure))
    }

    /// `e` with its calls made and its draws drawn, in order.
    fn made(&mut self, locals: &mut Locals, e: &Expr) -> Result<Pure, Stop> {
        Ok(match e {
            Expr::Var(x) => Pure::Var(x.clone()),
            Expr::Int(n) => Pure::Int(*n),
            Expr::Add(a, b) => Pure::Add(
                Box::new(self.made(locals, a)?),
                Box::new(self.made(locals, b)?),
            ),
            Expr::Sub(a, b) => Pure::Sub(
                Box::new(self.made(locals, a)?),
                Box::new(self.made(locals, b)?),
            ),
            Expr::Nondet => {
                let v = *self.draws.get(self.drawn).ok_or(Stop::OutOfDraws)?;
                self.drawn += 1;
                distribution::record_case("nondet drawn");
                Pure::Int(v)
            }
            Expr::Call(a) => {
                let n = self.eval(locals, a)?;
                distribution::record_case("call");
                Pure::Int(self.call(n)?)
            }
        })
    }

    /// The value of an expression without calls or draws.
    fn value(&self, locals: &Locals, e: &Pure) -> i64 {
        match e {
            Pure::Var(x) => self.read(locals, x),
            Pure::Int(n) => *n,
            Pure::Add(a, b) => self.value(locals, a) + self.value(locals, b),
            Pure::Sub(a, b) => self.value(locals, a) - self.value(locals, b),
        }
    }

    fn holds(&mut self, locals: &mut Locals, c: &Cond) -> Result<bool, Stop> {
        let left = self.made(locals, &c.left)?;
        let right = self.made(locals, &c.right)?;
        let (a, b) = (self.value(locals, &left), self.value(locals, &right));
        Ok(if c.less { a < b } else { a == b })
    }

    fn call(&mut self, n: i64) -> Result<i64, Stop> {
        let program = self.program;
        let mut locals = Locals::new();
        locals.insert("n".into(), n);
        locals.insert("t".into(), 0);
        let t = self.eval(&mut locals, &program.init)?;
        locals.insert("t".into(), t);
        if let Flow::Return(v) = self.block(&mut locals, &program.body)? {
            distribution::record_case("early return");
            return Ok(v);
        }
        self.eval(&mut locals, &program.last)
    }

    fn block(&mut self, locals: &mut Locals, stmts: &[Stmt]) -> Result<Flow, Stop> {
        for s in stmts {
            let flow = self.stmt(locals, s)?;
            if !matches!(flow, Flow::Normal) {
                return Ok(flow);
            }
        }
        Ok(Flow::Normal)
    }

    fn stmt(&mut self, locals: &mut Locals, s: &Stmt) -> Result<Flow, Stop> {
        match s {
            Stmt::Assign(x, e) => {
                let v = self.eval(locals, e)?;
                self.write(locals, x, v);
            }
            Stmt::If(c, then, otherwise) => {
                let branch = if self.holds(locals, c)? {
                    then
                } else {
                    otherwise
                };
                return self.block(locals, branch);
            }
            Stmt::For(i, lo, k, body) => {
                // `hi` is evaluated once, after `lo`; `continue` steps the
                // counter, `break` and `return` do not.
                let lo_value = self.eval(locals, lo)?;
                // A local of the function, a global of the main statement
                // (whose run has no locals).
                if locals.is_empty() {
                    self.globals.insert(i.clone(), lo_value);
                } else {
                    locals.insert(i.clone(), lo_value);
                }
                let hi = self.eval(locals, lo)? + k;
                while self.read(locals, i) < hi {
                    match self.block(locals, body)? {
                        Flow::Break => {
                            distribution::record_case("break");
                            break;
                        }
                        Flow::Return(v) => {
                            distribution::record_case("return in a loop");
                            return Ok(Flow::Return(v));
                        }
                        Flow::Continue => distribution::record_case("continue"),
                        Flow::Normal => {}
                    }
                    let next = self.read(locals, i) + 1;
                    self.write(locals, i, next);
                }
            }
            Stmt::Break => return Ok(Flow::Break),
            Stmt::Continue => return Ok(Flow::Continue),
            Stmt::Return(e) => return Ok(Flow::Return(self.eval(locals, e)?)),
            Stmt::Assert(c) => {
                if !self.holds(locals, c)? {
                    return Err(Stop::AssertionFailed);
                }
            }
        }
        Ok(Flow::Normal)
    }
}

/// The outcome and final `x`, `y`, `z` of the sugar run directly, or `None`
/// when it draws more values than `draws` holds.
fn interpret(program: &Surface, inputs: &[i64; 3], draws: &[i64]) -> Option<(String, Vec<i64>)> {
    let mut interpreter = Interpreter {
        program,
        globals: GLOBALS
            .iter()
            .map(|x| x.to_string())
            .zip(inputs.iter().copied())
            .collect(),
        draws,
        drawn: 0,
    };
    let outcome = match interpreter.block(&mut Locals::new(), &program.main) {
        Ok(_) => "terminated",
        Err(Stop::AssertionFailed) => "assertion-failed",
        Err(Stop::OutOfDraws) => return None,
    };
    let values = GLOBALS.iter().map(|x| interpreter.globals[*x]).collect();
    Some((outcome.to_string(), values))
}

/// The inputs of the core `program`: `x`, `y`, `z` and the drawn values as
/// given, every other global at its type's default.
pub fn valuation(program: &Program, inputs: &SurfaceInputs) -> Valuation {
    let mut globals = Valuation::new();
    for (x, sort) in &program.globals {
        globals.insert(x.clone(), Value::default_of(sort));
    }
    for (x, v) in GLOBALS.iter().zip(inputs.values) {
        globals.insert(Name::from(*x), Value::Int(v.into()));
    }
    if program.globals.contains_key("nondet_ints") {
        let draws = &inputs.draws;
        let mut sequence = ArrayValue::constant(draws.len().into(), Value::Int(0.into()));
        for (k, v) in draws.iter().enumerate() {
            sequence = sequence.set(k.into(), Value::Int((*v).into()));
        }
        globals.insert(Name::from("nondet_ints"), Value::Array(sequence));
    }
    globals
}

/// The outcome and final `x`, `y`, `z` of §3's concrete semantics on the
/// core, from `globals`.
pub fn run_core(core: &Program, globals: Valuation) -> Result<(String, Vec<i64>), String> {
    let program = Rc::new(core.clone());
    let concrete = Concrete::new(program.clone(), Options::default())?;
    let mut config = concrete.initial(globals);
    for _ in 0..STEPS {
        let Some(step) = concrete.successors(&config).into_iter().next() else {
            let outcome = config
                .outcome()
                .map_or("stuck".to_string(), |o| o.to_string());
            let state = config.global_state();
            let values = GLOBALS
                .iter()
                .map(|x| {
                    state
                        .get(x)
                        .and_then(|v| v.as_int())
                        .and_then(|v| i64::try_from(v).ok())
                        .unwrap_or(i64::MIN)
                })
                .collect();
            return Ok((outcome, values));
        };
        config = step.next;
    }
    Err(format!("no end after {STEPS} steps"))
}

/// Random inputs and drawn values for a case.
#[derive(Clone, Debug)]
pub struct SurfaceInputs {
    values: [i64; 3],
    draws: Vec<i64>,
}

impl Arbitrary for SurfaceInputs {
    fn arbitrary(g: &mut Gen) -> SurfaceInputs {
        let small = |g: &mut Gen| i64::from(u8::arbitrary(g) % 12) - 4;
        SurfaceInputs {
            values: [small(g), small(g), small(g)],
            draws: (0..DRAWS).map(|_| small(g)).collect(),
        }
    }
}

/// The sugar, run directly and desugared (then edited by `mutate`, the
/// identity for the real desugaring), agree.
fn agree(program: &Surface, inputs: &SurfaceInputs, mutate: fn(&str) -> String) -> TestResult {
    let source = program.source();
    let Some(expected) = interpret(program, &inputs.values, &inputs.draws) else {
        return TestResult::discard();
    };
    let core = match parse_program(&source)
        .map(|p| mutate(&p.to_string()))
        .and_then(|core| parse_program(&core))
    {
        Ok(core) => core,
        Err(e) => return TestResult::error(format!("{source}\ndoes not desugar: {e}")),
    };
    distribution::record_case(&expected.0);
    match run_core(&core, valuation(&core, inputs)) {
        Ok(got) if got == expected => TestResult::passed(),
        Ok(got) => TestResult::error(format!(
            "{source}\n{inputs:?}: sugar {expected:?}, core {got:?}\ncore:\n{core}"
        )),
        Err(why) => TestResult::error(format!("{source}\n{inputs:?}: {why}")),
    }
}

fn real(program: Surface, inputs: SurfaceInputs) -> TestResult {
    agree(&program, &inputs, str::to_string)
}

/// Flags of `prefix` that are never set: `return` (or `break`) does not leave.
fn never_set(core: &str, prefix: &str) -> String {
    core.lines()
        .map(|line| {
            let trimmed = line.trim_start();
            if trimmed.starts_with(prefix) && trimmed.ends_with(":= true") {
                line.replace(":= true", ":= false")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn return_does_not_leave(program: Surface, inputs: SurfaceInputs) -> TestResult {
    agree(&program, &inputs, |core| never_set(core, "returned"))
}

fn break_does_not_leave(program: Surface, inputs: SurfaceInputs) -> TestResult {
    agree(&program, &inputs, |core| never_set(core, "broke"))
}

type Property = fn(Surface, SurfaceInputs) -> TestResult;

fn required() -> Required {
    Required::frequent(&[
        "terminated",
        "assertion-failed",
        "call",
        "nondet drawn",
        "break",
        "continue",
        "early return",
        "return in a loop",
    ])
}

#[test]
fn sugared_programs_run_directly_agree_with_their_desugared_core() {
    holds(
        "sugared programs agree with their desugared core",
        &required(),
        real as Property,
    );
}

#[test]
fn a_return_that_does_not_leave_is_caught() {
    catches(
        "a desugaring whose return does not leave",
        &required(),
        return_does_not_leave as Property,
    );
}

#[test]
fn a_break_that_does_not_leave_is_caught() {
    catches(
        "a desugaring whose break does not leave",
        &required(),
        break_does_not_leave as Property,
    );
}
