//! Runs of a symbolic system, one successor chosen at every step.

use super::simulation::{Simulation, SymbolicConfig};
use symex_semantics::system::{Step, TransitionSystem};

/// `c₀ → c₁ → … → cₙ`, with the rule and guard of every step.
#[derive(Clone)]
pub struct SymbolicRun<C> {
    pub initial: C,
    pub steps: Vec<Step<C>>,
}

impl<C> SymbolicRun<C> {
    /// `c₀, c₁, …, cₙ`.
    pub fn configs(&self) -> impl Iterator<Item = &C> {
        std::iter::once(&self.initial).chain(self.steps.iter().map(|step| &step.next))
    }

    /// `cₙ`.
    pub fn last(&self) -> &C {
        self.steps.last().map_or(&self.initial, |step| &step.next)
    }

    /// The run cut after its first `n` steps.
    pub fn truncate(&mut self, n: usize) {
        self.steps.truncate(n);
    }
}

/// A run from `⟨S, id, true⟩` of at most `max_steps` steps: `choose` picks
/// the index of the successor to take, or `None` to stop there.
pub fn symbolic_run<M, F>(
    simulation: &M,
    max_steps: usize,
    mut choose: F,
) -> SymbolicRun<SymbolicConfig<M>>
where
    M: Simulation,
    F: FnMut(&SymbolicConfig<M>, &[Step<SymbolicConfig<M>>]) -> Option<usize>,
{
    let mut run = SymbolicRun {
        initial: simulation.symbolic_initial(),
        steps: Vec::new(),
    };
    while run.steps.len() < max_steps {
        let mut successors = simulation.symbolic().successors(run.last());
        let Some(index) = choose(run.last(), &successors).filter(|&i| i < successors.len()) else {
            break;
        };
        run.steps.push(successors.swap_remove(index));
    }
    run
}
