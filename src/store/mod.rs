//! The persistent store: accounts (keys, names, link codes), Glicko-2
//! ratings, every finished game, bans. SQLite (embedded, the default) or
//! PostgreSQL (shared by several hosts) through sqlx, with one body per
//! query: [`Db`] holds the native pool and [`with_pool!`] writes the same
//! code into both match arms, so every query compiles (and is tested)
//! against both drivers. Queries are built at run time (`sqlx::query`), so
//! building needs no database.
//!
//! * [`Store::open`]: connects, applies the embedded migrations, refuses a
//!   database newer than this binary.
//! * `accounts`, `games`, `admin`: the queries.
//! * [`Recorder`]: the writer task in front of the store, with its
//!   [`Journal`] for the times the store cannot be reached.
//! * [`bench`]: the store benchmark's core.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use thiserror::Error;

use crate::metrics::Metrics;

mod accounts;
mod admin;
mod analyses;
pub mod bench;
mod games;
mod journal;
mod migrate;
mod puzzles;
mod rating;
mod record;
/// A sample game record for tests elsewhere in the crate.
#[cfg(test)]
pub(crate) use record::tests::sample as sample_record;
mod recorder;
mod time;

/// A SQLite store in the folder `dir` whose dropped writes count in
/// `metrics` (tests elsewhere in the crate).
#[cfg(test)]
pub(crate) async fn scratch_counting(
    dir: &std::path::Path,
    metrics: &std::sync::Arc<crate::metrics::Metrics>,
) -> Store {
    Store::open(&format!("sqlite://{}", dir.join("s.db").display()))
        .await
        .unwrap()
        .counting_in(std::sync::Arc::clone(metrics))
}

pub use accounts::{
    Account, AccountError, KeyError, KeyInfo, LinkError, NameProblem, RenameError,
    normalize_link_code,
};
pub use admin::{BAN_TARGETS, BadBanTarget, Ban, BanTarget, UserInfo, account_target, ban_covers};
pub use analyses::{KeptAnalysis, MAX_ANALYSIS_LEN};
pub use games::{ExportFilter, LeaderEntry, Leaderboard, MAX_PAGE, Profile, Stored};
pub use journal::{Journal, JournalRead};
pub use migrate::SCHEMA_VERSION;
pub use puzzles::{Attempt, MAX_SKIPPED, NewPuzzle, PuzzleStanding, StoredPuzzle, day_start};
pub use rating::{RATING_PERIOD_MS, Rating, RatingChange, RatingInfo};
pub use record::{
    BadPoints, GameRecord, GameResult, InvalidRecord, MoveRecord, PlayerRecord, Reason, UnknownName,
};
pub use recorder::{Recorded, Recorder, RecorderOptions};
pub use time::{parse_day, rfc3339};

/// Something the store could not do.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The URL is neither `sqlite://...` nor `postgres://...`, or malformed.
    #[error("store URL {url}: {message}")]
    Url { url: String, message: String },
    /// Connecting or preparing the database failed.
    #[error("cannot open the store at {url}: {message}")]
    Open { url: String, message: String },
    /// No connection to the PostgreSQL server could be made at all.
    #[error("cannot reach PostgreSQL at {place}: {reason} (store URL {url})")]
    Unreachable {
        place: String,
        reason: String,
        url: String,
    },
    /// SQLite's `PRAGMA quick_check` found the file damaged.
    #[error(
        "the SQLite store {path} is damaged ({detail}): restore it from a backup, or move it away to start with an empty store"
    )]
    Damaged { path: String, detail: String },
    /// The database was migrated by a newer inarow.
    #[error(
        "store at {url}: database schema version {database} is newer than this binary ({binary})"
    )]
    SchemaTooNew {
        url: String,
        database: i64,
        binary: i64,
    },
    /// A query failed.
    #[error("store: {0}")]
    Db(#[from] sqlx::Error),
    /// A stored value does not read back (corrupt or hand-edited row).
    #[error("store: bad stored data: {0}")]
    Data(String),
    /// The request itself is invalid (too long, malformed).
    #[error("store: {0}")]
    Invalid(String),
    /// The store did not answer within the time a caller allows.
    #[error("store: no answer within {0:?}")]
    Stalled(Duration),
}

impl StoreError {
    /// Whether retrying later may succeed: the database is unreachable, timed
    /// out or busy, as opposed to a request it will always refuse.
    pub fn is_transient(&self) -> bool {
        match self {
            StoreError::Db(e) => match e {
                sqlx::Error::Database(d) => matches!(d.kind(), sqlx::error::ErrorKind::Other),
                sqlx::Error::ColumnDecode { .. }
                | sqlx::Error::ColumnNotFound(_)
                | sqlx::Error::ColumnIndexOutOfBounds { .. }
                | sqlx::Error::Decode(_)
                | sqlx::Error::TypeNotFound { .. }
                | sqlx::Error::RowNotFound => false,
                _ => true,
            },
            StoreError::Data(_)
            | StoreError::Invalid(_)
            | StoreError::Url { .. }
            | StoreError::Damaged { .. } => false,
            StoreError::Open { .. }
            | StoreError::Unreachable { .. }
            | StoreError::SchemaTooNew { .. }
            | StoreError::Stalled(_) => true,
        }
    }
}

/// The native pool of one backend.
#[derive(Clone, Debug)]
pub(crate) enum Db {
    Sqlite(SqlitePool),
    Pg(PgPool),
}

/// Runs the same body against whichever pool `$db` holds: `$p` is bound to
/// the `SqlitePool` in one arm and to the `PgPool` in the other.
macro_rules! with_pool {
    ($db:expr, $p:ident => $body:expr) => {
        match $db {
            $crate::store::Db::Sqlite($p) => $body,
            $crate::store::Db::Pg($p) => $body,
        }
    };
}
pub(crate) use with_pool;

/// How [`Store::open_with`] connects.
#[derive(Debug, Clone)]
pub struct StoreOptions {
    /// PostgreSQL: the schema every pooled connection works in
    /// (`search_path`); `None` leaves the server's default. Letters, digits
    /// and `_` only.
    pub pg_schema: Option<String>,
    /// PostgreSQL: connections in the pool.
    pub pg_connections: u32,
    /// SQLite: read-only connections beside the one writer.
    pub sqlite_readers: u32,
    /// How long a query waits for a free (or new) connection before the
    /// store counts as unreachable.
    pub acquire_timeout: Duration,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            pg_schema: None,
            pg_connections: 4,
            sqlite_readers: 3,
            acquire_timeout: Duration::from_secs(3),
        }
    }
}

/// An open store: cheap to clone (the pools are shared).
#[derive(Clone, Debug)]
pub struct Store {
    /// Writes (and reads that must see them in the same transaction).
    pub(crate) write: Db,
    /// Reads. The same pool as `write` on PostgreSQL.
    pub(crate) read: Db,
    /// The URL without its password, for messages.
    url: String,
    /// The SQLite file, if that is the backend.
    sqlite_path: Option<PathBuf>,
    /// Recent copies of each game's qualified ratings, for ranks.
    rank_cache: Arc<Mutex<HashMap<&'static str, games::RankCache>>>,
    /// SQLite: the connection that checkpoints the WAL in the background.
    checkpointer: Option<Arc<Checkpointer>>,
    /// Where writes given up are counted ([`Store::dropped`]): the
    /// host's metrics once [`Store::counting_in`] is called, else a set
    /// of the store's own.
    metrics: Arc<Metrics>,
}

/// Copies the SQLite write-ahead log back into the database file on a
/// connection (and so a thread) of its own, so that the writer's commits
/// never wait for a checkpoint: copying the log and syncing the database
/// file was a seventh of the writer's time under load, and every game
/// waiting for the writer waited for it too. The writer still checkpoints
/// past [`WRITER_CHECKPOINT_PAGES`], which then finds little left to copy.
#[derive(Debug)]
struct Checkpointer {
    pool: SqlitePool,
    stop: std::sync::atomic::AtomicBool,
}

/// How often the background checkpointer runs.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(100);
/// WAL pages (40 MiB) after which the writer checkpoints by itself, as
/// SQLite's own default does at 1,000: by then the background checkpointer
/// has copied nearly all of them, and the log starts afresh after it.
const WRITER_CHECKPOINT_PAGES: &str = "10000";

impl Checkpointer {
    /// Starts checkpointing every [`CHECKPOINT_EVERY`] until [`Store::close`],
    /// or until every clone of the store is dropped.
    fn start(pool: SqlitePool) -> Arc<Checkpointer> {
        let c = Arc::new(Checkpointer {
            pool,
            stop: std::sync::atomic::AtomicBool::new(false),
        });
        let weak = Arc::downgrade(&c);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(CHECKPOINT_EVERY).await;
                let Some(c) = weak.upgrade() else { break };
                if c.stop.load(std::sync::atomic::Ordering::Acquire) {
                    break;
                }
                if let Err(e) = c.checkpoint().await {
                    tracing::debug!(error = %e, "background checkpoint failed");
                }
            }
        });
        c
    }

    /// One round. PASSIVE copies what no reader still needs and never
    /// blocks the writer or the readers. Under a steady stream of commits
    /// it seldom catches up exactly between two of them, which is what lets
    /// the log start again from its beginning; the writer's own checkpoint
    /// past [`WRITER_CHECKPOINT_PAGES`] then finds only the last few pages
    /// left to copy, and its next commit starts the log afresh.
    async fn checkpoint(&self) -> Result<(), sqlx::Error> {
        sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn close(&self) {
        self.stop.store(true, std::sync::atomic::Ordering::Release);
        self.pool.close().await;
    }
}

/// Longest URL accepted (they come from the config file or a flag).
const MAX_URL_LEN: usize = 4096;

impl Store {
    /// Opens the store a URL names with the default options:
    /// `sqlite://PATH` (created with its folder when missing) or
    /// `postgres://USER@HOST:PORT/DB`.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_with(url, &StoreOptions::default()).await
    }

    /// [`Store::open`] on a PostgreSQL schema of its own (tests, benchmarks):
    /// every pooled connection's `search_path` is `schema`.
    pub async fn open_pg_schema(url: &str, schema: &str) -> Result<Store, StoreError> {
        let options = StoreOptions {
            pg_schema: Some(schema.to_string()),
            ..StoreOptions::default()
        };
        Store::open_with(url, &options).await
    }

    /// Opens the store with explicit options, then migrates it.
    pub async fn open_with(url: &str, options: &StoreOptions) -> Result<Store, StoreError> {
        let shown = redact_url(url);
        let url_error = |message: &str| StoreError::Url {
            url: shown.clone(),
            message: message.to_string(),
        };
        if url.len() > MAX_URL_LEN {
            return Err(url_error("too long"));
        }
        let open_error = |e: &dyn std::fmt::Display| StoreError::Open {
            url: shown.clone(),
            message: redact_message(&e.to_string(), url),
        };
        let store = if let Some(path) = url.strip_prefix("sqlite://") {
            let path = PathBuf::from(path.split('?').next().unwrap_or(path));
            if path.as_os_str().is_empty() {
                return Err(url_error("no file name (expected sqlite://PATH)"));
            }
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| open_error(&e))?;
            }
            let base = SqliteConnectOptions::new()
                .filename(&path)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(5))
                .journal_mode(SqliteJournalMode::Wal)
                // 64 MiB of page cache per connection (SQLite's default is
                // 2 MiB): the history and board indexes take writes all over.
                .pragma("cache_size", "-65536")
                // Pages read through a memory map instead of a read() per
                // page missing from the cache: a profile or a batch of
                // rating updates touches dozens of scattered pages.
                .pragma("mmap_size", "2147483648")
                // Statement journals (a multi-row insert that may have to
                // undo itself) in memory, not in a temporary file.
                .pragma("temp_store", "memory");
            let writer = SqlitePoolOptions::new()
                .test_before_acquire(false)
                .max_connections(1)
                .acquire_timeout(options.acquire_timeout)
                .connect_with(
                    base.clone()
                        .create_if_missing(true)
                        .synchronous(SqliteSynchronous::Full)
                        // Most of the copying is done by the checkpointer
                        // below, off the writer.
                        .pragma("wal_autocheckpoint", WRITER_CHECKPOINT_PAGES),
                )
                .await
                .map_err(|e| open_error(&e))?;
            quick_check(&writer, &path).await?;
            let checkpointer = SqlitePoolOptions::new()
                .test_before_acquire(false)
                .max_connections(1)
                .acquire_timeout(options.acquire_timeout)
                .connect_with(base.clone().synchronous(SqliteSynchronous::Full))
                .await
                .map_err(|e| open_error(&e))?;
            let reader = SqlitePoolOptions::new()
                // A file in this process cannot drop the connection: no
                // ping (a round trip to the connection's thread) before use.
                .test_before_acquire(false)
                .max_connections(options.sqlite_readers.max(1))
                .acquire_timeout(options.acquire_timeout)
                .connect_with(base.read_only(true))
                .await
                .map_err(|e| open_error(&e))?;
            Store {
                write: Db::Sqlite(writer),
                read: Db::Sqlite(reader),
                url: shown.clone(),
                sqlite_path: Some(path),
                rank_cache: Arc::default(),
                checkpointer: Some(Checkpointer::start(checkpointer)),
                metrics: Arc::default(),
            }
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let mut connect = PgConnectOptions::from_str(url).map_err(|e| open_error(&e))?;
            if let Some(schema) = &options.pg_schema {
                if schema.is_empty()
                    || schema.len() > 63
                    || !schema
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    return Err(url_error("schema name must be letters, digits and _"));
                }
                create_schema(&connect, schema, options.acquire_timeout)
                    .await
                    .map_err(|e| open_error(&format!("creating the schema {schema}: {e}")))?;
                connect = connect.options([("search_path", schema.as_str())]);
            }
            // Every query here is a short indexed one: compiling it (JIT,
            // which cost estimates from stale statistics can trigger) costs
            // far more than running it.
            connect = connect.options([("jit", "off")]);
            let pool = match PgPoolOptions::new()
                .max_connections(options.pg_connections.max(1))
                .acquire_timeout(options.acquire_timeout)
                .connect_with(connect.clone())
                .await
            {
                Ok(pool) => pool,
                // The pool only says it waited in vain: one connection of
                // our own says why.
                Err(sqlx::Error::PoolTimedOut) => {
                    return Err(pg_unreachable(&connect, options.acquire_timeout, url).await);
                }
                Err(e) => return Err(open_error(&e)),
            };
            Store {
                write: Db::Pg(pool.clone()),
                read: Db::Pg(pool),
                url: shown.clone(),
                sqlite_path: None,
                rank_cache: Arc::default(),
                checkpointer: None,
                metrics: Arc::default(),
            }
        } else {
            return Err(url_error("expected sqlite://PATH or postgres://..."));
        };
        store.migrate().await?;
        Ok(store)
    }

    /// This store with the writes it gives up counted in `metrics` (the
    /// host's, shown at `/metrics`).
    pub fn counting_in(mut self, metrics: Arc<Metrics>) -> Store {
        self.metrics = metrics;
        self
    }

    /// A write given up for good: counted in `inarow_dropped_total{what}`
    /// and logged (see [`Metrics::dropped`]). `what` is one of
    /// [`crate::metrics::dropped`].
    pub fn dropped(&self, what: &'static str, detail: impl std::fmt::Display) {
        self.metrics.dropped(what, detail);
    }

    /// The store's URL without any password.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The SQLite database file, when the store is SQLite.
    pub fn sqlite_path(&self) -> Option<&Path> {
        self.sqlite_path.as_deref()
    }

    /// Whether this is the PostgreSQL backend.
    pub fn is_postgres(&self) -> bool {
        matches!(self.write, Db::Pg(_))
    }

    /// Whether the store answers a trivial query now.
    pub async fn ping(&self) -> Result<(), StoreError> {
        with_pool!(&self.read, p => sqlx::query("SELECT 1").execute(p).await.map(|_| ()))?;
        Ok(())
    }

    /// Closes every pooled connection (waits for those in use).
    pub async fn close(&self) {
        if let Some(c) = &self.checkpointer {
            c.close().await;
        }
        for db in [&self.write, &self.read] {
            with_pool!(db, p => p.close().await);
        }
    }

    /// Refreshes the planner's statistics (and, on PostgreSQL, the
    /// visibility map that index-only scans need) after a bulk load.
    /// PostgreSQL's autovacuum does the same in time on its own.
    pub async fn analyze(&self) -> Result<(), StoreError> {
        match &self.write {
            Db::Sqlite(p) => {
                sqlx::query("ANALYZE").execute(p).await?;
            }
            Db::Pg(p) => {
                sqlx::query("VACUUM (ANALYZE) accounts, keys, ratings, games")
                    .execute(p)
                    .await?;
            }
        }
        Ok(())
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        migrate::run(&self.write, &self.url).await
    }
}

/// Whether `name` can be a PostgreSQL schema of inarow's: lower-case ASCII
/// letters, digits and `_`, not starting with a digit, at most 63 bytes, not
/// `pg_...` (kept for the system). Nothing that would need quoting.
pub fn valid_schema_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 63
        && !name.starts_with("pg_")
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Creates the schema `schema` when it is missing (several hosts starting
/// at once may race: the loser finds it made), on a connection of its own.
/// A server that cannot be reached is left to the pool to report.
async fn create_schema(
    connect: &PgConnectOptions,
    schema: &str,
    wait: Duration,
) -> Result<(), sqlx::Error> {
    use sqlx::{ConnectOptions, Connection};
    let Ok(Ok(mut conn)) = tokio::time::timeout(wait, connect.connect()).await else {
        // Not reachable, or refused: the pool opened next says why.
        return Ok(());
    };
    let mut result = Ok(());
    if !schema_exists(&mut conn, schema).await? {
        // The name was checked: letters, digits and _ only.
        let sql = format!("CREATE SCHEMA IF NOT EXISTS {schema}");
        if let Err(e) = sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&mut conn)
            .await
        {
            if !schema_exists(&mut conn, schema).await? {
                result = Err(e);
            } else {
                tracing::info!(schema, "store schema made by another host");
            }
        } else {
            tracing::info!(schema, "store schema created");
        }
    }
    // The work is done; a failed goodbye to the server changes nothing.
    let _ = conn.close().await;
    result
}

async fn schema_exists(conn: &mut sqlx::PgConnection, schema: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)")
        .bind(schema)
        .fetch_one(conn)
        .await
}

/// Why no connection to PostgreSQL could be made, from one attempt of its
/// own: "cannot reach PostgreSQL at HOST:PORT: connection refused" (never
/// the password).
async fn pg_unreachable(connect: &PgConnectOptions, wait: Duration, url: &str) -> StoreError {
    use sqlx::ConnectOptions;
    let host = connect.get_host();
    let place = if host.starts_with('/') {
        format!("{host} (port {})", connect.get_port())
    } else if host.contains(':') {
        format!("[{host}]:{}", connect.get_port())
    } else {
        format!("{host}:{}", connect.get_port())
    };
    let reason =
        match tokio::time::timeout(wait.max(Duration::from_secs(1)), connect.connect()).await {
            Err(_) => format!("no answer within {} s", wait.as_secs().max(1)),
            Ok(Ok(conn)) => {
                drop(conn);
                "the server accepted a connection only after the pool gave up: try again".into()
            }
            Ok(Err(sqlx::Error::Io(e))) => io_reason(&e),
            Ok(Err(e)) => e.to_string(),
        };
    StoreError::Unreachable {
        place,
        reason: redact_message(&reason, url),
        url: redact_url(url),
    }
}

/// An I/O error in a few plain words.
fn io_reason(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::ConnectionRefused => "connection refused".into(),
        ErrorKind::ConnectionReset => "connection reset".into(),
        ErrorKind::TimedOut => "timed out".into(),
        ErrorKind::HostUnreachable => "host unreachable".into(),
        ErrorKind::NetworkUnreachable => "network unreachable".into(),
        ErrorKind::NotFound => "no such socket".into(),
        ErrorKind::PermissionDenied => "permission denied".into(),
        _ => {
            let text = e.to_string();
            // "failed to lookup address information: Name or service not known (os error -2)"
            match text.split_once(" (os error") {
                Some((head, _)) => head.to_string(),
                None => text,
            }
        }
    }
}

/// Refuses a damaged SQLite file (`PRAGMA quick_check`: the structure of
/// every page, in a time linear in the file's size), before anything is
/// written to it. A file too damaged to be read at all fails here too.
async fn quick_check(writer: &SqlitePool, path: &Path) -> Result<(), StoreError> {
    let damaged = |detail: String| StoreError::Damaged {
        path: path.display().to_string(),
        detail: crate::text::sanitize(&detail, 300),
    };
    let rows: Vec<String> = sqlx::query_scalar("PRAGMA quick_check(3)")
        .fetch_all(writer)
        .await
        .map_err(|e| damaged(e.to_string()))?;
    if rows.len() == 1 && rows[0] == "ok" {
        Ok(())
    } else {
        Err(damaged(format!("quick_check: {}", rows.join("; "))))
    }
}

/// The URL with any password replaced by `***`, for messages and logs.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    // The authority ends at the first '/', '?' or '#'; credentials end at its last '@'.
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let mut out = format!("{scheme}://");
    if let Some((userinfo, host)) = authority.rsplit_once('@') {
        match userinfo.split_once(':') {
            Some((user, _password)) => out.push_str(&format!("{user}:***@{host}")),
            None => out.push_str(&format!("{userinfo}@{host}")),
        }
    } else {
        out.push_str(authority);
    }
    // A password may also come as a query parameter.
    match tail.split_once('?') {
        Some((path, query)) => {
            out.push_str(path);
            out.push('?');
            let params: Vec<String> = query
                .split('&')
                .map(|kv| match kv.split_once('=') {
                    Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                    _ => kv.to_string(),
                })
                .collect();
            out.push_str(&params.join("&"));
        }
        None => out.push_str(tail),
    }
    out
}

/// A driver message with the URL's password (if it appears) blanked.
fn redact_message(message: &str, url: &str) -> String {
    let password = url
        .split_once("://")
        .and_then(|(_, rest)| rest.split(['/', '?', '#']).next())
        .and_then(|auth| auth.rsplit_once('@'))
        .and_then(|(userinfo, _)| userinfo.split_once(':'))
        .map(|(_, p)| p)
        .filter(|p| !p.is_empty());
    match password {
        Some(p) => message.replace(p, "***"),
        None => message.to_string(),
    }
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_show() {
        assert_eq!(
            redact_url("postgres://alice:s3cr%40t@db.example:5432/inarow"),
            "postgres://alice:***@db.example:5432/inarow"
        );
        assert_eq!(
            redact_url("postgres://root@127.0.0.1:5432/test"),
            "postgres://root@127.0.0.1:5432/test"
        );
        assert_eq!(
            redact_url("postgres://u@h/db?sslmode=require&password=hunter2"),
            "postgres://u@h/db?sslmode=require&password=***"
        );
        assert_eq!(
            redact_url("sqlite://var/inarow.db"),
            "sqlite://var/inarow.db"
        );
        assert_eq!(redact_url("not a url"), "not a url");
        // An '@' in the password: the host is after the last one.
        assert_eq!(redact_url("postgres://u:p@ss@h/d"), "postgres://u:***@h/d");
        assert_eq!(
            redact_message(
                "password authentication failed: hunter2",
                "postgres://u:hunter2@h/d"
            ),
            "password authentication failed: ***"
        );
    }

    /// The writer's commits reach the database file without the writer
    /// checkpointing (it would only at 10,000 log pages): the background
    /// checkpointer copies them, and stops when the store is closed.
    #[tokio::test]
    async fn sqlite_commits_are_checkpointed_in_the_background() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.db");
        let store = Store::open(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        let file_pages = || std::fs::metadata(&path).map_or(0, |m| m.len()) / 4096;
        for i in 0..300 {
            store
                .create_account(&format!("SHA256:k{i}"), &format!("p{i}"), 0)
                .await
                .unwrap();
        }
        let pages = || async {
            with_pool!(&store.read, p => sqlx::query_scalar::<_, i64>("PRAGMA page_count")
                .fetch_one(p)
                .await
                .unwrap())
        };
        let wanted = u64::try_from(pages().await).unwrap();
        assert!(wanted > 20, "{wanted} pages");
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while file_pages() < wanted {
            assert!(
                std::time::Instant::now() < deadline,
                "the database file has {} of {wanted} pages: nothing checkpointed",
                file_pages()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        store.close().await;
        assert!(store.checkpointer.as_ref().unwrap().pool.is_closed());
    }

    #[tokio::test]
    async fn a_bad_url_is_refused_by_name() {
        let e = Store::open("mysql://u:pw@h/d").await.unwrap_err();
        let text = e.to_string();
        assert!(text.contains("mysql://u:***@h/d"), "{text}");
        assert!(!text.contains("pw"), "{text}");
    }
}
