//! `break`, `continue` and `return` as flags and guards. Each sets a flag of
//! its own (`broke`, `continued`, `returned`), and what follows a statement
//! that may set one runs under `if !flag { … }`; loops test their `broke`
//! flag and the `returned` flag with their condition. Where a branch of an
//! `if` always leaves, the statements after the `if` move into the other
//! branch instead of under a flag, so `if n < 2 { return n }; return e`
//! becomes `if n < 2 { r := n } else { r := e }`. Flags nothing reads are
//! dropped at the end ([`super::cleanup`]).

use super::super::ast::{Ident, Stmt, StmtKind, Sugar, Target};
use super::super::diagnostic::{Diagnostic, Span};
use super::build;
use super::frame::Owner;
use super::Desugarer;

/// Desugared statements, the flags they may leave set for the statements
/// after them, and whether they always leave.
#[derive(Default)]
pub(super) struct Out {
    pub stmts: Vec<Stmt>,
    pub exits: Vec<String>,
    pub always: bool,
}

impl Out {
    fn plain(stmts: Vec<Stmt>) -> Out {
        Out {
            stmts,
            ..Out::default()
        }
    }

    fn leaves(stmts: Vec<Stmt>, flag: String) -> Out {
        Out {
            stmts,
            exits: vec![flag],
            always: true,
        }
    }
}

/// Whether every run of `block` ends in `break`, `continue` or `return`.
fn always_leaves(block: &[Stmt]) -> bool {
    block.iter().any(|s| match &s.kind {
        StmtKind::Sugar(Sugar::Break(_) | Sugar::Continue(_) | Sugar::Exit)
        | StmtKind::Return(_) => true,
        StmtKind::If(_, then, otherwise) => always_leaves(then) && always_leaves(otherwise),
        _ => false,
    })
}

/// `if b { S₁ } else { S₂ }; rest` with `rest` moved into the branch that
/// may not leave, when the other always leaves; `None` otherwise.
fn absorb(first: &Stmt, rest: &[Stmt]) -> Option<Stmt> {
    let StmtKind::If(condition, then, otherwise) = &first.kind else {
        return None;
    };
    if rest.is_empty() {
        return None;
    }
    let moved = |branch: &[Stmt]| branch.iter().chain(rest).cloned().collect::<Vec<_>>();
    let kind = match (always_leaves(then), always_leaves(otherwise)) {
        (true, false) => StmtKind::If(condition.clone(), then.clone(), moved(otherwise)),
        (false, true) => StmtKind::If(condition.clone(), moved(then), otherwise.clone()),
        _ => return None,
    };
    Some(build::stmt(kind, &first.span))
}

impl Desugarer<'_> {
    /// A block `{ S }`: its own scope for locals.
    pub(super) fn block(&mut self, stmts: &[Stmt]) -> Result<Out, Diagnostic> {
        self.frame.enter();
        let out = self.sequence(stmts);
        self.frame.leave();
        out
    }

    /// `S₁; …; Sₙ`, each statement guarded by the flags the ones before it
    /// may set. Iterative, so a long sequence costs no stack: the guarded
    /// levels wait on `pending` until the statements under them are known.
    pub(super) fn sequence(&mut self, stmts: &[Stmt]) -> Result<Out, Diagnostic> {
        let mut current = Vec::new();
        let mut exits: Vec<String> = Vec::new();
        let mut always = false;
        let mut pending: Vec<(Vec<Stmt>, Vec<String>, Span)> = Vec::new();
        for (i, first) in stmts.iter().enumerate() {
            let rest = &stmts[i + 1..];
            // A method's `return e` stays its last statement (§4).
            let absorbed = match self.frame.owner {
                Owner::Method => None,
                _ => absorb(first, rest),
            };
            let out = self.statement(absorbed.as_ref().unwrap_or(first))?;
            current.extend(out.stmts);
            for flag in &out.exits {
                if !exits.contains(flag) {
                    exits.push(flag.clone());
                }
            }
            if out.always || absorbed.is_some() {
                always = out.always;
                break;
            }
            if !out.exits.is_empty() && !rest.is_empty() {
                pending.push((std::mem::take(&mut current), out.exits, first.span.clone()));
            }
        }
        while let Some((mut outer, flags, span)) = pending.pop() {
            outer.extend(build::guarded(&flags, current, &span));
            current = outer;
        }
        Ok(Out {
            stmts: current,
            exits,
            always,
        })
    }

    fn statement(&mut self, s: &Stmt) -> Result<Out, Diagnostic> {
        self.frame.next_statement();
        let span = &s.span;
        let mut before = Vec::new();
        let kind = match &s.kind {
            StmtKind::Skip => StmtKind::Skip,
            StmtKind::Assign(target, value) => {
                let target = self.target(target, &mut before)?;
                StmtKind::Assign(target, self.expr(value, &mut before)?)
            }
            StmtKind::New(target, class) => {
                StmtKind::New(self.target(target, &mut before)?, class.clone())
            }
            StmtKind::MethodCall {
                target,
                receiver,
                method,
                args,
            } => StmtKind::MethodCall {
                target: self.target(target, &mut before)?,
                receiver: self.expr(receiver, &mut before)?,
                method: method.clone(),
                args: self.exprs(args, &mut before)?,
            },
            StmtKind::Call(procedure, args) => {
                match self.verifier_statement(procedure, args, span, &mut before)? {
                    Some(statement) => statement,
                    None => StmtKind::Call(procedure.clone(), self.exprs(args, &mut before)?),
                }
            }
            StmtKind::Assert(e) => StmtKind::Assert(self.expr(e, &mut before)?),
            StmtKind::Assume(e) => StmtKind::Assume(self.expr(e, &mut before)?),
            StmtKind::If(condition, then, otherwise) => {
                let condition = self.expr(condition, &mut before)?;
                let then = self.block(then)?;
                let otherwise = self.block(otherwise)?;
                before.push(build::stmt(
                    StmtKind::If(condition, then.stmts, otherwise.stmts),
                    span,
                ));
                let mut exits = then.exits;
                exits.extend(
                    otherwise
                        .exits
                        .into_iter()
                        .filter(|f| !exits.contains(f))
                        .collect::<Vec<_>>(),
                );
                return Ok(Out {
                    stmts: before,
                    exits,
                    always: then.always && otherwise.always,
                });
            }
            StmtKind::While {
                condition,
                invariants,
                body,
                label,
            } => return self.while_loop(span, condition, invariants, body, label),
            StmtKind::Return(value) => return self.return_value(value, span),
            StmtKind::Sugar(Sugar::Exit) => return self.exit(span),
            StmtKind::Sugar(Sugar::Break(label)) => return self.jump(true, label, span),
            StmtKind::Sugar(Sugar::Continue(label)) => return self.jump(false, label, span),
            StmtKind::Sugar(Sugar::For {
                label,
                var,
                low,
                high,
                body,
            }) => return self.for_loop(span, label, var, (low, high), body),
            StmtKind::Sugar(Sugar::Local { name, ty, value }) => {
                return self.local(name, ty, value.as_ref(), span).map(Out::plain)
            }
            StmtKind::Sugar(Sugar::ArrayLiteral { array, elements }) => {
                return self.array_literal(array, elements, span).map(Out::plain)
            }
        };
        before.push(build::stmt(kind, span));
        Ok(Out::plain(before))
    }

    fn target(&mut self, target: &Target, before: &mut Vec<Stmt>) -> Result<Target, Diagnostic> {
        Ok(match target {
            Target::Var(x) => Target::Var(build::ident(&self.frame.resolve(&x.name), &x.span)),
            Target::Field(object, f) => Target::Field(self.expr(object, before)?, f.clone()),
            Target::Index(a, index) => {
                let a = build::ident(&self.frame.resolve(&a.name), &a.span);
                Target::Index(a, self.expr(index, before)?)
            }
        })
    }

    /// `return e`: a method's last statement stays; a function writes its
    /// result and leaves.
    fn return_value(
        &mut self,
        value: &super::super::ast::Expr,
        span: &Span,
    ) -> Result<Out, Diagnostic> {
        let mut before = Vec::new();
        let value = self.expr(value, &mut before)?;
        match self.frame.owner.clone() {
            Owner::Method => {
                before.push(build::stmt(StmtKind::Return(value), span));
                Ok(Out::plain(before))
            }
            Owner::Procedure { result: Some(result), .. } => {
                before.push(build::assign(&result, value, span));
                let flag = self.frame.return_flag(&mut self.names, span);
                before.push(build::assign(&flag, build::boolean(true, span), span));
                Ok(Out::leaves(before, flag))
            }
            Owner::Procedure { name, result: None } => Err(self.error_at(
                span,
                &format!("`return e` in procedure `{name}`, which returns no value; declare it `func {name}(…): T`"),
            )),
            Owner::Main => Err(self.error_at(span, "`return` outside a function or procedure")),
        }
    }

    /// `return` without a value: a procedure leaves.
    fn exit(&mut self, span: &Span) -> Result<Out, Diagnostic> {
        match self.frame.owner.clone() {
            Owner::Procedure { result: None, .. } => {
                let flag = self.frame.return_flag(&mut self.names, span);
                Ok(Out::leaves(
                    vec![build::assign(&flag, build::boolean(true, span), span)],
                    flag,
                ))
            }
            Owner::Procedure { name, .. } => Err(self.error_at(
                span,
                &format!("`return` without a value in function `{name}`: write `return e`"),
            )),
            Owner::Method => Err(self.error_at(
                span,
                "`return` without a value in a method: write `return e`",
            )),
            Owner::Main => Err(self.error_at(span, "`return` outside a function or procedure")),
        }
    }

    /// `break` (or `continue`): the flag of the innermost loop, or of the
    /// loop labelled `L` for `break L`; the loops in between test it with
    /// their condition, as any flag their body may leave set.
    fn jump(&mut self, leave: bool, label: &Option<Ident>, span: &Span) -> Result<Out, Diagnostic> {
        let construct = if leave { "`break`" } else { "`continue`" };
        if self.loops.is_empty() {
            return Err(self.error_at(span, &format!("{construct} outside a loop")));
        }
        let target = match label {
            None => self.loops.len() - 1,
            Some(label) => self
                .loops
                .iter()
                .rposition(|l| l.label.as_deref() == Some(label.name.as_str()))
                .ok_or_else(|| {
                    self.error_at(
                        &label.span,
                        &format!("{construct} to `{0}`, but no loop around it is labelled `{0}` (write `{0}: while …` or `{0}: for …`)", label.name),
                    )
                })?,
        };
        let purpose = if leave { "broke" } else { "continued" };
        let existing = self.loops.get(target).and_then(|l| {
            if leave {
                l.broke.clone()
            } else {
                l.continued.clone()
            }
        });
        let flag = match existing {
            Some(flag) => flag,
            None => {
                let flag = self.frame.flag(&mut self.names, purpose, span);
                if let Some(flags) = self.loops.get_mut(target) {
                    *(if leave {
                        &mut flags.broke
                    } else {
                        &mut flags.continued
                    }) = Some(flag.clone());
                }
                flag
            }
        };
        Ok(Out::leaves(
            vec![build::assign(&flag, build::boolean(true, span), span)],
            flag,
        ))
    }
}
