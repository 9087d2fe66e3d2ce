//! The stepper's command language (EFFIGY's, SPEC §2): one command per
//! line or several chained with `;`.

use std::fmt;

/// Which successor of a fork to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// The condition holds: `choice (then)`, `iteration (enter)`, `assert (holds)`.
    True,
    /// It does not: `choice (else)`, `iteration (exit)`, `assert (fails)`.
    False,
    /// An access out of bounds (`--checked-arrays`) or a dereference of `nil`.
    Error,
}

impl fmt::Display for Branch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Branch::True => "true",
            Branch::False => "false",
            Branch::Error => "error",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `go`: run to the next fork where more than one successor is feasible.
    Go,
    /// `go true`, `go false`, `go error`: take that branch, then run on as `go`.
    GoBranch(Branch),
    /// `assume e`: conjoin `eσ` to the path condition.
    Assume(String),
    Save,
    Restore(usize),
    Back,
    Show,
    Tree,
    Help,
    Quit,
}

pub const HELP: &str = "\
commands (chain several with `;`):
  go              run to the next fork where both branches are feasible, or to the end
  go true         at a fork: take the branch where the condition holds, then run on
  go false        at a fork: take the branch where it does not, then run on
  go error        at a fork: take the out-of-bound or nil-dereference branch
  assume e        conjoin e (over the globals, evaluated in σ or by wp_ρ) to the path condition
  save            remember this configuration; prints its number N
  restore N       return to the configuration saved as N
  back            undo the last move
  show            the configuration, σ and φ (ρ and path(ρ)), whether it is satisfiable, a model
  tree            the part of the tree walked so far
  help            this text
  quit            end the session";

/// The commands of one input line, or a message naming the one not understood.
pub fn parse_line(line: &str) -> Result<Vec<Command>, String> {
    // Expressions contain no `;`, so every `;` separates two commands.
    line.split(';')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(parse_command)
        .collect()
}

fn parse_command(text: &str) -> Result<Command, String> {
    let (word, rest) = text
        .split_once(char::is_whitespace)
        .map_or((text, ""), |(w, r)| (w, r.trim()));
    let no_argument = |command: Command| {
        if rest.is_empty() {
            Ok(command)
        } else {
            Err(format!("`{word}` takes no argument"))
        }
    };
    match word {
        "go" => match rest {
            "" => Ok(Command::Go),
            "true" => Ok(Command::GoBranch(Branch::True)),
            "false" => Ok(Command::GoBranch(Branch::False)),
            "error" => Ok(Command::GoBranch(Branch::Error)),
            other => Err(format!(
                "`go {other}`: expected `go`, `go true`, `go false` or `go error`"
            )),
        },
        "assume" if rest.is_empty() => {
            Err("`assume` needs a condition, as in `assume x > 0`".to_string())
        }
        "assume" => Ok(Command::Assume(rest.to_string())),
        "save" => no_argument(Command::Save),
        "restore" => rest
            .parse()
            .map(Command::Restore)
            .map_err(|_| format!("`restore N` needs the number `save` printed, not `{rest}`")),
        "back" => no_argument(Command::Back),
        "show" => no_argument(Command::Show),
        "tree" => no_argument(Command::Tree),
        "help" | "?" => no_argument(Command::Help),
        "quit" | "exit" => no_argument(Command::Quit),
        other => Err(format!("unknown command `{other}` (type `help`)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chained_commands_split_at_semicolons() {
        let commands = parse_line("save; go true ;assume a[i] > 0;; restore 2").expect("parses");
        assert_eq!(
            commands,
            vec![
                Command::Save,
                Command::GoBranch(Branch::True),
                Command::Assume("a[i] > 0".to_string()),
                Command::Restore(2)
            ]
        );
    }

    #[test]
    fn mistakes_are_named() {
        assert_eq!(
            parse_line("go left"),
            Err("`go left`: expected `go`, `go true`, `go false` or `go error`".to_string())
        );
        assert_eq!(
            parse_line("restore x"),
            Err("`restore N` needs the number `save` printed, not `x`".to_string())
        );
        assert_eq!(
            parse_line("jump"),
            Err("unknown command `jump` (type `help`)".to_string())
        );
        assert_eq!(
            parse_line("save 3"),
            Err("`save` takes no argument".to_string())
        );
    }
}
