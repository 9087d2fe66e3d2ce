//! A recursive-descent parser for SPEC §1 (expressions by precedence
//! climbing, SPEC §1.2's table). Every node keeps its span, and nesting is
//! bounded by [`MAX_DEPTH`], so no input can overflow the stack here or in
//! anything that later recurses over the program.

use super::ast::{
    Class, Contract, Decl, Expr, ExprKind, Ident, Method, Param, Procedure, Program, Stmt,
    StmtKind, Sugar, Target, Type, TypeKind,
};
use super::diagnostic::{Diagnostic, LineIndex, Span};
use super::lexer::{lex, Tok, Token};
use crate::term::{BinOp, UnOp};
use num_bigint::BigInt;

/// How deeply blocks and expressions may nest, and how high an expression
/// tree may grow. Small enough that recursion over statements and
/// expressions is safe on a 2 MiB thread stack.
pub const MAX_DEPTH: usize = 200;

/// Precedence of `!`/`not` (SPEC §1.2: between `&&` and comparisons).
const NOT_LEVEL: u8 = 4;
const COMPARISON_LEVEL: u8 = 5;

/// Parses `source` into the surface syntax.
pub fn parse(source: &str, lines: &LineIndex) -> Result<Program, Diagnostic> {
    let tokens = lex(source, lines)?;
    let mut parser = Parser {
        tokens,
        pos: 0,
        previous_end: 0,
        lines,
        depth: 0,
    };
    parser.program()
}

struct Parser<'a, 'l> {
    tokens: Vec<Token<'a>>,
    pos: usize,
    /// End of the last token consumed: where a node that ends there ends.
    previous_end: usize,
    lines: &'l LineIndex<'l>,
    depth: usize,
}

fn binary_operator(tok: Tok) -> Option<BinOp> {
    Some(match tok {
        Tok::Implies => BinOp::Implies,
        Tok::OrOr | Tok::Or => BinOp::Or,
        Tok::AndAnd | Tok::And => BinOp::And,
        Tok::Eq | Tok::EqEq => BinOp::Eq,
        Tok::NotEq => BinOp::Ne,
        Tok::Lt => BinOp::Lt,
        Tok::Le => BinOp::Le,
        Tok::Gt => BinOp::Gt,
        Tok::Ge => BinOp::Ge,
        Tok::Plus => BinOp::Add,
        Tok::Minus => BinOp::Sub,
        Tok::Star => BinOp::Mul,
        Tok::Slash => BinOp::Div,
        Tok::Percent => BinOp::Mod,
        _ => return None,
    })
}

impl<'a> Parser<'a, '_> {
    fn peek(&self) -> Tok<'a> {
        self.tokens[self.pos].tok
    }

    fn span(&self) -> Span {
        self.tokens[self.pos].span.clone()
    }

    /// Consumes the current token (never past the end of input).
    fn bump(&mut self) -> Token<'a> {
        let token = self.tokens[self.pos].clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        self.previous_end = token.span.end;
        token
    }

    fn eat(&mut self, tok: Tok) -> bool {
        let found = self.peek() == tok;
        if found {
            self.bump();
        }
        found
    }

    fn error(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.lines.error(span, message)
    }

    /// "expected WHAT, found TOKEN" at the current token; at the end of
    /// input, right after the last token (where the missing text goes, not
    /// on the empty line after a final newline).
    fn unexpected(&self, what: &str) -> Diagnostic {
        let span = match self.peek() {
            Tok::Eof => self.previous_end..self.previous_end,
            _ => self.span(),
        };
        self.error(span, format!("expected {what}, found {}", self.peek()))
    }

    fn require(&mut self, tok: Tok, context: &str) -> Result<Span, Diagnostic> {
        if self.peek() == tok {
            Ok(self.bump().span)
        } else {
            Err(self.unexpected(&format!("{tok}{context}")))
        }
    }

    fn ident(&mut self, what: &str) -> Result<Ident, Diagnostic> {
        match self.peek() {
            Tok::Ident(name) => {
                let span = self.bump().span;
                Ok(Ident {
                    name: name.to_string(),
                    span,
                })
            }
            _ => Err(self.unexpected(what)),
        }
    }

    /// One more level of nesting at `span`, refused beyond [`MAX_DEPTH`].
    fn enter(&mut self, span: Span) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(
                span,
                format!("nested too deeply (more than {MAX_DEPTH} levels)"),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn node(&self, kind: ExprKind, span: Span) -> Result<Expr, Diagnostic> {
        let expr = Expr::new(kind, span);
        if expr.height > MAX_DEPTH {
            return Err(self.error(
                expr.span,
                format!("expression nested too deeply (more than {MAX_DEPTH} levels); split it using intermediate variables"),
            ));
        }
        Ok(expr)
    }

    // Declarations.

    /// `decl* S?`
    fn program(&mut self) -> Result<Program, Diagnostic> {
        let mut decls = Vec::new();
        loop {
            match self.peek() {
                Tok::Var if self.initialises() => break,
                Tok::Var => self.var_decl(&mut decls)?,
                Tok::Proc | Tok::Func => decls.push(Decl::Procedure(self.procedure()?)),
                Tok::Class => decls.push(Decl::Class(self.class()?)),
                _ => break,
            }
        }
        let main = self.statements(None)?;
        Ok(Program { decls, main })
    }

    /// `var x: T (, y: T)* ;`
    fn var_decl(&mut self, decls: &mut Vec<Decl>) -> Result<(), Diagnostic> {
        self.bump();
        loop {
            let name = self.ident("a variable name")?;
            self.require(Tok::Colon, " and a type after the variable name")?;
            decls.push(Decl::Var(name, self.ty()?));
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.require(Tok::Semi, " after the variable declaration")?;
        Ok(())
    }

    /// `int | bool | int[] | bool[] | C`
    fn ty(&mut self) -> Result<Type, Diagnostic> {
        let start = self.span().start;
        let scalar = match self.peek() {
            Tok::IntType => TypeKind::Int,
            Tok::BoolType => TypeKind::Bool,
            Tok::Ident(class) => TypeKind::Class(class.to_string()),
            _ => {
                return Err(
                    self.unexpected("a type (`int`, `bool`, `int[]`, `bool[]` or a class name)")
                )
            }
        };
        self.bump();
        if self.peek() != Tok::LBracket {
            return Ok(Type {
                kind: scalar,
                span: start..self.previous_end,
            });
        }
        self.bump();
        self.require(Tok::RBracket, " in the array type")?;
        let kind = match scalar {
            TypeKind::Int => TypeKind::IntArray,
            TypeKind::Bool => TypeKind::BoolArray,
            _ => {
                return Err(self.error(start..self.previous_end, "arrays hold only `int` or `bool`"))
            }
        };
        Ok(Type {
            kind,
            span: start..self.previous_end,
        })
    }

    /// `(u: T?, …)`
    fn params(&mut self) -> Result<Vec<Param>, Diagnostic> {
        self.require(Tok::LParen, " before the parameters")?;
        let mut params = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok(params);
        }
        loop {
            let name = self.ident("a parameter name")?;
            let ty = if self.eat(Tok::Colon) {
                Some(self.ty()?)
            } else {
                None
            };
            params.push(Param { name, ty });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.require(Tok::RParen, " after the parameters")?;
        Ok(params)
    }

    /// Whether the `var` here declares with `:=` (a local, a statement)
    /// rather than only fixing types (a declaration).
    fn initialises(&self) -> bool {
        self.tokens[self.pos..]
            .iter()
            .map(|token| token.tok)
            .find(|tok| matches!(tok, Tok::Assign | Tok::Semi | Tok::RBrace | Tok::Eof))
            == Some(Tok::Assign)
    }

    /// `proc P(u: T?, …) requires P … ensures Q … { S }`, or
    /// `func f(u: T?, …): T … { S }` with a result.
    fn procedure(&mut self) -> Result<Procedure, Diagnostic> {
        let function = self.bump().tok == Tok::Func;
        let name = self.ident(if function {
            "a function name"
        } else {
            "a procedure name"
        })?;
        let params = self.params()?;
        let result = if function {
            self.require(
                Tok::Colon,
                " and the result type after the parameters of a function",
            )?;
            Some(self.ty()?)
        } else {
            None
        };
        let contract = self.contract()?;
        let (body, _) = self.block()?;
        Ok(Procedure {
            name,
            params,
            result,
            contract,
            body,
        })
    }

    /// Whether the current token is the word `keyword`. The words of
    /// annotations (`invariant`, `requires`, `ensures`) are keywords only
    /// where an annotation may stand, so they stay free as variable names.
    fn at_word(&self, keyword: &str) -> bool {
        self.peek() == Tok::Ident(keyword)
    }

    /// `(requires P | ensures Q)*` before a body.
    fn contract(&mut self) -> Result<Contract, Diagnostic> {
        let mut contract = Contract::default();
        loop {
            if self.at_word("requires") {
                self.bump();
                contract.requires.push(self.expr()?);
            } else if self.at_word("ensures") {
                self.bump();
                contract.ensures.push(self.expr()?);
            } else if matches!(self.peek(), Tok::Ident(_)) {
                return Err(self.unexpected("`requires`, `ensures` or `{` to start the body"));
            } else {
                return Ok(contract);
            }
        }
    }

    /// `class C { (field f: T (, g: T)*; | method m(u: T?, …) { S; return e })* }`
    fn class(&mut self) -> Result<Class, Diagnostic> {
        self.bump();
        let name = self.ident("a class name")?;
        let open = self.require(Tok::LBrace, " to start the class body")?;
        let mut class = Class {
            name,
            fields: Vec::new(),
            methods: Vec::new(),
        };
        loop {
            match self.peek() {
                Tok::Field => {
                    self.bump();
                    loop {
                        let field = self.ident("a field name")?;
                        self.require(Tok::Colon, " and a type after the field name")?;
                        class.fields.push((field, self.ty()?));
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                    self.require(Tok::Semi, " after the field declaration")?;
                }
                Tok::Method => {
                    self.bump();
                    let name = self.ident("a method name")?;
                    let params = self.params()?;
                    let contract = self.contract()?;
                    let (body, end) = self.block()?;
                    class.methods.push(Method {
                        name,
                        params,
                        contract,
                        body,
                        end,
                    });
                }
                Tok::RBrace => {
                    self.bump();
                    return Ok(class);
                }
                Tok::Eof => {
                    let at = self.lines.at(open.start);
                    return Err(self.unexpected(&format!("`}}` to close the class opened at {at}")));
                }
                _ => {
                    return Err(self.unexpected(&format!(
                        "`field`, `method` or `}}` in class `{}`",
                        class.name.name
                    )))
                }
            }
        }
    }

    // Statements.

    /// `{ S }`, returning the statements and the span of the closing brace.
    fn block(&mut self) -> Result<(Vec<Stmt>, Span), Diagnostic> {
        let open = self.require(Tok::LBrace, " to start a block")?;
        self.enter(open.clone())?;
        let statements = self.statements(Some(open))?;
        let close = self.require(Tok::RBrace, " to close the block")?;
        self.leave();
        Ok((statements, close))
    }

    /// `S1; …; Sn` with an optional trailing `;`, up to the `}` of the block
    /// opened at `open`, or to the end of input for the main statement. A
    /// statement that ends with `}` needs no `;` after it.
    fn statements(&mut self, open: Option<Span>) -> Result<Vec<Stmt>, Diagnostic> {
        let terminator = if open.is_some() {
            Tok::RBrace
        } else {
            Tok::Eof
        };
        let mut statements = Vec::new();
        loop {
            match (self.peek(), &open) {
                (tok, _) if tok == terminator => break,
                (Tok::Eof, Some(open)) => {
                    let at = self.lines.at(open.start);
                    return Err(self.unexpected(&format!("`}}` to close the block opened at {at}")));
                }
                (Tok::Var, None) if self.initialises() => {}
                (Tok::Var | Tok::Proc | Tok::Func | Tok::Class, None) => {
                    return Err(self.error(
                        self.span(),
                        "declarations must come before the main statement",
                    ));
                }
                _ => {}
            }
            let statement = self.statement()?;
            let braced = matches!(
                statement.kind,
                StmtKind::If(..) | StmtKind::While { .. } | StmtKind::Sugar(Sugar::For { .. })
            );
            statements.push(statement);
            if !self.eat(Tok::Semi) && self.peek() != terminator && !braced {
                return Err(match (self.peek(), &open) {
                    (Tok::Eof, Some(open)) => {
                        let at = self.lines.at(open.start);
                        self.unexpected(&format!("`;` or `}}` to close the block opened at {at}"))
                    }
                    _ => self.unexpected(&format!("`;` or {terminator}")),
                });
            }
        }
        Ok(statements)
    }

    /// `L: while` or `L: for`: an identifier, a colon and a loop (a label
    /// names its loop).
    fn labels_a_loop(&self) -> bool {
        let tok = |k: usize| self.tokens.get(self.pos + k).map(|token| token.tok);
        tok(1) == Some(Tok::Colon) && matches!(tok(2), Some(Tok::While | Tok::For))
    }

    /// `while b { S }`, the label before it already read.
    /// `while b invariant I₁ … { S }`, after its label if it has one.
    fn loop_with(&mut self, label: Option<Ident>) -> Result<StmtKind, Diagnostic> {
        self.require(Tok::While, " after the label")?;
        let condition = self.expr()?;
        let mut invariants = Vec::new();
        while self.at_word("invariant") {
            self.bump();
            invariants.push(self.expr()?);
        }
        if matches!(self.peek(), Tok::Ident(_)) {
            return Err(self.unexpected("`invariant` or `{` to start the loop body"));
        }
        let (body, _) = self.block()?;
        Ok(StmtKind::While {
            condition,
            invariants,
            body,
            label,
        })
    }

    fn statement(&mut self) -> Result<Stmt, Diagnostic> {
        let start = self.span().start;
        let kind = match self.peek() {
            Tok::Skip => {
                self.bump();
                StmtKind::Skip
            }
            Tok::If => return self.conditional(),
            Tok::While => self.loop_with(None)?,
            Tok::Ident(_) if self.labels_a_loop() => {
                let label = self.ident("a label")?;
                self.bump();
                if self.peek() == Tok::For {
                    self.for_loop(Some(label))?
                } else {
                    self.loop_with(Some(label))?
                }
            }
            Tok::Assert => {
                self.bump();
                StmtKind::Assert(self.expr()?)
            }
            Tok::Assume => {
                self.bump();
                StmtKind::Assume(self.expr()?)
            }
            Tok::Return => {
                self.bump();
                if matches!(self.peek(), Tok::Semi | Tok::RBrace | Tok::Eof) {
                    StmtKind::Sugar(Sugar::Exit)
                } else {
                    StmtKind::Return(self.expr()?)
                }
            }
            Tok::Break => {
                self.bump();
                StmtKind::Sugar(Sugar::Break(self.jump_label()?))
            }
            Tok::Continue => {
                self.bump();
                StmtKind::Sugar(Sugar::Continue(self.jump_label()?))
            }
            Tok::For => self.for_loop(None)?,
            Tok::Var => self.local()?,
            // `nil.f := e` is a heap variable too (SPEC §1: `h` is `x` or `e.f`).
            Tok::Ident(_) | Tok::This | Tok::LParen | Tok::Nil => self.assignment_or_call()?,
            _ => return Err(self.unexpected("a statement")),
        };
        Ok(Stmt {
            kind,
            span: start..self.previous_end,
        })
    }

    /// The label `L` of `break L` or `continue L`, if one follows.
    fn jump_label(&mut self) -> Result<Option<Ident>, Diagnostic> {
        match self.peek() {
            Tok::Ident(_) => self.ident("a loop label").map(Some),
            _ => Ok(None),
        }
    }

    /// `for i in low..high { S }`, after its label if it has one.
    fn for_loop(&mut self, label: Option<Ident>) -> Result<StmtKind, Diagnostic> {
        self.bump();
        let var = self.ident("the loop variable after `for`")?;
        if !self.at_word("in") {
            return Err(self.unexpected("`in` after the loop variable of `for`"));
        }
        self.bump();
        let low = self.expr()?;
        self.require(Tok::DotDot, " between the bounds of `for i in low..high`")?;
        let high = self.expr()?;
        let (body, _) = self.block()?;
        Ok(StmtKind::Sugar(Sugar::For {
            label,
            var,
            low,
            high,
            body,
        }))
    }

    /// `var x: T := e` or `var x: T` among statements.
    fn local(&mut self) -> Result<StmtKind, Diagnostic> {
        self.bump();
        let name = self.ident("a variable name")?;
        self.require(Tok::Colon, " and a type after the variable name")?;
        let ty = self.ty()?;
        let value = if self.eat(Tok::Assign) {
            Some(self.expr()?)
        } else {
            None
        };
        Ok(StmtKind::Sugar(Sugar::Local { name, ty, value }))
    }

    /// `if b { S1 } else { S2 }`, the paper's `if b {S1}{S2}`, `if b {S1}`,
    /// and `else if` chains.
    fn conditional(&mut self) -> Result<Stmt, Diagnostic> {
        let start = self.bump().span.start;
        let condition = self.expr()?;
        let (then, _) = self.block()?;
        let otherwise = if self.eat(Tok::Else) {
            if self.peek() == Tok::If {
                self.enter(self.span())?;
                let nested = self.conditional()?;
                self.leave();
                vec![nested]
            } else {
                self.block()?.0
            }
        } else if self.peek() == Tok::LBrace {
            self.block()?.0
        } else {
            Vec::new()
        };
        Ok(Stmt {
            kind: StmtKind::If(condition, then, otherwise),
            span: start..self.previous_end,
        })
    }

    /// `h := e`, `a[e] := e'`, `h := new C`, `h := e0.m(…)` or `P(…)`.
    fn assignment_or_call(&mut self) -> Result<StmtKind, Diagnostic> {
        let left = self.postfix()?;
        if !self.eat(Tok::Assign) {
            return match left.kind {
                ExprKind::Call(procedure, args) => Ok(StmtKind::Call(procedure, args)),
                // A procedure named `old` called with one argument.
                ExprKind::Old(arg) => {
                    let end = left.span.start + "old".len();
                    let procedure = Ident {
                        name: "old".into(),
                        span: left.span.start..end,
                    };
                    Ok(StmtKind::Call(procedure, vec![*arg]))
                }
                ExprKind::MethodCall(..) => Err(self.error(
                    left.span,
                    "a method call must assign its result: `h := e0.m(…)`",
                )),
                _ => Err(self.unexpected("`:=`")),
            };
        }
        let target = self.target(left)?;
        if self.peek() == Tok::New {
            let new = self.bump().span;
            Self::heap_target(&target, new.start).map_err(|span| self.error(span, "array elements hold only int or bool; assign the new object to a variable or a field"))?;
            let class = self.ident("a class name after `new`")?;
            return Ok(StmtKind::New(target, class));
        }
        if self.peek() == Tok::LBracket {
            return self.array_literal(target);
        }
        let value = self.expr()?;
        match value.kind {
            ExprKind::MethodCall(receiver, method, args) => {
                Self::heap_target(&target, value.span.start).map_err(|span| self.error(span, "array elements hold only int or bool; assign the method's result to a variable or a field"))?;
                Ok(StmtKind::MethodCall {
                    target,
                    receiver: *receiver,
                    method,
                    args,
                })
            }
            _ => Ok(StmtKind::Assign(target, value)),
        }
    }

    /// `a := [e₀, …]`, after the `:=`: only an array variable takes a literal.
    fn array_literal(&mut self, target: Target) -> Result<StmtKind, Diagnostic> {
        let open = self.bump().span;
        let Target::Var(array) = target else {
            return Err(self.error(
                open,
                "an array literal `[…]` is assigned to an array variable, as `a := [1, 2, 3]`",
            ));
        };
        let mut elements = Vec::new();
        if !self.eat(Tok::RBracket) {
            loop {
                elements.push(self.expr()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.require(Tok::RBracket, " or `,` in the array literal")?;
        }
        Ok(StmtKind::Sugar(Sugar::ArrayLiteral { array, elements }))
    }

    /// Checks that `target` is a heap variable `x` or `e.f`, else the span to blame.
    fn heap_target(target: &Target, at: usize) -> Result<(), Span> {
        match target {
            Target::Index(..) => Err(at..at + 1),
            Target::Var(_) | Target::Field(..) => Ok(()),
        }
    }

    fn target(&self, left: Expr) -> Result<Target, Diagnostic> {
        match left.kind {
            ExprKind::Var(name) => Ok(Target::Var(Ident { name, span: left.span })),
            ExprKind::Field(object, field) => Ok(Target::Field(*object, field)),
            ExprKind::Index(array, index) => match array.kind {
                ExprKind::Var(name) => Ok(Target::Index(Ident { name, span: array.span }, *index)),
                _ => Err(self.error(array.span, "only elements of array variables can be assigned")),
            },
            ExprKind::This => Err(self.error(left.span, "cannot assign to `this`")),
            _ => Err(self.error(
                left.span,
                "cannot assign to this expression; the left of `:=` must be a variable, a field `e.f` or an array element `a[e]`",
            )),
        }
    }

    // Expressions.

    fn expr(&mut self) -> Result<Expr, Diagnostic> {
        self.binary(0)
    }

    /// An expression whose binary operators all bind at least as tightly as
    /// `min` (precedence climbing over SPEC §1.2).
    fn binary(&mut self, min: u8) -> Result<Expr, Diagnostic> {
        self.enter(self.span())?;
        let mut left = match self.peek() {
            Tok::Bang | Tok::Not => {
                let start = self.bump().span.start;
                let operand = self.binary(min.max(NOT_LEVEL))?;
                let end = operand.span.end;
                self.node(ExprKind::Unary(UnOp::Not, Box::new(operand)), start..end)?
            }
            _ => self.unary()?,
        };
        let mut after_comparison = false;
        while let Some(op) = binary_operator(self.peek()) {
            let level = op.precedence();
            if level < min {
                break;
            }
            let operator = self.bump().span;
            if level == COMPARISON_LEVEL && after_comparison {
                return Err(self.error(
                    operator,
                    "comparison operators do not chain; write `a < b && b < c` instead of `a < b < c`",
                ));
            }
            let right = if op == BinOp::Implies {
                self.binary(level)?
            } else {
                self.binary(level + 1)?
            };
            let span = left.span.start..right.span.end;
            left = self.node(ExprKind::Binary(op, Box::new(left), Box::new(right)), span)?;
            after_comparison = level == COMPARISON_LEVEL;
        }
        self.leave();
        Ok(left)
    }

    /// `-e`, folding `-n` into a negative literal.
    fn unary(&mut self) -> Result<Expr, Diagnostic> {
        if self.peek() != Tok::Minus {
            return self.postfix();
        }
        let start = self.bump().span.start;
        self.enter(start..start + 1)?;
        let operand = self.unary()?;
        self.leave();
        let span = start..operand.span.end;
        match operand.kind {
            ExprKind::Int(n) => self.node(ExprKind::Int(-n), span),
            _ => self.node(ExprKind::Unary(UnOp::Neg, Box::new(operand)), span),
        }
    }

    /// `e.f`, `e.m(…)` and `a[e]` after an atom.
    fn postfix(&mut self) -> Result<Expr, Diagnostic> {
        let mut expr = self.atom()?;
        loop {
            let start = expr.span.start;
            match self.peek() {
                Tok::Dot => {
                    self.bump();
                    let name = self.ident("a field or method name after `.`")?;
                    expr = if self.peek() == Tok::LParen {
                        let args = self.args()?;
                        self.node(
                            ExprKind::MethodCall(Box::new(expr), name, args),
                            start..self.previous_end,
                        )?
                    } else {
                        self.node(
                            ExprKind::Field(Box::new(expr), name),
                            start..self.previous_end,
                        )?
                    };
                }
                Tok::LBracket => {
                    self.bump();
                    let index = self.expr()?;
                    self.require(Tok::RBracket, " to close the array index")?;
                    expr = self.node(
                        ExprKind::Index(Box::new(expr), Box::new(index)),
                        start..self.previous_end,
                    )?;
                }
                _ => return Ok(expr),
            }
        }
    }

    /// `(e1, …, en)` of a call.
    fn args(&mut self) -> Result<Vec<Expr>, Diagnostic> {
        self.bump();
        let mut args = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok(args);
        }
        loop {
            args.push(self.expr()?);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.require(Tok::RParen, " or `,` in the argument list")?;
        Ok(args)
    }

    fn atom(&mut self) -> Result<Expr, Diagnostic> {
        let span = self.span();
        let kind = match self.peek() {
            Tok::Int(digits) => {
                self.bump();
                ExprKind::Int(BigInt::parse_bytes(digits.as_bytes(), 10).unwrap_or_default())
            }
            Tok::True | Tok::False => ExprKind::Bool(self.bump().tok == Tok::True),
            Tok::Nil => {
                self.bump();
                ExprKind::Nil
            }
            Tok::This => {
                self.bump();
                ExprKind::This
            }
            Tok::Ident(name) => {
                let ident = self.ident("a variable")?;
                if self.peek() == Tok::LParen {
                    let args = self.args()?;
                    match <[Expr; 1]>::try_from(args) {
                        // `old(e)`; the checker allows it in `ensures` only.
                        Ok([arg]) if name == "old" => ExprKind::Old(Box::new(arg)),
                        Ok(args) => ExprKind::Call(ident, args.into()),
                        Err(args) => ExprKind::Call(ident, args),
                    }
                } else {
                    ExprKind::Var(name.to_string())
                }
            }
            Tok::Len => {
                self.bump();
                self.require(Tok::LParen, " after `len`")?;
                let array = self.expr()?;
                self.require(Tok::RParen, " after the argument of `len`")?;
                ExprKind::Len(Box::new(array))
            }
            Tok::LParen => {
                self.bump();
                let inner = self.expr()?;
                if !self.eat(Tok::RParen) {
                    let at = self.lines.at(span.start);
                    return Err(self.unexpected(&format!("`)` to close the `(` at {at}")));
                }
                return Ok(inner);
            }
            Tok::If => {
                self.bump();
                let condition = self.expr()?;
                self.require(
                    Tok::Then,
                    " in the conditional expression `if b then e1 else e2 fi`",
                )?;
                let then = self.expr()?;
                self.require(
                    Tok::Else,
                    " in the conditional expression `if b then e1 else e2 fi`",
                )?;
                let otherwise = self.expr()?;
                self.require(
                    Tok::Fi,
                    " to end the conditional expression `if b then e1 else e2 fi`",
                )?;
                ExprKind::Ite(Box::new(condition), Box::new(then), Box::new(otherwise))
            }
            Tok::LBracket => {
                return Err(self.error(
                    span,
                    "an array literal `[…]` stands only on the right of `a := […]`; assign it to an array variable first",
                ))
            }
            Tok::Assert | Tok::Assume => {
                return Err(self.error(
                    span,
                    "`assert` and `assume` are statements, not values (C's `__VERIFIER_assume(e)` returns nothing); write `assume e;` before the statement that needs it",
                ))
            }
            _ => return Err(self.unexpected("an expression")),
        };
        self.node(kind, span.start..self.previous_end)
    }
}
