//! The SVG view of an exploration: the compact tree ([`super::compact`])
//! laid out in pure Rust ([`super::layout`]), so a picture needs no
//! Graphviz, folded to at most [`MAX_WIDTH`] units wide. Each box has its
//! whole path condition and state as a tooltip.

use super::layout::{fitted, text_width, Look, Placed, FONT_SIZE, LINE_HEIGHT, PADDING};
use super::{paths_summary, Header};
use crate::explore::Tree;
use std::fmt::Write;

/// The widest picture drawn, in pixels (a screen, or a page at 150 dpi).
pub const MAX_WIDTH: f64 = 1900.0;
const MARGIN: f64 = 10.0;
/// Edge labels are smaller than box text.
const LABEL_SIZE: f64 = 11.0;

pub fn tree_svg(tree: &Tree, header: &Header) -> String {
    let (_, layout) = fitted(tree, MAX_WIDTH - 2.0 * MARGIN);
    let title = format!("{} — {}", header.program, paths_summary(&tree.stats));
    let width = (layout.width + 2.0 * MARGIN).max(text_width(&title) + 2.0 * MARGIN);
    let x0 = MARGIN + (width - 2.0 * MARGIN - layout.width) / 2.0;
    let top = MARGIN + LINE_HEIGHT + PADDING;
    let height = layout.height(top) + MARGIN;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"{FONT_SIZE}\">"
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        out,
        "<text x=\"{MARGIN}\" y=\"{:.1}\" font-weight=\"bold\">{}</text>",
        MARGIN + FONT_SIZE,
        escape(&title)
    );
    let tops = layout.level_tops(top);
    for placed in &layout.boxes {
        if let Some(parent) = placed.parent {
            edge(&mut out, &layout.boxes[parent], placed, &tops, x0);
        }
    }
    for placed in &layout.boxes {
        draw_box(&mut out, placed, tops[placed.level], x0);
    }
    out.push_str("</svg>\n");
    out
}

/// The line from `parent` down to `child`, with the child's edge label
/// beside its middle, on the side away from the line.
fn edge(out: &mut String, parent: &Placed, child: &Placed, tops: &[f64], x0: f64) {
    let (x1, y1) = (x0 + parent.center, tops[parent.level] + parent.height);
    let (x2, y2) = (x0 + child.center, tops[child.level]);
    let _ = writeln!(
        out,
        "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"#666\"/>"
    );
    if let Some(label) = &child.edge {
        let (x, y) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0 + LABEL_SIZE / 3.0);
        let (dx, anchor) = match x2 < x1 {
            true => (-4.0, "end"),
            false => (4.0, "start"),
        };
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{y:.1}\" text-anchor=\"{anchor}\" font-size=\"{LABEL_SIZE}\" fill=\"#444\" font-style=\"italic\">{}</text>",
            x + dx,
            escape(label)
        );
    }
}

/// A box with its text: the title bold, the rest plain; the tooltip as a `<title>`.
fn draw_box(out: &mut String, placed: &Placed, y: f64, x0: f64) {
    let (fill, stroke) = colours(placed.look);
    let dash = match placed.look {
        Look::Folded | Look::Unexplored => " stroke-dasharray=\"4 3\"",
        _ => "",
    };
    let center = x0 + placed.center;
    let left = center - placed.width / 2.0;
    out.push_str("<g>");
    if !placed.tooltip.is_empty() {
        let _ = write!(out, "<title>{}</title>", escape(&placed.tooltip));
    }
    let _ = writeln!(
        out,
        "\n<rect x=\"{left:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"4\" fill=\"{fill}\" stroke=\"{stroke}\"{dash}/>",
        placed.width, placed.height
    );
    for (i, line) in placed.lines.iter().enumerate() {
        let weight = if i < placed.title_lines {
            " font-weight=\"bold\""
        } else {
            ""
        };
        let baseline = y + PADDING + FONT_SIZE + i as f64 * LINE_HEIGHT - 2.0;
        let _ = writeln!(
            out,
            "<text x=\"{center:.1}\" y=\"{baseline:.1}\" text-anchor=\"middle\"{weight}>{}</text>",
            escape(line)
        );
    }
    out.push_str("</g>\n");
}

fn colours(look: Look) -> (&'static str, &'static str) {
    match look {
        Look::Fork => ("#ffffff", "#333333"),
        Look::Terminated => ("#e8f5e9", "#2e7d32"),
        Look::Error => ("#fdecea", "#c62828"),
        Look::Cut => ("#fff3e0", "#ef6c00"),
        Look::Folded => ("#eef0fb", "#3949ab"),
        Look::Unexplored => ("#f5f5f5", "#757575"),
    }
}

/// Text for SVG: `&`, `<`, `>` and `"` escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
