//! What a property run exercised, and the coverage it must reach (PLT
//! Redex's `relation-coverage`): every case a checker reports (the rule of
//! each step it compared, the kind of each expression) is tallied per run,
//! with the constructs of the generated programs, and printed as a
//! distribution report (`cargo test --test proofs -- --nocapture`). A
//! property fails when a case it requires occurred fewer than
//! [`at_least`] times: a generator that never reaches a rule, or a checker
//! that silently skips one, is caught like a wrong rule.

use std::cell::RefCell;
use std::fmt::{self, Write};
use symex::theorems::cases::{expression_case, INITIAL};
use symex::theorems::Cases;
use symex_semantics::program::{Block, Program, Stmt};
use symex_semantics::system::Rule;
use symex_semantics::term::{BinOp, Term, TermKind};

/// What one property run exercised.
#[derive(Default)]
pub struct Tally {
    /// Every case the checker reported, summed over the run.
    pub checked: Cases,
    /// Per checked case: how many steps it followed (cases other than the
    /// initial configuration and expressions) and whether it entered a loop.
    runs: Vec<Run>,
    /// The constructs of the generated programs (statements, operators,
    /// array reads under short-circuit operands).
    pub constructs: Cases,
    /// Statements per generated program.
    statements: Vec<usize>,
}

struct Run {
    steps: u64,
    entered: u64,
    assignments: u64,
}

thread_local! {
    /// Each test runs in its own thread, so each property has its own tally.
    static TALLY: RefCell<Tally> = RefCell::new(Tally::default());
}

/// Starts a new tally for this thread's property run.
pub fn reset() {
    TALLY.with(|t| *t.borrow_mut() = Tally::default());
}

/// The tally of this thread's property run so far.
pub fn take() -> Tally {
    TALLY.with(|t| std::mem::take(&mut *t.borrow_mut()))
}

/// `f` of this thread's tally so far, which it keeps.
pub fn with_tally<T>(f: impl FnOnce(&Tally) -> T) -> T {
    TALLY.with(|t| f(&t.borrow()))
}

/// Records the cases one checker call reported.
pub fn record_checked(cases: &Cases) {
    let count = |rules: &[Rule]| rules.iter().map(|r| cases.count(r.name())).sum();
    let steps = rule_names().map(|r| cases.count(r)).sum();
    let run = Run {
        steps,
        entered: count(&[Rule::IterationEnter]),
        assignments: count(&[
            Rule::Assignment,
            Rule::ArrayAssignment,
            Rule::GlobalAssignment,
            Rule::LocalAssignment,
        ]),
    };
    TALLY.with(|t| {
        let mut tally = t.borrow_mut();
        tally.checked.merge(cases);
        tally.runs.push(run);
    });
}

/// Records the constructs of a generated program.
pub fn record_program(program: &Program) {
    let mut constructs = Cases::default();
    let mut statements = 0;
    let bodies = program
        .procedures
        .values()
        .map(|p| &p.body)
        .chain(std::iter::once(&program.main));
    for body in bodies {
        statements += constructs_of_block(body, &mut constructs, Context::default());
    }
    TALLY.with(|t| {
        let mut tally = t.borrow_mut();
        tally.constructs.merge(&constructs);
        tally.statements.push(statements);
    });
}

/// Records one case of a property without a checker (King's properties).
pub fn record_case(case: impl fmt::Display) {
    TALLY.with(|t| t.borrow_mut().checked.add(case));
}

/// Where a statement is: inside a loop, under a condition.
#[derive(Clone, Copy, Default)]
struct Context {
    in_loop: bool,
    conditional: bool,
}

/// Tallies the constructs of `block`; returns its number of statements.
fn constructs_of_block(block: &Block, constructs: &mut Cases, context: Context) -> usize {
    let mut statements = 0;
    for stmt in block.iter() {
        statements += 1;
        let expressions: Vec<&Term> = match stmt {
            Stmt::Assign(_, e) | Stmt::Assert(e) | Stmt::Assume(e) => vec![e],
            Stmt::ArrayAssign(_, i, e) => vec![i, e],
            Stmt::If(b, then, otherwise) => {
                let inner = Context {
                    conditional: true,
                    ..context
                };
                statements += constructs_of_block(then, constructs, inner)
                    + constructs_of_block(otherwise, constructs, inner);
                vec![b]
            }
            Stmt::While(_, b, body) => {
                if context.in_loop {
                    constructs.add("nested while");
                }
                statements += constructs_of_block(
                    body,
                    constructs,
                    Context {
                        in_loop: true,
                        conditional: true,
                    },
                );
                vec![b]
            }
            Stmt::Call(_, args) => {
                if context.conditional {
                    constructs.add("call under a condition");
                }
                args.iter().collect()
            }
            _ => Vec::new(),
        };
        constructs.add(statement_kind(stmt));
        for e in expressions {
            constructs_of_term(e, constructs);
        }
    }
    statements
}

fn statement_kind(stmt: &Stmt) -> &'static str {
    match stmt {
        Stmt::Assign(..) => "statement x := e",
        Stmt::ArrayAssign(..) => "statement a[e] := e'",
        Stmt::If(..) => "statement if",
        Stmt::While(..) => "statement while",
        Stmt::Assert(..) => "statement assert",
        Stmt::Assume(..) => "statement assume",
        Stmt::Skip => "statement skip",
        Stmt::Call(..) => "statement call",
        _ => "statement other",
    }
}

/// Tallies the operators of `e`, the divisions by a literal 0, and the
/// array reads in each operand of a short-circuit operator.
fn constructs_of_term(e: &Term, constructs: &mut Cases) {
    for node in e.nodes() {
        constructs.add(format_args!("operator {}", expression_case(&node)));
        let operands: Vec<(&str, &Term)> = match node.kind() {
            TermKind::Binary(op @ (BinOp::And | BinOp::Or | BinOp::Implies), a, b) => {
                vec![(left(*op), a), (right(*op), b)]
            }
            TermKind::Ite(c, a, b) => vec![("?: condition", c), ("?: then", a), ("?: else", b)],
            TermKind::Binary(BinOp::Div | BinOp::Mod, _, divisor)
                if divisor.kind() == &TermKind::Int(0.into()) =>
            {
                constructs.add("division by 0");
                Vec::new()
            }
            _ => Vec::new(),
        };
        for (place, operand) in operands {
            if operand
                .nodes()
                .iter()
                .any(|n| matches!(n.kind(), TermKind::Select(..)))
            {
                constructs.add(format_args!("a[e] in {place}"));
            }
        }
    }
}

fn left(op: BinOp) -> &'static str {
    match op {
        BinOp::And => "&& left",
        BinOp::Or => "|| left",
        _ => "==> left",
    }
}

fn right(op: BinOp) -> &'static str {
    match op {
        BinOp::And => "&& right",
        BinOp::Or => "|| right",
        _ => "==> right",
    }
}

/// The names of every rule (cases that are steps, not expressions).
fn rule_names() -> impl Iterator<Item = &'static str> {
    ALL_RULES.iter().map(|r| r.name())
}

const ALL_RULES: [Rule; 16] = [
    Rule::Skip,
    Rule::Assignment,
    Rule::ArrayAssignment,
    Rule::ChoiceThen,
    Rule::ChoiceElse,
    Rule::IterationEnter,
    Rule::IterationExit,
    Rule::AssertHolds,
    Rule::AssertFails,
    Rule::Assume,
    Rule::AssumptionViolated,
    Rule::ArrayOutOfBound,
    Rule::GlobalAssignment,
    Rule::LocalAssignment,
    Rule::ProcedureCall,
    Rule::ProcedureReturn,
];

/// The cases a property must see: each at least [`at_least`] times, and
/// the frequent ones (events a property is about, which a generator must
/// make common) in at least a twentieth of its cases.
#[derive(Clone)]
pub struct Required {
    cases: Vec<String>,
    frequent: Vec<String>,
}

/// The share of a run's cases a frequent case must reach: one in this many.
const FREQUENT: u64 = 20;

impl Required {
    /// Nothing required (properties that are not about a transition system).
    pub fn nothing() -> Required {
        Required {
            cases: Vec::new(),
            frequent: Vec::new(),
        }
    }

    /// Each of `rules`.
    pub fn rules(rules: &[Rule]) -> Required {
        Required {
            cases: rules.iter().map(|r| r.name().to_string()).collect(),
            frequent: Vec::new(),
        }
    }

    /// Each of `cases`.
    pub fn cases(cases: &[&str]) -> Required {
        Required {
            cases: cases.iter().map(|c| c.to_string()).collect(),
            frequent: Vec::new(),
        }
    }

    /// Each of `cases`, in at least a twentieth of the run's cases.
    pub fn frequent(cases: &[&str]) -> Required {
        Required {
            cases: Vec::new(),
            frequent: cases.iter().map(|c| c.to_string()).collect(),
        }
    }

    /// These and `cases` as well.
    pub fn and_cases(mut self, cases: &[&str]) -> Required {
        self.cases.extend(cases.iter().map(|c| c.to_string()));
        self
    }

    /// These and `case`, in at least a twentieth of the run's cases.
    pub fn and_frequent(mut self, case: &str) -> Required {
        self.frequent.push(case.to_string());
        self
    }

    /// These and `rule` as well.
    pub fn and(mut self, rule: Rule) -> Required {
        self.cases.push(rule.name().to_string());
        self
    }

    /// These and the initial configuration.
    pub fn and_initial(mut self) -> Required {
        self.cases.push(INITIAL.to_string());
        self
    }

    /// A completeness theorem's cases: `rules`, and the concrete run that
    /// leaves the program's domain — required without checked arrays,
    /// where it is common; with them, runs mostly end earlier at a bound,
    /// and about one in a hundred meets a false `assume`, too close to the
    /// threshold for a requirement that never flakes.
    pub fn completeness(rules: &[Rule], checked: bool) -> Required {
        let rules = Required::rules(rules);
        if checked {
            rules.checked(true)
        } else {
            rules.and(Rule::AssumptionViolated)
        }
    }

    /// With `--checked-arrays`, `array-out-of-bound` as well.
    pub fn checked(self, checked: bool) -> Required {
        if checked {
            self.and(Rule::ArrayOutOfBound)
        } else {
            self
        }
    }

    /// The required cases `tally` saw too rarely in a run of `tests` cases,
    /// with their counts and how often they had to occur.
    pub fn missing(&self, tally: &Tally, tests: u64) -> Vec<(String, u64, u64)> {
        let rare = self.cases.iter().map(|case| (case, at_least(tests)));
        let frequent = self
            .frequent
            .iter()
            .map(|case| (case, at_least(tests).max(tests / FREQUENT)));
        rare.chain(frequent)
            .map(|(case, n)| (case.clone(), tally.checked.count(case), n))
            .filter(|(_, seen, n)| seen < n)
            .collect()
    }
}

/// §2's rules every symbolic run can take.
pub const BASIC_RULES: [Rule; 10] = [
    Rule::Skip,
    Rule::Assignment,
    Rule::ArrayAssignment,
    Rule::ChoiceThen,
    Rule::ChoiceElse,
    Rule::IterationEnter,
    Rule::IterationExit,
    Rule::AssertHolds,
    Rule::AssertFails,
    Rule::Assume,
];

/// §3's rules every symbolic run can take.
pub const RECURSIVE_RULES: [Rule; 13] = [
    Rule::Skip,
    Rule::GlobalAssignment,
    Rule::LocalAssignment,
    Rule::ArrayAssignment,
    Rule::ChoiceThen,
    Rule::ChoiceElse,
    Rule::IterationEnter,
    Rule::IterationExit,
    Rule::AssertHolds,
    Rule::AssertFails,
    Rule::Assume,
    Rule::ProcedureCall,
    Rule::ProcedureReturn,
];

/// How often each required case must occur in a run of `cases` cases:
/// five times in the default 1000, fewer in smaller runs, never zero. The
/// rarest required cases (a failing `assert` with checked arrays, a
/// violated `assume`) average 15–20 in 1000 but vary with the seed; at a
/// floor of ten, one run in ten to twenty fell under it by chance.
fn at_least(cases: u64) -> u64 {
    (cases / 200).clamp(1, 5)
}

/// The `p`-th percentile of `values` (0 when empty).
fn percentile(values: &[u64], p: usize) -> u64 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted
        .get(sorted.len().saturating_sub(1) * p / 100)
        .copied()
        .unwrap_or(0)
}

fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

impl Tally {
    /// The distribution report printed after a property run.
    pub fn report(&self, name: &str) -> String {
        let mut out = String::new();
        let runs = self.runs.len();
        let steps: Vec<u64> = self.runs.iter().map(|r| r.steps).collect();
        let statements: Vec<u64> = self.statements.iter().map(|&s| s as u64).collect();
        let _ = writeln!(
            out,
            "── {name}: {runs} checked cases, {} checker cases",
            self.checked.total()
        );
        if steps.iter().any(|&s| s > 0) {
            let entered = self.runs.iter().filter(|r| r.entered > 0).count();
            let iterated = self.runs.iter().filter(|r| r.entered > 1).count();
            let unassigned = self.runs.iter().filter(|r| r.assignments == 0).count();
            let _ = writeln!(
                out,
                "   steps per case: median {}, 90th percentile {}; loop entered in {:.0} %, iterated in {:.0} %; no assignment in {:.0} %",
                percentile(&steps, 50),
                percentile(&steps, 90),
                percent(entered, runs),
                percent(iterated, runs),
                percent(unassigned, runs)
            );
        }
        if !statements.is_empty() {
            let single = statements.iter().filter(|&&s| s == 1).count();
            let _ = writeln!(
                out,
                "   statements per program: median {}, 90th percentile {}; one statement in {:.0} %",
                percentile(&statements, 50),
                percentile(&statements, 90),
                percent(single, statements.len())
            );
        }
        let list = |cases: &Cases| {
            cases
                .iter()
                .map(|(case, n)| format!("{case}: {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(out, "   checked: {}", list(&self.checked));
        if self.constructs.total() > 0 {
            let _ = writeln!(out, "   generated: {}", list(&self.constructs));
        }
        out
    }
}
