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

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Subcommand;

use crate::engine::gomoku::Rule;
use crate::engine::gomoku::board::{Board, Pos};

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

/// A move of a games file: `x,y`, or `x,y:S` with the search's score.
fn parse_move(mv: &str) -> Option<(usize, usize, Option<i32>)> {
    let (xy, score) = match mv.split_once(':') {
        Some((xy, s)) => (xy, Some(s.parse::<i32>().ok()?)),
        None => (mv, None),
    };
    let (x, y) = xy.split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?, score))
}

/// Replays every game of the files (as `gomoku-games` writes them, on a
/// freestyle 15x15 board) and calls `per_move` with the board before each
/// move, the move, its score if the file has one, and the game's result
/// (0 a draw, 1 the first player won, 2 the second). Returns what it gave,
/// game by game. A bad result, a move that does not parse or an illegal
/// move is an error naming its file and line.
fn replay<T>(
    paths: &[PathBuf],
    mut per_move: impl FnMut(&Board, Pos, Option<i32>, u8) -> Option<T>,
) -> anyhow::Result<Vec<Vec<T>>> {
    let mut games = Vec::new();
    for path in paths {
        let f =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        for (n, line) in BufReader::new(f).lines().enumerate() {
            let line = line?;
            let mut fields = line.split_whitespace();
            let Some(result) = fields.next() else {
                continue;
            };
            let result: u8 = match result {
                "0" | "1" | "2" => result.parse()?,
                _ => bail!("{}:{}: the result must be 0, 1 or 2", path.display(), n + 1),
            };
            let mut b = Board::new(15, 15, Rule::Freestyle);
            let mut out = Vec::new();
            for mv in fields {
                let (x, y, score) = parse_move(mv)
                    .with_context(|| format!("{}:{}: bad move {mv:?}", path.display(), n + 1))?;
                let Some(p) = b.pos(x, y).filter(|&p| b.is_empty(p)) else {
                    bail!("{}:{}: illegal move {mv}", path.display(), n + 1);
                };
                out.extend(per_move(&b, p, score, result));
                b.play(p);
            }
            games.push(out);
        }
    }
    Ok(games)
}

/// The examples of every tenth game (the 10th, 20th, ...) held out, the
/// rest to fit: (to fit, held out). Refuses inputs too small to give
/// both, and prints how many there are of each (`started`: when the
/// reading began).
fn hold_out<T>(
    per_game: Vec<Vec<T>>,
    started: std::time::Instant,
) -> anyhow::Result<(Vec<T>, Vec<T>)> {
    let games = per_game.len();
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    for (n, examples) in per_game.into_iter().enumerate() {
        if n % 10 == 9 {
            held.extend(examples);
        } else {
            fit.extend(examples);
        }
    }
    if fit.is_empty() || held.is_empty() {
        bail!("too few games ({games}) to fit and check");
    }
    outln!(
        "{games} games: {} positions to fit, {} held out ({:.1} s)",
        fit.len(),
        held.len(),
        started.elapsed().as_secs_f64()
    );
    Ok((fit, held))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_with_or_without_a_score() {
        assert_eq!(parse_move("7,8"), Some((7, 8, None)));
        assert_eq!(parse_move("7,8:-350"), Some((7, 8, Some(-350))));
        assert_eq!(parse_move("14,0:29999"), Some((14, 0, Some(29999))));
        for bad in ["7,8:", "7,8:x", "7;8", "7,8:1:2", ",8", "7,8,9"] {
            assert_eq!(parse_move(bad), None, "{bad}");
        }
    }

    #[test]
    fn games_are_replayed_move_by_move_and_bad_lines_are_refused() {
        let dir = std::env::temp_dir().join(format!("inarow-replay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(&good, "1 7,7 8,8:12 7,8\n\n2 7,7\n").unwrap();
        let seen = replay(std::slice::from_ref(&good), |b, p, score, result| {
            Some((b.stone_count(), b.xy(p), score, result))
        })
        .unwrap();
        assert_eq!(
            seen,
            vec![
                vec![
                    (0, (7, 7), None, 1),
                    (1, (8, 8), Some(12), 1),
                    (2, (7, 8), None, 1)
                ],
                vec![(0, (7, 7), None, 2)],
            ]
        );
        for (text, what) in [
            ("3 7,7\n", "result"),
            ("1 7,7 7,7\n", "illegal move 7,7"),
            ("1 7,7 99,0\n", "illegal move 99,0"),
            ("1 7;7\n", "bad move"),
        ] {
            let bad = dir.join("bad.txt");
            std::fs::write(&bad, text).unwrap();
            let err = replay(&[bad], |_, _, _, _| Some(()))
                .unwrap_err()
                .to_string();
            assert!(err.contains("bad.txt:1") && err.contains(what), "{err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
