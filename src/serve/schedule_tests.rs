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
