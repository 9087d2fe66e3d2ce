//! `symex explore FILE`: the symbolic execution tree, as text, JSON, DOT, SVG or LaTeX.

use super::language::{with_semantics, Semantics, Visitor};
use super::{CliError, Common, Exit, Format};
use crate::explore::{explore, ExploreOptions, Tree};
use crate::report::{dot, json, latex, svg, text};
use std::collections::BTreeMap;
use std::io::Write;
use symex_semantics::system::{ConcreteConfiguration, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::{Name, Sort};

/// Explores the symbolic semantics only.
pub struct ExploreTree<'a> {
    pub inputs: &'a BTreeMap<Name, Sort>,
    pub options: &'a ExploreOptions,
}

impl Visitor for ExploreTree<'_> {
    type Output = Tree;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> Tree
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        explore(&semantics.symbolic, semantics.initial, self.inputs, self.options)
    }
}

pub fn command(common: &Common, out: &mut dyn Write) -> Result<Exit, CliError> {
    view(common, None, out)
}

/// The tree in `common.format`, with the program called `shown_as` where a
/// view names it (the path as given when `None`).
pub fn view(common: &Common, shown_as: Option<&str>, out: &mut dyn Write) -> Result<Exit, CliError> {
    let session = common.session("explore", &[Format::Text, Format::Json, Format::Dot, Format::Svg, Format::Latex])?;
    let program = session.loaded.program.clone();
    let visitor = ExploreTree { inputs: &program.globals, options: &session.explore };
    let tree = with_semantics(program.clone(), session.choice, session.semantics, visitor)?;
    let mut header = session.header();
    if let Some(name) = shown_as {
        header.program = name.to_string();
    }
    match common.format {
        Format::Text => out.write_all(text::tree_text(&tree, &header).as_bytes())?,
        Format::Json => writeln!(out, "{:#}", json::tree_json(&tree, &header))?,
        Format::Dot => out.write_all(dot::tree_dot(&tree).as_bytes())?,
        Format::Svg => out.write_all(svg::tree_svg(&tree, &header).as_bytes())?,
        Format::Latex => out.write_all(latex::document(&latex::tree_latex(&tree, &header), common.standalone).as_bytes())?,
    }
    Ok(Exit::Done)
}
