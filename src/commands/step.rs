//! `symex step FILE`: the interactive walk of [`crate::step`], with line
//! editing and history in a terminal, or the same commands from a script
//! (`--script FILE`, `--commands TEXT`, or standard input when it is not a
//! terminal) so labs, tests and `symex serve` can drive it. A script's
//! commands are echoed after `›`, so its output reads as the session it
//! replays.

use super::language::{with_semantics, Semantics, Visitor};
use super::{load, CliError, Exit, IntArg, SemanticsArgs};
use crate::step::command::parse_line;
use crate::step::{StepOptions, Stepper};
use clap::Args;
use rustyline::error::ReadlineError;
use rustyline::DefaultEditor;
use std::io::{BufRead, IsTerminal, Write};
use symex_semantics::program::Program;
use symex_semantics::syntax::Positions;
use symex_semantics::system::{ConcreteConfiguration, SymbolicConfiguration, TransitionSystem};

#[derive(Clone, Debug, Args)]
pub struct StepArgs {
    /// The program (`-` for standard input, with the commands in `--script`).
    pub file: String,
    #[command(flatten)]
    pub semantics: SemanticsArgs,
    /// Every array access must be within `0 <= i < len(a)` (§2.1).
    #[arg(long)]
    pub checked_arrays: bool,
    /// What `int` means: mathematical integers, or C's signed machine integers with overflow as an error.
    #[arg(long = "int", value_enum, default_value_t = IntArg::Math, value_name = "INT")]
    pub int: IntArg,
    /// Read the commands from this file instead of the terminal.
    #[arg(long, value_name = "FILE", conflicts_with = "commands")]
    pub script: Option<String>,
    /// The commands themselves (one a line, or chained with `;`), read as a
    /// script: with the program on standard input, no file is needed (`symex serve`).
    #[arg(long, value_name = "COMMANDS")]
    pub commands: Option<String>,
    /// `go` stops after this many transitions without reaching a fork.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_steps: usize,
    /// Per solver query.
    #[arg(long, value_name = "T", default_value_t = 10_000)]
    pub timeout_ms: u64,
}

/// Where commands come from.
enum Input {
    /// A script's lines with their numbers, and the script's name for errors.
    Script {
        name: String,
        lines: Box<dyn Iterator<Item = std::io::Result<String>>>,
        number: usize,
    },
    Terminal(Box<DefaultEditor>),
}

/// One line of commands.
struct Line {
    text: String,
    /// `file:line` for a script, to name in an error.
    place: Option<String>,
}

impl Input {
    fn open(args: &StepArgs) -> Result<Input, CliError> {
        if let Some(path) = &args.script {
            let file = std::fs::File::open(path).map_err(|error| {
                CliError::new(format!("{path}: cannot read the script: {error}"))
            })?;
            return Ok(Input::Script {
                name: path.clone(),
                lines: Box::new(std::io::BufReader::new(file).lines()),
                number: 0,
            });
        }
        if let Some(text) = &args.commands {
            let lines: Vec<std::io::Result<String>> =
                text.lines().map(|l| Ok(l.to_string())).collect();
            return Ok(Input::Script {
                name: "--commands".to_string(),
                lines: Box::new(lines.into_iter()),
                number: 0,
            });
        }
        if args.file == "-" {
            return Err(CliError::new(
                "with the program on standard input, give the commands with --script FILE or --commands",
            ));
        }
        if std::io::stdin().is_terminal() {
            let editor = DefaultEditor::new()
                .map_err(|error| CliError::new(format!("cannot open the terminal: {error}")))?;
            return Ok(Input::Terminal(Box::new(editor)));
        }
        Ok(Input::Script {
            name: "<stdin>".to_string(),
            lines: Box::new(std::io::stdin().lock().lines()),
            number: 0,
        })
    }

    fn next(&mut self, out: &mut dyn Write) -> Result<Option<Line>, CliError> {
        match self {
            Input::Script {
                name,
                lines,
                number,
            } => loop {
                let Some(line) = lines.next() else {
                    return Ok(None);
                };
                let line = line.map_err(|error| {
                    CliError::new(format!("{name}: cannot read the script: {error}"))
                })?;
                *number += 1;
                let text = line.trim();
                if text.is_empty() || text.starts_with('#') {
                    continue;
                }
                writeln!(out, "› {text}")?;
                return Ok(Some(Line {
                    text: text.to_string(),
                    place: Some(format!("{name}:{number}")),
                }));
            },
            Input::Terminal(editor) => {
                out.flush()?;
                match editor.readline("symex› ") {
                    Ok(text) => {
                        if !text.trim().is_empty() {
                            let _ = editor.add_history_entry(text.as_str());
                        }
                        Ok(Some(Line { text, place: None }))
                    }
                    Err(ReadlineError::Interrupted | ReadlineError::Eof) => Ok(None),
                    Err(error) => Err(CliError::new(format!("cannot read the terminal: {error}"))),
                }
            }
        }
    }
}

/// The session, once the semantics is chosen.
struct Session<'a> {
    program: &'a Program,
    positions: &'a Positions,
    options: StepOptions,
    input: Input,
    out: &'a mut dyn Write,
}

impl Visitor for Session<'_> {
    type Output = Result<Exit, CliError>;

    fn visit<S, C>(mut self, semantics: Semantics<S, C>) -> Result<Exit, CliError>
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let mut stepper = Stepper::new(
            &semantics.symbolic,
            semantics.initial,
            self.program,
            Some(self.positions),
            self.options,
        );
        write!(self.out, "{}", stepper.where_now())?;
        while let Some(line) = self.input.next(self.out)? {
            let commands = match (parse_line(&line.text), &line.place) {
                (Ok(commands), _) => commands,
                (Err(message), Some(place)) => {
                    return Err(CliError::new(format!("{place}: error: {message}")))
                }
                (Err(message), None) => {
                    writeln!(self.out, "error: {message}")?;
                    continue;
                }
            };
            for command in &commands {
                let answer = stepper.execute(command);
                write!(self.out, "{}", answer.text)?;
                if answer.quit {
                    return Ok(Exit::Done);
                }
            }
        }
        Ok(Exit::Done)
    }
}

pub fn command(args: &StepArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let loaded = load(&args.file, args.int)?;
    let choice = args.semantics.choice(&loaded.program)?;
    let input = Input::open(args)?;
    let options = StepOptions {
        max_steps: args.max_steps,
        timeout_ms: args.timeout_ms,
    };
    let session = Session {
        program: &loaded.program,
        positions: &loaded.positions,
        options,
        input,
        out,
    };
    let semantics = args.semantics.options(args.checked_arrays);
    with_semantics(loaded.program.clone(), choice, semantics, session)?
}
