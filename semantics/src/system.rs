//! The one interface every semantics offers: a transition system whose
//! configurations have successors, each labelled with the paper's rule that
//! produced it. The explorer, the stepper, test replay and the property
//! tests are all written against this trait.

use crate::eval::{eval_bool, eval_sharing, EvalError, GroundValues, Valuation};
use crate::oo::action::Action;
use crate::program::{Code, Outcome, Point, Stmt};
use crate::subst::Substitution;
use crate::term::{Name, Term};
use std::fmt;

/// The transition rules of §2–§4 (symbolic and concrete rules share names:
/// a concrete run follows the same path as a symbolic one when it takes the
/// same sequence of rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    Skip,
    Assignment,
    ArrayAssignment,
    ChoiceThen,
    ChoiceElse,
    IterationEnter,
    IterationExit,
    AssertHolds,
    AssertFails,
    Assume,
    AssumptionViolated,
    /// A `δ` check failed (§2.1, `--checked-arrays`).
    ArrayOutOfBound,
    GlobalAssignment,
    LocalAssignment,
    ProcedureCall,
    ProcedureReturn,
    /// `e.f := e'` (§4: an assignment to the heap variable `e.f`).
    FieldAssignment,
    ObjectCreation,
    MethodCall,
    MethodReturn,
    /// A field of `nil` read or written, or a method called on `nil` (§4's `⊥`).
    NilDereference,
    /// A Boolean test `b` of a trace (§4, concrete semantics of traces).
    BooleanTest,
    /// `havoc x̄`: new inputs read (King's READ).
    Havoc,
    /// Lazy initialisation (Khurshid, Păsăreanu & Visser 2003): a
    /// reference input read for the first time is `nil`.
    LazyNil,
    /// … is a fresh input object with uninitialised fields (or an array
    /// element read for the first time is a new cell).
    LazyFresh,
    /// … is an input object (an array cell) initialised before: aliasing.
    LazyAlias,
    /// … an array element read for the first time lies out of bounds
    /// (`--checked-arrays`): no cell holds it.
    LazyOutOfBound,
    /// A condition the lazy evaluation of a statement needs before it reads
    /// further (a short-circuit operand, the test of a conditional over
    /// objects) is taken true or false, as a bytecode branch would be.
    Decision,
}

impl Rule {
    /// The rule's name in the paper (without "symbolic"/"concrete").
    pub fn name(self) -> &'static str {
        match self {
            Rule::Skip => "skip",
            Rule::Assignment => "assignment",
            Rule::ArrayAssignment => "array assignment",
            Rule::ChoiceThen => "choice (then)",
            Rule::ChoiceElse => "choice (else)",
            Rule::IterationEnter => "iteration (enter)",
            Rule::IterationExit => "iteration (exit)",
            Rule::AssertHolds => "assert (holds)",
            Rule::AssertFails => "assert (fails)",
            Rule::Assume => "assume",
            Rule::AssumptionViolated => "assume (violated)",
            Rule::ArrayOutOfBound => "array-out-of-bound",
            Rule::GlobalAssignment => "assignment global variable",
            Rule::LocalAssignment => "assignment local variable",
            Rule::ProcedureCall => "procedure call",
            Rule::ProcedureReturn => "procedure return",
            Rule::FieldAssignment => "field assignment",
            Rule::ObjectCreation => "object creation",
            Rule::MethodCall => "method call",
            Rule::MethodReturn => "method return",
            Rule::NilDereference => "nil-dereference",
            Rule::BooleanTest => "Boolean test",
            Rule::Havoc => "havoc",
            Rule::LazyNil => "lazy initialisation (nil)",
            Rule::LazyFresh => "lazy initialisation (new object)",
            Rule::LazyAlias => "lazy initialisation (alias)",
            Rule::LazyOutOfBound => "lazy initialisation (out of bounds)",
            Rule::Decision => "decision",
        }
    }

    /// Whether the rule only chooses how an input or a condition the path
    /// reads is resolved (lazy initialisation): the program takes no step,
    /// so a concrete run has no counterpart of it.
    pub fn is_lazy(self) -> bool {
        matches!(
            self,
            Rule::LazyNil
                | Rule::LazyFresh
                | Rule::LazyAlias
                | Rule::LazyOutOfBound
                | Rule::Decision
        )
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One transition `c → c'`.
#[derive(Clone, Debug)]
pub struct Step<C> {
    pub rule: Rule,
    /// The condition the rule conjoins to the path condition (`bσ`, `¬bσ`,
    /// `δ(eσ)`, …); `true` for rules that add none and for concrete rules.
    pub guard: Term,
    pub next: C,
}

/// Which of the symbolic `successors` a concrete step by `rule`, in a run
/// from the inputs `v0`, selects: the one by the same rule whose guard `v0`
/// satisfies. This is the symbolic computation that the proof of Theorem 2.4
/// (completeness) builds beside a concrete one, and that concolic execution
/// records. `None` when there is none (a concrete step with no symbolic
/// counterpart: `assume` violated).
pub fn selected<C>(successors: &[Step<C>], rule: Rule, v0: &Valuation) -> Option<usize> {
    successors
        .iter()
        .position(|step| step.rule == rule && eval_bool(&step.guard, v0) == Ok(true))
}

/// A transition system: configurations and their labelled successors.
pub trait TransitionSystem {
    type Config: Clone + fmt::Display;

    /// Every `c'` with `c → c'`; empty exactly when `c` is terminal.
    fn successors(&self, config: &Self::Config) -> Vec<Step<Self::Config>>;

    /// The successors, or why a configuration that is not terminal has none:
    /// an expression with no value, which a concrete run meets when its
    /// valuation does not fit the program or an integer outgrows the
    /// evaluator's bound. Symbolic systems compute no values.
    fn try_successors(&self, config: &Self::Config) -> Result<Vec<Step<Self::Config>>, EvalError> {
        Ok(self.successors(config))
    }
}

/// What the explorer and the reports need to know of a configuration,
/// symbolic or concrete.
pub trait Configuration {
    /// `None` while running; how the run ended once terminal.
    fn outcome(&self) -> Option<Outcome>;

    /// The statement about to execute (`A` in `A; S`), in the active frame.
    fn head(&self) -> Option<&Stmt>;

    /// The largest number of active calls of any one procedure (`--unfold`).
    fn max_active_calls(&self) -> usize;

    /// How many input objects the path has materialised, where inputs are
    /// initialised lazily (`--max-objects`).
    fn materialised_objects(&self) -> usize {
        0
    }

    /// How many frames the stack holds (one for the main statement): a
    /// loop runs anew in each call of its procedure.
    fn frames(&self) -> usize {
        1
    }
}

/// How often the most frequent of `callees` occurs: the active calls of the
/// most-nested procedure on a stack. Counted in a list, not a hash map: a
/// program has few procedures.
pub fn most_active<'a>(callees: impl Iterator<Item = &'a Name>) -> usize {
    let mut counts: Vec<(&Name, usize)> = Vec::new();
    for p in callees {
        match counts.iter_mut().find(|(q, _)| *q == p) {
            Some((_, n)) => *n += 1,
            None => counts.push((p, 1)),
        }
    }
    counts.into_iter().map(|(_, n)| n).max().unwrap_or(0)
}

/// A configuration of a symbolic system.
pub trait SymbolicConfiguration: Configuration {
    /// `φ`.
    fn path_condition(&self) -> &Term;

    /// `σ` on the global variables (unchanged ones map to themselves).
    fn global_state(&self) -> Vec<(Name, Term)>;

    /// The final state this path predicts for a run from `inputs`, a model
    /// of its path condition: `V ∘ σ` on the globals (Theorem 2.3). The
    /// unfolding of a program with classes predicts it by running its trace,
    /// `⟨V, ρ⟩ →* ⟨V', ε⟩` (Theorem 4.5), which also names the objects the
    /// path creates.
    /// `ground` keeps the values of ground subterms from one call to the
    /// next (the paths of an exploration share their states' prefixes).
    fn predicted_state(
        &self,
        inputs: &Valuation,
        ground: &mut GroundValues,
    ) -> Result<Valuation, String> {
        evaluated_state(self, inputs, ground)
    }

    /// A model of the path condition, made into the program's inputs: the
    /// unfolding gives each object every field of its class and keeps only
    /// the objects the path needs.
    fn inputs_from(&self, model: Valuation) -> Valuation {
        model
    }

    /// The symbols besides the program's inputs that the path condition
    /// may mention, which a model given to [`SymbolicConfiguration::inputs_from`]
    /// must assign: the fields lazy initialisation materialised (`Node@1.val`).
    fn symbols(&self) -> Vec<(Name, crate::term::Sort)> {
        Vec::new()
    }

    /// The input heap a path has materialised, where the semantics keeps
    /// the heap explicit (lazy initialisation); `None` otherwise.
    fn input_heap(&self) -> Option<crate::oo::lazy::InputHeap> {
        None
    }

    /// The state as a symbolic heap configuration at its program point
    /// (Anand et al.'s Definition 1), for state subsumption; `None` where
    /// the semantics keeps no explicit heap.
    fn state_graph(&self) -> Option<crate::oo::lazy::graph::StateGraph> {
        None
    }

    /// Replaces `φ` by `path_condition` and each value `e` of the
    /// substitutions by `fold(e)`, both equivalent to what they replace: the
    /// explorer keeps a path's configuration condensed (a loop counter's
    /// `0 + 1 + … + 1` as its literal, the conditions merged as reported),
    /// so that what it holds does not grow with each unfolding. An
    /// unfolding, whose path condition comes from its trace, keeps its own.
    fn condense(&mut self, _path_condition: &Term, _fold: &mut dyn FnMut(&Term) -> Term) {}

    /// Whether [`SymbolicConfiguration::condense`] does anything: an
    /// explorer that simplifies conditions only to condense may leave them
    /// raw where it does not.
    const CONDENSES: bool = false;

    /// The actions the symbolic trace gained since `earlier`, a configuration
    /// this one was reached from, for a system that records a trace (§4).
    fn actions_since(&self, _earlier: &Self) -> Option<Vec<Action>> {
        None
    }

    /// The inputs this path has read besides the program's globals
    /// (`havoc`, King's READ), each a fresh symbol a model must give.
    fn read_inputs(&self) -> Vec<(Name, crate::term::Sort)> {
        Vec::new()
    }

    /// The trace `ρ` of a system that records one (§4), whose configurations
    /// are `⟨S, ρ⟩` with the path condition `path(ρ)`; `None` for `⟨S, σ, φ⟩`.
    fn trace(&self) -> Option<Vec<Action>> {
        None
    }

    /// Where the configuration stands, for state merging; `None` for one
    /// that does not merge (an unfolding, whose path condition is its trace's).
    fn point(&self) -> Option<Point> {
        None
    }

    /// The configuration at the point of `self` and `other` (their points
    /// are equal) with the path condition `phi` and, at every variable
    /// whose values differ, `value(x, v1, v2)`; `None` where [`Self::point`] is.
    fn join(
        &self,
        _other: &Self,
        _phi: Term,
        _value: &mut dyn FnMut(&Name, &Term, &Term) -> Term,
    ) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }

    /// The statements still to run, the active frame's first and then each
    /// caller's; `None` where the configuration does not list them.
    fn continuation(&self) -> Option<Vec<&Stmt>> {
        None
    }

    /// This configuration with the code `code` makes of its own, the
    /// globals `updates` rebound and the path condition `phi` (the start of
    /// a loop body over fresh values, the exit of a loop summarised at
    /// once); `None` where the configuration has no such form (frames, traces).
    fn rebuilt(
        &self,
        _code: &dyn Fn(&Code) -> Code,
        _updates: &[(Name, Term)],
        _phi: Term,
    ) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }

    /// The value of `e` here over the initial state: `eσ` (§2, §3), or
    /// `wp_ρ(e)` for an unfolding, where fields change too (§4).
    fn after(&self, e: &Term) -> Term {
        self.global_state()
            .into_iter()
            .fold(Substitution::identity(), |s, (x, v)| s.update(x, v))
            .apply(e)
    }
}

/// `V ∘ σ` on the globals of `config`: each value of its state evaluated
/// under `inputs`, the values of ground subterms kept in `ground` from one
/// call to the next.
pub fn evaluated_state<C: SymbolicConfiguration + ?Sized>(
    config: &C,
    inputs: &Valuation,
    ground: &mut GroundValues,
) -> Result<Valuation, String> {
    // Collected first, so the valuation is allocated at its size (exploration
    // keeps one per path waiting to be reported).
    let values = config
        .global_state()
        .into_iter()
        .map(|(x, e)| {
            eval_sharing(&e, inputs, ground)
                .map_err(|error| format!("the final state of `{x}` has no value: {error}"))
                .map(|value| (x, value))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut predicted: Valuation = values.into_iter().collect();
    predicted.heap = inputs.heap.clone();
    Ok(predicted)
}

/// A configuration of a concrete system.
pub trait ConcreteConfiguration: Configuration {
    /// `V` (or `G`) on the global variables.
    fn global_state(&self) -> Valuation;

    /// The local variables of the active closure (`L` of §3's top closure);
    /// none outside a procedure.
    fn local_state(&self) -> Valuation {
        Valuation::new()
    }

    /// The statement about to run and the values its expressions are read
    /// in (with the top closure's locals and the heap), to say what went
    /// wrong when the run halts there; `None` when nothing is left to run.
    fn current(&self) -> Option<(&Stmt, Valuation)> {
        None
    }
}

/// Choices a semantics is run with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// §2.1 bounded arrays: every access `a[e]` requires `0 ≤ e < len(a)` and
    /// otherwise steps to `array-out-of-bound`.
    pub checked_arrays: bool,
    /// The input precondition `acyclic` (Anand, Păsăreanu & Visser 2006,
    /// §6: the list partition takes "an acyclic linked list"): no input
    /// object reaches itself through reference fields. Lazy initialisation
    /// applies it as the paper applies method preconditions, by never
    /// offering an alias that would close a cycle among the input objects
    /// it materialised ([`crate::heap::Heap::cycle`] is the same condition
    /// on a concrete heap).
    pub acyclic: bool,
}
