//! What a seated person (or a watcher, for chat) asks of their table: one
//! type from the key press to the table, on this host or another; and
//! which seats of a table a terminal plays ([`Seating`]).

use serde::{Deserialize, Serialize};

use crate::game::Move;
use crate::table::{OfferKind, Swap2Choice};

/// A seat's command to its table. The session's key handling makes it
/// ([`crate::session::Request::Seat`]), the connection hands it to the
/// room as it is ([`crate::lobby::room::RoomCmd::Seat`]), and a visitor's
/// proxy room puts it on the wire unchanged
/// ([`crate::cluster::wire::WireCmd::Seat`]) for the table's own host.
///
/// Adding one: a variant here, its handling in the room
/// (`lobby/room.rs`, `Room::seat`), the key that makes it
/// (`session/play.rs`); the local driver (`local.rs`) if a game without
/// a host can do it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeatCmd {
    /// Play this move (checked against what the session shows; the table
    /// checks again).
    Move(Move),
    /// Leave the table: a forfeit if the game is on (or the seat kept a
    /// while, for an account whose connection dropped).
    Leave {
        reason: LeaveReason,
        /// The connection was lost (not a deliberate quit).
        dropped: bool,
    },
    /// Ask for a rematch / play again.
    Rematch,
    /// Take back my last move (a casual game against the computer).
    Undo,
    /// Resign the game in play.
    Resign,
    /// Claim the win: the opponent has not moved for too long.
    Claim,
    /// Offer a draw, or ask to take back my last move.
    Offer(OfferKind),
    /// Answer the offer made to me (`true`: accept).
    Answer(bool),
    /// My choice in a swap2 opening.
    Swap2(Swap2Choice),
    /// Say this at the table (the players' chat, or the watchers').
    Chat(String),
}

impl SeatCmd {
    /// Leaving deliberately (a key, the menu).
    pub const LEAVE: SeatCmd = SeatCmd::Leave {
        reason: LeaveReason::Left,
        dropped: false,
    };

    /// A command that came from another host, within this host's limits
    /// (a chat line cut to `chat_max` characters; the room sanitises it).
    pub fn bounded(self, chat_max: usize) -> SeatCmd {
        match self {
            SeatCmd::Chat(t) if t.chars().count() > chat_max => {
                SeatCmd::Chat(t.chars().take(chat_max).collect())
            }
            cmd => cmd,
        }
    }
}

/// Why someone left their table; the words are made by the table, where
/// they become part of the game's ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeaveReason {
    /// A deliberate leave (a key, the menu, the end of the session).
    Left,
    /// The client went away.
    Disconnected,
    /// The connection was lost (a seat held for its grace time and not
    /// taken back, or a host that went).
    LostConnection,
    /// No key for too long.
    Idle,
    /// The host shuts down.
    Shutdown,
    /// The same person connected again elsewhere.
    Replaced,
}

impl LeaveReason {
    /// The words of the game's ending ("Ann left").
    pub fn text(self) -> &'static str {
        match self {
            LeaveReason::Left => "left",
            LeaveReason::Disconnected => "disconnected",
            LeaveReason::LostConnection => "lost the connection",
            LeaveReason::Idle => "was idle too long",
            LeaveReason::Shutdown => "host shutting down",
            LeaveReason::Replaced => "connected again elsewhere",
        }
    }
}

/// Which seats of a table this terminal plays, and which are still occupied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seating {
    pub mine: [bool; 2],
    pub present: [bool; 2],
}

impl Seating {
    /// Every seat at this keyboard (hot seat) or some; nobody has left.
    pub fn local(mine: [bool; 2]) -> Seating {
        Seating {
            mine,
            present: [true, true],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Point;

    /// Every seat command crosses the wire encoding unchanged.
    #[test]
    fn every_seat_command_survives_the_wire() {
        let mut all = vec![
            SeatCmd::Move(Move::Column(3)),
            SeatCmd::Move(Move::Point(Point::new(7, 14))),
            SeatCmd::Rematch,
            SeatCmd::Undo,
            SeatCmd::Resign,
            SeatCmd::Claim,
            SeatCmd::Offer(OfferKind::Draw),
            SeatCmd::Offer(OfferKind::Takeback),
            SeatCmd::Answer(true),
            SeatCmd::Answer(false),
            SeatCmd::Chat("hello \u{1F600} \"quoted\"".into()),
        ];
        for reason in [
            LeaveReason::Left,
            LeaveReason::Disconnected,
            LeaveReason::LostConnection,
            LeaveReason::Idle,
            LeaveReason::Shutdown,
            LeaveReason::Replaced,
        ] {
            for dropped in [false, true] {
                all.push(SeatCmd::Leave { reason, dropped });
            }
        }
        for choice in [
            Swap2Choice::First,
            Swap2Choice::Second,
            Swap2Choice::TwoMore,
        ] {
            all.push(SeatCmd::Swap2(choice));
        }
        // Every variant is listed above (this match fails to compile when
        // one is added and not here).
        for cmd in &all {
            match cmd {
                SeatCmd::Move(_)
                | SeatCmd::Leave { .. }
                | SeatCmd::Rematch
                | SeatCmd::Undo
                | SeatCmd::Resign
                | SeatCmd::Claim
                | SeatCmd::Offer(_)
                | SeatCmd::Answer(_)
                | SeatCmd::Swap2(_)
                | SeatCmd::Chat(_) => {}
            }
        }
        for cmd in all {
            let wire = crate::cluster::wire::WireCmd::Seat(cmd.clone());
            let bytes = serde_json::to_vec(&crate::cluster::wire::FromVisitor {
                token: "t".into(),
                cmd: wire,
            })
            .unwrap();
            let back: crate::cluster::wire::FromVisitor = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(back.cmd, crate::cluster::wire::WireCmd::Seat(cmd));
        }
    }

    #[test]
    fn a_long_chat_line_from_afar_is_cut() {
        let cmd = SeatCmd::Chat("y".repeat(1000)).bounded(200);
        assert_eq!(cmd, SeatCmd::Chat("y".repeat(200)));
        assert_eq!(SeatCmd::Undo.bounded(200), SeatCmd::Undo);
    }
}
