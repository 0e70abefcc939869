//! `inarow bench store`: game records written per second and leaderboard
//! and profile query latency, on SQLite (a new temporary file unless
//! `--url` names one) or PostgreSQL (in a scratch schema dropped afterwards).

use std::process::ExitCode;

use crate::store::bench::{BenchReport, Latency, bench};

#[derive(Debug, clap::Args)]
pub struct BenchStoreArgs {
    /// The store: sqlite://NEW-FILE or postgres://USER@HOST:PORT/DB
    /// (default: a new SQLite file in a temporary folder).
    #[arg(long)]
    pub url: Option<String>,
    /// Game records to write.
    #[arg(long, default_value_t = 100_000)]
    pub games: usize,
    /// Games in flight at once (each waits for its answer).
    #[arg(long, default_value_t = 64)]
    pub concurrency: usize,
    /// Accounts to create first (players are drawn among them).
    #[arg(long, default_value_t = 10_000)]
    pub accounts: usize,
}

fn show(name: &str, l: &Latency) -> anyhow::Result<()> {
    outln!(
        "{name}: p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms ({} queries)",
        l.p50_ms,
        l.p99_ms,
        l.max_ms,
        l.samples
    );
    Ok(())
}

pub fn run(args: BenchStoreArgs) -> anyhow::Result<ExitCode> {
    let dir = tempfile_dir()?;
    let url = args
        .url
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", dir.join("bench.db").display()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let result = runtime.block_on(bench(&url, args.games, args.concurrency, args.accounts));
    let _ = std::fs::remove_dir_all(&dir);
    let r: BenchReport = result?;
    outln!("store: {}", r.store);
    outln!(
        "accounts: {} created, {:.0}/s",
        r.accounts,
        r.accounts_per_sec
    );
    outln!(
        "records: {} games in {:.2} s, {:.0} records/s (concurrency {}, {} not stored)",
        r.games,
        r.record_secs,
        r.records_per_sec,
        r.concurrency,
        r.not_stored
    );
    show("leaderboard", &r.leaderboard)?;
    show("profile", &r.profile)?;
    Ok(ExitCode::SUCCESS)
}

/// A new private folder under the system's temporary directory.
fn tempfile_dir() -> anyhow::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("inarow-bench-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
