//! `symex compare FILE…` and `symex compare --family NAME --sizes …`: forward
//! and wp side by side on the same paths (SPEC §2; see [`crate::compare`]).

use super::language::choose;
use super::mutant::BrokenRule;
use super::snap::{collect, snap_common};
use super::{load, parse_generated, CliError, Exit, IntArg, LanguageArg};
use crate::compare::families::{self, Family};
use crate::compare::{compare, plot, table, Comparison, Settings};
use crate::explore::{Bounds, ExploreOptions};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use symex_semantics::machine::Integers;
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
    /// The programs, and folders whose `.sx` programs (in subfolders too) are compared.
    #[arg(required_unless_present = "family")]
    pub files: Vec<String>,
    /// Scalable families, also with files (`aliasing,loop`; `all`: the five written for compare).
    #[arg(long, value_name = "FAMILY,…", value_delimiter = ',', value_parser = family_parser())]
    pub family: Vec<FamilyChoice>,
    /// The families' sizes (default: 10,100,1000; 2,4,6 for `symex bench`'s exponential families).
    #[arg(long, value_name = "N,N,…", value_delimiter = ',', requires = "family")]
    pub sizes: Option<Vec<usize>>,
    /// Run under this language's semantics (default: the smallest that contains the program).
    #[arg(long, value_enum)]
    pub lang: Option<LanguageArg>,
    /// Unfold a method call by the paper's literal rule (see `explore --literal-this`).
    #[arg(long)]
    pub literal_this: bool,
    /// For files: at most K loop iterations and nested calls on a path
    /// (default: the file's `// snap:` line, else 10; a family sets its own).
    #[arg(long, value_name = "K")]
    pub unfold: Option<usize>,
    /// At most N transitions on a path (default: the file's `// snap:` line, else 100000).
    #[arg(long, value_name = "N")]
    pub depth: Option<usize>,
    /// Per solver query: exploration, decision, equivalence (default: the
    /// file's `// snap:` line, else 10000).
    #[arg(long, value_name = "T")]
    pub timeout_ms: Option<u64>,
    #[arg(long)]
    pub checked_arrays: bool,
    /// What `int` means: mathematical integers, or C's signed machine
    /// integers with overflow as an error (default: the file's `// snap:` line, else math).
    #[arg(long = "int", value_enum, value_name = "INT")]
    pub int: Option<IntArg>,
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
    /// Explore each program N times with each method; timings are medians, with min and max.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub repeat: u64,
    /// Draw the families' growth (size and time per method) to this SVG file.
    #[arg(long, value_name = "OUT.svg", requires = "family")]
    pub plot: Option<PathBuf>,
}

/// One name given to `--family`: a family, or `all` for the five written for compare.
#[derive(Clone, Debug)]
pub struct FamilyChoice(Vec<Family>);

/// `--family`'s names, offered in `--help` and in the error for an unknown one.
fn family_parser() -> impl TypedValueParser<Value = FamilyChoice> {
    let names = Family::value_variants()
        .iter()
        .filter_map(ValueEnum::to_possible_value)
        .chain([PossibleValue::new("all").help("the five families written for compare, above")]);
    PossibleValuesParser::new(names).map(|name| {
        FamilyChoice(if name == "all" {
            families::OWN.to_vec()
        } else {
            Family::from_str(&name, false).into_iter().collect()
        })
    })
}

/// The bounds and semantics one program is compared under.
struct ProgramOptions {
    unfold: usize,
    depth: usize,
    timeout_ms: u64,
    lang: Option<LanguageArg>,
    checked_arrays: bool,
    literal_this: bool,
    int: IntArg,
    /// The options above that the program's `// snap:` line chose, as written there.
    from_snap: Vec<String>,
}

impl CompareArgs {
    /// The options for the program `name` of text `source`: the user's, else
    /// its `// snap:` line's, else `explore`'s defaults (flags: the user's or
    /// the line's); a family member's `unfold` comes first. The line's
    /// options for one method (`--method lazy`, `--subsume`, …) do not apply:
    /// compare runs forward and wp.
    fn options(
        &self,
        name: &str,
        source: &str,
        unfold: Option<usize>,
    ) -> Result<ProgramOptions, CliError> {
        let snap = snap_common(Path::new(name), source)?;
        let default = snap_common(Path::new(name), "")?;
        let mut from_snap = Vec::new();
        let mut note = |user: bool, differs: bool, words: String| {
            if !user && differs {
                from_snap.push(words);
            }
        };
        let user_unfold = unfold.or(self.unfold);
        note(
            user_unfold.is_some(),
            snap.unfold != default.unfold,
            format!("--unfold {}", snap.unfold),
        );
        note(
            self.depth.is_some(),
            snap.depth != default.depth,
            format!("--depth {}", snap.depth),
        );
        note(
            self.timeout_ms.is_some(),
            snap.timeout_ms != default.timeout_ms,
            format!("--timeout-ms {}", snap.timeout_ms),
        );
        if let Some(lang) = snap.semantics.lang {
            note(
                self.lang.is_some(),
                true,
                format!("--lang {}", Language::from(lang)),
            );
        }
        note(
            self.checked_arrays,
            snap.checked_arrays,
            "--checked-arrays".to_string(),
        );
        note(
            self.literal_this,
            snap.semantics.literal_this,
            "--literal-this".to_string(),
        );
        note(
            self.int.is_some(),
            snap.int != default.int,
            format!("--int {}", Integers::from(snap.int).name()),
        );
        Ok(ProgramOptions {
            unfold: user_unfold.unwrap_or(snap.unfold),
            depth: self.depth.unwrap_or(snap.depth),
            timeout_ms: self.timeout_ms.unwrap_or(snap.timeout_ms),
            lang: self.lang.or(snap.semantics.lang),
            checked_arrays: self.checked_arrays || snap.checked_arrays,
            literal_this: self.literal_this || snap.semantics.literal_this,
            int: self.int.unwrap_or(snap.int),
            from_snap,
        })
    }

    fn settings(&self, options: ProgramOptions, deadline: Option<Instant>) -> Settings {
        Settings {
            language: options.lang.map(Language::from),
            this: if options.literal_this {
                ThisRule::Literal
            } else {
                ThisRule::Fresh
            },
            semantics: Options {
                checked_arrays: options.checked_arrays,
                acyclic: false,
            },
            integers: options.int.into(),
            explore: ExploreOptions {
                bounds: Bounds {
                    unfold: options.unfold,
                    depth: options.depth,
                    ..Bounds::default()
                },
                timeout_ms: options.timeout_ms,
                simplify: false,
                readable_models: false,
                ..ExploreOptions::default()
            },
            broken: self.broken.map(BrokenRule::mutant),
            deadline,
            runs: usize::try_from(self.repeat).unwrap_or(usize::MAX),
        }
    }

    /// The programs named, folders expanded to their `.sx` programs in name order.
    fn programs(&self) -> Result<Vec<String>, CliError> {
        let mut programs = Vec::new();
        for file in &self.files {
            let path = Path::new(file);
            if !path.is_dir() {
                programs.push(file.clone());
                continue;
            }
            let mut found = Vec::new();
            collect(path, &mut found)?;
            if found.is_empty() {
                return Err(CliError::new(format!(
                    "{file}: no `.sx` program in this folder"
                )));
            }
            programs.extend(found.iter().map(|p| p.to_string_lossy().into_owned()));
        }
        Ok(programs)
    }

    /// The families named, each once, in the order given.
    fn families(&self) -> Vec<Family> {
        let mut families: Vec<Family> = Vec::new();
        for &family in self.family.iter().flat_map(|choice| &choice.0) {
            if !families.contains(&family) {
                families.push(family);
            }
        }
        families
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
    let families = args.families();
    if !families.is_empty() && args.int.is_some_and(|int| int != IntArg::Math) {
        return Err(CliError::new(
            "--int applies to program files; the generated families use mathematical integers",
        ));
    }
    for file in args.programs()? {
        let mut loaded = load(&file, args.int.unwrap_or_default())?;
        let options = args.options(&file, &loaded.source, None)?;
        if Integers::from(options.int) != loaded.integers {
            loaded = load(&file, options.int)?;
        }
        args.breakable(&file, &loaded.program)?;
        let from_snap = options.from_snap.clone();
        let settings = args.settings(options, deadline);
        let mut comparison = compare(&file, &loaded.program, &settings);
        comparison.from_snap = from_snap;
        comparisons.push(comparison);
    }
    for family in families {
        let sizes = args.sizes.as_deref().unwrap_or(family.default_sizes());
        for &n in sizes {
            let source = family.source(n);
            let program = parse_generated(family.name(), &source)?;
            args.breakable(family.name(), &program)?;
            let options = args.options(family.name(), &source, Some(family.unfold(n)))?;
            let settings = args.settings(options, deadline);
            let mut comparison = compare(family.name(), &program, &settings);
            comparison.size = Some(n);
            comparisons.push(comparison);
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
        CompareFormat::Text => {
            let (members, files): (Vec<&Comparison>, Vec<&Comparison>) =
                comparisons.iter().partition(|c| c.size.is_some());
            table::write_paths(&mut out, &files)?;
            if !members.is_empty() {
                if !files.is_empty() {
                    writeln!(out)?;
                }
                table::write_summary(&mut out, &members)?;
            }
        }
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
