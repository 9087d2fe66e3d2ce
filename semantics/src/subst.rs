//! Substitutions `σ : Var → Expr` and their application `eσ` (§2).

use crate::small_map::SmallMap;
use crate::term::{Name, Sort, Term, TermKind};
use std::fmt;

/// A substitution, the identity outside its finite domain. Persistent
/// ([`SmallMap`]), so forking a configuration copies nothing.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Substitution(SmallMap<Name, Term>);

impl Substitution {
    /// `id`, the identity substitution.
    pub fn identity() -> Substitution {
        Substitution::default()
    }

    /// `σ(x)` where σ differs from the identity, `None` where it is the identity.
    pub fn lookup(&self, x: &str) -> Option<&Term> {
        self.0.get(x)
    }

    /// `σ[x := e]`.
    pub fn update(&self, x: Name, e: Term) -> Substitution {
        Substitution(self.0.update(x, e))
    }

    /// `eσ`: every variable `x` of `e` replaced by `σ(x)`.
    pub fn apply(&self, e: &Term) -> Term {
        substitute(e, |x| self.0.get(x).cloned())
    }

    /// `σ` with each value `e` replaced by `f(e)`; shared, not copied,
    /// when `f` changes none.
    pub fn map_values(&self, mut f: impl FnMut(&Term) -> Term) -> Substitution {
        let mut mapped = self.clone();
        for (x, e) in self.0.iter() {
            let image = f(e);
            if image != *e {
                // The first change copies the shared entries, once.
                mapped.0.insert(x.clone(), image);
            }
        }
        mapped
    }

    /// The join of `self` and `other` (state merging): `value(x, e1, e2)` at
    /// every `x` where the two differ, a variable missing from one side
    /// being its own value there.
    pub fn join(
        &self,
        other: &Substitution,
        value: &mut dyn FnMut(&Name, &Term, &Term) -> Term,
    ) -> Substitution {
        let mut joined = self.clone();
        let own = |x: &Name, present: &Term| Term::var(x, present.sort());
        for (x, e1) in self.0.iter() {
            match other.0.get(x) {
                Some(e2) if e2 == e1 => {}
                Some(e2) => {
                    joined.0.insert(x.clone(), value(x, e1, e2));
                }
                None => {
                    joined.0.insert(x.clone(), value(x, e1, &own(x, e1)));
                }
            }
        }
        for (x, e2) in other.0.iter() {
            if !self.0.contains_key(x) {
                joined.0.insert(x.clone(), value(x, &own(x, e2), e2));
            }
        }
        joined
    }

    /// The pairs where σ differs from the identity, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&Name, &Term)> {
        self.0.iter()
    }

    pub fn domain(&self) -> impl Iterator<Item = &Name> {
        self.0.keys()
    }

    /// `σ(x)` for every variable `x` of `vars`, in name order.
    pub fn state(&self, vars: &std::collections::BTreeMap<Name, Sort>) -> Vec<(Name, Term)> {
        vars.iter()
            .map(|(x, sort)| {
                (
                    x.clone(),
                    self.lookup(x)
                        .cloned()
                        .unwrap_or_else(|| Term::var(x, sort.clone())),
                )
            })
            .collect()
    }
}

/// `e[x̄ := ē]` for the variables `lookup` maps, simultaneously; memoised per
/// node, so the result is built in time linear in the DAG size of `e`.
/// `len(a)` is never substituted (§2.1: assignments leave `|a|` unchanged).
pub fn substitute(e: &Term, lookup: impl Fn(&Name) -> Option<Term>) -> Term {
    e.rebuilt(|node, children| match node.kind() {
        TermKind::Var(x, _) => lookup(x).unwrap_or_else(|| node.clone()),
        _ => node.with_children(children),
    })
}

impl fmt::Display for Substitution {
    /// `[x := e, y := e']`, or `id`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return write!(f, "id");
        }
        write!(f, "[")?;
        for (i, (x, e)) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{x} := {e}")?;
        }
        write!(f, "]")
    }
}

impl fmt::Debug for Substitution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl FromIterator<(Name, Term)> for Substitution {
    fn from_iter<I: IntoIterator<Item = (Name, Term)>>(pairs: I) -> Substitution {
        Substitution(pairs.into_iter().collect())
    }
}
