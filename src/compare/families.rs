//! Program families that scale, written for the question "forward or wp?",
//! and `symex bench`'s families whose paths grow exponentially: each is
//! source text (the front end is in the loop) indexed by a size.

use crate::bench::families::{Family as BenchFamily, LOOP};
use clap::ValueEnum;

/// A family of `symex compare --family`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Family {
    /// `assume` r1 … rn are not nil; `r1.f := 1; …; rn.f := n; assert r1.f = 1`:
    /// field writes through n references that may alias (oo).
    Aliasing,
    /// `c := new C; c.next := l; l := c` n times, then `assert l != x` (oo).
    Creation,
    /// `a[i1] := 1; …; a[in] := n; assert a[i1] = 1`: array updates at n
    /// indices that may coincide (basic; the array form of `aliasing`).
    Arrays,
    /// `i := 0; while i < n { i := i + 1 }` unfolded n times (basic; `symex bench`'s loop).
    Loop,
    /// `down(k)` calls itself while `k > 0`, adding to a global, n calls deep (recursive).
    Recursion,
    /// `symex bench`'s: n tests of n inputs, 2^n paths (basic).
    Branches,
    /// `symex bench`'s: a loop over a literal n testing each `a[i]`, 2^n paths (basic).
    Array,
    /// `symex bench`'s: n tests of sums of neighbouring inputs, 2^n paths (basic).
    Sums,
    /// `symex bench`'s: n comparisons of neighbouring inputs, 2^n paths (basic).
    Chains,
    /// `symex bench`'s: n field writes that may alias, then n tests of them (oo).
    Pointers,
    /// `symex bench`'s: `list_partition_fixed.sx` on lists of up to n nodes, 2^(n+1) paths (oo).
    List,
}

/// The families written for `compare`, which `--family all` runs.
pub const OWN: [Family; 5] = [
    Family::Aliasing,
    Family::Creation,
    Family::Arrays,
    Family::Loop,
    Family::Recursion,
];

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Aliasing => "aliasing",
            Family::Creation => "creation",
            Family::Arrays => "arrays",
            Family::Loop => "loop",
            Family::Recursion => "recursion",
            Family::Branches => "branches",
            Family::Array => "array",
            Family::Sums => "sums",
            Family::Chains => "chains",
            Family::Pointers => "pointers",
            Family::List => "list",
        }
    }

    /// `symex bench`'s family of this name, for the families taken from it.
    fn bench(self) -> Option<BenchFamily> {
        Some(match self {
            Family::Branches => BenchFamily::Branches,
            Family::Array => BenchFamily::Array,
            Family::Sums => BenchFamily::Sums,
            Family::Chains => BenchFamily::Chains,
            Family::Pointers => BenchFamily::Pointers,
            Family::List => BenchFamily::List,
            _ => return None,
        })
    }

    /// The sizes compared unless `--sizes` says: decades for the families
    /// whose paths grow linearly, small sizes for the exponential ones.
    pub fn default_sizes(self) -> &'static [usize] {
        match self.bench() {
            Some(_) => &[2, 4, 6],
            None => &[10, 100, 1000],
        }
    }

    /// The program of size `n` as source text.
    pub fn source(self, n: usize) -> String {
        let lines =
            |line: &dyn Fn(usize) -> String| (1..=n).map(line).collect::<Vec<_>>().join(";\n");
        match self {
            Family::Aliasing => {
                let vars = (1..=n)
                    .map(|i| format!("r{i}: C"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let not_nil = lines(&|i| format!("assume r{i} != nil"));
                format!(
                    "class C {{ field f: int; }}\nvar {vars};\n{not_nil};\n{};\nassert r1.f = 1",
                    lines(&|i| format!("r{i}.f := {i}"))
                )
            }
            Family::Creation => format!(
                "class C {{ field next: C; }}\nvar x: C;\nl := x;\n{};\nassert l != x",
                lines(&|_| "c := new C; c.next := l; l := c".to_string())
            ),
            Family::Arrays => format!(
                "{};\nassert a[i1] = 1",
                lines(&|i| format!("a[i{i}] := {i}"))
            ),
            Family::Loop => LOOP.to_string(),
            Family::Recursion => {
                "proc down(k: int) { if k > 0 { s := s + k; down(k - 1) } }\ns := 0;\ndown(n)"
                    .to_string()
            }
            Family::Branches
            | Family::Array
            | Family::Sums
            | Family::Chains
            | Family::Pointers
            | Family::List => self
                .bench()
                .and_then(|family| family.source(n))
                .unwrap_or_default(),
        }
    }

    /// The `--unfold` bound the family needs to run its whole size.
    pub fn unfold(self, n: usize) -> usize {
        if let Some(family) = self.bench() {
            return family.unfold(n);
        }
        match self {
            Family::Loop | Family::Recursion => n,
            _ => 1,
        }
    }
}
