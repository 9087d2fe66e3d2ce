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
    /// At most this many iterations of a loop each time it is entered
    /// (CBMC's `--unwind`); when set, it bounds loops instead of `unfold`.
    pub unwind: Option<usize>,
    /// Stop once this many paths are reported.
    pub max_paths: Option<usize>,
    /// Stop expanding after this long.
    pub time_limit: Option<Duration>,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            depth: 100_000,
            unfold: 10,
            unwind: None,
            max_paths: None,
            time_limit: None,
        }
    }
}

/// How often each loop body was entered on one path, or with `--unwind`
/// since the loop was last entered (persistent: forks share it).
#[derive(Clone, Default)]
pub(crate) struct Unfoldings(SmallMap<LoopId, usize>);

impl Unfoldings {
    /// The counts after a step by `rule` from a configuration whose next
    /// statement is `head`, or the bound it would exceed. With `--unwind`,
    /// a loop's exit sets its count back, so each entry of the loop gets
    /// its own iterations (a loop of a recursive procedure counts those of
    /// all its active calls together since one of them last left it).
    pub(crate) fn after(
        &self,
        rule: Rule,
        head: Option<&Stmt>,
        bounds: &Bounds,
    ) -> Result<Unfoldings, BoundReason> {
        let (bound, reason) = match bounds.unwind {
            Some(k) => (k, BoundReason::LoopUnwinding(k)),
            None => (bounds.unfold, BoundReason::LoopUnfolding(bounds.unfold)),
        };
        match (rule, head) {
            (Rule::IterationEnter, Some(Stmt::While(id, ..))) => {
                let count = self.0.get(id).copied().unwrap_or(0) + 1;
                if count > bound {
                    return Err(reason);
                }
                Ok(Unfoldings(self.0.update(*id, count)))
            }
            (Rule::IterationExit, Some(Stmt::While(id, ..)))
                if bounds.unwind.is_some() && self.0.get(id).is_some() =>
            {
                Ok(Unfoldings(self.0.update(*id, 0)))
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
