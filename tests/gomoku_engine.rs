//! Gomoku engine and `inarow pbrain` tests.
