//! Located error messages: one clear message per rejected program, with the
//! 1-based line and column of where the problem is and optional notes that
//! point at related places (the other use of a variable, a declaration).

use std::fmt;
use std::ops::Range;

/// A region of the source, as byte offsets.
pub type Span = Range<usize>;

/// Why a program was rejected, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub message: String,
    /// Byte offsets into the source.
    pub span: Span,
    /// 1-based line of `span.start`.
    pub line: usize,
    /// 1-based column of `span.start`, counted in characters.
    pub column: usize,
    /// Secondary labels, e.g. the other use of a variable.
    pub notes: Vec<(String, Span)>,
}

impl Diagnostic {
    /// `FILE:LINE:COL: error: MESSAGE`, plus one located `note:` line per note.
    pub fn render_plain(&self, file: &str, source: &str) -> String {
        let mut out = format!(
            "{file}:{}:{}: error: {}",
            self.line, self.column, self.message
        );
        let lines = LineIndex::new(source);
        for (note, span) in &self.notes {
            let (line, column) = lines.position(span.start);
            out.push_str(&format!("\n{file}:{line}:{column}: note: {note}"));
        }
        out
    }
}

impl fmt::Display for Diagnostic {
    /// `LINE:COL: error: MESSAGE`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: error: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// Turns byte offsets into line and column numbers.
pub struct LineIndex<'a> {
    source: &'a str,
    /// Byte offset of the first character of every line.
    line_starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(source: &'a str) -> LineIndex<'a> {
        let line_starts = std::iter::once(0)
            .chain(source.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex {
            source,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of byte `offset`.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.source.len());
        let line = self.line_starts.partition_point(|&start| start <= offset);
        let start = self.line_starts[line - 1];
        let column = self
            .source
            .get(start..offset)
            .map_or(offset - start, |text| text.chars().count());
        (line, column + 1)
    }

    /// `LINE:COL` of byte `offset`, for use inside messages.
    pub fn at(&self, offset: usize) -> String {
        let (line, column) = self.position(offset);
        format!("{line}:{column}")
    }

    /// A diagnostic located at `span`.
    pub fn error(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        let (line, column) = self.position(span.start);
        Diagnostic {
            message: message.into(),
            span,
            line,
            column,
            notes: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_and_count_characters() {
        let source = "ab\nçd e\n";
        let lines = LineIndex::new(source);
        assert_eq!(lines.position(0), (1, 1));
        assert_eq!(lines.position(3), (2, 1));
        let e = source.find('e').unwrap_or_default();
        assert_eq!(lines.position(e), (2, 4));
        assert_eq!(lines.position(source.len()), (3, 1));
    }

    #[test]
    fn renders_with_file_and_notes() {
        let source = "x := 1;\nif x { skip }";
        let lines = LineIndex::new(source);
        let mut diagnostic = lines.error(11..12, "`x` is used as int at 1:1 and as bool at 2:4");
        diagnostic
            .notes
            .push(("`x` is used as int here".into(), 0..1));
        assert_eq!(
            diagnostic.to_string(),
            "2:4: error: `x` is used as int at 1:1 and as bool at 2:4"
        );
        assert_eq!(
            diagnostic.render_plain("f.sx", source),
            "f.sx:2:4: error: `x` is used as int at 1:1 and as bool at 2:4\nf.sx:1:1: note: `x` is used as int here"
        );
    }
}
