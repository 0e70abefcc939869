//! The game screen: players, board, whose turn it is, the move being typed,
//! one line for the last message, and the keys. The same screen serves
//! local hot-seat, games against the computer and shared remote games; what
//! differs is which sides this terminal may move for.

use std::time::{Duration, Instant};

use crate::clock::{ClockView, format_left, next_whole_second, whole_seconds};
use crate::game::{GameKind, Move, Point, Side};
use crate::protocol::SeatCmd;
use crate::table::{
    ChatLine, Ending, GameView, OfferKind, PLAYERS_CHAT, Swap2Choice, Swap2Stage, WATCHERS_CHAT,
};
use crate::term::board::{BoardGeometry, BoardView, Cursor, Theme, draw_board};
use crate::term::input::Key;
use crate::term::screen::{Frame, Ink, Line, Style};

/// Longest move text we let a person type.
const MAX_TYPED: usize = 12;
/// Columns the board is indented by within the frame.
const BOARD_INDENT: usize = 2;

/// What a key on the game screen asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayAction {
    None,
    /// A command for the table: a move (already checked against the
    /// position we show), leaving, a rematch, a chat line...
    Seat(SeatCmd),
    ToMenu,
    Quit,
    Redraw,
}

/// Narrowest chat pane worth showing beside the board.
const PANE_MIN: usize = 20;
/// Widest chat pane.
const PANE_MAX: usize = 34;
/// Columns between the board and the pane.
const PANE_GAP: usize = 3;

/// Said to `w` before the opponent has been idle long enough.
pub const CLAIM_EARLY: &str =
    "you can claim the win only when your opponent has not moved for a while";

/// A question the screen is asking before it acts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Confirm {
    /// `q` in a game in play.
    Leave,
    /// `!` in a game in play.
    Resign,
}

/// Where a frame put the board and the clock rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    time_rows: Option<(Option<usize>, usize, usize)>,
    geometry: Option<(usize, BoardGeometry)>,
}

/// A message under the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusLine {
    pub text: String,
    pub error: bool,
}

#[derive(Debug, Clone)]
pub struct PlayScreen {
    pub game: GameView,
    /// Sides this terminal moves for (both on a hot seat).
    pub mine: [bool; 2],
    /// Sides whose player is still at the table (a rematch needs both).
    pub present: [bool; 2],
    /// Cursor: the column for Connect Four (y unused), the point for Gomoku.
    cursor: Point,
    typed: String,
    /// The typed move was entered before this side's turn and is kept for
    /// it: the next key typed starts a new move instead of adding to it (a
    /// line-mode client sends a whole new line).
    held: bool,
    pub notice: Option<StatusLine>,
    /// Remote games say "rematch" and "lobby"; local ones "play again" and "menu".
    remote: bool,
    /// Where the board was last drawn, for mouse clicks.
    geometry: Option<(usize, BoardGeometry)>,
    /// `q` or `!` was pressed in a game in play: "leave? y/n" or
    /// "resign? y/n" is showing.
    confirm: Option<Confirm>,
    /// The time the clocks are shown at (the last tick).
    now: Option<Instant>,
    /// A guest's resume code for this seat, shown under the board.
    pub resume: Option<String>,
    /// Columns of the terminal (a chat pane goes beside the board when
    /// it fits).
    pub width: usize,
    /// Chat at a remote table: the longest line (0: no chat here).
    pub chat_max: usize,
    /// The chat line being typed (Tab opened it).
    chat_typing: Option<String>,
    /// `/mute`: the other side's lines stay hidden for this game.
    muted: bool,
    /// This person's display name (their own lines stay when muted).
    pub my_name: String,
    /// The board as last drawn, and what it was drawn from: a clock tick
    /// or a chat line redraws the screen without drawing the board again.
    board_cache: Option<Box<BoardCache>>,
    /// In the last frame: the clock row (if any), the row above the board,
    /// and where the second clock starts ([`PlayScreen::time_lines`]).
    time_rows: Option<(Option<usize>, usize, usize)>,
}

/// A drawn board and what it was drawn from.
#[derive(Debug, Clone)]
struct BoardCache {
    position: crate::game::Position,
    colours: [crate::game::Colour; 2],
    cursor: Option<Cursor>,
    theme: Theme,
    lines: Vec<Line>,
    geometry: BoardGeometry,
}

impl PlayScreen {
    pub fn new(game: GameView, mine: [bool; 2], remote: bool) -> PlayScreen {
        let rules = *game.position.rules();
        PlayScreen {
            cursor: Point::new(rules.width() / 2, rules.height() / 2),
            game,
            mine,
            present: [true, true],
            typed: String::new(),
            held: false,
            notice: None,
            remote,
            geometry: None,
            confirm: None,
            now: None,
            resume: None,
            width: 80,
            chat_max: 0,
            chat_typing: None,
            muted: false,
            my_name: String::new(),
            board_cache: None,
            time_rows: None,
        }
    }

    /// Whether this table has a chat for this terminal: on the host
    /// (chat on), watching, or playing a person (not the computer).
    fn chat_here(&self) -> bool {
        self.chat_max > 0 && self.remote && (self.watching() || !self.against_computer())
    }

    /// Whether a chat line is being typed.
    pub fn chat_open(&self) -> bool {
        self.chat_typing.is_some()
    }

    /// The chat this terminal takes part in: the watchers' when it
    /// watches, else the players'; without what `/mute` hides.
    fn chat_lines(&self) -> Vec<&ChatLine> {
        let which = if self.watching() {
            WATCHERS_CHAT
        } else {
            PLAYERS_CHAT
        };
        self.game.chat[which]
            .iter()
            .filter(|l| !self.muted || self.is_mine(l))
            .collect()
    }

    /// Whether this terminal said the line.
    fn is_mine(&self, l: &ChatLine) -> bool {
        match l.side {
            Some(side) => self.mine[side.index()],
            None => l.from == self.my_name,
        }
    }

    /// A chat line typed and entered: said, or a command (`/mute`).
    fn send_chat(&mut self, text: String) -> PlayAction {
        let text = text.trim();
        match text {
            "" => PlayAction::None,
            "/mute" => {
                self.muted = true;
                let whose = if self.watching() {
                    "the other watchers'"
                } else {
                    "your opponent's"
                };
                self.set_notice(
                    format!("{whose} messages are hidden for the rest of this game (/unmute)"),
                    false,
                );
                PlayAction::None
            }
            "/unmute" => {
                self.muted = false;
                self.set_notice("messages are shown again", false);
                PlayAction::None
            }
            t if t.starts_with('/') => {
                self.set_notice("chat commands: /mute and /unmute", true);
                PlayAction::None
            }
            t => PlayAction::Seat(SeatCmd::Chat(t.to_string())),
        }
    }

    /// Keys while a chat line is being typed.
    fn chat_key(&mut self, key: Key) -> PlayAction {
        let Some(text) = &mut self.chat_typing else {
            return PlayAction::None;
        };
        match key {
            Key::Enter => {
                let text = std::mem::take(text);
                self.chat_typing = None;
                return self.send_chat(text);
            }
            Key::Esc | Key::Tab => self.chat_typing = None,
            Key::Backspace => {
                text.pop();
            }
            // Past the length, the prompt says so (and nothing is added).
            Key::Char(c) if text.chars().count() < self.chat_max => text.push(c),
            _ => {}
        }
        PlayAction::None
    }

    /// Time passes: the running clock counts down.
    pub fn tick(&mut self, now: Instant) {
        self.now = Some(now);
    }

    /// The moment the clocks are drawn for: the last tick, or when the
    /// room sent the clocks if that is later.
    fn clock_now(&self, clock: &ClockView) -> Instant {
        self.now.map_or(clock.at, |n| n.max(clock.at))
    }

    /// When the screen next changes by itself: the shown clocks count
    /// down, or the wait for the opponent's move grows long enough to
    /// claim the win.
    pub fn next_change(&self) -> Option<Instant> {
        if self.game.ending.is_some() {
            return None;
        }
        // The countdown of an opponent who lost the connection, and the
        // running clock: whichever changes first.
        let away = self.opponent_away().and_then(|(_, until)| {
            let now = self.now.filter(|&n| n < until)?;
            Some(next_whole_second(now, until - now))
        });
        if let Some(clock) = self.game.clock.as_ref() {
            let tick = clock.next_change(self.clock_now(clock));
            return away.into_iter().chain(tick).min();
        }
        if away.is_some() {
            return away;
        }
        let from = self.game.claim_from?;
        (self.waiting_for_opponent() && self.now.is_none_or(|n| n < from)).then_some(from)
    }

    /// The other player, when their connection dropped and their seat is
    /// kept: the side and until when.
    fn opponent_away(&self) -> Option<(Side, Instant)> {
        if self.game.ending.is_some() {
            return None;
        }
        Side::BOTH.into_iter().find_map(|s| {
            let until = self.game.away[s.index()]?;
            (!self.mine[s.index()]).then_some((s, until))
        })
    }

    /// Playing one side, and the other side is to move.
    fn waiting_for_opponent(&self) -> bool {
        self.mine != [true, true]
            && self
                .game
                .to_move()
                .is_some_and(|s| !self.mine[s.index()] && self.mine[s.other().index()])
    }

    /// Whether this player may claim the win now: the opponent has not
    /// moved for `lobby.claim_after_secs` (no clock).
    pub fn claim_due(&self) -> bool {
        self.game.ending.is_none()
            && self.waiting_for_opponent()
            && self
                .game
                .claim_from
                .is_some_and(|from| self.now.is_some_and(|n| n >= from))
    }

    /// Whether leaving or resigning now aborts the game on the host
    /// (between two people, before both have moved) instead of losing it.
    fn aborts(&self) -> bool {
        self.remote
            && self.mine != [true, true]
            && self.game.seats.iter().all(|s| s.computer.is_none())
            && !self.game.both_moved()
    }

    /// Why `w` (claim the win) does nothing now.
    fn why_no_claim(&self) -> &'static str {
        if self.game.clock.is_some() {
            "w claims the win only in a game without a clock: here the clock decides"
        } else if self.against_computer() {
            "w claims the win from a person who stops moving: the computer always moves"
        } else if self.mine == [true, true] {
            "w claims the win from a person who stops moving: not at a shared keyboard"
        } else if self.my_turn() {
            "it is your move: w claims the win only while your opponent keeps you waiting"
        } else {
            CLAIM_EARLY
        }
    }

    /// Who sits where now (seats swap sides between rounds) and who is still there.
    pub fn seat(&mut self, mine: [bool; 2], present: [bool; 2]) {
        self.mine = mine;
        self.present = present;
    }

    /// A new snapshot of the game.
    pub fn update(&mut self, game: GameView) {
        let new_round = game.round != self.game.round;
        let moved = game.position.stones() != self.game.position.stones();
        self.game = game;
        if self.game.ending.is_some() {
            self.confirm = None;
        }
        if new_round {
            let rules = *self.game.position.rules();
            self.cursor = Point::new(rules.width() / 2, rules.height() / 2);
            self.typed.clear();
            self.notice = None;
        } else if moved {
            // A move went through: an old error no longer applies.
            if self.notice.as_ref().is_some_and(|n| n.error) {
                self.notice = None;
            }
        }
    }

    pub fn set_notice(&mut self, text: impl Into<String>, error: bool) {
        self.notice = Some(StatusLine {
            text: text.into(),
            error,
        });
    }

    fn kind(&self) -> GameKind {
        self.game.position.rules().kind()
    }

    /// Whether this terminal is to move now.
    pub fn my_turn(&self) -> bool {
        self.game.to_move().is_some_and(|s| self.mine[s.index()])
    }

    fn move_cursor(&mut self, dx: i32, dy: i32) {
        let rules = self.game.position.rules();
        let wrap =
            |v: u8, d: i32, n: u8| -> u8 { ((i32::from(v) + d).rem_euclid(i32::from(n))) as u8 };
        self.cursor.x = wrap(self.cursor.x, dx, rules.width());
        if !self.kind().has_gravity() {
            self.cursor.y = wrap(self.cursor.y, dy, rules.height());
        }
    }

    fn cursor_move(&self) -> Move {
        match self.kind() {
            GameKind::ConnectFour => Move::Column(self.cursor.x),
            GameKind::Gomoku | GameKind::Renju => Move::Point(self.cursor),
        }
    }

    /// Checks a move against the position shown; on error the message is
    /// set and nothing is sent.
    fn submit(&mut self, m: Move) -> PlayAction {
        if !self.my_turn() {
            self.tell_not_your_turn();
            return PlayAction::None;
        }
        match self.game.position.check(m) {
            Ok(p) => {
                self.typed.clear();
                self.notice = None;
                self.cursor.x = p.x;
                if !self.kind().has_gravity() {
                    self.cursor = p;
                }
                PlayAction::Seat(SeatCmd::Move(m))
            }
            Err(e) => {
                self.typed.clear();
                let text = self.move_error_text(&e);
                self.set_notice(text, true);
                PlayAction::None
            }
        }
    }

    /// Why a move is refused, in this game's words: renju's forbidden
    /// points are the first player's, named by their colour (the rules'
    /// "black").
    fn move_error_text(&self, e: &crate::game::IllegalMoveError) -> String {
        match e {
            crate::game::IllegalMoveError::Forbidden { point, why } => format!(
                "{point} is forbidden for {} (who moves first) in renju: a {why}",
                self.game.seat(Side::First).colour
            ),
            e => e.to_string(),
        }
    }

    /// The notice for a move tried out of turn: who is to move.
    fn tell_not_your_turn(&mut self) {
        let who = self
            .game
            .to_move()
            .map(|s| self.game.seat(s).label())
            .unwrap_or_default();
        self.set_notice(format!("not your turn: {who} is to move"), true);
    }

    fn submit_typed(&mut self) -> PlayAction {
        // Typed ahead on the opponent's turn: the text stays in the field,
        // for Enter once the turn comes (it is not lost to an early Enter).
        if !self.my_turn() && !self.watching() && self.game.to_move().is_some() {
            // The field's own line says it is kept (see the frame).
            self.tell_not_your_turn();
            self.held = true;
            return PlayAction::None;
        }
        let text = std::mem::take(&mut self.typed);
        self.held = false;
        match self.game.position.rules().parse_move(&text) {
            Ok(m) => self.submit(m),
            Err(e) => {
                self.set_notice(e.to_string(), true);
                PlayAction::None
            }
        }
    }

    /// Whether this terminal plays exactly one side against the computer:
    /// a casual game where a move may be taken back.
    pub fn against_computer(&self) -> bool {
        Side::BOTH.into_iter().any(|s| {
            self.mine[s.index()]
                && !self.mine[s.other().index()]
                && self.game.seat(s.other()).computer.is_some()
        })
    }

    /// Whether "undo" can do something now: against the computer, a game
    /// in play or ended on the board (not by leaving), with a stone of ours.
    pub fn can_undo(&self) -> bool {
        if !self.against_computer() || !self.present.iter().all(|&p| p) {
            return false;
        }
        let ended_on_board = matches!(
            self.game.ending,
            None | Some(Ending::Line { .. }) | Some(Ending::Draw)
        );
        let my_side = Side::BOTH.into_iter().find(|s| self.mine[s.index()]);
        let my_stones = match my_side {
            Some(Side::First) => self.game.position.stones().div_ceil(2),
            Some(Side::Second) => self.game.position.stones() / 2,
            None => 0,
        };
        ended_on_board && my_stones > 0
    }

    /// Whether a key would type into the move field rather than act: a
    /// letter that names a column on this board, after other typed text.
    fn types_into_field(&self, c: char) -> bool {
        !self.typed.is_empty()
            && !self.kind().has_gravity()
            && c.is_ascii_alphabetic()
            && (c.to_ascii_lowercase() as u32)
                < u32::from(b'a') + u32::from(self.game.position.rules().width())
    }

    /// Adds a character to the move field (a move kept for the turn gives
    /// way to the new one).
    fn type_char(&mut self, c: char) {
        if std::mem::take(&mut self.held) {
            self.typed.clear();
        }
        if self.typed.chars().count() < MAX_TYPED {
            self.typed.push(c);
        }
    }

    /// A pasted character: typed into the move field, never a command.
    pub fn paste(&mut self, c: char) {
        if let Some(text) = &mut self.chat_typing {
            if !c.is_control() && text.chars().count() < self.chat_max {
                text.push(c);
            }
            return;
        }
        if self.game.ending.is_none()
            && !self.watching()
            && self.confirm.is_none()
            && !c.is_control()
        {
            self.type_char(c);
        }
    }

    pub fn handle(&mut self, key: Key) -> PlayAction {
        if key == Key::CtrlC || key == Key::CtrlD {
            return PlayAction::Quit;
        }
        if key == Key::CtrlL {
            return PlayAction::Redraw;
        }
        if self.chat_typing.is_some() {
            return self.chat_key(key);
        }
        if key == Key::Tab && self.chat_here() && self.confirm.is_none() {
            self.chat_typing = Some(String::new());
            return PlayAction::None;
        }
        if self.watching() && self.remote {
            return match key {
                Key::Char('q' | 'Q' | 'l' | 'L' | 'm' | 'M') | Key::Esc | Key::Backspace => {
                    PlayAction::ToMenu
                }
                Key::Char(c) if !c.is_whitespace() => {
                    self.set_notice("you are watching: q goes back to the lobby", false);
                    PlayAction::None
                }
                _ => PlayAction::None,
            };
        }
        if let Some(confirm) = self.confirm {
            return match key {
                Key::Char('y') | Key::Char('Y') => {
                    self.confirm = None;
                    match confirm {
                        Confirm::Leave => PlayAction::Seat(SeatCmd::LEAVE),
                        Confirm::Resign => PlayAction::Seat(SeatCmd::Resign),
                    }
                }
                // Enter is no answer (a line-mode client sends it after the q).
                Key::Enter => PlayAction::None,
                _ => {
                    self.confirm = None;
                    let text = match confirm {
                        Confirm::Leave => "you stay in the game",
                        Confirm::Resign => "you play on",
                    };
                    self.set_notice(text, false);
                    PlayAction::None
                }
            };
        }
        let undo_key =
            matches!(key, Key::Char('u') | Key::Char('U')) && !self.types_into_field('u');
        if undo_key && self.against_computer() {
            if self.can_undo() {
                self.typed.clear();
                self.notice = None;
                return PlayAction::Seat(SeatCmd::Undo);
            }
            self.set_notice("nothing to take back", true);
            return PlayAction::None;
        }
        if self.game.ending.is_none() && !self.watching() {
            if let Some(stage) = self.game.swap2.filter(|s| s.is_choice())
                && self.my_turn()
            {
                let choice = match key {
                    Key::Char('1') => Some(Swap2Choice::First),
                    Key::Char('2') => Some(Swap2Choice::Second),
                    Key::Char('3') if stage == Swap2Stage::Choose => Some(Swap2Choice::TwoMore),
                    Key::Char('!' | 'q' | 'Q' | '?') | Key::Tab | Key::F1 => None,
                    Key::Char(_) | Key::Enter => {
                        let keys = if stage == Swap2Stage::Choose {
                            "1, 2 or 3"
                        } else {
                            "1 or 2"
                        };
                        self.typed.clear();
                        self.set_notice(format!("choose with {keys} (see above the board)"), true);
                        return PlayAction::None;
                    }
                    _ => None,
                };
                if let Some(choice) = choice {
                    self.typed.clear();
                    self.notice = None;
                    return PlayAction::Seat(SeatCmd::Swap2(choice));
                }
            }
            match key {
                Key::Char('!') => {
                    self.typed.clear();
                    self.confirm = Some(Confirm::Resign);
                    return PlayAction::None;
                }
                Key::Char('=') => {
                    self.notice = None;
                    return match self.offer_to_me() {
                        Some(_) => PlayAction::Seat(SeatCmd::Answer(true)),
                        None => PlayAction::Seat(SeatCmd::Offer(OfferKind::Draw)),
                    };
                }
                Key::Char('w') | Key::Char('W')
                    if self.waiting_for_opponent() && self.game.claim_from.is_some() =>
                {
                    if self.claim_due() {
                        self.notice = None;
                        return PlayAction::Seat(SeatCmd::Claim);
                    }
                    self.set_notice(CLAIM_EARLY, false);
                    return PlayAction::None;
                }
                Key::Char('w' | 'W') if !self.types_into_field('w') => {
                    let why = self.why_no_claim();
                    self.set_notice(why, false);
                    return PlayAction::None;
                }
                Key::Char('-') if self.offer_to_me().is_some() => {
                    self.notice = None;
                    return PlayAction::Seat(SeatCmd::Answer(false));
                }
                // Never part of a move: say why it does nothing.
                Key::Char('-') => {
                    self.set_notice(
                        "- refuses an offer, and none is waiting for your answer",
                        false,
                    );
                    return PlayAction::None;
                }
                _ if undo_key && !self.against_computer() => {
                    if self.game.rated {
                        self.set_notice("no takebacks in a rated game", true);
                        return PlayAction::None;
                    }
                    self.notice = None;
                    return PlayAction::Seat(SeatCmd::Offer(OfferKind::Takeback));
                }
                _ => {}
            }
        }
        if self.game.ending.is_some() {
            let self_gone = self.seat_left(true);
            return match key {
                Key::Char('r') | Key::Char('R') | Key::Char('a') | Key::Char('A') if self_gone => {
                    self.set_notice("you left this game: no rematch", true);
                    PlayAction::None
                }
                Key::Char('r') | Key::Char('R') | Key::Char('a') | Key::Char('A')
                    if self.partner_gone() =>
                {
                    self.set_notice("your opponent has left: no rematch", true);
                    PlayAction::None
                }
                Key::Char('r') | Key::Char('R') | Key::Char('a') | Key::Char('A') => {
                    PlayAction::Seat(SeatCmd::Rematch)
                }
                Key::Char('m') | Key::Char('M') | Key::Char('l') | Key::Char('L') | Key::Esc => {
                    PlayAction::ToMenu
                }
                Key::Char('q') | Key::Char('Q') => PlayAction::Quit,
                Key::Char(c) if !c.is_whitespace() => {
                    self.set_notice(
                        format!(
                            "'{}' does nothing here: use a key shown below",
                            crate::text::sanitize_quote(&c.to_string(), 4)
                        ),
                        true,
                    );
                    PlayAction::None
                }
                _ => PlayAction::None,
            };
        }
        match key {
            Key::Left => self.move_cursor(-1, 0),
            Key::Right => self.move_cursor(1, 0),
            Key::Up => self.move_cursor(0, 1),
            Key::Down => self.move_cursor(0, -1),
            Key::Enter | Key::Char(' ') if self.typed.trim().is_empty() => {
                self.typed.clear();
                return self.submit(self.cursor_move());
            }
            Key::Enter => return self.submit_typed(),
            Key::Backspace => {
                self.typed.pop();
                self.held = false;
            }
            Key::Esc => {
                self.typed.clear();
                self.held = false;
                self.notice = None;
            }
            // Leaving a game in play is asked about first (a stray q must
            // not lose a game); a q that names a column on a wide board,
            // after typed text, is typed.
            Key::Char('q') | Key::Char('Q') if !self.types_into_field('q') => {
                self.typed.clear();
                self.confirm = Some(Confirm::Leave);
            }
            Key::Char(c) => {
                // Connect Four: a column key replaces what was typed and
                // moves the cursor there as a preview; Enter drops.
                if self.kind() == GameKind::ConnectFour
                    && let Ok(Move::Column(x)) = self
                        .game
                        .position
                        .rules()
                        .parse_move(c.encode_utf8(&mut [0; 4]))
                {
                    self.typed.clear();
                    self.cursor.x = x;
                }
                self.type_char(c);
            }
            _ => {}
        }
        PlayAction::None
    }

    /// A click at frame coordinates.
    pub fn click(&mut self, col: usize, line: usize) -> PlayAction {
        let Some((top, geo)) = self.geometry else {
            return PlayAction::None;
        };
        if line < top || col < BOARD_INDENT || self.game.ending.is_some() {
            return PlayAction::None;
        }
        if self.confirm.take().is_some() {
            return PlayAction::None;
        }
        match geo.hit(col - BOARD_INDENT, line - top) {
            Some(p) => {
                let m = match self.kind() {
                    GameKind::ConnectFour => Move::Column(p.x),
                    GameKind::Gomoku | GameKind::Renju => Move::Point(p),
                };
                self.cursor.x = p.x;
                if !self.kind().has_gravity() {
                    self.cursor = p;
                }
                self.typed.clear();
                self.submit(m)
            }
            None => PlayAction::None,
        }
    }

    /// Whether this terminal plays no side (it only shows the game).
    fn watching(&self) -> bool {
        self.mine == [false, false]
    }

    /// Where the last frame put the board and the clock rows (for clicks
    /// and clock ticks).
    pub fn layout(&self) -> Layout {
        Layout {
            time_rows: self.time_rows,
            geometry: self.geometry,
        }
    }

    /// Takes the layout of a frame drawn for another screen (a shared
    /// picture).
    pub fn set_layout(&mut self, layout: Layout) {
        self.time_rows = layout.time_rows;
        self.geometry = layout.geometry;
    }

    /// Whether this screen looks like every other plain watcher's of the
    /// same game, size and theme: watching, with nothing of its own on it
    /// (no message, chat line being typed, muting, own chat line, or
    /// countdown that runs on this screen's time). Such screens share one
    /// rendering of each state ([`crate::session::SharedFrames`]).
    pub fn is_plain_watcher(&self) -> bool {
        self.watching()
            && self.typed.is_empty()
            && self.notice.is_none()
            && self.confirm.is_none()
            && self.resume.is_none()
            && self.chat_typing.is_none()
            && !self.muted
            && self.game.away.iter().all(Option::is_none)
            && !self.game.chat[WATCHERS_CHAT]
                .iter()
                .any(|l| l.side.is_none() && l.from == self.my_name)
    }

    /// The offer waiting for an answer from this terminal: on a hot seat
    /// whichever side it was made to, else this person's side.
    pub fn offer_to_me(&self) -> Option<OfferKind> {
        let offer = self.game.offer?;
        self.mine[offer.from.other().index()].then_some(offer.kind)
    }

    /// The line above the board while an offer waits: what the other
    /// player offered and the keys that answer, or that ours waits.
    /// The swap2 opening's line above the board: what to do, or who does
    /// what, or the choice just made.
    fn swap2_line(&self) -> Option<Line> {
        if self.game.ending.is_some() {
            return None;
        }
        let colour = |s: Side| self.game.seat(s).colour.to_string();
        let (first, second) = (colour(Side::First), colour(Side::Second));
        // A side just chosen, until the next stone (two more stones: the
        // stage's own line says so).
        if let Some((side, choice)) = self.game.swap2_chosen
            && choice != Swap2Choice::TwoMore
        {
            let name = &self.game.seat(side).name;
            let text = format!(" Swap2: {name} chose to play {}", colour(side));
            return Some(Line::styled(text, Style::PLAIN.bold()));
        }
        let stage = self.game.swap2?;
        let actor = stage.actor();
        let name = &self.game.seat(actor).name;
        let other = &self.game.seat(actor.other()).name;
        let mine = self.mine[actor.index()];
        // The colour of the stone placed next (it alternates).
        let next = colour(self.game.position.to_move());
        let text = match (stage, mine) {
            (Swap2Stage::Three, true) => {
                format!(" Swap2: place three stones, {first}, {second}, {first} (now {next})")
            }
            (Swap2Stage::Three, false) => format!(" Swap2: {name} places three opening stones"),
            (Swap2Stage::Choose, true) => format!(
                " Swap2: 1 play {first}   2 play {second} and place next   3 place two more "
            ),
            (Swap2Stage::Choose, false) => {
                format!(" Swap2: {name} chooses a colour, or to place two more")
            }
            (Swap2Stage::Two, true) => {
                format!(" Swap2: place two more stones, {second} then {first} (now {next})")
            }
            (Swap2Stage::Two, false) => format!(" Swap2: {name} places two more stones"),
            (Swap2Stage::ChooseAgain, true) => format!(
                " Swap2: 1 play {first} ({other} places next)   2 play {second} and place next "
            ),
            (Swap2Stage::ChooseAgain, false) => format!(" Swap2: {name} chooses a colour"),
        };
        let style = if mine && stage.is_choice() {
            Style::PLAIN.bold().reverse()
        } else {
            Style::PLAIN.bold()
        };
        Some(Line::styled(text, style))
    }

    fn offer_line(&self) -> Option<Line> {
        if let Some(line) = self.swap2_line()
            && self.opponent_away().is_none()
        {
            return Some(line);
        }
        if let Some((side, until)) = self.opponent_away() {
            let left = self
                .now
                .map_or(Duration::ZERO, |n| until.saturating_duration_since(n));
            let secs = whole_seconds(left);
            let text = format!(
                " {} lost the connection, waiting {secs} s... ",
                self.game.seat(side).name
            );
            return Some(Line::styled(text, Style::PLAIN.bold().reverse()));
        }
        if self.claim_due() && self.game.offer.is_none() {
            let side = self.game.to_move()?;
            let text = format!(
                " {} has not moved for a long while: w claims the win ",
                self.game.seat(side).name
            );
            return Some(Line::styled(text, Style::PLAIN.bold().reverse()));
        }
        if let Some(d) = self.game.declined
            && self.mine[d.from.index()]
            && !self.mine[d.from.other().index()]
        {
            let by = &self.game.seat(d.from.other()).name;
            let text = match d.kind {
                OfferKind::Draw => format!(" {by} declined the draw: play on"),
                OfferKind::Takeback => format!(" {by} refused the takeback: play on"),
            };
            return Some(Line::styled(text, Style::PLAIN.dim()));
        }
        let offer = self.game.offer?;
        let from = &self.game.seat(offer.from).name;
        if let Some(kind) = self.offer_to_me() {
            let text = match kind {
                OfferKind::Draw => format!(" {from} offers a draw: = accept   - decline "),
                OfferKind::Takeback => {
                    format!(" {from} asks to take back a move: = allow   - refuse ")
                }
            };
            return Some(Line::styled(text, Style::PLAIN.bold().reverse()));
        }
        let to = &self.game.seat(offer.from.other()).name;
        let text = if !self.mine[offer.from.index()] {
            // Watching: who offered what.
            match offer.kind {
                OfferKind::Draw => format!(" {from} offers {to} a draw"),
                OfferKind::Takeback => format!(" {from} asks {to} to take back a move"),
            }
        } else {
            match offer.kind {
                OfferKind::Draw => format!(" You offered a draw: waiting for {to}"),
                OfferKind::Takeback => {
                    format!(" You asked to take back a move: waiting for {to}")
                }
            }
        };
        Some(Line::styled(text, Style::PLAIN.dim()))
    }

    /// Whether the other player has left the table.
    fn partner_gone(&self) -> bool {
        self.seat_left(false)
    }

    /// Whether a seat of ours (`mine`) or of the other player has left.
    fn seat_left(&self, mine: bool) -> bool {
        Side::BOTH
            .into_iter()
            .any(|s| self.mine[s.index()] == mine && !self.present[s.index()])
    }

    fn after_game_keys(&self) -> String {
        let self_gone = self.seat_left(true);
        let undo = if self.can_undo() { "[u] undo   " } else { "" };
        if self.remote && (self.partner_gone() || self_gone) {
            "[l] back to the lobby   [q] quit".to_string()
        } else if self.remote {
            format!("[r] rematch   {undo}[l] back to the lobby   [q] quit")
        } else {
            format!("[r] play again   {undo}[m] menu   [q] quit")
        }
    }

    /// What the ending means for the person at this terminal, when it
    /// plays one side: "You win", "You lost" or "Draw".
    fn verdict(&self) -> Option<&'static str> {
        let mine = Side::BOTH.into_iter().find(|s| self.mine[s.index()])?;
        if self.mine == [true, true] {
            return None;
        }
        match self.game.ending.as_ref()? {
            Ending::Line { winner, .. } if *winner == mine => Some("You win!"),
            Ending::Line { .. } => Some("You lost."),
            Ending::Forfeit { leaver, .. } if *leaver == mine => Some("You lost."),
            Ending::Forfeit { .. } => Some("You win!"),
            Ending::Resigned { loser } | Ending::Flag { loser } if *loser == mine => {
                Some("You lost.")
            }
            Ending::Resigned { .. } | Ending::Flag { .. } => Some("You win!"),
            Ending::Draw | Ending::DrawAgreed => Some("Draw."),
            Ending::Aborted { .. } => None,
        }
    }

    /// Draws the screen.
    pub fn frame(&mut self, theme: Theme) -> Frame {
        let g = &self.game;
        let rules = g.position.rules();
        let mut f = Frame::new();

        // Title: game, round and score.
        let mut title = Line::new();
        title.push(format!(" {}", rules.describe()), Style::PLAIN.bold());
        if g.rated {
            title.push("   rated", Style::PLAIN.dim());
        }
        if g.watchers > 0 {
            title.push(format!("   {} watching", g.watchers), Style::PLAIN.dim());
        }
        if g.round > 1 || g.score != [0, 0] {
            title.push(
                // Scores in the order of the players line below.
                format!(
                    "   round {}   score {} : {}",
                    g.round, g.score[0], g.score[1]
                ),
                Style::PLAIN.dim(),
            );
        }
        f.push(title);

        // Players; the one to move is marked.
        let mut players = Line::new();
        let mut second_at = 0;
        for side in Side::BOTH {
            let seat = g.seat(side);
            let turn = g.to_move() == Some(side);
            players.push(if turn { " > " } else { "   " }, theme.style(seat.colour));
            let mut st = theme.style(seat.colour);
            if !turn {
                st.bold = false;
            }
            players.push(
                format!("{} {}", theme.stone(seat.colour).trim_end(), seat.name),
                st,
            );
            if let Some(r) = seat.rating {
                players.push(format!(" {r}"), Style::PLAIN.dim());
            }
            if self.mine[side.index()] && self.mine != [true, true] {
                players.push(" (you)", Style::PLAIN.dim());
            }
            if side == Side::First {
                players.push("   vs", Style::PLAIN.dim());
                second_at = players.width();
            }
        }
        f.push(players);
        // Both clocks, each under its player's name; only this row changes
        // as the running one counts down.
        let clock_row = self.clock_row(second_at).map(|row| {
            f.push(row);
            f.height() - 1
        });
        // What the ending means for this person, above the board.
        f.push(self.verdict_row());
        self.time_rows = Some((clock_row, f.height() - 1, second_at));

        let cursor = self.my_turn().then(|| match self.kind() {
            GameKind::ConnectFour => Cursor::Column(self.cursor.x),
            GameKind::Gomoku | GameKind::Renju => Cursor::Point(self.cursor),
        });
        let colours = g.colours();
        let cached = self.board_cache.as_ref().filter(|c| {
            c.cursor == cursor
                && c.theme == theme
                && c.colours == colours
                && c.position == g.position
        });
        let (board, geometry) = match cached {
            Some(c) => (c.lines.clone(), c.geometry),
            None => {
                let view = BoardView {
                    position: &g.position,
                    colours,
                    cursor,
                    theme,
                    // On my turn: only black has forbidden points, and the
                    // board marks them only when black is to move.
                    show_forbidden: cursor.is_some(),
                };
                let (lines, geometry) = draw_board(&view);
                self.board_cache = Some(Box::new(BoardCache {
                    position: g.position.clone(),
                    colours,
                    cursor,
                    theme,
                    lines: lines.clone(),
                    geometry,
                }));
                (lines, geometry)
            }
        };
        let board_top = f.height();
        let board_rows = board.len();
        self.geometry = Some((f.height(), geometry));
        for line in board {
            let mut indented = Line::plain(" ".repeat(BOARD_INDENT));
            indented.spans.extend(line.spans);
            f.push(indented);
        }
        if self.kind() == GameKind::ConnectFour {
            // The winning stones are named as (x|y) while the columns are
            // labelled with letters: say how to read them.
            if matches!(g.ending, Some(Ending::Line { .. })) {
                f.push(Line::styled(
                    "  (x|y): column and row, counted from 0 at the bottom left",
                    Style::PLAIN.dim(),
                ));
            } else {
                f.blank();
            }
        }

        // Status.
        let status = match (g.ending_text(), g.to_move()) {
            (Some(text), _) => {
                let colour = match &g.ending {
                    Some(Ending::Line { winner, .. }) => Some(g.seat(*winner).colour),
                    Some(
                        Ending::Forfeit { leaver, .. }
                        | Ending::Resigned { loser: leaver }
                        | Ending::Flag { loser: leaver },
                    ) => Some(g.seat(leaver.other()).colour),
                    _ => None,
                };
                let st = colour.map_or(Style::PLAIN.bold(), |c| theme.style(c));
                Line::styled(format!(" {text}"), st)
            }
            (None, Some(side)) => {
                let seat = g.seat(side);
                let choosing = g.swap2.is_some_and(|s| s.is_choice());
                let placing = g.swap2.is_some() && !choosing;
                let text = if choosing && self.mine[side.index()] {
                    format!(" {}: your choice (see above the board)", seat.name)
                } else if choosing {
                    format!(" Waiting for {} to choose...", seat.name)
                } else if placing && self.mine[side.index()] {
                    let stone = g.seat(g.position.to_move()).colour;
                    format!(" {} places a {stone} stone", seat.name)
                } else if self.mine[side.index()] {
                    format!(" {} to move", seat.label())
                } else if seat.computer.is_some() {
                    format!(" {} is thinking...", seat.label())
                } else {
                    format!(" Waiting for {}...", seat.label())
                };
                let mut line = Line::styled(text, theme.style(seat.colour));
                // The last move in words too (the board marks it; with the
                // cursor beside it, by reversing the stone).
                if !self.kind().has_gravity()
                    && let Some(p) = g.position.last_move()
                {
                    line.push(
                        format!("   last move {}", rules.format_point(p)),
                        Style::PLAIN.dim(),
                    );
                }
                line
            }
            (None, None) => Line::new(),
        };
        f.push(status);

        // Prompt or rematch state.
        if g.ending.is_some() {
            let mut l = Line::new();
            let asked: Vec<&str> = Side::BOTH
                .into_iter()
                .filter(|s| g.rematch[s.index()] && g.seat(*s).computer.is_none())
                .map(|s| g.seat(s).name.as_str())
                .collect();
            let gone: Vec<&str> = Side::BOTH
                .into_iter()
                .filter(|s| !self.present[s.index()] && !self.mine[s.index()])
                .map(|s| g.seat(s).name.as_str())
                .collect();
            if self.remote && !gone.is_empty() {
                l.push(
                    format!(" {} has left the table", gone.join(", ")),
                    Style::PLAIN.dim(),
                );
            } else if self.remote && !asked.is_empty() {
                let mine_asked = Side::BOTH
                    .into_iter()
                    .any(|s| self.mine[s.index()] && g.rematch[s.index()]);
                let text = if mine_asked {
                    " Rematch asked: waiting for the other player...".to_string()
                } else {
                    format!(" {} wants a rematch: press r", asked.join(", "))
                };
                l.push(text, Style::PLAIN.bold());
            }
            f.push(l);
        } else if self.my_turn() && g.swap2.is_some_and(|s| s.is_choice()) {
            let keys = if g.swap2 == Some(Swap2Stage::Choose) {
                " Press 1, 2 or 3"
            } else {
                " Press 1 or 2"
            };
            f.push(Line::styled(keys, Style::PLAIN.bold()));
        } else if self.my_turn() {
            let mut l = Line::new();
            l.push(" Move: ", Style::PLAIN.bold());
            l.push(self.typed.clone(), Style::PLAIN.underline());
            l.push("_", Style::PLAIN.bold());
            let hint = match self.kind() {
                GameKind::ConnectFour => {
                    format!("   arrows + Enter, click, or {}", rules.move_hint())
                }
                GameKind::Gomoku | GameKind::Renju => {
                    "   arrows + Enter, click, or a point: h8".to_string()
                }
            };
            l.push(hint, Style::PLAIN.dim());
            f.push(l);
        } else if !self.watching() && !self.typed.is_empty() {
            // Typed ahead on the other side's turn: shown, kept for later.
            let mut l = Line::new();
            l.push(" Next move: ", Style::PLAIN.bold());
            l.push(self.typed.clone(), Style::PLAIN.underline());
            l.push("_", Style::PLAIN.bold());
            l.push("   Enter plays it on your turn", Style::PLAIN.dim());
            f.push(l);
        } else {
            f.blank();
        }

        // Message.
        let pane = self.pane_fits(&f, board_top, board_rows);
        let newest = self.chat_lines().last().map(|l| (*l).clone());
        match &self.notice {
            _ if self.chat_typing.is_some() => {
                let mut l = Line::new();
                l.push(" Say: ", Style::PLAIN.bold());
                // The end of a long line: what fits beside the prompt.
                let typed = self.chat_typing.clone().unwrap_or_default();
                let room = self.width.saturating_sub(34).max(8);
                let chars: Vec<char> = typed.chars().collect();
                let shown: String = chars[chars.len().saturating_sub(room)..].iter().collect();
                l.push(shown, Style::PLAIN.underline());
                l.push("_", Style::PLAIN.bold());
                if chars.len() >= self.chat_max {
                    l.push(
                        format!("  at most {} characters", self.chat_max),
                        Style::PLAIN.bold(),
                    );
                } else {
                    l.push("  Enter sends, Esc closes", Style::PLAIN.dim());
                }
                f.push(l)
            }
            _ if self.confirm == Some(Confirm::Leave) => {
                let q = if self.aborts() {
                    " Leave the game? It is aborted: not both players have moved. y/n"
                } else if self.remote || self.against_computer() {
                    " Leave the game? You will lose. y/n"
                } else {
                    " Leave the game? y/n"
                };
                f.push(Line::styled(q, Style::PLAIN.bold().reverse()))
            }
            _ if self.confirm == Some(Confirm::Resign) => {
                let q = if self.mine == [true, true] {
                    let who = g.to_move().map(|s| g.seat(s).label()).unwrap_or_default();
                    format!(" Resign for {who}? y/n")
                } else if self.aborts() {
                    " Resign? The game is aborted: not both players have moved. y/n".to_string()
                } else {
                    " Resign? You lose this game. y/n".to_string()
                };
                f.push(Line::styled(q, Style::PLAIN.bold().reverse()))
            }
            Some(n) if n.error => f.push(Line::styled(
                format!(" ! {}", n.text),
                Style::fg(Ink::Red).bold(),
            )),
            Some(n) => f.push(Line::styled(format!(" {}", n.text), Style::PLAIN)),
            None => match (&self.resume, newest) {
                (Some(code), _) if g.ending.is_none() => f.push(Line::styled(
                    format!(" Cut off? Log in as {code} or type {code} in the lobby"),
                    Style::PLAIN.dim(),
                )),
                // No room for the pane: the newest line said, here.
                (_, Some(l)) if pane.is_none() => f.push(chat_line(
                    &l,
                    self.is_mine(&l),
                    self.width.saturating_sub(2),
                )),
                _ => f.blank(),
            },
        }

        // Keys.
        let more = if self.against_computer() {
            "u undo   "
        } else if self.claim_due() {
            // The opponent keeps this player waiting: the claim first
            // (no takeback to ask of someone who is not there).
            "w claim the win   = draw   "
        } else if !g.rated {
            "= draw   u take back   "
        } else {
            "= draw   "
        };
        let chat = if self.chat_here() { "Tab chat   " } else { "" };
        let keys = if self.watching() && self.remote {
            format!(" q back to the lobby   {chat}? help")
        } else if g.ending.is_some() {
            format!(" {}   {chat}", self.after_game_keys())
        } else if self.remote {
            format!(" q leave   ! resign   {more}{chat}? help")
        } else {
            format!(" q quit   ! resign   {more}? help")
        };
        // On a narrow terminal the chat key goes (the pane names it).
        let keys = if crate::text::width(&keys) > self.width {
            keys.replace("   Tab chat", "")
        } else {
            keys
        };
        f.push(Line::styled(
            keys.trim_end().to_string(),
            Style::PLAIN.dim(),
        ));
        if let Some(col) = pane {
            self.draw_pane(&mut f, board_top, board_rows, col);
        }
        f
    }

    /// The row of both clocks (a game with a clock); the second clock
    /// starts under the second player's name at `second_at`.
    fn clock_row(&self, second_at: usize) -> Option<Line> {
        let g = &self.game;
        let clock = g.clock.as_ref()?;
        let now = self.clock_now(clock);
        let mut row = Line::new();
        for side in Side::BOTH {
            let left = clock.left_at(side, now);
            let running = clock.running == Some(side) && g.ending.is_none();
            let text = format!(" {} ", format_left(left));
            let at = if side == Side::First {
                3
            } else {
                second_at + 3
            };
            let pad = at.saturating_sub(row.width() + 1);
            row.push(" ".repeat(pad), Style::PLAIN);
            let st = if left.is_zero() || (running && left < Duration::from_secs(10)) {
                Style::fg(Ink::Red).bold()
            } else if running {
                Style::PLAIN.bold().reverse()
            } else {
                Style::PLAIN.dim()
            };
            row.push(text, st);
        }
        Some(row)
    }

    /// The row above the board: the verdict of a finished game, or an
    /// offer, a countdown or a claim.
    fn verdict_row(&self) -> Line {
        let g = &self.game;
        match self.verdict() {
            Some(v) => {
                let mut l = Line::styled(format!(" {v} "), Style::PLAIN.bold().reverse());
                // A rated game: how this person's rating moved.
                let mine = Side::BOTH.into_iter().find(|s| self.mine[s.index()]);
                if let Some(change) = mine.and_then(|s| g.rating_change[s.index()]) {
                    l.push(format!("  rating {change}"), Style::PLAIN.bold());
                }
                l
            }
            None => self.offer_line().unwrap_or_default(),
        }
    }

    /// The rows of the last frame that change with the time alone (the
    /// clocks, a countdown, a claim that becomes due), as they are now:
    /// (frame row, line). Empty before the first frame.
    pub fn time_lines(&self) -> Vec<(usize, Line)> {
        let Some((clock_row, verdict_row, second_at)) = self.time_rows else {
            return Vec::new();
        };
        let mut lines = Vec::with_capacity(2);
        if let (Some(row), Some(line)) = (clock_row, self.clock_row(second_at)) {
            lines.push((row, line));
        }
        lines.push((verdict_row, self.verdict_row()));
        lines
    }

    /// Where a pane beside the board starts (the chat, and the moves for
    /// a watcher), if it fits this terminal.
    fn pane_fits(&self, f: &Frame, top: usize, rows: usize) -> Option<usize> {
        if !(self.chat_here() || self.watching() && self.remote) {
            return None;
        }
        let board_width = f.lines[top..top + rows]
            .iter()
            .map(Line::width)
            .max()
            .unwrap_or(0);
        let col = board_width + PANE_GAP;
        (self.width > col + PANE_MIN).then_some(col)
    }

    /// The pane beside the board, from frame column `col`: for a watcher
    /// the last moves, then the chat's last lines that fit.
    fn draw_pane(&self, f: &mut Frame, top: usize, rows: usize, col: usize) {
        let w = (self.width - col - 1).min(PANE_MAX);
        let mut pane: Vec<Line> = Vec::new();
        if self.watching() {
            let rules = self.game.position.rules();
            let history = self.game.position.history();
            pane.push(Line::styled(
                format!("Moves ({})", history.len()),
                Style::PLAIN.bold(),
            ));
            let text = |p: &crate::game::Point| match rules.kind() {
                GameKind::ConnectFour => rules.format_move(Move::Column(p.x)),
                GameKind::Gomoku | GameKind::Renju => rules.format_point(*p),
            };
            let pairs: Vec<String> = history
                .chunks(2)
                .enumerate()
                .map(|(i, pair)| {
                    let moves: Vec<String> = pair.iter().map(text).collect();
                    format!("{:>3}. {}", i + 1, moves.join("  "))
                })
                .collect();
            for p in pairs.iter().skip(pairs.len().saturating_sub(4)) {
                pane.push(Line::styled(p.clone(), Style::PLAIN.dim()));
            }
            pane.push(Line::new());
        }
        if self.chat_here() {
            let mut head = Line::styled(
                if self.watching() {
                    "Watchers' chat"
                } else {
                    "Chat"
                },
                Style::PLAIN.bold(),
            );
            if self.muted {
                head.push(" (muted)", Style::PLAIN.dim());
            }
            pane.push(head);
            let room = rows.saturating_sub(pane.len());
            let mut said: Vec<Line> = Vec::new();
            for l in self.chat_lines() {
                let mine = self.is_mine(l);
                let text = format!("{}: {}", l.from, l.text);
                for (i, part) in crate::text::wrap(&text, w).into_iter().enumerate() {
                    let st = if i == 0 && !mine {
                        Style::PLAIN.bold()
                    } else {
                        Style::PLAIN
                    };
                    said.push(Line::styled(part, st));
                }
            }
            if said.is_empty() {
                said.push(Line::styled("Tab to say something", Style::PLAIN.dim()));
            }
            let skip = said.len().saturating_sub(room);
            pane.extend(said.into_iter().skip(skip));
        }
        for (i, p) in pane.into_iter().take(rows).enumerate() {
            let line = &mut f.lines[top + i];
            let pad = col.saturating_sub(line.width());
            line.push(" ".repeat(pad), Style::PLAIN);
            line.spans.extend(p.spans);
        }
    }
}

/// A chat line on the message row (no room for the pane).
fn chat_line(l: &ChatLine, mine: bool, max: usize) -> Line {
    let mut line = Line::new();
    let st = if mine {
        Style::PLAIN
    } else {
        Style::PLAIN.bold()
    };
    let from = format!(" {}: ", l.from);
    let room = max.saturating_sub(crate::text::width(&from)).max(1);
    line.push(from, st);
    line.push(crate::text::sanitize(&l.text, room), Style::PLAIN);
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Colour, Rules};
    use crate::table::{OfferKind, Seat, Table};

    #[test]
    fn no_rematch_when_the_partner_left() {
        let mut t = Table::new(
            Rules::connect_four(),
            [
                Seat::human("a", Colour::Red),
                Seat::human("b", Colour::Blue),
            ],
        );
        t.forfeit(Side::Second, "disconnected");
        let mut p = PlayScreen::new(t.view().clone(), [true, false], true);
        p.seat([true, false], [true, false]);
        assert_eq!(p.handle(Key::Char('r')), PlayAction::None);
        let text = p.frame(Theme::Ascii).to_plain("\n");
        assert!(text.contains("no rematch"), "{text}");
    }

    fn two_people(rated: bool) -> Table {
        let mut t = Table::new(
            Rules::connect_four(),
            [
                Seat::human("ann", Colour::Red),
                Seat::human("bob", Colour::Blue),
            ],
        );
        t.set_rated(rated, [None, None]);
        t
    }

    #[test]
    fn the_waiting_player_claims_the_win_once_the_time_has_come() {
        let t = two_people(false);
        let start = Instant::now();
        let mut view = t.view().clone();
        view.claim_from = Some(start + Duration::from_secs(120));
        // Bob waits for Ann's first move.
        let mut bob = PlayScreen::new(view.clone(), [false, true], true);
        let mut ann = PlayScreen::new(view, [true, false], true);
        assert_eq!(bob.next_change(), Some(start + Duration::from_secs(120)));
        assert_eq!(ann.next_change(), None, "the one to move claims nothing");
        bob.tick(start + Duration::from_secs(60));
        assert_eq!(bob.handle(Key::Char('w')), PlayAction::None);
        assert!(bob.frame(Theme::Ascii).to_plain("\n").contains(CLAIM_EARLY));
        bob.tick(start + Duration::from_secs(120));
        assert_eq!(bob.next_change(), None);
        let text = bob.frame(Theme::Ascii).to_plain("\n");
        assert!(
            text.contains("ann has not moved for a long while: w claims the win"),
            "{text}"
        );
        assert_eq!(bob.handle(Key::Char('w')), PlayAction::Seat(SeatCmd::Claim));
        ann.tick(start + Duration::from_secs(500));
        assert_ne!(ann.handle(Key::Char('w')), PlayAction::Seat(SeatCmd::Claim));
    }

    #[test]
    fn a_forbidden_renju_point_is_named_by_the_first_players_colour() {
        let rules = Rules::renju();
        let mut t = Table::new(
            rules,
            [
                Seat::human("ann", Colour::Red),
                Seat::human("bob", Colour::Blue),
            ],
        );
        for (i, m) in ["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"]
            .iter()
            .enumerate()
        {
            let side = if i % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            t.play(side, rules.parse_move(m).unwrap()).unwrap();
        }
        let mut p = PlayScreen::new(t.view().clone(), [true, false], true);
        for c in "h8".chars() {
            p.handle(Key::Char(c));
        }
        assert_eq!(p.handle(Key::Enter), PlayAction::None);
        let text = p
            .notice
            .as_ref()
            .map(|n| n.text.clone())
            .unwrap_or_default();
        assert_eq!(
            text,
            "h8 is forbidden for Red (who moves first) in renju: a double three"
        );
        assert!(!text.contains("black"), "{text}");
    }

    #[test]
    fn command_keys_that_do_nothing_say_why_and_never_type() {
        let t = two_people(false);
        let computer = Table::new(
            Rules::gomoku(),
            [
                Seat::human("ann", Colour::Red),
                Seat::computer(crate::engine::Level::Easy, Colour::Blue),
            ],
        );
        let screens = [
            // Ann to move against a person; Bob waits; a hot seat; the computer.
            PlayScreen::new(t.view().clone(), [true, false], true),
            PlayScreen::new(t.view().clone(), [false, true], true),
            PlayScreen::new(t.view().clone(), [true, true], false),
            PlayScreen::new(computer.view().clone(), [true, false], true),
        ];
        for screen in screens {
            for key in ['-', 'w', 'W', '=', 'u'] {
                let mut p = screen.clone();
                // After typed text too: never added to the move.
                for typed in ["", "h"] {
                    p.typed = typed.to_string();
                    p.notice = None;
                    let action = p.handle(Key::Char(key));
                    assert_eq!(p.typed, typed, "{key} typed into the field");
                    if matches!(action, PlayAction::None) {
                        let notice = p.notice.as_ref().map(|n| n.text.clone());
                        assert!(
                            notice.is_some_and(|n| !n.is_empty()),
                            "{key}: nothing said, mine {:?}",
                            p.mine
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_key_bar_shows_w_once_the_win_may_be_claimed() {
        let t = two_people(false);
        let start = Instant::now();
        let mut view = t.view().clone();
        view.claim_from = Some(start + Duration::from_secs(120));
        let mut bob = PlayScreen::new(view, [false, true], true);
        let key_bar = |p: &mut PlayScreen| {
            let text = p.frame(Theme::Ascii).to_plain("\n");
            text.lines().last().unwrap_or_default().to_string()
        };
        bob.tick(start + Duration::from_secs(60));
        assert!(
            !key_bar(&mut bob).contains("w claim"),
            "{}",
            key_bar(&mut bob)
        );
        bob.tick(start + Duration::from_secs(120));
        let keys = key_bar(&mut bob);
        assert!(keys.contains("w claim the win"), "{keys}");
        assert!(keys.contains("q leave"), "{keys}");
    }

    #[test]
    fn resign_asks_first_and_offers_are_answered_with_their_keys() {
        let mut t = two_people(false);
        // Before both have moved, resigning or leaving aborts the game.
        let mut early = PlayScreen::new(t.view().clone(), [false, true], true);
        early.handle(Key::Char('!'));
        let text = early.frame(Theme::Ascii).to_plain("\n");
        assert!(text.contains("Resign? The game is aborted"), "{text}");
        early.handle(Key::Char('n'));
        early.handle(Key::Char('q'));
        let text = early.frame(Theme::Ascii).to_plain("\n");
        assert!(text.contains("Leave the game? It is aborted"), "{text}");
        t.play(Side::First, Move::Column(0)).unwrap();
        t.play(Side::Second, Move::Column(0)).unwrap();
        let mut p = PlayScreen::new(t.view().clone(), [false, true], true);
        // Resign: asked, a no plays on, a yes resigns (not our turn either).
        assert_eq!(p.handle(Key::Char('!')), PlayAction::None);
        assert!(
            p.frame(Theme::Ascii)
                .to_plain("\n")
                .contains("Resign? You lose this game. y/n")
        );
        assert_eq!(p.handle(Key::Char('n')), PlayAction::None);
        assert!(p.frame(Theme::Ascii).to_plain("\n").contains("you play on"));
        p.handle(Key::Char('!'));
        assert_eq!(p.handle(Key::Char('y')), PlayAction::Seat(SeatCmd::Resign));
        // No offer waiting: = offers a draw, - does nothing, u asks for a takeback.
        assert_eq!(
            p.handle(Key::Char('=')),
            PlayAction::Seat(SeatCmd::Offer(OfferKind::Draw))
        );
        assert_eq!(p.handle(Key::Char('-')), PlayAction::None);
        assert_eq!(
            p.handle(Key::Char('u')),
            PlayAction::Seat(SeatCmd::Offer(OfferKind::Takeback))
        );
        // An offer to us: shown above the board, = accepts, - declines.
        t.play(Side::First, Move::Column(3)).unwrap();
        t.offer(Side::First, OfferKind::Draw).unwrap();
        p.update(t.view().clone());
        let text = p.frame(Theme::Ascii).to_plain("\n");
        assert!(
            text.contains("ann offers a draw: = accept   - decline"),
            "{text}"
        );
        assert_eq!(
            p.handle(Key::Char('=')),
            PlayAction::Seat(SeatCmd::Answer(true))
        );
        assert_eq!(
            p.handle(Key::Char('-')),
            PlayAction::Seat(SeatCmd::Answer(false))
        );
        // Ann's screen says hers waits.
        let mut a = PlayScreen::new(t.view().clone(), [true, false], true);
        let text = a.frame(Theme::Ascii).to_plain("\n");
        assert!(
            text.contains("You offered a draw: waiting for bob"),
            "{text}"
        );
        // Every key line fits 60 columns.
        for f in [p.frame(Theme::Ascii), a.frame(Theme::Ascii)] {
            assert!(f.width() <= 60, "{}", f.to_plain("\n"));
        }
    }

    #[test]
    fn no_takeback_key_in_a_rated_game_and_a_watcher_offers_nothing() {
        let t = two_people(true);
        let mut p = PlayScreen::new(t.view().clone(), [true, false], true);
        assert_eq!(p.handle(Key::Char('u')), PlayAction::None);
        assert!(
            p.frame(Theme::Ascii)
                .to_plain("\n")
                .contains("no takebacks in a rated game")
        );
        let mut w = PlayScreen::new(t.view().clone(), [false, false], true);
        assert_eq!(w.handle(Key::Char('=')), PlayAction::None);
        assert_eq!(w.handle(Key::Char('!')), PlayAction::None);
    }

    fn gomoku_pair(rules: Rules) -> Table {
        Table::new(
            rules,
            [
                Seat::human("ann", Colour::Red),
                Seat::human("bob", Colour::Blue),
            ],
        )
    }

    /// A point typed and entered on the other side's turn stays in the
    /// field (shown), and Enter plays it once the turn comes.
    #[test]
    fn a_move_typed_ahead_is_kept_for_the_turn() {
        let mut t = gomoku_pair(Rules::gomoku());
        let mut bob = PlayScreen::new(t.view().clone(), [false, true], true);
        for c in "g8".chars() {
            bob.handle(Key::Char(c));
        }
        assert_eq!(bob.handle(Key::Enter), PlayAction::None);
        let text = bob.frame(Theme::Ascii).to_plain("\n");
        assert!(text.contains("not your turn: ann"), "{text}");
        assert!(text.contains("Next move: g8_"), "{text}");
        t.play(Side::First, Move::Point(Point::new(7, 7))).unwrap();
        bob.update(t.view().clone());
        let text = bob.frame(Theme::Ascii).to_plain("\n");
        assert!(text.contains("Move: g8_"), "{text}");
        assert!(!text.contains("not your turn"), "{text}");
        assert_eq!(
            bob.handle(Key::Enter),
            PlayAction::Seat(SeatCmd::Move(Move::Point(Point::new(6, 7))))
        );
        // Kept by an early Enter, a move gives way to the next one typed
        // (a line-mode client sends a new line, not more of the old one).
        t.play(Side::Second, Move::Point(Point::new(6, 7))).unwrap();
        bob.update(t.view().clone());
        for c in "a1\rh9".chars() {
            bob.handle(if c == '\r' { Key::Enter } else { Key::Char(c) });
        }
        assert!(
            bob.frame(Theme::Ascii)
                .to_plain("\n")
                .contains("Next move: h9_")
        );
        t.play(Side::First, Move::Point(Point::new(0, 1))).unwrap();
        bob.update(t.view().clone());
        assert_eq!(
            bob.handle(Key::Enter),
            PlayAction::Seat(SeatCmd::Move(Move::Point(Point::new(7, 8))))
        );
        // A watcher types nothing.
        let mut w = PlayScreen::new(t.view().clone(), [false, false], true);
        w.handle(Key::Char('h'));
        w.paste('9');
        let text = w.frame(Theme::Ascii).to_plain("\n");
        assert!(
            !text.contains("Next move") && !text.contains("Move:"),
            "{text}"
        );
    }

    /// The arrows move the cursor over the whole board in renju as in
    /// Gomoku (up and down too), and Enter places at the cursor.
    #[test]
    fn arrows_move_up_and_down_in_renju() {
        for rules in [Rules::gomoku(), Rules::standard(GameKind::Renju)] {
            let t = gomoku_pair(rules);
            let mut ann = PlayScreen::new(t.view().clone(), [true, false], true);
            ann.handle(Key::Up);
            ann.handle(Key::Up);
            ann.handle(Key::Left);
            assert_eq!(
                ann.handle(Key::Enter),
                PlayAction::Seat(SeatCmd::Move(Move::Point(Point::new(6, 9)))),
                "{rules:?}"
            );
        }
    }
}
