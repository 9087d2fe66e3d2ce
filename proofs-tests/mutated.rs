//! Switching one deliberate mistake on for the length of a property run
//! (the `mutants` feature's thread-local switches), and off again however
//! the run ends.

/// Runs `run` with the tool's `mutant` switched on.
pub fn with_mutant<T>(mutant: symex::mutants::Mutant, run: impl FnOnce() -> T) -> T {
    struct Off;
    impl Drop for Off {
        fn drop(&mut self) {
            symex::mutants::set(None);
        }
    }
    symex::mutants::set(Some(mutant));
    let _off = Off;
    run()
}

/// Runs `run` with the formal core's `mutant` switched on.
pub fn with_core_mutant<T>(mutant: symex_semantics::mutants::Mutant, run: impl FnOnce() -> T) -> T {
    struct Off;
    impl Drop for Off {
        fn drop(&mut self) {
            symex_semantics::mutants::set(None);
        }
    }
    symex_semantics::mutants::set(Some(mutant));
    let _off = Off;
    run()
}
