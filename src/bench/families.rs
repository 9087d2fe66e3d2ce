//! The program families `symex bench` explores, generated as source text
//! (so the front end is in the loop) and indexed by a size: integer
//! programs whose branches the explorer decides without the solver
//! (`branches`, `loop`, `array`), integer programs whose branches need it
//! (`sums`, `chains`), and heap programs (`pointers`, `list`, `aliasing`).

use crate::compare::families::Family as CompareFamily;
use clap::ValueEnum;

/// A family of programs indexed by a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Family {
    /// `if x1 > 0 { c := c + 1 } else { c := c - 1 }; …` for `x1 … xn`: 2^n paths.
    Branches,
    /// `i := 0; while i < n { i := i + 1 }` with `--unfold k`: k + 1 terminated paths and one bounded.
    Loop,
    /// `while i < n { if a[i] = x { c := c + 1 }; i := i + 1 }` for a literal `n`: 2^n paths.
    Array,
    /// `if x0 + x1 > 0 { … } else { … }; …; if x(n-1) + xn > 0 …`: sums of
    /// neighbours, 2^n paths, no guard on one input alone.
    Sums,
    /// `if x0 > x1 { … } else { … }; …; if x(n-1) > xn …`: a chain of
    /// comparisons of inputs, 2^n paths.
    Chains,
    /// `p1.f := 1; …; pm.f := m; if p1.f = 1 { … } else { … }; …` over m
    /// references that may alias (oo): m nil dereferences, then 2^(m-1) paths.
    Pointers,
    /// `paper-examples/oo/list_partition_fixed.sx` with `--unfold k`: lists
    /// of up to k nodes partitioned by a pivot (oo), 2^(k+1) paths.
    List,
    /// `assume` r1 … rn are not nil; `r1.f := 1; …; rn.f := n; assert r1.f = 1`
    /// (oo; `symex compare --family aliasing`): 2 paths (1 for n = 1).
    Aliasing,
    /// `path(ρ)` of a trace of n actions full of field writes through aliased references, both ways (§4).
    Path,
    All,
}

/// The `loop` family's program: its size is the `--unfold` bound.
pub const LOOP: &str = "i := 0; while i < n { i := i + 1 }";

/// The `list` family's program: its size is the `--unfold` bound.
const LIST: &str = include_str!("../../paper-examples/oo/list_partition_fixed.sx");

impl Family {
    /// The families `all` explores, in order (`path` measures traces, not explorations).
    pub const EXPLORED: [Family; 8] = [
        Family::Branches,
        Family::Loop,
        Family::Array,
        Family::Sums,
        Family::Chains,
        Family::Pointers,
        Family::List,
        Family::Aliasing,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::Branches => "branches",
            Family::Loop => "loop",
            Family::Array => "array",
            Family::Sums => "sums",
            Family::Chains => "chains",
            Family::Pointers => "pointers",
            Family::List => "list",
            Family::Aliasing => "aliasing",
            Family::Path => "path",
            Family::All => "all",
        }
    }

    pub fn default_size(self) -> usize {
        match self {
            Family::Branches | Family::Sums | Family::Chains => 12,
            Family::Loop | Family::Path => 1000,
            Family::Array | Family::All => 10,
            Family::Pointers => 5,
            Family::List => 6,
            Family::Aliasing => 8,
        }
    }

    /// The program of size `n` as source text; `path` and `all` explore none of their own.
    pub fn source(self, n: usize) -> Option<String> {
        let lines = |line: &dyn Fn(usize) -> String, from: usize| {
            (from..=n).map(line).collect::<Vec<_>>().join(";\n")
        };
        let count = |test: String| format!("if {test} {{ c := c + 1 }} else {{ c := c - 1 }}");
        Some(match self {
            Family::Branches => lines(&|i| count(format!("x{i} > 0")), 1),
            Family::Loop => LOOP.to_string(),
            Family::Array => format!(
                "i := 0; c := 0; while i < {n} {{ if a[i] = x {{ c := c + 1 }}; i := i + 1 }}"
            ),
            Family::Sums => lines(&|i| count(format!("x{} + x{i} > 0", i - 1)), 1),
            Family::Chains => lines(&|i| count(format!("x{} > x{i}", i - 1)), 1),
            Family::Pointers => {
                let vars = (1..=n)
                    .map(|i| format!("p{i}: C"))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!(
                    "class C {{ field f: int; }}\nvar {vars};\n{};\n{}",
                    lines(&|i| format!("p{i}.f := {i}"), 1),
                    lines(&|i| count(format!("p{i}.f = {i}")), 1)
                )
            }
            Family::List => LIST.to_string(),
            Family::Aliasing => CompareFamily::Aliasing.source(n),
            Family::Path | Family::All => return None,
        })
    }

    /// The number of paths the exploration must report (saturating).
    pub fn expected_paths(self, n: usize) -> u64 {
        let power = |k: usize| {
            u32::try_from(k)
                .ok()
                .and_then(|k| 2u64.checked_pow(k))
                .unwrap_or(u64::MAX)
        };
        match self {
            Family::Loop => n as u64 + 2,
            // The last test always holds: no later write can change `pm.f`.
            Family::Pointers => (n as u64).saturating_add(power(n.saturating_sub(1))),
            Family::List => power(n + 1),
            // The assertion fails only when some later reference is `r1`.
            Family::Aliasing => 1 + u64::from(n > 1),
            _ => power(n),
        }
    }

    /// The `--unfold` bound the family's program of size `n` is explored with.
    pub fn unfold(self, n: usize) -> usize {
        match self {
            Family::Aliasing => CompareFamily::Aliasing.unfold(n),
            _ => n,
        }
    }
}
