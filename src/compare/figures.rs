//! The figures of one path condition: its size as the rules build it and
//! as the simplifier prints it, and the time Z3 takes to decide it alone.

use crate::simplify::Simplifier;
use crate::solver::{SatResult, Solver};
use serde::Serialize;
use std::time::Instant;
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
    /// Exploration time attributed to the path (see [`super::collect::Collected::build`]).
    pub build_ms: f64,
    /// A fresh Z3 solver: encoding the raw path condition and checking it.
    pub decide_ms: f64,
    /// `sat`, `unsat` or `unknown`.
    pub answer: &'static str,
}

/// The figures of `condition`, built in `build_ms`.
pub fn measure(
    condition: &Term,
    build_ms: f64,
    simplifier: &mut Simplifier,
    timeout_ms: u64,
) -> PathFigures {
    let simplified = simplifier.simplify(condition);
    let mut solver = Solver::new(timeout_ms);
    let start = Instant::now();
    solver.assert(condition);
    let answer = solver.check();
    let decide_ms = start.elapsed().as_secs_f64() * 1e3;
    PathFigures {
        raw: Size::of(condition),
        simplified: Size::of(&simplified),
        build_ms,
        decide_ms,
        answer: answer_name(answer),
    }
}

pub fn answer_name(answer: SatResult) -> &'static str {
    match answer {
        SatResult::Sat => "sat",
        SatResult::Unsat => "unsat",
        SatResult::Unknown => "unknown",
        SatResult::Interrupted => "interrupted",
    }
}
