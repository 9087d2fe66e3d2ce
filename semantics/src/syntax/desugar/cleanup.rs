//! The last touches on a desugared body: flags that nothing reads (a
//! `return` at the end of a function, a `continue` whose rest moved into an
//! `else`) are dropped with their assignments, and every call passes the
//! starting values of the extra parameters its procedure gained.

use super::super::ast::{Expr, ExprKind, Stmt, StmtKind, Sugar, Target};
use super::frame::Frame;
use std::collections::{HashMap, HashSet};

/// `stmts` without the assignments to flags of `frame` that no expression
/// reads; those flags leave the frame's locals.
pub(super) fn drop_unread_flags(frame: &mut Frame, stmts: Vec<Stmt>) -> Vec<Stmt> {
    let mut read = HashSet::new();
    reads(&stmts, &mut read);
    let unread: HashSet<String> = frame
        .flags
        .iter()
        .filter(|f| !read.contains(*f))
        .cloned()
        .collect();
    frame.locals.retain(|local| !unread.contains(&local.name));
    without_assignments(stmts, &unread)
}

fn without_assignments(stmts: Vec<Stmt>, dropped: &HashSet<String>) -> Vec<Stmt> {
    stmts
        .into_iter()
        .filter(|s| !matches!(&s.kind, StmtKind::Assign(Target::Var(x), _) if dropped.contains(&x.name)))
        .map(|s| {
            let kind = match s.kind {
                StmtKind::If(c, then, otherwise) => StmtKind::If(
                    c,
                    without_assignments(then, dropped),
                    without_assignments(otherwise, dropped),
                ),
                StmtKind::While { condition, invariants, body, label } => StmtKind::While {
                    condition,
                    invariants,
                    body: without_assignments(body, dropped),
                    label,
                },
                kind => kind,
            };
            Stmt { kind, span: s.span }
        })
        .collect()
}

/// The variables `stmts` read or assign.
pub(super) fn variables(stmts: &[Stmt], names: &mut HashSet<String>) {
    reads(stmts, names);
    assigned(stmts, names);
}

fn assigned(stmts: &[Stmt], names: &mut HashSet<String>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign(Target::Var(x), _)
            | StmtKind::New(Target::Var(x), _)
            | StmtKind::MethodCall {
                target: Target::Var(x),
                ..
            } => {
                names.insert(x.name.clone());
            }
            StmtKind::If(_, then, otherwise) => {
                assigned(then, names);
                assigned(otherwise, names);
            }
            StmtKind::While { body, .. } => assigned(body, names),
            StmtKind::Sugar(Sugar::For { var, body, .. }) => {
                names.insert(var.name.clone());
                assigned(body, names);
            }
            StmtKind::Sugar(Sugar::Local { name, .. }) => {
                names.insert(name.name.clone());
            }
            StmtKind::Sugar(Sugar::ArrayLiteral { array, .. }) => {
                names.insert(array.name.clone());
            }
            _ => {}
        }
    }
}

/// The variables every expression of `stmts` reads.
fn reads(stmts: &[Stmt], read: &mut HashSet<String>) {
    for s in stmts {
        let mut shallow: Vec<&Expr> = Vec::new();
        match &s.kind {
            StmtKind::Assign(target, e) => {
                target_reads(target, &mut shallow, read);
                shallow.push(e);
            }
            StmtKind::New(target, _) => target_reads(target, &mut shallow, read),
            StmtKind::MethodCall {
                target,
                receiver,
                args,
                ..
            } => {
                target_reads(target, &mut shallow, read);
                shallow.push(receiver);
                shallow.extend(args);
            }
            StmtKind::Call(_, args) => shallow.extend(args),
            StmtKind::Assert(e) | StmtKind::Assume(e) | StmtKind::Return(e) => shallow.push(e),
            StmtKind::If(c, then, otherwise) => {
                shallow.push(c);
                reads(then, read);
                reads(otherwise, read);
            }
            StmtKind::While {
                condition,
                invariants,
                body,
                ..
            } => {
                shallow.push(condition);
                shallow.extend(invariants);
                reads(body, read);
            }
            StmtKind::Sugar(Sugar::For {
                low, high, body, ..
            }) => {
                shallow.push(low);
                shallow.push(high);
                reads(body, read);
            }
            StmtKind::Sugar(Sugar::Local { value, .. }) => shallow.extend(value),
            StmtKind::Sugar(Sugar::ArrayLiteral { elements, .. }) => shallow.extend(elements),
            StmtKind::Skip
            | StmtKind::Sugar(Sugar::Break(_) | Sugar::Continue(_) | Sugar::Exit) => {}
        }
        for e in shallow {
            vars(e, read);
        }
    }
}

/// What a target reads: the object of `e.f`, the array and index of `a[e]`.
fn target_reads<'s>(target: &'s Target, shallow: &mut Vec<&'s Expr>, read: &mut HashSet<String>) {
    match target {
        Target::Var(_) => {}
        Target::Field(object, _) => shallow.push(object),
        Target::Index(a, index) => {
            read.insert(a.name.clone());
            shallow.push(index);
        }
    }
}

/// The variables `e` reads.
pub(super) fn vars(e: &Expr, read: &mut HashSet<String>) {
    match &e.kind {
        ExprKind::Var(x) => {
            read.insert(x.clone());
        }
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Nil | ExprKind::This => {}
        ExprKind::Len(a) | ExprKind::Unary(_, a) | ExprKind::Field(a, _) | ExprKind::Old(a) => {
            vars(a, read)
        }
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
            vars(a, read);
            vars(b, read);
        }
        ExprKind::Ite(a, b, c) => {
            vars(a, read);
            vars(b, read);
            vars(c, read);
        }
        ExprKind::Call(_, args) => args.iter().for_each(|a| vars(a, read)),
        ExprKind::MethodCall(receiver, _, args) => {
            vars(receiver, read);
            args.iter().for_each(|a| vars(a, read));
        }
    }
}

/// Every call `P(ē)` of `stmts` with `P`'s extra starting values appended.
pub(super) fn complete_calls(stmts: &mut [Stmt], extra: &HashMap<String, Vec<Expr>>) {
    for s in stmts {
        match &mut s.kind {
            StmtKind::Call(procedure, args) => {
                let starts = extra.get(&procedure.name).into_iter().flatten();
                args.extend(starts.map(|start| Expr::new(start.kind.clone(), s.span.clone())));
            }
            StmtKind::If(_, then, otherwise) => {
                complete_calls(then, extra);
                complete_calls(otherwise, extra);
            }
            StmtKind::While { body, .. } => complete_calls(body, extra),
            _ => {}
        }
    }
}
