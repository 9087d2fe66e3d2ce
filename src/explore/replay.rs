//! Replaying a path of the tree on the concrete semantics (Theorem 2.3's
//! direction from symbolic to concrete): run the path's model and check that
//! the run takes the same rules, ends the same way, and in the state `V ∘ σ`
//! the path predicts.

use super::run::{run, RunEnd, RunLimits};
use super::tree::{Leaf, NodeId, Tree};
use symex_semantics::eval::Valuation;
use symex_semantics::program::Outcome;
use symex_semantics::system::{ConcreteConfiguration, Rule, TransitionSystem};

/// What the path predicts for its model, and whether the concrete run agrees.
pub struct Replay {
    pub inputs: Valuation,
    pub expected_outcome: Outcome,
    /// `V ∘ σ` on the global variables.
    pub expected_state: Valuation,
    /// `None` when the run agrees, else how it differs.
    pub mismatch: Option<String>,
    /// Whether the concrete run stopped at a limit of the implementation
    /// (an integer beyond the evaluator's bound): its `mismatch` then says
    /// the replay is undecided, not that the path is wrong.
    pub cut: bool,
}

/// How a replay ended.
pub enum Verdict<'a> {
    /// The concrete run agrees with the path.
    Replayed,
    /// The run stopped at a limit of the implementation; why.
    Undecided(&'a str),
    /// The run differs from the path; how.
    Failed(&'a str),
}

impl Replay {
    pub fn verdict(&self) -> Verdict<'_> {
        match &self.mismatch {
            None => Verdict::Replayed,
            Some(why) if self.cut => Verdict::Undecided(why),
            Some(why) => Verdict::Failed(why),
        }
    }
}

/// Replays the path ending at `node`; `None` for a path with no model or
/// that did not run to its end.
pub fn replay<C>(
    tree: &Tree,
    node: NodeId,
    concrete: &C,
    start: impl FnOnce(Valuation) -> C::Config,
) -> Option<Replay>
where
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    let route = if tree.joined_to(node) {
        Route::Joined {
            depth: tree.nodes[node].depth,
        }
    } else {
        Route::Rules(tree.rules_to(node))
    };
    replay_leaf(tree.leaf(node)?, route, concrete, start)
}

/// What a replay must follow to reach a leaf.
pub enum Route {
    /// Every rule of the path, in order.
    Rules(Vec<Rule>),
    /// A path through a join (state merging) takes the rules of one of the
    /// paths joined there, whichever its input selects, in at most the
    /// longest's steps (`depth`): only its end and final state are predicted.
    Joined { depth: usize },
}

/// Replays the path that takes `route` to `leaf` (see [`replay`]).
pub fn replay_leaf<C>(
    leaf: &Leaf,
    route: Route,
    concrete: &C,
    start: impl FnOnce(Valuation) -> C::Config,
) -> Option<Replay>
where
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    replay_path(leaf, route, concrete, start, |_, _| {})
}

/// Replays the path that takes `route` to `leaf`, showing each concrete
/// step to `observe`; `None` for a path with no model or that did not run
/// to its end.
pub fn replay_path<C>(
    leaf: &Leaf,
    route: Route,
    concrete: &C,
    start: impl FnOnce(Valuation) -> C::Config,
    mut observe: impl FnMut(Rule, &C::Config),
) -> Option<Replay>
where
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    let inputs = leaf.model.clone()?;
    let expected_outcome = leaf.status.outcome()?;
    let (expected_state, mut mismatch) = match leaf.prediction.clone()? {
        Ok(state) => (state, None),
        Err(why) => (Valuation::new(), Some(why)),
    };
    // A lazy initialisation is no step of the program.
    let (expected_rules, max_steps) = match route {
        Route::Rules(rules) => {
            let rules: Vec<_> = rules.into_iter().filter(|rule| !rule.is_lazy()).collect();
            let steps = rules.len();
            (rules, steps)
        }
        Route::Joined { depth } => (Vec::new(), depth),
    };
    let mut rules = Vec::with_capacity(expected_rules.len());
    let finished = run(
        concrete,
        start(inputs.clone()),
        RunLimits::steps(max_steps),
        |rule, config| {
            rules.push(rule);
            observe(rule, config);
        },
    );
    let cut = finished.end == RunEnd::IntegerBound;
    let final_state = finished.last.global_state();
    if cut {
        mismatch = Some(format!("undecided: after {} steps the concrete run reaches an integer beyond the evaluator's bound", finished.steps));
    } else if let Some(step) = rules
        .iter()
        .zip(&expected_rules)
        .position(|(taken, expected)| taken != expected)
    {
        mismatch = Some(format!(
            "step {}: the concrete run took `{}` where the path takes `{}`",
            step + 1,
            rules[step],
            expected_rules[step]
        ));
    } else if finished.end != RunEnd::Finished(expected_outcome) {
        let ended = match finished.end {
            RunEnd::Finished(outcome) => outcome.to_string(),
            RunEnd::StepLimit | RunEnd::TimeLimit | RunEnd::Interrupted | RunEnd::IntegerBound => {
                "not finished".to_string()
            }
            RunEnd::Stuck => "stuck".to_string(),
        };
        mismatch = Some(format!(
            "after {} steps the concrete run is {ended}, the path predicts {expected_outcome}",
            finished.steps
        ));
    } else if let Some(difference) = state_difference(&expected_state, &final_state) {
        mismatch = mismatch.or(Some(difference));
    }
    Some(Replay {
        inputs,
        expected_outcome,
        expected_state,
        mismatch,
        cut,
    })
}

/// How `actual`, a final state, differs from `expected` (on the variables
/// `expected` gives, and the heap), if it does.
pub fn state_difference(expected: &Valuation, actual: &Valuation) -> Option<String> {
    if let Some((x, value)) = expected
        .iter()
        .find(|(x, value)| actual.get(x) != Some(*value))
    {
        let found = actual
            .get(x)
            .map_or_else(|| "no value".to_string(), |v| v.to_string());
        return Some(format!("`{x}` ends as {found}, the path predicts {value}"));
    }
    (actual.heap != expected.heap).then(|| {
        format!(
            "the heap ends as {}, the path predicts {}",
            actual.heap, expected.heap
        )
    })
}
