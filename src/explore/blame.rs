//! What went wrong when a concrete run halts with an error: the access
//! that reads outside an array or dereferences `nil`, or the assertion that
//! is false, found by evaluating the expressions of the statement the run
//! halted at in the values it ran with.

use symex_semantics::eval::{eval, Valuation};
use symex_semantics::program::{ErrorKind, Stmt, Target};
use symex_semantics::term::{Sort, Term, TermKind};
use symex_semantics::value::Value;

/// Why `statement` halts with `error` under `values`, e.g. "index 3 of
/// `a` (length 2)" or "`l.next` dereferences nil"; `None` when no access
/// shows it (the semantics found it elsewhere).
pub fn blame(statement: &Stmt, values: &Valuation, error: ErrorKind) -> Option<String> {
    let expressions = expressions(statement);
    match error {
        ErrorKind::AssertionFailed => match statement {
            Stmt::Assert(_) => Some("the assertion is false".into()),
            _ => None,
        },
        ErrorKind::ArrayOutOfBound => expressions.iter().find_map(|e| out_of_bound(e, values)),
        ErrorKind::NilDereference => {
            let receiver = match statement {
                Stmt::MethodCall {
                    receiver, method, ..
                } if is_nil(receiver, values) => {
                    Some(format!("`{receiver}.{method}(…)` is called on nil"))
                }
                _ => None,
            };
            receiver.or_else(|| expressions.iter().find_map(|e| nil_field(e, values)))
        }
    }
}

/// A statement as a message shows it: a choice or a loop by its test only.
pub fn headline(statement: &Stmt) -> String {
    match statement {
        Stmt::If(b, ..) => format!("if {b}"),
        Stmt::While(_, b, _) => format!("while {b}"),
        other => other.to_string(),
    }
}

/// The expressions a statement evaluates before it acts (not those of the
/// blocks it enters), with its own array or field write as an access.
fn expressions(statement: &Stmt) -> Vec<Term> {
    let target = |target: &Target| match target {
        Target::Field(object, field) => vec![Term::field(object.clone(), field, Sort::Int)],
        Target::Var(_) => Vec::new(),
    };
    match statement {
        Stmt::Assign(_, e) | Stmt::Assert(e) | Stmt::Assume(e) | Stmt::Return(_, e) => {
            vec![e.clone()]
        }
        Stmt::If(b, ..) | Stmt::While(_, b, _) => vec![b.clone()],
        Stmt::ArrayAssign(a, i, v) => {
            let array = Term::var(a, Sort::int_array());
            vec![i.clone(), v.clone(), Term::select(array, i.clone())]
        }
        Stmt::FieldAssign(object, field, v) => {
            vec![
                object.clone(),
                v.clone(),
                Term::field(object.clone(), field, Sort::Int),
            ]
        }
        Stmt::Call(_, args) => args.clone(),
        Stmt::New(t, _) => target(t),
        Stmt::MethodCall {
            target: t,
            receiver,
            args,
            ..
        } => {
            let mut all = vec![receiver.clone()];
            all.extend(args.iter().cloned());
            all.extend(target(t));
            all
        }
        Stmt::Skip | Stmt::Havoc(_) | Stmt::EndCall(_) | Stmt::Halt(_) => Vec::new(),
    }
}

/// The first read `a[i]` of `e`, children first, whose index is outside `a`.
fn out_of_bound(e: &Term, values: &Valuation) -> Option<String> {
    e.nodes().iter().find_map(|node| {
        let TermKind::Select(array, index) = node.kind() else {
            return None;
        };
        let TermKind::Var(a, _) = array.kind() else {
            return None;
        };
        let len = values.get(a)?.as_array()?.len.clone();
        let Ok(Value::Int(i)) = eval(index, values) else {
            return None;
        };
        (i < 0.into() || i >= len)
            .then(|| format!("`{node}` reads index {i} of `{a}`, whose length is {len}"))
    })
}

/// The first field access `e.f` of `e`, children first, whose object is nil.
fn nil_field(e: &Term, values: &Valuation) -> Option<String> {
    e.nodes().iter().find_map(|node| match node.kind() {
        TermKind::Field(object, ..) if is_nil(object, values) => {
            Some(format!("`{node}` dereferences nil (`{object}` is nil)"))
        }
        _ => None,
    })
}

fn is_nil(object: &Term, values: &Valuation) -> bool {
    eval(object, values) == Ok(Value::Nil)
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_semantics::value::ArrayValue;

    #[test]
    fn the_failing_access_is_named_with_its_values() {
        let a = Term::var("a", Sort::int_array());
        let i = Term::var("i", Sort::Int);
        let read = Stmt::Assign("m".into(), Term::select(a.clone(), i.clone()));
        let values: Valuation = [
            (
                "a".into(),
                Value::Array(ArrayValue::constant(2.into(), Value::Int(0.into()))),
            ),
            ("i".into(), Value::Int(3.into())),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            blame(&read, &values, ErrorKind::ArrayOutOfBound).as_deref(),
            Some("`a[i]` reads index 3 of `a`, whose length is 2")
        );
        let write = Stmt::ArrayAssign("a".into(), i, Term::int(1));
        assert!(blame(&write, &values, ErrorKind::ArrayOutOfBound).is_some());
        let in_bounds = Stmt::Assign("m".into(), Term::select(a, Term::int(1)));
        assert_eq!(blame(&in_bounds, &values, ErrorKind::ArrayOutOfBound), None);
    }
}
