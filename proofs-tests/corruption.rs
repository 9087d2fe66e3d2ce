//! Concrete systems that corrupt every configuration they step to, at one
//! place chosen at random: a variable's value (an integer, a boolean, an
//! array's length, one of its elements or its default), the statement, a
//! closure's locals — the top one or one below — or the stack's length.
//! The checkers must notice each of these: they compare the whole
//! configurations the theorems state, not a part of them.

use quickcheck::{Arbitrary, Gen};
use std::cell::RefCell;
use std::rc::Rc;
use symex_semantics::basic;
use symex_semantics::eval::Valuation;
use symex_semantics::program::Stmt;
use symex_semantics::recursive;
use symex_semantics::system::{Rule, Step, TransitionSystem};
use symex_semantics::value::{ArrayValue, Value};

/// Where and how to corrupt: which closure (0 the top, [`GLOBALS`] the
/// globals), which variable (an array's, if `array` and there is one), and
/// what to change.
#[derive(Clone, Debug)]
pub struct Corruption {
    closure: usize,
    variable: usize,
    array: bool,
    how: usize,
}

impl Arbitrary for Corruption {
    /// Each place about equally often in a run: a changed statement is in
    /// the top closure half the time, a changed value in the globals half
    /// the time (else in one of the top three closures), and a third of the
    /// values changed are arrays (where three places are).
    fn arbitrary(g: &mut Gen) -> Corruption {
        let how = usize::arbitrary(g) % 8;
        let closure = match (how == CODE, bool::arbitrary(g)) {
            (true, top) => usize::from(!top),
            (false, true) => GLOBALS,
            (false, false) => usize::arbitrary(g) % GLOBALS,
        };
        Corruption {
            closure,
            variable: usize::arbitrary(g) % 8,
            array: usize::arbitrary(g) % 3 == 0,
            how,
        }
    }
}

/// `how` for a changed statement and a longer stack; the rest change values.
const CODE: usize = 6;
const STACK: usize = 7;
/// `closure` for the globals.
const GLOBALS: usize = 3;

/// A concrete configuration that can be corrupted.
pub trait Corruptible: Sized {
    /// The configuration corrupted as `at` says, and where, or `None` when
    /// it has no such place.
    fn corrupted(&self, at: &Corruption) -> Option<(Self, &'static str)>;
}

/// `value` changed as `how` says, and what changed.
fn corrupt_value(value: &Value, how: usize) -> Option<(Value, &'static str)> {
    Some(match value {
        Value::Int(n) => (Value::Int(n + 1), "an integer"),
        Value::Bool(b) => (Value::Bool(!b), "a boolean"),
        Value::Array(array) => match how % 3 {
            0 => (
                Value::Array(ArrayValue {
                    len: &array.len + 1,
                    ..array.clone()
                }),
                "an array's length",
            ),
            1 => {
                let (element, _) = corrupt_value(&array.get(&0.into()), how)?;
                (
                    Value::Array(array.set(0.into(), element)),
                    "an array's element",
                )
            }
            _ => {
                let (default, _) = corrupt_value(&array.default, how)?;
                (
                    Value::Array(ArrayValue {
                        default: Box::new(default),
                        ..array.clone()
                    }),
                    "an array's default",
                )
            }
        },
        Value::Nil | Value::Object(_) | Value::Field(_) => return None,
    })
}

fn corrupt_valuation(v: &Valuation, at: &Corruption) -> Option<(Valuation, &'static str)> {
    let array = v
        .iter()
        .find(|(_, value)| matches!(value, Value::Array(_)))
        .filter(|_| at.array);
    let (x, value) = array.or_else(|| v.iter().nth(at.variable % v.len().max(1)))?;
    let (corrupted, what) = corrupt_value(value, at.how)?;
    Some((v.update(x.clone(), corrupted), what))
}

fn skip() -> Rc<[Stmt]> {
    Rc::from(vec![Stmt::Skip])
}

impl Corruptible for basic::concrete::Config {
    fn corrupted(&self, at: &Corruption) -> Option<(Self, &'static str)> {
        if at.how >= CODE {
            return Some((
                basic::concrete::Config {
                    code: self.code.push(&skip()),
                    ..self.clone()
                },
                "the statement",
            ));
        }
        let (valuation, what) = corrupt_valuation(&self.valuation, at)?;
        Some((
            basic::concrete::Config {
                valuation,
                ..self.clone()
            },
            what,
        ))
    }
}

impl Corruptible for recursive::concrete::Config {
    fn corrupted(&self, at: &Corruption) -> Option<(Self, &'static str)> {
        let mut c = self.clone();
        if at.how == STACK {
            c.stack.push_back(c.stack.back()?.clone());
            return Some((c, "the stack's length"));
        }
        if at.closure == GLOBALS {
            let (globals, what) = corrupt_valuation(&c.globals, at)?;
            return Some((recursive::concrete::Config { globals, ..c }, what));
        }
        let closure = at.closure;
        let frame = c.stack.get(closure).cloned()?;
        let (frame, what) = if at.how == CODE {
            (
                recursive::concrete::Frame {
                    code: frame.code.push(&skip()),
                    ..frame
                },
                "the statement",
            )
        } else {
            let (locals, _) = corrupt_valuation(&frame.locals, at)?;
            (
                recursive::concrete::Frame { locals, ..frame },
                "a local variable",
            )
        };
        c.stack.set(closure, frame);
        Some((c, if closure == 0 { top(what) } else { below(what) }))
    }
}

fn top(what: &'static str) -> &'static str {
    match what {
        "the statement" => "the top closure's statement",
        _ => "the top closure's locals",
    }
}

fn below(what: &'static str) -> &'static str {
    match what {
        "the statement" => "a lower closure's statement",
        _ => "a lower closure's locals",
    }
}

/// The real system `T`, every successor corrupted as `corruption` says —
/// except a violated assumption's, which completeness exempts from the
/// comparison (SPEC §1.5). Remembers where it corrupted.
pub struct Corrupting<T> {
    pub real: T,
    pub corruption: Corruption,
    pub applied: RefCell<Vec<&'static str>>,
}

impl<T: TransitionSystem<Config: Corruptible>> TransitionSystem for Corrupting<T> {
    type Config = T::Config;

    fn successors(&self, c: &T::Config) -> Vec<Step<T::Config>> {
        let mut steps = self.real.successors(c);
        for step in steps
            .iter_mut()
            .filter(|step| step.rule != Rule::AssumptionViolated)
        {
            if let Some((corrupted, what)) = step.next.corrupted(&self.corruption) {
                step.next = corrupted;
                self.applied.borrow_mut().push(what);
            }
        }
        steps
    }
}

/// The places every basic configuration has.
pub const BASIC_PLACES: [&str; 6] = [
    "an integer",
    "a boolean",
    "an array's length",
    "an array's element",
    "an array's default",
    "the statement",
];

/// The places every recursive configuration with a call has.
pub const RECURSIVE_PLACES: [&str; 10] = [
    "an integer",
    "a boolean",
    "an array's length",
    "an array's element",
    "an array's default",
    "the stack's length",
    "the top closure's statement",
    "the top closure's locals",
    "a lower closure's statement",
    "a lower closure's locals",
];
