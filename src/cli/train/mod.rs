//! `inarow train ...`: making the data the engines ship with.
//!
//! `inarow train gomoku-games` plays the Gomoku engine against itself from
//! seeded random openings, by node count (so the same command plays the
//! same games on any machine), and writes one game per line.
//! `inarow train gomoku-eval` replays such games, takes the quiet positions
//! and fits the evaluation's pattern weights to the games' outcomes (a
//! regularised logistic regression), and writes the weight file the engine
//! embeds (`src/engine/gomoku/eval-weights.txt`).
//! `inarow train gomoku-order` replays the same games and fits the move
//! ordering's shape weights to the moves their searches chose (a softmax
//! over each position's candidates), and writes
//! `src/engine/gomoku/order-weights.txt`.

use std::process::ExitCode;

use clap::Subcommand;

pub mod gomoku_eval;
pub mod gomoku_games;
pub mod gomoku_order;

#[derive(Debug, Subcommand)]
pub enum TrainCommand {
    /// Play the Gomoku engine against itself and write the games (one per line).
    GomokuGames(gomoku_games::Args),
    /// Fit the Gomoku evaluation's weights to the outcomes of such games.
    GomokuEval(gomoku_eval::Args),
    /// Fit the Gomoku move ordering's weights to the moves of such games.
    GomokuOrder(gomoku_order::Args),
}

pub fn run(cmd: TrainCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        TrainCommand::GomokuGames(args) => gomoku_games::run(args),
        TrainCommand::GomokuEval(args) => gomoku_eval::run(args),
        TrainCommand::GomokuOrder(args) => gomoku_order::run(args),
    }
}
