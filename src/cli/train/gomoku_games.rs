//! `inarow train gomoku-games`: self-play games for fitting the evaluation.
//!
//! Each game starts from a random opening of 3 to 6 stones within three
//! points of the centre (alternating colours, no stone making an open
//! three), then level 7 (the full engine, bounded by nodes: at most
//! `--nodes`, and never more than level 7's own limit) plays both sides
//! with no time limit, so a seed always gives the same games. With
//! `--level 8` the full engine plays instead, bounded by `--nodes` alone.
//! Output, one game per line: the result (`1` first player won, `2` second
//! player won, `0` draw) and the moves as `x,y` from 0, first player first;
//! with `--scores`, each move the engine searched as `x,y:S`, S its
//! search's score for the side that played it, or with `--score-nodes N`
//! the score of a separate search of N nodes of that position.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, bail};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::cli::bench::gomoku::board_after;
use crate::engine::Limits;
use crate::engine::gomoku::board::Board;
use crate::engine::gomoku::learned::{self, Weights};
use crate::engine::gomoku::{GomokuLevel, GomokuPlayer, Rule, stones_from_moves};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// Nodes the engine searches per move.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Seed for the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// File to write (appended to, so a run can be split or resumed with another seed).
    #[arg(long)]
    pub out: PathBuf,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 32)]
    pub tt_mb: usize,
    /// The evaluation the engine plays with: `learned` (as it ships) or
    /// `hand` (the hand-set scores, as the games the shipped weights were
    /// fitted to were played).
    #[arg(long, default_value = "learned", value_parser = ["learned", "hand"])]
    pub eval: String,
    /// Play with the weights of this file (as `train gomoku-eval` writes
    /// them) instead of the shipped ones: a round of games played with the
    /// weights of the round before. Needs `--eval learned`.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Write each searched move with its search score for the side that
    /// played it, `x,y:S` (for `train gomoku-eval --score-weight`).
    #[arg(long)]
    pub scores: bool,
    /// The level that plays both sides: 7 (as the shipped weights' games
    /// were played: the hand-set move ordering, no static cut) or 8 (the
    /// full engine with its learned move ordering, bounded by `--nodes`
    /// alone: a round of games for refitting that ordering).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u8).range(7..=8))]
    pub level: u8,
    /// With `--scores`: score each position the fit can use (a quiet one,
    /// from `--score-from` stones on) by a separate, deeper search of the
    /// full engine with this many nodes instead of the game's own search.
    /// The games stay the same, move for move (the deeper search has its
    /// own tables); the targets look further ahead.
    #[arg(long, requires = "scores")]
    pub score_nodes: Option<u64>,
    /// With `--score-nodes`: positions with fewer stones keep no score
    /// (`train gomoku-eval` leaves them out by its `--skip`, 8 by default).
    #[arg(long, default_value_t = 8, requires = "score_nodes")]
    pub score_from: usize,
}

const SIZE: usize = 15;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    if args.score_nodes == Some(0) {
        bail!("--score-nodes must be at least 1");
    }
    let mut weights = Weights::shipped();
    if let Some(path) = &args.weights {
        if args.eval != "learned" {
            bail!("--weights needs --eval learned");
        }
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        weights = Weights::parse(&text)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
            .into();
    }
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .with_context(|| format!("cannot open {}", args.out.display()))?;
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let level = GomokuLevel::new(args.level).context("--level must be 7 or 8")?;
    let mut player = GomokuPlayer::new(SIZE, Rule::Freestyle, args.tt_mb);
    player.set_hand_eval(args.eval == "hand");
    player.set_weights(weights.clone());
    // The deeper search for the scores: its own tables, so that it does
    // not change the games (none without `--score-nodes`).
    let mut judge = args.score_nodes.map(|nodes| {
        let mut player = GomokuPlayer::new(SIZE, Rule::Freestyle, args.tt_mb);
        player.set_hand_eval(args.eval == "hand");
        player.set_weights(weights.clone());
        let deep = Limits {
            nodes: Some(nodes),
            ..Limits::unlimited()
        };
        (player, deep)
    });
    let mut judge_rng = SmallRng::seed_from_u64(args.seed ^ 0x005E_ED0F_5C0E);
    let mut judged = 0u64;
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let (mut first, mut second, mut draws) = (0u32, 0u32, 0u32);
    for game in 0..args.games {
        player.clear();
        if let Some((j, _)) = judge.as_mut() {
            j.clear();
        }
        let (mut board, mut moves) = board_after(SIZE, Rule::Freestyle, &opening(&mut rng));
        // Per move: the search's score, for the moves the engine chose.
        let mut scores: Vec<Option<i32>> = vec![None; moves.len()];
        let result = loop {
            if board.is_full() {
                break 0;
            }
            let limits = Limits {
                nodes: Some(args.nodes),
                ..Limits::unlimited()
            };
            let stones = stones_from_moves(&moves);
            let ((x, y), mut score) =
                player.choose_scored(&stones, level, &limits, &stop, &mut rng);
            if let Some((judge, deep)) = judge.as_mut() {
                // Only where the game's search judged (not a forced block)
                // and the fit will look.
                score = match score {
                    Some(_)
                        if board.stone_count() >= args.score_from
                            && learned::sample(&board).is_some() =>
                    {
                        judged += 1;
                        // Fresh tables for each position: its score is the
                        // same whichever positions were judged before it
                        // (`--score-from` picks which).
                        judge.clear();
                        let strong = GomokuLevel::STRONG;
                        judge
                            .choose_scored(&stones, strong, deep, &stop, &mut judge_rng)
                            .1
                    }
                    _ => None,
                };
            }
            let Some(p) = board
                .pos(x as usize, y as usize)
                .filter(|&p| board.is_empty(p))
            else {
                bail!("the engine played an illegal move {x},{y}");
            };
            board.play(p);
            moves.push((x, y));
            scores.push(score.filter(|_| args.scores));
            if board.is_win_at(p) {
                break if moves.len() % 2 == 1 { 1 } else { 2 };
            }
        };
        match result {
            1 => first += 1,
            2 => second += 1,
            _ => draws += 1,
        }
        let record: Vec<String> = moves
            .iter()
            .zip(&scores)
            .map(|((x, y), s)| match s {
                Some(s) => format!("{x},{y}:{s}"),
                None => format!("{x},{y}"),
            })
            .collect();
        writeln!(out, "{result} {}", record.join(" "))?;
        if (game + 1) % 50 == 0 {
            eprintln!(
                "{} games in {:.0} s (first player {first}, second {second}, draws {draws})",
                game + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
    outln!(
        "{} games: first player won {first}, second {second}, draws {draws}; {:.0} s",
        args.games,
        started.elapsed().as_secs_f64()
    );
    if let Some(nodes) = args.score_nodes {
        outln!("{judged} positions scored by searches of {nodes} nodes");
    }
    Ok(ExitCode::SUCCESS)
}

/// 3 to 6 stones within three points of the centre, alternating colours,
/// none of them making a row of three (the engine decides from there).
fn opening(rng: &mut SmallRng) -> Vec<(u8, u8)> {
    let n = rng.random_range(3..=6usize);
    let c = (SIZE / 2) as i32;
    loop {
        let mut board = Board::new(SIZE, SIZE, Rule::Freestyle);
        let mut out: Vec<(u8, u8)> = Vec::new();
        let mut tries = 0;
        while out.len() < n && tries < 100 {
            tries += 1;
            let x = (c + rng.random_range(-3..=3)) as u8;
            let y = (c + rng.random_range(-3..=3)) as u8;
            let Some(p) = board.pos(x as usize, y as usize) else {
                continue;
            };
            if !board.is_empty(p) {
                continue;
            }
            // No three or better from the opening: each stone may make at
            // most an open two for its colour.
            if board.cat(p, board.to_move()) > crate::engine::gomoku::pattern::C_LOW {
                continue;
            }
            board.play(p);
            out.push((x, y));
        }
        if out.len() == n {
            return out;
        }
    }
}
