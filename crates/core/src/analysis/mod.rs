//! Move-by-move analysis of a game: for every move, the value of the
//! position before it and after it for the player who made it, the best
//! moves, and a [`Label`] saying what the move did. Pure: the engines are
//! handed in, and every search has its budget.
//!
//! Connect Four ([`connect4`]) is exact where the solver settles a
//! position within its budget; a position it does not settle is reported
//! as such, never with a guessed label.

pub mod connect4;
pub mod gomoku;

use crate::game::Move;

/// What a move did to its player's prospects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Label {
    /// The move keeps the best value the position had.
    Best,
    /// Still won, but the win got further away (or a loss came nearer).
    SlowerWin,
    /// A won position drawn, or a drawn one lost.
    Mistake,
    /// A won position lost.
    Blunder,
    /// Gomoku and Renju: a win by continuous fours (a VCF) was there, and
    /// the move did not play it.
    MissedWin,
    /// Gomoku and Renju: after the move the opponent has a VCF.
    AllowedWin,
}

impl Label {
    /// The label's name in exports (`"slower win"`...): data, not words
    /// for people, which are made where they are shown.
    pub fn id(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::SlowerWin => "slower win",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
            Label::MissedWin => "missed win",
            Label::AllowedWin => "allowed a win",
        }
    }

    /// The label whose [`Label::id`] is `id`.
    pub fn of_id(id: &str) -> Option<Label> {
        [
            Label::Best,
            Label::SlowerWin,
            Label::Mistake,
            Label::Blunder,
            Label::MissedWin,
            Label::AllowedWin,
        ]
        .into_iter()
        .find(|l| l.id() == id)
    }

    /// The label of a move from exact values, both seen from the player
    /// who made it (positive: that player wins, the larger the sooner; 0:
    /// draw; negative: that player loses).
    pub fn of_values(before: i32, after: i32) -> Label {
        use std::cmp::Ordering::*;
        match (before.cmp(&0), after.cmp(&0)) {
            _ if after >= before => Label::Best,
            (Greater, Greater) | (Less, Less) => Label::SlowerWin,
            (Greater, Less) => Label::Blunder,
            _ => Label::Mistake,
        }
    }
}

/// One move of a game, analysed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveAnalysis {
    /// The move played.
    pub played: Move,
    /// The position's value before the move, for the player to move
    /// (`None`: not settled within the budget).
    pub before: Option<i32>,
    /// The value after the move, for the same player.
    pub after: Option<i32>,
    /// The moves that keep the best value (empty when not settled).
    pub best: Vec<Move>,
    /// `None` when the values are not both settled.
    pub label: Option<Label>,
    /// Whether the values are proven (a solver's, not an estimate).
    pub exact: bool,
}

/// How many moves of each kind each player made: `[first, second]`, the
/// kinds that count against a player (blunders, missed wins, allowed
/// wins, mistakes, slower wins), with the move numbers (from 1).
pub fn summary(moves: &[MoveAnalysis]) -> [Vec<(Label, Vec<usize>)>; 2] {
    let mut out: [Vec<(Label, Vec<usize>)>; 2] = Default::default();
    for label in [
        Label::Blunder,
        Label::MissedWin,
        Label::AllowedWin,
        Label::Mistake,
        Label::SlowerWin,
    ] {
        for (side, list) in out.iter_mut().enumerate() {
            let at: Vec<usize> = moves
                .iter()
                .enumerate()
                .filter(|(i, m)| i % 2 == side && m.label == Some(label))
                .map(|(i, _)| i + 1)
                .collect();
            if !at.is_empty() {
                list.push((label, at));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_values_before_and_after() {
        // Won, still won as soon: best; later: slower; drawn: mistake;
        // lost: blunder.
        assert_eq!(Label::of_values(5, 5), Label::Best);
        assert_eq!(Label::of_values(5, 3), Label::SlowerWin);
        assert_eq!(Label::of_values(5, 0), Label::Mistake);
        assert_eq!(Label::of_values(5, -2), Label::Blunder);
        // Drawn: kept, or lost.
        assert_eq!(Label::of_values(0, 0), Label::Best);
        assert_eq!(Label::of_values(0, -4), Label::Mistake);
        // Lost: held off as long as it can be, or a loss that came nearer.
        assert_eq!(Label::of_values(-3, -3), Label::Best);
        assert_eq!(Label::of_values(-3, -6), Label::SlowerWin);
    }
}
