//! A lazy path's state as a symbolic heap configuration (Anand, Păsăreanu
//! & Visser, *Symbolic Execution with Abstract Subsumption Checking*, SPIN
//! 2006, Definition 1): a graph whose nodes are the objects reachable from
//! the reference variables (the heap is garbage free), `null` and the
//! cloud `uninit`, whose edges are the reference fields, and whose objects
//! carry the values of their integer and boolean fields; with the values
//! of the integer and boolean variables and the initialised cells of the
//! input arrays. State subsumption compares two such graphs at the same
//! program point.

use super::heap::Node;
use super::rules::Rules;
use super::state::State;
use crate::oo::fresh::is_fresh;
use crate::program::{Code, Program, Stmt};
use crate::term::{Name, Sort, Term};
use std::collections::{BTreeMap, BTreeSet};

/// Where a reference points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Null,
    /// Not initialised: a reference input never read.
    Uninit,
    /// The node at this index of [`StateGraph::nodes`].
    Node(usize),
}

/// An object node `n ∈ N_O`.
#[derive(Clone, Debug)]
pub struct GraphNode {
    pub name: Name,
    pub class: Name,
    /// An input object (materialised), not one made by `new`.
    pub input: bool,
    /// Each reference field in name order, with its target (`E_F`).
    pub refs: Vec<(Name, Target)>,
    /// Which of `refs` links a singly linked list: the one reference
    /// field of a class that has one, of the class itself (`next`).
    pub next: Option<usize>,
    /// Each integer and boolean field in name order with its value
    /// (`val^s(n, f)` for `f ∈ primfld(n)`).
    pub prims: Vec<(Name, Term)>,
}

/// The initialised part of an input array: its length and its cells in
/// index order, each as its index and its value.
#[derive(Clone, Debug)]
pub struct ArrayCells {
    pub len: Term,
    pub cells: Vec<(Term, Term)>,
}

/// A lazy path's state at a program point.
#[derive(Clone, Debug)]
pub struct StateGraph {
    /// The program point with the calls pending ([`Code::position`]).
    pub point: Vec<(usize, usize)>,
    /// The continuation, kept alive so that `point` stays its own.
    pub code: Code,
    /// `R`: the reference variables in name order with their targets
    /// (`E_R`); a reference input never read points to `uninit`.
    pub roots: Vec<(Name, Target)>,
    /// `N_O`: the objects reachable from the roots, in the order a
    /// breadth-first walk from them (in order, fields in name order) meets them.
    pub nodes: Vec<GraphNode>,
    /// The integer and boolean variables in name order with their values.
    pub numbers: Vec<(Name, Term)>,
    /// The input arrays in name order.
    pub arrays: Vec<(Name, ArrayCells)>,
}

/// The graph of `state` at the continuation `code`: the globals and the
/// fresh variables `code` mentions are the variables (a local of a call
/// that has returned is dead).
pub(super) fn state_graph<R: Rules>(
    state: &State<R>,
    code: &Code,
    program: &Program,
) -> StateGraph {
    let mut vars: BTreeMap<Name, Sort> = program.globals.clone();
    let mentioned = mentioned(code);
    for (x, value) in &state.vars {
        if is_fresh(x) && mentioned.contains(x) {
            vars.insert(x.clone(), value.sort());
        }
    }
    let mut graph = StateGraph {
        point: code.position(),
        code: code.clone(),
        roots: Vec::new(),
        nodes: Vec::new(),
        numbers: Vec::new(),
        arrays: Vec::new(),
    };
    let mut index: BTreeMap<Name, usize> = BTreeMap::new();
    let mut queue: Vec<Name> = Vec::new();
    let mut target = |value: Option<&Term>, queue: &mut Vec<Name>| match value.map(Node::of) {
        None => Target::Uninit,
        Some(Node::Object(name)) => {
            let next = index.len();
            let k = *index.entry(name.clone()).or_insert_with(|| {
                queue.push(name.clone());
                next
            });
            Target::Node(k)
        }
        Some(Node::Nil | Node::Unknown) => Target::Null,
    };
    for (x, sort) in &vars {
        let value = state.vars.get(x);
        match sort {
            Sort::Object(_) => {
                let t = target(value, &mut queue);
                graph.roots.push((x.clone(), t));
            }
            Sort::Array(_) => {
                let cells = state.arrays.get(x);
                graph.arrays.push((
                    x.clone(),
                    ArrayCells {
                        len: Term::len(x),
                        cells: cells
                            .map(|c| {
                                c.iter()
                                    .map(|c| (c.index.clone(), c.current.clone()))
                                    .collect()
                            })
                            .unwrap_or_default(),
                    },
                ));
            }
            _ => graph.numbers.push((
                x.clone(),
                value.cloned().unwrap_or_else(|| Term::var(x, sort.clone())),
            )),
        }
    }
    let mut next = 0;
    while next < queue.len() {
        let name = queue[next].clone();
        next += 1;
        let Some(object) = state.objects.get(&name) else {
            continue;
        };
        let mut node = GraphNode {
            name: name.clone(),
            class: object.class.clone(),
            input: object.input,
            refs: Vec::new(),
            next: None,
            prims: Vec::new(),
        };
        for (f, value) in &object.fields {
            let reference = matches!(program.field_sort(f), Some(Sort::Object(_)));
            match value {
                Some(v) if !reference => node.prims.push((f.clone(), v.clone())),
                _ => {
                    let t = target(value.as_ref(), &mut queue);
                    node.refs.push((f.clone(), t));
                }
            }
        }
        let own = Sort::Object(object.class.clone());
        if let [(f, _)] = node.refs.as_slice() {
            if program.field_sort(f) == Some(&own) {
                node.next = Some(0);
            }
        }
        graph.nodes.push(node);
    }
    graph
}

/// The variables the statements of `code` mention.
fn mentioned(code: &Code) -> BTreeSet<Name> {
    let mut names = BTreeSet::new();
    for stmt in code.statements() {
        mention(stmt, &mut names);
    }
    names
}

fn mention(stmt: &Stmt, names: &mut BTreeSet<Name>) {
    stmt.visit_terms(&mut |t| names.extend(t.free_vars().into_keys()));
    assigned_within(stmt, names);
}

/// The variables `stmt` and the statements within it assign.
fn assigned_within(stmt: &Stmt, names: &mut BTreeSet<Name>) {
    names.extend(stmt.assigned().cloned());
    let nested = match stmt {
        Stmt::If(_, then, otherwise) => then.iter().chain(otherwise.iter()).collect(),
        Stmt::While(_, _, body) => body.iter().collect(),
        _ => Vec::new(),
    };
    for s in nested {
        assigned_within(s, names);
    }
}
