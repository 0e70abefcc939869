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
use crate::lang::Lang;
use crate::protocol::GameSummary;
use crate::session::words;
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
    /// The message of the day (`None`: the built-in welcome).
    pub motd: Option<&'a str>,
    /// `ssh play@ADDRESS`, when the address is configured.
    pub connect: Option<String>,
    pub online: usize,
    pub playing: usize,
    /// The games in play (at most the lobby's list).
    pub games: &'a [GameSummary],
    /// The daily puzzle in words, if there are puzzles.
    pub daily: Option<&'a str>,
}

/// A whole page around `body`, in `lang`: the header's links, and at the
/// foot the links to the page in every language (each in its own words;
/// the choice is kept in a cookie).
fn layout(lang: Lang, title: &str, body: Markup) -> String {
    let board = |kind| {
        lang.text_with(
            "web-leaderboard-of",
            &[("game", words::game_name(lang, kind).into())],
        )
    };
    html! {
        (DOCTYPE)
        html lang=(lang.id()) {
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
                        a href="/leaderboard/connect4" { (board(GameKind::ConnectFour)) }
                        " · "
                        a href="/leaderboard/gomoku" { (board(GameKind::Gomoku)) }
                    }
                }
                main { (body) }
                footer {
                    nav.languages aria-label=(lang.text("web-languages")) {
                        @for (i, l) in Lang::ALL.into_iter().enumerate() {
                            @if i > 0 { " · " }
                            @if l == lang {
                                b lang=(l.id()) { (l.own_name()) }
                            } @else {
                                a href={"?lang=" (l.id())} lang=(l.id()) hreflang=(l.id()) { (l.own_name()) }
                            }
                        }
                    }
                }
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

pub fn home(lang: Lang, h: &Home) -> String {
    let t = |id: &str| lang.text(id);
    layout(
        lang,
        h.name,
        html! {
            h1 { (h.name) }
            @let motd = h.motd.map_or_else(|| t("lobby-welcome"), str::to_string);
            @if !motd.is_empty() { p.motd { (motd) } }
            @if let Some(c) = &h.connect {
                p { (t("web-play-in-terminal")) " " code { (c) } }
            }
            p.counts {
                (lang.text_with(
                    "web-counts",
                    &[("online", h.online.into()), ("playing", h.playing.into())],
                ))
            }
            h2 { (t("web-games-in-play")) }
            @if h.games.is_empty() {
                p { (t("web-no-games")) }
            } @else {
                table {
                    thead { tr {
                        th { (t("games-game")) } th { (t("games-players")) }
                        th { (t("games-moves")) } th { (t("games-watching")) }
                    } }
                    tbody {
                        @for g in h.games {
                            tr {
                                @let [a, b] = crate::session::games::summary_players(lang, g);
                                td { (crate::session::games::summary_game(lang, g)) }
                                td {
                                    a href=(live_path(g)) { (a) " " (t("players-vs")) " " (b) }
                                }
                                td.num { (g.moves) }
                                td.num { (g.watchers) }
                            }
                        }
                    }
                }
            }
            @if let Some(d) = h.daily {
                h2 { (t("puzzle-daily")) }
                p {
                    a href="/puzzle/daily" { (d) } " " (t("web-daily-how"))
                }
            }
            h2 { (t("web-leaderboards")) }
            ul {
                li { a href="/leaderboard/connect4" { (words::game_name(lang, GameKind::ConnectFour)) } }
                li { a href="/leaderboard/gomoku" { (words::game_name(lang, GameKind::Gomoku)) } }
            }
        },
    )
}

pub fn leaderboard(lang: Lang, board: &Leaderboard) -> String {
    let t = |id: &str| lang.text(id);
    let title = lang.text_with(
        "web-leaderboard-of",
        &[("game", words::game_name(lang, board.game).into())],
    );
    layout(
        lang,
        &title,
        html! {
            h1 { (title) }
            @if board.top.is_empty() {
                p { (t("web-nobody-qualifies")) }
            } @else {
                table {
                    thead { tr {
                        th { "#" } th { (t("web-player")) } th { (t("records-rating-head")) }
                        th { "±" } th { (t("records-games-head")) }
                    } }
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
fn result_for(lang: Lang, g: &GameRecord, account: &str) -> (String, Option<usize>) {
    let seat = g
        .players
        .iter()
        .position(|p| p.account.as_deref() == Some(account));
    let word = match (g.result, g.winner, seat) {
        (GameResult::Win, Some(w), Some(s)) if usize::from(w) == s => "outcome-won",
        (GameResult::Win, _, _) => "outcome-lost",
        (GameResult::Draw, _, _) => "outcome-draw",
        (GameResult::Aborted, _, _) => "outcome-aborted",
    };
    (lang.text(word), seat)
}

/// The date of a time in milliseconds: `2026-12-06`.
fn date(ms: i64) -> String {
    crate::store::rfc3339(ms).chars().take(10).collect()
}

/// A rating history as a small line chart: the ratings after each rated
/// game of one kind, oldest first.
fn rating_chart(lang: Lang, points: &[f64]) -> Markup {
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
            role="img" aria-label=(lang.text("web-rating-history")) {
            text x="2" y="12" { (format!("{hi:.0}")) }
            text x="2" y=(H - 2.0) { (format!("{lo:.0}")) }
            polyline points=(line.join(" ")) {}
        }
    }
}

pub fn profile(
    lang: Lang,
    p: &Profile,
    games: &[GameRecord],
    puzzles: Option<&PuzzleStanding>,
) -> String {
    let listed = &games[..games.len().min(50)];
    let t = |id: &str| lang.text(id);
    layout(
        lang,
        &p.name,
        html! {
            h1 { (p.name) }
            p { (lang.text_with("web-playing-since", &[("date", date(p.created_ms).into())])) }
            h2 { (t("web-ratings")) }
            @if p.ratings.is_empty() {
                p { (t("web-no-rated-game")) }
            }
            @for r in &p.ratings {
                @let history: Vec<f64> = games.iter().rev().filter(|g| g.game == r.game).filter_map(|g| {
                    g.players.iter().find(|s| s.account.as_deref() == Some(p.account.as_str()))?.rating_after
                }).collect();
                section.rating {
                    h3 { (words::game_name(lang, r.game)) }
                    p {
                        b { (format!("{:.0}", r.rating.rating)) } (format!(" ± {:.0}", r.rating.deviation))
                        " · "
                        (lang.text_with("web-rated-games", &[
                            ("count", r.games.into()),
                            ("won", r.wins.into()),
                            ("lost", r.losses.into()),
                            ("drawn", r.draws.into()),
                        ]))
                    }
                    @if history.len() >= 2 { (rating_chart(lang, &history)) }
                }
            }
            @if let Some(s) = puzzles {
                h2 { (t("lobby-puzzles")) }
                p {
                    b { (format!("{:.0}", s.rating.rating)) } (format!(" ± {:.0}", s.rating.deviation))
                    " · "
                    (lang.text_with("web-solved-of", &[
                        ("solved", s.solved.into()),
                        ("tried", s.attempts.into()),
                    ]))
                }
            }
            h2 { (t("web-last-games")) }
            @if listed.is_empty() {
                p { (t("records-no-games")) }
            } @else {
                table {
                    thead { tr {
                        th { (t("web-date")) } th { (t("games-game")) } th { (t("web-opponent")) }
                        th { (t("web-result")) } th { (t("web-how")) } th {}
                    } }
                    tbody {
                        @for g in listed {
                            @let (word, seat) = result_for(lang, g, &p.account);
                            @let other = &g.players[1 - seat.unwrap_or(0)];
                            tr {
                                td { (date(g.started_ms)) }
                                td { (words::game_name(lang, g.game)) }
                                td {
                                    @if other.account.is_some() {
                                        a href=(profile_path(&other.name)) { (other.name) }
                                    } @else {
                                        (other.name)
                                    }
                                }
                                td { (word) }
                                td { (reason_words(lang, g)) }
                                td { a href={"/g/" (g.id)} { (t("web-view")) } }
                            }
                        }
                    }
                }
            }
        },
    )
}

/// Why a game ended, in words.
fn reason_words(lang: Lang, g: &GameRecord) -> String {
    use crate::store::Reason;
    lang.text(match g.reason {
        Reason::Line => "reason-line",
        Reason::Draw => "web-reason-full",
        Reason::ForfeitLeft => "web-reason-left",
        Reason::ForfeitIdle => "why-idle",
        Reason::Flag => "reason-flag",
        Reason::Resign => "reason-resigned",
        Reason::Aborted => "web-reason-cut-short",
    })
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
pub fn game(
    lang: Lang,
    g: &GameRecord,
    shown: Option<usize>,
    notes: Option<&[MoveNote]>,
) -> Option<String> {
    let t = |id: &str| lang.text(id);
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
    let label = lang.text_with(
        "web-board",
        &[("game", words::game_name(lang, rules.kind()).into())],
    );
    let board = board::Board {
        label: &label,
        rules,
        moves: &moves,
        colours,
        shown,
        line: &g.line,
        best: None,
        links: &[],
    };
    let title = format!(
        "{} {} {}",
        g.players[order[0]].name,
        t("players-vs"),
        g.players[order[1]].name
    );
    let result = match (g.result, g.winner) {
        (GameResult::Win, Some(w)) => lang.text_with(
            "review-won",
            &[
                (
                    "name",
                    g.players[usize::from(w.min(1))].name.as_str().into(),
                ),
                ("reason", reason_words(lang, g).into()),
            ],
        ),
        (GameResult::Draw, _) => lang.text_with(
            "web-draw-because",
            &[("reason", reason_words(lang, g).into())],
        ),
        _ => t("web-cut-short"),
    };
    let kind = t(if g.rated {
        "invite-rated"
    } else {
        "invite-casual"
    });
    let body = html! {
        h1 { (title) }
        p {
            (words::rules(lang, &rules)) ", " (kind)
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
                    " (" (colour_word(lang, &p.colour))
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
                a.step href="?move=0#board" data-step="first" { "« " (t("web-first")) } " "
                a.step href={"?move=" (shown.saturating_sub(1)) "#board"} data-step="back" { "◀ " (t("web-back")) } " "
                span.at data-text=(lang.text_with("web-move-of", &[("move", "#n".into()), ("count", "#m".into())])) {
                    (lang.text_with("web-move-of", &[("move", shown.into()), ("count", moves.len().into())]))
                } " "
                a.step href={"?move=" ((shown + 1).min(moves.len())) "#board"} data-step="next" { (t("web-next")) " ▶" } " "
                a.step href={"?move=" (moves.len()) "#board"} data-step="last" { (t("web-last")) " »" }
            }
        }
        h2 id="board" { (t("web-moves")) }
        ol.moves {
            @for (i, m) in g.moves.iter().enumerate() {
                @let note = notes.and_then(|n| n.get(i));
                li data-n=(i + 1) class=[(i + 1 == shown).then_some("current")] {
                    a href={"?move=" (i + 1) "#board"} { (move_words(&rules, m.x, m.y)) }
                    " "
                    span.time { (format!("{:.1} s", m.ms as f64 / 1000.0)) }
                    @if let Some(n) = note {
                        @if !n.label.is_empty() && n.label != "best" {
                            " " span.label { (label_word(lang, &n.label)) }
                        }
                        @if !n.best.is_empty() && n.label != "best" {
                            " " span.best { (lang.text_with("web-best", &[("moves", n.best.join(", ").into())])) }
                        }
                    }
                }
            }
        }
        p.links {
            a href={"/g/" (g.id) ".json"} { "JSON" } " · " a href={"/g/" (g.id) ".txt"} { (t("web-text")) }
        }
        script src="/static/replay.js" defer {}
    };
    Some(layout(lang, &title, body))
}

/// A colour as the record keeps it (`Red`), in `lang`.
fn colour_word(lang: Lang, name: &str) -> String {
    crate::game::Colour::ALL
        .into_iter()
        .find(|c| c.name().eq_ignore_ascii_case(name))
        .map_or_else(|| name.to_string(), |c| words::colour(lang, c))
}

/// An analysis label as the record keeps it (`mistake`), in `lang`.
fn label_word(lang: Lang, label: &str) -> String {
    let id = match label {
        "slower" => "label-slower",
        "mistake" => "label-mistake",
        "blunder" => "label-blunder",
        "missed win" => "label-missed-win",
        "allowed a win" => "label-allowed-win",
        _ => return label.to_string(),
    };
    lang.text(id)
}

/// The page for a path that leads nowhere: what is not here (the
/// message `what`).
pub fn not_found(lang: Lang, what: &str) -> String {
    let title = lang.text("web-not-found");
    layout(
        lang,
        &title,
        html! {
            h1 { (title) }
            p { (lang.text(what)) }
            p { a href="/" { (lang.text("web-front-page")) } }
        },
    )
}

/// The page for too many requests.
pub fn too_many(lang: Lang, retry_secs: u64) -> String {
    layout(
        lang,
        &lang.text("web-slow-down"),
        html! {
            h1 { (lang.text("web-too-many")) }
            p { (lang.text_with("web-try-again-in", &[("seconds", retry_secs.into())])) }
        },
    )
}

/// The board of a game in play, for its page and its events.
fn live_board(lang: Lang, view: &crate::table::GameView) -> Markup {
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
    let label = lang.text_with(
        "web-board",
        &[(
            "game",
            words::game_name(lang, view.position.rules().kind()).into(),
        )],
    );
    board::svg(&board::Board {
        label: &label,
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
fn live_status(lang: Lang, view: &crate::table::GameView) -> String {
    match (words::ending(lang, view), view.to_move()) {
        (Some(end), _) => end,
        (None, Some(side)) => lang.text_with(
            "status-to-move",
            &[("player", words::seat(lang, view.seat(side)).into())],
        ),
        (None, None) => String::new(),
    }
}

/// One state of a game in play as its event (JSON): the board, the
/// status line, both clocks in milliseconds left at `now` with the one
/// running, whether it is over, and once it is recorded, its id.
pub fn live_event(lang: Lang, view: &crate::table::GameView, now: std::time::Instant) -> String {
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
        "board": live_board(lang, view).into_string(),
        "status": live_status(lang, view),
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
pub fn live(
    lang: Lang,
    id: &str,
    view: &crate::table::GameView,
    now: std::time::Instant,
) -> String {
    use crate::game::Side;
    let t = |id: &str| lang.text(id);
    let title = format!(
        "{} {} {}",
        view.seats[0].name,
        t("players-vs"),
        view.seats[1].name
    );
    let kind = t(if view.rated {
        "invite-rated"
    } else {
        "invite-casual"
    });
    let body = html! {
        h1 { (title) }
        p { (words::rules(lang, view.position.rules())) ", " (kind) " · " (t("web-live")) }
        div.live data-events={"/live/" (id) "/events"} {
            ul.players {
                @for side in [Side::First, Side::Second] {
                    @let seat = view.seat(side);
                    li {
                        span class={"swatch c-" (seat.colour.name().to_ascii_lowercase())} {}
                        " " (words::seat(lang, seat))
                        @if let Some(r) = seat.rating { " " (r) }
                        @if let Some(c) = &view.clock {
                            " " span.clock data-side=(side.index()) { (clock_text(c.left_at(side, now).as_millis() as u64)) }
                        }
                    }
                }
            }
            p.status { b { (live_status(lang, view)) } }
            div.board-now { (live_board(lang, view)) }
            p { (t("web-moves")) ": " span.list { (live_moves(view)) } }
            p.after data-text=(t("web-recorded-game")) {
                @if let Some(id) = &view.record {
                    a href={"/g/" (id)} { (t("web-recorded-game")) }
                }
            }
        }
        p.hint { (t("web-live-hint")) }
        script src="/static/live.js" defer {}
    };
    layout(lang, &title, body)
}
