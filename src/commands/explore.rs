//! `symex explore FILE`: the symbolic execution tree, as text, JSON, JSON
//! lines or DOT. Text and JSON are written path by path during the
//! exploration, which keeps no tree; DOT needs the whole tree.

use super::language::{with_semantics, Semantics, Visitor};
use super::{CliError, Common, Exit, Format};
use crate::explore::{explore_into, ExploreOptions, Observer, TreeRecorder};
use crate::report::json::{JsonLinesReport, JsonReport};
use crate::report::text::TextReport;
use crate::report::dot;
use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};
use symex_semantics::system::{ConcreteConfiguration, SymbolicConfiguration, TransitionSystem};
use symex_semantics::term::{Name, Sort};

/// Explores the symbolic semantics only, reporting to `observer`.
pub struct ExploreInto<'a> {
    pub inputs: &'a BTreeMap<Name, Sort>,
    pub options: &'a ExploreOptions,
    pub observer: &'a mut dyn Observer,
}

impl Visitor for ExploreInto<'_> {
    type Output = io::Result<()>;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> io::Result<()>
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        explore_into(&semantics.symbolic, semantics.initial, self.inputs, self.options, self.observer).map(|_| ())
    }
}

pub fn command(common: &Common, out: &mut dyn Write) -> Result<Exit, CliError> {
    let session = common.session("explore", &[Format::Text, Format::Json, Format::Jsonl, Format::Dot])?;
    let program = session.loaded.program.clone();
    let mut out = BufWriter::new(out);
    let explore = |observer: &mut dyn Observer| {
        let visitor = ExploreInto { inputs: &program.globals, options: &session.explore, observer };
        with_semantics(program.clone(), session.language, session.semantics, visitor)
    };
    match common.format {
        Format::Text => explore(&mut TextReport::new(&mut out))??,
        Format::Json => explore(&mut JsonReport::new(&mut out, session.header()))??,
        Format::Jsonl => explore(&mut JsonLinesReport::new(&mut out, &session.header())?)??,
        Format::Dot => {
            let mut recorder = TreeRecorder::default();
            explore(&mut recorder)??;
            out.write_all(dot::tree_dot(&recorder.into_tree()).as_bytes())?;
        }
    }
    out.flush()?;
    Ok(Exit::Done)
}
