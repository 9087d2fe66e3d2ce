//! The actions a lazy path has taken, for its reported trace: a list that
//! grows at its end, each extension sharing its prefix with the paths it
//! branched from. Taking an action and reading those taken since a node
//! cost what they add, whatever the path's length (a chunked vector, shared
//! between branches, copies its last chunk at each action).

use crate::oo::action::Action;
use std::rc::Rc;

/// `ε` or `ρ · a`.
#[derive(Clone, Default)]
pub(super) struct Taken(Option<Rc<Step>>);

struct Step {
    action: Action,
    before: Taken,
    len: usize,
}

impl Taken {
    /// `ρ · action`.
    pub(super) fn then(&self, action: Action) -> Taken {
        Taken(Some(Rc::new(Step {
            action,
            before: self.clone(),
            len: self.len() + 1,
        })))
    }

    pub(super) fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |step| step.len)
    }

    /// The actions after the first `known`, in the order taken.
    pub(super) fn since(&self, known: usize) -> Vec<Action> {
        let mut actions = Vec::new();
        let mut at = self;
        while let Some(step) = at.0.as_ref().filter(|step| step.len > known) {
            actions.push(step.action.clone());
            at = &step.before;
        }
        actions.reverse();
        actions
    }
}

impl Drop for Taken {
    /// Frees a long path iteratively: its steps must not overflow the
    /// stack when dropped one inside the other.
    fn drop(&mut self) {
        let mut next = self.0.take();
        while let Some(step) = next {
            match Rc::try_unwrap(step) {
                Ok(mut step) => next = step.before.0.take(),
                Err(_) => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{Sort, Term};

    fn test(k: i64) -> Action {
        Action::Test(Term::binary(
            crate::term::BinOp::Lt,
            Term::var("x", Sort::Int),
            Term::int(k),
        ))
    }

    #[test]
    fn the_actions_since_a_prefix_are_those_added_after_it() {
        let prefix = (0..3).fold(Taken::default(), |t, k| t.then(test(k)));
        let left = prefix.then(test(10));
        let right = prefix.then(test(20)).then(test(21));
        assert_eq!((prefix.len(), left.len(), right.len()), (3, 4, 5));
        let shown = |actions: Vec<Action>| -> Vec<String> {
            actions.iter().map(ToString::to_string).collect()
        };
        assert_eq!(shown(right.since(3)), ["x < 20", "x < 21"]);
        assert_eq!(shown(left.since(3)), ["x < 10"]);
        assert_eq!(left.since(0).len(), 4);
        assert!(right.since(5).is_empty());
    }

    #[test]
    fn a_long_path_drops_without_overflowing_the_stack() {
        let long = (0..1_000_000).fold(Taken::default(), |t, _| t.then(test(0)));
        assert_eq!(long.len(), 1_000_000);
        drop(long);
    }
}
