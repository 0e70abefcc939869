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
use fluent_templates::fluent_bundle::FluentValue;

mod banner;
mod chat;
mod frame;
mod keys;

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
    /// The analysis of the game just ended.
    Analyze(super::review::AnalyzeAsk),
}

/// Narrowest chat pane worth showing beside the board.
const PANE_MIN: usize = 20;
/// Widest chat pane.
const PANE_MAX: usize = 34;
/// Columns between the board and the pane.
const PANE_GAP: usize = 3;

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
    /// The language the person reads.
    pub lang: crate::lang::Lang,
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
    /// Where the host's pages are: the ended game's address is shown.
    pub web: Option<String>,
    /// The board as last drawn, and what it was drawn from: a clock tick
    /// or a chat line redraws the screen without drawing the board again.
    board_cache: Option<Box<BoardCache>>,
    /// In the last frame: the clock row (if any), the row above the board,
    /// and where the second clock starts ([`PlayScreen::time_lines`]).
    time_rows: Option<(Option<usize>, usize, usize)>,
    /// `[a]` after the game: the game stepped through with its analysis
    /// (Esc goes back to the end screen).
    review: Option<Box<super::review::Review>>,
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
            lang: crate::lang::Lang::En,
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
            web: None,
            chat_typing: None,
            muted: false,
            my_name: String::new(),
            board_cache: None,
            time_rows: None,
            review: None,
        }
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
    fn why_no_claim(&self) -> String {
        self.t(if self.game.clock.is_some() {
            "claim-clock"
        } else if self.against_computer() {
            "claim-computer"
        } else if self.mine == [true, true] {
            "claim-shared"
        } else if self.my_turn() {
            "claim-your-move"
        } else {
            // The same words the room answers an early claim with.
            "claim-early"
        })
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
        } else {
            // A new game began (a rematch, a takeback): its analysis is
            // not this one's.
            self.review = None;
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

    /// The message `id` in this person's language.
    pub(super) fn t(&self, id: &str) -> String {
        self.lang.text(id)
    }

    /// The message `id` with its arguments, in this person's language.
    pub(super) fn tw(&self, id: &str, args: &[(&'static str, FluentValue<'_>)]) -> String {
        self.lang.text_with(id, args)
    }

    /// Sets the notice to the message `id`.
    pub(super) fn say(&mut self, id: &str, error: bool) {
        let text = self.t(id);
        self.set_notice(text, error);
    }

    /// A seat's name and colour (or the computer's level), in this
    /// person's language.
    pub(super) fn label(&self, side: Side) -> String {
        crate::session::words::seat(self.lang, self.game.seat(side))
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
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::{Colour, Rules};
    use crate::table::{Seat, Table};

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

    pub(super) fn two_people(rated: bool) -> Table {
        let mut t = ann_and_bob_at(Rules::connect_four());
        t.set_rated(rated, [None, None]);
        t
    }

    /// Ann (red, first) and Bob (blue) at a table of `rules` (tests
    /// elsewhere in the crate).
    pub(crate) fn ann_and_bob_at(rules: Rules) -> Table {
        Table::new(
            rules,
            [
                Seat::human("ann", Colour::Red),
                Seat::human("bob", Colour::Blue),
            ],
        )
    }
}
