//! The lanes with jobs whose cost is known: `/bin/sh` ending at once,
//! sleeping (no processor time) or spinning (all of it).

use super::*;
use std::path::Path;

const SHELL: &str = "/bin/sh";

fn job(script: &str, wall_ms: u64) -> Job {
    Job {
        args: vec!["-c".to_string(), script.to_string()],
        stdin: String::new(),
        wall: Duration::from_millis(wall_ms),
        output_cap: 1024,
    }
}

const SPIN: &str = "while :; do :; done";

fn lane(scheduler: &Scheduler, job: &Job) -> Lane {
    match scheduler.run(Path::new(SHELL), job) {
        Ok(scheduled) => scheduled.lane,
        Err(Refused::Busy) => panic!("refused: busy"),
        Err(Refused::Spawn(e)) => panic!("cannot start {SHELL}: {e}"),
    }
}

#[test]
fn a_job_that_ends_within_its_quantum_is_short() {
    let scheduler = Scheduler::new(1, 1, 0, Duration::from_millis(100));
    assert_eq!(lane(&scheduler, &job("exit 0", 5_000)), Lane::Short);
}

/// The quantum is processor time: a job that waits (here, sleeps) for
/// longer than its quantum is still short, up to its patience.
#[test]
fn waiting_is_not_computing_up_to_the_patience() {
    let scheduler = Scheduler::new(1, 1, 0, Duration::from_millis(100));
    assert_eq!(lane(&scheduler, &job("sleep 0.3", 5_000)), Lane::Short);
    assert_eq!(lane(&scheduler, &job("sleep 0.8", 5_000)), Lane::Long);
}

#[test]
fn a_job_past_its_quantum_moves_on_to_a_free_long_slot() {
    let scheduler = Scheduler::new(1, 1, 0, Duration::from_millis(50));
    let scheduled = scheduler.run(Path::new(SHELL), &job(SPIN, 600));
    let Ok(scheduled) = scheduled else {
        panic!("not run")
    };
    assert_eq!(scheduled.lane, Lane::Long);
    assert!(scheduled.outcome.timed_out, "{:?}", scheduled.outcome);
}

/// Two long jobs and one long slot: the second is stopped after its
/// quantum and queued, not refused, and runs once the first has ended;
/// meanwhile the short lane is free for a short job.
#[test]
fn long_jobs_wait_for_a_long_slot_and_leave_the_short_lane_free() {
    let scheduler = Scheduler::new(2, 1, 4, Duration::from_millis(50));
    let spin = job(SPIN, 1500);
    let lanes = std::thread::scope(|scope| {
        let spinning: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| lane(&scheduler, &spin)))
            .collect();
        // Both past their quantum (50 ms of processor time each, at most a
        // core each), one running long and one queued.
        std::thread::sleep(Duration::from_millis(500));
        let started = Instant::now();
        assert_eq!(lane(&scheduler, &job("exit 0", 5_000)), Lane::Short);
        // Not behind the long job, which holds its slot for 1.5 s.
        assert!(started.elapsed() < Duration::from_millis(1000));
        let mut lanes: Vec<Lane> = spinning.into_iter().map(|s| s.join().unwrap()).collect();
        lanes.sort_by_key(|lane| lane.name());
        lanes
    });
    assert_eq!(lanes, [Lane::Long, Lane::Requeued]);
}

/// The nice value in a `/proc/PID/stat` line (field 19 of stat(5); the
/// state, field 3, is the first after the command's name).
fn nice(stat: &str) -> i32 {
    let fields = stat.rsplit_once(')').map(|(_, fields)| fields);
    let nice = fields.and_then(|fields| fields.split_whitespace().nth(19 - 3)?.parse().ok());
    nice.unwrap_or_else(|| panic!("not a stat line: {stat:?}"))
}

/// A long job yields the processor: what it starts once it is long (here
/// `cat`, after a wait past its patience) runs at nice 19, what a short
/// job starts at the server's own priority.
#[test]
fn a_long_job_runs_at_the_least_priority() {
    let scheduler = Scheduler::new(1, 1, 0, Duration::from_millis(50));
    let run = |script: &str| match scheduler.run(Path::new(SHELL), &job(script, 10_000)) {
        Ok(scheduled) => (scheduled.lane, nice(&scheduled.outcome.stdout)),
        Err(_) => panic!("{script}: not run"),
    };
    let (lane, short) = run("cat /proc/self/stat");
    assert_eq!(lane, Lane::Short);
    assert!(short < 19, "the tests themselves run at nice {short}");
    assert_eq!(run("sleep 0.6; cat /proc/self/stat"), (Lane::Long, 19));
}

#[test]
fn a_full_queue_refuses_at_once() {
    let scheduler = Scheduler::new(1, 1, 0, Duration::from_secs(60));
    std::thread::scope(|scope| {
        let first = scope.spawn(|| lane(&scheduler, &job("sleep 0.5", 5_000)));
        std::thread::sleep(Duration::from_millis(100));
        let second = scheduler.run(Path::new(SHELL), &job("exit 0", 5_000));
        assert!(matches!(second, Err(Refused::Busy)));
        assert_eq!(first.join().unwrap(), Lane::Short);
    });
}
