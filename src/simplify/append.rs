//! Appending one conjunct to a path condition at the cost of the conjunct:
//! the path conditions of an exploration grow one guard at a time, and
//! the normal form of `φ && b` would otherwise go over all of `φ` again.
//!
//! A conjunction is *plain* when [`NormalForm::normalise`] would write each
//! of its conjuncts as it stands and none meets another: every comparison
//! on a linear form of its own and no equality pinning a variable, every
//! other conjunct in normal form, neither a conjunction, a literal nor
//! repeated, nor beside its complement, and no disjunction beside one of
//! its disjuncts (absorption: `a && (a || b)` is `a`). Appending
//! conjuncts that keep it plain is then what the normal form does;
//! anything else (bounds to merge, a pinned variable, a possible repeat or
//! absorption) takes the full normal form.

use super::bounds::{operands, variable, NormalForm};
use super::linear::complement;
use crate::mutants::{self, Mutant};
use std::rc::Rc;
use symex_semantics::term::{BinOp, Term, TermKind};

/// A plain conjunction's linear forms and other conjuncts, by their
/// structure hashes: a Bloom filter, whose "absent" is certain, over the
/// hashes themselves, read only when the filter says "maybe" (a filter
/// alone loses the fast path for a whole subtree on one false positive).
/// Structure, not ids: a form re-made after the memo forgot it (a new id)
/// is still found, and which appends are fast does not depend on what the
/// thread built before (ids in creation order fell on a few of the bits
/// after another exploration: array(14) three times slower).
#[derive(Clone, Debug, Default)]
pub struct Tags {
    filter: [u64; 4],
    /// Newest first, shared with the tags of the conjunction's prefixes.
    hashes: Option<Rc<Hashes>>,
}

#[derive(Debug)]
struct Hashes {
    hash: u64,
    rest: Option<Rc<Hashes>>,
}

impl Drop for Hashes {
    /// Iteratively: a path condition may have many thousand conjuncts.
    fn drop(&mut self) {
        let mut rest = self.rest.take();
        while let Some(hashes) = rest {
            rest = Rc::try_unwrap(hashes).ok().and_then(|mut h| h.rest.take());
        }
    }
}

impl Tags {
    /// The word and bit of `hash` in the filter.
    fn bit(hash: u64) -> (usize, u64) {
        let h = hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56;
        ((h >> 6) as usize, 1 << (h & 63))
    }

    fn insert(&mut self, term: &Term) {
        let hash = term.structure_hash();
        let (word, bit) = Tags::bit(hash);
        self.filter[word] |= bit;
        let rest = self.hashes.take();
        self.hashes = Some(Rc::new(Hashes { hash, rest }));
    }

    /// Whether a term of `term`'s structure may be there (wrongly only
    /// when two structures' hashes collide).
    fn may_contain(&self, term: &Term) -> bool {
        let hash = term.structure_hash();
        let (word, bit) = Tags::bit(hash);
        if self.filter[word] & bit == 0 {
            return false;
        }
        let mut hashes = self.hashes.as_deref();
        while let Some(known) = hashes {
            if known.hash == hash {
                return true;
            }
            hashes = known.rest.as_deref();
        }
        false
    }
}

impl NormalForm {
    /// The normal form of `left && right`, both in normal form: two
    /// comparisons on one form merged, `left` with `right`'s conjuncts
    /// appended when that keeps it plain (the cost of `right`), otherwise
    /// the full normal form.
    pub fn conjoin(&mut self, left: &Term, right: &Term) -> Term {
        if let Some(merged) = self.merged(left, right) {
            return merged;
        }
        let tags = match (left.kind(), self.plain.get(&left.id())) {
            (_, Some(tags)) => Some(tags.clone()),
            (TermKind::Binary(BinOp::And, ..), None) => None,
            (_, None) => {
                // A single conjunct is taken as the left of many appends
                // (each fact of a context with each atom it may decide).
                let tags = self.plain_tags(left);
                if let Some(tags) = &tags {
                    self.plain.insert(left.id(), tags.clone());
                }
                tags
            }
        };
        if let Some((appended, tags)) = tags.and_then(|tags| self.appended(left, right, tags)) {
            self.plain.insert(appended.id(), tags);
            return appended;
        }
        let normal = self.normalise(&Term::binary(BinOp::And, left.clone(), right.clone()));
        if let Some(tags) = self.plain_tags(&normal) {
            self.plain.insert(normal.id(), tags);
        }
        normal
    }

    /// `left && c₁ && … && cₙ` for the conjuncts `cᵢ` of `right` but
    /// `true` (a guard the normal form decided), if each keeps the
    /// conjunction plain.
    fn appended(&mut self, left: &Term, right: &Term, mut tags: Tags) -> Option<(Term, Tags)> {
        let mut conjunction = left.clone();
        for conjunct in right
            .conjuncts()
            .into_iter()
            .filter(|conjunct| !conjunct.is_true())
        {
            if !self.admit(&conjunct, &mut tags) {
                return None;
            }
            conjunction = Term::and(conjunction, conjunct);
        }
        Some((conjunction, tags))
    }

    /// The tags of `conjunction` if it is plain and nested to the left
    /// (as [`Term::conjunction`] builds it), in one pass over its conjuncts.
    fn plain_tags(&mut self, conjunction: &Term) -> Option<Tags> {
        let mut conjuncts = Vec::new();
        let mut rest = conjunction.clone();
        while let TermKind::Binary(BinOp::And, left, right) = rest.kind() {
            conjuncts.push(right.clone());
            rest = left.clone();
        }
        conjuncts.push(rest);
        let mut tags = Tags::default();
        conjuncts
            .iter()
            .rev()
            .all(|conjunct| self.admit(conjunct, &mut tags))
            .then_some(tags)
    }

    /// Adds `conjunct` to a plain conjunction's tags, unless the normal
    /// form would not simply append it: it may meet a conjunct already
    /// there, pins a variable, or is no single conjunct in normal form.
    fn admit(&mut self, conjunct: &Term, tags: &mut Tags) -> bool {
        match conjunct.kind() {
            TermKind::Binary(BinOp::Or, ..) => return self.admit_disjunction(conjunct, tags),
            TermKind::Binary(BinOp::And, ..) | TermKind::Bool(_) => return false,
            _ => {}
        }
        if let Some((comparison, written)) = self.linear.compared(conjunct) {
            let pins = comparison.op == BinOp::Eq && variable(&comparison.lhs).is_some();
            let form = self
                .forms
                .get_or_insert_with(conjunct.id(), || comparison.lhs.term());
            if written != conjunct || pins || tags.may_contain(form) {
                return false;
            }
            tags.insert(form);
            return true;
        }
        self.admit_other(conjunct, tags)
    }

    /// [`NormalForm::admit`] for a disjunction: each of its disjuncts'
    /// keys (a comparison's linear form, as a comparison conjunct's, or the
    /// disjunct itself) must be new, and joins the tags, so that neither a
    /// conjunct there nor a later one can be a disjunct that absorbs it.
    fn admit_disjunction(&mut self, disjunction: &Term, tags: &mut Tags) -> bool {
        let mut keys = Vec::new();
        for disjunct in operands(disjunction, BinOp::Or) {
            let key = match self.linear.compared(&disjunct) {
                Some((comparison, _)) => self
                    .forms
                    .get_or_insert_with(disjunct.id(), || comparison.lhs.term())
                    .clone(),
                None => disjunct,
            };
            keys.push(key);
        }
        if mutants::active(Mutant::DisjunctionAbsorptionIgnored) {
            keys.clear();
        }
        if keys.iter().any(|key| tags.may_contain(key)) || !self.admit_other(disjunction, tags) {
            return false;
        }
        for key in &keys {
            tags.insert(key);
        }
        true
    }

    /// [`NormalForm::admit`] for a conjunct that is not a comparison.
    fn admit_other(&mut self, conjunct: &Term, tags: &mut Tags) -> bool {
        // Not a comparison (looked up above), so its complement is `!t`'s.
        let complement = complement(conjunct);
        if self.normalise(conjunct) != *conjunct
            || tags.may_contain(conjunct)
            || tags.may_contain(&complement)
        {
            return false;
        }
        tags.insert(conjunct);
        true
    }
}
