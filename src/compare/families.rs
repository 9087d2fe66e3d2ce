//! Program families that scale, written for the question "forward or wp?":
//! each is source text (the front end is in the loop) indexed by a size.

use crate::bench::families::LOOP;
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
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Aliasing => "aliasing",
            Family::Creation => "creation",
            Family::Arrays => "arrays",
            Family::Loop => "loop",
            Family::Recursion => "recursion",
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
        }
    }

    /// The `--unfold` bound the family needs to run its whole size.
    pub fn unfold(self, n: usize) -> usize {
        match self {
            Family::Loop | Family::Recursion => n,
            Family::Aliasing | Family::Creation | Family::Arrays => 1,
        }
    }
}
