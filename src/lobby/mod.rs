//! The lobby: who is online, the quick-match queues, rooms waiting for a
//! friend, and the rooms in play. The decisions are made by the pure
//! [`LobbyState`] (command in, effects out); one task owns it and carries
//! out its effects (the actor pattern): it spawns the rooms, keeps each
//! session's inbox and each room's handle, and publishes the counts.
//! Sessions talk to it through a cheap [`LobbyHandle`] over a bounded
//! channel and hear back on their own bounded inbox. Counts for the lobby
//! screen go out on a watch channel, at most a few times a second, so ten
//! thousand idle sessions cost no queue space.

pub(crate) use crate::room_code as codes;
pub mod compute;
pub mod messages;
pub mod naming;
pub mod room;
pub mod state;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};
use tokio_util::task::TaskTracker;

use crate::game::Rules;
use crate::presence::Stats;
use compute::Computer;
use room::{RoomCmd, RoomHandle, RoomServices, RoomState};

pub(crate) use codes::{looks_like_code, normalise_code};
pub use messages::{Across, Carried, Cmd, GameSummary, Refusal, RoomLink, ToSession};
pub use state::{
    Arrival, Ask, Command, Effect, Invitation, LobbyState, Notice, Occupant, Person, RoomId,
    Seeker, SessionId, Visitor,
};

/// The time now, for the lobby task, the rooms and the sessions' screens:
/// tokio's clock, so the timers that wake a room (`sleep_until` on its
/// flag, the end of a reconnect grace) and the time it reads when they do
/// are one clock. That is the real time, except in a test that pauses
/// tokio's clock (`#[tokio::test(start_paused = true)]`,
/// `tokio::time::advance`): then it moves only as the test says. Outside a
/// runtime, the real time. Pure code (the clocks in [`crate::clock`], the
/// lobby's [`LobbyState`]) is given the time, never reads it.
pub fn now() -> std::time::Instant {
    tokio::time::Instant::now().into_std()
}

/// A cheap-to-clone handle to the lobby.
#[derive(Clone)]
pub struct LobbyHandle {
    tx: mpsc::Sender<Cmd>,
    stats: watch::Receiver<Stats>,
    /// Every room task, so a shutdown can wait for their last records.
    rooms: TaskTracker,
}

impl LobbyHandle {
    /// Cluster mode: hands the lobby the other hosts' counts (shown summed
    /// with its own) and gets its own back. Never waits: a full queue
    /// drops the exchange (the receiver then errs).
    pub fn exchange(
        &self,
        remote: Stats,
        people: Vec<state::Person>,
    ) -> oneshot::Receiver<(Stats, Vec<state::Person>)> {
        let (reply, rx) = oneshot::channel();
        let _ = self.tx.try_send(Cmd::Cluster {
            remote,
            people,
            reply,
        });
        rx
    }

    /// Joins; returns the display name given (unique), or `None` if the lobby is gone.
    pub async fn join(
        &self,
        arrival: Arrival,
        inbox: crate::mailbox::Sender<ToSession>,
    ) -> Option<String> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Cmd::Join {
                arrival,
                inbox,
                reply,
            })
            .await
            .ok()?;
        rx.await.ok()
    }

    pub async fn send(&self, cmd: impl Into<Cmd>) {
        let _ = self.tx.send(cmd.into()).await;
    }

    /// Waits (at most `limit`) for every room to end; a room ends once its
    /// players have left, and it has handed its game to the recorder by then.
    pub async fn rooms_ended(&self, limit: Duration) -> bool {
        self.rooms.close();
        tokio::time::timeout(limit, self.rooms.wait()).await.is_ok()
    }

    /// The games that may be watched, most watched first (at most
    /// [`GAMES_LISTED`]); empty if the lobby is gone.
    pub async fn games(&self) -> Vec<GameSummary> {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(Cmd::Games { reply }).await.is_err() {
            return Vec::new();
        }
        rx.await.unwrap_or_default()
    }

    /// Everyone online as `id` sees the list (at most
    /// [`state::PEOPLE_LISTED`]); empty if the lobby is gone.
    pub async fn people(&self, id: SessionId) -> Vec<Person> {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(Cmd::People { id, reply }).await.is_err() {
            return Vec::new();
        }
        rx.await.unwrap_or_default()
    }

    /// Cluster mode: takes a seeker another host matched out of the queue.
    pub async fn reserve(&self, id: SessionId, kind: crate::game::GameKind) -> Option<Seeker> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::Reserve { id, kind, reply }).await.ok()?;
        rx.await.ok().flatten()
    }

    /// Cluster mode: seats a reserved seeker with a visitor; `false` if
    /// the seeker has gone.
    pub async fn open_across(
        &self,
        id: SessionId,
        kind: crate::game::GameKind,
        visitor: Visitor,
    ) -> bool {
        let (reply, rx) = oneshot::channel();
        let cmd = Cmd::OpenAcross {
            id,
            kind,
            visitor,
            reply,
        };
        if self.tx.send(cmd).await.is_err() {
            return false;
        }
        rx.await.unwrap_or(false)
    }

    /// Cluster mode: a session goes to a friend's room on another host.
    pub async fn leave_to_join(
        &self,
        id: SessionId,
    ) -> Option<(Seeker, crate::mailbox::Sender<ToSession>)> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::LeaveToJoin { id, reply }).await.ok()?;
        rx.await.ok().flatten()
    }

    /// Cluster mode: `id` would watch a game on another host: its name
    /// and inbox, if it is free to.
    pub async fn watch_elsewhere(
        &self,
        id: SessionId,
    ) -> Option<(String, crate::mailbox::Sender<ToSession>)> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::WatchElsewhere { id, reply }).await.ok()?;
        rx.await.ok().flatten()
    }

    /// Cluster mode: someone on another host would watch the game at
    /// `room` here: the room, the id they watch as, and the inbox on which
    /// the room lets them in (or says why not).
    pub async fn watch_for_visitor(&self, room: RoomId) -> Result<messages::GhostWatcher, Refusal> {
        self.ask(|reply| Cmd::WatchForVisitor { room, reply }).await
    }

    /// Sends the command `make` builds around a reply channel and waits
    /// for the answer; the error says why not (for someone on another host).
    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, Refusal>>) -> Cmd,
    ) -> Result<T, Refusal> {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(make(reply)).await.is_err() {
            return Err(Refusal::ShuttingDown);
        }
        rx.await.unwrap_or(Err(Refusal::ShuttingDown))
    }

    /// Cluster mode: carry on here a game whose host went away, with `id`
    /// back in the seat `key` takes.
    /// The room it goes on in here.
    pub async fn carry_on(
        &self,
        id: SessionId,
        key: String,
        game: Carried,
    ) -> Result<RoomId, Refusal> {
        self.ask(|reply| Cmd::CarryOn {
            id,
            key,
            game: Box::new(game),
            reply,
        })
        .await
    }

    /// Cluster mode: a player on another host takes their seat at `room`
    /// back, as a visitor.
    pub async fn rejoin_for_visitor(
        &self,
        room: RoomId,
        key: String,
        visitor: Visitor,
    ) -> Result<(), Refusal> {
        self.ask(|reply| Cmd::RejoinForVisitor {
            room,
            key,
            visitor,
            reply,
        })
        .await
    }

    /// Cluster mode: someone on another host invites a person here.
    pub async fn invited_from_afar(
        &self,
        host: String,
        to: SessionId,
        invitation: Invitation,
    ) -> Result<(), Refusal> {
        self.ask(|reply| Cmd::InvitedFromAfar {
            host,
            to,
            invitation,
            reply,
        })
        .await
    }

    /// Cluster mode: someone on another host takes a seat here: in a
    /// friend's room, or at the table of the person here whose invitation
    /// they accepted.
    pub async fn open_for(
        &self,
        to: crate::protocol::JoinTo,
        visitor: Visitor,
        ratings: [Option<u32>; 2],
    ) -> Result<(), Refusal> {
        self.ask(|reply| Cmd::OpenFor {
            to,
            visitor,
            ratings,
            reply,
        })
        .await
    }

    /// Cluster mode: a seeker goes to play on another host.
    pub async fn leave_for(
        &self,
        id: SessionId,
        kind: crate::game::GameKind,
    ) -> Option<(Seeker, crate::mailbox::Sender<ToSession>)> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::LeaveFor { id, kind, reply }).await.ok()?;
        rx.await.ok().flatten()
    }

    /// For synchronous code (a Drop); dropped if the lobby is overloaded.
    pub fn try_send(&self, cmd: impl Into<Cmd>) {
        let _ = self.tx.try_send(cmd.into());
    }

    /// The counts shown in the lobby, updated a few times a second.
    pub fn stats(&self) -> watch::Receiver<Stats> {
        self.stats.clone()
    }
}

/// Lobby settings.
#[derive(Clone)]
pub struct LobbySettings {
    pub games: Vec<Rules>,
    pub computer: Computer,
    /// Where finished games go (`None`: nowhere).
    pub recorder: Option<Arc<crate::store::Recorder>>,
    /// How long quick match waits before the computer is offered.
    pub match_wait: Duration,
    /// Quick matches' time controls, by game.
    pub clocks: HashMap<crate::game::GameKind, crate::clock::TimeControl>,
    /// Without a clock: how long until a player may claim the win.
    pub claim_after: Duration,
    /// How long a dropped player's seat is kept.
    pub reconnect_grace: Duration,
    /// Most people watching one game.
    pub max_spectators: usize,
    /// Longest chat line.
    pub chat_max: usize,
    /// What operators see at `/metrics`.
    pub metrics: Arc<crate::metrics::Metrics>,
    /// Cluster mode: where seekers and visitors' tables go.
    pub across: Option<mpsc::Sender<Across>>,
}

/// How many messages may wait for the cluster ([`Across`]).
pub const ACROSS_QUEUE: usize = 4096;

/// Most games the list of games to watch holds (the most watched).
pub const GAMES_LISTED: usize = 100;

/// How many commands may wait for the lobby; senders wait beyond that
/// (backpressure rather than unbounded memory).
const LOBBY_QUEUE: usize = 4096;
/// How often the counts may change on screen.
const STATS_INTERVAL: Duration = Duration::from_millis(500);
/// Each change of the counts redraws everyone in the lobby: with more
/// people online, the counts change less often, so that they cause at
/// most about this many redraws a second across the host (10,000 people
/// in the lobby would otherwise cost 20,000 redraws a second).
const STATS_REDRAWS_PER_SEC: u32 = 2_000;
/// The longest the counts on screen may lag.
const STATS_INTERVAL_MAX: Duration = Duration::from_secs(10);

/// How long the counts stay on screen before the next change, with
/// `online` people on this host. Each lobby screen also shows a change
/// after a delay of its own within this time (see `server::conn`), so the
/// redraws are spread over it rather than all at once.
pub(crate) fn stats_interval(online: usize) -> Duration {
    let online = u32::try_from(online).unwrap_or(u32::MAX);
    (Duration::from_secs(1) * online / STATS_REDRAWS_PER_SEC)
        .clamp(STATS_INTERVAL, STATS_INTERVAL_MAX)
}

/// Hands a command to a room without holding up the lobby, and without
/// dropping it when the room's queue is full (five hundred people asking to
/// watch one game at once): a task waits for the room. There is at most
/// one such task per session's request, and the lobby's own queue bounds
/// the requests.
fn send_to_room(room: &RoomHandle, cmd: RoomCmd) {
    // In order with what follows when there is room (the usual case).
    let Err(cmd) = room.try_give(cmd) else {
        return;
    };
    let room = room.clone();
    tokio::spawn(async move { room.send(cmd).await });
}

/// Starts the lobby task.
pub fn spawn(settings: LobbySettings) -> LobbyHandle {
    let (tx, rx) = mpsc::channel(LOBBY_QUEUE);
    let (stats_tx, stats_rx) = watch::channel(Stats::default());
    let rooms = TaskTracker::new();
    let lobby = Lobby {
        services: RoomServices {
            lobby: tx.clone(),
            computer: settings.computer,
            recorder: settings.recorder,
            tracker: rooms.clone(),
            claim_after: settings.claim_after,
            reconnect_grace: settings.reconnect_grace,
            max_spectators: settings.max_spectators,
            chat_max: settings.chat_max,
            metrics: Arc::clone(&settings.metrics),
        },
        state: LobbyState::new(settings.games, crate::rng::make_rng(None))
            .with_now(now())
            .with_match_wait(settings.match_wait)
            .with_clocks(settings.clocks)
            .with_cluster(settings.across.is_some()),
        across: settings.across,
        visiting: HashMap::new(),
        inboxes: HashMap::new(),
        rooms: HashMap::new(),
        stats_tx,
    };
    tokio::spawn(lobby.run(rx));
    LobbyHandle {
        tx,
        stats: stats_rx,
        rooms,
    }
}

/// The lobby task: the state, and the channels its effects go through.
struct Lobby {
    state: LobbyState,
    /// Each member's inbox (the members of `state`, no others).
    inboxes: HashMap<SessionId, crate::mailbox::Sender<ToSession>>,
    /// Cluster mode: the way to the other hosts.
    across: Option<mpsc::Sender<Across>>,
    /// Visitors about to be seated: their seat's inbox, both ends.
    visiting: HashMap<
        SessionId,
        (
            Visitor,
            crate::mailbox::Sender<ToSession>,
            crate::mailbox::Receiver<ToSession>,
        ),
    >,
    /// The rooms in play: the handle and its state, for those seated.
    rooms: HashMap<RoomId, (RoomHandle, watch::Receiver<Arc<RoomState>>)>,
    stats_tx: watch::Sender<Stats>,
    /// What the rooms share: the way back here, the computer, the
    /// recorder, the task tracker.
    services: RoomServices,
}

impl Lobby {
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        let mut tick = tokio::time::interval(STATS_INTERVAL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut stats_shown: Option<tokio::time::Instant> = None;
        loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.command(cmd),
                    None => break,
                },
                at = tick.tick() => {
                    // Quick-match windows widen with the wait.
                    let effects = self.state.tick(now());
                    self.carry_out(effects);
                    let due = stats_shown.is_none_or(|shown| {
                        at >= shown + stats_interval(self.state.online_here())
                    });
                    if due && let Some(stats) = self.state.take_stats() {
                        self.stats_tx.send_replace(stats);
                        stats_shown = Some(at);
                    }
                }
            }
        }
    }

    fn command(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join {
                arrival,
                inbox,
                reply,
            } => {
                self.inboxes.insert(arrival.id, inbox);
                let (name, effects) = self.state.join(arrival);
                self.carry_out(effects);
                let _ = reply.send(name);
            }
            Cmd::Do(cmd) => {
                self.state.set_now(now());
                let effects = self.state.handle(cmd);
                self.carry_out(effects);
            }
            Cmd::Games { reply } => {
                let _ = reply.send(self.games());
            }
            Cmd::People { id, reply } => {
                let _ = reply.send(self.state.people(id));
            }
            Cmd::Cluster {
                remote,
                people,
                reply,
            } => {
                self.state.set_remote(remote);
                self.state.set_remote_people(people);
                let effects = self.state.take_effects();
                self.carry_out(effects);
                let _ = reply.send((self.state.local_stats(), self.state.local_people()));
            }
            Cmd::Reserve { id, kind, reply } => {
                let _ = reply.send(self.state.reserve(id, kind));
            }
            Cmd::Release { id, kind } => {
                let effects = self.state.release(id, kind);
                self.carry_out(effects);
            }
            Cmd::OpenAcross {
                id,
                kind,
                visitor,
                reply,
            } => {
                self.state.set_now(now());
                match self.state.open_across(id, kind, visitor) {
                    Some((_, effects)) => {
                        self.carry_out(effects);
                        let _ = reply.send(true);
                    }
                    None => {
                        let _ = reply.send(false);
                    }
                }
            }
            Cmd::CodeUnknown {
                id,
                code,
                from_login,
            } => {
                let effects = self.state.code_unknown(id, code, from_login);
                self.carry_out(effects);
            }
            Cmd::WatchElsewhere { id, reply } => {
                let answer = match (
                    self.inboxes.get(&id).cloned(),
                    self.state.watch_elsewhere(id),
                ) {
                    (Some(inbox), Some(name)) => Some((name, inbox)),
                    _ => None,
                };
                let effects = self.state.take_effects();
                self.carry_out(effects);
                let _ = reply.send(answer);
            }
            Cmd::WatchForVisitor { room, reply } => {
                let answer = match (self.rooms.get(&room), self.state.ghost_watcher(room)) {
                    (Some((handle, _)), Ok(ghost)) => {
                        let (tx, rx) = crate::mailbox::channel(4);
                        send_to_room(
                            handle,
                            RoomCmd::Watch {
                                id: ghost,
                                inbox: tx,
                            },
                        );
                        Ok((handle.clone(), ghost, rx))
                    }
                    (None, _) => Err(Refusal::GameEnded),
                    (_, Err(why)) => Err(why),
                };
                let _ = reply.send(answer);
            }
            Cmd::CarryOn {
                id,
                key,
                game,
                reply,
            } => {
                let Carried {
                    rules,
                    seats,
                    rated,
                    clock,
                    resumed,
                    from,
                } = *game;
                match self.state.carry_on(id, &key, seats) {
                    Ok((room, seats)) => {
                        let mut resumed = resumed;
                        // The other player's seat waits for them.
                        resumed.away = seats
                            .each_ref()
                            .map(|s| matches!(s, Occupant::Human { id: sid, .. } if *sid != id));
                        let seats = seats.map(|seat| {
                            let inbox = match &seat {
                                Occupant::Human { id, .. } => self.inboxes.get(id).cloned(),
                                Occupant::Computer { .. } => None,
                            };
                            (seat, inbox)
                        });
                        let opening = resumed.opening;
                        let opened = room::spawn(
                            room,
                            rules,
                            seats,
                            rated,
                            clock,
                            opening,
                            Some(resumed),
                            &self.services,
                        );
                        self.across(Across::Kept {
                            room,
                            handle: opened.0.clone(),
                            state: opened.1.clone(),
                            from: Some(from),
                        });
                        self.rooms.insert(room, opened);
                        self.tell(id, Notice::Joined(room));
                        let _ = reply.send(Ok(room));
                    }
                    Err(why) => {
                        let _ = reply.send(Err(why));
                    }
                }
                let effects = self.state.take_effects();
                self.carry_out(effects);
            }
            Cmd::Tell { id, text } => self.tell(id, Notice::Said(text)),
            Cmd::RejoinForVisitor {
                room,
                key,
                visitor,
                reply,
            } => {
                let answer = match self.rooms.get(&room) {
                    Some((handle, state)) => {
                        let ghost = self.state.new_ghost();
                        let (tx, rx) = crate::mailbox::channel(64);
                        send_to_room(
                            handle,
                            RoomCmd::Rejoin {
                                key,
                                id: ghost,
                                inbox: tx,
                            },
                        );
                        self.across(Across::Opened {
                            handle: handle.clone(),
                            state: state.clone(),
                            ghost,
                            visitor,
                            inbox: rx,
                        });
                        Ok(())
                    }
                    None => Err(Refusal::GameEnded),
                };
                let _ = reply.send(answer);
            }
            Cmd::InvitedFromAfar {
                host,
                to,
                invitation,
                reply,
            } => {
                self.state.set_now(now());
                let done = self.state.invited_from_afar(&host, to, invitation);
                self.answer(done, reply);
            }
            Cmd::InviteRefused {
                inviter,
                host,
                session,
                why,
            } => {
                let effects = self.state.invitation_refused(inviter, &host, session, why);
                self.carry_out(effects);
            }
            Cmd::OpenFor {
                to,
                visitor,
                ratings,
                reply,
            } => {
                self.state.set_now(now());
                let done = match to {
                    crate::protocol::JoinTo::Room(code) => {
                        self.state.open_for_visitor(&code, visitor, ratings)
                    }
                    crate::protocol::JoinTo::Inviter(inviter) => {
                        self.state.open_for_invitee(inviter, visitor, ratings)
                    }
                };
                self.answer(done, reply);
            }
            Cmd::LeaveToJoin { id, reply } => {
                let answer = match (self.inboxes.get(&id).cloned(), self.state.leave_to_join(id)) {
                    (Some(inbox), Some(seeker)) => Some((seeker, inbox)),
                    _ => None,
                };
                let effects = self.state.take_effects();
                self.carry_out(effects);
                let _ = reply.send(answer);
            }
            Cmd::LeaveFor { id, kind, reply } => {
                let answer = match (self.state.leave_for(id, kind), self.inboxes.get(&id)) {
                    (Some((seeker, effects)), Some(inbox)) => {
                        let inbox = inbox.clone();
                        self.carry_out(effects);
                        Some((seeker, inbox))
                    }
                    _ => None,
                };
                let _ = reply.send(answer);
            }
        }
    }

    /// Carries out what the state did for someone on another host, and
    /// tells them it is done, or why not.
    fn answer(
        &mut self,
        done: Result<Vec<Effect>, Refusal>,
        reply: oneshot::Sender<Result<(), Refusal>>,
    ) {
        let _ = reply.send(done.map(|effects| self.carry_out(effects)));
    }

    fn across(&self, msg: Across) {
        if let Some(tx) = &self.across
            && tx.try_send(msg).is_err()
        {
            tracing::warn!(
                "the cluster is not keeping up: a quick-match ticket or table was dropped"
            );
        }
    }

    /// The games in play anyone may watch, most watched first, then the
    /// longest; at most [`GAMES_LISTED`].
    fn games(&self) -> Vec<GameSummary> {
        let mut games: Vec<GameSummary> = self
            .rooms
            .iter()
            .filter(|(room, _)| self.state.watchable(**room))
            .filter_map(|(&room, (_, state))| {
                let st = state.borrow();
                let v = &st.view;
                if v.ending.is_some() || st.ids.iter().all(Option::is_none) {
                    return None;
                }
                Some(GameSummary {
                    room,
                    game: v.position.rules().describe(),
                    players: [0, 1].map(|i| {
                        let seat = &v.seats[i];
                        match seat.rating {
                            Some(r) => format!("{} {r}", seat.label()),
                            None => seat.label(),
                        }
                    }),
                    rated: v.rated,
                    moves: v.position.stones(),
                    watchers: v.watchers,
                    host: None,
                })
            })
            .collect();
        games.sort_by(GameSummary::order);
        games.truncate(GAMES_LISTED);
        games
    }

    fn carry_out(&mut self, effects: Vec<Effect>) {
        let paired = self.state.take_paired_since();
        if !paired.is_empty() {
            let now = now();
            for since in paired {
                self.services
                    .metrics
                    .quick_match_wait
                    .observe(now.saturating_duration_since(since).as_secs_f64());
            }
        }
        for effect in effects {
            match effect {
                Effect::Tell { to, notice } => self.tell(to, notice),
                Effect::OpenRoom {
                    room,
                    rules,
                    seats,
                    rated,
                    clock,
                    opening,
                } => {
                    let seats = seats.map(|seat| {
                        let inbox = match &seat {
                            Occupant::Human { id, .. } => self
                                .inboxes
                                .get(id)
                                .or_else(|| self.visiting.get(id).map(|v| &v.1))
                                .cloned(),
                            Occupant::Computer { .. } => None,
                        };
                        (seat, inbox)
                    });
                    let visitors: Vec<SessionId> = seats
                        .iter()
                        .filter_map(|(seat, _)| match seat {
                            Occupant::Human { id, .. } if self.visiting.contains_key(id) => {
                                Some(*id)
                            }
                            _ => None,
                        })
                        .collect();
                    let opened = room::spawn(
                        room,
                        rules,
                        seats,
                        rated,
                        clock,
                        opening,
                        None,
                        &self.services,
                    );
                    if self.across.is_some() {
                        self.across(Across::Kept {
                            room,
                            handle: opened.0.clone(),
                            state: opened.1.clone(),
                            from: None,
                        });
                    }
                    for ghost in visitors {
                        if let Some((visitor, _, inbox)) = self.visiting.remove(&ghost) {
                            self.across(Across::Opened {
                                handle: opened.0.clone(),
                                state: opened.1.clone(),
                                ghost,
                                visitor,
                                inbox,
                            });
                        }
                    }
                    self.rooms.insert(room, opened);
                }
                Effect::Visit {
                    room: _,
                    ghost,
                    visitor,
                } => {
                    let (tx, rx) = crate::mailbox::channel(64);
                    self.visiting.insert(ghost, (visitor, tx, rx));
                }
                Effect::Across(ask) => self.across(Across::Ask(ask)),
                Effect::AcceptAcross {
                    id,
                    host,
                    inviter,
                    seeker,
                } => {
                    if let Some(inbox) = self.inboxes.get(&id) {
                        let inbox = inbox.clone();
                        self.across(Across::Accept {
                            id,
                            host,
                            inviter,
                            seeker,
                            inbox,
                        });
                    }
                }
                Effect::Forget { id } => {
                    self.inboxes.remove(&id);
                }
                Effect::RoomGone { room } => {
                    self.rooms.remove(&room);
                }
                Effect::Watch { room, id } => {
                    if let (Some((handle, _)), Some(inbox)) =
                        (self.rooms.get(&room), self.inboxes.get(&id))
                    {
                        send_to_room(
                            handle,
                            RoomCmd::Watch {
                                id,
                                inbox: inbox.clone(),
                            },
                        );
                    }
                }
                Effect::Rejoin { room, key, id } => {
                    if let (Some((handle, _)), Some(inbox)) =
                        (self.rooms.get(&room), self.inboxes.get(&id))
                    {
                        send_to_room(
                            handle,
                            RoomCmd::Rejoin {
                                key,
                                id,
                                inbox: inbox.clone(),
                            },
                        );
                    }
                }
                Effect::AbortRooms { reason } => {
                    // Waiting for room queues, never dropping: each of these
                    // games must be stopped and recorded.
                    let rooms: Vec<RoomHandle> =
                        self.rooms.values().map(|(room, _)| room.clone()).collect();
                    // In a cluster, the games go on elsewhere: each table
                    // hands its game over to NATS as it stands.
                    let hand_over = self.across.is_some();
                    tokio::spawn(async move {
                        for room in rooms {
                            room.send(if hand_over {
                                RoomCmd::HandOver
                            } else {
                                RoomCmd::Abort {
                                    reason: reason.clone(),
                                }
                            })
                            .await;
                        }
                    });
                }
            }
        }
    }

    fn tell(&self, to: SessionId, notice: Notice) {
        let Some(inbox) = self.inboxes.get(&to) else {
            return;
        };
        let msg = match notice {
            Notice::Name(n) => ToSession::Name(n),
            Notice::RoomCode(c) => ToSession::RoomCode(c),
            Notice::LobbyError(e) => ToSession::LobbyError(e),
            Notice::NoRoomForLogin(c) => ToSession::NoRoomForLogin(c),
            Notice::Kick(m) => ToSession::Kick(m),
            Notice::Replaced(m) => ToSession::Replaced(m),
            Notice::Said(m) => ToSession::Said(m),
            Notice::Invited(i) => ToSession::Invited(Box::new(i)),
            Notice::InvitationGone { from } => ToSession::InvitationGone { from },
            Notice::Stones(t) => ToSession::Stones(t),
            Notice::Waiting { kind, nearest } => ToSession::Waiting(Box::new((kind, nearest))),
            Notice::Joined(room) => match self.rooms.get(&room) {
                Some((handle, state)) => ToSession::Joined(Box::new(RoomLink {
                    room: handle.clone(),
                    state: state.clone(),
                    resume: self.state.resume_code(room, to),
                })),
                None => return,
            },
        };
        // A session whose inbox is full is not reading; it will be cut off
        // by its own limits, so dropping here is safe.
        let _ = inbox.try_send(msg);
    }
}

#[cfg(test)]
mod tests {
    use super::room::ROOM_QUEUE_FOR_TESTS;
    use super::*;

    /// A lobby on this runtime, offering Connect Four, with a computer
    /// that never plays here.
    fn lobby() -> LobbyHandle {
        spawn(LobbySettings {
            games: vec![Rules::connect_four()],
            computer: Computer::for_tests(),
            recorder: None,
            match_wait: Duration::from_secs(30),
            clocks: HashMap::new(),
            claim_after: Duration::from_secs(120),
            reconnect_grace: Duration::from_secs(60),
            max_spectators: 500,
            chat_max: 200,
            metrics: Default::default(),
            across: None,
        })
    }

    async fn member(lobby: &LobbyHandle, id: SessionId) -> crate::mailbox::Receiver<ToSession> {
        let (inbox, rx) = crate::mailbox::channel(32);
        lobby
            .join(
                Arrival {
                    id,
                    name: Some(format!("p{id}")),
                    ..Arrival::default()
                },
                inbox,
            )
            .await
            .expect("the lobby is up");
        rx
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_crowd_asking_to_watch_at_once_is_not_dropped() {
        // On one thread the lobby handles every request queued before the
        // room runs at all: more than the room's queue holds.
        const CROWD: u64 = 3 * ROOM_QUEUE_FOR_TESTS as u64;
        let lobby = lobby();
        let mut players = Vec::new();
        for id in [1, 2] {
            players.push(member(&lobby, id).await);
            lobby
                .send(Command::QuickMatch {
                    id,
                    kind: crate::game::GameKind::ConnectFour,
                })
                .await;
        }
        let room = loop {
            match players[0].recv().await {
                Some(ToSession::Joined(link)) => break link.room.id,
                Some(_) => continue,
                None => panic!("the lobby went away"),
            }
        };
        let mut crowd = Vec::new();
        for id in 10..10 + CROWD {
            crowd.push(member(&lobby, id).await);
        }
        for id in 10..10 + CROWD {
            lobby.try_send(Command::Watch { id, room });
        }
        for (i, inbox) in crowd.iter_mut().enumerate() {
            let got = tokio::time::timeout(Duration::from_secs(5), async {
                loop {
                    match inbox.recv().await {
                        Some(ToSession::Watching(_)) => return true,
                        Some(ToSession::LobbyError(e)) => panic!("refused: {e}"),
                        Some(_) => continue,
                        None => return false,
                    }
                }
            })
            .await;
            assert_eq!(got, Ok(true), "watcher {i} of {CROWD} never got the game");
        }
    }

    /// Joins a member every 50 ms for `span` (each join changes the
    /// counts) and returns when the counts changed, as seen each time.
    async fn counts_changes(
        lobby: &LobbyHandle,
        stats: &mut watch::Receiver<Stats>,
        inboxes: &mut Vec<crate::mailbox::Receiver<ToSession>>,
        span: Duration,
    ) -> Vec<tokio::time::Instant> {
        let end = tokio::time::Instant::now() + span;
        let mut seen = Vec::new();
        while tokio::time::Instant::now() < end {
            inboxes.push(member(lobby, 1 + inboxes.len() as u64).await);
            tokio::time::sleep(Duration::from_millis(50)).await;
            if stats.has_changed().unwrap() {
                stats.borrow_and_update();
                seen.push(tokio::time::Instant::now());
            }
        }
        seen
    }

    fn gaps(times: &[tokio::time::Instant]) -> Vec<Duration> {
        times.windows(2).map(|w| w[1] - w[0]).collect()
    }

    #[tokio::test(start_paused = true)]
    async fn the_counts_change_less_often_the_more_people_are_online() {
        assert_eq!(stats_interval(0), STATS_INTERVAL);
        assert_eq!(stats_interval(1_000), STATS_INTERVAL);
        assert_eq!(stats_interval(6_000), Duration::from_secs(3));
        assert_eq!(stats_interval(1_000_000), STATS_INTERVAL_MAX);
        let lobby = lobby();
        let mut stats = lobby.stats();
        let mut inboxes = Vec::new();
        // A few people: every change shows within half a second.
        let seen = counts_changes(&lobby, &mut stats, &mut inboxes, Duration::from_secs(5)).await;
        let g = gaps(&seen);
        assert!(g.len() >= 8, "{g:?}");
        assert!(
            g.iter()
                .all(|&d| d >= STATS_INTERVAL - Duration::from_millis(60)
                    && d < Duration::from_secs(1)),
            "{g:?}"
        );
        // Six thousand: the counts change every three seconds, however
        // often people come.
        while inboxes.len() < 6_000 {
            inboxes.push(member(&lobby, 1 + inboxes.len() as u64).await);
        }
        stats.borrow_and_update();
        let seen = counts_changes(&lobby, &mut stats, &mut inboxes, Duration::from_secs(16)).await;
        let g = gaps(&seen);
        assert!(g.len() >= 3, "{g:?}");
        assert!(
            g.iter()
                .all(|&d| d >= Duration::from_millis(2_950) && d < Duration::from_millis(3_700)),
            "{g:?}"
        );
    }

    /// Everything waiting in an inbox, once the lobby has handled what
    /// was sent (yielding lets it run; a paused clock does not move).
    async fn news(inbox: &mut crate::mailbox::Receiver<ToSession>) -> Vec<ToSession> {
        for _ in 0..64 {
            tokio::task::yield_now().await;
        }
        let mut got = Vec::new();
        while let Ok(msg) = inbox.try_recv() {
            got.push(msg);
        }
        got
    }

    #[tokio::test(start_paused = true)]
    async fn an_invitation_lapses_after_a_minute_and_cannot_be_accepted_then() {
        let lobby = lobby();
        let t0 = crate::lobby::now();
        let until = |d: Duration| tokio::time::sleep_until(tokio::time::Instant::from_std(t0 + d));
        let mut ann = member(&lobby, 1).await;
        let mut bob = member(&lobby, 2).await;
        lobby
            .send(Command::Challenge {
                id: 1,
                challenge: crate::protocol::Challenge {
                    to: 2,
                    kind: crate::game::GameKind::ConnectFour,
                    rated: false,
                    clock: None,
                    opening: crate::table::Opening::Standard,
                },
            })
            .await;
        let got = news(&mut bob).await;
        assert!(
            got.iter()
                .any(|m| matches!(m, ToSession::Invited(i) if i.from == 1)),
            "{got:?}"
        );
        let got = news(&mut ann).await;
        assert!(
            got.iter()
                .any(|m| matches!(m, ToSession::Said(s) if s.starts_with("invitation sent to p2"))),
            "{got:?}"
        );
        // The lobby's ticks come and go (the paused clock moves from one
        // timer to the next): a moment before the minute, still open.
        until(state::invitations::INVITATION_LAPSE - Duration::from_millis(1)).await;
        let got = news(&mut bob).await;
        assert!(got.is_empty(), "{got:?}");
        assert!(news(&mut ann).await.is_empty());
        // By the tick after the minute, it has lapsed: both are told.
        until(state::invitations::INVITATION_LAPSE + STATS_INTERVAL).await;
        let got = news(&mut bob).await;
        assert!(
            matches!(got[..], [ToSession::InvitationGone { from: 1 }]),
            "{got:?}"
        );
        let got = news(&mut ann).await;
        assert!(
            matches!(&got[..], [ToSession::Said(s)] if s == "p2 did not answer your invitation"),
            "{got:?}"
        );
        // Accepting it now seats nobody.
        lobby
            .send(Command::AnswerChallenge {
                id: 2,
                from: 1,
                accept: true,
            })
            .await;
        let got = news(&mut bob).await;
        assert!(
            matches!(&got[..], [ToSession::LobbyError(e)] if e == "that invitation is no longer open"),
            "{got:?}"
        );
        assert!(news(&mut ann).await.is_empty());
    }
}
