//! Printing and parsing are inverse: `parse_program(&p.to_string()) == p`
//! for every generated program `p` (the printer's promise in
//! `symex_semantics::print`: "the program as source text that parses back
//! to the same program").

use crate::distribution::Required;
use crate::generators::{BasicProgram, RecursiveProgram};
use crate::{catches, holds};
use quickcheck::TestResult;
use symex_semantics::program::Program;
use symex_semantics::syntax::parse_program;

fn roundtrip(program: &Program, print: fn(&Program) -> String) -> TestResult {
    let source = print(program);
    match parse_program(&source) {
        Ok(parsed) if parsed == *program => TestResult::passed(),
        Ok(parsed) => TestResult::error(format!("`{source}` parses back as\n{parsed}")),
        Err(diagnostic) => TestResult::error(format!("`{source}` does not parse: {diagnostic}")),
    }
}

/// A broken printer: the program's text without the parentheses that
/// precedence needs (those of `len(a)` are kept, so it still parses).
fn without_parentheses(program: &Program) -> String {
    let source = program.to_string();
    let mut printed = String::new();
    let mut rest = source.as_str();
    while let Some(start) = rest.find(['(', ')']) {
        let (before, from) = rest.split_at(start);
        printed.push_str(before);
        match before.ends_with("len").then(|| from.find(')')).flatten() {
            Some(end) => {
                printed.push_str(&from[..=end]);
                rest = &from[end + 1..];
            }
            None => rest = &from[1..],
        }
    }
    printed.push_str(rest);
    printed
}

fn basic(program: BasicProgram) -> TestResult {
    roundtrip(&program.0, Program::to_string)
}

fn recursive(program: RecursiveProgram) -> TestResult {
    roundtrip(&program.0, Program::to_string)
}

fn basic_without_parentheses(program: BasicProgram) -> TestResult {
    roundtrip(&program.0, without_parentheses)
}

type Property = fn(BasicProgram) -> TestResult;

#[test]
fn basic_programs_print_and_parse_back() {
    holds(
        "parse ∘ print = id",
        &Required::nothing(),
        basic as Property,
    );
}

#[test]
fn recursive_programs_print_and_parse_back() {
    holds(
        "parse ∘ print = id (procedures)",
        &Required::nothing(),
        recursive as fn(RecursiveProgram) -> TestResult,
    );
}

#[test]
fn roundtrip_catches_a_printer_without_parentheses() {
    catches(
        "parse ∘ print on a printer without parentheses",
        &Required::nothing(),
        basic_without_parentheses as Property,
    );
}
