//! inarow: a host for "k in a row" board games (Connect Four, Gomoku) played
//! in the terminal, locally (`inarow play`) or remotely over SSH and telnet.
//!
//! # Architecture
//!
//! Dependencies point inward. The pure core ([`game`], [`engine`],
//! [`table`], [`clock`], [`text`], [`rng`]) is the crate `inarow-core`
//! (crates/core), re-exported here under the same names:
//!
//! * [`game`]: pure rules, boards, notation and outcomes. No IO, no async.
//! * [`engine`]: pure, synchronous computer players (position + limits + stop
//!   flag -> move). No IO, no async.
//! * [`term`]: bytes -> keys (our own decoder, usable on socket bytes) and
//!   screens -> ANSI bytes (themes, line-diffed redraw).
//! * [`table`]: the authoritative board of one game and its seats (pure).
//! * [`protocol`]: the messages that cross a boundary (a seat's commands,
//!   from the key press to the table on any host), and the wire version.
//! * [`local`]: the local game driver (session requests -> table moves and
//!   the computer's answers), for `inarow play` and the tests.
//! * [`session`]: one person's screens as a state machine (bytes and events
//!   in, bytes and requests out), shared by every front end.
//! * [`text`]: the one sanitiser every user-supplied string goes through.
//! * [`presence`], [`room_code`], [`rng`]: small shared vocabulary (who is
//!   around, room codes, random generators), pure.
//! * [`lobby`]: the lobby core (pure: matchmaking, names, codes) and the
//!   tasks that carry out its decisions (the lobby actor, one task per
//!   room, the computer's blocking pool).
//! * [`server`]: listeners, admission, the SSH and telnet transports, one
//!   task per connection with its bounded outbox.
//! * [`store`]: accounts, ratings and game records in SQLite or PostgreSQL,
//!   with the writer task and its journal.
//! * [`clock`]: game clocks (base time and increment), pure.
//! * [`config`]: the TOML file, read once and validated.
//! * [`cli`]: the subcommands (`play`, `serve`, `keygen`, `solve`, `bench`,
//!   `book`, `pbrain`).
#![forbid(unsafe_code)]

pub mod analyst;
pub mod cli;
pub mod cluster;
pub mod config;
pub mod lang;
pub mod limit;
pub(crate) mod lobby;
pub mod local;
pub mod mailbox;
pub mod metrics;
pub(crate) mod presence;
pub mod protocol;
pub mod records;
pub(crate) mod room_code;
pub mod server;
pub mod session;
pub mod store;
pub mod term;
pub mod web;

// The pure core, a crate of its own (crates/core): the same paths as
// before (`crate::game`, `inarow::engine`, ...).
pub use inarow_core::{analysis, clock, engine, game, puzzle, rng, table, text};
