//! `inarow bench server`: real SSH sessions against a real host.
//!
//! Starts `inarow serve` as a child process on a free loopback port (so its
//! memory can be read on its own), then:
//!
//! 1. opens `--sessions` SSH sessions (key exchange, guest login, pty,
//!    shell, first lobby frame), `--concurrency` at a time: new sessions per
//!    second and connect latency;
//! 2. with all of them idle in the lobby, reads the host's resident memory:
//!    memory per session;
//! 3. pairs `--games` x 2 of them by quick match and lets them play Connect
//!    Four for `--seconds`, each player moving about once per `--think-ms`:
//!    keypress-to-redraw latency (time to the first byte of the redraw) and
//!    move latency (time until the mover's screen shows the move applied,
//!    a round trip through the game's room);
//! 4. with `--watchers`, that many more sessions watch the games while they
//!    run: `--hot-watchers` of them one game (the first pair's), the rest
//!    spread over the others: the players' move latency again, and for the
//!    crowded game the time from a move's key press until the last of its
//!    watchers shows the move.
//!
//! The load generator runs on the same machine as the host and competes
//! with it for the CPU; the figures are for both together.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use russh::ChannelMsg;
use tokio::sync::Semaphore;

use super::PaceArgs;
use super::players::{
    Conn, Counts, Pace, Timing, connect_one, lock, play, read_chunk_with, read_until, seek,
};

#[derive(Debug, clap::Args)]
pub struct BenchServerArgs {
    /// SSH sessions to open and hold.
    #[arg(long, default_value_t = 10_000)]
    pub sessions: usize,
    /// Games to play among them (two sessions each).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    #[command(flatten)]
    pub pace: PaceArgs,
    /// Handshakes in flight at once.
    #[arg(long, default_value_t = 128)]
    pub concurrency: usize,
    /// Bench a host that is already running (memory is read only with --pid).
    #[arg(long)]
    pub addr: Option<SocketAddr>,
    /// The running host's process id, to read its memory.
    #[arg(long)]
    pub pid: Option<u32>,
    /// Sessions that watch the games while they run.
    #[arg(long, default_value_t = 0)]
    pub watchers: usize,
    /// How many of the watchers crowd one game.
    #[arg(long, default_value_t = 500)]
    pub hot_watchers: usize,
}

/// The crowded game: when its last move was sent, and how long each
/// move took to reach its watchers.
#[derive(Default)]
struct HotGame {
    /// The key press of the move the watchers wait for.
    last_send: Mutex<Option<Instant>>,
    /// Per move (keyed by its key press): the slowest watcher so far, and
    /// how many watchers showed it.
    reached: Mutex<std::collections::HashMap<Instant, (Duration, usize)>>,
    /// Watchers that found the game.
    watching: AtomicUsize,
    /// Watchers of the other games.
    others: AtomicUsize,
    /// Watchers that found no game, and the first one's reason.
    failed: AtomicUsize,
    first_failure: Mutex<Option<String>>,
    /// Whether moves count yet (the measuring window).
    counting: std::sync::atomic::AtomicBool,
}

/// Resident memory of a process, in KiB.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Prints the open-file limit (each session is a socket on both sides).
pub(super) fn report_fd_limit() {
    // `ulimit -n` in a child shell cannot change our own limit; read it to report.
    if let Ok(limits) = std::fs::read_to_string("/proc/self/limits")
        && let Some(line) = limits.lines().find(|l| l.starts_with("Max open files"))
    {
        eprintln!(
            "bench: {}",
            line.split_whitespace().collect::<Vec<_>>().join(" ")
        );
    }
}

pub(super) fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

pub(super) fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// `p50 … p99 …` of sorted times, in milliseconds.
pub(super) fn p50_p99(sorted: &[Duration]) -> String {
    format!(
        "p50 {} p99 {}",
        ms(percentile(sorted, 0.5)),
        ms(percentile(sorted, 0.99))
    )
}

/// `p50 … p99 … max …` of sorted times, in milliseconds.
pub(super) fn spread(sorted: &[Duration]) -> String {
    format!(
        "{} max {}",
        p50_p99(sorted),
        ms(sorted.last().copied().unwrap_or_default())
    )
}

/// The host under test, as a child process.
struct Child {
    child: std::process::Child,
    addr: SocketAddr,
    _dir: tempfile_dir::Dir,
}

/// A temporary directory removed on drop (no test-only crate in the binary).
pub(super) mod tempfile_dir {
    pub struct Dir(pub std::path::PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn start_host(sessions: usize, spectators: usize) -> anyhow::Result<Child> {
    let dir = std::env::temp_dir().join(format!("inarow-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let dir = tempfile_dir::Dir(dir);
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let config = format!(
        "[ssh]\nlisten = \"127.0.0.1:{port}\"\nhost_key = \"{}\"\n\n[telnet]\nenabled = false\n\n[limits]\nmax_sessions = {}\nmax_per_ip = {}\nidle_timeout_secs = 3600\n\n[lobby]\nmatch_wait_secs = 3600\nmax_spectators = {}\n\n[store]\nurl = \"sqlite://{}\"\n\n[log]\nlevel = \"warn\"\n",
        dir.0.join("host_key").display(),
        sessions + 64,
        sessions + 64,
        spectators.max(200),
        dir.0.join("inarow.db").display(),
    );
    let path: PathBuf = dir.0.join("inarow.toml");
    std::fs::write(&path, config)?;
    let exe = std::env::current_exe().context("cannot find the inarow binary")?;
    let child = std::process::Command::new(exe)
        .args(["serve", "--config"])
        .arg(&path)
        .stdin(std::process::Stdio::null())
        .spawn()
        .context("cannot start the host")?;
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(addr).is_err() {
        if Instant::now() > deadline {
            bail!("the host did not start listening on {addr}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(Child {
        child,
        addr,
        _dir: dir,
    })
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Drains an idle session's output so its queue never fills, until `stop`;
/// then hands the session back.
fn idle(
    mut conn: Conn,
    stop: tokio_util::sync::CancellationToken,
) -> tokio::task::JoinHandle<Option<Conn>> {
    tokio::spawn(async move {
        loop {
            tokio::select! {
                msg = conn.ch.wait() => {
                    msg?;
                }
                _ = stop.cancelled() => return Some(conn),
            }
        }
    })
}

/// [`idle`] for each of `conns`, until `stop`.
fn idle_all(
    conns: Vec<Conn>,
    stop: &tokio_util::sync::CancellationToken,
) -> Vec<tokio::task::JoinHandle<Option<Conn>>> {
    conns.into_iter().map(|c| idle(c, stop.clone())).collect()
}

/// The sessions [`idle_all`] handed back once stopped.
async fn taken_back(idlers: Vec<tokio::task::JoinHandle<Option<Conn>>>) -> Vec<Conn> {
    let mut conns = Vec::with_capacity(idlers.len());
    for d in idlers {
        if let Ok(Some(c)) = d.await {
            conns.push(c);
        }
    }
    conns
}

/// Shared results of the game phase.
#[derive(Default)]
struct GameStats {
    first_byte: Mutex<Vec<Duration>>,
    applied: Mutex<Vec<Duration>>,
    counts: Counts,
}

/// What a player of `bench server` times: from its key press to the first
/// byte of the redraw and to the move shown applied; and for the crowded
/// game, when the key of the move its watchers wait for was pressed.
struct ServerTiming {
    stats: Arc<GameStats>,
    hot: Option<Arc<HotGame>>,
    /// Whether the first byte after the pending key press has come.
    first_seen: bool,
}

impl Timing for ServerTiming {
    fn output(&mut self, pending: Option<Instant>) {
        if let Some(t) = pending
            && !self.first_seen
        {
            lock(&self.stats.first_byte).push(t.elapsed());
            self.first_seen = true;
        }
    }

    fn sent(&mut self, at: Instant) {
        if let Some(hot) = &self.hot {
            *lock(&hot.last_send) = Some(at);
        }
        self.first_seen = false;
    }

    fn applied(&mut self, sent: Instant) {
        lock(&self.stats.applied).push(sent.elapsed());
    }
}

/// One player: seeks a quick match, then plays (see [`play`]).
async fn player(
    mut conn: Conn,
    stats: Arc<GameStats>,
    think: Duration,
    until: Instant,
    seed: u64,
    hot: Option<Arc<HotGame>>,
) {
    let _ = seek(&mut conn).await;
    let pace = Pace {
        think,
        until,
        seed,
        first_move: None,
    };
    let mut timing = ServerTiming {
        stats: Arc::clone(&stats),
        hot,
        first_seen: false,
    };
    play(conn, &stats.counts, pace, &mut timing).await;
}

/// The number in the last "Moves (N)" of `text`, if any.
fn last_moves_count(text: &[u8]) -> Option<usize> {
    let marker = b"Moves (";
    let at = text.windows(marker.len()).rposition(|w| w == marker)? + marker.len();
    let digits: Vec<u8> = text[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .copied()
        .collect();
    if text.get(at + digits.len()) != Some(&b')') {
        return None;
    }
    std::str::from_utf8(&digits).ok()?.parse().ok()
}

/// Whether the chosen row of a games list (the text after its " > ")
/// names the crowded game's first player.
fn chosen_is_hot(chunk: &[u8]) -> bool {
    let lead = b" > ";
    let Some(at) = chunk.windows(lead.len()).rposition(|w| w == lead) else {
        return false;
    };
    let row = &chunk[at..(at + 160).min(chunk.len())];
    let name = b"bench0 (";
    row.windows(name.len()).any(|w| w == name)
}

/// One watcher: opens the games list, finds its game (the crowded one,
/// or the `spread`-th row), watches it until `until`, and for the crowded
/// game times each move from its key press to this screen.
async fn watcher(
    mut conn: Conn,
    hot: Option<Arc<HotGame>>,
    spread: usize,
    until: Instant,
    tally: Arc<HotGame>,
) {
    let found = async {
        for _ in 0..20 {
            conn.ch.data(&b"w"[..]).await?;
            let list = read_chunk_with(&mut conn.ch, b"to watch", Duration::from_secs(30)).await?;
            if hot.is_some() {
                let mut chunk = list;
                for _ in 0..crate::lobby::GAMES_LISTED {
                    if chosen_is_hot(&chunk) {
                        conn.ch.data(&b"\r"[..]).await?;
                        read_until(&mut conn.ch, b"Moves (", Duration::from_secs(30)).await?;
                        return Ok::<bool, anyhow::Error>(true);
                    }
                    conn.ch.data(&b"\x1b[B"[..]).await?;
                    chunk = read_chunk_with(&mut conn.ch, b" > ", Duration::from_secs(5)).await?;
                }
            } else {
                let mut keys = b"\x1b[B".repeat(spread);
                keys.push(b'\r');
                conn.ch.data(&keys[..]).await?;
                read_until(&mut conn.ch, b"Moves (", Duration::from_secs(30)).await?;
                return Ok(true);
            }
            // Not listed just now (between rounds): back, and again.
            conn.ch.data(&b"\x1b"[..]).await?;
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        Ok(false)
    }
    .await;
    if !matches!(found, Ok(true)) {
        tally.failed.fetch_add(1, Ordering::Relaxed);
        let why = match found {
            Err(e) => e.to_string(),
            _ => "the game was not listed".to_string(),
        };
        lock(&tally.first_failure).get_or_insert(why);
        return;
    }
    match &hot {
        Some(hot) => hot.watching.fetch_add(1, Ordering::Relaxed),
        None => tally.others.fetch_add(1, Ordering::Relaxed),
    };
    let mut shown: Option<usize> = None;
    let mut tail: Vec<u8> = Vec::new();
    loop {
        let left = until.saturating_duration_since(Instant::now());
        let Ok(msg) = tokio::time::timeout(left, conn.ch.wait()).await else {
            return;
        };
        let Some(msg) = msg else { return };
        let ChannelMsg::Data { data } = msg else {
            continue;
        };
        tail.extend_from_slice(&data);
        let n = last_moves_count(&tail);
        let keep = tail.len().saturating_sub(16);
        tail.drain(..keep);
        let (Some(hot), Some(n)) = (&hot, n) else {
            continue;
        };
        if shown == Some(n) {
            continue;
        }
        shown = Some(n);
        if !hot.counting.load(Ordering::Relaxed) {
            continue;
        }
        let sent = *lock(&hot.last_send);
        if let Some(sent) = sent {
            let took = sent.elapsed();
            let mut reached = lock(&hot.reached);
            let e = reached.entry(sent).or_insert((Duration::ZERO, 0));
            e.0 = e.0.max(took);
            e.1 += 1;
        }
    }
}

pub fn run(args: BenchServerArgs) -> anyhow::Result<ExitCode> {
    if args.games * 2 + args.watchers > args.sessions {
        bail!(
            "--games {} and --watchers {} need {} sessions; --sessions is {}",
            args.games,
            args.watchers,
            args.games * 2 + args.watchers,
            args.sessions
        );
    }
    if args.watchers > 0 && args.games < 2 {
        bail!("--watchers needs at least 2 games");
    }
    report_fd_limit();
    let host = match args.addr {
        Some(_) => None,
        None => Some(start_host(args.sessions, args.hot_watchers)?),
    };
    let addr = args
        .addr
        .or(host.as_ref().map(|h| h.addr))
        .context("no host")?;
    let pid = args.pid.or(host.as_ref().map(|h| h.child.id()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(bench(args, addr, pid))
}

async fn bench(
    args: BenchServerArgs,
    addr: SocketAddr,
    pid: Option<u32>,
) -> anyhow::Result<ExitCode> {
    outln!(
        "inarow bench server: host {addr}, {} sessions, {} games, {} cores",
        args.sessions,
        args.games,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_start = pid.and_then(rss_kib);

    // 1. Open the sessions.
    let permits = Arc::new(Semaphore::new(args.concurrency.max(1)));
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(args.sessions);
    for n in 0..args.sessions {
        let permits = Arc::clone(&permits);
        tasks.push(tokio::spawn(async move {
            let _permit = permits.acquire_owned().await.ok()?;
            let t = Instant::now();
            let c = connect_one(addr, n).await;
            Some((c, t.elapsed()))
        }));
    }
    let mut conns = Vec::with_capacity(args.sessions);
    let mut connect_times = Vec::with_capacity(args.sessions);
    let mut failures = 0;
    let mut first_error = None;
    for t in tasks {
        match t.await {
            Ok(Some((Ok(c), d))) => {
                conns.push(c);
                connect_times.push(d);
            }
            Ok(Some((Err(e), _))) => {
                failures += 1;
                first_error.get_or_insert(e.to_string());
            }
            _ => failures += 1,
        }
    }
    let elapsed = started.elapsed();
    connect_times.sort();
    outln!(
        "connect: {} sessions in {:.2} s = {:.0} new sessions/s (failed: {failures}); connect latency {}",
        conns.len(),
        elapsed.as_secs_f64(),
        conns.len() as f64 / elapsed.as_secs_f64(),
        p50_p99(&connect_times),
    );
    if let Some(e) = first_error {
        outln!("  first failure: {e}");
    }

    // 2. Memory with everyone idle in the lobby.
    let games = args.games.min(conns.len() / 2);
    let players: Vec<Conn> = conns.drain(..games * 2).collect();
    let watchers = args.watchers.min(conns.len());
    let watcher_conns: Vec<Conn> = conns.drain(..watchers).collect();
    let stop_idlers = tokio_util::sync::CancellationToken::new();
    let idlers = idle_all(conns, &stop_idlers);
    // Hold the players' queues empty too while memory settles.
    let stop_players = tokio_util::sync::CancellationToken::new();
    let drained = idle_all(players, &stop_players);
    let drained_watchers = idle_all(watcher_conns, &stop_players);
    tokio::time::sleep(Duration::from_secs(3)).await;
    let sessions_open = idlers.len() + drained.len() + drained_watchers.len();
    if let (Some(pid), Some(start)) = (pid, rss_start) {
        let now = rss_kib(pid).unwrap_or(0);
        let per = (now.saturating_sub(start) as f64) / sessions_open.max(1) as f64;
        outln!(
            "memory: host RSS {:.1} MiB at start, {:.1} MiB with {sessions_open} idle sessions = {per:.1} KiB per session",
            start as f64 / 1024.0,
            now as f64 / 1024.0
        );
    } else {
        outln!("memory: not measured (give --pid for a running host)");
    }
    // Take the players back.
    stop_players.cancel();
    let players = taken_back(drained).await;
    let watcher_conns = taken_back(drained_watchers).await;

    // 3. Games.
    let stats = Arc::new(GameStats::default());
    let think = Duration::from_millis(args.pace.think_ms.max(1));
    // Past the window (the watchers take a while to come); the tasks are
    // stopped after it anyway.
    let joining = if args.watchers > 0 { 120 } else { 0 };
    let until = Instant::now() + Duration::from_secs(args.pace.seconds + 2 + joining);
    let mut handles = Vec::new();
    let hot = Arc::new(HotGame::default());
    let hot_watchers = args.hot_watchers.min(watchers);
    let mut watcher_conns = watcher_conns.into_iter();
    let mut watcher_handles = Vec::new();
    let start_watcher = |c: Conn, crowd: bool, spread: usize| {
        tokio::spawn(watcher(
            c,
            crowd.then(|| Arc::clone(&hot)),
            spread,
            until,
            Arc::clone(&hot),
        ))
    };
    let wait_for = |hot: Arc<HotGame>, count: usize| async move {
        let deadline = Instant::now() + Duration::from_secs(60);
        while hot.watching.load(Ordering::Relaxed)
            + hot.others.load(Ordering::Relaxed)
            + hot.failed.load(Ordering::Relaxed)
            < count
            && Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    let joined = Instant::now();
    for (i, c) in players.into_iter().enumerate() {
        // The first two (bench0 and bench1) meet first: the crowded game,
        // the only one listed when its first watcher comes.
        let crowd = (i < 2 && watchers > 0).then(|| Arc::clone(&hot));
        handles.push(tokio::spawn(player(
            c,
            Arc::clone(&stats),
            think,
            until,
            0x9e37_79b9_7f4a_7c15 ^ i as u64,
            crowd,
        )));
        if i == 1 && watchers > 0 {
            tokio::time::sleep(Duration::from_millis(500)).await;
            if let Some(c) = watcher_conns.next() {
                watcher_handles.push(start_watcher(c, hot_watchers > 0, 1));
                wait_for(Arc::clone(&hot), 1).await;
            }
        }
    }
    // Let the pairs form before counting.
    tokio::time::sleep(Duration::from_secs(2)).await;
    // The watchers: the rest of the crowd (the crowded game is listed
    // first now), then the others over the other games.
    if watchers > 0 {
        for (i, c) in (1..).zip(watcher_conns) {
            let spread = 1 + i % (crate::lobby::GAMES_LISTED - 1).min(games - 1);
            watcher_handles.push(start_watcher(c, i < hot_watchers, spread));
            if i + 1 == hot_watchers {
                // The crowd is in before the others come.
                wait_for(Arc::clone(&hot), hot_watchers).await;
            }
        }
        wait_for(Arc::clone(&hot), watchers).await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        outln!(
            "watchers: {} sessions watching ({} of them one game; {} could not), joined in {:.1} s",
            hot.watching.load(Ordering::Relaxed) + hot.others.load(Ordering::Relaxed),
            hot.watching.load(Ordering::Relaxed),
            hot.failed.load(Ordering::Relaxed),
            joined.elapsed().as_secs_f64()
        );
        if let Some(why) = lock(&hot.first_failure).as_ref() {
            outln!("  first watcher that could not watch: {why}");
        }
        handles.extend(watcher_handles);
        hot.counting.store(true, Ordering::Relaxed);
    }
    lock(&stats.first_byte).clear();
    lock(&stats.applied).clear();
    stats.counts.moves.store(0, Ordering::Relaxed);
    let measuring = Instant::now();
    tokio::time::sleep(Duration::from_secs(args.pace.seconds)).await;
    let span = measuring.elapsed();
    let mut first = lock(&stats.first_byte).clone();
    let mut applied = lock(&stats.applied).clone();
    first.sort();
    applied.sort();
    let moves = stats.counts.moves.load(Ordering::Relaxed);
    outln!(
        "games: {games} games in play, {moves} moves in {:.1} s = {:.0} moves/s; {} games finished and rematched",
        span.as_secs_f64(),
        moves as f64 / span.as_secs_f64(),
        stats.counts.games_over.load(Ordering::Relaxed) / 2,
    );
    outln!(
        "keypress to first redraw byte: {} ({} samples)",
        spread(&first),
        first.len()
    );
    outln!(
        "keypress to move shown (through the room): {} ({} samples)",
        spread(&applied),
        applied.len()
    );
    if watchers > 0 {
        hot.counting.store(false, Ordering::Relaxed);
        let crowd = hot.watching.load(Ordering::Relaxed);
        let reached = lock(&hot.reached);
        // Moves every watcher of the crowd showed: the slowest one's time.
        let mut last: Vec<Duration> = reached
            .values()
            .filter(|(_, n)| *n >= crowd)
            .map(|(d, _)| *d)
            .collect();
        last.sort();
        outln!(
            "one game with {crowd} watchers: key press to the move on its last watcher's screen {} ({} moves; {} seen by fewer)",
            spread(&last),
            last.len(),
            reached.len() - last.len()
        );
    }
    if let Some(pid) = pid
        && let Some(now) = rss_kib(pid)
    {
        outln!(
            "memory: host RSS {:.1} MiB with the games in play",
            now as f64 / 1024.0
        );
    }
    let errors = stats.counts.errors.load(Ordering::Relaxed);
    if errors > 0 {
        outln!("errors: {errors} sessions failed during the games");
    }
    for h in handles {
        h.abort();
    }
    stop_idlers.cancel();
    for i in idlers {
        let _ = i.await;
    }
    Ok(ExitCode::SUCCESS)
}
