//! What a statement may write: the variables King's verifier must make
//! arbitrary at a cut point ("initialise the program variables to distinct
//! symbols", §8) — only those, so that what is known before a loop about
//! the variables it leaves alone stays known.
//!
//! A syntactic over-approximation: every variable assigned (an array by
//! `a[e] := e'`), and the globals every procedure called may write,
//! summarised to a fixpoint (procedures may be recursive).

use std::collections::{BTreeMap, BTreeSet};
use symex_semantics::program::{Block, Program, Stmt, Target};
use symex_semantics::term::{Name, Sort};

/// The globals each procedure may write, through its body and its calls,
/// and whether it may write the heap.
pub struct Writes<'p> {
    program: &'p Program,
    procedures: BTreeMap<Name, BTreeSet<Name>>,
    heap: BTreeSet<Name>,
}

impl<'p> Writes<'p> {
    /// Summarises every procedure of `program`: from "writes nothing" the
    /// summaries only grow, within the finite set of globals.
    pub fn new(program: &'p Program) -> Writes<'p> {
        let mut writes = Writes {
            program,
            procedures: program
                .procedures
                .keys()
                .map(|p| (p.clone(), BTreeSet::new()))
                .collect(),
            heap: BTreeSet::new(),
        };
        loop {
            let heap: BTreeSet<Name> = program
                .procedures
                .iter()
                .filter(|(_, procedure)| writes.writes_heap(&procedure.body))
                .map(|(p, _)| p.clone())
                .collect();
            let next: BTreeMap<Name, BTreeSet<Name>> = program
                .procedures
                .iter()
                .map(|(p, procedure)| {
                    let written = writes.block(&procedure.body);
                    let globals = written
                        .into_iter()
                        .filter(|x| program.globals.contains_key(x))
                        .collect();
                    (p.clone(), globals)
                })
                .collect();
            if next == writes.procedures && heap == writes.heap {
                return writes;
            }
            writes.procedures = next;
            writes.heap = heap;
        }
    }

    /// Whether `block` may change the heap: assign a field, create an
    /// object, call a method, or call a procedure that may. A `havoc`
    /// cannot make the heap arbitrary, so such code is not cut.
    pub fn writes_heap(&self, block: &[Stmt]) -> bool {
        block.iter().any(|stmt| match stmt {
            Stmt::FieldAssign(..) | Stmt::New(..) | Stmt::MethodCall { .. } => true,
            Stmt::If(_, then, otherwise) => self.writes_heap(then) || self.writes_heap(otherwise),
            Stmt::While(_, _, body) => self.writes_heap(body),
            Stmt::Call(p, _) => self.heap.contains(p),
            _ => false,
        })
    }

    /// Whether procedure `p` may change the heap.
    pub fn procedure_writes_heap(&self, p: &str) -> bool {
        self.heap.contains(p)
    }

    /// The globals procedure `p` may write.
    pub fn procedure(&self, p: &str) -> BTreeSet<Name> {
        self.procedures.get(p).cloned().unwrap_or_default()
    }

    /// Every variable `block` may write (globals, and locals of the body it is in).
    pub fn block(&self, block: &Block) -> BTreeSet<Name> {
        let mut written = BTreeSet::new();
        self.into(block, &mut written);
        written
    }

    fn into(&self, block: &[Stmt], written: &mut BTreeSet<Name>) {
        for stmt in block {
            match stmt {
                Stmt::Assign(x, _) | Stmt::ArrayAssign(x, ..) => {
                    written.insert(x.clone());
                }
                Stmt::New(Target::Var(x), _)
                | Stmt::MethodCall {
                    target: Target::Var(x),
                    ..
                } => {
                    written.insert(x.clone());
                }
                Stmt::Havoc(vars) => written.extend(vars.iter().map(|(x, _)| x.clone())),
                Stmt::If(_, then, otherwise) => {
                    self.into(then, written);
                    self.into(otherwise, written);
                }
                Stmt::While(_, _, body) => self.into(body, written),
                Stmt::Call(p, _) => written.extend(self.procedure(p)),
                _ => {}
            }
        }
    }

    /// `names` with their sorts: a global's, or a local's from `locals`.
    pub fn sorted(&self, names: &BTreeSet<Name>, locals: &[(Name, Sort)]) -> Vec<(Name, Sort)> {
        names
            .iter()
            .filter_map(|x| {
                let local = locals.iter().find(|(u, _)| u == x).map(|(_, s)| s);
                local
                    .or_else(|| self.program.globals.get(x))
                    .map(|sort| (x.clone(), sort.clone()))
            })
            .collect()
    }
}
