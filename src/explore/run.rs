//! Concrete runs: one loop for `symex run`, test replay and the confirmation
//! of counterexamples.

use std::fmt;
use std::time::Instant;
use symex_semantics::program::{ErrorKind, Halt, Outcome};
use symex_semantics::system::{Configuration, Rule, TransitionSystem};

/// The transitions a concrete run takes at most unless told otherwise
/// (`symex run --max-steps`).
pub const MAX_STEPS: usize = 1_000_000;

/// How a concrete run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// A terminal configuration.
    Finished(Outcome),
    /// `max_steps` transitions taken.
    StepLimit,
    /// The deadline passed (checked between steps).
    TimeLimit,
    /// The user's Ctrl-C (checked between steps, [`crate::stop`]).
    Interrupted,
    /// The next step computes an integer beyond the evaluator's bound
    /// (`symex_semantics::eval::MAX_INTEGER_BITS`).
    IntegerBound,
    /// Not terminal, yet no rule applies: the inputs do not fit the program.
    Stuck,
}

impl RunEnd {
    /// The error the run ended in, if it did.
    pub fn error(self) -> Option<ErrorKind> {
        match self {
            RunEnd::Finished(Outcome::Halted(Halt::Error(kind))) => Some(kind),
            _ => None,
        }
    }
}

impl fmt::Display for RunEnd {
    /// As `symex run` names it: `terminated`, `assertion-failed`, `step-limit`, …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunEnd::Finished(outcome) => write!(f, "{outcome}"),
            RunEnd::StepLimit => f.write_str("step-limit"),
            RunEnd::TimeLimit => f.write_str("time-limit"),
            RunEnd::Interrupted => f.write_str("interrupted"),
            RunEnd::IntegerBound => f.write_str("integer-bound"),
            RunEnd::Stuck => f.write_str("stuck"),
        }
    }
}

/// The end of a concrete run.
pub struct Run<C> {
    pub end: RunEnd,
    pub last: C,
    pub steps: usize,
}

/// When a concrete run stops if it has not finished.
#[derive(Clone, Copy, Debug)]
pub struct RunLimits {
    pub max_steps: usize,
    pub deadline: Option<Instant>,
}

impl RunLimits {
    /// At most `max_steps` transitions, however long they take.
    pub fn steps(max_steps: usize) -> RunLimits {
        RunLimits {
            max_steps,
            deadline: None,
        }
    }
}

/// Runs the concrete `system` from `initial` within `limits`, showing each
/// step (rule and configuration reached) to `observe`.
pub fn run<S>(
    system: &S,
    initial: S::Config,
    limits: RunLimits,
    mut observe: impl FnMut(Rule, &S::Config),
) -> Run<S::Config>
where
    S: TransitionSystem,
    S::Config: Configuration,
{
    let mut config = initial;
    let mut steps = 0;
    loop {
        let cut = if let Some(outcome) = config.outcome() {
            Some(RunEnd::Finished(outcome))
        } else if steps >= limits.max_steps {
            Some(RunEnd::StepLimit)
        } else if crate::stop::interrupted() {
            Some(RunEnd::Interrupted)
        } else if limits
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
        {
            Some(RunEnd::TimeLimit)
        } else {
            None
        };
        if let Some(end) = cut {
            return Run {
                end,
                last: config,
                steps,
            };
        }
        let step = match system.try_successors(&config) {
            Ok(successors) => successors.into_iter().next(),
            Err(error) if error.is_too_large() => {
                return Run {
                    end: RunEnd::IntegerBound,
                    last: config,
                    steps,
                }
            }
            Err(_) => None,
        };
        let Some(step) = step else {
            return Run {
                end: RunEnd::Stuck,
                last: config,
                steps,
            };
        };
        observe(step.rule, &step.next);
        config = step.next;
        steps += 1;
    }
}
