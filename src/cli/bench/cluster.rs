//! `inarow bench cluster`: games whose two players sit on different hosts.
//!
//! Starts `--hosts` hosts in cluster mode as child processes on loopback
//! (against the NATS server at `--nats-url`, with a bucket prefix of this
//! run's own, removed at the end), or takes running hosts with `--addrs`.
//! Then:
//!
//! 1. opens two SSH sessions per game, the first player of game `g` on host
//!    `g mod H` and the second on the next host;
//! 2. pairs them by quick match, one pair at a time (so each host has one
//!    seeker at a time and every match crosses hosts): cross-host matches
//!    per second and the time from the second seeker's key to both players
//!    at the table;
//! 3. lets every pair play Connect Four for `--seconds`, each player moving
//!    about once per `--think-ms`: keypress-to-opponent's-redraw latency,
//!    from the key leaving the mover's client until the opponent's screen
//!    (on the other host) says it is their move.
//!
//! The load generator, the hosts and NATS share the machine's CPUs; the
//! figures are for all of them together.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use tokio::sync::Semaphore;

use super::PaceArgs;
use super::players::{
    Conn, Counts, Pace, Timing, connect_one, lock, play, read_until, seek, until_at_table,
};
use super::server::{p50_p99, report_fd_limit, spread, tempfile_dir};

#[derive(Debug, clap::Args)]
pub struct BenchClusterArgs {
    /// Hosts to start (at least 2).
    #[arg(long, default_value_t = 3)]
    pub hosts: usize,
    /// Games, each between players on two different hosts.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    #[command(flatten)]
    pub pace: PaceArgs,
    /// Handshakes in flight at once.
    #[arg(long, default_value_t = 64)]
    pub concurrency: usize,
    /// Bench hosts already running in one cluster (SSH addresses, comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub addrs: Vec<SocketAddr>,
    /// The NATS server the started hosts share.
    #[arg(long, default_value = "nats://127.0.0.1:4222")]
    pub nats_url: String,
    /// A store the started hosts share (default: each its own SQLite file).
    #[arg(long)]
    pub store_url: Option<String>,
}

struct Hosts {
    children: Vec<std::process::Child>,
    addrs: Vec<SocketAddr>,
    prefix: String,
    nats_url: String,
    _dir: tempfile_dir::Dir,
}

impl Drop for Hosts {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

pub(super) fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// One cluster host's configuration file: SSH on `port`, its key in
/// `dir`, the run's NATS `prefix`, the `store` URL, room for `sessions`;
/// `lobby` goes into the `[lobby]` section as is.
pub(super) struct HostConfig<'a> {
    pub dir: &'a std::path::Path,
    pub name: &'a str,
    pub port: u16,
    pub prefix: &'a str,
    pub nats_url: &'a str,
    pub store: &'a str,
    pub sessions: usize,
    pub lobby: &'a str,
}

impl HostConfig<'_> {
    /// Writes the file (`inarow-<name>.toml` in `dir`); its path.
    pub(super) fn write(&self) -> anyhow::Result<std::path::PathBuf> {
        let HostConfig {
            dir,
            name,
            port,
            prefix,
            nats_url,
            store,
            sessions,
            lobby,
        } = self;
        let config = format!(
            "[ssh]\nlisten = \"127.0.0.1:{port}\"\nhost_key = \"{}\"\n\n[telnet]\nenabled = false\n\n\
             [limits]\nmax_sessions = {sessions}\nmax_per_ip = {sessions}\nidle_timeout_secs = 3600\n\n\
             [lobby]\nmatch_wait_secs = 3600\n{lobby}\n[store]\nurl = \"{store}\"\njournal = \"{}\"\n\n[log]\nlevel = \"warn\"\n\n\
             [cluster]\nenabled = true\nnats_url = \"{nats_url}\"\nhost_name = \"{name}\"\nprefix = \"{prefix}\"\n",
            dir.join(format!("host_key-{name}")).display(),
            dir.join(format!("journal-{name}.jsonl")).display(),
        );
        let path = dir.join(format!("inarow-{name}.toml"));
        std::fs::write(&path, config)?;
        Ok(path)
    }
}

/// Starts `inarow serve --config <config>` (this binary) and waits until
/// it listens on `addr`; its standard error goes to `stderr` if given.
pub(super) fn spawn_host(
    config: &std::path::Path,
    addr: SocketAddr,
    stderr: Option<std::fs::File>,
    nats_url: &str,
) -> anyhow::Result<std::process::Child> {
    let exe = std::env::current_exe().context("cannot find the inarow binary")?;
    let mut cmd = std::process::Command::new(&exe);
    cmd.args(["serve", "--config"])
        .arg(config)
        .stdin(std::process::Stdio::null());
    if let Some(f) = stderr {
        cmd.stderr(f);
    }
    let mut child = cmd.spawn().context("cannot start a host")?;
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(addr).is_err() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            bail!("a host did not start listening on {addr} (is NATS at {nats_url}?)");
        }
        if let Ok(Some(status)) = child.try_wait() {
            bail!("a host stopped at start ({status}); is NATS at {nats_url}?");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(child)
}

fn start_hosts(args: &BenchClusterArgs) -> anyhow::Result<Hosts> {
    let dir = std::env::temp_dir().join(format!("inarow-bench-cluster-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let dir = tempfile_dir::Dir(dir);
    let prefix = format!("bench_{}_{}", std::process::id(), crate::store::now_ms());
    let sessions = args.games * 2 + 64;
    let mut hosts = Hosts {
        children: Vec::new(),
        addrs: Vec::new(),
        prefix: prefix.clone(),
        nats_url: args.nats_url.clone(),
        _dir: dir,
    };
    for i in 0..args.hosts {
        let port = free_port()?;
        let store = match &args.store_url {
            Some(url) => url.clone(),
            None => format!(
                "sqlite://{}",
                hosts._dir.0.join(format!("host{i}.db")).display()
            ),
        };
        let path = HostConfig {
            dir: &hosts._dir.0,
            name: &format!("bench-{i}"),
            port,
            prefix: &prefix,
            nats_url: &args.nats_url,
            store: &store,
            sessions,
            lobby: "",
        }
        .write()?;
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
        let child =
            spawn_host(&path, addr, None, &args.nats_url).with_context(|| format!("host {i}"))?;
        hosts.children.push(child);
        hosts.addrs.push(addr);
    }
    Ok(hosts)
}

/// Removes the run's buckets from NATS.
pub(super) async fn remove_buckets(nats_url: &str, prefix: &str) {
    let Ok(Ok(client)) =
        tokio::time::timeout(Duration::from_secs(3), async_nats::connect(nats_url)).await
    else {
        return;
    };
    let js = async_nats::jetstream::new(client);
    for bucket in ["hosts", "people", "queue", "codes", "rooms", "seats"] {
        let _ = js.delete_stream(format!("KV_{prefix}_{bucket}")).await;
    }
}

pub fn run(args: BenchClusterArgs) -> anyhow::Result<ExitCode> {
    if args.addrs.is_empty() && args.hosts < 2 {
        bail!("--hosts must be at least 2");
    }
    if !args.addrs.is_empty() && args.addrs.len() < 2 {
        bail!("--addrs needs at least two hosts");
    }
    report_fd_limit();
    let hosts = if args.addrs.is_empty() {
        Some(start_hosts(&args)?)
    } else {
        None
    };
    let addrs = match &hosts {
        Some(h) => h.addrs.clone(),
        None => args.addrs.clone(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let result = runtime.block_on(bench(&args, &addrs));
    // The hosts stop first: buckets taken from under a running host
    // would have it warn of every write that fails.
    let buckets = hosts
        .as_ref()
        .map(|h| (h.nats_url.clone(), h.prefix.clone()));
    drop(hosts);
    if let Some((nats_url, prefix)) = buckets {
        runtime.block_on(remove_buckets(&nats_url, &prefix));
    }
    result
}

#[derive(Default)]
struct Stats {
    /// Key press to the opponent's screen showing their turn.
    seen: Mutex<Vec<Duration>>,
    counts: Counts,
}

/// When each side of a game last pressed a move key.
type Sent = Arc<Mutex<Option<Instant>>>;

fn take(slot: &Sent) -> Option<Instant> {
    lock(slot).take()
}

/// What a player of `bench cluster` times: how long its opponent's moves
/// took to reach its screen.
struct ClusterTiming {
    stats: Arc<Stats>,
    /// When this player and its opponent pressed a move key ([mine, theirs]).
    sent: [Sent; 2],
}

impl Timing for ClusterTiming {
    fn sent(&mut self, at: Instant) {
        *lock(&self.sent[0]) = Some(at);
    }

    fn my_turn(&mut self) {
        // The opponent's move has reached this screen.
        if let Some(t) = take(&self.sent[1]) {
            lock(&self.stats.seen).push(t.elapsed());
        }
    }

    fn refused(&mut self) {
        take(&self.sent[0]);
    }

    fn game_over(&mut self) {
        take(&self.sent[0]);
        take(&self.sent[1]);
    }
}

/// One player: plays (see [`play`]) and times how long its opponent's
/// moves took to reach its screen.
async fn player(
    conn: Conn,
    stats: Arc<Stats>,
    sent: [Sent; 2],
    think: Duration,
    until: Instant,
    seed: u64,
    my_move: bool,
) {
    let pace = Pace {
        think,
        until,
        seed,
        first_move: my_move.then(|| tokio::time::Instant::now() + think / 2),
    };
    let mut timing = ClusterTiming {
        stats: Arc::clone(&stats),
        sent,
    };
    play(conn, &stats.counts, pace, &mut timing).await;
}

async fn bench(args: &BenchClusterArgs, addrs: &[SocketAddr]) -> anyhow::Result<ExitCode> {
    let h = addrs.len();
    outln!(
        "inarow bench cluster: {h} hosts ({}), {} games across hosts, {} cores",
        addrs
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        args.games,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    // Give the hosts time to see each other (a heartbeat or two).
    tokio::time::sleep(Duration::from_secs(5)).await;

    // 1. The sessions: game g's first player on host g mod H, the second
    //    on the next host.
    let permits = Arc::new(Semaphore::new(args.concurrency.max(1)));
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(args.games * 2);
    for n in 0..args.games * 2 {
        let (g, second) = (n / 2, n % 2);
        let addr = addrs[(g + second) % h];
        let permits = Arc::clone(&permits);
        tasks.push(tokio::spawn(async move {
            let _permit = permits.acquire_owned().await.ok()?;
            Some(connect_one(addr, n).await)
        }));
    }
    let mut conns = Vec::with_capacity(args.games * 2);
    for t in tasks {
        match t.await {
            Ok(Some(Ok(c))) => conns.push(c),
            Ok(Some(Err(e))) => bail!("a session did not open: {e}"),
            _ => bail!("a session did not open"),
        }
    }
    outln!(
        "connect: {} sessions in {:.2} s",
        conns.len(),
        started.elapsed().as_secs_f64()
    );

    // 2. Pair them, one pair at a time.
    let started = Instant::now();
    let mut match_times = Vec::with_capacity(args.games);
    let mut pairs = Vec::with_capacity(args.games);
    let mut it = conns.into_iter();
    while let (Some(mut a), Some(mut b)) = (it.next(), it.next()) {
        seek(&mut a).await?;
        read_until(&mut a.ch, b"Looking for", Duration::from_secs(30)).await?;
        let t = Instant::now();
        seek(&mut b).await?;
        let (ra, rb) = tokio::join!(
            until_at_table(&mut a, Duration::from_secs(30)),
            until_at_table(&mut b, Duration::from_secs(30))
        );
        let a_first = ra.context("the first seeker found no table")?;
        let b_first = rb.context("the second seeker found no table")?;
        if a_first == b_first {
            bail!("both players of a game think it is their move (or neither does)");
        }
        match_times.push(t.elapsed());
        pairs.push((a, b, a_first));
    }
    let elapsed = started.elapsed();
    match_times.sort();
    outln!(
        "matches: {} cross-host matches in {:.2} s = {:.1} matches/s, one pair at a time; second seeker's key to both at the table {}",
        pairs.len(),
        elapsed.as_secs_f64(),
        pairs.len() as f64 / elapsed.as_secs_f64(),
        p50_p99(&match_times),
    );

    // 3. Play.
    let stats = Arc::new(Stats::default());
    let think = Duration::from_millis(args.pace.think_ms.max(1));
    let until = Instant::now() + Duration::from_secs(args.pace.seconds + 2);
    let mut handles = Vec::new();
    for (g, (a, b, a_first)) in pairs.into_iter().enumerate() {
        let slots = [
            Arc::new(Mutex::new(None)),
            Arc::new(Mutex::new(None::<Instant>)),
        ];
        let seed = g as u64 * 2 + 1;
        handles.push(tokio::spawn(player(
            a,
            Arc::clone(&stats),
            [Arc::clone(&slots[0]), Arc::clone(&slots[1])],
            think,
            until,
            seed,
            a_first,
        )));
        handles.push(tokio::spawn(player(
            b,
            Arc::clone(&stats),
            [Arc::clone(&slots[1]), Arc::clone(&slots[0])],
            think,
            until,
            seed + 1,
            !a_first,
        )));
    }
    // The first two seconds warm up; then measure for --seconds.
    tokio::time::sleep(Duration::from_secs(2)).await;
    lock(&stats.seen).clear();
    let moves_before = stats.counts.moves.load(Ordering::Relaxed);
    let window = Instant::now();
    tokio::time::sleep(Duration::from_secs(args.pace.seconds)).await;
    let window = window.elapsed();
    let moves = stats.counts.moves.load(Ordering::Relaxed) - moves_before;
    let mut seen = lock(&stats.seen).clone();
    for handle in handles {
        handle.abort();
    }
    seen.sort();
    outln!(
        "games: {moves} moves in {:.1} s = {:.0} moves/s, {} games finished, {} errors",
        window.as_secs_f64(),
        moves as f64 / window.as_secs_f64(),
        stats.counts.games_over.load(Ordering::Relaxed) / 2,
        stats.counts.errors.load(Ordering::Relaxed)
    );
    outln!(
        "keypress to the opponent's redraw (other host): {} over {} moves",
        spread(&seen),
        seen.len()
    );
    Ok(ExitCode::SUCCESS)
}
