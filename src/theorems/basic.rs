//! §2's simulation: `⟨S, σ, φ⟩` stands for `⟨S, V∘σ⟩` under `V`.

use super::simulation::Simulation;
use super::statements;
use std::collections::BTreeMap;
use std::rc::Rc;
use symex_semantics::basic::{concrete, symbolic};
use symex_semantics::eval::{compose, ShowValuation, Valuation};
use symex_semantics::program::{Code, Program};
use symex_semantics::subst::Substitution;
use symex_semantics::system::{Options, TransitionSystem};
use symex_semantics::term::{Name, Sort, Term};

/// The symbolic and concrete systems of a basic program: the real ones of
/// `symex_semantics::basic`, or stand-ins with the same configurations.
pub struct Basic<S = symbolic::Symbolic, C = concrete::Concrete> {
    program: Rc<Program>,
    symbolic: S,
    concrete: C,
    initial: symbolic::Config,
}

impl Basic {
    /// The systems of §2 and §2.1 for `program`.
    pub fn real(program: Rc<Program>, options: Options) -> Result<Basic, String> {
        let symbolic = symbolic::Symbolic::new(program.clone(), options)?;
        let concrete = concrete::Concrete::new(program.clone(), options)?;
        Basic::new(program, options, symbolic, concrete)
    }
}

impl<S, C> Basic<S, C>
where
    S: TransitionSystem<Config = symbolic::Config>,
    C: TransitionSystem<Config = concrete::Config>,
{
    /// The given systems for `program`, started in the real `⟨S, id, true⟩`.
    pub fn new(
        program: Rc<Program>,
        options: Options,
        symbolic: S,
        concrete: C,
    ) -> Result<Basic<S, C>, String> {
        let initial = symbolic::Symbolic::new(program.clone(), options)?.initial();
        Ok(Basic {
            program,
            symbolic,
            concrete,
            initial,
        })
    }
}

impl<S, C> Simulation for Basic<S, C>
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

    fn expressions(&self, _: &symbolic::Config) -> Vec<Term> {
        statements::expressions(&self.program.main, &self.program.globals)
    }

    fn symbolic_initial(&self) -> symbolic::Config {
        self.initial.clone()
    }

    fn concrete_initial(&self, inputs: &Valuation) -> concrete::Config {
        concrete::Config {
            code: Code::empty().push(&self.program.main),
            valuation: inputs.clone(),
            reads: 0,
        }
    }

    fn substitution(&self, c: &symbolic::Config) -> Substitution {
        c.sigma.clone()
    }

    /// `⟨S, V∘σ⟩`.
    fn instantiate(&self, c: &symbolic::Config, v: &Valuation) -> Result<concrete::Config, String> {
        let valuation = compose(v, &c.sigma).map_err(|e| e.to_string())?;
        Ok(concrete::Config {
            code: c.code.clone(),
            valuation,
            reads: c.reads.count(),
        })
    }

    fn difference(&self, expected: &concrete::Config, actual: &concrete::Config) -> Option<String> {
        if expected.code.statements() != actual.code.statements() {
            return Some(format!(
                "the statement is `{}`, expected `{}`",
                actual.code, expected.code
            ));
        }
        let (expected_state, actual_state) = (
            self.globals_of(&expected.valuation),
            self.globals_of(&actual.valuation),
        );
        (expected_state != actual_state).then(|| {
            format!(
                "the state is {}, expected {}",
                ShowValuation(&actual_state),
                ShowValuation(&expected_state)
            )
        })
    }
}

impl<S, C> Basic<S, C> {
    /// `v` restricted to the program's global variables.
    fn globals_of(&self, v: &Valuation) -> Valuation {
        v.iter()
            .filter(|(x, _)| self.program.globals.contains_key(*x))
            .map(|(x, value)| (x.clone(), value.clone()))
            .collect()
    }
}
