//! A decision procedure for the queries of heap programs, so that their
//! exploration need not make a Z3 context (≥ 32 MB, docs/performance.md):
//! congruence closure (Downey, Sethi & Tarjan 1980; Nelson & Oppen 1980)
//! over references — variables, `nil` and field reads `e.f` = `f[e]` as
//! applications of the uninterpreted function `f` — combined with
//! difference bounds `x - y ≤ c` over the integer variables and integer
//! field reads (Bellman–Ford: a negative cycle is a contradiction).
//!
//! The query is a conjunction of boolean terms. Its boolean structure
//! (`||`, `!`, conditionals, reads of updated fields `(f[i] := v)[j]`, which
//! are `if i = j then v else f[j] fi`) is split by cases, depth first,
//! a case whose condition the literals so far decide taking that branch
//! only (DPLL's unit propagation, for the conditionals of wp's aliasing).
//! Each case is a conjunction of literals, decided exactly:
//! - the closure merges the references every equality and congruence
//!   (`x = y` ⇒ `x.f = y.f`) makes equal; a disequality inside one class is
//!   a contradiction;
//! - the integer literals are bounds between classes of integer terms
//!   (`x.val` and `y.val` are one term when `x` and `y` are one class), and
//!   `a != b` is split into `a < b` or `a > b`.
//!
//! A consistent case has a model: one object per class of references (the
//! classes the closure keeps apart are distinct, which is all the
//! disequalities ask), `nil` for the class of `nil`, and the bounds'
//! shortest distances for the integers. The answer is `Sat` only with that
//! model confirmed by the evaluator on the whole query, `Unsat` when every
//! case is contradictory, and `Unknown` for anything outside the fragment
//! (arithmetic beyond `x + c`, arrays, booleans as values) or past a budget
//! of cases or of work: Z3 is then asked as before.

mod classes;
mod incremental;
#[cfg(test)]
mod tests;

pub(crate) use incremental::{ClosureStack, ContextClosure};

use crate::mutants::{self, Mutant};
use classes::Classes;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::collections::{BTreeMap, HashMap};
use symex_semantics::eval::{eval_bool, Valuation};
use symex_semantics::heap::{Heap, Object};
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind, UnOp};
use symex_semantics::value::{Oid, Value};

/// The answer for a conjunction.
#[derive(Clone, Debug)]
pub(crate) enum Decision {
    /// Satisfiable, with a model of the query's variables that the
    /// evaluator confirms.
    Sat(Valuation),
    Unsat,
    /// Outside the fragment, past the budget, or a model the evaluator
    /// could not confirm (a read of `nil.f`).
    Unknown,
}

/// Cases split (both ways) at most before answering `Unknown`.
const CASE_BUDGET: usize = 4096;

/// Terms taken and conditions weighed at most in one search before
/// answering `Unknown`. A case costs what the splits it leaves undecided
/// do, weighed again in every case below it: the long disjunctions of
/// merged states (`bound`, `--merge`) made single searches of 4096 cases
/// take half a second, hundreds of them at one leaf. No query of the
/// paper examples, the tests' programs or `bench`'s families takes more
/// than 20 000.
const WORK_BUDGET: usize = 1 << 16;

/// Whether the conjunction of `conjuncts` is satisfiable, from scratch.
pub(crate) fn decide(conjuncts: &[Term]) -> Decision {
    let decision = decision(conjuncts);
    #[cfg(test)]
    tests::record(conjuncts, &decision);
    decision
}

fn decision(conjuncts: &[Term]) -> Decision {
    let mut search = Search::new(Terms::default());
    let pending = conjuncts.iter().map(|c| (c.clone(), true)).collect();
    let found = search.case(Literals::default(), pending, Vec::new());
    answer(found, &search.terms, conjuncts, || Reads::of(conjuncts))
}

/// The answer for `conjuncts` from the outcome of the search over `terms`:
/// `Sat` only with the model of the consistent case that the evaluator
/// confirms on every conjunct; `reads`, what the conjuncts read, is
/// needed for the model only.
fn answer(
    found: Result<Option<Literals>, OutsideFragment>,
    terms: &Terms,
    conjuncts: &[Term],
    reads: impl FnOnce() -> Reads,
) -> Decision {
    match found {
        Err(OutsideFragment) => Decision::Unknown,
        Ok(None) => Decision::Unsat,
        Ok(Some(mut literals)) => {
            let model = terms.model(&mut literals, &reads());
            let confirmed = conjuncts.iter().all(|c| eval_bool(c, &model) == Ok(true));
            if confirmed {
                Decision::Sat(model)
            } else {
                Decision::Unknown
            }
        }
    }
}

/// The query leaves the fragment, or the budget ran out.
#[derive(Clone, Copy, Debug)]
struct OutsideFragment;

/// What a query reads, which its model gives a value even where no case
/// taken mentions it: its variables, and each class's fields.
#[derive(Clone, Debug, Default)]
struct Reads {
    variables: BTreeMap<Name, Sort>,
    fields: BTreeMap<Name, BTreeMap<Name, Sort>>,
}

impl Reads {
    /// What the conjunction of `conjuncts` reads.
    fn of(conjuncts: &[Term]) -> Reads {
        let mut reads = Reads::default();
        for node in conjuncts.iter().flat_map(Term::nodes) {
            let (class, f, sort) = match node.kind() {
                TermKind::Field(object, f, sort) => match object.sort() {
                    Sort::Object(class) => (class, f.clone(), sort.clone()),
                    _ => continue,
                },
                TermKind::FieldArray(f, Sort::Field(class, sort)) => {
                    (class.clone(), f.clone(), (**sort).clone())
                }
                TermKind::Var(x, sort) => {
                    reads.variables.insert(x.clone(), sort.clone());
                    continue;
                }
                _ => continue,
            };
            reads.fields.entry(class).or_default().insert(f, sort);
        }
        reads
    }

    /// What both read.
    fn and(&self, other: &Reads) -> Reads {
        let mut both = self.clone();
        both.variables
            .extend(other.variables.iter().map(|(x, s)| (x.clone(), s.clone())));
        for (class, fields) in &other.fields {
            let known = both.fields.entry(class.clone()).or_default();
            known.extend(fields.iter().map(|(f, s)| (f.clone(), s.clone())));
        }
        both
    }
}

/// A term of the closure: an index into [`Terms`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Key(u32);

/// What a term of the closure is.
#[derive(Clone, Debug)]
enum Shape {
    /// A variable (an input) or `nil` of a class.
    Leaf(Term),
    /// `arg.f`.
    Read(Name, Key),
}

/// The terms met so far in any case, shared by all cases: a term a case
/// does not mention constrains nothing there. Persistent (`im`), like
/// [`Classes`], so that a node's closure shares its parent's terms.
#[derive(Clone, Default)]
struct Terms {
    shapes: im::Vector<(Shape, Sort)>,
    index: im::HashMap<(Name, Key), Key>,
    leaves: im::HashMap<u64, Key>,
}

impl Terms {
    /// The closure's term for the conditional-free reference or integer
    /// term `t`; `None` outside the fragment.
    fn key(&mut self, t: &Term) -> Option<Key> {
        match t.kind() {
            TermKind::Var(_, Sort::Int | Sort::Object(_)) | TermKind::Nil(_) => {
                if let Some(key) = self.leaves.get(&t.id()) {
                    return Some(*key);
                }
                let key = self.add(Shape::Leaf(t.clone()), t.sort());
                self.leaves.insert(t.id(), key);
                Some(key)
            }
            TermKind::Field(object, f, sort @ (Sort::Int | Sort::Object(_))) => {
                let arg = self.key(object)?;
                Some(self.read(f, arg, sort))
            }
            TermKind::Select(array, object) => match array.kind() {
                TermKind::FieldArray(f, Sort::Field(_, sort))
                    if matches!(**sort, Sort::Int | Sort::Object(_)) =>
                {
                    let arg = self.key(object)?;
                    Some(self.read(f, arg, sort))
                }
                _ => None,
            },
            _ => None,
        }
    }

    fn read(&mut self, f: &Name, arg: Key, sort: &Sort) -> Key {
        if let Some(key) = self.index.get(&(f.clone(), arg)) {
            return *key;
        }
        let key = self.add(Shape::Read(f.clone(), arg), sort.clone());
        self.index.insert((f.clone(), arg), key);
        key
    }

    fn add(&mut self, shape: Shape, sort: Sort) -> Key {
        let key = Key(self.shapes.len() as u32);
        self.shapes.push_back((shape, sort));
        key
    }

    /// The model of a consistent case: an object per class of references
    /// (`nil` for the class of `nil`), the shortest distances for the
    /// integers, and defaults for the rest of what the query `reads` (the
    /// variables and fields of the cases not taken, which the evaluator
    /// reads too).
    fn model(&self, literals: &mut Literals, reads: &Reads) -> Valuation {
        literals.grow(self);
        let distances = literals.distances(self).unwrap_or_default();
        let mut objects: BTreeMap<Key, Value> = BTreeMap::new();
        for (i, (shape, _)) in self.shapes.iter().enumerate() {
            if let Shape::Leaf(t) = shape {
                if matches!(t.kind(), TermKind::Nil(_)) {
                    objects.insert(literals.find(Key(i as u32)), Value::Nil);
                }
            }
        }
        let mut value = |literals: &mut Literals, key: Key| -> Value {
            let root = literals.find(key);
            match &self.shapes[key.0 as usize].1 {
                Sort::Int => Value::Int(distances.get(&root).cloned().unwrap_or_default()),
                _ => {
                    let next = Oid(objects.len() as u32 + 1);
                    objects
                        .entry(root)
                        .or_insert_with(|| Value::Object(next))
                        .clone()
                }
            }
        };
        let mut model = Valuation::new();
        let mut fields: BTreeMap<Oid, (Name, im::OrdMap<Name, Value>)> = BTreeMap::new();
        for (i, (shape, _)) in self.shapes.iter().enumerate() {
            let key = Key(i as u32);
            match shape {
                Shape::Leaf(t) => {
                    if let TermKind::Var(x, _) = t.kind() {
                        let v = value(literals, key);
                        model.insert(x.clone(), v);
                    }
                }
                Shape::Read(f, arg) => {
                    let (Value::Object(o), Sort::Object(class)) =
                        (value(literals, *arg), &self.shapes[arg.0 as usize].1)
                    else {
                        continue;
                    };
                    let v = value(literals, key);
                    let entry = fields
                        .entry(o)
                        .or_insert_with(|| (class.clone(), im::OrdMap::new()));
                    entry.1.insert(f.clone(), v);
                }
            }
        }
        for (x, sort) in &reads.variables {
            if model.get(x).is_none() {
                model.insert(x.clone(), Value::default_of(sort));
            }
        }
        // Every object has every field the query reads of its class.
        let read = &reads.fields;
        let mut heap = Heap::new();
        for o in objects.values().filter_map(|v| match v {
            Value::Object(o) => Some(*o),
            _ => None,
        }) {
            let (class, mut values) = match fields.remove(&o) {
                Some(known) => known,
                None => match self.class_of(o, &objects) {
                    Some(class) => (class, im::OrdMap::new()),
                    None => continue,
                },
            };
            for (f, sort) in read.get(&class).into_iter().flatten() {
                if !values.contains_key(f) {
                    values.insert(f.clone(), Value::default_of(sort));
                }
            }
            heap = heap.insert(
                o,
                Object {
                    class,
                    fields: values,
                },
            );
        }
        model.with_heap(heap)
    }

    /// The class of the object `o` stands for.
    fn class_of(&self, o: Oid, objects: &BTreeMap<Key, Value>) -> Option<Name> {
        let (root, _) = objects.iter().find(|(_, v)| **v == Value::Object(o))?;
        match &self.shapes[root.0 as usize].1 {
            Sort::Object(class) => Some(class.clone()),
            _ => None,
        }
    }
}

/// `x - y ≤ c` between two integer terms of the closure (`None`: zero).
type Bound = (Option<Key>, Option<Key>, BigInt);

/// The literals of one case: the closure's classes, its disequalities and
/// the integer bounds (persistent, like [`Terms`]).
#[derive(Clone, Default)]
struct Literals {
    classes: Classes,
    disequal: im::Vector<(Key, Key)>,
    bounds: im::Vector<Bound>,
}

impl Literals {
    /// Takes in the terms met since this case was copied, with what
    /// congruence says of them (`x.f` is `y.f` if `x` is `y` already).
    fn grow(&mut self, terms: &Terms) {
        if self.classes.len() == terms.shapes.len() {
            return;
        }
        while self.classes.len() < terms.shapes.len() {
            self.classes.new_key();
        }
        if !mutants::active(Mutant::CongruenceForgotten) {
            self.close(terms);
        }
    }

    fn find(&mut self, key: Key) -> Key {
        self.classes.find(key)
    }

    /// `a = b` and its consequences by congruence; `false` on a contradiction.
    fn merge(&mut self, terms: &Terms, a: Key, b: Key) -> bool {
        self.grow(terms);
        self.classes.union(a, b);
        if !mutants::active(Mutant::CongruenceForgotten) {
            self.close(terms);
        }
        self.consistent(terms)
    }

    /// Merges `x.f` and `y.f` whenever `x` and `y` are one class, to a fixpoint.
    fn close(&mut self, terms: &Terms) {
        loop {
            let mut signatures: HashMap<(&Name, Key), Key> = HashMap::new();
            let mut merged = false;
            for (i, (shape, _)) in terms.shapes.iter().enumerate() {
                if let Shape::Read(f, arg) = shape {
                    let signature = (f, self.find(*arg));
                    let key = Key(i as u32);
                    match signatures.get(&signature) {
                        Some(other) if !self.classes.unioned(*other, key) => {
                            self.classes.union(*other, key);
                            merged = true;
                        }
                        Some(_) => {}
                        None => {
                            signatures.insert(signature, key);
                        }
                    }
                }
            }
            if !merged {
                return;
            }
        }
    }

    fn consistent(&mut self, terms: &Terms) -> bool {
        self.grow(terms);
        let disequal = self.disequal.clone();
        let apart = disequal.iter().all(|(a, b)| !self.classes.unioned(*a, *b));
        apart && self.distances(terms).is_some()
    }

    /// The shortest distance of each integer class from the bounds
    /// (Bellman–Ford from a virtual source), so that every bound holds;
    /// `None` when the bounds are contradictory (a negative cycle).
    fn distances(&mut self, terms: &Terms) -> Option<HashMap<Key, BigInt>> {
        self.grow(terms);
        // Zero is a vertex of its own, `None`.
        let edges: Vec<(Option<Key>, Option<Key>, BigInt)> = self
            .bounds
            .clone()
            .into_iter()
            .map(|(x, y, c)| (x.map(|x| self.find(x)), y.map(|y| self.find(y)), c))
            .collect();
        let mut distance: HashMap<Option<Key>, BigInt> = HashMap::new();
        for (x, y, _) in &edges {
            distance.insert(*x, BigInt::zero());
            distance.insert(*y, BigInt::zero());
        }
        distance.insert(None, BigInt::zero());
        let vertices = distance.len();
        for round in 0..=vertices {
            let mut relaxed = false;
            // x - y ≤ c: an edge y → x of weight c.
            for (x, y, c) in &edges {
                let through = &distance[y] + c;
                if through < distance[x] {
                    distance.insert(*x, through);
                    relaxed = true;
                }
            }
            if !relaxed {
                let zero = distance[&None].clone();
                return Some(
                    distance
                        .into_iter()
                        .filter_map(|(k, d)| Some((k?, d - &zero)))
                        .collect(),
                );
            }
            if round == vertices {
                return None;
            }
        }
        None
    }
}

struct Search {
    terms: Terms,
    cases: usize,
    /// Terms taken ([`Search::step`]) and conditions weighed ([`Search::truth`]).
    work: usize,
}

/// A boolean term with the truth value the case gives it.
type Pending = Vec<(Term, bool)>;

/// A disjunction not yet decided: the first or the second list of terms.
type Splits = Vec<(Pending, Pending)>;

/// What one boolean term of a case comes to.
enum Step {
    /// Terms to take in its stead (the conjuncts of a conjunction).
    Conjuncts(Pending),
    /// A literal, taken in: whether the case is still consistent.
    Literal(bool),
    /// Two cases, the first or the second list of terms.
    Split(Pending, Pending),
}

impl Search {
    fn new(terms: Terms) -> Search {
        Search {
            terms,
            cases: 0,
            work: 0,
        }
    }

    /// A consistent extension of `literals` by `pending` and one case of
    /// each of `splits`, if there is one. The literals go first
    /// ([`Search::propagated`]); only then is a split tried both ways.
    fn case(
        &mut self,
        literals: Literals,
        pending: Pending,
        splits: Splits,
    ) -> Result<Option<Literals>, OutsideFragment> {
        let Some((literals, mut splits)) = self.propagated(literals, pending, splits)? else {
            return Ok(None);
        };
        let Some((first, second)) = splits.pop() else {
            return Ok(Some(literals));
        };
        self.cases += 1;
        if self.cases > CASE_BUDGET {
            return Err(OutsideFragment);
        }
        for case in [first, second] {
            let pending = case.into_iter().rev().collect();
            if let Some(found) = self.case(literals.clone(), pending, splits.clone())? {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    /// `literals` extended by `pending`, with the splits they leave
    /// undecided; `None` on a contradiction. The literals go first; a split
    /// whose condition they decide then takes its case (DPLL's unit
    /// propagation), until nothing is pending.
    fn propagated(
        &mut self,
        mut literals: Literals,
        mut pending: Pending,
        mut splits: Splits,
    ) -> Result<Option<(Literals, Splits)>, OutsideFragment> {
        loop {
            while let Some((b, truth)) = pending.pop() {
                self.within_budget()?;
                match self.step(&mut literals, &b, truth)? {
                    Step::Conjuncts(terms) => pending.extend(terms),
                    Step::Literal(false) => return Ok(None),
                    Step::Literal(true) => {}
                    Step::Split(first, second) => splits.push((first, second)),
                }
            }
            let mut undecided = Vec::with_capacity(splits.len());
            for (first, second) in std::mem::take(&mut splits) {
                self.within_budget()?;
                match self.decided(&mut literals, &first, &second) {
                    Some(Some(case)) => pending.extend(case.into_iter().rev()),
                    Some(None) => {}
                    None => undecided.push((first, second)),
                }
            }
            splits = undecided;
            if pending.is_empty() {
                return Ok(Some((literals, splits)));
            }
        }
    }

    /// Whether the search may go on: within [`WORK_BUDGET`], beyond which
    /// it gives up as on a term outside the fragment.
    fn within_budget(&self) -> Result<(), OutsideFragment> {
        match self.work > WORK_BUDGET {
            true => Err(OutsideFragment),
            false => Ok(()),
        }
    }

    /// The case of a split the literals decide: `Some(None)` when they make
    /// it hold already (a disjunct holds), `None` when they decide nothing.
    fn decided(
        &mut self,
        literals: &mut Literals,
        first: &Pending,
        second: &Pending,
    ) -> Option<Option<Pending>> {
        let mut holds = |this: &mut Search, (b, truth): &(Term, bool)| {
            this.truth(literals, b).map(|value| value == *truth)
        };
        if first.len() == 2 {
            // A conditional: `first[0]` is its condition.
            return match holds(self, &first[0])? {
                true => Some(Some(first.clone())),
                false => Some(Some(second.clone())),
            };
        }
        match (holds(self, &first[0]), holds(self, &second[0])) {
            (Some(true), _) | (_, Some(true)) => Some(None),
            (Some(false), _) => Some(Some(second.clone())),
            (_, Some(false)) => Some(Some(first.clone())),
            _ => None,
        }
    }

    /// What the boolean term `b`, taken with the truth value `truth`, comes to.
    fn step(
        &mut self,
        literals: &mut Literals,
        b: &Term,
        truth: bool,
    ) -> Result<Step, OutsideFragment> {
        self.work += 1;
        let pair = |first: Pending, second: Pending| Ok(Step::Split(first, second));
        match b.kind() {
            TermKind::Bool(value) => Ok(Step::Literal(*value == truth)),
            TermKind::Unary(UnOp::Not, a) => Ok(Step::Conjuncts(vec![(a.clone(), !truth)])),
            TermKind::Binary(BinOp::And, l, r) if truth => {
                Ok(Step::Conjuncts(vec![(l.clone(), true), (r.clone(), true)]))
            }
            TermKind::Binary(BinOp::Or, l, r) if !truth => Ok(Step::Conjuncts(vec![
                (l.clone(), false),
                (r.clone(), false),
            ])),
            TermKind::Binary(BinOp::Implies, l, r) if !truth => {
                Ok(Step::Conjuncts(vec![(l.clone(), true), (r.clone(), false)]))
            }
            TermKind::Binary(BinOp::And, l, r) => {
                pair(vec![(l.clone(), false)], vec![(r.clone(), false)])
            }
            TermKind::Binary(BinOp::Or, l, r) => {
                pair(vec![(l.clone(), true)], vec![(r.clone(), true)])
            }
            TermKind::Binary(BinOp::Implies, l, r) => {
                pair(vec![(l.clone(), false)], vec![(r.clone(), true)])
            }
            TermKind::Ite(c, t, e) => pair(
                vec![(c.clone(), true), (t.clone(), truth)],
                vec![(c.clone(), false), (e.clone(), truth)],
            ),
            TermKind::Binary(op, l, r) if op.is_comparison() => {
                let reduced = self.reduced(literals, b);
                if reduced.id() != b.id() {
                    return Ok(Step::Conjuncts(vec![(reduced, truth)]));
                }
                self.comparison(literals, b, (*op, l, r), truth)
            }
            _ => Err(OutsideFragment),
        }
    }

    /// What the comparison `b` = `l op r`, with no conditional the literals
    /// decide, comes to: a split on its first conditional, or a literal.
    fn comparison(
        &mut self,
        literals: &mut Literals,
        b: &Term,
        (op, l, r): (BinOp, &Term, &Term),
        truth: bool,
    ) -> Result<Step, OutsideFragment> {
        let pair = |first: Pending, second: Pending| Ok(Step::Split(first, second));
        match first_conditional(b) {
            Some((node, c, then, otherwise)) => {
                let on = |image: &Term| {
                    b.rebuilt(|n, children| {
                        if n.id() == node.id() {
                            image.clone()
                        } else {
                            n.with_children(children)
                        }
                    })
                };
                pair(
                    vec![(c.clone(), true), (on(&then), truth)],
                    vec![(c, false), (on(&otherwise), truth)],
                )
            }
            // An integer `l != r` is two cases, `l < r` or `l > r`.
            None if l.sort() == Sort::Int && effective(op, truth) == BinOp::Ne => pair(
                vec![(Term::binary(BinOp::Lt, l.clone(), r.clone()), true)],
                vec![(Term::binary(BinOp::Gt, l.clone(), r.clone()), true)],
            ),
            None => Ok(Step::Literal(self.literal(literals, op, l, r, truth)?)),
        }
    }

    /// `b` with each conditional whose condition the literals decide
    /// replaced by the term it chooses, children first (one pass over the DAG).
    fn reduced(&mut self, literals: &mut Literals, b: &Term) -> Term {
        b.rebuilt(|node, children| {
            let unchanged = node
                .children()
                .iter()
                .zip(children)
                .all(|(old, new)| old.id() == new.id());
            let node = if unchanged {
                node.clone()
            } else {
                node.with_children(children)
            };
            match choice(&node) {
                Some((c, then, otherwise)) => match self.truth(literals, &c) {
                    Some(true) => then,
                    Some(false) => otherwise,
                    None => node,
                },
                None => node,
            }
        })
    }

    /// Whether the literals decide `c`: a conditional-free reference
    /// equality, or a boolean combination of such.
    fn truth(&mut self, literals: &mut Literals, c: &Term) -> Option<bool> {
        self.work += 1;
        let (op, l, r) = match c.kind() {
            TermKind::Bool(value) => return Some(*value),
            TermKind::Unary(UnOp::Not, a) => return self.truth(literals, a).map(|a| !a),
            TermKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let absorbing = *op == BinOp::Or;
                return match self.truth(literals, a) {
                    Some(value) if value == absorbing => Some(value),
                    Some(_) => self.truth(literals, b),
                    None => self.truth(literals, b).filter(|value| *value == absorbing),
                };
            }
            TermKind::Binary(op @ (BinOp::Eq | BinOp::Ne), l, r) => (op, l, r),
            _ => return None,
        };
        if !matches!(l.sort(), Sort::Object(_)) {
            return None;
        }
        let (a, b) = (self.terms.key(l)?, self.terms.key(r)?);
        literals.grow(&self.terms);
        let (a, b) = (literals.find(a), literals.find(b));
        let equal = if a == b {
            Some(true)
        } else if literals.disequal.clone().iter().any(|(x, y)| {
            let (x, y) = (literals.find(*x), literals.find(*y));
            (x, y) == (a, b) || (y, x) == (a, b)
        }) {
            Some(false)
        } else {
            None
        };
        equal.map(|equal| equal == (*op == BinOp::Eq))
    }

    /// Adds the conditional-free comparison `l op r` (or its negation);
    /// `false` on a contradiction.
    fn literal(
        &mut self,
        literals: &mut Literals,
        op: BinOp,
        l: &Term,
        r: &Term,
        truth: bool,
    ) -> Result<bool, OutsideFragment> {
        let op = effective(op, truth);
        if matches!(l.sort(), Sort::Object(_)) {
            let (a, b) = (
                self.terms.key(l).ok_or(OutsideFragment)?,
                self.terms.key(r).ok_or(OutsideFragment)?,
            );
            return Ok(match op {
                BinOp::Eq => literals.merge(&self.terms, a, b),
                BinOp::Ne => {
                    if !mutants::active(Mutant::DisequalityForgotten) {
                        literals.disequal.push_back((a, b));
                    }
                    literals.consistent(&self.terms)
                }
                _ => return Err(OutsideFragment),
            });
        }
        if l.sort() != Sort::Int {
            return Err(OutsideFragment);
        }
        let (x, cx) = self.offset(l).ok_or(OutsideFragment)?;
        let (y, cy) = self.offset(r).ok_or(OutsideFragment)?;
        // l op r ⇔ x - y op cy - cx.
        let c = cy - cx;
        let one = BigInt::one();
        let bounds: Vec<Bound> = match op {
            BinOp::Le => vec![(x, y, c)],
            BinOp::Lt if mutants::active(Mutant::StrictBoundTooStrict) => vec![(x, y, c - 2)],
            BinOp::Lt => vec![(x, y, c - one)],
            BinOp::Ge => vec![(y, x, -c)],
            BinOp::Gt => vec![(y, x, -c - one)],
            BinOp::Eq => vec![(x, y, c.clone()), (y, x, -c)],
            _ => return Err(OutsideFragment),
        };
        literals.bounds.extend(bounds);
        Ok(literals.consistent(&self.terms))
    }

    /// `t` as a closure term plus a constant (`None` for a constant alone).
    fn offset(&mut self, t: &Term) -> Option<(Option<Key>, BigInt)> {
        match t.kind() {
            TermKind::Int(n) => Some((None, n.clone())),
            TermKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                let (x, cx) = self.offset(a)?;
                let (y, cy) = self.offset(b)?;
                match (x, y, op) {
                    (x, None, BinOp::Add) => Some((x, cx + cy)),
                    (None, y, BinOp::Add) => Some((y, cx + cy)),
                    (x, None, _) => Some((x, cx - cy)),
                    _ => None,
                }
            }
            _ => Some((Some(self.terms.key(t)?), BigInt::zero())),
        }
    }
}

/// The first conditional of `b`, children first (so its condition has none),
/// with the condition and the two terms it chooses between.
fn first_conditional(b: &Term) -> Option<(Term, Term, Term, Term)> {
    b.nodes().into_iter().find_map(|node| {
        let (c, then, otherwise) = choice(&node)?;
        Some((node, c, then, otherwise))
    })
}

/// The condition of `node` and the terms it chooses between, if `node` is a
/// conditional; a read of an updated field `(f[i] := v)[j]` is
/// `if i = j then v else f[j] fi`.
fn choice(node: &Term) -> Option<(Term, Term, Term)> {
    match node.kind() {
        TermKind::Ite(c, t, e) => Some((c.clone(), t.clone(), e.clone())),
        TermKind::Select(array, j) => match array.kind() {
            TermKind::Store(a, i, v) => Some((
                Term::binary(BinOp::Eq, i.clone(), j.clone()),
                v.clone(),
                Term::select(a.clone(), j.clone()),
            )),
            _ => None,
        },
        _ => None,
    }
}

/// The comparison that `op` taken with the truth value `truth` is.
fn effective(op: BinOp, truth: bool) -> BinOp {
    if truth {
        op
    } else {
        negated(op)
    }
}

/// The comparison that holds exactly when `op` does not.
fn negated(op: BinOp) -> BinOp {
    match op {
        BinOp::Eq => BinOp::Ne,
        BinOp::Ne => BinOp::Eq,
        BinOp::Lt => BinOp::Ge,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        BinOp::Ge => BinOp::Lt,
        other => other,
    }
}
