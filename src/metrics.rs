//! What the host counts for operators, exposed at `/metrics` in the
//! Prometheus text format (OpenMetrics) by [`crate::server::http`].
//!
//! Counters and histograms are updated where things happen (a move, a
//! pairing, a refused connection); gauges that mirror a length somewhere
//! else (queues, the journal) are read when scraped. One value per host,
//! shared by reference; no global registry. Labels carry only fixed words
//! (`ssh`, `connect4`, `full`), never anything a person typed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use crate::game::GameKind;
use crate::limit::{Keyed, Rate};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct TransportLabel {
    pub transport: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct GameLabel {
    pub game: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ReasonLabel {
    pub reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct WhatLabel {
    pub what: &'static str,
}

/// The label word of a game.
pub fn game_label(kind: GameKind) -> GameLabel {
    GameLabel { game: kind.id() }
}

/// Why a connection was refused, as a label.
pub mod refusal {
    /// `limits.max_sessions` reached.
    pub const FULL: &str = "full";
    /// `limits.max_per_ip` reached.
    pub const PER_ADDRESS: &str = "per_address";
    /// Behind a balancer: no valid PROXY header in time.
    pub const PROXY_HEADER: &str = "proxy_header";
    /// Behind a balancer: too many headers being read at once.
    pub const PROXY_PENDING: &str = "proxy_pending";
}

/// What was dropped (given up, not retried), as a label of
/// `inarow_dropped_total`. See [`Metrics::dropped`].
pub mod dropped {
    /// A finished game neither stored nor kept in the journal: lost.
    pub const GAME_RECORD: &str = "game_record";
    /// Another write to the store not made (a setting, say).
    pub const STORE_WRITE: &str = "store_write";
    /// Cluster mode: a message not published to NATS.
    pub const NATS_PUBLISH: &str = "nats_publish";

    /// Every label, shown at 0 before anything is dropped.
    pub const ALL: [&str; 3] = [GAME_RECORD, STORE_WRITE, NATS_PUBLISH];
}

/// Log lines about drops, per kind: ten at once, then one every six
/// seconds; the rest are counted and said in the next line.
const DROP_LOG_BURST: u32 = 10;
const DROP_LOG_RATE: (u32, Duration) = (1, Duration::from_secs(6));

/// The host's metrics.
pub struct Metrics {
    registry: Registry,
    /// Sessions connected now, by transport.
    pub sessions: Family<TransportLabel, Gauge>,
    /// Games being played now (not yet over), by game.
    pub games_in_play: Family<GameLabel, Gauge>,
    /// Moves played, by game (people's and the computer's): Connect
    /// Four's and Gomoku's counters, held so a move takes no lock.
    moves: [Counter; 3],
    /// From a person's move reaching the host to the room having applied
    /// it and published the new position.
    pub move_latency: Histogram,
    /// How long quick-match seekers waited before being paired with a person.
    pub quick_match_wait: Histogram,
    /// Connections refused, by reason.
    pub refused: Family<ReasonLabel, Counter>,
    /// Computer searches waiting for a turn.
    pub computer_waiting: Gauge,
    /// Computer searches running.
    pub computer_running: Gauge,
    /// Finished games waiting in the writer's queue.
    pub store_queue: Gauge,
    /// Finished games waiting in the journal for the store.
    pub journal_games: Gauge,
    /// Cluster mode: the round trip to NATS (a PING answered).
    pub nats_round_trip: Histogram,
    /// Cluster mode: live hosts, this one included.
    pub cluster_hosts: Gauge,
    /// Messages and writes given up, by what they were ([`dropped`]).
    dropped: Family<WhatLabel, Counter>,
    /// How often drops are logged, and the lines held back since the last.
    drop_log: Mutex<DropLog>,
}

struct DropLog {
    limit: Keyed<&'static str>,
    held_back: HashMap<&'static str, u64>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("inarow");
        let sessions = Family::<TransportLabel, Gauge>::default();
        let games_in_play = Family::<GameLabel, Gauge>::default();
        let moves_family = Family::<GameLabel, Counter>::default();
        let moves = GameKind::ALL.map(|kind| moves_family.get_or_create(&game_label(kind)).clone());
        // 50 µs .. about 0.8 s.
        let move_latency = Histogram::new(exponential_buckets(0.000_05, 2.0, 15));
        // 0.1 s .. about 14 min.
        let quick_match_wait = Histogram::new(exponential_buckets(0.1, 2.0, 14));
        let refused = Family::<ReasonLabel, Counter>::default();
        let computer_waiting = Gauge::default();
        let computer_running = Gauge::default();
        let store_queue = Gauge::default();
        let journal_games = Gauge::default();
        // 50 µs .. about 1.6 s.
        let nats_round_trip = Histogram::new(exponential_buckets(0.000_05, 2.0, 16));
        let cluster_hosts = Gauge::default();
        let dropped = Family::<WhatLabel, Counter>::default();
        for what in dropped::ALL {
            let _ = dropped.get_or_create(&WhatLabel { what });
        }
        // The labels that exist before anything happens, shown at 0
        // (`get_or_create` only makes them here).
        for transport in ["ssh", "telnet"] {
            let _ = sessions.get_or_create(&TransportLabel { transport });
        }
        for kind in GameKind::ALL {
            let _ = games_in_play.get_or_create(&game_label(kind));
        }
        for reason in [
            refusal::FULL,
            refusal::PER_ADDRESS,
            refusal::PROXY_HEADER,
            refusal::PROXY_PENDING,
        ] {
            let _ = refused.get_or_create(&ReasonLabel { reason });
        }
        registry.register("sessions", "Sessions connected now", sessions.clone());
        registry.register(
            "games_in_play",
            "Games being played now (not yet over)",
            games_in_play.clone(),
        );
        registry.register("moves", "Moves played", moves_family);
        registry.register(
            "move_latency_seconds",
            "From a person's move reaching the host to the new position published",
            move_latency.clone(),
        );
        registry.register(
            "quick_match_wait_seconds",
            "How long quick-match seekers waited before being paired with a person",
            quick_match_wait.clone(),
        );
        registry.register(
            "connections_refused",
            "Connections refused, by reason",
            refused.clone(),
        );
        registry.register(
            "computer_searches_waiting",
            "Computer searches waiting for a turn",
            computer_waiting.clone(),
        );
        registry.register(
            "computer_searches_running",
            "Computer searches running",
            computer_running.clone(),
        );
        registry.register(
            "store_queue_games",
            "Finished games waiting in the store writer's queue",
            store_queue.clone(),
        );
        registry.register(
            "store_journal_games",
            "Finished games waiting in the journal for the store",
            journal_games.clone(),
        );
        registry.register(
            "nats_round_trip_seconds",
            "Cluster mode: the round trip to NATS",
            nats_round_trip.clone(),
        );
        registry.register(
            "cluster_hosts",
            "Cluster mode: live hosts, this one included",
            cluster_hosts.clone(),
        );
        registry.register(
            "dropped",
            "Messages and writes given up (not retried), by what they were",
            dropped.clone(),
        );
        let (per, every) = DROP_LOG_RATE;
        let drop_log = Mutex::new(DropLog {
            limit: Keyed::new(Rate::new(per, every), DROP_LOG_BURST, 64),
            held_back: HashMap::new(),
        });
        Metrics {
            dropped,
            drop_log,
            nats_round_trip,
            cluster_hosts,
            registry,
            sessions,
            games_in_play,
            moves,
            move_latency,
            quick_match_wait,
            refused,
            computer_waiting,
            computer_running,
            store_queue,
            journal_games,
        }
    }

    /// The text a scrape gets.
    pub fn encode(&self) -> String {
        let mut body = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut body, &self.registry);
        body
    }

    /// Something given up for good: a message not sent, a write not
    /// made. Counted in `inarow_dropped_total{what}` and logged, at most
    /// ten lines at once and one every six seconds per kind (a storm does
    /// not flood the log; the next line says how many were held back). A
    /// lost game is logged as an error, anything else as a warning.
    /// `what` is one of [`dropped`]; `detail` says which and why.
    pub fn dropped(&self, what: &'static str, detail: impl std::fmt::Display) {
        self.dropped.get_or_create(&WhatLabel { what }).inc();
        let Some(held_back) = self.drop_log_line(what, Instant::now()) else {
            return;
        };
        if what == dropped::GAME_RECORD {
            tracing::error!(what, held_back, "dropped: {detail}");
        } else {
            tracing::warn!(what, held_back, "dropped: {detail}");
        }
    }

    /// Whether a drop of `what` at `now` gets a log line, and if so how
    /// many were held back before it.
    fn drop_log_line(&self, what: &'static str, now: Instant) -> Option<u64> {
        let mut log = self.drop_log.lock().unwrap_or_else(|e| e.into_inner());
        if log.limit.allow(&what, now) {
            Some(log.held_back.remove(what).unwrap_or(0))
        } else {
            *log.held_back.entry(what).or_insert(0) += 1;
            None
        }
    }

    pub fn refused(&self, reason: &'static str) {
        self.refused.get_or_create(&ReasonLabel { reason }).inc();
    }

    pub fn observe_move(&self, kind: GameKind, latency: Option<Duration>) {
        self.moves[GameKind::ALL.iter().position(|k| *k == kind).unwrap_or(0)].inc();
        if let Some(d) = latency {
            self.move_latency.observe(d.as_secs_f64());
        }
    }

    /// Counts one session of `transport` until the guard drops.
    pub fn session(self: &Arc<Self>, transport: &'static str) -> GaugeGuard {
        GaugeGuard::new(
            self.sessions
                .get_or_create(&TransportLabel { transport })
                .clone(),
        )
    }

    /// Counts one game of `kind` in play until the guard drops.
    pub fn game_in_play(&self, kind: GameKind) -> GaugeGuard {
        GaugeGuard::new(self.games_in_play.get_or_create(&game_label(kind)).clone())
    }
}

/// One unit of a gauge, held: incremented when made, decremented when dropped.
#[derive(Debug)]
pub struct GaugeGuard(Gauge);

impl GaugeGuard {
    pub fn new(gauge: Gauge) -> GaugeGuard {
        gauge.inc();
        GaugeGuard(gauge)
    }
}

impl Drop for GaugeGuard {
    fn drop(&mut self) {
        self.0.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guards_count_while_held_and_the_text_names_every_metric() {
        let m = Arc::new(Metrics::new());
        let a = m.session("ssh");
        let b = m.session("ssh");
        let g = m.game_in_play(GameKind::Gomoku);
        m.observe_move(GameKind::Gomoku, Some(Duration::from_micros(300)));
        m.refused(refusal::PER_ADDRESS);
        let text = m.encode();
        assert!(
            text.contains("inarow_sessions{transport=\"ssh\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("inarow_sessions{transport=\"telnet\"} 0\n"),
            "{text}"
        );
        assert!(
            text.contains("inarow_games_in_play{game=\"gomoku\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("inarow_moves_total{game=\"gomoku\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("inarow_move_latency_seconds_count 1\n"),
            "{text}"
        );
        assert!(
            text.contains("inarow_connections_refused_total{reason=\"per_address\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("inarow_dropped_total{what=\"nats_publish\"} 0\n"),
            "{text}"
        );
        assert!(text.ends_with("# EOF\n"), "{text}");
        drop((a, b, g));
        let text = m.encode();
        assert!(
            text.contains("inarow_sessions{transport=\"ssh\"} 0\n"),
            "{text}"
        );
        assert!(
            text.contains("inarow_games_in_play{game=\"gomoku\"} 0\n"),
            "{text}"
        );
    }

    #[test]
    fn drops_are_counted_by_what_and_a_storm_is_logged_sparingly() {
        let m = Metrics::new();
        m.dropped(dropped::STORE_WRITE, "stones setting: store unreachable");
        m.dropped(dropped::STORE_WRITE, "stones setting: store unreachable");
        m.dropped(dropped::NATS_PUBLISH, "state of room 7: timed out");
        let text = m.encode();
        assert!(
            text.contains("inarow_dropped_total{what=\"store_write\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("inarow_dropped_total{what=\"nats_publish\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("inarow_dropped_total{what=\"game_record\"} 0\n"),
            "{text}"
        );
        // A storm: the first lines, then one every six seconds, saying how
        // many were held back meanwhile; each kind on its own allowance.
        let m = Metrics::new();
        let t = Instant::now();
        let lines: Vec<u64> = (0..100)
            .filter_map(|_| m.drop_log_line(dropped::GAME_RECORD, t))
            .collect();
        assert_eq!(lines, vec![0; DROP_LOG_BURST as usize]);
        assert_eq!(m.drop_log_line(dropped::STORE_WRITE, t), Some(0));
        assert_eq!(
            m.drop_log_line(dropped::GAME_RECORD, t + Duration::from_secs(1)),
            None
        );
        assert_eq!(
            m.drop_log_line(dropped::GAME_RECORD, t + Duration::from_secs(6)),
            Some(91)
        );
        assert_eq!(
            m.drop_log_line(dropped::GAME_RECORD, t + Duration::from_secs(12)),
            Some(0)
        );
    }
}
