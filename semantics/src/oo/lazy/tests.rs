//! Lazy initialisation on small programs: the paths it finds, the input
//! heaps they report, and their models replayed by the program semantics.

use super::{lazy, Lazy};
use crate::eval::Valuation;
use crate::oo::concrete::Concrete;
use crate::oo::inline::ThisRule;
use crate::oo::unfold::Config;
use crate::program::{ErrorKind, Halt, Outcome, Program};
use crate::system::{
    ConcreteConfiguration, Configuration, Options, Rule, SymbolicConfiguration, TransitionSystem,
};
use std::rc::Rc;

fn program(source: &str) -> Rc<Program> {
    Rc::new(
        crate::syntax::parse_program(source)
            .unwrap_or_else(|d| panic!("{}: {}", d.line, d.message)),
    )
}

/// Every path of `system` whose guards are not literally false, as its end
/// and the rules taken (at most `limit` steps each).
fn paths(system: &Lazy, limit: usize) -> Vec<(Config<super::State>, Vec<Rule>)> {
    let mut pending = vec![(system.initial(), Vec::new())];
    let mut done = Vec::new();
    while let Some((c, rules)) = pending.pop() {
        let steps: Vec<_> = system
            .successors(&c)
            .into_iter()
            .filter(|s| !s.guard.is_false())
            .collect();
        if steps.is_empty() || rules.len() == limit {
            done.push((c, rules));
            continue;
        }
        for step in steps.into_iter().rev() {
            let mut taken = rules.clone();
            taken.push(step.rule);
            pending.push((step.next, taken));
        }
    }
    done
}

const PUZZLE: &str =
    "class C { field f: int; } var x: C; var y: C; x.f := 1; y.f := 2; assert x.f = 1";

fn error(kind: ErrorKind) -> Option<Outcome> {
    Some(Outcome::Halted(Halt::Error(kind)))
}

#[test]
fn the_puzzle_splits_on_nil_a_new_object_and_an_alias() {
    let system = lazy(program(PUZZLE), Options::default(), ThisRule::Fresh);
    let outcomes: Vec<(Option<Outcome>, String)> = paths(&system, 50)
        .iter()
        .map(|(c, _)| {
            (
                c.outcome(),
                c.input_heap().map(|h| h.to_string()).unwrap_or_default(),
            )
        })
        .collect();
    let nil = error(ErrorKind::NilDereference);
    assert_eq!(
        outcomes,
        vec![
            (nil, "{x ↦ nil}, {}".to_string()),
            (nil, "{x ↦ C@1, y ↦ nil}, {C@1: C{f ↦ C@1.f}}".to_string()),
            (
                Some(Outcome::Terminated),
                "{x ↦ C@1, y ↦ C@2}, {C@1: C{f ↦ C@1.f}, C@2: C{f ↦ C@2.f}}".to_string()
            ),
            (
                error(ErrorKind::AssertionFailed),
                "{x ↦ C@1, y ↦ C@1}, {C@1: C{f ↦ C@1.f}}".to_string()
            ),
        ]
    );
}

#[test]
fn created_objects_are_never_alias_candidates() {
    let source = "class C { field n: C; } var x: C; c := new C; y := x.n";
    let system = lazy(program(source), Options::default(), ThisRule::Fresh);
    let rules: Vec<Vec<Rule>> = paths(&system, 50).into_iter().map(|(_, r)| r).collect();
    // x: nil (error), new; x.n: nil, new, alias of x's object itself — never `c`.
    assert_eq!(rules.len(), 4, "{rules:?}");
    let aliases = rules
        .iter()
        .filter(|r| r.contains(&Rule::LazyAlias))
        .count();
    assert_eq!(aliases, 1);
}

#[test]
fn aliasing_keeps_to_the_class() {
    let source = "class A { field b: B; } class B { field a: A; } var x: A; y := x.b";
    let system = lazy(program(source), Options::default(), ThisRule::Fresh);
    // x.b is a B: x's object (an A) is no candidate.
    assert!(paths(&system, 50)
        .iter()
        .all(|(_, rules)| !rules.contains(&Rule::LazyAlias)));
}

#[test]
fn a_short_circuit_operand_is_decided_before_the_read_it_guards() {
    let source = "class N { field v: int; field n: N; } var x: N, p: int;
        assume x != nil;
        if p > 0 && x.n.v > 0 { skip }";
    let system = lazy(program(source), Options::default(), ThisRule::Fresh);
    let (mut unread, mut read) = (0, 0);
    for (c, rules) in paths(&system, 50) {
        let heap = c.input_heap().map(|h| h.to_string()).unwrap_or_default();
        if !heap.contains("N@1") {
            continue;
        }
        let decision = rules.iter().position(|r| *r == Rule::Decision);
        if heap.contains("N@1: N{n ↦ ?") {
            unread += 1;
        } else {
            // x.n is initialised only after p > 0 was decided.
            let initialised = rules
                .iter()
                .rposition(|r| r.is_lazy() && *r != Rule::Decision);
            assert!(decision < initialised, "{heap}: {rules:?}");
            read += 1;
        }
    }
    assert_eq!(
        (unread, read),
        (1, 5),
        "p <= 0 reads no x.n; p > 0 reads nil (an error), new or x (each both ways)"
    );
}

/// The model of every complete path of `source` whose condition is `true`
/// replays on the program semantics: same outcome, the predicted state.
fn models_replay(source: &str) {
    let program = program(source);
    let system = lazy(program.clone(), Options::default(), ThisRule::Fresh);
    let concrete = Concrete::new(program.clone(), Options::default());
    let mut replayed = 0;
    for (c, rules) in paths(&system, 200) {
        let Some(outcome) = c.outcome() else { continue };
        if !c.path_condition().is_true() {
            continue;
        }
        let defaults: Valuation = program
            .globals
            .iter()
            .map(|(x, sort)| (x.clone(), crate::value::Value::default_of(sort)))
            .collect();
        let inputs = c.inputs_from(defaults);
        let predicted = c
            .predicted_state(&inputs, &mut Default::default())
            .expect("a prediction");
        let mut run = concrete.initial(inputs.clone());
        let mut taken = Vec::new();
        while let Some(step) = concrete.successors(&run).pop() {
            taken.push(step.rule);
            run = step.next;
        }
        let expected: Vec<Rule> = rules.into_iter().filter(|r| !r.is_lazy()).collect();
        assert_eq!(taken, expected, "{}", c.input_heap().unwrap());
        assert_eq!(run.outcome(), Some(outcome));
        assert_eq!(run.global_state(), predicted, "{}", c.input_heap().unwrap());
        replayed += 1;
    }
    assert!(replayed > 2, "only {replayed} paths replayed");
}

#[test]
fn models_of_the_puzzle_replay() {
    models_replay(PUZZLE);
}

#[test]
fn models_of_a_list_walk_replay() {
    models_replay(
        "class N { field next: N; field v: int; } var l: N;
         c := l; k := 0;
         while c != nil && k < 3 { d := new N; d.next := c.next; c.next := d; c := d.next; k := k + 1 }",
    );
}
