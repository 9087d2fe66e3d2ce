//! Programs after parsing and type checking: statements over shared terms,
//! and the continuation `S` of a configuration as a persistent list.

use crate::annotations::Annotations;
use crate::term::{Name, Sort, Term};
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

/// Which of the three languages a program belongs to, or which semantics
/// runs it (SPEC §1: the smallest language that contains the program).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    Basic,
    Recursive,
    Oo,
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Language::Basic => "basic",
            Language::Recursive => "recursive",
            Language::Oo => "oo",
        })
    }
}

/// Identifies one `while` statement of a program, for `--unfold`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LoopId(pub u32);

/// The errors a program can reach (SPEC §2.1 `error`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorKind {
    ArrayOutOfBound,
    NilDereference,
    AssertionFailed,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorKind::ArrayOutOfBound => "array-out-of-bound",
            ErrorKind::NilDereference => "nil-dereference",
            ErrorKind::AssertionFailed => "assertion-failed",
        })
    }
}

/// How a run halts before its statement is done: an error terminal of the
/// paper (`array-out-of-bound`), or an `assume` whose condition is false.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Halt {
    Error(ErrorKind),
    AssumptionViolated,
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::Error(kind) => write!(f, "{kind}"),
            Halt::AssumptionViolated => f.write_str("assumption-violated"),
        }
    }
}

/// How a finished run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Terminated,
    Halted(Halt),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Terminated => f.write_str("terminated"),
            Outcome::Halted(halt) => write!(f, "{halt}"),
        }
    }
}

/// A statement. Sequential composition is a [`Block`]; the empty block is ε.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Skip,
    /// `x := e` (global or local: the program's scopes tell which).
    Assign(Name, Term),
    /// `a[e] := e'`.
    ArrayAssign(Name, Term, Term),
    /// `if b {S1} {S2}`.
    If(Term, Block, Block),
    /// `while b {S}`.
    While(LoopId, Term, Block),
    /// `P(e1, …, en)`.
    Call(Name, Vec<Term>),
    Assert(Term),
    Assume(Term),
    /// `havoc x̄`: one new input read into each variable (King's READ,
    /// [`crate::reads`]); only the verifier writes it.
    Havoc(Vec<(Name, Sort)>),
    /// `e.f := e'` (oo).
    FieldAssign(Term, Name, Term),
    /// `h := new C` (oo).
    New(Target, Name),
    /// `h := e₀.m(e₁, …, eₙ)` (oo; statically resolved to class `C`'s `m`).
    MethodCall {
        target: Target,
        receiver: Term,
        class: Name,
        method: Name,
        args: Vec<Term>,
    },
    /// `return e`: the last statement of a method body (oo). Once the body
    /// is inlined at a call, the variable that receives the value (the
    /// paper's `r`, fresh for each call) is known.
    Return(Option<Name>, Term),
    /// The end of an inlined procedure body (§3's closure ends here): the
    /// call of the named procedure is no longer active.
    EndCall(Name),
    /// A terminal statement such as the paper's `array-out-of-bound`.
    Halt(Halt),
}

impl Stmt {
    /// Calls `f` on every expression of the statement and of the
    /// statements it contains (targets `e.f` as `e`), in order.
    pub fn visit_terms(&self, f: &mut impl FnMut(&Term)) {
        self.visit_own_terms(f);
        match self {
            Stmt::If(_, then, otherwise) => {
                for s in then.iter().chain(otherwise.iter()) {
                    s.visit_terms(f);
                }
            }
            Stmt::While(_, _, body) => {
                for s in body.iter() {
                    s.visit_terms(f);
                }
            }
            _ => {}
        }
    }

    /// Calls `f` on every expression the statement itself evaluates, not
    /// those of the statements it contains (targets `e.f` as `e`), in order.
    pub fn visit_own_terms(&self, f: &mut impl FnMut(&Term)) {
        let target = |t: &Target, f: &mut dyn FnMut(&Term)| {
            if let Target::Field(object, _) = t {
                f(object);
            }
        };
        match self {
            Stmt::Assign(_, e)
            | Stmt::Return(_, e)
            | Stmt::Assert(e)
            | Stmt::Assume(e)
            | Stmt::If(e, ..)
            | Stmt::While(_, e, _) => f(e),
            Stmt::ArrayAssign(_, i, e) => {
                f(i);
                f(e);
            }
            Stmt::Call(_, args) => args.iter().for_each(f),
            Stmt::FieldAssign(object, _, e) => {
                f(object);
                f(e);
            }
            Stmt::New(t, _) => target(t, f),
            Stmt::MethodCall {
                target: t,
                receiver,
                args,
                ..
            } => {
                target(t, f);
                f(receiver);
                args.iter().for_each(f);
            }
            Stmt::Skip | Stmt::Havoc(_) | Stmt::EndCall(_) | Stmt::Halt(_) => {}
        }
    }

    /// The statement with `f` applied to each expression it evaluates
    /// itself (as [`Stmt::visit_own_terms`] lists them); the blocks it
    /// contains are shared, not copied.
    pub fn map_own_terms(&self, f: impl Fn(&Term) -> Term) -> Stmt {
        let target = |t: &Target| match t {
            Target::Field(object, field) => Target::Field(f(object), field.clone()),
            Target::Var(x) => Target::Var(x.clone()),
        };
        match self {
            Stmt::Assign(x, e) => Stmt::Assign(x.clone(), f(e)),
            Stmt::Return(r, e) => Stmt::Return(r.clone(), f(e)),
            Stmt::Assert(e) => Stmt::Assert(f(e)),
            Stmt::Assume(e) => Stmt::Assume(f(e)),
            Stmt::If(b, then, otherwise) => Stmt::If(f(b), then.clone(), otherwise.clone()),
            Stmt::While(id, b, body) => Stmt::While(*id, f(b), body.clone()),
            Stmt::ArrayAssign(a, i, e) => Stmt::ArrayAssign(a.clone(), f(i), f(e)),
            Stmt::Call(p, args) => Stmt::Call(p.clone(), args.iter().map(&f).collect()),
            Stmt::FieldAssign(object, field, e) => {
                Stmt::FieldAssign(f(object), field.clone(), f(e))
            }
            Stmt::New(t, class) => Stmt::New(target(t), class.clone()),
            Stmt::MethodCall {
                target: t,
                receiver,
                class,
                method,
                args,
            } => Stmt::MethodCall {
                target: target(t),
                receiver: f(receiver),
                class: class.clone(),
                method: method.clone(),
                args: args.iter().map(&f).collect(),
            },
            Stmt::Skip | Stmt::Havoc(_) | Stmt::EndCall(_) | Stmt::Halt(_) => self.clone(),
        }
    }

    /// The variable the statement assigns as a whole, if any (`x := e`,
    /// `a[i] := e`, `x := new C`, a call into `x`, an inlined `return`).
    pub fn assigned(&self) -> Option<&Name> {
        match self {
            Stmt::Assign(x, _) | Stmt::ArrayAssign(x, ..) | Stmt::Return(Some(x), _) => Some(x),
            Stmt::New(Target::Var(x), _)
            | Stmt::MethodCall {
                target: Target::Var(x),
                ..
            } => Some(x),
            _ => None,
        }
    }
}

/// A heap variable `h` (§4): a variable `x` or a field `e.f`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Var(Name),
    Field(Term, Name),
}

/// A sequence of statements `S1; …; Sn`.
pub type Block = Rc<[Stmt]>;

/// The statement still to execute in a configuration, `A; S`: a persistent
/// list of block suffixes, so entering a loop body or a branch is O(1).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Code(Option<Rc<Segment>>);

#[derive(PartialEq, Eq)]
struct Segment {
    block: Block,
    from: usize,
    rest: Code,
}

impl Code {
    /// ε, the empty statement.
    pub fn empty() -> Code {
        Code(None)
    }

    /// `S` followed by `self`.
    pub fn push(&self, block: &Block) -> Code {
        self.push_from(block, 0)
    }

    fn push_from(&self, block: &Block, from: usize) -> Code {
        if from >= block.len() {
            return self.clone();
        }
        Code(Some(Rc::new(Segment {
            block: block.clone(),
            from,
            rest: self.clone(),
        })))
    }

    /// `A; S` split into `A` and `S`, or `None` for ε.
    pub fn split(&self) -> Option<(&Stmt, Code)> {
        let segment = self.0.as_ref()?;
        let rest = segment.rest.push_from(&segment.block, segment.from + 1);
        Some((&segment.block[segment.from], rest))
    }

    /// The first statement `A`, or `None` for ε.
    pub fn head(&self) -> Option<&Stmt> {
        let segment = self.0.as_ref()?;
        Some(&segment.block[segment.from])
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// How a run whose remaining statement is this one has ended: `ε` has
    /// terminated, a halting statement has halted, anything else runs on.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.head() {
            None => Some(Outcome::Terminated),
            Some(Stmt::Halt(halt)) => Some(Outcome::Halted(*halt)),
            Some(_) => None,
        }
    }

    /// The statements in order.
    pub fn statements(&self) -> Vec<&Stmt> {
        let mut statements = Vec::new();
        let mut current = self;
        while let Some(segment) = &current.0 {
            statements.extend(segment.block[segment.from..].iter());
            current = &segment.rest;
        }
        statements
    }

    /// Where the code stands, as each block it continues with (by address)
    /// and the statement it continues from: equal for two configurations
    /// exactly when they are at the same program point with the same
    /// calls pending (an inlined body is a block of its own). Addresses are
    /// only meaningful while the code is alive.
    pub fn position(&self) -> Vec<(usize, usize)> {
        let mut position = Vec::new();
        let mut current = self;
        while let Some(segment) = &current.0 {
            position.push((segment.block.as_ptr() as usize, segment.from));
            current = &segment.rest;
        }
        position
    }

    /// The code that consists of the single statement `stmt`.
    pub fn single(stmt: Stmt) -> Code {
        Code::empty().push(&Rc::from(vec![stmt]))
    }

    /// Adds where this code stands to `point`: each block it runs (the
    /// program's own, shared, so a block is known by its address) and how
    /// far into it.
    pub fn extend_point(&self, point: &mut Point) {
        let mut current = self;
        while let Some(segment) = &current.0 {
            point.segments.push((
                Rc::as_ptr(&segment.block).cast::<Stmt>() as usize,
                segment.from,
            ));
            point.remaining += segment.block.len() - segment.from;
            current = &segment.rest;
        }
    }
}

/// Where a configuration stands, for state merging: the statement still to
/// run, known by the blocks it comes from (two configurations at equal
/// points run the same statement, in the same stack of frames), and how
/// many statements are left at the top level of each block.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Point {
    segments: Vec<(usize, usize)>,
    /// Statements left, counted at the top level of every block: a step
    /// that runs a statement other than an `if`, a `while` or a call lowers
    /// it, so configurations that meet again after a fork are the ones
    /// furthest behind.
    pub remaining: usize,
}

impl Point {
    /// Separates the frames of a stack.
    pub fn end_frame(&mut self) {
        self.segments.push((0, 0));
    }
}

/// `P(ū) :: S` (§3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Procedure {
    pub name: Name,
    pub params: Vec<(Name, Sort)>,
    pub body: Block,
}

/// `m(ū) { S; return e }` of a class (oo); `body` ends with `return e`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Method {
    pub name: Name,
    pub params: Vec<(Name, Sort)>,
    pub result: Sort,
    pub body: Block,
}

/// `class C { field …; method … }` (oo).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    pub name: Name,
    pub fields: BTreeMap<Name, Sort>,
    pub methods: BTreeMap<Name, Method>,
}

/// A checked program: declarations, types of all variables, main statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub language: Language,
    /// The global variables (the inputs) and their types.
    pub globals: BTreeMap<Name, Sort>,
    pub procedures: BTreeMap<Name, Procedure>,
    pub classes: BTreeMap<Name, Class>,
    pub main: Block,
    /// Where each loop is written, for reports that name loops.
    pub loops: LoopSites,
    /// Invariants and contracts (King 1976 §8), which the semantics ignore.
    pub annotations: Annotations,
    /// Where each statement is written, for coverage reports.
    pub statements: StatementSites,
}

/// Where a loop is written: the line and column of its `while` (or of its
/// label), and the label `L: while …`, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopSite {
    pub line: usize,
    pub column: usize,
    pub label: Option<String>,
}

impl fmt::Display for LoopSite {
    /// `3:5`, or `L (3:5)` for a labelled loop.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.label {
            Some(label) => write!(f, "{label} ({}:{})", self.line, self.column),
            None => write!(f, "{}:{}", self.line, self.column),
        }
    }
}

/// The sites of a program's loops. Where a loop is written does not change
/// what the program means: all sites are equal, so a program printed and
/// parsed again is the same program.
#[derive(Clone, Debug, Default)]
pub struct LoopSites(pub BTreeMap<LoopId, LoopSite>);

impl PartialEq for LoopSites {
    fn eq(&self, _: &LoopSites) -> bool {
        true
    }
}

impl Eq for LoopSites {}

impl LoopSites {
    pub fn get(&self, id: LoopId) -> Option<&LoopSite> {
        self.0.get(&id)
    }
}

/// Where each statement of a program is written, `(line, column)`, in
/// the order [`Program::statements_in_order`] visits them. Empty for a
/// program built without source (a generated one). Like [`LoopSites`],
/// all equal: where a statement is written does not change the program.
#[derive(Clone, Debug, Default)]
pub struct StatementSites(pub Vec<(usize, usize)>);

impl PartialEq for StatementSites {
    fn eq(&self, _: &StatementSites) -> bool {
        true
    }
}

impl Eq for StatementSites {}

impl Program {
    /// A program made from this one (an instrumented or a verification
    /// program) with these parts: its loops and the places of its
    /// annotations are kept, it has no annotations of its own, and no
    /// statement sites (its statements are not the source's).
    pub fn derived(
        &self,
        language: Language,
        globals: BTreeMap<Name, Sort>,
        procedures: BTreeMap<Name, Procedure>,
        classes: BTreeMap<Name, Class>,
        main: Block,
    ) -> Program {
        Program {
            language,
            globals,
            procedures,
            classes,
            main,
            loops: self.loops.clone(),
            annotations: Annotations {
                places: self.annotations.places.clone(),
                ..Annotations::default()
            },
            statements: StatementSites::default(),
        }
    }

    /// Every statement of the program, each before the statements it
    /// contains: the methods of each class (classes and methods by name),
    /// the procedures by name, then the main statement — the order in which
    /// they are printed, parsed and numbered in [`Program::statements`].
    pub fn statements_in_order(&self) -> Vec<&Stmt> {
        fn walk<'p>(block: &'p [Stmt], out: &mut Vec<&'p Stmt>) {
            for stmt in block {
                out.push(stmt);
                match stmt {
                    Stmt::If(_, then, otherwise) => {
                        walk(then, out);
                        walk(otherwise, out);
                    }
                    Stmt::While(_, _, body) => walk(body, out),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        for class in self.classes.values() {
            for method in class.methods.values() {
                walk(&method.body, &mut out);
            }
        }
        for procedure in self.procedures.values() {
            walk(&procedure.body, &mut out);
        }
        walk(&self.main, &mut out);
        out
    }

    /// The sort of field `f` (field names are global to a program, SPEC §1.4).
    pub fn field_sort(&self, f: &str) -> Option<&Sort> {
        self.classes.values().find_map(|class| class.fields.get(f))
    }
}
