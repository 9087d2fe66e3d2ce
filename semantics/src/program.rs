//! Programs after parsing and type checking: statements over shared terms,
//! and the continuation `S` of a configuration as a persistent list.

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
            point
                .segments
                .push((Rc::as_ptr(&segment.block).cast::<Stmt>() as usize, segment.from));
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

impl Program {
    /// The sort of field `f` (field names are global to a program, SPEC §1.4).
    pub fn field_sort(&self, f: &str) -> Option<&Sort> {
        self.classes.values().find_map(|class| class.fields.get(f))
    }
}
