//! The store benchmark's core (`inarow bench store`): creates accounts,
//! writes games through the real record path (the [`Recorder`]: bounded
//! queue, batched transactions, rating updates), then times the leaderboard
//! and profile queries. PostgreSQL runs in a scratch schema dropped
//! afterwards; SQLite wants a file that does not exist yet.

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::RngExt;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{AssertSqlSafe, Executor};

use super::{
    GameRecord, GameResult, Journal, MoveRecord, PlayerRecord, Reason, Recorded, Recorder,
    RecorderOptions, Store, StoreError, StoreOptions, now_ms,
};
use crate::game::GameKind;

/// Query latency figures, in milliseconds.
#[derive(Debug, Clone, Default)]
pub struct Latency {
    pub samples: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

/// What one benchmark run measured.
#[derive(Debug, Clone, Default)]
pub struct BenchReport {
    /// The store's URL (no password), with the PostgreSQL schema used.
    pub store: String,
    pub accounts: usize,
    pub games: usize,
    pub concurrency: usize,
    pub accounts_per_sec: f64,
    /// Game records stored per second through the recorder.
    pub records_per_sec: f64,
    pub record_secs: f64,
    /// Records the recorder journaled or failed instead of storing.
    pub not_stored: usize,
    pub leaderboard: Latency,
    pub profile: Latency,
}

/// Samples per query kind.
const SAMPLES: usize = 2000;

fn latency(mut samples: Vec<Duration>) -> Latency {
    samples.sort();
    let at = |q: f64| {
        samples
            .get(((samples.len() as f64 * q).ceil() as usize).saturating_sub(1))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    Latency {
        samples: samples.len(),
        p50_ms: at(0.50),
        p99_ms: at(0.99),
        max_ms: samples.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0),
    }
}

/// A plausible finished game between two accounts (rated, standard board).
fn random_game(rng: &mut impl RngExt, ids: &[(String, String)], t: i64) -> GameRecord {
    let a = rng.random_range(0..ids.len());
    let mut b = rng.random_range(0..ids.len() - 1);
    if b >= a {
        b += 1;
    }
    let gomoku = rng.random_range(0..10) == 0;
    let (kind, w, h, k) = if gomoku {
        (GameKind::Gomoku, 15u8, 15u8, 5u8)
    } else {
        (GameKind::ConnectFour, 7, 6, 4)
    };
    let plies = rng.random_range(7..30usize);
    let moves = (0..plies)
        .map(|i| MoveRecord {
            x: rng.random_range(0..w),
            y: rng.random_range(0..h),
            ms: (i as u64 + 1) * 1500,
        })
        .collect();
    let roll = rng.random_range(0..20);
    let (result, winner, reason) = match roll {
        0 => (GameResult::Draw, None, Reason::Draw),
        1..=9 => (GameResult::Win, Some(0), Reason::Line),
        _ => (GameResult::Win, Some(1), Reason::Line),
    };
    let seat =
        |(id, name): &(String, String), colour: &str| PlayerRecord::person(name, Some(id), colour);
    GameRecord {
        id: GameRecord::new_id(),
        game: kind,
        width: w,
        height: h,
        k,
        rule: "freestyle".into(),
        rated: true,
        started_ms: t - plies as i64 * 1500,
        ended_ms: t,
        first: 0,
        players: [seat(&ids[a], "red"), seat(&ids[b], "yellow")],
        result,
        winner,
        reason,
        line: if winner.is_some() {
            (0..k).map(|i| (i, 0)).collect()
        } else {
            Vec::new()
        },
        moves,
    }
}

/// Runs the benchmark against the store `url` names.
pub async fn bench(
    url: &str,
    games: usize,
    concurrency: usize,
    accounts: usize,
) -> Result<BenchReport, StoreError> {
    let accounts = accounts.max(2);
    let concurrency = concurrency.max(1);
    let mut options = StoreOptions::default();
    let mut scratch = None;
    if url.starts_with("postgres") {
        let connect = PgConnectOptions::from_str(url).map_err(StoreError::Db)?;
        let admin = PgPoolOptions::new()
            .max_connections(1)
            .connect_with(connect)
            .await?;
        let schema = format!("bench_{}", uuid::Uuid::now_v7().simple());
        admin
            .execute(AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
            .await?;
        options.pg_schema = Some(schema.clone());
        scratch = Some((admin, schema));
    } else if let Some(path) = url.strip_prefix("sqlite://")
        && std::path::Path::new(path).exists()
    {
        return Err(StoreError::Invalid(format!(
            "{path} exists: the benchmark writes throwaway data, give it a new file"
        )));
    }
    let result = run(url, &options, games, concurrency, accounts).await;
    if let Some((admin, schema)) = scratch {
        admin
            .execute(AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
            .await?;
    }
    let mut report = result?;
    if let Some(schema) = options.pg_schema {
        report.store = format!("{} (schema {schema}, dropped)", report.store);
    }
    Ok(report)
}

async fn run(
    url: &str,
    options: &StoreOptions,
    games: usize,
    concurrency: usize,
    accounts: usize,
) -> Result<BenchReport, StoreError> {
    let store = Store::open_with(url, options).await?;
    let now = now_ms();

    // Accounts, `concurrency` at a time.
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..concurrency.min(accounts) {
        let (store, next) = (store.clone(), next.clone());
        tasks.push(tokio::spawn(async move {
            let mut made = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= accounts {
                    return Ok::<_, StoreError>(made);
                }
                let name = format!("bench{i}");
                let a = store
                    .create_account(&format!("SHA256:bench{i}"), &name, now)
                    .await
                    .map_err(|e| StoreError::Invalid(format!("account {i}: {e}")))?;
                made.push((a.id, a.name));
            }
        }));
    }
    let mut ids = Vec::with_capacity(accounts);
    for t in tasks {
        ids.extend(t.await.map_err(|e| StoreError::Invalid(e.to_string()))??);
    }
    let accounts_per_sec = accounts as f64 / started.elapsed().as_secs_f64();
    let ids = Arc::new(ids);

    // Games through the recorder, `concurrency` producers each waiting for
    // its answer before the next game.
    let dir = std::env::temp_dir().join(format!("inarow-bench-{}", uuid::Uuid::now_v7().simple()));
    let journal_path = dir.join("journal.jsonl");
    let recorder = Arc::new(Recorder::start(
        store.clone(),
        Journal::new(&journal_path),
        RecorderOptions::default(),
    ));
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let not_stored = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for worker in 0..concurrency {
        let (recorder, ids, next, not_stored) = (
            recorder.clone(),
            ids.clone(),
            next.clone(),
            not_stored.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let mut rng = crate::rng::make_rng(Some(worker as u64));
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let g = random_game(&mut rng, &ids, now + i as i64 * 10);
                match recorder.submit(g).await {
                    Ok(Recorded::Stored(_)) => {}
                    _ => {
                        not_stored.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }));
    }
    for t in tasks {
        // A task that failed shows in the figures (fewer games recorded).
        let _ = t.await;
    }
    let record_secs = started.elapsed().as_secs_f64();
    if let Ok(recorder) = Arc::try_unwrap(recorder) {
        recorder.shutdown().await;
    }
    // Cleaning up the benchmark's scratch folder: best effort.
    let _ = std::fs::remove_dir_all(&dir);
    // What autovacuum would have done by now on a live host.
    store.analyze().await?;

    // Queries, one at a time, for random accounts.
    let mut rng = crate::rng::make_rng(Some(7));
    let until = now + games as i64 * 10;
    let mut board = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let me = &ids[rng.random_range(0..ids.len())].0;
        let t = Instant::now();
        store
            .leaderboard(GameKind::ConnectFour, Some(me), until)
            .await?;
        board.push(t.elapsed());
    }
    let mut profile = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let me = &ids[rng.random_range(0..ids.len())].0;
        let t = Instant::now();
        store.profile(me, until).await?;
        profile.push(t.elapsed());
    }
    store.close().await;
    Ok(BenchReport {
        store: store.url().to_string(),
        accounts,
        games,
        concurrency,
        accounts_per_sec,
        records_per_sec: games as f64 / record_secs,
        record_secs,
        not_stored: not_stored.load(Ordering::Relaxed),
        leaderboard: latency(board),
        profile: latency(profile),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_small_run_stores_every_game() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("bench.db").display());
        let r = bench(&url, 300, 8, 20).await.unwrap();
        assert_eq!((r.games, r.accounts, r.not_stored), (300, 20, 0));
        assert!(r.records_per_sec > 0.0 && r.leaderboard.samples == SAMPLES);
        assert!(r.profile.p50_ms <= r.profile.p99_ms);
        // The file now exists: a second run refuses to write into it.
        assert!(bench(&url, 1, 1, 2).await.is_err());
        let store = Store::open(&url).await.unwrap();
        assert_eq!(
            store
                .export(&crate::store::ExportFilter {
                    limit: 1000,
                    ..Default::default()
                })
                .await
                .unwrap()
                .len(),
            300
        );
    }
}
