//! `inarow bench failover`: the cluster's fault matrix, run for real.
//!
//! Each case of each run starts its own hosts (this binary, `serve`, as
//! child processes) in cluster mode on a bucket prefix of its own (removed
//! afterwards), all on one PostgreSQL scratch schema (created at the start,
//! dropped at the end). Two players with ed25519 keys of their own (each
//! key an account) take a Connect Four quick match on two different hosts,
//! play four moves (the first player column a, the second column b), then
//! the case's fault is injected, the players reconnect as the case says
//! and the game is played to its end (the first player's four in column
//! a). After each run: the game is recorded once and whole, no account
//! keeps two live sessions, the clocks did not go up across the fault, no
//! seat waits for a player who is back.
//!
//! Cases: (1) the table's host is killed (SIGKILL); (2) a visitor's host is
//! killed; (3) the table's host restarts (SIGTERM, started again); (4) one
//! key signs in on two hosts while seeking; (5) the table's host is paused
//! (SIGSTOP) longer than its lease, then resumed; (6) NATS restarts: the
//! run's own `nats-server` (started by the bench on a free port) is
//! stopped for 10 s and started again; (7) PostgreSQL is unreachable for
//! 10 s while the game ends (the hosts reach it through a proxy in the
//! bench that closes every connection and refuses new ones).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use cases::run_case;
use game::Outcome;

mod cases;
mod game;
mod hosts;
mod outages;
mod player;

#[derive(Debug, clap::Args)]
pub struct BenchFailoverArgs {
    /// Runs of each case (the table lands on either host, and either
    /// player seeks first, by turns).
    #[arg(long, default_value_t = 2)]
    pub runs: usize,
    /// Only these cases (1-7, comma-separated); all by default.
    #[arg(long, value_delimiter = ',')]
    pub cases: Vec<usize>,
    /// The NATS server (with JetStream) the hosts share.
    #[arg(long, default_value = "nats://127.0.0.1:4222")]
    pub nats_url: String,
    /// The PostgreSQL database in which a scratch schema is made for the run.
    #[arg(long, default_value = "postgres://root@127.0.0.1:5432/test")]
    pub pg_url: String,
    /// The NATS server program case 6 starts (and stops) for each run.
    #[arg(long, default_value = "nats-server")]
    pub nats_server: PathBuf,
}

/// The fault matrix's cases, numbered as in the table.
const CASES: [&str; 7] = [
    "1 table's host killed",
    "2 visitor's host killed",
    "3 rolling restart",
    "4 one key on two hosts",
    "5 table's host paused 11 s",
    "6 NATS down 10 s",
    "7 PostgreSQL down 10 s",
];

/// How long NATS (case 6) and PostgreSQL (case 7) are away.
const OUTAGE: Duration = Duration::from_secs(10);

/// How long a seat is held for a player who lost the connection.
const GRACE_SECS: u64 = 30;
/// The pause of case 5: longer than a room's lease (6 s) and a host's
/// heartbeat window (6 s).
const PAUSE: Duration = Duration::from_secs(11);
/// The status line on this player's turn, and on the other's.
const MY_TURN: &str = "Move: ";
const THEIR_TURN: &str = "Waiting for";
const WON: &str = "wins with (0|0) (0|1) (0|2) (0|3)";
const LOST_CONNECTION: &str = "lost the connection";
const SIGNED_IN_ELSEWHERE: &str = "signed in again on another host";
/// General limit on a screen showing what it should.
const WAIT: Duration = Duration::from_secs(15);
/// Limit on a finished game reaching the store.
const RECORD_WAIT: Duration = Duration::from_secs(10);
/// Limit on the game going on after a fault.
const RESUME_WAIT: Duration = Duration::from_secs(40);

/// A PostgreSQL schema for the run, dropped at the end.
struct PgSchema {
    admin: String,
    schema: String,
}

impl PgSchema {
    async fn create(admin: &str) -> anyhow::Result<PgSchema> {
        use sqlx::Executor;
        let schema = format!("failover_{}_{}", std::process::id(), crate::store::now_ms());
        let pool = sqlx::PgPool::connect(admin)
            .await
            .with_context(|| format!("PostgreSQL at {admin}"))?;
        pool.execute(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
            .await?;
        pool.close().await;
        Ok(PgSchema {
            admin: admin.to_string(),
            schema,
        })
    }

    fn url(&self) -> String {
        let sep = if self.admin.contains('?') { '&' } else { '?' };
        format!(
            "{}{sep}options=-c%20search_path%3D{}",
            self.admin, self.schema
        )
    }

    async fn drop_it(self) {
        use sqlx::Executor;
        if let Ok(pool) = sqlx::PgPool::connect(&self.admin).await {
            let _ = pool
                .execute(sqlx::AssertSqlSafe(format!(
                    "DROP SCHEMA IF EXISTS {} CASCADE",
                    self.schema
                )))
                .await;
            pool.close().await;
        }
    }
}

pub fn run(args: BenchFailoverArgs) -> anyhow::Result<ExitCode> {
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    if let Some(c) = args.cases.iter().find(|c| !(1..=CASES.len()).contains(*c)) {
        bail!("no case {c} (cases are 1 to {})", CASES.len());
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(bench(&args))
}

async fn bench(args: &BenchFailoverArgs) -> anyhow::Result<ExitCode> {
    let cases: Vec<usize> = if args.cases.is_empty() {
        (1..=CASES.len()).collect()
    } else {
        args.cases.clone()
    };
    outln!(
        "inarow bench failover: {} run(s) of each case, 2 hosts a run, NATS {}, {} cores",
        args.runs,
        args.nats_url,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let schema = PgSchema::create(&args.pg_url).await?;
    let store_url = schema.url();
    let mut rows = Vec::new();
    let mut all_passed = true;
    for &case in &cases {
        let mut outcomes = Vec::new();
        for run in 0..args.runs {
            let started = Instant::now();
            let o = run_case(case, run, args, &store_url).await;
            eprintln!(
                "failover: case {case} run {run}: {} in {:.1} s{}",
                if o.failure.is_none() {
                    "passed"
                } else {
                    "FAILED"
                },
                started.elapsed().as_secs_f64(),
                o.resume
                    .map(|d| format!(", game going on {:.2} s after the fault", d.as_secs_f64()))
                    .unwrap_or_default()
            );
            outcomes.push(o);
        }
        let row = Row::of(case, &outcomes);
        all_passed &= row.failures == 0;
        rows.push(row);
    }
    schema.drop_it().await;
    print_table(&rows)?;
    Ok(if all_passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// One row of the table.
struct Row {
    case: &'static str,
    runs: usize,
    finished: usize,
    recorded: usize,
    median: Option<Duration>,
    failures: usize,
    first_reason: String,
}

impl Row {
    fn of(case: usize, outcomes: &[Outcome]) -> Row {
        let mut resumes: Vec<Duration> = outcomes.iter().filter_map(|o| o.resume).collect();
        resumes.sort();
        let failures = outcomes.iter().filter(|o| o.failure.is_some()).count();
        Row {
            case: CASES[case - 1],
            runs: outcomes.len(),
            finished: outcomes.iter().filter(|o| o.finished).count(),
            recorded: outcomes.iter().filter(|o| o.recorded_once).count(),
            median: median(&resumes),
            failures,
            first_reason: outcomes
                .iter()
                .find_map(|o| o.failure.clone())
                .unwrap_or_default(),
        }
    }
}

fn print_table(rows: &[Row]) -> anyhow::Result<()> {
    outln!(
        "{:<28} | {:>4} | {:>8} | {:>13} | {:>17} | failures (first reason)\n{:<28} | {:>4} | {:>8} | {:>13} | {:>17} |",
        "case",
        "runs",
        "finished",
        "recorded once",
        "median s",
        "",
        "",
        "",
        "",
        "fault to going on"
    );
    outln!("{}", "-".repeat(100));
    for r in rows {
        let failures = if r.failures == 0 {
            "0".to_string()
        } else {
            format!("{} ({})", r.failures, one_line(&r.first_reason, 300))
        };
        outln!(
            "{:<28} | {:>4} | {:>8} | {:>13} | {:>17} | {}",
            r.case,
            r.runs,
            r.finished,
            r.recorded,
            r.median
                .map_or_else(|| "-".to_string(), |d| format!("{:.2}", d.as_secs_f64())),
            failures
        );
    }
    Ok(())
}

/// The middle of sorted times (the mean of the two middle ones for an
/// even count).
fn median(sorted: &[Duration]) -> Option<Duration> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2),
    }
}

fn one_line(s: &str, max: usize) -> String {
    // One line, and no column separator inside a cell.
    let s: String = s
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "/");
    if s.chars().count() <= max {
        s
    } else {
        s.chars().take(max).collect::<String>() + "..."
    }
}

#[cfg(test)]
mod tests {
    use super::game::clocks_kept;
    use super::player::parse_clock;
    use super::*;

    #[test]
    fn clocks_are_read_as_seconds() {
        assert_eq!(parse_clock("2:48"), Some(168));
        assert_eq!(parse_clock("10:05"), Some(605));
        assert_eq!(parse_clock("(0|1)"), None);
        assert_eq!(parse_clock("12:3"), None);
        assert!(clocks_kept([168, 180], [160, 180]).is_ok());
        assert!(clocks_kept([168, 180], [169, 180]).is_err());
        let s = Duration::from_secs;
        assert_eq!(median(&[s(1), s(3)]), Some(s(2)));
        assert_eq!(median(&[s(1), s(2), s(9)]), Some(s(2)));
        assert_eq!(median(&[]), None);
    }
}
