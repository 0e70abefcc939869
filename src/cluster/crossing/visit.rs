//! The visitor's side: a session of this host at a table on another
//! (playing or watching): the visit, the states it receives, and its
//! commands forwarded to the table.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};

use crate::cluster::wire::{FromVisitor, JoinAnswer, ToVisitor, WatchAsk, WireCmd, parse_games};
use crate::game::GameKind;
use crate::lobby::room::{RoomCmd, RoomHandle, RoomState};
use crate::lobby::{Command, RoomLink, SessionId, ToSession};
use crate::protocol::{GameSummary, Refusal, SeatCmd};

use super::failover::Seeking;
use super::{Crossing, FIRST_STATE, lock, new_token};

/// How long a visitor's host waits for the table's host to take a move.
const MOVE_ACK: Duration = Duration::from_secs(2);

/// How long a list of games waits for each other host.
const GAMES_TIMEOUT: Duration = Duration::from_millis(500);

/// A session of this host playing at a table on another.
pub(super) struct Visit {
    /// The game it sought by quick match (it seeks again if the table
    /// never starts); `None`: it came by a room code.
    pub(super) seek: Option<GameKind>,
    pub(super) room_host: String,
    pub(super) token: String,
    pub(super) inbox: crate::mailbox::Sender<ToSession>,
    /// Set from the first state on.
    pub(super) state: Option<watch::Sender<Arc<RoomState>>>,
    pub(super) since: Instant,
    /// It watches the game (it does not play).
    pub(super) watching: bool,
    /// What takes its seat back if the table's host goes: its account, or
    /// a guest's resume code (the seat's first secret until the table
    /// sends the code).
    pub(super) key: Option<String>,
    /// Its table's host went: the seat is being looked for.
    pub(super) orphaned: bool,
    /// The last state's number ([`WireState::rev`]): the same state sent
    /// again on the table's heartbeat is not shown again.
    ///
    /// [`WireState::rev`]: crate::cluster::wire::WireState::rev
    pub(super) rev: u64,
}

impl Visit {
    /// A session of ours that plays at a table on `room_host`: its seat is
    /// found again by its account or, for a guest, the seat's first secret.
    pub(super) fn player(
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
    pub(super) fn watcher(
        room_host: String,
        token: &str,
        inbox: crate::mailbox::Sender<ToSession>,
    ) -> Visit {
        Visit {
            watching: true,
            key: None,
            ..Visit::player(room_host, token, inbox, None)
        }
    }
}

impl Crossing {
    /// Session `id` of ours goes to play at a table on `room_host`: its
    /// visit is kept under a new token, which is returned.
    pub(super) fn visit_as_player(
        &self,
        id: SessionId,
        room_host: String,
        inbox: &crate::mailbox::Sender<ToSession>,
        account: Option<String>,
    ) -> String {
        let token = new_token();
        lock(&self.visits).insert(id, Visit::player(room_host, &token, inbox.clone(), account));
        token
    }
}

impl Crossing {
    /// The games in play here that may be watched, for another host.
    pub(super) async fn our_games(&self) -> Vec<GameSummary> {
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
        if !crate::cluster::valid_host_name(&host) {
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
            Some(JoinAnswer::No(why)) => why,
            None => Refusal::HostDidNotAnswer(host.to_string()),
        };
        self.visit_failed(id, &inbox, why).await;
    }

    /// The web on this host would follow the game at `room` on `host`: a
    /// watcher's visit with no session behind it (`id`, one of this host's
    /// session numbers, names it). The table's states come to the inbox
    /// returned, as for a session ([`ToSession::Watching`] first); `None`
    /// when the table's host says no or does not answer.
    pub async fn watch_for_web(
        &self,
        id: SessionId,
        host: String,
        room: u64,
    ) -> Option<crate::mailbox::Receiver<ToSession>> {
        if !crate::cluster::valid_host_name(&host) || host == self.host {
            return None;
        }
        let (inbox, rx) = crate::mailbox::channel(8);
        let token = new_token();
        lock(&self.visits).insert(id, Visit::watcher(host.clone(), &token, inbox));
        let ask = WatchAsk {
            room,
            token,
            host: self.host.clone(),
            session: id,
            name: "web".into(),
        };
        let answer = match serde_json::to_vec(&ask) {
            Ok(body) => self.ask(&host, "watch", body).await,
            Err(_) => None,
        };
        if let Some(JoinAnswer::Yes) = answer {
            return Some(rx);
        }
        lock(&self.visits).remove(&id);
        None
    }

    /// The visit of our session `id` did not begin: it is back in the
    /// lobby and reads why (unless the visit was over already).
    pub(super) async fn visit_failed(
        &self,
        id: SessionId,
        inbox: &crate::mailbox::Sender<ToSession>,
        why: Refusal,
    ) {
        if lock(&self.visits).remove(&id).is_some() {
            self.lobby.send(Command::LeftRoom { id }).await;
            let _ = inbox.try_send(ToSession::LobbyError(Box::new(why)));
        }
    }

    /// The table of our session `session` on another host says something.
    pub(super) fn for_visit(self: &Arc<Self>, session: SessionId, body: &[u8]) {
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
                    Refusal::HostNotAnswering
                } else {
                    Refusal::GameMoved
                };
                let _ = inbox.try_send(ToSession::Rejected(why));
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
                            let _ = inbox.try_send(ToSession::Rejected(Refusal::HostNotAnswering));
                        }
                    } else {
                        self.publish(subject, body).await;
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

    /// Visits whose table never sent its first state: back to seeking.
    pub(super) fn drop_stale_visits(&self) {
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
            let _ = visit
                .inbox
                .try_send(ToSession::Told(Box::new(crate::protocol::News::NotStarted)));
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
