//! Random well-typed programs of §4's language over the pool of
//! `oo_generators`: the classes `N` and `P`, with one or two methods of `N`
//! (`m0`, `m1`, each `(u: N, w: int)` returning an `N` or an `int`; `m1`
//! may call `m0`, so calls nest but never recurse; bodies may read the
//! globals `i` and `y`), and a main statement
//! over the globals with variable and field assignments through possibly
//! aliased references, object creation into variables and fields, method
//! calls on heap expressions (`x.next.m0(y, i)`), `if`s, loops bounded by
//! the counter `c` (`while c < k { S; c := c + 1 }`, the only assignment of
//! `c`) and `assert`s. Loops all have the id 0: neither semantics reads
//! it (it only bounds `--unfold`). Method bodies write fields of `this` and of their
//! parameters, so the callee's receiver expression often changes its
//! value during the call — where the paper's literal `this` rule differs.

use crate::oo_generators::{globals, program, Draw};
use quickcheck::{Arbitrary, Gen};
use std::fmt;
use std::rc::Rc;
use symex_semantics::oo::action::Location;
use symex_semantics::program::{LoopId, Method, Program, Stmt, Target};
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind};

/// The most statements of a main statement or a method body.
const STATEMENT_BUDGET: usize = 8;
/// The deepest expressions of statements are.
const DEPTH: usize = 2;

/// A method's name and result sort.
type Signature = (Name, Sort);

/// A generated oo program.
#[derive(Clone)]
pub struct OoProgram(pub Rc<Program>);

impl fmt::Debug for OoProgram {
    /// The program as source text, so a counterexample can be run with `symex`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.0)
    }
}

fn node() -> Sort {
    Sort::Object("N".into())
}

impl Draw<'_> {
    /// A statement: one of `block`'s, spending from `budget`; `loops`
    /// allows bounded loops and `assert` (the main statement's).
    fn statement(
        &mut self,
        budget: &mut usize,
        nesting: usize,
        calls: &[Signature],
        loops: bool,
    ) -> Stmt {
        *budget = budget.saturating_sub(1);
        let compound = nesting > 0 && *budget > 0;
        match self.below(if compound { 14 } else { 11 }) {
            0..=3 => self.write(),
            4 | 5 => self.creation(),
            6..=8 if !calls.is_empty() => self.call(calls),
            6..=8 => self.write(),
            9 if loops => Stmt::Assert(self.boolean(DEPTH)),
            9 | 10 => self.write(),
            11 | 12 => {
                let b = self.boolean(DEPTH);
                let then = self.block(budget, nesting - 1, calls, loops);
                let otherwise = if self.chance(50) {
                    self.block(budget, nesting - 1, calls, loops)
                } else {
                    Vec::new()
                };
                Stmt::If(b, Rc::from(then), Rc::from(otherwise))
            }
            _ if loops => self.bounded_loop(budget, nesting, calls),
            _ => self.write(),
        }
    }

    /// A block of at least one statement.
    fn block(
        &mut self,
        budget: &mut usize,
        nesting: usize,
        calls: &[Signature],
        loops: bool,
    ) -> Vec<Stmt> {
        let mut block = vec![self.statement(budget, nesting, calls, loops)];
        while *budget > 0 && self.chance(60) {
            block.push(self.statement(budget, nesting, calls, loops));
        }
        block
    }

    /// `x := e` or `e₀.f := e`.
    fn write(&mut self) -> Stmt {
        match self.location() {
            Location::Field(object, f, sort) => {
                Stmt::FieldAssign(object, f, self.expression(&sort, DEPTH))
            }
            Location::Var(x, sort) | Location::Element(x, sort, _) => {
                Stmt::Assign(x, self.expression(&sort, DEPTH))
            }
        }
    }

    /// Where a value of `sort` may be stored: a variable or a field.
    fn target(&mut self, sort: &Sort) -> Target {
        for _ in 0..8 {
            match self.location() {
                Location::Var(x, s) if s == *sort => return Target::Var(x),
                Location::Field(object, f, s) if s == *sort => return Target::Field(object, f),
                _ => {}
            }
        }
        Target::Field(
            self.object("N", 1),
            if *sort == Sort::Int {
                "val".into()
            } else {
                "next".into()
            },
        )
    }

    /// `h := new N`.
    fn creation(&mut self) -> Stmt {
        Stmt::New(self.target(&node()), "N".into())
    }

    /// `h := e₀.m(e₁, e₂)` for one of `calls`, on a receiver that is often a field.
    fn call(&mut self, calls: &[Signature]) -> Stmt {
        let (method, result) = calls[self.below(calls.len())].clone();
        let depth = 1 + self.below(2);
        let receiver = self.object("N", depth);
        let mut args = vec![self.object("N", 1), self.int(1)];
        if let (TermKind::Field(base, ..), true) =
            (receiver.kind(), self.chance(50) && base_is_node(&receiver))
        {
            // `x.next.m(x, …)`: the body may change what its receiver denotes.
            args[0] = base.clone();
        }
        Stmt::MethodCall {
            target: self.target(&result),
            receiver,
            class: "N".into(),
            method,
            args,
        }
    }

    /// `while c < k { S; c := c + 1 }`.
    fn bounded_loop(&mut self, budget: &mut usize, nesting: usize, calls: &[Signature]) -> Stmt {
        let c = Term::var("c", Sort::Int);
        let bound = Term::int(self.below(3) as i64);
        let mut body = self.block(budget, nesting - 1, calls, false);
        body.push(Stmt::Assign(
            "c".into(),
            Term::binary(BinOp::Add, c.clone(), Term::int(1)),
        ));
        Stmt::While(LoopId(0), Term::binary(BinOp::Lt, c, bound), Rc::from(body))
    }
}

/// Whether `e.f` is a field of an `N`.
fn base_is_node(e: &Term) -> bool {
    matches!(e.kind(), TermKind::Field(base, ..) if base.sort() == node())
}

/// `m(u: N, w: int) { S; return e }` of class `N`, which may call `calls`.
fn method(g: &mut Gen, name: &str, result: Sort, calls: &[Signature]) -> Method {
    let params = vec![(Name::from("u"), node()), (Name::from("w"), Sort::Int)];
    let mut vars = params.clone();
    vars.push(("this".into(), node()));
    // A body may read globals (never write them): the globals `i` and `y`,
    // so that some global is read only in a method (issue 29: it is an input).
    vars.push(("i".into(), Sort::Int));
    vars.push(("y".into(), node()));
    let mut draw = Draw::in_scope(g, vars, params.clone());
    let mut budget = 1 + draw.below(STATEMENT_BUDGET / 2);
    let mut body = Vec::new();
    let u = Term::var("u", node());
    if draw.chance(50) {
        // Often a write through the parameter, then uses of `this`.
        let e = draw.object("N", 1);
        body.push(Stmt::FieldAssign(u, "next".into(), e));
    }
    body.extend(draw.block(&mut budget, 1, calls, false));
    if draw.chance(50) {
        let this = Term::var("this", node());
        let w = draw.int(1);
        body.push(Stmt::FieldAssign(this, "val".into(), w));
    }
    // `return nil` (or `if b then nil else nil fi`) of a method nobody
    // calls gives the printed program no class for its `nil` (SPEC §1.4
    // infers it from use): return `this` then.
    let value = draw.expression(&result, DEPTH);
    let value = if only_nil(&value) {
        Term::var("this", node())
    } else {
        value
    };
    body.push(Stmt::Return(None, value));
    Method {
        name: name.into(),
        params,
        result,
        body: Rc::from(body),
    }
}

/// Whether every value `t` can take is `nil`, written as such.
fn only_nil(t: &Term) -> bool {
    match t.kind() {
        TermKind::Nil(_) => true,
        TermKind::Ite(_, then, otherwise) => only_nil(then) && only_nil(otherwise),
        _ => false,
    }
}

impl Arbitrary for OoProgram {
    fn arbitrary(g: &mut Gen) -> OoProgram {
        let mut classes = program().classes.clone();
        let count = 1 + usize::arbitrary(g) % 2;
        let mut calls: Vec<Signature> = Vec::new();
        for k in 0..count {
            let name: Name = format!("m{k}").into();
            let result = if bool::arbitrary(g) {
                node()
            } else {
                Sort::Int
            };
            let method = method(g, &name, result.clone(), &calls);
            if let Some(class) = classes.get_mut("N") {
                class.methods.insert(name.clone(), method);
            }
            calls.push((name, result));
        }
        let targets = globals().into_iter().filter(|(x, _)| &**x != "c").collect();
        let mut draw = Draw::in_scope(g, globals().into_iter().collect(), targets);
        let mut budget = 1 + draw.below(STATEMENT_BUDGET);
        let main = Rc::from(draw.block(&mut budget, 2, &calls, true));
        OoProgram(Rc::new(Program {
            classes,
            loops: Default::default(),
            statements: Default::default(),
            main,
            annotations: Default::default(),
            ..(*program()).clone()
        }))
    }

    /// The program with one statement of its main statement left out.
    fn shrink(&self) -> Box<dyn Iterator<Item = OoProgram>> {
        let main = &self.0.main;
        let smaller: Vec<OoProgram> = (0..main.len())
            .map(|k| {
                let statements: Vec<Stmt> = main
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .map(|(_, s)| s.clone())
                    .collect();
                OoProgram(Rc::new(Program {
                    loops: Default::default(),
                    statements: Default::default(),
                    main: Rc::from(statements),
                    annotations: Default::default(),
                    ..(*self.0).clone()
                }))
            })
            .collect();
        Box::new(smaller.into_iter())
    }
}
