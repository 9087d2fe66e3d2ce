//! The symbolic trace of a path (§4): the assignments executed, as written,
//! and the conditions of the choices, iterations, assertions and
//! assumptions taken, as written (`b` or `!(b)`).

use super::tree::TraceEntry;
use std::collections::BTreeMap;
use symex_semantics::delta::{delta, Checks};
use symex_semantics::program::Stmt;
use symex_semantics::system::Rule;
use symex_semantics::term::{Name, Sort, Term};

/// What a step by `rule` from a configuration whose next statement is
/// `head` adds to the trace. `globals` gives the sorts of arrays.
pub(crate) fn trace_entry(
    rule: Rule,
    head: Option<&Stmt>,
    globals: &BTreeMap<Name, Sort>,
) -> Option<TraceEntry> {
    let head = head?;
    let condition = match (rule, head) {
        (
            Rule::Assignment
            | Rule::GlobalAssignment
            | Rule::LocalAssignment
            | Rule::ArrayAssignment,
            _,
        )
        | (Rule::ProcedureCall | Rule::Havoc, _) => {
            return Some(TraceEntry::Statement(head.clone()))
        }
        (Rule::ChoiceThen, Stmt::If(b, ..))
        | (Rule::IterationEnter, Stmt::While(_, b, _))
        | (Rule::AssertHolds, Stmt::Assert(b))
        | (Rule::Assume, Stmt::Assume(b)) => b.clone(),
        (Rule::ChoiceElse, Stmt::If(b, ..))
        | (Rule::IterationExit, Stmt::While(_, b, _))
        | (Rule::AssertFails, Stmt::Assert(b))
        | (Rule::AssumptionViolated, Stmt::Assume(b)) => Term::not(b.clone()),
        (Rule::ArrayOutOfBound, _) => Term::not(Term::conjunction(
            written_expressions(head, globals)
                .iter()
                .map(|e| delta(e, Checks::BOUNDS)),
        )),
        _ => return None,
    };
    Some(TraceEntry::Condition(condition))
}

/// The expressions a statement evaluates before it acts, as written: the
/// ones whose definedness `δ` a checked step requires (§2.1).
fn written_expressions(head: &Stmt, globals: &BTreeMap<Name, Sort>) -> Vec<Term> {
    match head {
        Stmt::Assign(_, e)
        | Stmt::If(e, ..)
        | Stmt::While(_, e, _)
        | Stmt::Assert(e)
        | Stmt::Assume(e) => vec![e.clone()],
        Stmt::ArrayAssign(a, i, e) => {
            let array = Term::var(a, globals.get(a).cloned().unwrap_or_else(Sort::int_array));
            vec![Term::select(array, i.clone()), e.clone()]
        }
        Stmt::Call(_, args) => args.clone(),
        _ => Vec::new(),
    }
}
