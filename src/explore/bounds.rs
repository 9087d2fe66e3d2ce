//! Bounds on an exploration: per path (`--depth`, `--unfold`) and global
//! (`--max-paths`, `--time-limit-ms`). Every cut is reported, never silent.

use super::tree::BoundReason;
use std::time::Duration;
use symex_semantics::program::{LoopId, Stmt};
use symex_semantics::small_map::SmallMap;
use symex_semantics::system::{Configuration, Rule};

/// The limits of an exploration (SPEC §2 defaults).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// At most this many transitions on a path.
    pub depth: usize,
    /// At most this many executions of the body of any one loop, and this
    /// many nested active calls of any one procedure, on a path.
    pub unfold: usize,
    /// Stop once this many paths are reported.
    pub max_paths: Option<usize>,
    /// Stop expanding after this long.
    pub time_limit: Option<Duration>,
    /// At most this many input objects materialised on a path (lazy
    /// initialisation, `--max-objects`).
    pub max_objects: Option<usize>,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            depth: 100_000,
            unfold: 10,
            max_paths: None,
            time_limit: None,
            max_objects: None,
        }
    }
}

/// How often each loop body was entered on one path (persistent: forks share it).
#[derive(Clone, Default)]
pub(crate) struct Unfoldings(SmallMap<LoopId, usize>);

impl Unfoldings {
    /// The counts after a step by `rule` from a configuration whose next
    /// statement is `head`, or the bound it would exceed.
    pub(crate) fn after(
        &self,
        rule: Rule,
        head: Option<&Stmt>,
        bounds: &Bounds,
    ) -> Result<Unfoldings, BoundReason> {
        match (rule, head) {
            (Rule::IterationEnter, Some(Stmt::While(id, ..))) => {
                let count = self.0.get(id).copied().unwrap_or(0) + 1;
                if count > bounds.unfold {
                    return Err(BoundReason::LoopUnfolding(bounds.unfold));
                }
                Ok(Unfoldings(self.0.update(*id, count)))
            }
            _ => Ok(self.clone()),
        }
    }
}

/// `Err` when the step by `rule` to `next` makes more than `--unfold`
/// calls of one procedure active. Only a call adds an active call, and
/// counting them walks the whole stack, so they are counted after calls
/// only (not after every step of every body).
pub(crate) fn calls_within(
    rule: Rule,
    next: &impl Configuration,
    bounds: &Bounds,
) -> Result<(), BoundReason> {
    let call = matches!(rule, Rule::ProcedureCall | Rule::MethodCall);
    if call && next.max_active_calls() > bounds.unfold {
        return Err(BoundReason::CallDepth(bounds.unfold));
    }
    Ok(())
}

/// `Err` when `next` has materialised more input objects than `--max-objects`.
pub(crate) fn objects_within(next: &impl Configuration, bounds: &Bounds) -> Result<(), BoundReason> {
    match bounds.max_objects {
        Some(max) if next.materialised_objects() > max => Err(BoundReason::Objects(max)),
        _ => Ok(()),
    }
}
