//! The host: listeners, connection limits, the shared context every
//! connection sees, and graceful shutdown. Transports are adapters that
//! feed bytes into a session task ([`conn`]): [`ssh`] on russh, [`telnet`]
//! with our own codec ([`telnet_codec`]).

pub mod accounts;
pub mod conn;
pub mod hostkey;
pub mod http;
pub mod net;
pub mod outbox;
pub mod proxy;
pub mod puzzles;
pub mod records;
pub mod ssh;
pub mod telnet;
pub mod telnet_codec;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Context;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::Config;
use crate::lobby::compute::Computer;
use crate::lobby::{self, LobbyHandle, LobbySettings, SessionId};
use crate::metrics::{Metrics, refusal};
use crate::store::{Journal, Recorder, RecorderOptions, Store};
use net::Admission;

/// Why games in progress stop when the host shuts down.
pub const SHUTDOWN_REASON: &str = "the host is shutting down";

/// How long sessions get to say goodbye when the host shuts down.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// What every connection shares.
pub struct Ctx {
    pub config: Config,
    pub lobby: LobbyHandle,
    pub admission: Arc<Admission>,
    /// Refused connections being told why (bounded).
    pub refusals: Arc<tokio::sync::Semaphore>,
    pub shutdown: CancellationToken,
    pub tracker: TaskTracker,
    pub ssh_config: Arc<russh::server::Config>,
    /// How a friend joins a room from outside (`CODE` stands for the code).
    pub join_hint: String,
    /// Accounts, ratings, games, bans.
    pub store: Store,
    /// Where finished games go.
    pub recorder: Arc<Recorder>,
    /// The computer's pool (for its load).
    pub computer: Computer,
    /// Analyses finished games off their rooms.
    pub analyst: Arc<crate::analyst::Analyst>,
    /// The day's puzzle, as this host last read it.
    pub daily: puzzles::Daily,
    /// What operators see at `/metrics`.
    pub metrics: Arc<Metrics>,
    /// Cluster mode: this host's place in the cluster.
    pub cluster: Option<Arc<crate::cluster::Cluster>>,
    /// The bans in force, as last read from the store (every
    /// [`BAN_POLL`]): a session a new ban covers is closed.
    pub bans: tokio::sync::watch::Receiver<Arc<Vec<crate::store::Ban>>>,
    next_id: AtomicU64,
}

/// How often the host reads the bans in force from the store, so that a ban
/// made with `inarow admin ban` (on any host of a cluster: they share the
/// store) also ends the sessions it covers.
pub const BAN_POLL: Duration = Duration::from_secs(3);

/// Reads the bans in force every [`BAN_POLL`] until `stop`; tells the
/// sessions when they change. A store that cannot be read keeps the last list.
async fn poll_bans(
    store: Store,
    tx: tokio::sync::watch::Sender<Arc<Vec<crate::store::Ban>>>,
    stop: CancellationToken,
) {
    loop {
        match store.bans_in_force(crate::store::now_ms()).await {
            Ok(bans) => {
                tx.send_if_modified(|old| {
                    let changed = **old != bans;
                    if changed {
                        *old = Arc::new(bans);
                    }
                    changed
                });
            }
            Err(e) => tracing::debug!(error = %e, "bans not read"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(BAN_POLL) => {}
        }
    }
}

impl Ctx {
    pub fn new_session_id(&self) -> SessionId {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }
}

/// A running host.
pub struct Host {
    pub ssh_addr: SocketAddr,
    /// Where telnet listens, when enabled.
    pub telnet_addr: Option<SocketAddr>,
    /// The host key's fingerprint, as players' clients show it.
    pub fingerprint: String,
    /// Where the operators' endpoints listen, when enabled.
    pub http_addr: Option<SocketAddr>,
    ctx: Arc<Ctx>,
    accept: Vec<JoinHandle<()>>,
    /// The endpoints outlive the sessions (`/readyz` says "draining").
    http: Option<(CancellationToken, JoinHandle<()>)>,
}

#[derive(Debug, Clone, Copy)]
enum Transport {
    Ssh,
    Telnet,
}

impl Host {
    /// Binds the listeners and starts serving.
    pub async fn start(config: Config) -> anyhow::Result<Host> {
        // The first line says what the host opens to the network, telnet's
        // lack of encryption included.
        let telnet = if config.telnet.enabled {
            format!(
                "telnet on {} (unencrypted; [telnet] enabled = false turns it off)",
                config.telnet.listen
            )
        } else {
            "telnet off".to_string()
        };
        tracing::info!(
            "inarow {} starting: ssh on {}, {telnet}",
            env!("CARGO_PKG_VERSION"),
            config.ssh.listen
        );
        // The store first: a host that cannot keep games does not start.
        let metrics = Arc::new(Metrics::new());
        let store = Store::open_with(&config.store.url, &config.store.options())
            .await?
            .counting_in(Arc::clone(&metrics));
        tracing::info!(store = %store.url(), "store open");
        let journal = Journal::new(config.store.journal.clone().unwrap_or_else(|| {
            Recorder::default_journal_path(
                &config.store.url,
                config
                    .cluster
                    .enabled
                    .then_some(config.cluster.host_name.as_str()),
            )
        }));
        let recorder = Arc::new(Recorder::start(
            store.clone(),
            journal,
            RecorderOptions::default(),
        ));
        let (key, created) = hostkey::load_or_create(&config.ssh.host_key)?;
        let fingerprint = hostkey::fingerprint(&key);
        if created {
            tracing::info!(path = %config.ssh.host_key.display(), "created a new host key");
        }
        tracing::info!(fingerprint = %fingerprint, "host key");
        let listener = net::listen(config.ssh.listen)
            .with_context(|| format!("cannot listen on {} (ssh.listen)", config.ssh.listen))?;
        let ssh_addr = listener.local_addr()?;
        let telnet_listener = if config.telnet.enabled {
            Some(net::listen(config.telnet.listen).with_context(|| {
                format!("cannot listen on {} (telnet.listen)", config.telnet.listen)
            })?)
        } else {
            None
        };
        let telnet_addr = match &telnet_listener {
            Some(l) => Some(l.local_addr()?),
            None => None,
        };
        let http_listener = if config.http.enabled {
            Some(
                tokio::net::TcpListener::bind(config.http.listen)
                    .await
                    .with_context(|| {
                        format!("cannot listen on {} (http.listen)", config.http.listen)
                    })?,
            )
        } else {
            None
        };
        let connect4_book = match &config.computer.connect4_book {
            Some(path) => {
                let bytes = std::fs::read(path).with_context(|| {
                    format!(
                        "cannot read the opening book {} (computer.connect4_book)",
                        path.display()
                    )
                })?;
                let book = crate::engine::connect4::Book::from_bytes(&bytes).map_err(|e| {
                    anyhow::anyhow!("computer.connect4_book: {}: {e}", path.display())
                })?;
                Some(Arc::new(book))
            }
            None => None,
        };
        let computer = Computer::new(
            config.computer.max_concurrent,
            config.computer.think,
            crate::engine::EngineOptions {
                seed: None,
                connect4_book,
                connect4_table_mb: config.computer.connect4_table_mb,
            },
        );
        let (across_tx, across_rx) = if config.cluster.enabled {
            let (tx, rx) = tokio::sync::mpsc::channel(lobby::ACROSS_QUEUE);
            (Some(tx), Some(rx))
        } else {
            (None, None)
        };
        let lobby = lobby::spawn(LobbySettings {
            across: across_tx,
            games: config.games.enabled.clone(),
            computer: computer.clone(),
            metrics: Arc::clone(&metrics),
            recorder: Some(Arc::clone(&recorder)),
            match_wait: config.lobby.match_wait,
            claim_after: config.lobby.claim_after,
            reconnect_grace: config.lobby.reconnect_grace,
            max_spectators: config.lobby.max_spectators,
            chat_max: config.chat.max_length,
            clocks: crate::game::GameKind::ALL
                .into_iter()
                .filter_map(|k| Some((k, config.games.clock_for(k)?)))
                .collect(),
        });
        let cluster = if config.cluster.enabled {
            let handle = lobby.clone();
            let exchange: crate::cluster::Exchange =
                Arc::new(move |remote, people| handle.exchange(remote, people));
            let link = crate::cluster::LobbyLink {
                lobby: lobby.clone(),
                from_lobby: across_rx.expect("made in cluster mode"),
                match_wait: config.lobby.match_wait,
                chat_max: config.chat.max_length,
            };
            let cluster = crate::cluster::Cluster::join(
                &config.cluster,
                Arc::clone(&metrics),
                exchange,
                link,
            )
            .await?;
            tracing::info!(host = %config.cluster.host_name, "joined the cluster");
            Some(Arc::new(cluster))
        } else {
            None
        };
        let join_hint = join_hint(config.lobby.public_address.as_deref(), ssh_addr.port());
        let initial = store.bans_in_force(crate::store::now_ms()).await;
        let (bans_tx, bans_rx) = tokio::sync::watch::channel(Arc::new(initial.unwrap_or_default()));
        let analyst = crate::analyst::Analyst::new(config.analysis.clone(), Some(store.clone()));
        let ctx = Arc::new(Ctx {
            ssh_config: Arc::new(ssh::russh_config(&config, key)),
            admission: Admission::new(config.limits.max_sessions, config.limits.max_per_ip),
            refusals: Arc::new(tokio::sync::Semaphore::new(net::MAX_REFUSALS_AT_ONCE)),
            config,
            lobby,
            shutdown: CancellationToken::new(),
            tracker: TaskTracker::new(),
            join_hint,
            analyst,
            daily: Default::default(),
            store,
            recorder,
            computer,
            metrics,
            cluster,
            bans: bans_rx,
            next_id: AtomicU64::new(1),
        });
        tokio::spawn(poll_bans(ctx.store.clone(), bans_tx, ctx.shutdown.clone()));
        let mut http_addr = None;
        let http = match http_listener {
            Some(l) => {
                let addr = l.local_addr()?;
                tracing::info!(%addr, "http endpoints: /healthz /readyz /metrics");
                http_addr = Some(addr);
                let stop = CancellationToken::new();
                let task = tokio::spawn(http::serve(Arc::clone(&ctx), l, stop.clone()));
                Some((stop, task))
            }
            None => None,
        };
        tracing::info!(addr = %ssh_addr, "listening for ssh");
        let mut accept = vec![tokio::spawn(accept_loop(
            Arc::clone(&ctx),
            listener,
            Transport::Ssh,
        ))];
        if let (Some(l), Some(addr)) = (telnet_listener, telnet_addr) {
            tracing::info!(%addr, "listening for telnet");
            accept.push(tokio::spawn(accept_loop(
                Arc::clone(&ctx),
                l,
                Transport::Telnet,
            )));
        }
        Ok(Host {
            ssh_addr,
            telnet_addr,
            fingerprint,
            http_addr,
            ctx,
            accept,
            http,
        })
    }

    /// Connections being served now.
    pub fn connections(&self) -> usize {
        self.ctx.admission.current()
    }

    /// Tells every session the host is shutting down, waits for them (at
    /// most a few seconds), then stops.
    pub async fn shutdown(self) {
        tracing::info!("shutting down");
        self.ctx.shutdown.cancel();
        self.ctx
            .lobby
            .send(lobby::Command::Shutdown {
                reason: SHUTDOWN_REASON.into(),
            })
            .await;
        for a in &self.accept {
            a.abort();
        }
        self.ctx.tracker.close();
        // Connections still open after this are cut with the process;
        // their games are the rooms' business, checked next.
        let _ = tokio::time::timeout(SHUTDOWN_GRACE * 2, self.ctx.tracker.wait()).await;
        // Every room has handed its game to the recorder once it ended;
        // the recorder then stores (or journals) them all before it stops.
        if !self.ctx.lobby.rooms_ended(SHUTDOWN_GRACE).await {
            tracing::warn!("some rooms did not end in time; their games may be unrecorded");
        }
        self.ctx.recorder.close().await;
        if let Some(cluster) = &self.ctx.cluster {
            cluster.leave().await;
        }
        if let Some((stop, mut task)) = self.http {
            stop.cancel();
            // Connections still open (a scraper's keep-alive) are cut.
            if tokio::time::timeout(SHUTDOWN_GRACE, &mut task)
                .await
                .is_err()
            {
                task.abort();
            }
        }
        self.ctx.store.close().await;
    }
}

/// How long a balancer has to send the PROXY header once connected.
pub const PROXY_HEADER_TIMEOUT: Duration = Duration::from_secs(3);

/// Connections whose PROXY header is still being read, at most; beyond,
/// new connections are closed at once.
const MAX_PENDING_HEADERS: usize = 1024;

async fn accept_loop(ctx: Arc<Ctx>, listener: tokio::net::TcpListener, transport: Transport) {
    let proxied = match transport {
        Transport::Ssh => ctx.config.ssh.proxy_protocol,
        Transport::Telnet => ctx.config.telnet.proxy_protocol,
    };
    let pending_headers = Arc::new(tokio::sync::Semaphore::new(MAX_PENDING_HEADERS));
    loop {
        let (stream, peer) = tokio::select! {
            _ = ctx.shutdown.cancelled() => return,
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    // Out of file descriptors and the like: back off a moment.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        if !proxied {
            admit_and_serve(&ctx, stream, peer, transport);
            continue;
        }
        // Behind a balancer: the header names the client, and only then
        // can the connection be admitted (by the client's address, not
        // the balancer's). It is read off the accept loop, a bounded
        // number at a time, each within a few seconds.
        let Ok(permit) = Arc::clone(&pending_headers).try_acquire_owned() else {
            ctx.metrics.refused(refusal::PROXY_PENDING);
            tracing::info!(%peer, "connection refused: too many PROXY headers pending");
            continue;
        };
        let task_ctx = Arc::clone(&ctx);
        ctx.tracker.spawn(async move {
            let mut stream = stream;
            let client = match tokio::time::timeout(
                PROXY_HEADER_TIMEOUT,
                proxy::read_header(&mut stream),
            )
            .await
            {
                Ok(Ok(Some(client))) => client,
                Ok(Ok(None)) => peer,
                Ok(Err(e)) => {
                    task_ctx.metrics.refused(refusal::PROXY_HEADER);
                    tracing::info!(%peer, ?transport, error = %e, "connection refused");
                    return;
                }
                Err(_) => {
                    task_ctx.metrics.refused(refusal::PROXY_HEADER);
                    tracing::info!(%peer, ?transport, "connection refused: no PROXY header in time");
                    return;
                }
            };
            drop(permit);
            admit_and_serve(&task_ctx, stream, client, transport);
        });
    }
}

/// Admits a connection from `peer` (the client's address) and starts its
/// session, or tells it why not.
fn admit_and_serve(
    ctx: &Arc<Ctx>,
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    transport: Transport,
) {
    let slot = match ctx.admission.admit(peer.ip()) {
        Ok(slot) => slot,
        Err(refusal) => {
            ctx.metrics.refused(match refusal {
                net::Refusal::Full => refusal::FULL,
                net::Refusal::TooManyFromAddress => refusal::PER_ADDRESS,
            });
            let english = ctx.admission.explain(refusal, crate::lang::Lang::En);
            let why = ctx
                .admission
                .explain(refusal, ctx.config.lobby.default_language);
            tracing::info!(%peer, reason = %english, "connection refused");
            // Say why, a bounded number at a time (a flood of refused
            // connections must cost little); beyond, close at once.
            if let Ok(permit) = Arc::clone(&ctx.refusals).try_acquire_owned() {
                let message = match transport {
                    Transport::Ssh => net::ssh_refusal(&why, &english),
                    Transport::Telnet => format!("{why}\r\n").into_bytes(),
                };
                tokio::spawn(async move {
                    net::refuse(stream, message).await;
                    drop(permit);
                });
            }
            return;
        }
    };
    tracing::info!(%peer, ?transport, "connection");
    // A latency hint; the connection works without it.
    let _ = stream.set_nodelay(true);
    match transport {
        Transport::Ssh => ctx
            .tracker
            .spawn(ssh::serve(Arc::clone(ctx), stream, peer, slot)),
        Transport::Telnet => ctx
            .tracker
            .spawn(telnet::serve(Arc::clone(ctx), stream, peer, slot)),
    };
}

/// Runs the host until Ctrl-C or SIGTERM.
pub async fn run_until_signal(config: Config) -> anyhow::Result<()> {
    let host = Host::start(config).await?;
    wait_for_signal().await;
    host.shutdown().await;
    Ok(())
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            // Without a Ctrl-C handler either, nothing stops the host but
            // a kill: it runs until then.
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        // As above: no handler, no stop but a kill.
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// How a friend connects straight into a room (`CODE` stands for the
/// room code): through the configured public address (`host` or
/// `host:port`), else "this host's address" with the port we listen on.
pub fn join_hint(public_address: Option<&str>, listen_port: u16) -> String {
    let (host, port) = match public_address {
        Some(a) => {
            // `host:port`, `[v6]:port`, or a bare host (a bare IPv6
            // address has several colons and no port).
            match a.rsplit_once(':') {
                Some((h, p))
                    if (h.ends_with(']') || !h.contains(':')) && p.parse::<u16>().is_ok() =>
                {
                    (h.to_string(), p.parse::<u16>().unwrap_or(22))
                }
                _ => (a.to_string(), 22),
            }
        }
        None => ("<this host's address>".to_string(), listen_port),
    };
    if port == 22 {
        format!("ssh CODE@{host}")
    } else {
        format!("ssh -p {port} CODE@{host}")
    }
}

#[cfg(test)]
mod join_hint_tests {
    use super::join_hint;

    #[test]
    fn the_public_address_is_used_with_its_port() {
        assert_eq!(
            join_hint(Some("play.example.org"), 2222),
            "ssh CODE@play.example.org"
        );
        assert_eq!(
            join_hint(Some("play.example.org:2200"), 2222),
            "ssh -p 2200 CODE@play.example.org"
        );
        assert_eq!(
            join_hint(Some("[2001:db8::1]:2200"), 22),
            "ssh -p 2200 CODE@[2001:db8::1]"
        );
        assert_eq!(join_hint(Some("2001:db8::1"), 2222), "ssh CODE@2001:db8::1");
        assert_eq!(
            join_hint(None, 2222),
            "ssh -p 2222 CODE@<this host's address>"
        );
        assert_eq!(join_hint(None, 22), "ssh CODE@<this host's address>");
    }
}
