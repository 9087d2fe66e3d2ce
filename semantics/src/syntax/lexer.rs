//! Tokens of SPEC §1.1: comments, identifiers, keywords, unbounded decimal
//! integers and punctuation, each with its byte span.

use super::diagnostic::{Diagnostic, LineIndex, Span};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok<'a> {
    Ident(&'a str),
    /// Decimal digits, converted to a big integer by the parser.
    Int(&'a str),
    // Keywords.
    Skip,
    If,
    Then,
    Else,
    Fi,
    While,
    Proc,
    Class,
    Field,
    Method,
    Return,
    New,
    Nil,
    This,
    True,
    False,
    Assert,
    Assume,
    Var,
    IntType,
    BoolType,
    And,
    Or,
    Not,
    Len,
    Break,
    Continue,
    For,
    Func,
    // Punctuation.
    /// `..` of `for i in lo..hi`.
    DotDot,
    Assign,
    Colon,
    Semi,
    Comma,
    Dot,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Bang,
    Eq,
    EqEq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    AndAnd,
    OrOr,
    Implies,
    Eof,
}

const KEYWORDS: [(&str, Tok<'static>); 29] = [
    ("skip", Tok::Skip),
    ("if", Tok::If),
    ("then", Tok::Then),
    ("else", Tok::Else),
    ("fi", Tok::Fi),
    ("while", Tok::While),
    ("proc", Tok::Proc),
    ("class", Tok::Class),
    ("field", Tok::Field),
    ("method", Tok::Method),
    ("return", Tok::Return),
    ("new", Tok::New),
    ("nil", Tok::Nil),
    ("this", Tok::This),
    ("true", Tok::True),
    ("false", Tok::False),
    ("assert", Tok::Assert),
    ("assume", Tok::Assume),
    ("var", Tok::Var),
    ("int", Tok::IntType),
    ("bool", Tok::BoolType),
    ("and", Tok::And),
    ("or", Tok::Or),
    ("not", Tok::Not),
    ("len", Tok::Len),
    ("break", Tok::Break),
    ("continue", Tok::Continue),
    ("for", Tok::For),
    ("func", Tok::Func),
];

/// Punctuation, longest first so that `==>` wins over `==` and `=`.
const PUNCTUATION: [(&str, Tok<'static>); 28] = [
    ("==>", Tok::Implies),
    (":=", Tok::Assign),
    ("==", Tok::EqEq),
    ("!=", Tok::NotEq),
    ("<=", Tok::Le),
    (">=", Tok::Ge),
    ("&&", Tok::AndAnd),
    ("||", Tok::OrOr),
    (":", Tok::Colon),
    (";", Tok::Semi),
    ("..", Tok::DotDot),
    (",", Tok::Comma),
    (".", Tok::Dot),
    ("(", Tok::LParen),
    (")", Tok::RParen),
    ("{", Tok::LBrace),
    ("}", Tok::RBrace),
    ("[", Tok::LBracket),
    ("]", Tok::RBracket),
    ("+", Tok::Plus),
    ("-", Tok::Minus),
    ("*", Tok::Star),
    ("/", Tok::Slash),
    ("%", Tok::Percent),
    ("!", Tok::Bang),
    ("=", Tok::Eq),
    ("<", Tok::Lt),
    (">", Tok::Gt),
];

impl fmt::Display for Tok<'_> {
    /// How a token is named in "expected …, found …" messages.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(name) => write!(f, "identifier `{name}`"),
            Tok::Int(digits) => write!(f, "integer `{digits}`"),
            Tok::Eof => write!(f, "end of input"),
            other => {
                let spelling = KEYWORDS
                    .iter()
                    .chain(PUNCTUATION.iter())
                    .find(|(_, tok)| tok == other)
                    .map_or("?", |(text, _)| text);
                write!(f, "`{spelling}`")
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub tok: Tok<'a>,
    pub span: Span,
}

/// The tokens of `source`, ending with [`Tok::Eof`].
pub fn lex<'a>(source: &'a str, lines: &LineIndex) -> Result<Vec<Token<'a>>, Diagnostic> {
    let bytes = source.as_bytes();
    // Programs average more than four bytes a token; reserving avoids regrowing.
    let mut tokens = Vec::with_capacity(source.len() / 4 + 1);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
        } else if source[i..].starts_with("//") {
            i = source[i..].find('\n').map_or(bytes.len(), |end| i + end);
        } else if source[i..].starts_with("/*") {
            let end = source[i + 2..].find("*/").ok_or_else(|| {
                lines.error(
                    i..i + 2,
                    "unterminated comment: `/*` without a matching `*/`",
                )
            })?;
            i += 2 + end + 2;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &source[start..i];
            let tok = KEYWORDS
                .iter()
                .find(|(k, _)| *k == word)
                .map_or(Tok::Ident(word), |(_, tok)| *tok);
            tokens.push(Token {
                tok,
                span: start..i,
            });
        } else if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            tokens.push(Token {
                tok: Tok::Int(&source[start..i]),
                span: start..i,
            });
        } else if let Some((text, tok)) = PUNCTUATION
            .iter()
            .find(|(text, _)| source[i..].starts_with(text))
        {
            i += text.len();
            tokens.push(Token {
                tok: *tok,
                span: start..i,
            });
        } else if c == b'&' || c == b'|' {
            let single = c as char;
            return Err(lines.error(
                start..start + 1,
                format!("unexpected character `{single}`; did you mean `{single}{single}`?"),
            ));
        } else {
            let character = source[i..].chars().next().unwrap_or('\u{fffd}');
            return Err(lines.error(
                start..start + character.len_utf8(),
                format!("unexpected character {character:?}"),
            ));
        }
    }
    tokens.push(Token {
        tok: Tok::Eof,
        span: source.len()..source.len(),
    });
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<Tok<'_>> {
        let lines = LineIndex::new(source);
        lex(source, &lines)
            .map(|tokens| tokens.into_iter().map(|t| t.tok).collect())
            .unwrap_or_default()
    }

    #[test]
    fn longest_punctuation_wins() {
        assert_eq!(
            kinds("a ==> b == c = d"),
            vec![
                Tok::Ident("a"),
                Tok::Implies,
                Tok::Ident("b"),
                Tok::EqEq,
                Tok::Ident("c"),
                Tok::Eq,
                Tok::Ident("d"),
                Tok::Eof
            ]
        );
        assert_eq!(
            kinds("x:=-1"),
            vec![
                Tok::Ident("x"),
                Tok::Assign,
                Tok::Minus,
                Tok::Int("1"),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn comments_and_keywords() {
        assert_eq!(
            kinds("// c\nwhile /* x\n y */ len_ 12345678901234567890"),
            vec![
                Tok::While,
                Tok::Ident("len_"),
                Tok::Int("12345678901234567890"),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn bad_characters_are_located() {
        let source = "x := 1;\n  y := \u{1}";
        let lines = LineIndex::new(source);
        let error = lex(source, &lines).err();
        assert_eq!(
            error.map(|e| (e.line, e.column, e.message)),
            Some((2, 8, "unexpected character '\\u{1}'".into()))
        );
        let source = "x := a & b";
        let lines = LineIndex::new(source);
        let error = lex(source, &lines).err();
        assert_eq!(
            error.map(|e| (e.column, e.message)),
            Some((8, "unexpected character `&`; did you mean `&&`?".into()))
        );
    }

    #[test]
    fn unterminated_comment_is_located() {
        let source = "skip;\n /* never closed";
        let lines = LineIndex::new(source);
        let error = lex(source, &lines).err();
        assert_eq!(error.map(|e| (e.line, e.column)), Some((2, 2)));
    }
}
