//! Glicko-2 as the store applies it (the maths is skillratings'): new
//! players start at 1500 ± 350, every rated game updates both players at
//! once, and the deviation grows by one `decay_deviation` step per rating
//! period (a week) without a game.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2};

use crate::game::GameKind;

/// One rating period: the deviation grows by one step per full period a
/// player has not played.
pub const RATING_PERIOD_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// Past this many periods the deviation has long reached its cap (350).
const MAX_DECAY_STEPS: i64 = 10_000;

/// A Glicko-2 rating on the familiar scale.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    /// A new player: 1500 ± 350, volatility 0.06.
    fn default() -> Self {
        Rating::from(Glicko2Rating::new())
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Self {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Self {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl Rating {
    /// The rating as of `now`, when last updated at `updated_ms`: one decay
    /// step per full rating period in between.
    pub fn decayed(self, updated_ms: i64, now: i64) -> Rating {
        let periods = (now.saturating_sub(updated_ms) / RATING_PERIOD_MS).clamp(0, MAX_DECAY_STEPS);
        let mut r = Glicko2Rating::from(self);
        for _ in 0..periods {
            let next = decay_deviation(&r);
            if next.deviation == r.deviation {
                break;
            }
            r = next;
        }
        r.into()
    }
}

/// Both players' new ratings after one game; `score` is the first player's
/// (players[0]) result: 1 won, 0.5 draw, 0 lost.
pub fn rate_game(a: Rating, b: Rating, score: f64) -> (Rating, Rating) {
    let outcome = if score > 0.75 {
        Outcomes::WIN
    } else if score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (a, b) = glicko2(&a.into(), &b.into(), &outcome, &Glicko2Config::new());
    (a.into(), b.into())
}

/// A player's standing in one game, as stored (deviation decayed to the
/// time of reading).
#[derive(Debug, Clone, PartialEq)]
pub struct RatingInfo {
    pub game: GameKind,
    pub rating: Rating,
    /// Rated games played.
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    pub updated_ms: i64,
}

/// What one rated game did to both players' ratings (index = seat, as in
/// the game record's `players`).
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange {
    pub game: GameKind,
    pub accounts: [String; 2],
    pub before: [Rating; 2],
    pub after: [Rating; 2],
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Glickman's worked example ("Example of the Glicko-2 system"): one
    /// rating period with three games.
    #[test]
    fn glickmans_worked_example() {
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let r = glicko2_rating_period(&player, &results, &Glicko2Config::new());
        assert!(close(r.rating, 1464.06, 0.01), "{}", r.rating);
        assert!(close(r.deviation, 151.52, 0.01), "{}", r.deviation);
        assert!(close(r.volatility, 0.05999, 0.00001), "{}", r.volatility);
    }

    /// The per-game update the store applies: two new players, first wins.
    #[test]
    fn new_against_new() {
        let (a, b) = rate_game(Rating::default(), Rating::default(), 1.0);
        assert!(close(a.rating, 1662.31, 0.01), "{a:?}");
        assert!(close(a.deviation, 290.32, 0.01), "{a:?}");
        assert!(close(b.rating, 1337.69, 0.01), "{b:?}");
        assert!(close(b.deviation, 290.32, 0.01), "{b:?}");
        let (a, b) = rate_game(Rating::default(), Rating::default(), 0.5);
        assert!(close(a.rating, 1500.0, 1e-9) && close(b.rating, 1500.0, 1e-9));
        assert!(close(a.deviation, 290.32, 0.01));
    }

    #[test]
    fn the_deviation_grows_per_idle_period_up_to_350() {
        let r = Rating {
            rating: 1800.0,
            deviation: 50.0,
            volatility: 0.06,
        };
        assert_eq!(r.decayed(0, RATING_PERIOD_MS - 1), r);
        let one = r.decayed(0, RATING_PERIOD_MS);
        assert!(close(one.deviation, 51.1, 0.05), "{one:?}");
        let ten = r.decayed(0, 10 * RATING_PERIOD_MS + 5);
        assert!(close(ten.deviation, 59.9, 0.05), "{ten:?}");
        assert_eq!(ten.rating, 1800.0);
        assert_eq!(r.decayed(0, i64::MAX).deviation, 350.0);
        // A clock that went backwards changes nothing.
        assert_eq!(r.decayed(1_000_000, 0), r);
    }
}
