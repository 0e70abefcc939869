//! A recorded game in the forms it leaves the host in: the JSON object of
//! `inarow games export --format json` and of `/g/ID.json`, and the one
//! line of `--format text` and `/g/ID.txt`, with the words they share.

use serde_json::{Value, json};

use crate::analyst::move_text;
use crate::game::{GameKind, Point};
use crate::store::{GameRecord, GameResult, rfc3339};

/// A move as people read it, the same as on the board: a Connect Four
/// column letter `"A"`-`"G"`, a Gomoku point `"h8"`.
pub fn move_label(game: GameKind, x: u8, y: u8) -> String {
    match game {
        GameKind::ConnectFour => char::from(b'A'.saturating_add(x)).to_string(),
        GameKind::Gomoku | GameKind::Renju => move_text(game, x, y),
    }
}

/// A point of the winning line: `(x|y)` for Connect Four, `h8` for Gomoku.
pub fn point_text(g: &GameRecord, x: u8, y: u8) -> String {
    match g.rules() {
        Some(r) => r.format_point(Point::new(x, y)),
        None => format!("({x}|{y})"),
    }
}

/// One game as a JSON object with the documented keys.
pub fn export_json(g: &GameRecord) -> Value {
    let players: Vec<Value> = g
        .players
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "account": p.account,
                "computer": p.computer,
                "colour": p.colour,
                "rating_before": p.rating_before.map(f64::round),
                "rating_after": p.rating_after.map(f64::round),
            })
        })
        .collect();
    json!({
        "id": g.id,
        "game": g.game.id(),
        "size": format!("{}x{}", g.width, g.height),
        "rule": g.rule,
        "rated": g.rated,
        "started": rfc3339(g.started_ms),
        "ended": rfc3339(g.ended_ms),
        "players": players,
        "first": g.first,
        "moves": g.moves.iter().map(|m| move_text(g.game, m.x, m.y)).collect::<Vec<_>>(),
        "move_labels": g.moves.iter().map(|m| move_label(g.game, m.x, m.y)).collect::<Vec<_>>(),
        "result": g.result.as_str(),
        "winner": g.winner,
        "reason": g.reason.as_str(),
        "line": g.line.iter().map(|&(x, y)| point_text(g, x, y)).collect::<Vec<_>>(),
    })
}

/// A player as the text lines show them: `Ann (Red, 1500 → 1516)`.
pub fn player_text(g: &GameRecord, i: usize) -> String {
    let p = &g.players[i];
    // The computer's name says its level already.
    let mut extra = vec![p.colour.clone()];
    match (p.rating_before, p.rating_after) {
        (Some(b), Some(a)) => extra.push(format!("{:.0} \u{2192} {:.0}", b, a)),
        (Some(b), None) => extra.push(format!("{b:.0}")),
        _ => {}
    }
    format!(
        "{} ({})",
        crate::text::sanitize(&p.name, 40),
        extra.join(", ")
    )
}

/// The outcome in words: `Ann won (line)`, `draw`, `aborted`.
pub fn outcome_text(g: &GameRecord) -> String {
    match (g.result, g.winner) {
        (GameResult::Win, Some(w)) => format!(
            "{} won ({})",
            crate::text::sanitize(&g.players[usize::from(w.min(1))].name, 40),
            g.reason
        ),
        (GameResult::Draw, _) => format!("draw ({})", g.reason),
        _ => format!("aborted ({})", g.reason),
    }
}

/// One game as one readable line.
pub fn export_text(g: &GameRecord) -> String {
    let rules = g
        .rules()
        .map_or_else(|| g.game.name().to_string(), |r| r.describe());
    let moves: Vec<String> = g
        .moves
        .iter()
        .map(|m| move_label(g.game, m.x, m.y))
        .collect();
    let moves = match g.game {
        // A move string `inarow solve` reads (`ABABABA`).
        GameKind::ConnectFour => moves.concat(),
        GameKind::Gomoku | GameKind::Renju => moves.join(" "),
    };
    format!(
        "{}  {}  {}{}  {} vs {}  {}  {} moves: {}",
        g.id,
        rfc3339(g.started_ms),
        rules,
        if g.rated { ", rated" } else { "" },
        player_text(g, usize::from(g.first.min(1))),
        player_text(g, usize::from(1 - g.first.min(1))),
        outcome_text(g),
        g.moves.len(),
        moves
    )
}
