//! Forward or weakest precondition (§4, §4.1): on random programs of the
//! three languages, the two methods have the same paths with equivalent
//! path conditions. `--method forward` runs §2's and §3's systems and, for
//! oo programs, the unfolding with fields as arrays; `--method wp` runs the
//! unfolding with `path(ρ)`. Paths are matched by the rules they take where
//! they branch (assignments by one name: §3 splits them into global and
//! local) and how they end; every path is explored up to
//! [`MAX_BRANCHES`] branchings, and a path only one method has must have an
//! unsatisfiable condition. Each pair is proved equivalent by Z3.
//!
//! Shown to fail on a broken rule on either side: forward execution that
//! forgets field writes, and Definition 4.2 without the aliasing case of
//! `[h.f := e]`.

use crate::distribution::{self, Required};
use crate::generators::{BasicProgram, RecursiveProgram};
use crate::oo_mutants::{DefinitionWith, ForgetsFieldWrites, WithoutAliasing};
use crate::oo_programs::OoProgram;
use crate::{catches_on, from_env, holds_on, Generated, TIMEOUT_MS};
use quickcheck::{Arbitrary, Gen, TestResult};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::rc::Rc;
use symex::solver::{prove, Proof};
use symex_semantics::eval::ShowValuation;
use symex_semantics::oo::forward::State;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::oo::unfold::{PathState, Unfold};
use symex_semantics::oo::wp::Trace;
use symex_semantics::program::{Language, Program};
use symex_semantics::system::{
    Configuration, Options, Rule, SymbolicConfiguration, TransitionSystem,
};
use symex_semantics::term::{BinOp, Term};
use symex_semantics::{basic, recursive};

/// Branchings a compared path takes at most; it is cut after the last.
const MAX_BRANCHES: usize = 4;

/// Steps an exploration takes at most, over all its paths: a program that
/// needs more (a recursion that never branches) discards the case.
const MAX_STEPS: usize = 2000;

/// Cases per default run (`QUICKCHECK_TESTS` sets another number).
const CASES: u64 = 300;

/// A generated program of one of the three languages.
#[derive(Clone)]
pub enum AnyProgram {
    Basic(BasicProgram),
    Recursive(RecursiveProgram),
    Oo(OoProgram),
}

impl fmt::Debug for AnyProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.program())
    }
}

impl Generated for AnyProgram {
    fn program(&self) -> Rc<Program> {
        match self {
            AnyProgram::Basic(p) => p.0.clone(),
            AnyProgram::Recursive(p) => p.0.clone(),
            AnyProgram::Oo(p) => p.0.clone(),
        }
    }
}

impl Arbitrary for AnyProgram {
    fn arbitrary(g: &mut Gen) -> AnyProgram {
        match usize::arbitrary(g) % 3 {
            0 => AnyProgram::Basic(BasicProgram::arbitrary(g)),
            1 => AnyProgram::Recursive(RecursiveProgram::arbitrary(g)),
            _ => AnyProgram::Oo(OoProgram::arbitrary(g)),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = AnyProgram>> {
        match self {
            AnyProgram::Basic(p) => Box::new(p.shrink().map(AnyProgram::Basic)),
            AnyProgram::Recursive(p) => Box::new(p.shrink().map(AnyProgram::Recursive)),
            AnyProgram::Oo(p) => Box::new(p.shrink().map(AnyProgram::Oo)),
        }
    }
}

/// A path's key: the rules it takes where it branches, then how it ends.
type Key = Vec<String>;

fn rule_name(rule: Rule) -> String {
    match rule {
        Rule::GlobalAssignment | Rule::LocalAssignment => Rule::Assignment.to_string(),
        other => other.to_string(),
    }
}

/// Every path of `system` from `initial` up to [`MAX_BRANCHES`]
/// branchings, by key, with its path condition; `None` if that takes more
/// than [`MAX_STEPS`] steps.
fn paths<S>(system: &S, initial: S::Config) -> Option<BTreeMap<Key, Term>>
where
    S: TransitionSystem,
    S::Config: SymbolicConfiguration,
{
    let mut paths = BTreeMap::new();
    let mut pending = vec![(initial, Key::new())];
    let mut steps = 0;
    while let Some((config, key)) = pending.pop() {
        steps += 1;
        if steps > MAX_STEPS {
            return None;
        }
        let successors = system.successors(&config);
        if successors.is_empty() {
            let mut key = key;
            key.push(format!("{:?}", config.outcome()));
            paths.insert(key, config.path_condition().clone());
            continue;
        }
        let branching = successors.len() > 1;
        for step in successors {
            let mut key = key.clone();
            if branching {
                key.push(rule_name(step.rule));
            }
            if branching && key.len() == MAX_BRANCHES {
                key.push("cut".into());
                paths.insert(key, step.next.path_condition().clone());
            } else {
                pending.push((step.next, key));
            }
        }
    }
    Some(paths)
}

/// Both methods' paths of one program: the forward ones, then the wp ones.
type Paths = (BTreeMap<Key, Term>, BTreeMap<Key, Term>);

fn both<F: TransitionSystem, W: TransitionSystem>(
    forward: &F,
    forward_initial: F::Config,
    wp: &W,
    wp_initial: W::Config,
) -> Option<Paths>
where
    F::Config: SymbolicConfiguration,
    W::Config: SymbolicConfiguration,
{
    Some((paths(forward, forward_initial)?, paths(wp, wp_initial)?))
}

/// The paths of `program` under forward execution (oo programs: with the
/// path state `F`) and under the unfolding with the path state `W`.
fn explored<F: PathState, W: PathState>(program: Rc<Program>) -> Result<Option<Paths>, String> {
    let options = Options::default();
    let wp = Unfold::<W>::with_state(program.clone(), options, ThisRule::Fresh);
    Ok(match program.language {
        Language::Basic => {
            let forward = basic::symbolic::Symbolic::new(program, options)?;
            both(&forward, forward.initial(), &wp, wp.initial())
        }
        Language::Recursive => {
            let forward = recursive::symbolic::Symbolic::new(program, options)?;
            both(&forward, forward.initial(), &wp, wp.initial())
        }
        Language::Oo => {
            let forward = Unfold::<F>::with_state(program, options, ThisRule::Fresh);
            both(&forward, forward.initial(), &wp, wp.initial())
        }
    })
}

/// Path by path, `φ_forward ⇔ φ_wp` (a missing path's condition is `false`),
/// all pairs in one query; the first pair Z3 refutes is the counterexample.
pub fn agreement<F: PathState, W: PathState>(generated: AnyProgram) -> TestResult {
    let program = generated.program();
    distribution::record_program(&program);
    let (forward, wp) = match explored::<F, W>(program.clone()) {
        Ok(Some(paths)) => paths,
        Ok(None) => return TestResult::discard(),
        Err(error) => return TestResult::error(error),
    };
    distribution::record_case(program.language);
    let none = Term::bool(false);
    let keys: BTreeSet<&Key> = forward.keys().chain(wp.keys()).collect();
    let pairs: Vec<(&Key, &Term, &Term)> = keys
        .into_iter()
        .map(|key| {
            (
                key,
                forward.get(key).unwrap_or(&none),
                wp.get(key).unwrap_or(&none),
            )
        })
        .collect();
    let differ: Vec<_> = pairs
        .into_iter()
        .filter(|(_, phi, psi)| phi != psi)
        .collect();
    if !differ.is_empty() {
        distribution::record_case("shapes differ");
    }
    let same = |phi: &Term, psi: &Term| Term::binary(BinOp::Eq, phi.clone(), psi.clone());
    let mut inputs = BTreeMap::new();
    for (_, phi, psi) in &differ {
        inputs.extend(phi.free_vars());
        inputs.extend(psi.free_vars());
    }
    if !matches!(
        prove(
            &Term::conjunction(differ.iter().map(|(_, phi, psi)| same(phi, psi))),
            &inputs,
            TIMEOUT_MS
        ),
        Proof::Counterexample(_)
    ) {
        return TestResult::passed();
    }
    for (key, phi, psi) in differ {
        if let Proof::Counterexample(v) = prove(&same(phi, psi), &inputs, TIMEOUT_MS) {
            return TestResult::error(format!(
                "path {key:?}: forward `{phi}`, wp `{psi}`, differ for {}",
                ShowValuation(&v)
            ));
        }
    }
    TestResult::passed()
}

type Property = fn(AnyProgram) -> TestResult;

pub fn cases() -> u64 {
    from_env("QUICKCHECK_TESTS").unwrap_or(CASES)
}

#[test]
fn forward_and_wp_path_conditions_are_equivalent_on_every_path() {
    let required = Required::cases(&["basic", "recursive", "oo", "shapes differ"]);
    holds_on(
        "forward agrees with wp",
        cases(),
        &required,
        agreement::<State, Trace> as Property,
    );
}

#[test]
fn agreement_catches_forward_execution_that_forgets_field_writes() {
    catches_on(
        "forward agrees with wp, writes forgotten",
        5 * cases(),
        &Required::nothing(),
        agreement::<ForgetsFieldWrites, Trace> as Property,
    );
}

#[test]
fn agreement_catches_wp_without_the_aliasing_case() {
    let property = agreement::<State, DefinitionWith<WithoutAliasing>> as Property;
    catches_on(
        "forward agrees with wp, no aliasing case",
        5 * cases(),
        &Required::nothing(),
        property,
    );
}
