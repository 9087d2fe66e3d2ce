//! Deliberate mistakes in the formal core, each one small change, for the
//! tests that show a property catches it (`proofs-tests/shortcut_mutants.rs`).
//! Compiled in with the `mutants` feature only (the proofs harness enables
//! it), switched on for the current thread by [`set`]; without the feature
//! [`active`] is the constant `false`.

/// A broken piece of the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutant {
    /// `x / y` and `x % y` for `y < 0` by floor division, not Euclid's.
    DivisionFloorsNegativeDivisor,
    /// A new object numbered by the count of objects, not past the largest
    /// identity (it overwrites `o2` when the heap holds only `o2`).
    NewObjectNumberedByCount,
    /// `(x = y)[x := new C][y := new C]` true for two created objects.
    CreatedObjectsEqual,
    /// Two cases of one value merged under `cₐ ∨ c_b`, not
    /// `if c then cₐ else c_b fi`: the condition that chose between them forgotten.
    MergedCasesWithoutCondition,
    /// Under `--int i32`, products are not checked for overflow.
    ProductUnchecked,
    /// Under `--int i32`, `/` and `%` stay Euclidean, not C's.
    EuclideanMachineDivision,
    /// `x.f…f != nil` with `m` reads taken to need `m + 1` distinct objects
    /// (a one-object cycle satisfies it): model shrinking stops too early.
    NonNilWalkNeedsDistinctObjects,
}

/// The thread-local switch of a mutant enum `$mutant` in the calling
/// module: `set(Some(m))` breaks `m` on this thread, `active(m)` asks;
/// without the calling crate's `mutants` feature `active` is `false`.
#[macro_export]
macro_rules! mutant_switch {
    ($mutant:ty) => {
        #[cfg(feature = "mutants")]
        thread_local! {
            static ACTIVE: std::cell::Cell<Option<$mutant>> = const { std::cell::Cell::new(None) };
        }

        /// Breaks `mutant` (or nothing) on this thread from now on.
        #[cfg(feature = "mutants")]
        pub fn set(mutant: Option<$mutant>) {
            ACTIVE.with(|active| active.set(mutant));
        }

        /// Whether `mutant` is switched on for this thread.
        #[inline]
        pub fn active(mutant: $mutant) -> bool {
            #[cfg(feature = "mutants")]
            {
                ACTIVE.with(|active| active.get() == Some(mutant))
            }
            #[cfg(not(feature = "mutants"))]
            {
                let _ = mutant;
                false
            }
        }
    };
}

mutant_switch!(Mutant);
