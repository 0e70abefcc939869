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

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use russh::ChannelMsg;
use russh::client;
use russh::keys::{Algorithm, PrivateKey, PrivateKeyWithHashAlg};

use super::cluster::{HostConfig, free_port, remove_buckets, spawn_host};
use super::players::Trusting;
use super::server::tempfile_dir;

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

// ---------------------------------------------------------------- hosts

/// One host process of a run.
struct HostProc {
    name: String,
    addr: SocketAddr,
    config: PathBuf,
    log: PathBuf,
    child: Option<std::process::Child>,
}

impl HostProc {
    fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(std::process::Child::id)
    }

    fn signal(&self, sig: &str) -> anyhow::Result<()> {
        let pid = self.pid().context("the host is not running")?;
        signal(pid, sig)
    }

    /// Waits for the process to end (after a signal).
    fn wait_exit(&mut self, within: Duration) -> anyhow::Result<()> {
        let deadline = Instant::now() + within;
        let Some(child) = self.child.as_mut() else {
            return Ok(());
        };
        loop {
            if child.try_wait()?.is_some() {
                self.child = None;
                return Ok(());
            }
            if Instant::now() > deadline {
                bail!("host {} did not stop within {within:?}", self.name);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn start(&mut self, nats_url: &str) -> anyhow::Result<()> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)?;
        self.child = Some(spawn_host(&self.config, self.addr, Some(log), nats_url)?);
        Ok(())
    }

    /// The last lines of what the host logged.
    fn log_tail(&self, lines: usize) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let all: Vec<&str> = text.lines().collect();
        all[all.len().saturating_sub(lines)..].join("\n")
    }
}

fn signal(pid: u32, sig: &str) -> anyhow::Result<()> {
    let ok = std::process::Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(pid.to_string())
        .status()?
        .success();
    if !ok {
        bail!("kill -{sig} {pid} failed");
    }
    Ok(())
}

/// The hosts of one run, on a bucket prefix of their own; stopped (and
/// the buckets removed by [`Cluster::close`]) at the end.
struct Cluster {
    hosts: Vec<HostProc>,
    prefix: String,
    nats_url: String,
    _dir: tempfile_dir::Dir,
}

impl Cluster {
    fn start(tag: &str, count: usize, nats_url: &str, store_url: &str) -> anyhow::Result<Cluster> {
        let dir = std::env::temp_dir().join(format!(
            "inarow-bench-failover-{}-{tag}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir)?;
        let dir = tempfile_dir::Dir(dir);
        let prefix = format!("fo_{}_{}_{tag}", std::process::id(), crate::store::now_ms());
        let mut cluster = Cluster {
            hosts: Vec::new(),
            prefix,
            nats_url: nats_url.to_string(),
            _dir: dir,
        };
        for i in 0..count {
            let name = format!("fo{tag}-{}", (b'a' + i as u8) as char);
            let port = free_port()?;
            let config = HostConfig {
                dir: &cluster._dir.0,
                name: &name,
                port,
                prefix: &cluster.prefix,
                nats_url,
                store: store_url,
                sessions: 64,
                lobby: &format!("reconnect_grace_secs = {GRACE_SECS}\n"),
            }
            .write()?;
            let mut host = HostProc {
                log: cluster._dir.0.join(format!("{name}.log")),
                name,
                addr: format!("127.0.0.1:{port}").parse()?,
                config,
                child: None,
            };
            host.start(nats_url)?;
            cluster.hosts.push(host);
        }
        Ok(cluster)
    }

    fn index_of(&self, name: &str) -> Option<usize> {
        self.hosts.iter().position(|h| h.name == name)
    }

    /// The hosts' logs' last lines, for a failure's reader.
    fn logs(&self) -> String {
        let mut s = String::new();
        for h in &self.hosts {
            let _ = writeln!(s, "---- host {} ----\n{}", h.name, h.log_tail(15));
        }
        s
    }

    async fn close(mut self) {
        self.stop_all();
        remove_buckets(&self.nats_url, &self.prefix).await;
    }

    fn stop_all(&mut self) {
        for h in &mut self.hosts {
            if let Some(mut c) = h.child.take() {
                // A paused host must run again to die of anything but SIGKILL;
                // SIGKILL it is.
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop_all();
    }
}

/// The run's rooms as kept in NATS.
struct Rooms(async_nats::jetstream::kv::Store);

impl Rooms {
    async fn open(nats_url: &str, prefix: &str) -> anyhow::Result<Rooms> {
        let client = async_nats::connect(nats_url).await?;
        let js = async_nats::jetstream::new(client);
        Ok(Rooms(
            crate::cluster::open_bucket_sized(
                &js,
                &format!("{prefix}_rooms"),
                Duration::from_secs(3600),
                crate::cluster::rooms::MAX_ROOM_VALUE,
            )
            .await?,
        ))
    }

    async fn all(&self) -> Vec<crate::cluster::rooms::StoredRoom> {
        use futures_util::StreamExt;
        let keys: Vec<String> = match self.0.keys().await {
            Ok(k) => k.filter_map(|k| async move { k.ok() }).collect().await,
            Err(_) => Vec::new(),
        };
        let mut rooms = Vec::new();
        for key in keys {
            if let Ok(Some(v)) = self.0.get(&key).await
                && let Some((r, _)) = crate::cluster::rooms::StoredRoom::parse(&v)
            {
                rooms.push(r);
            }
        }
        rooms
    }

    /// Waits until a room with `moves` moves is kept; its owner.
    async fn owner_at(&self, moves: usize) -> anyhow::Result<String> {
        let deadline = Instant::now() + WAIT;
        loop {
            let rooms = self.all().await;
            if let Some(r) = rooms.iter().find(|r| r.moves.len() == moves) {
                return Ok(r.owner.clone());
            }
            if Instant::now() > deadline {
                bail!("no room with {moves} moves kept in NATS: {rooms:?}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

// ---------------------------------------------------------------- players

/// A signed-in SSH session (public key: an account) and its screen.
struct Player {
    name: String,
    _handle: client::Handle<Trusting>,
    ch: russh::Channel<client::Msg>,
    term: vt100::Parser,
    /// Everything received, escape sequences and all (notices shown just
    /// before a close may never reach the screen's final state).
    raw: Vec<u8>,
    closed: bool,
}

impl Player {
    async fn connect(addr: SocketAddr, name: &str, key: &PrivateKey) -> anyhow::Result<Player> {
        Player::connect_as(addr, name, Some(key)).await
    }

    /// A session with `key` (an account), or a guest's without one.
    async fn connect_as(
        addr: SocketAddr,
        name: &str,
        key: Option<&PrivateKey>,
    ) -> anyhow::Result<Player> {
        let open = async {
            let config = Arc::new(client::Config {
                inactivity_timeout: None,
                ..Default::default()
            });
            let mut handle = client::connect(config, addr, Trusting).await?;
            if let Some(key) = key {
                let ok = handle
                    .authenticate_publickey(
                        name,
                        PrivateKeyWithHashAlg::new(Arc::new(key.clone()), None),
                    )
                    .await?;
                if !ok.success() {
                    bail!("public key login refused");
                }
            } else {
                let r = handle
                    .authenticate_keyboard_interactive_start(name, None)
                    .await?;
                if !matches!(r, client::KeyboardInteractiveAuthResponse::Success) {
                    bail!("guest login refused");
                }
            }
            let ch = handle.channel_open_session().await?;
            ch.request_pty(false, "xterm-256color", 100, 30, 0, 0, &[])
                .await?;
            ch.request_shell(false).await?;
            anyhow::Ok((handle, ch))
        };
        let (handle, ch) = tokio::time::timeout(WAIT, open)
            .await
            .with_context(|| format!("{name}: no session on {addr} within {WAIT:?}"))?
            .with_context(|| format!("{name}: no session on {addr}"))?;
        Ok(Player {
            name: name.to_string(),
            _handle: handle,
            ch,
            term: vt100::Parser::new(30, 100, 0),
            raw: Vec::new(),
            closed: false,
        })
    }

    fn screen(&self) -> String {
        self.term.screen().contents()
    }

    fn take(&mut self, msg: Option<ChannelMsg>) {
        match msg {
            Some(ChannelMsg::Data { data }) => {
                self.term.process(&data);
                self.raw.extend_from_slice(&data);
            }
            Some(ChannelMsg::Close) | Some(ChannelMsg::Eof) | None => self.closed = true,
            Some(_) => {}
        }
    }

    /// Reads output for up to `d`.
    async fn pump(&mut self, d: Duration) {
        let deadline = tokio::time::Instant::now() + d;
        while !self.closed {
            match tokio::time::timeout_at(deadline, self.ch.wait()).await {
                Err(_) => return,
                Ok(msg) => self.take(msg),
            }
        }
    }

    async fn send(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        tokio::time::timeout(Duration::from_secs(5), self.ch.data(bytes))
            .await
            .map_err(|_| anyhow::anyhow!("{}: a key could not be sent", self.name))?
            .map_err(|e| anyhow::anyhow!("{}: a key could not be sent: {e}", self.name))
    }

    /// The screen's text in one line, for a failure's reason.
    fn shown(&self) -> String {
        let s = self.screen();
        let lines: Vec<&str> = s.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        format!("{}'s screen: {}", self.name, lines.join(" / "))
    }

    /// Waits until the screen shows one of `needles`; its index.
    async fn wait_any(&mut self, needles: &[&str], within: Duration) -> anyhow::Result<usize> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let s = self.screen();
            if let Some(i) = needles.iter().position(|n| s.contains(n)) {
                return Ok(i);
            }
            if self.closed {
                bail!("session closed before {needles:?} showed; {}", self.shown());
            }
            match tokio::time::timeout_at(deadline, self.ch.wait()).await {
                Err(_) => bail!(
                    "{needles:?} did not show within {within:?}; {}",
                    self.shown()
                ),
                Ok(msg) => self.take(msg),
            }
        }
    }

    async fn wait_for(&mut self, needle: &str, within: Duration) -> anyhow::Result<()> {
        self.wait_any(&[needle], within).await.map(|_| ())
    }

    async fn wait_closed(&mut self, within: Duration) -> anyhow::Result<()> {
        let deadline = tokio::time::Instant::now() + within;
        while !self.closed {
            match tokio::time::timeout_at(deadline, self.ch.wait()).await {
                Err(_) => bail!("{} still has a live session after {within:?}", self.name),
                Ok(msg) => self.take(msg),
            }
        }
        Ok(())
    }

    /// Whether the screen shows a game in play (either side's turn) with
    /// no seat waiting for a player.
    fn at_live_table(&self) -> bool {
        let s = self.screen();
        (s.contains(MY_TURN) || s.contains(THEIR_TURN)) && !s.contains(LOST_CONNECTION)
    }

    /// The two clocks on the screen (seconds left), first player first:
    /// the one row with two `m:ss` texts.
    fn clocks(&self) -> Option<[u64; 2]> {
        self.screen().lines().find_map(|line| {
            let times: Vec<u64> = line.split_whitespace().filter_map(parse_clock).collect();
            (times.len() == 2).then(|| [times[0], times[1]])
        })
    }

    /// Plays `mv` on this player's turn. A move refused because the game
    /// was moving to another host is played again there.
    async fn play(&mut self, mv: &str) -> anyhow::Result<()> {
        let done = [THEIR_TURN, "wins with", "Draw:"];
        let again = ["play again in a moment", "play your move again"];
        self.wait_for(MY_TURN, WAIT)
            .await
            .with_context(|| format!("{}'s turn to play {mv}", self.name))?;
        self.send(format!("{mv}\r").as_bytes()).await?;
        let seen = self
            .wait_any(&[done[0], done[1], done[2], again[0], again[1]], WAIT)
            .await
            .with_context(|| format!("{}'s move {mv}", self.name))?;
        if seen < done.len() {
            return Ok(());
        }
        self.pump(Duration::from_millis(500)).await;
        self.wait_for(MY_TURN, WAIT).await?;
        self.send(format!("{mv}\r").as_bytes()).await?;
        self.wait_any(&done, WAIT)
            .await
            .with_context(|| format!("{}'s move {mv}, played again", self.name))?;
        Ok(())
    }

    /// Quick match of Connect Four from the lobby.
    async fn seek(&mut self) -> anyhow::Result<()> {
        self.wait_for("Choose a game", WAIT).await?;
        self.send(b"1").await?;
        self.wait_for("Quick match", WAIT).await?;
        self.send(b"1").await?;
        self.wait_any(&["Looking for", MY_TURN, THEIR_TURN], WAIT)
            .await
            .with_context(|| format!("{} seeking", self.name))?;
        Ok(())
    }

    /// Waits until this player is at a table; whether it is their move.
    async fn at_table(&mut self, within: Duration) -> anyhow::Result<bool> {
        Ok(self
            .wait_any(&[MY_TURN, THEIR_TURN], within)
            .await
            .with_context(|| format!("{} at the table", self.name))?
            == 0)
    }

    /// The name in the lobby's header (`you are <name>`).
    fn header_name(&self) -> Option<String> {
        let s = self.screen();
        let line = s.lines().find(|l| l.contains("you are "))?;
        let rest = &line[line.find("you are ")? + "you are ".len()..];
        rest.split_whitespace().next().map(str::to_string)
    }
}

/// `2:48` -> 168 seconds.
fn parse_clock(word: &str) -> Option<u64> {
    let (m, s) = word.split_once(':')?;
    if s.len() != 2 || m.is_empty() || m.len() > 2 {
        return None;
    }
    Some(m.parse::<u64>().ok()? * 60 + s.parse::<u64>().ok()?)
}

fn new_key() -> anyhow::Result<PrivateKey> {
    Ok(PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519)?)
}

// ---------------------------------------------------------------- one run

/// What one run of a case came to.
#[derive(Default)]
struct Outcome {
    finished: bool,
    recorded_once: bool,
    /// From the fault to both players at a table that goes on.
    resume: Option<Duration>,
    failure: Option<String>,
}

/// Two players of a run, paired across hosts.
struct Game {
    names: [String; 2],
    keys: [PrivateKey; 2],
    players: [Player; 2],
    /// The host each player is on.
    on: [usize; 2],
    /// The player who moves first.
    first: usize,
}

impl Game {
    /// The first player and the second, in that order.
    fn ordered(&mut self) -> (&mut Player, &mut Player) {
        let [p0, p1] = &mut self.players;
        if self.first == 0 { (p0, p1) } else { (p1, p0) }
    }

    /// Moves to a move count of `from + n` (the first player in column a,
    /// the second in b).
    async fn play_moves(&mut self, from: usize, n: usize) -> anyhow::Result<()> {
        let (f, s) = self.ordered();
        for i in from..from + n {
            if i % 2 == 0 {
                f.play("a").await?;
            } else {
                s.play("b").await?;
            }
        }
        Ok(())
    }

    /// The last three moves (from four): the first player wins in column a.
    async fn finish(&mut self, out: &mut Outcome) -> anyhow::Result<()> {
        self.play_moves(4, 3).await.context("finishing the game")?;
        for p in &mut self.players {
            p.wait_for(WON, WAIT).await.context("the win")?;
        }
        out.finished = true;
        Ok(())
    }

    /// The player on host `h`.
    fn on_host(&self, h: usize) -> Option<usize> {
        self.on.iter().position(|&x| x == h)
    }

    /// Waits until both players are at a table that goes on (a turn shown,
    /// no seat waiting); the time since `fault`.
    /// Player `who`, whose session went with the fault at `fault`, signs
    /// in again on host `to`: the game goes on (the clocks `before`, read
    /// on `watcher`'s screen, not gone up), is played out and is recorded
    /// once.
    #[allow(clippy::too_many_arguments)]
    async fn come_back_and_finish(
        &mut self,
        cluster: &Cluster,
        who: usize,
        to: usize,
        fault: Instant,
        (watcher, before): (usize, [u64; 2]),
        store_url: &str,
        out: &mut Outcome,
    ) -> anyhow::Result<()> {
        self.players[who] =
            Player::connect(cluster.hosts[to].addr, &self.names[who], &self.keys[who]).await?;
        self.on[who] = to;
        out.resume = Some(self.resumed(fault).await?);
        clocks_kept(before, clocks_now(&mut self.players[watcher]).await?)?;
        self.finish(out).await?;
        check_record(store_url, &self.names).await?;
        out.recorded_once = true;
        Ok(())
    }

    /// Takes in what both players are sent for `d`; neither may be closed.
    async fn pump_for(&mut self, d: Duration) -> anyhow::Result<()> {
        let until = Instant::now() + d;
        while Instant::now() < until {
            for p in &mut self.players {
                p.pump(Duration::from_millis(50)).await;
                if p.closed {
                    bail!("{} was closed; {}", p.name, p.shown());
                }
            }
        }
        Ok(())
    }

    async fn resumed(&mut self, fault: Instant) -> anyhow::Result<Duration> {
        let deadline = tokio::time::Instant::now() + RESUME_WAIT;
        loop {
            if self.players.iter().all(Player::at_live_table) {
                return Ok(fault.elapsed());
            }
            if tokio::time::Instant::now() > deadline {
                let back: Vec<&Player> = self
                    .players
                    .iter()
                    .filter(|p| p.screen().contains(LOST_CONNECTION))
                    .collect();
                if !back.is_empty() && self.players.iter().all(|p| !p.closed) {
                    bail!(
                        "a seat still waits for a player who is back after {RESUME_WAIT:?}; {}",
                        back[0].shown()
                    );
                }
                let stuck = self
                    .players
                    .iter()
                    .find(|p| !p.at_live_table())
                    .map_or_else(String::new, Player::shown);
                bail!("the game did not go on within {RESUME_WAIT:?}; {stuck}");
            }
            for p in &mut self.players {
                if p.closed {
                    bail!("{} was closed while the game should go on", p.name);
                }
                p.pump(Duration::from_millis(50)).await;
            }
        }
    }
}

/// Connects two players (`names`, on hosts `on`), seeks with `seek_first`
/// first, and checks they sit at one table; the game, four moves in.
async fn pair(
    cluster: &Cluster,
    names: [String; 2],
    on: [usize; 2],
    seek_first: usize,
) -> anyhow::Result<Game> {
    let keys = [new_key()?, new_key()?];
    let mut players = [
        Player::connect(cluster.hosts[on[0]].addr, &names[0], &keys[0]).await?,
        Player::connect(cluster.hosts[on[1]].addr, &names[1], &keys[1]).await?,
    ];
    for p in &mut players {
        p.wait_for("2 online", WAIT)
            .await
            .context("the hosts see each other")?;
    }
    players[seek_first].seek().await?;
    players[seek_first]
        .wait_for("Looking for", WAIT)
        .await
        .context("the first seeker waits")?;
    players[1 - seek_first].seek().await?;
    let a_first = players[0].at_table(WAIT).await?;
    let b_first = players[1].at_table(WAIT).await?;
    if a_first == b_first {
        bail!("both players think it is their move, or neither does");
    }
    for (i, p) in players.iter().enumerate() {
        if !p.screen().contains(&names[1 - i]) {
            bail!(
                "{} is not at a table with {}; {}",
                names[i],
                names[1 - i],
                p.shown()
            );
        }
    }
    let mut game = Game {
        names,
        keys,
        players,
        on,
        first: if a_first { 0 } else { 1 },
    };
    game.play_moves(0, 4)
        .await
        .context("the first four moves")?;
    Ok(game)
}

/// Reads the clocks on `p`'s screen (after taking in what it has been sent).
async fn clocks_now(p: &mut Player) -> anyhow::Result<[u64; 2]> {
    p.pump(Duration::from_millis(200)).await;
    p.clocks()
        .with_context(|| format!("no clocks on the screen; {}", p.shown()))
}

/// Clocks read across a takeover must not have gone up.
fn clocks_kept(before: [u64; 2], after: [u64; 2]) -> anyhow::Result<()> {
    if after[0] > before[0] || after[1] > before[1] {
        bail!(
            "a clock went up across the fault: {} -> {}",
            show_clocks(before),
            show_clocks(after)
        );
    }
    Ok(())
}

fn show_clocks(c: [u64; 2]) -> String {
    format!(
        "{}:{:02} {}:{:02}",
        c[0] / 60,
        c[0] % 60,
        c[1] / 60,
        c[1] % 60
    )
}

/// Checks the store holds the game exactly once and whole: seven moves,
/// the first player's in column a, the second's in b, the first player
/// the winner.
async fn check_record(store_url: &str, names: &[String; 2]) -> anyhow::Result<()> {
    check_record_within(store_url, names, RECORD_WAIT).await
}

/// [`check_record`], waiting up to `within` for the record to arrive.
async fn check_record_within(
    store_url: &str,
    names: &[String; 2],
    within: Duration,
) -> anyhow::Result<()> {
    use crate::store::{ExportFilter, GameResult, Store};
    let store = Store::open(store_url).await?;
    let deadline = Instant::now() + within;
    let result = loop {
        let games = store
            .export(&ExportFilter {
                player: Some(names[0].clone()),
                limit: 100,
                ..Default::default()
            })
            .await?;
        match &games[..] {
            [] if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            [] => break Err(anyhow::anyhow!("the game was never recorded")),
            [g] => {
                // A second record could still be on its way: look once more.
                tokio::time::sleep(Duration::from_millis(500)).await;
                break whole(g, names);
            }
            many => {
                break Err(anyhow::anyhow!(
                    "the game was recorded {} times",
                    many.len()
                ));
            }
        }
    };
    let again = store
        .export(&ExportFilter {
            player: Some(names[0].clone()),
            limit: 100,
            ..Default::default()
        })
        .await?;
    store.close().await;
    if again.len() > 1 {
        bail!("the game was recorded {} times", again.len());
    }
    result?;
    fn whole(g: &crate::store::GameRecord, names: &[String; 2]) -> anyhow::Result<()> {
        let columns: Vec<u8> = g.moves.iter().map(|m| m.x).collect();
        if columns != [0, 1, 0, 1, 0, 1, 0] {
            bail!("the record's moves are not the game's: columns {columns:?}");
        }
        if g.result != GameResult::Win || g.winner != Some(g.first) {
            bail!(
                "the record's result is not the first player's win: {:?}, winner {:?}, first {}",
                g.result,
                g.winner,
                g.first
            );
        }
        let mut got = [g.players[0].name.clone(), g.players[1].name.clone()];
        got.sort();
        let mut want = names.clone();
        want.sort();
        if got != want {
            bail!("the record's players are {got:?}, not {want:?}");
        }
        Ok(())
    }
    Ok(())
}

/// The player names of a run (unique in the store).
fn names_of(case: usize, run: usize) -> [String; 2] {
    [format!("c{case}r{run}a"), format!("c{case}r{run}b")]
}

/// Runs case `case` once (run number `run`).
async fn run_case(case: usize, run: usize, args: &BenchFailoverArgs, store_url: &str) -> Outcome {
    let mut out = Outcome::default();
    let tag = format!("{case}r{run}");
    // Case 6 runs on a NATS server of its own, case 7 reaches the store
    // through a proxy it can cut.
    let mut nats = None;
    if case == 6 {
        match NatsServer::start(&args.nats_server, &tag) {
            Ok(n) => nats = Some(n),
            Err(e) => {
                out.failure = Some(format!("nats-server: {e:#}"));
                return out;
            }
        }
    }
    let mut proxy = None;
    if case == 7 {
        match StoreProxy::start(store_url).await {
            Ok(p) => proxy = Some(p),
            Err(e) => {
                out.failure = Some(format!("store proxy: {e:#}"));
                return out;
            }
        }
    }
    let nats_url = nats
        .as_ref()
        .map_or_else(|| args.nats_url.clone(), NatsServer::url);
    let host_store = proxy
        .as_ref()
        .map_or_else(|| store_url.to_string(), |p| p.url.clone());
    let mut cluster = match Cluster::start(&tag, 2, &nats_url, &host_store) {
        Ok(c) => c,
        Err(e) => {
            out.failure = Some(format!("hosts: {e:#}"));
            return out;
        }
    };
    let result = match (case, nats.as_mut(), proxy.as_ref()) {
        (1, ..) => table_host_killed(&mut cluster, run, store_url, &mut out).await,
        (2, ..) => visitor_host_killed(&mut cluster, run, store_url, &mut out).await,
        (3, ..) => rolling_restart(&mut cluster, run, store_url, &mut out).await,
        (4, ..) => one_key_two_hosts(&mut cluster, run, store_url, &mut out).await,
        (5, ..) => table_host_paused(&mut cluster, run, store_url, &mut out).await,
        (6, Some(n), _) => nats_restarted(&mut cluster, n, run, store_url, &mut out).await,
        (7, _, Some(p)) => store_down(&mut cluster, p, run, store_url, &mut out).await,
        _ => Err(anyhow::anyhow!("no such case")),
    };
    if let Err(e) = result {
        let reason = format!("{e:#}");
        eprintln!(
            "failover: case {case} run {run} failed: {reason}\n{}",
            cluster.logs()
        );
        out.failure = Some(reason);
    }
    cluster.stop_all();
    cluster.close().await;
    drop(nats);
    drop(proxy);
    out
}

/// Sets up the common start: players on hosts 0 and 1, the seeker order
/// alternating by run (the table lands on the second seeker's host); the
/// game four moves in and the table's host.
async fn start_game(cluster: &Cluster, case: usize, run: usize) -> anyhow::Result<(Game, usize)> {
    let seek_first = run % 2;
    let game = pair(cluster, names_of(case, run), [0, 1], seek_first).await?;
    let rooms = Rooms::open(&cluster.nats_url, &cluster.prefix).await?;
    let owner = rooms.owner_at(4).await?;
    let table = cluster
        .index_of(&owner)
        .with_context(|| format!("the table is on an unknown host {owner}"))?;
    Ok((game, table))
}

/// (1) The table's host is killed; its player comes back on the other host.
async fn table_host_killed(
    cluster: &mut Cluster,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let (mut g, table) = start_game(&*cluster, 1, run).await?;
    let doomed = g.on_host(table).context("a player on the table's host")?;
    let other = 1 - doomed;
    let before = clocks_now(&mut g.players[other]).await?;
    cluster.hosts[table].signal("KILL")?;
    let fault = Instant::now();
    g.players[doomed]
        .wait_closed(WAIT)
        .await
        .context("the session on the killed host")?;
    let to = g.on[other];
    g.come_back_and_finish(cluster, doomed, to, fault, (other, before), store_url, out)
        .await
}

/// (2) A visitor's host is killed: the table's host tells the opponent
/// within 10 s; the player comes back to the table's host.
async fn visitor_host_killed(
    cluster: &mut Cluster,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let (mut g, table) = start_game(&*cluster, 2, run).await?;
    let opponent = g.on_host(table).context("a player on the table's host")?;
    let visitor = 1 - opponent;
    let before = clocks_now(&mut g.players[opponent]).await?;
    cluster.hosts[g.on[visitor]].signal("KILL")?;
    let fault = Instant::now();
    g.players[visitor]
        .wait_closed(WAIT)
        .await
        .context("the session on the killed host")?;
    let told = format!("{} {LOST_CONNECTION}", g.names[visitor]);
    g.players[opponent]
        .wait_for(&told, Duration::from_secs(10))
        .await
        .context("the opponent told within 10 s")?;
    g.come_back_and_finish(
        cluster,
        visitor,
        table,
        fault,
        (opponent, before),
        store_url,
        out,
    )
    .await
}

/// (3) The table's host restarts (SIGTERM, started again under its name);
/// its player comes back to it.
async fn rolling_restart(
    cluster: &mut Cluster,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let (mut g, table) = start_game(&*cluster, 3, run).await?;
    let leaving = g.on_host(table).context("a player on the table's host")?;
    let other = 1 - leaving;
    let before = clocks_now(&mut g.players[other]).await?;
    cluster.hosts[table].signal("TERM")?;
    let fault = Instant::now();
    g.players[leaving]
        .wait_closed(WAIT)
        .await
        .context("the session on the restarting host")?;
    let said = String::from_utf8_lossy(&g.players[leaving].raw).contains("This host is restarting");
    if !said {
        bail!("the player on the restarting host was not told it restarts");
    }
    restart(cluster, table)?;
    g.come_back_and_finish(
        cluster,
        leaving,
        table,
        fault,
        (other, before),
        store_url,
        out,
    )
    .await
}

/// Waits for host `i` to stop and starts it again (same name, config,
/// port).
fn restart(cluster: &mut Cluster, i: usize) -> anyhow::Result<()> {
    let nats_url = cluster.nats_url.clone();
    let host = &mut cluster.hosts[i];
    host.wait_exit(Duration::from_secs(20))
        .context("the host after SIGTERM")?;
    host.start(&nats_url).context("the restarted host")
}

/// (4) One key signs in on a second host while seeking on the first: the
/// first session is closed and told why, the second keeps the name, and
/// it is paired with the other player, not with its old self.
async fn one_key_two_hosts(
    cluster: &mut Cluster,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let names = names_of(4, run);
    let keys = [new_key()?, new_key()?];
    let (a, b) = (cluster.hosts[0].addr, cluster.hosts[1].addr);
    // X (player 0) seeks on A; Y (player 1) is on A too.
    let mut old = Player::connect(a, &names[0], &keys[0]).await?;
    let mut y = Player::connect(a, &names[1], &keys[1]).await?;
    old.wait_for(&format!("you are {}", names[0]), WAIT).await?;
    y.wait_for("2 online", WAIT).await?;
    // A guest on B sees both: B has heard from A (a sign-in on B is told
    // only to the hosts B knows to be live).
    let mut watcher = Player::connect_as(b, &format!("w{run}"), None).await?;
    watcher
        .wait_for("3 online", WAIT)
        .await
        .context("the hosts see each other")?;
    old.seek().await?;
    old.wait_for("Looking for", WAIT).await?;
    // X signs in on B.
    let fault = Instant::now();
    let mut x = Player::connect(b, &names[0], &keys[0]).await?;
    x.wait_for("you are ", WAIT).await?;
    if x.header_name().as_deref() != Some(names[0].as_str()) {
        bail!(
            "the second session is not named {}; {}",
            names[0],
            x.shown()
        );
    }
    if let Err(e) = old.wait_closed(Duration::from_secs(10)).await {
        bail!(
            "the first session of the key (seeking on {}): {e:#}; {}",
            cluster.hosts[0].name,
            old.shown()
        );
    }
    if !String::from_utf8_lossy(&old.raw).contains(SIGNED_IN_ELSEWHERE) {
        bail!("the first session was closed without {SIGNED_IN_ELSEWHERE:?}");
    }
    // Seek; by turns X or Y first (the table on A or on B).
    let mut players = [x, y];
    let seek_first = run % 2;
    players[seek_first].seek().await?;
    players[seek_first]
        .wait_for("Looking for", WAIT)
        .await
        .context("the first seeker waits")?;
    players[1 - seek_first].seek().await?;
    let x_first = players[0].at_table(WAIT).await?;
    let y_first = players[1].at_table(WAIT).await?;
    if x_first == y_first {
        bail!("both players think it is their move, or neither does");
    }
    for (i, p) in players.iter().enumerate() {
        if !p.screen().contains(&names[1 - i]) {
            bail!(
                "{} is not at a table with {}; {}",
                names[i],
                names[1 - i],
                p.shown()
            );
        }
    }
    let mut g = Game {
        names,
        keys,
        players,
        on: [1, 0],
        first: if x_first { 0 } else { 1 },
    };
    out.resume = Some(g.resumed(fault).await?);
    g.play_moves(0, 4).await.context("the first four moves")?;
    g.finish(out).await?;
    check_record(store_url, &g.names).await?;
    out.recorded_once = true;
    Ok(())
}

/// (5) The table's host is paused (SIGSTOP) longer than its lease, then
/// resumed: the game must go on on the other host, and the paused host
/// must not keep a second table that takes moves.
async fn table_host_paused(
    cluster: &mut Cluster,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let (mut g, table) = start_game(&*cluster, 5, run).await?;
    let stuck = g.on_host(table).context("a player on the table's host")?;
    let other = 1 - stuck;
    let before = clocks_now(&mut g.players[other]).await?;
    let pid = cluster.hosts[table].pid().context("the table's host")?;
    signal(pid, "STOP")?;
    let fault = Instant::now();
    // Resumed after the pause, whatever the players do meanwhile.
    let resumer = std::thread::spawn(move || {
        std::thread::sleep(PAUSE);
        signal(pid, "CONT")
    });
    // The player whose host hangs opens a new session on the other host;
    // the old one hangs on (its client does not know the host is paused).
    let to = g.on[other];
    let fresh = Player::connect(cluster.hosts[to].addr, &g.names[stuck], &g.keys[stuck]).await?;
    let mut stale = std::mem::replace(&mut g.players[stuck], fresh);
    g.on[stuck] = to;
    let resumed = g.resumed(fault).await;
    let cont = resumer
        .join()
        .map_err(|_| anyhow::anyhow!("SIGCONT thread"))?;
    cont.context("SIGCONT")?;
    out.resume = Some(resumed.context("the game carried on while the host is paused")?);
    clocks_kept(before, clocks_now(&mut g.players[other]).await?)?;
    // The paused host runs again. Its old table must not take a move: try
    // one from the stale session (column c, which the game never plays).
    stale.pump(Duration::from_secs(3)).await;
    eprintln!(
        "failover: case 5 run {run}: 3 s after SIGCONT the old session on the paused host is {}; {}",
        if stale.closed { "closed" } else { "open" },
        stale.shown()
    );
    let mut stale_took_move = false;
    if !stale.closed && stale.screen().contains(MY_TURN) {
        stale.send(b"c\r").await.ok();
        stale.pump(Duration::from_secs(2)).await;
        stale_took_move = !stale.closed && stale.screen().contains(THEIR_TURN);
    }
    let rooms = Rooms::open(&cluster.nats_url, &cluster.prefix).await?;
    let kept = rooms.all().await;
    let owners: Vec<String> = kept.iter().map(|r| r.owner.clone()).collect();
    let paused = &cluster.hosts[table].name;
    if owners.iter().any(|o| o == paused) {
        bail!("the paused host, running again, holds the room in NATS (owners: {owners:?})");
    }
    if owners.len() != 1 {
        bail!("one room kept in NATS expected after SIGCONT, found owners {owners:?}");
    }
    if stale_took_move {
        bail!(
            "the paused host, running again, took a move at its old table (rooms kept: {owners:?}); {}",
            stale.shown()
        );
    }
    // One account, one live session.
    stale
        .wait_closed(Duration::from_secs(10))
        .await
        .context("the old session on the paused host after SIGCONT")?;
    g.finish(out).await?;
    check_record(store_url, &g.names).await?;
    out.recorded_once = true;
    Ok(())
}

/// (6) NATS stops for 10 s and starts again (its store on disk kept):
/// nobody is closed; the move the player to move types during the outage
/// is played (or its player is told to play it again: never lost without
/// a word); the game goes on across the hosts once NATS is back, one host
/// keeps the room, the game is recorded once. The time reported is from
/// NATS being back until that move shows on both screens.
async fn nats_restarted(
    cluster: &mut Cluster,
    nats: &mut NatsServer,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let (mut g, table) = start_game(&*cluster, 6, run).await?;
    let before = clocks_now(&mut g.players[0]).await?;
    nats.down()?;
    let fault = Instant::now();
    g.pump_for(Duration::from_secs(2)).await?;
    let mover = g.first;
    let them = 1 - mover;
    g.players[mover]
        .wait_for(MY_TURN, WAIT)
        .await
        .context("the turn during the outage")?;
    g.players[mover].send(b"a\r").await?;
    g.pump_for(OUTAGE.saturating_sub(fault.elapsed())).await?;
    eprintln!(
        "failover: case 6 run {run}: {:?} without NATS (the table on {}, {} moved at 2 s): {}; {}",
        fault.elapsed(),
        cluster.hosts[table].name,
        g.names[mover],
        g.players[mover].shown(),
        g.players[them].shown()
    );
    nats.up()?;
    let back = Instant::now();
    let played = |g: &Game| {
        g.players[mover].screen().contains(THEIR_TURN)
            && g.players[them].screen().contains(MY_TURN)
            && !g.players[them].screen().contains(LOST_CONNECTION)
    };
    let deadline = back + RESUME_WAIT;
    let mut replayed = false;
    while !played(&g) {
        if Instant::now() > deadline {
            bail!(
                "the move typed while NATS was away did not show within {RESUME_WAIT:?} of its return; {}; {}",
                g.players[mover].shown(),
                g.players[them].shown()
            );
        }
        let told = {
            let s = g.players[mover].screen();
            s.contains("play again in a moment") || s.contains("play your move again")
        };
        if told && !replayed && back.elapsed() > Duration::from_secs(3) {
            eprintln!("failover: case 6 run {run}: told to play the move again; played again");
            g.players[mover].send(b"a\r").await?;
            replayed = true;
        }
        g.pump_for(Duration::from_millis(100)).await?;
    }
    out.resume = Some(back.elapsed());
    clocks_kept(before, clocks_now(&mut g.players[0]).await?)?;
    // A move each way across the hosts, then the room is held by one host.
    g.play_moves(5, 1)
        .await
        .context("the move after NATS came back")?;
    let rooms = Rooms::open(&cluster.nats_url, &cluster.prefix).await?;
    let owners: Vec<String> = rooms.all().await.into_iter().map(|r| r.owner).collect();
    if owners.len() != 1 {
        bail!("one room kept in NATS expected after the restart, found owners {owners:?}");
    }
    if owners[0] != cluster.hosts[table].name {
        eprintln!(
            "failover: case 6 run {run}: the room moved from {} to {}",
            cluster.hosts[table].name, owners[0]
        );
    }
    g.play_moves(6, 1).await.context("the winning move")?;
    for p in &mut g.players {
        p.wait_for(WON, WAIT).await.context("the win")?;
    }
    out.finished = true;
    check_record(store_url, &g.names).await?;
    out.recorded_once = true;
    Ok(())
}

/// (7) PostgreSQL is unreachable for 10 s while the game is played to its
/// end: the end is shown at once, the record waits in the journal (it is
/// not in the store while the store is away) and is stored once when the
/// store is back.
async fn store_down(
    cluster: &mut Cluster,
    proxy: &StoreProxy,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let (mut g, _) = start_game(&*cluster, 7, run).await?;
    proxy.cut();
    let fault = Instant::now();
    out.resume = Some(g.resumed(fault).await?);
    g.finish(out)
        .await
        .context("the game's end with the store away")?;
    let ended = fault.elapsed();
    if ended >= OUTAGE {
        bail!("the game's end took {ended:?}, longer than the store was away");
    }
    if records_of(store_url, &g.names[0]).await? != 0 {
        bail!("the game reached the store while the hosts could not reach it");
    }
    tokio::time::sleep(OUTAGE - ended).await;
    proxy.mend();
    check_record_within(store_url, &g.names, Duration::from_secs(30))
        .await
        .context("the journaled game once the store is back")?;
    out.recorded_once = true;
    Ok(())
}

/// How many games of `player` the store holds.
async fn records_of(store_url: &str, player: &str) -> anyhow::Result<usize> {
    use crate::store::{ExportFilter, Store};
    let store = Store::open(store_url).await?;
    let n = store
        .export(&ExportFilter {
            player: Some(player.to_string()),
            limit: 100,
            ..Default::default()
        })
        .await?
        .len();
    store.close().await;
    Ok(n)
}

// ---------------------------------------------------------------- outages

/// A `nats-server` of the run's own (JetStream, its store in a scratch
/// folder), so that stopping it touches nobody else.
struct NatsServer {
    program: PathBuf,
    port: u16,
    dir: tempfile_dir::Dir,
    child: Option<std::process::Child>,
}

impl NatsServer {
    fn start(program: &std::path::Path, tag: &str) -> anyhow::Result<NatsServer> {
        let dir =
            std::env::temp_dir().join(format!("inarow-bench-nats-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let mut n = NatsServer {
            program: program.to_path_buf(),
            port: free_port()?,
            dir: tempfile_dir::Dir(dir),
            child: None,
        };
        n.up()?;
        Ok(n)
    }

    fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Starts the server (again, on the same port and store).
    fn up(&mut self) -> anyhow::Result<()> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.0.join("nats.log"))?;
        let child = std::process::Command::new(&self.program)
            .args([
                "-js",
                "-a",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-sd",
            ])
            .arg(self.dir.0.join("store"))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(log)
            .spawn()
            .with_context(|| format!("cannot start {}", self.program.display()))?;
        self.child = Some(child);
        let deadline = Instant::now() + WAIT;
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            if Instant::now() > deadline {
                bail!(
                    "nats-server did not listen on port {} within {WAIT:?}",
                    self.port
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }

    /// Stops the server (SIGTERM, as a service manager would).
    fn down(&mut self) -> anyhow::Result<()> {
        let Some(mut child) = self.child.take() else {
            return Ok(());
        };
        signal(child.id(), "TERM")?;
        let deadline = Instant::now() + WAIT;
        while child.try_wait()?.is_none() {
            if Instant::now() > deadline {
                child.kill()?;
                child.wait()?;
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// A TCP proxy between the hosts and PostgreSQL that the bench can cut:
/// cut, it closes every connection and refuses new ones (the store is
/// unreachable), mended, it passes them on again.
struct StoreProxy {
    /// The store URL through the proxy.
    url: String,
    open: Arc<std::sync::atomic::AtomicBool>,
    cuts: tokio::sync::watch::Sender<u64>,
    task: tokio::task::JoinHandle<()>,
}

impl StoreProxy {
    async fn start(store_url: &str) -> anyhow::Result<StoreProxy> {
        let (target, url_at) = pg_address(store_url)?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = url_at(&listener.local_addr()?.to_string());
        let open = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let (cuts, _) = tokio::sync::watch::channel(0u64);
        let task = {
            let open = open.clone();
            let cuts = cuts.clone();
            tokio::spawn(async move {
                while let Ok((mut from, _)) = listener.accept().await {
                    if !open.load(std::sync::atomic::Ordering::SeqCst) {
                        continue;
                    }
                    let mut cut = cuts.subscribe();
                    let target = target.clone();
                    tokio::spawn(async move {
                        let Ok(mut to) = tokio::net::TcpStream::connect(&target).await else {
                            return;
                        };
                        tokio::select! {
                            _ = tokio::io::copy_bidirectional(&mut from, &mut to) => {}
                            _ = cut.changed() => {}
                        }
                    });
                }
            })
        };
        Ok(StoreProxy {
            url,
            open,
            cuts,
            task,
        })
    }

    fn cut(&self) {
        self.open.store(false, std::sync::atomic::Ordering::SeqCst);
        self.cuts.send_modify(|n| *n += 1);
    }

    fn mend(&self) {
        self.open.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Drop for StoreProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The `host:port` a `postgres://` URL points at, and the URL pointed at
/// another address.
fn pg_address(url: &str) -> anyhow::Result<(String, impl Fn(&str) -> String + use<>)> {
    let start = url.find("://").context("not a URL")? + 3;
    let end = url[start..]
        .find(['/', '?'])
        .map_or(url.len(), |i| start + i);
    let host_at = url[start..end].rfind('@').map_or(start, |i| start + i + 1);
    let host = &url[host_at..end];
    if host.is_empty() || host.starts_with('[') {
        bail!("the store URL {url} names no IPv4 host or name");
    }
    let target = if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:5432")
    };
    let (head, tail) = (url[..host_at].to_string(), url[end..].to_string());
    Ok((target, move |addr: &str| format!("{head}{addr}{tail}")))
}

// ---------------------------------------------------------------- the run

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

    #[test]
    fn the_store_proxy_points_a_url_at_itself() {
        let (target, at) =
            pg_address("postgres://root@127.0.0.1:5432/test?options=-c%20search_path%3Dx").unwrap();
        assert_eq!(target, "127.0.0.1:5432");
        assert_eq!(
            at("127.0.0.1:6000"),
            "postgres://root@127.0.0.1:6000/test?options=-c%20search_path%3Dx"
        );
        let (target, at) = pg_address("postgres://db.example/x").unwrap();
        assert_eq!(target, "db.example:5432");
        assert_eq!(at("127.0.0.1:1"), "postgres://127.0.0.1:1/x");
        assert!(pg_address("postgres://[::1]:5432/x").is_err());
    }
}
