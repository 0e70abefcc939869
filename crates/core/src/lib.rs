//! inarow's pure core: the rules of the k-in-a-row games, the computer
//! players, the authoritative table of one game, game clocks and the text
//! sanitiser. It does no IO and knows no async runtime: its dependencies
//! are pure (no tokio, russh or sqlx), so a wrong import fails to compile.
//! The `inarow` crate re-exports these modules under the same names.
//!
//! * [`game`]: pure rules, boards, notation and outcomes.
//! * [`engine`]: synchronous computer players (position + limits + stop
//!   flag -> move).
//! * [`table`]: the authoritative board of one game and its seats.
//! * [`clock`]: game clocks (base time and increment); the caller passes
//!   the time in.
//! * [`text`]: the one sanitiser every user-supplied string goes through.
//! * [`rng`]: the one factory of random generators (seeded for tests).
#![forbid(unsafe_code)]

pub mod analysis;
pub mod clock;
pub mod engine;
pub mod game;
pub mod puzzle;
pub mod rng;
pub mod table;
pub mod text;
