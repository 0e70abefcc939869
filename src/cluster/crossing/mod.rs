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
//!
//! The parts, one file each: the quick-match queue ([`queue`]), rooms for
//! a friend and invitations across hosts ([`joining`]), the visitor's side
//! of a table elsewhere ([`visit`]), the table's side of its visitors
//! ([`table`]), finding a seat again after a host went ([`failover`]), and
//! keeping this host's games in NATS for that ([`keep`]). Here: the
//! [`Crossing`] they share, its loop, and the routing of what comes in.
//!
//! [`RoomLink`]: crate::lobby::RoomLink

mod failover;
mod joining;
mod keep;
mod queue;
mod table;
mod visit;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_nats::jetstream::kv;
use futures_util::StreamExt;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use super::wire::{JoinAnswer, SignedInNote, Ticket};
use crate::game::GameKind;
use crate::lobby::{Across, Ask, Command, LobbyHandle, SessionId, Visitor};
use crate::metrics::{Metrics, dropped};

use keep::keep_room;
use table::VisitorSeat;
use visit::Visit;

/// How long the host that took a ticket waits for the ticket's host.
const ASK_TIMEOUT: Duration = Duration::from_secs(3);

/// How long a visitor's host waits for the first state of its table.
const FIRST_STATE: Duration = Duration::from_secs(10);

/// Most matches being settled at once (each is a request to another host).
const SETTLING_MAX: usize = 256;

/// The subjects under `<prefix>.h.<host>.` that are requests answered here.
const REQUESTS: [&str; 6] = ["match", "join", "invite", "games", "watch", "rejoin"];

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
    /// Where what could not be published or written is counted.
    metrics: Arc<Metrics>,
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

impl Crossing {
    /// Whether `host`'s run `instance` is alive by its presence read
    /// afresh from NATS (not this host's view, which lags after a pause or
    /// after NATS came back): `None` when NATS did not answer by `deadline`.
    async fn presence_afresh(
        &self,
        host: &str,
        instance: &str,
        deadline: tokio::time::Instant,
    ) -> Option<bool> {
        let read = tokio::time::timeout_at(deadline, self.hosts.entry(format!("host.{host}")));
        match read.await {
            Ok(Ok(Some(e))) if e.operation == kv::Operation::Put => Some(
                super::Presence::parse(&e.value)
                    .is_some_and(|p| p.instance == instance && p.alive(crate::store::now_ms())),
            ),
            Ok(Ok(_)) => Some(false),
            Ok(Err(e)) if e.kind() == kv::EntryErrorKind::InvalidKey => Some(false),
            Ok(Err(_)) | Err(_) => None,
        }
    }

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
        metrics: Arc<Metrics>,
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
            metrics,
        })
    }

    /// Something for NATS (`what`: its subject or key) given up on:
    /// counted and logged as dropped.
    fn dropped(&self, what: &str, why: impl std::fmt::Display) {
        self.metrics
            .dropped(dropped::NATS_PUBLISH, format_args!("{what}: {why}"));
    }

    /// [`publish`] with this host's client and metrics.
    async fn publish(&self, subject: String, body: Vec<u8>) -> bool {
        publish(&self.client, &self.metrics, subject, body).await
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
                    Some(Across::Ask(Ask::Seek { id, kind, seeker })) => {
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
                    Some(Across::Ask(Ask::Unseek { id })) => {
                        unsent.remove(&id);
                        if let Some(kind) = mine.remove(&id)
                            && let Err(e) = self.withdraw(kind, id).await
                        {
                            self.dropped(&format!("queue.{}", kind.id()), e);
                        }
                    }
                    Some(Across::Opened { handle, state, ghost, visitor, inbox }) => {
                        self.seat_visitor(handle, state, ghost, visitor, inbox);
                    }
                    Some(Across::Ask(Ask::CodeOpened { code, kind })) => {
                        match self.announce_code(&code, kind).await {
                            Ok(()) => { codes.insert(code); }
                            Err(e) => tracing::warn!(error = %e, "a room code is not reachable from the other hosts"),
                        }
                    }
                    Some(Across::Ask(Ask::CodeClosed { code })) => {
                        if codes.remove(&code) {
                            self.withdraw_code(&code).await;
                        }
                    }
                    Some(Across::Kept { room, handle, state, from }) => {
                        let (name, rev) = from.unwrap_or_else(|| (format!("{}.{}.{room}", self.host, self.instance), 0));
                        let owner = (self.host.clone(), self.instance.clone());
                        self.keeping.spawn(keep_room(self.rooms.clone(), owner, (room, handle), name, state, (rev > 0).then_some(rev)));
                    }
                    Some(Across::Ask(Ask::Invite { host, session, invitation })) => {
                        let this = Arc::clone(&self);
                        tokio::spawn(async move { this.invite(host, session, invitation).await });
                    }
                    Some(Across::Ask(Ask::Decline { host, inviter, id })) => {
                        let this = Arc::clone(&self);
                        tokio::spawn(async move { this.decline(host, inviter, id).await });
                    }
                    Some(Across::Accept { id, host, inviter, seeker, inbox }) => {
                        let this = Arc::clone(&self);
                        tokio::spawn(async move { this.accept(id, host, inviter, seeker, inbox).await });
                    }
                    Some(Across::Ask(Ask::SignedIn { account, identity, at_ms })) => {
                        let note = SignedInNote { host: self.host.clone(), account, identity, at_ms };
                        if let Ok(body) = serde_json::to_vec(&note)
                            && !self.publish(self.everyone("signedin"), body).await
                        {
                            tracing::warn!("a sign-in was not told to the other hosts: an older session elsewhere stays");
                        }
                    }
                    Some(Across::Ask(Ask::FindSeat { id, key })) => {
                        if let Ok(permit) = Arc::clone(&self.settling).try_acquire_owned() {
                            let this = Arc::clone(&self);
                            tokio::spawn(async move {
                                this.find_seat(id, &key).await;
                                drop(permit);
                            });
                        }
                    }
                    Some(Across::Ask(Ask::FindCode { id, code, from_login, joiner })) => {
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
            let what = format!("queue.{}", kind.id());
            match tokio::time::timeout(Duration::from_secs(1), self.withdraw(kind, id)).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => self.dropped(&what, e),
                Err(_) => self.dropped(&what, "not withdrawn in time"),
            }
        }
        for code in codes {
            if tokio::time::timeout(Duration::from_secs(1), self.withdraw_code(&code))
                .await
                .is_err()
            {
                self.dropped(&format!("code.{code}"), "not withdrawn in time");
            }
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
                        this.publish(reply.to_string(), bytes).await;
                    }
                    drop(permit);
                });
            } else if let Some(token) = rest.strip_prefix("t.") {
                let taken = self.visitor_command(token, &msg.payload);
                if let (true, Some(reply)) = (taken, msg.reply.clone()) {
                    let this = Arc::clone(&self);
                    tokio::spawn(async move {
                        this.publish(reply.to_string(), Vec::new()).await;
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
}

/// Publishes `body` on `subject`, waiting at most a second; whether it
/// went. One that does not go is counted and logged as dropped
/// ([`Metrics::dropped`]).
async fn publish(
    client: &async_nats::Client,
    metrics: &Metrics,
    subject: String,
    body: Vec<u8>,
) -> bool {
    let sent = tokio::time::timeout(
        Duration::from_secs(1),
        client.publish(subject.clone(), body.into()),
    )
    .await;
    let why = match sent {
        Ok(Ok(())) => return true,
        Ok(Err(e)) => e.to_string(),
        Err(_) => "not sent in time".to_string(),
    };
    metrics.dropped(dropped::NATS_PUBLISH, format_args!("{subject}: {why}"));
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_message_that_cannot_be_published_shows_in_the_metrics() {
        // Not connected (nothing listens there) and a subject NATS refuses:
        // the publish fails at once.
        let client = async_nats::ConnectOptions::new()
            .retry_on_initial_connect()
            .connect("nats://127.0.0.1:1")
            .await
            .expect("a client, connecting in the background");
        let metrics = Metrics::new();
        assert!(!publish(&client, &metrics, "bad subject".into(), b"x".to_vec()).await);
        assert!(!publish(&client, &metrics, String::new(), Vec::new()).await);
        let text = metrics.encode();
        assert!(
            text.lines().any(|l| l.starts_with("inarow_dropped_total{")
                && l.contains("nats_publish")
                && l.ends_with(" 2")),
            "{text}"
        );
    }
}
