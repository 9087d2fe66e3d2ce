//! Statement and branch coverage of a program, measured on concrete runs,
//! as gcov measures it: a statement is covered when a run executes it, a
//! branch when a run takes it. The branches are the two outcomes of each
//! `if` (then, else), `while` (enter, exit) and `assert` (holds, fails).
//!
//! A statement is known by where it is written ([`Program::statements`],
//! in [`Program::statements_in_order`]). The configurations of basic and
//! recursive programs run the program's own blocks, found by address; a
//! method body (and, under the unfolding of §4, a procedure body) runs as
//! a copy with its parameters and `this` renamed to fresh variables (`u₃`),
//! found by its text with the subscripts taken off. Two statements of
//! method bodies that read alike after that count as the first of them.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::rc::Rc;
use symex_semantics::program::{Program, Stmt};
use symex_semantics::system::Rule;

/// A statement of the program: its index in [`Program::statements_in_order`].
pub type Site = usize;

/// A branch: a branching statement and the rule that takes one way.
pub type Branch = (Site, Rule);

/// The statements and branches of a program, and how to find the statement
/// a configuration is about to run.
pub struct Sites {
    /// Holds the blocks whose addresses `by_address` keys.
    program: Rc<Program>,
    by_address: HashMap<usize, Site>,
    /// Statements of bodies that run as renamed copies, by their text.
    by_text: HashMap<String, Site>,
    /// Each statement's position and text, for reports.
    labels: Vec<Label>,
    /// The two rules of each branching statement.
    ways: Vec<Option<[Rule; 2]>>,
}

/// Where a statement is written, and how it reads.
#[derive(Clone, Debug)]
pub struct Label {
    /// `(line, column)`, unless the program was built without source.
    pub position: Option<(usize, usize)>,
    /// The statement's first line: `if a[j] = x`, `x := x + 1`.
    pub text: String,
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, column)) => write!(f, "{line}:{column}"),
            None => write!(f, "`{}`", self.text),
        }
    }
}

/// What runs have covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub statements: BTreeSet<Site>,
    pub branches: BTreeSet<Branch>,
}

impl Coverage {
    /// What `other` covers that `self` does not.
    pub fn beyond(&self, other: &Coverage) -> Coverage {
        Coverage {
            statements: other
                .statements
                .difference(&self.statements)
                .copied()
                .collect(),
            branches: other.branches.difference(&self.branches).copied().collect(),
        }
    }

    /// Adds what `other` covers.
    pub fn extend(&mut self, other: &Coverage) {
        self.statements.extend(&other.statements);
        self.branches.extend(&other.branches);
    }

    pub fn is_empty(&self) -> bool {
        self.statements.is_empty() && self.branches.is_empty()
    }
}

impl Sites {
    pub fn new(program: Rc<Program>) -> Sites {
        let statements = program.statements_in_order();
        let positions = &program.statements.0;
        let copied = copied_bodies(&program);
        let mut by_address = HashMap::new();
        let mut by_text = HashMap::new();
        let mut labels = Vec::with_capacity(statements.len());
        let mut ways = Vec::with_capacity(statements.len());
        for (site, stmt) in statements.iter().enumerate() {
            by_address.insert(address(stmt), site);
            let text = text(stmt);
            if site < copied {
                by_text.entry(text.clone()).or_insert(site);
            }
            labels.push(Label {
                position: positions.get(site).copied(),
                text,
            });
            ways.push(branch_rules(stmt));
        }
        drop(statements);
        Sites {
            program,
            by_address,
            by_text,
            labels,
            ways,
        }
    }

    /// The statement `stmt` is, or `None` for one the program does not
    /// contain as written (the assignment of a call's result, the end of a
    /// procedure's body).
    pub fn site(&self, stmt: &Stmt) -> Option<Site> {
        self.by_address
            .get(&address(stmt))
            .or_else(|| self.by_text.get(&text(stmt)))
            .copied()
    }

    /// Records in `coverage` a step by `rule` from a configuration about
    /// to run `head`.
    pub fn record(&self, coverage: &mut Coverage, head: Option<&Stmt>, rule: Rule) {
        let Some(site) = head.and_then(|stmt| self.site(stmt)) else {
            return;
        };
        coverage.statements.insert(site);
        if self.ways[site].is_some_and(|ways| ways.contains(&rule)) {
            coverage.branches.insert((site, rule));
        }
    }

    pub fn label(&self, site: Site) -> &Label {
        &self.labels[site]
    }

    /// `9:5 then`.
    pub fn branch_label(&self, (site, rule): Branch) -> String {
        format!("{} {}", self.labels[site], way(rule))
    }

    /// Every statement.
    pub fn statements(&self) -> impl Iterator<Item = Site> {
        0..self.labels.len()
    }

    /// Every branch, in program order, each statement's two ways in rule order.
    pub fn branches(&self) -> impl Iterator<Item = Branch> + '_ {
        self.ways
            .iter()
            .enumerate()
            .flat_map(|(site, ways)| ways.iter().flatten().map(move |rule| (site, *rule)))
    }

    /// The program whose statements these are.
    pub fn program(&self) -> &Program {
        &self.program
    }
}

/// The way `rule` takes out of a branching statement, as reports name it.
pub fn way(rule: Rule) -> &'static str {
    match rule {
        Rule::ChoiceThen => "then",
        Rule::ChoiceElse => "else",
        Rule::IterationEnter => "enter",
        Rule::IterationExit => "exit",
        Rule::AssertHolds => "holds",
        Rule::AssertFails => "fails",
        other => other.name(),
    }
}

/// The two rules out of a branching statement.
fn branch_rules(stmt: &Stmt) -> Option<[Rule; 2]> {
    match stmt {
        Stmt::If(..) => Some([Rule::ChoiceThen, Rule::ChoiceElse]),
        Stmt::While(..) => Some([Rule::IterationEnter, Rule::IterationExit]),
        Stmt::Assert(_) => Some([Rule::AssertHolds, Rule::AssertFails]),
        _ => None,
    }
}

/// How many statements, from the first in order, belong to bodies that run
/// as renamed copies: those of methods, and of procedures (the unfolding
/// of §4 inlines them too).
fn copied_bodies(program: &Program) -> usize {
    let methods = program
        .classes
        .values()
        .flat_map(|class| class.methods.values());
    let bodies = methods
        .map(|method| &method.body)
        .chain(program.procedures.values().map(|procedure| &procedure.body));
    bodies.map(|body| count(body)).sum()
}

/// Statements in `block`, nested ones included.
fn count(block: &[Stmt]) -> usize {
    block
        .iter()
        .map(|stmt| {
            1 + match stmt {
                Stmt::If(_, then, otherwise) => count(then) + count(otherwise),
                Stmt::While(_, _, body) => count(body),
                _ => 0,
            }
        })
        .sum()
}

fn address(stmt: &Stmt) -> usize {
    stmt as *const Stmt as usize
}

/// The first line of `stmt` with fresh subscripts taken off: a renamed
/// copy of a statement reads as the statement.
fn text(stmt: &Stmt) -> String {
    let shown = match stmt {
        Stmt::If(b, ..) => format!("if {b}"),
        Stmt::While(_, b, _) => format!("while {b}"),
        Stmt::Return(_, e) => format!("return {e}"),
        other => other.to_string(),
    };
    shown.chars().filter(|c| !('₀'..='₉').contains(c)).collect()
}
