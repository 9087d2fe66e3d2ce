//! The abstraction for arrays (Anand et al. 2006, §5.2, Algorithm 2 and
//! Definition 5). An input array is the list of its initialised cells in
//! index order; Algorithm 2 puts a gap node `n*` ("zero or more
//! uninitialised elements") wherever the path condition does not imply
//! that two cells are adjacent, before the first cell unless it is
//! implied to be at 0, and after the last unless it is implied to be at
//! `len − 1`. The roots are the array's head and the *index roots*, the
//! integer variables that index it. A cell is an interruption (Definition
//! 5) when an index root equals its index; gap nodes interrupt too; every
//! maximal run of two or more uninterrupted cells becomes one summary
//! node holding the disjunction of their values. Numeric variables, the
//! index roots' values included, are discarded.
//!
//! Where the paper is silent we chose: an array with no initialised cell
//! is one gap node; an index root points to the cell whose index the path
//! condition implies it equals, else to the gap node it implies it lies
//! in, else to `null`; a cell's valuation is its value (its index is given
//! by its place in the list and the path condition).

use super::shape::{array_classes, Ref, Shape, ShapeNode};
use crate::solver::Solver;
use std::collections::BTreeMap;
use symex_semantics::oo::lazy::graph::{ArrayCells, StateGraph};
use symex_semantics::term::{BinOp, Name, Term};

/// An element of Algorithm 2's list.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Item {
    Cell(usize),
    Gap,
}

/// The state with each input array abstracted, the objects as they are:
/// each array's head, then where each of the index roots `roots` points
/// in it (their values read from the variables).
pub fn abstract_arrays(
    graph: &StateGraph,
    condition: &Term,
    roots: &[Name],
    solver: &mut Solver,
) -> Shape {
    let mut shape = Shape::exact(&StateGraph {
        arrays: Vec::new(),
        ..graph.clone()
    });
    shape.numbers.clear();
    let values: BTreeMap<&Name, &Term> = graph.numbers.iter().map(|(x, v)| (x, v)).collect();
    let implied =
        |solver: &mut Solver, claim: Term| solver.entails(condition, &claim) == Some(true);
    for (array, cells) in &graph.arrays {
        let items = algorithm_2(cells, solver, &implied);
        // Definition 5: the cells an index root equals.
        let mut positions: Vec<Option<usize>> = vec![None; roots.len()];
        for (r, root) in roots.iter().enumerate() {
            let Some(value) = values.get(root) else {
                continue;
            };
            let equal =
                |k: usize| Term::binary(BinOp::Eq, (*value).clone(), cells.cells[k].0.clone());
            positions[r] = items
                .iter()
                .position(|item| matches!(item, Item::Cell(k) if implied(solver, equal(*k))))
                .or_else(|| gap_of(&items, cells, value, solver, &implied));
        }
        let (head, cell) = array_classes(array);
        let first = shape.nodes.len();
        let pointed_items: Vec<usize> = positions.iter().flatten().copied().collect();
        let runs = runs(&items, &pointed_items);
        let link = |k: usize| {
            if k < runs.len() {
                Ref::Node(first + 1 + k)
            } else {
                Ref::Null
            }
        };
        shape.nodes.push(ShapeNode {
            class: head,
            input: true,
            refs: vec![link(0)],
            values: vec![Vec::new()],
            next: None,
        });
        for (k, run) in runs.iter().enumerate() {
            let gap = run.iter().all(|i| items[*i] == Item::Gap);
            shape.nodes.push(ShapeNode {
                class: if gap {
                    format!("{array}[*]").into()
                } else {
                    cell.clone()
                },
                input: true,
                refs: vec![link(k + 1)],
                values: run
                    .iter()
                    .filter_map(|i| match items[*i] {
                        Item::Cell(c) => Some(vec![("value".into(), cells.cells[c].1.clone())]),
                        Item::Gap => None,
                    })
                    .collect(),
                next: Some(0),
            });
        }
        shape.roots.push(Ref::Node(first));
        for position in &positions {
            let run = position.and_then(|item| runs.iter().position(|run| run.contains(&item)));
            shape
                .roots
                .push(run.map_or(Ref::Null, |k| Ref::Node(first + 1 + k)));
        }
    }
    shape
}

/// Algorithm 2: the cells in order with gap nodes where adjacency (or the
/// array's ends) is not implied; one gap for an array with no cell.
fn algorithm_2(
    cells: &ArrayCells,
    solver: &mut Solver,
    implied: &impl Fn(&mut Solver, Term) -> bool,
) -> Vec<Item> {
    let n = cells.cells.len();
    if n == 0 {
        return vec![Item::Gap];
    }
    let index = |k: usize| cells.cells[k].0.clone();
    let equal = |a: Term, b: Term| Term::binary(BinOp::Eq, a, b);
    let plus_one = |a: Term| Term::binary(BinOp::Add, a, Term::int(1));
    let mut items = Vec::new();
    if !implied(solver, equal(index(0), Term::int(0))) {
        items.push(Item::Gap);
    }
    for k in 0..n {
        items.push(Item::Cell(k));
        let adjacent = if k + 1 == n {
            let last = Term::binary(BinOp::Sub, cells.len.clone(), Term::int(1));
            implied(solver, equal(index(k), last))
        } else {
            implied(solver, equal(plus_one(index(k)), index(k + 1)))
        };
        if !adjacent {
            items.push(Item::Gap);
        }
    }
    items
}

/// The gap item `value` is implied to lie in, if any.
fn gap_of(
    items: &[Item],
    cells: &ArrayCells,
    value: &Term,
    solver: &mut Solver,
    implied: &impl Fn(&mut Solver, Term) -> bool,
) -> Option<usize> {
    let below = |a: &Term, b: &Term| Term::binary(BinOp::Lt, a.clone(), b.clone());
    (0..items.len()).find(|&i| {
        if items[i] != Item::Gap {
            return false;
        }
        let lower = match i.checked_sub(1).map(|j| items[j]) {
            Some(Item::Cell(k)) => below(&cells.cells[k].0, value),
            _ => Term::binary(BinOp::Le, Term::int(0), value.clone()),
        };
        let upper = match items.get(i + 1) {
            Some(Item::Cell(k)) => below(value, &cells.cells[*k].0),
            _ => below(value, &cells.len),
        };
        implied(solver, Term::and(lower, upper))
    })
}

/// The nodes of the abstracted list, each as the items it stands for: a
/// gap or a pointed-to cell alone, and each maximal run of the other cells.
fn runs(items: &[Item], pointed: &[usize]) -> Vec<Vec<usize>> {
    let mut runs: Vec<Vec<usize>> = Vec::new();
    let mut open = false;
    for (i, item) in items.iter().enumerate() {
        let interrupts = *item == Item::Gap || pointed.contains(&i);
        match runs.last_mut() {
            Some(run) if open && !interrupts => run.push(i),
            _ => runs.push(vec![i]),
        }
        open = !interrupts;
    }
    runs
}
