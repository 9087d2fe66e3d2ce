//! The variables one body adds: its locals, the temporaries that hold call
//! results, and the flags of `break`, `continue` and `return`. In a
//! procedure they become extra parameters (§3: a procedure's locals are its
//! formal parameters, so every activation has its own), which each call
//! starts at `0`, `false` or `nil`; in the main statement they are globals.

use super::super::ast::TypeKind;
use super::super::diagnostic::Span;
use super::names::Names;
use std::collections::HashMap;

/// Which body is being desugared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Owner {
    Main,
    /// A procedure, with the global its `return e` writes if it is a function.
    Procedure {
        name: String,
        result: Option<String>,
    },
    Method,
}

/// A variable the body adds, with its type and the construct that needs it.
#[derive(Clone, Debug)]
pub(super) struct Local {
    pub name: String,
    pub ty: TypeKind,
    pub span: Span,
}

pub(super) struct Frame {
    pub owner: Owner,
    /// Source name to core name, innermost block last.
    scopes: Vec<Vec<(String, String)>>,
    pub locals: Vec<Local>,
    /// Temporaries by purpose; one statement's calls use distinct ones,
    /// the next statement uses them again.
    temps: HashMap<String, Vec<String>>,
    temps_in_use: HashMap<String, usize>,
    /// The flags of this body (never read ones are dropped at the end).
    pub flags: Vec<String>,
    /// The flag of `return`, made at its first use.
    return_flag: Option<String>,
}

impl Frame {
    pub(super) fn new(owner: Owner) -> Frame {
        Frame {
            owner,
            scopes: vec![Vec::new()],
            locals: Vec::new(),
            temps: HashMap::new(),
            temps_in_use: HashMap::new(),
            flags: Vec::new(),
            return_flag: None,
        }
    }

    pub(super) fn enter(&mut self) {
        self.scopes.push(Vec::new());
    }

    pub(super) fn leave(&mut self) {
        self.scopes.pop();
    }

    /// The core name of the source variable `x` here.
    pub(super) fn resolve(&self, x: &str) -> String {
        self.scopes
            .iter()
            .rev()
            .flat_map(|scope| scope.iter().rev())
            .find(|(source, _)| source == x)
            .map_or_else(|| x.to_string(), |(_, core)| core.clone())
    }

    /// Declares the local `x` in the innermost block: it keeps its name
    /// unless the body already has a variable of that name, or `clashes`.
    pub(super) fn declare(
        &mut self,
        names: &mut Names,
        x: &str,
        ty: TypeKind,
        span: &Span,
        clashes: bool,
    ) -> String {
        let used = clashes || self.locals.iter().any(|local| local.name == x);
        let core = if used { names.fresh(x) } else { x.to_string() };
        self.add(&core, ty, span);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((x.to_string(), core.clone()));
        }
        core
    }

    /// `x` is called `core` in this body (a renamed parameter).
    pub(super) fn rename(&mut self, x: &str, core: &str) {
        if let Some(scope) = self.scopes.first_mut() {
            scope.push((x.to_string(), core.to_string()));
        }
    }

    pub(super) fn add(&mut self, name: &str, ty: TypeKind, span: &Span) {
        self.locals.push(Local {
            name: name.to_string(),
            ty,
            span: span.clone(),
        });
    }

    /// A new statement starts: its temporaries are free again.
    pub(super) fn next_statement(&mut self) {
        self.temps_in_use.clear();
    }

    /// A temporary for `purpose` that this statement does not use yet.
    pub(super) fn temp(
        &mut self,
        names: &mut Names,
        purpose: &str,
        ty: &TypeKind,
        span: &Span,
    ) -> String {
        let in_use = self.temps_in_use.entry(purpose.to_string()).or_default();
        let pool = self.temps.entry(purpose.to_string()).or_default();
        let index = *in_use;
        *in_use += 1;
        if let Some(name) = pool.get(index) {
            return name.clone();
        }
        let name = names.fresh(purpose);
        pool.push(name.clone());
        self.add(&name, ty.clone(), span);
        name
    }

    /// A new flag, `false` until a `break`, `continue` or `return` sets it.
    pub(super) fn flag(&mut self, names: &mut Names, purpose: &str, span: &Span) -> String {
        let name = names.fresh(purpose);
        self.add(&name, TypeKind::Bool, span);
        self.flags.push(name.clone());
        name
    }

    /// The flag `return` sets in this body.
    pub(super) fn return_flag(&mut self, names: &mut Names, span: &Span) -> String {
        if let Some(flag) = &self.return_flag {
            return flag.clone();
        }
        let flag = self.flag(names, "returned", span);
        self.return_flag = Some(flag.clone());
        flag
    }
}
