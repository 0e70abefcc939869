//! Gomoku and Renju, analysed with the engine: for every move, the
//! engine's evaluation before and after it for the player who made it
//! (with its best move), and the two labels the threat search proves: a
//! **missed win** (a win by continuous fours, a VCF, was there and the move
//! did not play it) and an **allowed win** (after the move the opponent
//! has a VCF). Values are the engine's scores: about 100 a stone's worth
//! of advantage, beyond ±29000 a proven win or loss (`exact`).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use thiserror::Error;

use super::{Label, MoveAnalysis};
use crate::engine::Limits;
use crate::engine::gomoku::{GomokuLevel, GomokuPlayer, Rule, stones_from_moves};
use crate::game::{Move, Point, Position, Rules};

/// Beyond this, an engine score is a proven win (or, negated, a loss).
pub const PROVEN: i32 = 29_000;

/// Longest VCF looked for, in fours of the side that wins.
const VCF_FOURS: i32 = 20;

/// Why a list of points is not a game under the rules given.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    #[error("move {index}: {why}")]
    Illegal { index: usize, why: String },
    #[error("move {index} comes after the game was won")]
    AfterWin { index: usize },
}

/// The engine for games under `rules` (a Gomoku or Renju board), with a
/// table of `tt_mb` MiB.
pub fn player_for(rules: &Rules, tt_mb: usize) -> GomokuPlayer {
    let rule = if rules.is_exact() {
        Rule::ExactFive
    } else if rules.is_renju() {
        Rule::Renju
    } else {
        Rule::Freestyle
    };
    let (w, h) = (usize::from(rules.width()), usize::from(rules.height()));
    GomokuPlayer::with_dimensions(w, h, rule, tt_mb)
}

/// Checks the game `points` (x column, y row from 0) under `rules`;
/// whether its last move ended it.
pub fn check(rules: Rules, points: &[(u8, u8)]) -> Result<bool, GameError> {
    let mut pos = Position::new(rules);
    for (i, &(x, y)) in points.iter().enumerate() {
        let index = i + 1;
        if pos.is_over() {
            return Err(GameError::AfterWin { index });
        }
        pos.play(Move::Point(Point::new(x, y)))
            .map_err(|e| GameError::Illegal {
                index,
                why: e.to_string(),
            })?;
    }
    Ok(pos.is_over())
}

/// Analyses every move of the game `points` under `rules` (Gomoku or
/// Renju) with `player` (set to the rules' board): the evaluation with
/// `level` within `budget` per position, and each threat search within
/// `budget` too. A threat search that does not finish gives no label.
pub fn analyze(
    rules: Rules,
    points: &[(u8, u8)],
    player: &mut GomokuPlayer,
    level: GomokuLevel,
    budget: Duration,
) -> Result<Vec<MoveAnalysis>, GameError> {
    let ended = check(rules, points)?;
    let stop = AtomicBool::new(false);
    let limits = || Limits::new(budget);
    // The engine's view of every position, the one after the last move
    // included (a game won by its last move is a proven win for its
    // player: not searched).
    let mut reports = Vec::with_capacity(points.len() + 1);
    for i in 0..=points.len() {
        let stones = stones_from_moves(&points[..i]);
        reports.push(if i == points.len() && ended {
            None
        } else {
            let r = player.analyse(&stones, level, &limits(), &stop);
            Some((r.score, r.mv))
        });
    }
    let mut out = Vec::with_capacity(points.len());
    for (i, &m) in points.iter().enumerate() {
        let stones = stones_from_moves(&points[..i]);
        let before = reports[i].map(|r| r.0);
        // The opponent's score after the move, seen from the mover; a
        // game won by this move: a proven win.
        let after = match reports[i + 1] {
            Some((score, _)) => Some(-score),
            None => Some(PROVEN + 1),
        };
        let mut best: Vec<Move> = reports[i]
            .and_then(|r| r.1)
            .map(|(x, y)| Move::Point(Point::new(x, y)))
            .into_iter()
            .collect();
        let mut label = None;
        match player.vcf(&stones, VCF_FOURS, &limits(), &stop) {
            Ok(Some(win)) => {
                best = vec![Move::Point(Point::new(win.0, win.1))];
                label = match player.keeps_vcf(&stones, m, VCF_FOURS, &limits(), &stop) {
                    Ok(true) => Some(Label::Best),
                    Ok(false) => Some(Label::MissedWin),
                    Err(_) => None,
                };
            }
            Ok(None) => {
                let next = stones_from_moves(&points[..=i]);
                if let Ok(Some(_)) = player.vcf(&next, VCF_FOURS, &limits(), &stop) {
                    label = Some(Label::AllowedWin);
                }
            }
            Err(_) => {}
        }
        let exact =
            matches!((before, after), (Some(b), Some(a)) if b.abs() > PROVEN && a.abs() > PROVEN);
        out.push(MoveAnalysis {
            played: Move::Point(Point::new(m.0, m.1)),
            before,
            after,
            best,
            label,
            exact,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> (u8, u8) {
        let b = s.as_bytes();
        (b[0] - b'a', s[1..].parse::<u8>().unwrap() - 1)
    }

    fn game(moves: &str) -> Vec<(u8, u8)> {
        moves.split_whitespace().map(pt).collect()
    }

    #[test]
    fn a_vcf_not_played_is_a_missed_win_and_one_let_through_is_an_allowed_win() {
        let mut player = GomokuPlayer::new(15, Rule::Freestyle, 16);
        // Black has h8 i8 j8 (an open three); white plays far away twice,
        // then black plays k8 (open four: a VCF of one four was there at
        // move 5 with g8 or k8). Move 5 plays a1 instead: missed win. Move
        // 4 (white's a15) let black's open three become a win: allowed.
        let g = game("h8 a15 i8 b15 j8 a14 a1 c15 k8");
        let a = analyze(
            Rules::gomoku(),
            &g,
            &mut player,
            GomokuLevel::new(4).unwrap(),
            Duration::from_millis(300),
        )
        .unwrap();
        assert_eq!(a.len(), 9);
        // Move 7 (black's a1): black had a VCF (g8 or k8 make an open four).
        assert_eq!(a[6].label, Some(Label::MissedWin), "{:?}", a[6]);
        assert!(
            matches!(a[6].best[..], [Move::Point(p)] if p == Point::new(6, 7) || p == Point::new(10, 7)),
            "{:?}",
            a[6]
        );
        // Move 6 (white's a14) left black's open three: black has a VCF.
        assert_eq!(a[5].label, Some(Label::AllowedWin), "{:?}", a[5]);
        // Move 9 (black's k8, an open four) keeps the win.
        assert_eq!(a[8].label, Some(Label::Best), "{:?}", a[8]);
        assert!(a[8].after.unwrap() > PROVEN, "{:?}", a[8]);
        // The first moves decide nothing.
        assert_eq!(a[0].label, None);
    }

    #[test]
    fn a_game_is_checked_first() {
        assert_eq!(
            check(Rules::gomoku(), &game("h8 h8")),
            Err(GameError::Illegal {
                index: 2,
                why: check_error(),
            })
        );
        assert_eq!(
            check(Rules::gomoku(), &game("a1 b1 a2 b2 a3 b3 a4 b4 a5 b5")),
            Err(GameError::AfterWin { index: 10 })
        );
    }

    fn check_error() -> String {
        let mut pos = Position::new(Rules::gomoku());
        pos.play(Move::Point(Point::new(7, 7))).unwrap();
        pos.play(Move::Point(Point::new(7, 7)))
            .unwrap_err()
            .to_string()
    }
}
