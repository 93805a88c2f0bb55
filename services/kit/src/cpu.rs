//! CPU-bound work (image cleaning and resizing, spreadsheet parsing, PDF rendering) runs
//! here: on tokio's blocking threads, never on the async workers (which must keep answering
//! `/healthz` and every other request), and at most a few at a time, so a burst of big
//! uploads queues instead of taking every core and all the memory.

use std::sync::OnceLock;

use tokio::sync::Semaphore;

/// How many pieces of CPU-bound work run at once: the machine's cores, at least one.
pub fn limit() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2).max(1)
}

fn permits() -> &'static Semaphore {
    static PERMITS: OnceLock<Semaphore> = OnceLock::new();
    PERMITS.get_or_init(|| Semaphore::new(limit()))
}

/// Runs `work` on a blocking thread once a permit is free, and returns its result.
pub async fn run<T, F>(work: F) -> anyhow::Result<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let _permit = permits().acquire().await?;
    Ok(tokio::task::spawn_blocking(work).await?)
}

/// A small pool of its own for one kind of costly work (password hashing), so a flood of it
/// neither queues behind the other CPU work nor holds it up: `running` at once, `waiting`
/// more in line, and any beyond those turned away at once.
pub struct Pool {
    running: Semaphore,
    in_line: Semaphore,
}

impl Pool {
    /// A pool running `running` pieces of work at once with `waiting` more in line.
    pub const fn new(running: usize, waiting: usize) -> Self {
        Self { running: Semaphore::const_new(running), in_line: Semaphore::const_new(running + waiting) }
    }

    /// Runs `work` on a blocking thread; `None`, without running it, when the pool's line is
    /// full.
    pub async fn try_run<T, F>(&self, work: F) -> anyhow::Result<Option<T>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let Ok(_place) = self.in_line.try_acquire() else { return Ok(None) };
        let _permit = self.running.acquire().await?;
        Ok(Some(tokio::task::spawn_blocking(work).await?))
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

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_full_pool_turns_work_away_at_once() {
        static POOL: Pool = Pool::new(1, 2);
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
