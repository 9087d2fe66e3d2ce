//! A counterexample shows the fewest objects: model shrinking
//! (`symex_semantics::oo::inputs::shrink`) redirects references greedily
//! while the path condition holds and fewer objects stay reachable, and
//! skips the search when the condition needs every object the model
//! reaches (`objects_needed`). That shortcut must change nothing: the
//! result is exactly the plain greedy search's, kept here as the reference.
//!
//! On random oo programs and random configurations `V`, the unfolding (wp;
//! forward execution's elimination of created objects can take minutes on
//! a few of these programs) is followed along `V`'s run, and at every step the path
//! condition of each successor, those `V` satisfies (a leaf's models) and
//! those it does not, is a case: `shrink(V, φ)` equals the reference's;
//! so is each condition after a walk of `x`'s list in `V`
//! (`x != nil && x.next != nil && … && x.next…next = nil`, what a loop to
//! the end of a list adds, as in `list_partition_fixed.sx`). Each case
//! runs from `V` and from `V` with `y` and `p` `nil` and its cycles broken,
//! where `x`'s list ends in `nil` and is all the heap the variables reach.
//! The runs must reach models that shrink, models the search leaves as
//! they are, and models the shortcut leaves without a search, some with a
//! list of two or more objects. A bound that counts a walk `x.f…f != nil`
//! as distinct objects, though a one-object cycle satisfies it
//! ([`Mutant::NonNilWalkNeedsDistinctObjects`]), is caught.

use crate::distribution::{self, Required};
use crate::mutated::with_core_mutant;
use crate::oo_generators::Configuration;
use crate::oo_programs::OoProgram;
use crate::{catches, holds};
use quickcheck::TestResult;
use std::collections::{BTreeSet, HashSet};
use symex_semantics::eval::{eval, eval_bool, ShowValuation, Valuation};
use symex_semantics::mutants::Mutant;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::oo::inputs::shrink;
use symex_semantics::oo::needed::objects_needed;
use symex_semantics::oo::unfold::{PathState, Unfold};
use symex_semantics::oo::wp::Trace;
use symex_semantics::system::{Options, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::{BinOp, Sort, Term};
use symex_semantics::value::{Oid, Value};

/// The most steps of `V`'s run a case follows.
const STEPS: usize = 60;

/// The most nodes of `x`'s list a walk visits (a cyclic list stops there).
const WALK: usize = 4;

const SHRINKS: &str = "the heap shrinks";
const SEARCHED: &str = "the search leaves the heap as it is";
const NEEDED: &str = "φ needs every object, no search";
const NEEDED_LIST: &str = "φ needs a list of two or more objects, no search";

/// The objects reachable from the variables of `v`.
fn reachable(v: &Valuation) -> Vec<Oid> {
    v.heap.reachable(
        v.iter()
            .filter_map(|(_, value)| value.as_reference().flatten()),
    )
}

/// The plain greedy search: for each reference slot (variables, then the
/// fields of reachable objects) and each target (`nil`, then the reachable
/// objects of its class), the first redirection that reaches fewer objects
/// and satisfies `phi` is taken, and the search starts again.
fn greedy(mut v: Valuation, phi: &Term) -> Valuation {
    if eval_bool(phi, &v) != Ok(true) {
        return v;
    }
    'improve: loop {
        let size = reachable(&v).len();
        let mut candidates = Vec::new();
        for (x, value) in v.iter() {
            if let Some(Some(o)) = value.as_reference() {
                candidates.push((None, x.clone(), o));
            }
        }
        for o in reachable(&v) {
            for (f, value) in v.heap.get(o).into_iter().flat_map(|object| &object.fields) {
                if let Some(Some(current)) = value.as_reference() {
                    candidates.push((Some(o), f.clone(), current));
                }
            }
        }
        for (owner, name, current) in candidates {
            let class = v.heap.get(current).map(|object| &object.class);
            let others = reachable(&v)
                .into_iter()
                .filter(|o| *o != current && v.heap.get(*o).map(|object| &object.class) == class);
            for target in std::iter::once(Value::Nil).chain(others.map(Value::Object)) {
                let candidate = match owner {
                    None => v.update(name.clone(), target),
                    Some(o) => match v.heap.set_field(o, &name, target) {
                        Some(heap) => v.with_heap(heap),
                        None => continue,
                    },
                };
                if reachable(&candidate).len() < size && eval_bool(phi, &candidate) == Ok(true) {
                    v = candidate;
                    continue 'improve;
                }
            }
        }
        return v;
    }
}

/// Compares the two searches on `v` and `phi`, naming what the case reached.
fn compare(v: &Valuation, phi: &Term, reached: &mut BTreeSet<&'static str>) -> Result<(), String> {
    let (fast, plain) = (shrink(v.clone(), phi), greedy(v.clone(), phi));
    if fast != plain {
        return Err(format!(
            "φ = {phi}\nV = {}\nshrink: {}\ngreedy: {}",
            ShowValuation(v),
            ShowValuation(&fast),
            ShowValuation(&plain)
        ));
    }
    if eval_bool(phi, v) != Ok(true) {
        return Ok(());
    }
    let (size, needed) = (reachable(v).len(), objects_needed(phi));
    if reachable(&plain).len() < size {
        reached.insert(SHRINKS);
    } else if size > needed {
        reached.insert(SEARCHED);
    } else if size > 0 {
        reached.insert(NEEDED);
        if size >= 2 {
            reached.insert(NEEDED_LIST);
        }
    }
    Ok(())
}

/// The condition of walking `x`'s list in `v` to its end, or [`WALK`] nodes.
fn walk(v: &Valuation) -> Term {
    let node = || Sort::Object("N".into());
    let mut at = Term::var("x", node());
    let mut conjuncts = Vec::new();
    for _ in 0..WALK {
        if eval(&at, v) == Ok(Value::Nil) {
            conjuncts.push(Term::binary(BinOp::Eq, at, Term::nil("N")));
            return Term::conjunction(conjuncts);
        }
        conjuncts.push(Term::binary(BinOp::Ne, at.clone(), Term::nil("N")));
        at = Term::field(at, "next", node());
    }
    Term::conjunction(conjuncts)
}

/// Follows `V`'s run through `unfold`, comparing at each distinct path
/// condition of the successors met.
fn along_the_run<P: PathState>(
    unfold: &Unfold<P>,
    v: &Valuation,
    reached: &mut BTreeSet<&'static str>,
) -> Result<(), String> {
    let mut config = unfold.initial();
    let mut compared: HashSet<Term> = HashSet::new();
    let walked = walk(v);
    for _ in 0..STEPS {
        let mut taken = None;
        for step in unfold.successors(&config) {
            let phi = step.next.path_condition();
            if compared.insert(phi.clone()) {
                compare(v, phi, reached)?;
                compare(v, &Term::and(walked.clone(), phi.clone()), reached)?;
            }
            if taken.is_none() && eval_bool(phi, v) == Ok(true) {
                taken = Some(step.next);
            }
        }
        match taken {
            Some(next) => config = next,
            None => break,
        }
    }
    Ok(())
}

fn agree(program: OoProgram, v: Configuration) -> TestResult {
    let program = program.0;
    let v = v.0.retain(|x| program.globals.contains_key(x));
    let only_x = v
        .update("y".into(), Value::Nil)
        .update("p".into(), Value::Nil)
        .with_heap(v.heap.without_cycles());
    let options = Options::default();
    let wp = Unfold::<Trace>::with_state(program, options, ThisRule::Fresh);
    let mut reached = BTreeSet::new();
    let compared = [&v, &only_x]
        .into_iter()
        .try_for_each(|v| along_the_run(&wp, v, &mut reached));
    for case in reached {
        distribution::record_case(case);
    }
    match compared {
        Ok(()) => TestResult::passed(),
        Err(why) => TestResult::error(why),
    }
}

type Property = fn(OoProgram, Configuration) -> TestResult;

#[test]
fn shrinking_a_model_agrees_with_the_plain_greedy_search() {
    holds(
        "shrinking a model agrees with the plain greedy search",
        &Required::frequent(&[SHRINKS, SEARCHED, NEEDED, NEEDED_LIST]),
        agree as Property,
    );
}

#[test]
fn the_comparison_catches_a_bound_that_stops_too_early() {
    with_core_mutant(Mutant::NonNilWalkNeedsDistinctObjects, || {
        catches(
            "a bound that counts a walk to an object as distinct objects",
            &Required::nothing(),
            agree as Property,
        )
    });
}
