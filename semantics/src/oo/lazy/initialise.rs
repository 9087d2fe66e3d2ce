//! The rules of lazy initialisation (Khurshid, Păsăreanu & Visser 2003;
//! Anand, Păsăreanu & Visser 2006 §2 for arrays). Before a statement runs,
//! what it reads is evaluated in the order the concrete semantics reads
//! it; the first thing the path does not yet know is resolved by a step of
//! its own, and the statement is tried again:
//!
//! - `⟨S, h⟩ → ⟨S, h[r := nil]⟩` (lazy initialisation (nil))
//! - `⟨S, h⟩ → ⟨S, h[r := C@k] + C@k⟩`, `C@k` a fresh input object of the
//!   class of `r`, its references uninitialised, its integers and booleans
//!   the symbols `C@k.f` (lazy initialisation (new object))
//! - `⟨S, h⟩ → ⟨S, h[r := o]⟩` for each input object `o` of that class
//!   materialised before (lazy initialisation (alias))
//!
//! for `r` a reference input not yet read (a global variable, or a field of
//! an input object); for an array element, an existing cell or a new cell
//! in one of the gaps, or out of bounds ([`super::arrays`]); for a
//! condition evaluation needs first, `b` or `¬b` (decision).

use super::eval::{Blocked, Slot};
use super::heap::{input_name, Object};
use super::rules::Rules;
use super::state::{fields_of, State};
use crate::delta::{delta, Checks};
use crate::oo::unfold::Initialised;
use crate::program::{Program, Stmt, Target};
use crate::system::{Options, Rule};
use crate::term::{Name, Sort, Term};

/// The ways of initialising the first input `head` reads that `state` has
/// not initialised; `None` when it has them all.
pub(super) fn initialisations<R: Rules>(
    state: &State<R>,
    head: &Stmt,
    program: &Program,
    checks: Checks,
    options: Options,
) -> Option<Vec<Initialised<State<R>>>> {
    // What the statement's step evaluates: `δ(e)` before `e` (Definition
    // 4.2's `δ(b) ∧ b`), so that a read only the definedness condition
    // makes (a premise over an element out of bounds) is resolved too.
    let blocked = reads(head, program)
        .iter()
        .flat_map(|e| [delta(e, checks), e.clone()])
        .find_map(|e| state.value(&e).err())?;
    Some(match blocked {
        Blocked::Reference(slot) => {
            let nil = state.rules.nil().then(|| lazy_nil(state, &slot));
            let mut choices: Vec<_> = nil.into_iter().collect();
            choices.push(lazy_new_object(state, &slot, program));
            choices.extend(lazy_alias(state, &slot, options.acyclic));
            choices
        }
        Blocked::Element(array, sort, index) => lazy_element(state, &array, &sort, &index, checks),
        Blocked::Condition(condition) => decision(state, &condition),
    })
}

/// What a statement evaluates before it acts, in the order it does: the
/// element an array assignment writes is initialised as a read would be.
fn reads(head: &Stmt, program: &Program) -> Vec<Term> {
    match head {
        Stmt::Assign(_, e)
        | Stmt::Return(_, e)
        | Stmt::Assert(e)
        | Stmt::Assume(e)
        | Stmt::If(e, ..)
        | Stmt::While(_, e, _) => vec![e.clone()],
        Stmt::ArrayAssign(a, index, e) => {
            let sort = program
                .globals
                .get(a)
                .cloned()
                .unwrap_or_else(Sort::int_array);
            let element = Term::select(Term::var(a, sort), index.clone());
            vec![index.clone(), element, e.clone()]
        }
        Stmt::FieldAssign(object, _, e) => vec![object.clone(), e.clone()],
        Stmt::New(Target::Field(object, _), _) => vec![object.clone()],
        Stmt::MethodCall { receiver, args, .. } => {
            std::iter::once(receiver).chain(args).cloned().collect()
        }
        Stmt::Call(_, args) => args.clone(),
        Stmt::New(Target::Var(_), _)
        | Stmt::Skip
        | Stmt::Havoc(_)
        | Stmt::EndCall(_)
        | Stmt::Halt(_) => Vec::new(),
    }
}

/// `state` with the reference input `slot` initialised to `value`.
fn initialised<R: Rules>(state: &State<R>, slot: &Slot, value: Term) -> State<R> {
    let mut next = state.clone();
    match slot {
        Slot::Var { var, .. } => {
            next.vars.insert(var.clone(), value.clone());
            next.initial_vars.insert(var.clone(), value);
        }
        Slot::Field { object, field, .. } => {
            if let Some(o) = next.objects.get_mut(object) {
                o.fields.insert(field.clone(), Some(value.clone()));
                o.initial.insert(field.clone(), value);
            }
        }
    }
    next
}

fn class_of(slot: &Slot) -> &Name {
    match slot {
        Slot::Var { class, .. } | Slot::Field { class, .. } => class,
    }
}

/// `⟨S, h⟩ → ⟨S, h[r := nil]⟩`  (lazy initialisation (nil))
fn lazy_nil<R: Rules>(state: &State<R>, slot: &Slot) -> Initialised<State<R>> {
    Initialised {
        rule: Rule::LazyNil,
        state: initialised(state, slot, Term::nil(class_of(slot))),
        guard: Term::bool(true),
    }
}

/// `⟨S, h⟩ → ⟨S, h[r := C@k] + C@k⟩`, `C@k` fresh  (lazy initialisation (new object))
fn lazy_new_object<R: Rules>(
    state: &State<R>,
    slot: &Slot,
    program: &Program,
) -> Initialised<State<R>> {
    let class = class_of(slot);
    let name = input_name(class, state.inputs.len() + 1);
    let mut next = state.clone();
    next.objects.insert(
        name.clone(),
        Object::input(&name, class, &fields_of(program, class)),
    );
    next.inputs.push_back(name.clone());
    let object = Term::var(&name, Sort::Object(class.clone()));
    Initialised {
        rule: Rule::LazyFresh,
        state: initialised(&next, slot, object),
        guard: Term::bool(true),
    }
}

/// `⟨S, h⟩ → ⟨S, h[r := o]⟩` for each input object `o` of the class of `r`
/// materialised before  (lazy initialisation (alias)); under the
/// precondition `acyclic`, only those that leave the input heap acyclic.
fn lazy_alias<R: Rules>(
    state: &State<R>,
    slot: &Slot,
    acyclic: bool,
) -> Vec<Initialised<State<R>>> {
    let class = class_of(slot);
    let allowed = |candidate: &Name| match slot {
        Slot::Field { object, .. } if acyclic => {
            state.rules.keeps_acyclic(state, object, candidate)
        }
        Slot::Field { .. } | Slot::Var { .. } => true,
    };
    state
        .rules
        .aliases(state, class)
        .into_iter()
        .filter(|name| allowed(name))
        .filter_map(|name| {
            let sort = Sort::Object(state.objects.get(&name)?.class.clone());
            Some(Initialised {
                rule: Rule::LazyAlias,
                state: initialised(state, slot, Term::var(&name, sort)),
                guard: Term::bool(true),
            })
        })
        .collect()
}

/// `array[index]` read for the first time: an existing cell, a new one in
/// each gap, or (checked arrays) out of bounds.
fn lazy_element<R: Rules>(
    state: &State<R>,
    array: &Name,
    sort: &Sort,
    index: &Term,
    checks: Checks,
) -> Vec<Initialised<State<R>>> {
    let cells = state.arrays.get(array).cloned().unwrap_or_default();
    cells
        .initialisations(array, sort, index, checks.bounds)
        .into_iter()
        .map(|(rule, cells, guard)| {
            let mut next = state.clone();
            next.arrays.insert(array.clone(), cells);
            Initialised {
                rule,
                state: next,
                guard,
            }
        })
        .collect()
}

/// `⟨S, h⟩ → ⟨S, h⟩` under `b`, and under `¬b`  (decision)
fn decision<R: Rules>(state: &State<R>, condition: &Term) -> Vec<Initialised<State<R>>> {
    [true, false]
        .into_iter()
        .map(|value| {
            let mut next = state.clone();
            next.decisions
                .insert(condition.id(), (condition.clone(), value));
            let guard = if value {
                condition.clone()
            } else {
                Term::not(condition.clone())
            };
            Initialised {
                rule: Rule::Decision,
                state: next,
                guard,
            }
        })
        .collect()
}
