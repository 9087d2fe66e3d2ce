//! The expressions a program evaluates, for Lemma 2.1's `e`.

use std::collections::BTreeMap;
use symex_semantics::program::{Block, Stmt};
use symex_semantics::term::{Name, Sort, Term};

/// Every expression of `block` and of the blocks nested in it, in source
/// order; an array assignment `a[e] := e'` contributes `e`, `e'` and the
/// update `(a[e] := e')` it stands for (§2.1). Nested blocks are visited
/// with an explicit stack, so deep nesting cannot overflow the call stack.
pub fn expressions(block: &Block, globals: &BTreeMap<Name, Sort>) -> Vec<Term> {
    let mut found = Vec::new();
    let mut pending: Vec<&Stmt> = block.iter().rev().collect();
    while let Some(stmt) = pending.pop() {
        match stmt {
            Stmt::Assign(_, e) | Stmt::Assert(e) | Stmt::Assume(e) | Stmt::Return(_, e) => {
                found.push(e.clone())
            }
            Stmt::ArrayAssign(a, e, e2) => {
                let array = Term::var(a, globals.get(a).cloned().unwrap_or_else(Sort::int_array));
                found.extend([
                    e.clone(),
                    e2.clone(),
                    Term::store(array, e.clone(), e2.clone()),
                ]);
            }
            Stmt::If(b, then, otherwise) => {
                found.push(b.clone());
                pending.extend(otherwise.iter().rev());
                pending.extend(then.iter().rev());
            }
            Stmt::While(_, b, body) => {
                found.push(b.clone());
                pending.extend(body.iter().rev());
            }
            Stmt::Call(_, args) => found.extend(args.iter().cloned()),
            Stmt::Skip
            | Stmt::Halt(_)
            | Stmt::FieldAssign(..)
            | Stmt::New(..)
            | Stmt::MethodCall { .. }
            | Stmt::Havoc(_)
            | Stmt::EndCall(_) => {}
        }
    }
    found
}
