//! Concrete runs: one loop for `symex run`, test replay and the confirmation
//! of counterexamples.

use symex_semantics::program::Outcome;
use symex_semantics::system::{Configuration, Rule, TransitionSystem};

/// How a concrete run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// A terminal configuration.
    Finished(Outcome),
    /// `max_steps` transitions taken.
    StepLimit,
    /// Not terminal, yet no rule applies: the inputs do not fit the program.
    Stuck,
}

/// The end of a concrete run.
pub struct Run<C> {
    pub end: RunEnd,
    pub last: C,
    pub steps: usize,
}

/// Runs the concrete `system` from `initial` for at most `max_steps`
/// transitions, showing each step (rule and configuration reached) to `observe`.
pub fn run<S>(system: &S, initial: S::Config, max_steps: usize, mut observe: impl FnMut(Rule, &S::Config)) -> Run<S::Config>
where
    S: TransitionSystem,
    S::Config: Configuration,
{
    let mut config = initial;
    let mut steps = 0;
    loop {
        if let Some(outcome) = config.outcome() {
            return Run { end: RunEnd::Finished(outcome), last: config, steps };
        }
        if steps >= max_steps {
            return Run { end: RunEnd::StepLimit, last: config, steps };
        }
        let Some(step) = system.successors(&config).into_iter().next() else {
            return Run { end: RunEnd::Stuck, last: config, steps };
        };
        observe(step.rule, &step.next);
        config = step.next;
        steps += 1;
    }
}
