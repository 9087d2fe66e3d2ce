//! `symex concolic` end to end: King's SEARCH reaches its 11 paths; on every
//! paper example concolic search reaches the explorer's paths with the same
//! path conditions up to simplification, covers every branch the
//! explorer's paths cover, and every test it prints replays with `symex
//! run` as printed; the stops, the priorities, concretisation, and bad input.

use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::rc::Rc;
use std::time::{Duration, Instant};
use symex::concolic::coverage::{Coverage, Sites};
use symex::concolic::run::{run, Systems};
use symex::concolic::{search, ConcolicOptions, Iteration, Listener, Stop};
use symex::explore::{explore, Bounds, Candidate, ExploreOptions, Strategy};
use symex::simplify::simplify;
use symex::solver::{prove, Proof};
use symex::theorems::{Basic, Recursive, Simulation};
use symex_semantics::eval::Valuation;
use symex_semantics::program::{Language, Program};
use symex_semantics::system::{Options, Rule};
use symex_semantics::term::Term;
use symex_semantics::value::Value;

const KING_SEARCH: &str = "paper-examples/basic/king_search.sx";

fn symex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn text(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn json(output: &Output) -> Json {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            text(output),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("symex-concolic-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The paper examples with the options of their `// snap:` line, but for
/// those kept for lazy initialisation and subsumption (`--method lazy`):
/// their loops over unbounded inputs are cut by subsumption, which a
/// concolic search, one concrete run at a time, has no counterpart of.
fn examples() -> Vec<(String, Vec<String>)> {
    let mut files = Vec::new();
    for language in ["basic", "recursive", "oo"] {
        for entry in std::fs::read_dir(format!("paper-examples/{language}")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "sx") {
                let source = std::fs::read_to_string(&path).unwrap();
                let options: Vec<String> = source
                    .lines()
                    .find_map(|line| line.trim().strip_prefix("// snap:"))
                    .map(|rest| rest.split_whitespace().map(str::to_string).collect())
                    .unwrap_or_default();
                if !options.iter().any(|option| option == "--method") {
                    files.push((path.to_str().unwrap().to_string(), options));
                }
            }
        }
    }
    files.sort();
    files
}

/// Splits a command line as a POSIX shell does for words in single quotes.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                started = true;
            }
            ' ' if !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// Runs a printed `symex run …` line (and `--heap FILE` where given).
fn replay(line: &str) -> Json {
    let words = words(line);
    assert_eq!(words[..2], ["symex", "run"], "{line}");
    let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    args.extend(["--format", "json"]);
    json(&symex(&args))
}

#[test]
fn king_search_reaches_its_11_paths_and_every_branch() {
    let output = symex(&["concolic", KING_SEARCH]);
    assert_eq!(output.status.code(), Some(0));
    let report = text(&output);
    assert!(report.contains("11 iterations, 11 paths;"), "{report}");
    assert!(
        report.contains("branches: 6 of 6 covered (100.0%)"),
        "{report}"
    );
    assert!(report.contains("stopped: worklist empty"), "{report}");
}

/// Every test of the text report, run as printed, ends as the report says.
#[test]
fn every_printed_test_replays_as_printed() {
    let mut replayed = 0;
    for (file, options) in examples() {
        let dir = scratch(&format!("tests-{}", file.replace('/', "-")));
        let mut args = vec!["concolic", file.as_str(), "--tests", dir.to_str().unwrap()];
        args.extend(options.iter().map(String::as_str));
        replayed += printed_tests_replay(&file, &text(&symex(&args))).len();
    }
    assert!(replayed >= 60, "only {replayed} tests replayed");
}

/// Runs each test of a text `report` as printed, checks it ends as the
/// report says, and returns the commands run.
fn printed_tests_replay(file: &str, report: &str) -> Vec<String> {
    let tests: Vec<&str> = report
        .lines()
        .skip_while(|line| *line != "tests:")
        .skip(1)
        .collect();
    assert!(!tests.is_empty(), "{file}: no tests in\n{report}");
    let mut commands = Vec::new();
    for line in tests {
        let (command, expected) = line.split_once("  → ").unwrap_or_else(|| panic!("{line}"));
        let command = command.trim_start().split_once(". ").unwrap().1;
        let command = command.split("  #").next().unwrap();
        let run = replay(command);
        let ending = run["error"]
            .as_str()
            .or(run["outcome"].as_str())
            .unwrap()
            .to_string();
        assert!(
            expected.starts_with(&format!("{ending},")),
            "{file}: `{command}` ends {ending}, the report says {expected}"
        );
        commands.push(command.to_string());
    }
    commands
}

/// Under `--int i32` the printed tests carry the option, and the one at
/// `INT_MAX` overflows again when run as printed.
#[test]
fn printed_tests_under_int_i32_replay_as_printed() {
    let file = "benchmarks/i32_increment_overflow_bug.sx";
    let report = text(&symex(&["concolic", file, "--int", "i32"]));
    let commands = printed_tests_replay(file, &report);
    assert!(
        commands.iter().all(|c| c.contains(" --int i32 ")),
        "{commands:?}"
    );
    assert!(
        report.contains("--input 'nondet_ints=[2147483647]'  → assertion-failed"),
        "{report}"
    );
}

/// The JSON report's tests replay too, with their final states, and the
/// heaps `--tests` writes for programs with objects.
#[test]
fn every_json_test_replays_with_its_final_state() {
    let mut with_heaps = 0;
    for (file, options) in examples() {
        let dir = scratch(&format!("json-{}", file.replace('/', "-")));
        let mut args = vec![
            "concolic",
            file.as_str(),
            "--format",
            "json",
            "--tests",
            dir.to_str().unwrap(),
        ];
        args.extend(options.iter().map(String::as_str));
        let report = json(&symex(&args));
        for (n, test) in report["tests"].as_array().unwrap().iter().enumerate() {
            let mut command = test["run"].as_str().unwrap().to_string();
            if test.get("heap").is_some() {
                let heap = dir.join(format!("test-{}.json", n + 1));
                command.push_str(&format!(" --heap {}", heap.to_str().unwrap()));
                with_heaps += 1;
            }
            let run = replay(&command);
            assert_eq!(run["error"], test["error"], "{file}: {command}");
            assert_eq!(run["state"], test["final_state"], "{file}: {command}");
        }
    }
    assert!(with_heaps >= 20, "only {with_heaps} heaps replayed");
}

/// Paths as the explorer and the search see them: rules, and the
/// simplified path condition.
type Paths = BTreeMap<Vec<Rule>, Term>;

/// On every basic and recursive paper example, concolic search reaches the
/// explorer's paths, each with the explorer's path condition up to
/// simplification (equal as printed, or proved equivalent by Z3), and
/// covers every branch the explorer's paths cover when run.
#[test]
fn concolic_search_reaches_the_explorers_paths_on_the_paper_examples() {
    let (mut compared, mut by_z3) = (0, 0);
    for (file, options) in examples() {
        let source = std::fs::read_to_string(&file).unwrap();
        let program = Rc::new(symex_semantics::syntax::parse_program(&source).unwrap());
        let unfold = options
            .iter()
            .position(|o| o == "--unfold")
            .map_or(10, |i| options[i + 1].parse().unwrap());
        let semantics = Options {
            checked_arrays: options.iter().any(|o| o == "--checked-arrays"),
            ..Options::default()
        };
        let bounds = Bounds {
            unfold,
            ..Bounds::default()
        };
        let agreement = match program.language {
            Language::Basic => agree(
                &Basic::real(program.clone(), semantics).unwrap(),
                &program,
                bounds,
            ),
            Language::Recursive => agree(
                &Recursive::real(program.clone(), semantics).unwrap(),
                &program,
                bounds,
            ),
            Language::Oo => continue,
        };
        let (paths, proved) = agreement.unwrap_or_else(|why| panic!("{file}: {why}"));
        compared += paths;
        by_z3 += proved;
    }
    assert!(
        compared >= MOST_PATHS_COMPARED,
        "only {compared} paths compared ({by_z3} by Z3)"
    );
}

/// Paths the agreement on the paper examples compares, at least.
const MOST_PATHS_COMPARED: usize = 40;

/// The paths of `simulation` as the explorer and concolic search find them
/// agree (see above); the number of paths, and of conditions Z3 had to
/// prove equivalent.
fn agree<M: Simulation>(
    simulation: &M,
    program: &Rc<Program>,
    bounds: Bounds,
) -> Result<(usize, usize), String> {
    let tree = explore(
        simulation.symbolic(),
        simulation.symbolic_initial(),
        simulation.inputs(),
        &ExploreOptions {
            bounds,
            ..ExploreOptions::default()
        },
    );
    with_systems(simulation, |systems| {
        agree_on(simulation, systems, program, bounds, &tree)
    })
}

/// [`agree`] once the two systems are put together.
fn agree_on<M: Simulation>(
    simulation: &M,
    systems: &Systems<'_, M::Symbolic, M::Concrete>,
    program: &Rc<Program>,
    bounds: Bounds,
    tree: &symex::explore::Tree,
) -> Result<(usize, usize), String> {
    let sites = Sites::new(program.clone());
    let mut explored = Paths::new();
    let mut covered = Coverage::default();
    for &node in &tree.paths {
        let leaf = tree.leaf(node).unwrap();
        explored.insert(tree.rules_to(node), leaf.path_condition.clone());
        if let Some(model) = &leaf.model {
            // Coverage is the path's: the run need not go on past a cut.
            covered.extend(&run(systems, &sites, model.clone(), &bounds, 0)?.coverage);
        }
    }
    let options = ConcolicOptions {
        bounds,
        ..ConcolicOptions::default()
    };
    let summary = search(
        systems,
        &sites,
        vec![defaults(simulation)],
        &options,
        &mut Quiet,
    )
    .map_err(|e| e.to_string())??;
    if summary.stop != Stop::WorklistEmpty {
        return Err(format!("stopped: {}", summary.stop.name()));
    }
    let reached: Paths = summary
        .tests
        .iter()
        .filter(|test| test.status.name() != "assumption-violated")
        .map(|test| (test.rules.clone(), test.path_condition.clone()))
        .collect();
    if reached.keys().ne(explored.keys()) {
        return Err(format!(
            "concolic search reached {:?}, the explorer {:?}",
            reached.keys(),
            explored.keys()
        ));
    }
    let mut by_z3 = 0;
    for (rules, phi) in &reached {
        let (ours, theirs) = (simplify(phi), simplify(&explored[rules]));
        if ours != theirs {
            let same = Term::and(
                Term::implies(ours.clone(), theirs.clone()),
                Term::implies(theirs.clone(), ours.clone()),
            );
            if prove(&same, simulation.inputs(), 10_000) != Proof::Valid {
                return Err(format!("{ours} is not {theirs}"));
            }
            by_z3 += 1;
        }
    }
    if !covered.branches.is_subset(&summary.coverage.branches) {
        return Err("a branch the explorer's paths cover is not covered".to_string());
    }
    if covered.branches.len() == sites.branches().count()
        && summary.coverage.branches != covered.branches
    {
        return Err("full coverage not reported".to_string());
    }
    Ok((reached.len(), by_z3))
}

/// `body` on the symbolic and concrete systems of `simulation`.
fn with_systems<M: Simulation, T>(
    simulation: &M,
    body: impl FnOnce(&Systems<'_, M::Symbolic, M::Concrete>) -> T,
) -> T {
    let initial = simulation.symbolic_initial();
    let start = |v: Valuation| simulation.concrete_initial(&v);
    body(&Systems {
        symbolic: simulation.symbolic(),
        initial: &initial,
        concrete: simulation.concrete(),
        start: &start,
    })
}

/// Every input at its default (SPEC §2: 0, false, the empty array).
fn defaults<M: Simulation>(simulation: &M) -> Valuation {
    simulation
        .inputs()
        .iter()
        .map(|(x, sort)| (x.clone(), Value::default_of(sort)))
        .collect()
}

struct Quiet;

impl Listener for Quiet {
    fn iteration(&mut self, _: &Iteration<'_>) -> std::io::Result<()> {
        Ok(())
    }
}

/// Every `--priority` reaches the same paths; `random` from a seed is
/// repeatable; a library user's own priority plugs in as the explorer's.
#[test]
fn every_priority_reaches_the_same_paths() {
    let mut sets = Vec::new();
    for priority in ["depth-index", "generational", "new-branch", "random"] {
        let report = json(&symex(&[
            "concolic",
            KING_SEARCH,
            "--format",
            "json",
            "--priority",
            priority,
            "--seed",
            "7",
        ]));
        let mut paths: Vec<String> = report["iterations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|it| it["path"].to_string())
            .collect();
        paths.sort();
        assert_eq!(report["stats"]["paths"], 11, "{priority}");
        sets.push(paths);
    }
    assert!(sets.windows(2).all(|w| w[0] == w[1]));
    let once = text(&symex(&[
        "concolic",
        KING_SEARCH,
        "--priority",
        "random",
        "--seed",
        "3",
    ]));
    let again = text(&symex(&[
        "concolic",
        KING_SEARCH,
        "--priority",
        "random",
        "--seed",
        "3",
    ]));
    assert_eq!(once, again);
    // The deepest branch first, as a library user would write it: the same paths.
    let source = std::fs::read_to_string(KING_SEARCH).unwrap();
    let program = Rc::new(symex_semantics::syntax::parse_program(&source).unwrap());
    let simulation = Basic::real(program.clone(), Options::default()).unwrap();
    let deepest = Strategy::Priority(Rc::new(|c: &Candidate| c.forks as i64));
    let options = ConcolicOptions {
        strategy: deepest,
        ..ConcolicOptions::default()
    };
    let sites = Sites::new(program);
    let seeds = vec![defaults(&simulation)];
    let summary = with_systems(&simulation, |systems| {
        search(systems, &sites, seeds, &options, &mut Quiet)
    })
    .unwrap()
    .unwrap();
    assert_eq!(
        (summary.tests.len(), summary.stop),
        (11, Stop::WorklistEmpty)
    );
}

#[test]
fn the_search_says_why_it_stopped() {
    for jobs in ["1", "2"] {
        stops(&["--jobs", jobs]);
    }
}

/// The stops of a search with the options `jobs`.
fn stops(jobs: &[&str]) {
    let symex = |args: &[&str]| symex(&[args, jobs].concat());
    let limited = symex(&["concolic", KING_SEARCH, "--iterations", "3"]);
    assert_eq!(limited.status.code(), Some(3));
    assert!(
        text(&limited).contains("3 iterations")
            && text(&limited).contains("stopped: iteration limit reached")
    );
    let goal = text(&symex(&["concolic", KING_SEARCH, "--coverage", "branches"]));
    assert!(
        goal.contains("stopped: goal reached") && goal.contains("branches: 6 of 6"),
        "{goal}"
    );
    let iterations: usize = goal
        .lines()
        .find_map(|l| l.split(" iterations, ").next()?.parse().ok())
        .unwrap();
    assert!(iterations < 11, "{goal}");
    let timed = symex(&["concolic", KING_SEARCH, "--time-limit-ms", "0"]);
    assert_eq!(timed.status.code(), Some(3));
    assert!(text(&timed).contains("stopped: time limit reached"));
}

/// On every paper example, and with every stop on King's SEARCH, the
/// report of `--jobs 3` is the report of one job, but for the time it took.
#[test]
fn the_report_does_not_depend_on_jobs() {
    let report = |file: &str, options: &[&str], jobs: &str| {
        let mut args = vec!["concolic", file, "--format", "json", "--jobs", jobs];
        args.extend(options);
        let mut report = json(&symex(&args));
        report["stats"].as_object_mut().unwrap().remove("time_ms");
        report
    };
    let mut compared = 0;
    for (file, options) in examples() {
        let options: Vec<&str> = options.iter().map(String::as_str).collect();
        assert_eq!(
            report(&file, &options, "1"),
            report(&file, &options, "3"),
            "{file}"
        );
        compared += 1;
    }
    assert!(compared >= 25, "only {compared} examples compared");
    for stop in [&["--iterations", "4"][..], &["--coverage", "branches"]] {
        assert_eq!(
            report(KING_SEARCH, stop, "1"),
            report(KING_SEARCH, stop, "3"),
            "{stop:?}"
        );
    }
}

/// JSON names why the search stopped in kebab-case, as every other
/// command's `stopped` does (`time-limit`, not `time limit reached`).
#[test]
fn json_says_why_it_stopped_in_kebab_case() {
    let stopped = |extra: &[&str]| {
        let mut args = vec!["concolic", KING_SEARCH, "--format", "json"];
        args.extend(extra);
        json(&symex(&args))["stopped"].clone()
    };
    assert_eq!(stopped(&[]), "worklist-empty");
    assert_eq!(stopped(&["--iterations", "3"]), "iteration-limit");
    assert_eq!(stopped(&["--coverage", "branches"]), "goal-reached");
    assert_eq!(stopped(&["--time-limit-ms", "0"]), "time-limit");
}

/// Where Z3 cannot factor, the run's value of one factor is pinned and the
/// other solved for; the report says so, and the test replays.
#[test]
fn nonlinear_branches_are_concretised_with_the_runs_values() {
    let dir = scratch("nonlinear");
    let file = dir.join("factor.sx");
    std::fs::write(&file, "var x: int, y: int;\nif x * y = 1000036000099 && x > 1 && y > 1 { w := 1 } else { w := 0 }\n").unwrap();
    let file = file.to_str().unwrap();
    let output = symex(&[
        "concolic",
        file,
        "--input",
        "x=1000003",
        "--input",
        "y=5",
        "--timeout-ms",
        "500",
    ]);
    let report = text(&output);
    assert!(
        report.contains("concretised: x = 1000003 from the run (nonlinear arithmetic)"),
        "{report}"
    );
    assert!(report.contains("branches: 2 of 2 covered"), "{report}");
    let line = report
        .lines()
        .find(|l| l.contains("y=1000033"))
        .unwrap_or_else(|| panic!("{report}"));
    let command = line
        .trim_start()
        .split_once(". ")
        .unwrap()
        .1
        .split("  → ")
        .next()
        .unwrap();
    assert_eq!(replay(command)["state"]["w"], 1);
}

/// A program with objects: the search finds §4's aliasing counterexample
/// (exit 1) as a heap that `run --heap` replays.
#[test]
fn the_aliasing_puzzle_fails_with_a_heap_that_replays() {
    let dir = scratch("aliasing");
    let output = symex(&[
        "concolic",
        "paper-examples/oo/aliasing_puzzle.sx",
        "--tests",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let report = json(&output);
    let failing = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .position(|t| t["error"] == "assertion-failed")
        .expect("the assertion fails");
    let heap = dir.join(format!("test-{}.json", failing + 1));
    let run = json(&symex(&[
        "run",
        "paper-examples/oo/aliasing_puzzle.sx",
        "--heap",
        heap.to_str().unwrap(),
        "--format",
        "json",
    ]));
    assert_eq!(run["error"], "assertion-failed");
}

/// A program of `n` branches one after another, 2^n paths, in a scratch
/// directory `name`.
fn branches(name: &str, n: usize) -> PathBuf {
    let file = scratch(name).join("branches.sx");
    let source: Vec<String> = (0..n)
        .map(|i| format!("if x{i} > 0 {{ c := c + 1 }} else {{ c := c - 1 }}"))
        .collect();
    std::fs::write(&file, source.join(";\n")).unwrap();
    file
}

/// Ctrl-C ends a long search at once (exit 130) with the iterations and
/// tests found so far, naming the stop.
#[test]
fn ctrl_c_stops_the_search_with_the_tests_found() {
    let file = branches("interrupt", 16);
    for jobs in ["1", "2"] {
        let child = Command::new(env!("CARGO_BIN_EXE_symex"))
            .args(["concolic", file.to_str().unwrap(), "--jobs", jobs])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let signalled = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(signalled.success());
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(130), "--jobs {jobs}");
        let report = text(&output);
        assert!(report.contains("stopped: interrupted"), "{report}");
        assert!(report.contains("  1. symex run "), "no test kept: {report}");
    }
}

/// Ctrl-C on a terminal, where the report streams iteration by iteration:
/// a search of 2^24 paths that has run for seconds ends within two (a
/// second, with room for a loaded machine) with its partial report. Its
/// worklist once kept every configuration of every run, and dropping it
/// took a tenth as long as the search had run.
#[test]
fn ctrl_c_on_a_terminal_ends_a_long_search_at_once() {
    let file = branches("terminal", 24);
    for jobs in [1, 2] {
        ctrl_c_on_a_terminal(&file, jobs);
    }
}

fn ctrl_c_on_a_terminal(file: &std::path::Path, jobs: usize) {
    // `script` gives the command a pseudo-terminal: a Ctrl-C typed into it
    // reaches the command as the user's would.
    let command = format!(
        "{} concolic {} --jobs {jobs}",
        env!("CARGO_BIN_EXE_symex"),
        file.display()
    );
    let mut child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut shown = Vec::new();
        stdout.read_to_end(&mut shown).map(|_| shown)
    });
    std::thread::sleep(Duration::from_secs(5));
    let typed = Instant::now();
    child.stdin.take().unwrap().write_all(b"\x03").unwrap();
    let status = child.wait().unwrap();
    let took = typed.elapsed();
    let shown = String::from_utf8_lossy(&reader.join().unwrap().unwrap()).into_owned();
    assert!(
        took < Duration::from_secs(2),
        "--jobs {jobs}: ended {took:?} after Ctrl-C"
    );
    assert_eq!(status.code(), Some(130), "{shown}");
    assert!(shown.contains("stopped: interrupted"), "{shown}");
    assert!(shown.contains("  1. symex run "), "no test kept: {shown}");
}

#[test]
fn bad_input_is_a_clear_error() {
    let output = symex(&["concolic", KING_SEARCH, "--input", "z=3"]);
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8(output.stderr).unwrap();
    assert!(message.contains("no input `z`"), "{message}");
    let missing = symex(&["concolic", KING_SEARCH, "--heap", "/nonexistent.json"]);
    assert_eq!(missing.status.code(), Some(2));
}
