//! `compare --repeat N`: each method explores the program N times (the two
//! alternating, so a drift in the machine's speed falls on both) and the
//! timings reported are medians, with their least and greatest value. The
//! paths, sizes and the equivalence queries are those of the first run: they
//! do not change from run to run, and a run whose paths differ (a limit cut
//! it short) ends the repetition.

use super::{Measured, MethodSummary};
use serde::Serialize;

/// A timing over the runs: the median and the range around it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Spread {
    pub min: f64,
    pub median: f64,
    pub max: f64,
}

impl Spread {
    /// The spread of `values` (none: all zero); the median of an even count
    /// is the mean of the middle two.
    pub fn of(values: &[f64]) -> Spread {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        if n == 0 {
            return Spread::default();
        }
        Spread {
            min: sorted[0],
            median: (sorted[(n - 1) / 2] + sorted[n / 2]) / 2.0,
            max: sorted[n - 1],
        }
    }
}

/// A method's timings over the runs (each field of [`MethodSummary`] of
/// the same name is the median).
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Timings {
    pub explore_ms: Spread,
    pub explore_solver_ms: Spread,
    pub decide_ms_total: Spread,
}

impl Measured {
    /// Whether `other` found the same paths, in the same order, and was not cut short.
    pub(super) fn same_paths(&self, other: &Measured) -> bool {
        self.stopped.is_none()
            && other.stopped.is_none()
            && self.paths.len() == other.paths.len()
            && self.paths.iter().zip(&other.paths).all(|(a, b)| a.0 == b.0)
    }

    /// The figures of this run and `again` (runs with the same paths): every
    /// timing becomes its median over them, the summary's with its spread.
    pub(super) fn medians(&mut self, again: &[Measured]) {
        let runs = || std::iter::once(&*self).chain(again);
        let spread = |pick: fn(&MethodSummary) -> f64| {
            Spread::of(&runs().map(|m| pick(&m.summary)).collect::<Vec<_>>())
        };
        let timings = Timings {
            explore_ms: spread(|s| s.explore_ms),
            explore_solver_ms: spread(|s| s.explore_solver_ms),
            decide_ms_total: spread(|s| s.decide_ms_total),
        };
        let per_path: Vec<(f64, f64)> = (0..self.paths.len())
            .map(|i| {
                let median = |pick: fn(&super::PathFigures) -> f64| {
                    Spread::of(&runs().map(|m| pick(&m.paths[i].2)).collect::<Vec<_>>()).median
                };
                (median(|f| f.build_ms), median(|f| f.decide_ms))
            })
            .collect();
        for ((.., figures), (build, decide)) in self.paths.iter_mut().zip(per_path) {
            figures.build_ms = build;
            figures.decide_ms = decide;
        }
        let summary = &mut self.summary;
        summary.explore_ms = timings.explore_ms.median;
        summary.explore_solver_ms = timings.explore_solver_ms.median;
        summary.decide_ms_total = timings.decide_ms_total.median;
        summary.spread = timings;
    }
}

#[cfg(test)]
mod tests {
    use super::Spread;

    #[test]
    fn the_median_is_the_middle_value_or_the_mean_of_the_middle_two() {
        let odd = Spread::of(&[5.0, 1.0, 3.0]);
        assert_eq!((odd.min, odd.median, odd.max), (1.0, 3.0, 5.0));
        let even = Spread::of(&[4.0, 1.0, 2.0, 10.0]);
        assert_eq!((even.min, even.median, even.max), (1.0, 3.0, 10.0));
        assert_eq!(Spread::of(&[7.5]).median, 7.5);
        assert_eq!(Spread::of(&[]), Spread::default());
    }
}
