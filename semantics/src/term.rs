//! Expressions as shared, hash-consed terms.
//!
//! Symbolic values grow as DAGs (`x := x + x` doubles the printed size at
//! every step), so every term is interned: building a term that already
//! exists returns the same node, equality and hashing are O(1) (by node
//! id), and memo tables keyed by [`Term::id`] keep substitution, evaluation
//! and solver translation linear in the number of distinct nodes.
//!
//! The same type serves program expressions (after parsing), the symbolic
//! values of substitutions and path conditions, following the paper: a
//! substitution maps variables to expressions of the programming language.

use foldhash::fast::FixedState;
use hashbrown::HashTable;
use num_bigint::BigInt;
use smallvec::{smallvec, SmallVec};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};
use std::mem::ManuallyDrop;
use std::rc::{Rc, Weak};

/// A map keyed by [`Term::id`]: ids are distinct counters, so they need no
/// scrambling, and memo tables are the hot path of every term traversal.
pub type IdMap<V> = HashMap<u64, V, BuildHasherDefault<IdHasher>>;

/// The node ids a walk has met: a short list while the walk is small (most
/// walks stop at memoised nodes after a few steps), a hash set beyond.
#[derive(Default)]
struct Seen {
    few: SmallVec<[u64; 16]>,
    many: IdSet,
}

impl Seen {
    /// Adds `id`; whether it was new.
    fn insert(&mut self, id: u64) -> bool {
        if self.many.is_empty() {
            if self.few.contains(&id) {
                return false;
            }
            if self.few.len() < self.few.inline_size() {
                self.few.push(id);
                return true;
            }
            self.many.extend(self.few.drain(..));
        }
        self.many.insert(id)
    }
}

/// The direct subterms of a node ([`Term::children`]).
pub type Children<'a> = SmallVec<[&'a Term; 3]>;

/// A set of [`Term::id`]s.
pub type IdSet = HashSet<u64, BuildHasherDefault<IdHasher>>;

/// The hasher of [`IdMap`]: a multiplicative mix of the one `u64` written.
#[derive(Default)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, id: u64) {
        self.0 = id.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A variable, procedure, field or class name.
pub type Name = Rc<str>;

/// The types of SPEC §1.4 that a term can have.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    Int,
    Bool,
    /// `int[]` or `bool[]`: a total function from integers to the element sort
    /// (§2.1), with an input length `len(a)`.
    Array(Box<Sort>),
    /// An object of the named class (oo).
    Object(Name),
    /// A field as an array `O → T` from the objects of the class to the
    /// field's sort (§4.1, fields as arrays): only forward execution builds it.
    Field(Name, Box<Sort>),
}

impl Sort {
    pub fn int_array() -> Sort {
        Sort::Array(Box::new(Sort::Int))
    }

    pub fn bool_array() -> Sort {
        Sort::Array(Box::new(Sort::Bool))
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Int => write!(f, "int"),
            Sort::Bool => write!(f, "bool"),
            Sort::Array(element) => write!(f, "{element}[]"),
            Sort::Object(class) => write!(f, "{class}"),
            Sort::Field(class, element) => write!(f, "{class}→{element}"),
        }
    }
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnOp {
    Neg,
    Not,
}

/// Binary operators. `And`, `Or` and `Implies` evaluate their second operand
/// only when needed (SPEC §1.5); every other operator is strict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Euclidean division, total: `x / 0 = 0`.
    Div,
    /// Euclidean remainder, total: `x % 0 = x`.
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Implies,
}

impl BinOp {
    /// The six comparisons, in declaration order.
    pub const COMPARISONS: [BinOp; 6] = [
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
    ];

    /// The operator's source spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Eq => "=",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Implies => "==>",
        }
    }

    /// Binding strength, low to high, as in SPEC §1.2.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Implies => 1,
            BinOp::Or => 2,
            BinOp::And => 3,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 5,
            BinOp::Add | BinOp::Sub => 6,
            BinOp::Mul | BinOp::Div | BinOp::Mod => 7,
        }
    }

    /// Whether the operator compares two values (`=`, `!=`, `<`, `<=`, `>`, `>=`).
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }

    /// Whether the operator yields a boolean.
    pub fn is_boolean(self) -> bool {
        self.precedence() <= 5
    }
}

/// The shape of a term. Children are themselves interned terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TermKind {
    Int(BigInt),
    Bool(bool),
    /// A program variable of the given sort. In a substitution's range it
    /// stands for the variable's *initial* value (a symbolic input).
    Var(Name, Sort),
    /// `len(a)`: the length of input array `a`, an integer input ≥ 0 that no
    /// assignment changes (§2.1: `|a|` needs no substitution).
    Len(Name),
    Unary(UnOp, Term),
    Binary(BinOp, Term, Term),
    /// `if b then e1 else e2 fi`.
    Ite(Term, Term, Term),
    /// `a[e]`: array read.
    Select(Term, Term),
    /// `(a[e] := e')`: the array `a` updated at `e` (§2.1).
    Store(Term, Term, Term),
    /// `nil` of the given class (oo).
    Nil(Name),
    /// `f` as an array (§4.1): the field `f` in the initial heap, of sort
    /// [`Sort::Field`]; `f[e]` reads it (`Select`), `(f[e] := e')` updates it (`Store`).
    FieldArray(Name, Sort),
    /// `e.f`: the field `f`, of the given sort, of the object `e` (oo).
    /// Field names are global to a program (SPEC §1.4), so the sort is the
    /// field's wherever it is declared.
    Field(Term, Name, Sort),
}

struct Node {
    id: u64,
    /// The hash of the node's shape, kept so that leaving the interner's
    /// table costs no rehash (nodes are dropped as often as they are made).
    hash: u64,
    kind: TermKind,
}

/// A hash-consed term: cheap to clone, O(1) to compare and hash.
#[derive(Clone)]
pub struct Term(Rc<Node>);

thread_local! {
    static INTERNER: RefCell<Interner> = RefCell::new(Interner::default());
}

/// A node's shape with its children named by their nodes: what interning
/// compares (by id: ids are never reused, so a dead node's id can never
/// match) and hashes (by the children's hashes, so a node's hash is a
/// function of its structure alone, [`Term::structure_hash`]).
#[derive(PartialEq, Eq, Hash)]
enum Shape<'a> {
    Int(&'a BigInt),
    Bool(bool),
    Var(&'a Name, &'a Sort),
    Len(&'a Name),
    Unary(UnOp, Child<'a>),
    Binary(BinOp, Child<'a>, Child<'a>),
    Ite(Child<'a>, Child<'a>, Child<'a>),
    Select(Child<'a>, Child<'a>),
    Store(Child<'a>, Child<'a>, Child<'a>),
    Nil(&'a Name),
    FieldArray(&'a Name, &'a Sort),
    Field(Child<'a>, &'a Name, &'a Sort),
}

/// A child in a [`Shape`]: equal when it is the same node, hashed as its
/// node's structure.
struct Child<'a>(&'a Term);

impl PartialEq for Child<'_> {
    fn eq(&self, other: &Child<'_>) -> bool {
        self.0 == other.0
    }
}

impl Eq for Child<'_> {}

impl Hash for Child<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.structure_hash());
    }
}

impl Shape<'_> {
    fn of(kind: &TermKind) -> Shape<'_> {
        match kind {
            TermKind::Int(n) => Shape::Int(n),
            TermKind::Bool(b) => Shape::Bool(*b),
            TermKind::Var(name, sort) => Shape::Var(name, sort),
            TermKind::Len(name) => Shape::Len(name),
            TermKind::Unary(op, a) => Shape::Unary(*op, Child(a)),
            TermKind::Binary(op, a, b) => Shape::Binary(*op, Child(a), Child(b)),
            TermKind::Ite(a, b, c) => Shape::Ite(Child(a), Child(b), Child(c)),
            TermKind::Select(a, b) => Shape::Select(Child(a), Child(b)),
            TermKind::Store(a, b, c) => Shape::Store(Child(a), Child(b), Child(c)),
            TermKind::Nil(class) => Shape::Nil(class),
            TermKind::FieldArray(f, sort) => Shape::FieldArray(f, sort),
            TermKind::Field(a, f, sort) => Shape::Field(Child(a), f, sort),
        }
    }
}

/// The live nodes by shape: a node leaves the table when it is dropped,
/// so the table holds no dead node (whose memory a weak reference would
/// keep) and needs no sweep (which would visit every live node).
#[derive(Default)]
struct Interner {
    /// Eight bytes an entry, the table holding neither shapes nor hashes
    /// (each node keeps its own): the table is read at random on every
    /// term made, so the smaller it is, the more of it the caches hold.
    nodes: HashTable<Weak<Node>>,
    /// Seeded the same in every thread and run, so that a node's hash is
    /// the same wherever and whenever it is made.
    hasher: FixedState,
    next_id: u64,
}

impl Interner {
    fn intern(&mut self, kind: TermKind) -> Term {
        let shape = Shape::of(&kind);
        let hash = self.hasher.hash_one(&shape);
        let mut found = None;
        self.nodes.find(hash, |entry| {
            found = entry
                .upgrade()
                .filter(|node| node.hash == hash && Shape::of(&node.kind) == shape);
            found.is_some()
        });
        if let Some(node) = found {
            return Term(node);
        }
        self.next_id += 1;
        let node = Rc::new(Node {
            id: self.next_id,
            hash,
            kind,
        });
        // Every entry is live when the table grows (a dropped node has left
        // it); were one not, any bucket would do for it, as no lookup
        // can match it.
        self.nodes
            .insert_unique(hash, Rc::downgrade(&node), |entry| {
                entry.upgrade().map_or(0, |node| node.hash)
            });
        Term(node)
    }

    /// Removes the entry of the node at `node`, whose shape hashes to
    /// `hash`, which is being dropped.
    fn forget(&mut self, hash: u64, node: *const Node) {
        if let Ok(entry) = self.nodes.find_entry(hash, |entry| entry.as_ptr() == node) {
            entry.remove();
        }
    }
}

/// [`Interner::forget`] on this thread's table, unless it is gone (the
/// thread is ending) or busy (no node is dropped while a node is interned,
/// but a leftover entry would only cost its memory).
fn forget(hash: u64, node: *const Node) {
    let _ = INTERNER.try_with(|interner| {
        if let Ok(mut interner) = interner.try_borrow_mut() {
            interner.forget(hash, node);
        }
    });
}

/// What [`Term::and`] makes of two operands: `true` is the unit of `∧`
/// and `false` its zero, otherwise a `&&` node.
enum Conjoined {
    Left,
    Right,
    False,
    Node,
}

impl Conjoined {
    fn of(left: &Term, right: &Term) -> Conjoined {
        match (left.kind(), right.kind()) {
            (TermKind::Bool(true), _) => Conjoined::Right,
            (_, TermKind::Bool(true)) => Conjoined::Left,
            (TermKind::Bool(false), _) | (_, TermKind::Bool(false)) => Conjoined::False,
            _ => Conjoined::Node,
        }
    }
}

impl Term {
    /// The term with this shape, shared with every equal term alive.
    pub fn new(kind: TermKind) -> Term {
        INTERNER.with(|interner| interner.borrow_mut().intern(kind))
    }

    pub fn kind(&self) -> &TermKind {
        &self.0.kind
    }

    /// A per-thread unique node number: the key for memo tables. Ids
    /// follow the order nodes were made in, so they depend on everything
    /// the thread built before: nothing printed may depend on them.
    pub fn id(&self) -> u64 {
        self.0.id
    }

    /// A hash of the term's structure: equal terms have equal hashes in
    /// every thread and run, whatever was built before (unlike
    /// [`Term::id`]), so it may order or sample terms.
    pub fn structure_hash(&self) -> u64 {
        self.0.hash
    }

    pub fn int(value: impl Into<BigInt>) -> Term {
        Term::new(TermKind::Int(value.into()))
    }

    pub fn bool(value: bool) -> Term {
        Term::new(TermKind::Bool(value))
    }

    pub fn var(name: &str, sort: Sort) -> Term {
        Term::new(TermKind::Var(name.into(), sort))
    }

    pub fn len(array: &str) -> Term {
        Term::new(TermKind::Len(array.into()))
    }

    pub fn unary(op: UnOp, operand: Term) -> Term {
        Term::new(TermKind::Unary(op, operand))
    }

    pub fn binary(op: BinOp, left: Term, right: Term) -> Term {
        Term::new(TermKind::Binary(op, left, right))
    }

    pub fn ite(condition: Term, then: Term, otherwise: Term) -> Term {
        Term::new(TermKind::Ite(condition, then, otherwise))
    }

    pub fn select(array: Term, index: Term) -> Term {
        Term::new(TermKind::Select(array, index))
    }

    pub fn store(array: Term, index: Term, value: Term) -> Term {
        Term::new(TermKind::Store(array, index, value))
    }

    pub fn nil(class: &str) -> Term {
        Term::new(TermKind::Nil(class.into()))
    }

    pub fn field(object: Term, field: &str, sort: Sort) -> Term {
        Term::new(TermKind::Field(object, field.into(), sort))
    }

    /// The field `f` of the objects of `class`, of sort `element`, as an array (§4.1).
    pub fn field_array(field: &str, class: &str, element: Sort) -> Term {
        Term::new(TermKind::FieldArray(
            field.into(),
            Sort::Field(class.into(), Box::new(element)),
        ))
    }

    #[allow(clippy::should_implement_trait)] // a smart constructor, not `std::ops::Not`
    /// `¬b`, with `¬true = false`, `¬false = true` and `¬¬b = b`, so path
    /// conditions stay readable without changing their meaning.
    pub fn not(operand: Term) -> Term {
        match operand.kind() {
            TermKind::Bool(value) => Term::bool(!value),
            TermKind::Unary(UnOp::Not, inner) => inner.clone(),
            _ => Term::unary(UnOp::Not, operand),
        }
    }

    /// `φ ∧ b`, with `true` as unit and `false` as zero.
    pub fn and(left: Term, right: Term) -> Term {
        match Conjoined::of(&left, &right) {
            Conjoined::Left => left,
            Conjoined::Right => right,
            Conjoined::False => Term::bool(false),
            Conjoined::Node => Term::binary(BinOp::And, left, right),
        }
    }

    /// Whether this term is `Term::and(left, right)`, without making it.
    pub fn is_and_of(&self, left: &Term, right: &Term) -> bool {
        match Conjoined::of(left, right) {
            Conjoined::Left => self == left,
            Conjoined::Right => self == right,
            Conjoined::False => self.is_false(),
            Conjoined::Node => {
                matches!(self.kind(), TermKind::Binary(BinOp::And, l, r) if l == left && r == right)
            }
        }
    }

    /// `b₁ ∨ b₂`, with `false` as unit and `true` as zero.
    pub fn or(left: Term, right: Term) -> Term {
        match (left.kind(), right.kind()) {
            (TermKind::Bool(false), _) => right,
            (_, TermKind::Bool(false)) => left,
            (TermKind::Bool(true), _) | (_, TermKind::Bool(true)) => Term::bool(true),
            _ => Term::binary(BinOp::Or, left, right),
        }
    }

    /// `b₁ ⇒ b₂`, with `true ⇒ b = b` and `b ⇒ true = true`.
    pub fn implies(left: Term, right: Term) -> Term {
        match (left.kind(), right.kind()) {
            (TermKind::Bool(true), _) => right,
            (TermKind::Bool(false), _) | (_, TermKind::Bool(true)) => Term::bool(true),
            _ => Term::binary(BinOp::Implies, left, right),
        }
    }

    /// The conjunction of all `terms` (`true` when empty).
    pub fn conjunction(terms: impl IntoIterator<Item = Term>) -> Term {
        terms.into_iter().fold(Term::bool(true), Term::and)
    }

    /// The operands of a conjunction `b₁ ∧ … ∧ bₙ`, left to right (the term
    /// itself if it is no conjunction); iterative, for long chains.
    pub fn conjuncts(&self) -> Vec<Term> {
        let mut conjuncts = Vec::new();
        let mut pending = vec![self.clone()];
        while let Some(term) = pending.pop() {
            match term.kind() {
                TermKind::Binary(BinOp::And, left, right) => {
                    pending.push(right.clone());
                    pending.push(left.clone());
                }
                _ => conjuncts.push(term),
            }
        }
        conjuncts
    }

    pub fn is_true(&self) -> bool {
        matches!(self.kind(), TermKind::Bool(true))
    }

    pub fn is_false(&self) -> bool {
        matches!(self.kind(), TermKind::Bool(false))
    }

    /// The sort of a well-typed term (iterative: conditionals and updates
    /// nest arbitrarily deep, and the sort is found along one spine).
    pub fn sort(&self) -> Sort {
        let mut current = self;
        loop {
            return match current.kind() {
                TermKind::Int(_) | TermKind::Len(_) | TermKind::Unary(UnOp::Neg, _) => Sort::Int,
                TermKind::Bool(_) | TermKind::Unary(UnOp::Not, _) => Sort::Bool,
                TermKind::Binary(op, ..) if op.is_boolean() => Sort::Bool,
                TermKind::Binary(..) => Sort::Int,
                TermKind::Var(_, sort)
                | TermKind::Field(_, _, sort)
                | TermKind::FieldArray(_, sort) => sort.clone(),
                TermKind::Nil(class) => Sort::Object(class.clone()),
                TermKind::Ite(_, then, _) => {
                    current = then;
                    continue;
                }
                TermKind::Store(array, ..) => {
                    current = array;
                    continue;
                }
                TermKind::Select(array, _) => match array.sort() {
                    Sort::Array(element) | Sort::Field(_, element) => *element,
                    other => other,
                },
            };
        }
    }

    /// The direct subterms, left to right (at most three, kept inline:
    /// every walk over a term asks each node for them).
    pub fn children(&self) -> Children<'_> {
        match self.kind() {
            TermKind::Int(_)
            | TermKind::Bool(_)
            | TermKind::Var(..)
            | TermKind::Len(_)
            | TermKind::Nil(_)
            | TermKind::FieldArray(..) => Children::new(),
            TermKind::Unary(_, a) | TermKind::Field(a, ..) => smallvec![a],
            TermKind::Binary(_, a, b) | TermKind::Select(a, b) => smallvec![a, b],
            TermKind::Ite(a, b, c) | TermKind::Store(a, b, c) => smallvec![a, b, c],
        }
    }

    /// The term of the same shape over `children` (given left to right, as
    /// [`Term::children`] lists them); leaves are returned as they are.
    pub fn with_children(&self, children: &[Term]) -> Term {
        let c = |i: usize| children.get(i).cloned();
        let rebuilt = match self.kind() {
            TermKind::Unary(op, _) => c(0).map(|a| Term::unary(*op, a)),
            TermKind::Binary(op, ..) => c(0).zip(c(1)).map(|(a, b)| Term::binary(*op, a, b)),
            TermKind::Ite(..) => c(0)
                .zip(c(1))
                .zip(c(2))
                .map(|((a, b), d)| Term::ite(a, b, d)),
            TermKind::Select(..) => c(0).zip(c(1)).map(|(a, b)| Term::select(a, b)),
            TermKind::Store(..) => c(0)
                .zip(c(1))
                .zip(c(2))
                .map(|((a, b), d)| Term::store(a, b, d)),
            TermKind::Field(_, f, sort) => c(0).map(|a| Term::field(a, f, sort.clone())),
            _ => None,
        };
        rebuilt.unwrap_or_else(|| self.clone())
    }

    /// This term with every node replaced by `image(node, its children's
    /// images)`, computed once per distinct node, children first: the
    /// memoised bottom-up rewrite that substitution and the calculi share,
    /// linear in the DAG size.
    pub fn rebuilt(&self, image: impl FnMut(&Term, &[Term]) -> Term) -> Term {
        self.rebuilt_into(&mut IdMap::default(), image)
    }

    /// [`Term::rebuilt`] over a memo kept by the caller: the nodes `memo`
    /// holds already (with every node below them) keep their images, the
    /// others get theirs added, so rewriting many terms that share nodes
    /// under one `image` costs the new nodes only.
    pub fn rebuilt_into(
        &self,
        memo: &mut IdMap<Term>,
        mut image: impl FnMut(&Term, &[Term]) -> Term,
    ) -> Term {
        for node in self.nodes_besides(|n| memo.contains_key(&n.id())) {
            let children: Vec<Term> = node
                .children()
                .into_iter()
                .map(|c| memo[&c.id()].clone())
                .collect();
            let rebuilt = image(&node, &children);
            memo.insert(node.id(), rebuilt);
        }
        memo[&self.id()].clone()
    }

    /// Every distinct node reachable from this term, children before parents.
    pub fn nodes(&self) -> Vec<Term> {
        self.nodes_besides(|_| false).into_vec()
    }

    /// The distinct nodes, children first, except those `known` accepts and
    /// the nodes below them: what a memo table that holds every node below
    /// each of its entries still lacks (so filling it costs the new nodes,
    /// not the whole DAG).
    pub fn nodes_besides(&self, known: impl Fn(&Term) -> bool) -> SmallVec<[Term; 4]> {
        if known(self) {
            // The usual answer of a memo table.
            return SmallVec::new();
        }
        let mut seen = Seen::default();
        // Inline: a memo table mostly lacks a node or two (a new guard over known terms).
        let mut order = SmallVec::new();
        let mut stack: SmallVec<[(Term, bool); 16]> = smallvec![(self.clone(), false)];
        while let Some((term, expanded)) = stack.pop() {
            if expanded {
                order.push(term);
            } else if !known(&term) && seen.insert(term.id()) {
                stack.push((term.clone(), true));
                for child in term.children().into_iter().rev() {
                    stack.push((child.clone(), false));
                }
            }
        }
        order
    }

    /// Number of distinct nodes (the term as a DAG).
    pub fn dag_size(&self) -> usize {
        self.nodes().len()
    }

    /// Number of nodes of the term written out as a tree (saturating).
    pub fn tree_size(&self) -> u64 {
        let mut sizes: IdMap<u64> = IdMap::default();
        for node in self.nodes() {
            let size = node.children().iter().fold(1u64, |total, child| {
                total.saturating_add(sizes[&child.id()])
            });
            sizes.insert(node.id(), size);
        }
        sizes[&self.id()]
    }

    /// The variables occurring in the term, with their sorts, in name order.
    /// `len(a)` counts as an occurrence of the input `a`.
    pub fn free_vars(&self) -> std::collections::BTreeMap<Name, Sort> {
        let mut vars = std::collections::BTreeMap::new();
        for node in self.nodes() {
            match node.kind() {
                TermKind::Var(name, sort) => {
                    vars.insert(name.clone(), sort.clone());
                }
                TermKind::Len(name) => {
                    vars.entry(name.clone()).or_insert_with(Sort::int_array);
                }
                _ => {}
            }
        }
        vars
    }
}

impl Drop for Node {
    /// Leaves the interner's table, and frees chains of uniquely owned
    /// nodes iteratively: a term a million nodes deep (a long-running
    /// loop) must not overflow the stack when dropped.
    fn drop(&mut self) {
        forget(self.hash, self);
        let mut pending = take_children(&mut self.kind);
        while let Some(Term(node)) = pending.pop() {
            let at = Rc::as_ptr(&node);
            if let Ok(node) = Rc::try_unwrap(node) {
                // Emptied here, so it needs no drop of its own.
                let mut node = ManuallyDrop::new(node);
                forget(node.hash, at);
                pending.extend(take_children(&mut node.kind));
            }
        }
    }
}

/// The children of a node, which is left a leaf that owns nothing.
fn take_children(kind: &mut TermKind) -> SmallVec<[Term; 3]> {
    match std::mem::replace(kind, TermKind::Bool(false)) {
        TermKind::Unary(_, a) | TermKind::Field(a, ..) => smallvec![a],
        TermKind::Binary(_, a, b) | TermKind::Select(a, b) => smallvec![a, b],
        TermKind::Ite(a, b, c) | TermKind::Store(a, b, c) => smallvec![a, b, c],
        _ => SmallVec::new(),
    }
}

impl PartialEq for Term {
    fn eq(&self, other: &Term) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Term {}

impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.id.hash(state);
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_terms_are_one_node() {
        let x = Term::var("x", Sort::Int);
        let a = Term::binary(BinOp::Add, x.clone(), Term::int(1));
        let b = Term::binary(BinOp::Add, Term::var("x", Sort::Int), Term::int(1));
        assert_eq!(a, b);
        assert_eq!(a.id(), b.id());
        assert_ne!(a, Term::binary(BinOp::Add, x, Term::int(2)));
    }

    #[test]
    fn doubling_grows_the_tree_not_the_dag() {
        let mut term = Term::var("x", Sort::Int);
        for _ in 0..100 {
            term = Term::binary(BinOp::Add, term.clone(), term);
        }
        assert_eq!(term.dag_size(), 101);
        assert_eq!(term.tree_size(), u64::MAX);
    }

    #[test]
    fn boolean_units_are_folded() {
        let b = Term::var("b", Sort::Bool);
        assert_eq!(Term::and(Term::bool(true), b.clone()), b);
        assert_eq!(Term::not(Term::not(b.clone())), b);
        assert!(Term::and(b.clone(), Term::bool(false)).is_false());
        assert_eq!(Term::conjunction([]), Term::bool(true));
    }

    #[test]
    fn a_conjunction_is_recognised_without_being_made() {
        let (a, b) = (Term::var("a", Sort::Bool), Term::var("b", Sort::Bool));
        let (t, f) = (Term::bool(true), Term::bool(false));
        let pairs = [(&a, &b), (&b, &a), (&t, &a), (&a, &t), (&f, &a), (&a, &f)];
        for (left, right) in pairs {
            let made = Term::and(left.clone(), right.clone());
            assert!(made.is_and_of(left, right), "{made} is {left} && {right}");
            for (other_left, other_right) in pairs {
                let other = Term::and(other_left.clone(), other_right.clone());
                assert_eq!(
                    other.is_and_of(left, right),
                    other == made,
                    "{other} vs {made}"
                );
            }
        }
    }
}
