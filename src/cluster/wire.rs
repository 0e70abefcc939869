//! What crosses NATS between hosts for a table that seats someone from
//! another host: the table's state (a full snapshot each time, so a lost or
//! late message is healed by the next), what the room tells the visitor,
//! and the visitor's commands. Everything read here came from the network:
//! sizes are bounded before parsing, texts are sanitised, and a table's
//! position is rebuilt by playing its moves, so a message can only describe
//! a position the rules allow.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::clock::{ClockView, TimeControl};
use crate::engine::Level;
use crate::game::{Colour, GameKind, Move, Point, Position, Rules, Side};
use crate::lobby::room::{CHAT_TAIL, RoomState};
use crate::lobby::{SessionId, ToSession};
use crate::protocol::{GameSummary, Refusal, SeatCmd};
use crate::table::{
    ChatLine, Ending, GameView, Offer, OfferKind, RatingChange, Seat, Swap2Choice, Swap2Stage,
};

/// The largest message taken from NATS.
pub const MAX_MESSAGE: usize = 64 * 1024;
/// The longest chat line or notice taken from NATS, in characters.
const MAX_TEXT: usize = 500;
/// The longest forfeit or abort reason.
const MAX_REASON: usize = 120;

/// The ids a visitor's host gives the seats that are not the visitor's
/// (so the session draws them as the opponent's).
pub const OTHER: SessionId = SessionId::MAX;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WireSeat {
    name: String,
    colour: String,
    computer: Option<String>,
    rating: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub enum WireEnding {
    Line { winner: u8, line: Vec<(u8, u8)> },
    Draw,
    Forfeit { leaver: u8, reason: String },
    Aborted { reason: String },
    Resigned { loser: u8 },
    DrawAgreed,
    Flag { loser: u8 },
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WireClock {
    control: String,
    left_ms: [u64; 2],
    running: Option<u8>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WireChat {
    from: String,
    side: Option<u8>,
    text: String,
}

/// A table's state as one visitor sees it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WireState {
    game: String,
    width: u8,
    height: u8,
    line: u8,
    exact: bool,
    #[serde(default)]
    renju: bool,
    moves: Vec<(u8, u8)>,
    seats: [WireSeat; 2],
    /// Which seats are the visitor's.
    mine: [bool; 2],
    /// Which seats the computer plays.
    computer: [bool; 2],
    present: [bool; 2],
    ending: Option<WireEnding>,
    rematch: [bool; 2],
    round: u32,
    score: [u32; 2],
    rated: bool,
    rating_change: [Option<(u32, u32)>; 2],
    /// An offer: the side making it, and whether it is a draw (else a takeback).
    offer: Option<(u8, bool)>,
    declined: Option<(u8, bool)>,
    clock: Option<WireClock>,
    /// Milliseconds from now (negative: already passed).
    claim_in_ms: Option<i64>,
    away_in_ms: [Option<i64>; 2],
    watchers: u32,
    chat: [Vec<WireChat>; 2],
    /// The table's host restarts: the game is to be carried on elsewhere.
    #[serde(default)]
    handed_over: bool,
    /// A swap2 opening in progress: its stage ([`Swap2Stage::id`]).
    #[serde(default)]
    swap2: Option<String>,
    /// The last swap2 choice: the chooser's side now, and the choice.
    #[serde(default)]
    swap2_chosen: Option<(u8, Swap2Choice)>,
    /// The id the ended game is recorded under.
    #[serde(default)]
    record: Option<String>,
    /// Which change of the table this is, as its sender counts them (0:
    /// not counted). The sender sends the state again on its heartbeat,
    /// with the same number, so a state lost on the way (NATS restarting)
    /// is made good; the receiver shows a number it has shown only once.
    #[serde(default)]
    pub rev: u64,
    /// The visitor's own resume code (a guest's): shown under the board,
    /// it takes the seat back on any host.
    #[serde(default)]
    resume: Option<String>,
}

fn side_byte(s: Side) -> u8 {
    s.index() as u8
}

fn side_of(b: u8) -> Option<Side> {
    match b {
        0 => Some(Side::First),
        1 => Some(Side::Second),
        _ => None,
    }
}

fn game_word(kind: GameKind) -> &'static str {
    kind.id()
}

fn millis_from(now: Instant, at: Instant) -> i64 {
    if at >= now {
        at.duration_since(now).as_millis().min(i64::MAX as u128) as i64
    } else {
        -(now.duration_since(at).as_millis().min(i64::MAX as u128) as i64)
    }
}

fn instant_at(now: Instant, ms: i64) -> Instant {
    // Bounded to a day either way: no arithmetic overflow from the wire.
    let ms = ms.clamp(-86_400_000, 86_400_000);
    if ms >= 0 {
        now + Duration::from_millis(ms as u64)
    } else {
        now.checked_sub(Duration::from_millis(ms.unsigned_abs()))
            .unwrap_or(now)
    }
}

fn offer_wire(o: &Offer) -> (u8, bool) {
    (side_byte(o.from), o.kind == OfferKind::Draw)
}

fn offer_of((side, draw): (u8, bool)) -> Option<Offer> {
    Some(Offer {
        from: side_of(side)?,
        kind: if draw {
            OfferKind::Draw
        } else {
            OfferKind::Takeback
        },
    })
}

fn text(s: &str, max: usize) -> String {
    crate::text::sanitize(s, max)
}

impl WireState {
    /// The state as the visitor in seat(s) `ghost` sees it, at `now`.
    pub fn of(state: &RoomState, ghost: SessionId, now: Instant) -> WireState {
        let v = &state.view;
        let rules = v.position.rules();
        WireState {
            game: game_word(rules.kind()).to_string(),
            width: rules.width(),
            height: rules.height(),
            line: rules.line(),
            exact: rules.is_exact(),
            renju: rules.is_renju(),
            moves: v.position.history().iter().map(|p| (p.x, p.y)).collect(),
            seats: v.seats.each_ref().map(|s| WireSeat {
                name: s.name.clone(),
                colour: s.colour.name().to_string(),
                computer: s.computer.map(|l| l.name().to_string()),
                rating: s.rating,
            }),
            mine: state.ids.map(|id| id == Some(ghost)),
            resume: (0..2)
                .find(|&i| state.ids[i] == Some(ghost))
                .and_then(|i| state.carry.as_ref()?.resumes[i].clone()),
            computer: state.ids.map(|id| id.is_none()),
            present: state.present,
            handed_over: state.handed_over,
            swap2: v.swap2.map(|s| s.id().to_string()),
            swap2_chosen: v.swap2_chosen.map(|(side, c)| (side_byte(side), c)),
            rev: 0,
            ending: v.ending.as_ref().map(|e| match e {
                Ending::Line { winner, line } => WireEnding::Line {
                    winner: side_byte(*winner),
                    line: line.iter().map(|p| (p.x, p.y)).collect(),
                },
                Ending::Draw => WireEnding::Draw,
                Ending::Forfeit { leaver, reason } => WireEnding::Forfeit {
                    leaver: side_byte(*leaver),
                    reason: reason.clone(),
                },
                Ending::Aborted { reason } => WireEnding::Aborted {
                    reason: reason.clone(),
                },
                Ending::Resigned { loser } => WireEnding::Resigned {
                    loser: side_byte(*loser),
                },
                Ending::DrawAgreed => WireEnding::DrawAgreed,
                Ending::Flag { loser } => WireEnding::Flag {
                    loser: side_byte(*loser),
                },
            }),
            rematch: v.rematch,
            round: v.round,
            score: v.score,
            rated: v.rated,
            rating_change: v.rating_change.map(|c| c.map(|c| (c.before, c.after))),
            offer: v.offer.as_ref().map(offer_wire),
            declined: v.declined.as_ref().map(offer_wire),
            clock: v.clock.map(|c| WireClock {
                control: c.control.to_string(),
                left_ms: Side::BOTH.map(|s| c.left_at(s, now).as_millis() as u64),
                running: c.running.map(side_byte),
            }),
            claim_in_ms: v.claim_from.map(|at| millis_from(now, at)),
            away_in_ms: v.away.map(|a| a.map(|at| millis_from(now, at))),
            watchers: v.watchers.min(u32::MAX as usize) as u32,
            record: v.record.clone(),
            chat: v.chat.each_ref().map(|lines| {
                lines
                    .iter()
                    .map(|l| WireChat {
                        from: l.from.clone(),
                        side: l.side.map(side_byte),
                        text: l.text.clone(),
                    })
                    .collect()
            }),
        }
    }

    /// The visitor's resume code, if it has the shape of one.
    pub fn resume_code(&self) -> Option<String> {
        self.resume.clone().filter(|c| {
            c.len() == crate::room_code::RESUME_LEN && crate::room_code::looks_like_code(c)
        })
    }

    /// The state for the visitor's session `me`, received at `now`; an
    /// error says what was wrong with it.
    pub fn into_state(self, me: SessionId, now: Instant) -> Result<RoomState, String> {
        let kind: GameKind = self.game.parse().map_err(|_| "unknown game")?;
        let rules = Rules::new(kind, self.width, self.height, self.line, self.exact)
            .map_err(|e| e.to_string())?
            .with_renju(self.renju || kind == GameKind::Renju);
        if self.moves.len() > rules.cells() {
            return Err("more moves than cells".into());
        }
        let mut position = Position::new(rules);
        for (x, y) in self.moves {
            position
                .play(Move::Point(Point::new(x, y)))
                .map_err(|e| format!("a move that cannot be played: {e}"))?;
        }
        let seat = |s: WireSeat| -> Result<Seat, String> {
            let colour: Colour = s.colour.parse().map_err(|_| "unknown colour")?;
            let computer = match s.computer {
                Some(l) => Some(l.parse::<Level>().map_err(|_| "unknown level")?),
                None => None,
            };
            Ok(Seat {
                name: text(&s.name, crate::text::MAX_NAME_WIDTH),
                colour,
                computer,
                rating: s.rating.filter(|&r| r <= 10_000),
            })
        };
        let [a, b] = self.seats;
        let seats = [seat(a)?, seat(b)?];
        let side = |b: u8| side_of(b).ok_or_else(|| "no such side".to_string());
        let point_list = |line: Vec<(u8, u8)>| -> Result<Vec<Point>, String> {
            if line.len() > usize::from(rules.width().max(rules.height())) {
                return Err("a line longer than the board".into());
            }
            let points: Vec<Point> = line.into_iter().map(|(x, y)| Point::new(x, y)).collect();
            if points.iter().any(|&p| !position.contains(p)) {
                return Err("a point off the board".into());
            }
            Ok(points)
        };
        let ending = match self.ending {
            None => None,
            Some(e) => Some(match e {
                WireEnding::Line { winner, line } => Ending::Line {
                    winner: side(winner)?,
                    line: point_list(line)?,
                },
                WireEnding::Draw => Ending::Draw,
                WireEnding::Forfeit { leaver, reason } => Ending::Forfeit {
                    leaver: side(leaver)?,
                    reason: text(&reason, MAX_REASON),
                },
                WireEnding::Aborted { reason } => Ending::Aborted {
                    reason: text(&reason, MAX_REASON),
                },
                WireEnding::Resigned { loser } => Ending::Resigned {
                    loser: side(loser)?,
                },
                WireEnding::DrawAgreed => Ending::DrawAgreed,
                WireEnding::Flag { loser } => Ending::Flag {
                    loser: side(loser)?,
                },
            }),
        };
        let offer = |o: Option<(u8, bool)>| -> Result<Option<Offer>, String> {
            match o {
                None => Ok(None),
                Some(o) => offer_of(o).map(Some).ok_or_else(|| "no such side".into()),
            }
        };
        let clock = match self.clock {
            None => None,
            Some(c) => {
                let control: TimeControl = c.control.parse().map_err(|e| format!("{e}"))?;
                let cap = 86_400_000;
                Some(ClockView {
                    control,
                    left: c.left_ms.map(|ms| Duration::from_millis(ms.min(cap))),
                    running: match c.running {
                        Some(s) => Some(side(s)?),
                        None => None,
                    },
                    at: now,
                })
            }
        };
        let chat = self.chat.map(|lines| {
            let skip = lines.len().saturating_sub(CHAT_TAIL);
            Arc::new(
                lines
                    .into_iter()
                    .skip(skip)
                    .map(|l| ChatLine {
                        from: text(&l.from, crate::text::MAX_NAME_WIDTH),
                        side: l.side.and_then(side_of),
                        text: text(&l.text, MAX_TEXT),
                    })
                    .collect::<Vec<_>>(),
            )
        });
        let swap2 = match &self.swap2 {
            None => None,
            Some(id) => Some(
                Swap2Stage::from_id(id, position.stones())
                    .ok_or("a swap2 stage that does not fit the board")?,
            ),
        };
        let swap2_chosen = match self.swap2_chosen {
            None => None,
            Some((s, c)) => Some((side(s)?, c)),
        };
        let view = GameView {
            swap2,
            swap2_chosen,
            position,
            seats,
            ending,
            rematch: self.rematch,
            round: self.round,
            score: self.score,
            rated: self.rated,
            rating_change: self
                .rating_change
                .map(|c| c.map(|(before, after)| RatingChange { before, after })),
            offer: offer(self.offer)?,
            declined: offer(self.declined)?,
            clock,
            claim_from: self.claim_in_ms.map(|ms| instant_at(now, ms)),
            away: self.away_in_ms.map(|a| a.map(|ms| instant_at(now, ms))),
            watchers: self.watchers as usize,
            chat,
            record: self.record.filter(|id| {
                id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            }),
        };
        let ids = [0, 1].map(|i| {
            if self.computer[i] {
                None
            } else if self.mine[i] {
                Some(me)
            } else {
                Some(OTHER)
            }
        });
        Ok(RoomState {
            view,
            ids,
            present: self.present,
            carry: None,
            handed_over: self.handed_over,
            frames: Default::default(),
        })
    }
}

/// A visitor's command to the table.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub enum WireCmd {
    /// The seat's command, as the visitor's session gave it.
    Seat(SeatCmd),
    /// A watcher on another host stops watching.
    Unwatch,
    /// The visitor's host shuts down: the game stops without a result,
    /// as every game on a host that shuts down does.
    Abort { reason: String },
}

impl WireCmd {
    /// What of a command to a visitor's proxy room crosses to the table's
    /// host: a seat's command as it is, a watcher going, the visitor's
    /// host shutting down (`None`: nothing that crosses).
    pub fn crossing(cmd: crate::lobby::room::RoomCmd) -> Option<WireCmd> {
        use crate::lobby::room::RoomCmd as R;
        match cmd {
            R::Seat { cmd, .. } => Some(WireCmd::Seat(cmd)),
            R::Unwatch { .. } => Some(WireCmd::Unwatch),
            R::Abort { reason } => Some(WireCmd::Abort { reason }),
            _ => None,
        }
    }

    /// The room command for the visitor seated as `ghost` (named `name`).
    pub fn into_room_cmd(
        self,
        ghost: SessionId,
        name: &str,
        chat_max: usize,
    ) -> crate::lobby::room::RoomCmd {
        use crate::lobby::room::RoomCmd as R;
        match self {
            WireCmd::Seat(cmd) => R::Seat {
                who: ghost,
                name: name.to_string(),
                cmd: cmd.bounded(chat_max),
                at: Instant::now(),
            },
            WireCmd::Abort { reason } => R::Abort {
                reason: text(&reason, MAX_REASON),
            },
            WireCmd::Unwatch => R::Unwatch { id: ghost },
        }
    }
}

/// What the room's host sends the visitor's host about the visitor's seat.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub enum ToVisitor {
    State(Box<WireState>),
    Rejected(Refusal),
    Told(crate::protocol::News),
    Kick(String),
    /// Why the room will not have the visitor (words made where shown).
    Refused(Refusal),
}

impl ToVisitor {
    /// What the room tells its seat, as it crosses (`None`: nothing the
    /// visitor needs).
    pub fn of(msg: ToSession) -> Option<ToVisitor> {
        match msg {
            ToSession::Rejected(t) => Some(ToVisitor::Rejected(t)),
            ToSession::Told(t) => Some(ToVisitor::Told(*t)),
            ToSession::LobbyError(r) => Some(ToVisitor::Refused(*r)),
            ToSession::Kick(t) => Some(ToVisitor::Kick(t)),
            _ => None,
        }
    }

    /// Parses a message from NATS, bounded.
    pub fn parse(bytes: &[u8]) -> Option<ToVisitor> {
        if bytes.len() > MAX_MESSAGE {
            return None;
        }
        serde_json::from_slice(bytes).ok()
    }

    /// The notice for the visitor's session (texts sanitised).
    pub fn notice(self) -> Option<ToSession> {
        Some(match self {
            ToVisitor::State(_) => return None,
            ToVisitor::Rejected(r) => ToSession::Rejected(r),
            ToVisitor::Told(t) => ToSession::Told(Box::new(t)),
            ToVisitor::Kick(t) => ToSession::Kick(text(&t, MAX_TEXT)),
            ToVisitor::Refused(r) => ToSession::LobbyError(Box::new(r)),
        })
    }
}

/// A visitor's command as it crosses, with the seat's secret.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct FromVisitor {
    pub token: String,
    pub cmd: WireCmd,
}

/// A waiting seeker in a game's quick-match queue.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Ticket {
    pub host: String,
    pub instance: String,
    pub session: SessionId,
    pub name: String,
    /// The rating that counts in a rated game, if it would be one.
    pub rating: Option<u32>,
    /// When the seeker started to wait (Unix milliseconds).
    pub since_ms: i64,
    /// The seeker's account: never paired with itself (the same account
    /// seeking on two hosts at once).
    #[serde(default)]
    pub account: Option<String>,
}

/// Most tickets a queue key holds (the rest wait at their own host).
pub const MAX_TICKETS: usize = 200;

/// Parses a queue's value, bounded; a bad value is an empty queue.
pub fn parse_tickets(bytes: &[u8]) -> Vec<Ticket> {
    if bytes.len() > MAX_MESSAGE {
        return Vec::new();
    }
    let mut tickets: Vec<Ticket> = serde_json::from_slice(bytes).unwrap_or_default();
    tickets.truncate(MAX_TICKETS);
    tickets
}

/// A host that matched a ticket asks the ticket's host for its seeker.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct MatchAsk {
    pub game: String,
    pub session: SessionId,
    pub instance: String,
    /// The host where the table will be, and the seat's secret.
    pub room_host: String,
    pub token: String,
}

/// Who has a room for a friend under a code (`code.<CODE>` in the codes bucket).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct CodeValue {
    pub host: String,
    pub instance: String,
    pub game: String,
}

impl CodeValue {
    pub fn parse(bytes: &[u8]) -> Option<CodeValue> {
        if bytes.len() > 1024 {
            return None;
        }
        let v: CodeValue = serde_json::from_slice(bytes).ok()?;
        super::valid_host_name(&v.host).then_some(v)
    }
}

/// Someone on another host takes a seat at a new table here: in a room
/// for a friend, or with the person whose invitation they accepted.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct JoinAsk {
    pub to: JoinTo,
    /// The seat's secret.
    pub token: String,
    pub host: String,
    pub session: SessionId,
    pub name: String,
    pub account: Option<String>,
    pub ratings: [Option<u32>; 2],
    pub colour: Option<String>,
}

pub use crate::protocol::JoinTo;

/// Someone on another host takes back their seat (by `key`: an account
/// or a seat's secret) at the table `room` here.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct RejoinAsk {
    pub room: u64,
    pub key: String,
    /// The seat's secret from now on.
    pub token: String,
    pub host: String,
    pub session: SessionId,
    pub name: String,
    pub account: Option<String>,
}

/// The room's host's answer: the game starts, or why not.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub enum JoinAnswer {
    Yes,
    No(Refusal),
}

impl From<Result<(), Refusal>> for JoinAnswer {
    fn from(r: Result<(), Refusal>) -> JoinAnswer {
        match r {
            Ok(()) => JoinAnswer::Yes,
            Err(why) => JoinAnswer::No(why),
        }
    }
}

/// An invitation from someone on another host (`host`; its `from` is
/// their session there) for the person `to` here.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct InviteAsk {
    pub host: String,
    pub to: SessionId,
    pub invitation: crate::protocol::Invitation,
}

/// Someone signed in on `host` with this account or key at `at_ms` (Unix
/// milliseconds): their older sessions on the other hosts end.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SignedInNote {
    pub host: String,
    pub account: Option<String>,
    pub identity: Option<String>,
    pub at_ms: i64,
}

impl SignedInNote {
    /// A note as read off the wire, if it is one (bounded, naming someone).
    pub fn parse(bytes: &[u8]) -> Option<SignedInNote> {
        let note: SignedInNote = serde_json::from_slice(bytes).ok()?;
        let fits = |s: &Option<String>| s.as_ref().is_none_or(|s| !s.is_empty() && s.len() <= 128);
        (fits(&note.account)
            && fits(&note.identity)
            && (note.account.is_some() || note.identity.is_some()))
        .then_some(note)
    }
}

/// The person `session` on `host` declined the invitation of `inviter`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct DeclineNote {
    pub inviter: SessionId,
    pub host: String,
    pub session: SessionId,
    pub name: String,
}

/// Someone on another host would watch the game at `room` here.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct WatchAsk {
    pub room: u64,
    /// The watcher's secret, for its chat lines and its leaving.
    pub token: String,
    pub host: String,
    pub session: SessionId,
    pub name: String,
}

/// The game's host's answer: watching, or why not.
pub type WatchAnswer = JoinAnswer;

/// A host's list from NATS: bounded, each text sanitised; `None` if
/// it is not one.
pub fn parse_games(bytes: &[u8], max: usize) -> Option<Vec<GameSummary>> {
    if bytes.len() > MAX_MESSAGE {
        return None;
    }
    let games: Vec<GameSummary> = serde_json::from_slice(bytes).ok()?;
    if games.len() > max {
        return None;
    }
    Some(
        games
            .into_iter()
            .filter(|g| g.moves <= 100_000 && g.watchers <= 1_000_000)
            .map(|g| GameSummary {
                game: text(&g.game, 40),
                players: g.players.map(|p| text(&p, 40)),
                ..g
            })
            .collect(),
    )
}

/// The ticket's host's answer: the seeker, or gone.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub enum MatchAnswer {
    Yes {
        name: String,
        account: Option<String>,
        rating: Option<u32>,
        colour: Option<String>,
    },
    No,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Table;

    fn room_state() -> RoomState {
        let mut table = Table::new(
            Rules::connect_four(),
            [
                Seat::human("ann", Colour::Red),
                Seat::human("bo", Colour::Yellow),
            ],
        );
        for c in [3u8, 3, 2] {
            let side = table.view().position.to_move();
            table.play(side, Move::Column(c)).expect("legal");
        }
        state_of(&table)
    }

    /// The table's state with the visitor in the second seat.
    fn state_of(table: &Table) -> RoomState {
        RoomState {
            view: table.view().clone(),
            ids: [Some(7), Some(VISITOR)],
            present: [true, true],
            carry: None,
            handed_over: false,
            frames: Default::default(),
        }
    }

    const VISITOR: SessionId = crate::lobby::state::VISITOR_IDS + 3;

    #[test]
    fn a_state_crosses_with_its_position_and_the_visitors_seat() {
        let now = Instant::now();
        let state = room_state();
        let wire = WireState::of(&state, VISITOR, now);
        let bytes = serde_json::to_vec(&ToVisitor::State(Box::new(wire))).unwrap();
        let Some(ToVisitor::State(back)) = ToVisitor::parse(&bytes) else {
            panic!("a state comes back")
        };
        let got = back.into_state(42, now).expect("valid");
        assert_eq!(got.view.position, state.view.position);
        assert_eq!(got.view.seats, state.view.seats);
        assert_eq!(
            got.ids,
            [Some(OTHER), Some(42)],
            "the visitor's seat is its own"
        );
    }

    #[test]
    fn a_guest_visitor_gets_its_own_resume_code_with_the_state_and_no_other() {
        use crate::lobby::room::Carry;
        let now = Instant::now();
        let mut state = room_state();
        let with = |resumes: [Option<&str>; 2]| {
            Some(Arc::new(Carry {
                resumes: resumes.map(|r| r.map(str::to_string)),
                ..Carry::default()
            }))
        };
        state.carry = with([Some("BCDFGH"), Some("KB2CXW")]);
        let bytes = serde_json::to_vec(&WireState::of(&state, VISITOR, now)).unwrap();
        let back: WireState = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back.resume_code().as_deref(), Some("KB2CXW"));
        // A watcher (no seat) gets none; nor does a seat with an account.
        assert_eq!(WireState::of(&state, VISITOR + 1, now).resume_code(), None);
        state.carry = with([Some("BCDFGH"), None]);
        assert_eq!(WireState::of(&state, VISITOR, now).resume_code(), None);
        // Something not shaped like a resume code is not taken for one.
        state.carry = with([None, Some("\u{1b}[2J0123")]);
        assert_eq!(WireState::of(&state, VISITOR, now).resume_code(), None);
    }

    #[test]
    fn a_state_with_an_impossible_position_or_hostile_text_is_refused_or_cleaned() {
        let now = Instant::now();
        let mut wire = WireState::of(&room_state(), VISITOR, now);
        wire.moves.push((9, 9));
        assert!(wire.clone().into_state(1, now).is_err(), "off the board");
        wire.moves.pop();
        wire.moves.push((3, 0));
        assert!(wire.clone().into_state(1, now).is_err(), "an occupied cell");
        wire.moves.pop();
        wire.seats[0].name = "\u{1b}[2Jevil\u{7}".into();
        wire.chat[0].push(WireChat {
            from: "x\u{1b}]0;t\u{7}".into(),
            side: Some(9),
            text: "hi\u{1b}[31m".into(),
        });
        let got = wire
            .clone()
            .into_state(1, now)
            .expect("cleaned, not refused");
        assert!(!got.view.seats[0].name.contains('\u{1b}'));
        assert!(
            got.view.chat[0].iter().all(|l| !l.text.contains('\u{1b}')
                && !l.from.contains('\u{1b}')
                && l.side.is_none())
        );
        wire.width = 200;
        assert!(wire.into_state(1, now).is_err(), "rules out of bounds");
        assert!(ToVisitor::parse(&vec![b' '; MAX_MESSAGE + 1]).is_none());
    }

    #[test]
    fn commands_cross_and_come_back_for_the_visitors_seat() {
        use crate::lobby::room::RoomCmd;
        let cmd = RoomCmd::seat(5, SeatCmd::Move(Move::Column(4)));
        let wire = WireCmd::crossing(cmd).expect("a move crosses");
        let back = wire.into_room_cmd(VISITOR, "bo", 200);
        assert!(matches!(
            back,
            RoomCmd::Seat {
                who: VISITOR,
                cmd: SeatCmd::Move(Move::Column(4)),
                ..
            }
        ));
        let long = WireCmd::Seat(SeatCmd::Chat("y".repeat(1000))).into_room_cmd(VISITOR, "bo", 200);
        match long {
            RoomCmd::Seat {
                cmd: SeatCmd::Chat(text),
                name,
                ..
            } => {
                assert_eq!(text.chars().count(), 200);
                assert_eq!(name, "bo", "the name is the seat's, not the sender's");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_swap2_opening_crosses_with_its_stage_and_choices_and_a_stage_that_cannot_be_is_refused() {
        use crate::lobby::room::RoomCmd;
        use crate::table::{Opening, Swap2Choice};
        let now = Instant::now();
        let mut table = Table::new(
            Rules::gomoku(),
            [
                Seat::human("ann", Colour::Red),
                Seat::human("bo", Colour::Yellow),
            ],
        );
        table.set_opening(Opening::Swap2);
        for (x, y) in [(7, 7), (8, 7), (7, 8)] {
            table
                .play(Side::First, Move::Point(Point::new(x, y)))
                .expect("legal");
        }
        let state = state_of(&table);
        let wire = WireState::of(&state, VISITOR, now);
        let got = wire.clone().into_state(42, now).expect("valid");
        assert_eq!(got.view.swap2, Some(Swap2Stage::Choose));
        assert_eq!(
            got.view.to_move(),
            Some(Side::Second),
            "the visitor chooses"
        );
        // A stage the stones cannot be at is refused.
        let mut bad = wire;
        bad.swap2 = Some("three".into());
        assert!(bad.clone().into_state(42, now).is_err());
        bad.swap2 = Some("nonsense".into());
        assert!(bad.into_state(42, now).is_err());
        // The visitor's choice crosses back for its seat.
        let cmd = RoomCmd::seat(42, SeatCmd::Swap2(Swap2Choice::TwoMore));
        let bytes = serde_json::to_vec(&WireCmd::crossing(cmd).expect("crosses")).unwrap();
        let back: WireCmd = serde_json::from_slice(&bytes).unwrap();
        assert!(matches!(
            back.into_room_cmd(VISITOR, "bo", 200),
            RoomCmd::Seat {
                who: VISITOR,
                cmd: SeatCmd::Swap2(Swap2Choice::TwoMore),
                ..
            }
        ));
        assert!(serde_json::from_slice::<WireCmd>(br#"{"Seat":{"swap2":"three-more"}}"#).is_err());
        assert!(
            serde_json::from_slice::<WireCmd>(br#"{"Seat":{"swap2":"two-more"}}"#).is_ok(),
            "the encoding the test above changes one word of"
        );
    }

    #[test]
    fn a_hosts_list_of_games_is_bounded_and_cleaned() {
        let game = |room: u64| GameSummary {
            room,
            game: "Connect Four 7x6".into(),
            players: ["ann\u{1b}[2J".into(), "bo\u{202e}".into()],
            rated: false,
            moves: 3,
            watchers: 1,
            host: None,
            facts: None,
        };
        let list: Vec<GameSummary> = (0..3).map(game).collect();
        let bytes = serde_json::to_vec(&list).unwrap();
        let got = parse_games(&bytes, 3).expect("a list");
        assert_eq!(got.len(), 3);
        assert!(
            got.iter().all(|g| g
                .players
                .iter()
                .all(|p| !p.contains('\u{1b}') && !p.contains('\u{202e}'))),
            "{got:?}"
        );
        assert_eq!(got[0].players[0], "ann[2J");
        // More games than a host lists, or not a list: refused whole.
        assert_eq!(parse_games(&bytes, 2), None);
        assert_eq!(parse_games(b"{\"room\": 1}", 3), None);
        let huge = vec![b' '; MAX_MESSAGE + 1];
        assert_eq!(parse_games(&huge, 3), None);
    }

    #[test]
    fn a_watcher_leaving_crosses_as_unwatch_for_its_ghost() {
        let cmd = crate::lobby::room::RoomCmd::Unwatch { id: 7 };
        let wire = WireCmd::crossing(cmd).expect("crosses");
        assert_eq!(wire, WireCmd::Unwatch);
        let ghost = (1 << 48) + 5;
        assert!(matches!(
            wire.into_room_cmd(ghost, "cy", 200),
            crate::lobby::room::RoomCmd::Unwatch { id } if id == ghost
        ));
    }
}
