//! The messages that cross a boundary, in one place: what a person asks of
//! their table, and the shapes the lobby, the sessions and the other hosts
//! of a cluster share.
//!
//! * Session -> connection -> room -> (NATS) -> the table's host:
//!   [`SeatCmd`], one type all the way (the session's
//!   [`crate::session::Request::Seat`], the room's
//!   [`crate::lobby::room::RoomCmd::Seat`], the wire's
//!   [`crate::cluster::wire::WireCmd::Seat`]), JSON on the wire.
//! * Room -> session: [`crate::lobby::ToSession`]; across hosts the table's
//!   state as [`crate::cluster::wire::WireState`] and the seat's notices
//!   as [`crate::cluster::wire::ToVisitor`].
//! * Host <-> host (NATS): the asks and answers of `cluster/wire.rs`, under
//!   [`WIRE_VERSION`], which every host announces: hosts of another
//!   version are not paired with for cross-host play.

pub mod invite;
pub mod refusal;
pub mod seat;
pub mod summary;

pub use invite::Invitation;
pub use refusal::Refusal;
pub use seat::{LeaveReason, SeatCmd};
pub use summary::{Doing, GameSummary, Person};

/// The version of what hosts of a cluster say to each other (the encoding
/// of every message in `cluster/wire.rs` and of [`SeatCmd`]). Bumped when
/// it changes: a host does not seat its people at tables of a host of
/// another version (they would disagree on move acks and resume codes).
///
/// 2: seat commands cross as [`SeatCmd`]; refusals are typed.
pub const WIRE_VERSION: u32 = 2;
