//! §3's simulation: `⟨(τ, S')·Δ, σ, φ⟩` stands for
//! `⟨(V∘τ, S')·V•Δ, V∘σ⟩` under `V` (Theorems 3.5 and 3.6), and
//! Proposition 3.1 with Corollary 3.2: no local variable ever occurs in a
//! reachable `τ`, `σ` or `φ`.

use super::cases::{Cases, INITIAL};
use super::run::SymbolicRun;
use super::simulation::Simulation;
use super::statements;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use symex_semantics::eval::{eval_all, ShowValuation, Valuation};
use symex_semantics::program::Program;
use symex_semantics::recursive::{concrete, symbolic};
use symex_semantics::subst::Substitution;
use symex_semantics::system::{Options, TransitionSystem};
use symex_semantics::term::{Name, Sort, Term};

/// The symbolic and concrete systems of a program with procedures: the
/// real ones of `symex_semantics::recursive`, or stand-ins with the same
/// configurations.
pub struct Recursive<S = symbolic::Symbolic, C = concrete::Concrete> {
    program: Rc<Program>,
    symbolic: S,
    concrete: C,
    initial: symbolic::Config,
    /// `⟨(∅, S), ∅⟩`, to start concrete runs from.
    concrete_main: concrete::Config,
}

impl Recursive {
    /// The systems of §3 (with §2.1's arrays) for `program`.
    pub fn real(program: Rc<Program>, options: Options) -> Result<Recursive, String> {
        let symbolic = symbolic::Symbolic::new(program.clone(), options)?;
        let concrete = concrete::Concrete::new(program.clone(), options)?;
        Recursive::new(program, options, symbolic, concrete)
    }
}

impl<S, C> Recursive<S, C>
where
    S: TransitionSystem<Config = symbolic::Config>,
    C: TransitionSystem<Config = concrete::Config>,
{
    /// The given systems for `program`, started in the real `⟨(id, S), id, true⟩`.
    pub fn new(
        program: Rc<Program>,
        options: Options,
        symbolic: S,
        concrete: C,
    ) -> Result<Recursive<S, C>, String> {
        let initial = symbolic::Symbolic::new(program.clone(), options)?.initial();
        let concrete_main =
            concrete::Concrete::new(program.clone(), options)?.initial(Valuation::new());
        Ok(Recursive {
            program,
            symbolic,
            concrete,
            initial,
            concrete_main,
        })
    }
}

impl<S, C> Recursive<S, C> {
    /// `v` restricted to the program's global variables.
    fn globals_of(&self, v: &Valuation) -> Valuation {
        v.iter()
            .filter(|(x, _)| self.program.globals.contains_key(*x))
            .map(|(x, value)| (x.clone(), value.clone()))
            .collect()
    }

    /// `LVar`: the formal parameters of every procedure.
    fn local_variables(&self) -> BTreeSet<Name> {
        self.program
            .procedures
            .values()
            .flat_map(|p| p.params.iter().map(|(u, _)| u.clone()))
            .collect()
    }
}

impl<S, C> Simulation for Recursive<S, C>
where
    S: TransitionSystem<Config = symbolic::Config>,
    C: TransitionSystem<Config = concrete::Config>,
{
    type Symbolic = S;
    type Concrete = C;

    fn symbolic(&self) -> &S {
        &self.symbolic
    }

    fn concrete(&self) -> &C {
        &self.concrete
    }

    fn inputs(&self) -> &BTreeMap<Name, Sort> {
        &self.program.globals
    }

    fn expressions(&self, c: &symbolic::Config) -> Vec<Term> {
        let procedure = c.stack.front().and_then(|frame| frame.procedure.as_ref());
        let body = match procedure.and_then(|p| self.program.procedures.get(p)) {
            Some(declaration) => &declaration.body,
            None => &self.program.main,
        };
        statements::expressions(body, &self.program.globals)
    }

    fn symbolic_initial(&self) -> symbolic::Config {
        self.initial.clone()
    }

    /// `⟨(L, S), G⟩` with `L` empty: the main statement has no locals.
    fn concrete_initial(&self, inputs: &Valuation) -> concrete::Config {
        concrete::Config {
            globals: inputs.clone(),
            ..self.concrete_main.clone()
        }
    }

    /// `θ = τ ∪ σ` for the top closure's `τ`.
    fn substitution(&self, c: &symbolic::Config) -> Substitution {
        let tau = c
            .stack
            .front()
            .map(|frame| frame.tau.iter())
            .into_iter()
            .flatten();
        c.sigma
            .iter()
            .chain(tau)
            .map(|(x, e)| (x.clone(), e.clone()))
            .collect()
    }

    /// `⟨(V∘τ, S')·V•Δ, V∘σ⟩`, every `τ(u)` and `σ(x)` evaluated together:
    /// the substitutions of nested calls share their subterms.
    fn instantiate(&self, c: &symbolic::Config, v: &Valuation) -> Result<concrete::Config, String> {
        let bindings: Vec<(&Name, &Term)> = c
            .stack
            .iter()
            .flat_map(|frame| frame.tau.iter())
            .chain(c.sigma.iter())
            .collect();
        let terms: Vec<Term> = bindings.iter().map(|(_, e)| (*e).clone()).collect();
        let values =
            eval_all(&terms, v).map_err(|error| format!("V∘τ or V∘σ is undefined: {error}"))?;
        let mut values = bindings.iter().map(|(x, _)| (*x).clone()).zip(values);
        let stack = c
            .stack
            .iter()
            .map(|frame| {
                let locals = values.by_ref().take(frame.tau.iter().count()).collect();
                concrete::Frame {
                    locals,
                    code: frame.code.clone(),
                    procedure: frame.procedure.clone(),
                }
            })
            .collect();
        let mut globals = self.globals_of(v);
        globals.extend(values);
        Ok(concrete::Config {
            stack,
            globals,
            reads: c.reads.count(),
        })
    }

    fn difference(&self, expected: &concrete::Config, actual: &concrete::Config) -> Option<String> {
        if expected.stack.len() != actual.stack.len() {
            return Some(format!(
                "the stack has {} closures, expected {}",
                actual.stack.len(),
                expected.stack.len()
            ));
        }
        for (depth, (e, a)) in expected.stack.iter().zip(&actual.stack).enumerate() {
            if e.code.statements() != a.code.statements() || e.procedure != a.procedure {
                return Some(format!(
                    "closure {depth} executes `{}`, expected `{}`",
                    a.code, e.code
                ));
            }
            if e.locals != a.locals {
                let (a, e) = (ShowValuation(&a.locals), ShowValuation(&e.locals));
                return Some(format!("closure {depth} has the locals {a}, expected {e}"));
            }
        }
        let (expected_state, actual_state) = (
            self.globals_of(&expected.globals),
            self.globals_of(&actual.globals),
        );
        (expected_state != actual_state).then(|| {
            format!(
                "the globals are {}, expected {}",
                ShowValuation(&actual_state),
                ShowValuation(&expected_state)
            )
        })
    }
}

/// The local variables occurring in `term`, if any.
fn locals_in(term: &Term, locals: &BTreeSet<Name>) -> Vec<Name> {
    term.free_vars()
        .into_keys()
        .filter(|x| locals.contains(x))
        .collect()
}

/// Proposition 3.1: in every configuration after the first of `run`, no
/// `τ(u)` of the top closure and no `σ(x)` contains a local variable. (The
/// closures below the top are earlier tops, so every closure is checked.)
/// Returns the configurations checked, by the rule that reached them.
pub fn check_no_locals_in_substitutions<S, C>(
    simulation: &Recursive<S, C>,
    run: &SymbolicRun<symbolic::Config>,
) -> Result<Cases, String> {
    let locals = simulation.local_variables();
    let mut checked = Cases::default();
    for (n, (c, step)) in run.configs().skip(1).zip(&run.steps).enumerate() {
        let n = n + 1;
        let top = c
            .stack
            .front()
            .map(|frame| frame.tau.iter())
            .into_iter()
            .flatten();
        for (x, e) in c.sigma.iter().chain(top) {
            let found = locals_in(e, &locals);
            if !found.is_empty() {
                return Err(format!("after {n} steps, `{x}` is mapped to `{e}`, which contains the local variables {found:?}\n  {c}"));
            }
        }
        checked.add(step.rule);
    }
    Ok(checked)
}

/// Corollary 3.2: no path condition of `run` contains a local variable.
/// Returns the configurations checked, by the rule that reached them.
pub fn check_no_locals_in_path_conditions<S, C>(
    simulation: &Recursive<S, C>,
    run: &SymbolicRun<symbolic::Config>,
) -> Result<Cases, String> {
    let locals = simulation.local_variables();
    let mut checked = Cases::default();
    let rules = std::iter::once(None).chain(run.steps.iter().map(|step| Some(step.rule)));
    for (n, (c, rule)) in run.configs().zip(rules).enumerate() {
        let found = locals_in(&c.phi, &locals);
        if !found.is_empty() {
            return Err(format!(
                "after {n} steps, the path condition `{}` contains the local variables {found:?}",
                c.phi
            ));
        }
        match rule {
            Some(rule) => checked.add(rule),
            None => checked.add(INITIAL),
        }
    }
    Ok(checked)
}
