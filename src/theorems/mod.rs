//! The paper's results checked mechanically. Each checker runs a symbolic
//! and a concrete transition system side by side ([`Simulation`]) and
//! returns `Ok` or a counterexample. They are generic over the systems, so
//! the property tests in `proofs-tests/` plug in deliberately broken rules
//! (mutants) and `symex check` plugs in the real ones:
//!
//! - [`substitution`]: Lemma 2.1 (and Lemma 3.3), `V∘σ(e) = V(eσ)`;
//! - [`soundness_assignment`]: Corollary 2.2 (and 3.4);
//! - [`correctness`]: Theorem 2.3 (and 3.5), on random feasible paths;
//! - [`completeness`]: Theorem 2.4 (and 3.6), following concrete runs;
//! - [`recursive`]: §3's simulation, Proposition 3.1 and Corollary 3.2;
//! - [`unfolding`]: §4's Theorem 4.5 and the agreement of the unfolding
//!   with the program semantics, on a program's traces ([`objects`] for `symex check`);
//! - [`check_program`]: all of them on one program, for `symex check`;
//! - [`broken`]: deliberately broken rules, for the mutant tests and `symex check --break`.

pub mod basic;
pub mod broken;
pub mod cases;
pub mod check;
pub mod completeness;
pub mod correctness;
pub mod inputs;
pub mod objects;
pub mod recursive;
pub mod run;
pub mod simulation;
pub mod soundness_assignment;
mod statements;
pub mod substitution;
pub mod unfolding;

pub use basic::Basic;
pub use cases::Cases;
pub use check::{Bounds, CheckReport};
pub use recursive::Recursive;
pub use simulation::Simulation;

use std::rc::Rc;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::oo::path::Reference;
use symex_semantics::oo::unfold::Unfold;
use symex_semantics::program::{Language, Program};
use symex_semantics::system::Options;

/// Checks the paper's results for `program` under `language`'s semantics on
/// `runs` random inputs and symbolic paths drawn from `seed`, stopping
/// early at `deadline` or Ctrl-C ([`crate::stop`]) with the runs done.
pub fn check_program(
    program: Rc<Program>,
    language: Language,
    options: Options,
    runs: u64,
    seed: u64,
    deadline: Option<std::time::Instant>,
) -> Result<CheckReport, String> {
    let name = language.to_string();
    let bounds = Bounds {
        deadline,
        ..Bounds::default()
    };
    match language {
        Language::Basic => {
            let simulation = Basic::real(program, options)?;
            Ok(check::check(
                &simulation,
                &name,
                check::BASIC_RESULTS,
                options.checked_arrays,
                runs,
                seed,
                bounds,
            ))
        }
        Language::Recursive => {
            let simulation = Recursive::real(program, options)?;
            Ok(check::check(
                &simulation,
                &name,
                check::RECURSIVE_RESULTS,
                options.checked_arrays,
                runs,
                seed,
                bounds,
            ))
        }
        Language::Oo => {
            let unfold = Unfold::new(program.clone(), options, ThisRule::Fresh);
            Ok(objects::check_objects(
                program, &unfold, &Reference, options, runs, seed, bounds,
            ))
        }
    }
}
