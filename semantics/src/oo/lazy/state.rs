//! The state of a lazy path: variables over the input symbols, an explicit
//! heap, the input arrays' cells, and the conditions decided so far; the
//! unfolding's actions applied to it.

use super::arrays::{Cells, Resolution};
use super::eval::Blocked;
use super::heap::{Node, Object};
use super::rules::{Paper, Rules};
use super::taken::Taken;
use super::{initialise, model};
use crate::delta::Checks;
use crate::eval::Valuation;
use crate::oo::action::{Action, Location};
use crate::oo::unfold::{Initialised, PathState};
use crate::program::{Code, Program, Stmt};
use crate::system::Options;
use crate::term::{Name, Sort, Term};
use std::fmt;
use std::rc::Rc;

/// A lazy path's state, initialised by the rules `R`.
#[derive(Clone, Default)]
pub struct State<R: Rules = Paper> {
    /// The value of each variable the path assigned, or (a reference input)
    /// initialised by a read.
    pub(super) vars: im::OrdMap<Name, Term>,
    /// Every object the path knows, input and created, by name.
    pub(super) objects: im::OrdMap<Name, Object>,
    /// The input objects in the order they were materialised (`C@1`, `C@2`, …).
    pub(super) inputs: im::Vector<Name>,
    /// The created objects in the order they were made.
    pub(super) created: im::Vector<Name>,
    /// The input value of each reference variable initialised by a read.
    pub(super) initial_vars: im::OrdMap<Name, Term>,
    /// The initialised cells of each input array.
    pub(super) arrays: im::OrdMap<Name, Cells>,
    /// The conditions decided on the path, by term id (with the term, so
    /// that the id stays its own).
    pub(super) decisions: im::OrdMap<u64, (Term, bool)>,
    /// The actions of the unfolding the path ran, for its reported trace
    /// (the same ρ as `--method wp`'s).
    actions: Taken,
    pub(super) rules: R,
}

impl<R: Rules> State<R> {
    /// The state after `action`, every read it makes being initialised.
    fn apply(&self, action: &Action, program: &Program) -> Result<State<R>, Blocked> {
        let mut next = self.clone();
        match action {
            Action::Assign(Location::Var(x, _), e) => {
                next.vars.insert(x.clone(), self.value(e)?);
            }
            Action::Assign(Location::Field(object, f, _), e) => {
                let value = self.value(e)?;
                let object = self.value(object)?;
                if let Node::Object(name) = Node::of(&object) {
                    if let Some(o) = next.objects.get_mut(name) {
                        o.fields.insert(f.clone(), Some(value));
                    }
                }
            }
            Action::Assign(Location::Element(a, _, index), e) => {
                let value = self.value(e)?;
                let index = self.value(index)?;
                let cells = self.arrays.get(a).cloned().unwrap_or_default();
                if let Some(Resolution::Cell(id)) = cells.resolve(&index) {
                    next.arrays.insert(a.clone(), cells.set(id, value));
                }
            }
            Action::New(x, class) => {
                next.objects.insert(
                    x.clone(),
                    Object::created(class, &fields_of(program, class)),
                );
                next.created.push_back(x.clone());
            }
            Action::Test(_) => {}
        }
        Ok(next)
    }
}

impl<R: Rules> State<R> {
    /// The input objects the path materialised, in order, with their classes.
    pub fn input_objects(&self) -> impl Iterator<Item = (&Name, &Name)> {
        self.inputs
            .iter()
            .filter_map(|name| Some((name, &self.objects.get(name)?.class)))
    }

    /// The globals and the heap after the path for a run from `inputs`,
    /// any configuration its input heap embeds into, the input object
    /// `C@k` being `objects[C@k]` (a model's inputs number it `ok`).
    pub fn prediction(
        &self,
        inputs: &Valuation,
        objects: &std::collections::BTreeMap<Name, crate::value::Oid>,
        program: &Program,
    ) -> Result<Valuation, String> {
        model::predicted_state(self, inputs, program, &|name| objects.get(name).copied())
    }

    /// Whether the input object `from` reaches `to` through the input
    /// values of reference fields the path initialised (the input heap,
    /// not the fields as the program has written them since).
    pub fn input_reaches(&self, from: &Name, to: &Name) -> bool {
        let mut seen = std::collections::BTreeSet::new();
        let mut pending = vec![from];
        while let Some(name) = pending.pop() {
            if name == to {
                return true;
            }
            if !seen.insert(name) {
                continue;
            }
            if let Some(object) = self.objects.get(name) {
                pending.extend(
                    object
                        .initial
                        .values()
                        .filter_map(|value| match Node::of(value) {
                            Node::Object(next) => Some(next),
                            Node::Nil | Node::Unknown => None,
                        }),
                );
            }
        }
        false
    }

    /// The objects the path created, in order, with their classes.
    pub fn created_objects(&self) -> impl Iterator<Item = (&Name, &Name)> {
        self.created
            .iter()
            .filter_map(|name| Some((name, &self.objects.get(name)?.class)))
    }
}

/// The fields of `class`, with their sorts (none for an unknown class).
pub(super) fn fields_of(program: &Program, class: &Name) -> Vec<(Name, Sort)> {
    program
        .classes
        .get(class)
        .map(|c| {
            c.fields
                .iter()
                .map(|(f, s)| (f.clone(), s.clone()))
                .collect()
        })
        .unwrap_or_default()
}

impl<R: Rules> PathState for State<R> {
    /// The action applied to the heap; its condition evaluated before it.
    /// Every read is initialised: [`PathState::initialise`] comes first.
    fn then(&self, action: Action, program: &Program, checks: Checks) -> (State<R>, Term) {
        let condition = self.value(&action.condition(checks));
        match (condition, self.apply(&action, program)) {
            (Ok(condition), Ok(mut next)) => {
                next.actions = next.actions.then(action);
                (next, condition)
            }
            // Lazy initialisation resolves every read before the statement
            // runs, so this is never reached; a path that did reach it ends.
            (condition, next) => {
                debug_assert!(
                    false,
                    "{action} reads what is not initialised: {condition:?}, {:?}",
                    next.err()
                );
                (self.clone(), Term::bool(false))
            }
        }
    }

    fn initialise(
        &self,
        head: &Stmt,
        program: &Program,
        checks: Checks,
        options: Options,
    ) -> Option<Vec<Initialised<State<R>>>> {
        initialise::initialisations(self, head, program, checks, options)
    }

    fn global_state(&self, program: &Program) -> Vec<(Name, Term)> {
        model::global_state(self, program)
    }

    fn predicted_state(
        &self,
        inputs: &Valuation,
        program: &Rc<Program>,
        _: Options,
    ) -> Result<Valuation, String> {
        model::predicted_state(self, inputs, program, &model::oid)
    }

    fn inputs_from(&self, model: Valuation, _phi: &Term, program: &Program) -> Valuation {
        model::inputs_from(self, model, program)
    }

    fn symbols(&self) -> Vec<(Name, Sort)> {
        model::symbols(self)
    }

    fn input_heap(&self) -> Option<super::InputHeap> {
        Some(model::input_heap(self))
    }

    fn materialised_objects(&self) -> usize {
        self.inputs.len()
    }

    fn graph(&self, code: &Code, program: &Program) -> Option<super::graph::StateGraph> {
        Some(super::graph::state_graph(self, code, program))
    }

    fn actions_since(&self, earlier: &State<R>) -> Option<Vec<Action>> {
        Some(self.actions.since(earlier.actions.len()))
    }

    /// The path keeps a heap, not a trace to read `path(ρ)` off.
    fn trace(&self) -> Option<Vec<Action>> {
        None
    }

    /// The value of `e` after the path, where everything it reads is
    /// initialised; `e` itself where not.
    fn after(&self, e: &Term) -> Term {
        self.value(e).unwrap_or_else(|_| e.clone())
    }
}

impl<R: Rules> fmt::Display for State<R> {
    /// The variables and the heap: `[x := e, …] {Node@1: Node{…}, …}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, (x, e)) in self.vars.iter().enumerate() {
            let separator = if i > 0 { ", " } else { "" };
            write!(f, "{separator}{x} := {e}")?;
        }
        f.write_str("] {")?;
        for (i, (name, object)) in self.objects.iter().enumerate() {
            let separator = if i > 0 { ", " } else { "" };
            write!(f, "{separator}{name}: ")?;
            super::heap::write_object(f, &object.class, object.fields.iter())?;
        }
        f.write_str("}")
    }
}
