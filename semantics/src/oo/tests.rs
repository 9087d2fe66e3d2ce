//! The §4 semantics on small programs: every path of the unfolding, its
//! incremental path condition against Definition 4.2, Theorem 4.5 and the
//! agreement with the program semantics on hand-made heaps.

use super::action::Action;
use super::concrete::Concrete;
use super::inline::ThisRule;
use super::path::path;
use super::trace::Traces;
use super::unfold::{Config, Unfold};
use crate::eval::{eval_bool, Valuation};
use crate::heap::{Heap, Object};
use crate::program::{Outcome, Program};
use crate::system::{Configuration, Options, SymbolicConfiguration, TransitionSystem};
use crate::term::Name;
use crate::value::{Oid, Value};
use std::rc::Rc;

fn program(source: &str) -> Rc<Program> {
    Rc::new(
        crate::syntax::parse_program(source)
            .unwrap_or_else(|d| panic!("{}: {}", d.line, d.message)),
    )
}

/// Every terminal configuration of the unfolding (loops and calls bounded by `limit` steps).
fn leaves<P: super::unfold::PathState>(unfold: &Unfold<P>, limit: usize) -> Vec<Config<P>> {
    let mut pending = vec![(unfold.initial(), 0)];
    let mut done = Vec::new();
    while let Some((c, depth)) = pending.pop() {
        let steps = unfold.successors(&c);
        if steps.is_empty() || depth == limit {
            done.push(c);
        }
        if depth < limit {
            pending.extend(steps.into_iter().map(|s| (s.next, depth + 1)));
        }
    }
    done
}

fn object(class: &str, fields: &[(&str, Value)]) -> Object {
    Object {
        class: class.into(),
        fields: fields
            .iter()
            .map(|(f, v)| (Name::from(*f), v.clone()))
            .collect(),
    }
}

fn with(vars: &[(&str, Value)], heap: Heap) -> Valuation {
    vars.iter()
        .map(|(x, v)| (Name::from(*x), v.clone()))
        .collect::<Valuation>()
        .with_heap(heap)
}

const PUZZLE: &str =
    "class C { field f: int; } var x: C; var y: C; x.f := 1; y.f := 2; assert x.f = 1";

fn one_object() -> Heap {
    Heap::new().insert(Oid(1), object("C", &[("f", Value::Int(0.into()))]))
}

fn two_objects() -> Heap {
    one_object().insert(Oid(2), object("C", &[("f", Value::Int(0.into()))]))
}

#[test]
fn the_aliasing_puzzle_fails_exactly_when_x_and_y_are_one_object() {
    let unfold = Unfold::new(program(PUZZLE), Options::default(), ThisRule::Fresh);
    let failing: Vec<Config> = leaves(&unfold, 20)
        .into_iter()
        .filter(|c| {
            c.outcome()
                == Some(Outcome::Halted(crate::program::Halt::Error(
                    crate::program::ErrorKind::AssertionFailed,
                )))
        })
        .collect();
    assert_eq!(failing.len(), 1);
    let phi = failing[0].path_condition();
    let aliased = with(
        &[("x", Value::Object(Oid(1))), ("y", Value::Object(Oid(1)))],
        one_object(),
    );
    let apart = with(
        &[("x", Value::Object(Oid(1))), ("y", Value::Object(Oid(2)))],
        two_objects(),
    );
    assert_eq!(eval_bool(phi, &aliased), Ok(true), "φ = {phi}");
    assert_eq!(eval_bool(phi, &apart), Ok(false), "φ = {phi}");
}

/// On every path of `source`: the incremental `path(ρ)` and Definition 4.2
/// agree, Theorem 4.5 holds, and where `V(path(ρ))` the program semantics
/// reaches the same statement in the state the trace semantics computes.
fn agree_on(source: &str, valuations: &[Valuation]) {
    let program = program(source);
    let unfold = Unfold::new(program.clone(), Options::default(), ThisRule::Fresh);
    let traces = Traces::new(program.clone(), Options::default());
    let concrete = Concrete::new(program, Options::default());
    for leaf in leaves(&unfold, 60) {
        let rho: Vec<Action> = leaf.state.actions();
        let literal = path(&rho, unfold.checks());
        for v in valuations {
            let incremental = eval_bool(leaf.path_condition(), v) == Ok(true);
            assert_eq!(
                incremental,
                eval_bool(&literal, v) == Ok(true),
                "ρ = {}\n{} vs {literal}",
                super::ShowTrace(&rho),
                leaf.phi
            );
            let run = traces.run(v.clone(), &rho);
            assert_eq!(
                run.is_ok(),
                incremental,
                "Theorem 4.5 for ρ = {} and V = {}",
                super::ShowTrace(&rho),
                crate::eval::ShowValuation(v)
            );
            if let Ok(after) = run {
                let mut program_config = concrete.initial(v.clone());
                let steps = leaf.state.len();
                for _ in 0..500 {
                    if program_config.code == leaf.code {
                        break;
                    }
                    let Some(step) = concrete.successors(&program_config).pop() else {
                        break;
                    };
                    program_config = step.next;
                }
                assert_eq!(
                    program_config.code, leaf.code,
                    "after {steps} trace actions"
                );
                let expected = after.retain(|x| program_config.valuation.contains_key(x));
                assert_eq!(program_config.valuation, expected);
            }
        }
    }
}

#[test]
fn the_puzzle_agrees_with_the_trace_and_program_semantics() {
    let valuations = [
        with(
            &[("x", Value::Object(Oid(1))), ("y", Value::Object(Oid(1)))],
            one_object(),
        ),
        with(
            &[("x", Value::Object(Oid(1))), ("y", Value::Object(Oid(2)))],
            two_objects(),
        ),
        with(
            &[("x", Value::Nil), ("y", Value::Object(Oid(2)))],
            two_objects(),
        ),
    ];
    agree_on(PUZZLE, &valuations);
}

#[test]
fn created_objects_are_new_and_start_with_default_fields() {
    let source = "class N { field next: N; field v: int; }
        var l: N; var k: N; var b: bool;
        n := new N; n.v := 3; l.next := n;
        if l.next = k { b := true } else { b := false };
        if n.next = nil { k := n } ;
        assert l.next.v = 3";
    let node = |next: Value| object("N", &[("next", next), ("v", Value::Int(5.into()))]);
    let heap = Heap::new()
        .insert(Oid(1), node(Value::Nil))
        .insert(Oid(2), node(Value::Object(Oid(1))));
    let valuations = [
        with(
            &[
                ("l", Value::Object(Oid(1))),
                ("k", Value::Object(Oid(2))),
                ("b", Value::Bool(false)),
                ("n", Value::Nil),
            ],
            heap.clone(),
        ),
        with(
            &[
                ("l", Value::Object(Oid(2))),
                ("k", Value::Nil),
                ("b", Value::Bool(true)),
                ("n", Value::Nil),
            ],
            heap.clone(),
        ),
        with(
            &[
                ("l", Value::Nil),
                ("k", Value::Nil),
                ("b", Value::Bool(true)),
                ("n", Value::Nil),
            ],
            heap,
        ),
    ];
    agree_on(source, &valuations);
}

#[test]
fn methods_inline_with_fresh_parameters_and_results() {
    let source = "class N { field next: N; field v: int;
            method set(w) { this.v := w; return this }
            method last(r: N) { if this.next = nil { r := this } else { r := this.next.last(nil) }; return r } }
        var l: N; var m: N; var s: int;
        m := l.last(nil); m := m.set(s + 1); s := l.v";
    let node = |next: Value| object("N", &[("next", next), ("v", Value::Int(0.into()))]);
    let heap = Heap::new()
        .insert(Oid(1), node(Value::Nil))
        .insert(Oid(2), node(Value::Object(Oid(1))));
    let valuations = [
        with(
            &[
                ("l", Value::Object(Oid(2))),
                ("m", Value::Nil),
                ("s", Value::Int(4.into())),
            ],
            heap.clone(),
        ),
        with(
            &[
                ("l", Value::Object(Oid(1))),
                ("m", Value::Nil),
                ("s", Value::Int(0.into())),
            ],
            heap.clone(),
        ),
        with(
            &[
                ("l", Value::Nil),
                ("m", Value::Nil),
                ("s", Value::Int(0.into())),
            ],
            heap,
        ),
    ];
    agree_on(source, &valuations);
}

/// `wp_ρ(a)` after two writes of `a` asks for `wp` of the update
/// `(a[0] := 1)` built during the walk: its memo must keep it alive, or
/// every retry rebuilds it under a new id and the walk never ends.
#[test]
fn an_array_written_twice_has_a_weakest_precondition() {
    let unfold = Unfold::new(
        program("var a: int[];\nvar b: bool;\na[0] := 1;\na[0] := 2;\nassume b"),
        Options::default(),
        ThisRule::Fresh,
    );
    let mut c = unfold.initial();
    while let Some(step) = unfold.successors(&c).into_iter().next() {
        c = step.next;
    }
    let a = crate::term::Term::var("a", crate::term::Sort::int_array());
    assert_eq!(c.state.wp(&a).to_string(), "((a[0] := 1)[0] := 2)");
}

/// §4.1: forward execution with fields as arrays has the aliasing puzzle's
/// paths, its path conditions mention only initial values (a read after
/// writes stays an array read), and a created object leaves no name behind.
#[test]
fn forward_execution_reads_fields_as_arrays_and_forgets_created_objects() {
    let forward = super::forward::forward(program(PUZZLE), Options::default(), ThisRule::Fresh);
    let conditions: Vec<String> = leaves(&forward, 100)
        .iter()
        .map(|c| c.phi.to_string())
        .collect();
    assert!(
        conditions
            .iter()
            .any(|phi| phi.contains("((f[x] := 1)[y] := 2)[x]")),
        "{conditions:?}"
    );
    let created = program("class C { field f: int, g: C; }\nvar x: C, y: C;\nx := new C;\nif y = x { skip } else { y := x };\nassert x.f = 0 && y.g = nil");
    let forward = super::forward::forward(created, Options::default(), ThisRule::Fresh);
    for leaf in leaves(&forward, 100) {
        assert!(
            leaf.phi.free_vars().is_empty(),
            "[x := new C] leaves no variable in {}",
            leaf.phi
        );
        let holds = eval_bool(&leaf.phi, &Valuation::new()) == Ok(true);
        assert!(
            !holds || leaf.outcome() == Some(Outcome::Terminated),
            "only the run past the assertion is feasible: {}: {}",
            leaf.phi,
            leaf.code
        );
    }
}
