//! The SVG view of an exploration: the compact tree ([`super::compact`]) laid
//! out in pure Rust, so a picture needs no Graphviz. Each subtree gets a
//! band as wide as its widest level, children side by side inside their
//! parent's band and the parent centred above them, so no two boxes overlap.

use super::compact::{compact, Box, Kind, MAX_BOXES};
use super::{paths_summary, Header};
use crate::explore::{Status, Tree};
use std::fmt::Write;

const FONT_SIZE: f64 = 12.0;
/// The advance of one character of a monospace font at [`FONT_SIZE`].
const CHAR_WIDTH: f64 = 7.3;
const LINE_HEIGHT: f64 = 16.0;
const PADDING: f64 = 8.0;
const GAP_X: f64 = 16.0;
const GAP_Y: f64 = 40.0;
/// Conditions are wrapped at conjunctions to lines of about this many characters.
const WRAP: usize = 36;
/// A box shows at most this many lines of condition.
const MAX_CONDITION_LINES: usize = 4;

pub fn tree_svg(tree: &Tree, header: &Header) -> String {
    let root = compact(tree, MAX_BOXES);
    let layout = Layout::of(&root);
    let title = format!("{} — {}", header.program, paths_summary(&tree.stats));
    let width = layout.width.max(text_width(&title) + 2.0 * PADDING);
    let top = LINE_HEIGHT + 2.0 * PADDING;
    let height = top + layout.levels.iter().map(|h| h + GAP_Y).sum::<f64>();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"{FONT_SIZE}\">"
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(out, "<text x=\"{PADDING}\" y=\"{:.1}\" font-weight=\"bold\">{}</text>", PADDING + FONT_SIZE, escape(&title));
    let mut level_top = vec![top];
    for h in &layout.levels {
        level_top.push(level_top.last().copied().unwrap_or(top) + h + GAP_Y);
    }
    for placed in &layout.boxes {
        let y = level_top[placed.level];
        if let Some(parent) = placed.parent {
            let p = &layout.boxes[parent];
            let _ = writeln!(
                out,
                "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#555\"/>",
                p.center,
                level_top[p.level] + p.height,
                placed.center
            );
        }
        let (fill, stroke) = colours(placed.kind);
        let dash = if matches!(placed.kind, Look::Folded | Look::Unexplored) { " stroke-dasharray=\"4 3\"" } else { "" };
        let left = placed.center - placed.width / 2.0;
        let _ = writeln!(
            out,
            "<rect x=\"{left:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"4\" fill=\"{fill}\" stroke=\"{stroke}\"{dash}/>",
            placed.width, placed.height
        );
        for (i, line) in placed.lines.iter().enumerate() {
            let weight = if i + 1 == placed.lines.len() { " font-weight=\"bold\"" } else { "" };
            let baseline = y + PADDING + FONT_SIZE + i as f64 * LINE_HEIGHT - 2.0;
            let _ = writeln!(out, "<text x=\"{:.1}\" y=\"{baseline:.1}\" text-anchor=\"middle\"{weight}>{}</text>", placed.center, escape(line));
        }
    }
    out.push_str("</svg>\n");
    out
}

/// How a box is coloured.
#[derive(Clone, Copy)]
enum Look {
    Plain,
    Terminated,
    Error,
    Cut,
    Folded,
    Unexplored,
}

fn colours(look: Look) -> (&'static str, &'static str) {
    match look {
        Look::Plain => ("#ffffff", "#333333"),
        Look::Terminated => ("#e8f5e9", "#2e7d32"),
        Look::Error => ("#fdecea", "#c62828"),
        Look::Cut => ("#fff3e0", "#ef6c00"),
        Look::Folded => ("#eef0fb", "#3949ab"),
        Look::Unexplored => ("#f5f5f5", "#757575"),
    }
}

/// A box with its place: centre, level, size and text.
struct Placed {
    parent: Option<usize>,
    level: usize,
    center: f64,
    width: f64,
    height: f64,
    lines: Vec<String>,
    kind: Look,
}

struct Layout {
    boxes: Vec<Placed>,
    /// The height of the tallest box of each level.
    levels: Vec<f64>,
    width: f64,
}

impl Layout {
    fn of(root: &Box) -> Layout {
        let mut layout = Layout { boxes: Vec::new(), levels: Vec::new(), width: band(root) };
        layout.place(root, None, 0, 0.0);
        layout
    }

    /// Places `b` and its subtree in the band starting at `left`.
    fn place(&mut self, b: &Box, parent: Option<usize>, level: usize, left: f64) {
        let lines = lines(b);
        let width = box_width(&lines);
        let height = lines.len() as f64 * LINE_HEIGHT + 2.0 * PADDING;
        let span = band(b);
        if self.levels.len() <= level {
            self.levels.push(0.0);
        }
        self.levels[level] = self.levels[level].max(height);
        let kind = look(&b.kind);
        self.boxes.push(Placed { parent, level, center: left + span / 2.0, width, height, lines, kind });
        let id = self.boxes.len() - 1;
        let children: f64 = b.children.iter().map(band).sum::<f64>() + GAP_X * b.children.len().saturating_sub(1) as f64;
        let mut x = left + (span - children) / 2.0;
        for child in &b.children {
            self.place(child, Some(id), level + 1, x);
            x += band(child) + GAP_X;
        }
    }
}

/// The width of the band `b`'s subtree needs.
fn band(b: &Box) -> f64 {
    let children: f64 = b.children.iter().map(band).sum::<f64>() + GAP_X * b.children.len().saturating_sub(1) as f64;
    box_width(&lines(b)).max(children)
}

fn box_width(lines: &[String]) -> f64 {
    lines.iter().map(|line| text_width(line)).fold(0.0, f64::max) + 2.0 * PADDING
}

fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR_WIDTH
}

/// A box's text: how it was reached (rule, steps, conditions), then what it is.
fn lines(b: &Box) -> Vec<String> {
    let mut lines = Vec::new();
    let (first, more) = match b.rule {
        Some(rule) => (rule.to_string(), b.steps.saturating_sub(1)),
        None => ("start".to_string(), b.steps),
    };
    lines.push(if more == 0 { first } else { format!("{first} +{more} step{}", if more == 1 { "" } else { "s" }) });
    if !b.condition.is_true() {
        let mut wrapped = wrap(&b.condition.to_string());
        if wrapped.len() > MAX_CONDITION_LINES {
            wrapped.truncate(MAX_CONDITION_LINES);
            wrapped[MAX_CONDITION_LINES - 1].push_str(" …");
        }
        lines.extend(wrapped);
    }
    lines.push(match &b.kind {
        Kind::Fork => format!("fork #{}", b.node),
        Kind::End { path, status } => format!("path {path}: {status}"),
        Kind::Unexplored => "unexplored".to_string(),
        Kind::Folded { paths } => format!("{paths} path{} folded", if *paths == 1 { "" } else { "s" }),
    });
    lines
}

/// `text` in lines of about [`WRAP`] characters, broken after `&&`.
fn wrap(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for (i, part) in text.split(" && ").enumerate() {
        let part = if i == 0 { part.to_string() } else { format!("&& {part}") };
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + part.chars().count() <= WRAP => {
                line.push(' ');
                line.push_str(&part);
            }
            _ => lines.push(part),
        }
    }
    lines
}

fn look(kind: &Kind) -> Look {
    match kind {
        Kind::Fork => Look::Plain,
        Kind::End { status: Status::Terminated | Status::AssumptionViolated, .. } => Look::Terminated,
        Kind::End { status: Status::Error(_), .. } => Look::Error,
        Kind::End { status: Status::Bounded(_), .. } => Look::Cut,
        Kind::End { .. } | Kind::Unexplored => Look::Unexplored,
        Kind::Folded { .. } => Look::Folded,
    }
}

/// Text for SVG: `&`, `<`, `>` and `"` escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
