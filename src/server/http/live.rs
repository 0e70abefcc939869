//! Games in play on the web: `/live/ID` and its server-sent events at
//! `/live/ID/events`. A game followed from the web is watched once per
//! host (one watcher seat at its table, as a watcher on another host
//! has): its states are made into one event each, shared by every
//! browser that follows it. Bounded: `[http] max_live_viewers` streams a
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
    pub json: String,
    pub done: bool,
}

/// The games followed from the web on this host.
pub struct Live {
    lobby: LobbyHandle,
    feeds: tokio::sync::Mutex<HashMap<RoomId, Weak<Feed>>>,
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
    pub fn new(lobby: LobbyHandle, max_per_game: usize, max_total: usize) -> Arc<Live> {
        Arc::new(Live {
            lobby,
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
        room: RoomId,
        make: impl Fn(&RoomState) -> Arc<Event> + Send + 'static,
    ) -> Result<Arc<Feed>, NotLive> {
        // The lock is not held while a table is asked: one slow table
        // keeps no other game from being followed.
        if let Some(f) = self.feeds.lock().await.get(&room).and_then(Weak::upgrade) {
            return Ok(f);
        }
        let (handle, ghost, mut inbox) = self
            .lobby
            .watch_for_visitor(room)
            .await
            .map_err(|_| NotLive::Unknown)?;
        let link = match tokio::time::timeout(ASK_WAIT, inbox.recv()).await {
            Ok(Some(ToSession::Watching(link))) => link,
            _ => return Err(NotLive::Unknown),
        };
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
            if let Some(other) = feeds.get(&room).and_then(Weak::upgrade) {
                // Another viewer's feed got there first: theirs is used,
                // and this watcher place is given back.
                drop(feeds);
                let _ = handle.send(RoomCmd::Unwatch { id: ghost }).await;
                return Ok(other);
            }
            feeds.insert(room, Arc::downgrade(&feed));
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
        room: RoomId,
        make: impl Fn(&RoomState) -> Arc<Event> + Send + 'static,
    ) -> Result<Viewer, NotLive> {
        let feed = self.feed(room, make).await?;
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
