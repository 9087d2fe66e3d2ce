//! Fresh names for the variables the desugaring adds. A fresh name is an
//! identifier (so the printed core parses back) that no word of the source
//! uses, comments included, and that no other fresh name took.

use std::collections::HashSet;

pub(super) struct Names {
    taken: HashSet<String>,
}

impl Names {
    /// Every identifier-like word of `source` is taken.
    pub(super) fn new(source: &str) -> Names {
        let taken = source
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|word| !word.is_empty())
            .map(str::to_string)
            .collect();
        Names { taken }
    }

    /// `base` if it is free, else `base2`, `base3`, …
    pub(super) fn fresh(&mut self, base: &str) -> String {
        let name = (1..)
            .map(|n| {
                if n == 1 {
                    base.to_string()
                } else {
                    format!("{base}{n}")
                }
            })
            .find(|name| !self.taken.contains(name))
            .unwrap_or_default();
        self.taken.insert(name.clone());
        name
    }
}
