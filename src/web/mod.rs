//! The host on the web, read-only: pages made here, from what the store
//! keeps and what the lobby shows, as HTML (maud, which escapes every
//! value put into it). No IO here: `server::http::pages` reads the store
//! and the lobby and serves what these functions make.
//!
//! What a page never shows: chat, key fingerprints, addresses, resume
//! codes, bans. Scripts are files of their own (the pages' Content
//! Security Policy allows no inline script), and every page reads without
//! them: the replay's move list links to each position.

pub mod board;
pub mod puzzle;

use maud::{DOCTYPE, Markup, html};

use crate::game::{GameKind, Point, Rules};
use crate::protocol::GameSummary;
use crate::store::{GameRecord, GameResult, Leaderboard, Profile, PuzzleStanding};

/// The style sheet, served at `/static/site.css`.
pub const CSS: &str = include_str!("site.css");
/// The replay's keys and buttons, served at `/static/replay.js`.
pub const REPLAY_JS: &str = include_str!("replay.js");
/// A game in play following its events, served at `/static/live.js`.
pub const LIVE_JS: &str = include_str!("live.js");

/// What the front page shows.
pub struct Home<'a> {
    /// The host's name: its public address, or "inarow".
    pub name: &'a str,
    pub motd: &'a str,
    /// `ssh play@ADDRESS`, when the address is configured.
    pub connect: Option<String>,
    pub online: usize,
    pub playing: usize,
    /// The games in play (at most the lobby's list).
    pub games: &'a [GameSummary],
    /// The daily puzzle in words, if there are puzzles.
    pub daily: Option<&'a str>,
}

/// A whole page around `body`.
fn layout(title: &str, body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · inarow" }
                link rel="stylesheet" href="/static/site.css";
            }
            body {
                header {
                    a.home href="/" { "inarow" }
                    nav {
                        a href="/leaderboard/connect4" { "Connect Four leaderboard" }
                        " · "
                        a href="/leaderboard/gomoku" { "Gomoku leaderboard" }
                    }
                }
                main { (body) }
            }
        }
    }
    .into_string()
}

/// The path of a player's page.
/// A game in play's page: `/live/ROOM`, or `/live/HOST-ROOM` for a game
/// listed with its host (cluster mode).
pub fn live_path(g: &GameSummary) -> String {
    match &g.host {
        Some(host) => format!("/live/{}-{}", percent(host), g.room),
        None => format!("/live/{}", g.room),
    }
}

pub fn profile_path(name: &str) -> String {
    format!("/@/{}", percent(name))
}

/// `name` as a path segment: letters, digits and `-._~` as they are,
/// every other byte as `%XX`.
fn percent(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub fn home(h: &Home) -> String {
    layout(
        h.name,
        html! {
            h1 { (h.name) }
            @if !h.motd.is_empty() { p.motd { (h.motd) } }
            @if let Some(c) = &h.connect {
                p { "Play in your terminal: " code { (c) } }
            }
            p.counts { (h.online) " online · " (h.playing) " playing" }
            h2 { "Games in play" }
            @if h.games.is_empty() {
                p { "No game is being played just now." }
            } @else {
                table {
                    thead { tr { th { "game" } th { "players" } th { "moves" } th { "watching" } } }
                    tbody {
                        @for g in h.games {
                            tr {
                                td { (g.game) }
                                td {
                                    a href=(live_path(g)) { (g.players[0]) " vs " (g.players[1]) }
                                }
                                td.num { (g.moves) }
                                td.num { (g.watchers) }
                            }
                        }
                    }
                }
            }
            @if let Some(d) = h.daily {
                h2 { "Puzzle of the day" }
                p {
                    a href="/puzzle/daily" { (d) } ": play it here, or in the terminal with "
                    kbd { "z" } " in the lobby."
                }
            }
            h2 { "Leaderboards" }
            ul {
                li { a href="/leaderboard/connect4" { "Connect Four" } }
                li { a href="/leaderboard/gomoku" { "Gomoku" } }
            }
        },
    )
}

pub fn leaderboard(board: &Leaderboard) -> String {
    let title = format!("{} leaderboard", board.game.name());
    layout(
        &title,
        html! {
            h1 { (title) }
            @if board.top.is_empty() {
                p { "Nobody qualifies yet: a player needs five rated games and a settled rating." }
            } @else {
                table {
                    thead { tr { th { "#" } th { "player" } th { "rating" } th { "±" } th { "games" } } }
                    tbody {
                        @for e in &board.top {
                            tr {
                                td.num { (e.rank) }
                                td { a href=(profile_path(&e.name)) { (e.name) } }
                                td.num { (format!("{:.0}", e.rating)) }
                                td.num { (format!("{:.0}", e.deviation)) }
                                td.num { (e.games) }
                            }
                        }
                    }
                }
            }
        },
    )
}

/// A player's result in game `g`, by their account: won, lost, draw.
fn result_for(g: &GameRecord, account: &str) -> (&'static str, Option<usize>) {
    let seat = g
        .players
        .iter()
        .position(|p| p.account.as_deref() == Some(account));
    let word = match (g.result, g.winner, seat) {
        (GameResult::Win, Some(w), Some(s)) if usize::from(w) == s => "won",
        (GameResult::Win, _, _) => "lost",
        (GameResult::Draw, _, _) => "draw",
        (GameResult::Aborted, _, _) => "aborted",
    };
    (word, seat)
}

/// The date of a time in milliseconds: `2026-12-06`.
fn date(ms: i64) -> String {
    crate::store::rfc3339(ms).chars().take(10).collect()
}

/// A rating history as a small line chart: the ratings after each rated
/// game of one kind, oldest first.
fn rating_chart(points: &[f64]) -> Markup {
    const W: f64 = 320.0;
    const H: f64 = 120.0;
    const PAD: f64 = 14.0;
    let lo = points.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = points.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let span = (hi - lo).max(20.0);
    let x = |i: usize| PAD + (W - 2.0 * PAD) * i as f64 / (points.len().max(2) - 1) as f64;
    let y = |r: f64| H - PAD - (H - 2.0 * PAD) * (r - lo) / span;
    let line: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{:.1},{:.1}", x(i), y(*r)))
        .collect();
    html! {
        svg.chart xmlns="http://www.w3.org/2000/svg" viewBox={"0 0 " (W) " " (H)}
            role="img" aria-label="rating history" {
            text x="2" y="12" { (format!("{hi:.0}")) }
            text x="2" y=(H - 2.0) { (format!("{lo:.0}")) }
            polyline points=(line.join(" ")) {}
        }
    }
}

pub fn profile(p: &Profile, games: &[GameRecord], puzzles: Option<&PuzzleStanding>) -> String {
    let listed = &games[..games.len().min(50)];
    layout(
        &p.name,
        html! {
            h1 { (p.name) }
            p { "Playing since " (date(p.created_ms)) }
            h2 { "Ratings" }
            @if p.ratings.is_empty() {
                p { "No rated game yet." }
            }
            @for r in &p.ratings {
                @let history: Vec<f64> = games.iter().rev().filter(|g| g.game == r.game).filter_map(|g| {
                    g.players.iter().find(|s| s.account.as_deref() == Some(p.account.as_str()))?.rating_after
                }).collect();
                section.rating {
                    h3 { (r.game.name()) }
                    p {
                        b { (format!("{:.0}", r.rating.rating)) } (format!(" ± {:.0}", r.rating.deviation))
                        " · " (r.games) @if r.games == 1 { " rated game: " } @else { " rated games: " } (r.wins) " won, " (r.losses) " lost, " (r.draws) " drawn"
                    }
                    @if history.len() >= 2 { (rating_chart(&history)) }
                }
            }
            @if let Some(s) = puzzles {
                h2 { "Puzzles" }
                p {
                    b { (format!("{:.0}", s.rating.rating)) } (format!(" ± {:.0}", s.rating.deviation))
                    " · " (s.solved) " solved of " (s.attempts)
                }
            }
            h2 { "Last games" }
            @if listed.is_empty() {
                p { "No game yet." }
            } @else {
                table {
                    thead { tr { th { "date" } th { "game" } th { "opponent" } th { "result" } th { "how" } th {} } }
                    tbody {
                        @for g in listed {
                            @let (word, seat) = result_for(g, &p.account);
                            @let other = &g.players[1 - seat.unwrap_or(0)];
                            tr {
                                td { (date(g.started_ms)) }
                                td { (g.game.name()) }
                                td {
                                    @if other.account.is_some() {
                                        a href=(profile_path(&other.name)) { (other.name) }
                                    } @else {
                                        (other.name)
                                    }
                                }
                                td { (word) }
                                td { (reason_words(g)) }
                                td { a href={"/g/" (g.id)} { "view" } }
                            }
                        }
                    }
                }
            }
        },
    )
}

/// Why a game ended, in words.
fn reason_words(g: &GameRecord) -> &'static str {
    use crate::store::Reason;
    match g.reason {
        Reason::Line => "a line",
        Reason::Draw => "full board",
        Reason::ForfeitLeft => "left the game",
        Reason::ForfeitIdle => "idle too long",
        Reason::Flag => "time ran out",
        Reason::Resign => "resigned",
        Reason::Aborted => "cut short",
    }
}

/// A move as people read it: a Connect Four column `D`, a point `h8`.
fn move_words(rules: &Rules, x: u8, y: u8) -> String {
    match rules.kind() {
        GameKind::ConnectFour => rules.column_label(x).to_string(),
        GameKind::Gomoku | GameKind::Renju => rules.format_point(Point::new(x, y)),
    }
}

/// One move's analysis as the page shows it.
pub struct MoveNote {
    pub label: String,
    pub best: Vec<String>,
}

/// The analysis kept with a game (the export's `analysis` list), as
/// notes per move; `None` when it does not read.
pub fn move_notes(json: &str) -> Option<Vec<MoveNote>> {
    let list: Vec<serde_json::Value> = serde_json::from_str(json).ok()?;
    Some(
        list.iter()
            .map(|m| MoveNote {
                label: m["label"].as_str().unwrap_or("").to_string(),
                best: m["best"]
                    .as_array()
                    .map(|b| {
                        b.iter()
                            .map(|v| match v {
                                serde_json::Value::String(s) => s.clone(),
                                other => other.to_string(),
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            })
            .collect(),
    )
}

/// A recorded game at move `shown` (all of them by default).
pub fn game(g: &GameRecord, shown: Option<usize>, notes: Option<&[MoveNote]>) -> Option<String> {
    let rules = g.rules()?;
    let first = usize::from(g.first.min(1));
    let order = [first, 1 - first];
    // Moves alternate from the first player.
    let moves: Vec<(u8, u8, u8)> = g
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| (m.x, m.y, order[i % 2] as u8))
        .collect();
    let shown = shown.unwrap_or(moves.len()).min(moves.len());
    let colours = [g.players[0].colour.as_str(), g.players[1].colour.as_str()];
    let board = board::Board {
        rules,
        moves: &moves,
        colours,
        shown,
        line: &g.line,
        best: None,
        links: &[],
    };
    let title = format!(
        "{} vs {}",
        g.players[order[0]].name, g.players[order[1]].name
    );
    let result = match (g.result, g.winner) {
        (GameResult::Win, Some(w)) => format!(
            "{} won: {}",
            g.players[usize::from(w.min(1))].name,
            reason_words(g)
        ),
        (GameResult::Draw, _) => format!("Draw: {}", reason_words(g)),
        _ => "Cut short".to_string(),
    };
    let body = html! {
        h1 { (title) }
        p {
            (rules.describe()) @if g.rated { ", rated" } @else { ", casual" }
            " · " (date(g.started_ms))
        }
        ul.players {
            @for &seat in &order {
                @let p = &g.players[seat];
                li {
                    span class={"swatch c-" (p.colour.to_ascii_lowercase())} {}
                    " "
                    @if p.account.is_some() {
                        a href=(profile_path(&p.name)) { (p.name) }
                    } @else {
                        (p.name)
                    }
                    " (" (p.colour)
                    @if let (Some(b), Some(a)) = (p.rating_before, p.rating_after) {
                        (format!(", {b:.0} → {a:.0}"))
                    }
                    ")"
                }
            }
        }
        p.result { b { (result) } }
        div.replay data-moves=(moves.len()) data-shown=(shown) {
            (board::svg(&board))
            p.steps {
                a.step href="?move=0#board" data-step="first" { "« first" } " "
                a.step href={"?move=" (shown.saturating_sub(1)) "#board"} data-step="back" { "◀ back" } " "
                span.at { "move " (shown) " of " (moves.len()) } " "
                a.step href={"?move=" ((shown + 1).min(moves.len())) "#board"} data-step="next" { "next ▶" } " "
                a.step href={"?move=" (moves.len()) "#board"} data-step="last" { "last »" }
            }
        }
        h2 id="board" { "Moves" }
        ol.moves {
            @for (i, m) in g.moves.iter().enumerate() {
                @let note = notes.and_then(|n| n.get(i));
                li data-n=(i + 1) class=[(i + 1 == shown).then_some("current")] {
                    a href={"?move=" (i + 1) "#board"} { (move_words(&rules, m.x, m.y)) }
                    " "
                    span.time { (format!("{:.1} s", m.ms as f64 / 1000.0)) }
                    @if let Some(n) = note {
                        @if !n.label.is_empty() && n.label != "best" {
                            " " span.label { (n.label) }
                        }
                        @if !n.best.is_empty() && n.label != "best" {
                            " " span.best { "best: " (n.best.join(", ")) }
                        }
                    }
                }
            }
        }
        p.links {
            a href={"/g/" (g.id) ".json"} { "JSON" } " · " a href={"/g/" (g.id) ".txt"} { "text" }
        }
        script src="/static/replay.js" defer {}
    };
    Some(layout(&title, body))
}

/// The page for a path that leads nowhere.
pub fn not_found(what: &str) -> String {
    layout(
        "Not found",
        html! {
            h1 { "Not found" }
            p { (what) }
            p { a href="/" { "The front page" } }
        },
    )
}

/// The page for too many requests.
pub fn too_many(retry_secs: u64) -> String {
    layout(
        "Slow down",
        html! {
            h1 { "Too many requests" }
            p { "Try again in " (retry_secs) " s." }
        },
    )
}

/// The board of a game in play, for its page and its events.
fn live_board(view: &crate::table::GameView) -> Markup {
    use crate::table::Ending;
    let moves: Vec<(u8, u8, u8)> = view
        .position
        .history()
        .iter()
        .enumerate()
        .map(|(i, p)| (p.x, p.y, (i % 2) as u8))
        .collect();
    let line: Vec<(u8, u8)> = match &view.ending {
        Some(Ending::Line { line, .. }) => line.iter().map(|p| (p.x, p.y)).collect(),
        _ => Vec::new(),
    };
    board::svg(&board::Board {
        rules: *view.position.rules(),
        moves: &moves,
        colours: [view.seats[0].colour.name(), view.seats[1].colour.name()],
        shown: moves.len(),
        line: &line,
        best: None,
        links: &[],
    })
}

/// The moves of a game in play in words (`A B A` or `h8 i9`), for the
/// page's move list.
fn live_moves(view: &crate::table::GameView) -> String {
    let rules = view.position.rules();
    let words: Vec<String> = view
        .position
        .history()
        .iter()
        .map(|p| move_words(rules, p.x, p.y))
        .collect();
    words.join(" ")
}

/// Whose turn it is, or how the game ended.
fn live_status(view: &crate::table::GameView) -> String {
    match (view.ending_text(), view.to_move()) {
        (Some(end), _) => end,
        (None, Some(side)) => format!("{} to move", view.seat(side).label()),
        (None, None) => String::new(),
    }
}

/// One state of a game in play as its event (JSON): the board, the
/// status line, both clocks in milliseconds left at `now` with the one
/// running, whether it is over, and once it is recorded, its id.
pub fn live_event(view: &crate::table::GameView, now: std::time::Instant) -> String {
    use crate::game::Side;
    let clocks = view
        .clock
        .as_ref()
        .map(|c| [Side::First, Side::Second].map(|s| c.left_at(s, now).as_millis() as u64));
    let running = view
        .clock
        .as_ref()
        .and_then(|c| c.running)
        .filter(|_| view.ending.is_none())
        .map(|s| s.index());
    serde_json::json!({
        "moves": view.position.stones(),
        "list": live_moves(view),
        "board": live_board(view).into_string(),
        "status": live_status(view),
        "clocks": clocks,
        "running": running,
        "over": view.ending.is_some(),
        "record": view.record,
    })
    .to_string()
}

/// Minutes and seconds: `2:05`.
fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

/// A game in play (`/live/ID`): the board and the clocks as they are
/// now; with JavaScript they follow the game from `/live/ID/events`.
pub fn live(id: &str, view: &crate::table::GameView, now: std::time::Instant) -> String {
    use crate::game::Side;
    let title = format!("{} vs {}", view.seats[0].name, view.seats[1].name);
    let body = html! {
        h1 { (title) }
        p { (view.position.rules().describe()) @if view.rated { ", rated" } @else { ", casual" } " · live" }
        div.live data-events={"/live/" (id) "/events"} {
            ul.players {
                @for side in [Side::First, Side::Second] {
                    @let seat = view.seat(side);
                    li {
                        span class={"swatch c-" (seat.colour.name().to_ascii_lowercase())} {}
                        " " (seat.label())
                        @if let Some(r) = seat.rating { " " (r) }
                        @if let Some(c) = &view.clock {
                            " " span.clock data-side=(side.index()) { (clock_text(c.left_at(side, now).as_millis() as u64)) }
                        }
                    }
                }
            }
            p.status { b { (live_status(view)) } }
            div.board-now { (live_board(view)) }
            p { "Moves: " span.list { (live_moves(view)) } }
            p.after {
                @if let Some(id) = &view.record {
                    a href={"/g/" (id)} { "The recorded game" }
                }
            }
        }
        p.hint { "The board follows the game as it is played (with JavaScript; otherwise reload the page)." }
        script src="/static/live.js" defer {}
    };
    layout(&title, body)
}
