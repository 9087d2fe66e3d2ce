//! A persistent union-find (union by rank, no path compression) over
//! `im` vectors: a copy costs O(1) and shares what it does not change, so
//! the closure of a node extends its parent's without copying it.

use super::Key;

#[derive(Clone, Default)]
pub(super) struct Classes {
    parent: im::Vector<Key>,
    rank: im::Vector<u8>,
}

impl Classes {
    pub(super) fn len(&self) -> usize {
        self.parent.len()
    }

    /// A class of its own for the next key.
    pub(super) fn new_key(&mut self) -> Key {
        let key = Key(self.parent.len() as u32);
        self.parent.push_back(key);
        self.rank.push_back(0);
        key
    }

    /// The representative of `key`'s class (at most log n steps: union by rank).
    pub(super) fn find(&self, mut key: Key) -> Key {
        loop {
            let parent = self.parent[key.0 as usize];
            if parent == key {
                return key;
            }
            key = parent;
        }
    }

    pub(super) fn unioned(&self, a: Key, b: Key) -> bool {
        self.find(a) == self.find(b)
    }

    pub(super) fn union(&mut self, a: Key, b: Key) {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        let (ra, rb) = (self.rank[a.0 as usize], self.rank[b.0 as usize]);
        let (child, root) = if ra < rb { (a, b) } else { (b, a) };
        self.parent.set(child.0 as usize, root);
        if ra == rb {
            self.rank.set(root.0 as usize, ra + 1);
        }
    }
}
