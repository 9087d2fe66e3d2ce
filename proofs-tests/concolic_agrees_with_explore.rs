//! Concolic search agrees with the symbolic executor: on a program whose
//! tree is finite within the bounds (no path the solver left undecided),
//! concolic search from a random input, run until its worklist is empty,
//! reaches exactly the feasible paths the explorer lists — the same rule
//! sequences ending the same way — besides runs whose input violates an
//! `assume` (outside the program's domain, which the explorer does not list).
//! Each path is reached once: generational search negates each branch of
//! a run below the one that produced it, the ones above having been
//! negated before. It must catch a search that never negates a run's last
//! branch.

use crate::distribution::{self, Required};
use crate::generators::{BasicProgram, Inputs};
use crate::{build, catches_on, holds_on, Real, TIMEOUT_MS};
use quickcheck::TestResult;
use std::collections::BTreeSet;
use std::io;
use symex::concolic::coverage::Sites;
use symex::concolic::run::Systems;
use symex::concolic::{search, ConcolicOptions, Expansion, Iteration, Listener, Origin, Stop};
use symex::explore::{explore, Bounds, ExploreOptions, Status};
use symex::theorems::Simulation;
use symex_semantics::eval::Valuation;
use symex_semantics::system::Rule;

/// Half the usual number of cases (500 by default): each explores a tree
/// and negates every branch of it with Z3, a few milliseconds of CPU.
fn half() -> u64 {
    (crate::cases() / 2).max(1)
}

/// Explorer and concolic search cut paths alike.
fn bounds() -> Bounds {
    Bounds {
        unfold: 2,
        depth: 400,
        ..Bounds::default()
    }
}

/// Trees with more paths are left out (a case would take long).
pub(crate) const MOST_PATHS: usize = 16;

/// What the iterations of a case exercised.
#[derive(Default)]
struct Tally {
    negated: bool,
    outside: bool,
}

impl Listener for Tally {
    fn iteration(&mut self, iteration: &Iteration<'_>) -> io::Result<()> {
        self.negated |= matches!(iteration.origin, Origin::Flip { .. });
        self.outside |= *iteration.status == Status::AssumptionViolated;
        Ok(())
    }
}

type PathSet = BTreeSet<(Vec<Rule>, String)>;

fn agrees(program: BasicProgram, inputs: Inputs, expansion: Expansion) -> TestResult {
    let simulation = match build::<Real>(&program, false) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    let options = ExploreOptions {
        bounds: bounds(),
        timeout_ms: TIMEOUT_MS,
        ..ExploreOptions::default()
    };
    let initial = simulation.symbolic_initial();
    let tree = explore(
        simulation.symbolic(),
        initial.clone(),
        simulation.inputs(),
        &options,
    );
    let leaves: Vec<_> = tree
        .paths
        .iter()
        .filter_map(|&node| tree.leaf(node).map(|leaf| (node, leaf)))
        .collect();
    if leaves.len() > MOST_PATHS
        || leaves
            .iter()
            .any(|(_, leaf)| matches!(leaf.status, Status::Unknown(_)))
    {
        return TestResult::discard();
    }
    let explored: PathSet = leaves
        .iter()
        .map(|(node, leaf)| (tree.rules_to(*node), leaf.status.to_string()))
        .collect();
    let sites = Sites::new(program.0.clone());
    let concolic = concolic_options(expansion);
    let mut tally = Tally::default();
    let searched = on_systems(&simulation, |systems| {
        search(systems, &sites, vec![inputs.0], &concolic, &mut tally)
    });
    let summary = match searched {
        Ok(Ok(summary)) => summary,
        Ok(Err(why)) => return TestResult::error(why),
        Err(error) => return TestResult::error(error.to_string()),
    };
    if summary.flips.undecided > 0 {
        return TestResult::discard();
    }
    if summary.stop != Stop::WorklistEmpty {
        return TestResult::error(format!("the search stopped: {}", summary.stop.name()));
    }
    let reached: PathSet = summary
        .tests
        .iter()
        .filter(|test| test.status != Status::AssumptionViolated)
        .map(|test| (test.rules.clone(), test.status.to_string()))
        .collect();
    if tally.negated {
        distribution::record_case("negated branch");
    }
    if tally.outside {
        distribution::record_case("outside the domain");
    }
    if summary.flips.infeasible > 0 {
        distribution::record_case("infeasible negation");
    }
    if explored.len() > 1 {
        distribution::record_case("several paths");
    }
    if explored
        .iter()
        .any(|(_, status)| status.starts_with("bounded"))
    {
        distribution::record_case("bounded path");
    }
    if reached == explored {
        TestResult::passed()
    } else {
        let missed: Vec<_> = explored.difference(&reached).collect();
        let extra: Vec<_> = reached.difference(&explored).collect();
        TestResult::error(format!(
            "concolic search missed {missed:?} and reached {extra:?} besides the explorer's paths"
        ))
    }
}

/// `with` on the systems of `simulation`.
pub(crate) fn on_systems<M: Simulation, T>(
    simulation: &M,
    with: impl FnOnce(&Systems<'_, M::Symbolic, M::Concrete>) -> T,
) -> T {
    let initial = simulation.symbolic_initial();
    let start = |v: Valuation| simulation.concrete_initial(&v);
    with(&Systems {
        symbolic: simulation.symbolic(),
        initial: &initial,
        concrete: simulation.concrete(),
        start: &start,
    })
}

/// The search's options: the explorer's bounds.
pub(crate) fn concolic_options(expansion: Expansion) -> ConcolicOptions {
    ConcolicOptions {
        bounds: bounds(),
        timeout_ms: TIMEOUT_MS,
        // Paths are compared, not where a cut run would end alone: no run
        // goes on past its cut (a looping one would take a million steps).
        max_steps: 0,
        expansion,
        ..ConcolicOptions::default()
    }
}

fn generational(program: BasicProgram, inputs: Inputs) -> TestResult {
    agrees(program, inputs, Expansion::Generational)
}

fn keeping_the_last_branch(program: BasicProgram, inputs: Inputs) -> TestResult {
    agrees(program, inputs, Expansion::KeepsLastBranch)
}

fn required() -> Required {
    Required::frequent(&[
        "negated branch",
        "infeasible negation",
        "several paths",
        "bounded path",
        "outside the domain",
    ])
}

#[test]
fn concolic_search_reaches_the_explorers_paths() {
    holds_on(
        "concolic search agrees with the explorer",
        half(),
        &required(),
        generational as fn(BasicProgram, Inputs) -> TestResult,
    );
}

#[test]
fn the_agreement_catches_a_search_that_never_negates_the_last_branch() {
    catches_on(
        "concolic search that never negates a run's last branch",
        half(),
        &required(),
        keeping_the_last_branch as fn(BasicProgram, Inputs) -> TestResult,
    );
}
