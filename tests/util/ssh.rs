//! A real host on 127.0.0.1:0 and real SSH clients (russh) that read the
//! screen through a terminal emulator.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use inarow::config::Config;
use inarow::server::Host;
use russh::ChannelMsg;
use russh::client;
use russh::keys::{Algorithm, PrivateKey, PrivateKeyWithHashAlg};

use super::TestClient;

/// A host for one test, with its own key file.
pub struct TestHost {
    pub host: Option<Host>,
    pub addr: SocketAddr,
    pub dir: tempfile::TempDir,
}

/// Config for tests: loopback, a key and a SQLite store in a temp dir,
/// short waits.
pub fn test_config_text(dir: &std::path::Path, extra: &str) -> String {
    let key = dir.join("host_key");
    let db = dir.join("var/inarow.db");
    format!(
        "[ssh]\nlisten = \"127.0.0.1:0\"\nhost_key = \"{}\"\n\n[telnet]\nlisten = \"127.0.0.1:0\"\n\n[lobby]\nmatch_wait_secs = 1\n\n[computer]\nthink_ms = 100\n\n[store]\nurl = \"sqlite://{}\"\n\n[log]\nlevel = \"warn\"\n{extra}",
        key.display(),
        db.display()
    )
}

/// Merges `extra` TOML (whole sections) over the test defaults.
pub async fn start_host_with(extra: &str) -> TestHost {
    let dir = tempfile::tempdir().unwrap();
    let text = merge(&test_config_text(dir.path(), ""), extra);
    let config = Config::parse(&text, "test config").unwrap();
    let host = Host::start(config).await.unwrap();
    TestHost {
        addr: host.ssh_addr,
        host: Some(host),
        dir,
    }
}

pub async fn start_host() -> TestHost {
    start_host_with("").await
}

/// Overlays the sections of `extra` on `base` (both TOML).
pub fn merge(base: &str, extra: &str) -> String {
    let mut a: toml::Table = base.parse().unwrap();
    let b: toml::Table = extra.parse().unwrap();
    for (section, values) in b {
        let entry = a
            .entry(section)
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if let (Some(t), Some(v)) = (entry.as_table_mut(), values.as_table()) {
            for (k, val) in v {
                t.insert(k.clone(), val.clone());
            }
        }
    }
    toml::to_string(&a).unwrap()
}

impl TestHost {
    pub async fn shutdown(&mut self) {
        if let Some(h) = self.host.take() {
            h.shutdown().await;
        }
    }
}

pub use inarow::cli::bench::players::Trusting;

/// How a test client logs in.
pub enum Login {
    /// With a (new, random) ed25519 key.
    Key(Box<PrivateKey>),
    /// Without a key: keyboard-interactive, as a guest.
    Guest,
}

/// A new ed25519 key pair for the stock OpenSSH client, made by
/// `ssh-keygen` at `path` (no passphrase; `comment` its comment if given).
pub fn openssh_key(path: &std::path::Path, comment: Option<&str>) {
    let mut keygen = std::process::Command::new("ssh-keygen");
    keygen.args(["-q", "-t", "ed25519", "-N", ""]);
    if let Some(comment) = comment {
        keygen.args(["-C", comment]);
    }
    let status = keygen
        .arg("-f")
        .arg(path)
        .status()
        .expect("ssh-keygen runs (scripts/test-deps installs openssh-client)");
    assert!(status.success());
}

pub fn new_key() -> Box<PrivateKey> {
    Box::new(PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap())
}

/// A logged-in SSH session with a pty and a shell, and what it shows.
pub struct Client {
    pub handle: client::Handle<Trusting>,
    pub ch: russh::Channel<client::Msg>,
    pub term: vt100::Parser,
    /// Every byte received.
    pub raw: Vec<u8>,
    pub exit_status: Option<u32>,
    pub closed: bool,
}

pub const WAIT: Duration = Duration::from_secs(10);

impl Client {
    pub async fn connect(addr: SocketAddr, user: &str, login: Login) -> Client {
        Self::connect_sized(addr, user, login, 100, 30).await
    }

    pub async fn connect_sized(
        addr: SocketAddr,
        user: &str,
        login: Login,
        cols: u16,
        rows: u16,
    ) -> Client {
        let (handle, ch) = Self::open(addr, user, login).await;
        Self::start_shell(handle, ch, cols, rows).await
    }

    /// Connects after sending `prefix` (a PROXY protocol header, as a
    /// balancer does); 100x30.
    pub async fn connect_after(
        addr: SocketAddr,
        prefix: &[u8],
        user: &str,
        login: Login,
    ) -> Client {
        let stream = Self::stream_after(addr, prefix).await;
        let config = Arc::new(client::Config::default());
        let handle = client::connect_stream(config, stream, Trusting)
            .await
            .unwrap();
        let (handle, ch) = Self::log_in(handle, user, login).await;
        Self::start_shell(handle, ch, 100, 30).await
    }

    /// A TCP connection that has sent `prefix`.
    pub async fn stream_after(addr: SocketAddr, prefix: &[u8]) -> tokio::net::TcpStream {
        use tokio::io::AsyncWriteExt;
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        stream.write_all(prefix).await.unwrap();
        stream
    }

    async fn start_shell(
        handle: client::Handle<Trusting>,
        ch: russh::Channel<client::Msg>,
        cols: u16,
        rows: u16,
    ) -> Client {
        ch.request_pty(
            true,
            "xterm-256color",
            u32::from(cols),
            u32::from(rows),
            0,
            0,
            &[],
        )
        .await
        .unwrap();
        ch.request_shell(true).await.unwrap();
        Client {
            handle,
            ch,
            term: vt100::Parser::new(rows, cols, 0),
            raw: Vec::new(),
            exit_status: None,
            closed: false,
        }
    }

    /// Connects and opens a session channel, without a pty or shell.
    pub async fn open(
        addr: SocketAddr,
        user: &str,
        login: Login,
    ) -> (client::Handle<Trusting>, russh::Channel<client::Msg>) {
        let config = Arc::new(client::Config::default());
        let handle = client::connect(config, addr, Trusting).await.unwrap();
        Self::log_in(handle, user, login).await
    }

    async fn log_in(
        mut handle: client::Handle<Trusting>,
        user: &str,
        login: Login,
    ) -> (client::Handle<Trusting>, russh::Channel<client::Msg>) {
        match login {
            Login::Key(key) => {
                let ok = handle
                    .authenticate_publickey(user, PrivateKeyWithHashAlg::new(Arc::new(*key), None))
                    .await
                    .unwrap();
                assert!(ok.success(), "public key login refused");
            }
            Login::Guest => {
                let r = handle
                    .authenticate_keyboard_interactive_start(user, None)
                    .await
                    .unwrap();
                assert!(
                    matches!(r, client::KeyboardInteractiveAuthResponse::Success),
                    "guest login refused: {r:?}"
                );
            }
        }
        let ch = handle.channel_open_session().await.unwrap();
        (handle, ch)
    }

    pub async fn send(&mut self, bytes: &[u8]) {
        self.ch.data(bytes).await.unwrap();
    }

    pub fn screen(&self) -> String {
        self.term.screen().contents()
    }

    /// Reads output for up to `d`.
    pub async fn pump(&mut self, d: Duration) {
        let deadline = tokio::time::Instant::now() + d;
        while !self.closed {
            match tokio::time::timeout_at(deadline, self.ch.wait()).await {
                Err(_) => return,
                Ok(msg) => self.take(msg),
            }
        }
    }

    fn take(&mut self, msg: Option<ChannelMsg>) {
        match msg {
            Some(ChannelMsg::Data { data }) => {
                self.term.process(&data);
                self.raw.extend_from_slice(&data);
            }
            Some(ChannelMsg::ExitStatus { exit_status }) => self.exit_status = Some(exit_status),
            Some(ChannelMsg::Close) | None => self.closed = true,
            Some(_) => {}
        }
    }

    /// Reads until the screen shows `needle`; panics with the screen after [`WAIT`].
    pub async fn wait_for(&mut self, needle: &str) -> String {
        self.wait_for_within(needle, WAIT).await
    }

    /// [`Client::wait_for`] with its own limit.
    pub async fn wait_for_within(&mut self, needle: &str, wait: Duration) -> String {
        self.wait_until(
            wait,
            |s| s.contains(needle),
            || {
                (
                    format!("closed before {needle:?} showed"),
                    format!("{needle:?} did not show in {wait:?}"),
                )
            },
        )
        .await
    }

    /// Reads until the screen no longer shows `needle`; panics after [`WAIT`].
    pub async fn wait_gone(&mut self, needle: &str) -> String {
        self.wait_until(
            WAIT,
            |s| !s.contains(needle),
            || {
                (
                    format!("closed while {needle:?} showed"),
                    format!("{needle:?} still showed after {WAIT:?}"),
                )
            },
        )
        .await
    }

    /// Reads until the screen satisfies `done` (the screen); panics after
    /// `wait` or when the session closes first, saying what `failed`
    /// names for each (closed, timed out), with the screen.
    async fn wait_until(
        &mut self,
        wait: Duration,
        done: impl Fn(&str) -> bool,
        failed: impl Fn() -> (String, String),
    ) -> String {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let s = self.screen();
            if done(&s) {
                return s;
            }
            if self.closed {
                panic!("{}; screen:\n{s}", failed().0);
            }
            match tokio::time::timeout_at(deadline, self.ch.wait()).await {
                Err(_) => panic!("{}; screen:\n{s}", failed().1),
                Ok(msg) => self.take(msg),
            }
        }
    }

    /// Reads until the server closes the channel.
    pub async fn wait_closed(&mut self) {
        let deadline = tokio::time::Instant::now() + WAIT;
        while !self.closed {
            match tokio::time::timeout_at(deadline, self.ch.wait()).await {
                Err(_) => panic!("not closed in {WAIT:?}; screen:\n{}", self.screen()),
                Ok(msg) => self.take(msg),
            }
        }
    }

    /// Text received so far, escape sequences included.
    pub fn raw_text(&self) -> String {
        String::from_utf8_lossy(&self.raw).into_owned()
    }

    /// Connects and waits for the lobby's first menu.
    pub async fn in_lobby(addr: SocketAddr, user: &str, login: Login) -> Client {
        let mut c = Client::connect(addr, user, login).await;
        c.wait_for("Choose a game").await;
        c
    }

    /// From the lobby's first menu: a quick match of the game on
    /// `game_key` (`1` Connect Four, `2` Gomoku, `3` Renju).
    pub async fn seek(&mut self, game_key: &[u8]) {
        self.wait_for("Choose a game").await;
        self.send(game_key).await;
        self.wait_for("Quick match").await;
        self.send(b"1").await;
    }

    /// From the lobby's first menu: Connect Four against the easy
    /// computer (who moves first as the lobby has it), until the game
    /// shows a turn.
    pub async fn against_the_computer(&mut self) {
        self.walk_to_the_computer().await;
        self.send(b"1").await;
        wait_any(self, &[MY_TURN, THEIR_TURN[1]]).await;
    }

    /// [`Client::against_the_computer`], this player moving first: until
    /// their first move.
    pub async fn first_against_the_computer(&mut self) {
        self.walk_to_the_computer().await;
        self.walk(&[(b"f", "Who moves first  you")]).await;
        self.send(b"1").await;
        self.wait_for(MY_TURN).await;
    }

    async fn walk_to_the_computer(&mut self) {
        self.walk(&[(b"1", "Play the computer"), (b"2", "how strong")])
            .await;
    }

    /// From the lobby: who is online, the entry under this player's own
    /// (`name`'s), and the form to invite them.
    pub async fn invite_form(&mut self, name: &str) {
        self.send(b"o").await;
        self.wait_for(name).await;
        self.send(b"\x1b[B\r").await;
        self.wait_for(&format!("Invite {name} to a game")).await;
    }
}

/// The real `inarow serve` binary on a free loopback port.
pub struct ServerProcess {
    pub addr: SocketAddr,
    /// The telnet port.
    pub telnet: SocketAddr,
    child: std::process::Child,
    log: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl ServerProcess {
    pub fn start(extra: &str) -> ServerProcess {
        let dir = tempfile::tempdir().unwrap();
        let free = || {
            std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port()
        };
        let (port, telnet_port) = (free(), free());
        let text = merge(&test_config_text(dir.path(), ""), extra)
            // The [ssh] section comes first, then [telnet].
            .replacen("127.0.0.1:0", &format!("127.0.0.1:{port}"), 1)
            .replacen("127.0.0.1:0", &format!("127.0.0.1:{telnet_port}"), 1)
            .replace("level = \"warn\"", "level = \"info\"");
        let cfg = dir.path().join("inarow.toml");
        std::fs::write(&cfg, text).unwrap();
        let log = dir.path().join("serve.log");
        let child = super::inarow()
            .env(
                "RUST_LOG",
                std::env::var("INAROW_TEST_LOG").unwrap_or_else(|_| "info".into()),
            )
            .args(["serve", "--config"])
            .arg(&cfg)
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "the host did not start"
            );
            std::thread::sleep(Duration::from_millis(30));
        }
        let telnet: SocketAddr = format!("127.0.0.1:{telnet_port}").parse().unwrap();
        ServerProcess {
            addr,
            telnet,
            child,
            log,
            _dir: dir,
        }
    }

    /// The configuration file the host runs with (its store included).
    pub fn config(&self) -> std::path::PathBuf {
        self._dir.path().join("inarow.toml")
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn signal(&self, name: &str) {
        let ok = std::process::Command::new("kill")
            .args([&format!("-{name}"), &self.pid().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
    }

    /// Waits for the process to exit.
    pub fn wait(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if std::time::Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Watches a host that a test client has stopped reading from: its peak
/// memory, and whether it has cut the client off yet.
pub struct StallWatch<'a> {
    server: &'a ServerProcess,
    pub peak: usize,
}

impl<'a> StallWatch<'a> {
    pub fn new(server: &'a ServerProcess) -> StallWatch<'a> {
        StallWatch { server, peak: 0 }
    }

    pub fn is_cut(&self) -> bool {
        self.server.log().contains("client stopped reading")
    }

    /// Call on every request sent; every 250th samples memory. True once cut.
    pub fn sent(&mut self, i: usize) -> bool {
        if !i.is_multiple_of(250) {
            return false;
        }
        self.peak = self.peak.max(super::rss_of(self.server.pid()));
        self.is_cut()
    }

    /// Waits up to 10 s for the cut, sampling memory; returns the peak.
    pub async fn finish(mut self) -> usize {
        for _ in 0..100 {
            self.peak = self.peak.max(super::rss_of(self.server.pid()));
            if self.is_cut() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.peak
    }
}

impl super::TestClient for Client {
    async fn send(&mut self, bytes: &[u8]) {
        Client::send(self, bytes).await;
    }

    async fn try_send(&mut self, bytes: &[u8], within: Duration) -> bool {
        tokio::time::timeout(within, self.ch.data(bytes))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    fn screen(&self) -> String {
        Client::screen(self)
    }

    async fn pump(&mut self, d: Duration) {
        Client::pump(self, d).await;
    }

    fn is_closed(&self) -> bool {
        self.closed
    }
}

/// What the status line says on this player's turn.
pub const MY_TURN: &str = "Move: ";

/// Waits until the screen shows one of `needles`; returns its index.
pub async fn wait_any(c: &mut Client, needles: &[&str]) -> usize {
    wait_any_within(c, needles, crate::util::ssh::WAIT).await
}

/// [`wait_any`] with its own limit.
pub async fn wait_any_within(c: &mut Client, needles: &[&str], wait: Duration) -> usize {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let s = c.screen();
        if let Some(i) = needles.iter().position(|n| s.contains(n)) {
            return i;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "none of {needles:?} showed:\n{s}"
        );
        c.pump(Duration::from_millis(50)).await;
    }
}

pub const THEIR_TURN: [&str; 2] = ["Waiting for", "is thinking"];

/// Waits until a player's seat shows a game (a turn), and says whether
/// it is theirs to move.
pub async fn at_table(c: &mut Client) -> bool {
    wait_any(c, &[MY_TURN, THEIR_TURN[0]]).await == 0
}

/// The invitation `inviter` (named `inviter_name`) sent and `invited`
/// (named `invited_name`) is shown: declined (the inviter hears it, the
/// invited is back in the lobby), then sent again from the same form and
/// accepted.
pub async fn declined_then_accepted(
    (inviter, inviter_name): (&mut Client, &str),
    (invited, invited_name): (&mut Client, &str),
) {
    invited.send(b"n").await;
    inviter
        .wait_for(&format!("{invited_name} declined your invitation"))
        .await;
    invited.wait_for("Choose a game").await;
    inviter.send(b"\r").await;
    inviter
        .wait_for(&format!("Invite {invited_name} to a game"))
        .await;
    inviter.send(b"\r").await;
    invited
        .wait_for(&format!("{inviter_name} invites you to a game"))
        .await;
    invited.send(b"y").await;
}

/// Waits until the board holds `n` stones and it is this player's turn.
pub async fn stones(c: &mut Client, n: usize) {
    for _ in 0..200 {
        if super::board_stones(&c.screen()) == n && c.screen().contains(MY_TURN) {
            return;
        }
        c.pump(Duration::from_millis(50)).await;
    }
    panic!("not {n} stones on my turn:\n{}", c.screen());
}

/// The two players of a game in the order of play: the one whose screen
/// shows their move first.
pub fn mover_first<T: std::borrow::Borrow<Client>>(a: T, b: T) -> (T, T) {
    if a.borrow().screen().contains(MY_TURN) {
        (a, b)
    } else {
        (b, a)
    }
}

/// Plays one move when it is this client's turn; returns once the move is
/// on its way and the turn has passed (or the game ended).
pub async fn play(c: &mut Client, mv: &str) {
    c.wait_for(MY_TURN).await;
    c.send(format!("{mv}\r").as_bytes()).await;
    wait_any(c, &[THEIR_TURN[0], THEIR_TURN[1], "wins with", "Draw:"]).await;
}

/// What a Gomoku or Renju board shows on the point `point` (`h8`: a column
/// letter, a row number from 1) on this client's screen, read cell by cell
/// off the terminal (an emoji stone is one wide cell): `None` when no board
/// row with that number shows. The board's rows carry their number on both
/// sides, right-aligned in two columns; each point is a one-column gap and
/// a two-column body.
pub fn board_point(c: &Client, point: &str) -> Option<String> {
    let x = u16::from(point.as_bytes()[0] - b'a');
    let row: u16 = point[1..].parse().ok()?;
    let label = row.to_string();
    let screen = c.term.screen();
    let (rows, cols) = screen.size();
    let text = |r: u16, from: u16, to: u16| -> String {
        (from..to)
            .map(|col| screen.cell(r, col).map_or("", |cell| cell.contents()))
            .collect::<String>()
    };
    for r in 0..rows {
        let filled: Vec<u16> = (0..cols)
            .filter(|&col| {
                screen
                    .cell(r, col)
                    .is_some_and(|cell| !cell.contents().trim().is_empty())
            })
            .collect();
        let (Some(&first), Some(&last)) = (filled.first(), filled.last()) else {
            continue;
        };
        // The label field is two columns wide, right-aligned.
        let left = (first + label.len() as u16).saturating_sub(2);
        if last < left + 20
            || text(r, left, left + 2).trim() != label
            || text(r, last + 1 - label.len() as u16, last + 1) != label
        {
            continue;
        }
        let body = left + 2 + 3 * x + 1;
        return Some(text(r, body, body + 2).trim_end().to_string());
    }
    None
}
