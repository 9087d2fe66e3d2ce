//! `symex serve`: the browser playground. One page, its script and style
//! and the menu's programs are embedded in the binary ([`assets`]); every
//! command a page asks for runs as a child process of this binary
//! ([`jobs`]) with the options a request may choose ([`api`]) under the
//! server's [`Limits`], short work before long ([`schedule`]); only the
//! editor's parse check is answered in-process ([`diagnose`]). The server
//! reads no file and runs no shell.

pub mod api;
pub mod assets;
pub mod diagnose;
pub mod jobs;
pub mod schedule;

use api::{Endpoint, Request};
use jobs::{Job, Outcome};
use schedule::{Refused, Scheduled, Scheduler, Slots};
use serde_json::json;
use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tiny_http::{Header, Method, Response, Server};

/// What every job may use.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The time limit of a command (`--time-limit-ms`), at most.
    pub time_limit_ms: u64,
    /// `--max-steps` of `run` and `step`.
    pub steps: usize,
    /// `--max-paths` of the exploring commands.
    pub paths: usize,
    /// `--max-memory-mb` of the exploring commands.
    pub memory_mb: usize,
    /// Bytes of output kept; a job that writes more is stopped.
    pub output_bytes: usize,
    /// Bytes of a request's body.
    pub body_bytes: usize,
}

/// How long past its time limit a job is killed, if it has not stopped by itself.
pub const KILL_MARGIN: Duration = Duration::from_millis(800);

/// The server's settings.
pub struct Settings {
    /// The address to listen on, e.g. `127.0.0.1:8000` (port 0: any free one).
    pub address: String,
    /// Long jobs (past their quantum) run at once.
    pub jobs: usize,
    /// Jobs in their quantum run at once.
    pub short_jobs: usize,
    /// Jobs waiting in each lane; beyond that a request gets 503.
    pub queue: usize,
    /// How long a job runs before it counts as long.
    pub quantum: Duration,
    pub limits: Limits,
    /// The binary the jobs run (this one).
    pub program: PathBuf,
}

/// Everything a request's thread needs.
struct Shared {
    settings: Settings,
    /// The commands of the buttons.
    jobs: Scheduler,
    /// The editor's parse checks, answered in-process, at most one a core at once.
    parses: Slots,
}

/// A running server.
pub struct Serving {
    server: Server,
    shared: Arc<Shared>,
}

impl Serving {
    /// Listens on the settings' address.
    pub fn bind(settings: Settings) -> Result<Serving, String> {
        let server = Server::http(&settings.address)
            .map_err(|error| format!("cannot listen on {}: {error}", settings.address))?;
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        let shared = Shared {
            jobs: Scheduler::new(
                settings.short_jobs,
                settings.jobs,
                settings.queue,
                settings.quantum,
            ),
            parses: Slots::new(cores, settings.queue),
            settings,
        };
        Ok(Serving {
            server,
            shared: Arc::new(shared),
        })
    }

    /// The address it listens on (the port chosen when 0 was asked).
    pub fn address(&self) -> String {
        self.server.server_addr().to_string()
    }

    /// Answers requests until the process ends; each request on a thread of
    /// its own (with a command's stack, for the in-process parse), so a slow
    /// job (or a panic) holds up no other.
    pub fn serve(self) {
        for request in self.server.incoming_requests() {
            let shared = self.shared.clone();
            let spawned = std::thread::Builder::new()
                .name("request".into())
                .stack_size(crate::commands::STACK_BYTES)
                .spawn(move || answer(&shared, request));
            // Without a thread the request is dropped, its connection closed.
            drop(spawned);
        }
    }
}

type Reply = Response<std::io::Cursor<Vec<u8>>>;

fn answer(shared: &Shared, mut request: tiny_http::Request) {
    let path = request
        .url()
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .to_string();
    let reply = match (request.method(), path.as_str()) {
        (Method::Get, _) => match assets::asset(&path) {
            Some((body, kind)) => with_type(Response::from_data(body.as_bytes().to_vec()), kind),
            None => error(404, "no such page"),
        },
        (Method::Post, _) => match Endpoint::from_path(&path) {
            Some(endpoint) => match read_body(&mut request, shared.settings.limits.body_bytes) {
                Ok(body) => api_reply(shared, endpoint, &body),
                Err(reply) => reply,
            },
            None => error(404, "no such command"),
        },
        _ => error(405, "only GET and POST are answered"),
    };
    // The client may have gone away meanwhile: nobody to tell.
    let _ = request.respond(reply);
}

/// The body, or the reply refusing it when larger than `cap` bytes.
fn read_body(request: &mut tiny_http::Request, cap: usize) -> Result<String, Reply> {
    let too_large = || error(413, &format!("the request is larger than {cap} bytes"));
    if request.body_length().is_some_and(|length| length > cap) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(cap as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| error(400, &format!("cannot read the request: {e}")))?;
    if body.len() > cap {
        return Err(too_large());
    }
    String::from_utf8(body).map_err(|_| error(400, "the request is not UTF-8"))
}

fn api_reply(shared: &Shared, endpoint: Endpoint, body: &str) -> Reply {
    let request: Request = match serde_json::from_str(body) {
        Ok(request) => request,
        Err(e) => return error(400, &format!("the request is not the JSON expected: {e}")),
    };
    let limits = &shared.settings.limits;
    let (args, limit_ms) = match api::arguments(endpoint, &request, limits) {
        Ok(found) => found,
        Err(message) => return error(400, &message),
    };
    let busy = || {
        error(
            503,
            "the server is busy: every job slot and its queue are taken; try again in a few seconds",
        )
    };
    if endpoint == Endpoint::Diagnose {
        let Some(_slot) = shared.parses.acquire() else {
            return busy();
        };
        return json_reply(200, &diagnose::answer(&request.source, request.integers()));
    }
    let job = Job {
        args,
        stdin: request.source,
        wall: Duration::from_millis(limit_ms) + KILL_MARGIN,
        output_cap: limits.output_bytes,
    };
    match shared.jobs.run(&shared.settings.program, &job) {
        Ok(scheduled) => json_reply(200, &report(&scheduled, limit_ms)),
        Err(Refused::Busy) => busy(),
        Err(Refused::Spawn(e)) => error(500, &format!("cannot start the job: {e}")),
    }
}

/// The JSON a page gets for a finished job: the command's exit status and
/// its outputs, how it ended, and how it was scheduled.
fn report(scheduled: &Scheduled, limit_ms: u64) -> serde_json::Value {
    let outcome: &Outcome = &scheduled.outcome;
    let ended = match (outcome.status, outcome.timed_out, outcome.output_cut) {
        (_, _, true) => "stopped: its output passed the server's cap".to_string(),
        (_, true, _) => format!("killed: still running {limit_ms} ms after its time limit"),
        (Some(0), ..) => "done".to_string(),
        (Some(1), ..) => "failed".to_string(),
        (Some(2), ..) => "error".to_string(),
        (Some(3), ..) => "inconclusive".to_string(),
        (Some(code), ..) => format!("exit status {code}"),
        (None, ..) => "killed by a signal".to_string(),
    };
    json!({
        "status": outcome.status,
        "ended": ended,
        "stdout": outcome.stdout,
        "stderr": outcome.stderr,
        "millis": outcome.millis,
        "limit_ms": limit_ms,
        "lane": scheduled.lane.name(),
        "answered_ms": scheduled.millis,
    })
}

fn with_type(response: Reply, kind: &str) -> Reply {
    let header = Header::from_bytes("Content-Type", kind).expect("a valid header");
    response.with_header(header).with_header(
        Header::from_bytes("X-Content-Type-Options", "nosniff").expect("a valid header"),
    )
}

fn json_reply(status: u16, value: &serde_json::Value) -> Reply {
    with_type(
        Response::from_data(value.to_string().into_bytes()).with_status_code(status),
        "application/json",
    )
}

fn error(status: u16, message: &str) -> Reply {
    json_reply(status, &json!({ "error": message }))
}
