//! The figures of one path condition: its size as the rules build it and
//! as the simplifier prints it, and the time the exploration (and its Z3)
//! spent reaching it. Nothing is decided again: `compare` costs the two
//! explorations and one equivalence query per path.

use super::collect::Collected;
use crate::simplify::Simplifier;
use serde::Serialize;
use symex_semantics::term::Term;

/// The size of a term: distinct nodes (as a DAG) and characters printed.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Size {
    pub dag: usize,
    pub printed: usize,
}

impl Size {
    pub fn of(term: &Term) -> Size {
        Size {
            dag: term.dag_size(),
            printed: term.to_string().len(),
        }
    }
}

/// One method's figures for one path.
#[derive(Clone, Debug, Serialize)]
pub struct PathFigures {
    pub raw: Size,
    pub simplified: Size,
    /// Exploration time attributed to the path (see [`Collected::build`]).
    pub build_ms: f64,
    /// Of which Z3 deciding the path's branches, incrementally as the
    /// exploration asks (see [`Collected::solver`]).
    pub decide_ms: f64,
    /// `sat`, or `unknown` when Z3 could not decide the path.
    pub answer: &'static str,
}

/// The figures of the path `collected`.
pub fn measure(collected: &Collected, simplifier: &mut Simplifier) -> PathFigures {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let condition = &collected.condition;
    PathFigures {
        raw: Size::of(condition),
        simplified: Size::of(&simplifier.simplify(condition)),
        build_ms: ms(collected.build),
        decide_ms: ms(collected.solver),
        answer: if collected.decided { "sat" } else { "unknown" },
    }
}
