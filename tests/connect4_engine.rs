//! Connect Four solver, book and `inarow solve` / `bench connect4` tests.
