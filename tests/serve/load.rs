//! The bounded load test of docs/serve.md § Load: requests on loopback, a
//! number of clients at a time, a mix of small programs (the editor's
//! check, explore, run, step, verify of lab 1) and heavy ones (endless
//! explorations, runs and stepper walks that only their limits end). Every
//! request must be answered, the heavy ones cut by their limits, the
//! server's jobs and memory bounded; the latencies are printed, small and
//! heavy apart. The default run is small; `SERVE_LOAD=1` runs 200 requests,
//! 20 at a time (`SYMEX_SERVE_BIN` picks the binary measured, e.g. a release build).

use super::client::{request, Server};
use super::{ABSDIFF, ENDLESS_FORKS, ENDLESS_RUN, POWER};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The time limit of the server's jobs in this test.
const LIMIT_MS: u64 = 1000;
/// The scheduling measured: the server's defaults, given explicitly so that
/// the figures say what they were measured with.
const SHORT_JOBS: usize = 4;
const QUANTUM_MS: u64 = 100;
const LONG_JOBS: usize = 2;

/// One request of the mix: its endpoint and body, and whether it is heavy.
struct Ask {
    endpoint: &'static str,
    body: Value,
    heavy: bool,
}

/// The mix, request `i` of it: one in five heavy.
fn ask(i: usize) -> Ask {
    let small = |endpoint, body| Ask {
        endpoint,
        body,
        heavy: false,
    };
    let heavy = |endpoint, body| Ask {
        endpoint,
        body,
        heavy: true,
    };
    match i % 10 {
        0 => heavy(
            "explore",
            json!({"source": ENDLESS_FORKS, "unfold": 1_000_000}),
        ),
        5 if i % 20 == 5 => heavy("run", json!({"source": ENDLESS_RUN})),
        5 => heavy("step", json!({"source": ENDLESS_RUN, "commands": ["go"]})),
        1 | 6 => small("diagnose", json!({"source": POWER})),
        2 => small("explore", json!({"source": POWER, "unfold": 2})),
        3 => small("run", json!({"source": POWER, "inputs": ["x=2", "y=3"]})),
        4 => small(
            "step",
            json!({"source": POWER, "commands": ["go", "go true", "tree"]}),
        ),
        7 => small("verify", json!({"source": ABSDIFF})),
        8 => small(
            "diagnose",
            json!({"source": "z := 1;\nwhile y >= { z := z }\n"}),
        ),
        _ => small(
            "explore",
            json!({"source": POWER, "unfold": 2, "format": "svg"}),
        ),
    }
}

/// One answered request.
struct Answered {
    heavy: bool,
    endpoint: &'static str,
    status: u16,
    answer: Value,
    millis: f64,
}

/// The server's resident memory now and at its peak, in kB, from `/proc`.
fn memory_kb(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The server's child processes (its running jobs) and their resident memory in kB.
fn children(pid: u32) -> (usize, u64) {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return (0, 0);
    };
    let ids: Vec<u32> = tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|list| {
            list.split_whitespace()
                .filter_map(|id| id.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect();
    let memory = ids.iter().map(|id| memory_kb(*id).0).sum();
    (ids.len(), memory)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `q`-quantile of sorted `values` (nearest rank).
fn quantile(values: &[f64], q: f64) -> f64 {
    let rank = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

fn summary(label: &str, answered: &[&Answered]) -> String {
    let mut millis: Vec<f64> = answered.iter().map(|a| a.millis).collect();
    millis.sort_by(f64::total_cmp);
    format!(
        "{label}: {} requests, p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        millis.len(),
        quantile(&millis, 0.5),
        quantile(&millis, 0.95),
        millis.last().copied().unwrap_or(0.0)
    )
}

#[test]
fn load_small_requests_pass_while_heavy_ones_are_cut() {
    let full = std::env::var_os("SERVE_LOAD").is_some();
    let (total, clients) = if full { (200, 20) } else { (30, 6) };
    let mut server = Server::start(&[
        "--time-limit-ms",
        &LIMIT_MS.to_string(),
        "--jobs",
        &LONG_JOBS.to_string(),
        "--short-jobs",
        &SHORT_JOBS.to_string(),
        "--quantum-ms",
        &QUANTUM_MS.to_string(),
        "--max-paths",
        "1000000000",
        "--max-steps",
        "1000000000",
    ]);
    let pid = server.pid();
    let load_before = load_average();
    let next = Arc::new(Mutex::new(0usize));
    let answered = Arc::new(Mutex::new(Vec::new()));
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        std::thread::spawn(move || {
            let (mut jobs, mut job_memory) = (0, 0);
            while !done.load(Ordering::Relaxed) {
                let (running, memory) = children(pid);
                jobs = jobs.max(running);
                job_memory = job_memory.max(memory);
                std::thread::sleep(Duration::from_millis(5));
            }
            (jobs, job_memory)
        })
    };
    let start = Instant::now();
    let workers: Vec<_> = (0..clients)
        .map(|_| {
            let (next, answered, address) =
                (next.clone(), answered.clone(), server.address.clone());
            std::thread::spawn(move || loop {
                let i = {
                    let mut next = next.lock().unwrap();
                    *next += 1;
                    *next - 1
                };
                if i >= total {
                    return;
                }
                let Ask {
                    endpoint,
                    body,
                    heavy,
                } = ask(i);
                let sent = Instant::now();
                let (status, text) = request(
                    &address,
                    "POST",
                    &format!("/api/{endpoint}"),
                    Some(&body.to_string()),
                );
                let millis = sent.elapsed().as_secs_f64() * 1000.0;
                let answer = serde_json::from_str(&text).unwrap_or(Value::Null);
                answered.lock().unwrap().push(Answered {
                    heavy,
                    endpoint,
                    status,
                    answer,
                    millis,
                });
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    let took = start.elapsed();
    done.store(true, Ordering::Relaxed);
    let (most_jobs, job_memory) = sampler.join().unwrap();
    let (_, server_peak) = memory_kb(pid);
    assert!(server.alive());

    let answered = answered.lock().unwrap();
    assert_eq!(answered.len(), total, "every request answered");
    for a in answered.iter() {
        let brief: String = a.answer.to_string().chars().take(300).collect();
        assert_eq!(a.status, 200, "{} {brief}", a.endpoint);
        let job_millis = a.answer["millis"].as_u64().unwrap();
        assert!(
            job_millis < LIMIT_MS + 1000,
            "{} ran {job_millis} ms",
            a.endpoint
        );
        let stdout = a.answer["stdout"].as_str().unwrap();
        let ended = a.answer["ended"].as_str().unwrap();
        match a.heavy {
            true => assert!(
                // Killed at the deadline, stopped at the output's cap, or
                // ended by the command's own time limit.
                ended.starts_with("killed")
                    || ended.starts_with("stopped")
                    || stdout.contains("time limit")
                    || a.answer["status"] == 3,
                "a heavy {} not cut by its limit: {brief}",
                a.endpoint
            ),
            false => assert!(ended == "done" || ended == "error", "{brief}"),
        }
    }
    let small: Vec<&Answered> = answered.iter().filter(|a| !a.heavy).collect();
    let heavy: Vec<&Answered> = answered.iter().filter(|a| a.heavy).collect();
    // Where each was run: a small job is long only on a machine too busy
    // to give it its quantum within five (see docs/serve.md § Scheduling).
    let lanes = |answered: &[&Answered]| {
        ["short", "long", "requeued"]
            .map(|lane| {
                let n = answered.iter().filter(|a| a.answer["lane"] == lane).count();
                format!("{lane} {n}")
            })
            .join(", ")
    };
    assert!(
        most_jobs <= SHORT_JOBS + LONG_JOBS,
        "{most_jobs} jobs at once"
    );
    eprintln!(
        "serve load: {total} requests, {clients} at a time, in {:.1} s; load average {load_before} before, {} after",
        took.as_secs_f64(),
        load_average()
    );
    let (checks, commands): (Vec<&Answered>, Vec<&Answered>) =
        small.iter().partition(|a| a.endpoint == "diagnose");
    eprintln!("{}", summary("small", &small));
    eprintln!("{}", summary("  the editor's checks (in-process)", &checks));
    eprintln!(
        "{}; lanes: {}",
        summary("  small commands", &commands),
        lanes(&commands)
    );
    eprintln!("{}; lanes: {}", summary("heavy", &heavy), lanes(&heavy));
    eprintln!(
        "jobs at once: at most {most_jobs}; their memory at most {} MB; the server's peak {} MB",
        job_memory / 1024,
        server_peak / 1024
    );
}
