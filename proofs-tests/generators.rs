//! Random well-typed basic and recursive programs, valuations and
//! symbolic-path choices, each with a shrinker that yields strictly smaller
//! values.
//!
//! Programs draw their variables from a small pool (`x`, `y`, `z: int`,
//! `b: bool`, `a: int[]`) so that aliasing happens, their constants from
//! −3..3 (factors of `*` are constants), and their size from an explicit
//! budget of statements and an expression depth. They use every construct
//! of §2 and §2.1 and the extensions: assignments, nested `if`s, `while`
//! loops (each with its own `LoopId`, numbered in source order), array
//! reads and writes, `len(a)`, `assert`/`assume`, conditional expressions,
//! `&&`/`||`/`==>`, `/` and `%`; recursive programs add procedures with
//! parameters, (mutually) recursive and nested calls, calls under
//! conditions and loops inside procedure bodies.
//!
//! They aim at the corners: integers biased to the boundaries (0, ±1,
//! `len(a)`, `len(a) − 1`, negative indices, zero divisors), array reads
//! in every operand of `&&`, `||`, `==>` and conditionals — often behind a
//! bounds test that is right, or off by one — and counting loops that
//! start from a known value, so runs enter loops, iterate them and nest them.

use quickcheck::{Arbitrary, Gen};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use symex::theorems::inputs::{random_inputs, smaller_valuations};
use symex::theorems::run::{symbolic_run, SymbolicRun};
use symex::theorems::simulation::{Simulation, SymbolicConfig};
use symex_semantics::eval::{ShowValuation, Valuation};
use symex_semantics::program::{Block, Language, LoopId, Procedure, Program, Stmt};
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind, UnOp};

/// The fewest and the most statements a generated program has.
const STATEMENT_BUDGET: (usize, usize) = (12, 30);
/// The deepest a generated expression is.
const EXPRESSION_DEPTH: usize = 3;
/// The deepest `if`s and `while`s nest.
const NESTING: usize = 3;

/// The variable pool, which is also every generated program's globals.
pub fn pool() -> BTreeMap<Name, Sort> {
    [
        ("x", Sort::Int),
        ("y", Sort::Int),
        ("z", Sort::Int),
        ("b", Sort::Bool),
        ("a", Sort::int_array()),
    ]
    .into_iter()
    .map(|(x, sort)| (Name::from(x), sort))
    .collect()
}

fn var(name: &str) -> Term {
    Term::var(name, pool()[name].clone())
}

/// A well-typed basic program over the pool.
#[derive(Clone)]
pub struct BasicProgram(pub Rc<Program>);

impl BasicProgram {
    fn from_main(main: Vec<Stmt>) -> BasicProgram {
        let main = number_loops(&Rc::from(main), &mut 0);
        BasicProgram(Rc::new(Program {
            language: Language::Basic,
            globals: pool(),
            procedures: BTreeMap::new(),
            classes: BTreeMap::new(),
            loops: Default::default(),
            main,
        }))
    }
}

impl fmt::Debug for BasicProgram {
    /// The program as source text, so a counterexample can be run with `symex`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.0)
    }
}

/// Gives the loops of `block` the ids `next, next + 1, …` in source order.
fn number_loops(block: &Block, next: &mut u32) -> Block {
    block
        .iter()
        .map(|stmt| match stmt {
            Stmt::While(_, b, body) => {
                let id = LoopId(*next);
                *next += 1;
                Stmt::While(id, b.clone(), number_loops(body, next))
            }
            Stmt::If(b, then, otherwise) => {
                let then = number_loops(then, next);
                Stmt::If(b.clone(), then, number_loops(otherwise, next))
            }
            other => other.clone(),
        })
        .collect()
}

/// Draws program parts from a quickcheck generator, in a scope: the local
/// variables (parameters) of the body being drawn, and the procedures it
/// may call with their arities.
pub struct Draw<'g> {
    g: &'g mut Gen,
    locals: Vec<Name>,
    procedures: Vec<(Name, usize)>,
    indices: Indices,
}

/// How often an index is certainly out of bounds (`-1`, `len(a)`).
#[derive(Clone, Copy)]
pub enum Indices {
    /// A quarter of the indices: unchecked, such a read is a default value.
    Boundary,
    /// An eighth: checked, such a read ends the run in an error, and runs
    /// that end at their first read check little of a theorem.
    MostlyInside,
}

impl<'g> Draw<'g> {
    /// Draws in the main statement of a basic program.
    pub fn new(g: &'g mut Gen, indices: Indices) -> Draw<'g> {
        Draw {
            g,
            locals: Vec::new(),
            procedures: Vec::new(),
            indices,
        }
    }
}

impl Draw<'_> {
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        usize::arbitrary(self.g) % n
    }

    /// One of the six comparisons.
    fn comparison(&mut self) -> BinOp {
        BinOp::COMPARISONS[self.below(BinOp::COMPARISONS.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// A constant in −3..3, half the time 0 or ±1.
    fn literal(&mut self) -> Term {
        if self.chance(50) {
            return Term::int(self.below(3) as i64 - 1);
        }
        Term::int(self.below(7) as i64 - 3)
    }

    /// An index into `a`, mostly at a boundary: `0`, `-1`, `len(a)`,
    /// `len(a) - 1`, or else a variable, a constant or an expression.
    fn index(&mut self, depth: usize) -> Term {
        let len = Term::len("a");
        let outside = match self.indices {
            Indices::Boundary => 25,
            Indices::MostlyInside => 12,
        };
        if self.chance(outside) {
            return if self.chance(50) { Term::int(-1) } else { len };
        }
        match self.below(6) {
            0 => Term::int(0),
            1 => Term::binary(BinOp::Sub, len, Term::int(1)),
            2 | 3 => self.int_var(),
            4 => self.literal(),
            _ => self.int(depth),
        }
    }

    /// `a[i]` for a boundary-biased `i`.
    fn read(&mut self, depth: usize) -> Term {
        let index = self.index(depth);
        Term::select(var("a"), index)
    }

    /// A test of `0 <= i < len(a)` for a read `a[i]`: right, or off by one
    /// (`i <= len(a)`), or only one side of it.
    fn bounds_test(&mut self, i: &Term) -> Term {
        let lower = Term::binary(BinOp::Le, Term::int(0), i.clone());
        let upper = Term::binary(BinOp::Lt, i.clone(), Term::len("a"));
        match self.below(6) {
            0 => Term::binary(BinOp::Le, i.clone(), Term::len("a")),
            1 => lower,
            2 => upper,
            _ => Term::and(lower, upper),
        }
    }

    /// A comparison that reads `a`, behind a bounds test through `&&`,
    /// `||` or `==>` (so only a right `δ` of each operator agrees with
    /// evaluation), or a conditional expression that reads in a branch.
    fn guarded_read(&mut self, depth: usize) -> Term {
        let i = self.index(depth.saturating_sub(1));
        let read = Term::select(var("a"), i.clone());
        let compared = Term::binary(self.comparison(), read.clone(), self.literal());
        let test = self.bounds_test(&i);
        match self.below(5) {
            0 => Term::and(test, compared),
            1 => Term::or(Term::not(test), compared),
            2 => Term::implies(test, compared),
            3 => Term::ite(test, compared, Term::bool(self.chance(50))),
            _ => Term::binary(
                self.comparison(),
                Term::ite(test, read, self.literal()),
                self.literal(),
            ),
        }
    }

    /// An integer variable in scope: a global of the pool or a parameter.
    fn int_var(&mut self) -> Term {
        let i = self.below(3 + self.locals.len());
        match i.checked_sub(3) {
            Some(local) => Term::var(&self.locals[local], Sort::Int),
            None => var(["x", "y", "z"][i]),
        }
    }

    /// An integer expression of at most `depth` levels.
    pub fn int(&mut self, depth: usize) -> Term {
        if depth == 0 || self.chance(30) {
            return match self.below(6) {
                0 | 1 => self.literal(),
                2 => Term::len("a"),
                3 => self.read(0),
                _ => self.int_var(),
            };
        }
        match self.below(9) {
            0 => Term::binary(BinOp::Add, self.int(depth - 1), self.int(depth - 1)),
            1 => Term::binary(BinOp::Sub, self.int(depth - 1), self.int(depth - 1)),
            // A constant factor: `x := x * x` in a loop would square the
            // number of digits at every iteration.
            2 => Term::binary(BinOp::Mul, self.int(depth - 1), self.literal()),
            3 => Term::binary(BinOp::Div, self.int(depth - 1), self.divisor(depth - 1)),
            4 => Term::binary(BinOp::Mod, self.int(depth - 1), self.divisor(depth - 1)),
            5 => {
                // The parser reads `-3` as a literal: never negate one.
                let operand = self.int(depth - 1);
                if matches!(operand.kind(), TermKind::Int(_)) {
                    operand
                } else {
                    Term::unary(UnOp::Neg, operand)
                }
            }
            6 => Term::ite(
                self.boolean(depth - 1),
                self.int(depth - 1),
                self.int(depth - 1),
            ),
            _ => self.read(depth - 1),
        }
    }

    /// A divisor, a third of the time `0` (SPEC §1.5: `x / 0 = 0`, `x % 0 = x`).
    fn divisor(&mut self, depth: usize) -> Term {
        if self.chance(33) {
            Term::int(0)
        } else {
            self.int(depth)
        }
    }

    /// A boolean expression of at most `depth` levels.
    pub fn boolean(&mut self, depth: usize) -> Term {
        if depth == 0 || self.chance(20) {
            return match self.below(3) {
                0 => Term::bool(self.chance(50)),
                _ => var("b"),
            };
        }
        if self.chance(20) {
            return self.guarded_read(depth);
        }
        match self.below(8) {
            0..=2 => Term::binary(self.comparison(), self.int(depth - 1), self.int(depth - 1)),
            3 => Term::binary(
                [BinOp::Eq, BinOp::Ne][self.below(2)],
                self.boolean(depth - 1),
                self.boolean(depth - 1),
            ),
            4 => Term::not(self.boolean(depth - 1)),
            5 => Term::and(self.boolean(depth - 1), self.boolean(depth - 1)),
            6 => Term::or(self.boolean(depth - 1), self.boolean(depth - 1)),
            _ => Term::implies(self.boolean(depth - 1), self.boolean(depth - 1)),
        }
    }

    /// A block of at least one statement, spending from `budget`: at the
    /// outermost level until the budget is spent, inside mostly one or two.
    fn block(&mut self, budget: &mut usize, nesting: usize) -> Vec<Stmt> {
        let more = if nesting == NESTING { 90 } else { 40 };
        let mut block = Vec::new();
        self.statement(&mut block, budget, nesting);
        while *budget > 0 && self.chance(more) {
            self.statement(&mut block, budget, nesting);
        }
        block
    }

    /// Appends one statement (a counting loop with its initialisation) to `block`.
    fn statement(&mut self, block: &mut Vec<Stmt>, budget: &mut usize, nesting: usize) {
        *budget = budget.saturating_sub(1);
        let d = EXPRESSION_DEPTH;
        let compound = nesting > 0 && *budget > 0;
        if !self.procedures.is_empty() && self.chance(20) {
            block.push(self.call());
            return;
        }
        // An `assert` or `assume` ends about half the runs through it: they
        // are rarer than the rest, so runs go on (a median of ten steps and
        // more, where the runs are not cut short by out-of-bound reads).
        let stmt = match self.below(if compound { 13 } else { 8 }) {
            0 | 1 => Stmt::Assign(self.int_var().to_string().into(), self.int(d)),
            2 => Stmt::Assign("b".into(), self.boolean(d)),
            3 | 4 => Stmt::ArrayAssign("a".into(), self.index(d - 1), self.int(d - 1)),
            5 if self.chance(35) => Stmt::Assert(self.boolean(d)),
            6 if self.chance(20) => Stmt::Assume(self.boolean(d)),
            5 | 6 => Stmt::Skip,
            7 => Stmt::Assign(self.int_var().to_string().into(), self.int(d)),
            8 | 9 => {
                let b = self.boolean(d);
                let then = self.block(budget, nesting - 1);
                let otherwise = if self.chance(50) {
                    self.block(budget, nesting - 1)
                } else {
                    Vec::new()
                };
                Stmt::If(b, Rc::from(then), Rc::from(otherwise))
            }
            10 => {
                let b = self.boolean(d);
                Stmt::While(LoopId(0), b, Rc::from(self.block(budget, nesting - 1)))
            }
            _ => return self.counting_loop(block, budget, nesting),
        };
        block.push(stmt);
    }

    /// `P(e₁, …, eₙ)`; inside a procedure the first argument is often
    /// `u - 1` for its first parameter `u`, so recursion tends to end.
    fn call(&mut self) -> Stmt {
        let which = self.below(self.procedures.len());
        let (p, arity) = self.procedures[which].clone();
        let mut args: Vec<Term> = (0..arity)
            .map(|_| {
                if self.chance(50) {
                    self.literal()
                } else {
                    self.int(1)
                }
            })
            .collect();
        if let Some(u) = self.locals.first().cloned() {
            if self.chance(60) {
                args[0] = Term::binary(BinOp::Sub, Term::var(&u, Sort::Int), Term::int(1));
            }
        }
        Stmt::Call(p, args)
    }

    /// `v := c; while v < k { S; v := v + 1 }` (the initialisation
    /// usually there): a loop that is entered, iterated a few times and
    /// left, so runs get through it (a random loop condition seldom does).
    fn counting_loop(&mut self, block: &mut Vec<Stmt>, budget: &mut usize, nesting: usize) {
        let v = self.int_var();
        let bound = Term::int(self.below(4) as i64);
        if self.chance(75) {
            block.push(Stmt::Assign(
                v.to_string().into(),
                Term::int(self.below(2) as i64),
            ));
        }
        let mut body = self.block(budget, nesting - 1);
        body.push(Stmt::Assign(
            v.to_string().into(),
            Term::binary(BinOp::Add, v.clone(), Term::int(1)),
        ));
        block.push(Stmt::While(
            LoopId(0),
            Term::binary(BinOp::Lt, v, bound),
            Rc::from(body),
        ));
    }
}

impl Drawn for BasicProgram {
    fn generate(g: &mut Gen, indices: Indices) -> BasicProgram {
        let mut draw = Draw::new(g, indices);
        let (fewest, most) = STATEMENT_BUDGET;
        let mut budget = fewest + draw.below(most - fewest + 1);
        let main = draw.block(&mut budget, NESTING);
        BasicProgram::from_main(main)
    }
}

impl Arbitrary for BasicProgram {
    fn arbitrary(g: &mut Gen) -> BasicProgram {
        BasicProgram::generate(g, Indices::Boundary)
    }

    /// Programs with a statement left out, a compound statement replaced
    /// by one of its blocks, or an expression replaced by a smaller one.
    fn shrink(&self) -> Box<dyn Iterator<Item = BasicProgram>> {
        let smaller: Vec<BasicProgram> = smaller_blocks(&self.0.main)
            .into_iter()
            .map(BasicProgram::from_main)
            .collect();
        Box::new(smaller.into_iter())
    }
}

/// The procedures a recursive program may declare, and their parameters.
const PROCEDURES: [(&str, &[&str]); 2] = [("p", &["u"]), ("q", &["u", "v"])];

/// A well-typed program with (mutually) recursive procedures over the pool:
/// calls in the main statement, in procedure bodies, under conditions and
/// in loops; parameters `u`, `v` are the local variables.
#[derive(Clone)]
pub struct RecursiveProgram(pub Rc<Program>);

impl RecursiveProgram {
    fn from_parts(procedures: BTreeMap<Name, Procedure>, main: Vec<Stmt>) -> RecursiveProgram {
        // Loops are numbered as the parser does: procedures by name, then main.
        let mut next = 0;
        let procedures = procedures
            .into_iter()
            .map(|(name, p)| {
                (
                    name,
                    Procedure {
                        body: number_loops(&p.body, &mut next),
                        ..p
                    },
                )
            })
            .collect();
        let main = number_loops(&Rc::from(main), &mut next);
        RecursiveProgram(Rc::new(Program {
            language: Language::Recursive,
            globals: pool(),
            procedures,
            classes: BTreeMap::new(),
            loops: Default::default(),
            main,
        }))
    }
}

impl fmt::Debug for RecursiveProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.0)
    }
}

impl Drawn for RecursiveProgram {
    fn generate(g: &mut Gen, indices: Indices) -> RecursiveProgram {
        let count = 1 + usize::arbitrary(g) % PROCEDURES.len();
        let declared: Vec<(Name, usize)> = PROCEDURES[..count]
            .iter()
            .map(|(p, params)| (Name::from(*p), params.len()))
            .collect();
        let mut procedures = BTreeMap::new();
        for (name, params) in &PROCEDURES[..count] {
            let locals = params.iter().map(|u| Name::from(*u)).collect();
            let mut draw = Draw {
                g: &mut *g,
                locals,
                procedures: declared.clone(),
                indices,
            };
            let mut budget = 1 + draw.below(STATEMENT_BUDGET.1 / 2);
            let mut body = draw.block(&mut budget, NESTING);
            if draw.chance(60) {
                // `if u > 0 { S }`: recursion on a decreasing `u` ends.
                let guard = Term::binary(BinOp::Gt, Term::var(params[0], Sort::Int), Term::int(0));
                body = vec![Stmt::If(guard, Rc::from(body), Rc::from(Vec::new()))];
            }
            let params = params.iter().map(|u| (Name::from(*u), Sort::Int)).collect();
            procedures.insert(
                Name::from(*name),
                Procedure {
                    name: Name::from(*name),
                    params,
                    body: Rc::from(body),
                },
            );
        }
        let mut draw = Draw {
            g,
            locals: Vec::new(),
            procedures: declared,
            indices,
        };
        let mut budget = 1 + draw.below(STATEMENT_BUDGET.1 / 2);
        let mut main = draw.block(&mut budget, NESTING);
        main.push(draw.call());
        RecursiveProgram::from_parts(procedures, main)
    }
}

impl Arbitrary for RecursiveProgram {
    fn arbitrary(g: &mut Gen) -> RecursiveProgram {
        RecursiveProgram::generate(g, Indices::Boundary)
    }

    /// Programs with a smaller main statement or procedure body.
    fn shrink(&self) -> Box<dyn Iterator<Item = RecursiveProgram>> {
        let program = self.0.clone();
        let mut smaller: Vec<RecursiveProgram> = smaller_blocks(&program.main)
            .into_iter()
            .map(|main| RecursiveProgram::from_parts(program.procedures.clone(), main))
            .collect();
        for (name, p) in &program.procedures {
            for body in smaller_blocks(&p.body) {
                let mut procedures = program.procedures.clone();
                procedures.insert(
                    name.clone(),
                    Procedure {
                        body: Rc::from(body),
                        ..p.clone()
                    },
                );
                smaller.push(RecursiveProgram::from_parts(
                    procedures,
                    program.main.to_vec(),
                ));
            }
        }
        Box::new(smaller.into_iter())
    }
}

/// A program for a property under `--checked-arrays`, drawn with
/// [`Indices::MostlyInside`].
#[derive(Clone)]
pub struct Checked<P>(pub P);

impl<P: fmt::Debug> fmt::Debug for Checked<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A program type drawn with a choice of [`Indices`].
pub trait Drawn: Arbitrary {
    fn generate(g: &mut Gen, indices: Indices) -> Self;
}

impl<P: Drawn> Arbitrary for Checked<P> {
    fn arbitrary(g: &mut Gen) -> Self {
        Checked(P::generate(g, Indices::MostlyInside))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(Checked))
    }
}

/// Every block one shrinking step smaller than `block`.
fn smaller_blocks(block: &[Stmt]) -> Vec<Vec<Stmt>> {
    let mut smaller = Vec::new();
    for (i, stmt) in block.iter().enumerate() {
        let splice = |replacement: &[Stmt]| {
            let mut candidate = block[..i].to_vec();
            candidate.extend(replacement.iter().cloned());
            candidate.extend(block[i + 1..].iter().cloned());
            candidate
        };
        smaller.push(splice(&[]));
        for replacement in smaller_statements(stmt) {
            smaller.push(splice(&replacement));
        }
    }
    smaller
}

/// Statement sequences one shrinking step smaller than `stmt`.
fn smaller_statements(stmt: &Stmt) -> Vec<Vec<Stmt>> {
    let block = |b: &Block| b.to_vec();
    let rc = |b: Vec<Stmt>| -> Block { Rc::from(b) };
    match stmt {
        Stmt::Assign(x, e) => smaller_terms(e)
            .into_iter()
            .map(|e| vec![Stmt::Assign(x.clone(), e)])
            .collect(),
        Stmt::Assert(e) => smaller_terms(e)
            .into_iter()
            .map(|e| vec![Stmt::Assert(e)])
            .collect(),
        Stmt::Assume(e) => smaller_terms(e)
            .into_iter()
            .map(|e| vec![Stmt::Assume(e)])
            .collect(),
        Stmt::ArrayAssign(a, i, e) => {
            let mut smaller: Vec<Vec<Stmt>> = smaller_terms(i)
                .into_iter()
                .map(|i| vec![Stmt::ArrayAssign(a.clone(), i, e.clone())])
                .collect();
            smaller.extend(
                smaller_terms(e)
                    .into_iter()
                    .map(|e| vec![Stmt::ArrayAssign(a.clone(), i.clone(), e)]),
            );
            smaller
        }
        Stmt::If(b, then, otherwise) => {
            let mut smaller = vec![block(then), block(otherwise)];
            smaller.extend(
                smaller_terms(b)
                    .into_iter()
                    .map(|b| vec![Stmt::If(b, then.clone(), otherwise.clone())]),
            );
            smaller.extend(
                smaller_blocks(then)
                    .into_iter()
                    .map(|t| vec![Stmt::If(b.clone(), rc(t), otherwise.clone())]),
            );
            smaller.extend(
                smaller_blocks(otherwise)
                    .into_iter()
                    .map(|o| vec![Stmt::If(b.clone(), then.clone(), rc(o))]),
            );
            smaller
        }
        Stmt::While(id, b, body) => {
            let mut smaller = vec![block(body)];
            smaller.extend(
                smaller_terms(b)
                    .into_iter()
                    .map(|b| vec![Stmt::While(*id, b, body.clone())]),
            );
            smaller.extend(
                smaller_blocks(body)
                    .into_iter()
                    .map(|s| vec![Stmt::While(*id, b.clone(), rc(s))]),
            );
            smaller
        }
        _ => Vec::new(),
    }
}

/// Whether a generated term is boolean.
fn is_boolean(term: &Term) -> bool {
    match term.kind() {
        TermKind::Bool(_) | TermKind::Unary(UnOp::Not, _) => true,
        TermKind::Var(_, sort) => *sort == Sort::Bool,
        TermKind::Binary(op, ..) => op.is_boolean(),
        TermKind::Ite(_, then, _) => is_boolean(then),
        _ => false,
    }
}

/// Terms strictly smaller than `term` of the same sort: a constant, or one
/// of its subterms.
pub fn smaller_terms(term: &Term) -> Vec<Term> {
    let children = term.children();
    if children.is_empty() {
        return Vec::new();
    }
    let boolean = is_boolean(term);
    let mut smaller = vec![if boolean {
        Term::bool(false)
    } else {
        Term::int(0)
    }];
    smaller.extend(
        children
            .into_iter()
            .filter(|child| {
                is_boolean(child) == boolean
                    && !matches!(child.kind(), TermKind::Var(_, Sort::Array(_)))
            })
            .cloned(),
    );
    smaller
}

/// A random valuation of the pool: small integers, booleans, short arrays.
#[derive(Clone)]
pub struct Inputs(pub Valuation);

impl fmt::Debug for Inputs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", ShowValuation(&self.0))
    }
}

impl Arbitrary for Inputs {
    fn arbitrary(g: &mut Gen) -> Inputs {
        Inputs(random_inputs(
            &pool(),
            &mut StdRng::seed_from_u64(u64::arbitrary(g)),
        ))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Inputs>> {
        Box::new(smaller_valuations(&self.0).into_iter().map(Inputs))
    }
}

/// A random expression over the pool, integer or boolean (for Lemma 2.1).
#[derive(Clone)]
pub struct Expression(pub Term);

impl fmt::Debug for Expression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Arbitrary for Expression {
    fn arbitrary(g: &mut Gen) -> Expression {
        let mut draw = Draw::new(g, Indices::Boundary);
        let depth = 1 + draw.below(EXPRESSION_DEPTH + 1);
        Expression(if draw.chance(50) {
            draw.int(depth)
        } else {
            draw.boolean(depth)
        })
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Expression>> {
        Box::new(smaller_terms(&self.0).into_iter().map(Expression))
    }
}

/// The choices of a random symbolic path: at step `k`, successor number
/// `choices[k mod len] mod n`; at most `steps` steps.
#[derive(Clone, Debug)]
pub struct Path {
    pub choices: Vec<u8>,
    pub steps: usize,
}

/// The longest generated path.
const MAX_PATH: usize = 80;

impl Path {
    /// The index of the successor to take at step `k` among `n`.
    pub fn choice(&self, k: usize, n: usize) -> usize {
        self.choices
            .get(k % self.choices.len().max(1))
            .map_or(0, |&c| c as usize)
            % n
    }

    /// The symbolic run these choices select (every successor allowed).
    pub fn run<M: Simulation>(&self, simulation: &M) -> SymbolicRun<SymbolicConfig<M>> {
        let mut k = 0;
        symbolic_run(simulation, self.steps, |_, successors| {
            let choice = (!successors.is_empty()).then(|| self.choice(k, successors.len()));
            k += 1;
            choice
        })
    }
}

impl Arbitrary for Path {
    fn arbitrary(g: &mut Gen) -> Path {
        // Mostly long: a run ends at the end of the program anyway.
        let steps = if bool::arbitrary(g) {
            MAX_PATH / 4 + usize::arbitrary(g) % (MAX_PATH * 3 / 4 + 1)
        } else {
            usize::arbitrary(g) % (MAX_PATH + 1)
        };
        let length = 1 + usize::arbitrary(g) % 16;
        // Two thirds of the choices take the first successor, which goes on:
        // into the loop, the `then` branch, past the `assert`.
        let choice = |g: &mut Gen| {
            if usize::arbitrary(g) % 3 == 0 {
                u8::arbitrary(g)
            } else {
                0
            }
        };
        Path {
            choices: (0..length).map(|_| choice(g)).collect(),
            steps,
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Path>> {
        let (choices, steps) = (self.choices.clone(), self.steps);
        let shorter = [steps / 2, steps.saturating_sub(1)]
            .into_iter()
            .filter(move |&s| s < steps)
            .map(move |steps| Path {
                choices: choices.clone(),
                steps,
            });
        let simpler = self
            .choices
            .shrink()
            .filter(|c| !c.is_empty())
            .map(move |choices| Path { choices, steps });
        Box::new(shorter.chain(simpler))
    }
}
