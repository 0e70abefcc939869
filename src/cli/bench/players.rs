//! The bench's SSH players, shared by `bench server` and `bench cluster`:
//! a guest session in the lobby, reading its output for a status line,
//! and the loop of a Connect Four player that moves when its screen says
//! so and rematches when a game ends. What each bench times is told to it
//! through [`Timing`].

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use anyhow::bail;
use russh::ChannelMsg;
use russh::client;
use russh::keys::PublicKeyOrCertificate;

/// An SSH client that takes any host key: for benchmarks and tests against
/// a host started for them, never for a host reached over a network.
pub struct Trusting;

impl client::Handler for Trusting {
    type Error = anyhow::Error;
    async fn check_server_key(
        &mut self,
        _key: &PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

pub(super) type Channel = russh::Channel<client::Msg>;

/// A logged-in session with its channel.
pub(super) struct Conn {
    pub(super) _handle: client::Handle<Trusting>,
    pub(super) ch: Channel,
}

/// A guest session (`bench<n>`) with a pty and a shell, in the lobby.
pub(super) async fn connect_one(addr: SocketAddr, n: usize) -> anyhow::Result<Conn> {
    let config = Arc::new(client::Config {
        inactivity_timeout: None,
        ..Default::default()
    });
    let mut handle = client::connect(config, addr, Trusting).await?;
    let r = handle
        .authenticate_keyboard_interactive_start(format!("bench{n}"), None)
        .await?;
    if !matches!(r, client::KeyboardInteractiveAuthResponse::Success) {
        bail!("login refused");
    }
    let mut ch = handle.channel_open_session().await?;
    ch.request_pty(false, "xterm-256color", 100, 30, 0, 0, &[])
        .await?;
    ch.request_shell(false).await?;
    read_until(&mut ch, b"Choose a game", Duration::from_secs(60)).await?;
    Ok(Conn {
        _handle: handle,
        ch,
    })
}

/// The next output of `ch` before `deadline`; `timed_out` says what was
/// awaited when it does not come.
pub(super) async fn next_output(
    ch: &mut Channel,
    deadline: tokio::time::Instant,
    timed_out: impl Fn() -> anyhow::Error,
) -> anyhow::Result<bytes::Bytes> {
    loop {
        match tokio::time::timeout_at(deadline, ch.wait()).await {
            Err(_) => return Err(timed_out()),
            Ok(None) => bail!("the session closed"),
            Ok(Some(ChannelMsg::Data { data })) => return Ok(data),
            Ok(Some(_)) => {}
        }
    }
}

fn waiting_for(needle: &[u8]) -> impl Fn() -> anyhow::Error {
    move || {
        anyhow::anyhow!(
            "timed out waiting for {:?}",
            String::from_utf8_lossy(needle)
        )
    }
}

/// Reads until `needle` has been seen in the output.
pub(super) async fn read_until(
    ch: &mut Channel,
    needle: &[u8],
    timeout: Duration,
) -> anyhow::Result<()> {
    let deadline = tokio::time::Instant::now() + timeout;
    let mut tail: Vec<u8> = Vec::new();
    loop {
        let data = next_output(ch, deadline, waiting_for(needle)).await?;
        tail.extend_from_slice(&data);
        if tail.windows(needle.len()).any(|w| w == needle) {
            return Ok(());
        }
        let keep = tail.len().saturating_sub(needle.len());
        tail.drain(..keep);
    }
}

/// Reads output until `needle` shows; returns what came after its last
/// occurrence in the chunk where it was found (and a little before).
pub(super) async fn read_chunk_with(
    ch: &mut Channel,
    needle: &[u8],
    timeout: Duration,
) -> anyhow::Result<Vec<u8>> {
    let deadline = tokio::time::Instant::now() + timeout;
    let mut buf: Vec<u8> = Vec::new();
    loop {
        let data = next_output(ch, deadline, waiting_for(needle)).await?;
        buf.extend_from_slice(&data);
        if let Some(at) = buf.windows(needle.len()).rposition(|w| w == needle) {
            // Let the rest of this redraw arrive.
            while let Ok(Some(msg)) =
                tokio::time::timeout(Duration::from_millis(30), ch.wait()).await
            {
                if let ChannelMsg::Data { data } = msg {
                    buf.extend_from_slice(&data);
                }
            }
            return Ok(buf[at..].to_vec());
        }
    }
}

/// Finds the last of several markers in `text`: its index in `markers`.
pub(super) fn last_marker(text: &[u8], markers: &[&[u8]]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (i, m) in markers.iter().enumerate() {
        if let Some(pos) = text.windows(m.len()).rposition(|w| w == *m)
            && best.is_none_or(|(p, _)| pos > p)
        {
            best = Some((pos, i));
        }
    }
    best.map(|(_, i)| i)
}

/// Sends the keys of a quick match of Connect Four from the lobby.
pub(super) async fn seek(conn: &mut Conn) -> anyhow::Result<()> {
    conn.ch.data(&b"1"[..]).await?; // Connect Four
    conn.ch.data(&b"1"[..]).await?; // quick match
    Ok(())
}

/// The table's status lines: this player's move, the other's.
const AT_TABLE: [&[u8]; 2] = [b") to move", b"Waiting for"];

/// Reads until one of the table's status lines shows; whether it is this
/// player's move.
pub(super) async fn until_at_table(conn: &mut Conn, timeout: Duration) -> anyhow::Result<bool> {
    let deadline = tokio::time::Instant::now() + timeout;
    let mut tail: Vec<u8> = Vec::new();
    loop {
        let data = next_output(&mut conn.ch, deadline, || {
            anyhow::anyhow!("no table within {timeout:?}")
        })
        .await?;
        tail.extend_from_slice(&data);
        if let Some(i) = last_marker(&tail, &AT_TABLE) {
            return Ok(i == 0);
        }
        let keep = tail.len().saturating_sub(32);
        tail.drain(..keep);
    }
}

/// Locks `m`, also after a panic elsewhere (the bench's figures are
/// plain data, whole at every step).
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the players of a bench did, counted together.
#[derive(Default)]
pub(super) struct Counts {
    /// Moves shown applied on their mover's screen.
    pub(super) moves: AtomicU64,
    /// Game ends, seen by each player (two a game).
    pub(super) games_over: AtomicU64,
    /// Sessions that failed to send a key.
    pub(super) errors: AtomicUsize,
}

/// What a bench times in its players' loop. The loop calls these as the
/// screen changes; each does nothing unless the bench says otherwise.
pub(super) trait Timing: Send {
    /// Output came; `pending` is the key press of this player's move not
    /// yet shown applied.
    fn output(&mut self, _pending: Option<Instant>) {}
    /// This player pressed a move key at `_at`.
    fn sent(&mut self, _at: Instant) {}
    /// This player's move, pressed at `_sent`, is shown applied.
    fn applied(&mut self, _sent: Instant) {}
    /// The screen says it is this player's move (the opponent's has come).
    fn my_turn(&mut self) {}
    /// This player's move was refused (a full column): forget it.
    fn refused(&mut self) {}
    /// The game ended.
    fn game_over(&mut self) {}
}

/// How one player plays.
pub(super) struct Pace {
    /// Mean time between the player's turn and its move.
    pub(super) think: Duration,
    /// No move is made after this.
    pub(super) until: Instant,
    /// Seeds the player's choice of think times and columns.
    pub(super) seed: u64,
    /// When the first move is due, if the player knows it moves first.
    pub(super) first_move: Option<tokio::time::Instant>,
}

/// One player at a Connect Four table: moves when its status line says
/// so (columns spread by `pace.seed`), tries the next column when one is
/// full, rematches at the end; until `pace.until` or the session ends.
pub(super) async fn play(mut conn: Conn, counts: &Counts, pace: Pace, timing: &mut impl Timing) {
    const MY_TURN: usize = 0;
    const THEIR_TURN: usize = 1;
    const OVER: usize = 2;
    const FULL: usize = 3;
    let markers: [&[u8]; 6] = [
        b") to move",
        b"Waiting for",
        b"wins with",
        b"is full",
        b"Draw:",
        b"by forfeit",
    ];
    let Pace {
        think,
        until,
        seed,
        first_move,
    } = pace;
    let mut tail: Vec<u8> = Vec::new();
    let mut rng_state = seed | 1;
    let mut next_rand = move || {
        // xorshift: enough to spread think times and columns.
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        rng_state
    };
    // The key press of this player's move until the move is shown applied.
    let mut pending: Option<Instant> = None;
    let mut move_at: Option<tokio::time::Instant> = first_move;
    let mut column = (next_rand() % 7) as u8;
    let mut asked_rematch = false;
    loop {
        let wake =
            move_at.unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            msg = conn.ch.wait() => {
                let Some(msg) = msg else { return };
                let ChannelMsg::Data { data } = msg else { continue };
                timing.output(pending);
                tail.extend_from_slice(&data);
                let found = last_marker(&tail, &markers).map(|i| if i >= 4 { OVER } else { i });
                let keep = tail.len().saturating_sub(32);
                tail.drain(..keep);
                match found {
                    Some(THEIR_TURN) => {
                        if let Some(t) = pending.take() {
                            timing.applied(t);
                            counts.moves.fetch_add(1, Ordering::Relaxed);
                        }
                        asked_rematch = false;
                    }
                    Some(MY_TURN) if move_at.is_none() && pending.is_none() => {
                        asked_rematch = false;
                        timing.my_turn();
                        let jitter = think.as_millis() as u64 / 2 + next_rand() % (think.as_millis() as u64 + 1);
                        move_at = Some(tokio::time::Instant::now() + Duration::from_millis(jitter));
                    }
                    Some(FULL) => {
                        // That column is full: try the next one at once.
                        pending = None;
                        timing.refused();
                        column = (column + 1) % 7;
                        move_at = Some(tokio::time::Instant::now());
                    }
                    Some(OVER) if !asked_rematch => {
                        asked_rematch = true;
                        pending = None;
                        move_at = None;
                        timing.game_over();
                        counts.games_over.fetch_add(1, Ordering::Relaxed);
                        if conn.ch.data(&b"r"[..]).await.is_err() {
                            counts.errors.fetch_add(1, Ordering::Relaxed);
                            return;
                        }
                    }
                    _ => {}
                }
            }
            _ = tokio::time::sleep_until(wake), if move_at.is_some() => {
                move_at = None;
                if Instant::now() >= until {
                    return;
                }
                column = (column + 1 + (next_rand() % 3) as u8) % 7;
                let key = [b'1' + column, b'\r'];
                let now = Instant::now();
                pending = Some(now);
                timing.sent(now);
                if conn.ch.data(&key[..]).await.is_err() {
                    counts.errors.fetch_add(1, Ordering::Relaxed);
                    return;
                }
            }
        }
    }
}
