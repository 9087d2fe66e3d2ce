//! The figure of a family comparison (`--plot out.svg`): path-condition size
//! and time against the family's size, log–log, one line per family and
//! method (forward solid, wp dashed), as a paper would show the growth.

use super::{Comparison, MethodSummary};
use crate::commands::Method;
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// A family's points for one method: (size, value).
type Series = Vec<(f64, f64)>;

/// One panel: what is plotted and how it is read from a method's totals.
struct Panel {
    caption: &'static str,
    value: fn(&MethodSummary) -> f64,
}

const PANELS: [Panel; 2] = [
    Panel {
        caption: "path conditions: DAG nodes, all paths",
        value: |s| s.dag_total as f64,
    },
    Panel {
        caption: "time: exploration, Z3 included (ms)",
        value: |s| s.explore_ms,
    },
];

/// Draws `comparisons` (family members, with sizes) to the SVG file `path`.
pub fn draw(path: &Path, comparisons: &[Comparison]) -> Result<(), String> {
    let root = SVGBackend::new(path, (1100, 460)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    for (area, panel) in root.split_evenly((1, 2)).iter().zip(&PANELS) {
        draw_panel(area, panel, comparisons).map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())
}

/// The series of every family and method that ran, positive values only (log axes).
fn series(panel: &Panel, comparisons: &[Comparison]) -> BTreeMap<(String, &'static str), Series> {
    let mut lines: BTreeMap<(String, &'static str), Series> = BTreeMap::new();
    for comparison in comparisons {
        let Some(size) = comparison.size else {
            continue;
        };
        for summary in [&comparison.forward, &comparison.wp]
            .into_iter()
            .filter(|s| s.unavailable.is_none())
        {
            let value = (panel.value)(summary);
            if value > 0.0 {
                lines
                    .entry((comparison.program.clone(), summary.method))
                    .or_default()
                    .push((size as f64, value));
            }
        }
    }
    lines
}

/// The gap between dashes of the weakest-precondition lines, and in their
/// legend's sample.
const GAP: i32 = 4;

/// An axis label as `Display` writes it (`1000`; plotters' default is
/// `Debug`, `1000.0`).
fn number(value: &f64) -> String {
    value.to_string()
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    panel: &Panel,
    comparisons: &[Comparison],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let lines = series(panel, comparisons);
    let points = || lines.values().flatten();
    let range = |pick: fn(&(f64, f64)) -> f64| {
        let (low, high) = points()
            .map(pick)
            .fold((f64::MAX, f64::MIN), |(low, high), v| {
                (low.min(v), high.max(v))
            });
        if low > high {
            1.0..10.0
        } else {
            (low / 2.0)..(high * 2.0)
        }
    };
    let mut chart = ChartBuilder::on(area)
        .caption(panel.caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(range(|p| p.0).log_scale(), range(|p| p.1).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("size n")
        .x_label_formatter(&number)
        .y_label_formatter(&number)
        .draw()?;
    for (index, ((family, method), points)) in lines.iter().enumerate() {
        let colour = Palette99::pick(index / 2).to_rgba();
        let style = ShapeStyle {
            color: colour,
            filled: true,
            stroke_width: 2,
        };
        let label = format!("{family} {method}");
        let dashed = *method == Method::Wp.name();
        let legend = if dashed {
            chart
                .draw_series(DashedLineSeries::new(points.iter().copied(), 6, GAP, style))?
                .label(label)
        } else {
            chart
                .draw_series(LineSeries::new(points.iter().copied(), style))?
                .label(label)
        };
        // The legend's sample is dashed where the line is.
        let gap = if dashed { GAP } else { 0 };
        legend.legend(move |(x, y)| {
            EmptyElement::at((x, y))
                + PathElement::new(vec![(0, 0), (8, 0)], style)
                + PathElement::new(vec![(8 + gap, 0), (20, 0)], style)
        });
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, style)))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
}
