//! The engine on small programs: bounds end paths with their reason, every
//! strategy finds the same paths, and the solver stack stays in step with
//! the tree when the strategy jumps between branches.

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
    let program = Rc::new(parse_program(source).expect("the test program parses"));
    let system = recursive::symbolic::Symbolic::new(program.clone(), Options::default())
        .expect("a recursive program");
    let options = ExploreOptions {
        bounds: Bounds {
            unfold: 2,
            ..Bounds::default()
        },
        ..ExploreOptions::default()
    };
    let tree = explore(&system, system.initial(), &program.globals, &options);
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
