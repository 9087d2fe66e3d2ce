//! `symex serve`: the browser playground of [`crate::serve`] on an address
//! of this machine (localhost unless `--bind` says otherwise).

use super::{CliError, Exit};
use crate::serve::{Limits, Serving, Settings};
use clap::Args;
use std::io::Write;

#[derive(Clone, Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on (`0.0.0.0` for every interface of a course server).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// The port (0: any free one; the address chosen is printed).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// Long jobs (past their quantum) run at once.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub jobs: usize,
    /// Jobs in their quantum run at once, beside the long ones.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub short_jobs: usize,
    /// Jobs that wait for a slot, in each lane; beyond that a request gets 503.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub queue: usize,
    /// The processor time a job uses before it counts as long (and waits for a long slot).
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub quantum_ms: u64,
    /// The time limit of each job (a request may ask for less).
    #[arg(long, value_name = "MS", default_value_t = 5_000)]
    pub time_limit_ms: u64,
    /// The memory budget of each exploring job.
    #[arg(long, value_name = "MB", default_value_t = 512)]
    pub max_memory_mb: usize,
    /// At most N paths per exploration.
    #[arg(long, value_name = "N", default_value_t = 1_000)]
    pub max_paths: usize,
    /// At most N transitions of a run and of a stepper's `go`.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub max_steps: usize,
    /// Output kept per job; a job that writes more is stopped.
    #[arg(long, value_name = "KB", default_value_t = 2_048)]
    pub max_output_kb: usize,
    /// The largest request body (a program and its options).
    #[arg(long, value_name = "KB", default_value_t = 256)]
    pub max_request_kb: usize,
}

pub fn command(args: &ServeArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let program = std::env::current_exe()
        .map_err(|e| CliError::new(format!("cannot find the symex binary to run jobs: {e}")))?;
    let settings = Settings {
        address: format!("{}:{}", args.bind, args.port),
        jobs: args.jobs,
        short_jobs: args.short_jobs,
        queue: args.queue,
        quantum: std::time::Duration::from_millis(args.quantum_ms),
        limits: Limits {
            time_limit_ms: args.time_limit_ms.max(1),
            steps: args.max_steps,
            paths: args.max_paths,
            memory_mb: args.max_memory_mb,
            output_bytes: args.max_output_kb.saturating_mul(1024),
            body_bytes: args.max_request_kb.saturating_mul(1024),
        },
        program,
    };
    let serving = Serving::bind(settings).map_err(CliError::new)?;
    writeln!(out, "symex serve: http://{}/", serving.address())?;
    out.flush()?;
    serving.serve();
    Ok(Exit::Done)
}
