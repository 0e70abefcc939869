//! The single integration-test binary; each area has its own module.

mod connect4_engine;
mod gomoku_engine;
mod util;
