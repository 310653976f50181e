//! The web table's searching bots (`mcts`) think on a pool of threads of their own: a few (one
//! fewer than the machine's cores, at least one), whatever the number of tables asking, so that
//! the server answers every other request at once. The quick bots (`random`, `greedy`) answer in
//! the request that let them move, for a moment at most (`budgets::WEB_INLINE`), then here too.
//!
//! A job is one decision of one table: the worker copies the game's state under the table's lock,
//! thinks without it (a seat's requests go on being answered), and gives the answer back if the
//! game is still where it was. It thinks until the bot's own bound (its playouts), the deadline
//! (`--think`), or the table is closed or left: no seat has asked about it for `--bot-idle`, its
//! players having gone. A left table's bots wait, and think again when a seat comes back.

use super::table::{Activity, Table};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, Weak};
use std::time::Duration;

/// The pool: its queue of tables with a bot to move, and its workers.
pub struct Pool {
    shared: Arc<Shared>,
}

struct Shared {
    queue: Mutex<VecDeque<Job>>,
    ready: Condvar,
    /// Workers thinking now.
    busy: AtomicUsize,
    /// How long a bot may think about one decision.
    think: Duration,
    /// How long a table's bots go on with no seat asking about it.
    idle: Duration,
    /// Workers started.
    threads: usize,
}

/// A table with a searching bot to move.
struct Job {
    table: Weak<Mutex<Table>>,
    activity: Arc<Activity>,
}

/// How the pool is doing, as `GET /api/status` tells it.
#[derive(Debug, serde::Serialize)]
pub struct PoolStatus {
    pub bot_threads: usize,
    pub thinking: usize,
    pub waiting: usize,
}

impl Pool {
    /// A pool of `threads` workers, bots thinking at most `think` per decision, and no longer
    /// than `idle` after the last request about their table.
    pub fn new(threads: usize, think: Duration, idle: Duration) -> Pool {
        let started = threads.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(VecDeque::new()),
            ready: Condvar::new(),
            busy: AtomicUsize::new(0),
            think,
            idle,
            threads: started,
        });
        for i in 0..started {
            let s = shared.clone();
            // A pool that cannot start a thread has fewer workers; with none, the bots wait.
            let _ = std::thread::Builder::new().name(format!("arbiter-bot-{i}")).spawn(move || work(&s));
        }
        Pool { shared }
    }

    /// The number of workers a machine's pool has: one fewer than its cores, at least one.
    pub fn default_threads() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
    }

    /// Let `table`'s bot think, if one must move and it is not already waiting or thinking.
    pub fn wake(&self, table: &Arc<Mutex<Table>>) {
        let activity = {
            let t = table.lock().unwrap_or_else(PoisonError::into_inner);
            if !t.bot_must_think() {
                return;
            }
            t.activity().clone()
        };
        if activity.queue() {
            let mut q = self.shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
            q.push_back(Job { table: Arc::downgrade(table), activity });
            self.shared.ready.notify_one();
        }
    }

    pub fn status(&self) -> PoolStatus {
        let waiting = self.shared.queue.lock().unwrap_or_else(PoisonError::into_inner).len();
        PoolStatus { bot_threads: self.shared.threads, thinking: self.shared.busy.load(Ordering::Relaxed), waiting }
    }
}

/// A worker: take the next table, think for it, again.
fn work(shared: &Shared) {
    loop {
        let job = {
            let mut q = shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                if let Some(j) = q.pop_front() {
                    break j;
                }
                q = shared.ready.wait(q).unwrap_or_else(PoisonError::into_inner);
            }
        };
        shared.busy.fetch_add(1, Ordering::Relaxed);
        let again = think(shared, &job);
        shared.busy.fetch_sub(1, Ordering::Relaxed);
        job.activity.unqueue();
        if let Some(table) = again {
            // Another searching bot to move at once: to the back of the queue (tables take turns).
            if job.activity.queue() {
                let mut q = shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
                q.push_back(Job { table: Arc::downgrade(&table), activity: job.activity.clone() });
            }
        }
    }
}

/// One decision of the job's table, if its players are still there; the table again when another
/// searching bot must move now.
fn think(shared: &Shared, job: &Job) -> Option<Arc<Mutex<Table>>> {
    let table = job.table.upgrade()?;
    let stopped = || job.activity.closed() || job.activity.idle_for() >= shared.idle;
    if stopped() {
        return None;
    }
    let prepared = table.lock().unwrap_or_else(PoisonError::into_inner).prepare_bot()?;
    let deadline = std::time::Instant::now() + shared.think;
    let answer = prepared.think(deadline, &stopped);
    // Stopped because its table was closed or left, the bot's answer is not its best: it is
    // dropped, and the bot thinks again when a seat comes back (`Pool::wake`).
    if stopped() {
        return None;
    }
    let mut t = table.lock().unwrap_or_else(PoisonError::into_inner);
    t.take_bot_answer(prepared, answer);
    t.bot_must_think().then(|| table.clone())
}
