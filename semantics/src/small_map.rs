//! A persistent map for the few entries of a valuation or a substitution:
//! a sorted vector shared by its copies and copied on write. A copy that
//! changes one entry costs the entries themselves, where `im`'s B-tree
//! allocates a node of 64 slots (6.7 KB for a valuation of two variables,
//! kept by every pending node of an exploration). Programs have few
//! variables, so the linear copy stays small.

use std::borrow::Borrow;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SmallMap<K, V>(Rc<Vec<(K, V)>>);

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> SmallMap<K, V> {
        SmallMap(Rc::default())
    }
}

impl<K: Ord + Clone, V: Clone> SmallMap<K, V> {
    fn position<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.0.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.position(key).ok().map(|at| &self.0[at].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.position(key).is_ok()
    }

    /// Sets `key` to `value`; the value it had, if any.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.position(&key) {
            Ok(at) => Some(std::mem::replace(
                &mut Rc::make_mut(&mut self.0)[at].1,
                value,
            )),
            Err(at) => {
                self.growing(1).insert(at, (key, value));
                None
            }
        }
    }

    /// The entries, about to gain `room` more: an empty map reserves
    /// exactly that (a vector grown from empty holds four entries, and most
    /// maps here, a guard's variables or a model, hold one or two).
    fn growing(&mut self, room: usize) -> &mut Vec<(K, V)> {
        let entries = Rc::make_mut(&mut self.0);
        if entries.is_empty() {
            entries.reserve_exact(room);
        }
        entries
    }

    /// A copy with `key` set to `value`.
    pub fn update(&self, key: K, value: V) -> SmallMap<K, V> {
        let mut copy = self.clone();
        copy.insert(key, value);
        copy
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let at = self.position(key).ok()?;
        Some(Rc::make_mut(&mut self.0).remove(at).1)
    }
}

impl<K, V> SmallMap<K, V> {
    /// The entries in key order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter(self.0.iter())
    }

    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<K: Ord + Clone, V: Clone> FromIterator<(K, V)> for SmallMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> SmallMap<K, V> {
        let mut map = SmallMap::default();
        map.extend(pairs);
        map
    }
}

impl<K: Ord + Clone, V: Clone> Extend<(K, V)> for SmallMap<K, V> {
    /// Later pairs win over earlier ones with the same key, as insertions would.
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, pairs: I) {
        let mut pairs = pairs.into_iter().peekable();
        if pairs.peek().is_none() {
            return;
        }
        let entries = self.growing(pairs.size_hint().0);
        entries.extend(pairs);
        // Stable: equal keys keep their order, the last one is kept.
        entries.sort_by(|(a, _), (b, _)| a.cmp(b));
        // `dedup_by` drops `later` and keeps `earlier`: move the later value in first.
        entries.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0;
            if same {
                std::mem::swap(&mut later.1, &mut earlier.1);
            }
            same
        });
    }
}

/// The entries of a [`SmallMap`] in key order.
pub struct Iter<'a, K, V>(std::slice::Iter<'a, (K, V)>);

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);

    fn next(&mut self) -> Option<(&'a K, &'a V)> {
        self.0.next().map(|(k, v)| (k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}

impl<'a, K, V> IntoIterator for &'a SmallMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Iter<'a, K, V> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::SmallMap;

    #[test]
    fn entries_stay_sorted_and_copies_stay_apart() {
        let map: SmallMap<i32, &str> = [(3, "c"), (1, "a"), (2, "b"), (1, "A")]
            .into_iter()
            .collect();
        assert_eq!(
            map.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
            [(1, "A"), (2, "b"), (3, "c")]
        );
        let changed = map.update(2, "B");
        assert_eq!((map.get(&2), changed.get(&2)), (Some(&"b"), Some(&"B")));
        let mut removed = changed.clone();
        assert_eq!(removed.remove(&1), Some("A"));
        assert!(!removed.contains_key(&1) && changed.contains_key(&1));
        assert_eq!(removed.iter().next_back(), Some((&3, &"c")));
    }
}
