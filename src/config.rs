//! The host's configuration: the only place the TOML file is read.
//!
//! The file is parsed into a raw serde mirror (unknown keys are errors),
//! then validated into typed [`Config`] values; every error names the key.
//! With no file at all the built-in defaults apply; `config/inarow.toml`
//! lists every key with exactly these defaults (a test checks it).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::clock::TimeControl;
use crate::game::{GameKind, Rules};

/// A configuration problem, naming the key.
#[derive(Debug, Error)]
pub enum ConfigError {
    // The I/O error is part of the message, not a `source`: printing the
    // error chain (`{:#}`) would say it twice.
    #[error("cannot read {path}: {error}")]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: String, message: String },
    #[error("{key}: {message}")]
    Invalid { key: &'static str, message: String },
}

fn invalid(key: &'static str, message: impl Into<String>) -> ConfigError {
    ConfigError::Invalid {
        key,
        message: message.into(),
    }
}

// ---------------------------------------------------------------------------
// Raw mirror of the file.

#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawConfig {
    ssh: RawSsh,
    telnet: RawTelnet,
    limits: RawLimits,
    lobby: RawLobby,
    computer: RawComputer,
    games: RawGames,
    store: RawStore,
    chat: RawChat,
    analysis: RawAnalysis,
    http: RawHttp,
    cluster: RawCluster,
    log: RawLog,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawCluster {
    enabled: bool,
    nats_url: String,
    host_name: String,
    prefix: String,
}

impl Default for RawCluster {
    fn default() -> Self {
        RawCluster {
            enabled: false,
            nats_url: "nats://127.0.0.1:4222".into(),
            host_name: String::new(),
            prefix: "inarow".into(),
        }
    }
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawHttp {
    enabled: bool,
    listen: String,
    max_connections: u64,
    max_connections_per_address: u64,
    header_timeout_secs: u64,
    requests_per_minute: u64,
    public_url: String,
    max_live_viewers: u64,
    max_live_streams: u64,
}

impl Default for RawHttp {
    fn default() -> Self {
        RawHttp {
            enabled: false,
            listen: "127.0.0.1:9090".into(),
            max_connections: 1024,
            max_connections_per_address: 64,
            header_timeout_secs: 5,
            requests_per_minute: 300,
            public_url: String::new(),
            max_live_viewers: 1000,
            max_live_streams: 4000,
        }
    }
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawSsh {
    listen: String,
    host_key: String,
    keepalive_secs: u64,
    keepalive_max: u32,
    login_timeout_secs: u64,
    proxy_protocol: bool,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawTelnet {
    enabled: bool,
    listen: String,
    proxy_protocol: bool,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawLimits {
    max_sessions: u64,
    max_per_ip: u64,
    idle_timeout_secs: u64,
    output_buffer_kib: u64,
    output_grace_secs: u64,
    input_bytes_per_sec: u64,
    input_burst_bytes: u64,
    max_line_length: u64,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawLobby {
    match_wait_secs: u64,
    claim_after_secs: u64,
    reconnect_grace_secs: u64,
    max_spectators: u64,
    motd: Option<String>,
    public_address: String,
    default_language: String,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawChat {
    enabled: bool,
    max_length: u64,
    per_minute: u64,
}

impl Default for RawChat {
    fn default() -> Self {
        RawChat {
            enabled: true,
            max_length: 200,
            per_minute: 20,
        }
    }
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawAnalysis {
    enabled: bool,
    max_parallel: u64,
    budget_ms: u64,
}

impl Default for RawAnalysis {
    fn default() -> Self {
        RawAnalysis {
            enabled: true,
            max_parallel: 1,
            budget_ms: 1000,
        }
    }
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawComputer {
    think_ms: u64,
    max_concurrent: u64,
    connect4_book: String,
    connect4_table_mb: u64,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawGames {
    connect4: bool,
    connect4_size: String,
    gomoku: bool,
    gomoku_size: u64,
    gomoku_exact: bool,
    renju: bool,
    connect4_clock: String,
    gomoku_clock: String,
    renju_clock: String,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawStore {
    url: String,
    journal: String,
    schema: String,
}

impl Default for RawStore {
    fn default() -> Self {
        RawStore {
            url: DEFAULT_STORE_URL.into(),
            journal: String::new(),
            schema: String::new(),
        }
    }
}

/// The store a fresh machine gets: SQLite in `var/`, created on first start.
pub const DEFAULT_STORE_URL: &str = "sqlite://var/inarow.db";

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
struct RawLog {
    level: String,
}

impl Default for RawSsh {
    fn default() -> Self {
        RawSsh {
            listen: "0.0.0.0:2222".into(),
            host_key: "keys/ssh_host_ed25519_key".into(),
            keepalive_secs: 30,
            keepalive_max: 3,
            login_timeout_secs: 30,
            proxy_protocol: false,
        }
    }
}

impl Default for RawTelnet {
    fn default() -> Self {
        RawTelnet {
            enabled: true,
            listen: "0.0.0.0:2323".into(),
            proxy_protocol: false,
        }
    }
}

impl Default for RawLimits {
    fn default() -> Self {
        RawLimits {
            max_sessions: 10_000,
            max_per_ip: 50,
            idle_timeout_secs: 1800,
            output_buffer_kib: 256,
            output_grace_secs: 20,
            input_bytes_per_sec: 2048,
            input_burst_bytes: 8192,
            max_line_length: 64,
        }
    }
}

impl Default for RawLobby {
    fn default() -> Self {
        RawLobby {
            match_wait_secs: 30,
            claim_after_secs: 120,
            reconnect_grace_secs: 60,
            max_spectators: 200,
            motd: None,
            public_address: String::new(),
            default_language: "en".into(),
        }
    }
}

impl Default for RawComputer {
    fn default() -> Self {
        RawComputer {
            think_ms: 1000,
            max_concurrent: 2,
            connect4_book: String::new(),
            connect4_table_mb: 32,
        }
    }
}

impl Default for RawGames {
    fn default() -> Self {
        RawGames {
            connect4: true,
            connect4_size: "7x6".into(),
            gomoku: true,
            gomoku_size: 15,
            gomoku_exact: false,
            renju: true,
            connect4_clock: "3+2".into(),
            gomoku_clock: "10+5".into(),
            renju_clock: "10+5".into(),
        }
    }
}

impl Default for RawLog {
    fn default() -> Self {
        RawLog {
            level: "info".into(),
        }
    }
}

// ---------------------------------------------------------------------------
// Validated settings.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SshConfig {
    pub listen: SocketAddr,
    pub host_key: PathBuf,
    /// Probe a silent peer this often; `None` turns keepalives off.
    pub keepalive: Option<Duration>,
    /// Unanswered probes before the peer counts as dead.
    pub keepalive_max: usize,
    /// Time a connection has to finish logging in.
    pub login_timeout: Duration,
    /// Every connection starts with a PROXY protocol header (v1 or v2)
    /// from a balancer, whose client address then stands for the peer.
    pub proxy_protocol: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TelnetConfig {
    pub enabled: bool,
    pub listen: SocketAddr,
    /// As [`SshConfig::proxy_protocol`].
    pub proxy_protocol: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerLimits {
    pub max_sessions: usize,
    pub max_per_ip: usize,
    /// Since the last key press.
    pub idle_timeout: Duration,
    /// Output a session may have waiting for a slow client.
    pub output_buffer: usize,
    /// How long a client may stay over that bound before it is cut off.
    pub output_grace: Duration,
    pub input_bytes_per_sec: u32,
    pub input_burst_bytes: u32,
    pub max_line_length: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LobbyConfig {
    /// How long quick match waits before offering the computer.
    pub match_wait: Duration,
    /// In a game without a clock, how long a player may wait for the
    /// opponent's move before claiming the win.
    pub claim_after: Duration,
    /// How long the seat of a player with an account whose connection
    /// dropped mid-game is kept.
    pub reconnect_grace: Duration,
    /// Most people watching one game.
    pub max_spectators: usize,
    /// Message of the day, sanitised (`""`: none); `None`: the built-in
    /// welcome, in each reader's language.
    pub motd: Option<String>,
    /// The address people reach this host at (`play.example.org`, with
    /// `:PORT` when not 22), for instructions; `None`: not configured.
    pub public_address: Option<String>,
    /// The language of whoever's client does not say one (`en`, `de`,
    /// `zh-TW`).
    pub default_language: crate::lang::Lang,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComputerConfig {
    pub think: Duration,
    /// Searches running at once; more wait their turn.
    pub max_concurrent: usize,
    /// The Connect Four opening book file; `None`: the built-in book.
    pub connect4_book: Option<PathBuf>,
    /// The Connect Four solver's table, in MiB (per running search).
    pub connect4_table_mb: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamesConfig {
    /// The games on offer, with their rules, in menu order.
    pub enabled: Vec<Rules>,
    /// Quick matches' time control per game (`None`: no clock).
    pub connect4_clock: Option<TimeControl>,
    pub gomoku_clock: Option<TimeControl>,
    pub renju_clock: Option<TimeControl>,
}

impl GamesConfig {
    pub fn rules_for(&self, kind: GameKind) -> Option<Rules> {
        self.enabled.iter().copied().find(|r| r.kind() == kind)
    }

    /// The time control of a quick match of this game.
    pub fn clock_for(&self, kind: GameKind) -> Option<TimeControl> {
        match kind {
            GameKind::ConnectFour => self.connect4_clock,
            GameKind::Gomoku => self.gomoku_clock,
            GameKind::Renju => self.renju_clock,
        }
    }
}

/// The move-by-move analysis of finished games (`[a]` on the end screen
/// and in replays): run off the games' rooms, a bounded number at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisConfig {
    pub enabled: bool,
    /// Games analysed at once (each on a core of its own).
    pub max_parallel: usize,
    /// Time for each position.
    pub budget: std::time::Duration,
}

/// Chat at the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatConfig {
    pub enabled: bool,
    /// Longest message, in characters.
    pub max_length: usize,
    /// Messages one person may send a minute.
    pub per_minute: usize,
}

/// The operators' endpoints: `/healthz`, `/readyz`, `/metrics`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpConfig {
    pub enabled: bool,
    pub listen: SocketAddr,
    /// Connections at once; a new one beyond it (or beyond the per-address
    /// bound) closes the oldest that is not in the middle of a request.
    pub max_connections: usize,
    pub max_connections_per_address: usize,
    /// A request's headers must arrive within this time of the
    /// connection (or of the last response); else it is closed.
    pub header_timeout: Duration,
    /// Page requests an address may make a minute (429 beyond); the
    /// operators' endpoints are not counted.
    pub requests_per_minute: usize,
    /// Where people reach the pages (`https://play.example.org`, no
    /// trailing slash): the end of a game and `inarow games show` give
    /// the game's address there. `None`: no address is shown.
    pub public_url: Option<String>,
    /// Browsers following one game in play (`/live/ID/events`) at once,
    /// and following any game; beyond, 503.
    pub max_live_viewers: usize,
    pub max_live_streams: usize,
}

/// Cluster mode: several hosts, one lobby, on NATS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterConfig {
    pub enabled: bool,
    pub nats_url: String,
    /// Unique in the cluster; the machine's host name by default.
    pub host_name: String,
    /// What this cluster's NATS buckets and subjects begin with (several
    /// clusters, or test runs, can share one NATS server).
    pub prefix: String,
}

/// Where accounts, ratings and games are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreConfig {
    /// `sqlite://PATH` or `postgres://USER@HOST:PORT/DB`.
    pub url: String,
    /// The journal finished games wait in while the store is unreachable;
    /// `None`: beside the SQLite file, else `var/journal.jsonl`.
    pub journal: Option<PathBuf>,
    /// PostgreSQL: the schema the tables live in (created when missing);
    /// `None`: the server's default (`search_path`, usually `public`).
    pub schema: Option<String>,
}

impl StoreConfig {
    /// How to open this store.
    pub fn options(&self) -> crate::store::StoreOptions {
        crate::store::StoreOptions {
            pg_schema: self.schema.clone(),
            ..crate::store::StoreOptions::default()
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub ssh: SshConfig,
    pub telnet: TelnetConfig,
    pub limits: ServerLimits,
    pub lobby: LobbyConfig,
    pub computer: ComputerConfig,
    pub games: GamesConfig,
    pub store: StoreConfig,
    pub chat: ChatConfig,
    pub analysis: AnalysisConfig,
    pub http: HttpConfig,
    pub cluster: ClusterConfig,
    /// A tracing filter directive such as `info` or `inarow=debug`.
    pub log_level: String,
}

impl Default for Config {
    fn default() -> Self {
        validate(RawConfig::default()).expect("built-in defaults are valid")
    }
}

impl Config {
    /// Reads and validates a file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        Config::parse(&text, &path.display().to_string())
    }

    /// Parses and validates TOML text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: origin.to_string(),
            message: e.to_string().trim_end().to_string(),
        })?;
        validate(raw)
    }
}

fn secs(key: &'static str, v: u64, min: u64, max: u64) -> Result<Duration, ConfigError> {
    if v < min || v > max {
        return Err(invalid(
            key,
            format!("{v} is out of range ({min}-{max} seconds)"),
        ));
    }
    Ok(Duration::from_secs(v))
}

/// `[http] public_url`: empty (none), or an http(s) address of printable
/// characters without spaces; a trailing slash is dropped.
fn public_url(raw: &str) -> Result<Option<String>, ConfigError> {
    let url = raw.trim().trim_end_matches('/');
    if url.is_empty() {
        return Ok(None);
    }
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    match rest {
        Some(host)
            if !host.is_empty()
                && url.len() <= 200
                && url.chars().all(|c| c.is_ascii_graphic()) =>
        {
            Ok(Some(url.to_string()))
        }
        _ => Err(invalid(
            "http.public_url",
            format!(
                "'{}' is not an address such as https://play.example.org",
                crate::text::sanitize_quote(raw, 60)
            ),
        )),
    }
}

fn count(key: &'static str, v: u64, min: u64, max: u64) -> Result<usize, ConfigError> {
    if v < min || v > max {
        return Err(invalid(key, format!("{v} is out of range ({min}-{max})")));
    }
    Ok(v as usize)
}

fn validate(raw: RawConfig) -> Result<Config, ConfigError> {
    let listen: SocketAddr = raw.ssh.listen.parse().map_err(|_| {
        invalid(
            "ssh.listen",
            format!(
                "'{}' is not an address such as 0.0.0.0:2222 or [::]:2222",
                crate::text::sanitize_quote(&raw.ssh.listen, 40)
            ),
        )
    })?;
    if raw.ssh.host_key.trim().is_empty() {
        return Err(invalid("ssh.host_key", "must name a file"));
    }
    let ssh = SshConfig {
        listen,
        host_key: PathBuf::from(&raw.ssh.host_key),
        keepalive: if raw.ssh.keepalive_secs == 0 {
            None
        } else {
            Some(secs("ssh.keepalive_secs", raw.ssh.keepalive_secs, 1, 3600)?)
        },
        keepalive_max: count(
            "ssh.keepalive_max",
            u64::from(raw.ssh.keepalive_max),
            1,
            100,
        )?,
        login_timeout: secs("ssh.login_timeout_secs", raw.ssh.login_timeout_secs, 1, 600)?,
        proxy_protocol: raw.ssh.proxy_protocol,
    };
    let telnet = TelnetConfig {
        enabled: raw.telnet.enabled,
        listen: raw.telnet.listen.parse().map_err(|_| {
            invalid(
                "telnet.listen",
                format!(
                    "'{}' is not an address such as 0.0.0.0:2323 or [::]:2323",
                    crate::text::sanitize_quote(&raw.telnet.listen, 40)
                ),
            )
        })?,
        proxy_protocol: raw.telnet.proxy_protocol,
    };
    let l = &raw.limits;
    let limits = ServerLimits {
        max_sessions: count("limits.max_sessions", l.max_sessions, 1, 1_000_000)?,
        max_per_ip: count("limits.max_per_ip", l.max_per_ip, 1, 1_000_000)?,
        idle_timeout: secs(
            "limits.idle_timeout_secs",
            l.idle_timeout_secs,
            10,
            7 * 24 * 3600,
        )?,
        output_buffer: count(
            "limits.output_buffer_kib",
            l.output_buffer_kib,
            16,
            64 * 1024,
        )? * 1024,
        output_grace: secs("limits.output_grace_secs", l.output_grace_secs, 1, 3600)?,
        input_bytes_per_sec: count(
            "limits.input_bytes_per_sec",
            l.input_bytes_per_sec,
            16,
            1 << 20,
        )? as u32,
        input_burst_bytes: count("limits.input_burst_bytes", l.input_burst_bytes, 64, 1 << 22)?
            as u32,
        max_line_length: count("limits.max_line_length", l.max_line_length, 8, 4096)?,
    };
    let motd = raw
        .lobby
        .motd
        .as_deref()
        .map(|m| crate::text::sanitize(m, 200));
    let public_address = match raw.lobby.public_address.trim() {
        "" => None,
        a if a.len() <= 255
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-:[]_".contains(c)) =>
        {
            Some(a.to_string())
        }
        _ => {
            return Err(invalid(
                "lobby.public_address",
                "a host name or address, optionally with :PORT (e.g. \"play.example.org\" or \"play.example.org:2222\")",
            ));
        }
    };
    let lobby = LobbyConfig {
        match_wait: secs("lobby.match_wait_secs", raw.lobby.match_wait_secs, 1, 3600)?,
        reconnect_grace: secs(
            "lobby.reconnect_grace_secs",
            raw.lobby.reconnect_grace_secs,
            1,
            3600,
        )?,
        claim_after: secs(
            "lobby.claim_after_secs",
            raw.lobby.claim_after_secs,
            5,
            24 * 3600,
        )?,
        max_spectators: count("lobby.max_spectators", raw.lobby.max_spectators, 0, 10_000)?,
        motd,
        public_address,
        default_language: crate::lang::Lang::of_id(&raw.lobby.default_language).ok_or_else(
            || {
                invalid(
                    "lobby.default_language",
                    format!(
                        "'{}' is not one of en, de, zh-TW",
                        crate::text::sanitize_quote(&raw.lobby.default_language, 20)
                    ),
                )
            },
        )?,
    };
    let http = HttpConfig {
        enabled: raw.http.enabled,
        listen: raw.http.listen.parse().map_err(|_| {
            invalid(
                "http.listen",
                format!(
                    "'{}' is not an address such as 127.0.0.1:9090",
                    crate::text::sanitize_quote(&raw.http.listen, 40)
                ),
            )
        })?,
        max_connections: count(
            "http.max_connections",
            raw.http.max_connections,
            16,
            100_000,
        )?,
        max_connections_per_address: count(
            "http.max_connections_per_address",
            raw.http.max_connections_per_address,
            4,
            100_000,
        )?,
        header_timeout: secs(
            "http.header_timeout_secs",
            raw.http.header_timeout_secs,
            1,
            300,
        )?,
        requests_per_minute: count(
            "http.requests_per_minute",
            raw.http.requests_per_minute,
            1,
            1_000_000,
        )?,
        public_url: public_url(&raw.http.public_url)?,
        max_live_viewers: count(
            "http.max_live_viewers",
            raw.http.max_live_viewers,
            1,
            100_000,
        )?,
        max_live_streams: count(
            "http.max_live_streams",
            raw.http.max_live_streams,
            1,
            1_000_000,
        )?,
    };
    let token = valid_host_name;
    let cluster = ClusterConfig {
        enabled: raw.cluster.enabled,
        nats_url: match raw.cluster.nats_url.trim() {
            u if (u.starts_with("nats://") || u.starts_with("tls://")) && u.len() <= 1024 => {
                u.to_string()
            }
            u => {
                return Err(invalid(
                    "cluster.nats_url",
                    format!(
                        "'{}' is not a NATS URL such as nats://127.0.0.1:4222",
                        crate::text::sanitize_quote(u, 60)
                    ),
                ));
            }
        },
        host_name: match raw.cluster.host_name.trim() {
            "" => default_host_name(),
            n if token(n) => n.to_string(),
            n => {
                return Err(invalid(
                    "cluster.host_name",
                    format!(
                        "'{}': letters, digits, - and _ only, at most 64",
                        crate::text::sanitize_quote(n, 70)
                    ),
                ));
            }
        },
        prefix: match raw.cluster.prefix.trim() {
            p if token(p) => p.to_string(),
            p => {
                return Err(invalid(
                    "cluster.prefix",
                    format!(
                        "'{}': letters, digits, - and _ only, at most 64",
                        crate::text::sanitize_quote(p, 70)
                    ),
                ));
            }
        },
    };
    let chat = ChatConfig {
        enabled: raw.chat.enabled,
        max_length: count("chat.max_length", raw.chat.max_length, 1, 1000)?,
        per_minute: count("chat.per_minute", raw.chat.per_minute, 1, 600)?,
    };
    let analysis = AnalysisConfig {
        enabled: raw.analysis.enabled,
        max_parallel: count("analysis.max_parallel", raw.analysis.max_parallel, 1, 64)?,
        budget: std::time::Duration::from_millis(count(
            "analysis.budget_ms",
            raw.analysis.budget_ms,
            10,
            60_000,
        )? as u64),
    };
    let computer = ComputerConfig {
        think: {
            let ms = raw.computer.think_ms;
            if !(10..=60_000).contains(&ms) {
                return Err(invalid(
                    "computer.think_ms",
                    format!("{ms} is out of range (10-60000 milliseconds)"),
                ));
            }
            Duration::from_millis(ms)
        },
        max_concurrent: count(
            "computer.max_concurrent",
            raw.computer.max_concurrent,
            1,
            256,
        )?,
        connect4_book: match raw.computer.connect4_book.trim() {
            "" => None,
            path => Some(PathBuf::from(path)),
        },
        connect4_table_mb: count(
            "computer.connect4_table_mb",
            raw.computer.connect4_table_mb,
            1,
            16 * 1024,
        )?,
    };
    let g = &raw.games;
    let mut enabled = Vec::new();
    if g.connect4 {
        let crate::game::BoardSize {
            width: w,
            height: h,
        } = g
            .connect4_size
            .parse()
            .map_err(|e: crate::game::ParseSizeError| {
                invalid("games.connect4_size", e.to_string())
            })?;
        if !(4..=12).contains(&w) || !(4..=12).contains(&h) {
            return Err(invalid(
                "games.connect4_size",
                format!("{w}x{h} is out of range (4x4 to 12x12)"),
            ));
        }
        enabled.push(
            Rules::new(GameKind::ConnectFour, w, h, 4, false)
                .map_err(|e| invalid("games.connect4_size", e.to_string()))?,
        );
    }
    if g.gomoku {
        let n = count("games.gomoku_size", g.gomoku_size, 9, 19)? as u8;
        enabled.push(
            Rules::new(GameKind::Gomoku, n, n, 5, g.gomoku_exact)
                .map_err(|e| invalid("games.gomoku_size", e.to_string()))?,
        );
    } else if g.gomoku_exact {
        return Err(invalid(
            "games.gomoku_exact",
            "is set but games.gomoku is off",
        ));
    }
    if g.renju {
        // Renju is played on the standard 15x15 board.
        enabled.push(Rules::renju());
    }
    let connect4_clock = TimeControl::parse(&g.connect4_clock)
        .map_err(|e| invalid("games.connect4_clock", e.to_string()))?;
    let gomoku_clock = TimeControl::parse(&g.gomoku_clock)
        .map_err(|e| invalid("games.gomoku_clock", e.to_string()))?;
    let renju_clock = TimeControl::parse(&g.renju_clock)
        .map_err(|e| invalid("games.renju_clock", e.to_string()))?;
    if enabled.is_empty() {
        return Err(invalid(
            "games",
            "at least one of connect4, gomoku and renju must be enabled",
        ));
    }
    let level = raw.log.level.trim().to_string();
    if !is_log_filter(&level) {
        return Err(invalid(
            "log.level",
            format!(
                "'{}' is not a log level such as info or debug",
                crate::text::sanitize_quote(&level, 40)
            ),
        ));
    }
    let url = raw.store.url.trim().to_string();
    if !(url.starts_with("sqlite://")
        || url.starts_with("postgres://")
        || url.starts_with("postgresql://"))
        || url.len() > 4096
    {
        return Err(invalid(
            "store.url",
            format!(
                "'{}' is not sqlite://PATH or postgres://USER@HOST:PORT/DB",
                crate::store::redact_url(&crate::text::sanitize_quote(&url, 80))
            ),
        ));
    }
    let schema = match raw.store.schema.trim() {
        "" => None,
        s if !crate::store::valid_schema_name(s) => {
            return Err(invalid(
                "store.schema",
                format!(
                    "'{}' is not a schema name: lower-case letters, digits and _, starting with a letter or _, at most 63, not pg_...",
                    crate::text::sanitize_quote(s, 80)
                ),
            ));
        }
        _ if url.starts_with("sqlite://") => {
            return Err(invalid(
                "store.schema",
                "a schema is for a PostgreSQL store (store.url postgres://...); leave it empty for SQLite".to_string(),
            ));
        }
        s => Some(s.to_string()),
    };
    let store = StoreConfig {
        url,
        journal: match raw.store.journal.trim() {
            "" => None,
            j => Some(PathBuf::from(j)),
        },
        schema,
    };
    Ok(Config {
        ssh,
        telnet,
        limits,
        lobby,
        computer,
        games: GamesConfig {
            enabled,
            connect4_clock,
            gomoku_clock,
            renju_clock,
        },
        store,
        chat,
        analysis,
        http,
        cluster,
        log_level: level,
    })
}

/// A level (`info`) or comma-separated `target=level` directives.
fn is_log_filter(text: &str) -> bool {
    const LEVELS: [&str; 6] = ["off", "error", "warn", "info", "debug", "trace"];
    let is_level = |s: &str| LEVELS.contains(&s.trim().to_ascii_lowercase().as_str());
    !text.is_empty()
        && text.split(',').all(|d| match d.split_once('=') {
            Some((target, level)) => {
                !target.trim().is_empty()
                    && target
                        .trim()
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
                    && is_level(level)
            }
            None => is_level(d),
        })
}

/// A host name (or a cluster prefix): letters, digits, `-` and `_`, at
/// most 64; what a NATS key token and a log line can hold.
pub fn valid_host_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The machine's host name made fit for [`valid_host_name`]: what an
/// empty `cluster.host_name` means.
pub fn default_host_name() -> String {
    let raw = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .unwrap_or_default();
    let name: String = raw
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(64)
        .collect();
    if name.is_empty() {
        "inarow".into()
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machines_host_name_is_made_a_valid_one() {
        assert!(valid_host_name(&default_host_name()));
        assert!(valid_host_name("web-1_a"));
        for bad in ["", "a.b", "a*", &"x".repeat(65)] {
            assert!(!valid_host_name(bad), "{bad}");
        }
    }

    #[test]
    fn the_shipped_file_equals_the_built_in_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/inarow.toml");
        let from_file = Config::load(&path).unwrap();
        assert_eq!(from_file, Config::default());
        assert_eq!(Config::parse("", "empty").unwrap(), Config::default());
    }

    #[test]
    fn the_shipped_file_lists_every_key() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/inarow.toml");
        let text = std::fs::read_to_string(path).unwrap();
        let table: toml::Table = text.parse().unwrap();
        let default = toml::Table::try_from(RawConfig::default()).unwrap();
        for (section, keys) in default {
            let got = table
                .get(&section)
                .and_then(|v| v.as_table())
                .unwrap_or_else(|| panic!("[{section}] missing"));
            for key in keys.as_table().unwrap().keys() {
                assert!(
                    got.contains_key(key),
                    "{section}.{key} missing from config/inarow.toml"
                );
            }
        }
    }

    #[test]
    fn errors_name_the_key() {
        let cases = [
            ("[limits]\nmax_sessions = 0", "limits.max_sessions"),
            (
                "[lobby]\ndefault_language = \"fr\"",
                "lobby.default_language",
            ),
            ("[ssh]\nlisten = \"nowhere\"", "ssh.listen"),
            ("[telnet]\nlisten = \"2323\"", "telnet.listen"),
            ("[games]\nconnect4_size = \"7by6\"", "games.connect4_size"),
            (
                "[games]\nconnect4 = false\ngomoku = false\nrenju = false",
                "games",
            ),
            ("[games]\nrenju_clock = \"soon\"", "games.renju_clock"),
            (
                "[games]\nconnect4_clock = \"3 minutes\"",
                "games.connect4_clock",
            ),
            ("[games]\ngomoku_clock = \"0+0\"", "games.gomoku_clock"),
            ("[computer]\nthink_ms = 5", "computer.think_ms"),
            ("[log]\nlevel = \"loud!!\"", "log.level"),
            ("[lobby]\nmatch_wait_secs = 0", "lobby.match_wait_secs"),
            ("[lobby]\nclaim_after_secs = 1", "lobby.claim_after_secs"),
            (
                "[lobby]\nreconnect_grace_secs = 0",
                "lobby.reconnect_grace_secs",
            ),
            (
                "[http]\npublic_url = \"play.example.org\"",
                "http.public_url",
            ),
            ("[http]\npublic_url = \"https://a b\"", "http.public_url"),
            (
                "[http]\nheader_timeout_secs = 0",
                "http.header_timeout_secs",
            ),
            (
                "[http]\nmax_connections_per_address = 1",
                "http.max_connections_per_address",
            ),
        ];
        for (text, key) in cases {
            let e = Config::parse(text, "test").unwrap_err().to_string();
            assert!(e.starts_with(key), "{text}: {e}");
        }
    }

    #[test]
    fn a_public_url_loses_its_trailing_slash() {
        let c =
            Config::parse("[http]\npublic_url = \"https://play.example.org/\"", "test").unwrap();
        assert_eq!(
            c.http.public_url.as_deref(),
            Some("https://play.example.org")
        );
        assert_eq!(Config::default().http.public_url, None);
    }

    #[test]
    fn unknown_keys_and_bad_types_are_errors() {
        let e = Config::parse("[limits]\nmax_sesions = 5", "f.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `max_sesions`"), "{e}");
        let e = Config::parse("[colour]\nx = 1", "f.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `colour`"), "{e}");
        let e = Config::parse("[limits]\nmax_sessions = \"lots\"", "f.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("max_sessions"), "{e}");
    }
}
