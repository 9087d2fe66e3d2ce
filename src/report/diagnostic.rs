//! Parse and type errors for people: a first line `FILE:LINE:COL: error:
//! MESSAGE` that editors and tests can match, then the source excerpt with
//! the spans underlined (ariadne), in colour only on a terminal.

use ariadne::{Config, Label, Report, ReportKind, Source};
use std::io::IsTerminal;
use symex_semantics::syntax::Diagnostic;

/// Whether stderr may be coloured: a terminal, and neither `CI` nor `NO_COLOR` set.
pub fn colour_allowed() -> bool {
    std::io::stderr().is_terminal()
        && std::env::var_os("CI").is_none()
        && std::env::var_os("NO_COLOR").is_none()
}

/// The diagnostic as text, for the file called `file` with contents `source`.
pub fn render(diagnostic: &Diagnostic, file: &str, source: &str, colour: bool) -> String {
    let mut text = format!(
        "{file}:{}:{}: error: {}\n",
        diagnostic.line, diagnostic.column, diagnostic.message
    );
    let clamp = |span: &std::ops::Range<usize>| {
        let end = span.end.min(source.len());
        span.start.min(end)..end
    };
    let main = clamp(&diagnostic.span);
    let mut report = Report::build(ReportKind::Error, file, main.start)
        .with_config(Config::default().with_color(colour))
        .with_message(&diagnostic.message)
        .with_label(Label::new((file, main)).with_message(&diagnostic.message));
    for (note, span) in &diagnostic.notes {
        report = report.with_label(Label::new((file, clamp(span))).with_message(note));
    }
    let mut excerpt = Vec::new();
    if report
        .finish()
        .write((file, Source::from(source)), &mut excerpt)
        .is_ok()
    {
        text.push_str(&String::from_utf8_lossy(&excerpt));
    }
    text
}
