//! The computer's thinking, off the async runtime: searches run on tokio's
//! blocking pool, at most `max_concurrent` at once (others wait their turn),
//! each with a stop flag. Engines are kept in a small pool per game and
//! level, so their tables are reused and never exceed one per running search.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
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
    engines: Mutex<EnginePool>,
    budget: Duration,
    options: EngineOptions,
}

impl Computer {
    pub fn new(max_concurrent: usize, budget: Duration, options: EngineOptions) -> Computer {
        Computer {
            inner: Arc::new(Inner {
                permits: Semaphore::new(max_concurrent.max(1)),
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
        let _permit = self.inner.permits.acquire().await.ok()?;
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
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
