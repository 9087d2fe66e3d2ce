//! §4.1, fields as arrays: forward symbolic execution of oo programs. A
//! path keeps a substitution σ, as in §2 and §3, that maps each variable
//! to its value and each field `f` (of the objects of a class) to an array
//! `O → T` over the initial state (§2.1): a field write `e.f := e'` is the
//! array assignment `f := (f[eσ] := e'σ)`, a read `e.f` is `σ(f)[eσ]`. An
//! object creation `h := new C` is processed as the paper's
//! `h := x; x.f₁ := nil; …; x.fₙ := nil` for a fresh `x` (fields set to the
//! default of their type, SPEC §1.5), and `[x := new C]` in array form
//! removes the created objects from every conjunct ([`super::created`]).
//!
//! The statements unfold exactly as for `--method wp` ([`Unfold`]: calls
//! inlined with fresh locals, the same error steps); only what a path does
//! with the resulting actions differs — it runs them forward on σ instead of
//! recording them for a weakest precondition. So both methods have the same
//! paths, and Theorem 4.5 makes their path conditions equivalent.

use super::action::{Action, Location};
use super::created::{read, Creations};
use super::inline::ThisRule;
use super::unfold::{PathState, Unfold};
use super::wp::initial_value;
use crate::delta::Checks;
use crate::eval::{eval, Valuation};
use crate::program::Program;
use crate::subst::Substitution;
use crate::system::Options;
use crate::term::{IdMap, Name, Sort, Term, TermKind};
use crate::value::Value;
use std::fmt;
use std::rc::Rc;

/// Forward symbolic execution: the unfolding whose paths keep `⟨σ⟩`.
pub type Forward = Unfold<State>;

/// `--method forward` on a program of any of the three languages.
pub fn forward(program: Rc<Program>, options: Options, this: ThisRule) -> Forward {
    Unfold::with_state(program, options, this)
}

/// Forward execution whose created objects are eliminated by the plain
/// tree of conditionals ([`Creations::new`]), the definition the default
/// is checked against.
pub type PlainState = State<false>;

/// σ: the variables and the fields a path has assigned, and the objects it
/// created; `MERGED`: whether the elimination merges cases.
#[derive(Clone)]
pub struct State<const MERGED: bool = true> {
    sigma: Substitution,
    /// `σ(f)` for each field `f` of a class `C` the path wrote, by `(C, f)`;
    /// the initial field array `f` elsewhere.
    fields: im::OrdMap<(Name, Name), Term>,
    /// The fresh variable and class of each object the path created, in order.
    created: im::Vector<(Name, Name)>,
    creations: Rc<Creations>,
}

impl<const MERGED: bool> Default for State<MERGED> {
    fn default() -> State<MERGED> {
        State {
            sigma: Substitution::default(),
            fields: im::OrdMap::new(),
            created: im::Vector::new(),
            creations: Rc::new(Creations::new(MERGED)),
        }
    }
}

impl<const MERGED: bool> State<MERGED> {
    /// `σ(f)` for the field `f` of sort `sort` of the objects of `class`.
    fn array(&self, class: &Name, f: &Name, sort: &Sort) -> Term {
        self.fields
            .get(&(class.clone(), f.clone()))
            .cloned()
            .unwrap_or_else(|| Term::field_array(f, class, sort.clone()))
    }

    /// `eσ`, where a field read `e'.f` becomes `σ(f)[e'σ]`.
    pub fn apply(&self, e: &Term) -> Term {
        let mut memo: IdMap<Term> = IdMap::default();
        for node in e.nodes() {
            let image = match node.kind() {
                TermKind::Var(x, _) => self
                    .sigma
                    .lookup(x)
                    .cloned()
                    .unwrap_or_else(|| node.clone()),
                TermKind::Field(object, f, sort) => {
                    let object = memo[&object.id()].clone();
                    match object.sort() {
                        Sort::Object(class) => read(&self.array(&class, f, sort), &object),
                        _ => Term::field(object, f, sort.clone()),
                    }
                }
                _ => {
                    let children: Vec<Term> = node
                        .children()
                        .into_iter()
                        .map(|c| memo[&c.id()].clone())
                        .collect();
                    node.with_children(&children)
                }
            };
            memo.insert(node.id(), image);
        }
        memo.remove(&e.id()).unwrap_or_else(|| e.clone())
    }

    /// `σ[x := eσ]`, `σ[a := (σ(a)[iσ] := eσ)]` or `σ[f := (σ(f)[oσ] := eσ)]`
    /// (§2, §2.1 and §4.1, symbolic assignment)
    fn symbolic_assignment(&self, h: &Location, e: &Term) -> State<MERGED> {
        let mut next = self.clone();
        let value = self.apply(e);
        match h {
            Location::Var(x, _) => next.sigma = self.sigma.update(x.clone(), value),
            Location::Element(a, sort, index) => {
                let update = Term::store(
                    self.apply(&Term::var(a, sort.clone())),
                    self.apply(index),
                    value,
                );
                next.sigma = self.sigma.update(a.clone(), update);
            }
            Location::Field(object, f, sort) => {
                if let Sort::Object(class) = object.sort() {
                    let update =
                        Term::store(self.array(&class, f, sort), self.apply(object), value);
                    next.fields.insert((class, f.clone()), update);
                }
            }
        }
        next
    }

    /// `x.f₁ := nil; …; x.fₙ := nil` for the fresh `x` of a new object of
    /// `class` (§4.1; each field set to its type's default)
    fn symbolic_object_creation(&self, x: &Name, class: &Name, program: &Program) -> State<MERGED> {
        let mut next = self.clone();
        next.created.push_back((x.clone(), class.clone()));
        let object = Term::var(x, Sort::Object(class.clone()));
        for (f, sort) in program
            .classes
            .get(class)
            .map(|c| &c.fields)
            .into_iter()
            .flatten()
        {
            if let Some(default) = initial_value(sort) {
                let update = Term::store(next.array(class, f, sort), object.clone(), default);
                next.fields.insert((class.clone(), f.clone()), update);
            }
        }
        next
    }
}

impl<const MERGED: bool> PathState for State<MERGED> {
    /// The action run forward on σ; its condition, taken in σ, with the
    /// created objects removed by `[x := new C]`.
    fn then(&self, action: Action, program: &Program, checks: Checks) -> (State<MERGED>, Term) {
        let condition = self
            .creations
            .eliminate(&self.apply(&action.condition(checks)));
        let next = match &action {
            Action::Assign(h, e) => self.symbolic_assignment(h, e),
            Action::New(x, class) => self.symbolic_object_creation(x, class, program),
            Action::Test(_) => self.clone(),
        };
        (next, condition)
    }

    /// `σ(x)` for every global `x` (objects the path created by their fresh names).
    fn global_state(&self, program: &Program) -> Vec<(Name, Term)> {
        program
            .globals
            .iter()
            .map(|(x, sort)| (x.clone(), self.apply(&Term::var(x, sort.clone()))))
            .collect()
    }

    /// `V ∘ σ`: the globals `V(σ(x))` and the fields `V(σ(f)[o])`, in `V`
    /// extended by the created objects (each a new object of the heap with
    /// its fields' defaults, in creation order, as the program creates them).
    fn predicted_state(
        &self,
        inputs: &Valuation,
        program: &Rc<Program>,
        _: Options,
    ) -> Result<Valuation, String> {
        let mut v = inputs.clone();
        for (x, class) in &self.created {
            let fields = program
                .classes
                .get(class)
                .map(|c| c.fields.clone())
                .unwrap_or_default();
            let (o, heap) = v.heap.allocate(class, &fields);
            v = v.with_heap(heap).update(x.clone(), Value::Object(o));
        }
        let failed =
            |what: String| move |error| format!("the final value of {what} has no value: {error}");
        let mut predicted = Valuation::new();
        for (x, e) in self.global_state(program) {
            predicted.insert(x.clone(), eval(&e, &v).map_err(failed(format!("`{x}`")))?);
        }
        let mut heap = v.heap.clone();
        for ((class, f), array) in &self.fields {
            let Value::Field(array) =
                eval(array, &v).map_err(failed(format!("the field `{f}`")))?
            else {
                continue;
            };
            for (o, _) in v.heap.iter().filter(|(_, object)| &object.class == class) {
                if let Some(value) = array.written(&Value::Object(*o)) {
                    heap = heap
                        .set_field(*o, f, value.clone())
                        .unwrap_or_else(|| heap.clone());
                }
            }
        }
        Ok(predicted.with_heap(heap))
    }

    /// Forward execution keeps `σ`, not a trace.
    fn trace(&self) -> Option<Vec<Action>> {
        None
    }

    /// `eσ`, a field read `x.f` as `f[xσ]`.
    fn after(&self, e: &Term) -> Term {
        self.apply(e)
    }

    fn actions_since(&self, _: &State<MERGED>) -> Option<Vec<Action>> {
        None
    }
}

impl<const MERGED: bool> fmt::Display for State<MERGED> {
    /// σ as `[x := e, …, C.f := a, …]`, or `id`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fields = self
            .fields
            .iter()
            .map(|((class, field), array)| (format!("{class}.{field}"), array));
        let pairs: Vec<(String, &Term)> = self
            .sigma
            .iter()
            .map(|(x, e)| (x.to_string(), e))
            .chain(fields)
            .collect();
        if pairs.is_empty() {
            return f.write_str("id");
        }
        f.write_str("[")?;
        for (i, (x, e)) in pairs.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{x} := {e}")?;
        }
        f.write_str("]")
    }
}
