//! King's properties of symbolic execution (J. C. King, *Symbolic execution
//! and program testing*, CACM 19(7), 1976), checked on every paper example:
//!
//! 1. every feasible leaf has a model whose concrete run takes the same path
//!    and ends in the state `V ∘ σ` the leaf predicts;
//! 2. the path conditions of distinct leaves are pairwise unsatisfiable
//!    together (the tree partitions the input space);
//! 3. on programs whose tree is finite, every input satisfies exactly one
//!    leaf's path condition, and its run ends in that leaf's predicted state;
//! 4. a path the solver cannot decide is reported `unknown`, never feasible;
//!    and no leaf is `unknown` because Z3 and the evaluator disagree (a model
//!    the evaluator rejects) or because no rule applies — shown to fail with
//!    a Z3 encoding of `/` broken on purpose.
//!
//! On oo programs (§4) inputs are heaps: models are initial heaps, and
//! random inputs are random consistent heaps over a small pool of objects.

use rand::SeedableRng;
use std::rc::Rc;
use symex::commands::language::{with_semantics, Choice, Semantics, Visitor};
use symex::commands::Method;
use symex::explore::run::{run, RunEnd, RunLimits};
use symex::explore::{explore, replay, Bounds, ExploreOptions, Status, Tree, UnknownReason};
use symex::solver::{break_encoding, Mutant, SatResult, Solver};
use symex::theorems::inputs::random_heap_inputs;
use symex_semantics::eval::{eval, eval_bool};
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::program::{Halt, Language, Outcome, Program};
use symex_semantics::system::{
    ConcreteConfiguration, Options, SymbolicConfiguration, TransitionSystem,
};
use symex_semantics::term::Term;

/// The examples, each with the `--unfold` bound its tree is explored under.
const EXAMPLES: &[(&str, usize)] = &[
    ("basic/while_loop", 3),
    ("basic/array_swap", 10),
    ("basic/array_max", 2),
    ("basic/abs", 10),
    ("basic/max", 10),
    ("basic/sum", 3),
    ("basic/king_sum", 10),
    ("basic/king_power", 3),
    ("basic/king_search", 10),
    ("recursive/factorial", 3),
    ("recursive/fibonacci", 2),
    ("recursive/even_odd", 3),
    ("recursive/accumulate", 3),
    ("recursive/countdown", 3),
    ("oo/aliasing_puzzle", 10),
    ("oo/creation_under_aliasing", 10),
    ("oo/method_chain", 10),
    ("oo/list_insert", 2),
    ("oo/list_find", 3),
    ("oo/list_reverse", 3),
    ("oo/list_partition_buggy", 2),
    ("oo/list_partition_fixed", 2),
    ("oo/clauses/field_nil", 10),
    ("oo/clauses/field_variable", 10),
    ("oo/clauses/field_other_field", 10),
    ("oo/clauses/field_same_field", 10),
    ("oo/clauses/field_operator", 10),
    ("oo/clauses/new_nil", 10),
    ("oo/clauses/new_variable", 10),
    ("oo/clauses/new_field_of_new", 10),
    ("oo/clauses/new_field_of_other", 10),
    ("oo/clauses/new_equal_other", 10),
    ("oo/clauses/new_equal_itself", 10),
    ("oo/clauses/new_conditional", 10),
];

fn parse(name: &str, source: &str) -> Rc<Program> {
    let program = symex_semantics::syntax::parse_program(source)
        .unwrap_or_else(|error| panic!("{}", error.render_plain(name, source)));
    Rc::new(program)
}

fn load(example: &str) -> Rc<Program> {
    let path = format!("{}/paper-examples/{example}.sx", env!("CARGO_MANIFEST_DIR"));
    parse(
        &path,
        &std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}")),
    )
}

/// Runs `check` on the example's semantics and its tree explored with `options`.
fn with_tree(example: &str, unfold: usize, options: Options, check: impl KingCheck + Clone) {
    let explore = ExploreOptions {
        bounds: Bounds {
            unfold,
            ..Bounds::default()
        },
        ..ExploreOptions::default()
    };
    check_tree(example, load(example), options, explore, check);
}

/// Runs `check` under both methods: §2's and §3's systems or §4.1's
/// forward execution, and the unfolding with `path(ρ)`.
fn check_tree(
    name: &str,
    program: Rc<Program>,
    options: Options,
    explore: ExploreOptions,
    check: impl KingCheck + Clone,
) {
    for method in [Method::Forward, Method::Wp] {
        let choice = Choice::new(&program, None, Some(method), ThisRule::Fresh)
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        let example = format!("{name} (--method {})", method.name());
        let visitor = Explored {
            program: program.clone(),
            explore: explore.clone(),
            check: check.clone(),
            example,
        };
        if let Err(error) = with_semantics(program.clone(), choice, options, visitor) {
            panic!("{name}: {error}");
        }
    }
}

trait KingCheck {
    fn check<S, C>(
        &self,
        example: &str,
        program: &Program,
        semantics: &Semantics<S, C>,
        tree: &Tree,
    ) where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration;
}

struct Explored<K> {
    program: Rc<Program>,
    explore: ExploreOptions,
    check: K,
    example: String,
}

impl<K: KingCheck> Visitor for Explored<K> {
    type Output = ();

    fn visit<S, C>(self, semantics: Semantics<S, C>)
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let tree = explore(
            &semantics.symbolic,
            semantics.initial.clone(),
            &self.program.globals,
            &self.explore,
        );
        self.check
            .check(&self.example, &self.program, &semantics, &tree);
    }
}

fn leaves(tree: &Tree) -> impl Iterator<Item = (usize, &symex::explore::Leaf)> {
    tree.paths
        .iter()
        .filter_map(|&node| tree.leaf(node).map(|leaf| (node, leaf)))
}

/// A leaf that is `unknown` not for want of solver power: Z3 gave a model
/// the evaluator rejects (they disagree), or no rule applies.
fn unknown_by_a_disagreement(tree: &Tree) -> Option<String> {
    leaves(tree).find_map(|(node, leaf)| match leaf.status {
        Status::Unknown(reason @ (UnknownReason::NoModel | UnknownReason::Stuck)) => Some(format!(
            "leaf {node} is unknown ({reason}): `{}`",
            leaf.path_condition
        )),
        _ => None,
    })
}

#[derive(Clone)]
struct FeasibleLeavesReplay;

impl KingCheck for FeasibleLeavesReplay {
    fn check<S, C>(&self, example: &str, _: &Program, semantics: &Semantics<S, C>, tree: &Tree)
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        if let Some(why) = unknown_by_a_disagreement(tree) {
            panic!("{example}: {why}");
        }
        let mut replayed = 0;
        for (node, leaf) in leaves(tree) {
            if !matches!(leaf.status, Status::Terminated | Status::Error(_)) {
                continue;
            }
            let model = leaf
                .model
                .as_ref()
                .unwrap_or_else(|| panic!("{example}: feasible leaf {node} has no model"));
            assert!(
                eval_bool(&leaf.path_condition, model).unwrap_or(false),
                "{example}: the model of leaf {node} violates its path condition"
            );
            let replay = replay(tree, node, &semantics.concrete, |v| semantics.start(v))
                .expect("a feasible leaf replays");
            assert_eq!(replay.mismatch, None, "{example}: leaf {node}");
            replayed += 1;
        }
        assert!(replayed > 0, "{example}: no feasible leaf");
    }
}

#[test]
fn every_feasible_leaf_has_a_model_that_takes_its_path() {
    for (example, unfold) in EXAMPLES {
        with_tree(example, *unfold, Options::default(), FeasibleLeavesReplay);
    }
    with_tree(
        "basic/array_max",
        2,
        Options {
            checked_arrays: true,
            ..Options::default()
        },
        FeasibleLeavesReplay,
    );
}

#[derive(Clone)]
struct PairwiseDisjoint;

impl KingCheck for PairwiseDisjoint {
    fn check<S, C>(&self, example: &str, _: &Program, _: &Semantics<S, C>, tree: &Tree)
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let conditions: Vec<(usize, &Term)> = leaves(tree)
            .map(|(node, leaf)| (node, &leaf.path_condition))
            .collect();
        let mut solver = Solver::new(10_000);
        for (i, (first, phi)) in conditions.iter().enumerate() {
            for (second, psi) in &conditions[i + 1..] {
                let both = Term::and((*phi).clone(), (*psi).clone());
                assert_eq!(
                    solver.check_assuming(&both),
                    SatResult::Unsat,
                    "{example}: leaves {first} and {second} overlap"
                );
            }
        }
    }
}

#[test]
fn path_conditions_of_distinct_leaves_exclude_each_other() {
    for (example, unfold) in EXAMPLES {
        with_tree(example, *unfold, Options::default(), PairwiseDisjoint);
    }
}

#[derive(Clone)]
struct InputsPartitioned;

impl KingCheck for InputsPartitioned {
    fn check<S, C>(
        &self,
        example: &str,
        program: &Program,
        semantics: &Semantics<S, C>,
        tree: &Tree,
    ) where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let finite = leaves(tree)
            .all(|(_, leaf)| matches!(leaf.status, Status::Terminated | Status::Error(_)));
        if !finite || !tree.unexplored.is_empty() {
            return;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(1976);
        for _ in 0..200 {
            let inputs = random_heap_inputs(program, &mut rng);
            let satisfied: Vec<_> = leaves(tree)
                .filter(|(_, leaf)| eval_bool(&leaf.path_condition, &inputs) == Ok(true))
                .collect();
            let finished = run(
                &semantics.concrete,
                semantics.start(inputs.clone()),
                RunLimits::steps(100_000),
                |_, _| {},
            );
            if finished.end == RunEnd::Finished(Outcome::Halted(Halt::AssumptionViolated)) {
                // Symbolic `assume e` conjoins `e`: no leaf covers inputs outside the domain.
                assert!(
                    satisfied.is_empty(),
                    "{example}: {inputs:?} violates an assumption yet satisfies a leaf"
                );
                continue;
            }
            assert_eq!(
                satisfied.len(),
                1,
                "{example}: {inputs:?} satisfies {} leaves",
                satisfied.len()
            );
            let (node, leaf) = satisfied[0];
            assert_eq!(
                finished.end,
                RunEnd::Finished(leaf.status.outcome().expect("a finished leaf")),
                "{example}: leaf {node}"
            );
            let state = finished.last.global_state();
            for (x, e) in &leaf.state {
                match eval(e, &inputs) {
                    Ok(value) => assert_eq!(
                        state.get(x),
                        Some(&value),
                        "{example}: `{x}` at leaf {node} from {inputs:?}"
                    ),
                    // σ names the objects the path creates by their fresh names.
                    Err(error) => assert_eq!(
                        program.language,
                        Language::Oo,
                        "{example}: `{x}` at leaf {node}: {error}"
                    ),
                }
            }
        }
    }
}

#[test]
fn on_finite_trees_every_input_satisfies_exactly_one_leaf() {
    for (example, unfold) in EXAMPLES {
        with_tree(example, *unfold, Options::default(), InputsPartitioned);
    }
}

#[derive(Clone)]
struct UndecidedIsUnknown;

impl KingCheck for UndecidedIsUnknown {
    fn check<S, C>(&self, name: &str, _: &Program, _: &Semantics<S, C>, tree: &Tree)
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let statuses: Vec<String> = leaves(tree)
            .map(|(_, leaf)| leaf.status.name().to_string())
            .collect();
        assert_eq!(statuses, ["unknown", "terminated"], "{name}");
        let (_, undecided) = leaves(tree).next().expect("two leaves");
        assert!(
            undecided.model.is_none(),
            "{name}: an unknown path has no model"
        );
        assert_eq!(
            (tree.stats.unknown, tree.stats.terminated),
            (1, 1),
            "{name}"
        );
    }
}

/// Fermat's `x³ + y³ = z³` has no positive solution, which Z3's nonlinear
/// arithmetic cannot show within 50 ms: that branch ends `unknown`, with no
/// model, and is never counted as feasible.
#[test]
fn a_path_the_solver_cannot_decide_is_unknown_never_feasible() {
    let source = "assume x > 0 && y > 0 && z > 0;
                  if x * x * x + y * y * y = z * z * z { w := 1 } else { w := 2 }";
    let explore = ExploreOptions {
        timeout_ms: 50,
        ..ExploreOptions::default()
    };
    check_tree(
        "fermat",
        parse("fermat.sx", source),
        Options::default(),
        explore,
        UndecidedIsUnknown,
    );
}

#[derive(Clone)]
struct Disagrees;

impl KingCheck for Disagrees {
    fn check<S, C>(&self, name: &str, _: &Program, _: &Semantics<S, C>, tree: &Tree)
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        assert!(
            unknown_by_a_disagreement(tree).is_some(),
            "{name}: the broken encoding went unnoticed"
        );
    }
}

/// With `/` broken in Z3 (`x / 0` unspecified, or truncating towards zero),
/// Z3 finds a model the evaluator rejects: the leaf is `unknown`, and the
/// check [`FeasibleLeavesReplay`] makes of every example fails on it.
#[test]
fn an_evaluator_z3_disagreement_fails_the_properties() {
    let broken = [
        (
            Mutant::DivisionByZeroUnspecified,
            "if y = 0 && x / y = 1 { w := 1 } else { w := 2 }",
        ),
        (
            Mutant::DivisionTruncates,
            "if x < 0 && x / 2 = 0 { w := 1 } else { w := 2 }",
        ),
    ];
    for (mutant, source) in broken {
        break_encoding(Some(mutant));
        let name = format!("{mutant:?}");
        check_tree(
            &name,
            parse(&name, source),
            Options::default(),
            ExploreOptions::default(),
            Disagrees,
        );
    }
    break_encoding(None);
}
