//! A program's inputs: the globals whose initial value the program may read
//! before it writes them (arrays, whose partial updates `a[e] := e'` keep the
//! rest of the input, and `len(a)` included). A model lists these and no
//! others: `x := 1` has no input, King's SEARCH has `a` and `x`.
//!
//! A may-read-before-must-write analysis over everything the program can
//! execute: the main statement, and the bodies of the procedures and
//! methods it may call (a method may read globals it cannot write), each
//! summarised by a fixpoint (calls may be recursive).

use crate::program::{Block, Program, Stmt, Target};
use crate::term::{Name, Sort, Term};
use std::collections::{BTreeMap, BTreeSet};

/// What a statement does to the globals: those it may read before writing
/// them, and those it writes on every path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Effect {
    reads: BTreeSet<Name>,
    writes: BTreeSet<Name>,
}

impl Effect {
    /// `self` followed by `next`.
    fn then(mut self, next: Effect) -> Effect {
        self.reads
            .extend(next.reads.into_iter().filter(|x| !self.writes.contains(x)));
        self.writes.extend(next.writes);
        self
    }

    /// Either `self` or `other`.
    fn or(mut self, other: Effect) -> Effect {
        self.reads.extend(other.reads);
        self.writes = self.writes.intersection(&other.writes).cloned().collect();
        self
    }
}

impl Program {
    /// The globals the program may read before writing them, with their sorts.
    pub fn inputs(&self) -> BTreeMap<Name, Sort> {
        let analysis = Analysis::new(self);
        let reads = analysis.block(&self.main).reads;
        self.globals
            .iter()
            .filter(|(x, _)| reads.contains(*x))
            .map(|(x, sort)| (x.clone(), sort.clone()))
            .collect()
    }
}

/// Code a statement can call: a procedure, or a class's method.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Callee {
    Procedure(Name),
    Method(Name, Name),
}

struct Analysis<'a> {
    program: &'a Program,
    callees: BTreeMap<Callee, Effect>,
}

impl<'a> Analysis<'a> {
    /// Summarises every procedure and method: from "reads nothing, writes
    /// everything" the summaries only grow in reads and shrink in writes,
    /// so iterating to a fixpoint terminates.
    fn new(program: &'a Program) -> Analysis<'a> {
        let top = Effect {
            reads: BTreeSet::new(),
            writes: program.globals.keys().cloned().collect(),
        };
        let procedures = program
            .procedures
            .iter()
            .map(|(p, procedure)| (Callee::Procedure(p.clone()), &procedure.body));
        let methods = program.classes.iter().flat_map(|(c, class)| {
            class
                .methods
                .iter()
                .map(move |(m, method)| (Callee::Method(c.clone(), m.clone()), &method.body))
        });
        let bodies: Vec<(Callee, &Block)> = procedures.chain(methods).collect();
        let mut analysis = Analysis {
            program,
            callees: bodies
                .iter()
                .map(|(callee, _)| (callee.clone(), top.clone()))
                .collect(),
        };
        loop {
            let next: BTreeMap<Callee, Effect> = bodies
                .iter()
                .map(|(callee, body)| (callee.clone(), analysis.block(body)))
                .collect();
            if next == analysis.callees {
                return analysis;
            }
            analysis.callees = next;
        }
    }

    /// What calling `callee` does to the globals (nothing for an unknown one).
    fn call(&self, callee: Callee) -> Effect {
        self.callees.get(&callee).cloned().unwrap_or_default()
    }

    fn block(&self, block: &Block) -> Effect {
        block.iter().fold(Effect::default(), |effect, stmt| {
            effect.then(self.stmt(stmt))
        })
    }

    fn reading(&self, terms: &[&Term]) -> Effect {
        let reads = terms
            .iter()
            .flat_map(|t| t.free_vars().into_keys())
            .filter(|x| self.program.globals.contains_key(x))
            .collect();
        Effect {
            reads,
            writes: BTreeSet::new(),
        }
    }

    fn writing(&self, target: &Target) -> Effect {
        match target {
            Target::Var(x) if self.program.globals.contains_key(x) => Effect {
                reads: BTreeSet::new(),
                writes: BTreeSet::from([x.clone()]),
            },
            Target::Var(_) => Effect::default(),
            Target::Field(object, _) => self.reading(&[object]),
        }
    }

    fn stmt(&self, stmt: &Stmt) -> Effect {
        match stmt {
            Stmt::Skip | Stmt::EndCall(_) | Stmt::Halt(_) => Effect::default(),
            Stmt::Assign(x, e) => self
                .reading(&[e])
                .then(self.writing(&Target::Var(x.clone()))),
            Stmt::ArrayAssign(a, i, e) => {
                let mut effect = self.reading(&[i, e]);
                effect.reads.insert(a.clone());
                effect
            }
            Stmt::If(b, then, otherwise) => self
                .reading(&[b])
                .then(self.block(then).or(self.block(otherwise))),
            Stmt::While(_, b, body) => {
                let once = self.reading(&[b]).then(self.block(body));
                self.reading(&[b]).or(once)
            }
            Stmt::Call(p, args) => self
                .reading(&args.iter().collect::<Vec<_>>())
                .then(self.call(Callee::Procedure(p.clone()))),
            Stmt::Assert(e) | Stmt::Assume(e) | Stmt::Return(_, e) => self.reading(&[e]),
            Stmt::FieldAssign(object, _, e) => self.reading(&[object, e]),
            Stmt::New(target, _) => self.writing(target),
            Stmt::MethodCall {
                target,
                receiver,
                class,
                method,
                args,
            } => {
                let mut terms = vec![receiver];
                terms.extend(args);
                self.reading(&terms)
                    .then(self.call(Callee::Method(class.clone(), method.clone())))
                    .then(self.writing(target))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::syntax::parse_program;

    fn inputs(source: &str) -> Vec<String> {
        let program = parse_program(source).expect("the program parses");
        program
            .inputs()
            .into_keys()
            .map(|x| x.to_string())
            .collect()
    }

    #[test]
    fn a_variable_written_first_is_no_input() {
        assert_eq!(inputs("x := 1"), Vec::<String>::new());
        assert_eq!(inputs("x := 1; y := x + z"), vec!["z"]);
    }

    #[test]
    fn a_variable_written_on_one_branch_only_is_an_input_when_read_after() {
        assert_eq!(
            inputs("if c { x := 1 } else { skip }; y := x"),
            vec!["c", "x"]
        );
        assert_eq!(inputs("if c { x := 1 } else { x := 2 }; y := x"), vec!["c"]);
    }

    #[test]
    fn a_loop_body_may_not_run() {
        assert_eq!(
            inputs("while n > 0 { j := n; n := n - 1 }; y := j"),
            vec!["j", "n"]
        );
    }

    #[test]
    fn arrays_stay_inputs_after_a_partial_write_and_len_reads_them() {
        assert_eq!(inputs("var a: int[]; a[0] := 1"), vec!["a"]);
        assert_eq!(inputs("var b: int[]; n := len(b)"), vec!["b"]);
    }

    #[test]
    fn procedures_are_summarised_through_recursion() {
        let source = "proc p(k) { if k > 0 { s := s + g; p(k - 1) } }\nproc q() { t := 0 }\ns := 0; q(); p(n); r := t";
        assert_eq!(inputs(source), vec!["g", "n"]);
    }

    #[test]
    fn a_global_read_only_in_a_method_body_is_an_input() {
        let source = "class C { field f: int; method m() { if p { this.f := 1 } else { this.f := 2 }; return this.f } }\nvar c: C, p: bool;\ny := c.m()";
        assert_eq!(inputs(source), vec!["c", "p"]);
    }

    #[test]
    fn methods_are_summarised_through_the_methods_they_call() {
        let source = "class C { method m(k: int) { k := this.n(k); return k }\n method n(k: int) { if k > 0 { k := this.m(k - 1) } else { k := g }; return k } }\nvar c: C;\ny := c.m(3)";
        assert_eq!(inputs(source), vec!["c", "g"]);
    }

    #[test]
    fn a_method_nobody_calls_adds_no_input() {
        let source = "class C { method m() { return g } }\nvar c: C;\ng := 1;\ny := c.m()";
        assert_eq!(inputs(source), vec!["c"]);
    }

    #[test]
    fn king_search_reads_only_the_array_and_the_key() {
        let source = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../paper-examples/basic/king_search.sx"
        ))
        .expect("the example exists");
        assert_eq!(inputs(&source), vec!["a", "x"]);
    }
}
