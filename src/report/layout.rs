//! Where the boxes of a compact tree ([`super::compact`]) go, for the SVG
//! picture and for choosing how much of a tree a page can hold: a tidy
//! tree (Reingold and Tilford's idea): each subtree is laid out on its own,
//! then the subtrees of a fork are pushed together as close as their
//! outlines level by level allow, and the fork is centred above its first
//! and last child. A subtree that is narrow below a wide box tucks under
//! its neighbours, so King's SEARCH is a few boxes wide, not eleven.
//!
//! A tree wider than the page is folded: the deepest fold depth whose
//! layout fits is taken (binary search; deeper never makes a tree narrower).
//! Sizes are in units of a monospace font of size [`FONT_SIZE`].

use super::compact::{compact, Box, Kind};
use crate::explore::{Status, Tree};

pub const FONT_SIZE: f64 = 12.0;
/// The advance of one character of a monospace font at [`FONT_SIZE`].
pub const CHAR_WIDTH: f64 = 7.3;
pub const LINE_HEIGHT: f64 = 16.0;
pub const PADDING: f64 = 6.0;
const GAP_X: f64 = 14.0;
/// Room between levels, for the edges and their labels.
const GAP_Y: f64 = 34.0;
/// Lines of a box are wrapped at conjunctions to about this many characters.
const WRAP: usize = 30;
/// A box shows at most this many lines besides its title.
const MAX_DETAIL_LINES: usize = 3;

/// How a box is coloured.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Look {
    Fork,
    Terminated,
    Error,
    Cut,
    Folded,
    Unexplored,
}

/// A box with its place: centre, level, size, text.
pub struct Placed {
    pub parent: Option<usize>,
    pub level: usize,
    pub center: f64,
    pub width: f64,
    pub height: f64,
    /// The title, then the detail lines.
    pub lines: Vec<String>,
    /// How many of `lines` are the title's.
    pub title_lines: usize,
    pub edge: Option<String>,
    pub tooltip: String,
    pub look: Look,
}

pub struct Layout {
    pub boxes: Vec<Placed>,
    /// The height of the tallest box of each level.
    pub levels: Vec<f64>,
    pub width: f64,
}

/// The compact tree of `tree` folded to fit `max_width` (if any depth
/// does), with its layout.
pub fn fitted(tree: &Tree, max_width: f64) -> (Box, Layout) {
    let full = compact(tree, usize::MAX);
    let layout = Layout::of(&full);
    if layout.width <= max_width {
        return (full, layout);
    }
    // The deepest fold depth (levels of boxes kept unfolded) that fits.
    let (mut fits, mut too_wide) = (0, full.height());
    let mut best = None;
    while fits + 1 < too_wide {
        let depth = (fits + too_wide) / 2;
        let root = compact(tree, depth);
        let layout = Layout::of(&root);
        if layout.width <= max_width {
            fits = depth;
            best = Some((root, layout));
        } else {
            too_wide = depth;
        }
    }
    best.unwrap_or_else(|| {
        let root = compact(tree, fits);
        let layout = Layout::of(&root);
        (root, layout)
    })
}

/// A subtree laid out on its own: its boxes with centres relative to its
/// root's, and its outline, the leftmost and rightmost extent on each level.
struct Subtree {
    boxes: Vec<Placed>,
    outline: Vec<(f64, f64)>,
}

impl Layout {
    pub fn of(root: &Box) -> Layout {
        let tree = subtree(root, 0);
        let left = tree.outline.iter().map(|(l, _)| *l).fold(0.0, f64::min);
        let right = tree.outline.iter().map(|(_, r)| *r).fold(0.0, f64::max);
        let mut levels = Vec::new();
        let mut boxes = tree.boxes;
        for placed in &mut boxes {
            placed.center -= left;
            if levels.len() <= placed.level {
                levels.resize(placed.level + 1, 0.0);
            }
            levels[placed.level] = f64::max(levels[placed.level], placed.height);
        }
        Layout {
            boxes,
            levels,
            width: right - left,
        }
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
        self.level_tops(top).last().copied().unwrap_or(top) - GAP_Y
    }
}

/// Lays out `b` and its subtree, `b` at level `level` and centre 0; box
/// indices of parents are relative to the returned list.
fn subtree(b: &Box, level: usize) -> Subtree {
    let lines = box_lines(b);
    let width = lines
        .iter()
        .map(|line| text_width(line))
        .fold(0.0, f64::max)
        + 2.0 * PADDING;
    let height = lines.len() as f64 * LINE_HEIGHT + 2.0 * PADDING;
    let root = Placed {
        parent: None,
        level,
        center: 0.0,
        width,
        height,
        title_lines: wrap(&b.title).len(),
        lines,
        edge: b.edge.clone(),
        tooltip: b.tooltip.clone(),
        look: look(&b.kind),
    };
    let mut boxes = vec![root];
    let mut outline = vec![(-width / 2.0, width / 2.0)];
    if b.children.is_empty() {
        return Subtree { boxes, outline };
    }
    // The children pushed together from the left: each one as far left as
    // the outline of those before it allows.
    let mut merged: Vec<(f64, f64)> = Vec::new();
    let mut placed_children: Vec<(f64, Subtree)> = Vec::new();
    for child in &b.children {
        let child = subtree(child, level + 1);
        let offset = match placed_children.is_empty() {
            true => 0.0,
            false => merged
                .iter()
                .zip(&child.outline)
                .map(|((_, right), (left, _))| right - left + GAP_X)
                .fold(f64::MIN, f64::max),
        };
        for (depth, (left, right)) in child.outline.iter().enumerate() {
            let (left, right) = (left + offset, right + offset);
            match merged.get_mut(depth) {
                Some(extent) => extent.1 = right,
                None => merged.push((left, right)),
            }
        }
        placed_children.push((offset, child));
    }
    let first = placed_children.first().map_or(0.0, |(x, _)| *x);
    let last = placed_children.last().map_or(0.0, |(x, _)| *x);
    let shift = -(first + last) / 2.0;
    for (offset, child) in placed_children {
        let base = boxes.len();
        for mut placed in child.boxes {
            placed.center += offset + shift;
            placed.parent = Some(placed.parent.map_or(0, |p| base + p));
            boxes.push(placed);
        }
    }
    outline.extend(merged.into_iter().map(|(l, r)| (l + shift, r + shift)));
    Subtree { boxes, outline }
}

pub fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR_WIDTH
}

/// A box's text: its title, then its detail, each wrapped at conjunctions.
pub fn box_lines(b: &Box) -> Vec<String> {
    let mut lines = wrap(&b.title);
    if !b.detail.is_empty() {
        let mut detail = wrap(&b.detail);
        if detail.len() > MAX_DETAIL_LINES {
            detail.truncate(MAX_DETAIL_LINES);
            detail[MAX_DETAIL_LINES - 1].push_str(" …");
        }
        lines.extend(detail);
    }
    lines
}

/// `text` in lines of about [`WRAP`] characters, broken before `&&` and `||`.
pub fn wrap(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut rest = text;
    let mut parts = Vec::new();
    while let Some(at) = [" && ", " || "].iter().filter_map(|op| rest.find(op)).min() {
        parts.push(&rest[..at]);
        rest = &rest[at + 1..];
    }
    parts.push(rest);
    for part in parts {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + part.chars().count() <= WRAP => {
                line.push(' ');
                line.push_str(part);
            }
            _ => lines.push(part.to_string()),
        }
    }
    lines
}

pub fn look(kind: &Kind) -> Look {
    match kind {
        Kind::Fork => Look::Fork,
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
