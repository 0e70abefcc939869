//! Failover: a player finds their seat again after the host of their
//! game went (or handed it over): taken back where the game goes on, or
//! the room claimed and the game carried on here.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::cluster::wire::{JoinAnswer, RejoinAsk};
use crate::lobby::{Command, SessionId};
use crate::protocol::Refusal;

use super::keep::seat_keys;
use super::{Crossing, lock, new_token, valid_token, visitor_from};

/// How long a player coming back looks for their game while its host is
/// not yet seen gone (its heartbeat and the room's lease run out).
const SEAT_WAIT: Duration = Duration::from_secs(15);

/// Why a seat is looked for in NATS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Seeking {
    /// A player arrived (or typed a resume code).
    Arrived,
    /// A visitor's table's host is no longer live.
    Lost,
    /// A visitor's table's host handed the game over (it restarts).
    HandedOver,
}

impl Crossing {
    /// Our session `id` may have a seat, under `key` (its account, a
    /// resume code it typed), in a game kept in NATS: it takes the seat
    /// back, at the host that runs the game (as a visitor), or here when
    /// that host has gone (the room is claimed and the game carried on
    /// here). Whether a seat was found.
    pub(super) async fn find_seat(&self, id: SessionId, key: &str) -> bool {
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
            // Our view of the hosts lags after this host was paused or cut
            // off: a host missing from it is asked about afresh before its
            // room is treated as lost (a player sent there would be told
            // their game's host is not answering while it is).
            let live = self.live.borrow().clone();
            let seen = live.get(&stored.owner) == Some(&stored.owner_instance);
            let owner_live = seen
                || self
                    .presence_afresh(
                        &stored.owner,
                        &stored.owner_instance,
                        tokio::time::Instant::now() + Duration::from_secs(1),
                    )
                    .await
                    == Some(true);
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
                        crate::cluster::rooms::LEASE,
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
                    news: crate::protocol::News::HostLost,
                });
                return false;
            }
            if !told {
                told = true;
                self.lobby.try_send(crate::lobby::Cmd::Tell {
                    id,
                    news: crate::protocol::News::HostSilent,
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
        stored: &crate::cluster::rooms::StoredRoom,
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
        stored: &crate::cluster::rooms::StoredRoom,
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
        stored: &crate::cluster::rooms::StoredRoom,
    ) -> Option<bool> {
        let Some((seeker, inbox)) = self.lobby.leave_to_join(id).await else {
            return Some(false);
        };
        let token = self.visit_as_player(id, stored.owner.clone(), &inbox, Some(key.to_string()));
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
        stored: crate::cluster::rooms::StoredRoom,
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
    pub(super) async fn answer_rejoin(&self, body: &[u8]) -> JoinAnswer {
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

    /// Our session's table on another host is gone with its host (or the
    /// host handed it over as it restarts): the seat is looked for in NATS
    /// and taken back where the game goes on, or here.
    pub(super) fn orphaned(self: &Arc<Self>, session: SessionId, why: Seeking) {
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
    pub(super) fn look_for_lost_tables(self: &Arc<Self>) {
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
}

/// A game read from NATS as the lobby carries it on (`None`: rules this
/// host cannot run).
fn carried(
    stored: &crate::cluster::rooms::StoredRoom,
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
