//! The one place where a language picks its semantics: every command is
//! written once, generically, as a [`Visitor`] of a symbolic and a concrete
//! transition system.

use super::mutant::Mutant;
use super::{CliError, Method};
use crate::theorems::broken::{unchanged, Edited};
use std::rc::Rc;
use symex_semantics::eval::Valuation;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::program::{Language, Program};
use symex_semantics::system::{
    ConcreteConfiguration, Options, SymbolicConfiguration, TransitionSystem,
};
use symex_semantics::{basic, oo, recursive};

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

/// Which semantics a program runs under: its language, how path conditions
/// are computed, how an unfolded method call binds `this`, and a rule
/// broken on purpose (`--break`).
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    pub language: Language,
    pub method: Method,
    pub this: ThisRule,
    pub broken: Option<Mutant>,
}

impl Choice {
    /// `language` (see [`choose`]) with `method`, by default `forward` for
    /// basic and recursive programs and `wp` for oo programs (SPEC §2).
    pub fn new(
        program: &Program,
        language: Option<Language>,
        method: Option<Method>,
        this: ThisRule,
    ) -> Result<Choice, CliError> {
        let language = choose(program, language)?;
        let method = method.unwrap_or(if language == Language::Oo {
            Method::Wp
        } else {
            Method::Forward
        });
        Ok(Choice {
            language,
            method,
            this,
            broken: None,
        })
    }

    /// This choice with `mutant`'s rule broken; an error unless the rule is
    /// one of the semantics chosen.
    pub fn breaking(self, mutant: Mutant) -> Result<Choice, CliError> {
        if (self.language, self.method) != (mutant.language(), mutant.method()) {
            return Err(CliError::new(format!(
                "--break breaks a rule of {}; this program runs under the {} semantics with --method {}",
                mutant.place(),
                self.language,
                self.method.name()
            )));
        }
        Ok(Choice {
            this: mutant.this().unwrap_or(self.this),
            broken: Some(mutant),
            ..self
        })
    }
}

/// Runs `visitor` on the semantics `choice` gives `program`: with
/// `--method wp`, the unfolding into a trace and the program semantics,
/// which run programs of all three languages (§4); with `--method lazy`,
/// the same unfolding over an explicit input heap initialised lazily; with
/// `--method forward`, §2's and §3's systems, and for oo programs the
/// unfolding run forward with fields as arrays (§4.1).
pub fn with_semantics<V: Visitor>(
    program: Rc<Program>,
    choice: Choice,
    options: Options,
    visitor: V,
) -> Result<V::Output, CliError> {
    if choice.method == Method::Lazy {
        let symbolic = oo::lazy::lazy(program.clone(), options, choice.this);
        return Ok(visitor.visit(Semantics {
            initial: symbolic.initial(),
            symbolic,
            concrete: oo::concrete::Concrete::new(program, options),
            start: oo::concrete::Concrete::initial,
        }));
    }
    if choice.method == Method::Wp {
        let unfolding = oo::unfold::Unfold::new(program.clone(), options, choice.this);
        let edit = match choice.broken {
            Some(Mutant::Oo(oo)) => oo.edit(),
            _ => unchanged,
        };
        return Ok(visitor.visit(Semantics {
            initial: unfolding.initial(),
            symbolic: Edited {
                real: unfolding,
                edit,
            },
            concrete: oo::concrete::Concrete::new(program, options),
            start: oo::concrete::Concrete::initial,
        }));
    }
    match choice.language {
        Language::Basic => {
            let symbolic = build(basic::symbolic::Symbolic::new(program.clone(), options))?;
            let edit = match choice.broken {
                Some(Mutant::Basic(edit)) => edit,
                _ => unchanged,
            };
            Ok(visitor.visit(Semantics {
                initial: symbolic.initial(),
                symbolic: Edited {
                    real: symbolic,
                    edit,
                },
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
        Language::Oo => {
            let symbolic = oo::forward::forward(program.clone(), options, choice.this);
            Ok(visitor.visit(Semantics {
                initial: symbolic.initial(),
                symbolic,
                concrete: oo::concrete::Concrete::new(program, options),
                start: oo::concrete::Concrete::initial,
            }))
        }
    }
}

fn build<T>(system: Result<T, String>) -> Result<T, CliError> {
    system.map_err(CliError::new)
}
