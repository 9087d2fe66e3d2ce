//! Calls by body replacement (§4): a method call `h := e₀.m(ē)` continues
//! with the body of `m` whose formal parameters `ū` are replaced by fresh
//! variables `ȳ` (bound to `ē`), `this` by a fresh variable bound to `e₀`
//! (or, by the paper's literal rule, by `e₀` itself), and whose `return e`
//! assigns the call's own result variable, followed by `h := r`. A
//! procedure call `P(ē)` (§3 under this semantics) is inlined the same way,
//! followed by the marker `end P`. The unfolding and the concrete program
//! semantics share this, so both reach the same statements.

use super::fresh;
use crate::program::{Block, Program, Stmt, Target};
use crate::term::{Name, Sort, Term};
use std::collections::HashMap;
use std::rc::Rc;

/// How `this` is replaced in an inlined method body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ThisRule {
    /// By a fresh variable assigned `e₀` at the call (SPEC §1.6): the body
    /// sees the callee the call was made on, as the standard semantics does.
    #[default]
    Fresh,
    /// By `e₀` itself, as the paper's rule writes it: differs when the body
    /// changes what the heap expression `e₀` denotes.
    Literal,
}

/// A call inlined at the `n`-th fresh step.
pub struct Inlined {
    /// The fresh variables with their sorts and the values they receive at
    /// the call, in order: `this` (under [`ThisRule::Fresh`]) and the parameters.
    pub bindings: Vec<(Name, Sort, Term)>,
    /// The renamed body, followed by `h := r` or `end P`.
    pub code: Block,
    /// The method or procedure, for `--unfold`: `C.m` or `P`.
    pub callee: Name,
}

/// The parts of `h := e₀.m(ē)`, the method `m` of `class`.
#[derive(Clone, Copy)]
pub struct Call<'s> {
    pub target: &'s Target,
    pub receiver: &'s Term,
    pub class: &'s Name,
    pub method: &'s Name,
    pub args: &'s [Term],
}

/// `h := e₀.m(ē)`.
pub fn method_call(program: &Program, call: Call<'_>, n: u32, this: ThisRule) -> Option<Inlined> {
    let Call {
        target,
        receiver,
        class,
        method,
        args,
    } = call;
    let declaration = program.classes.get(class)?.methods.get(method)?;
    let this_var = Term::var("this", Sort::Object(class.clone()));
    let mut renaming: HashMap<Name, Term> = HashMap::new();
    let mut bindings = Vec::new();
    match this {
        ThisRule::Fresh => {
            let y = fresh::fresh("this", n);
            renaming.insert("this".into(), Term::var(&y, this_var.sort()));
            bindings.push((y, this_var.sort(), receiver.clone()));
        }
        ThisRule::Literal => {
            renaming.insert("this".into(), receiver.clone());
        }
    }
    bindings.extend(parameters(&declaration.params, args, n, &mut renaming));
    let result = fresh::result(n);
    let mut code: Vec<Stmt> = rename(&declaration.body, &renaming, Some(&result)).to_vec();
    let value = Term::var(&result, declaration.result.clone());
    code.push(match target {
        Target::Var(x) => Stmt::Assign(x.clone(), value),
        Target::Field(object, f) => Stmt::FieldAssign(object.clone(), f.clone(), value),
    });
    Some(Inlined {
        bindings,
        code: code.into(),
        callee: format!("{class}.{method}").into(),
    })
}

/// `P(ē)` for the procedure `P`.
pub fn procedure_call(
    program: &Program,
    procedure: &Name,
    args: &[Term],
    n: u32,
) -> Option<Inlined> {
    let declaration = program.procedures.get(procedure)?;
    let mut renaming = HashMap::new();
    let bindings = parameters(&declaration.params, args, n, &mut renaming);
    let mut code: Vec<Stmt> = rename(&declaration.body, &renaming, None).to_vec();
    code.push(Stmt::EndCall(procedure.clone()));
    Some(Inlined {
        bindings,
        code: code.into(),
        callee: procedure.clone(),
    })
}

/// `ū := ȳ` in `renaming`, and the bindings `ȳ := ē`.
fn parameters(
    params: &[(Name, Sort)],
    args: &[Term],
    n: u32,
    renaming: &mut HashMap<Name, Term>,
) -> Vec<(Name, Sort, Term)> {
    params
        .iter()
        .zip(args)
        .map(|((u, sort), e)| {
            let y = fresh::fresh(u, n);
            renaming.insert(u.clone(), Term::var(&y, sort.clone()));
            (y, sort.clone(), e.clone())
        })
        .collect()
}

/// `S[x̄ := ē]` for the statements of a body: every expression substituted,
/// every assigned local renamed, and `return e` sent to `result`.
fn rename(block: &Block, renaming: &HashMap<Name, Term>, result: Option<&Name>) -> Block {
    let term = |e: &Term| crate::subst::substitute(e, |x| renaming.get(x).cloned());
    let terms = |es: &[Term]| es.iter().map(term).collect::<Vec<_>>();
    let name = |x: &Name| match renaming.get(x).map(Term::kind) {
        Some(crate::term::TermKind::Var(y, _)) => y.clone(),
        _ => x.clone(),
    };
    let target = |h: &Target| match h {
        Target::Var(x) => Target::Var(name(x)),
        Target::Field(object, f) => Target::Field(term(object), f.clone()),
    };
    let statements: Vec<Stmt> = block
        .iter()
        .map(|stmt| match stmt {
            Stmt::Assign(x, e) => Stmt::Assign(name(x), term(e)),
            Stmt::ArrayAssign(a, i, e) => Stmt::ArrayAssign(a.clone(), term(i), term(e)),
            Stmt::FieldAssign(object, f, e) => Stmt::FieldAssign(term(object), f.clone(), term(e)),
            Stmt::If(b, then, otherwise) => Stmt::If(
                term(b),
                rename(then, renaming, result),
                rename(otherwise, renaming, result),
            ),
            Stmt::While(id, b, body) => Stmt::While(*id, term(b), rename(body, renaming, result)),
            Stmt::Call(p, args) => Stmt::Call(p.clone(), terms(args)),
            Stmt::Assert(e) => Stmt::Assert(term(e)),
            Stmt::Assume(e) => Stmt::Assume(term(e)),
            Stmt::New(h, class) => Stmt::New(target(h), class.clone()),
            Stmt::MethodCall {
                target: h,
                receiver,
                class,
                method,
                args,
            } => Stmt::MethodCall {
                target: target(h),
                receiver: term(receiver),
                class: class.clone(),
                method: method.clone(),
                args: terms(args),
            },
            Stmt::Return(_, e) => Stmt::Return(result.cloned(), term(e)),
            Stmt::Havoc(vars) => Stmt::Havoc(
                vars.iter()
                    .map(|(x, sort)| (name(x), sort.clone()))
                    .collect(),
            ),
            Stmt::Skip | Stmt::EndCall(_) | Stmt::Halt(_) => stmt.clone(),
        })
        .collect();
    Rc::from(statements)
}
