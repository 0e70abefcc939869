//! `/puzzle/daily`: the day's puzzle, played by clicking a column or an
//! intersection (or typing the move into a form, for terminal browsers).
//! Nothing is kept between requests: the address carries the person's
//! moves (`?play=D,E`), the host checks them against the puzzle's line
//! ([`crate::session::puzzle::step`], the terminal's judge) and answers
//! each right one from the line; a wrong one ends the attempt, with the
//! host's refutation marked on the board and the solution given.

use maud::html;

use super::{board, layout};
use crate::game::Colour;
use crate::game::{Move, Position};
use crate::lang::Lang;
use crate::session::puzzle::{PuzzleView, Task};
use crate::session::words;

/// Where an attempt on the web stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    /// The person's turn (after the host's answer, if any).
    Solving,
    Solved,
    /// Off the line; the host's answer to the wrong move, if it found one.
    Failed {
        refutation: Option<Move>,
    },
}

/// What the page shows.
pub struct PuzzlePage<'a> {
    pub view: &'a PuzzleView,
    /// The moves from the puzzle's position: the person's and the host's
    /// answers in turn (a failed attempt ends with the wrong move).
    pub played: &'a [Move],
    pub attempt: Attempt,
    /// Why the last move asked was refused (illegal, unreadable), if so.
    pub refused: Option<&'a str>,
    /// `ssh play@ADDRESS`, when the host's address is configured.
    pub connect: Option<&'a str>,
}

/// The person's moves among `played` (every other one, from the first).
fn mine(played: &[Move]) -> impl Iterator<Item = Move> + '_ {
    played.iter().step_by(2).copied()
}

/// The address that plays `next` after the person's moves so far.
fn play_href(rules: &crate::game::Rules, played: &[Move], next: Option<Move>) -> String {
    let moves: Vec<String> = mine(played)
        .chain(next)
        .map(|m| rules.format_move(m))
        .collect();
    if moves.is_empty() {
        "/puzzle/daily".to_string()
    } else {
        format!("/puzzle/daily?play={}", moves.join(","))
    }
}

pub fn page(lang: Lang, p: &PuzzlePage) -> String {
    let v = p.view;
    let rules = v.rules;
    let t = |id: &str| lang.text(id);
    let fmt = |m: Move| rules.format_move(m);
    let (me, them) = if v.position.len().is_multiple_of(2) {
        (Colour::Red, Colour::Yellow)
    } else {
        (Colour::Yellow, Colour::Red)
    };
    let (me, them) = (words::colour(lang, me), words::colour(lang, them));
    let refutation = match p.attempt {
        Attempt::Failed { refutation } => refutation,
        _ => None,
    };
    // The board: the puzzle's position, the moves played, the refutation.
    let mut pos = Position::new(rules);
    let all: Vec<Move> = v
        .position
        .iter()
        .chain(p.played)
        .chain(&refutation)
        .copied()
        .collect();
    for m in &all {
        if pos.play(*m).is_err() {
            break;
        }
    }
    let points = pos.history();
    let moves: Vec<(u8, u8, u8)> = points
        .iter()
        .enumerate()
        .map(|(i, pt)| (pt.x, pt.y, (i % 2) as u8))
        .collect();
    let best = refutation.and(points.last().map(|pt| (pt.x, pt.y)));
    let links: Vec<((u8, u8), String, String)> = if p.attempt == Attempt::Solving {
        let mut out = Vec::new();
        for y in 0..rules.height() {
            for x in 0..rules.width() {
                let m = if rules.kind().has_gravity() {
                    if y > 0 {
                        continue;
                    }
                    Move::Column(x)
                } else {
                    Move::Point(crate::game::Point::new(x, y))
                };
                if pos.check(m).is_ok() {
                    out.push((
                        (x, y),
                        play_href(&rules, p.played, Some(m)),
                        lang.text_with("web-play-move", &[("move", fmt(m).into())]),
                    ));
                }
            }
        }
        out
    } else {
        Vec::new()
    };
    let label = lang.text_with(
        "web-board",
        &[("game", words::game_name(lang, rules.kind()).into())],
    );
    let svg = board::svg(&board::Board {
        label: &label,
        rules,
        moves: &moves,
        colours: ["Red", "Yellow"],
        shown: moves.len(),
        line: &[],
        best,
        links: &links,
    });
    let task = match (v.task, rules.kind()) {
        (Task::Win { win_in: Some(n) }, crate::game::GameKind::ConnectFour) => {
            lang.text_with("puzzle-task-win-in", &[("count", n.into())])
        }
        (Task::Win { win_in: Some(n) }, _) => {
            lang.text_with("puzzle-task-fours", &[("count", n.into())])
        }
        (Task::Win { win_in: None }, _) => t("puzzle-task-win"),
        (Task::Hold, _) => t("puzzle-task-hold"),
    };
    let to_move = lang.text_with("puzzle-to-move", &[("colour", me.into())]);
    let answers = |m: Move| {
        lang.text_with(
            "puzzle-answers",
            &[("colour", them.clone().into()), ("move", fmt(m).into())],
        )
    };
    let solution: Vec<String> = v.line.iter().map(|&m| fmt(m)).collect();
    let last_mine = p.played.len().checked_sub(1);
    let body = html! {
        h1 { (t("puzzle-daily")) }
        p.task {
            (words::rules(lang, &rules)) " · " b { (to_move) ": " (task) }
            " · " (lang.text_with("puzzle-rating", &[("rating", v.rating.into())]))
        }
        div.puzzle.failed[matches!(p.attempt, Attempt::Failed { .. })] { (svg) }
        p.status {
            @match p.attempt {
                Attempt::Solving => {
                    @if let Some(why) = p.refused {
                        span.refused { (why) } " · "
                    }
                    @match (p.played.last(), p.played.len() >= 2) {
                        (Some(&answer), true) => {
                            (t("web-puzzle-right")) " " (answers(answer)) ": " (t("puzzle-your-move")) "."
                        }
                        _ => {
                            @if rules.kind().has_gravity() {
                                (t("web-puzzle-click-column"))
                            } @else {
                                (t("web-puzzle-click-point"))
                            }
                        }
                    }
                }
                Attempt::Solved => {
                    b { (t("puzzle-solved")) } " "
                    (lang.text_with("web-the-line", &[("moves", solution.join(" ").into())]))
                }
                Attempt::Failed { refutation } => {
                    @let wrong = last_mine.map(|i| fmt(p.played[i])).unwrap_or_default();
                    b {
                        @if v.task == Task::Hold {
                            (lang.text_with("puzzle-loses", &[("move", wrong.clone().into())]))
                        } @else {
                            (lang.text_with("puzzle-not-the-move", &[("move", wrong.clone().into())]))
                        }
                    }
                    @if let Some(r) = refutation {
                        ": " (answers(r)) " " (t("web-puzzle-ringed")) "."
                    } @else {
                        "."
                    }
                    @if let Some(b) = last_mine.and_then(|i| v.line.get(i)) {
                        " " (t("web-puzzle-the-move-was")) " " b { (fmt(*b)) } "."
                    }
                }
            }
        }
        @if p.attempt == Attempt::Solving {
            form.move method="get" action="/puzzle/daily" {
                @let before: Vec<String> = mine(p.played).map(fmt).collect();
                @if !before.is_empty() {
                    input type="hidden" name="play" value=(before.join(","));
                }
                label { (t("web-puzzle-type-it")) " " input type="text" name="move" size="4" maxlength="4"
                    placeholder=(if rules.kind().has_gravity() { "D" } else { "h8" }) autocomplete="off"; }
                " " button type="submit" { (t("web-puzzle-play")) }
            }
        } @else {
            p {
                @if matches!(p.attempt, Attempt::Failed { .. }) {
                    (lang.text_with("web-solution", &[("moves", solution.join(" ").into())])) ". "
                }
                a href="/puzzle/daily" { (t("web-puzzle-again")) }
            }
        }
        p.note {
            (t("web-puzzle-unrated"))
            @if let Some(c) = p.connect { " " code { (c) } }
        }
    };
    layout(lang, &t("puzzle-daily"), body)
}
