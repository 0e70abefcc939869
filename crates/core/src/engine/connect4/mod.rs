//! The perfect Connect Four player for the standard 7x6 board: an exact
//! solver, its opening book, and the computer levels built on them.
//!
//! * [`position`]: the bitboard position and move-string parsing.
//! * [`table`]: the transposition table.
//! * [`solver`]: the exact (and weak) solver.
//! * [`book`]: the opening book (format and lookups).
//! * [`builder`]: computing book entries by search (`inarow book build`).
//! * [`player`]: the perfect and hard computer levels.

pub mod book;
pub mod builder;
pub mod player;
pub mod position;
pub mod solver;
pub mod table;

pub use book::{Book, BookEntry, BookError};
pub use player::{C4Level, C4Player};
pub use position::{C4IllegalMoveError, C4Position, CELLS, HEIGHT, ParseMovesError, WIDTH};
pub use solver::{Cutoff, Solver};
pub use table::TransTable;
