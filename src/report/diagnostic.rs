//! Parse and type errors for people, said once: `FILE:LINE:COL: error:
//! MESSAGE` (the line editors and tests match), the source line with the
//! span underlined, then each note the same way, at its own position.
//! In colour only on a terminal.

use std::io::IsTerminal;
use symex_semantics::syntax::{Diagnostic, LineIndex};

/// Whether stderr may be coloured: a terminal, and neither `CI` nor `NO_COLOR` set.
pub fn colour_allowed() -> bool {
    std::io::stderr().is_terminal()
        && std::env::var_os("CI").is_none()
        && std::env::var_os("NO_COLOR").is_none()
}

/// The diagnostic as text, for the file called `file` with contents `source`.
pub fn render(diagnostic: &Diagnostic, file: &str, source: &str, colour: bool) -> String {
    let lines = LineIndex::new(source);
    let paint = |code: &str, text: &str| match colour {
        true => format!("\x1b[{code}m{text}\x1b[0m"),
        false => text.to_string(),
    };
    let mut text = format!(
        "{file}:{}:{}: {} {}\n",
        diagnostic.line,
        diagnostic.column,
        paint("1;31", "error:"),
        diagnostic.message
    );
    text.push_str(&excerpt(source, &lines, &diagnostic.span, &|s| {
        paint("1;31", s)
    }));
    for (note, span) in &diagnostic.notes {
        let (line, column) = lines.position(span.start);
        text.push_str(&format!(
            "{file}:{line}:{column}: {} {note}\n",
            paint("1;36", "note:")
        ));
        text.push_str(&excerpt(source, &lines, span, &|s| paint("1;36", s)));
    }
    text
}

/// The line `span` starts on, with the span (on that line) underlined.
fn excerpt(
    source: &str,
    lines: &LineIndex,
    span: &std::ops::Range<usize>,
    paint: &dyn Fn(&str) -> String,
) -> String {
    let start = span.start.min(source.len());
    let (line, column) = lines.position(start);
    let text = source.lines().nth(line - 1).unwrap_or_default();
    let on_line = source[start..span.end.clamp(start, source.len())]
        .split('\n')
        .next()
        .map_or(0, |s| s.chars().count());
    let number = line.to_string();
    let gutter = " ".repeat(number.len());
    let marks = "^".repeat(on_line.max(1));
    format!(
        "{gutter} |\n{number} | {text}\n{gutter} | {}{}\n",
        " ".repeat(column - 1),
        paint(&marks)
    )
}

#[cfg(test)]
mod tests {
    use super::render;
    use symex_semantics::syntax::LineIndex;

    #[test]
    fn an_error_is_said_once_with_its_line_underlined_and_its_notes() {
        let source = "x := 1;\nif x { skip }";
        let lines = LineIndex::new(source);
        let mut diagnostic = lines.error(11..12, "`x` is used as int at 1:1 and as bool at 2:4");
        diagnostic
            .notes
            .push(("`x` is used as int here".into(), 0..1));
        assert_eq!(
            render(&diagnostic, "f.sx", source, false),
            "f.sx:2:4: error: `x` is used as int at 1:1 and as bool at 2:4\n  |\n2 | if x { skip }\n  |    ^\n\
             f.sx:1:1: note: `x` is used as int here\n  |\n1 | x := 1;\n  | ^\n"
        );
    }
}
