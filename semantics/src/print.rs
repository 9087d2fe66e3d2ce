//! Terms printed in the source syntax of SPEC §1.2, which is also the
//! paper's notation (`(a[e] := e')` for array updates, `if b then e1 else e2
//! fi` for conditionals). Printing uses an explicit stack, so terms
//! millions of nodes deep (a loop run many times) print without
//! overflowing the call stack.
//!
//! Terms are DAGs (`y := y * y + y` doubles the written-out size at each
//! step), so a term whose tree would be much larger than its DAG is printed
//! with its shared subterms named once, in a `where` list:
//! `($2 * $2 + $2 where $1 = y * y + y, $2 = $1 * $1 + $1)`. The rule: a term
//! is written out in full unless its tree has more than
//! [`SHARING_THRESHOLD`] nodes *and* more than [`SHARING_FACTOR`] times as
//! many nodes as its DAG; then every compound subterm that occurs more than
//! once in the DAG is named, so the text is linear in the DAG. Small terms
//! (everything the paper's examples build) print exactly as written.

use crate::annotations::Contract;
use crate::program::{Block, Class, Code, Procedure, Program, Stmt, Target};
use crate::term::{BinOp, IdMap, Term, TermKind, UnOp};
use std::fmt::{self, Write};

/// Trees up to this many nodes are always written out in full.
pub const SHARING_THRESHOLD: u64 = 1000;

/// Beyond the threshold, a tree this many times larger than its DAG is
/// printed with its shared subterms named.
pub const SHARING_FACTOR: u64 = 4;

/// Binding strength of `!` (below comparisons, SPEC §1.2), of `-` and of atoms.
const NOT: u8 = 4;
const UNARY: u8 = 8;
const ATOM: u8 = 9;

fn precedence(term: &Term) -> u8 {
    match term.kind() {
        TermKind::Binary(op, ..) => op.precedence(),
        TermKind::Unary(UnOp::Not, _) => NOT,
        TermKind::Unary(UnOp::Neg, _) => UNARY,
        TermKind::Int(n) if n.sign() == num_bigint::Sign::Minus => UNARY,
        _ => ATOM,
    }
}

enum Task<'a> {
    Term(&'a Term, u8),
    Text(&'a str),
    Close(bool),
}

/// Whether `term` written out as a tree has at most `budget` nodes; stops
/// counting at the budget, so small terms cost a short walk.
fn tree_within(term: &Term, budget: u64) -> bool {
    let mut count = 0;
    let mut stack = vec![term];
    while let Some(node) = stack.pop() {
        count += 1;
        if count > budget {
            return false;
        }
        stack.extend(node.children());
    }
    true
}

/// The names of the shared compound subterms of `root` (numbered children
/// first), or none when the term is to be written out in full.
fn shared_names(root: &Term) -> IdMap<usize> {
    let mut names = IdMap::default();
    if tree_within(root, SHARING_THRESHOLD) {
        return names;
    }
    let nodes = root.nodes();
    if root.tree_size() <= SHARING_FACTOR.saturating_mul(nodes.len() as u64) {
        return names;
    }
    let mut parents: IdMap<usize> = IdMap::default();
    for node in &nodes {
        for child in node.children() {
            *parents.entry(child.id()).or_default() += 1;
        }
    }
    for node in &nodes {
        if !node.children().is_empty() && parents.get(&node.id()).is_some_and(|&n| n > 1) {
            let number = names.len() + 1;
            names.insert(node.id(), number);
        }
    }
    names
}

/// Writes `root`, naming its shared subterms when its tree would be too
/// large (then in parentheses, so the `where` list ends visibly inside a
/// state or a list).
fn write_shared(out: &mut dyn fmt::Write, root: &Term) -> fmt::Result {
    let names = shared_names(root);
    if names.is_empty() {
        return write_term(out, root, &names);
    }
    out.write_char('(')?;
    write_term(out, root, &names)?;
    let mut definitions: Vec<(usize, Term)> = Vec::with_capacity(names.len());
    for node in root.nodes() {
        if let Some(&number) = names.get(&node.id()) {
            definitions.push((number, node));
        }
    }
    out.write_str(" where ")?;
    for (i, (number, node)) in definitions.iter().enumerate() {
        write!(out, "{}${number} = ", if i == 0 { "" } else { ", " })?;
        write_term(out, node, &names)?;
    }
    out.write_char(')')
}

/// Writes `term` wrapped in parentheses when its precedence is below `min`;
/// a proper subterm with a name in `names` is written as that name.
fn write_term(out: &mut dyn fmt::Write, root: &Term, names: &IdMap<usize>) -> fmt::Result {
    let mut stack = vec![Task::Term(root, 0)];
    let mut at_root = true;
    while let Some(task) = stack.pop() {
        let (term, min) = match task {
            Task::Text(text) => {
                out.write_str(text)?;
                continue;
            }
            Task::Close(paren) => {
                if paren {
                    out.write_char(')')?;
                }
                continue;
            }
            Task::Term(term, min) => (term, min),
        };
        if let Some(number) = names.get(&term.id()).filter(|_| !at_root) {
            write!(out, "${number}")?;
            continue;
        }
        at_root = false;
        let paren = precedence(term) < min;
        if paren {
            out.write_char('(')?;
        }
        stack.push(Task::Close(paren));
        match term.kind() {
            TermKind::Int(n) => write!(out, "{n}")?,
            TermKind::Bool(b) => write!(out, "{b}")?,
            TermKind::Var(name, _) => out.write_str(name)?,
            TermKind::Len(name) => write!(out, "len({name})")?,
            TermKind::Nil(_) => out.write_str("nil")?,
            TermKind::FieldArray(f, _) => out.write_str(f)?,
            TermKind::Field(object, field, _) => {
                stack.push(Task::Text(field));
                stack.push(Task::Text("."));
                stack.push(Task::Term(object, ATOM));
            }
            TermKind::Unary(op, operand) => {
                out.write_str(match op {
                    UnOp::Neg => "-",
                    UnOp::Not => "!",
                })?;
                stack.push(Task::Term(operand, UNARY));
            }
            TermKind::Binary(op, left, right) => {
                let p = op.precedence();
                // Comparisons are non-associative; `==>` groups to the right,
                // everything else to the left.
                let (left_min, right_min) = match op {
                    BinOp::Implies => (p + 1, p),
                    _ if op.precedence() == 5 => (p + 1, p + 1),
                    _ => (p, p + 1),
                };
                stack.push(Task::Term(right, right_min));
                stack.push(Task::Text(match op {
                    BinOp::Add => " + ",
                    BinOp::Sub => " - ",
                    BinOp::Mul => " * ",
                    BinOp::Div => " / ",
                    BinOp::Mod => " % ",
                    BinOp::Eq => " = ",
                    BinOp::Ne => " != ",
                    BinOp::Lt => " < ",
                    BinOp::Le => " <= ",
                    BinOp::Gt => " > ",
                    BinOp::Ge => " >= ",
                    BinOp::And => " && ",
                    BinOp::Or => " || ",
                    BinOp::Implies => " ==> ",
                }));
                stack.push(Task::Term(left, left_min));
            }
            TermKind::Ite(condition, then, otherwise) => {
                out.write_str("if ")?;
                stack.push(Task::Text(" fi"));
                stack.push(Task::Term(otherwise, 0));
                stack.push(Task::Text(" else "));
                stack.push(Task::Term(then, 0));
                stack.push(Task::Text(" then "));
                stack.push(Task::Term(condition, 0));
            }
            TermKind::Select(array, index) => {
                stack.push(Task::Text("]"));
                stack.push(Task::Term(index, 0));
                stack.push(Task::Text("["));
                stack.push(Task::Term(array, ATOM));
            }
            TermKind::Store(array, index, value) => {
                out.write_char('(')?;
                stack.push(Task::Text(")"));
                stack.push(Task::Term(value, 0));
                stack.push(Task::Text("] := "));
                stack.push(Task::Term(index, 0));
                stack.push(Task::Text("["));
                stack.push(Task::Term(array, ATOM));
            }
        }
    }
    Ok(())
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_shared(f, self)
    }
}

impl fmt::Display for Stmt {
    /// One line: `if b { S1 } else { S2 }`, `while b { S }`, `a[e] := e'`, …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_stmt(f, self, None, None)
    }
}

impl fmt::Display for Code {
    /// `S1; S2; …`, or `ε` for the empty statement.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let statements = self.statements();
        if statements.is_empty() {
            return f.write_str("ε");
        }
        for (i, stmt) in statements.into_iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write_stmt(f, stmt, None, None)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Writes `stmt`, on one line when `indent` is `None`, else as a source
/// program indented by that many levels, with the loop labels and
/// invariants of `program` when given.
fn write_stmt(
    out: &mut dyn Write,
    stmt: &Stmt,
    indent: Option<usize>,
    program: Option<&Program>,
) -> fmt::Result {
    match stmt {
        Stmt::Skip => out.write_str("skip"),
        Stmt::Assign(x, e) => write!(out, "{x} := {e}"),
        Stmt::ArrayAssign(a, i, e) => write!(out, "{a}[{i}] := {e}"),
        Stmt::If(b, then, otherwise) => {
            write!(out, "if {b} ")?;
            write_block(out, then, indent, program)?;
            if !otherwise.is_empty() {
                out.write_str(" else ")?;
                write_block(out, otherwise, indent, program)?;
            }
            Ok(())
        }
        Stmt::While(id, b, body) => {
            let label = program.and_then(|p| p.loops.get(*id)?.label.as_ref());
            if let Some(label) = label {
                write!(out, "{label}: ")?;
            }
            write!(out, "while {b} ")?;
            let invariants = program.and_then(|p| p.annotations.invariants.get(id));
            for invariant in invariants.into_iter().flatten() {
                write!(out, "invariant {invariant} ")?;
            }
            write_block(out, body, indent, program)
        }
        Stmt::Call(p, args) => {
            write!(out, "{p}(")?;
            write_list(out, args)?;
            out.write_char(')')
        }
        Stmt::Assert(e) => write!(out, "assert {e}"),
        Stmt::Assume(e) => write!(out, "assume {e}"),
        Stmt::FieldAssign(object, field, e) => {
            write_heap_variable(out, object, field)?;
            write!(out, " := {e}")
        }
        Stmt::New(target, class) => write!(out, "{} := new {class}", ShowTarget(target)),
        Stmt::MethodCall {
            target,
            receiver,
            method,
            args,
            ..
        } => {
            write!(out, "{} := ", ShowTarget(target))?;
            write_access(out, receiver, method)?;
            out.write_char('(')?;
            write_list(out, args)?;
            out.write_char(')')
        }
        Stmt::Return(_, e) => write!(out, "return {e}"),
        Stmt::EndCall(p) => write!(out, "end {p}"),
        Stmt::Havoc(vars) => {
            out.write_str("havoc ")?;
            for (i, (x, _)) in vars.iter().enumerate() {
                if i > 0 {
                    out.write_str(", ")?;
                }
                out.write_str(x)?;
            }
            Ok(())
        }
        Stmt::Halt(halt) => write!(out, "{halt}"),
    }
}

/// `e.f` (or `e.m`), with `e` in parentheses unless it is an atom.
fn write_access(out: &mut dyn Write, object: &Term, member: &str) -> fmt::Result {
    if precedence(object) < ATOM {
        write!(out, "({object}).{member}")
    } else {
        write!(out, "{object}.{member}")
    }
}

/// A heap variable `x` or `e.f`.
struct ShowTarget<'a>(&'a Target);

impl fmt::Display for ShowTarget<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Target::Var(x) => f.write_str(x),
            Target::Field(object, field) => write_heap_variable(f, object, field),
        }
    }
}

/// `e.f` at the start of a statement: `e` in parentheses also when it
/// begins with a conditional expression, which would read as an `if` statement.
fn write_heap_variable(out: &mut dyn Write, object: &Term, field: &str) -> fmt::Result {
    if begins_with_conditional(object) {
        write!(out, "({object}).{field}")
    } else {
        write_access(out, object, field)
    }
}

fn begins_with_conditional(e: &Term) -> bool {
    match e.kind() {
        TermKind::Ite(..) => true,
        TermKind::Field(object, ..) => begins_with_conditional(object),
        _ => false,
    }
}

fn write_list(out: &mut dyn Write, terms: &[Term]) -> fmt::Result {
    for (i, e) in terms.iter().enumerate() {
        if i > 0 {
            out.write_str(", ")?;
        }
        write!(out, "{e}")?;
    }
    Ok(())
}

/// `{ S1; S2 }` on one line, or one statement a line inside the braces.
fn write_block(
    out: &mut dyn Write,
    block: &Block,
    indent: Option<usize>,
    program: Option<&Program>,
) -> fmt::Result {
    match indent {
        None => {
            out.write_char('{')?;
            for (i, stmt) in block.iter().enumerate() {
                out.write_str(if i == 0 { " " } else { "; " })?;
                write_stmt(out, stmt, None, program)?;
            }
            out.write_str(" }")
        }
        Some(level) => {
            out.write_str("{\n")?;
            write_lines(out, block, level + 1, program)?;
            write!(out, "{}}}", "    ".repeat(level))
        }
    }
}

fn write_lines(
    out: &mut dyn Write,
    block: &Block,
    level: usize,
    program: Option<&Program>,
) -> fmt::Result {
    for (i, stmt) in block.iter().enumerate() {
        out.write_str(&"    ".repeat(level))?;
        write_stmt(out, stmt, Some(level), program)?;
        out.write_str(if i + 1 < block.len() { ";\n" } else { "\n" })?;
    }
    Ok(())
}

impl fmt::Display for Program {
    /// The program as source text that parses back to the same program.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (x, sort) in &self.globals {
            writeln!(f, "var {x}: {sort};")?;
        }
        for class in self.classes.values() {
            write_class(f, class, self)?;
        }
        for procedure in self.procedures.values() {
            write_procedure(f, procedure, self)?;
        }
        write_lines(f, &self.main, 0, Some(self))
    }
}

fn write_procedure(out: &mut dyn Write, procedure: &Procedure, program: &Program) -> fmt::Result {
    write!(out, "proc {}", procedure.name)?;
    write_params(out, &procedure.params)?;
    write_contract(out, program.annotations.procedures.get(&procedure.name))?;
    write_block(out, &procedure.body, Some(0), Some(program))?;
    out.write_char('\n')
}

/// `requires P ensures Q ` before a body.
fn write_contract(out: &mut dyn Write, contract: Option<&Contract>) -> fmt::Result {
    for clause in contract.iter().flat_map(|c| &c.requires) {
        write!(out, "requires {clause} ")?;
    }
    for clause in contract.iter().flat_map(|c| &c.ensures) {
        write!(out, "ensures {clause} ")?;
    }
    Ok(())
}

fn write_params(
    out: &mut dyn Write,
    params: &[(crate::term::Name, crate::term::Sort)],
) -> fmt::Result {
    out.write_char('(')?;
    for (i, (u, sort)) in params.iter().enumerate() {
        if i > 0 {
            out.write_str(", ")?;
        }
        write!(out, "{u}: {sort}")?;
    }
    out.write_str(") ")
}

fn write_class(out: &mut dyn Write, class: &Class, program: &Program) -> fmt::Result {
    writeln!(out, "class {} {{", class.name)?;
    for (field, sort) in &class.fields {
        writeln!(out, "    field {field}: {sort};")?;
    }
    for method in class.methods.values() {
        write!(out, "    method {}", method.name)?;
        write_params(out, &method.params)?;
        let key = (class.name.clone(), method.name.clone());
        write_contract(out, program.annotations.methods.get(&key))?;
        write_block(out, &method.body, Some(1), Some(program))?;
        out.write_char('\n')?;
    }
    out.write_str("}\n")
}

#[cfg(test)]
mod tests {
    use crate::term::{BinOp, Sort, Term};

    fn var(name: &str) -> Term {
        Term::var(name, Sort::Int)
    }

    #[test]
    fn parenthesises_only_where_needed() {
        let sum = Term::binary(BinOp::Add, var("x"), var("y"));
        let product = Term::binary(BinOp::Mul, sum.clone(), var("z"));
        assert_eq!(product.to_string(), "(x + y) * z");
        let difference = Term::binary(BinOp::Sub, var("x"), sum);
        assert_eq!(difference.to_string(), "x - (x + y)");
        let test = Term::not(Term::binary(BinOp::Lt, var("x"), var("n")));
        assert_eq!(test.to_string(), "!(x < n)");
        // `!` binds more loosely than `=` (SPEC §1.2), so it needs parentheses there.
        let negated = Term::not(Term::var("b", Sort::Bool));
        assert_eq!(
            Term::binary(BinOp::Eq, negated, Term::var("c", Sort::Bool)).to_string(),
            "(!b) = c"
        );
        let implication = Term::binary(
            BinOp::Implies,
            Term::var("a", Sort::Bool),
            Term::binary(
                BinOp::Implies,
                Term::var("b", Sort::Bool),
                Term::var("c", Sort::Bool),
            ),
        );
        assert_eq!(implication.to_string(), "a ==> b ==> c");
    }

    #[test]
    fn arrays_print_in_the_papers_notation() {
        let a = Term::var("a", Sort::int_array());
        let updated = Term::store(a, Term::int(0), Term::int(7));
        assert_eq!(
            Term::select(updated, var("i")).to_string(),
            "(a[0] := 7)[i]"
        );
    }

    #[test]
    fn deep_terms_print_without_recursion() {
        let mut term = var("x");
        for _ in 0..200_000 {
            term = Term::binary(BinOp::Add, term, Term::int(1));
        }
        assert_eq!(term.to_string().len(), 1 + 200_000 * 4);
    }

    /// `y := y * y + y` twenty times: a tree of millions of nodes, a DAG of sixty.
    fn squares(times: usize) -> Term {
        let mut y = var("y");
        for _ in 0..times {
            y = Term::binary(
                BinOp::Add,
                Term::binary(BinOp::Mul, y.clone(), y.clone()),
                y,
            );
        }
        y
    }

    #[test]
    fn shared_subterms_are_named_once_when_the_tree_would_blow_up() {
        let text = squares(20).to_string();
        assert!(
            text.len() < 2_000,
            "linear in the DAG, not the tree: {} bytes",
            text.len()
        );
        assert!(
            text.starts_with("($19 * $19 + $19 where $1 = y * y + y, $2 = $1 * $1 + $1, "),
            "{text}"
        );
        assert!(text.ends_with("$19 = $18 * $18 + $18)"), "{text}");
    }

    #[test]
    fn moderately_shared_terms_print_in_full() {
        // 4 squarings: a tree of 61 nodes, under the threshold.
        assert!(!squares(4).to_string().contains('$'));
        // A long chain is as large as its DAG: written out, however long.
        let mut chain = var("x");
        for _ in 0..2_000 {
            chain = Term::binary(BinOp::Add, chain, Term::int(1));
        }
        assert!(!chain.to_string().contains('$'));
    }
}
