//! Bounds on an exploration: per path (`--depth`, `--unfold`) and global
//! (`--max-paths`, `--time-limit-ms`). Every cut is reported, never silent.

use super::tree::BoundReason;
use std::rc::Rc;
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
    /// At most this many input objects materialised on a path (lazy
    /// initialisation, `--max-objects`).
    pub max_objects: Option<usize>,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            depth: 100_000,
            unfold: 10,
            unwind: None,
            max_paths: None,
            time_limit: None,
            max_objects: None,
        }
    }
}

/// How often each loop body was entered on one path, or with `--unwind`
/// since the loop was last entered (persistent: forks share it).
#[derive(Clone, Default)]
pub(crate) struct Unfoldings(SmallMap<LoopId, usize>);

impl Unfoldings {
    /// The larger count of each loop: a joined configuration is cut where
    /// the longer of its paths would be.
    pub(crate) fn max(&self, other: &Unfoldings) -> Unfoldings {
        let mut counts = self.0.clone();
        for (id, n) in other.0.iter() {
            if counts.get(id).is_none_or(|m| m < n) {
                counts.insert(*id, *n);
            }
        }
        Unfoldings(counts)
    }

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

/// `Err` when `next` has materialised more input objects than `--max-objects`.
pub(crate) fn objects_within(
    next: &impl Configuration,
    bounds: &Bounds,
) -> Result<(), BoundReason> {
    match bounds.max_objects {
        Some(max) if next.materialised_objects() > max => Err(BoundReason::Objects(max)),
        _ => Ok(()),
    }
}

/// The loops a path is inside, outermost first, each with the frame it
/// runs in and the iterations of its current entry: the stack `ζ` of
/// `⟨loop, count⟩` of Zhao et al. (2017, §3.1). A loop entered again from
/// outside (an inner loop on the next iteration of the outer one, or in
/// another call of its procedure) counts from one again.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LoopContext(Rc<Vec<LoopEntry>>);

/// One entry of a loop on a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LoopEntry {
    pub id: LoopId,
    /// The depth of the stack of frames the loop runs in.
    pub frame: usize,
    /// Iterations so far: executions of the body begun in this entry.
    pub count: u64,
}

/// A path leaving a loop by its exit rule, after `count` iterations of this entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopExit {
    pub id: LoopId,
    pub count: u64,
}

impl LoopContext {
    /// The context after a step by `rule` from a configuration whose next
    /// statement is `head`, in a stack of `frames` frames, and the loop it
    /// leaves, if it leaves one.
    pub fn after(
        &self,
        rule: Rule,
        head: Option<&Stmt>,
        frames: usize,
    ) -> (LoopContext, Option<LoopExit>) {
        let Some(Stmt::While(id, ..)) = head else {
            return (self.clone(), None);
        };
        self.after_loop(rule, *id, frames)
    }

    /// [`LoopContext::after`] a step from the head of the loop `id`.
    pub fn after_loop(
        &self,
        rule: Rule,
        id: LoopId,
        frames: usize,
    ) -> (LoopContext, Option<LoopExit>) {
        let id = &id;
        let current = self
            .0
            .last()
            .filter(|entry| entry.id == *id && entry.frame == frames);
        match (rule, current) {
            (Rule::IterationEnter, Some(_)) => {
                let mut entries = (*self.0).clone();
                if let Some(entry) = entries.last_mut() {
                    entry.count += 1;
                }
                (LoopContext(Rc::new(entries)), None)
            }
            (Rule::IterationEnter, None) => {
                let mut entries = (*self.0).clone();
                entries.push(LoopEntry {
                    id: *id,
                    frame: frames,
                    count: 1,
                });
                (LoopContext(Rc::new(entries)), None)
            }
            (Rule::IterationExit, current) => {
                let count = current.map_or(0, |entry| entry.count);
                let context = match current {
                    Some(_) => LoopContext(Rc::new(self.0[..self.0.len() - 1].to_vec())),
                    None => self.clone(),
                };
                (context, Some(LoopExit { id: *id, count }))
            }
            _ => (self.clone(), None),
        }
    }

    /// The loops the path is inside, outermost first.
    pub fn entries(&self) -> &[LoopEntry] {
        &self.0
    }
}
