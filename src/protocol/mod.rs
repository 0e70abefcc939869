//! The messages that cross a boundary, in one place: what a person asks of
//! their table, and the shapes the lobby, the screens and the other hosts
//! of a cluster share. Each type's encoding is beside it (serde, JSON on
//! NATS).
//!
//! * Key press -> session -> connection -> room -> (NATS) -> the table's
//!   host: [`SeatCmd`], one type all the way (the session's
//!   [`crate::session::Request::Seat`], the room's `RoomCmd::Seat`, the
//!   wire's [`crate::cluster::wire::WireCmd::Seat`]).
//! * Lobby -> session, lobby <-> lobby on another host: [`Invitation`],
//!   [`GameSummary`] (the games to watch), [`Person`] (who is online;
//!   also what a host announces of its people in NATS).
//! * A host's answer to another host's request (join a room, an
//!   invitation, watch, a seat taken back): yes, or a [`Refusal`], whose
//!   words are made where it is shown.
//! * Room -> session: `lobby::ToSession` (it carries channels, so it
//!   stays with the lobby), its published state carrying a [`RenderSlot`]
//!   the sessions showing it share their drawing through; across hosts the table's state as
//!   [`crate::cluster::wire::WireState`] and the seat's notices as
//!   [`crate::cluster::wire::ToVisitor`].
//! * Host <-> host: everything in `cluster/wire.rs` and here, under
//!   [`WIRE_VERSION`], which every host announces: hosts of another
//!   version are not played with.

pub mod invite;
pub mod news;
pub mod refusal;
pub mod seat;
pub mod slot;
pub mod summary;

pub use invite::{Challenge, Invitation, JoinTo};
pub use news::News;
pub use refusal::Refusal;
pub use seat::{LeaveReason, SeatCmd, Seating};
pub use slot::RenderSlot;
pub use summary::{Doing, GameSummary, Person};

/// The version of what hosts of a cluster say to each other (the encoding
/// of every message in `cluster/wire.rs` and of [`SeatCmd`]). Bumped when
/// it changes: a host does not seat its people at tables of a host of
/// another version (they would disagree on move acks and resume codes).
///
/// 3: seat commands cross as [`SeatCmd`]; refusals are typed, also those
/// of a seat's command ([`crate::cluster::wire::ToVisitor::Rejected`]).
/// 4: what a host tells a visitor crosses as data ([`News`],
/// `ToVisitor::Told` and `Refused`), a table's refusals as
/// [`crate::table::TableError`] ([`Refusal::Table`]), and game summaries
/// carry their facts: every person reads them in their own language.
pub const WIRE_VERSION: u32 = 4;
