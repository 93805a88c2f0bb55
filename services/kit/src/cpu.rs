//! CPU-bound work (image cleaning and resizing, spreadsheet parsing, PDF rendering, statement
//! matching, password hashing) runs here: on threads of its own, never on the async workers
//! (which must keep answering `/healthz` and every other request), at most a few at a time, so
//! a burst of big uploads queues instead of taking every core and all the memory, and at a
//! lower scheduling priority than the threads that answer requests, so that on a small machine
//! shared with the database, the bus and the other services, a long piece of work gives way to
//! every short answer instead of making it wait for its turn on a core.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use tokio::sync::Semaphore;

/// How much lower CPU work's priority is than the rest of the process (a nice value: 10 gives
/// a waiting request thread about ten times the share of a core).
pub const LOWER_BY: i32 = 10;

/// How many pieces of CPU-bound work run at once: the machine's cores, at least one.
pub fn limit() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2).max(1)
}

fn permits() -> &'static Semaphore {
    static PERMITS: OnceLock<Semaphore> = OnceLock::new();
    PERMITS.get_or_init(|| Semaphore::new(limit()))
}

/// Runs `work` on a thread of its own (at the lower priority unless told otherwise) and waits
/// for it without holding an async worker. Pieces of work take milliseconds to seconds, so a
/// thread each costs little beside them, and a thread made for the work never hands its
/// lowered priority on to anything else (a process without privileges cannot raise it back).
fn on_thread<T, F>(work: F, priority: Priority) -> impl Future<Output = anyhow::Result<T>>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = tokio::sync::oneshot::channel();
    let spawned = std::thread::Builder::new().name("cpu-work".into()).spawn(move || {
        if priority == Priority::Lower {
            lower_priority();
        }
        let _ = tx.send(catch_unwind(AssertUnwindSafe(work)));
    });
    async move {
        spawned?;
        match rx.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(_)) => Err(anyhow::anyhow!("a piece of CPU work panicked")),
            Err(_) => Err(anyhow::anyhow!("a piece of CPU work stopped without an answer")),
        }
    }
}

/// Lowers the calling thread's priority by [`LOWER_BY`]. On Linux a nice value belongs to a
/// thread, so the process's other threads keep theirs; elsewhere this does nothing.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: getpriority/setpriority only read and change the calling thread's nice value;
    // they take plain integers and touch no memory of ours.
    unsafe {
        let me = libc::gettid() as libc::id_t;
        *libc::__errno_location() = 0;
        let now = libc::getpriority(libc::PRIO_PROCESS, me);
        if *libc::__errno_location() == 0 {
            libc::setpriority(libc::PRIO_PROCESS, me, (now + LOWER_BY).min(19));
        }
    }
}

/// Runs `work` on a CPU thread once a permit is free, and returns its result.
pub async fn run<T, F>(work: F) -> anyhow::Result<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let _permit = permits().acquire().await?;
    on_thread(work, Priority::Lower).await
}

/// The scheduling priority of a piece of CPU work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// [`LOWER_BY`] below the threads that answer requests: most work.
    Lower,
    /// As the threads that answer requests: work that one of them is waiting for and that
    /// cannot be flooded (a known device's sign-in, one at a time).
    Normal,
}

/// How many pieces of work a [`Pool`] runs at once.
#[derive(Clone, Copy, Debug)]
pub enum Running {
    /// This many.
    Exactly(usize),
    /// Half the machine's cores, at least one: on a small machine a flood of this work leaves
    /// a core for everything else.
    HalfTheCores,
}

impl Running {
    fn count(self) -> usize {
        match self {
            Running::Exactly(n) => n.max(1),
            Running::HalfTheCores => (limit() / 2).max(1),
        }
    }
}

/// A small pool of its own for one kind of costly work (password hashing), so a flood of it
/// neither queues behind the other CPU work nor holds it up: `running` at once, `waiting`
/// more in line, and any beyond those turned away at once.
pub struct Pool {
    running: Running,
    waiting: usize,
    priority: Priority,
    gates: OnceLock<(Semaphore, Semaphore)>,
}

impl Pool {
    /// A pool running `running` pieces of work at once at `priority`, with `waiting` more in
    /// line.
    pub const fn new(running: Running, waiting: usize, priority: Priority) -> Self {
        Self { running, waiting, priority, gates: OnceLock::new() }
    }

    /// How many pieces of work run at once on this machine.
    pub fn running(&self) -> usize {
        self.running.count()
    }

    fn gates(&self) -> &(Semaphore, Semaphore) {
        self.gates.get_or_init(|| {
            let running = self.running();
            (Semaphore::new(running), Semaphore::new(running + self.waiting))
        })
    }

    /// Runs `work` on a CPU thread; `None`, without running it, when the pool's line is full.
    pub async fn try_run<T, F>(&self, work: F) -> anyhow::Result<Option<T>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let (running, in_line) = self.gates();
        let Ok(_place) = in_line.try_acquire() else { return Ok(None) };
        let _permit = running.acquire().await?;
        Ok(Some(on_thread(work, self.priority).await?))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn work_runs_off_the_async_workers_a_few_at_a_time() {
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..limit() * 4)
            .map(|_| {
                let (running, most) = (running.clone(), most.clone());
                tokio::spawn(run(move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(20));
                    running.fetch_sub(1, Ordering::SeqCst);
                    std::thread::current().name().map(str::to_string)
                }))
            })
            .collect();
        // Meanwhile the async workers stay free.
        let answered = tokio::time::timeout(Duration::from_millis(10), async { 1 + 1 }).await;
        assert_eq!(answered.ok(), Some(2));
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        assert!(most.load(Ordering::SeqCst) <= limit(), "at most {} at once", limit());
        assert!(most.load(Ordering::SeqCst) >= 1);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn work_gives_way_to_the_threads_that_answer_requests() {
        fn nice() -> i32 {
            // SAFETY: reads the calling thread's nice value.
            unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
        }
        let here = nice();
        let there = run(nice).await.unwrap();
        assert_eq!(there, (here + LOWER_BY).min(19), "CPU work runs {LOWER_BY} nice steps lower");
        static POOL: Pool = Pool::new(Running::HalfTheCores, 1, Priority::Lower);
        assert_eq!(POOL.try_run(nice).await.unwrap(), Some((here + LOWER_BY).min(19)));
        assert_eq!(nice(), here, "the async worker keeps its priority");
        static KNOWN: Pool = Pool::new(Running::Exactly(1), 1, Priority::Normal);
        assert_eq!(KNOWN.try_run(nice).await.unwrap(), Some(here), "a pool at normal priority keeps it");
        assert_eq!(POOL.running(), (limit() / 2).max(1));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn work_that_panics_is_an_error_and_the_pool_goes_on() {
        let failed = run(|| -> i32 { panic!("bad input") }).await;
        assert!(failed.is_err());
        assert_eq!(run(|| 7).await.unwrap(), 7);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_full_pool_turns_work_away_at_once() {
        static POOL: Pool = Pool::new(Running::Exactly(1), 2, Priority::Lower);
        let gate = Arc::new(std::sync::Barrier::new(2));
        let first = {
            let gate = gate.clone();
            tokio::spawn(POOL.try_run(move || {
                gate.wait();
                1
            }))
        };
        // The first holds the one worker; two more wait in line.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let second = tokio::spawn(POOL.try_run(|| 2));
        let third = tokio::spawn(POOL.try_run(|| 3));
        tokio::time::sleep(Duration::from_millis(50)).await;
        let started = std::time::Instant::now();
        assert_eq!(POOL.try_run(|| 4).await.unwrap(), None, "the line is full");
        assert!(started.elapsed() < Duration::from_millis(20), "answered without waiting");
        gate.wait();
        assert_eq!(first.await.unwrap().unwrap(), Some(1));
        assert_eq!(second.await.unwrap().unwrap(), Some(2));
        assert_eq!(third.await.unwrap().unwrap(), Some(3));
        assert_eq!(POOL.try_run(|| 5).await.unwrap(), Some(5), "room again once the line moved");
    }
}
