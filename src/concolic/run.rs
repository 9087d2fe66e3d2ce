//! One concolic run: the concrete semantics on an input, with the symbolic
//! computation it selects beside it — at every step the symbolic successor
//! by the same rule whose guard the input satisfies (the construction in
//! the proof of Theorem 2.4, [`selected`]) — recording the path condition,
//! the forks passed and the coverage. The run is cut where the explorer
//! would cut the path (`--depth`, `--unfold`), so that both see the same
//! paths.

use super::coverage::{Coverage, Site, Sites};
use crate::explore::run::{self as concrete, RunEnd, RunLimits};
use crate::explore::{calls_within, BoundReason, Bounds, Status, Unfoldings, UnknownReason};
use symex_semantics::eval::Valuation;
use symex_semantics::system::{
    selected, ConcreteConfiguration, Configuration, Rule, Step, SymbolicConfiguration,
    TransitionSystem,
};

/// A language's two transition systems, ready to start.
pub struct Systems<'a, S: TransitionSystem, C: TransitionSystem> {
    pub symbolic: &'a S,
    pub initial: &'a S::Config,
    pub concrete: &'a C,
    /// The initial concrete configuration for some inputs.
    pub start: &'a dyn Fn(Valuation) -> C::Config,
}

/// A configuration with more than one symbolic successor that a run
/// passed, or an `assume` whose condition its input violated (the run ends
/// there; the one successor, the assumption holding, is the other way).
pub struct Fork<C> {
    /// Transitions taken before it.
    pub step: usize,
    /// The successor the run took, an index into `successors`; `None`
    /// where it left the program's domain (`assume`).
    pub taken: Option<usize>,
    /// The statement the fork is at, if the program has it as written.
    pub site: Option<Site>,
    /// Every successor, in rule order: each one's path condition is the
    /// path's up to here with that successor's guard.
    pub successors: Vec<Step<C>>,
}

impl<C> Fork<C> {
    /// The rule of the way the run took.
    pub fn rule(&self) -> Rule {
        match self.taken {
            Some(taken) => self.successors[taken].rule,
            None => Rule::AssumptionViolated,
        }
    }

    /// The successors the run did not take: the ways to negate the fork.
    pub fn others(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.successors.len()).filter(|&j| Some(j) != self.taken)
    }
}

/// A run and the symbolic path it followed.
pub struct Run<C> {
    pub input: Valuation,
    /// The index of the symbolic successor taken at every step.
    pub choices: Vec<usize>,
    pub rules: Vec<Rule>,
    pub forks: Vec<Fork<C>>,
    pub status: Status,
    /// The last symbolic configuration: its path condition and state.
    pub last: C,
    /// How the concrete run ends: where the path ends, or, for a path cut
    /// by a bound, where the run goes on to end alone (within `max_steps`
    /// transitions in all, as `symex run --max-steps` would), so that the
    /// input is a test whose outcome `symex run` reproduces.
    pub ending: RunEnd,
    /// The concrete run's final state on the globals.
    pub final_state: Valuation,
    pub coverage: Coverage,
}

/// Runs `input` on the concrete semantics with the symbolic computation
/// beside it, a run cut by `bounds` going on alone to `max_steps`
/// transitions in all; an error when the two systems disagree (a concrete step with
/// no symbolic counterpart other than a violated `assume`).
pub fn run<S, C>(
    systems: &Systems<'_, S, C>,
    sites: &Sites,
    input: Valuation,
    bounds: &Bounds,
    max_steps: usize,
) -> Result<Run<S::Config>, String>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
    C: TransitionSystem,
    C::Config: ConcreteConfiguration,
{
    let mut concrete = (systems.start)(input.clone());
    let mut symbolic = systems.initial.clone();
    let mut unfoldings = Unfoldings::default();
    let mut choices = Vec::new();
    let mut rules = Vec::new();
    let mut forks = Vec::new();
    let mut coverage = Coverage::default();
    let status = loop {
        let cut = match symbolic.outcome() {
            Some(outcome) => Some(Status::from(outcome)),
            None if choices.len() >= bounds.depth => {
                Some(Status::Bounded(BoundReason::Depth(choices.len())))
            }
            None => None,
        };
        if let Some(status) = cut {
            break status;
        }
        let step = match systems.concrete.try_successors(&concrete) {
            Ok(steps) => steps.into_iter().next(),
            Err(error) if error.is_too_large() => {
                break Status::Unknown(UnknownReason::IntegerBound);
            }
            Err(_) => None,
        };
        let Some(step) = step else {
            break Status::Unknown(UnknownReason::Stuck);
        };
        let mut successors = systems.symbolic.successors(&symbolic);
        let Some(taken) = selected(&successors, step.rule, &input) else {
            if step.rule == Rule::AssumptionViolated {
                sites.record(&mut coverage, concrete.head(), step.rule);
                forks.push(Fork {
                    step: choices.len(),
                    taken: None,
                    site: symbolic.head().and_then(|stmt| sites.site(stmt)),
                    successors,
                });
                break Status::AssumptionViolated;
            }
            return Err(format!(
                "the concrete run takes {} at step {}, but no symbolic step by that rule has a guard the input satisfies",
                step.rule,
                choices.len() + 1
            ));
        };
        sites.record(&mut coverage, concrete.head(), step.rule);
        let bound = unfoldings
            .after(step.rule, symbolic.head(), bounds)
            .map(|counts| unfoldings = counts)
            .and_then(|()| calls_within(step.rule, &successors[taken].next, bounds));
        let next = if successors.len() > 1 {
            let next = successors[taken].next.clone();
            forks.push(Fork {
                step: choices.len(),
                taken: Some(taken),
                site: symbolic.head().and_then(|stmt| sites.site(stmt)),
                successors,
            });
            next
        } else {
            successors.swap_remove(taken).next
        };
        symbolic = next;
        concrete = step.next;
        choices.push(taken);
        rules.push(step.rule);
        if let Err(reason) = bound {
            break Status::Bounded(reason);
        }
    };
    let (ending, concrete) = match &status {
        Status::Bounded(_) => {
            let limits = RunLimits::steps(max_steps.saturating_sub(choices.len()));
            let rest = concrete::run(systems.concrete, concrete, limits, |_, _| {});
            (rest.end, rest.last)
        }
        Status::Unknown(UnknownReason::IntegerBound) => (RunEnd::IntegerBound, concrete),
        Status::Unknown(_) => (RunEnd::Stuck, concrete),
        other => match other.outcome() {
            Some(outcome) => (RunEnd::Finished(outcome), concrete),
            None => (RunEnd::Stuck, concrete),
        },
    };
    Ok(Run {
        input,
        choices,
        rules,
        forks,
        status,
        last: symbolic,
        ending,
        final_state: concrete.global_state(),
        coverage,
    })
}
