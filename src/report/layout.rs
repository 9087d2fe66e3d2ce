//! Where the boxes of a compact tree ([`super::compact`]) go, for the
//! pictures (SVG, TikZ): each subtree gets a band as wide as its widest
//! level, children side by side inside their parent's band and the parent
//! centred above them, so no two boxes overlap. Sizes are in units of a
//! monospace font of size [`FONT_SIZE`].

use super::compact::{Box, Kind};
use crate::explore::Status;

pub const FONT_SIZE: f64 = 12.0;
/// The advance of one character of a monospace font at [`FONT_SIZE`].
pub const CHAR_WIDTH: f64 = 7.3;
pub const LINE_HEIGHT: f64 = 16.0;
pub const PADDING: f64 = 8.0;
const GAP_X: f64 = 16.0;
const GAP_Y: f64 = 40.0;
/// Conditions are wrapped at conjunctions to lines of about this many characters.
const WRAP: usize = 36;
/// A box shows at most this many lines of condition.
const MAX_CONDITION_LINES: usize = 4;

/// How a box is coloured.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Look {
    Plain,
    Terminated,
    Error,
    Cut,
    Folded,
    Unexplored,
}

/// A box with its place: centre, level, size and text.
pub struct Placed {
    pub parent: Option<usize>,
    pub level: usize,
    pub center: f64,
    pub width: f64,
    pub height: f64,
    pub lines: Vec<String>,
    pub kind: Look,
}

pub struct Layout {
    pub boxes: Vec<Placed>,
    /// The height of the tallest box of each level.
    pub levels: Vec<f64>,
    pub width: f64,
}

impl Layout {
    pub fn of(root: &Box) -> Layout {
        let mut layout = Layout {
            boxes: Vec::new(),
            levels: Vec::new(),
            width: band(root),
        };
        layout.place(root, None, 0, 0.0);
        layout
    }

    /// The top of each level (and the bottom of the last) when the first starts at `top`.
    pub fn level_tops(&self, top: f64) -> Vec<f64> {
        let mut tops = vec![top];
        for h in &self.levels {
            tops.push(tops.last().copied().unwrap_or(top) + h + GAP_Y);
        }
        tops
    }

    /// The height of the picture when the first level starts at `top`.
    pub fn height(&self, top: f64) -> f64 {
        self.level_tops(top).last().copied().unwrap_or(top)
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
        self.boxes.push(Placed {
            parent,
            level,
            center: left + span / 2.0,
            width,
            height,
            lines,
            kind,
        });
        let id = self.boxes.len() - 1;
        let children: f64 = b.children.iter().map(band).sum::<f64>()
            + GAP_X * b.children.len().saturating_sub(1) as f64;
        let mut x = left + (span - children) / 2.0;
        for child in &b.children {
            self.place(child, Some(id), level + 1, x);
            x += band(child) + GAP_X;
        }
    }
}

/// The width of the band `b`'s subtree needs.
fn band(b: &Box) -> f64 {
    let children: f64 = b.children.iter().map(band).sum::<f64>()
        + GAP_X * b.children.len().saturating_sub(1) as f64;
    box_width(&lines(b)).max(children)
}

fn box_width(lines: &[String]) -> f64 {
    lines
        .iter()
        .map(|line| text_width(line))
        .fold(0.0, f64::max)
        + 2.0 * PADDING
}

pub fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR_WIDTH
}

/// A box's text: how it was reached (rule, steps, conditions), then what it is.
fn lines(b: &Box) -> Vec<String> {
    let mut lines = Vec::new();
    let (first, more) = match b.rule {
        Some(rule) => (rule.to_string(), b.steps.saturating_sub(1)),
        None => ("start".to_string(), b.steps),
    };
    lines.push(if more == 0 {
        first
    } else {
        format!("{first} +{more} step{}", if more == 1 { "" } else { "s" })
    });
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
        Kind::Folded { paths } => {
            format!("{paths} path{} folded", if *paths == 1 { "" } else { "s" })
        }
    });
    lines
}

/// `text` in lines of about [`WRAP`] characters, broken after `&&`.
fn wrap(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for (i, part) in text.split(" && ").enumerate() {
        let part = if i == 0 {
            part.to_string()
        } else {
            format!("&& {part}")
        };
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
        Kind::End {
            status: Status::Terminated | Status::AssumptionViolated,
            ..
        } => Look::Terminated,
        Kind::End {
            status: Status::Error(_),
            ..
        } => Look::Error,
        Kind::End {
            status: Status::Bounded(_),
            ..
        } => Look::Cut,
        Kind::End { .. } | Kind::Unexplored => Look::Unexplored,
        Kind::Folded { .. } => Look::Folded,
    }
}
