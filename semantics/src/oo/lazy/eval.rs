//! Evaluation on a lazy path: an expression of the program becomes a term
//! over the input symbols, every reference resolved to a node of the heap
//! — or evaluation stops at the first thing it must know and does not yet
//! ([`Blocked`]): a reference input never read, an array element never
//! read, or a condition that decides whether evaluation reads on.
//!
//! Operands are evaluated in the order and under the conditions the
//! concrete semantics evaluates them (SPEC §1.5): the second operand of
//! `&&`, `||`, `==>` and the branches of a conditional only where the
//! first operand (the test) lets them be read. A read of a field of `nil`
//! or of an array element out of bounds is `⊥`; it stands in the term as
//! its sort's default, which no path uses: the path condition holds `δ`,
//! under which it is never evaluated.

use super::arrays::Resolution;
use super::heap::Node;
use super::rules::Rules;
use super::state::State;
use crate::eval::eval;
use crate::term::{BinOp, IdMap, Name, Sort, Term, TermKind};
use crate::valuation::Valuation;
use crate::value::Value;

/// What evaluation must know before it can go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Blocked {
    /// A reference input never read: a global variable, or a reference
    /// field of an input object (by the object's name), of class `class`.
    Reference(Slot),
    /// The element `array[index]` of an input array, at an index no
    /// earlier read resolved.
    Element(Name, Sort, Term),
    /// A condition not decided on the path, on which reading on depends.
    Condition(Term),
}

/// A reference input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    Var {
        var: Name,
        class: Name,
    },
    Field {
        object: Name,
        field: Name,
        class: Name,
    },
}

impl<R: Rules> State<R> {
    /// The value of `e` on this path, over the input symbols.
    pub(super) fn value(&self, e: &Term) -> Result<Term, Blocked> {
        let mut memo: IdMap<Term> = IdMap::default();
        self.evaluate(e, &mut memo)
    }

    fn evaluate(&self, e: &Term, memo: &mut IdMap<Term>) -> Result<Term, Blocked> {
        if let Some(value) = memo.get(&e.id()) {
            return Ok(value.clone());
        }
        let value = match e.kind() {
            TermKind::Int(_) | TermKind::Bool(_) | TermKind::Nil(_) | TermKind::Len(_) => e.clone(),
            TermKind::Var(x, sort) => self.variable(e, x, sort)?,
            TermKind::Field(object, f, sort) => {
                let object = self.evaluate(object, memo)?;
                self.field(&object, f, sort)?
            }
            TermKind::Select(array, index) => match array.kind() {
                TermKind::Var(a, sort) => {
                    let index = self.evaluate(index, memo)?;
                    self.element(a, sort, index)?
                }
                _ => self.strict(e, memo)?,
            },
            TermKind::Binary(BinOp::And, a, b) => self.guarded(a, b, false, memo)?,
            TermKind::Binary(BinOp::Or, a, b) => self.guarded(a, b, true, memo)?,
            TermKind::Binary(BinOp::Implies, a, b) => {
                let premise = self.evaluate(a, memo)?;
                match self.decided(&premise) {
                    Some(false) => Term::bool(true),
                    Some(true) => self.evaluate(b, memo)?,
                    None => match self.evaluate(b, memo) {
                        Ok(conclusion) => Term::implies(premise, conclusion),
                        Err(_) => return Err(Blocked::Condition(premise)),
                    },
                }
            }
            TermKind::Ite(c, then, otherwise) => {
                let test = self.evaluate(c, memo)?;
                match self.decided(&test) {
                    Some(true) => self.evaluate(then, memo)?,
                    Some(false) => self.evaluate(otherwise, memo)?,
                    // A conditional reference is decided: every reference
                    // of a lazy path is a node.
                    None if matches!(e.sort(), Sort::Object(_)) => {
                        return Err(Blocked::Condition(test))
                    }
                    None => match (self.evaluate(then, memo), self.evaluate(otherwise, memo)) {
                        (Ok(a), Ok(b)) => Term::ite(test, a, b),
                        _ => return Err(Blocked::Condition(test)),
                    },
                }
            }
            TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b)
                if matches!(a.sort(), Sort::Object(_)) =>
            {
                let (a, b) = (self.evaluate(a, memo)?, self.evaluate(b, memo)?);
                let same = match (Node::of(&a), Node::of(&b)) {
                    (Node::Nil, Node::Nil) => Some(true),
                    (Node::Object(x), Node::Object(y)) => Some(x == y),
                    (Node::Nil, Node::Object(_)) | (Node::Object(_), Node::Nil) => Some(false),
                    _ => None,
                };
                match same {
                    Some(same) => Term::bool(same == (*op == BinOp::Eq)),
                    None => Term::binary(*op, a, b),
                }
            }
            _ => self.strict(e, memo)?,
        };
        memo.insert(e.id(), value.clone());
        Ok(value)
    }

    /// A node whose operands are all evaluated: a literal when they all
    /// are (so that a test a lazy path has decided reads `true` or
    /// `false`), else the node over them.
    fn strict(&self, e: &Term, memo: &mut IdMap<Term>) -> Result<Term, Blocked> {
        let children = e
            .children()
            .into_iter()
            .map(|c| self.evaluate(c, memo))
            .collect::<Result<Vec<_>, _>>()?;
        let literal = |t: &Term| matches!(t.kind(), TermKind::Int(_) | TermKind::Bool(_));
        let node = e.with_children(&children);
        if !children.is_empty() && children.iter().all(literal) {
            match eval(&node, &Valuation::new()) {
                Ok(Value::Int(n)) => return Ok(Term::int(n)),
                Ok(Value::Bool(b)) => return Ok(Term::bool(b)),
                _ => {}
            }
        }
        Ok(match node.kind() {
            TermKind::Unary(crate::term::UnOp::Not, operand) => Term::not(operand.clone()),
            _ => node,
        })
    }

    /// `a && b` (`stops_at` false) or `a || b` (true): `b` is read only
    /// where `a` is not `stops_at`.
    fn guarded(
        &self,
        a: &Term,
        b: &Term,
        stops_at: bool,
        memo: &mut IdMap<Term>,
    ) -> Result<Term, Blocked> {
        let first = self.evaluate(a, memo)?;
        match self.decided(&first) {
            Some(value) if value == stops_at => Ok(Term::bool(stops_at)),
            Some(_) => self.evaluate(b, memo),
            None => match self.evaluate(b, memo) {
                Ok(second) if stops_at => Ok(Term::or(first, second)),
                Ok(second) => Ok(Term::and(first, second)),
                Err(_) => Err(Blocked::Condition(first)),
            },
        }
    }

    /// The value of the variable `x` (the term `e`): what the path
    /// assigned it; a created object names itself; an integer or boolean
    /// input never assigned is its own symbol; a reference input never
    /// read is not yet initialised.
    fn variable(&self, e: &Term, x: &Name, sort: &Sort) -> Result<Term, Blocked> {
        if let Some(value) = self.vars.get(x) {
            return Ok(value.clone());
        }
        match sort {
            _ if self.objects.contains_key(x) => Ok(e.clone()),
            Sort::Object(class) => Err(Blocked::Reference(Slot::Var {
                var: x.clone(),
                class: class.clone(),
            })),
            _ => Ok(e.clone()),
        }
    }

    /// `o.f` for the evaluated reference `object`.
    fn field(&self, object: &Term, f: &Name, sort: &Sort) -> Result<Term, Blocked> {
        let Node::Object(name) = Node::of(object) else {
            return Ok(undefined(sort));
        };
        match self.objects.get(name).and_then(|o| o.fields.get(f)) {
            Some(Some(value)) => Ok(value.clone()),
            Some(None) => match sort {
                Sort::Object(class) => Err(Blocked::Reference(Slot::Field {
                    object: name.clone(),
                    field: f.clone(),
                    class: class.clone(),
                })),
                _ => Ok(undefined(sort)),
            },
            None => Ok(undefined(sort)),
        }
    }

    /// `a[t]` for the evaluated index `index`.
    fn element(&self, a: &Name, sort: &Sort, index: Term) -> Result<Term, Blocked> {
        let element_sort = match sort {
            Sort::Array(element) => (**element).clone(),
            other => other.clone(),
        };
        let cells = self.arrays.get(a);
        match cells.and_then(|cells| cells.resolve(&index)) {
            Some(Resolution::Cell(id)) => Ok(cells
                .and_then(|cells| cells.current(id))
                .cloned()
                .unwrap_or_else(|| undefined(&element_sort))),
            Some(Resolution::OutOfBounds) => Ok(undefined(&element_sort)),
            None => Err(Blocked::Element(a.clone(), sort.clone(), index)),
        }
    }

    /// The value of the condition `c` where it is known on this path: a
    /// literal, a ground term (evaluated), a condition decided before or
    /// its negation (`δ` tests `¬b` where the statement tests `b`).
    pub(super) fn decided(&self, c: &Term) -> Option<bool> {
        if let Some((_, value)) = self.decisions.get(&c.id()) {
            return Some(*value);
        }
        match c.kind() {
            TermKind::Bool(value) => return Some(*value),
            TermKind::Unary(crate::term::UnOp::Not, b) => {
                if let Some(value) = self.decided(b) {
                    return Some(!value);
                }
            }
            _ => {}
        }
        let ground = c.free_vars().is_empty()
            && c.nodes()
                .iter()
                .all(|n| !matches!(n.kind(), TermKind::Len(_)));
        match ground.then(|| eval(c, &Valuation::new())) {
            Some(Ok(Value::Bool(value))) => Some(value),
            _ => None,
        }
    }
}

/// What a read of `⊥` stands for in a term: the sort's default.
fn undefined(sort: &Sort) -> Term {
    super::super::wp::initial_value(sort).unwrap_or_else(|| Term::int(0))
}
