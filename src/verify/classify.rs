//! What a failed path of a verification program means. Its model is first
//! replayed on the verification program (it must take the same rules and
//! fail the same way). Then:
//! - a path of the main statement whose inputs, run on the program with
//!   its annotations checked ([`symex_semantics::annotations::instrument`]),
//!   make it fail, is a counterexample — whatever cut points it passed;
//! - a path that begins at a cut point whose assertion the user wrote (a
//!   loop's invariant, a callee's `ensures`), or at the entry of a body
//!   with a contract, shows that a Floyd condition does not hold: from
//!   the state there, which satisfies the assertion but may be
//!   unreachable, the path breaks the condition;
//! - a path from k-induction's arbitrary state decides nothing (the
//!   property is not k-inductive for this `k`), nor does an undecided one.

use super::conditions::{Condition, CutPoint, Unit};
use super::encode::Encoding;
use super::observer::FailedPath;
use super::Verifier;
use crate::explore::run::RunEnd;
use crate::explore::{Status, TraceEntry};
use symex_semantics::annotations::{is_ghost, CHECK};
use symex_semantics::eval::Valuation;
use symex_semantics::oo::action::{Action, Location};
use symex_semantics::oo::fresh::is_fresh;
use symex_semantics::program::{ErrorKind, Halt, Outcome, Stmt};
use symex_semantics::term::Term;
use symex_semantics::value::Value;

/// A failed path, classified.
pub struct Failure {
    /// The condition the path fails (`None` for an error of the program
    /// that no assertion states, such as `array-out-of-bound`).
    pub condition: Option<Condition>,
    /// How the path ended.
    pub status: Status,
    pub kind: FailureKind,
    /// The path's number in its exploration.
    pub path: usize,
    pub path_condition: Term,
    /// The path's trace, without the ghosts' assignments.
    pub trace: Vec<TraceEntry>,
}

/// What a failure shows.
pub enum FailureKind {
    /// Inputs of the program that make it fail when run with its
    /// annotations checked.
    Counterexample {
        inputs: Valuation,
        /// How the run failed, and which check (the labelled assertion's
        /// description) when an assertion failed.
        error: ErrorKind,
        check: Option<String>,
    },
    /// A state at a cut point (satisfying its assertion, perhaps
    /// unreachable) from which the path breaks the condition, and the
    /// state where it does.
    FromCutPoint {
        cut_point: CutPoint,
        at_cut_point: Valuation,
        at_failure: Valuation,
    },
    /// An entry state of a body (its `requires` holds; perhaps no call
    /// has it) from which the body breaks the condition.
    FromEntry {
        at_entry: Valuation,
        at_failure: Valuation,
    },
    /// Nothing decided, and why.
    Undecided(String),
    /// The step case of k-induction fails from an arbitrary state at the
    /// loop head: the property is not k-inductive for this `k`.
    InductionStep {
        at_cut_point: Valuation,
        at_failure: Valuation,
    },
}

impl FailureKind {
    /// Whether the failure decides that a condition fails.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            FailureKind::Counterexample { .. }
                | FailureKind::FromCutPoint { .. }
                | FailureKind::FromEntry { .. }
        )
    }

    pub fn is_induction_step(&self) -> bool {
        matches!(self, FailureKind::InductionStep { .. })
    }
}

/// `state` without ghosts, inputs read by `havoc` and values at entry:
/// the program's own variables.
pub fn shown(state: &Valuation) -> Valuation {
    state.clone().retain(|x| {
        !is_ghost(x) && !is_fresh(x) && x.chars().all(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The state after the last `havoc` of a cut point on the path (a `havoc`
/// of ghosts alone is k-induction's choice, not a cut point).
fn at_cut_point(trace: &[TraceEntry], after_havocs: &[Valuation]) -> Valuation {
    let havocs = trace.iter().filter_map(|entry| match entry {
        TraceEntry::Statement(Stmt::Havoc(vars)) => Some(vars),
        _ => None,
    });
    let last = havocs
        .enumerate()
        .filter(|(_, vars)| vars.is_empty() || vars.iter().any(|(x, _)| !is_ghost(x)))
        .map(|(i, _)| i)
        .last();
    last.and_then(|i| after_havocs.get(i))
        .map(shown)
        .unwrap_or_default()
}

/// Whether a trace entry is about ghosts only: assigns one (a label, a
/// cut point's number, a value at entry), reads them (k-induction's
/// choice), or tests them.
fn is_ghost_entry(entry: &TraceEntry) -> bool {
    let all_ghosts = |e: &Term| {
        let vars = e.free_vars();
        !vars.is_empty() && vars.keys().all(|x| is_ghost(x))
    };
    match entry {
        TraceEntry::Statement(Stmt::Assign(x, _))
        | TraceEntry::Action(Action::Assign(Location::Var(x, _), _)) => is_ghost(x),
        TraceEntry::Statement(Stmt::Havoc(vars)) => {
            !vars.is_empty() && vars.iter().all(|(x, _)| is_ghost(x))
        }
        TraceEntry::Condition(b) | TraceEntry::Action(Action::Test(b)) => all_ghosts(b),
        _ => false,
    }
}

/// Classifies `failed`, a path of `encoding`, the program of `unit`.
pub fn classify(
    verifier: &Verifier,
    unit: &Unit,
    encoding: &Encoding,
    failed: &FailedPath,
) -> Failure {
    let status = failed.leaf.status.clone();
    let condition = failed
        .label
        .filter(|_| {
            matches!(
                status,
                Status::Error(ErrorKind::AssertionFailed) | Status::Unknown(_)
            )
        })
        .and_then(|label| encoding.condition(label))
        .cloned();
    let kind = kind(verifier, unit, encoding, failed);
    Failure {
        condition,
        status,
        kind,
        path: failed.path,
        path_condition: failed.leaf.path_condition.clone(),
        trace: failed
            .trace
            .iter()
            .filter(|entry| !is_ghost_entry(entry))
            .cloned()
            .collect(),
    }
}

fn kind(verifier: &Verifier, unit: &Unit, encoding: &Encoding, failed: &FailedPath) -> FailureKind {
    if let Status::Unknown(reason) = &failed.leaf.status {
        return FailureKind::Undecided(reason.to_string());
    }
    let Some(replayed) = verifier
        .explorer
        .replay(&encoding.program, &failed.leaf, failed.route())
    else {
        return FailureKind::Undecided("the path has no model".into());
    };
    if let Some(why) = replayed.replay.mismatch {
        return FailureKind::Undecided(format!("its model does not replay: {why}"));
    }
    let model = replayed.replay.inputs;
    if *unit == Unit::Main {
        if let Some(counterexample) = counterexample(verifier, &model) {
            return counterexample;
        }
    }
    let at_failure = shown(&replayed.last);
    let cut_point = failed
        .cut_point
        .and_then(|j| encoding.cut_point(j))
        .cloned();
    match (cut_point, unit) {
        (Some(CutPoint::Induction(_)), _) => FailureKind::InductionStep {
            at_cut_point: at_cut_point(&failed.trace, &replayed.after_havocs),
            at_failure,
        },
        (Some(cut_point), _) => FailureKind::FromCutPoint {
            at_cut_point: at_cut_point(&failed.trace, &replayed.after_havocs),
            cut_point,
            at_failure,
        },
        (None, Unit::Body(_)) => FailureKind::FromEntry {
            at_entry: shown(&model),
            at_failure,
        },
        (None, Unit::Main) => FailureKind::Undecided(
            "its inputs do not fail the program when run (please report it)".into(),
        ),
    }
}

/// The program's inputs in `model`, if running the program on them with
/// its annotations checked fails.
fn counterexample(verifier: &Verifier, model: &Valuation) -> Option<FailureKind> {
    let inputs = verifier.program.inputs();
    let inputs = model.clone().retain(|x| inputs.contains_key(x));
    let instrumented = &verifier.instrumented;
    let ran = verifier.explorer.run(&instrumented.program, inputs.clone());
    let RunEnd::Finished(Outcome::Halted(Halt::Error(error))) = ran.end else {
        return None;
    };
    let check = match ran.state.get(CHECK) {
        Some(Value::Int(k)) if error == ErrorKind::AssertionFailed => usize::try_from(k)
            .ok()
            .and_then(|k| instrumented.check(k))
            .map(|check| check.describe(verifier.program)),
        _ => None,
    };
    Some(FailureKind::Counterexample {
        inputs,
        error,
        check,
    })
}
