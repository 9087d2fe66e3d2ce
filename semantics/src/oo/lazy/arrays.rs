//! Input arrays under lazy initialisation (Anand, Păsăreanu & Visser 2006,
//! §2 and §5.2): an array is the cells a path has initialised, kept in
//! index order, each with a symbolic index, its input value and its
//! current value. An element read or written for the first time at an
//! index `t` is an existing cell whose index equals `t`, or a new cell
//! placed in one of the gaps (before the first cell, between two, after
//! the last), the path condition recording which; with `--checked-arrays`
//! a cell lies within `0 ≤ t < len(a)`, and an index outside is its own
//! case. Together the cases cover every index, and exclude each other.

use crate::system::Rule;
use crate::term::{BinOp, Name, Sort, Term};

/// One initialised element.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Stable across insertions: resolutions name cells by it.
    pub(super) id: usize,
    /// The index, over the input symbols.
    pub index: Term,
    /// The input value at the index: `a[index]` of the input array.
    pub initial: Term,
    /// The value now.
    pub current: Term,
}

/// What an index term read so far denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Resolution {
    Cell(usize),
    /// Outside `0 ≤ t < len(a)` (checked arrays): no cell.
    OutOfBounds,
}

/// The initialised part of one input array.
#[derive(Clone, Default)]
pub struct Cells {
    /// In index order: `index(cₖ) < index(cₖ₊₁)` under the path condition.
    pub(super) cells: im::Vector<Cell>,
    /// Each index term read so far, by term id, with what it denotes (the
    /// term is kept so that its id stays its own).
    resolved: im::OrdMap<u64, (Term, Resolution)>,
    next_id: usize,
}

impl Cells {
    /// What `index` denotes, if it was read before.
    pub(super) fn resolve(&self, index: &Term) -> Option<Resolution> {
        self.resolved.get(&index.id()).map(|(_, r)| *r)
    }

    /// The current value of the cell `id`.
    pub(super) fn current(&self, id: usize) -> Option<&Term> {
        self.cells.iter().find(|c| c.id == id).map(|c| &c.current)
    }

    /// The cells with the cell `id` now holding `value`.
    pub(super) fn set(&self, id: usize, value: Term) -> Cells {
        let mut next = self.clone();
        if let Some(position) = next.cells.iter().position(|c| c.id == id) {
            next.cells[position].current = value;
        }
        next
    }

    /// The cases of a first read of `array[index]`, with the condition of
    /// each: an existing cell whose index equals `index`, a new cell in
    /// each gap, and (with `checked`) out of bounds.
    pub(super) fn initialisations(
        &self,
        array: &Name,
        sort: &Sort,
        index: &Term,
        checked: bool,
    ) -> Vec<(Rule, Cells, Term)> {
        let mut cases = Vec::new();
        for cell in &self.cells {
            let mut next = self.clone();
            next.resolve_as(index, Resolution::Cell(cell.id));
            let guard = Term::binary(BinOp::Eq, index.clone(), cell.index.clone());
            cases.push((Rule::LazyAlias, next, guard));
        }
        let len = Term::len(array);
        let below = |bound: &Term| Term::binary(BinOp::Lt, index.clone(), bound.clone());
        let above = |bound: &Term| Term::binary(BinOp::Lt, bound.clone(), index.clone());
        for gap in 0..=self.cells.len() {
            let lower = match gap {
                0 if checked => Term::binary(BinOp::Le, Term::int(0), index.clone()),
                0 => Term::bool(true),
                _ => above(&self.cells[gap - 1].index),
            };
            let upper = match self.cells.get(gap) {
                Some(cell) => below(&cell.index),
                None if checked => below(&len),
                None => Term::bool(true),
            };
            let mut next = self.clone();
            let id = next.next_id;
            next.next_id += 1;
            let initial = Term::select(Term::var(array, sort.clone()), index.clone());
            next.cells.insert(
                gap,
                Cell {
                    id,
                    index: index.clone(),
                    initial: initial.clone(),
                    current: initial,
                },
            );
            next.resolve_as(index, Resolution::Cell(id));
            cases.push((Rule::LazyFresh, next, Term::and(lower, upper)));
        }
        if checked {
            let mut next = self.clone();
            next.resolve_as(index, Resolution::OutOfBounds);
            let within = Term::and(
                Term::binary(BinOp::Le, Term::int(0), index.clone()),
                below(&len),
            );
            cases.push((Rule::LazyOutOfBound, next, Term::not(within)));
        }
        cases
    }

    fn resolve_as(&mut self, index: &Term, resolution: Resolution) {
        self.resolved
            .insert(index.id(), (index.clone(), resolution));
    }

    /// The cells in index order.
    pub fn iter(&self) -> impl Iterator<Item = &Cell> {
        self.cells.iter()
    }
}
