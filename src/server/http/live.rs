//! Games in play on the web: `/live/ID` and its server-sent events at
//! `/live/ID/events`. A game followed from the web is watched once per
//! host (one watcher seat at its table, as a watcher on another host
//! has): its states are made into one event each, shared by every
//! browser that follows it. In cluster mode a game's id names its host
//! (`HOST-ROOM`), and a game on another host is followed from any host
//! as a watcher there follows it: its states come over NATS. Bounded: `[http] max_live_viewers` streams a
//! game and `max_live_streams` in all (beyond: 503 with a page saying
//! so), and a stream with nothing to send for [`STREAM_IDLE`] ends (a
//! browser's EventSource asks again, and gets the current state first).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::lobby::room::{RoomCmd, RoomState};
use crate::lobby::state::RoomId;
use crate::lobby::{LobbyHandle, ToSession};

/// How long a table has to let the web watch.
const ASK_WAIT: Duration = Duration::from_secs(3);
/// A stream that has sent nothing for this long ends.
pub const STREAM_IDLE: Duration = Duration::from_secs(300);

/// One state of a followed game, as the page shows it: the event's JSON,
/// and whether it is the last (the game over and recorded).
pub struct Event {
    /// The state as JSON, in each language ([`Lang::ALL`]'s order: the
    /// status line is words).
    ///
    /// [`Lang::ALL`]: crate::lang::Lang::ALL
    pub json: [String; 3],
    pub done: bool,
}

/// A game in play as the web names it: at a table here, or (cluster
/// mode) on another host.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GameId {
    Here(RoomId),
    There(String, u64),
}

impl GameId {
    /// `ROOM`, or `HOST-ROOM` (a host name may hold `-`: the room is after
    /// the last); `here` is this host's name in a cluster.
    pub fn parse(id: &str, here: Option<&str>) -> Option<GameId> {
        if let Ok(room) = id.parse::<u64>() {
            return Some(GameId::Here(room));
        }
        let (host, room) = id.rsplit_once('-')?;
        let room = room.parse::<u64>().ok()?;
        let here = here?;
        if host == here {
            Some(GameId::Here(room))
        } else if crate::cluster::valid_host_name(host) {
            Some(GameId::There(host.to_string(), room))
        } else {
            None
        }
    }
}

/// Starts following a game on another host: the inbox its table's
/// states come to (see [`crate::cluster::Cluster::watch_for_web`]).
pub type Elsewhere = Box<
    dyn Fn(
            String,
            u64,
        ) -> std::pin::Pin<
            Box<dyn Future<Output = Option<crate::mailbox::Receiver<ToSession>>> + Send>,
        > + Send
        + Sync,
>;

/// The games followed from the web on this host.
pub struct Live {
    lobby: LobbyHandle,
    /// Cluster mode: games on other hosts.
    elsewhere: Option<Elsewhere>,
    feeds: tokio::sync::Mutex<HashMap<GameId, Weak<Feed>>>,
    streams: AtomicUsize,
    pub max_per_game: usize,
    pub max_total: usize,
}

/// One followed game: its latest event, and its viewers.
pub struct Feed {
    pub events: watch::Receiver<Arc<Event>>,
    /// The table's state as last published.
    pub state: watch::Receiver<Arc<RoomState>>,
    viewers: AtomicUsize,
    stop: CancellationToken,
}

impl Drop for Feed {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

/// Why a game cannot be followed.
#[derive(Debug, PartialEq, Eq)]
pub enum NotLive {
    /// No game in play here has this number (or it is private).
    Unknown,
    /// The game has all the web viewers it may have, or the host has.
    Full,
}

/// A place among a game's viewers (and the host's), freed when dropped.
pub struct Viewer {
    pub feed: Arc<Feed>,
    live: Arc<Live>,
}

impl Drop for Viewer {
    fn drop(&mut self) {
        self.feed.viewers.fetch_sub(1, Ordering::AcqRel);
        self.live.streams.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Live {
    pub fn new(
        lobby: LobbyHandle,
        elsewhere: Option<Elsewhere>,
        max_per_game: usize,
        max_total: usize,
    ) -> Arc<Live> {
        Arc::new(Live {
            lobby,
            elsewhere,
            feeds: tokio::sync::Mutex::new(HashMap::new()),
            streams: AtomicUsize::new(0),
            max_per_game,
            max_total,
        })
    }

    /// The game's feed (started for the first viewer), without a place
    /// among its viewers: for the page itself.
    pub async fn feed(
        &self,
        game: &GameId,
        make: impl Fn(&RoomState) -> Arc<Event> + Send + 'static,
    ) -> Result<Arc<Feed>, NotLive> {
        // The lock is not held while a table is asked: one slow table
        // keeps no other game from being followed.
        if let Some(f) = self.feeds.lock().await.get(game).and_then(Weak::upgrade) {
            return Ok(f);
        }
        // Our watcher's id at the table, and the inbox the table lets us
        // in on.
        let (ghost, mut inbox) = match game {
            GameId::Here(room) => {
                let (_, ghost, inbox) = self
                    .lobby
                    .watch_for_visitor(*room)
                    .await
                    .map_err(|_| NotLive::Unknown)?;
                (ghost, inbox)
            }
            GameId::There(host, room) => {
                let ask = self.elsewhere.as_ref().ok_or(NotLive::Unknown)?;
                // A watcher's id at a table elsewhere is its host's business.
                (0, ask(host.clone(), *room).await.ok_or(NotLive::Unknown)?)
            }
        };
        let link = match tokio::time::timeout(ASK_WAIT, inbox.recv()).await {
            Ok(Some(ToSession::Watching(link))) => link,
            _ => return Err(NotLive::Unknown),
        };
        // What the table is left by.
        let handle = link.room.clone();
        let mut state = link.state;
        let first = make(&state.borrow_and_update());
        let (tx, rx) = watch::channel(first);
        let stop = CancellationToken::new();
        let feed = Arc::new(Feed {
            events: rx,
            state: state.clone(),
            viewers: AtomicUsize::new(0),
            stop: stop.clone(),
        });
        {
            let mut feeds = self.feeds.lock().await;
            feeds.retain(|_, f| f.strong_count() > 0);
            if let Some(other) = feeds.get(game).and_then(Weak::upgrade) {
                // Another viewer's feed got there first: theirs is used,
                // and this watcher place is given back.
                drop(feeds);
                let _ = handle.send(RoomCmd::Unwatch { id: ghost }).await;
                return Ok(other);
            }
            feeds.insert(game.clone(), Arc::downgrade(&feed));
        }
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = stop.cancelled() => break,
                    changed = state.changed() => {
                        if changed.is_err() {
                            break; // the table is gone
                        }
                        let event = make(&state.borrow_and_update());
                        tx.send_replace(event);
                    }
                }
            }
            let _ = handle.send(RoomCmd::Unwatch { id: ghost }).await;
        });
        Ok(feed)
    }

    /// A place to follow the game's events.
    pub async fn view(
        self: &Arc<Self>,
        game: &GameId,
        make: impl Fn(&RoomState) -> Arc<Event> + Send + 'static,
    ) -> Result<Viewer, NotLive> {
        let feed = self.feed(game, make).await?;
        if feed.viewers.fetch_add(1, Ordering::AcqRel) >= self.max_per_game {
            feed.viewers.fetch_sub(1, Ordering::AcqRel);
            return Err(NotLive::Full);
        }
        if self.streams.fetch_add(1, Ordering::AcqRel) >= self.max_total {
            self.streams.fetch_sub(1, Ordering::AcqRel);
            feed.viewers.fetch_sub(1, Ordering::AcqRel);
            return Err(NotLive::Full);
        }
        Ok(Viewer {
            feed,
            live: Arc::clone(self),
        })
    }
}
