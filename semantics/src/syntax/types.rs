//! Type inference by unification (SPEC §1.4): every variable, parameter,
//! method result and expression has a type variable; uses unify them, and
//! each class of equal types remembers where its type was first learnt, so
//! that a conflict can name both uses. Restrictions record the rules that
//! are not equalities (no arrays here, only objects there) with the reason
//! to give when one is broken.

use super::diagnostic::Span;
use crate::term::{Name, Sort};
use std::borrow::Cow;

/// A type variable.
pub type TyId = usize;

/// What is known of a type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    Unknown,
    Int,
    Bool,
    /// An array with the given element type.
    Array(TyId),
    Object(Name),
}

/// Where a type was learnt: a use or declaration of `subject` (a variable,
/// an array's elements, a field), or an anonymous expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    pub span: Span,
    /// How the subject is named in messages, e.g. "`x`".
    pub subject: Option<String>,
    pub declared: bool,
}

/// A rule a type must obey, other than equality with another type. Names
/// are borrowed from the program, so imposing a rule costs no allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason<'a> {
    /// `x := e`: `x` is not an array (no whole-array assignment).
    WholeArrayAssignment(&'a str),
    /// `e1 = e2`, `e1 != e2`: not on arrays.
    ArrayEquality,
    /// `if b then e1 else e2 fi`: not of array type.
    ArrayConditional,
    /// Parameters are not arrays: arrays are global inputs.
    ArrayParameter {
        parameter: &'a str,
        owner: Cow<'a, str>,
    },
    /// Methods do not return arrays.
    ArrayResult(Cow<'a, str>),
    /// The elements of array `a` are int or bool.
    Element(&'a str),
    /// `nil` is an object of some class.
    Nil,
    /// The left of `.f` (or of `.m(…)` when `call`) is an object.
    Receiver { member: &'a str, call: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Constraint {
    NotArray,
    Element,
    Object,
}

impl Reason<'_> {
    fn constraint(&self) -> Constraint {
        match self {
            Reason::Element(_) => Constraint::Element,
            Reason::Nil | Reason::Receiver { .. } => Constraint::Object,
            _ => Constraint::NotArray,
        }
    }

    /// The message when a type described as `found` breaks the rule.
    pub fn message(&self, found: &str) -> String {
        match self {
            Reason::WholeArrayAssignment(x) => format!(
                "whole-array assignment is not allowed: `{x}` is {found}; assign elements `{x}[i] := …` instead"
            ),
            Reason::ArrayEquality => format!("arrays cannot be compared with `=` or `!=`, but this compares {found}"),
            Reason::ArrayConditional => format!("a conditional expression cannot have array type, but this one is {found}"),
            Reason::ArrayParameter { parameter, owner } => format!(
                "parameter `{parameter}` of `{owner}` is used as {found}; arrays are global inputs; pass indices instead"
            ),
            Reason::ArrayResult(method) => format!("method `{method}` cannot return an array, but returns {found}"),
            Reason::Element(array) => format!("the elements of array `{array}` must be int or bool, not {found}"),
            Reason::Nil => format!("`nil` is used as {found}, but it is only a value of class types"),
            Reason::Receiver { member, call: false } => format!("`.{member}` needs an object on its left, not {found}"),
            Reason::Receiver { member, call: true } => format!("`.{member}(…)` needs an object on its left, not {found}"),
        }
    }
}

/// A rule and the place that imposes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restriction<'a> {
    pub reason: Reason<'a>,
    pub span: Span,
}

/// Why two types could not be unified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Clash<'a> {
    /// Two different types.
    Types,
    /// A type that a restriction forbids, described as the string.
    Restricted(Restriction<'a>, String),
}

struct Slot<'a> {
    parent: TyId,
    shape: Shape,
    evidence: Option<Evidence>,
    /// At most one per [`Constraint`].
    restrictions: Vec<Restriction<'a>>,
}

/// The type variables, as a union-find forest.
#[derive(Default)]
pub struct Types<'a> {
    slots: Vec<Slot<'a>>,
}

impl<'a> Types<'a> {
    fn add(
        &mut self,
        shape: Shape,
        evidence: Option<Evidence>,
        restrictions: Vec<Restriction<'a>>,
    ) -> TyId {
        let id = self.slots.len();
        self.slots.push(Slot {
            parent: id,
            shape,
            evidence,
            restrictions,
        });
        id
    }

    /// A type about which nothing is known yet.
    pub fn fresh(&mut self) -> TyId {
        self.add(Shape::Unknown, None, Vec::new())
    }

    /// A type of the given shape, learnt from an anonymous expression.
    pub fn known(&mut self, shape: Shape) -> TyId {
        self.add(shape, None, Vec::new())
    }

    /// An unknown type that must obey `restriction`.
    pub fn restricted(&mut self, restriction: Restriction<'a>) -> TyId {
        self.add(Shape::Unknown, None, vec![restriction])
    }

    /// The type `sort`, learnt from `evidence` (the elements of an array
    /// type from `element_evidence`).
    pub fn of_sort(
        &mut self,
        sort: &Sort,
        evidence: Option<Evidence>,
        element_evidence: Option<Evidence>,
    ) -> TyId {
        let shape = match sort {
            Sort::Int => Shape::Int,
            Sort::Bool => Shape::Bool,
            Sort::Object(class) => Shape::Object(class.clone()),
            Sort::Array(element) => Shape::Array(self.of_sort(element, element_evidence, None)),
            // No declaration has a field array's type: only §4.1's forward execution builds one.
            Sort::Field(class, _) => Shape::Object(class.clone()),
        };
        self.add(shape, evidence, Vec::new())
    }

    /// The representative of `t`'s class.
    pub fn find(&mut self, mut t: TyId) -> TyId {
        while self.slots[t].parent != t {
            let grandparent = self.slots[self.slots[t].parent].parent;
            self.slots[t].parent = grandparent;
            t = grandparent;
        }
        t
    }

    pub fn shape(&mut self, t: TyId) -> Shape {
        let root = self.find(t);
        self.slots[root].shape.clone()
    }

    pub fn evidence(&mut self, t: TyId) -> Option<Evidence> {
        let root = self.find(t);
        self.slots[root].evidence.clone()
    }

    /// Whether `t`'s type is known but not yet where it was learnt.
    pub fn lacks_evidence(&mut self, t: TyId) -> bool {
        let root = self.find(t);
        self.slots[root].evidence.is_none() && self.slots[root].shape != Shape::Unknown
    }

    /// Records `evidence` as where `t`'s type was learnt, unless that is
    /// already known or the type is still unknown.
    pub fn note_evidence(&mut self, t: TyId, evidence: Evidence) {
        if self.lacks_evidence(t) {
            let root = self.find(t);
            self.slots[root].evidence = Some(evidence);
        }
    }

    /// Whether `t` obeys `reason` whatever is learnt later: its shape is
    /// known (and shapes, once known, never change).
    pub fn obeys_for_good(&mut self, t: TyId, reason: &Reason) -> bool {
        let shape = self.shape(t);
        shape != Shape::Unknown && allows(reason.constraint(), &shape)
    }

    /// Makes `a` and `b` the same type. Element types are never arrays, so
    /// the recursion is at most two deep.
    pub fn unify(&mut self, a: TyId, b: TyId) -> Result<(), Clash<'a>> {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return Ok(());
        }
        let shape = match (self.slots[a].shape.clone(), self.slots[b].shape.clone()) {
            (Shape::Unknown, shape) | (shape, Shape::Unknown) => shape,
            (Shape::Array(x), Shape::Array(y)) => {
                self.unify(x, y)?;
                Shape::Array(x)
            }
            (left, right) if left == right => left,
            _ => return Err(Clash::Types),
        };
        // On a clash the whole check stops, so taking the restrictions is safe.
        let mut restrictions = std::mem::take(&mut self.slots[a].restrictions);
        for restriction in std::mem::take(&mut self.slots[b].restrictions) {
            if restrictions
                .iter()
                .all(|r| r.reason.constraint() != restriction.reason.constraint())
            {
                restrictions.push(restriction);
            }
        }
        self.obeys(&shape, &restrictions)?;
        let evidence = self.slots[a]
            .evidence
            .clone()
            .or_else(|| self.slots[b].evidence.clone());
        self.slots[b].parent = a;
        self.slots[a] = Slot {
            parent: a,
            shape,
            evidence,
            restrictions,
        };
        Ok(())
    }

    fn obeys(&mut self, shape: &Shape, restrictions: &[Restriction<'a>]) -> Result<(), Clash<'a>> {
        let has = |c: Constraint| restrictions.iter().any(|r| r.reason.constraint() == c);
        for restriction in restrictions {
            let constraint = restriction.reason.constraint();
            let allowed = allows(constraint, shape)
                && !(constraint == Constraint::Element && has(Constraint::Object));
            if !allowed {
                let found = match shape {
                    Shape::Unknown => "an object".to_string(),
                    _ => self.describe_shape(shape),
                };
                return Err(Clash::Restricted(restriction.clone(), found));
            }
        }
        Ok(())
    }

    /// The type as written in messages: `int`, `bool[]`, `Node`, "an array".
    pub fn describe(&mut self, t: TyId) -> String {
        let root = self.find(t);
        let shape = self.slots[root].shape.clone();
        match shape {
            Shape::Unknown => {
                let constraints: Vec<Constraint> = self.slots[root]
                    .restrictions
                    .iter()
                    .map(|r| r.reason.constraint())
                    .collect();
                if constraints.contains(&Constraint::Object) {
                    "an object".into()
                } else if constraints.contains(&Constraint::Element) {
                    "an array element".into()
                } else {
                    "a value of unknown type".into()
                }
            }
            shape => self.describe_shape(&shape),
        }
    }

    fn describe_shape(&mut self, shape: &Shape) -> String {
        match shape {
            Shape::Unknown => "a value of unknown type".into(),
            Shape::Int => "int".into(),
            Shape::Bool => "bool".into(),
            Shape::Object(class) => class.to_string(),
            Shape::Array(element) => match self.shape(*element) {
                Shape::Int => "int[]".into(),
                Shape::Bool => "bool[]".into(),
                _ => "an array".into(),
            },
        }
    }

    /// The class of `t`, if `t` is known to be an object.
    pub fn class(&mut self, t: TyId) -> Option<Name> {
        match self.shape(t) {
            Shape::Object(class) => Some(class),
            _ => None,
        }
    }

    /// The sort of `t`, where anything still unknown is `int` (SPEC §1.4:
    /// a type nothing determines defaults to int).
    pub fn sort(&mut self, t: TyId) -> Sort {
        match self.shape(t) {
            Shape::Unknown | Shape::Int => Sort::Int,
            Shape::Bool => Sort::Bool,
            Shape::Object(class) => Sort::Object(class),
            Shape::Array(element) => Sort::Array(Box::new(self.sort(element))),
        }
    }
}

/// Whether a type of this shape obeys the constraint.
fn allows(constraint: Constraint, shape: &Shape) -> bool {
    match constraint {
        Constraint::NotArray => !matches!(shape, Shape::Array(_)),
        Constraint::Element => matches!(shape, Shape::Unknown | Shape::Int | Shape::Bool),
        Constraint::Object => matches!(shape, Shape::Unknown | Shape::Object(_)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unification_propagates_through_classes() {
        let mut types = Types::default();
        let (x, y) = (types.fresh(), types.fresh());
        let int = types.known(Shape::Int);
        assert_eq!(types.unify(x, y), Ok(()));
        assert_eq!(types.unify(y, int), Ok(()));
        assert_eq!(types.sort(x), Sort::Int);
        let boolean = types.known(Shape::Bool);
        assert_eq!(types.unify(x, boolean), Err(Clash::Types));
    }

    #[test]
    fn arrays_unify_elementwise_and_default_to_int() {
        let mut types = Types::default();
        let (e1, e2) = (types.fresh(), types.fresh());
        let (a, b) = (types.known(Shape::Array(e1)), types.known(Shape::Array(e2)));
        assert_eq!(types.unify(a, b), Ok(()));
        assert_eq!(types.sort(a), Sort::int_array());
        let boolean = types.known(Shape::Bool);
        assert_eq!(types.unify(e2, boolean), Ok(()));
        assert_eq!(types.sort(b), Sort::bool_array());
        assert_eq!(types.describe(a), "bool[]");
    }

    #[test]
    fn restrictions_travel_with_the_class() {
        let mut types = Types::default();
        let restriction = Restriction {
            reason: Reason::ArrayEquality,
            span: 3..4,
        };
        let x = types.restricted(restriction.clone());
        let y = types.fresh();
        assert_eq!(types.unify(x, y), Ok(()));
        let element = types.fresh();
        let array = types.known(Shape::Array(element));
        assert_eq!(
            types.unify(y, array),
            Err(Clash::Restricted(restriction, "an array".into()))
        );
    }

    #[test]
    fn elements_are_never_objects() {
        let mut types = Types::default();
        let element = types.restricted(Restriction {
            reason: Reason::Element("a"),
            span: 0..1,
        });
        let nil = types.restricted(Restriction {
            reason: Reason::Nil,
            span: 5..8,
        });
        assert!(matches!(
            types.unify(element, nil),
            Err(Clash::Restricted(..))
        ));
    }
}
