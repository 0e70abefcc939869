//! Keeping the games of this host's tables in NATS, so that another host
//! can carry them on, and fencing a table whose game another host claimed.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::lobby::room::{RoomCmd, RoomHandle, RoomState};

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
pub(super) async fn keep_room(
    rooms: crate::cluster::rooms::Rooms,
    owner: (String, String),
    (room, handle): (crate::lobby::RoomId, RoomHandle),
    name: String,
    mut state: watch::Receiver<Arc<RoomState>>,
    from: Option<u64>,
) {
    use crate::cluster::rooms::StoredRoom;
    // The revision we wrote last; `None`: not kept now (no game in play).
    let mut rev: Option<u64> = from;
    let mut kept: Option<StoredRoom> = None;
    // The players' accounts and resume codes noted for this room.
    let mut seated: Vec<String> = Vec::new();
    let mut check = tokio::time::interval(crate::cluster::HEARTBEAT);
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
                        // Written again at the next move, or when the
                        // room is read back.
                        Err(e) => rooms.dropped(&name, e),
                    }
                }
            }
            (None, Some(_)) => {
                if let Err(e) = rooms.remove(&name).await {
                    rooms.dropped(&name, e);
                }
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
                            if let Err(e) = rooms.remove(&name).await {
                                rooms.dropped(&name, e);
                            }
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
pub(super) fn seat_keys(room: &crate::cluster::rooms::StoredRoom) -> Vec<String> {
    room.seats
        .iter()
        .flat_map(|s| [s.account.clone(), s.resume.clone()])
        .flatten()
        .collect()
}
