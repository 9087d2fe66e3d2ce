//! Random well-typed symbolic traces of §4 and random *consistent*
//! configurations `V = (G, H)` for them, over a pool small enough that
//! aliasing is the rule rather than the exception.
//!
//! Two classes, each with a reference field and an integer field
//! (`N { next: N; val: int }`, `P { head: N; size: int }`); the variables
//! `x`, `y: N`, `p: P` and `i`, `c: int`; heaps of one to three `N` objects and
//! up to two `P` objects, every field and variable `nil` or an existing
//! object of its class. So `x = y`, `x.next = x` and `p.head = y` hold
//! often, and a field write `h.f := e` is often seen through another name.
//!
//! Traces assign variables and fields through arbitrary object expressions
//! (`x.next.val := i`, `p.head.next := y`), create objects and test
//! conditions. As the unfolding makes them, creations name a fresh
//! variable (`n₁ := new N`), usually stored at once (`x := n₁`); created
//! names may then appear in later expressions. [`AnyTrace`] may also create
//! into a pool variable (`x := new N`), which Definition 4.2 allows but the
//! incremental calculus, built for the unfolding's fresh names, does not.

use quickcheck::{Arbitrary, Gen};
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use symex_semantics::eval::{ShowValuation, Valuation};
use symex_semantics::heap::{Heap, Object};
use symex_semantics::oo::action::{Action, Location};
use symex_semantics::oo::{fresh, ShowTrace};
use symex_semantics::program::{Class, Language, Program};
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind, UnOp};
use symex_semantics::value::{Oid, Value};

/// The most actions a generated trace has.
const MAX_ACTIONS: usize = 8;
/// The most objects a trace creates; [`Configuration`] binds the fresh
/// names of all of them, so a broken calculus that leaves one in a path
/// condition is evaluated, not rejected as unbound.
pub const MAX_CREATIONS: u32 = MAX_ACTIONS as u32;
/// The deepest a generated expression is.
const DEPTH: usize = 3;

/// The classes: `(class, reference field, its class, integer field)`.
const CLASSES: [(&str, &str, &str, &str); 2] =
    [("N", "next", "N", "val"), ("P", "head", "N", "size")];

fn object_sort(class: &str) -> Sort {
    Sort::Object(class.into())
}

/// The global variables of the pool and their sorts.
pub fn globals() -> BTreeMap<Name, Sort> {
    [
        ("x", object_sort("N")),
        ("y", object_sort("N")),
        ("p", object_sort("P")),
        ("i", Sort::Int),
        ("c", Sort::Int),
    ]
    .into_iter()
    .map(|(x, sort)| (Name::from(x), sort))
    .collect()
}

/// The program of the pool: its classes (without methods) and globals,
/// which is all the concrete semantics of traces needs.
pub fn program() -> Rc<Program> {
    let classes = CLASSES
        .iter()
        .map(|(class, reference, target, int)| {
            let fields = [
                (Name::from(*reference), object_sort(target)),
                (Name::from(*int), Sort::Int),
            ]
            .into_iter()
            .collect();
            (
                Name::from(*class),
                Class {
                    name: (*class).into(),
                    fields,
                    methods: BTreeMap::new(),
                },
            )
        })
        .collect();
    Rc::new(Program {
        language: Language::Oo,
        globals: globals(),
        procedures: BTreeMap::new(),
        classes,
        loops: Default::default(),
        main: Rc::from(Vec::new()),
    })
}

/// The reference field of `class` and the class it refers to.
fn reference_field(class: &str) -> (&'static str, &'static str) {
    CLASSES
        .iter()
        .find(|c| c.0 == class)
        .map_or(("next", "N"), |c| (c.1, c.2))
}

/// The integer field of `class`.
fn int_field(class: &str) -> &'static str {
    CLASSES.iter().find(|c| c.0 == class).map_or("val", |c| c.3)
}

/// Draws from a quickcheck generator, in a scope: the variables that
/// expressions read (the globals, then also the objects created so far;
/// in a method, `this` and the parameters) and those that may be assigned.
pub struct Draw<'g> {
    g: &'g mut Gen,
    vars: Vec<(Name, Sort)>,
    targets: Vec<(Name, Sort)>,
}

impl<'g> Draw<'g> {
    /// Draws over the globals.
    pub fn new(g: &'g mut Gen) -> Draw<'g> {
        let globals: Vec<(Name, Sort)> = globals().into_iter().collect();
        Draw {
            g,
            vars: globals.clone(),
            targets: globals,
        }
    }

    /// Draws reading `vars` and assigning `targets`.
    pub fn in_scope(
        g: &'g mut Gen,
        vars: Vec<(Name, Sort)>,
        targets: Vec<(Name, Sort)>,
    ) -> Draw<'g> {
        Draw { g, vars, targets }
    }
}

impl Draw<'_> {
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        usize::arbitrary(self.g) % n
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// A variable of `sort` in scope, if there is one.
    fn var_of(&mut self, sort: &Sort) -> Option<Name> {
        let names: Vec<Name> = self
            .vars
            .iter()
            .filter(|(_, s)| s == sort)
            .map(|(x, _)| x.clone())
            .collect();
        (!names.is_empty()).then(|| names[self.below(names.len())].clone())
    }

    /// Whether some variable in scope has the object sort of `class`.
    fn sees(&self, class: &str) -> bool {
        self.vars
            .iter()
            .any(|(_, sort)| *sort == object_sort(class))
    }

    /// An object variable of `class` in scope (`nil` if there is none).
    fn object_var(&mut self, class: &str) -> Term {
        match self.var_of(&object_sort(class)) {
            Some(x) => Term::var(&x, object_sort(class)),
            None => Term::nil(class),
        }
    }

    /// An integer literal in −2..2.
    fn literal(&mut self) -> Term {
        Term::int(self.below(5) as i64 - 2)
    }

    /// An integer variable in scope (a literal if there is none).
    fn int_var(&mut self) -> Term {
        match self.var_of(&Sort::Int) {
            Some(x) => Term::var(&x, Sort::Int),
            None => self.literal(),
        }
    }

    /// An object expression of `class`, at most `depth` levels deep.
    pub fn object(&mut self, class: &str, depth: usize) -> Term {
        if depth == 0 || self.chance(35) {
            return if self.chance(6) {
                Term::nil(class)
            } else {
                self.object_var(class)
            };
        }
        match self.below(10) {
            0 => Term::ite(
                self.boolean(depth - 1),
                self.object(class, depth - 1),
                self.object(class, depth - 1),
            ),
            // `p.head` is the only field of class `N` outside `N` itself.
            1..=3 if class == "N" && self.sees("P") => {
                Term::field(self.object("P", depth - 1), "head", object_sort("N"))
            }
            _ if class == "N" => Term::field(self.object("N", depth - 1), "next", object_sort("N")),
            _ => self.object_var(class),
        }
    }

    /// An integer expression.
    pub fn int(&mut self, depth: usize) -> Term {
        if depth == 0 || self.chance(30) {
            return if self.chance(40) {
                self.literal()
            } else {
                self.int_var()
            };
        }
        match self.below(6) {
            0 => Term::binary(BinOp::Add, self.int(depth - 1), self.int(depth - 1)),
            1 => Term::binary(BinOp::Sub, self.int(depth - 1), self.int(depth - 1)),
            2 if self.sees("P") => Term::field(self.object("P", depth - 1), "size", Sort::Int),
            _ => Term::field(self.object("N", depth - 1), "val", Sort::Int),
        }
    }

    /// A boolean expression.
    pub fn boolean(&mut self, depth: usize) -> Term {
        if depth == 0 {
            return Term::bool(self.chance(50));
        }
        let compare = [BinOp::Eq, BinOp::Ne][self.below(2)];
        match self.below(11) {
            3 if self.sees("P") => self.object_comparison(compare, "P", depth - 1),
            0..=3 => self.object_comparison(compare, "N", depth - 1),
            4 => Term::binary(
                [BinOp::Lt, BinOp::Le, BinOp::Eq][self.below(3)],
                self.int(depth - 1),
                self.int(depth - 1),
            ),
            5 => Term::unary(UnOp::Not, self.boolean(depth - 1)),
            6 => Term::binary(BinOp::And, self.boolean(depth - 1), self.boolean(depth - 1)),
            7 => Term::binary(BinOp::Or, self.boolean(depth - 1), self.boolean(depth - 1)),
            8 => Term::binary(
                BinOp::Implies,
                self.boolean(depth - 1),
                self.boolean(depth - 1),
            ),
            _ => Term::ite(
                self.boolean(depth - 1),
                self.boolean(depth - 1),
                self.boolean(depth - 1),
            ),
        }
    }

    /// `o = o'` or `o != o'` of objects of `class`; never `nil` against
    /// `nil`, whose class the printed program cannot tell (SPEC §1.4 infers
    /// it from use): that comparison is decided, so its value is written.
    fn object_comparison(&mut self, compare: BinOp, class: &str, depth: usize) -> Term {
        let (left, right) = (self.object(class, depth), self.object(class, depth));
        if matches!(left.kind(), TermKind::Nil(_)) && matches!(right.kind(), TermKind::Nil(_)) {
            return Term::bool(compare == BinOp::Eq);
        }
        Term::binary(compare, left, right)
    }

    /// An expression of `sort`.
    pub fn expression(&mut self, sort: &Sort, depth: usize) -> Term {
        match sort {
            Sort::Object(class) => self.object(class, depth),
            Sort::Int => self.int(depth),
            _ => self.boolean(depth),
        }
    }

    /// A sort of the pool's expressions.
    pub fn sort(&mut self) -> Sort {
        [Sort::Bool, Sort::Int, object_sort("N"), object_sort("P")][self.below(4)].clone()
    }

    /// A heap variable: a global, or a field of an object expression.
    pub fn location(&mut self) -> Location {
        if self.chance(35) {
            let k = self.below(self.targets.len());
            let (x, sort) = self.targets[k].clone();
            return Location::Var(x, sort);
        }
        let class = if self.chance(70) || !self.sees("P") {
            "N"
        } else {
            "P"
        };
        let depth = 1 + self.below(2);
        let object = self.object(class, depth);
        if self.chance(50) {
            let (f, target) = reference_field(class);
            Location::Field(object, f.into(), object_sort(target))
        } else {
            Location::Field(object, int_field(class).into(), Sort::Int)
        }
    }

    /// `h := e` for a random `h` and `e` of its sort.
    fn assignment(&mut self) -> Action {
        let h = self.location();
        let e = self.expression(&h.term().sort(), DEPTH - 1);
        Action::Assign(h, e)
    }

    /// The actions of a trace: assignments, tests (a false one ends the
    /// run, so they are the rarer kind) and creations. A creation names
    /// the fresh variable of its number (the unfolding's `x := new C`),
    /// usually stored at once (`h := x`) and often compared with an object
    /// created before; with `into_globals`, it may also create into a
    /// global directly.
    fn actions(&mut self, into_globals: bool) -> Vec<Action> {
        let length = 1 + self.below(MAX_ACTIONS);
        let mut actions = Vec::new();
        let mut n = 0;
        while actions.len() < length {
            match self.below(20) {
                0..=12 => actions.push(self.assignment()),
                13..=15 => actions.push(Action::Test(self.test())),
                _ if into_globals && self.chance(30) => {
                    let x = ["x", "y"][self.below(2)];
                    actions.push(Action::New(x.into(), "N".into()));
                }
                _ => {
                    n += 1;
                    let class = if self.chance(70) { "N" } else { "P" };
                    let x = fresh::object(class, n);
                    actions.push(Action::New(x.clone(), class.into()));
                    self.vars.push((x.clone(), object_sort(class)));
                    if self.chance(80) {
                        let h = self.store_target(class);
                        actions.push(Action::Assign(h, Term::var(&x, object_sort(class))));
                    }
                    if self.chance(75) {
                        if let Some(test) = self.created_pair(&Term::var(&x, object_sort(class))) {
                            actions.push(Action::Test(test));
                        }
                    }
                }
            }
        }
        actions
    }

    /// `x == y` or `x != y` for the object `x` just created and another
    /// created object `y` of its class, if there is one: `[x := new C]`
    /// must tell them apart.
    fn created_pair(&mut self, x: &Term) -> Option<Term> {
        let alike: Vec<Term> = self
            .vars
            .iter()
            .filter(|(y, sort)| {
                fresh::is_fresh(y) && *sort == x.sort() && Term::var(y, sort.clone()) != *x
            })
            .map(|(y, sort)| Term::var(y, sort.clone()))
            .collect();
        if alike.is_empty() {
            return None;
        }
        let y = alike[self.below(alike.len())].clone();
        let op = if self.chance(50) {
            BinOp::Eq
        } else {
            BinOp::Ne
        };
        Some(Term::binary(op, x.clone(), y))
    }

    /// A test: often `e != x` for a created object `x` and an `e` that may
    /// have no value, where `[x := new C]` must keep `δ(b)`.
    fn test(&mut self) -> Term {
        let created: Vec<Term> = self
            .vars
            .iter()
            .filter(|(x, _)| fresh::is_fresh(x))
            .map(|(x, sort)| Term::var(x, sort.clone()))
            .collect();
        if created.is_empty() || self.chance(50) {
            return self.boolean(DEPTH);
        }
        let x = created[self.below(created.len())].clone();
        let class = match x.sort() {
            Sort::Object(class) => class,
            _ => "N".into(),
        };
        let other = self.object(&class, DEPTH - 1);
        Term::binary(BinOp::Ne, other, x)
    }

    /// Where a new object of `class` is stored: a global of its class or
    /// a reference field of its class.
    fn store_target(&mut self, class: &str) -> Location {
        if class == "P" || self.chance(60) {
            let x = if class == "P" {
                "p"
            } else {
                ["x", "y"][self.below(2)]
            };
            return Location::Var(x.into(), object_sort(class));
        }
        let owner = if self.chance(70) { "N" } else { "P" };
        let (f, _) = reference_field(owner);
        Location::Field(self.object(owner, 1), f.into(), object_sort("N"))
    }
}

/// A well-typed trace in the unfolding's form: creations name fresh variables.
#[derive(Clone)]
pub struct Trace(pub Vec<Action>);

/// A well-typed trace whose creations may also target the globals `x` and `y`.
#[derive(Clone)]
pub struct AnyTrace(pub Vec<Action>);

impl fmt::Debug for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ρ = {}", ShowTrace(&self.0))
    }
}

impl fmt::Debug for AnyTrace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ρ = {}", ShowTrace(&self.0))
    }
}

/// The traces with one action other than a creation left out (a created
/// name stays declared wherever it is used).
fn smaller_traces(actions: &[Action]) -> Vec<Vec<Action>> {
    (0..actions.len())
        .filter(|&k| !matches!(actions[k], Action::New(..)))
        .map(|k| {
            actions
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, a)| a.clone())
                .collect()
        })
        .collect()
}

impl Arbitrary for Trace {
    fn arbitrary(g: &mut Gen) -> Trace {
        Trace(Draw::new(g).actions(false))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Trace>> {
        Box::new(smaller_traces(&self.0).into_iter().map(Trace))
    }
}

impl Arbitrary for AnyTrace {
    fn arbitrary(g: &mut Gen) -> AnyTrace {
        AnyTrace(Draw::new(g).actions(true))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = AnyTrace>> {
        Box::new(smaller_traces(&self.0).into_iter().map(AnyTrace))
    }
}

/// A random expression over the globals, of a random sort.
#[derive(Clone)]
pub struct Expression(pub Term);

impl fmt::Debug for Expression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Arbitrary for Expression {
    fn arbitrary(g: &mut Gen) -> Expression {
        let mut draw = Draw::new(g);
        let sort = draw.sort();
        let depth = 1 + draw.below(DEPTH + 1);
        Expression(draw.expression(&sort, depth))
    }
}

/// A random assignment `h := e` over the globals, with an expression that
/// reads the assigned heap variable back, for a field through a random
/// object expression of its class (`y.next` after `x.next := e`).
#[derive(Clone)]
pub struct Assignment(pub Location, pub Term, pub Term);

impl fmt::Debug for Assignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} := {}, read back as {}", self.0, self.1, self.2)
    }
}

impl Arbitrary for Assignment {
    fn arbitrary(g: &mut Gen) -> Assignment {
        let mut draw = Draw::new(g);
        let h = draw.location();
        let e = draw.expression(&h.term().sort(), DEPTH - 1);
        let read_back = match &h {
            Location::Field(object, f, sort) => match object.sort() {
                Sort::Object(class) => Term::field(draw.object(&class, 2), f, sort.clone()),
                _ => h.term(),
            },
            _ => h.term(),
        };
        Assignment(h, e, read_back)
    }
}

/// A random consistent configuration `V = (G, H)`: every global, and the
/// fresh name of every object a trace may create, is `nil` or an existing
/// object of its class (`i` is −2..2), and so is every field.
#[derive(Clone)]
pub struct Configuration(pub Valuation);

impl fmt::Debug for Configuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "V = {}", ShowValuation(&self.0))
    }
}

impl Arbitrary for Configuration {
    fn arbitrary(g: &mut Gen) -> Configuration {
        let mut draw = Draw::new(g);
        let counts = [("N", 1 + draw.below(3)), ("P", draw.below(3))];
        let mut extent: BTreeMap<&str, Vec<Oid>> = BTreeMap::new();
        let mut next = 1;
        for (class, count) in counts {
            extent.insert(class, (next..next + count as u32).map(Oid).collect());
            next += count as u32;
        }
        let pick = |draw: &mut Draw, class: &str| -> Value {
            let objects = &extent[class];
            if objects.is_empty() || draw.chance(10) {
                Value::Nil
            } else {
                Value::Object(objects[draw.below(objects.len())])
            }
        };
        let mut heap = Heap::new();
        for (class, reference, target, int) in CLASSES {
            for &o in &extent[class] {
                let fields = [
                    (Name::from(reference), pick(&mut draw, target)),
                    (
                        Name::from(int),
                        Value::Int((draw.below(5) as i64 - 2).into()),
                    ),
                ];
                heap = heap.insert(
                    o,
                    Object {
                        class: class.into(),
                        fields: fields.into_iter().collect(),
                    },
                );
            }
        }
        let mut valuation = Valuation::new().with_heap(heap);
        for (x, sort) in globals() {
            let value = match &sort {
                Sort::Object(class) => pick(&mut draw, class),
                _ => Value::Int((draw.below(5) as i64 - 2).into()),
            };
            valuation.insert(x, value);
        }
        for n in 1..=MAX_CREATIONS {
            for (class, ..) in CLASSES {
                valuation.insert(fresh::object(class, n), pick(&mut draw, class));
            }
        }
        Configuration(valuation)
    }
}
