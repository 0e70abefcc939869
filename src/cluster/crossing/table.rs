//! The table's side: seats at a table here held for visitors from other
//! hosts (players and watchers): the states sent to their hosts, their
//! commands taken in, their hosts watched.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::cluster::wire::{
    FromVisitor, JoinAnswer, ToVisitor, WatchAnswer, WatchAsk, WireCmd, WireState,
};
use crate::limit::{Bucket, Rate};
use crate::lobby::room::{RoomCmd, RoomHandle, RoomState};
use crate::lobby::{SessionId, ToSession, Visitor};
use crate::protocol::{LeaveReason, Refusal, SeatCmd};

use super::{ASK_TIMEOUT, Crossing, FIRST_STATE, first_rev, lock, publish, valid_token};

/// Most commands one visitor's seat may send a second.
const COMMANDS_PER_SECOND: u32 = 20;

/// A seat here for a visitor (a player or a watcher on another host):
/// where its commands go.
pub(super) struct VisitorSeat {
    handle: RoomHandle,
    ghost: SessionId,
    name: String,
    /// What its commands may be: [`COMMANDS_PER_SECOND`] a second, as
    /// many at once.
    commands: Bucket,
    /// A watcher: only chat lines and leaving; stops its forwarder on leaving.
    watcher: Option<CancellationToken>,
}

impl Crossing {
    /// Someone on another host would watch a game here: the room takes
    /// them as a watcher (or says why not); the game's states go to their
    /// host, and their chat lines and leaving come back on their token.
    pub(super) async fn answer_watch(&self, body: &[u8]) -> WatchAnswer {
        let Ok(ask) = serde_json::from_slice::<WatchAsk>(body) else {
            return JoinAnswer::No(Refusal::NotUnderstood);
        };
        if !crate::cluster::valid_host_name(&ask.host) || !valid_token(&ask.token) {
            return JoinAnswer::No(Refusal::NotUnderstood);
        }
        let (handle, ghost, mut inbox) = match self.lobby.watch_for_visitor(ask.room).await {
            Ok(x) => x,
            Err(why) => return JoinAnswer::No(why),
        };
        let link = match tokio::time::timeout(ASK_TIMEOUT, inbox.recv()).await {
            Ok(Some(ToSession::Watching(link))) => link,
            Ok(Some(ToSession::LobbyError(why))) => return JoinAnswer::No(*why),
            // The game went to another host meanwhile.
            Ok(Some(ToSession::Told(news))) if *news == crate::protocol::News::GameElsewhere => {
                return JoinAnswer::No(Refusal::GameMoved);
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
                commands: Bucket::new(Rate::per_second(COMMANDS_PER_SECOND), COMMANDS_PER_SECOND),
                watcher: Some(stop.clone()),
            },
        );
        let client = self.client.clone();
        let metrics = Arc::clone(&self.metrics);
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
                    publish(&client, &metrics, subject.clone(), body).await;
                }
            }
            lock(&seats).remove(&token);
        });
        JoinAnswer::Yes
    }

    /// A table here seats a visitor: its state and notices go to the
    /// visitor's host; its commands come in on the seat's token.
    pub(super) fn seat_visitor(
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
                commands: Bucket::new(Rate::per_second(COMMANDS_PER_SECOND), COMMANDS_PER_SECOND),
                watcher: None,
            },
        );
        let client = self.client.clone();
        let metrics = Arc::clone(&self.metrics);
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
                let metrics = Arc::clone(&metrics);
                let subject = subject.clone();
                async move {
                    if let Ok(body) = serde_json::to_vec(&msg) {
                        publish(&client, &metrics, subject, body).await;
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

    pub(super) async fn send_visitor(&self, host: &str, session: SessionId, msg: &ToVisitor) {
        if let Ok(body) = serde_json::to_vec(msg) {
            let subject = self.subject(host, &format!("s.{session}"));
            self.publish(subject, body).await;
        }
    }

    /// A visitor's command, for the seat with this token; whether it was
    /// given to the table.
    pub(super) fn visitor_command(&self, token: &str, body: &[u8]) -> bool {
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
        if !seat.commands.allow(Instant::now()) {
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
}
