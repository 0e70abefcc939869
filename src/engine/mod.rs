//! Computer players. Pure and synchronous: a position, limits and a stop
//! flag go in, a move comes out. No IO, no async; servers call into this
//! module from a blocking pool.

pub mod connect4;
pub mod gomoku;
