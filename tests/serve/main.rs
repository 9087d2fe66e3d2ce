//! `symex serve` over HTTP on loopback: every endpoint, bad requests, the
//! limits of jobs, concurrent heavy jobs, path traversal, and lab 1 in a
//! real browser ([`browser`]).

mod browser;
mod client;
mod load;

use client::{request, request_bytes, Server};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const POWER: &str = include_str!("../../labs/1-paths/power.sx");
const ABSDIFF: &str = include_str!("../../labs/1-paths/absdiff.sx");
const LIST_FIND: &str = include_str!("../../paper-examples/oo/list_find.sx");
/// absdiff with `d > 0`: fails when x = y.
const ABSDIFF_WRONG: &str = "if x < y { d := y - x } else { d := x - y };\nassert d > 0\n";
/// A loop of as many forks as it is unfolded: with a large `--unfold`,
/// only the time limit ends its exploration.
const ENDLESS_FORKS: &str = "i := 0;\nwhile i < n { i := i + 1 }\n";
/// Proved over the paper's integers; under `--int i32`, `x + 1` overflows.
const SUCCESSOR: &str = "y := x + 1;\nassert y > x\n";
const ENDLESS_RUN: &str = "x := 0;\nwhile true { x := x + 1 }\n";

fn stdout(answer: &Value) -> &str {
    answer["stdout"].as_str().unwrap()
}

/// An answer for a failure message: its first few hundred characters.
fn brief(answer: &Value) -> String {
    answer.to_string().chars().take(400).collect()
}

#[test]
fn every_page_and_endpoint_answers_with_the_commands_output() {
    let server = Server::start(&[]);
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<textarea id=\"source\""));
    for asset in ["/app.js", "/style.css"] {
        assert_eq!(server.get(asset).0, 200, "{asset}");
    }
    let (status, examples) = server.get("/examples.json");
    assert_eq!(status, 200);
    let examples: Value = serde_json::from_str(&examples).unwrap();
    let power = examples
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["path"] == "labs/1-paths/power.sx")
        .expect("lab 1's POWER in the menu");
    assert_eq!(power["source"], POWER);
    assert!(examples
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["path"] == "paper-examples/oo/list_find.sx"));

    let (status, explored) = server.api("explore", &json!({"source": POWER, "unfold": 2}));
    assert_eq!((status, explored["status"].as_i64()), (200, Some(0)));
    assert!(stdout(&explored).contains("4 paths: 3 terminated, 0 errors, 1 bounded"));
    let (_, svg) = server.api(
        "explore",
        &json!({"source": POWER, "unfold": 2, "format": "svg"}),
    );
    assert!(stdout(&svg).starts_with("<svg"));
    assert!(stdout(&svg).contains("path 3: terminated"));
    let (_, report) = server.api(
        "explore",
        &json!({"source": POWER, "unfold": 2, "format": "json"}),
    );
    let report: Value = serde_json::from_str(stdout(&report)).unwrap();
    assert_eq!(report["paths"].as_array().unwrap().len(), 4);

    let (_, run) = server.api(
        "run",
        &json!({"source": POWER, "inputs": ["x=2", "y=3"], "trace": true}),
    );
    assert_eq!(run["status"], 0);
    assert!(stdout(&run).contains("z ↦ 8"), "{}", brief(&run));

    let (_, proved) = server.api("verify", &json!({"source": ABSDIFF}));
    assert_eq!(proved["status"], 0, "{}", brief(&proved));
    let (_, tests) = server.api("tests", &json!({"source": ABSDIFF}));
    assert_eq!(tests["status"], 0, "{}", brief(&tests));
    let (_, compared) = server.api("compare", &json!({"source": POWER, "unfold": 2}));
    assert_eq!(compared["status"], 0, "{}", brief(&compared));
    assert!(stdout(&compared).contains("wp"), "{}", brief(&compared));
    let (_, checked) = server.api("check", &json!({"source": ABSDIFF}));
    assert_eq!(checked["status"], 0, "{}", brief(&checked));
    let (_, broken) = server.api("check", &json!({"source": ABSDIFF, "break": "choice"}));
    assert_eq!(
        broken["status"],
        1,
        "--break choice must make a theorem fail: {}",
        brief(&broken)
    );

    let (_, walked) = server.api(
        "step",
        &json!({"source": POWER, "commands": ["go", "save", "go true", "restore 1", "go false", "tree"]}),
    );
    assert_eq!(walked["status"], 0, "{}", brief(&walked));
    let walk = stdout(&walked);
    assert!(
        walk.contains("› go false") && walk.contains("fork on y >= 1"),
        "{walk}"
    );
    assert!(walk.contains("go false: terminated"), "{walk}");
}

#[test]
fn a_printed_counterexample_replays_through_run() {
    let server = Server::start(&[]);
    let (_, verified) = server.api(
        "verify",
        &json!({"source": ABSDIFF_WRONG, "format": "json"}),
    );
    assert_eq!(verified["status"], 1, "{}", brief(&verified));
    let report: Value = serde_json::from_str(stdout(&verified)).unwrap();
    let inputs: Vec<String> = report["counterexample"]["inputs"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    let (_, run) = server.api("run", &json!({"source": ABSDIFF_WRONG, "inputs": inputs}));
    assert_eq!(
        run["status"],
        1,
        "the counterexample must fail the run: {}",
        brief(&run)
    );
    assert!(stdout(&run).contains("assertion"), "{}", brief(&run));
}

/// What `symex desugar - OPTIONS` says of `source`.
fn desugar(source: &str, options: &[&str]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut cli = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(["desugar", "-"])
        .args(options)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = cli.stdin.take().unwrap();
    stdin.write_all(source.as_bytes()).unwrap();
    drop(stdin);
    cli.wait_with_output().unwrap()
}

/// `int` is passed to every command as `--int`: what verify proves over the
/// paper's integers fails under `--int i32`, its counterexample replays
/// through `run` only under `--int i32`, and the editor's check refuses a
/// literal out of range as `symex desugar - --int i32` does.
#[test]
fn machine_integers_are_an_option_of_every_command() {
    let server = Server::start(&[]);
    let (_, proved) = server.api("verify", &json!({"source": SUCCESSOR}));
    assert_eq!(proved["status"], 0, "{}", brief(&proved));
    let (_, failed) = server.api(
        "verify",
        &json!({"source": SUCCESSOR, "int": "i32", "format": "json"}),
    );
    assert_eq!(failed["status"], 1, "{}", brief(&failed));
    let report: Value = serde_json::from_str(stdout(&failed)).unwrap();
    let x = &report["counterexample"]["inputs"]["x"];
    assert_eq!(x, &json!(2147483647), "{}", brief(&failed));
    let inputs = [format!("x={x}")];
    let (_, overflows) = server.api(
        "run",
        &json!({"source": SUCCESSOR, "inputs": inputs, "int": "i32"}),
    );
    assert_eq!(overflows["status"], 1, "{}", brief(&overflows));
    let (_, holds) = server.api("run", &json!({"source": SUCCESSOR, "inputs": inputs}));
    assert_eq!(holds["status"], 0, "{}", brief(&holds));
    for (command, body) in [
        ("tests", json!({"source": SUCCESSOR, "int": "i32"})),
        ("compare", json!({"source": SUCCESSOR, "int": "i32"})),
        ("check", json!({"source": SUCCESSOR, "int": "i32"})),
        (
            "step",
            json!({"source": SUCCESSOR, "int": "i32", "commands": ["go"]}),
        ),
    ] {
        let (status, answer) = server.api(command, &body);
        assert_eq!(status, 200, "{command}: {}", brief(&answer));
        assert_ne!(answer["status"], 2, "{command}: {}", brief(&answer));
    }
    // A machine integer's overflow is a path of its own.
    let (_, explored) = server.api("explore", &json!({"source": SUCCESSOR}));
    assert!(
        stdout(&explored).contains("0 errors"),
        "{}",
        brief(&explored)
    );
    let (_, explored) = server.api("explore", &json!({"source": SUCCESSOR, "int": "i64"}));
    assert!(
        stdout(&explored).contains("1 error,"),
        "{}",
        brief(&explored)
    );
    let big = "x := 3000000000\n";
    let (_, fits) = server.api("diagnose", &json!({"source": big}));
    assert_eq!(fits["status"], 0, "{}", brief(&fits));
    let (_, refused) = server.api("diagnose", &json!({"source": big, "int": "i32"}));
    assert_eq!(refused["status"], 2, "{}", brief(&refused));
    let out = desugar(big, &["--int", "i32"]);
    assert_eq!(
        refused["stderr"].as_str().unwrap(),
        String::from_utf8(out.stderr).unwrap()
    );
}

/// An oo program's model, as explore prints it, is run's heap: each
/// terminated path's model replays to the end of that path.
#[test]
fn an_oo_model_replays_through_runs_heap() {
    let server = Server::start(&[]);
    let (_, explored) = server.api(
        "explore",
        &json!({"source": LIST_FIND, "unfold": 2, "format": "json"}),
    );
    let report: Value = serde_json::from_str(stdout(&explored)).unwrap();
    let terminated: Vec<&Value> = report["paths"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|path| path["status"] == "terminated")
        .collect();
    assert!(terminated.len() >= 2, "{}", brief(&explored));
    for path in terminated {
        let (status, run) = server.api(
            "run",
            &json!({"source": LIST_FIND, "heap": path["model"], "format": "json"}),
        );
        assert_eq!(
            (status, run["status"].as_i64()),
            (200, Some(0)),
            "{}",
            brief(&run)
        );
        let finished: Value = serde_json::from_str(stdout(&run)).unwrap();
        assert_eq!(finished["outcome"], "terminated", "{}", brief(&run));
        assert_eq!(finished["steps"], path["steps"], "{}", brief(&run));
    }
}

#[test]
fn diagnostics_are_the_clis_with_line_and_column() {
    let server = Server::start(&[]);
    let (_, fine) = server.api("diagnose", &json!({"source": POWER}));
    assert_eq!(fine["status"], 0);
    assert_eq!(fine["diagnostics"], json!([]));
    let (_, bad) = server.api(
        "diagnose",
        &json!({"source": "z := 1;\nwhile y >= { z := z }\n"}),
    );
    assert_eq!(bad["status"], 2);
    let first = &bad["diagnostics"][0];
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(2), Some(12))
    );
    assert!(first["message"]
        .as_str()
        .unwrap()
        .starts_with("expected an expression"));
    assert!(bad["stderr"]
        .as_str()
        .unwrap()
        .starts_with("<stdin>:2:12: error:"));
}

/// The in-process check says what `symex desugar -` says, word for word:
/// on every prefix of lab 1's programs (most of them broken somewhere) and
/// on a type error.
#[test]
fn the_in_process_check_is_the_clis() {
    let server = Server::start(&[]);
    let mut sources: Vec<String> = [POWER, ABSDIFF, LIST_FIND]
        .iter()
        .flat_map(|text| {
            let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(9).collect();
            cuts.into_iter().map(|cut| text[..cut].to_string())
        })
        .collect();
    sources.push("var b: bool;\nx := b + 1\n".to_string());
    let mut broken = 0;
    for source in &sources {
        let (_, answer) = server.api("diagnose", &json!({"source": source}));
        let out = desugar(source, &[]);
        let said = (
            answer["status"].as_i64(),
            stdout(&answer).to_string(),
            answer["stderr"].as_str().unwrap().to_string(),
        );
        let cli_said = (
            out.status.code().map(i64::from),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        );
        assert_eq!(said, cli_said, "{source:?}");
        broken += usize::from(said.0 == Some(2));
    }
    // Both kinds of answer were compared.
    assert!(
        broken > 10 && broken < sources.len(),
        "{broken} of {}",
        sources.len()
    );
}

#[test]
fn malformed_requests_get_a_clear_error_and_the_server_stays_up() {
    let mut server = Server::start(&["--max-request-kb", "64"]);
    let post = |path: &str, body: &str| request(&server.address, "POST", path, Some(body));
    let cases = [
        ("/api/explore", "not json", 400, "not the JSON expected"),
        (
            "/api/explore",
            "{\"source\": 3}",
            400,
            "not the JSON expected",
        ),
        ("/api/explore", "{}", 400, "missing field `source`"),
        (
            "/api/explore",
            "{\"source\": \"\", \"heap_file\": \"h.json\"}",
            400,
            "unknown field `heap_file`",
        ),
        (
            "/api/run",
            "{\"source\": \"\", \"heap\": \"h.json\"}",
            400,
            "not the JSON expected",
        ),
        (
            "/api/explore",
            "{\"source\": \"\", \"heap\": {}}",
            400,
            "not available here",
        ),
        (
            "/api/explore",
            "{\"source\": \"\", \"unfold\": -1}",
            400,
            "not the JSON expected",
        ),
        (
            "/api/explore",
            "{\"source\": \"\", \"format\": \"latex\"}",
            400,
            "must be one of",
        ),
        (
            "/api/run",
            "{\"source\": \"\", \"unfold\": 2}",
            400,
            "not available here",
        ),
        (
            "/api/explore",
            "{\"source\": \"\", \"int\": \"i16\"}",
            400,
            "must be one of math, i32, i64",
        ),
        (
            "/api/run",
            "{\"source\": \"\", \"inputs\": [\"x\"]}",
            400,
            "expected NAME=VALUE",
        ),
        (
            "/api/step",
            "{\"source\": \"\", \"commands\": [\"go\\nquit\"]}",
            400,
            "one line",
        ),
        ("/api/shell", "{\"source\": \"\"}", 404, "no such command"),
    ];
    for (path, body, status, message) in cases {
        let (got, text) = post(path, body);
        assert_eq!(got, status, "{path} {body}: {text}");
        let error: Value = serde_json::from_str(&text).unwrap();
        assert!(
            error["error"].as_str().unwrap().contains(message),
            "{body}: {text}"
        );
    }
    let (status, _) = request(&server.address, "DELETE", "/", None);
    assert_eq!(status, 405);
    let (status, text) = request_bytes(
        &server.address,
        "POST",
        "/api/explore",
        Some(&vec![b'x'; 65 * 1024]),
    );
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("larger than 65536 bytes"));
    let (status, text) = request_bytes(&server.address, "POST", "/api/explore", Some(b"\xff\xfe"));
    assert_eq!(status, 400, "{text}");
    // A huge program within the cap: parsed and explored under the limits.
    let huge = "x := x + 1;\n".repeat(4000) + "skip\n";
    let (status, explored) = server.api("explore", &json!({"source": huge}));
    assert_eq!((status, explored["status"].as_i64()), (200, Some(0)));
    assert!(server.alive());
    assert_eq!(server.get("/").0, 200);
}

/// Each endless job ends with an explicit status within its limit plus a second.
#[test]
fn endless_jobs_end_within_their_limit_plus_a_second() {
    let limit = 1000;
    let server = Server::start(&[
        "--time-limit-ms",
        &limit.to_string(),
        "--max-steps",
        "1000000000",
        "--max-paths",
        "1000000000",
        // The time limit, not the output's cap, is what ends these.
        "--max-output-kb",
        "100000",
    ]);
    // How each says it was stopped (exit 3, inconclusive): explore names
    // the frontier it left, the others say inconclusive; a stepper's `go`
    // has no time limit of its own and is killed by the server.
    let cases = [
        (
            "explore",
            json!({"source": ENDLESS_FORKS, "unfold": 1_000_000}),
            "(time limit reached)",
        ),
        (
            "verify",
            json!({"source": ENDLESS_FORKS, "unfold": 1_000_000}),
            "inconclusive",
        ),
        (
            "tests",
            json!({"source": ENDLESS_FORKS, "unfold": 1_000_000}),
            "inconclusive",
        ),
        ("run", json!({"source": ENDLESS_RUN}), "inconclusive"),
        (
            "step",
            json!({"source": ENDLESS_RUN, "commands": ["go"]}),
            "killed",
        ),
    ];
    for (command, body, stopped) in cases {
        let start = Instant::now();
        let (status, answer) = server.api(command, &body);
        let took = start.elapsed();
        assert_eq!(status, 200, "{command}: {}", brief(&answer));
        let said = answer["ended"].as_str().unwrap().starts_with(stopped)
            || stdout(&answer).contains(stopped);
        assert!(said, "{command}: {}", brief(&answer));
        // The job, from its start to its end (a queue or a slow spawn on a
        // loaded machine adds to the request's time, not to the job's).
        let ran = answer["millis"].as_u64().unwrap();
        assert!(ran < limit + 1000, "{command} ran {ran} ms");
        assert!(took < Duration::from_secs(10), "{command} took {took:?}");
    }
}

/// Twenty heavy explorations at once, with queues of four: two start in
/// the short lane and four wait there (then run on in the long lane, or
/// wait in its queue of four), the rest are refused with 503 at once; every
/// job run is cut by its limit, and a small exploration passes meanwhile in
/// the short lane.
#[test]
fn twenty_concurrent_heavy_jobs_leave_the_server_answering() {
    let limit = 1500;
    let server = Server::start(&[
        "--jobs",
        "2",
        "--short-jobs",
        "2",
        "--queue",
        "4",
        "--time-limit-ms",
        &limit.to_string(),
        "--max-paths",
        "1000000000",
    ]);
    let address = server.address.clone();
    let heavy: Vec<_> = (0..20)
        .map(|_| {
            let address = address.clone();
            std::thread::spawn(move || {
                let body = json!({"source": ENDLESS_FORKS, "unfold": 1_000_000}).to_string();
                let (status, text) = request(&address, "POST", "/api/explore", Some(&body));
                (status, serde_json::from_str::<Value>(&text).unwrap())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    let (status, fine) = server.api("diagnose", &json!({"source": POWER}));
    assert_eq!((status, fine["status"].as_i64()), (200, Some(0)));
    assert_eq!(server.get("/").0, 200);
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    // By now every heavy job has left the short lane (five quanta of
    // wall-clock time at most, three rounds of two), while the long ones run.
    std::thread::sleep(Duration::from_millis(1700));
    let (status, small) = server.api("explore", &json!({"source": POWER, "unfold": 2}));
    assert_eq!(status, 200, "{}", brief(&small));
    assert_eq!(
        (small["status"].as_i64(), small["lane"].as_str()),
        (Some(0), Some("short")),
        "{}",
        brief(&small)
    );
    let answers: Vec<(u16, Value)> = heavy.into_iter().map(|h| h.join().unwrap()).collect();
    let ran = answers.iter().filter(|(status, _)| *status == 200).count();
    let refused = answers.iter().filter(|(status, _)| *status == 503).count();
    let statuses: Vec<u16> = answers.iter().map(|(status, _)| *status).collect();
    assert_eq!((ran, refused), (6, 14), "{statuses:?}");
    for (status, answer) in &answers {
        match status {
            200 => {
                let cut = answer["ended"].as_str().unwrap().starts_with("stopped")
                    || stdout(answer).contains("(time limit reached)");
                assert!(cut, "{}", brief(answer));
                assert!(
                    answer["millis"].as_u64().unwrap() < limit + 1000,
                    "{}",
                    brief(answer)
                );
            }
            _ => assert!(answer["error"].as_str().unwrap().contains("busy")),
        }
    }
}

/// Path traversal in the URL and in every parameter: refused or taken as
/// what it is (a program's text), never as a file to read.
#[test]
fn no_parameter_reads_a_file() {
    let server = Server::start(&[]);
    let secret = "root:x:0:0";
    let sneaky = ["../../etc/passwd", "/etc/passwd", "..%2f..%2fetc%2fpasswd"];
    for path in [
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/examples.json/../../etc/passwd",
        "/app.js?../../etc/passwd",
        "/etc/passwd",
        "//etc/passwd",
    ] {
        let (status, body) = server.get(path);
        assert!(!body.contains(secret), "{path}");
        if path.starts_with("/app.js") {
            assert_eq!(status, 200);
        } else {
            assert_eq!(status, 404, "{path}");
        }
    }
    for name in sneaky {
        let cases = [
            ("explore", json!({"source": name})),
            ("explore", json!({"source": POWER, "format": name})),
            ("explore", json!({"source": POWER, "lang": name})),
            ("explore", json!({"source": POWER, "method": name})),
            ("explore", json!({"source": POWER, "break": name})),
            ("explore", json!({"source": POWER, "int": name})),
            (
                "run",
                json!({"source": POWER, "inputs": [format!("x={name}")]}),
            ),
            (
                "run",
                json!({"source": POWER, "inputs": [format!("{name}=1")]}),
            ),
            (
                "run",
                json!({"source": POWER, "heap": {"vars": {"x": name}}}),
            ),
            (
                "step",
                json!({"source": POWER, "commands": [format!("restore {name}")]}),
            ),
            (
                "step",
                json!({"source": POWER, "commands": [format!("assume {name}")]}),
            ),
            ("diagnose", json!({"source": name})),
        ];
        for (command, body) in cases {
            let (status, answer) = server.api(command, &body);
            let text = answer.to_string();
            assert!(!text.contains(secret), "{command} {body}");
            let refused = status == 400;
            let failed_as_program = status == 200 && answer["status"] == 2;
            let not_an_expression = answer["stdout"]
                .as_str()
                .is_some_and(|out| out.contains("expected an expression"));
            assert!(
                refused || failed_as_program || not_an_expression,
                "{command} {body}: {}",
                brief(&answer)
            );
        }
    }
    for path in ["/api/../../etc/passwd", "/api/explore/../../../etc/passwd"] {
        let (status, body) = request(&server.address, "POST", path, Some("{\"source\": \"\"}"));
        assert_eq!(status, 404, "{path}");
        assert!(!body.contains(secret));
    }
}
