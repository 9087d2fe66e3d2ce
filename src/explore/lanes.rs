//! The way from the workers to the thread that writes what they find:
//! one bounded queue (a *lane*) per worker. A worker whose lane holds
//! [`LANE_BYTES`] waits until the writer takes from it, so a worker that
//! runs ahead of the writer holds a bounded amount of the report, not the
//! rest of its share; the writer takes from any lane the first piece it
//! can use (one worker's pieces come in the order it sent them, different
//! workers' in any).

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The bytes of pieces a lane holds before its worker waits for the writer.
pub const LANE_BYTES: usize = 2 << 20;

/// The lanes of all workers, shared by them and the writer.
pub struct Lanes<M> {
    state: Mutex<State<M>>,
    /// A piece was sent, a lane closed or a worker began to wait.
    arrived: Condvar,
    /// The writer took a piece or stopped reading.
    room: Condvar,
}

struct State<M> {
    queues: Vec<Queue<M>>,
    /// Lanes whose worker may still send.
    open: usize,
    /// Workers waiting for room in their lane.
    waiting: usize,
    /// Whether the writer still takes pieces.
    reading: bool,
}

struct Queue<M> {
    pieces: VecDeque<(M, usize)>,
    bytes: usize,
}

/// The writer stopped reading: the worker's piece is not wanted any more.
#[derive(Debug)]
pub struct Closed;

/// Every open lane is full and none holds a piece the writer can use: the
/// piece it waits for will never come.
#[derive(Debug)]
pub struct Stuck;

/// One worker's end of its lane; dropping it closes the lane.
pub struct Lane<'a, M> {
    lanes: &'a Lanes<M>,
    index: usize,
}

impl<M> Lanes<M> {
    /// `count` open lanes, empty.
    pub fn new(count: usize) -> Lanes<M> {
        let queues = (0..count)
            .map(|_| Queue {
                pieces: VecDeque::new(),
                bytes: 0,
            })
            .collect();
        Lanes {
            state: Mutex::new(State {
                queues,
                open: count,
                waiting: 0,
                reading: true,
            }),
            arrived: Condvar::new(),
            room: Condvar::new(),
        }
    }

    /// Worker `index`'s end of its lane (each taken once).
    pub fn lane(&self, index: usize) -> Lane<'_, M> {
        Lane { lanes: self, index }
    }

    fn state(&self) -> MutexGuard<'_, State<M>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The first piece at the head of a lane that `wanted` accepts,
    /// waiting for one; `None` once every lane is closed without one.
    pub fn next(&self, wanted: impl Fn(&M) -> bool) -> Result<Option<M>, Stuck> {
        let mut state = self.state();
        loop {
            let found = state
                .queues
                .iter()
                .position(|queue| queue.pieces.front().is_some_and(|(piece, _)| wanted(piece)));
            if let Some(index) = found {
                let queue = &mut state.queues[index];
                let taken = queue.pieces.pop_front().map(|(piece, bytes)| {
                    queue.bytes -= bytes;
                    piece
                });
                self.room.notify_all();
                return Ok(taken);
            }
            if state.open == 0 {
                return Ok(None);
            }
            if state.waiting == state.open {
                return Err(Stuck);
            }
            state = self
                .arrived
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Whether a piece is left in any lane (after [`Lanes::next`] found none wanted).
    pub fn left(&self) -> bool {
        self.state()
            .queues
            .iter()
            .any(|queue| !queue.pieces.is_empty())
    }

    /// The writer reads no more: waiting workers are told so.
    pub fn close(&self) {
        self.state().reading = false;
        self.room.notify_all();
    }
}

impl<M> Lane<'_, M> {
    /// Sends `piece`, of `bytes` bytes, waiting while the lane is full
    /// (a piece bigger than the lane still goes into an empty one); the
    /// time it waited.
    pub fn send(&self, piece: M, bytes: usize) -> Result<Duration, Closed> {
        let lanes = self.lanes;
        let begun = Instant::now();
        let mut waited = false;
        let mut state = lanes.state();
        loop {
            if !state.reading {
                return Err(Closed);
            }
            let queue = &state.queues[self.index];
            if queue.pieces.is_empty() || queue.bytes + bytes <= LANE_BYTES {
                break;
            }
            state.waiting += 1;
            waited = true;
            lanes.arrived.notify_all();
            state = lanes
                .room
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
            state.waiting -= 1;
        }
        let queue = &mut state.queues[self.index];
        queue.pieces.push_back((piece, bytes));
        queue.bytes += bytes;
        lanes.arrived.notify_all();
        Ok(if waited {
            begun.elapsed()
        } else {
            Duration::ZERO
        })
    }
}

impl<M> Drop for Lane<'_, M> {
    fn drop(&mut self) {
        self.lanes.state().open -= 1;
        self.lanes.arrived.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_writer_takes_the_piece_it_wants_from_any_lane() {
        let lanes = Lanes::new(2);
        let (first, second) = (lanes.lane(0), lanes.lane(1));
        first.send(2, 1).unwrap();
        second.send(1, 1).unwrap();
        assert_eq!(lanes.next(|&n| n == 1).unwrap(), Some(1));
        assert_eq!(lanes.next(|&n| n == 2).unwrap(), Some(2));
        drop((first, second));
        assert_eq!(lanes.next(|_| true).unwrap(), None);
        assert!(!lanes.left());
    }

    #[test]
    fn a_worker_waits_while_its_lane_is_full_and_a_missing_piece_is_found_stuck() {
        let lanes = Lanes::new(1);
        std::thread::scope(|scope| {
            let lane = lanes.lane(0);
            let sender = scope.spawn(move || {
                // The second piece waits for room: the first is never taken.
                lane.send(1, LANE_BYTES).and_then(|_| lane.send(2, 1))
            });
            assert!(lanes.next(|&n| n == 0).is_err());
            lanes.close();
            assert!(sender.join().unwrap().is_err());
        });
    }
}
