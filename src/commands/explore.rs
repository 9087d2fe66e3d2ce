//! `symex explore FILE`: the symbolic execution tree, as text, JSON, JSON
//! lines, DOT, SVG or LaTeX. Text and JSON are written path by path during
//! the exploration, which keeps no tree; the pictures need the whole tree.

use super::language::{with_semantics, Semantics, Visitor};
use super::merge::exit_of;
use super::{CliError, Common, Exit, Format};
use crate::explore::lanes::Lane;
use crate::explore::share::{self, Shard};
use crate::explore::workers::Worker;
use crate::explore::{explore_into, ExploreOptions, NotesLimit, Observer, TreeRecorder};
use crate::report::json::{JsonLinesReport, JsonReport};
use crate::report::shards::ShardReport;
use crate::report::smtlib::SmtlibFiles;
use crate::report::stream::{self, Failed, Piece, Streamed};
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

/// `symex explore`: the common options, the view, and the SMT-LIB export.
#[derive(Clone, Debug, Args)]
pub struct ExploreArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub view: ViewArgs,
    /// Also write one self-contained SMT-LIB script per path, DIR/path-N.smt2.
    #[arg(long, value_name = "DIR")]
    pub smtlib: Option<PathBuf>,
    /// Explore shard I of N (from 0) of the tree, as JSON for `symex merge`
    /// (docs/shards.md).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Explore on N workers, one shard of the tree each, and merge their
    /// reports (JSON only; docs/shards.md).
    #[arg(long, value_name = "N", default_value_t = 1, conflicts_with = "shard")]
    pub jobs: usize,
}

/// How `explore` shows the tree.
#[derive(Clone, Debug, Args)]
pub struct ViewArgs {
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// With `--format latex`: a whole document that compiles on its own.
    #[arg(long)]
    pub standalone: bool,
    /// With `--format text`: every path's trace whole (by default a trace
    /// that repeats more than 16 entries of the path before it names that
    /// path for them).
    #[arg(long)]
    pub full_traces: bool,
}

pub fn command(args: &ExploreArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    if args.shard.is_some() && args.view.format != Format::Json {
        return Err(CliError::new(
            "--shard writes the JSON `symex merge` reads: add --format json",
        ));
    }
    if args.jobs > 1 {
        return on_workers(args, out);
    }
    let sharing = Sharing {
        shard: args.shard,
        smtlib: args.smtlib.as_deref(),
    };
    explore_view(&args.common, &args.view, None, sharing, out)
}

/// `explore --jobs N`: each worker explores its shard, sending the paths
/// it finds to this thread, which writes them in the one-process order
/// ([`stream::on_workers`]); the frontier and counters are merged at the end.
fn on_workers(args: &ExploreArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    if args.view.format != Format::Json || args.smtlib.is_some() {
        return Err(CliError::new(
            "--jobs merges the workers' JSON reports: add --format json (and drop --smtlib), or use --jobs 1",
        ));
    }
    let mut out = BufWriter::new(out);
    let streaming = stream::on_workers(
        args.jobs,
        &mut out,
        |worker, to_writer| shard_report(&args.common, &worker, to_writer),
        |report| report.take(),
    )?;
    out.flush()?;
    let merged = streaming
        .merged
        .ok_or_else(|| CliError::new("internal error: no worker reported"))?;
    Ok(exit_of(&merged))
}

impl From<Failed<CliError>> for CliError {
    fn from(failed: Failed<CliError>) -> CliError {
        match failed {
            Failed::Output(error) => CliError::from(error),
            Failed::Worker(error) => error,
            Failed::Internal(message) => CliError::new(message),
        }
    }
}

/// One shard's report, explored by the calling thread from the program it
/// loads itself, its paths sent to `to_writer` as it goes and left out.
fn shard_report(
    common: &Common,
    worker: &Worker,
    to_writer: Lane<'_, Piece>,
) -> Result<Option<ShardReport>, CliError> {
    let mut session = common.session("explore")?;
    worker.share(&mut session.explore);
    if let Some(conflict) = share::conflict(&session.explore) {
        return Err(CliError::new(conflict.replace("--shard", "--jobs")));
    }
    let program = session.loaded.program.clone();
    let name = format!("worker {}", worker.shard);
    let mut streamed = Streamed::new(name, session.header(), to_writer);
    let visitor = ExploreInto {
        inputs: &program.globals,
        options: &session.explore,
        observer: &mut streamed,
    };
    with_semantics(program.clone(), session.choice, session.semantics, visitor)??;
    Ok(Some(streamed.into_report()))
}

/// What only `explore` itself does besides showing the tree.
#[derive(Default)]
struct Sharing<'a> {
    shard: Option<Shard>,
    smtlib: Option<&'a Path>,
}

/// The tree as `view` asks, with the program called `shown_as` where a
/// view names it (the path as given when `None`).
pub fn view(
    common: &Common,
    view: &ViewArgs,
    shown_as: Option<&str>,
    out: &mut dyn Write,
) -> Result<Exit, CliError> {
    explore_view(common, view, shown_as, Sharing::default(), out)
}

/// [`view`], writing each path's SMT-LIB script to `smtlib` when given,
/// exploring only a shard's share of the tree when given one.
fn explore_view(
    common: &Common,
    view: &ViewArgs,
    shown_as: Option<&str>,
    Sharing { shard, smtlib }: Sharing<'_>,
    out: &mut dyn Write,
) -> Result<Exit, CliError> {
    let mut session = common.session("explore")?;
    session.explore.shard = shard;
    if shard.is_some() {
        if let Some(conflict) = share::conflict(&session.explore) {
            return Err(CliError::new(conflict));
        }
    }
    session.explore.record_configurations = view.format == Format::Dot;
    let program = session.loaded.program.clone();
    let mut header = session.header();
    if let Some(name) = shown_as {
        header.program = name.to_string();
    }
    let header_name = header.program.clone();
    let mut out = BufWriter::new(out);
    // Text and JSON lines stream to a terminal as they are found: no status line there.
    let streams = matches!(view.format, Format::Text | Format::Jsonl);
    let _progress =
        (!streams || !std::io::stdout().is_terminal()).then(crate::stop::progress::show);
    let mut limited = false;
    let mut explore = |observer: &mut dyn Observer| -> Result<io::Result<()>, CliError> {
        let mut noted = NotesLimit {
            inner: observer,
            limited: false,
        };
        let mut files;
        let observer = match smtlib {
            Some(dir) => {
                files = SmtlibFiles::new(dir, &header_name, &mut noted)
                    .map_err(|e| CliError::new(format!("{}: {e}", dir.display())))?;
                &mut files as &mut dyn Observer
            }
            None => &mut noted,
        };
        let visitor = ExploreInto {
            inputs: &program.globals,
            options: &session.explore,
            observer,
        };
        let explored = with_semantics(program.clone(), session.choice, session.semantics, visitor);
        limited = noted.limited;
        explored
    };
    match view.format {
        Format::Text => explore(&mut TextReport::new(&mut out, header, view.full_traces))??,
        Format::Json => explore(&mut JsonReport::new(&mut out, header))??,
        Format::Jsonl => explore(&mut JsonLinesReport::new(&mut out, header)?)??,
        Format::Dot | Format::Svg | Format::Latex => {
            let mut recorder = TreeRecorder::default();
            explore(&mut recorder)??;
            let tree = recorder.into_tree();
            let picture = match view.format {
                Format::Dot => dot::tree_dot(&tree),
                Format::Svg => svg::tree_svg(&tree, &header),
                _ => {
                    let title = format!("Symbolic execution of {}", header.program);
                    latex::document(
                        &latex::tree_latex(&tree, &header),
                        &title,
                        latex::TREE_PACKAGES,
                        view.standalone,
                    )
                }
            };
            out.write_all(picture.as_bytes())?;
        }
    }
    out.flush()?;
    // A limit (time, paths, memory) left part of the tree unexplored: the
    // listing is not the whole tree (Ctrl-C's 130 is main's).
    Ok(if limited {
        Exit::Inconclusive
    } else {
        Exit::Done
    })
}
