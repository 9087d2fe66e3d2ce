//! `symex compare FILE…` and `symex compare --family NAME --sizes …`: forward
//! and wp side by side on the same paths (SPEC §2; see [`crate::compare`]).

use super::language::choose;
use super::mutant::BrokenRule;
use super::{load, parse_generated, CliError, Exit, IntArg, LanguageArg};
use crate::compare::families::Family;
use crate::compare::{compare, plot, table, Comparison, Settings};
use crate::explore::{Bounds, ExploreOptions};
use clap::{Args, ValueEnum};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::program::{Language, Program};
use symex_semantics::system::Options;

/// `--format` of `symex compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    Text,
    Json,
    /// One record per path and method.
    Csv,
}

#[derive(Clone, Debug, Args)]
pub struct CompareArgs {
    /// The programs (none with --family).
    #[arg(required_unless_present = "family", conflicts_with = "family")]
    pub files: Vec<String>,
    /// Scalable families instead of files (`aliasing,loop`; `all`: every family).
    #[arg(long, value_enum, value_name = "FAMILY,…", value_delimiter = ',')]
    pub family: Vec<FamilyArg>,
    /// The family's sizes.
    #[arg(
        long,
        value_name = "N,N,…",
        value_delimiter = ',',
        default_value = "10,100,1000",
        requires = "family"
    )]
    pub sizes: Vec<usize>,
    /// Run under this language's semantics (default: the smallest that contains the program).
    #[arg(long, value_enum)]
    pub lang: Option<LanguageArg>,
    /// Unfold a method call by the paper's literal rule (see `explore --literal-this`).
    #[arg(long)]
    pub literal_this: bool,
    /// For files: at most K loop iterations and nested calls on a path (a family sets its own).
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub unfold: usize,
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub depth: usize,
    /// Per solver query (exploration, decision, equivalence).
    #[arg(long, value_name = "T", default_value_t = 10_000)]
    pub timeout_ms: u64,
    #[arg(long)]
    pub checked_arrays: bool,
    /// What `int` means: mathematical integers, or C's signed machine integers with overflow as an error.
    #[arg(long = "int", value_enum, default_value_t = IntArg::Math, value_name = "INT")]
    pub int: IntArg,
    #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
    pub format: CompareFormat,
    /// Break one rule on purpose on the side it belongs to — §2's forward
    /// rules (`choice`, `assignment`, `loop-exit`: basic programs) or §4's
    /// (`aliasing`, `literal-this`: oo programs, wp) — to watch the agreement fail.
    #[arg(long = "break", value_enum, value_name = "RULE")]
    pub broken: Option<BrokenRule>,
    /// The whole comparison stops after this long, keeping the paths compared so far (exit 3).
    #[arg(long, value_name = "MS")]
    pub time_limit_ms: Option<u64>,
    /// Draw the family's growth (size and time per method) to this SVG file.
    #[arg(long, value_name = "OUT.svg", requires = "family")]
    pub plot: Option<PathBuf>,
}

/// `--family`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FamilyArg {
    Aliasing,
    Creation,
    Arrays,
    Loop,
    Recursion,
    All,
}

impl FamilyArg {
    fn families(self) -> Vec<Family> {
        match self {
            FamilyArg::Aliasing => vec![Family::Aliasing],
            FamilyArg::Creation => vec![Family::Creation],
            FamilyArg::Arrays => vec![Family::Arrays],
            FamilyArg::Loop => vec![Family::Loop],
            FamilyArg::Recursion => vec![Family::Recursion],
            FamilyArg::All => Family::value_variants().to_vec(),
        }
    }
}

impl CompareArgs {
    fn settings(&self, unfold: usize, deadline: Option<Instant>) -> Settings {
        Settings {
            language: self.lang.map(Language::from),
            this: if self.literal_this {
                ThisRule::Literal
            } else {
                ThisRule::Fresh
            },
            semantics: Options {
                checked_arrays: self.checked_arrays,
                acyclic: false,
            },
            integers: self.int.into(),
            explore: ExploreOptions {
                bounds: Bounds {
                    unfold,
                    depth: self.depth,
                    ..Bounds::default()
                },
                timeout_ms: self.timeout_ms,
                simplify: false,
                readable_models: false,
                ..ExploreOptions::default()
            },
            broken: self.broken.map(BrokenRule::mutant),
            deadline,
        }
    }
}

impl CompareArgs {
    /// An error unless `--break` (if given) breaks a rule of the language `program` runs under.
    fn breakable(&self, name: &str, program: &Program) -> Result<(), CliError> {
        let Some(rule) = self.broken else {
            return Ok(());
        };
        let language = choose(program, self.lang.map(Language::from))?;
        let broken = rule.mutant().language();
        if language == broken {
            return Ok(());
        }
        Err(CliError::new(format!("{name}: --break breaks a rule of the {broken} language's semantics; this program runs under the {language} semantics")))
    }
}

pub fn command(args: &CompareArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let deadline = args
        .time_limit_ms
        .map(|ms| Instant::now() + Duration::from_millis(ms));
    let progress = crate::stop::progress::show();
    let mut comparisons = Vec::new();
    let mut families: Vec<Family> = Vec::new();
    for family in args.family.iter().flat_map(|family| family.families()) {
        if !families.contains(&family) {
            families.push(family);
        }
    }
    match args.family.first() {
        Some(_) if args.int != IntArg::Math => {
            return Err(CliError::new(
                "--int applies to program files; the generated families use mathematical integers",
            ));
        }
        Some(_) => {
            for family in families {
                for &n in &args.sizes {
                    let source = family.source(n);
                    let program = parse_generated(family.name(), &source)?;
                    args.breakable(family.name(), &program)?;
                    let mut comparison = compare(
                        family.name(),
                        &program,
                        &args.settings(family.unfold(n), deadline),
                    );
                    comparison.size = Some(n);
                    comparisons.push(comparison);
                }
            }
        }
        None => {
            for file in &args.files {
                let loaded = load(file, args.int)?;
                args.breakable(file, &loaded.program)?;
                comparisons.push(compare(
                    file,
                    &loaded.program,
                    &args.settings(args.unfold, deadline),
                ));
            }
        }
    }
    drop(progress);
    let mut out = BufWriter::new(out);
    match args.format {
        CompareFormat::Json => writeln!(
            out,
            "{:#}",
            serde_json::json!({ "comparisons": comparisons })
        )?,
        CompareFormat::Csv => table::write_csv(&mut out, &comparisons)?,
        CompareFormat::Text if !args.family.is_empty() => {
            table::write_summary(&mut out, &comparisons)?
        }
        CompareFormat::Text => table::write_paths(&mut out, &comparisons)?,
    }
    out.flush()?;
    if let Some(path) = &args.plot {
        plot::draw(path, &comparisons).map_err(|error| {
            CliError::new(format!("{}: cannot draw the plot: {error}", path.display()))
        })?;
    }
    Ok(exit(&comparisons))
}

/// 1 when the methods disagree on some path, else 3 when a limit cut the
/// comparison short, else 0.
fn exit(comparisons: &[Comparison]) -> Exit {
    if comparisons.iter().any(|c| c.disagreements() > 0) {
        Exit::Failed
    } else if comparisons.iter().any(|c| c.stopped.is_some()) {
        Exit::Inconclusive
    } else {
        Exit::Done
    }
}
