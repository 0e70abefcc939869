//! What the host counts for operators, exposed at `/metrics` in the
//! Prometheus text format (OpenMetrics) by [`crate::server::http`].
//!
//! Counters and histograms are updated where things happen (a move, a
//! pairing, a refused connection); gauges that mirror a length somewhere
//! else (queues, the journal) are read when scraped. One value per host,
//! shared by reference; no global registry. Labels carry only fixed words
//! (`ssh`, `connect4`, `full`), never anything a person typed.

use std::sync::Arc;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use crate::game::GameKind;

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
        Metrics {
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
}
