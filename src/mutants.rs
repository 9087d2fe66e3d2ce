//! Deliberate mistakes in the tool's shortcuts and checkers, each one small
//! change, for the tests that show a property catches it (in
//! `proofs-tests/`, beside the property each one breaks): the explorer's
//! intervals, model repair and solver chain, constraint independence, the simplifier's gcd
//! rounding, the §4 agreement, the input generator, state subsumption and
//! the split into shards, the congruence closure, the models left unreadable, the readable path
//! conditions kept per node. Compiled in with the `mutants` feature only,
//! switched on for the current thread by [`set`]; without the feature
//! [`active`] is the constant `false`. (The Z3 encoding has its own,
//! [`crate::solver::Mutant`].)

/// A broken shortcut or checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutant {
    /// The interval a bound `x > c` allows starts at `c`, not `c + 1`.
    IntervalOfGreaterOffByOne,
    /// The solver chain leaves out the earlier guard when it implies the
    /// new one (the stronger guard dropped, not the weaker).
    StrongerGuardDropped,
    /// Two intervals meet at the smaller of their lower bounds.
    LooserIntervalMeet,
    /// An independent slice takes the guards that share a variable with
    /// the new guard only, not those sharing one with a guard taken in.
    NonTransitiveSlice,
    /// Model repair takes a mended model that satisfies the new guard
    /// without confirming it on the path's earlier guards.
    RepairUnconfirmed,
    /// `k * L <= c` divided by `k` rounds `c / k` up, not down.
    GcdRoundsUp,
    /// §4's agreement compares the variables and not the heap.
    AgreementIgnoresHeap,
    /// The input generator never makes a reference `nil` when its class has objects.
    GeneratorNeverNil,
    /// State subsumption takes any stored heap that matches as subsuming,
    /// whatever the path conditions (no numeric entailment).
    SubsumptionIgnoresNumbers,
    /// Exploring without readable models drops the models Z3 found
    /// instead of reporting them as found.
    UnreadModelDropped,
    /// A guard is rewritten under a context that holds the guard itself
    /// (so it is entailed and goes) when a node extends its parent's
    /// readable path condition.
    ContextHoldsItsConjunct,
    /// A conjunct whose entailment is refuted spares the questions about
    /// all its atoms, not only its disjuncts ([`crate::simplify::InContext`]).
    RefutedConjunctSparesEveryAtom,
    /// A model of the context where an atom is false spares the question
    /// whether the context entails its negation, and one where it is
    /// true the question about the atom ([`crate::simplify::InContext`]).
    ModelSparesTheOtherQuestion,
    /// The path's model spares questions under a context it does not
    /// satisfy ([`crate::simplify::InContext::condition_under`]).
    PathModelUnchecked,
    /// The prefix's model refutes a conjunct under a context it does not
    /// satisfy ([`crate::simplify::InContext::extended_under`]).
    PrefixModelUnchecked,
    /// The path's or the prefix's model, mended to satisfy an atom, spares
    /// a question under a context it does not satisfy
    /// ([`crate::simplify::InContext::extended_under`]).
    MendedModelUnchecked,
    /// The path's model with a fresh copy of an object refutes a conjunct
    /// under a context it does not satisfy
    /// ([`crate::simplify::InContext::condition_under`]).
    FreshCopyUnchecked,
    /// The operator egg indexes an e-class by depends on an e-node's
    /// children, so a rule misses nodes its pattern matches.
    DiscriminantSeesChildren,
    /// The simplifier searches only for the rules whose left sides'
    /// operators the e-graph holds already, forgetting those the other
    /// rules bring in (`implies-as-or` brings in `||` for `de-morgan-or`).
    RulesForPresentOperatorsOnly,
    /// The check that no rule can rewrite a term before it enters egg
    /// tries the rules' left sides at its root only, not at its subterms
    /// (`crate::simplify::unmatched`).
    UnmatchedLooksAtRootOnly,
    /// The same check takes a rule with a side condition for never
    /// applying (`crate::simplify::unmatched`).
    UnmatchedSideConditionFails,
    /// A quiet term's normal form is taken for egg's result without
    /// checking that no rule rewrites the normal form either
    /// (`crate::simplify::known`).
    KnownNormalFormUnchecked,
    /// A Boolean zero is taken for a unit too: `x` for `true || x`
    /// (`crate::simplify::known`).
    KnownZeroTakenForUnit,
    /// `a ==> c && a` is taken for `a ==> a` whatever `c` is
    /// (`crate::simplify::known`).
    KnownConjunctDropped,
    /// `!(a && b)` is taken to end as `a' || b'` even where that is no
    /// shorter, so egg extracts the original (`crate::simplify::known`).
    KnownPushedWhateverItsLength,
    /// A comparison new in the normal form of `a' || b'` is taken for
    /// quiet unchecked (`crate::simplify::known`).
    KnownJoinedUnchecked,
    /// The comparison of a conditional's other branch with the operand its
    /// folding branch equals is taken for quiet unchecked
    /// (`crate::simplify::folded_branch`).
    KnownBranchOtherUnchecked,
    /// The negation of such a comparison is taken to end as the comparison
    /// turned round pushed into the branches even where that is no
    /// shorter, so egg extracts another form (`crate::simplify::negated_branch`).
    KnownNegatedBranchWhateverItsLength,
    /// `a ==> q` is taken to end as `a' || q` even where that is no
    /// shorter, so egg extracts the implication (`crate::simplify::implication`).
    KnownImplicationWhateverItsLength,
    /// Two comparisons joined, one inside a Boolean unit, are taken to end
    /// as the normal form of the two joined, whatever it is
    /// (`crate::simplify::nested_unit`).
    KnownNestedUnitWhateverItsNormalForm,
    /// The simplifier's scheduler leaves out applying a rule that matched
    /// once, not only one that matched nowhere (`crate::simplify::scheduler`).
    SingleMatchUnapplied,
    /// The simplifier's scheduler reads the e-graph's edges in the first
    /// iteration of a run of egg only, so a rule whose edges a later
    /// iteration brings in goes unsearched (`crate::simplify::edges`).
    EdgesKeptAcrossIterations,
    /// The simplifier's scheduler reads the kinds of an e-node's children
    /// as if each were its first (`crate::simplify::edges`).
    EdgesAtFirstChild,
    /// A shard leaves the first prefix it owns unexplored (`--shard`).
    ShardSkipsItsFirstPrefix,
    /// An equality of references that a path's `nil` facts decide is
    /// resolved the wrong way round ([`crate::simplify::HeapFacts`]).
    AliasingDecidedWrongWay,
    /// A new `nil` fact keeps the equalities [`crate::simplify::HeapFacts`]
    /// answered under the facts before it.
    AliasingEqualitiesKept,
    /// `explore --jobs` writes the workers' blocks in the order they
    /// finish instead of depth-first order.
    BlocksWrittenAsTheyFinish,
    /// The congruence closure merges what equalities say and not their
    /// consequences (`x = y` without `x.f = y.f`).
    CongruenceForgotten,
    /// The congruence closure drops the disequalities of references.
    DisequalityForgotten,
    /// The congruence closure's integer bounds take `x < y` as `x ≤ y - 2`.
    StrictBoundTooStrict,
    /// Popping the congruence closure's guards keeps what the popped
    /// guards said (`explore::congruence::ClosureStack`).
    ClosureNotRolledBack,
    /// The closure of an entailment question's context is kept for the
    /// next question although its context differs
    /// (`explore::congruence::ContextClosure`).
    ContextClosureKeptAcrossContexts,
    /// A disjunction is appended to a plain conjunction without looking
    /// for a disjunct that absorbs it (`simplify::append`).
    DisjunctionAbsorptionIgnored,
    /// `tests --jobs` and `verify --jobs` take the workers' stretches in
    /// the order they finish instead of depth-first order.
    StretchesInCompletionOrder,
    /// The normal form orders the atoms of a sum by term id (the order
    /// they were made in) instead of by their printed form.
    AtomsOrderedById,
}

symex_semantics::mutant_switch!(Mutant);
