//! Random terms over `x`, `y: int`, `b: bool`, `a: int[]` and `o`, `p: C`
//! (a class with fields `f: int` and `next: C`; small constants, so `/ 0`,
//! `% 0`, negative operands and `nil` are common), and random valuations
//! of those variables with random heaps of two objects.

use num_bigint::BigInt;
use quickcheck::{Arbitrary, Gen};
use symex_semantics::eval::Valuation;
use symex_semantics::heap::{Heap, Object};
use symex_semantics::term::{BinOp, Name, Sort, Term, UnOp};
use symex_semantics::value::{ArrayValue, Oid, Value};

/// The sorts of generated terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Bool,
    Array,
    Object,
}

pub const KINDS: [Kind; 4] = [Kind::Int, Kind::Bool, Kind::Array, Kind::Object];

/// The class of the generated objects.
pub const CLASS: &str = "C";

const INT_OPS: [BinOp; 5] = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod];
const CONNECTIVES: [BinOp; 4] = [BinOp::And, BinOp::Or, BinOp::Implies, BinOp::Eq];

/// A term as plain data, for printing and shrinking.
#[derive(Clone, Debug)]
pub enum Shape {
    Int(i64),
    Bool(bool),
    Var(&'static str, Kind),
    Len,
    Nil,
    Field(Box<Shape>, &'static str),
    Unary(UnOp, Box<Shape>),
    Binary(BinOp, Box<Shape>, Box<Shape>),
    Ite(Box<Shape>, Box<Shape>, Box<Shape>),
    Select(Box<Shape>, Box<Shape>),
    Store(Box<Shape>, Box<Shape>, Box<Shape>),
}

impl Shape {
    pub fn generate(g: &mut Gen, kind: Kind, budget: usize) -> Shape {
        let small = |g: &mut Gen| i64::from(i8::arbitrary(g) % 4);
        let sub = |g: &mut Gen, kind| Box::new(Shape::generate(g, kind, budget / 2));
        let leaf = budget == 0 || u8::arbitrary(g) % 4 == 0;
        match (kind, leaf) {
            (Kind::Int, true) => match u8::arbitrary(g) % 5 {
                0 => Shape::Var("x", Kind::Int),
                1 => Shape::Var("y", Kind::Int),
                2 => Shape::Len,
                _ => Shape::Int(small(g)),
            },
            (Kind::Bool, true) => match u8::arbitrary(g) % 2 {
                0 => Shape::Var("b", Kind::Bool),
                _ => Shape::Bool(bool::arbitrary(g)),
            },
            (Kind::Array, true) => Shape::Var("a", Kind::Array),
            (Kind::Object, true) => match u8::arbitrary(g) % 3 {
                0 => Shape::Var("o", Kind::Object),
                1 => Shape::Var("p", Kind::Object),
                _ => Shape::Nil,
            },
            (Kind::Int, false) => match u8::arbitrary(g) % 8 {
                7 => Shape::Field(sub(g, Kind::Object), "f"),
                0 => Shape::Unary(UnOp::Neg, sub(g, Kind::Int)),
                // A product divided by one of its factors (exact division, or `/ 0`).
                6 => {
                    let factor = sub(g, Kind::Int);
                    Shape::Binary(
                        BinOp::Div,
                        Box::new(Shape::Binary(BinOp::Mul, sub(g, Kind::Int), factor.clone())),
                        factor,
                    )
                }
                1 => Shape::Ite(sub(g, Kind::Bool), sub(g, Kind::Int), sub(g, Kind::Int)),
                2 => Shape::Select(sub(g, Kind::Array), sub(g, Kind::Int)),
                _ => Shape::Binary(
                    *g.choose(&INT_OPS).unwrap_or(&BinOp::Add),
                    sub(g, Kind::Int),
                    sub(g, Kind::Int),
                ),
            },
            (Kind::Bool, false) => match u8::arbitrary(g) % 6 {
                5 => Shape::Binary(
                    *g.choose(&[BinOp::Eq, BinOp::Ne]).unwrap_or(&BinOp::Eq),
                    sub(g, Kind::Object),
                    sub(g, Kind::Object),
                ),
                0 => Shape::Unary(UnOp::Not, sub(g, Kind::Bool)),
                1 => Shape::Ite(sub(g, Kind::Bool), sub(g, Kind::Bool), sub(g, Kind::Bool)),
                2 => Shape::Binary(
                    *g.choose(&CONNECTIVES).unwrap_or(&BinOp::And),
                    sub(g, Kind::Bool),
                    sub(g, Kind::Bool),
                ),
                _ => Shape::Binary(
                    *g.choose(&BinOp::COMPARISONS).unwrap_or(&BinOp::Lt),
                    sub(g, Kind::Int),
                    sub(g, Kind::Int),
                ),
            },
            (Kind::Array, false) => match u8::arbitrary(g) % 2 {
                0 => Shape::Store(sub(g, Kind::Array), sub(g, Kind::Int), sub(g, Kind::Int)),
                _ => Shape::Ite(sub(g, Kind::Bool), sub(g, Kind::Array), sub(g, Kind::Array)),
            },
            (Kind::Object, false) => match u8::arbitrary(g) % 2 {
                0 => Shape::Field(sub(g, Kind::Object), "next"),
                _ => Shape::Ite(
                    sub(g, Kind::Bool),
                    sub(g, Kind::Object),
                    sub(g, Kind::Object),
                ),
            },
        }
    }

    pub fn term(&self) -> Term {
        let b = |shape: &Shape| shape.term();
        match self {
            Shape::Int(n) => Term::int(*n),
            Shape::Bool(v) => Term::bool(*v),
            Shape::Var(name, Kind::Int) => Term::var(name, Sort::Int),
            Shape::Var(name, Kind::Bool) => Term::var(name, Sort::Bool),
            Shape::Var(name, Kind::Array) => Term::var(name, Sort::int_array()),
            Shape::Var(name, Kind::Object) => Term::var(name, class()),
            Shape::Len => Term::len("a"),
            Shape::Nil => Term::nil(CLASS),
            Shape::Field(o, "f") => Term::field(b(o), "f", Sort::Int),
            Shape::Field(o, f) => Term::field(b(o), f, class()),
            Shape::Unary(op, a) => Term::unary(*op, b(a)),
            Shape::Binary(op, l, r) => Term::binary(*op, b(l), b(r)),
            Shape::Ite(c, t, e) => Term::ite(b(c), b(t), b(e)),
            Shape::Select(a, i) => Term::select(b(a), b(i)),
            Shape::Store(a, i, v) => Term::store(b(a), b(i), b(v)),
        }
    }

    fn children(&self) -> Vec<&Shape> {
        match self {
            Shape::Int(_) | Shape::Bool(_) | Shape::Var(..) | Shape::Len | Shape::Nil => vec![],
            Shape::Unary(_, a) | Shape::Field(a, _) => vec![a],
            Shape::Binary(_, l, r) | Shape::Select(l, r) => vec![l, r],
            Shape::Ite(a, b, c) | Shape::Store(a, b, c) => vec![a, b, c],
        }
    }
}

/// Values for `x`, `y`, `b` and `a` (entries and length), small so that
/// operands are often `0` or negative.
#[derive(Clone, Debug)]
pub struct Inputs {
    pub x: i64,
    pub y: i64,
    pub b: bool,
    pub entries: Vec<(i64, i64)>,
    pub len: u8,
    /// `o` and `p`: `0` for `nil`, `1` or `2` for an object.
    pub references: (u8, u8),
    /// Each object's `f` and `next` (`0` for `nil`).
    pub objects: [(i64, u8); 2],
}

fn class() -> Sort {
    Sort::Object(Name::from(CLASS))
}

/// The value of reference number `r` (`0` is `nil`).
fn reference(r: u8) -> Value {
    match r {
        0 => Value::Nil,
        r => Value::Object(Oid(u32::from(r))),
    }
}

impl Arbitrary for Inputs {
    fn arbitrary(g: &mut Gen) -> Inputs {
        let small = |g: &mut Gen| i64::from(i8::arbitrary(g) % 4);
        Inputs {
            x: small(g),
            y: small(g),
            b: bool::arbitrary(g),
            entries: (0..3).map(|_| (small(g), small(g))).collect(),
            len: u8::arbitrary(g) % 4,
            references: (u8::arbitrary(g) % 3, u8::arbitrary(g) % 3),
            objects: [
                (small(g), u8::arbitrary(g) % 3),
                (small(g), u8::arbitrary(g) % 3),
            ],
        }
    }
}

impl Inputs {
    pub fn valuation(&self) -> Valuation {
        let mut array = ArrayValue::constant(BigInt::from(self.len), Value::Int(BigInt::from(0)));
        for (i, v) in &self.entries {
            array = array.set(BigInt::from(*i), Value::Int(BigInt::from(*v)));
        }
        let pairs: [(&str, Value); 6] = [
            ("o", reference(self.references.0)),
            ("p", reference(self.references.1)),
            ("x", Value::Int(BigInt::from(self.x))),
            ("y", Value::Int(BigInt::from(self.y))),
            ("b", Value::Bool(self.b)),
            ("a", Value::Array(array)),
        ];
        let mut v: Valuation = pairs
            .into_iter()
            .map(|(x, value)| (Name::from(x), value))
            .collect();
        v.heap = self.heap();
        v
    }

    fn heap(&self) -> Heap {
        self.objects
            .iter()
            .zip(1..)
            .fold(Heap::new(), |heap, (&(f, next), o)| {
                let fields = [
                    (Name::from("f"), Value::Int(BigInt::from(f))),
                    (Name::from("next"), reference(next)),
                ];
                heap.insert(
                    Oid(o),
                    Object {
                        class: Name::from(CLASS),
                        fields: fields.into_iter().collect(),
                    },
                )
            })
    }
}

/// A random boolean or integer term and inputs to evaluate it on.
#[derive(Clone, Debug)]
pub struct Case {
    pub shape: Shape,
    pub inputs: Inputs,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let kind = if bool::arbitrary(g) {
            Kind::Bool
        } else {
            Kind::Int
        };
        Case {
            shape: Shape::generate(g, kind, g.size()),
            inputs: Inputs::arbitrary(g),
        }
    }

    /// Subterms of the same sort as the whole, then smaller inputs.
    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let sort = self.shape.term().sort();
        let inputs = self.inputs.clone();
        let smaller: Vec<Case> = self
            .shape
            .children()
            .into_iter()
            .filter(|child| child.term().sort() == sort)
            .map(|child| Case {
                shape: child.clone(),
                inputs: inputs.clone(),
            })
            .collect();
        Box::new(smaller.into_iter())
    }
}
