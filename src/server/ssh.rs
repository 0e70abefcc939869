//! The SSH transport (russh): authentication that accepts everyone but
//! still learns a key's fingerprint, one interactive shell channel per
//! connection, and everything else refused. Keystrokes go to the
//! connection's session task (see [`super::conn`]); output comes back
//! through its outbox via the russh `Handle`.
//!
//! Auth: OpenSSH first tries `none`. Accepting it would mean never seeing
//! a key, so `none` is refused with "try publickey or keyboard-interactive";
//! a client with a key is accepted on its first key (its SHA-256
//! fingerprint is its identity), a keyless client falls through to
//! keyboard-interactive, which accepts at once with no prompts (a guest).
//! Known limit: a client that asks for the authentication service again
//! before each attempt (paramiko) waits after its first refused attempt,
//! because russh 0.65 answers only the first request and offers no hook
//! to answer again. paramiko's plain `auth_interactive` or
//! `auth_publickey` works; `auth_none` first does not, until russh does.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::mailbox as mpsc;
use russh::keys::HashAlg;
use russh::server::{Auth, Msg, Response, Session};
use russh::{Channel, ChannelId, MethodKind, MethodSet, Pty};
use tokio_util::sync::CancellationToken;

use super::Ctx;
use super::conn::{self, ConnEvent, ConnParams};
use super::net::{Killable, Slot};
use super::outbox::Sink;
use crate::term::board::Theme;

/// The russh configuration from ours.
pub fn russh_config(
    ctx_config: &crate::config::Config,
    host_key: russh::keys::PrivateKey,
) -> russh::server::Config {
    russh::server::Config {
        methods: MethodSet::from(&[MethodKind::PublicKey, MethodKind::KeyboardInteractive][..]),
        // We only ever refuse `none`, which every client tries first: no delay for it.
        auth_rejection_time: Duration::from_millis(300),
        auth_rejection_time_initial: Some(Duration::ZERO),
        keys: vec![host_key],
        // Idle players are timed out by the session (from the last key
        // press); dead peers by keepalives; slow logins by the login timer.
        inactivity_timeout: None,
        keepalive_interval: ctx_config.ssh.keepalive,
        keepalive_max: ctx_config.ssh.keepalive_max,
        nodelay: true,
        // Keystrokes are tiny: a small receive window bounds what a client
        // can push at us before we have read it.
        window_size: 64 * 1024,
        max_auth_attempts: 6,
        ..Default::default()
    }
}

/// Serves one TCP connection over SSH until it ends.
pub async fn serve(ctx: Arc<Ctx>, stream: tokio::net::TcpStream, peer: SocketAddr, slot: Slot) {
    let kill = CancellationToken::new();
    let authed = Arc::new(AtomicBool::new(false));
    let handler = SshHandler {
        ctx: Arc::clone(&ctx),
        peer,
        kill: kill.clone(),
        authed: Arc::clone(&authed),
        user: String::new(),
        identity: None,
        channel: None,
        term: String::new(),
        size: (0, 0),
        events: None,
        bucket: super::net::input_bucket(&ctx.config.limits),
        shell_started: false,
        locale: Default::default(),
    };
    let login_timeout = ctx.config.ssh.login_timeout;
    // Detached, and ended by the connection's end at the latest: nothing
    // of it stays with a session that lasts for hours.
    tokio::spawn({
        let kill = kill.clone();
        let authed = Arc::clone(&authed);
        async move {
            tokio::select! {
                () = tokio::time::sleep(login_timeout) => {
                    if !authed.load(Ordering::Relaxed) {
                        tracing::debug!(%peer, "login timed out");
                        kill.cancel();
                    }
                }
                () = kill.cancelled() => {}
            }
        }
    });
    let stream = Killable::new(stream, kill.clone());
    match russh::server::run_stream(Arc::clone(&ctx.ssh_config), stream, handler).await {
        Ok(running) => {
            tokio::pin!(running);
            tokio::select! {
                r = &mut running => {
                    if let Err(e) = r {
                        tracing::debug!(%peer, error = %e, "ssh connection ended with an error");
                    }
                }
                _ = async {
                    ctx.shutdown.cancelled().await;
                    tokio::time::sleep(super::SHUTDOWN_GRACE).await;
                } => {
                    kill.cancel();
                    // The connection is cut either way; this only waits a
                    // little for its task to see it.
                    let _ = tokio::time::timeout(Duration::from_secs(1), &mut running).await;
                }
            }
        }
        Err(e) => tracing::debug!(%peer, error = %e, "ssh handshake failed"),
    }
    kill.cancel();
    drop(slot);
}

struct SshHandler {
    ctx: Arc<Ctx>,
    peer: SocketAddr,
    kill: CancellationToken,
    authed: Arc<AtomicBool>,
    user: String,
    identity: Option<String>,
    channel: Option<ChannelId>,
    term: String,
    size: (u32, u32),
    events: Option<mpsc::Sender<ConnEvent>>,
    bucket: crate::limit::Bucket,
    shell_started: bool,
    /// `LC_ALL`, `LC_MESSAGES` and `LANG` as the client sent them
    /// (`SendEnv`), bounded: what language the person reads.
    locale: [Option<String>; 3],
}

/// The environment variables that say a client's language, in the order
/// they decide it.
const LOCALE_VARS: [&str; 3] = ["LC_ALL", "LC_MESSAGES", "LANG"];

/// The username is attacker-controlled: keep only a bounded, printable copy.
fn bounded_user(user: &str) -> String {
    crate::text::sanitize(user, 64)
}

impl SshHandler {
    fn ours(&self, channel: ChannelId) -> bool {
        self.channel == Some(channel)
    }

    fn send(&self, ev: ConnEvent) -> bool {
        match &self.events {
            Some(tx) => tx.try_send(ev).is_ok(),
            None => false,
        }
    }
}

impl russh::server::Handler for SshHandler {
    type Error = anyhow::Error;

    async fn auth_none(&mut self, _user: &str) -> Result<Auth, Self::Error> {
        Ok(Auth::Reject {
            proceed_with_methods: Some(MethodSet::from(
                &[MethodKind::PublicKey, MethodKind::KeyboardInteractive][..],
            )),
            partial_success: false,
        })
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: russh::server::VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        let fp = key.public_key.fingerprint(HashAlg::Sha256).to_string();
        tracing::info!(peer = %self.peer, user = %bounded_user(user), fingerprint = %fp, "auth publickey");
        self.identity = Some(fp);
        self.user = bounded_user(user);
        Ok(Auth::Accept)
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        _response: Option<Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        tracing::info!(peer = %self.peer, user = %bounded_user(user), "auth guest");
        self.user = bounded_user(user);
        Ok(Auth::Accept)
    }

    async fn auth_succeeded(&mut self, _session: &mut Session) -> Result<(), Self::Error> {
        self.authed.store(true, Ordering::Relaxed);
        Ok(())
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // One interactive session per connection. The Channel object is
        // dropped on purpose: we use the callbacks, and an unread Channel
        // would stall the connection once its queue fills.
        if self.channel.is_none() {
            self.channel = Some(channel.id());
            reply.accept().await;
        }
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        cols: u32,
        rows: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.ours(channel) {
            self.term = crate::text::sanitize(term, 64);
            self.size = (cols, rows);
            session.channel_success(channel)?;
        } else {
            session.channel_failure(channel)?;
        }
        Ok(())
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.ours(channel) || self.shell_started {
            session.channel_failure(channel)?;
            return Ok(());
        }
        session.channel_success(channel)?;
        self.shell_started = true;
        let (tx, rx) = mpsc::channel(conn::EVENT_QUEUE);
        self.events = Some(tx);
        let join_code = crate::lobby::looks_like_code(&self.user)
            .then(|| crate::lobby::normalise_code(&self.user));
        let params = ConnParams {
            id: self.ctx.new_session_id(),
            peer: self.peer,
            user: self.user.clone(),
            identity: self.identity.clone(),
            theme: Theme::for_term(&self.term),
            size: self.size,
            join_code,
            ask_name: false,
            transport: "ssh",
            lang: crate::lang::Lang::from_vars(|var| {
                let i = LOCALE_VARS.iter().position(|v| *v == var)?;
                self.locale[i].clone()
            }),
        };
        let sink = Sink::Ssh {
            handle: session.handle(),
            channel,
        };
        let ctx = Arc::clone(&self.ctx);
        let kill = self.kill.clone();
        self.ctx
            .tracker
            .spawn(conn::run(ctx, params, rx, sink, kill));
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        _data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Accepted only to say why not: the client prints the line and
        // exits with status 1 (a refusal would make it print its own error).
        session.channel_success(channel)?;
        session.data(
            channel,
            &b"inarow is interactive only: connect without a command, e.g. ssh -t play@host\r\n"[..],
        )?;
        session.exit_status_request(channel, 1)?;
        session.eof(channel)?;
        session.close(channel)?;
        Ok(())
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        tracing::debug!(peer = %self.peer, subsystem = %bounded_user(name), "subsystem refused");
        session.channel_failure(channel)?;
        session.close(channel)?;
        Ok(())
    }

    /// The client's language (`LANG` and the `LC_*` that override it,
    /// which OpenSSH sends with `SendEnv`) is kept for the session;
    /// every other variable is refused.
    async fn env_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        match LOCALE_VARS.iter().position(|v| *v == name) {
            Some(i) if self.ours(channel) && !self.shell_started && value.len() <= 64 => {
                self.locale[i] = Some(value.to_string());
                session.channel_success(channel)?;
            }
            _ => session.channel_failure(channel)?,
        }
        Ok(())
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single: bool,
        _protocol: &str,
        _cookie: &str,
        _screen: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)?;
        Ok(())
    }

    async fn agent_request(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        Ok(false)
    }

    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        cols: u32,
        rows: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.ours(channel) {
            self.size = (cols, rows);
            self.send(ConnEvent::Resize(cols, rows));
        }
        Ok(())
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.ours(channel) || self.events.is_none() {
            return Ok(());
        }
        let allowed = self
            .bucket
            .take_up_to(data.len(), std::time::Instant::now());
        let delivered = allowed == 0 || self.send(ConnEvent::Input(data[..allowed].to_vec()));
        if !delivered || allowed < data.len() {
            self.send(ConnEvent::InputDropped);
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.ours(channel) {
            self.send(ConnEvent::Closed);
        }
        Ok(())
    }

    async fn channel_close(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.ours(channel) {
            self.send(ConnEvent::Closed);
        }
        Ok(())
    }
}
