//! Rooms kept in NATS, so that no game depends on one host: one key per
//! room in the `rooms` bucket, holding the game as it stands (rules,
//! moves, players), the host that runs it and until when its lease holds.
//!
//! Every change is a compare-and-set on the key's revision, so two hosts
//! can never both apply a move: the one whose write lands second re-reads
//! the room and finds the move there already (the same move: it was
//! applied once) or another one (its move is refused). A room whose
//! owner's lease has run out (the host died) is claimed the same way: of
//! two hosts claiming at once, one wins.
//!
//! This is the building block; which host writes when is the lobby's
//! business (docs/cluster.md, items 3 and 4).

use std::time::Duration;

use async_nats::jetstream::kv;
use serde::{Deserialize, Serialize};

use crate::game::{GameKind, Move, Point, Position, Rules};

/// The largest room value taken from the bucket.
pub const MAX_ROOM_VALUE: usize = 64 * 1024;
/// Compare-and-set tries before giving up (each lost race re-reads).
const TRIES: usize = 20;
/// How long one read or write may take.
const OP_TIMEOUT: Duration = Duration::from_secs(3);
/// How long after its last write a room's lease holds (a claim also
/// needs the owner host gone from the live hosts).
pub const LEASE: Duration = Duration::from_secs(6);

/// A room as kept in NATS.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct StoredRoom {
    /// The host that runs the room.
    pub owner: String,
    /// Until when (ms since the Unix epoch) the owner's lease holds.
    pub lease_until_ms: i64,
    pub game: String,
    pub width: u8,
    pub height: u8,
    pub line: u8,
    pub exact: bool,
    /// Renju (kept rooms written before renju existed read as not).
    #[serde(default)]
    pub renju: bool,
    /// The players' names, first player first.
    pub players: [String; 2],
    /// Every move, as board points, in order.
    pub moves: Vec<(u8, u8)>,
    /// The owner's run (its instance id): a host back under the same name
    /// is another run, and does not hold the room.
    #[serde(default)]
    pub owner_instance: String,
    /// The room's number on its owner host.
    #[serde(default)]
    pub room: u64,
    /// The owner stopped (a restart) and let the room go: any host may
    /// claim it at once.
    #[serde(default)]
    pub released: bool,
    /// What takes each seat back, first player first.
    #[serde(default)]
    pub seats: [StoredSeat; 2],
    #[serde(default)]
    pub rated: bool,
    #[serde(default)]
    pub clock: Option<StoredClock>,
    /// The game's id in the store (the same on every host that runs it:
    /// the record is kept once).
    #[serde(default)]
    pub game_id: String,
    #[serde(default)]
    pub started_ms: i64,
    /// Milliseconds since the start of each move.
    #[serde(default)]
    pub move_ms: Vec<u64>,
    /// The last lines of the players' chat and of the watchers'.
    #[serde(default)]
    pub chat: [Vec<StoredChat>; 2],
    /// How the game opens, and a swap2 opening's stage while it lasts.
    #[serde(default)]
    pub opening: crate::table::Opening,
    #[serde(default)]
    pub swap2: Option<String>,
}

/// A line of a kept room's chat.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct StoredChat {
    pub from: String,
    /// The side of a player (0 first, 1 second); `None`: a watcher.
    pub side: Option<u8>,
    pub text: String,
}

/// Most lines of each chat, and longest line, taken from a kept room.
const MAX_CHAT_LINES: usize = crate::lobby::room::CHAT_TAIL;
const MAX_CHAT_TEXT: usize = 2048;

/// One seat of a kept room, beside the player's name.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct StoredSeat {
    pub account: Option<String>,
    /// A guest's resume code.
    pub resume: Option<String>,
    pub rating: Option<u32>,
    /// The computer's level, for its seat.
    pub level: Option<String>,
    pub colour: String,
}

/// A kept room's clocks, as they stood at its last write.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
pub struct StoredClock {
    pub base_ms: u64,
    pub increment_ms: u64,
    pub left_ms: [u64; 2],
    /// When (ms since the Unix epoch) `left_ms` was read.
    #[serde(default)]
    pub at_ms: i64,
    /// The side whose clock was running then (0 first, 1 second).
    #[serde(default)]
    pub running: Option<u8>,
}

impl StoredClock {
    /// The time each side has left at `now_ms`: the running clock goes
    /// on from where it was read, so a game carried on elsewhere never
    /// gains time (a clock from before `at_ms` was kept is taken as is).
    pub fn left_at(&self, now_ms: i64) -> [u64; 2] {
        let mut left = self.left_ms;
        if let Some(side) = self.running.filter(|&s| s < 2)
            && self.at_ms > 0
        {
            let elapsed = u64::try_from(now_ms.saturating_sub(self.at_ms)).unwrap_or(0);
            left[usize::from(side)] = left[usize::from(side)].saturating_sub(elapsed);
        }
        left
    }
}

/// The longest account id, resume code or game id taken from a room.
const MAX_ID: usize = 128;

/// What became of a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// This host's write applied it (the room's new revision).
    Done(u64),
    /// Another write had applied this very move already.
    Already,
    /// Not applied, and why (another move came first, an illegal move...).
    Refused(String),
}

impl StoredRoom {
    /// The game at a table of `owner`'s, as kept (`now_ms`: the lease
    /// starts).
    pub fn of(
        state: &crate::lobby::room::RoomState,
        room: u64,
        owner: (&str, &str),
        now_ms: i64,
    ) -> StoredRoom {
        let v = &state.view;
        let rules = v.position.rules();
        let carry = state.carry.as_deref().cloned().unwrap_or_default();
        let now = std::time::Instant::now();
        let (owner, owner_instance) = owner;
        StoredRoom {
            owner_instance: owner_instance.to_string(),
            room,
            released: false,
            seats: [0, 1].map(|i| StoredSeat {
                account: carry.accounts[i].clone(),
                resume: carry.resumes[i].clone(),
                rating: v.seats[i].rating,
                level: v.seats[i].computer.map(|l| l.name().to_string()),
                colour: v.seats[i].colour.name().to_string(),
            }),
            rated: v.rated,
            clock: v.clock.map(|c| StoredClock {
                base_ms: c.control.base.as_millis() as u64,
                increment_ms: c.control.increment.as_millis() as u64,
                left_ms: [crate::game::Side::First, crate::game::Side::Second]
                    .map(|s| c.left_at(s, now).as_millis() as u64),
                at_ms: now_ms,
                running: c.running.map(|s| s.index() as u8),
            }),
            game_id: carry.game,
            started_ms: carry.started_ms,
            move_ms: carry.move_ms,
            chat: v.chat.each_ref().map(|lines| {
                lines
                    .iter()
                    .map(|l| StoredChat {
                        from: l.from.clone(),
                        side: l.side.map(|s| s.index() as u8),
                        text: l.text.clone(),
                    })
                    .collect()
            }),
            owner: owner.to_string(),
            lease_until_ms: now_ms.saturating_add(LEASE.as_millis() as i64),
            game: rules.kind().id().to_string(),
            width: rules.width(),
            height: rules.height(),
            line: rules.line(),
            exact: rules.is_exact(),
            renju: rules.is_renju(),
            players: v.seats.each_ref().map(|s| s.name.clone()),
            moves: v.position.history().iter().map(|p| (p.x, p.y)).collect(),
            opening: carry.opening,
            swap2: v.swap2.map(|s| s.id().to_string()),
        }
    }

    /// A room as read from the bucket: bounded, and its moves a game the
    /// rules allow (replayed), or `None`.
    pub fn parse(bytes: &[u8]) -> Option<(StoredRoom, Position)> {
        if bytes.len() > MAX_ROOM_VALUE {
            return None;
        }
        let room: StoredRoom = serde_json::from_slice(bytes).ok()?;
        if !super::valid_host_name(&room.owner) || room.owner_instance.len() > MAX_ID {
            return None;
        }
        let ids = room.seats.iter().flat_map(|s| [&s.account, &s.resume]);
        if room.game_id.len() > MAX_ID
            || ids.flatten().any(|id| id.len() > MAX_ID)
            || room.move_ms.len() > room.moves.len()
            || room.players.iter().any(|p| p.len() > MAX_ID)
            || room.chat.iter().any(|c| {
                c.len() > MAX_CHAT_LINES
                    || c.iter().any(|l| {
                        l.from.len() > MAX_ID || l.text.len() > MAX_CHAT_TEXT || l.side > Some(1)
                    })
            })
        {
            return None;
        }
        for seat in &room.seats {
            if seat
                .level
                .as_ref()
                .is_some_and(|l| l.parse::<crate::engine::Level>().is_err())
            {
                return None;
            }
        }
        let position = room.position().ok()?;
        Some((room, position))
    }

    pub fn rules(&self) -> Result<Rules, String> {
        let kind: GameKind = self.game.parse().map_err(|_| "unknown game")?;
        Rules::new(kind, self.width, self.height, self.line, self.exact)
            .map(|r| r.with_renju(self.renju || kind == GameKind::Renju))
            .map_err(|e| e.to_string())
    }

    /// The position its moves reach.
    pub fn position(&self) -> Result<Position, String> {
        let rules = self.rules()?;
        if self.moves.len() > rules.cells() {
            return Err("more moves than cells".into());
        }
        let mut position = Position::new(rules);
        for &(x, y) in &self.moves {
            position
                .play(Move::Point(Point::new(x, y)))
                .map_err(|e| format!("a move that cannot be played: {e}"))?;
        }
        Ok(position)
    }
}

/// The rooms bucket of one host (and the seats bucket: which room each
/// player's seat is in, by account or resume code).
#[derive(Clone)]
pub struct Rooms {
    kv: kv::Store,
    host: String,
    instance: String,
    seats: Option<kv::Store>,
    /// Where writes given up on are counted (none in tests).
    metrics: Option<std::sync::Arc<crate::metrics::Metrics>>,
}

/// A seat's key in the seats bucket: `seat.` and the account or resume
/// code in hex (any bytes, a valid NATS key); `None` if too long.
fn seat_key(key: &str) -> Option<String> {
    use std::fmt::Write;
    if key.is_empty() || key.len() > MAX_ID {
        return None;
    }
    let mut k = String::with_capacity(5 + 2 * key.len());
    k.push_str("seat.");
    for b in key.bytes() {
        let _ = write!(k, "{b:02x}");
    }
    Some(k)
}

fn key(room: &str) -> String {
    format!("room.{room}")
}

impl Rooms {
    pub fn new(kv: kv::Store, host: String) -> Rooms {
        Rooms {
            kv,
            host,
            instance: String::new(),
            seats: None,
            metrics: None,
        }
    }

    /// Counts the writes given up on in `metrics`.
    pub fn with_metrics(mut self, metrics: std::sync::Arc<crate::metrics::Metrics>) -> Rooms {
        self.metrics = Some(metrics);
        self
    }

    /// A write to the bucket (`what`: its key) given up on: counted and
    /// logged as dropped.
    pub fn dropped(&self, what: &str, why: impl std::fmt::Display) {
        match &self.metrics {
            Some(m) => m.dropped(
                crate::metrics::dropped::NATS_PUBLISH,
                format_args!("{what}: {why}"),
            ),
            None => tracing::warn!("dropped: {what}: {why}"),
        }
    }

    /// This run of the host (claims write it as the owner's).
    pub fn with_instance(mut self, instance: String) -> Rooms {
        self.instance = instance;
        self
    }

    /// Where seats are looked up by account or resume code.
    pub fn with_seats(mut self, seats: kv::Store) -> Rooms {
        self.seats = Some(seats);
        self
    }

    /// Notes that the players with `keys` (accounts, resume codes) sit in
    /// `room`.
    pub async fn seat(&self, keys: &[String], room: &str) {
        let Some(seats) = &self.seats else { return };
        for key in keys.iter().filter_map(|k| seat_key(k)) {
            let put = seats.put(&key, room.to_string().into_bytes().into());
            match tokio::time::timeout(OP_TIMEOUT, put).await {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => self.dropped(&key, e),
                Err(_) => self.dropped(&key, "not noted in time"),
            }
        }
    }

    /// The room the player with `key` sits in, if noted.
    pub async fn seat_of(&self, key: &str) -> anyhow::Result<Option<String>> {
        let (Some(seats), Some(k)) = (&self.seats, seat_key(key)) else {
            return Ok(None);
        };
        let entry = tokio::time::timeout(OP_TIMEOUT, seats.entry(k))
            .await
            .map_err(|_| anyhow::anyhow!("NATS did not answer in time"))??;
        Ok(entry
            .filter(|e| e.operation == kv::Operation::Put && e.value.len() <= 256)
            .and_then(|e| String::from_utf8(e.value.to_vec()).ok())
            .filter(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_graphic())))
    }

    /// The players with `keys` no longer sit in `room` (a seat noted for
    /// another room since is left alone).
    pub async fn unseat(&self, keys: &[String], room: &str) {
        for key in keys {
            if self.seat_of(key).await.ok().flatten().as_deref() != Some(room) {
                continue;
            }
            if let (Some(seats), Some(k)) = (&self.seats, seat_key(key)) {
                match tokio::time::timeout(OP_TIMEOUT, seats.delete(&k)).await {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => self.dropped(&k, e),
                    Err(_) => self.dropped(&k, "not deleted in time"),
                }
            }
        }
    }

    /// The room under `room` and its revision, if there is one.
    pub async fn read(&self, room: &str) -> anyhow::Result<Option<(StoredRoom, Position, u64)>> {
        let entry = tokio::time::timeout(OP_TIMEOUT, self.kv.entry(key(room)))
            .await
            .map_err(|_| anyhow::anyhow!("NATS did not answer in time"))??;
        Ok(match entry {
            Some(e) if e.operation == kv::Operation::Put => {
                let (r, p) = StoredRoom::parse(&e.value)
                    .ok_or_else(|| anyhow::anyhow!("the room {room} in NATS is not one"))?;
                Some((r, p, e.revision))
            }
            _ => None,
        })
    }

    /// Writes `value` over revision `rev` (0: only if there is no room
    /// yet); `None` if another write came first.
    async fn write(&self, room: &str, value: &StoredRoom, rev: u64) -> anyhow::Result<Option<u64>> {
        let bytes: bytes::Bytes = serde_json::to_vec(value)?.into();
        if rev == 0 {
            match tokio::time::timeout(OP_TIMEOUT, self.kv.create(key(room), bytes)).await {
                Ok(Ok(rev)) => Ok(Some(rev)),
                Ok(Err(e)) if e.kind() == kv::CreateErrorKind::AlreadyExists => Ok(None),
                Ok(Err(e)) => Err(anyhow::anyhow!("{e}")),
                Err(_) => Err(anyhow::anyhow!("NATS did not answer in time")),
            }
        } else {
            match tokio::time::timeout(OP_TIMEOUT, self.kv.update(key(room), bytes, rev)).await {
                Ok(Ok(rev)) => Ok(Some(rev)),
                Ok(Err(e)) if e.kind() == kv::UpdateErrorKind::WrongLastRevision => Ok(None),
                Ok(Err(e)) => Err(anyhow::anyhow!("{e}")),
                Err(_) => Err(anyhow::anyhow!("NATS did not answer in time")),
            }
        }
    }

    /// Writes the room over revision `rev`: its new revision, or `None`
    /// if another write came first (another host runs it now).
    pub async fn replace(
        &self,
        room: &str,
        value: &StoredRoom,
        rev: u64,
    ) -> anyhow::Result<Option<u64>> {
        self.write(room, value, rev.max(1)).await
    }

    /// Keeps a new room (fails if the name is taken).
    pub async fn create(&self, room: &str, value: &StoredRoom) -> anyhow::Result<u64> {
        self.write(room, value, 0)
            .await?
            .ok_or_else(|| anyhow::anyhow!("a room named {room} exists already"))
    }

    /// Applies `mv` as move number `number` (0-based) of `room`, exactly
    /// once whoever else tries the same: see [`Applied`].
    pub async fn apply_move(
        &self,
        room: &str,
        number: usize,
        mv: (u8, u8),
    ) -> anyhow::Result<Applied> {
        for _ in 0..TRIES {
            let Some((mut stored, mut position, rev)) = self.read(room).await? else {
                return Ok(Applied::Refused("the room has ended".into()));
            };
            match stored.moves.len() {
                n if n > number => {
                    return Ok(if stored.moves[number] == mv {
                        Applied::Already
                    } else {
                        Applied::Refused("another move was played first".into())
                    });
                }
                n if n < number => {
                    return Ok(Applied::Refused("a move is missing before it".into()));
                }
                _ => {}
            }
            if let Err(e) = position.play(Move::Point(Point::new(mv.0, mv.1))) {
                return Ok(Applied::Refused(e.to_string()));
            }
            stored.moves.push(mv);
            if let Some(rev) = self.write(room, &stored, rev).await? {
                return Ok(Applied::Done(rev));
            }
            // Another write came first: look again.
        }
        anyhow::bail!("the room {room} changed too often to write")
    }

    /// Takes over `room` for this host, for `lease`, if its owner let it
    /// go (a restart), or its lease ran out by `now_ms` and the owner's
    /// run is not among the live ones (`live(host, instance)`): the room
    /// as claimed, with its position and revision, if this host runs it
    /// now.
    pub async fn claim(
        &self,
        room: &str,
        now_ms: i64,
        lease: Duration,
        live: impl Fn(&str, &str) -> bool,
    ) -> anyhow::Result<Option<(StoredRoom, Position, u64)>> {
        for _ in 0..TRIES {
            let Some((mut stored, position, rev)) = self.read(room).await? else {
                return Ok(None);
            };
            let ours = stored.owner == self.host && stored.owner_instance == self.instance;
            let lapsed =
                stored.lease_until_ms <= now_ms && !live(&stored.owner, &stored.owner_instance);
            if !(ours || stored.released || lapsed) {
                return Ok(None);
            }
            stored.owner = self.host.clone();
            stored.owner_instance = self.instance.clone();
            stored.released = false;
            stored.lease_until_ms = now_ms.saturating_add(lease.as_millis() as i64);
            if let Some(rev) = self.write(room, &stored, rev).await? {
                return Ok(Some((stored, position, rev)));
            }
        }
        Ok(None)
    }

    /// This host stops (a restart): its room `room`, last written at
    /// `rev`, may be claimed by any host at once.
    pub async fn release(&self, room: &str, value: &StoredRoom, rev: u64) -> anyhow::Result<()> {
        let mut value = value.clone();
        value.released = true;
        value.lease_until_ms = 0;
        match self.write(room, &value, rev.max(1)).await? {
            Some(_) => Ok(()),
            None => anyhow::bail!("another host wrote the room {room} meanwhile"),
        }
    }

    /// The room has ended: it goes from the bucket.
    pub async fn remove(&self, room: &str) -> anyhow::Result<()> {
        tokio::time::timeout(OP_TIMEOUT, self.kv.delete(key(room)))
            .await
            .map_err(|_| anyhow::anyhow!("NATS did not answer in time"))??;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_clock_goes_on_from_its_read_and_never_gains() {
        let clock = StoredClock {
            base_ms: 300_000,
            increment_ms: 0,
            left_ms: [301_000, 250_000],
            at_ms: 1_000_000,
            running: Some(0),
        };
        // 8 s after the read (a host killed, the lease lapsed): the running
        // side has 8 s less, the other the same.
        assert_eq!(clock.left_at(1_008_000), [293_000, 250_000]);
        // Never below zero, never more than read (a clock behind the read).
        assert_eq!(clock.left_at(2_000_000), [0, 250_000]);
        assert_eq!(clock.left_at(999_000), [301_000, 250_000]);
        // No clock running (the game not started): as read.
        let stopped = StoredClock {
            running: None,
            ..clock
        };
        assert_eq!(stopped.left_at(1_008_000), [301_000, 250_000]);
        // A room kept before the read time was stored: as read.
        let old: StoredClock =
            serde_json::from_str(r#"{"base_ms":1,"increment_ms":0,"left_ms":[5,6]}"#).unwrap();
        assert_eq!(old.left_at(1_008_000), [5, 6]);
    }

    fn room(moves: Vec<(u8, u8)>) -> StoredRoom {
        StoredRoom {
            owner: "host-a".into(),
            lease_until_ms: 0,
            game: "connect4".into(),
            width: 7,
            height: 6,
            line: 4,
            exact: false,
            players: ["ann".into(), "bo".into()],
            moves,
            ..Default::default()
        }
    }

    #[test]
    fn a_stored_room_is_taken_only_when_its_moves_are_a_legal_game() {
        let good = serde_json::to_vec(&room(vec![(3, 0), (3, 1)])).unwrap();
        let (r, p) = StoredRoom::parse(&good).expect("a room");
        assert_eq!(r.moves.len(), 2);
        assert_eq!(p.stones(), 2);
        // A stone in the air (Connect Four has gravity) is no game.
        let floating = serde_json::to_vec(&room(vec![(3, 2)])).unwrap();
        assert!(StoredRoom::parse(&floating).is_none());
        let mut bad_owner = room(vec![]);
        bad_owner.owner = "a b".into();
        assert!(StoredRoom::parse(&serde_json::to_vec(&bad_owner).unwrap()).is_none());
        assert!(StoredRoom::parse(&vec![b' '; MAX_ROOM_VALUE + 1]).is_none());
    }

    #[test]
    fn a_stored_rooms_seats_and_chat_are_bounded() {
        let line = |side: Option<u8>, text: &str| StoredChat {
            from: "ann".into(),
            side,
            text: text.into(),
        };
        let mut ok = room(vec![(3, 0)]);
        ok.chat[0] = vec![line(Some(0), "hi"); MAX_CHAT_LINES];
        ok.chat[1] = vec![line(None, "nice game")];
        assert!(StoredRoom::parse(&serde_json::to_vec(&ok).unwrap()).is_some());
        let mut too_many = ok.clone();
        too_many.chat[0].push(line(Some(1), "one more"));
        assert!(StoredRoom::parse(&serde_json::to_vec(&too_many).unwrap()).is_none());
        let mut no_side = ok.clone();
        no_side.chat[0][0].side = Some(2);
        assert!(StoredRoom::parse(&serde_json::to_vec(&no_side).unwrap()).is_none());
        let mut long = ok.clone();
        long.chat[1][0].text = "x".repeat(MAX_CHAT_TEXT + 1);
        assert!(StoredRoom::parse(&serde_json::to_vec(&long).unwrap()).is_none());
        let mut key = ok.clone();
        key.seats[0].account = Some("a".repeat(MAX_ID + 1));
        assert!(StoredRoom::parse(&serde_json::to_vec(&key).unwrap()).is_none());
        let mut level = ok.clone();
        level.seats[1].level = Some("godlike".into());
        assert!(StoredRoom::parse(&serde_json::to_vec(&level).unwrap()).is_none());
        let mut times = ok;
        times.move_ms = vec![1, 2];
        assert!(StoredRoom::parse(&serde_json::to_vec(&times).unwrap()).is_none());
    }
}
