//! The one place where a language picks its semantics: every command is
//! written once, generically, as a [`Visitor`] of a symbolic and a concrete
//! transition system.

use super::CliError;
use std::rc::Rc;
use symex_semantics::eval::Valuation;
use symex_semantics::program::{Language, Program};
use symex_semantics::system::{ConcreteConfiguration, Options, SymbolicConfiguration, TransitionSystem};
use symex_semantics::{basic, recursive};

/// A language's two transition systems, ready to start.
pub struct Semantics<S: TransitionSystem, C: TransitionSystem> {
    pub symbolic: S,
    /// The initial symbolic configuration.
    pub initial: S::Config,
    pub concrete: C,
    start: fn(&C, Valuation) -> C::Config,
}

impl<S: TransitionSystem, C: TransitionSystem> Semantics<S, C> {
    /// The initial concrete configuration for the inputs `valuation`.
    pub fn start(&self, valuation: Valuation) -> C::Config {
        (self.start)(&self.concrete, valuation)
    }
}

/// A command, generic over the semantics it runs on.
pub trait Visitor {
    type Output;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> Self::Output
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration;
}

/// The language a program runs under: the one asked for, which must contain
/// the program, or else the smallest one that does (SPEC §1).
pub fn choose(program: &Program, requested: Option<Language>) -> Result<Language, CliError> {
    let language = requested.unwrap_or(program.language);
    if language < program.language {
        return Err(CliError::new(format!(
            "the program is a {} program; it cannot run under the {language} semantics",
            program.language
        )));
    }
    Ok(language)
}

/// Runs `visitor` on the semantics of `language` for `program`.
pub fn with_semantics<V: Visitor>(program: Rc<Program>, language: Language, options: Options, visitor: V) -> Result<V::Output, CliError> {
    match language {
        Language::Basic => {
            let symbolic = build(basic::symbolic::Symbolic::new(program.clone(), options))?;
            Ok(visitor.visit(Semantics {
                initial: symbolic.initial(),
                symbolic,
                concrete: build(basic::concrete::Concrete::new(program, options))?,
                start: basic::concrete::Concrete::initial,
            }))
        }
        Language::Recursive => {
            let symbolic = build(recursive::symbolic::Symbolic::new(program.clone(), options))?;
            Ok(visitor.visit(Semantics {
                initial: symbolic.initial(),
                symbolic,
                concrete: build(recursive::concrete::Concrete::new(program, options))?,
                start: recursive::concrete::Concrete::initial,
            }))
        }
        Language::Oo => Err(CliError::new(
            "the oo semantics (§4) is not implemented yet: oo programs are parsed and type-checked, but cannot run",
        )),
    }
}

fn build<T>(system: Result<T, String>) -> Result<T, CliError> {
    system.map_err(CliError::new)
}
