//! `symex explore FILE`: the symbolic execution tree, as text, JSON, JSON
//! lines, DOT, SVG or LaTeX. Text and JSON are written path by path during
//! the exploration, which keeps no tree; the pictures need the whole tree.

use super::language::{with_semantics, Semantics, Visitor};
use super::{CliError, Common, Exit, Format};
use crate::explore::{explore_into, ExploreOptions, Observer, TreeRecorder};
use crate::report::json::{JsonLinesReport, JsonReport};
use crate::report::smtlib::SmtlibFiles;
use crate::report::text::TextReport;
use crate::report::{dot, latex, svg};
use clap::Args;
use std::collections::BTreeMap;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
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
        explore_into(
            &semantics.symbolic,
            semantics.initial,
            self.inputs,
            self.options,
            self.observer,
        )
        .map(|_| ())
    }
}

/// `symex explore`: the common options and the SMT-LIB export.
#[derive(Clone, Debug, Args)]
pub struct ExploreArgs {
    #[command(flatten)]
    pub common: Common,
    /// Also write one self-contained SMT-LIB script per path, DIR/path-N.smt2.
    #[arg(long, value_name = "DIR")]
    pub smtlib: Option<PathBuf>,
}

pub fn command(args: &ExploreArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    explore_view(&args.common, None, args.smtlib.as_deref(), out)
}

/// The tree in `common.format`, with the program called `shown_as` where a
/// view names it (the path as given when `None`).
pub fn view(
    common: &Common,
    shown_as: Option<&str>,
    out: &mut dyn Write,
) -> Result<Exit, CliError> {
    explore_view(common, shown_as, None, out)
}

/// [`view`], writing each path's SMT-LIB script to `smtlib` when given.
fn explore_view(
    common: &Common,
    shown_as: Option<&str>,
    smtlib: Option<&Path>,
    out: &mut dyn Write,
) -> Result<Exit, CliError> {
    let formats = [
        Format::Text,
        Format::Json,
        Format::Jsonl,
        Format::Dot,
        Format::Svg,
        Format::Latex,
    ];
    let session = common.session("explore", &formats)?;
    let program = session.loaded.program.clone();
    let mut header = session.header();
    if let Some(name) = shown_as {
        header.program = name.to_string();
    }
    let header_name = header.program.clone();
    let mut out = BufWriter::new(out);
    // Text and JSON lines stream to a terminal as they are found: no status line there.
    let streams = matches!(common.format, Format::Text | Format::Jsonl);
    let _progress =
        (!streams || !std::io::stdout().is_terminal()).then(crate::stop::progress::show);
    let explore = |observer: &mut dyn Observer| -> Result<io::Result<()>, CliError> {
        let mut files;
        let observer = match smtlib {
            Some(dir) => {
                files = SmtlibFiles::new(dir, &header_name, observer)
                    .map_err(|e| CliError::new(format!("{}: {e}", dir.display())))?;
                &mut files as &mut dyn Observer
            }
            None => observer,
        };
        let visitor = ExploreInto {
            inputs: &program.globals,
            options: &session.explore,
            observer,
        };
        with_semantics(program.clone(), session.choice, session.semantics, visitor)
    };
    match common.format {
        Format::Text => explore(&mut TextReport::new(&mut out, header, common.full_traces))??,
        Format::Json => explore(&mut JsonReport::new(&mut out, header))??,
        Format::Jsonl => explore(&mut JsonLinesReport::new(&mut out, header)?)??,
        Format::Dot | Format::Svg | Format::Latex => {
            let mut recorder = TreeRecorder::default();
            explore(&mut recorder)??;
            let tree = recorder.into_tree();
            let picture = match common.format {
                Format::Dot => dot::tree_dot(&tree),
                Format::Svg => svg::tree_svg(&tree, &header),
                _ => latex::document(&latex::tree_latex(&tree, &header), common.standalone),
            };
            out.write_all(picture.as_bytes())?;
        }
    }
    out.flush()?;
    Ok(Exit::Done)
}
