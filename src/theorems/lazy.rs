//! Lazy initialisation (Khurshid, Păsăreanu & Visser 2003) against the
//! program semantics, from concrete inputs `V`: the program runs from `V`
//! while the lazy system follows it, and at every step of the lazy system
//!
//! - exactly one successor matches `V`: its input heap embeds into `V`
//!   (variables and fields it initialised hold, in `V`, the objects it
//!   names, one object of the right class each, `nil` where it says `nil`)
//!   and its guard holds once its symbols take their values in `V` — so
//!   the lazy paths partition the inputs, and the one `V` follows is found;
//! - every way of initialising a reference stands for real inputs: its
//!   model is a well-typed heap its input heap embeds into, and under the
//!   precondition `acyclic` an acyclic one (`V` is then drawn acyclic, and
//!   a cyclic `V` is outside the program's domain);
//! - the matching successor takes the program's step (lazy initialisation
//!   steps take none), and the two end in the same outcome and the same
//!   final globals and heap, the lazy path's predicted from `V`.
//!
//! Checked on at most a number of the program's steps: a path cut there
//! is a case of its own.

use super::cases::Cases;
use std::collections::BTreeMap;
use symex_semantics::eval::{eval_bool, ShowValuation, Valuation};
use symex_semantics::oo::concrete::{self, Concrete};
use symex_semantics::oo::lazy::{InputHeap, Lazy, Rules};
use symex_semantics::oo::unfold::Config;
use symex_semantics::program::{Outcome, Program};
use symex_semantics::system::{
    ConcreteConfiguration, Configuration, Rule, SymbolicConfiguration, TransitionSystem,
};
use symex_semantics::term::{Name, Sort, Term, TermKind};
use symex_semantics::value::{Oid, Value};

/// The name of the result, for reports.
pub const LAZY_RESULT: &str = "lazy initialisation agrees with the program semantics";

/// The lazy system of a program and its program semantics.
pub struct LazyWalk<'a, R: Rules> {
    pub lazy: &'a Lazy<R>,
    pub concrete: &'a Concrete,
    pub program: &'a Program,
}

/// Lazy steps before one statement runs at most: each resolves one read,
/// and a statement reads a few things.
const MAX_RESOLUTIONS: usize = 64;

/// The input objects of a lazy path, each with the object of `V` it is.
type Embedding = BTreeMap<Name, Oid>;

impl<R: Rules> LazyWalk<'_, R> {
    /// Follows the program from `v` for at most `steps` of its steps,
    /// adding what was checked to `cases`: the outcome both reach (`None`
    /// where the run is cut or leaves the program's domain), or the first
    /// disagreement.
    pub fn run(
        &self,
        v: &Valuation,
        steps: usize,
        cases: &mut Cases,
    ) -> Result<Option<Outcome>, String> {
        let acyclic = self.lazy.options().acyclic;
        if acyclic && v.heap.cycle().is_some() {
            cases.add("cyclic heap outside the precondition");
            return Ok(None);
        }
        let mut program = self.concrete.initial(v.clone());
        let mut path = self.lazy.initial();
        let mut objects = Embedding::new();
        let (mut taken, mut resolving) = (0, 0);
        loop {
            let next = match self.concrete.try_successors(&program) {
                Err(error) if error.is_too_large() => {
                    cases.add("integer bound reached");
                    return Ok(None);
                }
                successors => successors
                    .map_err(|error| format!("in {program}: {error}"))?
                    .into_iter()
                    .next(),
            };
            let mut matching = Vec::new();
            let successors = self.lazy.successors(&path);
            if acyclic && refuses_an_alias(&path, &successors) {
                cases.add(REFUSED_ALIAS);
            }
            for step in successors {
                if matches!(step.rule, Rule::LazyNil | Rule::LazyFresh | Rule::LazyAlias)
                    && step.guard.is_true()
                {
                    self.stands_for_inputs(&step.next, v, &objects)?;
                }
                if let Some(extended) = self.matches(&step.next, &step.guard, v, &objects) {
                    matching.push((step, extended));
                }
            }
            if matching.len() > 1 {
                return Err(format!(
                    "from V = {}: {} successors of {path} match V",
                    ShowValuation(v),
                    matching.len()
                ));
            }
            let Some((step, extended)) = matching.pop() else {
                return match next {
                    None => self
                        .ends_alike(&program, &path, v, &objects, cases)
                        .map(|()| program.outcome()),
                    Some(step) if step.rule == Rule::AssumptionViolated => {
                        cases.add("assumption violated");
                        Ok(None)
                    }
                    Some(_) => Err(format!(
                        "from V = {}: no successor of {path} matches V, where the program steps from {program}",
                        ShowValuation(v)
                    )),
                };
            };
            cases.add(step.rule);
            objects = extended;
            if step.rule.is_lazy() {
                resolving += 1;
                if resolving > MAX_RESOLUTIONS {
                    return Err(format!(
                        "from V = {}: {MAX_RESOLUTIONS} lazy steps without a step of the program at {path}",
                        ShowValuation(v)
                    ));
                }
                path = step.next;
                continue;
            }
            resolving = 0;
            let Some(program_step) = next else {
                return Err(format!(
                    "from V = {}: the program has halted in {program}, the lazy path steps by {}",
                    ShowValuation(v),
                    step.rule
                ));
            };
            if program_step.rule != step.rule {
                return Err(format!(
                    "from V = {}: the program steps by {} from {program}, the lazy path by {}",
                    ShowValuation(v),
                    program_step.rule,
                    step.rule
                ));
            }
            (program, path) = (program_step.next, step.next);
            taken += 1;
            if taken == steps {
                cases.add("bound reached");
                return Ok(None);
            }
        }
    }

    /// The embedding of `config`'s input heap into `v` extending `objects`,
    /// if there is one and `guard` holds with the symbols' values in `v`.
    fn matches(
        &self,
        config: &Config<symex_semantics::oo::lazy::State<R>>,
        guard: &Term,
        v: &Valuation,
        objects: &Embedding,
    ) -> Option<Embedding> {
        let heap = config.input_heap()?;
        let extended = embedding(&heap, v, objects)?;
        let w = with_symbols(&heap, v, &extended);
        (eval_bool(guard, &w) == Ok(true)).then_some(extended)
    }

    /// The model of `config` — its input heap with the symbols' values in
    /// `v`, the rest at defaults — is a well-typed heap that embeds it.
    fn stands_for_inputs(
        &self,
        config: &Config<symex_semantics::oo::lazy::State<R>>,
        v: &Valuation,
        objects: &Embedding,
    ) -> Result<(), String> {
        let Some(heap) = config.input_heap() else {
            return Ok(());
        };
        let known = objects
            .iter()
            .filter(|(name, _)| heap.objects.iter().any(|o| &o.name == *name))
            .map(|(name, o)| (name.clone(), *o))
            .collect();
        let model = config.inputs_from(with_symbols(&heap, v, &known));
        well_typed(self.program, &model)
            .map_err(|why| format!("the model of {heap} is not a heap of the program: {why}"))?;
        if let Some(cycle) = model.heap.cycle().filter(|_| self.lazy.options().acyclic) {
            return Err(format!(
                "the model of {heap} has a cycle through {}, which the precondition acyclic excludes",
                cycle[0].0
            ));
        }
        match embedding(&heap, &model, &Embedding::new()) {
            Some(_) => Ok(()),
            None => Err(format!(
                "the model {} does not have the input heap {heap}",
                ShowValuation(&model)
            )),
        }
    }

    /// Both have halted: the same outcome, the same globals and heap.
    fn ends_alike(
        &self,
        program: &concrete::Config,
        path: &Config<symex_semantics::oo::lazy::State<R>>,
        v: &Valuation,
        objects: &Embedding,
        cases: &mut Cases,
    ) -> Result<(), String> {
        if program.outcome() != path.outcome() {
            return Err(format!(
                "from V = {}: the program ends in {program}, the lazy path in {path}",
                ShowValuation(v)
            ));
        }
        cases.add(super::unfolding::outcome_case(program));
        let predicted = path.state.prediction(v, objects, self.program)?;
        let actual = program.global_state();
        let differs = predicted
            .iter()
            .find(|(x, value)| actual.get(x) != Some(*value))
            .map(|(x, value)| format!("`{x}` ends as {:?}, predicted {value}", actual.get(x)))
            .or_else(|| {
                (actual.heap != predicted.heap).then(|| {
                    format!(
                        "the heap ends as {}, predicted {}",
                        actual.heap, predicted.heap
                    )
                })
            });
        match differs {
            None => Ok(()),
            Some(why) => Err(format!("from V = {}: {why}", ShowValuation(v))),
        }
    }
}

/// The case of a lazy initialisation of a field that offers fewer aliases
/// than there are input objects of its class: the precondition `acyclic`
/// refused one.
pub const REFUSED_ALIAS: &str = "alias refused by the precondition acyclic";

/// Whether `steps`, the ways of initialising a reference read from `path`,
/// alias fewer input objects than `path` has materialised of the class of
/// the fresh object among them.
fn refuses_an_alias<R: Rules>(
    path: &Config<symex_semantics::oo::lazy::State<R>>,
    steps: &[symex_semantics::system::Step<Config<symex_semantics::oo::lazy::State<R>>>],
) -> bool {
    let fresh_class = steps
        .iter()
        .filter(|step| step.rule == Rule::LazyFresh)
        .find_map(|step| {
            step.next
                .state
                .input_objects()
                .last()
                .map(|(_, c)| c.clone())
        });
    let Some(class) = fresh_class else {
        return false;
    };
    let candidates = path
        .state
        .input_objects()
        .filter(|(_, c)| **c == class)
        .count();
    let aliases = steps
        .iter()
        .filter(|step| step.rule == Rule::LazyAlias)
        .count();
    aliases < candidates
}

/// The embedding of `heap` into `v` that extends `known`: each input
/// object an object of `v` of its class, distinct objects distinct, each
/// reference it initialised holding in `v` what it says.
fn embedding(heap: &InputHeap, v: &Valuation, known: &Embedding) -> Option<Embedding> {
    let mut objects = known.clone();
    for (x, term) in &heap.vars {
        bind(term, v.get(x)?, &mut objects, v)?;
    }
    // An object is reached from a variable or from an object before it.
    let mut pending: Vec<_> = heap.objects.iter().collect();
    while !pending.is_empty() {
        let before = pending.len();
        let mut later = Vec::new();
        for object in pending {
            let Some(o) = objects.get(&object.name).copied() else {
                later.push(object);
                continue;
            };
            if v.heap.get(o)?.class != object.class {
                return None;
            }
            for (f, term) in &object.fields {
                if let Some(term) = term {
                    bind(term, v.heap.field(o, f)?, &mut objects, v)?;
                }
            }
        }
        if later.len() == before {
            return None;
        }
        pending = later;
    }
    Some(objects)
}

/// `term`, an input value of a lazy path, against `value`, the value in
/// `v`: `nil` for `nil`, an input object for the object it is (bound when
/// first met); a symbol for anything of its sort.
fn bind(term: &Term, value: &Value, objects: &mut Embedding, v: &Valuation) -> Option<()> {
    match (term.kind(), value) {
        (TermKind::Nil(_), Value::Nil) => Some(()),
        (TermKind::Var(name, Sort::Object(class)), Value::Object(o)) => {
            if v.heap.get(*o).map(|object| &object.class) != Some(class) {
                return None;
            }
            match objects.get(name) {
                Some(bound) => (bound == o).then_some(()),
                None if objects.values().any(|other| other == o) => None,
                None => {
                    objects.insert(name.clone(), *o);
                    Some(())
                }
            }
        }
        (TermKind::Nil(_) | TermKind::Var(_, Sort::Object(_)), _) => None,
        _ => Some(()),
    }
}

/// `v` with each input object's name and each symbol `C@k.f` of `heap`
/// at its value under `objects`.
fn with_symbols(heap: &InputHeap, v: &Valuation, objects: &Embedding) -> Valuation {
    let mut w = v.clone();
    for object in &heap.objects {
        let Some(o) = objects.get(&object.name) else {
            continue;
        };
        w.insert(object.name.clone(), Value::Object(*o));
        for (f, term) in &object.fields {
            if let (Some(term), Some(value)) = (term, v.heap.field(*o, f)) {
                if let TermKind::Var(symbol, sort) = term.kind() {
                    if !matches!(sort, Sort::Object(_)) {
                        w.insert(symbol.clone(), value.clone());
                    }
                }
            }
        }
    }
    w
}

/// Every reference of `v` (variables and fields) is `nil` or an object of
/// the heap of its declared class.
pub fn well_typed(program: &Program, v: &Valuation) -> Result<(), String> {
    let fits = |value: &Value, sort: &Sort, place: &str| match (value, sort) {
        (Value::Object(o), Sort::Object(class)) => match v.heap.get(*o) {
            Some(object) if &object.class == class => Ok(()),
            Some(object) => Err(format!(
                "{place} is the {} {o}, not a {class}",
                object.class
            )),
            None => Err(format!("{place} is {o}, which is no object of the heap")),
        },
        _ => Ok(()),
    };
    for (x, sort) in &program.globals {
        if let Some(value) = v.get(x) {
            fits(value, sort, &format!("`{x}`"))?;
        }
    }
    for (o, object) in v.heap.iter() {
        let class = program
            .classes
            .get(&object.class)
            .ok_or_else(|| format!("{o} has the unknown class {}", object.class))?;
        for (f, sort) in &class.fields {
            let value = object
                .fields
                .get(f)
                .ok_or_else(|| format!("{o} has no field `{f}`"))?;
            fits(value, sort, &format!("{o}.{f}"))?;
        }
    }
    Ok(())
}

/// [`LazyWalk`] on `runs` random consistent heaps of `program` drawn from
/// `seed` (`symex check --method lazy`), with a minimal counterexample if
/// one disagrees: the shortest run that shows it, the inputs shrunk.
pub fn check_lazy(
    program: std::rc::Rc<Program>,
    options: symex_semantics::system::Options,
    runs: u64,
    seed: u64,
    bounds: super::check::Bounds,
) -> super::check::CheckReport {
    use super::check::{counterexample, CheckReport, Counterexample, ResultReport};
    use super::inputs::{random_heap_inputs, shrink};
    use rand::SeedableRng;
    let lazy = symex_semantics::oo::lazy::lazy(
        program.clone(),
        options,
        symex_semantics::oo::inline::ThisRule::Fresh,
    );
    let concrete = Concrete::new(program.clone(), options);
    let walk = LazyWalk {
        lazy: &lazy,
        concrete: &concrete,
        program: &program,
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut result = ResultReport {
        result: LAZY_RESULT.to_string(),
        cases: 0,
        undecided: 0,
        counterexample: None,
    };
    let mut done = super::check::Done::default();
    for r in 0..runs {
        if done.stop(r, bounds.deadline) {
            break;
        }
        let drawn = random_heap_inputs(&program, &mut rng);
        let v = if options.acyclic {
            let heap = drawn.heap.without_cycles();
            drawn.with_heap(heap)
        } else {
            drawn
        };
        let mut cases = Cases::default();
        let found = walk.run(&v, bounds.max_steps, &mut cases);
        result.cases += cases.total();
        if found.is_ok() {
            continue;
        }
        let fails = |w: &Valuation, steps: usize| walk.run(w, steps, &mut Cases::default()).err();
        let lengths: Vec<usize> = (1..=bounds.max_steps).collect();
        let steps = lengths[lengths
            .partition_point(|&n| fails(&v, n).is_none())
            .min(bounds.max_steps - 1)];
        let minimal = shrink(v.clone(), |w| fails(w, steps).is_some());
        let explanation = fails(&minimal, steps).or(found.err()).unwrap_or_default();
        result.counterexample = Some(Counterexample {
            heap: Some(crate::report::values::heap_json(&minimal)["objects"].clone()),
            ..counterexample(r, &minimal, steps, explanation)
        });
        break;
    }
    done.finished(runs);
    CheckReport {
        language: "oo (lazy initialisation)".to_string(),
        seed,
        runs,
        runs_done: done.runs,
        stopped: done.stopped,
        checked_arrays: options.checked_arrays,
        results: vec![result],
    }
}
