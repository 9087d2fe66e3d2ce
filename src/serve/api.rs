//! What a request may ask: a JSON body with the program and a few
//! whitelisted options, checked and turned into the argument vector of one
//! `symex` command. Every option is typed or taken from a fixed list, the
//! program is always `-` (standard input), and no option that names a file
//! (`--heap`, `--script`, `--output`, `--smtlib`, `--plot`) can be asked for:
//! a heap comes inline, as `--heap-json`.

use super::Limits;
use crate::commands::IntArg;
use clap::ValueEnum;
use serde::Deserialize;
use symex_semantics::machine::Integers;

/// The commands the API runs, by the last part of their URL, `/api/NAME`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    Run,
    Explore,
    Verify,
    Tests,
    Compare,
    Check,
    Step,
    /// Parse only: the diagnostics of the editor.
    Diagnose,
}

impl Endpoint {
    pub fn from_path(path: &str) -> Option<Endpoint> {
        Some(match path {
            "/api/run" => Endpoint::Run,
            "/api/explore" => Endpoint::Explore,
            "/api/verify" => Endpoint::Verify,
            "/api/tests" => Endpoint::Tests,
            "/api/compare" => Endpoint::Compare,
            "/api/check" => Endpoint::Check,
            "/api/step" => Endpoint::Step,
            "/api/diagnose" => Endpoint::Diagnose,
            _ => return None,
        })
    }

    /// The `symex` command it runs.
    fn command(self) -> &'static str {
        match self {
            Endpoint::Run => "run",
            Endpoint::Explore => "explore",
            Endpoint::Verify => "verify",
            Endpoint::Tests => "tests",
            Endpoint::Compare => "compare",
            Endpoint::Check => "check",
            Endpoint::Step => "step",
            Endpoint::Diagnose => "desugar",
        }
    }

    /// The `--format` values it accepts, the default first.
    fn formats(self) -> &'static [&'static str] {
        match self {
            Endpoint::Explore => &["text", "json", "svg"],
            Endpoint::Run | Endpoint::Verify | Endpoint::Tests => &["text", "json"],
            Endpoint::Compare | Endpoint::Check => &["text", "json"],
            Endpoint::Step | Endpoint::Diagnose => &[],
        }
    }
}

/// The body of a request; unknown fields are refused, so a misspelt option
/// is an error rather than silently ignored.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub source: String,
    #[serde(default)]
    pub format: Option<String>,
    #[serde(default)]
    pub lang: Option<String>,
    #[serde(default)]
    pub method: Option<String>,
    #[serde(default)]
    pub unfold: Option<u32>,
    #[serde(default)]
    pub checked_arrays: bool,
    /// `--int`: what `int` means (`math`, `i32`, `i64`).
    #[serde(default)]
    pub int: Option<String>,
    /// `--break RULE`.
    #[serde(default, rename = "break")]
    pub broken: Option<String>,
    /// `run`'s inputs, `NAME=VALUE` each.
    #[serde(default)]
    pub inputs: Vec<String>,
    /// `run`'s initial heap and globals, the document `run --heap` reads.
    #[serde(default)]
    pub heap: Option<serde_json::Map<String, serde_json::Value>>,
    /// `run --trace`.
    #[serde(default)]
    pub trace: bool,
    /// `step`'s commands, in the order given.
    #[serde(default)]
    pub commands: Vec<String>,
    /// A shorter time limit than the server's, in milliseconds.
    #[serde(default)]
    pub time_limit_ms: Option<u64>,
}

impl Request {
    /// What `int` means in the program; [`arguments`] refuses a value
    /// not among [`INTEGERS`] before this is asked.
    pub fn integers(&self) -> Integers {
        let int = self
            .int
            .as_deref()
            .map(|name| IntArg::from_str(name, false));
        int.and_then(Result::ok).unwrap_or_default().into()
    }
}

/// `--int`'s values, as the CLI names them.
const INTEGERS: &[&str] = &["math", "i32", "i64"];
const LANGUAGES: &[&str] = &["basic", "recursive", "oo"];
const METHODS: &[&str] = &["forward", "wp", "lazy"];
const RULES: &[&str] = &[
    "choice",
    "assignment",
    "loop-exit",
    "aliasing",
    "literal-this",
];
/// At most this many inputs or stepper commands in one request.
const MAX_ITEMS: usize = 200;

/// The arguments of the command `request` asks of `endpoint`, under
/// `limits`, and the time it may take; or why the request is refused.
pub fn arguments(
    endpoint: Endpoint,
    request: &Request,
    limits: &Limits,
) -> Result<(Vec<String>, u64), String> {
    let mut args = vec![endpoint.command().to_string(), "-".to_string()];
    let mut push = |flag: &str, value: String| {
        args.push(flag.to_string());
        args.push(value);
    };
    let limit = request
        .time_limit_ms
        .unwrap_or(limits.time_limit_ms)
        .clamp(1, limits.time_limit_ms);
    let formats = endpoint.formats();
    match (&request.format, formats.first()) {
        (None, Some(default)) => push("--format", default.to_string()),
        (Some(format), _) => push("--format", chosen("format", format, formats)?),
        (None, None) => {}
    }
    let exploring = matches!(
        endpoint,
        Endpoint::Explore | Endpoint::Verify | Endpoint::Tests
    );
    match endpoint {
        Endpoint::Run => {
            push("--time-limit-ms", limit.to_string());
            push("--max-steps", limits.steps.to_string());
        }
        Endpoint::Explore | Endpoint::Verify | Endpoint::Tests => {
            push("--time-limit-ms", limit.to_string());
            push("--max-paths", limits.paths.to_string());
            push("--max-memory-mb", limits.memory_mb.to_string());
            push("--timeout-ms", limit.to_string());
        }
        Endpoint::Compare => {
            push("--time-limit-ms", limit.to_string());
            push("--timeout-ms", limit.to_string());
        }
        Endpoint::Check => push("--time-limit-ms", limit.to_string()),
        Endpoint::Step => {
            push("--max-steps", limits.steps.to_string());
            push("--timeout-ms", limit.to_string());
        }
        Endpoint::Diagnose => {}
    }
    let takes = |allowed: &[Endpoint]| allowed.contains(&endpoint);
    use Endpoint::*;
    if let Some(lang) = &request.lang {
        ensure(
            takes(&[Run, Explore, Verify, Tests, Compare, Check, Step]),
            "lang",
        )?;
        push("--lang", chosen("lang", lang, LANGUAGES)?);
    }
    if let Some(method) = &request.method {
        ensure(exploring || takes(&[Check, Step]), "method")?;
        push("--method", chosen("method", method, METHODS)?);
    }
    if let Some(unfold) = request.unfold {
        ensure(exploring || endpoint == Compare, "unfold")?;
        push("--unfold", unfold.to_string());
    }
    if let Some(rule) = &request.broken {
        ensure(exploring || takes(&[Compare, Check, Step]), "break")?;
        push("--break", chosen("break", rule, RULES)?);
    }
    if let Some(int) = &request.int {
        // Every command takes it, the editor's check (`desugar`) included.
        push("--int", chosen("int", int, INTEGERS)?);
    }
    if !request.inputs.is_empty() {
        ensure(endpoint == Run, "inputs")?;
        ensure(request.inputs.len() <= MAX_ITEMS, "more than 200 inputs")?;
        for input in &request.inputs {
            args.push(format!("--input={}", assignment(input)?));
        }
    }
    if let Some(heap) = &request.heap {
        ensure(endpoint == Run, "heap")?;
        args.push("--heap-json".to_string());
        args.push(serde_json::Value::Object(heap.clone()).to_string());
    }
    if request.trace {
        ensure(endpoint == Run, "trace")?;
        args.push("--trace".to_string());
    }
    if !request.commands.is_empty() {
        ensure(endpoint == Step, "commands")?;
        ensure(
            request.commands.len() <= MAX_ITEMS,
            "more than 200 commands",
        )?;
        let mut script = String::new();
        for command in &request.commands {
            if command.contains(['\n', '\r']) {
                return Err("a stepper command is one line".to_string());
            }
            script.push_str(command);
            script.push('\n');
        }
        args.push("--commands".to_string());
        args.push(script);
    } else if endpoint == Step {
        // The stepper needs its commands; `show` at least says where it starts.
        args.push("--commands".to_string());
        args.push("show".to_string());
    }
    if request.checked_arrays {
        ensure(endpoint != Diagnose, "checked_arrays")?;
        args.push("--checked-arrays".to_string());
    }
    Ok((args, limit))
}

fn ensure(allowed: bool, option: &str) -> Result<(), String> {
    match allowed {
        true => Ok(()),
        false => Err(format!("option `{option}` is not available here")),
    }
}

/// `value` if it is one of `allowed`.
fn chosen(option: &str, value: &str, allowed: &[&str]) -> Result<String, String> {
    match allowed.contains(&value) {
        true => Ok(value.to_string()),
        false => Err(format!(
            "`{option}` must be one of {}, not `{value}`",
            allowed.join(", ")
        )),
    }
}

/// `NAME=VALUE` with a name of the language and a value made of digits,
/// letters and the punctuation of array values (`[1, 2]`, `{0: 1; 3}`).
fn assignment(input: &str) -> Result<&str, String> {
    let refuse = || {
        Err(format!(
            "input `{input}`: expected NAME=VALUE (a number, true, false or an array)"
        ))
    };
    let Some((name, value)) = input.split_once('=') else {
        return refuse();
    };
    let name_ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let value_ok = !value.trim().is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " -[],:;{}".contains(c));
    match name_ok && value_ok {
        true => Ok(input),
        false => refuse(),
    }
}
