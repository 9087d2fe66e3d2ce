//! The paper's loop-targeted search as a hook on the explorer (Zhao et al.
//! 2017, Algorithms 1–4): each exit of a loop entry reports its count (the
//! pop of `⟨loop, count⟩` from `ζ`), the largest is kept with its path
//! condition; an entry at the cap is not followed further; a long entry
//! is summarised ([`super::accelerate`]); a path cut or undecided makes the
//! loops it is in, and those it could still reach, lower bounds only.

use super::accelerate::{accelerate, Summarised};
use super::{BoundOptions, Found, Shortfall, Sighting, ACCELERATE_AFTER};
use crate::explore::{Limit, LoopContext, LoopExit, LoopHook, PathNode, Status, Stop, UnknownReason};
use std::collections::{BTreeMap, BTreeSet};
use symex_semantics::program::{LoopId, Program, Stmt};
use symex_semantics::system::{Configuration, Rule, Step, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::Name;

pub(crate) struct Search<'a, S> {
    system: &'a S,
    options: &'a BoundOptions,
    /// The loops each procedure runs, directly or through its calls.
    procedure_loops: BTreeMap<Name, BTreeSet<LoopId>>,
    every_loop: BTreeSet<LoopId>,
    found: Found,
    /// Fresh names made by summaries so far.
    fresh: usize,
    /// Loops found not to be summarised: not tried again.
    unsummarised: BTreeSet<LoopId>,
}

impl<'a, S> Search<'a, S>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    pub(crate) fn new(
        program: &Program,
        system: &'a S,
        options: &'a BoundOptions,
    ) -> Search<'a, S> {
        let mut procedure_loops: BTreeMap<Name, BTreeSet<LoopId>> = BTreeMap::new();
        // Calls are followed to a fixed point: one round per procedure is enough.
        for _ in 0..=program.procedures.len() {
            for (name, procedure) in &program.procedures {
                let loops = loops_in(procedure.body.iter(), &procedure_loops);
                procedure_loops.insert(name.clone(), loops);
            }
        }
        Search {
            system,
            options,
            every_loop: program.loops.0.keys().copied().collect(),
            procedure_loops,
            found: Found::default(),
            fresh: 0,
            unsummarised: BTreeSet::new(),
        }
    }

    pub(crate) fn into_found(self) -> Found {
        self.found
    }

    fn sighted(&mut self, id: LoopId, sighting: Sighting) {
        let best = self.found.best.entry(id).or_insert_with(|| sighting.clone());
        if sighting.count > best.count {
            *best = sighting;
        }
    }

    /// The loops a path at `config` is in or may still reach fall short for `why`.
    fn fall_short(&mut self, config: &S::Config, context: &LoopContext, why: Shortfall) {
        let mut affected: BTreeSet<LoopId> = context.entries().iter().map(|e| e.id).collect();
        match config.continuation() {
            Some(statements) => {
                affected.extend(loops_in(statements.into_iter(), &self.procedure_loops))
            }
            None => affected.extend(self.every_loop.iter().copied()),
        }
        for id in affected {
            self.found.shortfalls.entry(id).or_insert_with(|| why.clone());
        }
    }
}

impl<S> LoopHook<S::Config> for Search<'_, S>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    /// At the head of a loop in its current entry: past the cap, the loop
    /// is left (the entry falls short); past [`ACCELERATE_AFTER`]
    /// iterations, summarised when it can be.
    fn steps(
        &mut self,
        config: &S::Config,
        context: &LoopContext,
        steps: Vec<Step<S::Config>>,
    ) -> Vec<Step<S::Config>> {
        let Some(Stmt::While(id, ..)) = config.head() else {
            return steps;
        };
        let Some(entry) = context
            .entries()
            .last()
            .filter(|entry| entry.id == *id && entry.frame == config.frames())
        else {
            return steps;
        };
        let long = entry.count >= ACCELERATE_AFTER && entry.count < self.options.cap;
        if long && !self.unsummarised.contains(id) {
            self.fresh += 1;
            let summarised = accelerate(
                self.system,
                config,
                entry.count,
                self.fresh,
                self.options,
            );
            if let Some(Summarised { exit, largest, shortfall }) = summarised {
                self.sighted(*id, largest);
                if let Some(why) = shortfall {
                    self.fall_short(config, context, why);
                }
                return vec![exit];
            }
            self.unsummarised.insert(*id);
        }
        if entry.count < self.options.cap {
            return steps;
        }
        self.fall_short(config, context, Shortfall::Cap(self.options.cap));
        steps
            .into_iter()
            .filter(|step| step.rule != Rule::IterationEnter)
            .collect()
    }

    fn exited(&mut self, exit: LoopExit, _node: &PathNode, config: &S::Config) {
        self.sighted(
            exit.id,
            Sighting {
                count: exit.count,
                condition: config.path_condition().clone(),
                accelerated: false,
            },
        );
    }

    fn stopped(&mut self, config: &S::Config, context: &LoopContext, stop: Stop<'_>) {
        let why = match stop {
            Stop::Ended(Status::Terminated | Status::Error(_) | Status::AssumptionViolated) => {
                // A path that halts inside loops leaves them all at their counts.
                for entry in context.entries() {
                    self.sighted(
                        entry.id,
                        Sighting {
                            count: entry.count,
                            condition: config.path_condition().clone(),
                            accelerated: false,
                        },
                    );
                }
                return;
            }
            Stop::Ended(Status::Infeasible) => return,
            Stop::Ended(Status::Unknown(UnknownReason::Solver)) => {
                self.found.undecided.push(config.path_condition().clone());
                Shortfall::SolverUnknown
            }
            Stop::Ended(status @ (Status::Bounded(_) | Status::Unknown(_))) => {
                Shortfall::Cut(status.to_string())
            }
            Stop::Unexplored(Limit::TimeLimit) => Shortfall::TimeLimit,
            Stop::Unexplored(limit) => Shortfall::Cut(limit.to_string()),
        };
        self.fall_short(config, context, why);
    }
}

/// The loops that running `statements` may enter: theirs, those nested in
/// them, and those of the procedures they call (`procedure_loops`).
fn loops_in<'s>(
    statements: impl Iterator<Item = &'s Stmt>,
    procedure_loops: &BTreeMap<Name, BTreeSet<LoopId>>,
) -> BTreeSet<LoopId> {
    let mut loops = BTreeSet::new();
    for statement in statements {
        match statement {
            Stmt::While(id, _, body) => {
                loops.insert(*id);
                loops.extend(loops_in(body.iter(), procedure_loops));
            }
            Stmt::If(_, then, otherwise) => {
                loops.extend(loops_in(then.iter().chain(otherwise.iter()), procedure_loops))
            }
            Stmt::Call(p, _) => loops.extend(procedure_loops.get(p).into_iter().flatten()),
            _ => {}
        }
    }
    loops
}
