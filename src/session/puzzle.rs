//! `[z] Puzzles`: a position from a real game, whose turn it is and what
//! to find ("find the winning move", "the only move that does not lose");
//! the person plays the whole solution line, the host answering each move
//! from the line (Connect Four: the solver's best defence; Gomoku and
//! Renju: the forced answer to each four). A move off the line fails the
//! puzzle and the host shows its refutation on the board. Solved or not,
//! the attempt goes to the host, which rates it (accounts: both the
//! player and the puzzle, on the first try) and says what it did.
//!
//! Data in, words out: the host sends a [`PuzzleView`], the screen asks
//! with [`PuzzleAction`]s, the words are made here.

use super::words;
use crate::game::{Colour, GameKind, Move, Point, Position, Rules, Side};
use crate::lang::Lang;
use crate::term::board::{BoardView, Cursor, Theme, draw_board};
use crate::term::input::Key;
use crate::term::screen::{Frame, Line, Style};
use crate::text;

/// What a puzzle asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// Find the winning move (a win in `win_in` of the mover's stones).
    Win { win_in: Option<i64> },
    /// Find the only move that does not lose.
    Hold,
}

/// A puzzle as the host hands it to the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleView {
    pub id: String,
    pub rules: Rules,
    pub task: Task,
    /// The moves from the empty board to the puzzle.
    pub position: Vec<Move>,
    /// The solution: the person's moves and the host's answers in turn.
    pub line: Vec<Move>,
    /// The puzzle's rating, rounded.
    pub rating: i64,
    /// The day's puzzle.
    pub daily: bool,
    /// This attempt changes ratings (an account's first try).
    pub rated: bool,
    /// The person's puzzle rating before it (accounts), rounded.
    pub my_rating: Option<i64>,
}

/// Which puzzle the person asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PuzzleAsk {
    /// From the lobby: the day's puzzle if not tried yet, else the next.
    Start,
    /// The next one near the person's rating.
    Next,
    /// The day's puzzle (again).
    Daily,
}

/// A finished attempt, for the host to record and rate: every move
/// played from the puzzle's position, the host's answers included (a
/// failed one ends with the wrong move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleAttempt {
    pub id: String,
    pub rules: Rules,
    pub position: Vec<Move>,
    pub played: Vec<Move>,
    pub solved: bool,
}

/// What the host made of an attempt.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PuzzleOutcome {
    /// The person's puzzle rating before and after (a rated attempt).
    pub rating: Option<(i64, i64)>,
    /// Tried before: the attempt changed no rating.
    pub repeat: bool,
    /// A failed attempt: the host's answer to the wrong move.
    pub refutation: Option<Move>,
    /// The attempt could not be recorded (words for the person).
    pub trouble: Option<String>,
}

/// What a key on the puzzle screen asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleAction {
    None,
    /// Another puzzle.
    Ask(PuzzleAsk),
    /// The attempt is over: record it.
    Done(PuzzleAttempt),
    Lobby,
    Quit,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    /// The host is finding a puzzle.
    Loading,
    /// No puzzle to show (none made yet, the store away): why.
    Empty(String),
    Solving,
    /// Over: solved or not; the host's outcome once it came.
    Over {
        solved: bool,
        outcome: Option<PuzzleOutcome>,
    },
}

/// Longest move typed (`o15`).
const MAX_TYPED: usize = 4;

/// The puzzle screen.
#[derive(Debug, Clone)]
pub struct PuzzleScreen {
    view: Option<PuzzleView>,
    phase: Phase,
    /// Moves played from the puzzle's position (the person's and the
    /// host's answers; a failed attempt's last is the wrong move).
    played: Vec<Move>,
    /// The solution drawn on the board (after the attempt).
    showing_solution: bool,
    cursor: Point,
    typed: String,
    notice: Option<String>,
    /// The language the person reads.
    pub lang: Lang,
}

impl Default for PuzzleScreen {
    fn default() -> Self {
        PuzzleScreen::new()
    }
}

impl PuzzleScreen {
    /// Waiting for the host's puzzle.
    pub fn new() -> PuzzleScreen {
        PuzzleScreen {
            view: None,
            phase: Phase::Loading,
            played: Vec::new(),
            showing_solution: false,
            cursor: Point::new(0, 0),
            typed: String::new(),
            notice: None,
            lang: Lang::En,
        }
    }

    /// The host's puzzle, or why there is none.
    pub fn set_puzzle(&mut self, puzzle: Result<PuzzleView, String>) {
        *self = PuzzleScreen {
            lang: self.lang,
            ..PuzzleScreen::new()
        };
        match puzzle {
            Ok(view) => {
                // The cursor starts in the middle of the board.
                self.cursor = Point::new(view.rules.width() / 2, view.rules.height() / 2);
                self.view = Some(view);
                self.phase = Phase::Solving;
            }
            Err(why) => self.phase = Phase::Empty(why),
        }
    }

    /// The id of the puzzle shown.
    pub fn puzzle_id(&self) -> Option<&str> {
        self.view.as_ref().map(|v| v.id.as_str())
    }

    /// What the host made of the attempt at puzzle `id`.
    pub fn set_outcome(&mut self, id: &str, outcome: PuzzleOutcome) {
        if self.puzzle_id() != Some(id) {
            return;
        }
        if let Phase::Over { outcome: o, .. } = &mut self.phase {
            *o = Some(outcome);
        }
    }

    /// Whether keys type into the move field (a Gomoku move being typed).
    pub fn is_text_step(&self) -> bool {
        self.phase == Phase::Solving && !self.typed.is_empty()
    }

    /// Whether a line from a client in line mode is a move (typed, then
    /// entered) rather than keys.
    pub fn wants_text(&self) -> bool {
        self.phase == Phase::Solving
    }

    /// A message for the person (from the host).
    pub fn set_notice(&mut self, text: impl Into<String>) {
        self.notice = Some(text.into());
    }

    /// A pasted character: typed into the move field, never a command.
    pub fn paste(&mut self, c: char) {
        if self.phase == Phase::Solving
            && c.is_ascii_alphanumeric()
            && self.typed.chars().count() < MAX_TYPED
        {
            self.typed.push(c);
        }
    }

    fn kind(&self) -> GameKind {
        self.view
            .as_ref()
            .map_or(GameKind::ConnectFour, |v| v.rules.kind())
    }

    /// The position with the puzzle's moves and `extra` after them.
    fn position_with(&self, extra: &[Move]) -> Option<Position> {
        let v = self.view.as_ref()?;
        let mut pos = Position::new(v.rules);
        for m in v.position.iter().chain(extra) {
            pos.play(*m).ok()?;
        }
        Some(pos)
    }

    /// The side the person plays: the one to move at the puzzle.
    fn my_side(&self) -> Side {
        let n = self.view.as_ref().map_or(0, |v| v.position.len());
        if n.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    /// The person plays `m`.
    fn play(&mut self, m: Move) -> PuzzleAction {
        let Some(view) = self.view.clone() else {
            return PuzzleAction::None;
        };
        match step(&view, &self.played, m) {
            Err(why) => {
                self.notice = Some(why.words(self.lang));
                PuzzleAction::None
            }
            Ok(Step::Failed) => {
                self.notice = None;
                self.played.push(m);
                self.finish(false)
            }
            Ok(Step::Solved) => {
                self.notice = None;
                self.played.push(m);
                self.finish(true)
            }
            Ok(Step::Answered(answer)) => {
                self.played.extend([m, answer]);
                let colour = words::colour(self.lang, self.their_colour());
                self.notice = Some(self.lang.text_with(
                    "puzzle-answers",
                    &[
                        ("colour", colour.into()),
                        ("move", view.rules.format_move(answer).into()),
                    ],
                ));
                PuzzleAction::None
            }
        }
    }

    fn finish(&mut self, solved: bool) -> PuzzleAction {
        let Some(view) = &self.view else {
            return PuzzleAction::None;
        };
        self.phase = Phase::Over {
            solved,
            outcome: None,
        };
        PuzzleAction::Done(PuzzleAttempt {
            id: view.id.clone(),
            rules: view.rules,
            position: view.position.clone(),
            played: self.played.clone(),
            solved,
        })
    }

    fn my_colour(&self) -> Colour {
        colour_of(self.my_side())
    }

    fn their_colour(&self) -> Colour {
        colour_of(self.my_side().other())
    }

    fn move_cursor(&mut self, dx: i32, dy: i32) {
        let Some(v) = &self.view else { return };
        let wrap = |c: u8, d: i32, n: u8| ((i32::from(c) + d).rem_euclid(i32::from(n))) as u8;
        self.cursor.x = wrap(self.cursor.x, dx, v.rules.width());
        if !v.rules.kind().has_gravity() {
            self.cursor.y = wrap(self.cursor.y, dy, v.rules.height());
        }
    }

    fn cursor_move(&self) -> Move {
        match self.kind() {
            GameKind::ConnectFour => Move::Column(self.cursor.x),
            GameKind::Gomoku | GameKind::Renju => Move::Point(self.cursor),
        }
    }

    pub fn handle(&mut self, key: Key) -> PuzzleAction {
        match key {
            Key::CtrlC | Key::CtrlD => return PuzzleAction::Quit,
            Key::Esc if !self.typed.is_empty() => {
                self.typed.clear();
                return PuzzleAction::None;
            }
            Key::Esc => return PuzzleAction::Lobby,
            _ => {}
        }
        match self.phase.clone() {
            Phase::Loading => PuzzleAction::None,
            Phase::Empty(_) => match key {
                Key::Char('q' | 'Q' | 'l' | 'L') | Key::Enter | Key::Backspace => {
                    PuzzleAction::Lobby
                }
                _ => PuzzleAction::None,
            },
            Phase::Over { .. } => match key {
                Key::Char('n' | 'N') | Key::Enter => {
                    self.phase = Phase::Loading;
                    PuzzleAction::Ask(PuzzleAsk::Next)
                }
                Key::Char('d' | 'D') => {
                    self.phase = Phase::Loading;
                    PuzzleAction::Ask(PuzzleAsk::Daily)
                }
                Key::Char('s' | 'S') => {
                    self.showing_solution = !self.showing_solution;
                    PuzzleAction::None
                }
                Key::Char('q' | 'Q' | 'l' | 'L') | Key::Backspace => PuzzleAction::Lobby,
                _ => PuzzleAction::None,
            },
            Phase::Solving => self.solving_key(key),
        }
    }

    fn solving_key(&mut self, key: Key) -> PuzzleAction {
        let Some(rules) = self.view.as_ref().map(|v| v.rules) else {
            return PuzzleAction::None;
        };
        let c4 = rules.kind().has_gravity();
        match key {
            Key::Left => self.move_cursor(-1, 0),
            Key::Right => self.move_cursor(1, 0),
            // Rows count up from the bottom of the board as drawn.
            Key::Up => self.move_cursor(0, 1),
            Key::Down if !c4 => self.move_cursor(0, -1),
            Key::Down | Key::Char(' ') => return self.play(self.cursor_move()),
            Key::Enter if self.typed.is_empty() => return self.play(self.cursor_move()),
            Key::Enter => {
                let typed = std::mem::take(&mut self.typed);
                return match rules.parse_move(&typed) {
                    Ok(m) => self.play(m),
                    Err(e) => {
                        self.notice = Some(words::parse_error(self.lang, &e, &rules));
                        PuzzleAction::None
                    }
                };
            }
            Key::Backspace => {
                self.typed.pop();
            }
            // Connect Four: a column's digit or letter takes the stone
            // there, Enter drops it (as in a game).
            Key::Char(c) if c4 => {
                if let Ok(m) = rules.parse_move(&c.to_string()) {
                    self.cursor.x = match m {
                        Move::Column(x) => x,
                        Move::Point(p) => p.x,
                    };
                } else if matches!(c, 'q' | 'Q') {
                    return PuzzleAction::Lobby;
                }
            }
            // Gomoku: a point typed (`h8`), Enter plays it.
            Key::Char(c) if c.is_ascii_alphanumeric() => {
                if self.typed.is_empty() && matches!(c, 'q' | 'Q') && rules.width() <= 16 {
                    return PuzzleAction::Lobby;
                }
                if self.typed.chars().count() < MAX_TYPED {
                    self.typed.push(c);
                }
            }
            _ => {}
        }
        PuzzleAction::None
    }

    /// The keys this screen takes now, for the key bar.
    fn keys(&self) -> Line {
        let keys = self
            .lang
            .text(match (&self.phase, self.kind().has_gravity()) {
                (Phase::Solving, true) => "puzzle-keys-column",
                (Phase::Solving, false) => "puzzle-keys-point",
                (Phase::Over { .. }, _) => "puzzle-keys-over",
                _ => "puzzle-keys-lobby",
            });
        Line::styled(format!(" {keys}"), Style::PLAIN.dim())
    }

    pub fn frame(&self, theme: Theme, width: usize) -> Frame {
        let mut f = Frame::new();
        let lang = self.lang;
        let Some(v) = &self.view else {
            f.push(Line::styled(
                format!(" {}", lang.text("lobby-puzzles")),
                Style::PLAIN.bold(),
            ));
            f.blank();
            let text = match &self.phase {
                Phase::Empty(why) => text::sanitize(why, width.saturating_sub(4)),
                _ => lang.text("puzzle-finding"),
            };
            for line in text::wrap(&text, width.saturating_sub(4).max(20)) {
                f.push(Line::plain(format!("   {line}")));
            }
            f.blank();
            f.push(self.keys());
            return f;
        };
        let mut title = Line::styled(
            format!(
                " {}",
                lang.text(if v.daily {
                    "puzzle-daily"
                } else {
                    "puzzle-title"
                })
            ),
            Style::PLAIN.bold(),
        );
        let rating = lang.text_with("puzzle-rating", &[("rating", v.rating.into())]);
        let mine = match (v.rated, v.my_rating) {
            (true, Some(r)) => lang.text_with("puzzle-yours", &[("rating", r.into())]),
            (true, None) => lang.text("title-rated"),
            (false, _) => lang.text("puzzle-unrated"),
        };
        // The game's name too where it fits (the board and the task say
        // which game it is).
        let game = super::words::game_name(lang, v.rules.kind());
        let with_game = format!("{game}   {rating}   {mine}");
        let facts = if title.width() + 3 + text::width(&with_game) <= width {
            with_game
        } else {
            format!("{rating}   {mine}")
        };
        // (Our own words and numbers: nothing to clean.)
        title.push("   ", Style::PLAIN);
        title.push(facts, Style::PLAIN.dim());
        title.fit(width.max(20));
        f.push(title);
        let me = self.my_colour();
        let task = match (v.task, v.rules.kind()) {
            (Task::Hold, _) => lang.text("puzzle-task-hold"),
            (Task::Win { win_in: Some(n) }, GameKind::ConnectFour) => {
                lang.text_with("puzzle-task-win-in", &[("count", n.into())])
            }
            (Task::Win { win_in: Some(n) }, _) => {
                lang.text_with("puzzle-task-fours", &[("count", n.into())])
            }
            (Task::Win { win_in: None }, _) => lang.text("puzzle-task-win"),
        };
        let mut task_line = Line::plain(" ");
        let to_move = lang.text_with(
            "puzzle-to-move",
            &[("colour", words::colour(lang, me).into())],
        );
        task_line.push(
            format!("{} {to_move}", theme.stone(me).trim_end()),
            theme.style(me),
        );
        task_line.push(format!(": {task}"), Style::PLAIN.bold());
        task_line.fit(width.max(20));
        f.push(task_line);
        // The board: the puzzle, the moves played (or the solution).
        let (moves, last_wrong) = if self.showing_solution {
            (v.line.clone(), false)
        } else {
            let failed = matches!(self.phase, Phase::Over { solved: false, .. });
            (self.played.clone(), failed)
        };
        let mut shown = moves.clone();
        let refutation = match &self.phase {
            Phase::Over {
                solved: false,
                outcome: Some(o),
            } if !self.showing_solution => o.refutation,
            _ => None,
        };
        if let Some(r) = refutation {
            shown.push(r);
        }
        let pos = self
            .position_with(&shown)
            .or_else(|| self.position_with(&moves))
            .unwrap_or_else(|| Position::new(v.rules));
        let colours = [Colour::Red, Colour::Yellow];
        let hint = None;
        let cursor = (self.phase == Phase::Solving).then(|| match v.rules.kind() {
            GameKind::ConnectFour => Cursor::Column(self.cursor.x),
            _ => Cursor::Point(self.cursor),
        });
        let (board, _) = draw_board(&BoardView {
            position: &pos,
            colours,
            cursor,
            theme,
            show_forbidden: v.rules.is_renju() && self.phase == Phase::Solving,
            hint,
        });
        for line in board {
            let mut indented = Line::plain("  ");
            indented.spans.extend(line.spans);
            f.push(indented);
        }
        // What happened, and what it did to the ratings.
        let (status, detail) = self.status_lines(v, last_wrong, refutation);
        let mut rest = [status, detail, self.keys()];
        for line in &mut rest {
            line.fit(width.max(20));
        }
        f.lines.extend(rest);
        f
    }

    fn status_lines(
        &self,
        v: &PuzzleView,
        last_wrong: bool,
        refutation: Option<Move>,
    ) -> (Line, Line) {
        let lang = self.lang;
        let fmt = |m: Move| v.rules.format_move(m);
        let them = words::colour(lang, self.their_colour());
        match &self.phase {
            Phase::Solving => {
                let mut l = Line::plain(" ");
                if !self.typed.is_empty() {
                    let typed = format!("{}_", text::sanitize(&self.typed, 8));
                    l.push(
                        lang.text_with("puzzle-your-move-typed", &[("typed", typed.into())]),
                        Style::PLAIN.bold(),
                    );
                } else if let Some(n) = &self.notice {
                    l.push(text::sanitize(n, 70), Style::PLAIN);
                } else if self.played.is_empty() {
                    l.push(lang.text("puzzle-your-move"), Style::PLAIN.dim());
                }
                (l, Line::default())
            }
            Phase::Over { solved, outcome } => {
                let mut l = Line::plain(" ");
                if *solved {
                    l.push(lang.text("puzzle-solved"), Style::PLAIN.bold());
                    let line = lang.text_with(
                        "puzzle-the-line",
                        &[("moves", line_words(v, &v.line).into())],
                    );
                    l.push(format!("  {line}"), Style::PLAIN);
                } else {
                    let wrong = self.played.last().copied();
                    let best = v.line.get(self.played.len().saturating_sub(1)).copied();
                    let mut text = match (wrong, v.task) {
                        (Some(w), Task::Hold) => {
                            lang.text_with("puzzle-loses", &[("move", fmt(w).into())])
                        }
                        (Some(w), _) => {
                            lang.text_with("puzzle-not-the-move", &[("move", fmt(w).into())])
                        }
                        (None, _) => lang.text("puzzle-not-solved"),
                    };
                    if let Some(r) = refutation.filter(|_| last_wrong) {
                        let answers = lang.text_with(
                            "puzzle-answers-marked",
                            &[("colour", them.clone().into()), ("move", fmt(r).into())],
                        );
                        text.push_str(&format!(": {answers}"));
                    } else if outcome.is_none() {
                        text.push_str(&format!(": {}", lang.text("puzzle-looking")));
                    }
                    l.push(text::sanitize(&text, 70), Style::PLAIN.bold());
                    if let Some(b) = best {
                        let best = lang.text_with("puzzle-best", &[("move", fmt(b).into())]);
                        l.push(format!("   {best}"), Style::PLAIN);
                    }
                }
                let detail = match outcome {
                    None => Line::default(),
                    Some(o) => {
                        let mut parts = Vec::new();
                        if let Some((before, after)) = o.rating {
                            parts.push(lang.text_with(
                                "puzzle-rating-change",
                                &[
                                    ("before", before.into()),
                                    ("after", after.into()),
                                    ("change", format!("{:+}", after - before).into()),
                                ],
                            ));
                        } else if o.repeat {
                            parts.push(lang.text("puzzle-repeat"));
                        } else if !v.rated {
                            parts.push(lang.text("puzzle-guest-unrated"));
                        }
                        if let Some(t) = &o.trouble {
                            parts.push(text::sanitize(t, 60));
                        }
                        if self.showing_solution {
                            parts.push(lang.text_with(
                                "puzzle-solution",
                                &[("moves", line_words(v, &v.line).into())],
                            ));
                        }
                        Line::plain(format!(" {}", parts.join("   ")))
                    }
                };
                (l, detail)
            }
            _ => (Line::default(), Line::default()),
        }
    }
}

/// Why a move cannot be played in a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepError {
    /// The puzzle's own moves do not play (a broken record).
    Broken,
    /// The move is illegal here.
    Illegal(crate::game::IllegalMoveError),
}

impl StepError {
    /// Why, in `lang` (puzzles are played by red, who moves first).
    pub fn words(&self, lang: Lang) -> String {
        match self {
            StepError::Broken => lang.text("puzzle-broken"),
            StepError::Illegal(e) => words::illegal(lang, e, Colour::Red),
        }
    }
}

/// What became of a move played in a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Off the line: the attempt failed.
    Failed,
    /// The line played out, or a win on the spot: solved.
    Solved,
    /// Right, and the host answers with this move from the line.
    Answered(Move),
}

/// The person plays `m` after `played` (their moves and the host's
/// answers so far, from the puzzle's position): checked against the
/// puzzle's line. A move that wins on the spot is right wherever the line
/// goes. An illegal move is refused in words (the attempt goes on). The
/// same judge for the terminal's puzzle screen and the web's.
pub fn step(view: &PuzzleView, played: &[Move], m: Move) -> Result<Step, StepError> {
    let mut pos = Position::new(view.rules);
    for p in view.position.iter().chain(played) {
        pos.play(*p).map_err(|_| StepError::Broken)?;
    }
    pos.check(m).map_err(StepError::Illegal)?;
    let expected = view.line.get(played.len()).copied();
    let mut after = pos;
    let _ = after.play(m);
    let wins_now = after.is_over() && !matches!(after.outcome(), crate::game::Outcome::Draw);
    if Some(m) != expected && !(wins_now && matches!(view.task, Task::Win { .. })) {
        return Ok(Step::Failed);
    }
    if wins_now || played.len() + 1 >= view.line.len() {
        return Ok(Step::Solved);
    }
    match view.line.get(played.len() + 1) {
        // A line that ends with the host's move is never made; played out
        // it is solved.
        Some(&answer) if played.len() + 2 < view.line.len() => Ok(Step::Answered(answer)),
        _ => Ok(Step::Solved),
    }
}

/// The moves of a line in words: `D E D` or `h8 i9 h9`.
fn line_words(v: &PuzzleView, line: &[Move]) -> String {
    let words: Vec<String> = line.iter().map(|&m| v.rules.format_move(m)).collect();
    text::sanitize(&words.join(" "), 40)
}

fn colour_of(side: Side) -> Colour {
    match side {
        Side::First => Colour::Red,
        Side::Second => Colour::Yellow,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Red to move: D wins (three in row 1 with both ends open... here a
    /// plain column puzzle: red has d1 d2 d3, yellow e1 e2 e3 and a1).
    fn c4_view() -> PuzzleView {
        let cols = [3u8, 4, 3, 4, 3, 4, 0];
        PuzzleView {
            id: "p1".into(),
            rules: Rules::connect_four(),
            task: Task::Win { win_in: Some(1) },
            position: cols[..6].iter().map(|&c| Move::Column(c)).collect(),
            line: vec![Move::Column(3)],
            rating: 1500,
            daily: false,
            rated: true,
            my_rating: Some(1500),
        }
    }

    fn text(s: &PuzzleScreen, width: usize) -> String {
        s.frame(Theme::Ascii, width).to_plain("\n")
    }

    #[test]
    fn the_right_move_solves_and_asks_to_record_it() {
        let mut s = PuzzleScreen::new();
        assert!(text(&s, 60).contains("finding a puzzle"));
        s.set_puzzle(Ok(c4_view()));
        let shown = text(&s, 60);
        assert!(shown.contains("Red to move"), "{shown}");
        assert!(shown.contains("find the winning move"), "{shown}");
        // 4 takes the stone to column d, Enter drops it.
        assert_eq!(s.handle(Key::Char('4')), PuzzleAction::None);
        let PuzzleAction::Done(a) = s.handle(Key::Enter) else {
            panic!("d ends the puzzle");
        };
        assert!(a.solved);
        assert_eq!(a.played, vec![Move::Column(3)]);
        assert!(text(&s, 60).contains("Solved!"));
        s.set_outcome(
            "p1",
            PuzzleOutcome {
                rating: Some((1500, 1562)),
                ..PuzzleOutcome::default()
            },
        );
        assert!(
            text(&s, 60).contains("1500 -> 1562 (+62)"),
            "{}",
            text(&s, 60)
        );
        assert_eq!(s.handle(Key::Char('n')), PuzzleAction::Ask(PuzzleAsk::Next));
    }

    #[test]
    fn a_wrong_move_fails_and_shows_the_refutation() {
        let mut s = PuzzleScreen::new();
        s.set_puzzle(Ok(c4_view()));
        s.handle(Key::Char('1'));
        let PuzzleAction::Done(a) = s.handle(Key::Char(' ')) else {
            panic!("a wrong move ends the puzzle");
        };
        assert!(!a.solved);
        assert_eq!(a.played, vec![Move::Column(0)]);
        s.set_outcome(
            "p1",
            PuzzleOutcome {
                refutation: Some(Move::Column(4)),
                rating: Some((1500, 1440)),
                ..PuzzleOutcome::default()
            },
        );
        let shown = text(&s, 60);
        assert!(
            shown.contains("A is not the move: Yellow answers E"),
            "{shown}"
        );
        assert!(shown.contains("best: D"), "{shown}");
        // The refutation is on the board: yellow's fourth in column e
        // (row 3), which wins.
        let row3 = shown
            .lines()
            .find(|l| l.trim_end().ends_with("| 3"))
            .unwrap();
        assert!(row3.contains('Y'), "{shown}");
        for line in shown.lines() {
            assert!(text::width(line) <= 60, "{line:?}");
        }
        // An answer for another puzzle is not shown.
        let mut t = PuzzleScreen::new();
        t.set_puzzle(Ok(c4_view()));
        t.handle(Key::Char('1'));
        t.handle(Key::Enter);
        t.set_outcome("other", PuzzleOutcome::default());
        assert!(text(&t, 60).contains("looks for the answer"));
    }

    #[test]
    fn a_gomoku_line_is_played_against_the_hosts_answers() {
        let rules = Rules::gomoku();
        let p = |s: &str| rules.parse_move(s).unwrap();
        // Black h8 i8 j8 (and white stones far away): black plays k8
        // (four), white must answer g8, black l8 is five.
        let view = PuzzleView {
            id: "g1".into(),
            rules,
            task: Task::Win { win_in: Some(2) },
            position: ["h8", "a1", "i8", "a3", "j8", "a5"].map(p).to_vec(),
            line: ["k8", "g8", "l8"].map(p).to_vec(),
            rating: 1500,
            daily: true,
            rated: false,
            my_rating: None,
        };
        let mut s = PuzzleScreen::new();
        s.set_puzzle(Ok(view));
        for c in "k8".chars() {
            assert_eq!(s.handle(Key::Char(c)), PuzzleAction::None);
        }
        assert!(s.is_text_step());
        assert_eq!(s.handle(Key::Enter), PuzzleAction::None);
        assert!(
            text(&s, 80).contains("Yellow answers g8"),
            "{}",
            text(&s, 80)
        );
        for c in "l8".chars() {
            s.handle(Key::Char(c));
        }
        let PuzzleAction::Done(a) = s.handle(Key::Enter) else {
            panic!("the five ends it");
        };
        assert!(a.solved);
        assert_eq!(a.played.len(), 3);
        let shown = text(&s, 80);
        assert!(shown.contains("Puzzle of the day"), "{shown}");
        for line in shown.lines() {
            assert!(text::width(line) <= 80, "{line:?}");
        }
        assert!(shown.lines().count() <= 24, "{shown}");
    }

    #[test]
    fn a_hold_puzzle_asks_for_the_only_move_that_does_not_lose() {
        // Yellow has three in column e; red must block there.
        let view = PuzzleView {
            task: Task::Hold,
            position: [3u8, 4, 3, 4, 0, 4].map(Move::Column).to_vec(),
            line: vec![Move::Column(4)],
            ..c4_view()
        };
        let mut s = PuzzleScreen::new();
        s.set_puzzle(Ok(view.clone()));
        let shown = text(&s, 60);
        assert!(
            shown.contains("Red to move: find the only move that does not lose"),
            "{shown}"
        );
        s.handle(Key::Char('2'));
        let PuzzleAction::Done(a) = s.handle(Key::Enter) else {
            panic!("a wrong move ends it");
        };
        assert!(!a.solved);
        assert!(text(&s, 60).contains("B loses"), "{}", text(&s, 60));
        // Esc goes back to the lobby; q too once it is over.
        assert_eq!(s.handle(Key::Char('q')), PuzzleAction::Lobby);
        let mut s = PuzzleScreen::new();
        s.set_puzzle(Ok(view));
        s.handle(Key::Char('5'));
        let PuzzleAction::Done(a) = s.handle(Key::Enter) else {
            panic!("the block ends it");
        };
        assert!(a.solved);
        // Nothing to show: said in words, and any key goes back.
        let mut s = PuzzleScreen::new();
        s.set_puzzle(Err("this host has no puzzles yet".into()));
        assert!(text(&s, 60).contains("no puzzles yet"));
        assert_eq!(s.handle(Key::Enter), PuzzleAction::Lobby);
    }

    #[test]
    fn an_illegal_move_is_refused_in_words_and_the_puzzle_goes_on() {
        let rules = Rules::gomoku();
        let p = |s: &str| rules.parse_move(s).unwrap();
        let view = PuzzleView {
            id: "g2".into(),
            rules,
            task: Task::Win { win_in: Some(2) },
            position: ["h8", "a1", "i8", "a3", "j8", "a5"].map(p).to_vec(),
            line: ["k8", "g8", "l8"].map(p).to_vec(),
            rating: 1500,
            daily: false,
            rated: false,
            my_rating: None,
        };
        let mut s = PuzzleScreen::new();
        s.set_puzzle(Ok(view));
        // An occupied point, then no point at all: refused, not failed.
        for typed in ["h8", "zz9"] {
            for c in typed.chars() {
                s.handle(Key::Char(c));
            }
            assert_eq!(s.handle(Key::Enter), PuzzleAction::None);
            assert!(s.wants_text());
        }
        // Pasted text is a move, never a command.
        for c in "k8".chars() {
            s.paste(c);
        }
        assert_eq!(s.handle(Key::Enter), PuzzleAction::None);
        assert!(text(&s, 80).contains("answers g8"), "{}", text(&s, 80));
    }
}
