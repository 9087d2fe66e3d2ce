//! The `symex` commands (SPEC §2), one file each, over the shared pieces:
//! loading a program, the common options, the choice of semantics, and
//! input values from the command line.

pub mod backstop;
pub mod bench;
pub mod bound;
pub mod check;
pub mod compare;
pub mod concolic;
pub mod desugar;
pub mod explore;
pub mod heap;
pub mod inputs;
pub mod language;
pub mod merge;
pub mod mutant;
pub mod replay;
pub mod run;
pub mod serve;
pub mod simplify;
pub mod snap;
pub mod step;
pub mod tests;
pub mod verify;

use crate::explore::{Bounds, ExploreOptions, Merge, Strategy};
use crate::report::{diagnostic, Header};
use crate::subsume::Abstraction;
use clap::{Args, ValueEnum};
use language::Choice;
use mutant::BrokenRule;
use std::fmt;
use std::io::Read;
use std::rc::Rc;
use std::time::Duration;
use symex_semantics::machine::Integers;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::program::{Language, Program};
use symex_semantics::syntax::Positions;
use symex_semantics::system::Options;
use symex_semantics::term::{Name, Sort, TermKind};

/// How a command ended (SPEC §2 exit status).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// 0: done.
    Done,
    /// 1: the program or the claim failed.
    Failed,
    /// 3: inconclusive.
    Inconclusive,
}

impl Exit {
    pub fn code(self) -> u8 {
        match self {
            Exit::Done => 0,
            Exit::Failed => 1,
            Exit::Inconclusive => 3,
        }
    }
}

/// Deep programs are parsed and printed on a thread with room to spare.
pub const STACK_BYTES: usize = 256 << 20;

/// Why a command did not finish: bad input (exit status 2), with one
/// message already fit for the user, or its output was closed (exit status
/// [`crate::stop::output::CLOSED`], no message).
#[derive(Debug)]
pub struct CliError(Option<String>);

impl CliError {
    pub fn new(message: impl Into<String>) -> CliError {
        CliError(Some(message.into()))
    }

    /// Whether the reader of the output went away (nothing to tell anyone).
    pub fn is_closed_output(&self) -> bool {
        self.0.is_none()
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(message) => f.write_str(message.trim_end()),
            None => f.write_str("the output was closed"),
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(error: std::io::Error) -> CliError {
        if crate::stop::output::is_closed(&error) {
            return CliError(None);
        }
        CliError::new(format!("cannot write the output: {error}"))
    }
}

/// A parsed program and the name it was given on the command line.
pub struct Loaded {
    /// The path as given (`-` for standard input).
    pub path: String,
    pub program: Rc<Program>,
    /// Where each statement of `program` starts in the source.
    pub positions: Positions,
    /// The program's text (for the options its `// snap:` lines give).
    pub source: String,
    /// What `int` means in it (`--int`), compiled into `program`.
    pub integers: Integers,
}

/// `--int`: what `int` means (docs/surface.md, "Machine integers").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum IntArg {
    /// The paper's mathematical integers.
    #[default]
    Math,
    /// C's 32-bit signed `int`; overflow and division by zero are errors.
    I32,
    /// C's 64-bit signed `long`; overflow and division by zero are errors.
    I64,
}

impl From<IntArg> for Integers {
    fn from(int: IntArg) -> Integers {
        match int {
            IntArg::Math => Integers::Mathematical,
            IntArg::I32 => Integers::I32,
            IntArg::I64 => Integers::I64,
        }
    }
}

/// The options of `symex run` that give `int` the meaning `integers`
/// (none for the default), for the replay commands reports print.
pub fn int_options(integers: Integers) -> Vec<String> {
    match integers {
        Integers::Mathematical => Vec::new(),
        machine => vec!["--int".to_string(), machine.name()],
    }
}

/// Parses the program a family generated, named `name` in messages.
pub fn parse_generated(name: &str, source: &str) -> Result<Rc<Program>, CliError> {
    symex_semantics::syntax::parse_program(source)
        .map(Rc::new)
        .map_err(|d| CliError::new(diagnostic::render(&d, name, source, false)))
}

/// Reads and parses `path` (`-` for standard input), `int` meaning `integers`.
pub fn load(path: &str, integers: impl Into<Integers>) -> Result<Loaded, CliError> {
    let text = if path == "-" {
        let mut source = String::new();
        std::io::stdin()
            .read_to_string(&mut source)
            .map_err(|error| CliError::new(format!("<stdin>: cannot read the program: {error}")))?;
        source
    } else {
        std::fs::read_to_string(path)
            .map_err(|error| CliError::new(format!("{path}: cannot read the program: {error}")))?
    };
    Source {
        path: path.to_string(),
        text,
        integers: integers.into(),
    }
    .parse()
}

/// A program's text as read, which each thread parses into its own terms
/// (`--jobs`: the interner is per thread).
#[derive(Clone, Debug)]
pub struct Source {
    /// The path as given (`-` for standard input).
    pub path: String,
    pub text: String,
    pub integers: Integers,
}

impl Source {
    pub fn parse(self) -> Result<Loaded, CliError> {
        let name = if self.path == "-" {
            "<stdin>"
        } else {
            &self.path
        };
        let (program, positions) = symex_semantics::syntax::parse_with(&self.text, self.integers)
            .map_err(|d| {
            CliError::new(diagnostic::render(
                &d,
                name,
                &self.text,
                diagnostic::colour_allowed(),
            ))
        })?;
        Ok(Loaded {
            path: self.path,
            program: Rc::new(program),
            positions,
            source: self.text,
            integers: self.integers,
        })
    }
}

impl Loaded {
    /// What another thread parses again into the same program.
    pub fn text(&self) -> Source {
        Source {
            path: self.path.clone(),
            text: self.source.clone(),
            integers: self.integers,
        }
    }
}

/// `--lang`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LanguageArg {
    Basic,
    Recursive,
    Oo,
}

impl From<LanguageArg> for Language {
    fn from(language: LanguageArg) -> Language {
        match language {
            LanguageArg::Basic => Language::Basic,
            LanguageArg::Recursive => Language::Recursive,
            LanguageArg::Oo => Language::Oo,
        }
    }
}

/// `--method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Method {
    Forward,
    Wp,
    /// Lazy initialisation of an explicit input heap (Symbolic PathFinder's way).
    Lazy,
}

impl Method {
    /// As in SPEC §2.1's `"method"`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Forward => "forward",
            Method::Wp => "wp",
            Method::Lazy => "lazy",
        }
    }
}

/// `--abstract`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AbstractionArg {
    List,
    Array,
}

/// `--assume`: a precondition on the input heap, applied by lazy
/// initialisation and checked by `run --heap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AssumeArg {
    /// No input object reaches itself through reference fields: the
    /// "acyclic linked list" of Anand, Păsăreanu & Visser (2006, §6).
    Acyclic,
}

/// `--strategy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    Dfs,
    Bfs,
    Random,
    Depth,
}

/// `explore --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    /// JSON lines: one per node and per path, as the exploration goes (`explore`).
    Jsonl,
    Dot,
    /// A picture of the tree, laid out without Graphviz.
    Svg,
    /// For papers: the tree (`forest`), the table of paths, the traces.
    Latex,
}

/// `--format` of the commands that report in text or JSON (`tests`, `verify`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
}

/// How a program's symbolic semantics is chosen (SPEC §2): by every
/// command that executes symbolically.
#[derive(Clone, Debug, Args)]
pub struct SemanticsArgs {
    /// Run under this language's semantics (default: the smallest that contains the program).
    #[arg(long, value_enum)]
    pub lang: Option<LanguageArg>,
    /// Path conditions by forward symbolic execution, by weakest preconditions, or forward over an input heap initialised lazily (default: wp for oo programs, else forward).
    #[arg(long, value_enum)]
    pub method: Option<Method>,
    /// Unfold a method call by the paper's literal rule, `e0` itself for `this` (default: a fresh variable bound to `e0`, SPEC §1.6).
    #[arg(long)]
    pub literal_this: bool,
    /// Break one rule on purpose, to see what it changes: §2's forward rules
    /// (basic programs) or §4's weakest-precondition calculus (oo programs).
    #[arg(long = "break", value_enum, value_name = "RULE")]
    pub broken: Option<BrokenRule>,
    /// With `--method lazy`: a precondition on the input heap; `acyclic`
    /// offers no alias that would close a cycle among the input objects.
    #[arg(long, value_enum, value_name = "PRECONDITION")]
    pub assume: Option<AssumeArg>,
}

impl SemanticsArgs {
    /// The semantics these options choose for `program`.
    pub fn choice(&self, program: &Program) -> Result<Choice, CliError> {
        let choice = self.unchecked_choice(program)?;
        if self.assume.is_some() && choice.method != Method::Lazy {
            return Err(CliError::new(format!(
                "--assume acyclic restricts the aliases lazy initialisation offers: it needs --method lazy (this program runs with --method {})",
                choice.method.name()
            )));
        }
        Ok(choice)
    }

    /// The options of the semantics, `--checked-arrays` as given.
    pub fn options(&self, checked_arrays: bool) -> Options {
        Options {
            checked_arrays,
            acyclic: self.assume == Some(AssumeArg::Acyclic),
        }
    }

    fn unchecked_choice(&self, program: &Program) -> Result<Choice, CliError> {
        let this = if self.literal_this {
            ThisRule::Literal
        } else {
            ThisRule::Fresh
        };
        let choice = Choice::new(program, self.lang.map(Language::from), self.method, this)?;
        match self.broken {
            Some(rule) => choice.breaking(rule.mutant()),
            None => Ok(choice),
        }
    }
}

/// The options every exploring command takes (SPEC §2).
#[derive(Clone, Debug, Args)]
pub struct Common {
    /// The program (`-` for standard input).
    pub file: String,
    #[command(flatten)]
    pub semantics: SemanticsArgs,
    /// At most N transitions on a path.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub depth: usize,
    /// At most K executions of any one loop body, and K nested calls of any one procedure, on a path.
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub unfold: usize,
    /// At most K iterations of a loop each time it is entered (CBMC's
    /// meaning); loops are then bounded per entry, not by `--unfold`.
    #[arg(long, value_name = "K")]
    pub unwind: Option<usize>,
    /// With `--method lazy`: at most N input objects materialised on a path.
    #[arg(long, value_name = "N")]
    pub max_objects: Option<usize>,
    /// With `--method lazy`: state subsumption at loop heads (Anand,
    /// Păsăreanu & Visser 2006): a path whose state a stored one subsumes ends.
    #[arg(long)]
    pub subsume: bool,
    /// Store and match states abstractly (implies `--subsume`): lists
    /// summarised, or arrays as lists of cells with gaps.
    #[arg(long = "abstract", value_enum, value_name = "KIND")]
    pub abstraction: Option<AbstractionArg>,
    /// With `--abstract array`: the integer variables that index the arrays
    /// (default: those the program uses as indices).
    #[arg(long, value_name = "X,Y", value_delimiter = ',')]
    pub index_roots: Vec<String>,
    #[arg(long, value_enum, default_value_t = StrategyArg::Dfs)]
    pub strategy: StrategyArg,
    /// Seed of `--strategy random`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Per solver query.
    #[arg(long, value_name = "T", default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// Every array access must be within `0 <= i < len(a)` (§2.1).
    #[arg(long)]
    pub checked_arrays: bool,
    /// What `int` means: mathematical integers, or C's signed machine integers with overflow as an error.
    #[arg(long = "int", value_enum, default_value_t = IntArg::Math, value_name = "INT")]
    pub int: IntArg,
    /// Give an input a concrete value (NAME=VALUE), leaving the others symbolic.
    #[arg(long, value_name = "NAME=VALUE")]
    pub fix: Vec<String>,
    /// Report infeasible branches as paths with status `infeasible`.
    #[arg(long)]
    pub keep_infeasible: bool,
    /// Stop after this many paths (the rest of the frontier is reported as unexplored).
    #[arg(long, value_name = "N")]
    pub max_paths: Option<usize>,
    /// Stop exploring after this long (the rest of the frontier is reported as unexplored).
    #[arg(long, value_name = "MS")]
    pub time_limit_ms: Option<u64>,
    /// Stop exploring once the heap holds this much (the rest of the frontier
    /// is reported as unexplored; default: three quarters of the memory available at start).
    #[arg(long, value_name = "MB")]
    pub max_memory_mb: Option<usize>,
    /// Join configurations that meet at the same point, in the same loop
    /// context and stack of frames (state merging: `φ1 || φ2`, values
    /// `if φ1 then v1 else v2 fi`); forward symbolic execution only.
    #[arg(long)]
    pub merge: bool,
    /// Print path conditions and states with their ground parts folded (the default).
    #[arg(long, overrides_with = "no_simplify")]
    pub simplify: bool,
    /// Print path conditions and states as the paper's rules build them.
    #[arg(long, overrides_with = "simplify")]
    pub no_simplify: bool,
}

impl Common {
    /// State subsumption as `--subsume`, `--abstract` and `--index-roots`
    /// ask for it, checked against the program and the method.
    fn subsumption(
        &self,
        program: &Program,
        method: Method,
    ) -> Result<Option<Abstraction>, CliError> {
        let abstraction = match self.abstraction {
            None if !self.subsume => None,
            None => Some(Abstraction::Exact),
            Some(AbstractionArg::List) => Some(Abstraction::List),
            Some(AbstractionArg::Array) => {
                let roots: Vec<Name> = if self.index_roots.is_empty() {
                    index_variables(program)
                } else {
                    self.index_roots
                        .iter()
                        .map(|x| Name::from(x.as_str()))
                        .collect()
                };
                if let Some(x) = roots
                    .iter()
                    .find(|x| program.globals.get(*x) != Some(&Sort::Int))
                {
                    return Err(CliError::new(format!(
                        "--index-roots: `{x}` is not an integer variable of the program"
                    )));
                }
                Some(Abstraction::Array { roots })
            }
        };
        if !self.index_roots.is_empty() && self.abstraction != Some(AbstractionArg::Array) {
            return Err(CliError::new(
                "--index-roots chooses the roots of `--abstract array`",
            ));
        }
        if abstraction.is_some() && method != Method::Lazy {
            return Err(CliError::new(
                "state subsumption (--subsume, --abstract) matches the explicit heaps of --method lazy; add --method lazy",
            ));
        }
        Ok(abstraction)
    }
}

/// The integer globals `program` uses as array indices, `a[i]`, in name order.
fn index_variables(program: &Program) -> Vec<Name> {
    let mut found = std::collections::BTreeSet::new();
    let mut look = |e: &symex_semantics::term::Term| {
        for node in e.nodes() {
            if let TermKind::Select(_, index) = node.kind() {
                if let TermKind::Var(x, Sort::Int) = index.kind() {
                    found.insert(x.clone());
                }
            }
        }
    };
    let bodies = std::iter::once(&program.main).chain(program.procedures.values().map(|p| &p.body));
    for body in bodies {
        for stmt in body.iter() {
            stmt.visit_terms(&mut look);
        }
    }
    found
        .into_iter()
        .filter(|x| program.globals.contains_key(x))
        .collect()
}

/// A program ready to explore: its semantics and the exploration settings.
pub struct Session {
    pub loaded: Loaded,
    pub choice: Choice,
    pub semantics: Options,
    pub explore: ExploreOptions,
    /// Ends the command if it overruns `--time-limit-ms` by more than the margin.
    pub backstop: Option<backstop::Backstop>,
}

impl Session {
    pub fn header(&self) -> Header {
        Header {
            program: self.loaded.path.clone(),
            language: self.choice.language,
            method: self.choice.method.name(),
            inputs: self.loaded.program.inputs(),
        }
    }
}

impl Common {
    /// Loads the program and checks the options against it, for `symex command`.
    pub fn session(&self, command: &str) -> Result<Session, CliError> {
        self.session_of(load(&self.file, self.int)?, command)
    }

    /// [`Common::session`] for a program already loaded (a worker's copy).
    pub fn session_of(&self, loaded: Loaded, command: &str) -> Result<Session, CliError> {
        let choice = self.semantics.choice(&loaded.program)?;
        if self.max_objects.is_some() && choice.method != Method::Lazy {
            return Err(CliError::new(
                "--max-objects bounds the objects lazy initialisation materialises: it needs --method lazy",
            ));
        }
        let subsumption = self.subsumption(&loaded.program, choice.method)?;
        if self.merge && choice.method != Method::Forward {
            return Err(CliError::new(format!(
                "--merge joins the configurations of forward symbolic execution; this program runs with --method {} (add --method forward)",
                choice.method.name()
            )));
        }
        let strategy = match self.strategy {
            StrategyArg::Dfs => Strategy::Dfs,
            StrategyArg::Bfs => Strategy::Bfs,
            StrategyArg::Random => Strategy::Random { seed: self.seed },
            StrategyArg::Depth => Strategy::Depth,
        };
        let explore = ExploreOptions {
            strategy,
            bounds: Bounds {
                depth: self.depth,
                unfold: self.unfold,
                unwind: self.unwind,
                max_paths: self.max_paths,
                time_limit: self.time_limit_ms.map(Duration::from_millis),
                max_objects: self.max_objects,
            },
            timeout_ms: self.timeout_ms,
            keep_infeasible: self.keep_infeasible,
            record_configurations: false,
            assumption: inputs::fixed_condition(&self.fix, &loaded.program)?,
            simplify: !self.no_simplify,
            readable_models: true,
            subsumption,
            merge: if self.merge { Merge::Join } else { Merge::Off },
            shown: Some(loaded.program.inputs().into_keys().collect()),
            shard: None,
            claims: None,
        };
        if let Some(mb) = self.max_memory_mb {
            crate::memory::set_budget(mb.saturating_mul(1 << 20));
        }
        let backstop = self.time_limit_ms.map(|ms| {
            backstop::Backstop::arm(Duration::from_millis(ms), format!("symex {command}"))
        });
        Ok(Session {
            loaded,
            choice,
            semantics: self.semantics.options(self.checked_arrays),
            explore,
            backstop,
        })
    }
}
