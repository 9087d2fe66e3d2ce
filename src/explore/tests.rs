//! The engine on small programs: bounds end paths with their reason, every
//! strategy finds the same paths, the solver stack stays in step with
//! the tree when the strategy jumps between branches, and the
//! configurations a path keeps stay condensed however deep it goes.

use super::*;
use std::rc::Rc;
use std::time::Duration;
use symex_semantics::syntax::parse_program;
use symex_semantics::system::Options;
use symex_semantics::{basic, recursive};

fn explore_basic(source: &str, options: &ExploreOptions) -> Tree {
    let program = Rc::new(parse_program(source).expect("the test program parses"));
    let system = basic::symbolic::Symbolic::new(program.clone(), Options::default())
        .expect("a basic program");
    explore(&system, system.initial(), &program.globals, options)
}

fn explore_recursive(source: &str, options: &ExploreOptions) -> Tree {
    let program = Rc::new(parse_program(source).expect("the test program parses"));
    let system = recursive::symbolic::Symbolic::new(program.clone(), Options::default())
        .expect("a recursive program");
    explore(&system, system.initial(), &program.globals, options)
}

fn statuses(tree: &Tree) -> Vec<String> {
    tree.paths
        .iter()
        .map(|&node| {
            tree.leaf(node)
                .map(|leaf| leaf.status.to_string())
                .unwrap_or_default()
        })
        .collect()
}

fn conditions(tree: &Tree) -> Vec<String> {
    let mut conditions: Vec<String> = tree
        .paths
        .iter()
        .filter_map(|&node| tree.leaf(node))
        .map(|leaf| leaf.path_condition.to_string())
        .collect();
    conditions.sort();
    conditions
}

const NESTED: &str = "if x > 0 { if x < 3 { y := 1 } else { y := 2 } } else { if x > 5 { y := 3 } else { y := 4 } }; if y > x { z := 1 }";

#[test]
fn depth_bound_ends_a_path_with_its_reason() {
    let options = ExploreOptions {
        bounds: Bounds {
            depth: 2,
            ..Bounds::default()
        },
        ..ExploreOptions::default()
    };
    let tree = explore_basic("x := 1; x := 2; x := 3", &options);
    assert_eq!(statuses(&tree), ["bounded (depth 2 reached)"]);
    assert_eq!(tree.stats.bounded, 1);
    assert_eq!(tree.nodes[tree.paths[0]].depth, 2);
}

#[test]
fn call_depth_bound_cuts_recursion() {
    let source = "proc down(n: int) { if n > 0 { down(n - 1) } } down(k)";
    let options = ExploreOptions {
        bounds: Bounds {
            unfold: 2,
            ..Bounds::default()
        },
        ..ExploreOptions::default()
    };
    let tree = explore_recursive(source, &options);
    assert_eq!(tree.stats.terminated, 2);
    assert_eq!(tree.stats.bounded, 1);
    assert!(statuses(&tree).contains(&"bounded (call depth bound 2)".to_string()));
}

#[test]
fn every_strategy_finds_the_same_paths_and_prunes_the_same_branches() {
    let dfs = explore_basic(NESTED, &ExploreOptions::default());
    assert_eq!(dfs.stats.paths, 3);
    assert_eq!(dfs.stats.pruned, 4);
    let deepest_first: Priority = Rc::new(|candidate: &Candidate| candidate.depth as i64);
    for strategy in [
        Strategy::Bfs,
        Strategy::Random { seed: 3 },
        Strategy::Depth,
        Strategy::Priority(deepest_first),
    ] {
        let tree = explore_basic(
            NESTED,
            &ExploreOptions {
                strategy: strategy.clone(),
                ..ExploreOptions::default()
            },
        );
        assert_eq!(conditions(&tree), conditions(&dfs), "{strategy:?}");
        assert_eq!(tree.stats.pruned, dfs.stats.pruned, "{strategy:?}");
    }
}

#[test]
fn models_satisfy_their_path_conditions() {
    let tree = explore_basic(
        NESTED,
        &ExploreOptions {
            strategy: Strategy::Bfs,
            ..ExploreOptions::default()
        },
    );
    for &node in &tree.paths {
        let leaf = tree.leaf(node).expect("a path ends at a leaf");
        let model = leaf.model.as_ref().expect("every path here is feasible");
        assert_eq!(
            symex_semantics::eval::eval_bool(&leaf.path_condition, model),
            Ok(true)
        );
    }
}

#[test]
fn an_exhausted_time_limit_leaves_the_frontier_unexplored() {
    let options = ExploreOptions {
        bounds: Bounds {
            time_limit: Some(Duration::ZERO),
            ..Bounds::default()
        },
        ..ExploreOptions::default()
    };
    let tree = explore_basic(NESTED, &options);
    assert!(tree.paths.is_empty());
    assert_eq!(tree.unexplored.len(), 1);
    assert_eq!(tree.unexplored[0].reason, Limit::TimeLimit);
}

#[test]
fn the_tree_serialises() {
    let tree = explore_basic("if b { x := 1 }", &ExploreOptions::default());
    let json = serde_json::to_value(&tree).expect("the tree serialises");
    assert_eq!(json["nodes"][1]["edge"]["rule"], "choice (then)");
    assert_eq!(json["nodes"][1]["edge"]["condition"], "b");
    assert_eq!(json["nodes"][2]["leaf"]["status"], "terminated");
    assert_eq!(json["stats"]["paths"], 2);
}

/// Records configurations, unfolding `unfold` times.
fn recording(unfold: usize, simplify: bool) -> ExploreOptions {
    ExploreOptions {
        bounds: Bounds {
            unfold,
            ..Bounds::default()
        },
        record_configurations: true,
        simplify,
        ..ExploreOptions::default()
    }
}

/// The deepest configurations of `source` explored with `unfold` and
/// `simplify`, as text, sorted.
fn deepest_configurations(source: &str, unfold: usize, simplify: bool) -> Vec<String> {
    deepest(&explore_basic(source, &recording(unfold, simplify)))
}

/// The configurations of the deepest nodes of `tree`, sorted.
fn deepest(tree: &Tree) -> Vec<String> {
    let depth = tree.nodes.iter().map(|node| node.depth).max();
    let mut deepest: Vec<String> = tree
        .nodes
        .iter()
        .filter(|node| Some(node.depth) == depth)
        .map(|node| {
            node.configuration
                .clone()
                .expect("configurations are recorded")
        })
        .collect();
    deepest.sort();
    deepest
}

#[test]
fn a_loop_configuration_stays_condensed_however_often_it_is_unfolded() {
    let up = "i := 0; while i < n { i := i + 1 }";
    assert_eq!(
        deepest_configurations(up, 40, true),
        [
            "⟨i := i + 1; while i < n { i := i + 1 }, [i := 40], n > 40⟩",
            "⟨ε, [i := 40], n = 40⟩"
        ]
    );
    let down = "while n > 0 { n := n - 1 }";
    assert_eq!(
        deepest_configurations(down, 40, true),
        [
            "⟨n := n - 1; while n > 0 { n := n - 1 }, [n := n - 40], n > 40⟩",
            "⟨ε, [n := n - 40], n = 40⟩"
        ]
    );
    // The paper's terms, one more `+ 1` and one more guard per unfolding.
    let raw = &deepest_configurations(up, 40, false)[0];
    assert!(
        raw.contains(&format!("[i := 0{}]", " + 1".repeat(40))),
        "{raw}"
    );
}

#[test]
fn a_recursive_configuration_stays_condensed_in_every_closure() {
    let source = "proc down(n: int) { if n > 0 { r := r + 1; down(n - 1) } } down(k)";
    let tree = explore_recursive(source, &recording(3, true));
    assert_eq!(deepest(&tree), ["⟨(id, ε), [r := r + 2], k = 2⟩"]);
    let bounded = "⟨([n := k - 3], if n > 0 { r := r + 1; down(n - 1) }) · ([n := k - 2], ε) · \
                   ([n := k - 1], ε) · ([n := k], ε) · (id, ε), [r := r + 3], k > 2⟩";
    assert!(tree
        .nodes
        .iter()
        .any(|node| node.configuration.as_deref() == Some(bounded)));
}
