//! Terms → Z3, in agreement with the concrete evaluator (`symex_semantics::eval`).
//!
//! `int` is Z3's `Int`, arrays are `Array Int Int` / `Array Int Bool` paired
//! with their length (the evaluator's arrays carry `len`, and array equality
//! compares it), `/` and `%` are SMT-LIB's Euclidean `div`/`mod` made total
//! as SPEC §1.5 asks. Objects (§4): each class is an uninterpreted sort with
//! a constant `nil.C`, and a field `f` of class `C` is an array constant
//! `C.f` from `C` to the field's sort — the field in the initial heap (path
//! conditions speak of initial values only). An array rather than a
//! function, so that §4.1's forward execution, which updates fields as
//! arrays, reads `(C.f[o] := v)[o']` in the same theory as `o'.f`. Object
//! equality is Z3's equality, so identity. Translation is memoised per term node and iterative, so it is
//! linear in the DAG size and cannot overflow the stack.

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use std::collections::HashMap;
use std::fmt;
use symex_semantics::term::{BinOp, IdMap, Name, Sort, Term, TermKind, UnOp};
use z3::ast::{Array, Bool, Dynamic, Int};
use z3::Symbol;

/// Memo entries beyond which the table is cleared before the next
/// translation: ids of dropped terms are never reused, so stale entries are
/// only dead weight.
const MEMO_LIMIT: usize = 1 << 20;

/// Why a term has no Z3 translation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// Arrays of arrays (or of objects) are not encoded.
    Unsupported(String),
    /// An operator applied to operands of the wrong sorts.
    IllTyped(String),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Unsupported(what) => write!(f, "the solver does not support {what}"),
            EncodeError::IllTyped(what) => write!(f, "ill-typed term: {what}"),
        }
    }
}

/// The sort of an array's elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Element {
    Int,
    Bool,
}

impl Element {
    fn of(sort: &Sort) -> Result<Element, EncodeError> {
        match sort {
            Sort::Int => Ok(Element::Int),
            Sort::Bool => Ok(Element::Bool),
            other => Err(EncodeError::Unsupported(format!("arrays of {other}"))),
        }
    }

    fn z3_sort(self) -> z3::Sort {
        match self {
            Element::Int => z3::Sort::int(),
            Element::Bool => z3::Sort::bool(),
        }
    }
}

/// A translated term.
#[derive(Clone, Debug)]
pub(crate) enum Encoded {
    Int(Int),
    Bool(Bool),
    /// An array and its length `len(a)` (the length of the input array it updates).
    Array {
        array: Array,
        len: Int,
        element: Element,
    },
    /// An object of the class, an element of the class's sort.
    Object {
        value: Dynamic,
        class: Name,
    },
    /// A field as an array from the objects of `class` to `sort` (§4.1).
    Field {
        array: Array,
        class: Name,
        sort: Sort,
    },
}

impl Encoded {
    /// The translation as a Z3 term of any sort, for a store's value.
    fn dynamic(&self) -> Dynamic {
        match self {
            Encoded::Int(i) => Dynamic::from_ast(i),
            Encoded::Bool(b) => Dynamic::from_ast(b),
            Encoded::Array { array, .. } | Encoded::Field { array, .. } => Dynamic::from_ast(array),
            Encoded::Object { value, .. } => value.clone(),
        }
    }
}

/// A deliberately wrong translation, to show that the properties relying on
/// Z3 agreeing with the evaluator can fail: the agreement on ground terms,
/// and King's properties through the whole explorer.
#[cfg(any(test, feature = "mutants"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutant {
    /// `%` as Z3's `rem`: the sign follows the divisor.
    ModuloIsRem,
    /// `%` without the `x % 0 = x` case: Z3 leaves `mod x 0` unspecified.
    ModuloByZeroUnspecified,
    /// `/` without the `x / 0 = 0` case: Z3 leaves `div x 0` unspecified.
    DivisionByZeroUnspecified,
    /// `/` truncating towards zero (C's division) instead of Euclidean.
    DivisionTruncates,
}

#[cfg(any(test, feature = "mutants"))]
thread_local! {
    static BROKEN: std::cell::Cell<Option<Mutant>> = const { std::cell::Cell::new(None) };
}

/// Every solver this thread creates from now on translates with `mutant`
/// (`None`: rightly), so a property can run the explorer on a broken encoding.
#[cfg(any(test, feature = "mutants"))]
pub fn break_encoding(mutant: Option<Mutant>) {
    BROKEN.with(|broken| broken.set(mutant));
}

/// The translation memo, the constants that stand for `len(a)`, and the
/// sorts and field functions of the classes met.
#[derive(Default)]
pub(crate) struct Encoder {
    memo: IdMap<Encoded>,
    lengths: HashMap<Name, Int>,
    classes: HashMap<Name, z3::Sort>,
    /// `C.f` by class and field, with the field's sort.
    fields: HashMap<(Name, Name), (Array, Sort)>,
    /// `len(a) ≥ 0` for every length constant created since the last call to
    /// [`Encoder::take_new_axioms`].
    new_axioms: Vec<Bool>,
    #[cfg(any(test, feature = "mutants"))]
    pub(crate) mutant: Option<Mutant>,
}

impl Encoder {
    /// An encoder with nothing translated yet (with this thread's mutant, if any).
    pub fn new() -> Encoder {
        Encoder {
            #[cfg(any(test, feature = "mutants"))]
            mutant: BROKEN.with(|broken| broken.get()),
            ..Encoder::default()
        }
    }

    /// The translation of a boolean term.
    pub fn boolean(&mut self, term: &Term) -> Result<Bool, EncodeError> {
        match self.encode(term)? {
            Encoded::Bool(b) => Ok(b),
            _ => Err(EncodeError::IllTyped(format!("`{term}` is not boolean"))),
        }
    }

    /// The domain axioms `len(a) ≥ 0` of lengths met since the last call.
    pub fn take_new_axioms(&mut self) -> Vec<Bool> {
        std::mem::take(&mut self.new_axioms)
    }

    /// The translation of `term`, in post-order over the nodes not yet
    /// translated (unlike `Term::nodes`, the walk stops at memoised nodes, so
    /// extending an already translated path condition costs only its new part).
    pub fn encode(&mut self, term: &Term) -> Result<Encoded, EncodeError> {
        if let Some(done) = self.memo.get(&term.id()) {
            return Ok(done.clone());
        }
        if self.memo.len() > MEMO_LIMIT {
            self.memo.clear();
        }
        let mut stack = vec![(term.clone(), false)];
        while let Some((node, children_done)) = stack.pop() {
            if self.memo.contains_key(&node.id()) {
                continue;
            }
            if children_done {
                let encoded = self.encode_node(&node)?;
                self.memo.insert(node.id(), encoded);
            } else {
                stack.push((node.clone(), true));
                for child in node.children() {
                    if !self.memo.contains_key(&child.id()) {
                        stack.push((child.clone(), false));
                    }
                }
            }
        }
        Ok(self.memo[&term.id()].clone())
    }

    /// The Z3 constant(s) for the input variable `name` of `sort`.
    pub fn variable(&mut self, name: &Name, sort: &Sort) -> Result<Encoded, EncodeError> {
        Ok(match sort {
            Sort::Int => Encoded::Int(Int::new_const(name.as_ref())),
            Sort::Bool => Encoded::Bool(Bool::new_const(name.as_ref())),
            Sort::Array(element) => {
                let element = Element::of(element)?;
                let array = Array::new_const(name.as_ref(), &z3::Sort::int(), &element.z3_sort());
                Encoded::Array {
                    array,
                    len: self.length(name),
                    element,
                }
            }
            Sort::Object(class) => Encoded::Object {
                value: Dynamic::new_const(name.as_ref(), &self.class(class)),
                class: class.clone(),
            },
            Sort::Field(class, element) => Encoded::Field {
                array: self.field(class, name, element)?,
                class: class.clone(),
                sort: (**element).clone(),
            },
        })
    }

    /// The sort of the objects of `class`.
    pub(crate) fn class(&mut self, class: &Name) -> z3::Sort {
        self.classes
            .entry(class.clone())
            .or_insert_with(|| z3::Sort::uninterpreted(Symbol::String(class.to_string())))
            .clone()
    }

    /// `nil` of `class`.
    pub(crate) fn nil(&mut self, class: &Name) -> Dynamic {
        Dynamic::new_const(format!("nil.{class}"), &self.class(class))
    }

    /// The fields of `class` met so far, with their arrays and sorts.
    pub(crate) fn fields_of(&self, class: &Name) -> Vec<(Name, Array, Sort)> {
        let mut fields: Vec<(Name, Array, Sort)> = self
            .fields
            .iter()
            .filter(|((c, _), _)| c == class)
            .map(|((_, f), (decl, sort))| (f.clone(), decl.clone(), sort.clone()))
            .collect();
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        fields
    }

    /// `C.f`: the field `f` (of sort `sort`) of the objects of `class`.
    fn field(&mut self, class: &Name, f: &Name, sort: &Sort) -> Result<Array, EncodeError> {
        if let Some((decl, _)) = self.fields.get(&(class.clone(), f.clone())) {
            return Ok(decl.clone());
        }
        let range = match sort {
            Sort::Int => z3::Sort::int(),
            Sort::Bool => z3::Sort::bool(),
            Sort::Object(target) => self.class(target),
            Sort::Array(_) | Sort::Field(..) => {
                return Err(EncodeError::Unsupported(format!("the array field `{f}`")))
            }
        };
        let array = Array::new_const(format!("{class}.{f}"), &self.class(class), &range);
        self.fields
            .insert((class.clone(), f.clone()), (array.clone(), sort.clone()));
        Ok(array)
    }

    /// The translation of a read `C.f[o]`, by the field's sort.
    pub(crate) fn read(value: Dynamic, sort: &Sort) -> Option<Encoded> {
        Some(match sort {
            Sort::Int => Encoded::Int(value.as_int()?),
            Sort::Bool => Encoded::Bool(value.as_bool()?),
            Sort::Object(class) => Encoded::Object {
                value,
                class: class.clone(),
            },
            Sort::Array(_) | Sort::Field(..) => return None,
        })
    }

    /// The constant `len(a)`: a fresh Z3 constant, so no variable can share it.
    fn length(&mut self, array: &Name) -> Int {
        if let Some(len) = self.lengths.get(array) {
            return len.clone();
        }
        let len = Int::fresh_const(&format!("len({array})"));
        self.new_axioms.push(len.ge(Int::from_i64(0)));
        self.lengths.insert(array.clone(), len.clone());
        len
    }

    fn encode_node(&mut self, node: &Term) -> Result<Encoded, EncodeError> {
        match node.kind() {
            TermKind::Var(name, sort) => self.variable(name, sort),
            TermKind::Len(name) => Ok(Encoded::Int(self.length(name))),
            TermKind::Nil(class) => Ok(Encoded::Object {
                value: self.nil(class),
                class: class.clone(),
            }),
            TermKind::Field(object, f, sort) => {
                let Encoded::Object { value, class } = self.memo[&object.id()].clone() else {
                    return Err(EncodeError::IllTyped(format!(
                        "`{object}` is not an object"
                    )));
                };
                let array = self.field(&class, f, sort)?;
                Encoder::read(array.select(&value), sort)
                    .ok_or_else(|| EncodeError::IllTyped(node.to_string()))
            }
            TermKind::FieldArray(f, sort) => self.variable(f, sort),
            _ => self.encode_operation(node),
        }
    }

    /// A node whose children are translated already.
    fn encode_operation(&self, node: &Term) -> Result<Encoded, EncodeError> {
        let ill_typed = || EncodeError::IllTyped(node.to_string());
        let child = |t: &Term| &self.memo[&t.id()];
        let int = |t: &Term| match child(t) {
            Encoded::Int(i) => Ok(i.clone()),
            _ => Err(ill_typed()),
        };
        let boolean = |t: &Term| match child(t) {
            Encoded::Bool(b) => Ok(b.clone()),
            _ => Err(ill_typed()),
        };
        Ok(match node.kind() {
            TermKind::Int(n) => Encoded::Int(numeral(n)),
            TermKind::Bool(b) => Encoded::Bool(Bool::from_bool(*b)),
            TermKind::Unary(UnOp::Neg, a) => Encoded::Int(int(a)?.unary_minus()),
            TermKind::Unary(UnOp::Not, a) => Encoded::Bool(boolean(a)?.not()),
            TermKind::Binary(op, a, b) => {
                self.binary(*op, child(a), child(b)).ok_or_else(ill_typed)?
            }
            TermKind::Ite(c, a, b) => {
                ite(&boolean(c)?, child(a), child(b)).ok_or_else(ill_typed)?
            }
            TermKind::Select(a, i) => match child(a) {
                Encoded::Field { array, sort, .. } => {
                    Encoder::read(array.select(&child(i).dynamic()), sort).ok_or_else(ill_typed)?
                }
                Encoded::Array { array, element, .. } => {
                    let read = array.select(&int(i)?);
                    match element {
                        Element::Int => Encoded::Int(read.as_int().ok_or_else(ill_typed)?),
                        Element::Bool => Encoded::Bool(read.as_bool().ok_or_else(ill_typed)?),
                    }
                }
                _ => return Err(ill_typed()),
            },
            TermKind::Store(a, i, v) => match (child(a), child(v)) {
                (Encoded::Field { array, class, sort }, value) => Encoded::Field {
                    array: array.store(&child(i).dynamic(), &value.dynamic()),
                    class: class.clone(),
                    sort: sort.clone(),
                },
                (
                    Encoded::Array {
                        array,
                        len,
                        element: Element::Int,
                    },
                    Encoded::Int(v),
                ) => Encoded::Array {
                    array: array.store(&int(i)?, v),
                    len: len.clone(),
                    element: Element::Int,
                },
                (
                    Encoded::Array {
                        array,
                        len,
                        element: Element::Bool,
                    },
                    Encoded::Bool(v),
                ) => Encoded::Array {
                    array: array.store(&int(i)?, v),
                    len: len.clone(),
                    element: Element::Bool,
                },
                _ => return Err(ill_typed()),
            },
            TermKind::Var(..)
            | TermKind::Len(_)
            | TermKind::Nil(_)
            | TermKind::Field(..)
            | TermKind::FieldArray(..) => {
                return Err(EncodeError::IllTyped(format!(
                    "`{node}` is not an operation"
                )))
            }
        })
    }

    fn binary(&self, op: BinOp, a: &Encoded, b: &Encoded) -> Option<Encoded> {
        use Encoded::{Bool as B, Int as I};
        Some(match (op, a, b) {
            (BinOp::Add, I(x), I(y)) => I(Int::add(&[x, y])),
            (BinOp::Sub, I(x), I(y)) => I(Int::sub(&[x, y])),
            (BinOp::Mul, I(x), I(y)) => I(Int::mul(&[x, y])),
            (BinOp::Div, I(x), I(y)) => I(self.division(x, y)),
            (BinOp::Mod, I(x), I(y)) => I(self.modulo(x, y)),
            (BinOp::Lt, I(x), I(y)) => B(x.lt(y)),
            (BinOp::Le, I(x), I(y)) => B(x.le(y)),
            (BinOp::Gt, I(x), I(y)) => B(x.gt(y)),
            (BinOp::Ge, I(x), I(y)) => B(x.ge(y)),
            (BinOp::Eq, x, y) => B(equal(x, y)?),
            (BinOp::Ne, x, y) => B(equal(x, y)?.not()),
            (BinOp::And, B(x), B(y)) => B(Bool::and(&[x, y])),
            (BinOp::Or, B(x), B(y)) => B(Bool::or(&[x, y])),
            (BinOp::Implies, B(x), B(y)) => B(x.implies(y)),
            _ => return None,
        })
    }

    /// `x / y`: SMT-LIB `div`, with `x / 0 = 0`.
    fn division(&self, x: &Int, y: &Int) -> Int {
        #[cfg(any(test, feature = "mutants"))]
        match self.mutant {
            Some(Mutant::DivisionByZeroUnspecified) => return x.div(y),
            Some(Mutant::DivisionTruncates) => return total(y, Int::from_i64(0), truncated(x, y)),
            _ => {}
        }
        total(y, Int::from_i64(0), x.div(y))
    }

    /// `x % y`: SMT-LIB `mod`, with `x % 0 = x`.
    fn modulo(&self, x: &Int, y: &Int) -> Int {
        #[cfg(any(test, feature = "mutants"))]
        match self.mutant {
            Some(Mutant::ModuloIsRem) => return total(y, x.clone(), x.rem(y)),
            Some(Mutant::ModuloByZeroUnspecified) => return x.modulo(y),
            _ => {}
        }
        total(y, x.clone(), x.modulo(y))
    }
}

/// `x / y` rounded towards zero: the Euclidean quotient moved one towards
/// zero when `x` is negative and the division is not exact.
#[cfg(any(test, feature = "mutants"))]
fn truncated(x: &Int, y: &Int) -> Int {
    let zero = Int::from_i64(0);
    let euclidean = x.div(y);
    let inexact = Bool::and(&[&x.lt(&zero), &x.modulo(y).eq(&zero).not()]);
    let towards_zero = y.gt(&zero).ite(
        &Int::add(&[&euclidean, &Int::from_i64(1)]),
        &Int::sub(&[&euclidean, &Int::from_i64(1)]),
    );
    inexact.ite(&towards_zero, &euclidean)
}

/// `if y = 0 then by_zero else otherwise`, skipping the test for a nonzero literal divisor.
fn total(y: &Int, by_zero: Int, otherwise: Int) -> Int {
    match y.as_i64() {
        Some(0) => by_zero,
        Some(_) => otherwise,
        None => y.eq(Int::from_i64(0)).ite(&by_zero, &otherwise),
    }
}

/// `x = y` as the evaluator reads it: arrays are equal when their contents and lengths are.
fn equal(x: &Encoded, y: &Encoded) -> Option<Bool> {
    Some(match (x, y) {
        (Encoded::Int(x), Encoded::Int(y)) => x.eq(y),
        (Encoded::Bool(x), Encoded::Bool(y)) => x.eq(y),
        (
            Encoded::Array {
                array: a,
                len: m,
                element: e,
            },
            Encoded::Array {
                array: b,
                len: n,
                element: f,
            },
        ) if e == f => Bool::and(&[a.eq(b), m.eq(n)]),
        (Encoded::Object { value: a, class: c }, Encoded::Object { value: b, class: d })
            if c == d =>
        {
            a.eq(b)
        }
        _ => return None,
    })
}

/// `if c then x else y fi` on translations of the same sort.
fn ite(c: &Bool, x: &Encoded, y: &Encoded) -> Option<Encoded> {
    Some(match (x, y) {
        (Encoded::Int(x), Encoded::Int(y)) => Encoded::Int(c.ite(x, y)),
        (Encoded::Bool(x), Encoded::Bool(y)) => Encoded::Bool(c.ite(x, y)),
        (
            Encoded::Array {
                array: a,
                len: m,
                element: e,
            },
            Encoded::Array {
                array: b,
                len: n,
                element: f,
            },
        ) if e == f => Encoded::Array {
            array: c.ite(a, b),
            len: c.ite(m, n),
            element: *e,
        },
        (Encoded::Object { value: a, class }, Encoded::Object { value: b, class: d })
            if class == d =>
        {
            Encoded::Object {
                value: c.ite(a, b),
                class: class.clone(),
            }
        }
        _ => return None,
    })
}

/// An integer literal; via its decimal spelling only when it exceeds 64 bits.
fn numeral(n: &BigInt) -> Int {
    match n.to_i64() {
        Some(small) => Int::from_i64(small),
        None => Int::from_big_int(n),
    }
}
