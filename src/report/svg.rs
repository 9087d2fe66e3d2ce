//! The SVG view of an exploration: the compact tree ([`super::compact`])
//! laid out in pure Rust ([`super::layout`]), so a picture needs no Graphviz.

use super::compact::{compact, MAX_BOXES};
use super::layout::{text_width, Layout, Look, FONT_SIZE, LINE_HEIGHT, PADDING};
use super::{paths_summary, Header};
use crate::explore::Tree;
use std::fmt::Write;

pub fn tree_svg(tree: &Tree, header: &Header) -> String {
    let root = compact(tree, MAX_BOXES);
    let layout = Layout::of(&root);
    let title = format!("{} — {}", header.program, paths_summary(&tree.stats));
    let width = layout.width.max(text_width(&title) + 2.0 * PADDING);
    let top = LINE_HEIGHT + 2.0 * PADDING;
    let height = layout.height(top);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"{FONT_SIZE}\">"
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        out,
        "<text x=\"{PADDING}\" y=\"{:.1}\" font-weight=\"bold\">{}</text>",
        PADDING + FONT_SIZE,
        escape(&title)
    );
    let level_top = layout.level_tops(top);
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
        let dash = if matches!(placed.kind, Look::Folded | Look::Unexplored) {
            " stroke-dasharray=\"4 3\""
        } else {
            ""
        };
        let left = placed.center - placed.width / 2.0;
        let _ = writeln!(
            out,
            "<rect x=\"{left:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"4\" fill=\"{fill}\" stroke=\"{stroke}\"{dash}/>",
            placed.width, placed.height
        );
        for (i, line) in placed.lines.iter().enumerate() {
            let weight = if i + 1 == placed.lines.len() {
                " font-weight=\"bold\""
            } else {
                ""
            };
            let baseline = y + PADDING + FONT_SIZE + i as f64 * LINE_HEIGHT - 2.0;
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{baseline:.1}\" text-anchor=\"middle\"{weight}>{}</text>",
                placed.center,
                escape(line)
            );
        }
    }
    out.push_str("</svg>\n");
    out
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

/// Text for SVG: `&`, `<`, `>` and `"` escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
