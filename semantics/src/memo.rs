//! A memo table by term id that forgets in generations. Entries go to the
//! young generation; when it is full it becomes the old one, and the old
//! one is dropped. Lookups see both, so work that builds on the last
//! lookups (a loop's state `0 + 1 + … + 1`, each path's one node longer)
//! always finds its base, while memory stays bounded by two generations
//! however long the exploration. Term ids are never reused, so an entry
//! never goes stale; a forgotten one is computed again.

use crate::term::IdMap;
use std::ops::Index;

pub struct Generations<V> {
    young: IdMap<V>,
    old: IdMap<V>,
    /// Young entries beyond which the generation is retired: rises to a
    /// few times the most one use added (a term of ten thousand nodes must
    /// not be forgotten two uses after it was memoised).
    limit: usize,
    /// Young entries at the last [`Generations::age`].
    mark: usize,
}

/// Entries a young generation holds unless one use adds more: what the
/// last hundred or so paths of an exploration met. Every entry keeps its
/// term alive, so a larger generation keeps more dead-for-now terms in the
/// caches (1 024 made a long loop 3 % slower and its heap larger, and saved
/// nothing on the other families).
const GENERATION: usize = 1 << 8;

impl<V> Default for Generations<V> {
    fn default() -> Generations<V> {
        Generations::new(GENERATION)
    }
}

impl<V> Generations<V> {
    pub fn new(limit: usize) -> Generations<V> {
        Generations {
            young: IdMap::default(),
            old: IdMap::default(),
            limit,
            mark: 0,
        }
    }

    /// Between two uses (never during one, which may rely on what it
    /// looked up): retires the young generation if it is full.
    pub fn age(&mut self) {
        self.limit = self.limit.max(4 * (self.young.len() - self.mark));
        if self.young.len() > self.limit {
            std::mem::swap(&mut self.young, &mut self.old);
            self.young.clear();
        }
        self.mark = self.young.len();
    }

    pub fn get(&self, id: &u64) -> Option<&V> {
        self.young.get(id).or_else(|| self.old.get(id))
    }

    pub fn contains_key(&self, id: &u64) -> bool {
        self.young.contains_key(id) || self.old.contains_key(id)
    }

    pub fn insert(&mut self, id: u64, value: V) {
        self.young.insert(id, value);
    }

    /// The entry of `id`, made by `make` if there is none.
    pub fn get_or_insert_with(&mut self, id: u64, make: impl FnOnce() -> V) -> &V {
        if !self.young.contains_key(&id) {
            if let Some(value) = self.old.get(&id) {
                return value;
            }
        }
        self.young.entry(id).or_insert_with(make)
    }
}

impl<V> Index<&u64> for Generations<V> {
    type Output = V;

    /// The entry of a known id (one looked up or inserted in this use).
    fn index(&self, id: &u64) -> &V {
        match self.get(id) {
            Some(value) => value,
            None => panic!("no memo entry for term {id}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One entry per use, with a limit of four.
    fn filled(ids: std::ops::Range<u64>) -> Generations<u64> {
        let mut memo = Generations::new(4);
        for id in ids {
            memo.insert(id, id * 10);
            memo.age();
        }
        memo
    }

    #[test]
    fn a_full_generation_is_kept_one_generation_more() {
        // The fifth entry retired the first five into the old generation.
        let mut memo = filled(0..7);
        assert_eq!(memo.get(&0), Some(&0));
        assert_eq!(memo[&6], 60);
        assert_eq!(
            *memo.get_or_insert_with(1, || 0),
            10,
            "found in the old one"
        );
        assert_eq!(*memo.get_or_insert_with(20, || 200), 200);
    }

    #[test]
    fn the_generation_before_is_forgotten() {
        let memo = filled(0..10);
        assert!(!memo.contains_key(&4), "retired twice");
        assert!(memo.contains_key(&5) && memo.contains_key(&9));
    }

    #[test]
    fn the_limit_rises_with_what_one_use_added() {
        let mut memo = Generations::new(4);
        for id in 0..10 {
            memo.insert(id, ());
        }
        memo.age();
        // Ten entries in one use: the limit is forty, nothing is retired.
        for id in 10..30 {
            memo.insert(id, ());
            memo.age();
        }
        assert!(memo.contains_key(&0));
    }
}
