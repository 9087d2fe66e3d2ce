//! `symex check` on oo programs (§4): the lockstep of [`super::unfolding`]
//! from random consistent initial heaps, with a minimal counterexample for
//! each result that fails — the shortest run that shows it, then the
//! integers of the inputs shrunk (the heap is kept as drawn).

use super::cases::Cases;
use super::check::{counterexample, Bounds, CheckReport, Counterexample, Done, ResultReport};
use super::inputs::{random_heap_inputs, shrink};
use super::unfolding::{Lockstep, OO_RESULTS};
use crate::report::values::heap_json;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::rc::Rc;
use symex_semantics::eval::Valuation;
use symex_semantics::oo::concrete::Concrete;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::oo::path::Calculus;
use symex_semantics::oo::trace::Traces;
use symex_semantics::oo::{unfold, Errors};
use symex_semantics::program::Program;
use symex_semantics::system::{Options, TransitionSystem};

/// §4's results for `program` under the unfolding `unfold` and the calculus
/// `calculus` (the real ones, or a broken one), on `runs` random heaps drawn
/// from `seed`. Every unfolding of a program starts in the same `⟨S, ε⟩`.
pub fn check_objects<U, C>(
    program: Rc<Program>,
    unfold: &U,
    calculus: &C,
    options: Options,
    runs: u64,
    seed: u64,
    bounds: Bounds,
) -> CheckReport
where
    U: TransitionSystem<Config = unfold::Config>,
    C: Calculus + ?Sized,
{
    let concrete = Concrete::new(program.clone(), options);
    let traces = Traces::new(program.clone(), options);
    let initial = unfold::Unfold::new(program.clone(), options, ThisRule::Fresh).initial();
    let lockstep = Lockstep {
        unfold,
        initial,
        concrete: &concrete,
        traces: &traces,
        calculus,
        checks: Errors::new(options).checks,
    };
    let mut rng = StdRng::seed_from_u64(seed);
    let mut results = OO_RESULTS.map(|name| ResultReport {
        result: name.to_string(),
        cases: 0,
        undecided: 0,
        counterexample: None,
    });
    let mut done = Done::default();
    for r in 0..runs {
        if done.stop(r, bounds.deadline) {
            break;
        }
        let v = random_heap_inputs(&program, &mut rng);
        let mut cases: [Cases; 3] = Default::default();
        let disagreements = lockstep.run(&v, bounds.max_steps, bounds.definition_steps, &mut cases);
        for (result, checked) in results.iter_mut().zip(&cases) {
            if result.counterexample.is_none() {
                result.cases += checked.total();
            }
        }
        for disagreement in disagreements {
            let result = &mut results[disagreement.result];
            if result.counterexample.is_some() {
                continue;
            }
            let fails = |v: &Valuation, steps: usize| {
                let mut ignored: [Cases; 3] = Default::default();
                let found = lockstep.run(v, steps, bounds.definition_steps, &mut ignored);
                found.into_iter().find(|d| d.result == disagreement.result)
            };
            // A result stays refuted on a longer run: the shortest by bisection.
            let lengths: Vec<usize> = (0..=bounds.max_steps).collect();
            let steps = lengths[lengths
                .partition_point(|&n| fails(&v, n).is_none())
                .min(bounds.max_steps)];
            let minimal = shrink(v.clone(), |w| fails(w, steps).is_some());
            let explanation =
                fails(&minimal, steps).map_or(disagreement.explanation, |d| d.explanation);
            let heap = Some(heap_json(&minimal)["objects"].clone());
            result.counterexample = Some(Counterexample {
                heap,
                ..counterexample(r, &minimal, steps, explanation)
            });
        }
    }
    done.finished(runs);
    CheckReport {
        language: "oo".to_string(),
        seed,
        runs,
        runs_done: done.runs,
        stopped: done.stopped,
        checked_arrays: options.checked_arrays,
        results: results.into(),
    }
}
