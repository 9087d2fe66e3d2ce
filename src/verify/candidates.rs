//! Candidate invariants for loops without annotation, found cheaply from
//! the program text (Houdini's templates, Flanagan & Leino 2001): bounds
//! the loop's guard suggests (`i < n` gives `i <= n`), the bounds of each
//! variable the loop writes by the constants it meets, the order between
//! two of its variables, array indices within their array, and the linear
//! equality that two counters stepped by constants keep with their values
//! before the loop (`i := 0; j := 0; while … { i := i + 1; j := j + 2 }`
//! gives `2 * i - j = 0`), and the residue a counter stepped by a constant
//! keeps (`x := 0; while … { x := x + 2 }` gives `x % 2 = 0`). None is trusted: Houdini keeps only those the
//! verifier shows inductive together ([`super::induction`]).

use super::writes::Writes;
use std::collections::{BTreeMap, BTreeSet};
use symex_semantics::program::{LoopId, Program, Stmt};
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind, UnOp};

/// At most this many candidates a loop (the guard's come first).
const MAX_CANDIDATES: usize = 200;

/// The candidates of every loop of `program` that has no invariant.
pub fn candidates(program: &Program) -> BTreeMap<LoopId, Vec<Term>> {
    let writes = Writes::new(program);
    let mut found = BTreeMap::new();
    let bodies = program
        .procedures
        .values()
        .map(|p| &p.body)
        .chain([&program.main]);
    for body in bodies {
        collect(program, &writes, body, &mut found);
    }
    found
}

/// The candidates of the unannotated loops in `block` and the blocks in it.
fn collect(
    program: &Program,
    writes: &Writes,
    block: &[Stmt],
    found: &mut BTreeMap<LoopId, Vec<Term>>,
) {
    for (i, stmt) in block.iter().enumerate() {
        match stmt {
            Stmt::While(id, b, body) => {
                if !program.annotations.invariants.contains_key(id) {
                    let written = writes.block(body);
                    let before = initial_values(&block[..i], &written);
                    found.insert(*id, of_loop(b, body, &written, &before));
                }
                collect(program, writes, body, found);
            }
            Stmt::If(_, then, otherwise) => {
                collect(program, writes, then, found);
                collect(program, writes, otherwise, found);
            }
            _ => {}
        }
    }
}

/// The last value assigned to each written variable by the statements
/// just before the loop, where that value reads nothing the loop writes.
fn initial_values(before: &[Stmt], written: &BTreeSet<Name>) -> BTreeMap<Name, Term> {
    let mut values = BTreeMap::new();
    for stmt in before.iter().rev() {
        match stmt {
            Stmt::Assign(x, e) if written.contains(x) => {
                let stable = e.free_vars().keys().all(|y| !written.contains(y));
                if stable && e.sort() == Sort::Int {
                    values.entry(x.clone()).or_insert_with(|| e.clone());
                }
            }
            Stmt::Assign(..) | Stmt::Assume(_) | Stmt::Assert(_) | Stmt::Skip => {}
            _ => break,
        }
    }
    values
}

fn int(x: &Name) -> Term {
    Term::var(x, Sort::Int)
}

fn le(a: Term, b: Term) -> Term {
    Term::binary(BinOp::Le, a, b)
}

/// The candidates of `while b { body }`.
fn of_loop(
    b: &Term,
    body: &[Stmt],
    written: &BTreeSet<Name>,
    before: &BTreeMap<Name, Term>,
) -> Vec<Term> {
    let mut out: Vec<Term> = Vec::new();
    let guard_atoms = atoms(b);
    for (op, left, right) in &guard_atoms {
        let plus = |e: &Term, k: i64| match e.kind() {
            TermKind::Int(n) => Term::int(n + k),
            _ => Term::binary(BinOp::Add, e.clone(), Term::int(k)),
        };
        match op {
            BinOp::Lt | BinOp::Le => {
                out.push(le(left.clone(), right.clone()));
                out.push(le(left.clone(), plus(right, 1)));
            }
            BinOp::Gt | BinOp::Ge => {
                out.push(le(right.clone(), left.clone()));
                out.push(le(right.clone(), plus(left, 1)));
            }
            BinOp::Ne => {
                out.push(le(left.clone(), right.clone()));
                out.push(le(right.clone(), left.clone()));
            }
            _ => {}
        }
    }
    let guard_vars: BTreeSet<Name> = int_vars(b);
    let ints: BTreeSet<Name> = written
        .iter()
        .filter(|x| before.contains_key(*x) || body_int_var(body, x) || guard_vars.contains(*x))
        .cloned()
        .chain(guard_vars.iter().cloned())
        .collect();
    let mut constants: BTreeSet<i64> = BTreeSet::from([0]);
    literals(b, &mut constants);
    for stmt in body {
        stmt_literals(stmt, &mut constants);
    }
    for value in before.values() {
        literals(value, &mut constants);
    }
    for x in ints.iter().filter(|x| written.contains(*x)) {
        for c in &constants {
            out.push(le(Term::int(*c), int(x)));
            out.push(le(int(x), Term::int(*c)));
        }
        if let Some(initial) = before.get(x) {
            out.push(le(initial.clone(), int(x)));
            out.push(le(int(x), initial.clone()));
        }
    }
    for x in &ints {
        for y in &ints {
            if x < y && (written.contains(x) || written.contains(y)) {
                out.push(le(int(x), int(y)));
                out.push(le(int(y), int(x)));
            }
        }
    }
    out.extend(lockstep(body, before));
    out.extend(residues(body, before));
    for (array, index) in indices(body).into_iter().chain(indices_of(b)) {
        if index.free_vars().keys().any(|x| written.contains(x)) {
            out.push(le(Term::int(0), index.clone()));
            out.push(le(index, Term::len(&array)));
        }
    }
    let mut seen = BTreeSet::new();
    out.retain(|c| seen.insert(c.id()));
    out.truncate(MAX_CANDIDATES);
    out
}

/// Whether `x` is assigned an integer in `body`.
fn body_int_var(body: &[Stmt], x: &Name) -> bool {
    body.iter().any(|stmt| match stmt {
        Stmt::Assign(y, e) => y == x && e.sort() == Sort::Int,
        Stmt::If(_, then, otherwise) => body_int_var(then, x) || body_int_var(otherwise, x),
        Stmt::While(_, _, inner) => body_int_var(inner, x),
        _ => false,
    })
}

/// The comparisons `l op r` that `b` conjoins.
fn atoms(b: &Term) -> Vec<(BinOp, Term, Term)> {
    match b.kind() {
        TermKind::Binary(BinOp::And, l, r) => {
            let mut found = atoms(l);
            found.extend(atoms(r));
            found
        }
        TermKind::Binary(op, l, r) if op.is_comparison() && l.sort() == Sort::Int => {
            vec![(*op, l.clone(), r.clone())]
        }
        TermKind::Unary(UnOp::Not, inner) => match inner.kind() {
            TermKind::Binary(op, l, r) if op.is_comparison() && l.sort() == Sort::Int => {
                let negated = match op {
                    BinOp::Lt => BinOp::Ge,
                    BinOp::Le => BinOp::Gt,
                    BinOp::Gt => BinOp::Le,
                    BinOp::Ge => BinOp::Lt,
                    BinOp::Eq => BinOp::Ne,
                    _ => BinOp::Eq,
                };
                vec![(negated, l.clone(), r.clone())]
            }
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

fn int_vars(e: &Term) -> BTreeSet<Name> {
    e.free_vars()
        .into_iter()
        .filter(|(_, sort)| *sort == Sort::Int)
        .map(|(x, _)| x)
        .collect()
}

/// The integer literals of `e`.
fn literals(e: &Term, out: &mut BTreeSet<i64>) {
    for node in e.nodes() {
        if let TermKind::Int(n) = node.kind() {
            if let Ok(n) = i64::try_from(n) {
                out.insert(n);
            }
        }
    }
}

fn stmt_literals(stmt: &Stmt, out: &mut BTreeSet<i64>) {
    match stmt {
        Stmt::Assign(_, e) | Stmt::Assert(e) | Stmt::Assume(e) => literals(e, out),
        Stmt::ArrayAssign(_, i, e) => {
            literals(i, out);
            literals(e, out);
        }
        Stmt::If(b, then, otherwise) => {
            literals(b, out);
            then.iter()
                .chain(otherwise.iter())
                .for_each(|s| stmt_literals(s, out));
        }
        Stmt::While(_, b, body) => {
            literals(b, out);
            body.iter().for_each(|s| stmt_literals(s, out));
        }
        _ => {}
    }
}

/// `dy * x - dx * y = dy * x₀ - dx * y₀` for two variables that `body`
/// steps by constants `dx`, `dy` on every iteration (one `x := x + dx` at
/// its top level, no other assignment to `x`), from values `x₀`, `y₀`
/// set just before the loop.
fn lockstep(body: &[Stmt], before: &BTreeMap<Name, Term>) -> Vec<Term> {
    let steps: Vec<(Name, i64)> = before
        .keys()
        .filter_map(|x| step_of(body, x).map(|d| (x.clone(), d)))
        .collect();
    let mut out = Vec::new();
    for (i, (x, dx)) in steps.iter().enumerate() {
        for (y, dy) in &steps[i + 1..] {
            let combination = |u: &Term, v: &Term| difference(scaled(*dy, u), scaled(*dx, v));
            out.push(Term::binary(
                BinOp::Eq,
                combination(&int(x), &int(y)),
                combination(&before[x], &before[y]),
            ));
        }
    }
    out
}

/// `x % d = x₀ % d` for a variable that `body` steps by a constant `d`
/// other than ±1 on every iteration, from `x₀` set just before the loop
/// (steps of two keep the parity).
fn residues(body: &[Stmt], before: &BTreeMap<Name, Term>) -> Vec<Term> {
    before
        .iter()
        .filter_map(|(x, initial)| {
            let d = step_of(body, x)?.abs();
            (d >= 2).then(|| {
                let modulus = Term::int(d);
                let at_entry = match initial.kind() {
                    TermKind::Int(n) => Term::int(num_integer::Integer::mod_floor(n, &d.into())),
                    _ => Term::binary(BinOp::Mod, initial.clone(), modulus.clone()),
                };
                Term::binary(
                    BinOp::Eq,
                    Term::binary(BinOp::Mod, int(x), modulus),
                    at_entry,
                )
            })
        })
        .collect()
}

/// `c * e`, folded where `c` is 1 or `e` a literal.
fn scaled(c: i64, e: &Term) -> Term {
    match e.kind() {
        TermKind::Int(n) => Term::int(n * c),
        _ if c == 1 => e.clone(),
        _ => Term::binary(BinOp::Mul, Term::int(c), e.clone()),
    }
}

/// `a - b`, folded where both are literals or `b` is 0.
fn difference(a: Term, b: Term) -> Term {
    match (a.kind(), b.kind()) {
        (TermKind::Int(m), TermKind::Int(n)) => Term::int(m - n),
        (_, TermKind::Int(n)) if n.sign() == num_bigint::Sign::NoSign => a,
        _ => Term::binary(BinOp::Sub, a, b),
    }
}

/// `d` when `body` assigns `x` exactly once, at its top level, `x := x + d`
/// (or `x - d`) for a literal `d`.
fn step_of(body: &[Stmt], x: &Name) -> Option<i64> {
    let mut step = None;
    for stmt in body {
        match stmt {
            Stmt::Assign(y, e) if y == x => {
                if step.is_some() {
                    return None;
                }
                step = Some(increment(x, e)?);
            }
            Stmt::If(_, then, otherwise) if assigns(then, x) || assigns(otherwise, x) => {
                return None
            }
            Stmt::While(_, _, inner) if assigns(inner, x) => return None,
            Stmt::Call(..) | Stmt::Havoc(_) => return None,
            _ => {}
        }
    }
    step
}

fn assigns(block: &[Stmt], x: &Name) -> bool {
    block.iter().any(|stmt| match stmt {
        Stmt::Assign(y, _) => y == x,
        Stmt::If(_, then, otherwise) => assigns(then, x) || assigns(otherwise, x),
        Stmt::While(_, _, inner) => assigns(inner, x),
        Stmt::Call(..) | Stmt::Havoc(_) => true,
        _ => false,
    })
}

/// `d` for `e = x + d` or `e = x - d`, `d` a literal.
fn increment(x: &Name, e: &Term) -> Option<i64> {
    let TermKind::Binary(op @ (BinOp::Add | BinOp::Sub), left, right) = e.kind() else {
        return None;
    };
    let (TermKind::Var(y, _), TermKind::Int(d)) = (left.kind(), right.kind()) else {
        return None;
    };
    let d = i64::try_from(d).ok()?;
    (y == x).then_some(if *op == BinOp::Add { d } else { -d })
}

/// The array reads `a[i]` of `body`'s expressions and array writes.
fn indices(body: &[Stmt]) -> Vec<(Name, Term)> {
    let mut out = Vec::new();
    for stmt in body {
        match stmt {
            Stmt::Assign(_, e) | Stmt::Assert(e) | Stmt::Assume(e) => out.extend(indices_of(e)),
            Stmt::ArrayAssign(a, i, e) => {
                out.push((a.clone(), i.clone()));
                out.extend(indices_of(i));
                out.extend(indices_of(e));
            }
            Stmt::If(b, then, otherwise) => {
                out.extend(indices_of(b));
                out.extend(indices(then));
                out.extend(indices(otherwise));
            }
            Stmt::While(_, b, inner) => {
                out.extend(indices_of(b));
                out.extend(indices(inner));
            }
            _ => {}
        }
    }
    out
}

fn indices_of(e: &Term) -> Vec<(Name, Term)> {
    e.nodes()
        .into_iter()
        .filter_map(|node| match node.kind() {
            TermKind::Select(array, index) => match array.kind() {
                TermKind::Var(a, _) => Some((a.clone(), index.clone())),
                _ => None,
            },
            _ => None,
        })
        .collect()
}
