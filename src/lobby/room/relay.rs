//! Passing a table's state on to its watchers a few at a time.
//!
//! The two players follow the room's state directly. Watchers may be
//! hundreds: woken all at once by one move, their redraws would queue ahead
//! of every other session's key presses on every core for as long as they
//! all take. The relay wakes them in batches of [`BATCH`] and yields to the
//! rest of the host between batches, so a key press that arrives meanwhile
//! waits for one batch, not for all of them. A watcher still behind when
//! the next change comes gets only the newest state (each has its own
//! `watch` channel).

use std::sync::{Arc, Mutex};

use tokio::sync::watch;

/// Watchers woken between two yields.
pub const BATCH: usize = 32;

/// The room's end of its watchers' channels.
pub struct Relay<T> {
    watchers: Arc<Mutex<Vec<watch::Sender<T>>>>,
}

impl<T: Clone + Send + Sync + 'static> Relay<T> {
    /// Starts relaying what `source` publishes. The relay ends when the
    /// source's sender is dropped (after passing on its last value); the
    /// watchers' channels then close.
    pub fn start(source: watch::Receiver<T>) -> Relay<T> {
        let watchers = Arc::new(Mutex::new(Vec::new()));
        tokio::spawn(run(source, Arc::clone(&watchers)));
        Relay { watchers }
    }

    /// A new watcher's channel, starting from `current` (the source's value
    /// now: it counts as seen).
    pub fn subscribe(&self, current: T) -> watch::Receiver<T> {
        let (tx, rx) = watch::channel(current);
        lock(&self.watchers).push(tx);
        rx
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

async fn run<T: Clone>(
    mut source: watch::Receiver<T>,
    watchers: Arc<Mutex<Vec<watch::Sender<T>>>>,
) {
    while source.changed().await.is_ok() {
        // The list before the value: a watcher that joins after this point
        // started from a value at least as new, and is not sent an older one.
        let list: Vec<watch::Sender<T>> = {
            let mut w = lock(&watchers);
            w.retain(|tx| !tx.is_closed());
            w.clone()
        };
        let value = source.borrow_and_update().clone();
        for (i, tx) in list.iter().enumerate() {
            if i > 0 && i % BATCH == 0 {
                tokio::task::yield_now().await;
            }
            tx.send_replace(value.clone());
        }
    }
    // The room is gone: dropping the senders tells every watcher.
    lock(&watchers).clear();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    /// Watchers that count the values they see until their channel closes.
    fn watchers(
        relay: &Relay<u32>,
        n: usize,
        seen: &Arc<AtomicUsize>,
    ) -> Vec<tokio::task::JoinHandle<u32>> {
        (0..n)
            .map(|_| {
                let mut rx = relay.subscribe(0);
                let seen = Arc::clone(seen);
                tokio::spawn(async move {
                    while rx.changed().await.is_ok() {
                        seen.fetch_add(1, Ordering::SeqCst);
                    }
                    *rx.borrow()
                })
            })
            .collect()
    }

    #[test]
    fn watchers_are_woken_a_batch_at_a_time_and_all_get_the_last_value() {
        runtime().block_on(async {
            let (tx, rx) = watch::channel(0u32);
            let relay = Relay::start(rx);
            let seen = Arc::new(AtomicUsize::new(0));
            let n = 4 * BATCH + 3;
            let tasks = watchers(&relay, n, &seen);
            tokio::task::yield_now().await;
            tx.send_replace(1);
            // Between two turns of this task, at most one batch of
            // watchers has run: other work gets in between.
            let mut steps = Vec::new();
            let mut last = 0;
            while last < n {
                tokio::task::yield_now().await;
                let now = seen.load(Ordering::SeqCst);
                steps.push(now - last);
                last = now;
            }
            assert!(steps.iter().all(|&s| s <= BATCH), "steps {steps:?}");
            assert!(
                steps.iter().filter(|&&s| s > 0).count() >= 5,
                "steps {steps:?}"
            );
            // A value published while watchers are behind reaches them as
            // the newest only; the source's end closes every channel.
            tx.send_replace(2);
            tx.send_replace(3);
            drop(tx);
            for t in tasks {
                assert_eq!(t.await.unwrap(), 3);
            }
        });
    }

    #[test]
    fn a_watcher_that_left_is_forgotten_and_a_late_one_starts_from_now() {
        runtime().block_on(async {
            let (tx, rx) = watch::channel(0u32);
            let relay = Relay::start(rx);
            let gone = relay.subscribe(0);
            drop(gone);
            tx.send_replace(5);
            tokio::task::yield_now().await;
            assert_eq!(lock(&relay.watchers).len(), 0);
            let mut late = relay.subscribe(*tx.borrow());
            assert!(!late.has_changed().unwrap());
            tx.send_replace(6);
            late.changed().await.unwrap();
            assert_eq!(*late.borrow(), 6);
        });
    }
}
