//! The writer in front of the store: games are submitted to a bounded
//! queue (never waiting), one task takes them in batches and stores each
//! batch in one transaction. While the store cannot be reached the batches
//! go to the [`Journal`] instead, and the journal is replayed — in order,
//! before anything newer — when the store answers again (and at start).
//! A full queue also spills to the journal, so a game never waits.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::{GameRecord, Journal, Store, StoreError, Stored};
use crate::metrics::dropped::GAME_RECORD;

/// What became of one submitted game.
#[derive(Debug, Clone, PartialEq)]
pub enum Recorded {
    /// In the store (new, with its rating change if rated; or stored before).
    Stored(Stored),
    /// Safe in the journal; it reaches the store later (ratings move then).
    Journaled,
    /// Neither: the record is invalid, or the journal could not be written.
    Failed(String),
}

/// Settings of a [`Recorder`].
#[derive(Debug, Clone)]
pub struct RecorderOptions {
    /// Games the queue holds before submissions spill to the journal.
    pub queue: usize,
    /// Most games stored in one transaction.
    pub batch: usize,
    /// How often to try the store again while the journal is not empty.
    pub retry: Duration,
    /// How long one batch may take in the store before it counts as
    /// unreachable and the batch goes to the journal. A stalled store (a
    /// server that stops answering but keeps its connections open) must
    /// not keep a finished game from being durable: the room holds a
    /// game's end back until then, for at most two seconds.
    pub deadline: Duration,
}

impl Default for RecorderOptions {
    fn default() -> Self {
        RecorderOptions {
            queue: 4096,
            batch: 256,
            retry: Duration::from_secs(2),
            deadline: Duration::from_secs(1),
        }
    }
}

struct Job {
    record: GameRecord,
    reply: Option<oneshot::Sender<Recorded>>,
}

/// Handle to the writer task.
pub struct Recorder {
    /// `None` once closed: later games go straight to the journal.
    tx: std::sync::Mutex<Option<mpsc::Sender<Job>>>,
    journal: Arc<Journal>,
    /// Set when `submit` spilled to the journal: the writer replays it first.
    spilled: Arc<AtomicBool>,
    /// Where a game lost is counted.
    store: Store,
    task: tokio::sync::Mutex<Option<JoinHandle<()>>>,
}

impl Recorder {
    /// Starts the writer task for `store`, journaling to `journal`. The
    /// journal's leftovers from an earlier run are replayed first.
    pub fn start(store: Store, journal: Journal, options: RecorderOptions) -> Recorder {
        let (tx, rx) = mpsc::channel(options.queue.max(1));
        let journal = Arc::new(journal);
        let spilled = Arc::new(AtomicBool::new(false));
        let task = tokio::spawn(writer(
            store.clone(),
            journal.clone(),
            spilled.clone(),
            rx,
            options,
        ));
        Recorder {
            tx: std::sync::Mutex::new(Some(tx)),
            journal,
            spilled,
            store,
            task: tokio::sync::Mutex::new(Some(task)),
        }
    }

    /// The default journal path for a store URL: beside a SQLite file
    /// (`inarow.db` → `inarow.journal.jsonl`), else `var/journal.jsonl`,
    /// or `var/journal-<host>.jsonl` for host `host` of a cluster.
    pub fn default_journal_path(url: &str, host: Option<&str>) -> std::path::PathBuf {
        match (url.strip_prefix("sqlite://"), host) {
            (Some(path), _) if !path.is_empty() => {
                std::path::Path::new(path.split('?').next().unwrap_or(path))
                    .with_extension("journal.jsonl")
            }
            // Hosts of a cluster share the store, and may share a folder:
            // each keeps a journal of its own, so none replays another's.
            (_, Some(host)) => std::path::PathBuf::from(format!("var/journal-{host}.jsonl")),
            _ => std::path::PathBuf::from("var/journal.jsonl"),
        }
    }

    /// Games waiting in the writer's queue.
    pub fn queued(&self) -> usize {
        match self.tx.lock() {
            Ok(tx) => tx
                .as_ref()
                .map_or(0, |tx| tx.max_capacity() - tx.capacity()),
            Err(_) => 0,
        }
    }

    /// Games waiting in the journal for the store.
    pub fn journaled(&self) -> std::io::Result<usize> {
        self.journal.count()
    }

    /// Hands a finished game to the writer without waiting. The answer
    /// comes on the returned receiver (drop it if nobody needs it).
    pub fn submit(&self, record: GameRecord) -> oneshot::Receiver<Recorded> {
        let (reply, answer) = oneshot::channel();
        if let Err(e) = record.validate() {
            lost(&self.store, &record, format_args!("invalid record: {e}"));
            tell(Some(reply), Recorded::Failed(e.to_string()));
            return answer;
        }
        let job = Job {
            record,
            reply: Some(reply),
        };
        let sent = match self.tx.lock() {
            Ok(tx) => match tx.as_ref() {
                Some(tx) => tx.try_send(job),
                None => Err(mpsc::error::TrySendError::Closed(job)),
            },
            Err(_) => Err(mpsc::error::TrySendError::Closed(job)),
        };
        if let Err(e) = sent {
            // Queue full or writer gone: the journal keeps it (a small
            // synchronous append; the writer replays it in order later).
            let job = match e {
                mpsc::error::TrySendError::Full(j) | mpsc::error::TrySendError::Closed(j) => j,
            };
            let outcome = match self.journal.append(std::slice::from_ref(&job.record)) {
                Ok(()) => {
                    self.spilled.store(true, Ordering::Release);
                    Recorded::Journaled
                }
                Err(e) => {
                    lost(
                        &self.store,
                        &job.record,
                        format_args!("queue full and journal not writable: {e}"),
                    );
                    Recorded::Failed(format!("journal: {e}"))
                }
            };
            tell(job.reply, outcome);
        }
        answer
    }

    /// Stops taking games, stores (or journals) everything queued, and waits
    /// for the writer to finish.
    pub async fn shutdown(self) {
        self.close().await;
    }

    /// [`Recorder::shutdown`] through a shared handle: games submitted
    /// after it go straight to the journal.
    pub async fn close(&self) {
        if let Ok(mut tx) = self.tx.lock() {
            tx.take();
        }
        if let Some(task) = self.task.lock().await.take()
            && let Err(e) = task.await
        {
            // What it held is in the journal unless it was lost (counted).
            tracing::error!(error = %e, "the store writer stopped abnormally");
        }
    }
}

/// Gives `outcome` to whoever waits for it. A caller that stopped
/// waiting dropped its receiver: nothing is lost by not telling it.
fn tell(reply: Option<oneshot::Sender<Recorded>>, outcome: Recorded) {
    if let Some(reply) = reply {
        let _ = reply.send(outcome);
    }
}

/// A game given up: counted and logged (rate-limited) as a record dropped.
fn lost(store: &Store, record: &GameRecord, why: std::fmt::Arguments<'_>) {
    store.dropped(
        GAME_RECORD,
        format_args!(
            "game {} not recorded: {why}",
            crate::text::sanitize_quote(&record.id, 40)
        ),
    );
}

/// Appends on the blocking pool.
async fn journal_append(journal: &Arc<Journal>, records: Vec<GameRecord>) -> std::io::Result<()> {
    let j = journal.clone();
    tokio::task::spawn_blocking(move || j.append(&records))
        .await
        .unwrap_or_else(|e| Err(std::io::Error::other(e.to_string())))
}

/// `work`, or a transient error once `deadline` has passed. What the
/// store did with an abandoned batch does not matter: every record is
/// stored by its id at most once, so the journal's copy is replayed safely.
async fn within<T>(
    deadline: Duration,
    work: impl std::future::Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    tokio::time::timeout(deadline, work)
        .await
        .unwrap_or_else(|_| Err(StoreError::Stalled(deadline)))
}

/// Replays the journal into the store. `Ok(true)`: it is empty now.
/// `Ok(false)`: the store failed (transiently); nothing lost.
async fn replay(store: &Store, journal: &Arc<Journal>, batch: usize, deadline: Duration) -> bool {
    loop {
        let j = journal.clone();
        let read = match tokio::task::spawn_blocking(move || j.read()).await {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => {
                tracing::error!(error = %e, "cannot read the journal");
                return false;
            }
            Err(_) => return false,
        };
        if read.len == 0 {
            return true;
        }
        for chunk in read.records.chunks(batch.max(1)) {
            match within(deadline, store.record_games(chunk)).await {
                Ok(_) => {}
                Err(e) if e.is_transient() => {
                    tracing::warn!(error = %e, "store unreachable; journal kept");
                    return false;
                }
                Err(e) => {
                    // Refused for good (should not happen: records were
                    // validated). Store the rest one by one; drop the bad one.
                    tracing::error!(error = %e, "journal batch refused; storing one by one");
                    for r in chunk {
                        match within(deadline, store.record_games(std::slice::from_ref(r))).await {
                            Ok(_) => {}
                            Err(e) if e.is_transient() => return false,
                            Err(e) => lost(
                                store,
                                r,
                                format_args!("journaled, then refused by the store: {e}"),
                            ),
                        }
                    }
                }
            }
        }
        let j = journal.clone();
        let len = read.len;
        if let Err(e) = tokio::task::spawn_blocking(move || j.consume(len))
            .await
            .unwrap_or_else(|e| Err(std::io::Error::other(e.to_string())))
        {
            // Replayed again later: idempotent.
            tracing::error!(error = %e, "cannot truncate the journal");
            return false;
        }
        // The lines that did not read back are gone with the rest now.
        for _ in 0..read.skipped {
            store.dropped(
                GAME_RECORD,
                "a journal line skipped (torn or invalid) and removed",
            );
        }
    }
}

async fn writer(
    store: Store,
    journal: Arc<Journal>,
    spilled: Arc<AtomicBool>,
    mut rx: mpsc::Receiver<Job>,
    options: RecorderOptions,
) {
    let batch = options.batch.max(1);
    let mut pending = !replay(&store, &journal, batch, options.deadline).await;
    let mut jobs = Vec::with_capacity(batch);
    loop {
        jobs.clear();
        let n = if pending {
            tokio::select! {
                n = rx.recv_many(&mut jobs, batch) => n,
                _ = tokio::time::sleep(options.retry) => {
                    pending = !replay(&store, &journal, batch, options.deadline).await;
                    continue;
                }
            }
        } else {
            rx.recv_many(&mut jobs, batch).await
        };
        if n == 0 {
            break; // every sender gone and the queue drained
        }
        if spilled.swap(false, Ordering::AcqRel) {
            pending = true;
        }
        if pending {
            pending = !replay(&store, &journal, batch, options.deadline).await;
        }
        let records: Vec<GameRecord> = jobs.iter().map(|j| j.record.clone()).collect();
        let outcome: Result<Vec<Stored>, StoreError> = if pending {
            Err(StoreError::Invalid("journal not yet replayed".into()))
        } else {
            within(options.deadline, store.record_games(&records)).await
        };
        match outcome {
            Ok(stored) => {
                for (job, s) in jobs.drain(..).zip(stored) {
                    tell(job.reply, Recorded::Stored(s));
                }
            }
            Err(e) if pending || e.is_transient() => {
                if !pending {
                    tracing::warn!(error = %e, games = n, "store unreachable; journaling");
                }
                let answer = match journal_append(&journal, records).await {
                    Ok(()) => Recorded::Journaled,
                    Err(e) => {
                        for job in &jobs {
                            lost(
                                &store,
                                &job.record,
                                format_args!("store unreachable and journal not writable: {e}"),
                            );
                        }
                        Recorded::Failed(format!("journal: {e}"))
                    }
                };
                pending = true;
                for job in jobs.drain(..) {
                    tell(job.reply, answer.clone());
                }
            }
            Err(_) => {
                // One bad record refused the batch: one by one.
                for job in jobs.drain(..) {
                    let answer = match within(
                        options.deadline,
                        store.record_games(std::slice::from_ref(&job.record)),
                    )
                    .await
                    {
                        Ok(mut s) => Recorded::Stored(s.pop().unwrap_or(Stored::Duplicate)),
                        Err(e) if e.is_transient() => {
                            match journal_append(&journal, vec![job.record.clone()]).await {
                                Ok(()) => {
                                    pending = true;
                                    Recorded::Journaled
                                }
                                Err(e) => {
                                    lost(
                                        &store,
                                        &job.record,
                                        format_args!(
                                            "store unreachable and journal not writable: {e}"
                                        ),
                                    );
                                    Recorded::Failed(format!("journal: {e}"))
                                }
                            }
                        }
                        Err(e) => {
                            lost(
                                &store,
                                &job.record,
                                format_args!("refused by the store: {e}"),
                            );
                            Recorded::Failed(e.to_string())
                        }
                    };
                    tell(job.reply, answer);
                }
            }
        }
    }
    if pending || spilled.load(Ordering::Acquire) {
        // Last chance before exit; what stays is replayed at the next start.
        replay(&store, &journal, batch, options.deadline).await;
    }
}

#[cfg(test)]
mod tests {
    use super::{Recorded, Recorder, RecorderOptions};
    use crate::metrics::Metrics;
    use crate::store::{Journal, sample_record};
    use std::path::PathBuf;
    use std::sync::Arc;

    /// A game neither the store nor the journal takes is counted where
    /// operators look: `/metrics` shows it (and the log says it).
    #[tokio::test]
    async fn a_game_lost_shows_in_the_metrics() {
        let dir = tempfile::tempdir().unwrap();
        let metrics = Arc::new(Metrics::new());
        let store = crate::store::scratch_counting(dir.path(), &metrics).await;
        // The journal's folder is a file: no append can succeed.
        let blocker = dir.path().join("not-a-folder");
        std::fs::write(&blocker, b"").unwrap();
        let journal = Journal::new(blocker.join("journal.jsonl"));
        let recorder = Recorder::start(store.clone(), journal, RecorderOptions::default());
        let before = metrics.encode();
        assert!(
            before.contains("inarow_dropped_total{what=\"game_record\"} 0\n"),
            "{before}"
        );
        // Closed: a game goes straight to the journal, which fails.
        recorder.close().await;
        let answer = recorder.submit(sample_record()).await.unwrap();
        assert!(matches!(answer, Recorded::Failed(_)), "{answer:?}");
        // So does an invalid one, refused before anything is tried.
        let mut bad = sample_record();
        bad.first = 7;
        let answer = recorder.submit(bad).await.unwrap();
        assert!(matches!(answer, Recorded::Failed(_)), "{answer:?}");
        let text = metrics.encode();
        assert!(
            text.contains("inarow_dropped_total{what=\"game_record\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("inarow_dropped_total{what=\"store_write\"} 0\n"),
            "{text}"
        );
        store.close().await;
    }

    #[test]
    fn each_host_of_a_cluster_keeps_a_journal_of_its_own() {
        let pg = "postgres://root@127.0.0.1/test";
        assert_eq!(
            Recorder::default_journal_path(pg, None),
            PathBuf::from("var/journal.jsonl")
        );
        assert_eq!(
            Recorder::default_journal_path(pg, Some("a")),
            PathBuf::from("var/journal-a.jsonl")
        );
        assert_ne!(
            Recorder::default_journal_path(pg, Some("a")),
            Recorder::default_journal_path(pg, Some("b"))
        );
        assert_eq!(
            Recorder::default_journal_path("sqlite://data/inarow.db?mode=rwc", Some("a")),
            PathBuf::from("data/inarow.journal.jsonl")
        );
    }
}
