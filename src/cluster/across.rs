//! Quick match across hosts, and tables whose two players sit on different
//! hosts.
//!
//! **The queue.** Each game has one key, `queue.<game>`, in the `queue`
//! bucket: the list of seekers no host could pair at home ([`Ticket`]s).
//! Every change is a compare-and-set on the key's revision, so two hosts
//! can never both take the same ticket. A seeker nobody here meets is
//! offered to the others: its host takes the best ticket of another live
//! host if one fits (the same rating window as at home), else adds its own.
//! Every heartbeat, the tickets already waiting are looked at again (the
//! windows widen with the wait).
//!
//! **Settling a match.** The host that took a ticket reserves its own
//! seeker in its lobby, then asks the ticket's host (request/reply on
//! `<prefix>.h.<host>.match`) for its seeker; that host takes the seeker
//! out of its queue and answers with who it is, or "no" if the seeker has
//! gone (then both seek again). The table runs on the host that took the
//! ticket; the other player is a visitor there.
//!
//! **A visitor's seat.** The room's host sends every new state of the
//! table, as a full snapshot, and what the room tells the seat, to
//! `<prefix>.h.<visitor's host>.s.<session>`; the visitor's host turns
//! them into the same [`RoomLink`] a table at home gives (a watch channel
//! and a room handle), so the session code is the same. The visitor's
//! commands go to `<prefix>.h.<room's host>.t.<token>`, where the token is
//! the seat's secret: nothing else can move for that seat.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_nats::jetstream::kv;
use futures_util::StreamExt;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use super::wire::{
    CodeValue, DeclineNote, FromVisitor, InviteAsk, JoinAnswer, JoinAsk, JoinTo, MatchAnswer,
    MatchAsk, RejoinAsk, SignedInNote, Ticket, ToVisitor, WatchAnswer, WatchAsk, WireCmd,
    WireState, parse_games, parse_tickets,
};
use crate::game::{GameKind, Rules};
use crate::lobby::room::{RoomCmd, RoomHandle, RoomState};
use crate::lobby::state::{rated_rules, rating_window};
use crate::lobby::{Across, Command, LobbyHandle, RoomLink, SessionId, ToSession, Visitor};
use crate::protocol::{GameSummary, LeaveReason, Refusal, SeatCmd};

/// How long the host that took a ticket waits for the ticket's host.
const ASK_TIMEOUT: Duration = Duration::from_secs(3);
/// How long a visitor's host waits for the first state of its table.
const FIRST_STATE: Duration = Duration::from_secs(10);
/// Most commands one visitor's seat may send a second.
const COMMANDS_PER_SECOND: u32 = 20;
/// How long a visitor's host waits for the table's host to take a move.
const MOVE_ACK: Duration = Duration::from_secs(2);
/// Most matches being settled at once (each is a request to another host).
const SETTLING_MAX: usize = 256;
/// Most presences one look at a queue reads from NATS, for tickets of
/// hosts this host does not (yet) count as live.
const PRUNE_READS: usize = 8;
/// Longest those reads may take together (the queue's loop waits on them).
const PRUNE_TIME: Duration = Duration::from_secs(1);
/// The subjects under `<prefix>.h.<host>.` that are requests answered here.
const REQUESTS: [&str; 6] = ["match", "join", "invite", "games", "watch", "rejoin"];
/// How long a player coming back looks for their game while its host is
/// not yet seen gone (its heartbeat and the room's lease run out).
const SEAT_WAIT: Duration = Duration::from_secs(15);
/// Why a seat is looked for in NATS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seeking {
    /// A player arrived (or typed a resume code).
    Arrived,
    /// A visitor's table's host is no longer live.
    Lost,
    /// A visitor's table's host handed the game over (it restarts).
    HandedOver,
}

/// A new secret for a seat (or a watcher's place) at a table elsewhere.
fn new_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// A seat's secret as it crosses: 32 hex digits.
fn valid_token(token: &str) -> bool {
    token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A visitor from another host as its host describes it, checked and
/// cleaned (`None`: not one).
fn visitor_from(
    host: String,
    session: SessionId,
    name: &str,
    account: Option<String>,
    colour: Option<String>,
    token: String,
) -> Option<Visitor> {
    (super::valid_host_name(&host) && valid_token(&token)).then(|| Visitor {
        host,
        session,
        name: crate::text::sanitize_name(name, "Visitor"),
        account: account.filter(|a| a.len() <= 128),
        rating: None,
        colour: colour.and_then(|c| c.parse().ok()),
        token,
    })
}

/// How long a list of games waits for each other host.
const GAMES_TIMEOUT: Duration = Duration::from_millis(500);
/// Queue operations a seek may retry on conflicts before giving up.
const CAS_TRIES: usize = 50;

/// A seat here for a visitor (a player or a watcher on another host):
/// where its commands go.
struct VisitorSeat {
    handle: RoomHandle,
    ghost: SessionId,
    name: String,
    /// Commands counted in the current second.
    window: (Instant, u32),
    /// A watcher: only chat lines and leaving; stops its forwarder on leaving.
    watcher: Option<CancellationToken>,
}

/// A session of this host playing at a table on another.
struct Visit {
    /// The game it sought by quick match (it seeks again if the table
    /// never starts); `None`: it came by a room code.
    seek: Option<GameKind>,
    room_host: String,
    token: String,
    inbox: crate::mailbox::Sender<ToSession>,
    /// Set from the first state on.
    state: Option<watch::Sender<Arc<RoomState>>>,
    since: Instant,
    /// It watches the game (it does not play).
    watching: bool,
    /// What takes its seat back if the table's host goes: its account, or
    /// a guest's resume code (the seat's first secret until the table
    /// sends the code).
    key: Option<String>,
    /// Its table's host went: the seat is being looked for.
    orphaned: bool,
    /// The last state's number ([`WireState::rev`]): the same state sent
    /// again on the table's heartbeat is not shown again.
    rev: u64,
}

impl Visit {
    /// A session of ours that plays at a table on `room_host`: its seat is
    /// found again by its account or, for a guest, the seat's first secret.
    fn player(
        room_host: String,
        token: &str,
        inbox: crate::mailbox::Sender<ToSession>,
        account: Option<String>,
    ) -> Visit {
        Visit {
            seek: None,
            room_host,
            token: token.to_string(),
            inbox,
            state: None,
            since: Instant::now(),
            watching: false,
            key: account.or_else(|| Some(token.to_string())),
            orphaned: false,
            rev: 0,
        }
    }

    /// A session of ours that watches a game on `room_host`.
    fn watcher(room_host: String, token: &str, inbox: crate::mailbox::Sender<ToSession>) -> Visit {
        Visit {
            watching: true,
            key: None,
            ..Visit::player(room_host, token, inbox, None)
        }
    }
}

/// This host's side of matches and tables across hosts.
pub struct Crossing {
    client: async_nats::Client,
    queue: kv::Store,
    codes: kv::Store,
    rooms: super::rooms::Rooms,
    prefix: String,
    host: String,
    instance: String,
    lobby: LobbyHandle,
    match_wait: Duration,
    chat_max: usize,
    /// The other live hosts: name -> instance.
    live: watch::Receiver<HashMap<String, String>>,
    /// The same, with whether this host can tell now.
    liveness: Liveness,
    /// The hosts' presences, read when a ticket's host is not in `live`
    /// (which may lag, e.g. just after NATS came back to this host).
    hosts: kv::Store,
    seats: Arc<Mutex<HashMap<String, VisitorSeat>>>,
    visits: Mutex<HashMap<SessionId, Visit>>,
    settling: Arc<tokio::sync::Semaphore>,
    /// The tasks keeping this host's rooms in NATS (a restart waits for
    /// them to release their rooms).
    pub keeping: tokio_util::task::TaskTracker,
}

/// Whether another host's run has gone, as this host can tell: only
/// while its own connection to NATS has held for longer than a heartbeat
/// takes to lapse (out of reach, or just back, the presences it reads may
/// be stale, and every other host would look gone).
#[derive(Clone)]
struct Liveness {
    live: watch::Receiver<HashMap<String, String>>,
    client: async_nats::Client,
    /// Since when the connection has held, and when this was last looked
    /// at (every heartbeat at least).
    steady_since: Arc<Mutex<(Option<Instant>, Instant)>>,
}

impl Liveness {
    fn steady(&self) -> bool {
        let connected = self.client.connection_state() == async_nats::connection::State::Connected;
        let now = Instant::now();
        let mut guard = lock(&self.steady_since);
        let (since, last) = &mut *guard;
        // Not looked at for several heartbeats: this host was away (paused,
        // starved of the processor) and what it knows of the others is
        // as old as that, whatever the connection says.
        let away = now.duration_since(*last) > super::HEARTBEAT * 3;
        *last = now;
        match (connected, *since) {
            (false, _) => *since = None,
            (true, None) => *since = Some(now),
            (true, Some(_)) if away => *since = Some(now),
            (true, Some(_)) => {}
        }
        since.is_some_and(|t| now.duration_since(t) >= super::HOST_ALIVE)
    }

    /// The run of `host` now live, if any.
    fn instance(&self, host: &str) -> Option<String> {
        self.live.borrow().get(host).cloned()
    }

    /// Whether `host`'s run `instance` is surely gone (not live, or
    /// another run of it live).
    fn gone(&self, host: &str, instance: &str) -> bool {
        self.steady() && self.instance(host).as_deref() != Some(instance)
    }
}

/// Where a sender's state numbers start: apart from any other sender's
/// (a seat carried on to another table starts anew), never 0.
fn first_rev() -> u64 {
    (u64::from(rand::random::<u32>()) << 20) | 1
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn queue_key(kind: GameKind) -> String {
    format!("queue.{}", kind.id())
}

/// Whether two tickets may play each other now (`now_ms`): anyone with
/// anyone, except two rated players outside the window of the longer wait.
fn fits(a: &Ticket, b: &Ticket, now_ms: i64, match_wait: Duration) -> Option<u32> {
    match (a.rating, b.rating) {
        (Some(ra), Some(rb)) => {
            let gap = ra.abs_diff(rb);
            let waited = now_ms.saturating_sub(a.since_ms.min(b.since_ms)).max(0) as u64;
            (gap <= rating_window(Duration::from_millis(waited), match_wait)).then_some(gap)
        }
        _ => Some(u32::MAX),
    }
}

/// The best ticket in `queue` for `me` among other live hosts': the
/// closest rating, else the longest waiting.
fn best_for(
    me: &Ticket,
    queue: &[Ticket],
    live: &HashMap<String, String>,
    now_ms: i64,
    match_wait: Duration,
) -> Option<usize> {
    queue
        .iter()
        .enumerate()
        .filter(|(_, t)| t.host != me.host && live.get(&t.host) == Some(&t.instance))
        .filter(|(_, t)| me.account.is_none() || t.account != me.account)
        .filter_map(|(i, t)| Some((fits(me, t, now_ms, match_wait)?, t.since_ms, i)))
        .min()
        .map(|(_, _, i)| i)
}

impl Crossing {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        client: async_nats::Client,
        queue: kv::Store,
        codes: kv::Store,
        rooms: super::rooms::Rooms,
        prefix: String,
        host: String,
        instance: String,
        lobby: LobbyHandle,
        match_wait: Duration,
        chat_max: usize,
        live: watch::Receiver<HashMap<String, String>>,
        hosts: kv::Store,
    ) -> Arc<Crossing> {
        Arc::new(Crossing {
            client: client.clone(),
            queue,
            codes,
            rooms,
            prefix,
            host,
            instance,
            lobby,
            match_wait,
            chat_max,
            liveness: Liveness {
                live: live.clone(),
                client,
                steady_since: Arc::new(Mutex::new((None, Instant::now()))),
            },
            live,
            hosts,
            seats: Arc::new(Mutex::new(HashMap::new())),
            visits: Mutex::new(HashMap::new()),
            settling: Arc::new(tokio::sync::Semaphore::new(SETTLING_MAX)),
            keeping: tokio_util::task::TaskTracker::new(),
        })
    }

    fn subject(&self, host: &str, rest: &str) -> String {
        format!("{}.h.{host}.{rest}", self.prefix)
    }

    /// A subject every host of the cluster follows.
    fn everyone(&self, rest: &str) -> String {
        format!("{}.all.{rest}", self.prefix)
    }

    /// Runs until stopped: the lobby's seekers and tables, the messages
    /// for this host, and a look at the queues every heartbeat.
    pub async fn run(
        self: Arc<Self>,
        mut from_lobby: mpsc::Receiver<Across>,
        stop: CancellationToken,
    ) {
        let inbound = match self.client.subscribe(self.subject(&self.host, ">")).await {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(error = %e, "cannot subscribe to this host's subjects: no matches across hosts");
                return;
            }
        };
        // What every host is told (a sign-in), followed from the start: a
        // host not yet seen live by the teller still hears it.
        let everyone = match self.client.subscribe(self.everyone("signedin")).await {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(error = %e, "cannot subscribe to the cluster's subjects: no matches across hosts");
                return;
            }
        };
        let inbound = futures_util::stream::select(inbound, everyone);
        let router = tokio::spawn(Arc::clone(&self).route(inbound, stop.clone()));
        let _router = super::AbortOnDrop(router);
        let mut tick = tokio::time::interval(super::HEARTBEAT);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // This host's tickets: session -> game.
        let mut mine: HashMap<SessionId, GameKind> = HashMap::new();
        // Seekers whose offer did not reach the queue (NATS away, or just
        // back and not answering yet): offered again every heartbeat until
        // it does or they stop seeking. Bounded by the lobby's sessions.
        let mut unsent: HashMap<SessionId, (GameKind, Ticket)> = HashMap::new();
        // This host's rooms for a friend, by code.
        let mut codes: std::collections::HashSet<String> = std::collections::HashSet::new();
        loop {
            tokio::select! {
                _ = stop.cancelled() => break,
                msg = from_lobby.recv() => match msg {
                    Some(Across::Seek { id, kind, seeker }) => {
                        let me = Ticket {
                            host: self.host.clone(),
                            instance: self.instance.clone(),
                            session: id,
                            name: seeker.name,
                            account: seeker.account,
                            rating: seeker.rating,
                            since_ms: crate::store::now_ms(),
                        };
                        unsent.remove(&id);
                        match self.seek(kind, me.clone()).await {
                            Ok(Some(other)) => self.settle_later(id, kind, other),
                            Ok(None) => { mine.insert(id, kind); }
                            Err(e) => {
                                tracing::debug!(error = %e, "quick match across hosts unavailable: offered again later");
                                unsent.insert(id, (kind, me));
                            }
                        }
                    }
                    Some(Across::Unseek { id }) => {
                        unsent.remove(&id);
                        if let Some(kind) = mine.remove(&id) {
                            let _ = self.withdraw(kind, id).await;
                        }
                    }
                    Some(Across::Opened { handle, state, ghost, visitor, inbox }) => {
                        self.seat_visitor(handle, state, ghost, visitor, inbox);
                    }
                    Some(Across::CodeOpened { code, kind }) => {
                        match self.announce_code(&code, kind).await {
                            Ok(()) => { codes.insert(code); }
                            Err(e) => tracing::warn!(error = %e, "a room code is not reachable from the other hosts"),
                        }
                    }
                    Some(Across::CodeClosed { code }) => {
                        if codes.remove(&code) {
                            self.withdraw_code(&code).await;
                        }
                    }
                    Some(Across::Kept { room, handle, state, from }) => {
                        let (name, rev) = from.unwrap_or_else(|| (format!("{}.{}.{room}", self.host, self.instance), 0));
                        let owner = (self.host.clone(), self.instance.clone());
                        self.keeping.spawn(keep_room(self.rooms.clone(), owner, (room, handle), name, state, (rev > 0).then_some(rev)));
                    }
                    Some(Across::Invite { host, session, invitation }) => {
                        let this = Arc::clone(&self);
                        tokio::spawn(async move { this.invite(host, session, invitation).await });
                    }
                    Some(Across::Decline { host, inviter, id }) => {
                        let this = Arc::clone(&self);
                        tokio::spawn(async move { this.decline(host, inviter, id).await });
                    }
                    Some(Across::Accept { id, host, inviter, seeker, inbox }) => {
                        let this = Arc::clone(&self);
                        tokio::spawn(async move { this.accept(id, host, inviter, seeker, inbox).await });
                    }
                    Some(Across::SignedIn { account, identity, at_ms }) => {
                        let note = SignedInNote { host: self.host.clone(), account, identity, at_ms };
                        if let Ok(body) = serde_json::to_vec(&note) {
                            let sent = tokio::time::timeout(
                                Duration::from_secs(1),
                                self.client.publish(self.everyone("signedin"), body.into()),
                            )
                            .await;
                            if !matches!(sent, Ok(Ok(()))) {
                                tracing::warn!("a sign-in was not told to the other hosts: an older session elsewhere stays");
                            }
                        }
                    }
                    Some(Across::FindSeat { id, key }) => {
                        if let Ok(permit) = Arc::clone(&self.settling).try_acquire_owned() {
                            let this = Arc::clone(&self);
                            tokio::spawn(async move {
                                this.find_seat(id, &key).await;
                                drop(permit);
                            });
                        }
                    }
                    Some(Across::FindCode { id, code, from_login, joiner }) => {
                        match Arc::clone(&self.settling).try_acquire_owned() {
                            Ok(permit) => {
                                let this = Arc::clone(&self);
                                tokio::spawn(async move {
                                    this.find_code(id, code, from_login, joiner).await;
                                    drop(permit);
                                });
                            }
                            Err(_) => self.lobby.try_send(crate::lobby::Cmd::CodeUnknown { id, code, from_login }),
                        }
                    }
                    None => break,
                },
                _ = tick.tick() => {
                    let retry: Vec<SessionId> = unsent.keys().copied().collect();
                    for id in retry {
                        let Some((kind, me)) = unsent.get(&id).cloned() else { continue };
                        match self.seek(kind, me).await {
                            Ok(Some(other)) => {
                                unsent.remove(&id);
                                self.settle_later(id, kind, other);
                            }
                            Ok(None) => {
                                unsent.remove(&id);
                                mine.insert(id, kind);
                            }
                            // Still away: the rest would fail alike.
                            Err(_) => break,
                        }
                    }
                    for kind in GameKind::ALL {
                        if let Ok(Some((id, other))) = self.look_again(kind).await {
                            mine.remove(&id);
                            self.settle_later(id, kind, other);
                        }
                    }
                    self.drop_stale_visits();
                    if self.liveness.steady() {
                        self.look_for_lost_tables();
                    }
                }
            }
        }
        // Our tickets and codes go with us.
        for (id, kind) in mine {
            let _ = tokio::time::timeout(Duration::from_secs(1), self.withdraw(kind, id)).await;
        }
        for code in codes {
            let _ = tokio::time::timeout(Duration::from_secs(1), self.withdraw_code(&code)).await;
        }
    }

    /// The queue of `kind` and its revision (0: no key yet).
    async fn read_queue(&self, kind: GameKind) -> anyhow::Result<(Vec<Ticket>, u64)> {
        Ok(match self.queue.entry(queue_key(kind)).await? {
            Some(e) if e.operation == kv::Operation::Put => (parse_tickets(&e.value), e.revision),
            Some(e) => (Vec::new(), e.revision),
            None => (Vec::new(), 0),
        })
    }

    /// Writes the queue if nobody changed it since `rev`; `false` on a conflict.
    async fn write_queue(
        &self,
        kind: GameKind,
        queue: &[Ticket],
        rev: u64,
    ) -> anyhow::Result<bool> {
        let value = serde_json::to_vec(queue)?;
        match tokio::time::timeout(
            Duration::from_secs(3),
            self.queue.update(queue_key(kind), value.into(), rev),
        )
        .await
        {
            Ok(Ok(_)) => Ok(true),
            Ok(Err(e)) if e.kind() == kv::UpdateErrorKind::WrongLastRevision => Ok(false),
            Ok(Err(e)) => Err(e.into()),
            Err(_) => anyhow::bail!("the queue did not answer in time"),
        }
    }

    /// Keeps only live hosts' tickets (ours included).
    async fn prune(&self, queue: &mut Vec<Ticket>) {
        // A host missing from our view may be alive all the same: our view
        // lags after NATS came back to us (a ticket dropped then would
        // leave its seeker waiting unseen). Its presence decides, read
        // afresh, for a bounded number of hosts; the rest stay this time.
        let unknown: Vec<(String, String)> = {
            let live = self.live.borrow();
            let mut unknown: Vec<(String, String)> = Vec::new();
            for t in queue.iter() {
                let known = (t.host == self.host && t.instance == self.instance)
                    || live.get(&t.host) == Some(&t.instance);
                let id = (t.host.clone(), t.instance.clone());
                if !known && !unknown.contains(&id) && unknown.len() < PRUNE_READS {
                    unknown.push(id);
                }
            }
            unknown
        };
        let deadline = tokio::time::Instant::now() + PRUNE_TIME;
        let mut gone = Vec::new();
        for (host, instance) in unknown {
            let read = tokio::time::timeout_at(deadline, self.hosts.entry(format!("host.{host}")));
            let dead = match read.await {
                Ok(Ok(Some(e))) if e.operation == kv::Operation::Put => {
                    !super::Presence::parse(&e.value)
                        .is_some_and(|p| p.instance == instance && p.alive(crate::store::now_ms()))
                }
                Ok(Ok(_)) => true,
                Ok(Err(e)) => e.kind() == kv::EntryErrorKind::InvalidKey,
                // No answer in time: kept for the next look.
                Err(_) => false,
            };
            if dead {
                gone.push((host, instance));
            }
        }
        queue.retain(|t| !gone.iter().any(|(h, i)| *h == t.host && *i == t.instance));
    }

    /// Offers `me` to the other hosts: takes the best ticket that fits
    /// (returned), or adds `me` to the queue (`None`).
    async fn seek(&self, kind: GameKind, me: Ticket) -> anyhow::Result<Option<Ticket>> {
        for _ in 0..CAS_TRIES {
            let (mut queue, rev) = self.read_queue(kind).await?;
            self.prune(&mut queue).await;
            queue.retain(|t| !(t.host == me.host && t.session == me.session));
            let now = crate::store::now_ms();
            let best = best_for(&me, &queue, &self.live.borrow(), now, self.match_wait);
            let taken = match best {
                Some(i) => Some(queue.remove(i)),
                None if queue.len() < super::wire::MAX_TICKETS => {
                    queue.push(me.clone());
                    None
                }
                // A full queue: this seeker waits at home only.
                None => return Ok(None),
            };
            if self.write_queue(kind, &queue, rev).await? {
                return Ok(taken);
            }
        }
        anyhow::bail!("the queue is too busy")
    }

    /// Takes this host's ticket for `id` out of the queue.
    async fn withdraw(&self, kind: GameKind, id: SessionId) -> anyhow::Result<()> {
        for _ in 0..CAS_TRIES {
            let (mut queue, rev) = self.read_queue(kind).await?;
            let before = queue.len();
            queue.retain(|t| !(t.host == self.host && t.session == id));
            if queue.len() == before || self.write_queue(kind, &queue, rev).await? {
                return Ok(());
            }
        }
        anyhow::bail!("the queue is too busy")
    }

    /// Looks at the queue again: one of our tickets that now fits another
    /// host's is taken out with it (both at once).
    async fn look_again(&self, kind: GameKind) -> anyhow::Result<Option<(SessionId, Ticket)>> {
        for _ in 0..CAS_TRIES {
            let (mut queue, rev) = self.read_queue(kind).await?;
            let before = queue.len();
            self.prune(&mut queue).await;
            let now = crate::store::now_ms();
            let pair = {
                let live = self.live.borrow();
                queue
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.host == self.host && t.instance == self.instance)
                    .find_map(|(i, me)| {
                        best_for(me, &queue, &live, now, self.match_wait).map(|j| (i, j))
                    })
            };
            let taken = match pair {
                Some((i, j)) => {
                    let other = queue[j].clone();
                    let me = queue[i].session;
                    queue.retain(|t| {
                        let ours = t.host == self.host && t.session == me;
                        let theirs = t.host == other.host && t.session == other.session;
                        !(ours || theirs)
                    });
                    Some((me, other))
                }
                None if queue.len() == before => return Ok(None),
                None => None,
            };
            if self.write_queue(kind, &queue, rev).await? {
                return Ok(taken);
            }
        }
        anyhow::bail!("the queue is too busy")
    }

    /// Puts a ticket we took back (our seeker had gone meanwhile).
    async fn put_back(&self, kind: GameKind, ticket: Ticket) -> anyhow::Result<()> {
        for _ in 0..CAS_TRIES {
            let (mut queue, rev) = self.read_queue(kind).await?;
            if queue.len() >= super::wire::MAX_TICKETS {
                return Ok(());
            }
            let at = queue
                .iter()
                .position(|t| t.since_ms > ticket.since_ms)
                .unwrap_or(queue.len());
            queue.insert(at, ticket.clone());
            if self.write_queue(kind, &queue, rev).await? {
                return Ok(());
            }
        }
        anyhow::bail!("the queue is too busy")
    }

    fn settle_later(self: &Arc<Self>, id: SessionId, kind: GameKind, other: Ticket) {
        let Ok(permit) = Arc::clone(&self.settling).try_acquire_owned() else {
            tracing::warn!("too many matches being settled: one seeker seeks again");
            let lobby = self.lobby.clone();
            tokio::spawn(async move { lobby.send(crate::lobby::Cmd::Release { id, kind }).await });
            return;
        };
        let this = Arc::clone(self);
        tokio::spawn(async move {
            this.settle(id, kind, other).await;
            drop(permit);
        });
    }

    /// Our seeker `id` meets the seeker of `other`'s ticket at a table here.
    async fn settle(&self, id: SessionId, kind: GameKind, other: Ticket) {
        if self.lobby.reserve(id, kind).await.is_none() {
            let _ = self.put_back(kind, other).await;
            return;
        }
        let token = new_token();
        let ask = MatchAsk {
            game: kind.id().to_string(),
            session: other.session,
            instance: other.instance.clone(),
            room_host: self.host.clone(),
            token: token.clone(),
        };
        let answer = match serde_json::to_vec(&ask) {
            Ok(body) => {
                match tokio::time::timeout(
                    ASK_TIMEOUT,
                    self.client
                        .request(self.subject(&other.host, "match"), body.into()),
                )
                .await
                {
                    Ok(Ok(reply)) if reply.payload.len() <= 4096 => {
                        serde_json::from_slice::<MatchAnswer>(&reply.payload).ok()
                    }
                    _ => None,
                }
            }
            Err(_) => None,
        };
        let Some(MatchAnswer::Yes {
            name,
            account,
            rating,
            colour,
        }) = answer
        else {
            self.lobby
                .send(crate::lobby::Cmd::Release { id, kind })
                .await;
            return;
        };
        let rules = Rules::standard(kind);
        let visitor = Visitor {
            host: other.host.clone(),
            session: other.session,
            name: crate::text::sanitize_name(&name, "Visitor"),
            account: account.filter(|a| a.len() <= 128),
            rating: rating.filter(|&r| r <= 10_000 && rated_rules(&rules)),
            colour: colour.and_then(|c| c.parse().ok()),
            token,
        };
        if !self.lobby.open_across(id, kind, visitor).await {
            // Our seeker went meanwhile: theirs seeks again.
            let gone = ToVisitor::Said("your opponent left before the game began".into());
            self.send_visitor(&other.host, other.session, &gone).await;
        }
    }

    /// Makes the room code `code` reachable from the other hosts.
    async fn announce_code(&self, code: &str, kind: GameKind) -> anyhow::Result<()> {
        let key = format!("code.{code}");
        let value = serde_json::to_vec(&CodeValue {
            host: self.host.clone(),
            instance: self.instance.clone(),
            game: kind.id().to_string(),
        })?;
        match self.codes.create(&key, value.clone().into()).await {
            Ok(_) => Ok(()),
            Err(e) if e.kind() == kv::CreateErrorKind::AlreadyExists => {
                // Taken: only a host that is gone (or this one, earlier) may lose it.
                let Some(entry) = self.codes.entry(&key).await? else {
                    anyhow::bail!("the code {code} changed meanwhile");
                };
                let holder = CodeValue::parse(&entry.value);
                let free = holder.as_ref().is_none_or(|h| {
                    h.host == self.host || self.live.borrow().get(&h.host) != Some(&h.instance)
                });
                if !free {
                    anyhow::bail!("another host has a room with the code {code}");
                }
                self.codes
                    .update(&key, value.into(), entry.revision)
                    .await?;
                Ok(())
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Removes our room code from NATS.
    async fn withdraw_code(&self, code: &str) {
        let key = format!("code.{code}");
        if let Ok(Some(entry)) = self.codes.entry(&key).await
            && CodeValue::parse(&entry.value).is_some_and(|h| h.host == self.host)
        {
            let _ = self.codes.delete(&key).await;
        }
    }

    /// Our session `id` asked for a room code no room here has: the room
    /// may be on another host; our session then plays there as a visitor.
    async fn find_code(
        &self,
        id: SessionId,
        code: String,
        from_login: bool,
        joiner: crate::lobby::Seeker,
    ) {
        let unknown = || crate::lobby::Cmd::CodeUnknown {
            id,
            code: code.clone(),
            from_login,
        };
        // A guest's resume code for a game kept in NATS.
        if self.find_seat(id, &code).await {
            return;
        }
        let holder = match self.codes.entry(format!("code.{code}")).await {
            Ok(Some(e)) if e.operation == kv::Operation::Put => CodeValue::parse(&e.value),
            _ => None,
        };
        // Not checked against the live hosts (a host that just started
        // may not have seen the others yet): a host that is gone does not
        // answer, and then no room has the code.
        let Some(holder) = holder.filter(|h| h.host != self.host) else {
            self.lobby.send(unknown()).await;
            return;
        };
        let Some((_, inbox)) = self.lobby.leave_to_join(id).await else {
            return;
        };
        let token = new_token();
        lock(&self.visits).insert(
            id,
            Visit::player(
                holder.host.clone(),
                &token,
                inbox.clone(),
                joiner.account.clone(),
            ),
        );
        let ask = JoinAsk {
            to: JoinTo::Room(code.clone()),
            token,
            host: self.host.clone(),
            session: id,
            name: joiner.name,
            account: joiner.account,
            ratings: joiner.ratings,
            colour: joiner.colour.map(|c| c.name().to_string()),
        };
        let mut nobody = false;
        let answer = match serde_json::to_vec(&ask) {
            Ok(body) => match tokio::time::timeout(
                ASK_TIMEOUT,
                self.client
                    .request(self.subject(&holder.host, "join"), body.into()),
            )
            .await
            {
                Ok(Ok(reply)) if reply.payload.len() <= 4096 => {
                    serde_json::from_slice::<JoinAnswer>(&reply.payload).ok()
                }
                Ok(Err(e)) => {
                    nobody = e.kind() == async_nats::client::RequestErrorKind::NoResponders;
                    None
                }
                _ => None,
            },
            Err(_) => None,
        };
        let why = match answer {
            Some(JoinAnswer::Yes) => return,
            Some(JoinAnswer::No(why)) => Some(why.shown()),
            None if nobody => None,
            None => Some(format!(
                "the host of the room {code} did not answer: try again"
            )),
        };
        if lock(&self.visits).remove(&id).is_some() {
            self.lobby.send(Command::LeftRoom { id }).await;
            match why {
                Some(why) => {
                    let _ = inbox.try_send(ToSession::LobbyError(why));
                }
                None => self.lobby.send(unknown()).await,
            }
        }
    }

    /// Our session `id` may have a seat, under `key` (its account, a
    /// resume code it typed), in a game kept in NATS: it takes the seat
    /// back, at the host that runs the game (as a visitor), or here when
    /// that host has gone (the room is claimed and the game carried on
    /// here). Whether a seat was found.
    async fn find_seat(&self, id: SessionId, key: &str) -> bool {
        self.find_seat_for(id, key, Seeking::Arrived).await
    }

    /// [`Crossing::find_seat`] for a session arriving, or visiting a table
    /// whose host went (its link carries on).
    async fn find_seat_for(&self, id: SessionId, key: &str, why: Seeking) -> bool {
        let visiting = why != Seeking::Arrived;
        let Ok(Some(name)) = self.rooms.seat_of(key).await else {
            return false;
        };
        let deadline = Instant::now() + SEAT_WAIT;
        let mut told = false;
        loop {
            let Ok(Some((stored, position, _))) = self.rooms.read(&name).await else {
                return false;
            };
            if stored.owner == self.host && stored.owner_instance == self.instance {
                // The table is here: carried on here already (its other
                // player came back to this host first), or the seat is a
                // visitor's from a host that went (or is still open there).
                // The room gives the seat to this session; a visiting one
                // leaves its link to the table that went.
                if visiting {
                    lock(&self.visits).remove(&id);
                }
                self.lobby.try_send(Command::TakeSeat {
                    id,
                    room: stored.room,
                    key: key.to_string(),
                });
                return true;
            }
            let live = self.live.borrow().clone();
            let owner_live = live.get(&stored.owner) == Some(&stored.owner_instance);
            if owner_live && !stored.released {
                let answer = if visiting {
                    let still = lock(&self.visits)
                        .get(&id)
                        .is_some_and(|v| v.room_host == stored.owner && v.state.is_some());
                    if still && why == Seeking::Lost {
                        return false; // its host is there after all
                    }
                    if still {
                        // Handed over: the room is let go in a moment.
                        None
                    } else {
                        self.rejoin_in_place(id, key, &stored).await
                    }
                } else {
                    self.rejoin_across(id, key, &stored).await
                };
                if let Some(found) = answer {
                    return found;
                }
                // No answer: its host may be going; look again.
            } else {
                let claimed = self
                    .rooms
                    .claim(
                        &name,
                        crate::store::now_ms(),
                        super::rooms::LEASE,
                        |h, i| live.get(h).map(String::as_str) == Some(i),
                    )
                    .await;
                match claimed {
                    Ok(Some((claimed, position, rev))) => {
                        if visiting {
                            // The session's link to the table that went
                            // ends; the game goes on here.
                            lock(&self.visits).remove(&id);
                        }
                        return self.carry_on(id, key, &name, claimed, position, rev).await;
                    }
                    Ok(None) => {} // not yet, or another host took it: look again
                    Err(e) => {
                        tracing::debug!(room = %name, error = %e, "a room could not be claimed")
                    }
                }
            }
            drop(position);
            if Instant::now() >= deadline {
                self.lobby.try_send(crate::lobby::Cmd::Tell {
                    id,
                    text: "The host of your game did not come back: it is lost, sorry.".into(),
                });
                return false;
            }
            if !told {
                told = true;
                self.lobby.try_send(crate::lobby::Cmd::Tell {
                    id,
                    text: "The host of your game is not answering: looking for it...".into(),
                });
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }

    /// Our visiting session's seat, its table's host gone, is taken back
    /// at the host that carries the game on now: the same link follows the
    /// new host (see [`Crossing::rejoin_across`] for the answer).
    async fn rejoin_in_place(
        &self,
        id: SessionId,
        key: &str,
        stored: &super::rooms::StoredRoom,
    ) -> Option<bool> {
        let token = new_token();
        let name = self.lobby_name(id).await;
        {
            let mut visits = lock(&self.visits);
            let visit = visits.get_mut(&id)?;
            visit.room_host = stored.owner.clone();
            visit.token = token.clone();
            visit.since = Instant::now();
        }
        let account =
            (!valid_token(key) && !crate::room_code::looks_like_code(key)).then(|| key.to_string());
        match self.ask_rejoin(id, key, stored, token, name, account).await {
            Some(JoinAnswer::Yes) => {
                if let Some(v) = lock(&self.visits).get_mut(&id) {
                    v.orphaned = false;
                }
                tracing::info!(session = id, host = %stored.owner, "a visitor's seat taken back where its game goes on");
                Some(true)
            }
            Some(JoinAnswer::No(_)) => Some(false),
            None => None,
        }
    }

    /// Asks the host of `stored` to give our session `id` its seat back
    /// (by `key`), its commands to come with `token` from now on.
    async fn ask_rejoin(
        &self,
        id: SessionId,
        key: &str,
        stored: &super::rooms::StoredRoom,
        token: String,
        name: String,
        account: Option<String>,
    ) -> Option<JoinAnswer> {
        let ask = RejoinAsk {
            room: stored.room,
            key: key.to_string(),
            token,
            host: self.host.clone(),
            session: id,
            name,
            account,
        };
        let body = serde_json::to_vec(&ask).ok()?;
        self.ask(&stored.owner, "rejoin", body).await
    }

    /// Takes our session's seat back at the table on another host, as a
    /// visitor: `Some(true)` if it is, `Some(false)` if refused (or the
    /// session is busy), `None` if that host did not answer.
    async fn rejoin_across(
        &self,
        id: SessionId,
        key: &str,
        stored: &super::rooms::StoredRoom,
    ) -> Option<bool> {
        let Some((seeker, inbox)) = self.lobby.leave_to_join(id).await else {
            return Some(false);
        };
        let token = new_token();
        lock(&self.visits).insert(
            id,
            Visit::player(
                stored.owner.clone(),
                &token,
                inbox.clone(),
                Some(key.to_string()),
            ),
        );
        let answer = self
            .ask_rejoin(id, key, stored, token, seeker.name, seeker.account)
            .await;
        if matches!(answer, Some(JoinAnswer::Yes)) {
            return Some(true);
        }
        if lock(&self.visits).remove(&id).is_some() {
            self.lobby.send(Command::LeftRoom { id }).await;
        }
        match answer {
            Some(JoinAnswer::No(why)) => {
                tracing::info!(host = %stored.owner, why = %why.shown(), "a seat was not given back");
                Some(false)
            }
            _ => None,
        }
    }

    /// The game of a room claimed from a host that went away goes on here,
    /// with our session `id` in the seat `key` takes; if it cannot, the
    /// room is let go again for another host. Whether it goes on.
    async fn carry_on(
        &self,
        id: SessionId,
        key: &str,
        name: &str,
        stored: super::rooms::StoredRoom,
        position: crate::game::Position,
        rev: u64,
    ) -> bool {
        let game = carried(&stored, &position, name, rev);
        let outcome = match game {
            Some(game) => self.lobby.carry_on(id, key.to_string(), game).await,
            None => Err(Refusal::CannotRun),
        };
        match outcome {
            Ok(room) => {
                tracing::info!(room = %name, "game carried on here");
                // The other player may be here too, still linked to the
                // table that went: their seat is given to them here now,
                // rather than when their own search comes to it.
                let keys = seat_keys(&stored);
                let others: Vec<(SessionId, String)> = {
                    let mut visits = lock(&self.visits);
                    let ids: Vec<(SessionId, String)> = visits
                        .iter()
                        .filter(|&(&v, _)| v != id)
                        .filter_map(|(&v, visit)| {
                            let k = visit.key.as_ref()?;
                            (!visit.watching && keys.contains(k) && k != key)
                                .then(|| (v, k.clone()))
                        })
                        .collect();
                    for (v, _) in &ids {
                        visits.remove(v);
                    }
                    ids
                };
                for (other, key) in others {
                    self.lobby.try_send(Command::TakeSeat {
                        id: other,
                        room,
                        key,
                    });
                }
                true
            }
            Err(why) => {
                tracing::info!(room = %name, why = %why, "a claimed game was not carried on");
                if let Err(e) = self.rooms.release(name, &stored, rev).await {
                    tracing::warn!(room = %name, error = %e, "a claimed room was not let go");
                }
                false
            }
        }
    }

    /// Someone on another host takes their seat back at a table here.
    async fn answer_rejoin(&self, body: &[u8]) -> JoinAnswer {
        let Ok(ask) = serde_json::from_slice::<RejoinAsk>(body) else {
            return JoinAnswer::No(Refusal::NotUnderstood);
        };
        if ask.key.is_empty() || ask.key.len() > 128 {
            return JoinAnswer::No(Refusal::NotUnderstood);
        }
        let Some(visitor) = visitor_from(
            ask.host,
            ask.session,
            &ask.name,
            ask.account,
            None,
            ask.token,
        ) else {
            return JoinAnswer::No(Refusal::NotUnderstood);
        };
        self.lobby
            .rejoin_for_visitor(ask.room, ask.key, visitor)
            .await
            .into()
    }

    /// Someone on another host takes a seat here: in a room for a friend,
    /// or with the person whose invitation they accepted.
    async fn answer_join(&self, body: &[u8]) -> JoinAnswer {
        let Ok(ask) = serde_json::from_slice::<JoinAsk>(body) else {
            return JoinAnswer::No(Refusal::NotUnderstood);
        };
        let bad_code = matches!(&ask.to, JoinTo::Room(code) if code.len() > 16);
        if bad_code || ask.ratings.iter().flatten().any(|&r| r > 10_000) {
            return JoinAnswer::No(Refusal::NotUnderstood);
        }
        let Some(visitor) = visitor_from(
            ask.host,
            ask.session,
            &ask.name,
            ask.account,
            ask.colour,
            ask.token,
        ) else {
            return JoinAnswer::No(Refusal::NotUnderstood);
        };
        match ask.to {
            JoinTo::Room(code) => {
                self.lobby
                    .open_for_visitor(code, visitor, ask.ratings)
                    .await
            }
            JoinTo::Inviter(inviter) => {
                self.lobby
                    .open_for_invitee(inviter, visitor, ask.ratings)
                    .await
            }
        }
        .into()
    }

    /// A request to `host` on `rest`, answered yes or no (`None`: no
    /// answer in time, or no such host).
    async fn ask(&self, host: &str, rest: &str, body: Vec<u8>) -> Option<JoinAnswer> {
        match tokio::time::timeout(
            ASK_TIMEOUT,
            self.client.request(self.subject(host, rest), body.into()),
        )
        .await
        {
            Ok(Ok(reply)) if reply.payload.len() <= 4096 => {
                serde_json::from_slice::<JoinAnswer>(&reply.payload).ok()
            }
            _ => None,
        }
    }

    /// Our `invitation` for `session` on `host`: delivered, or the
    /// inviter hears why not.
    async fn invite(&self, host: String, session: SessionId, invitation: crate::lobby::Invitation) {
        let inviter = invitation.from;
        let ask = InviteAsk {
            host: self.host.clone(),
            to: session,
            invitation,
        };
        let why = match serde_json::to_vec(&ask) {
            Ok(body) => match self.ask(&host, "invite", body).await {
                Some(JoinAnswer::Yes) => return,
                Some(JoinAnswer::No(why)) => why.shown(),
                None => format!("{host} did not answer: the invitation did not reach them"),
            },
            Err(_) => return,
        };
        self.lobby
            .send(crate::lobby::Cmd::InviteRefused {
                inviter,
                host,
                session,
                why,
            })
            .await;
    }

    /// An invitation from another host for someone here.
    async fn answer_invite(&self, body: &[u8]) -> JoinAnswer {
        let not_understood = || JoinAnswer::No(Refusal::NotUnderstood);
        let Ok(ask) = serde_json::from_slice::<InviteAsk>(body) else {
            return not_understood();
        };
        if !super::valid_host_name(&ask.host) || ask.invitation.rating.is_some_and(|r| r > 10_000) {
            return not_understood();
        }
        self.lobby
            .invited_from_afar(ask.host, ask.to, ask.invitation)
            .await
            .into()
    }

    /// Our session `id` declined the invitation of `inviter` on `host`.
    async fn decline(&self, host: String, inviter: SessionId, id: SessionId) {
        let name = self.lobby_name(id).await;
        let note = DeclineNote {
            inviter,
            host: self.host.clone(),
            session: id,
            name,
        };
        if let Ok(body) = serde_json::to_vec(&note) {
            let _ = tokio::time::timeout(
                Duration::from_secs(1),
                self.client
                    .publish(self.subject(&host, "declined"), body.into()),
            )
            .await;
        }
    }

    /// The name someone here goes by, as the list of people has it.
    async fn lobby_name(&self, id: SessionId) -> String {
        self.lobby
            .people(id)
            .await
            .into_iter()
            .find(|p| p.me)
            .map_or_else(|| "someone".to_string(), |p| p.name)
    }

    /// Someone on another host declined our session's invitation.
    fn declined(&self, body: &[u8]) {
        if body.len() > 4096 {
            return;
        }
        let Ok(note) = serde_json::from_slice::<DeclineNote>(body) else {
            return;
        };
        if !super::valid_host_name(&note.host) {
            return;
        }
        let name = crate::text::sanitize_name(&note.name, "someone");
        self.lobby.try_send(crate::lobby::Cmd::InviteRefused {
            inviter: note.inviter,
            host: note.host,
            session: note.session,
            why: format!("{name} declined your invitation"),
        });
    }

    /// Our session `id` accepted the invitation of `inviter` on `host`:
    /// it plays at a table there, as a visitor.
    async fn accept(
        &self,
        id: SessionId,
        host: String,
        inviter: SessionId,
        seeker: crate::lobby::Seeker,
        inbox: crate::mailbox::Sender<ToSession>,
    ) {
        let token = new_token();
        lock(&self.visits).insert(
            id,
            Visit::player(host.clone(), &token, inbox.clone(), seeker.account.clone()),
        );
        let ask = JoinAsk {
            to: JoinTo::Inviter(inviter),
            token,
            host: self.host.clone(),
            session: id,
            name: seeker.name,
            account: seeker.account,
            ratings: seeker.ratings,
            colour: seeker.colour.map(|c| c.name().to_string()),
        };
        let why = match serde_json::to_vec(&ask) {
            Ok(body) => match self.ask(&host, "join", body).await {
                Some(JoinAnswer::Yes) => return,
                Some(JoinAnswer::No(why)) => why.shown(),
                None => format!("{host} did not answer: the game did not start"),
            },
            Err(_) => "the game did not start".into(),
        };
        self.visit_failed(id, &inbox, why).await;
    }

    /// The games in play here that may be watched, for another host.
    async fn our_games(&self) -> Vec<GameSummary> {
        self.lobby.games().await
    }

    /// The games in play on the other live hosts, each with its host:
    /// asked of all at once, a host that does not answer in time left out.
    pub async fn games(&self) -> Vec<GameSummary> {
        let hosts: Vec<String> = self.live.borrow().keys().cloned().collect();
        let asks = hosts.into_iter().map(|host| async move {
            let reply = tokio::time::timeout(
                GAMES_TIMEOUT,
                self.client
                    .request(self.subject(&host, "games"), bytes::Bytes::new()),
            )
            .await;
            let games = match reply {
                Ok(Ok(m)) => parse_games(&m.payload, crate::lobby::GAMES_LISTED),
                _ => None,
            };
            games
                .unwrap_or_default()
                .into_iter()
                .map(move |g| GameSummary {
                    host: Some(host.clone()),
                    ..g
                })
                .collect::<Vec<_>>()
        });
        futures_util::future::join_all(asks)
            .await
            .into_iter()
            .flatten()
            .collect()
    }

    /// Our session `id` would watch the game at `room` on `host`.
    pub fn watch(self: &Arc<Self>, id: SessionId, host: String, room: u64) {
        let this = Arc::clone(self);
        tokio::spawn(async move { this.watch_across(id, host, room).await });
    }

    async fn watch_across(&self, id: SessionId, host: String, room: u64) {
        if !super::valid_host_name(&host) {
            return;
        }
        let Some((name, inbox)) = self.lobby.watch_elsewhere(id).await else {
            return;
        };
        let token = new_token();
        lock(&self.visits).insert(id, Visit::watcher(host.clone(), &token, inbox.clone()));
        let ask = WatchAsk {
            room,
            token,
            host: self.host.clone(),
            session: id,
            name,
        };
        let answer = match serde_json::to_vec(&ask) {
            Ok(body) => self.ask(&host, "watch", body).await,
            Err(_) => None,
        };
        let why = match answer {
            Some(JoinAnswer::Yes) => return,
            Some(JoinAnswer::No(why)) => why.shown(),
            None => format!("{host} did not answer: try again"),
        };
        self.visit_failed(id, &inbox, why).await;
    }

    /// The visit of our session `id` did not begin: it is back in the
    /// lobby and reads why (unless the visit was over already).
    async fn visit_failed(
        &self,
        id: SessionId,
        inbox: &crate::mailbox::Sender<ToSession>,
        why: String,
    ) {
        if lock(&self.visits).remove(&id).is_some() {
            self.lobby.send(Command::LeftRoom { id }).await;
            let _ = inbox.try_send(ToSession::LobbyError(why));
        }
    }

    /// Someone on another host would watch a game here: the room takes
    /// them as a watcher (or says why not); the game's states go to their
    /// host, and their chat lines and leaving come back on their token.
    async fn answer_watch(&self, body: &[u8]) -> WatchAnswer {
        let Ok(ask) = serde_json::from_slice::<WatchAsk>(body) else {
            return JoinAnswer::No(Refusal::NotUnderstood);
        };
        if !super::valid_host_name(&ask.host) || !valid_token(&ask.token) {
            return JoinAnswer::No(Refusal::NotUnderstood);
        }
        let (handle, ghost, mut inbox) = match self.lobby.watch_for_visitor(ask.room).await {
            Ok(x) => x,
            Err(why) => return JoinAnswer::No(why),
        };
        let link = match tokio::time::timeout(ASK_TIMEOUT, inbox.recv()).await {
            Ok(Some(ToSession::Watching(link))) => link,
            Ok(Some(ToSession::LobbyError(why) | ToSession::Said(why))) => {
                return JoinAnswer::No(Refusal::Said(why));
            }
            _ => return JoinAnswer::No(Refusal::GameEnded),
        };
        let stop = CancellationToken::new();
        lock(&self.seats).insert(
            ask.token.clone(),
            VisitorSeat {
                handle: handle.clone(),
                ghost,
                name: crate::text::sanitize_name(&ask.name, "Watcher"),
                window: (Instant::now(), 0),
                watcher: Some(stop.clone()),
            },
        );
        let client = self.client.clone();
        let subject = self.subject(&ask.host, &format!("s.{}", ask.session));
        let seats = Arc::clone(&self.seats);
        let liveness = self.liveness.clone();
        let mut live = self.live.clone();
        let (host, token) = (ask.host, ask.token);
        let mut state = link.state;
        tokio::spawn(async move {
            let mut first = true;
            // Numbered as a seat's states are (see `seat_visitor`).
            let mut rev = first_rev();
            // The watcher's host's run, once seen live (one that started a
            // moment ago may not be in the list yet).
            let mut seen = liveness.instance(&host);
            loop {
                if !first {
                    tokio::select! {
                        _ = stop.cancelled() => break,
                        changed = state.changed() => if changed.is_err() {
                            break;
                        },
                        // Every heartbeat: a host may die while nobody moves.
                        changed = live.changed() => {
                            if changed.is_err() {
                                break;
                            }
                            seen = seen.or_else(|| liveness.instance(&host));
                            if seen.as_deref().is_some_and(|i| liveness.gone(&host, i)) {
                                let _ = handle.send(RoomCmd::Unwatch { id: ghost }).await;
                                break;
                            }
                            // The current state again (one may have been lost).
                            rev -= 1;
                        }
                    }
                }
                first = false;
                rev += 1;
                seen = seen.or_else(|| liveness.instance(&host));
                if seen.as_deref().is_some_and(|i| liveness.gone(&host, i)) {
                    // The watcher's host is gone: so is the watcher.
                    let _ = handle.send(RoomCmd::Unwatch { id: ghost }).await;
                    break;
                }
                let mut wire = WireState::of(&state.borrow_and_update(), ghost, Instant::now());
                wire.rev = rev;
                if let Ok(body) = serde_json::to_vec(&ToVisitor::State(Box::new(wire))) {
                    let _ = tokio::time::timeout(
                        Duration::from_secs(1),
                        client.publish(subject.clone(), body.into()),
                    )
                    .await;
                }
            }
            lock(&seats).remove(&token);
        });
        JoinAnswer::Yes
    }

    /// A table here seats a visitor: its state and notices go to the
    /// visitor's host; its commands come in on the seat's token.
    fn seat_visitor(
        &self,
        handle: RoomHandle,
        mut state: watch::Receiver<Arc<RoomState>>,
        ghost: SessionId,
        visitor: Visitor,
        mut inbox: crate::mailbox::Receiver<ToSession>,
    ) {
        let token = visitor.token.clone();
        lock(&self.seats).insert(
            token.clone(),
            VisitorSeat {
                handle: handle.clone(),
                ghost,
                name: visitor.name.clone(),
                window: (Instant::now(), 0),
                watcher: None,
            },
        );
        let client = self.client.clone();
        let subject = self.subject(&visitor.host, &format!("s.{}", visitor.session));
        let seats = Arc::clone(&self.seats);
        let liveness = self.liveness.clone();
        let mut live = self.live.clone();
        let host = visitor.host;
        tokio::spawn(async move {
            // The visitor's host's run, once seen live.
            let mut seen = liveness.instance(&host);
            let send = |msg: ToVisitor| {
                let client = client.clone();
                let subject = subject.clone();
                async move {
                    if let Ok(body) = serde_json::to_vec(&msg) {
                        let _ = tokio::time::timeout(
                            Duration::from_secs(1),
                            client.publish(subject, body.into()),
                        )
                        .await;
                    }
                }
            };
            // A seat taken back (a rejoin) is shown once the room has
            // seated its visitor.
            let seated = tokio::time::timeout(FIRST_STATE, async {
                while !state.borrow_and_update().ids.contains(&Some(ghost)) {
                    if state.changed().await.is_err() {
                        return false;
                    }
                }
                true
            })
            .await;
            if !matches!(seated, Ok(true)) {
                lock(&seats).remove(&token);
                return;
            }
            // States are numbered from a start of this seat's own: the
            // current one goes again on every heartbeat (one lost on the
            // way, NATS restarting, is made good), and the visitor shows
            // each number once.
            let mut rev = first_rev();
            let wire = |state: &watch::Receiver<Arc<RoomState>>, rev: u64| {
                let mut w = WireState::of(&state.borrow(), ghost, Instant::now());
                w.rev = rev;
                ToVisitor::State(Box::new(w))
            };
            state.borrow_and_update();
            send(wire(&state, rev)).await;
            loop {
                tokio::select! {
                    // Every heartbeat: the visitor's host may die while
                    // nobody moves. Its player then lost the connection:
                    // the seat is held for the grace, the opponent told.
                    changed = live.changed() => {
                        if changed.is_err() {
                            break;
                        }
                        seen = seen.or_else(|| liveness.instance(&host));
                        if seen.as_deref().is_some_and(|i| liveness.gone(&host, i)) {
                            tracing::info!(host = %host, "a visitor's host is gone: the seat is held");
                            let _ = handle
                                .send(RoomCmd::seat(
                                    ghost,
                                    SeatCmd::Leave {
                                        reason: LeaveReason::LostConnection,
                                        dropped: true,
                                    },
                                ))
                                .await;
                            break;
                        }
                        send(wire(&state, rev)).await;
                    }
                    changed = state.changed() => {
                        if changed.is_err() {
                            break;
                        }
                        state.borrow_and_update();
                        rev += 1;
                        send(wire(&state, rev)).await;
                    }
                    msg = inbox.recv() => match msg {
                        Some(msg) => {
                            if let Some(msg) = ToVisitor::of(msg) {
                                send(msg).await;
                            }
                        }
                        None => {
                            // The room has ended: its last state (a game
                            // handed over, say) still goes.
                            state.borrow_and_update();
                            send(wire(&state, rev + 1)).await;
                            break;
                        }
                    },
                }
            }
            lock(&seats).remove(&token);
        });
    }

    async fn send_visitor(&self, host: &str, session: SessionId, msg: &ToVisitor) {
        if let Ok(body) = serde_json::to_vec(msg) {
            let subject = self.subject(host, &format!("s.{session}"));
            let _ = tokio::time::timeout(
                Duration::from_secs(1),
                self.client.publish(subject, body.into()),
            )
            .await;
        }
    }

    /// Messages for this host: match requests, visitors' commands, and
    /// our visitors' tables.
    async fn route(
        self: Arc<Self>,
        mut inbound: impl futures_util::Stream<Item = async_nats::Message> + Unpin,
        stop: CancellationToken,
    ) {
        let mine = format!("{}.h.{}.", self.prefix, self.host);
        let signed_in = self.everyone("signedin");
        loop {
            let msg = tokio::select! {
                _ = stop.cancelled() => return,
                msg = inbound.next() => match msg {
                    Some(m) => m,
                    None => return,
                },
            };
            if msg.payload.len() > super::wire::MAX_MESSAGE {
                continue;
            }
            if msg.subject.as_str() == signed_in {
                if let Some(note) = SignedInNote::parse(&msg.payload)
                    && note.host != self.host
                {
                    self.lobby.try_send(Command::SignedInElsewhere {
                        account: note.account,
                        identity: note.identity,
                        at_ms: note.at_ms,
                    });
                }
                continue;
            }
            let Some(rest) = msg.subject.as_str().strip_prefix(&mine) else {
                continue;
            };
            if rest == "declined" {
                self.declined(&msg.payload);
            } else if REQUESTS.contains(&rest) {
                let Some(reply) = msg.reply.clone() else {
                    continue;
                };
                let Ok(permit) = Arc::clone(&self.settling).try_acquire_owned() else {
                    continue; // the asker times out
                };
                let this = Arc::clone(&self);
                let body = msg.payload.clone();
                let what = rest.to_string();
                tokio::spawn(async move {
                    if let Some(bytes) = this.answer(&what, &body).await {
                        let _ = this.client.publish(reply, bytes.into()).await;
                    }
                    drop(permit);
                });
            } else if let Some(token) = rest.strip_prefix("t.") {
                let taken = self.visitor_command(token, &msg.payload);
                if let (true, Some(reply)) = (taken, msg.reply.clone()) {
                    let client = self.client.clone();
                    tokio::spawn(async move {
                        let _ = client.publish(reply, bytes::Bytes::new()).await;
                    });
                }
            } else if let Some(Ok(session)) = rest.strip_prefix("s.").map(str::parse::<SessionId>) {
                self.for_visit(session, &msg.payload);
            }
        }
    }

    /// The answer to a request on one of [`REQUESTS`], as it crosses.
    async fn answer(&self, what: &str, body: &[u8]) -> Option<Vec<u8>> {
        match what {
            "match" => serde_json::to_vec(&self.answer_match(body).await),
            "join" => serde_json::to_vec(&self.answer_join(body).await),
            "invite" => serde_json::to_vec(&self.answer_invite(body).await),
            "games" => serde_json::to_vec(&self.our_games().await),
            "watch" => serde_json::to_vec(&self.answer_watch(body).await),
            "rejoin" => serde_json::to_vec(&self.answer_rejoin(body).await),
            _ => return None,
        }
        .ok()
    }

    /// Another host took our seeker's ticket: our seeker goes there, if
    /// it still seeks.
    async fn answer_match(&self, body: &[u8]) -> MatchAnswer {
        let Ok(ask) = serde_json::from_slice::<MatchAsk>(body) else {
            return MatchAnswer::No;
        };
        let Ok(kind) = ask.game.parse::<GameKind>() else {
            return MatchAnswer::No;
        };
        if ask.instance != self.instance
            || !super::valid_host_name(&ask.room_host)
            || !valid_token(&ask.token)
        {
            return MatchAnswer::No;
        }
        let Some((seeker, inbox)) = self.lobby.leave_for(ask.session, kind).await else {
            return MatchAnswer::No;
        };
        lock(&self.visits).insert(
            ask.session,
            Visit {
                seek: Some(kind),
                ..Visit::player(ask.room_host, &ask.token, inbox, seeker.account.clone())
            },
        );
        MatchAnswer::Yes {
            name: seeker.name,
            account: seeker.account,
            rating: seeker.rating,
            colour: seeker.colour.map(|c| c.name().to_string()),
        }
    }

    /// A visitor's command, for the seat with this token; whether it was
    /// given to the table.
    fn visitor_command(&self, token: &str, body: &[u8]) -> bool {
        let Ok(from) = serde_json::from_slice::<FromVisitor>(body) else {
            return false;
        };
        let mut seats = lock(&self.seats);
        let Some(seat) = seats.get_mut(token) else {
            return false;
        };
        if from.token != token {
            return false;
        }
        let now = Instant::now();
        if now.duration_since(seat.window.0) >= Duration::from_secs(1) {
            seat.window = (now, 0);
        }
        seat.window.1 += 1;
        if seat.window.1 > COMMANDS_PER_SECOND {
            return false;
        }
        if seat.watcher.is_some() {
            match from.cmd {
                WireCmd::Seat(SeatCmd::Chat(_)) => {}
                WireCmd::Unwatch => {
                    let seat = seats.remove(token);
                    drop(seats);
                    if let Some(seat) = seat {
                        if let Some(stop) = &seat.watcher {
                            stop.cancel();
                        }
                        let handle = seat.handle.clone();
                        let cmd = RoomCmd::Unwatch { id: seat.ghost };
                        tokio::spawn(async move {
                            let _ = tokio::time::timeout(Duration::from_secs(2), handle.send(cmd))
                                .await;
                        });
                    }
                    return true;
                }
                _ => return false, // a watcher does not play
            }
        }
        let cmd = from
            .cmd
            .into_room_cmd(seat.ghost, &seat.name, self.chat_max);
        if let Err(cmd) = seat.handle.try_give(cmd) {
            let handle = seat.handle.clone();
            tokio::spawn(async move {
                let _ = tokio::time::timeout(Duration::from_secs(2), handle.send(cmd)).await;
            });
        }
        true
    }

    /// The table of our session `session` on another host says something.
    fn for_visit(self: &Arc<Self>, session: SessionId, body: &[u8]) {
        let Some(msg) = ToVisitor::parse(body) else {
            return;
        };
        let mut visits = lock(&self.visits);
        let Some(visit) = visits.get_mut(&session) else {
            return;
        };
        match msg {
            ToVisitor::State(wire) => {
                if wire.rev != 0 && wire.rev == visit.rev && visit.state.is_some() {
                    return; // sent again on the table's heartbeat: shown already
                }
                let rev = wire.rev;
                // A guest's resume code takes the seat back from now on
                // (on any host, also when this one or the table's goes).
                let resume = wire.resume_code().filter(|_| !visit.watching);
                if resume.is_some() {
                    visit.key.clone_from(&resume);
                }
                let state = match wire.into_state(session, Instant::now()) {
                    Ok(s) => Arc::new(s),
                    Err(e) => {
                        tracing::warn!(error = %e, host = %visit.room_host, "a table's state from another host was refused");
                        return;
                    }
                };
                visit.rev = rev;
                if state.handed_over {
                    // Not shown: the game goes on where the seat is taken back.
                    drop(visits);
                    self.orphaned(session, Seeking::HandedOver);
                    return;
                }
                match &visit.state {
                    Some(tx) => {
                        tx.send_replace(state);
                    }
                    None => {
                        let (tx, rx) = watch::channel(state);
                        visit.state = Some(tx);
                        let (room_tx, room_rx) = mpsc::channel(32);
                        let handle = RoomHandle::proxy(0, room_tx);
                        let link = RoomLink {
                            room: handle,
                            state: rx,
                            resume,
                        };
                        let _ = visit.inbox.try_send(if visit.watching {
                            ToSession::Watching(Box::new(link))
                        } else {
                            ToSession::Joined(Box::new(link))
                        });
                        let this = Arc::clone(self);
                        tokio::spawn(this.forward(session, room_rx, visit.inbox.clone()));
                    }
                }
            }
            other => {
                if visit.state.is_none() {
                    // The table never started: back to seeking.
                    let visit = visits.remove(&session);
                    drop(visits);
                    if let Some(visit) = visit {
                        if let Some(notice) = other.notice() {
                            let _ = visit.inbox.try_send(notice);
                        }
                        self.back_home(session, visit.seek);
                    }
                } else if let Some(notice) = other.notice() {
                    let _ = visit.inbox.try_send(notice);
                }
            }
        }
    }

    /// Our session's commands to its table on another host (the visit's
    /// host and seat secret as they stand: a seat taken back on another
    /// host, after its first host went, carries on the same link).
    async fn forward(
        self: Arc<Self>,
        session: SessionId,
        mut commands: mpsc::Receiver<RoomCmd>,
        inbox: crate::mailbox::Sender<ToSession>,
    ) {
        while let Some(cmd) = commands.recv().await {
            let leaving = matches!(
                cmd,
                RoomCmd::Seat {
                    cmd: SeatCmd::Leave { .. },
                    ..
                } | RoomCmd::Unwatch { .. }
            );
            let (to, linked) = {
                let visits = lock(&self.visits);
                let visit = visits.get(&session);
                (
                    visit
                        .filter(|v| !v.orphaned)
                        .map(|v| (v.room_host.clone(), v.token.clone())),
                    visit.is_some(),
                )
            };
            let is_move = matches!(
                cmd,
                RoomCmd::Seat {
                    cmd: SeatCmd::Move(_),
                    ..
                }
            );
            if to.is_none() && is_move {
                // The table's host went: the move would be lost. The
                // player is told, and plays it again at the table found.
                let why = if linked {
                    "the host of your game is not answering: play again in a moment"
                } else {
                    "your game moved to another host: play your move again"
                };
                let _ = inbox.try_send(ToSession::Rejected(why.into()));
                continue;
            }
            if let (Some(cmd), Some((host, token))) = (WireCmd::crossing(cmd), to) {
                let subject = self.subject(&host, &format!("t.{token}"));
                let from = FromVisitor { token, cmd };
                if let Ok(body) = serde_json::to_vec(&from) {
                    if is_move {
                        // A move is answered once the table has it: one
                        // lost on the way (NATS restarting, the table's
                        // host gone) is said, never silently dropped.
                        let asked = tokio::time::timeout(
                            MOVE_ACK,
                            self.client.request(subject, body.into()),
                        )
                        .await;
                        if !matches!(asked, Ok(Ok(_))) {
                            tracing::info!(host = %host, "a move for a table on another host was not taken");
                            let _ = inbox.try_send(ToSession::Rejected(
                                "the host of your game is not answering: play again in a moment"
                                    .into(),
                            ));
                        }
                    } else {
                        let _ = tokio::time::timeout(
                            Duration::from_secs(1),
                            self.client.publish(subject, body.into()),
                        )
                        .await;
                    }
                }
            }
            if leaving {
                break;
            }
        }
        lock(&self.visits).remove(&session);
        self.lobby
            .send(Command::LeftElsewhere { id: session })
            .await;
    }

    /// Our session's table on another host is gone with its host (or the
    /// host handed it over as it restarts): the seat is looked for in NATS
    /// and taken back where the game goes on, or here.
    fn orphaned(self: &Arc<Self>, session: SessionId, why: Seeking) {
        let key = {
            let mut visits = lock(&self.visits);
            let Some(visit) = visits.get_mut(&session) else {
                return;
            };
            if visit.orphaned || visit.watching || visit.state.is_none() {
                return;
            }
            visit.orphaned = true;
            visit.key.clone()
        };
        let Some(key) = key else { return };
        tracing::info!(
            session,
            "the host of a visitor's table went: looking for the game"
        );
        let this = Arc::clone(self);
        tokio::spawn(async move {
            if !this.find_seat_for(session, &key, why).await
                && let Some(v) = lock(&this.visits).get_mut(&session)
            {
                v.orphaned = false;
            }
        });
    }

    /// Visits whose table's host is no longer live (it died): their seats
    /// are looked for where the game goes on.
    fn look_for_lost_tables(self: &Arc<Self>) {
        if self.client.connection_state() != async_nats::connection::State::Connected {
            return; // NATS is out of reach: the hosts are not known now
        }
        let live = self.live.borrow().clone();
        let lost: Vec<SessionId> = lock(&self.visits)
            .iter()
            .filter(|(_, v)| v.state.is_some() && !v.watching && !v.orphaned)
            .filter(|(_, v)| !live.contains_key(&v.room_host))
            .map(|(&id, _)| id)
            .collect();
        for id in lost {
            self.orphaned(id, Seeking::Lost);
        }
    }

    /// Visits whose table never sent its first state: back to seeking.
    fn drop_stale_visits(&self) {
        let stale: Vec<(SessionId, Visit)> = {
            let mut visits = lock(&self.visits);
            let ids: Vec<SessionId> = visits
                .iter()
                .filter(|(_, v)| v.state.is_none() && v.since.elapsed() > FIRST_STATE)
                .map(|(id, _)| *id)
                .collect();
            ids.into_iter()
                .filter_map(|id| Some((id, visits.remove(&id)?)))
                .collect()
        };
        for (id, visit) in stale {
            let _ = visit.inbox.try_send(ToSession::Said(
                "the game on the other host did not start".into(),
            ));
            self.back_home(id, visit.seek);
        }
    }

    /// A session whose table elsewhere never started: it seeks again, or
    /// is back in the lobby.
    fn back_home(&self, id: SessionId, seek: Option<GameKind>) {
        self.lobby.try_send(match seek {
            Some(kind) => crate::lobby::Cmd::Release { id, kind },
            None => Command::LeftRoom { id }.into(),
        });
    }
}

/// A game read from NATS as the lobby carries it on (`None`: rules this
/// host cannot run).
fn carried(
    stored: &super::rooms::StoredRoom,
    position: &crate::game::Position,
    name: &str,
    rev: u64,
) -> Option<crate::lobby::Carried> {
    use crate::lobby::state::Occupant;
    let rules = stored.rules().ok()?;
    let seats = [0, 1].map(|i| {
        let s = &stored.seats[i];
        let colour = s.colour.parse().unwrap_or(crate::game::Colour::ALL[i]);
        match s.level.as_deref().and_then(|l| l.parse().ok()) {
            Some(level) => Occupant::Computer { level, colour },
            None => Occupant::Human {
                id: 0,
                name: crate::text::sanitize_name(&stored.players[i], "Player"),
                colour,
                account: s.account.clone(),
                rating: s.rating.filter(|&r| r <= 10_000),
                resume: s.resume.clone(),
            },
        }
    });
    let clock = stored.clock.map(|c| crate::clock::TimeControl {
        base: Duration::from_millis(c.base_ms.min(24 * 3600 * 1000)),
        increment: Duration::from_millis(c.increment_ms.min(3600 * 1000)),
    });
    let resumed = crate::lobby::room::Resumed {
        game: if stored.game_id.is_empty() {
            crate::store::GameRecord::new_id()
        } else {
            stored.game_id.clone()
        },
        started_ms: stored.started_ms,
        moves: position
            .history()
            .iter()
            .map(|&p| crate::game::Move::Point(p))
            .collect(),
        move_ms: stored.move_ms.clone(),
        clock_left: stored
            .clock
            .map(|c| c.left_at(crate::store::now_ms()).map(Duration::from_millis)),
        away: [false; 2],
        opening: stored.opening,
        swap2: stored
            .swap2
            .as_deref()
            .and_then(|id| crate::table::Swap2Stage::from_id(id, position.stones())),
        chat: stored.chat.each_ref().map(|lines| {
            lines
                .iter()
                .map(|l| crate::table::ChatLine {
                    from: crate::text::sanitize(&l.from, crate::text::MAX_NAME_WIDTH),
                    side: l.side.map(|s| {
                        if s == 0 {
                            crate::game::Side::First
                        } else {
                            crate::game::Side::Second
                        }
                    }),
                    text: crate::text::sanitize(&l.text, 1000),
                })
                .filter(|l| !l.text.is_empty())
                .collect()
        }),
    };
    Some(crate::lobby::Carried {
        rules,
        seats,
        rated: stored.rated,
        clock,
        resumed,
        from: (name.to_string(), rev),
    })
}

/// Keeps the game at a table here in NATS (as `name`) while it runs:
/// written at each move, removed when the game ends or the table closes
/// (and written again if a rematch starts), its players' seats noted in
/// the seats bucket meanwhile. A table handed over (the host restarts)
/// leaves its game released, for any host to claim. `from`: the revision
/// of a room claimed from another host.
///
/// Fencing: the room is read back every heartbeat, and a write that
/// finds another revision reads it too. Another host's name or run in it
/// means that host claimed the game (this one was cut off from NATS, or
/// paused, past its lease): the table here stops at once
/// ([`RoomCmd::Fence`]) and its players are taken to the one that goes
/// on. A revision that is this run's own (a write that timed out and
/// landed later) is taken as the current one.
async fn keep_room(
    rooms: super::rooms::Rooms,
    owner: (String, String),
    (room, handle): (crate::lobby::RoomId, RoomHandle),
    name: String,
    mut state: watch::Receiver<Arc<RoomState>>,
    from: Option<u64>,
) {
    use super::rooms::StoredRoom;
    // The revision we wrote last; `None`: not kept now (no game in play).
    let mut rev: Option<u64> = from;
    let mut kept: Option<StoredRoom> = None;
    // The players' accounts and resume codes noted for this room.
    let mut seated: Vec<String> = Vec::new();
    let mut check = tokio::time::interval(super::HEARTBEAT);
    check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    check.tick().await;
    let ours = |stored: &StoredRoom| stored.owner == owner.0 && stored.owner_instance == owner.1;
    // Whether another host runs the game now; `Some(rev)`: still ours, at
    // that revision.
    let look = async |rev: u64| -> Result<Option<u64>, ()> {
        match rooms.read(&name).await {
            Ok(Some((stored, _, now))) if ours(&stored) => Ok(Some(now)),
            Ok(Some(_)) => Err(()),
            Ok(None) | Err(_) => Ok(Some(rev)), // not known now: as it was
        }
    };
    let fence = async || {
        tracing::warn!(room = %name, "another host claimed this game: the table here stops");
        let _ = tokio::time::timeout(Duration::from_secs(2), handle.send(RoomCmd::Fence)).await;
    };
    loop {
        let (stored, handed_over) = {
            let st = state.borrow_and_update();
            let stored = (st.view.ending.is_none())
                .then(|| StoredRoom::of(&st, room, (&owner.0, &owner.1), crate::store::now_ms()));
            (stored, st.handed_over)
        };
        if handed_over {
            if let (Some(stored), Some(r)) = (&stored, rev) {
                match rooms.release(&name, stored, r).await {
                    Ok(()) => tracing::info!(room = %name, "room released for another host"),
                    Err(e) => tracing::warn!(room = %name, error = %e, "a room was not released"),
                }
            }
            return;
        }
        match (stored, rev) {
            (Some(stored), None) => match rooms.create(&name, &stored).await {
                Ok(r) => {
                    rev = Some(r);
                    seated = seat_keys(&stored);
                    rooms.seat(&seated, &name).await;
                    kept = Some(stored);
                }
                Err(e) => tracing::warn!(room = %name, error = %e, "a room is not kept in NATS"),
            },
            (Some(stored), Some(r)) => {
                let changed = kept.as_ref().is_none_or(|k| {
                    k.moves != stored.moves || k.seats != stored.seats || k.chat != stored.chat
                });
                if changed {
                    match rooms.replace(&name, &stored, r).await {
                        Ok(Some(r)) => {
                            rev = Some(r);
                            let keys = seat_keys(&stored);
                            if keys != seated {
                                rooms.seat(&keys, &name).await;
                                seated = keys;
                            }
                            kept = Some(stored);
                        }
                        Ok(None) => match look(r).await {
                            Ok(now) => {
                                // Our own write landed late: write again on it.
                                rev = now;
                                kept = None;
                                continue;
                            }
                            Err(()) => return fence().await,
                        },
                        Err(e) => {
                            tracing::debug!(room = %name, error = %e, "a move is not kept in NATS yet")
                        }
                    }
                }
            }
            (None, Some(_)) => {
                let _ = rooms.remove(&name).await;
                rooms.unseat(&std::mem::take(&mut seated), &name).await;
                rev = None;
                kept = None;
            }
            (None, None) => {}
        }
        loop {
            tokio::select! {
                changed = state.changed() => {
                    if changed.is_err() {
                        if rev.is_some() {
                            let _ = rooms.remove(&name).await;
                            rooms.unseat(&seated, &name).await;
                        }
                        return;
                    }
                    break;
                }
                _ = check.tick() => {
                    if let Some(r) = rev {
                        match look(r).await {
                            Ok(now) => {
                                if now != Some(r) {
                                    rev = now;
                                    kept = None; // written again on the revision found
                                    break;
                                }
                            }
                            Err(()) => return fence().await,
                        }
                    }
                }
            }
        }
    }
}

/// What takes the seats of a kept room back: accounts and resume codes.
fn seat_keys(room: &super::rooms::StoredRoom) -> Vec<String> {
    room.seats
        .iter()
        .flat_map(|s| [s.account.clone(), s.resume.clone()])
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ticket(host: &str, session: SessionId, rating: Option<u32>, since_ms: i64) -> Ticket {
        Ticket {
            host: host.into(),
            instance: format!("{host}-1"),
            session,
            name: format!("p{session}"),
            rating,
            since_ms,
            account: None,
        }
    }

    #[test]
    fn a_ticket_takes_the_closest_fitting_rating_of_another_live_host() {
        let live: HashMap<String, String> = [("b", "b-1"), ("c", "c-1")]
            .into_iter()
            .map(|(h, i)| (h.to_string(), i.to_string()))
            .collect();
        let wait = Duration::from_secs(30);
        let me = ticket("a", 1, Some(1500), 1000);
        let queue = vec![
            ticket("a", 2, Some(1500), 0),    // our own host: never
            ticket("dead", 3, Some(1500), 0), // no live host
            ticket("b", 4, Some(2100), 0),    // too far
            ticket("c", 5, Some(1580), 500),  // fits
            ticket("b", 6, Some(1530), 900),  // fits, closer
        ];
        assert_eq!(best_for(&me, &queue, &live, 1000, wait), Some(4));
        // A rating too far fits after a long enough wait.
        assert_eq!(best_for(&me, &queue[..3], &live, 1000, wait), None);
        let late = 1000 + 31_000;
        assert_eq!(best_for(&me, &queue[..3], &live, late, wait), Some(2));
        // A guest meets the longest waiting of another live host.
        let guest = ticket("a", 7, None, 1000);
        assert_eq!(best_for(&guest, &queue, &live, 1000, wait), Some(2));
        // A stale instance of a live host does not count.
        let mut old = ticket("b", 8, None, 0);
        old.instance = "b-0".into();
        assert_eq!(best_for(&guest, &[old], &live, 1000, wait), None);
    }

    #[test]
    fn an_account_seeking_on_two_hosts_is_never_paired_with_itself() {
        let live: HashMap<String, String> = [("b".to_string(), "b-1".to_string())].into();
        let wait = Duration::from_secs(30);
        let mut me = ticket("a", 1, Some(1500), 1000);
        me.account = Some("acct-bob".into());
        let mut twin = ticket("b", 2, Some(1500), 0);
        twin.account = Some("acct-bob".into());
        let mut other = ticket("b", 3, Some(1600), 500);
        other.account = Some("acct-ann".into());
        assert_eq!(best_for(&me, &[twin.clone()], &live, 1000, wait), None);
        assert_eq!(best_for(&me, &[twin, other], &live, 1000, wait), Some(1));
        // Two guests (no account) still meet.
        let guest = ticket("a", 4, None, 1000);
        assert_eq!(
            best_for(&guest, &[ticket("b", 5, None, 0)], &live, 1000, wait),
            Some(0)
        );
    }
}
