//! A language's symbolic and concrete transition systems side by side, and
//! the relation the correctness and completeness theorems state between
//! their configurations: under a valuation `V`, the symbolic `⟨S, σ, φ⟩`
//! stands for the concrete `⟨S, V∘σ⟩` (§2), and `⟨(τ, S)·Δ, σ, φ⟩` for
//! `⟨(V∘τ, S)·V•Δ, V∘σ⟩` (§3).

use std::collections::BTreeMap;
use symex_semantics::eval::Valuation;
use symex_semantics::subst::Substitution;
use symex_semantics::system::{ConcreteConfiguration, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::{Name, Sort, Term};

/// The configurations of a simulation's symbolic system.
pub type SymbolicConfig<M> = <<M as Simulation>::Symbolic as TransitionSystem>::Config;

/// The configurations of a simulation's concrete system.
pub type ConcreteConfig<M> = <<M as Simulation>::Concrete as TransitionSystem>::Config;

/// Two transition systems of one program, and how their configurations
/// correspond. The checkers of this module are written against this trait
/// only, so a deliberately broken rule (a mutant) can stand in for a real one.
pub trait Simulation {
    type Symbolic: TransitionSystem<Config: SymbolicConfiguration>;
    type Concrete: TransitionSystem<Config: ConcreteConfiguration>;

    fn symbolic(&self) -> &Self::Symbolic;

    fn concrete(&self) -> &Self::Concrete;

    /// The program's inputs (its global variables) and their sorts.
    fn inputs(&self) -> &BTreeMap<Name, Sort>;

    /// The expressions in scope at `c` (for Lemma 2.1): those of the main
    /// statement, or of the body of the procedure `c` is executing.
    fn expressions(&self, c: &SymbolicConfig<Self>) -> Vec<Term>;

    /// `⟨S, id, true⟩` for the main statement `S`.
    fn symbolic_initial(&self) -> SymbolicConfig<Self>;

    /// `⟨S, V⟩` for the main statement `S` and the inputs `V`.
    fn concrete_initial(&self, inputs: &Valuation) -> ConcreteConfig<Self>;

    /// The substitution an expression of the active statement is evaluated
    /// under: `σ` (§2), `τ ∪ σ` of the top closure (§3).
    fn substitution(&self, c: &SymbolicConfig<Self>) -> Substitution;

    /// The concrete configuration `c` stands for under `v`: `⟨S, V∘σ⟩`.
    fn instantiate(
        &self,
        c: &SymbolicConfig<Self>,
        v: &Valuation,
    ) -> Result<ConcreteConfig<Self>, String>;

    /// `None` when two concrete configurations have the same statements and
    /// the same state, else what differs.
    fn difference(
        &self,
        expected: &ConcreteConfig<Self>,
        actual: &ConcreteConfig<Self>,
    ) -> Option<String>;
}
