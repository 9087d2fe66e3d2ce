//! The next input of concolic search: a model of the path condition of a
//! run's prefix with one branch negated. Inputs the condition does not
//! mention keep the run's values (SAGE keeps the bytes a constraint does
//! not touch). Where Z3 cannot decide — nonlinear arithmetic, or a query
//! that runs out of time — the query is *concretised* with the run's values,
//! as DART and CUTE do: first the inputs of the left operand of each
//! nonlinear product and of each divisor that is not a constant, then, if
//! Z3 still cannot decide, every input the negated branch's guard does not
//! mention. A pinned input keeps its run value in the next input, so the
//! input found satisfies the whole path condition, and the report says
//! which inputs were pinned and why.

use crate::solver::{SatResult, Solver};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use symex_semantics::eval::eval_bool;
use symex_semantics::eval::Valuation;
use symex_semantics::subst::Substitution;
use symex_semantics::system::SymbolicConfiguration;
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind};
use symex_semantics::value::Value;

/// What solving a worklist entry gave.
pub enum Solved {
    /// An input that takes the prefix and the negated branch.
    Input {
        input: Valuation,
        pinned: Vec<Pinned>,
    },
    /// No input takes it.
    Infeasible,
    /// Z3 could not decide even with the run's values pinned.
    Undecided(String),
    /// A limit or Ctrl-C cut the query short ([`crate::stop`]).
    Interrupted,
}

/// Inputs given their run values because Z3 could not decide, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pinned {
    pub inputs: Vec<(Name, Value)>,
    pub why: Why,
}

/// Why inputs were pinned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// They occur in nonlinear arithmetic (a product of two inputs, a
    /// division by an input).
    Nonlinear,
    /// Z3 did not decide the query in time (or at all).
    Undecided,
}

impl fmt::Display for Pinned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values: Vec<String> = self
            .inputs
            .iter()
            .map(|(x, v)| format!("{x} = {v}"))
            .collect();
        let why = match self.why {
            Why::Nonlinear => "nonlinear arithmetic",
            Why::Undecided => "Z3 could not decide the query",
        };
        write!(f, "{} from the run ({why})", values.join(", "))
    }
}

/// The variables of a program an input gives values to.
pub struct Inputs {
    /// Every global (each model gives them all).
    pub globals: BTreeMap<Name, Sort>,
    /// The globals the program may read before writing them: the others
    /// keep their values from the run (the defaults), so that a test is
    /// its inputs alone, as `symex run` takes them.
    pub read: BTreeMap<Name, Sort>,
}

/// An input that reaches `target` (a successor at a fork of the run from
/// `parent`, reached under `guard`).
pub fn solve<C: SymbolicConfiguration>(
    solver: &mut Solver,
    target: &C,
    guard: &Term,
    parent: &Valuation,
    inputs: &Inputs,
) -> Solved {
    let phi = target.path_condition().clone();
    let mut pinned: Vec<Pinned> = Vec::new();
    let mut query = phi.clone();
    loop {
        match check(solver, &query, &inputs.globals) {
            Answer::Sat(model) => {
                let input = next_input(target, model, parent, &query, &inputs.read);
                return if eval_bool(&phi, &input) == Ok(true) {
                    Solved::Input { input, pinned }
                } else {
                    Solved::Undecided(
                        "the input found does not satisfy the path condition".to_string(),
                    )
                };
            }
            Answer::Interrupted => return Solved::Interrupted,
            Answer::Unsat if pinned.is_empty() => return Solved::Infeasible,
            Answer::Unsat => {
                let values: Vec<String> = pinned.iter().map(Pinned::to_string).collect();
                return Solved::Undecided(format!(
                    "no input takes the branch with {}",
                    values.join("; ")
                ));
            }
            Answer::Unknown(why) => {
                let Some(pins) = concretise(&query, guard, parent) else {
                    return Solved::Undecided(why);
                };
                query = pin(&query, &pins.inputs);
                pinned.push(pins);
            }
        }
    }
}

enum Answer {
    Sat(Valuation),
    Unsat,
    Interrupted,
    Unknown(String),
}

fn check(solver: &mut Solver, query: &Term, inputs: &BTreeMap<Name, Sort>) -> Answer {
    solver.push();
    solver.assert(query);
    let answer = match solver.check() {
        SatResult::Sat => match solver.model(inputs) {
            Some(model) => Answer::Sat(model),
            None => Answer::Unknown("Z3's model is not confirmed by the evaluator".to_string()),
        },
        SatResult::Unsat => Answer::Unsat,
        SatResult::Interrupted => Answer::Interrupted,
        SatResult::Unknown => Answer::Unknown(match solver.unsupported() {
            Some(error) => format!("no translation for Z3: {error}"),
            None => "Z3 answered unknown".to_string(),
        }),
    };
    solver.pop();
    answer
}

/// The run's input with the values of `model` for the inputs `query`
/// mentions; for a program with objects, the model made into inputs (objects
/// are numbered per model, so two cannot be mixed). Globals that are not
/// `read` keep the run's values either way.
fn next_input<C: SymbolicConfiguration>(
    target: &C,
    model: Valuation,
    parent: &Valuation,
    query: &Term,
    read: &BTreeMap<Name, Sort>,
) -> Valuation {
    let with_objects = |v: &Valuation| {
        !v.heap.is_empty()
            || v.iter()
                .any(|(_, value)| matches!(value, Value::Object(_) | Value::Nil))
    };
    let (mut input, taken) = if with_objects(&model) || with_objects(parent) {
        (target.inputs_from(model), None)
    } else {
        (model, Some(query.free_vars()))
    };
    for (x, value) in parent.iter() {
        let solved =
            read.contains_key(x) && taken.as_ref().is_none_or(|taken| taken.contains_key(x));
        if !solved || input.get(x).is_none() {
            input.insert(x.clone(), value.clone());
        }
    }
    input
}

/// The inputs to pin in `query`, whose check Z3 left undecided: those of
/// its nonlinear terms if it has any, else every scalar input `guard` does
/// not mention; `None` when nothing is left to pin.
fn concretise(query: &Term, guard: &Term, parent: &Valuation) -> Option<Pinned> {
    let scalar = |x: &Name| matches!(parent.get(x), Some(Value::Int(_) | Value::Bool(_)));
    let nonlinear: BTreeSet<Name> = query
        .nodes()
        .iter()
        .filter_map(|node| match node.kind() {
            TermKind::Binary(BinOp::Mul, a, b) if !constant(a) && !constant(b) => {
                let left = a.free_vars();
                Some(if left.keys().all(scalar) {
                    left
                } else {
                    b.free_vars()
                })
            }
            TermKind::Binary(BinOp::Div | BinOp::Mod, _, b) if !constant(b) => Some(b.free_vars()),
            _ => None,
        })
        .flat_map(|vars| vars.into_keys())
        .filter(|x| scalar(x))
        .collect();
    let (names, why) = if nonlinear.is_empty() {
        let kept = guard.free_vars();
        let rest = query
            .free_vars()
            .into_keys()
            .filter(|x| !kept.contains_key(x) && scalar(x));
        (rest.collect(), Why::Undecided)
    } else {
        (nonlinear, Why::Nonlinear)
    };
    let inputs: Vec<(Name, Value)> = names
        .into_iter()
        .filter_map(|x| parent.get(&x).map(|value| (x.clone(), value.clone())))
        .collect();
    (!inputs.is_empty()).then_some(Pinned { inputs, why })
}

/// Whether `term` has no variables.
fn constant(term: &Term) -> bool {
    term.free_vars().is_empty()
}

/// `query` with each of `inputs` replaced by its value.
fn pin(query: &Term, inputs: &[(Name, Value)]) -> Term {
    let substitution = inputs
        .iter()
        .fold(Substitution::identity(), |s, (x, value)| {
            let literal = match value {
                Value::Bool(b) => Term::bool(*b),
                Value::Int(n) => Term::int(n.clone()),
                _ => return s,
            };
            s.update(x.clone(), literal)
        });
    substitution.apply(query)
}
