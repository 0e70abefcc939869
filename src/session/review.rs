//! A finished game looked at again, move by move: the replay of a game
//! from a profile, and `[a] Analysis` on a game's end screen. Once the
//! host's analysis comes, every move shows its label (best, slower win,
//! mistake, blunder; missed win, allowed a win), the values before and
//! after it, and the best move marked on the board; a summary line says
//! what each player got wrong.
//!
//! The words for the analysis are made here, where it is shown (the
//! commands that print an analysis use the same words).

use crate::lang::Lang;
use std::sync::Arc;

use crate::analysis::{Label, MoveAnalysis, gomoku, summary};
use crate::game::{Colour, GameKind, Move, Point, Position, Rules, Side};
use crate::term::board::{BoardView, Theme, draw_board};
use crate::term::input::Key;
use crate::term::screen::{Frame, Line, Style};
use crate::text;

/// One player of a finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayPlayer {
    pub name: String,
    pub colour: Colour,
}

/// A finished game, to look at again (a recorded one from a profile, or
/// the one just ended).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayView {
    pub rules: Rules,
    /// The side that moved first, then the other.
    pub players: [ReplayPlayer; 2],
    pub moves: Vec<Move>,
    /// The winning side, if one won.
    pub winner: Option<Side>,
    /// Why the game ended, in words ("four in a line", "left the game").
    pub reason: String,
    /// `YYYY-MM-DD` (empty: not shown).
    pub date: String,
    /// The record's id, when the game was recorded: its analysis is kept
    /// with it.
    pub game_id: Option<String>,
}

/// A game to analyse, as a session asks for it: the record's id when the
/// game was recorded (its analysis is then kept with it), and its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyzeAsk {
    pub game_id: Option<String>,
    pub rules: Rules,
    pub moves: Vec<Move>,
}

/// The host's answer: the analysis, or why there is none (words for the
/// person).
pub type Analysed = Result<Arc<Vec<MoveAnalysis>>, String>;

/// Where the analysis of the game shown stands.
#[derive(Debug, Clone)]
enum Analysis {
    /// Not asked for (a replay before `a`).
    NotAsked,
    /// Asked for, on its way.
    Waiting,
    Done(Arc<Vec<MoveAnalysis>>),
    Failed(String),
}

/// What a key on the review asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewAction {
    None,
    /// Ask the host for this game's analysis.
    Analyze(AnalyzeAsk),
}

/// A finished game, stepped through.
#[derive(Debug, Clone)]
pub struct Review {
    view: ReplayView,
    /// The record's id, when the game was recorded.
    game_id: Option<String>,
    /// Moves on the board (0: the empty board).
    shown: usize,
    analysis: Analysis,
    /// The language the person reads.
    lang: Lang,
}

impl Review {
    /// The game of `view` at its last move.
    pub fn new(view: ReplayView, game_id: Option<String>, lang: Lang) -> Review {
        Review {
            lang,
            shown: view.moves.len(),
            view,
            game_id,
            analysis: Analysis::NotAsked,
        }
    }

    pub fn view(&self) -> &ReplayView {
        &self.view
    }

    /// What to ask the host for this game's analysis; the review waits
    /// for it from now on.
    pub fn ask(&mut self) -> AnalyzeAsk {
        self.analysis = Analysis::Waiting;
        AnalyzeAsk {
            game_id: self.game_id.clone(),
            rules: self.view.rules,
            moves: self.view.moves.clone(),
        }
    }

    /// Whether the analysis `ask` was for this game.
    pub fn is_for(&self, ask: &AnalyzeAsk) -> bool {
        ask.rules == self.view.rules && ask.moves == self.view.moves
    }

    /// The host's answer to [`Review::ask`]. An analysis of another
    /// length than the game (never sent) is not shown.
    pub fn analysed(&mut self, answer: Analysed) {
        self.analysis = match answer {
            Ok(moves) if moves.len() == self.view.moves.len() => Analysis::Done(moves),
            Ok(_) => Analysis::Failed(self.lang.text("review-does-not-fit")),
            Err(why) => Analysis::Failed(why),
        };
    }

    fn moves_analysed(&self) -> Option<&[MoveAnalysis]> {
        match &self.analysis {
            Analysis::Done(m) => Some(m),
            _ => None,
        }
    }

    /// The moves that count against their player (not best, and labelled).
    fn marked(&self) -> Vec<usize> {
        self.moves_analysed()
            .map(|moves| {
                moves
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| m.label.is_some_and(|l| l != Label::Best))
                    .map(|(i, _)| i + 1)
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn handle(&mut self, key: Key) -> ReviewAction {
        let n = self.view.moves.len();
        match key {
            // , and . step too: a client in line mode has no arrows.
            Key::Left | Key::Up | Key::Char(',') => self.shown = self.shown.saturating_sub(1),
            Key::Right | Key::Down | Key::Char(' ') | Key::Char('.') => {
                self.shown = (self.shown + 1).min(n)
            }
            Key::Home => self.shown = 0,
            Key::End => self.shown = n,
            // The next and the previous move that went wrong.
            Key::Char('n' | 'N') => {
                if let Some(&next) = self.marked().iter().find(|&&m| m > self.shown) {
                    self.shown = next;
                }
            }
            Key::Char('p' | 'P') => {
                if let Some(&prev) = self.marked().iter().rev().find(|&&m| m < self.shown) {
                    self.shown = prev;
                }
            }
            Key::Char('a' | 'A')
                if matches!(self.analysis, Analysis::NotAsked | Analysis::Failed(_)) =>
            {
                return ReviewAction::Analyze(self.ask());
            }
            _ => {}
        }
        ReviewAction::None
    }

    /// The keys this review takes, for the key bar.
    pub fn keys(&self) -> String {
        let keys = self.lang.text(match self.analysis {
            Analysis::Done(_) => "review-keys-done",
            Analysis::Waiting => "review-keys-waiting",
            Analysis::NotAsked | Analysis::Failed(_) => "review-keys",
        });
        format!(" {keys}")
    }

    /// The game's lines: title, the analysis summary, players, result,
    /// the board after the move shown (the move marked, and the best move
    /// when another was better), and that move with its label.
    pub fn lines(&self, f: &mut Frame, theme: Theme, width: usize) {
        let v = &self.view;
        let lang = self.lang;
        let colours = [v.players[0].colour, v.players[1].colour];
        let name = |side: Side| text::shorten(&v.players[side.index()].name, text::MAX_NAME_WIDTH);
        let mut title = format!(" {}", crate::session::words::rules(lang, &v.rules));
        if !v.date.is_empty() {
            title.push_str(&format!("   {}", text::sanitize(&v.date, 10)));
        }
        f.push(Line::styled(title, Style::PLAIN.bold()));
        let summary_line = match &self.analysis {
            Analysis::NotAsked => Line::styled(
                format!(" {}", lang.text("review-press-a")),
                Style::PLAIN.dim(),
            ),
            Analysis::Waiting => Line::styled(
                format!(" {}", lang.text("review-analysing")),
                Style::PLAIN.dim(),
            ),
            Analysis::Failed(why) => {
                let why = text::sanitize(why, width.saturating_sub(15));
                Line::styled(
                    format!(
                        " {}",
                        lang.text_with("review-no-analysis", &[("why", why.into())])
                    ),
                    Style::PLAIN.dim(),
                )
            }
            Analysis::Done(moves) => {
                let [first, second] = summary(moves);
                let text = format!(
                    "{}: {}, {}: {}",
                    name(Side::First),
                    summary_words(lang, &first),
                    name(Side::Second),
                    summary_words(lang, &second)
                );
                Line::plain(" ").with(
                    text::sanitize(&text, width.saturating_sub(2)),
                    Style::PLAIN.bold(),
                )
            }
        };
        f.push(summary_line);
        let mut players = Line::plain(" ");
        for side in Side::BOTH {
            let p = &v.players[side.index()];
            players.push(
                format!("{} {}", theme.stone(p.colour).trim_end(), name(side)),
                theme.style(p.colour),
            );
            if side == Side::First {
                players.push(
                    format!("  {}  ", lang.text("players-vs")),
                    Style::PLAIN.dim(),
                );
            }
        }
        let reason = text::sanitize(&v.reason, 30);
        let result = match v.winner {
            Some(s) => format!(
                "   {}",
                lang.text_with(
                    "review-won",
                    &[("name", name(s).into()), ("reason", reason.into())]
                )
            ),
            None => format!("   {reason}"),
        };
        // The result beside the players when it fits, else under them.
        if players.width() + text::width(&result) <= width {
            players.push(result, Style::PLAIN.bold());
            f.push(players);
        } else {
            f.push(players);
            f.push(Line::styled(
                format!(" {}", result.trim_start()),
                Style::PLAIN.bold(),
            ));
        }
        // The position after `shown` moves, drawn as in a game: the last
        // move and, once the line is on the board, the winning line marked.
        let mut before = Position::new(v.rules);
        for m in v.moves.iter().take(self.shown.saturating_sub(1)) {
            if before.play(*m).is_err() {
                break;
            }
        }
        let mut pos = before.clone();
        if let Some(m) = self.shown.checked_sub(1).and_then(|i| v.moves.get(i)) {
            let _ = pos.play(*m);
        }
        let this = self
            .shown
            .checked_sub(1)
            .and_then(|i| Some((i, self.moves_analysed()?.get(i)?)));
        let hint = this
            .filter(|(_, a)| a.label.is_some_and(|l| l != Label::Best) || a.label.is_none())
            .and_then(|(_, a)| a.best.iter().find(|&&b| b != a.played))
            .and_then(|&b| landing(&before, b));
        let (board, _) = draw_board(&BoardView {
            position: &pos,
            colours,
            cursor: None,
            theme,
            show_forbidden: false,
            hint,
        });
        for line in board {
            let mut indented = Line::plain("  ");
            indented.spans.extend(line.spans);
            f.push(indented);
        }
        let kind = v.rules.kind();
        let move_of = lang.text_with(
            "review-move-of",
            &[("move", self.shown.into()), ("count", v.moves.len().into())],
        );
        let mut line = Line::plain(format!(" {move_of}"));
        let mut values = None;
        if let Some(i) = self.shown.checked_sub(1) {
            let side = if i % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            line.push(
                format!(
                    "  {} {}",
                    name(side),
                    v.moves
                        .get(i)
                        .map(|m| v.rules.format_move(*m))
                        .unwrap_or_default()
                ),
                theme.style(colours[side.index()]),
            );
            if let Some((_, a)) = this {
                let label = label_words(lang, kind, a.label);
                let style = match a.label {
                    Some(Label::Best) | None => Style::PLAIN,
                    Some(_) => Style::PLAIN.bold(),
                };
                line.push(format!(": {label}"), style);
                let best: Vec<String> = a.best.iter().map(|&b| v.rules.format_move(b)).collect();
                let mut l = Line::plain("   ");
                let change = format!(
                    "{} -> {}",
                    value_words(lang, kind, a.before),
                    value_words(lang, kind, a.after)
                );
                l.push(
                    text::sanitize(&change, width.saturating_sub(4)),
                    Style::PLAIN,
                );
                if !best.is_empty() && hint.is_some() {
                    let room = width.saturating_sub(l.width() + 4);
                    // Not settled: the move is the engine's guess.
                    let id = if a.exact {
                        "review-best-marked"
                    } else {
                        "review-guess-marked"
                    };
                    let best = lang.text_with(id, &[("moves", best.join(" ").into())]);
                    l.push("   ", Style::PLAIN);
                    l.push(text::sanitize(&best, room), Style::PLAIN);
                }
                values = Some(l);
            }
        }
        f.push(line);
        f.push(values.unwrap_or_default());
    }
}

/// Where move `m` would put its stone in `pos` (`None`: nowhere).
fn landing(pos: &Position, m: Move) -> Option<Point> {
    match m {
        Move::Point(p) => pos.get(p).is_none().then_some(p),
        Move::Column(c) => {
            let h = pos.rules().height();
            (0..h)
                .map(|y| Point::new(c, y))
                .find(|p| pos.get(*p).is_none())
        }
    }
}

/// A value in words: Connect Four's `win (+3)`, `draw`, `loss (-2)`;
/// Gomoku's evaluation `+250` or a proven `win`, `loss`; `not settled`.
pub fn value_words(lang: Lang, game: GameKind, v: Option<i32>) -> String {
    match (game, v) {
        (_, None) => lang.text("value-not-settled"),
        (GameKind::ConnectFour, Some(0)) => lang.text("value-draw"),
        (GameKind::ConnectFour, Some(v)) if v > 0 => {
            lang.text_with("value-win-in", &[("value", format!("+{v}").into())])
        }
        (GameKind::ConnectFour, Some(v)) => {
            lang.text_with("value-loss-in", &[("value", v.to_string().into())])
        }
        (_, Some(v)) if v > gomoku::PROVEN => lang.text("value-win"),
        (_, Some(v)) if v < -gomoku::PROVEN => lang.text("value-loss"),
        (_, Some(v)) => format!("{v:+}"),
    }
}

/// What a label says to people. Without one: a Connect Four position the
/// solver did not settle; a Gomoku move no threat search had a word for.
pub fn label_words(lang: Lang, game: GameKind, label: Option<Label>) -> String {
    lang.text(match label {
        None if game == GameKind::ConnectFour => "value-not-settled",
        None => return "-".into(),
        Some(Label::Best) => "label-best",
        Some(Label::SlowerWin) => "label-slower",
        Some(Label::Mistake) => "label-mistake",
        Some(Label::Blunder) => "label-blunder",
        Some(Label::MissedWin) => "label-missed-win",
        Some(Label::AllowedWin) => "label-allowed-win",
    })
}

/// The counts of one player's labelled moves: `1 blunder (move 14), 2
/// mistakes (moves 3, 9)`, or `no mistakes`.
pub fn summary_words(lang: Lang, list: &[(Label, Vec<usize>)]) -> String {
    if list.is_empty() {
        return lang.text("summary-no-mistakes");
    }
    let parts: Vec<String> = list
        .iter()
        .map(|(label, at)| {
            let id = match label {
                Label::Blunder => "summary-blunders",
                Label::Mistake => "summary-mistakes",
                Label::SlowerWin => "summary-slower",
                Label::MissedWin => "summary-missed-wins",
                Label::AllowedWin => "summary-allowed-wins",
                Label::Best => "summary-best",
            };
            let moves: Vec<String> = at.iter().map(usize::to_string).collect();
            lang.text_with(
                id,
                &[
                    ("count", at.len().into()),
                    ("moves", moves.join(", ").into()),
                ],
            )
        })
        .collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ann (first) and Bob: Ann takes column a four times, Bob plays b.
    fn view() -> ReplayView {
        ReplayView {
            rules: Rules::connect_four(),
            players: [
                ReplayPlayer {
                    name: "ann".into(),
                    colour: Colour::Red,
                },
                ReplayPlayer {
                    name: "bob".into(),
                    colour: Colour::Yellow,
                },
            ],
            moves: [0u8, 1, 0, 1, 0, 1, 0].map(Move::Column).to_vec(),
            winner: Some(Side::First),
            reason: "four in a row".into(),
            date: "2026-12-06".into(),
            game_id: Some("g1".into()),
        }
    }

    /// Bob's third move (move 6) should have blocked column a.
    fn analysis() -> Vec<MoveAnalysis> {
        (0..7)
            .map(|i| {
                let played = view().moves[i];
                let (label, best, before, after) = match i {
                    5 => (
                        Some(Label::Blunder),
                        vec![Move::Column(0)],
                        Some(2),
                        Some(-18),
                    ),
                    _ => (Some(Label::Best), vec![played], Some(1), Some(1)),
                };
                MoveAnalysis {
                    played,
                    before,
                    after,
                    best,
                    label,
                    exact: true,
                }
            })
            .collect()
    }

    fn text(r: &Review, width: usize) -> String {
        let mut f = Frame::new();
        r.lines(&mut f, Theme::Ascii, width);
        f.push(Line::plain(r.keys()));
        f.to_plain("\n")
    }

    #[test]
    fn a_review_asks_once_and_shows_the_labels_values_and_best_move() {
        let mut r = Review::new(view(), Some("g1".into()), Lang::En);
        assert!(text(&r, 60).contains("press a for the analysis"));
        let ReviewAction::Analyze(ask) = r.handle(Key::Char('a')) else {
            panic!("a asks for the analysis");
        };
        assert_eq!(ask.game_id.as_deref(), Some("g1"));
        assert_eq!(ask.moves, view().moves);
        assert!(r.is_for(&ask));
        // Asked already: not again while it is on its way.
        assert_eq!(r.handle(Key::Char('a')), ReviewAction::None);
        assert!(text(&r, 60).contains("analysing"));
        r.analysed(Ok(Arc::new(analysis())));
        let shown = text(&r, 60);
        assert!(
            shown.contains("ann: no mistakes, bob: 1 blunder (move 6)"),
            "{shown}"
        );
        // At the last move (the win): its label and values.
        assert!(shown.contains("Move 7 of 7"), "{shown}");
        assert!(shown.contains("ann A: best"), "{shown}");
        // n and p go to the moves that went wrong: bob's move 6, where
        // the better column is named and marked on the board (a's next
        // free cell, row 3).
        r.handle(Key::Char('p'));
        let shown = text(&r, 60);
        assert!(shown.contains("Move 6 of 7  bob B: blunder"), "{shown}");
        assert!(
            shown.contains("win (+2) -> loss (-18)   best: A (marked *)"),
            "{shown}"
        );
        let row3 = shown
            .lines()
            .find(|l| l.trim_end().ends_with("| 3"))
            .unwrap();
        assert!(row3.contains("|* |"), "{shown}");
        // Nothing wrong earlier: p stays; Home is the empty board.
        r.handle(Key::Char('p'));
        assert!(text(&r, 60).contains("Move 6 of 7"));
        r.handle(Key::Home);
        assert!(text(&r, 60).contains("Move 0 of 7"));
        r.handle(Key::Char('n'));
        assert!(text(&r, 60).contains("Move 6 of 7"));
        // Every line fits the narrowest game screen.
        for w in [60, 80] {
            for line in text(&r, w).lines() {
                assert!(text::width(line) <= w, "{line:?} is wider than {w}");
            }
        }
    }

    #[test]
    fn a_summary_counts_each_kind_with_its_moves() {
        let list = vec![(Label::Blunder, vec![14]), (Label::Mistake, vec![3, 9])];
        assert_eq!(
            summary_words(Lang::En, &list),
            "1 blunder (move 14), 2 mistakes (moves 3, 9)"
        );
        assert_eq!(summary_words(Lang::En, &[]), "no mistakes");
    }

    #[test]
    fn an_answer_for_another_game_or_of_the_wrong_length_is_not_shown() {
        let mut r = Review::new(view(), None, Lang::En);
        let ask = r.ask();
        let mut other = ask.clone();
        other.moves.pop();
        assert!(!r.is_for(&other));
        r.analysed(Ok(Arc::new(analysis()[..3].to_vec())));
        assert!(text(&r, 60).contains("does not fit"), "{}", text(&r, 60));
        r.analysed(Err("the host is busy".into()));
        assert!(text(&r, 60).contains("no analysis: the host is busy"));
        // A failed analysis may be asked for again.
        assert!(matches!(r.handle(Key::Char('a')), ReviewAction::Analyze(_)));
    }
}
