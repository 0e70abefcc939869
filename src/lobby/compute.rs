//! The computer's thinking, off the async runtime: searches run on tokio's
//! blocking pool, at most `max_concurrent` at once (others wait their turn),
//! each with a stop flag. Engines are kept in a small pool per game and
//! level, so their tables are reused and never exceed one per running search.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::engine::{self, Engine, EngineOptions, Level, Limits};
use crate::game::{Move, Position, Rules};

type EnginePool = HashMap<(Rules, Level), Vec<Box<dyn Engine>>>;

/// A cheap-to-clone handle to the pool.
#[derive(Clone)]
pub struct Computer {
    inner: Arc<Inner>,
}

struct Inner {
    permits: Semaphore,
    /// Searches waiting for a permit, and running.
    waiting: AtomicUsize,
    running: AtomicUsize,
    engines: Mutex<EnginePool>,
    budget: Duration,
    options: EngineOptions,
}

/// One unit of a count, held (released when dropped, also when the future
/// holding it is dropped mid-wait).
struct Count<'a>(&'a AtomicUsize);

impl<'a> Count<'a> {
    fn new(n: &'a AtomicUsize) -> Count<'a> {
        n.fetch_add(1, Ordering::Relaxed);
        Count(n)
    }
}

impl Drop for Count<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Computer {
    /// One search at a time, 10 ms each, seeded, with a small table and
    /// no opening book: quick and the same every run (tests).
    #[cfg(test)]
    pub(crate) fn for_tests() -> Computer {
        Computer::new(
            1,
            Duration::from_millis(10),
            EngineOptions {
                seed: Some(1),
                connect4_book: None,
                connect4_table_mb: 1,
            },
        )
    }

    /// Searches waiting for their turn, and running.
    pub fn load(&self) -> (usize, usize) {
        (
            self.inner.waiting.load(Ordering::Relaxed),
            self.inner.running.load(Ordering::Relaxed),
        )
    }

    pub fn new(max_concurrent: usize, budget: Duration, options: EngineOptions) -> Computer {
        Computer {
            inner: Arc::new(Inner {
                permits: Semaphore::new(max_concurrent.max(1)),
                waiting: AtomicUsize::new(0),
                running: AtomicUsize::new(0),
                engines: Mutex::new(HashMap::new()),
                budget,
                options,
            }),
        }
    }

    /// Chooses a move for the side to move; `None` if the position is over,
    /// the search was stopped before it started, or the pool is gone.
    pub async fn think(
        &self,
        position: Position,
        level: Level,
        stop: Arc<AtomicBool>,
    ) -> Option<Move> {
        let _permit = {
            let _waiting = Count::new(&self.inner.waiting);
            self.inner.permits.acquire().await.ok()?
        };
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let _running = Count::new(&self.inner.running);
        let key = (*position.rules(), level);
        let mut engine = self
            .inner
            .engines
            .lock()
            .ok()
            .and_then(|mut pool| pool.get_mut(&key).and_then(Vec::pop))
            .unwrap_or_else(|| engine::engine_for(&key.0, level, &self.inner.options));
        let budget = self.inner.budget;
        let (engine, mv) = tokio::task::spawn_blocking(move || {
            let limits = Limits::new(budget);
            let mv = engine::choose_legal(engine.as_mut(), &position, &limits, &stop);
            (engine, mv)
        })
        .await
        .ok()?;
        if let Ok(mut pool) = self.inner.engines.lock() {
            pool.entry(key).or_default().push(engine);
        }
        mv
    }
}
