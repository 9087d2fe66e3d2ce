//! The e-graph language: one e-node per [`TermKind`], so a term enters and
//! leaves the e-graph unchanged, with its sharing (a DAG becomes a
//! [`RecExpr`] with one entry per distinct node).
//!
//! Operators are spelled as in the source (`+`, `<=`, `&&`, …) so rewrite
//! rules read like the equations they implement; `neg`, `ite`, `select`
//! and `store` name the forms that have no one-symbol spelling.

use crate::mutants::{self, Mutant};
use egg::{FromOp, Id, Language, RecExpr, Symbol};
use num_bigint::BigInt;
use std::fmt;
use symex_semantics::term::{BinOp, IdMap, Name, Sort, Term, TermKind, UnOp};

/// An e-node: a [`TermKind`] whose children are e-class ids (names and
/// sorts as interned symbols: rewrite rules are shared between threads).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Node {
    Int(BigInt),
    Bool(bool),
    Var(Symbol, Symbol),
    Len(Symbol),
    Nil(Symbol),
    FieldArray(Symbol, Symbol),
    Unary(UnOp, [Id; 1]),
    Binary(BinOp, [Id; 2]),
    Ite([Id; 3]),
    Select([Id; 2]),
    Store([Id; 3]),
    Field(Symbol, Symbol, [Id; 1]),
}

/// What egg indexes e-classes by: an e-node's variant, with its operator
/// where it has one, so a rule for `=` is searched for in the classes
/// that hold an `=` and not in every class of a sum or a connective.
/// egg needs nodes that [`Language::matches`] accepts as alike to have one
/// discriminant (a test checks it on random terms).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operator {
    Unary(UnOp),
    Binary(BinOp),
    Other(std::mem::Discriminant<Node>),
}

impl Language for Node {
    type Discriminant = Operator;

    fn discriminant(&self) -> Operator {
        match self {
            Node::Unary(op, _) => Operator::Unary(*op),
            Node::Binary(_, [left, _])
                if mutants::active(Mutant::DiscriminantSeesChildren)
                    && usize::from(*left) % 2 == 1 =>
            {
                Operator::Other(std::mem::discriminant(self))
            }
            Node::Binary(op, _) => Operator::Binary(*op),
            _ => Operator::Other(std::mem::discriminant(self)),
        }
    }

    fn matches(&self, other: &Node) -> bool {
        match (self, other) {
            (Node::Unary(a, _), Node::Unary(b, _)) => a == b,
            (Node::Binary(a, _), Node::Binary(b, _)) => a == b,
            (Node::Ite(_), Node::Ite(_))
            | (Node::Select(_), Node::Select(_))
            | (Node::Store(_), Node::Store(_)) => true,
            (Node::Field(f, s, _), Node::Field(g, t, _)) => f == g && s == t,
            _ => self.is_leaf() && self == other,
        }
    }

    fn children(&self) -> &[Id] {
        match self {
            Node::Int(_)
            | Node::Bool(_)
            | Node::Var(..)
            | Node::Len(_)
            | Node::Nil(_)
            | Node::FieldArray(..) => &[],
            Node::Unary(_, ids) | Node::Field(_, _, ids) => ids,
            Node::Binary(_, ids) | Node::Select(ids) => ids,
            Node::Ite(ids) | Node::Store(ids) => ids,
        }
    }

    fn children_mut(&mut self) -> &mut [Id] {
        match self {
            Node::Int(_)
            | Node::Bool(_)
            | Node::Var(..)
            | Node::Len(_)
            | Node::Nil(_)
            | Node::FieldArray(..) => &mut [],
            Node::Unary(_, ids) | Node::Field(_, _, ids) => ids,
            Node::Binary(_, ids) | Node::Select(ids) => ids,
            Node::Ite(ids) | Node::Store(ids) => ids,
        }
    }
}

/// The binary operators by their source spelling.
pub const BINARY: [BinOp; 14] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Mod,
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
    BinOp::And,
    BinOp::Or,
    BinOp::Implies,
];

/// Why a rule's pattern names no e-node.
#[derive(Debug)]
pub struct UnknownOperator(pub String);

/// Parses the operators of rule patterns (variables and fields never occur
/// in rules: rules are about operators).
impl FromOp for Node {
    type Error = UnknownOperator;

    fn from_op(op: &str, children: Vec<Id>) -> Result<Node, UnknownOperator> {
        let unknown = || UnknownOperator(format!("{op}/{}", children.len()));
        match (op, &children[..]) {
            ("true", []) => Ok(Node::Bool(true)),
            ("false", []) => Ok(Node::Bool(false)),
            ("!", &[a]) => Ok(Node::Unary(UnOp::Not, [a])),
            ("neg", &[a]) => Ok(Node::Unary(UnOp::Neg, [a])),
            ("ite", &[c, a, b]) => Ok(Node::Ite([c, a, b])),
            ("select", &[a, i]) => Ok(Node::Select([a, i])),
            ("store", &[a, i, v]) => Ok(Node::Store([a, i, v])),
            (_, &[a, b]) => BINARY
                .iter()
                .find(|o| o.symbol() == op)
                .map(|&o| Node::Binary(o, [a, b]))
                .ok_or_else(unknown),
            (_, []) => op.parse().map(Node::Int).map_err(|_| unknown()),
            _ => Err(unknown()),
        }
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Int(n) => write!(f, "{n}"),
            Node::Bool(b) => write!(f, "{b}"),
            Node::Var(x, _) => write!(f, "{x}"),
            Node::Len(a) => write!(f, "len({a})"),
            Node::Nil(_) => write!(f, "nil"),
            Node::FieldArray(name, _) => write!(f, "{name}"),
            Node::Unary(UnOp::Not, _) => write!(f, "!"),
            Node::Unary(UnOp::Neg, _) => write!(f, "neg"),
            Node::Binary(op, _) => write!(f, "{}", op.symbol()),
            Node::Ite(_) => write!(f, "ite"),
            Node::Select(_) => write!(f, "select"),
            Node::Store(_) => write!(f, "store"),
            Node::Field(name, ..) => write!(f, ".{name}"),
        }
    }
}

/// `term` as a [`RecExpr`], one entry per distinct node; its root is last.
pub fn to_expr(term: &Term) -> RecExpr<Node> {
    let nodes = term.nodes();
    let mut enodes = Vec::with_capacity(nodes.len());
    let mut ids: IdMap<Id> = IdMap::with_capacity_and_hasher(nodes.len(), Default::default());
    for node in nodes {
        let id = |t: &Term| ids[&t.id()];
        let enode = match node.kind() {
            TermKind::Int(n) => Node::Int(n.clone()),
            TermKind::Bool(b) => Node::Bool(*b),
            TermKind::Var(x, sort) => Node::Var(symbol(x), sort_symbol(sort)),
            TermKind::Len(a) => Node::Len(symbol(a)),
            TermKind::Nil(class) => Node::Nil(symbol(class)),
            TermKind::FieldArray(f, sort) => Node::FieldArray(symbol(f), sort_symbol(sort)),
            TermKind::Unary(op, a) => Node::Unary(*op, [id(a)]),
            TermKind::Binary(op, a, b) => Node::Binary(*op, [id(a), id(b)]),
            TermKind::Ite(c, a, b) => Node::Ite([id(c), id(a), id(b)]),
            TermKind::Select(a, i) => Node::Select([id(a), id(i)]),
            TermKind::Store(a, i, v) => Node::Store([id(a), id(i), id(v)]),
            TermKind::Field(o, name, sort) => Node::Field(symbol(name), sort_symbol(sort), [id(o)]),
        };
        ids.insert(node.id(), Id::from(enodes.len()));
        enodes.push(enode);
    }
    RecExpr::from(enodes)
}

/// The term of one e-node given its children's terms, in order.
pub fn to_term(node: &Node, children: &[Term]) -> Term {
    let kind = match (node, children) {
        (Node::Unary(op, _), [a]) => TermKind::Unary(*op, a.clone()),
        (Node::Binary(op, _), [a, b]) => TermKind::Binary(*op, a.clone(), b.clone()),
        (Node::Ite(_), [c, a, b]) => TermKind::Ite(c.clone(), a.clone(), b.clone()),
        (Node::Select(_), [a, i]) => TermKind::Select(a.clone(), i.clone()),
        (Node::Store(_), [a, i, v]) => TermKind::Store(a.clone(), i.clone(), v.clone()),
        (Node::Field(name, sort, _), [o]) => {
            TermKind::Field(o.clone(), name_of(*name), sort_of(*sort))
        }
        (Node::Int(n), _) => TermKind::Int(n.clone()),
        (Node::Bool(b), _) => TermKind::Bool(*b),
        (Node::Var(x, sort), _) => TermKind::Var(name_of(*x), sort_of(*sort)),
        (Node::Len(a), _) => TermKind::Len(name_of(*a)),
        (Node::Nil(class), _) => TermKind::Nil(name_of(*class)),
        (Node::FieldArray(f, sort), _) => TermKind::FieldArray(name_of(*f), sort_of(*sort)),
        // An e-node always comes with as many children as its kind has.
        (_, _) => unreachable!("{node} with {} children", children.len()),
    };
    Term::new(kind)
}

/// The term a [`RecExpr`] denotes (its root is its last entry).
pub fn from_expr(expr: &RecExpr<Node>) -> Term {
    let mut terms: Vec<Term> = Vec::with_capacity(expr.as_ref().len());
    for node in expr.as_ref() {
        let children: Vec<Term> = node
            .children()
            .iter()
            .map(|&id| terms[usize::from(id)].clone())
            .collect();
        terms.push(to_term(node, &children));
    }
    terms.pop().unwrap_or_else(|| Term::bool(true))
}

fn symbol(name: &Name) -> Symbol {
    Symbol::from(&**name)
}

fn name_of(symbol: Symbol) -> Name {
    Name::from(symbol.as_str())
}

/// A sort as its printed form (`int`, `bool[]`, a class name, `C→T`),
/// the common ones without printing them first.
fn sort_symbol(sort: &Sort) -> Symbol {
    match sort {
        Sort::Int => Symbol::from("int"),
        Sort::Bool => Symbol::from("bool"),
        Sort::Object(class) => symbol(class),
        sort => Symbol::from(sort.to_string()),
    }
}

/// The sort [`sort_symbol`] printed.
fn sort_of(symbol: Symbol) -> Sort {
    match symbol.as_str() {
        "int" => Sort::Int,
        "bool" => Sort::Bool,
        field if field.contains('→') => {
            let (class, element) = field.split_once('→').unwrap_or_default();
            Sort::Field(Name::from(class), Box::new(sort_of(Symbol::from(element))))
        }
        array => match array.strip_suffix("[]") {
            Some(element) => Sort::Array(Box::new(sort_of(Symbol::from(element)))),
            None => Sort::Object(Name::from(array)),
        },
    }
}
