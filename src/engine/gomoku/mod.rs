//! The strong Gomoku engine.
