//! `symex bench --family path`: `path(ρ)` of a trace of `n` actions full of
//! field writes through possibly aliased references (issue 7, point 2),
//! computed both ways §4 offers — incrementally by `oo::wp`, as the
//! explorer does, and by Definition 4.2 (`oo::path`) — with the size of the
//! result as a DAG (distinct shared nodes) and the time each took. Terms
//! must stay shared: the DAG grows linearly in `n`, however often a read
//! `e.f` may see an earlier write of `f` through another name.
//!
//! Definition 4.2 substitutes through the whole condition at every action
//! (cubic in `n` on this trace: n = 1000 takes over half a minute), so it is
//! measured only up to [`DEFINITION_UP_TO`] actions; larger sizes measure
//! the incremental calculus alone.

use serde::Serialize;
use std::time::{Duration, Instant};
use symex_semantics::delta::Checks;
use symex_semantics::oo::action::{Action, Location};
use symex_semantics::oo::{path, wp};
use symex_semantics::term::{BinOp, Sort, Term};

/// The largest trace Definition 4.2 is measured on.
pub const DEFINITION_UP_TO: usize = 400;

/// The figures of one size.
#[derive(Debug, Serialize)]
pub struct PathMeasurement {
    pub size: usize,
    /// Field writes among the actions.
    pub field_writes: usize,
    /// Distinct nodes of `path(ρ)` by the incremental calculus.
    pub incremental_nodes: usize,
    pub incremental_ms: f64,
    /// Distinct nodes of `path(ρ)` by Definition 4.2 (`None` above [`DEFINITION_UP_TO`]).
    pub definition_nodes: Option<usize>,
    pub definition_ms: Option<f64>,
}

/// The `k`-th action of the trace, over `p`, `q`, `r` of class `C { f: int; next: C }`,
/// cycling through `p.f := q.f + 1`, `q.next := r`, `r := p.next`,
/// `r.next.f := p.f`, `q.f < r.f`: every read of `f` or `next` may see
/// any earlier write of that field, through any of the names.
pub fn action(k: usize) -> Action {
    let class = Sort::Object("C".into());
    let var = |x: &str| Term::var(x, class.clone());
    let f = |object: Term| Term::field(object, "f", Sort::Int);
    let next = |object: Term| Term::field(object, "next", class.clone());
    match k % 5 {
        0 => Action::Assign(
            Location::Field(var("p"), "f".into(), Sort::Int),
            Term::binary(BinOp::Add, f(var("q")), Term::int(1)),
        ),
        1 => Action::Assign(
            Location::Field(var("q"), "next".into(), class.clone()),
            var("r"),
        ),
        2 => Action::Assign(Location::Var("r".into(), class.clone()), next(var("p"))),
        3 => Action::Assign(
            Location::Field(next(var("r")), "f".into(), Sort::Int),
            f(var("p")),
        ),
        _ => Action::Test(Term::binary(BinOp::Lt, f(var("q")), f(var("r")))),
    }
}

/// `path(ρ)` for the trace of `n` actions, both ways, timed.
pub fn measure(n: usize) -> PathMeasurement {
    let rho: Vec<Action> = (0..n).map(action).collect();
    let field_writes = rho
        .iter()
        .filter(|a| matches!(a, Action::Assign(Location::Field(..), _)))
        .count();
    let (incremental, incremental_time) = timed(|| {
        let mut trace = wp::Trace::new();
        let mut phi = Term::bool(true);
        for a in &rho {
            phi = Term::and(phi, trace.condition(a, Checks::NIL));
            trace = trace.then(a.clone());
        }
        phi
    });
    let definition = (n <= DEFINITION_UP_TO).then(|| timed(|| path::path(&rho, Checks::NIL)));
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    PathMeasurement {
        size: n,
        field_writes,
        incremental_nodes: incremental.nodes().len(),
        incremental_ms: ms(incremental_time),
        definition_nodes: definition.as_ref().map(|(phi, _)| phi.nodes().len()),
        definition_ms: definition.map(|(_, time)| ms(time)),
    }
}

fn timed(compute: impl FnOnce() -> Term) -> (Term, Duration) {
    let start = Instant::now();
    let result = compute();
    (result, start.elapsed())
}

/// The table of `symex bench --family path`, with each size's growth over the previous.
pub fn write_table(
    out: &mut dyn std::io::Write,
    results: &[PathMeasurement],
) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<12} {:>7} {:>10} {:>9} {:>9} {:>10} {:>9} {:>9}",
        "path(ρ)", "writes", "wp nodes", "wp ms", "nodes/n", "def nodes", "def ms", "nodes/n"
    )?;
    for m in results {
        let per = |nodes: usize| format!("{:.2}", nodes as f64 / m.size.max(1) as f64);
        let or_dash = |figure: Option<String>| figure.unwrap_or_else(|| "—".into());
        writeln!(
            out,
            "{:<12} {:>7} {:>10} {:>9.1} {:>9} {:>10} {:>9} {:>9}",
            format!("n = {}", m.size),
            m.field_writes,
            m.incremental_nodes,
            m.incremental_ms,
            per(m.incremental_nodes),
            or_dash(m.definition_nodes.map(|nodes| nodes.to_string())),
            or_dash(m.definition_ms.map(|ms| format!("{ms:.1}"))),
            or_dash(m.definition_nodes.map(per))
        )?;
    }
    writeln!(out, "wp: incremental (oo::wp, as explored); def: Definition 4.2 (oo::path), measured up to n = {DEFINITION_UP_TO} (cubic); nodes: distinct DAG nodes of path(ρ)")
}
