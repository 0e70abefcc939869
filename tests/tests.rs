//! The single integration-test binary; each area has its own module.

mod accounts;
mod analysis;
mod architecture;
mod browser;
mod cli_play;
mod cluster;
mod cluster_openssh;
mod computer;
mod connect4_engine;
mod gomoku_engine;
mod languages;
mod live;
mod operators;
mod properties;
mod puzzles;
mod rules;
mod screens;
mod screens_ssh;
mod session;
mod ssh;
mod store;
mod swap2;
mod telnet;
mod util;
mod web;
