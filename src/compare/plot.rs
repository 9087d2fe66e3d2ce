//! The figure of a family comparison (`--plot out.svg`), drawn for a paper:
//! (a) path-condition size and (b) exploration time against the family's
//! size, one colour per family, forward solid with filled circles and wp
//! dashed with open squares (readable in grey), each axis logarithmic when
//! its values span more than a decade, with units on the axes, a legend
//! below the panels (never over the points) and, with `--repeat`, the time's
//! range over the runs as error bars around the median.

use super::repeat::Spread;
use super::{Comparison, MethodSummary};
use crate::commands::Method;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;
use std::path::Path;

/// One family and method's points: (size, median, spread).
struct Series {
    family: String,
    method: &'static str,
    points: Vec<(f64, f64, Spread)>,
}

/// One panel: what is plotted and how it is read from a method's totals.
struct Panel {
    caption: &'static str,
    y_label: &'static str,
    value: fn(&MethodSummary) -> Spread,
}

const PANELS: [Panel; 2] = [
    Panel {
        caption: "(a) path-condition size",
        y_label: "DAG nodes, summed over the paths",
        value: |s| {
            let nodes = s.dag_total as f64;
            Spread {
                min: nodes,
                median: nodes,
                max: nodes,
            }
        },
    },
    Panel {
        caption: "(b) exploration time, Z3 included",
        y_label: "time (ms)",
        value: |s| s.spread.explore_ms,
    },
];

/// Colour-blind-safe colours (Okabe and Ito), one per family.
const COLOURS: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x00, 0x00, 0x00),
    RGBColor(0x88, 0x88, 0x88),
];

const WIDTH: u32 = 960;
const PANEL_HEIGHT: u32 = 400;
const LEGEND_HEIGHT: u32 = 64;
const FONT: &str = "sans-serif";

/// The markers' size: forward's filled circles have this radius, wp's
/// open squares this half side.
const MARK: i32 = 4;

/// Draws at `points` forward's marker, a filled circle, or wp's, an open
/// square, through `draw` (a chart's series or the legend's area).
macro_rules! markers {
    ($draw:expr, $points:expr, $colour:expr, $wp:expr) => {{
        let square = [(-MARK, -MARK), (MARK, MARK)];
        if $wp {
            $draw($points.map(|at| {
                EmptyElement::at(at)
                    + Rectangle::new(square, WHITE.filled())
                    + Rectangle::new(square, $colour.stroke_width(2))
            }))
        } else {
            $draw(
                $points
                    .map(|at| EmptyElement::at(at) + Circle::new((0, 0), MARK, $colour.filled())),
            )
        }
    }};
}

/// Draws `comparisons` (family members, with sizes) to the SVG file `path`.
pub fn draw(path: &Path, comparisons: &[Comparison]) -> Result<(), String> {
    let root = SVGBackend::new(path, (WIDTH, PANEL_HEIGHT + LEGEND_HEIGHT)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (panels, legend) = root.split_vertically(PANEL_HEIGHT);
    let families = family_names(comparisons);
    for (area, panel) in panels.split_evenly((1, 2)).iter().zip(&PANELS) {
        let lines = series(panel, comparisons);
        draw_panel(area, panel, &lines, &families).map_err(|e| e.to_string())?;
    }
    let runs = comparisons.iter().map(|c| c.runs).max().unwrap_or(1);
    draw_legend(&legend, &families, runs).map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// The families in the order they were compared.
fn family_names(comparisons: &[Comparison]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for comparison in comparisons.iter().filter(|c| c.size.is_some()) {
        if !names.contains(&comparison.program) {
            names.push(comparison.program.clone());
        }
    }
    names
}

fn colour(families: &[String], family: &str) -> RGBColor {
    let index = families.iter().position(|f| f == family).unwrap_or(0);
    COLOURS[index % COLOURS.len()]
}

/// The series of every family and method that ran, positive values only
/// (a log axis has no 0), in the order compared. A member a limit cut
/// short is left out: its figures are not those of the whole program.
fn series(panel: &Panel, comparisons: &[Comparison]) -> Vec<Series> {
    let mut lines: Vec<Series> = Vec::new();
    for comparison in comparisons.iter().filter(|c| c.stopped.is_none()) {
        let Some(size) = comparison.size else {
            continue;
        };
        for summary in [&comparison.forward, &comparison.wp] {
            let value = (panel.value)(summary);
            if summary.unavailable.is_some() || value.median <= 0.0 {
                continue;
            }
            let point = (size as f64, value.median, value);
            match lines
                .iter_mut()
                .find(|s| s.family == comparison.program && s.method == summary.method)
            {
                Some(line) => line.points.push(point),
                None => lines.push(Series {
                    family: comparison.program.clone(),
                    method: summary.method,
                    points: vec![point],
                }),
            }
        }
    }
    lines
}

/// The values' range, and whether it spans more than a decade (then the
/// axis is logarithmic, with room of a factor 1.5 at each end; otherwise
/// linear from 0).
fn extent(values: impl Iterator<Item = f64>) -> (Range<f64>, bool) {
    let (low, high) = values.fold((f64::MAX, f64::MIN), |(low, high), v| {
        (low.min(v), high.max(v))
    });
    if low > high {
        return (1.0..10.0, false);
    }
    if high / low >= 10.0 {
        (low / 1.5..high * 1.5, true)
    } else {
        (0.0..high * 1.1, false)
    }
}

/// A tick label: integers with thin spaces between thousands (`10 000`),
/// others with at most two decimals.
fn tick(value: &f64) -> String {
    if value.fract() != 0.0 || value.abs() >= 1e15 {
        let text = format!("{value:.2}");
        return text.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    let digits = format!("{}", value.abs() as u64);
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push('\u{2009}');
        }
        grouped.push(digit);
    }
    if *value < 0.0 {
        format!("-{grouped}")
    } else {
        grouped
    }
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    panel: &Panel,
    lines: &[Series],
    families: &[String],
) -> DrawResult<DB> {
    let points = || lines.iter().flat_map(|s| &s.points);
    let (x, log_x) = extent(points().map(|p| p.0));
    let (y, log_y) = extent(points().flat_map(|p| [p.2.min, p.2.max]));
    match (log_x, log_y) {
        (true, true) => chart(area, panel, lines, families, x.log_scale(), y.log_scale()),
        (true, false) => chart(area, panel, lines, families, x.log_scale(), y),
        (false, true) => chart(area, panel, lines, families, x, y.log_scale()),
        (false, false) => chart(area, panel, lines, families, x, y),
    }
}

fn chart<DB, X, Y>(
    area: &DrawingArea<DB, Shift>,
    panel: &Panel,
    lines: &[Series],
    families: &[String],
    x: X,
    y: Y,
) -> DrawResult<DB>
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(area)
        .caption(panel.caption, (FONT, 17))
        .margin_top(8)
        .margin_left(12)
        .margin_right(20)
        .x_label_area_size(44)
        .y_label_area_size(78)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .x_desc("family size n")
        .y_desc(panel.y_label)
        .axis_desc_style((FONT, 15))
        .label_style((FONT, 13))
        .x_labels(6)
        .y_labels(6)
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .bold_line_style(RGBColor(0xDD, 0xDD, 0xDD))
        .light_line_style(TRANSPARENT)
        .draw()?;
    for line in lines {
        let colour = colour(families, &line.family);
        let style = ShapeStyle {
            color: colour.to_rgba(),
            filled: true,
            stroke_width: 2,
        };
        let path = line.points.iter().map(|p| (p.0, p.1));
        if line.method == Method::Wp.name() {
            chart.draw_series(DashedLineSeries::new(path, 7, 5, style))?;
        } else {
            chart.draw_series(LineSeries::new(path, style))?;
        }
        chart.draw_series(
            line.points
                .iter()
                .filter(|p| p.2.max > p.2.min)
                .map(|p| ErrorBar::new_vertical(p.0, p.2.min, p.1, p.2.max, style, 8)),
        )?;
        let wp = line.method == Method::Wp.name();
        let at = line.points.iter().map(|p| (p.0, p.1));
        markers!(|m| chart.draw_series(m).map(|_| ()), at, colour, wp)?;
    }
    Ok(())
}

/// Below the panels: one entry per family (its colour), then the methods
/// (line and marker), then what the error bars are.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    families: &[String],
    runs: usize,
) -> DrawResult<DB> {
    let text = (FONT, 14).into_font().color(&BLACK);
    let width = |label: &str| 8 * label.chars().count() as i32;
    let mut entries: Vec<(String, Option<RGBColor>, Option<bool>)> = families
        .iter()
        .map(|f| (f.clone(), Some(colour(families, f)), None))
        .collect();
    entries.push(("forward".to_string(), None, Some(false)));
    entries.push(("wp".to_string(), None, Some(true)));
    let total: i32 = entries.iter().map(|e| 40 + width(&e.0) + 18).sum();
    let mut x = ((WIDTH as i32 - total) / 2).max(10);
    let y = 18;
    for (label, family, method) in &entries {
        let colour = family.unwrap_or(BLACK);
        let style = colour.stroke_width(2);
        match method {
            Some(true) => {
                area.draw(&PathElement::new(vec![(x, y), (x + 9, y)], style))?;
                area.draw(&PathElement::new(vec![(x + 23, y), (x + 32, y)], style))?;
            }
            _ => area.draw(&PathElement::new(vec![(x, y), (x + 32, y)], style))?,
        }
        match method {
            Some(wp) => markers!(
                |mut m: std::iter::Map<_, _>| m.try_for_each(|element| area.draw(&element)),
                std::iter::once((x + 16, y)),
                colour,
                *wp
            )?,
            None => area.draw(&Rectangle::new(
                [(x + 12, y - 4), (x + 20, y + 4)],
                colour.filled(),
            ))?,
        }
        area.draw(&Text::new(label.clone(), (x + 40, y - 8), text.clone()))?;
        x += 40 + width(label) + 18;
    }
    let note = if runs > 1 {
        format!("time: median of {runs} runs, bars from the fastest to the slowest")
    } else {
        "time: one run".to_string()
    };
    let x = (WIDTH as i32 - width(&note)) / 2;
    area.draw(&Text::new(note, (x.max(10), y + 18), text))
}
