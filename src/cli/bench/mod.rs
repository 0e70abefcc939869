//! `inarow bench ...`: benchmark commands that print figures.

use std::process::ExitCode;

use clap::Subcommand;

pub mod analysis;
pub mod cluster;
pub mod connect4;
pub mod failover;
pub mod gomoku;
pub mod http;
pub mod players;
pub mod server;
pub mod store;

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Play Connect Four games between the computer's easy and medium levels and report how much of them the analysis settles exactly, and how fast.
    Analysis(analysis::BenchAnalysisArgs),
    /// Score the Connect Four reference positions and report speed.
    Connect4(connect4::BenchConnect4Args),
    /// Search fixed Gomoku positions; the node count is a regression signature.
    Gomoku(gomoku::BenchGomokuArgs),
    /// Open many real SSH sessions against a host and report throughput, memory and latency.
    Server(server::BenchServerArgs),
    /// Start several hosts in cluster mode and time games whose players sit on different hosts.
    Cluster(cluster::BenchClusterArgs),
    /// Inject faults into a cluster of hosts (kill, restart, pause) mid-game and check no game is lost.
    Failover(failover::BenchFailoverArgs),
    /// Write game records and time leaderboard and profile queries on a store.
    Store(store::BenchStoreArgs),
    /// Ask a host for its web pages with many clients, and follow a game in play with many event streams.
    Http(http::BenchHttpArgs),
}

/// How long the players of `bench server` and `bench cluster` play, and
/// how fast.
#[derive(Debug, clap::Args)]
pub struct PaceArgs {
    /// How long the games run.
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
    /// Mean time between a player's turn and its move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub think_ms: u64,
}

pub fn run(cmd: BenchCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        BenchCommand::Analysis(args) => analysis::run(args),
        BenchCommand::Connect4(args) => connect4::run(args),
        BenchCommand::Gomoku(args) => gomoku::run(args),
        BenchCommand::Server(args) => server::run(args),
        BenchCommand::Store(args) => store::run(args),
        BenchCommand::Cluster(args) => cluster::run(args),
        BenchCommand::Failover(args) => failover::run(args),
        BenchCommand::Http(args) => http::run(args),
    }
}
