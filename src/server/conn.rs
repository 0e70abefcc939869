//! One remote session, whatever the transport: a task that feeds the
//! person's bytes to a [`Session`], carries its requests to the lobby and
//! rooms, brings their news back, and writes the output through a bounded
//! [`Outbox`]. SSH and telnet only differ in how bytes arrive here and
//! leave through the outbox's sink.
//!
//! Limits enforced here: idle time counted from the last key press (but
//! only while the person is not waiting for someone else, with a warning
//! before the end), a client that stays behind on output past the grace
//! time, input the transport dropped for rate, and the host shutting down.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::Ctx;
use super::accounts::{self, Login, Setting};
use super::outbox::{Outbox, Sink};
use super::records;
use crate::lobby::room::{RoomCmd, RoomHandle, RoomState};
use crate::lobby::{Arrival, Command, SessionId, ToSession};
use crate::protocol::{LeaveReason, SeatCmd};
use crate::session::lobby::RemoteOptions;
use crate::session::{ESC_TIMEOUT, Output, Request, Session};
use crate::term::board::Theme;

/// What a transport tells its session task.
#[derive(Debug)]
pub enum ConnEvent {
    /// Bytes the person typed.
    Input(Vec<u8>),
    /// A new terminal size.
    Resize(u32, u32),
    /// A whole line from a client in line mode (telnet without negotiation).
    Line(Vec<u8>),
    /// The terminal type is known now: this theme suits it.
    Theme(Theme),
    /// Protocol bytes for the client (telnet negotiation), sent as they are.
    Raw(Vec<u8>),
    /// Input arrived faster than the allowed rate and some was dropped.
    InputDropped,
    /// The client closed the session.
    Closed,
}

/// How many transport events may wait; keystrokes are few and small.
pub const EVENT_QUEUE: usize = 64;
/// How many lobby and room messages may wait for a session.
const INBOX: usize = 32;
/// Time the last bytes get to reach a client before the connection is cut.
const CLOSE_GRACE: Duration = Duration::from_secs(3);
/// Longest a session waits for the store to show a profile, a leaderboard,
/// a game or keys; past it the person reads that the records are away.
const STORE_WAIT: Duration = Duration::from_secs(5);
/// What a person reads when the store failed or did not answer in time.
/// The message said when the store does not answer.
const STORE_AWAY: &str = "records-away";

/// How long after a change of the lobby's counts this session shows it:
/// its own point within `interval`, the same every time.
fn counts_delay(id: SessionId, interval: Duration) -> Duration {
    let point = id.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32;
    interval.mul_f64(point as f64 / f64::from(u32::MAX))
}

/// A boxed future borrowing the session.
type Boxed<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

/// The store failed or did not answer in time (logged where it happened).
#[derive(Debug, thiserror::Error)]
#[error("the host's records are not available right now")]
struct StoreAway;

/// A store call, bounded in time; an error is logged and becomes [`StoreAway`].
async fn within<T, E: std::fmt::Display>(
    what: &str,
    fut: impl std::future::Future<Output = Result<T, E>>,
) -> Result<T, StoreAway> {
    match tokio::time::timeout(STORE_WAIT, fut).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, what, "store error");
            Err(StoreAway)
        }
        Err(_) => {
            tracing::warn!(what, "store did not answer in time");
            Err(StoreAway)
        }
    }
}

/// Who connected, and how.
pub struct ConnParams {
    pub id: SessionId,
    pub peer: SocketAddr,
    /// The user name the client gave (SSH), unsanitised.
    pub user: String,
    /// SSH key fingerprint, if the client offered a key.
    pub identity: Option<String>,
    pub theme: Theme,
    pub size: (u32, u32),
    /// Join this room at once (`ssh CODE@host`).
    pub join_code: Option<String>,
    /// Ask for a name before the lobby.
    pub ask_name: bool,
    pub transport: &'static str,
    /// The language the client asked for (SSH's `LANG`), if inarow
    /// speaks it; else the host's `[lobby] default_language`.
    pub lang: Option<crate::lang::Lang>,
}

struct Conn {
    ctx: Arc<Ctx>,
    id: SessionId,
    session: Session,
    outbox: Outbox,
    room: Option<(RoomHandle, watch::Receiver<Arc<RoomState>>)>,
    /// At `room` as a watcher, not a player.
    watching: bool,
    /// This person's chat lines: `[chat] per_minute` at once, then at
    /// that rate.
    chat_sent: crate::limit::Bucket,
    /// Since when idle time counts: the last key press, or the moment the
    /// person stopped waiting for someone else. `None` while waiting (an
    /// opponent's turn, a quick match or a room not yet joined).
    idle_from: Option<Instant>,
    /// The idle warning on screen, if any.
    warning: Option<String>,
    rate_noted: bool,
    /// New counts from the lobby are shown at this time (each session
    /// has its own delay, so a change does not redraw every lobby
    /// screen at once).
    counts_due: Option<Instant>,
    /// The person's account, if they have one.
    account: Option<String>,
    /// When the last input reached the host (a move's latency starts there).
    input_at: std::time::Instant,
    /// Cluster mode: the games on other hosts in the list last shown, by
    /// the number they have in it (at most [`crate::lobby::GAMES_LISTED`]).
    remote_games: std::collections::HashMap<u64, (String, u64)>,
    /// The person chose the stones (now, or on an earlier visit): the
    /// terminal type no longer decides them.
    stones_chosen: bool,
    /// This session's own inbox: answers of the host's services (the
    /// analyst) come back on it.
    inbox: crate::mailbox::Sender<ToSession>,
    /// An analysis asked for and not yet answered.
    analysing: Arc<std::sync::atomic::AtomicBool>,
    /// The puzzles this session was shown.
    puzzles_seen: super::puzzles::Seen,
    /// A refutation of a wrong puzzle move is being looked for (one at a
    /// time a session: another attempt meanwhile is recorded without one).
    refuting: Arc<std::sync::atomic::AtomicBool>,
    /// The last write of the stones setting to the store, if any (the next
    /// one waits for it).
    /// The last write of a setting the person chose (stones, language),
    /// which the next one waits for.
    setting_write: Option<tokio::task::JoinHandle<()>>,
    /// The last move sent to a table, with the stones on the board it
    /// was made on.
    sent_move: Option<(crate::game::Move, usize)>,
    /// Cluster mode: a move no table took because the game had just gone
    /// on at another host, kept until this session reaches the table
    /// that goes on (see [`Conn::carry_move_on`]).
    carried: Option<Carried>,
}

/// A move made in the second a game moved to another host.
struct Carried {
    mv: crate::game::Move,
    /// The stones on the board it was made on.
    stones: usize,
    at: Instant,
}

/// How long a carried move waits for the table that goes on.
const CARRIED_FOR: Duration = Duration::from_secs(30);

impl Carried {
    /// The move to play at the table that goes on, whose game is `view`
    /// and where this session sits at the seats `mine`: only at the
    /// position it was made on, on this person's turn, within
    /// [`CARRIED_FOR`]. Otherwise the board there shows what became of
    /// it (taken after all, or the game went on) and nothing is played.
    fn played_at(
        &self,
        view: &crate::table::GameView,
        mine: [bool; 2],
        now: Instant,
    ) -> Option<crate::game::Move> {
        let my_turn = view.to_move().is_some_and(|side| mine[side.index()]);
        (my_turn
            && view.position.stones() == self.stones
            && now.duration_since(self.at) <= CARRIED_FOR)
            .then_some(self.mv)
    }
}

/// Numbers given to games on other hosts in a list of games (above any
/// table of this host).
const REMOTE_GAMES: u64 = 1 << 62;

/// Why the session ended.
enum End {
    /// The person quit.
    Quit,
    /// The client went away.
    Gone,
    /// We cut the connection (it stopped reading).
    Cut,
    /// The person was idle too long.
    Idle,
    /// The host is shutting down.
    Shutdown,
    /// We close it, with a message for the person.
    Message(String),
    /// The same key connected again: closed with this message; a seat is
    /// kept for the new session, as after a dropped connection.
    Replaced(String),
}

/// How long before an idle disconnect the person is warned: a minute, or
/// half the idle time when that is under two minutes.
pub fn idle_warning_lead(idle: Duration) -> Duration {
    if idle >= Duration::from_secs(120) {
        Duration::from_secs(60)
    } else {
        idle / 2
    }
}

/// A duration in words: "25 seconds", "1 minute", "30 minutes",
/// "2 minutes 30 seconds" (whole seconds).
pub fn duration_words(d: Duration) -> String {
    let plural = |n: u64, unit: &str| {
        if n == 1 {
            format!("1 {unit}")
        } else {
            format!("{n} {unit}s")
        }
    };
    let s = d.as_secs();
    let (m, rest) = (s / 60, s % 60);
    match (m, rest) {
        (0, _) => plural(rest, "second"),
        (_, 0) => plural(m, "minute"),
        _ => format!("{} {}", plural(m, "minute"), plural(rest, "second")),
    }
}

/// The goodbye for an idle person.
pub fn idle_goodbye(idle: Duration) -> String {
    format!(
        "You were idle for {}: goodbye. Come back any time!",
        duration_words(idle)
    )
}

/// Tells a refused person why, and closes.
async fn refuse(ctx: &Ctx, sink: Sink, text: &str, kill: &CancellationToken) {
    let outbox = Outbox::start(sink, ctx.config.limits.output_buffer);
    let bytes = format!("\r\n{}\r\n", crate::text::sanitize(text, 300)).into_bytes();
    outbox.finish(&bytes, 1);
    if !outbox.wait_done(CLOSE_GRACE).await {
        kill.cancel();
    }
    tokio::select! {
        _ = kill.cancelled() => {}
        _ = tokio::time::sleep(CLOSE_GRACE) => kill.cancel(),
    }
}

/// Runs a session until it ends. `events` come from the transport;
/// `kill` cuts the connection.
pub async fn run(
    ctx: Arc<Ctx>,
    p: ConnParams,
    mut events: crate::mailbox::Receiver<ConnEvent>,
    sink: Sink,
    kill: CancellationToken,
) {
    let ip = p.peer.ip().to_string();
    // Boxed: the store's future is large, and held inline it would stay
    // in every session's task for as long as the session lasts.
    let said = p.lang.unwrap_or(ctx.config.lobby.default_language);
    let login = accounts::log_in(&ctx.store, &ip, &p.user, p.identity.as_deref(), said);
    let welcome = match Box::pin(login).await {
        Login::Banned(text) => {
            tracing::info!(session = p.id, peer = %p.peer, "banned: refused");
            Box::pin(refuse(&ctx, sink, &text, &kill)).await;
            return;
        }
        Login::Welcome(w) => w,
    };
    let account = welcome.player.as_ref().map(|pl| pl.account.clone());
    let stones = welcome.stones;
    // A language chosen with [L] (kept with the account) before the
    // client's LANG, before the host's default.
    let lang = welcome
        .lang
        .or(p.lang)
        .unwrap_or(ctx.config.lobby.default_language);
    let (inbox_tx, mut inbox) = crate::mailbox::channel::<ToSession>(INBOX);
    let own_inbox = inbox_tx.clone();
    let Some(name) = ctx
        .lobby
        .join(
            Arrival {
                id: p.id,
                name: welcome.name,
                identity: p.identity.clone(),
                account: welcome.player,
            },
            inbox_tx,
        )
        .await
    else {
        kill.cancel();
        return;
    };
    tracing::info!(session = p.id, peer = %p.peer, transport = p.transport, name = %name, "session start");
    let _counted = ctx.metrics.session(p.transport);
    let cfg = &ctx.config;
    let opts = RemoteOptions {
        name,
        motd: cfg.lobby.motd.clone(),
        games: cfg.games.enabled.clone(),
        match_wait: cfg.lobby.match_wait,
        join_hint: ctx.join_hint.clone(),
        max_line: cfg.limits.max_line_length,
        ask_name: p.ask_name,
        chat_max: if cfg.chat.enabled {
            cfg.chat.max_length
        } else {
            0
        },
        web: cfg.http.public_url.clone(),
        lang,
    };
    let outbox = Outbox::start(sink, cfg.limits.output_buffer);
    let mut conn = Conn {
        session: Session::remote(opts, stones.unwrap_or(p.theme), p.size.0, p.size.1),
        ctx: Arc::clone(&ctx),
        id: p.id,
        outbox,
        room: None,
        watching: false,
        chat_sent: {
            let n = ctx.config.chat.per_minute.min(u32::MAX as usize) as u32;
            crate::limit::Bucket::new(crate::limit::Rate::per_minute(n), n)
        },
        idle_from: Some(Instant::now()),
        warning: None,
        rate_noted: false,
        counts_due: None,
        account,
        input_at: std::time::Instant::now(),
        remote_games: std::collections::HashMap::new(),
        stones_chosen: stones.is_some(),
        inbox: own_inbox,
        analysing: Arc::new(std::sync::atomic::AtomicBool::new(false)),
        puzzles_seen: Default::default(),
        sent_move: None,
        carried: None,
        refuting: Arc::new(std::sync::atomic::AtomicBool::new(false)),
        setting_write: None,
    };
    let out = conn.session.open();
    conn.emit(out).await;
    let daily = Box::pin(conn.ctx.daily.get(&conn.ctx.store)).await;
    let out = conn.session.set_daily(daily.map(|(_, words)| words));
    conn.emit(out).await;
    if let Some(notice) = welcome.notice {
        let (id, args) = notice.words();
        let notice = conn.session.words(id, &args);
        let out = conn.session.lobby_error(&notice);
        conn.emit(out).await;
    }
    if let Some(code) = &p.join_code {
        conn.ctx
            .lobby
            .send(Command::JoinRoom {
                id: p.id,
                code: code.clone(),
                from_login: true,
            })
            .await;
    }
    let mut stats = ctx.lobby.stats();
    // Bans made from now on (the login checked those before).
    let mut bans = ctx.bans.clone();
    bans.mark_unchanged();
    let peer_ip = Some(p.peer.ip());
    let idle = cfg.limits.idle_timeout;
    let grace = cfg.limits.output_grace;

    let warn_lead = idle_warning_lead(idle);

    let end = loop {
        let now = Instant::now();
        // Waiting for someone else is never idleness: the idle clock stops,
        // and starts afresh when the person is the one expected to act.
        if conn.session.waiting_for_others() {
            conn.idle_from = None;
        } else if conn.idle_from.is_none() {
            conn.idle_from = Some(now);
        }
        let mut wake = now + Duration::from_secs(24 * 3600);
        if let Some(from) = conn.idle_from {
            wake = wake.min(if conn.warning.is_some() {
                from + idle
            } else {
                from + (idle - warn_lead)
            });
        }
        if conn.session.input_pending() {
            wake = wake.min(now + ESC_TIMEOUT);
        }
        if let Some(d) = conn.counts_due {
            wake = wake.min(d);
        }
        if let Some(d) = conn.session.next_deadline() {
            let mut d = Instant::from_std(d);
            if conn.watching {
                // A game's watchers see its clocks tick spread over a tenth
                // of a second, not all in the same instant.
                d += Duration::from_millis(conn.id % WATCHER_TICK_SPREAD_MS);
            }
            wake = wake.min(d);
        }
        // A client behind on output for the whole grace time is cut off,
        // whatever else is going on (steady input must not postpone it).
        if let Some(behind) = conn.outbox.behind_for() {
            if behind >= grace {
                tracing::info!(session = conn.id, "client stopped reading: cut off");
                kill.cancel();
                break End::Cut;
            }
            wake = wake.min(now + (grace - behind));
        } else if conn.outbox.pending() > 0 {
            wake = wake.min(now + grace);
        }
        let room_changed = async {
            match conn.room.as_mut() {
                Some((_, rx)) => rx.changed().await.is_ok(),
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            ev = events.recv() => match ev {
                Some(ConnEvent::Input(bytes)) => {
                    tracing::trace!(session = conn.id, len = bytes.len(), "input");
                    conn.input_at = std::time::Instant::now();
                    conn.key_pressed().await;
                    let out = conn.session.input(&bytes, crate::lobby::now());
                    if let Some(end) = conn.emit(out).await { break end; }
                }
                Some(ConnEvent::Line(bytes)) => {
                    conn.input_at = std::time::Instant::now();
                    conn.key_pressed().await;
                    let out = conn.session.line(&bytes, crate::lobby::now());
                    if let Some(end) = conn.emit(out).await { break end; }
                }
                // The terminal type suggests a theme: unless the person
                // chose the stones themselves.
                Some(ConnEvent::Theme(theme)) if !conn.stones_chosen => {
                    let out = conn.session.set_theme(theme);
                    conn.emit(out).await;
                }
                Some(ConnEvent::Theme(_)) => {}
                Some(ConnEvent::Raw(bytes)) => {
                    conn.outbox.push_raw(&bytes);
                }
                Some(ConnEvent::Resize(c, r)) => {
                    let out = conn.session.resize(c, r);
                    conn.emit(out).await;
                }
                Some(ConnEvent::InputDropped) => {
                    if !conn.rate_noted {
                        conn.rate_noted = true;
                        let text = conn.session.words("input-dropped", &[]);
                        let out = conn.session.notice(&text);
                        conn.emit(out).await;
                    }
                }
                Some(ConnEvent::Closed) | None => break End::Gone,
            },
            msg = inbox.recv() => match msg {
                Some(msg) => if let Some(end) = conn.news(msg).await { break end; },
                None => break End::Message("The host closed the lobby.".into()),
            },
            changed = room_changed => {
                if changed {
                    conn.room_update().await;
                } else {
                    conn.room = None;
                }
            }
            // The lobby's counts show only outside a game: a table's
            // players and watchers are not woken for them. A change shows
            // after this session's own delay within the lobby's interval
            // (the newest counts then), so thousands of lobby screens are
            // redrawn spread over it, not in one burst ahead of everyone's
            // key presses.
            Ok(()) = stats.changed(), if !conn.session.in_game() => {
                let online = stats.borrow_and_update().online;
                let delay = counts_delay(conn.id, crate::lobby::stats_interval(online));
                conn.counts_due.get_or_insert(Instant::now() + delay);
            }
            Ok(()) = bans.changed() => {
                let list = Arc::clone(&bans.borrow_and_update());
                let banned = accounts::banned(
                    conn.session.lang(),
                    &list,
                    peer_ip,
                    p.identity.as_deref(),
                    conn.account.as_deref(),
                );
                if let Some(text) = banned {
                    tracing::info!(session = conn.id, peer = %p.peer, "banned: closed");
                    break End::Message(text);
                }
            }
            () = conn.outbox.resync_needed() => {
                let out = conn.session.redraw();
                conn.emit(out).await;
            }
            _ = tokio::time::sleep_until(wake) => {
                let now = Instant::now();
                let mut out = Output::default();
                if let Some(from) = conn.idle_from {
                    if now >= from + idle {
                        break End::Idle;
                    }
                    if conn.warning.is_none() && now >= from + (idle - warn_lead) {
                        let left = (from + idle).saturating_duration_since(now);
                        let secs = left.as_secs_f64().ceil() as u64;
                        let text = conn.session.words("idle-warning", &[("seconds", secs.into())]);
                        out = conn.session.notice(&text);
                        conn.warning = Some(text);
                    }
                }
                if conn.session.input_pending() {
                    let flushed = conn.session.flush_input(now.into_std());
                    out.bytes.extend(flushed.bytes);
                    out.requests.extend(flushed.requests);
                }
                if conn.counts_due.is_some_and(|d| now >= d) {
                    // Kept, not drawn, if a game began meanwhile: the
                    // lobby shows them on the way back.
                    conn.counts_due = None;
                    let counts = conn.session.stats(stats.borrow().clone());
                    out.bytes.extend(counts.bytes);
                    out.requests.extend(counts.requests);
                }
                let tick = match &conn.room {
                    // Watchers of a table share their clocks' ticks.
                    Some((_, rx)) if conn.watching => {
                        let st = Arc::clone(&rx.borrow());
                        conn.session.tick_shared(now.into_std(), &st.frames)
                    }
                    _ => conn.session.tick(now.into_std()),
                };
                out.bytes.extend(tick.bytes);
                out.requests.extend(tick.requests);
                if let Some(end) = conn.emit(out).await { break end; }
            }
            _ = ctx.shutdown.cancelled() => break End::Shutdown,
        }
    };

    // Leave the table and the lobby, say goodbye, and close.
    let reason = match &end {
        End::Gone | End::Cut => LeaveReason::Disconnected,
        End::Idle => LeaveReason::Idle,
        End::Shutdown => LeaveReason::Shutdown,
        End::Quit | End::Message(_) => LeaveReason::Left,
        End::Replaced(_) => LeaveReason::Replaced,
    };
    // In a cluster, a host that stops hands its games over: the players
    // carry them on from another host.
    let restarting = matches!(end, End::Shutdown) && ctx.cluster.is_some();
    if conn.watching {
        conn.leave_room().await;
    } else if let Some((room, _)) = conn.room.take() {
        if restarting {
            // A table here goes to NATS as it stands (the lobby says the
            // same to every table, but this session may get there first).
            room.send(RoomCmd::HandOver).await;
        } else if matches!(end, End::Shutdown) {
            // Nobody lost: the game stops (the lobby says the same to every
            // table, but this session may get there first).
            room.send(RoomCmd::Abort {
                reason: super::SHUTDOWN_REASON.into(),
            })
            .await;
        }
        let leave = SeatCmd::Leave {
            reason,
            // Not a deliberate quit: an account's seat is kept a while (a
            // table on another host keeps it while this one restarts).
            dropped: restarting || matches!(end, End::Gone | End::Cut | End::Replaced(_)),
        };
        room.send(RoomCmd::seat(conn.id, leave)).await;
    }
    ctx.lobby.send(Command::Leave { id: conn.id }).await;
    tracing::info!(session = conn.id, reason = reason.text(), "session end");
    match end {
        // The client went away (or only closed its input): try to restore
        // its terminal anyway; the close grace below cuts what does not go.
        End::Gone | End::Quit => {
            let bytes = conn.session.close();
            conn.outbox.finish(&bytes, 0);
        }
        End::Message(m) | End::Replaced(m) => {
            let bytes = conn.session.goodbye(&m);
            conn.outbox.finish(&bytes, 0);
        }
        End::Idle => {
            let bytes = conn.session.goodbye(&idle_goodbye(idle));
            conn.outbox.finish(&bytes, 0);
        }
        End::Shutdown => {
            let bytes = conn.session.goodbye(if restarting {
                RESTARTING_GOODBYE
            } else {
                "The host is shutting down. Thanks for playing!"
            });
            conn.outbox.finish(&bytes, 0);
        }
        End::Cut => {}
    }
    if !conn.outbox.wait_done(CLOSE_GRACE).await {
        kill.cancel();
    }
    // A client that keeps the connection open after its session closed is cut.
    tokio::select! {
        _ = kill.cancelled() => {}
        _ = tokio::time::sleep(CLOSE_GRACE) => kill.cancel(),
    }
}

/// Over how many milliseconds the clock ticks of one game's watchers are
/// spread (hundreds of them woken at the same instant would delay every
/// other session on the host for as long as they all take).
const WATCHER_TICK_SPREAD_MS: u64 = 100;

/// What players hear when a host of a cluster stops (a rolling restart).
pub const RESTARTING_GOODBYE: &str = "This host is restarting; reconnect to continue your game.";

/// Which news arrived (the link of a seat or of a watched game).
enum MsgKind {
    Watching,
    Other,
}

impl Conn {
    /// Leaves the table this session sits at or the game it watches.
    async fn leave_room(&mut self) {
        let Some((room, _)) = self.room.take() else {
            return;
        };
        if std::mem::take(&mut self.watching) {
            room.send(RoomCmd::Unwatch { id: self.id }).await;
            self.ctx.lobby.send(Command::LeftRoom { id: self.id }).await;
        } else {
            room.send(RoomCmd::seat(self.id, SeatCmd::LEAVE)).await;
        }
    }

    /// A chat line from this person: to the table, within the host's
    /// limits (or why not, on their own screen).
    async fn chat(&mut self, text: String) -> Output {
        let chat = &self.ctx.config.chat;
        if !chat.enabled {
            let text = self.session.words("chat-off", &[]);
            return self.session.notice(&text);
        }
        let Some((room, _)) = &self.room else {
            return Output::default();
        };
        let now = Instant::now();
        if let Err(wait) = self.chat_sent.ready(now.into_std()) {
            let wait = wait.as_secs_f64().ceil().max(1.0) as u64;
            let text = self.session.words(
                "chat-slow-down",
                &[("count", chat.per_minute.into()), ("seconds", wait.into())],
            );
            return self.session.notice(&text);
        }
        if text.chars().count() > chat.max_length {
            let text = self
                .session
                .words("chat-too-long", &[("count", chat.max_length.into())]);
            return self.session.notice(&text);
        }
        self.chat_sent.allow(now.into_std());
        let from = self.session.name().unwrap_or_default().to_string();
        room.send(RoomCmd::Seat {
            who: self.id,
            name: from,
            cmd: SeatCmd::Chat(text),
            at: self.input_at,
        })
        .await;
        Output::default()
    }

    /// A seat's command: to the table as it is (a chat line once within
    /// the host's limits).
    async fn seat(&mut self, cmd: SeatCmd) -> Option<End> {
        let cmd = match cmd {
            SeatCmd::Chat(text) => {
                let out = self.chat(text).await;
                return self.emit(out).await;
            }
            cmd => cmd,
        };
        let made_on = self.session.stones_on_board();
        self.sent_move = match (&cmd, made_on) {
            (SeatCmd::Move(mv), Some(stones)) => Some((*mv, stones)),
            _ => None,
        };
        if let Some((room, _)) = &self.room {
            room.send(RoomCmd::Seat {
                who: self.id,
                name: self.session.name().unwrap_or_default().to_string(),
                cmd,
                at: self.input_at,
            })
            .await;
        } else if let Some(out) = self.no_table_for(&cmd) {
            return self.emit(out).await;
        }
        None
    }

    /// A seat's command with no table to take it: in cluster mode, the
    /// second between a host handing the game over and the session
    /// reaching the table that goes on. A move is carried there (the
    /// player is told, never left waiting); the rest has nothing to act on.
    fn no_table_for(&mut self, cmd: &SeatCmd) -> Option<Output> {
        matches!(cmd, SeatCmd::Move(_)).then(|| self.game_moved())
    }

    /// The table did not take our last move because the game went on at
    /// another host: the move is kept for the table that goes on.
    fn game_moved(&mut self) -> Output {
        match self.sent_move.take() {
            Some((mv, stones)) => {
                self.carried = Some(Carried {
                    mv,
                    stones,
                    at: Instant::now(),
                });
                self.session.move_carried()
            }
            None => self.session.refused(&crate::protocol::Refusal::GameMoved),
        }
    }

    /// Just seated at a table: a move carried from the host the game was
    /// on is played here (see [`Carried::played_at`]).
    async fn carry_move_on(&mut self, st: &RoomState) {
        let Some(mv) = self
            .carried
            .take()
            .and_then(|c| c.played_at(&st.view, st.seating(self.id).mine, Instant::now()))
        else {
            return;
        };
        if let Some((room, _)) = &self.room {
            tracing::info!(
                session = self.id,
                "a move made as the game moved: played at the table that goes on"
            );
            self.sent_move = self.session.stones_on_board().map(|n| (mv, n));
            room.send(RoomCmd::Seat {
                who: self.id,
                name: self.session.name().unwrap_or_default().to_string(),
                cmd: SeatCmd::Move(mv),
                at: std::time::Instant::now(),
            })
            .await;
        }
    }

    /// A key press: the idle clock restarts and a warning goes away.
    /// [`Conn::key_pressed_inline`], boxed (see [`Conn::emit`]).
    fn key_pressed(&mut self) -> Boxed<'_, ()> {
        Box::pin(self.key_pressed_inline())
    }

    async fn key_pressed_inline(&mut self) {
        self.idle_from = Some(Instant::now());
        if let Some(text) = self.warning.take() {
            let out = self.session.clear_notice(&text);
            self.emit(out).await;
        }
    }

    /// Sends a session's output and carries out its requests. Returns how
    /// the session ends, if it does.
    /// [`Conn::emit_inline`], boxed: it is awaited from the session's
    /// loop, whose task would otherwise be as large as this call's future
    /// for as long as the session lasts.
    fn emit(&mut self, out: Output) -> Boxed<'_, Option<End>> {
        Box::pin(self.emit_inline(out))
    }

    async fn emit_inline(&mut self, out: Output) -> Option<End> {
        if !out.bytes.is_empty() && !self.outbox.push(&out.bytes) {
            // Dropped: repaint in full once the client has caught up.
            self.session.invalidate();
        }
        for req in out.requests {
            if let Some(end) = self.request(req).await {
                return Some(end);
            }
        }
        None
    }

    async fn request(&mut self, req: Request) -> Option<End> {
        let id = self.id;
        let lobby = &self.ctx.lobby;
        match req {
            Request::Quit => return Some(End::Quit),
            Request::Seat(cmd) => return self.seat(cmd).await,
            Request::Analyze(ask) => self.analyze(ask),
            Request::Puzzle(ask) => {
                let ctx = Arc::clone(&self.ctx);
                let find = super::puzzles::find(
                    &ctx.store,
                    &ctx.daily,
                    self.account.as_deref(),
                    &mut self.puzzles_seen,
                    ask,
                    self.session.lang(),
                );
                // Boxed, as the store's futures are large (see `records`).
                let found = Box::pin(find).await;
                let mut out = self.session.show_puzzle(found);
                let daily = Box::pin(ctx.daily.get(&ctx.store)).await;
                let more = self.session.set_daily(daily.map(|(_, words)| words));
                out.bytes.extend(more.bytes);
                return self.emit(out).await;
            }
            Request::PuzzleDone(attempt) => {
                // Off the session's loop: the refutation may take the
                // analyst's time; the answer comes through the inbox.
                use std::sync::atomic::Ordering;
                let ctx = Arc::clone(&self.ctx);
                let account = self.account.clone();
                let inbox = self.inbox.clone();
                let refuting = Arc::clone(&self.refuting);
                let refute = !attempt.solved && !refuting.swap(true, Ordering::Relaxed);
                let lang = self.session.lang();
                tokio::spawn(async move {
                    let id = attempt.id.clone();
                    let outcome = super::puzzles::attempt(
                        &ctx.store,
                        &ctx.analyst,
                        account.as_deref(),
                        attempt,
                        refute,
                        lang,
                    )
                    .await;
                    if refute {
                        refuting.store(false, Ordering::Relaxed);
                    }
                    let _ = inbox.try_send(ToSession::PuzzleOutcome(Box::new((id, outcome))));
                });
            }
            Request::ToMenu => self.leave_room().await,
            Request::Games => {
                let mut rows = self.ctx.lobby.games().await;
                self.remote_games.clear();
                if let Some(cluster) = &self.ctx.cluster {
                    for (i, mut g) in cluster.games().await.into_iter().enumerate() {
                        let number = REMOTE_GAMES + i as u64;
                        let host = g.host.clone().unwrap_or_default();
                        self.remote_games.insert(number, (host, g.room));
                        g.room = number;
                        rows.push(g);
                    }
                    rows.sort_by(crate::protocol::GameSummary::order);
                    rows.truncate(crate::lobby::GAMES_LISTED);
                    self.remote_games
                        .retain(|number, _| rows.iter().any(|r| r.room == *number));
                }
                let out = self.session.show_games(rows);
                return self.emit(out).await;
            }
            Request::Watch(room) if room >= REMOTE_GAMES => {
                match (self.remote_games.get(&room), &self.ctx.cluster) {
                    (Some((host, room)), Some(cluster)) => cluster.watch(id, host.clone(), *room),
                    _ => {
                        let text = self
                            .session
                            .refusal_words(&crate::protocol::Refusal::GameEnded);
                        let out = self.session.notice(&text);
                        return self.emit(out).await;
                    }
                }
            }
            Request::Watch(room) => lobby.send(Command::Watch { id, room }).await,
            Request::People => {
                let rows = self.ctx.lobby.people(id).await;
                let out = self.session.show_people(rows);
                return self.emit(out).await;
            }
            Request::Challenge(challenge) => lobby.send(Command::Challenge { id, challenge }).await,
            Request::AnswerChallenge { from, accept } => {
                lobby
                    .send(Command::AnswerChallenge { id, from, accept })
                    .await
            }
            Request::SetInvitations(on) => lobby.send(Command::SetInvitations { id, on }).await,
            Request::RoomClock(clock) => lobby.send(Command::SetRoomClock { id, clock }).await,
            Request::RoomOpening(opening) => {
                lobby.send(Command::SetRoomOpening { id, opening }).await
            }
            Request::AllowWatchers(allow) => lobby.send(Command::AllowWatchers { id, allow }).await,
            Request::SetName(name) => {
                // Boxed, as the store's futures are large (see `records`).
                let check = accounts::check_name(&self.ctx.store, self.account.as_deref(), &name);
                match Box::pin(check).await {
                    Some(why) => {
                        let (id, args) = why.words(&name);
                        let text = self.session.words(id, &args);
                        let out = self.session.lobby_error(&text);
                        return self.emit(out).await;
                    }
                    None => self.ctx.lobby.send(Command::SetName { id, name }).await,
                }
            }
            Request::SetColour(colour) => lobby.send(Command::SetColour { id, colour }).await,
            Request::SetStones(stones) => {
                self.stones_chosen = true;
                match &self.account {
                    Some(account) => self.keep(account.clone(), Setting::Stones(stones)),
                    // A guest's choice goes with their resume codes.
                    None => lobby.send(Command::SetStones { id, stones }).await,
                }
            }
            Request::SetLanguage(lang) => match &self.account {
                Some(account) => self.keep(account.clone(), Setting::Language(lang)),
                None => lobby.send(Command::SetLanguage { id, lang }).await,
            },
            Request::QuickMatch(kind) => lobby.send(Command::QuickMatch { id, kind }).await,
            Request::PlayComputer(kind, level, human_first) => {
                lobby
                    .send(Command::PlayComputer {
                        id,
                        kind,
                        level,
                        human_first,
                    })
                    .await
            }
            Request::CreateRoom(kind, rated) => {
                lobby.send(Command::CreateRoom { id, kind, rated }).await
            }
            Request::JoinRoom(code) => {
                lobby
                    .send(Command::JoinRoom {
                        id,
                        code,
                        from_login: false,
                    })
                    .await
            }
            Request::Cancel => lobby.send(Command::Cancel { id }).await,
            Request::StartLocal(_) => {}
            Request::Profile
            | Request::Leaderboard(_)
            | Request::Replay(_)
            | Request::Keys
            | Request::LinkCode
            | Request::RemoveKey(_) => {
                // Boxed: the store's futures are large, and held inline they
                // would make every session's task as large as the biggest.
                let out = Box::pin(self.records(req)).await;
                return self.emit(out).await;
            }
        }
        None
    }

    /// Asks the host's analyst for a finished game's analysis; the answer
    /// comes back through this session's inbox. One at a time a session.
    fn analyze(&mut self, ask: crate::session::review::AnalyzeAsk) {
        use std::sync::atomic::Ordering;
        let inbox = self.inbox.clone();
        let lang = self.session.lang();
        if self.analysing.swap(true, Ordering::Relaxed) {
            let answer = Err(lang.text("analysis-one-at-a-time"));
            let _ = inbox.try_send(ToSession::Analysed(Box::new((ask, answer))));
            return;
        }
        let analyst = Arc::clone(&self.ctx.analyst);
        let pending = Arc::clone(&self.analysing);
        tokio::spawn(async move {
            let answer = analyst
                .of_game(ask.game_id.clone(), ask.rules, ask.moves.clone())
                .await
                .map_err(|e| {
                    use crate::analyst::Unanalysed;
                    lang.text(match e {
                        Unanalysed::Off => "analysis-off",
                        Unanalysed::Busy => "analysis-busy",
                        Unanalysed::CannotAnalyse => "analysis-cannot",
                    })
                });
            if inbox
                .try_send(ToSession::Analysed(Box::new((ask, answer))))
                .is_err()
            {
                pending.store(false, Ordering::Relaxed);
            }
        });
    }

    /// Asks the store for what the profile, keys, leaderboard or replay
    /// screen wants, and shows it (or why it cannot be shown).
    async fn records(&mut self, req: Request) -> Output {
        let store = &self.ctx.store;
        let account = self.account.clone();
        let now = crate::store::now_ms();
        let no_account = "records-guest-no-account";
        match (req, account.as_deref()) {
            (Request::Profile, None) => self.session.show_profile(None),
            (Request::Profile, Some(a)) => match within("profile", store.profile(a, now)).await {
                Ok(Some(p)) => {
                    // The puzzle line is left out when the store cannot tell.
                    let puzzles = within("puzzles", store.puzzle_standing(a, now)).await;
                    let puzzles = puzzles.ok().flatten();
                    let view = records::profile_view(&p, puzzles.as_ref());
                    self.session.show_profile(Some(view))
                }
                Ok(None) => self.session.show_profile(None),
                Err(StoreAway) => self.records_words(STORE_AWAY),
            },
            (Request::Leaderboard(kind), me) => {
                match within("leaderboard", store.leaderboard(kind, me, now)).await {
                    Ok(b) => self
                        .session
                        .show_leaderboard(records::leaderboard_view(&b, me)),
                    Err(StoreAway) => self.records_words(STORE_AWAY),
                }
            }
            (Request::Replay(game), Some(a)) => match within("game", store.game(&game)).await {
                Ok(Some(g)) if records::played_in(&g, a) => {
                    match records::replay_view(self.session.lang(), &g) {
                        Some(v) => self.session.show_replay(v),
                        None => {
                            let text = self.session.words("records-game-unshown", &[]);
                            self.session.records_message(&text)
                        }
                    }
                }
                Ok(_) => {
                    let text = self.session.words("records-not-yours", &[]);
                    self.session.records_message(&text)
                }
                Err(StoreAway) => self.records_words(STORE_AWAY),
            },
            (Request::Keys, Some(a)) => match within("keys", store.keys(a)).await {
                Ok(keys) => self.session.show_keys(records::key_rows(&keys)),
                Err(StoreAway) => self.records_words(STORE_AWAY),
            },
            (Request::LinkCode, Some(a)) => {
                match within("link code", store.create_link_code(a, now)).await {
                    Ok(code) => self.session.show_link_code(&code),
                    Err(StoreAway) => self.records_words(STORE_AWAY),
                }
            }
            (Request::RemoveKey(fp), Some(a)) => {
                let removed = tokio::time::timeout(STORE_WAIT, store.remove_key(a, &fp)).await;
                let message = match removed {
                    Ok(Ok(())) => {
                        tracing::info!(session = self.id, account = a, "key removed");
                        "records-key-removed"
                    }
                    Ok(Err(crate::store::KeyError::Store(e))) => {
                        tracing::warn!(error = %e, "store error: key not removed");
                        STORE_AWAY
                    }
                    Ok(Err(crate::store::KeyError::NotFound)) => "records-no-such-key",
                    Ok(Err(crate::store::KeyError::LastKey)) => "records-last-key",
                    Err(_) => STORE_AWAY,
                };
                let message = self.session.words(message, &[]);
                let mut out = match within("keys", store.keys(a)).await {
                    Ok(keys) => self.session.show_keys(records::key_rows(&keys)),
                    Err(_) => Output::default(),
                };
                let more = self.session.records_message(&message);
                out.bytes.extend(more.bytes);
                out
            }
            (_, _) => self.records_words(no_account),
        }
    }

    /// A message from the lobby or a room.
    /// [`Conn::news_inline`], boxed: it is awaited from the session's
    /// loop, whose task would otherwise be as large as this call's future
    /// for as long as the session lasts.
    fn news(&mut self, msg: ToSession) -> Boxed<'_, Option<End>> {
        Box::pin(self.news_inline(msg))
    }

    /// The message `id` on the records screen.
    fn records_words(&mut self, id: &str) -> Output {
        let text = self.session.words(id, &[]);
        self.session.records_message(&text)
    }

    /// Keeps a setting the account's player chose, after the one before.
    fn keep(&mut self, account: String, setting: Setting) {
        let after = self.setting_write.take();
        let write = accounts::keep_setting(&self.ctx.store, &account, setting, after);
        self.setting_write = Some(write);
    }

    /// `ssh FWDX@host` and no room has FWDX. An account keeps its own name
    /// (the one its profile and records show); a guest is FWDX unless an
    /// account has that name.
    async fn no_room_for_login(&mut self, code: String) -> Option<End> {
        let code = crate::text::sanitize(&code, crate::text::MAX_NAME_WIDTH);
        if self.account.is_some() {
            let text = self
                .session
                .words("login-no-room-account", &[("code", code.as_str().into())]);
            let out = self.session.lobby_error(&text);
            return self.emit(out).await;
        }
        // Only a name the store says is free: while it cannot tell, the
        // guest keeps a guest name (it may be an account's).
        let taken = self.ctx.store.name_taken(&code);
        let why = match Box::pin(taken).await {
            Ok(None) => None,
            Ok(Some(_)) => Some("login-no-room-registered"),
            Err(e) => {
                tracing::warn!(error = %e, "store unreachable: login name not checked");
                Some("login-no-room-unchecked")
            }
        };
        match why {
            Some(id) => {
                let text = self.session.words(id, &[("code", code.as_str().into())]);
                let out = self.session.lobby_error(&text);
                self.emit(out).await
            }
            None => {
                let id = self.id;
                self.ctx
                    .lobby
                    .send(Command::SetName { id, name: code })
                    .await;
                None
            }
        }
    }

    async fn news_inline(&mut self, msg: ToSession) -> Option<End> {
        let msg_kind = match msg {
            ToSession::Watching(_) => MsgKind::Watching,
            _ => MsgKind::Other,
        };
        let out = match msg {
            ToSession::Name(n) => self.session.name_set(&n),
            ToSession::RoomCode(code) => self.session.room_code(&code),
            ToSession::LobbyError(why) => {
                let e = self.session.refusal_words(&why);
                if self.session.in_game() {
                    self.session.notice(&e)
                } else {
                    self.session.lobby_error(&e)
                }
            }
            ToSession::NoRoomForLogin(code) => return self.no_room_for_login(code).await,
            ToSession::Rejected(crate::protocol::Refusal::GameMoved) => self.game_moved(),
            ToSession::Rejected(e) => self.session.refused(&e),
            ToSession::Kick(m) => return Some(End::Message(m)),
            ToSession::Replaced(m) => return Some(End::Replaced(m)),
            ToSession::Told(news) => {
                let text = self.session.news_words(&news);
                self.session.notice(&text)
            }
            ToSession::Analysed(done) => {
                self.analysing
                    .store(false, std::sync::atomic::Ordering::Relaxed);
                let (ask, answer) = *done;
                self.session.show_analysis(&ask, answer)
            }
            ToSession::PuzzleOutcome(done) => {
                let (id, outcome) = *done;
                self.session.puzzle_outcome(&id, outcome)
            }
            ToSession::Invited(i) => self.session.invited(*i),
            ToSession::InvitationGone { from } => self.session.invitation_gone(from),
            // A guest back by a resume code: the stones they chose.
            ToSession::Waiting(news) => self.session.waiting_news(news.0, news.1),
            ToSession::Prefs(prefs) => {
                let mut out = Output::default();
                if let Some(stones) = prefs.stones {
                    self.stones_chosen = true;
                    out = self.session.set_theme(stones);
                }
                if let Some(lang) = prefs.lang {
                    out = self.session.set_lang(lang);
                }
                out
            }
            ToSession::Joined(link) | ToSession::Watching(link) => {
                let watching = matches!(msg_kind, MsgKind::Watching);
                // Leaving a table we still sat at (after a game) or a game
                // we watched first.
                self.leave_room().await;
                let mut state = link.state;
                let st = state.borrow_and_update().clone();
                self.room = Some((link.room, state));
                self.watching = watching;
                self.session.set_resume(link.resume);
                self.session.set_now(Instant::now().into_std());
                let out = self
                    .session
                    .game_started(st.view.clone(), st.seating(self.id));
                if !watching {
                    self.carry_move_on(&st).await;
                }
                out
            }
        };
        self.emit(out).await
    }

    /// [`Conn::room_update_inline`], boxed (see [`Conn::emit`]).
    fn room_update(&mut self) -> Boxed<'_, ()> {
        Box::pin(self.room_update_inline())
    }

    async fn room_update_inline(&mut self) {
        let Some((_, rx)) = self.room.as_mut() else {
            return;
        };
        let st = rx.borrow_and_update().clone();
        let out = if self.session.in_game() {
            self.session.set_now(Instant::now().into_std());
            self.session
                .game_update_shared(st.view.clone(), st.seating(self.id), &st.frames)
        } else {
            Output::default()
        };
        self.emit(out).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_carried_to_the_new_table_is_played_only_where_it_was_made() {
        use crate::game::{Move, Rules};
        let opts = RemoteOptions::for_tests("ann");
        let mut session = Session::remote(opts, crate::term::board::Theme::Ascii, 80, 24);
        let mut term = vt100::Parser::new(24, 80, 0);
        term.process(&session.open().bytes);
        let mut table = crate::session::play::tests::ann_and_bob_at(Rules::connect_four());
        let seating = crate::protocol::Seating {
            mine: [true, false],
            present: [true, true],
        };
        term.process(&session.game_started(table.view().clone(), seating).bytes);
        assert_eq!(session.stones_on_board(), Some(0));
        term.process(&session.move_carried().bytes);
        assert!(
            term.screen().contents().contains("your move goes with it"),
            "{}",
            term.screen().contents()
        );
        let now = Instant::now();
        let c = Carried {
            mv: Move::Column(3),
            stones: 0,
            at: now,
        };
        // The same position, ann's turn: played.
        assert_eq!(
            c.played_at(table.view(), [true, false], now),
            Some(Move::Column(3))
        );
        // Not ann's seat, or too late: not played.
        assert_eq!(c.played_at(table.view(), [false, true], now), None);
        assert_eq!(
            c.played_at(
                table.view(),
                [true, false],
                now + CARRIED_FOR + Duration::from_secs(1)
            ),
            None
        );
        // The move was taken after all (or the game went on): not again.
        table
            .play(crate::game::Side::First, Move::Column(3))
            .unwrap();
        table
            .play(crate::game::Side::Second, Move::Column(4))
            .unwrap();
        assert_eq!(c.played_at(table.view(), [true, false], now), None);
    }

    #[test]
    fn durations_read_as_words() {
        let s = Duration::from_secs;
        assert_eq!(duration_words(s(1)), "1 second");
        assert_eq!(duration_words(s(25)), "25 seconds");
        assert_eq!(duration_words(s(60)), "1 minute");
        assert_eq!(duration_words(s(150)), "2 minutes 30 seconds");
        assert_eq!(duration_words(s(1800)), "30 minutes");
        assert_eq!(
            idle_goodbye(s(25)),
            "You were idle for 25 seconds: goodbye. Come back any time!"
        );
    }

    /// The size of what calling `f` returns (a future, for an async fn),
    /// without calling it.
    fn output_size<F, A, B, C, D, E, R>(_f: F) -> usize
    where
        F: FnOnce(A, B, C, D, E) -> R,
    {
        std::mem::size_of::<R>()
    }

    #[test]
    fn lobby_screens_show_a_change_of_the_counts_spread_over_the_interval() {
        let interval = Duration::from_secs(5);
        let mut buckets = [0usize; 10];
        for id in 0..10_000u64 {
            let d = counts_delay(id, interval);
            assert!(d <= interval, "{d:?}");
            // The same session, the same delay every time.
            assert_eq!(d, counts_delay(id, interval));
            buckets[(d.as_secs_f64() * 2.0) as usize % 10] += 1;
        }
        // Consecutive ids (sessions come in order) land all over the
        // interval: every tenth of it gets about a tenth of them.
        assert!(
            buckets.iter().all(|&n| (800..1200).contains(&n)),
            "{buckets:?}"
        );
        let first: Vec<Duration> = (0..4).map(|id| counts_delay(id, interval)).collect();
        assert!(first.windows(2).all(|w| w[0] != w[1]), "{first:?}");
    }

    #[test]
    fn a_session_task_stays_small() {
        // Every session holds its task for as long as it lasts, so the
        // task's size counts once per person online. The store's futures
        // are several KiB each: awaited inline (unboxed) anywhere in the
        // session's calls, they made every task about 20 KiB. The calls
        // the session's loop awaits for every event (output, news, a
        // table's update, a key press) are boxed too: each is over a KiB.
        let size = output_size(run);
        assert!(size < 2816, "the session task is {size} bytes");
    }

    #[test]
    fn the_idle_warning_comes_a_minute_before_or_at_half_time() {
        let s = Duration::from_secs;
        assert_eq!(idle_warning_lead(s(1800)), s(60));
        assert_eq!(idle_warning_lead(s(120)), s(60));
        assert_eq!(idle_warning_lead(s(100)), s(50));
        assert_eq!(idle_warning_lead(s(10)), s(5));
    }
}
