//! What the store keeps, turned into the session's plain views: a profile,
//! the leaderboard, a recorded game, an account's keys. Names are passed
//! on as stored; the session sanitises every text it draws.

use crate::game::{Colour, Side};
use crate::session::records::PuzzleRow;
use crate::session::records::{
    GameOutcome, GameRow, KeyRow, LeaderRow, LeaderboardView, ProfileView, RatingRow, ReplayPlayer,
    ReplayView,
};
use crate::store::{
    GameRecord, GameResult, KeyInfo, LeaderEntry, Leaderboard, Profile, PuzzleStanding, Reason,
};

/// What it takes to appear on the leaderboard (the store's conditions).
const REQUIREMENT: &str = "5 rated games and a deviation under 110";

/// `YYYY-MM-DD` of a time in milliseconds (UTC).
pub fn date(ms: i64) -> String {
    let mut s = crate::store::rfc3339(ms);
    s.truncate(10);
    s
}

fn round(x: f64) -> i64 {
    x.round() as i64
}

/// The seat (0 or 1) of `account` in a game.
fn seat_of(g: &GameRecord, account: &str) -> Option<usize> {
    g.players
        .iter()
        .position(|p| p.account.as_deref() == Some(account))
}

/// Whether `account` played this game.
pub fn played_in(g: &GameRecord, account: &str) -> bool {
    seat_of(g, account).is_some()
}

fn game_row(g: &GameRecord, account: &str) -> GameRow {
    let me = seat_of(g, account).unwrap_or(0);
    let outcome = match (g.result, g.winner) {
        (GameResult::Win, Some(w)) if usize::from(w) == me => GameOutcome::Won,
        (GameResult::Win, _) => GameOutcome::Lost,
        (GameResult::Draw, _) => GameOutcome::Draw,
        (GameResult::Aborted, _) => GameOutcome::Aborted,
    };
    let mine = &g.players[me];
    let rating_change = match (g.rated, mine.rating_before, mine.rating_after) {
        (true, Some(b), Some(a)) => Some(round(a) - round(b)),
        _ => None,
    };
    GameRow {
        id: g.id.clone(),
        date: date(g.ended_ms),
        game: g.game,
        opponent: g.players[1 - me].name.clone(),
        outcome,
        rating_change,
    }
}

pub fn profile_view(p: &Profile, puzzles: Option<&PuzzleStanding>) -> ProfileView {
    ProfileView {
        name: p.name.clone(),
        puzzles: puzzles.map(|s| PuzzleRow {
            rating: round(s.rating.rating),
            deviation: round(s.rating.deviation),
            solved: s.solved,
            tried: s.attempts,
        }),
        ratings: p
            .ratings
            .iter()
            .map(|r| RatingRow {
                game: r.game,
                rating: round(r.rating.rating),
                deviation: round(r.rating.deviation),
                wins: r.wins,
                losses: r.losses,
                draws: r.draws,
            })
            .collect(),
        games: p
            .recent
            .iter()
            .take(crate::session::records::MAX_GAMES)
            .map(|g| game_row(g, &p.account))
            .collect(),
    }
}

fn leader_row(e: &LeaderEntry, me: Option<&str>) -> LeaderRow {
    LeaderRow {
        rank: e.rank,
        name: e.name.clone(),
        rating: round(e.rating),
        games: e.games,
        me: me == Some(e.account.as_str()),
    }
}

pub fn leaderboard_view(b: &Leaderboard, me: Option<&str>) -> LeaderboardView {
    LeaderboardView {
        game: b.game,
        top: b
            .top
            .iter()
            .take(crate::session::records::MAX_ROWS)
            .map(|e| leader_row(e, me))
            .collect(),
        me: b.me.as_ref().map(|e| LeaderRow {
            me: true,
            ..leader_row(e, me)
        }),
        requirement: REQUIREMENT.into(),
    }
}

pub fn key_rows(keys: &[KeyInfo]) -> Vec<KeyRow> {
    keys.iter()
        .take(crate::session::records::MAX_KEYS)
        .map(|k| KeyRow {
            fingerprint: k.fingerprint.clone(),
            added: date(k.added_ms),
        })
        .collect()
}

/// How a recorded game ended, in `lang` (made here, for the screen of
/// the person who asked for the replay).
fn reason_text(lang: crate::lang::Lang, g: &GameRecord) -> String {
    lang.text_with(
        match g.reason {
            Reason::Line => "replay-line",
            Reason::Draw => "reason-full",
            Reason::ForfeitLeft => "replay-other-left",
            Reason::ForfeitIdle => "replay-other-idle",
            Reason::Flag => "replay-other-flag",
            Reason::Resign => "replay-other-resigned",
            Reason::Aborted => "outcome-aborted",
        },
        &[("count", g.k.into())],
    )
}

/// A recorded game for the replay screen; `None` when its rules are not valid.
pub fn replay_view(lang: crate::lang::Lang, g: &GameRecord) -> Option<ReplayView> {
    let rules = g.rules()?;
    let first = usize::from(g.first.min(1));
    let seat_of_side = |side: Side| match side {
        Side::First => first,
        Side::Second => 1 - first,
    };
    let player = |side: Side| {
        let p = &g.players[seat_of_side(side)];
        ReplayPlayer {
            name: p.name.clone(),
            colour: p
                .colour
                .parse()
                .unwrap_or(Colour::ALL[side.index() % Colour::ALL.len()]),
        }
    };
    let mut players = [player(Side::First), player(Side::Second)];
    if players[0].colour == players[1].colour {
        players[1].colour = Colour::ALL
            .into_iter()
            .find(|c| *c != players[0].colour)
            .unwrap_or(players[1].colour);
    }
    let moves = crate::analyst::record_moves(g);
    let winner = match (g.result, g.winner) {
        (GameResult::Win, Some(w)) => Some(if usize::from(w) == first {
            Side::First
        } else {
            Side::Second
        }),
        _ => None,
    };
    Some(ReplayView {
        rules,
        players,
        moves,
        winner,
        reason: reason_text(lang, g),
        date: date(g.started_ms),
        game_id: Some(g.id.clone()),
    })
}
