//! `while` loops with `break` and `continue`, `while true`, and
//! `for i in low..high { S }`. A loop whose body may `break` becomes
//!
//! ```text
//! broke := false; while !broke && b { continued := false; S' }
//! ```
//!
//! with the statements after a `break` or `continue` in `S'` guarded by the
//! flags ([`super::exits`]); a `return` inside the loop adds `!returned` to
//! the condition. `for i in low..high { S }` is
//! `i := low; i_end := high; while i < i_end { S; i := i + 1 }`: `high` is
//! evaluated once, before the loop, `i` is a local of the loop, and the
//! step is skipped only when the loop is left (`continue` still steps).

use super::super::ast::{Expr, ExprKind, Ident, Stmt, StmtKind, TypeKind};
use super::super::diagnostic::{Diagnostic, Span};
use super::build;
use super::exits::Out;
use super::Desugarer;
use crate::term::BinOp;

/// The flags of one loop, made when a `break` or `continue` needs them.
#[derive(Default)]
pub(super) struct LoopFlags {
    /// The loop's label, which `break L` and `continue L` name.
    pub label: Option<String>,
    pub broke: Option<String>,
    pub continued: Option<String>,
}

/// One loop to write: what runs once before it, the calls of its condition
/// (`before`, run again after each iteration), its condition, its body, and
/// what ends each iteration that stays in the loop.
struct Loop<'s> {
    span: &'s Span,
    label: Option<Ident>,
    invariants: Vec<Expr>,
    init: Vec<Stmt>,
    before: Vec<Stmt>,
    condition: Expr,
    body: &'s [Stmt],
    step: Vec<Stmt>,
}

impl Desugarer<'_> {
    pub(super) fn while_loop(
        &mut self,
        span: &Span,
        condition: &Expr,
        invariants: &[Expr],
        body: &[Stmt],
        label: &Option<Ident>,
    ) -> Result<Out, Diagnostic> {
        let mut before = Vec::new();
        let condition = self.expr(condition, &mut before)?;
        let invariants = invariants
            .iter()
            .map(|invariant| self.pure(invariant, "a loop invariant"))
            .collect::<Result<_, _>>()?;
        self.looped(Loop {
            span,
            label: label.clone(),
            invariants,
            init: Vec::new(),
            before,
            condition,
            body,
            step: Vec::new(),
        })
    }

    pub(super) fn for_loop(
        &mut self,
        span: &Span,
        label: &Option<Ident>,
        var: &Ident,
        (low, high): (&Expr, &Expr),
        body: &[Stmt],
    ) -> Result<Out, Diagnostic> {
        let mut init = Vec::new();
        let low = self.expr(low, &mut init)?;
        let high = self.expr(high, &mut init)?;
        self.frame.enter();
        let clashes = self.clashes(&var.name);
        let i = self.frame.declare(
            &mut self.names,
            &var.name,
            TypeKind::Int,
            &var.span,
            clashes,
        );
        init.push(build::assign(&i, low, &var.span));
        let end = if matches!(high.kind, ExprKind::Int(_)) {
            high
        } else {
            let end = self.names.fresh(&format!("{i}_end"));
            self.frame.add(&end, TypeKind::Int, &high.span);
            init.push(build::assign(&end, high.clone(), &high.span));
            build::var(&end, &high.span)
        };
        let next = build::binary(BinOp::Add, build::var(&i, span), build::int(1, span), span);
        let out = self.looped(Loop {
            span,
            label: label.clone(),
            invariants: Vec::new(),
            condition: build::binary(BinOp::Lt, build::var(&i, &var.span), end, &var.span),
            init,
            before: Vec::new(),
            body,
            step: vec![build::assign(&i, next, span)],
        });
        self.frame.leave();
        out
    }

    fn looped(&mut self, l: Loop) -> Result<Out, Diagnostic> {
        self.loops.push(LoopFlags {
            label: l.label.as_ref().map(|label| label.name.clone()),
            ..LoopFlags::default()
        });
        let body = self.block(l.body);
        let flags = self.loops.pop().unwrap_or_default();
        let body = body?;
        let own =
            |f: &String| Some(f) == flags.broke.as_ref() || Some(f) == flags.continued.as_ref();
        let outer: Vec<String> = body.exits.into_iter().filter(|f| !own(f)).collect();
        let stop: Vec<String> = flags.broke.iter().chain(&outer).cloned().collect();
        let span = l.span;
        let mut stmts = l.init;
        if let Some(broke) = &flags.broke {
            stmts.push(build::assign(broke, build::boolean(false, span), span));
        }
        stmts.extend(l.before.iter().cloned());
        let mut inside = Vec::new();
        if let Some(continued) = &flags.continued {
            inside.push(build::assign(continued, build::boolean(false, span), span));
        }
        inside.extend(body.stmts);
        let again: Vec<Stmt> = l.step.into_iter().chain(l.before).collect();
        inside.extend(build::guarded(&stop, again, span));
        stmts.push(build::stmt(
            StmtKind::While {
                condition: build::unless(&stop, l.condition, span),
                invariants: l.invariants,
                body: inside,
                label: l.label,
            },
            span,
        ));
        Ok(Out {
            stmts,
            exits: outer,
            always: false,
        })
    }
}
