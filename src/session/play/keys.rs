//! The game screen's keys and clicks: the move field, the cursor, the
//! questions (leave? resign?), offers and claims, and the keys after a game.

use super::*;

impl PlayScreen {
    pub(super) fn move_cursor(&mut self, dx: i32, dy: i32) {
        let rules = self.game.position.rules();
        let wrap =
            |v: u8, d: i32, n: u8| -> u8 { ((i32::from(v) + d).rem_euclid(i32::from(n))) as u8 };
        self.cursor.x = wrap(self.cursor.x, dx, rules.width());
        if !self.kind().has_gravity() {
            self.cursor.y = wrap(self.cursor.y, dy, rules.height());
        }
    }

    pub(super) fn cursor_move(&self) -> Move {
        match self.kind() {
            GameKind::ConnectFour => Move::Column(self.cursor.x),
            GameKind::Gomoku | GameKind::Renju => Move::Point(self.cursor),
        }
    }

    /// Checks a move against the position shown; on error the message is
    /// set and nothing is sent.
    pub(super) fn submit(&mut self, m: Move) -> PlayAction {
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
    pub(super) fn move_error_text(&self, e: &crate::game::IllegalMoveError) -> String {
        crate::session::words::illegal(self.lang, e, self.game.seat(Side::First).colour)
    }

    /// The notice for a move tried out of turn: who is to move.
    pub(super) fn tell_not_your_turn(&mut self) {
        let who = self
            .game
            .to_move()
            .map(|s| self.label(s))
            .unwrap_or_default();
        let text = self.tw("not-your-turn", &[("player", who.into())]);
        self.set_notice(text, true);
    }

    pub(super) fn submit_typed(&mut self) -> PlayAction {
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
        let rules = *self.game.position.rules();
        match rules.parse_move(&text) {
            Ok(m) => self.submit(m),
            Err(e) => {
                self.set_notice(
                    crate::session::words::parse_error(self.lang, &e, &rules),
                    true,
                );
                PlayAction::None
            }
        }
    }

    /// Whether a key would type into the move field rather than act: a
    /// letter that names a column on this board, after other typed text.
    pub(super) fn types_into_field(&self, c: char) -> bool {
        !self.typed.is_empty()
            && !self.kind().has_gravity()
            && c.is_ascii_alphabetic()
            && (c.to_ascii_lowercase() as u32)
                < u32::from(b'a') + u32::from(self.game.position.rules().width())
    }

    /// Adds a character to the move field (a move kept for the turn gives
    /// way to the new one).
    pub(super) fn type_char(&mut self, c: char) {
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
    /// A key on the game screen, and what it asks for: each step below
    /// takes the keys of one state of the screen, in order of precedence.
    pub fn handle(&mut self, key: Key) -> PlayAction {
        match key {
            Key::CtrlC | Key::CtrlD => return PlayAction::Quit,
            Key::CtrlL => return PlayAction::Redraw,
            _ => {}
        }
        if self.review.is_some() {
            return self.review_key(key);
        }
        if self.chat_typing.is_some() {
            return self.chat_key(key);
        }
        if key == Key::Tab && self.chat_here() && self.confirm.is_none() {
            self.chat_typing = Some(String::new());
            return PlayAction::None;
        }
        if self.watching() && self.remote {
            return self.watcher_key(key);
        }
        if let Some(confirm) = self.confirm {
            return self.confirm_key(confirm, key);
        }
        let undo_key = matches!(key, Key::Char('u' | 'U')) && !self.types_into_field('u');
        if undo_key && self.against_computer() {
            return self.undo();
        }
        if self.game.ending.is_none()
            && !self.watching()
            && let Some(action) = self
                .swap2_key(key)
                .or_else(|| self.command_key(key, undo_key))
        {
            return action;
        }
        if self.game.ending.is_some() {
            return self.after_game_key(key);
        }
        self.field_key(key)
    }

    /// Keys of a remote watcher: back to the lobby, nothing else.
    fn watcher_key(&mut self, key: Key) -> PlayAction {
        match key {
            Key::Char('q' | 'Q' | 'l' | 'L' | 'm' | 'M') | Key::Esc | Key::Backspace => {
                PlayAction::ToMenu
            }
            Key::Char(c) if !c.is_whitespace() => {
                self.say("watching-keys", false);
                PlayAction::None
            }
            _ => PlayAction::None,
        }
    }

    /// The answer to "leave? y/n" or "resign? y/n".
    fn confirm_key(&mut self, confirm: Confirm, key: Key) -> PlayAction {
        match key {
            // y/n, and in German j/n (ja/nein).
            Key::Char('y' | 'Y') => self.confirmed(confirm),
            Key::Char('j' | 'J') if self.lang == crate::lang::Lang::De => self.confirmed(confirm),
            // Enter is no answer (a line-mode client sends it after the q).
            Key::Enter => PlayAction::None,
            _ => {
                self.confirm = None;
                self.say(
                    match confirm {
                        Confirm::Leave => "you-stay",
                        Confirm::Resign => "you-play-on",
                    },
                    false,
                );
                PlayAction::None
            }
        }
    }

    /// "Leave? y/n" or "resign? y/n" answered yes.
    fn confirmed(&mut self, confirm: Confirm) -> PlayAction {
        self.confirm = None;
        match confirm {
            Confirm::Leave => PlayAction::Seat(SeatCmd::LEAVE),
            Confirm::Resign => PlayAction::Seat(SeatCmd::Resign),
        }
    }

    /// `u` against the computer: takes back this player's last move.
    fn undo(&mut self) -> PlayAction {
        if self.can_undo() {
            self.typed.clear();
            self.notice = None;
            return PlayAction::Seat(SeatCmd::Undo);
        }
        self.say("nothing-to-take-back", true);
        PlayAction::None
    }

    /// The swap2 opening's choice, when this terminal makes it: 1, 2 (or
    /// 3) chooses, and other typing is told which keys do. `None`: the key
    /// is not about the choice.
    fn swap2_key(&mut self, key: Key) -> Option<PlayAction> {
        let stage = self.game.swap2.filter(|s| s.is_choice())?;
        if !self.my_turn() {
            return None;
        }
        let choice = match key {
            Key::Char('1') => Some(Swap2Choice::First),
            Key::Char('2') => Some(Swap2Choice::Second),
            Key::Char('3') if stage == Swap2Stage::Choose => Some(Swap2Choice::TwoMore),
            Key::Char('!' | 'q' | 'Q' | '?') | Key::Tab | Key::F1 => None,
            Key::Char(_) | Key::Enter => {
                let id = if stage == Swap2Stage::Choose {
                    "swap2-choose-with-three"
                } else {
                    "swap2-choose-with-two"
                };
                self.typed.clear();
                self.say(id, true);
                return Some(PlayAction::None);
            }
            _ => None,
        }?;
        self.typed.clear();
        self.notice = None;
        Some(PlayAction::Seat(SeatCmd::Swap2(choice)))
    }

    /// The commands of a game in play: resign, draw offers and answers,
    /// the claim of the win, a takeback. `None`: the key is no command.
    fn command_key(&mut self, key: Key, undo_key: bool) -> Option<PlayAction> {
        match key {
            Key::Char('!') => {
                self.typed.clear();
                self.confirm = Some(Confirm::Resign);
                Some(PlayAction::None)
            }
            Key::Char('=') => {
                self.notice = None;
                Some(match self.offer_to_me() {
                    Some(_) => PlayAction::Seat(SeatCmd::Answer(true)),
                    None => PlayAction::Seat(SeatCmd::Offer(OfferKind::Draw)),
                })
            }
            Key::Char('w') | Key::Char('W')
                if self.waiting_for_opponent() && self.game.claim_from.is_some() =>
            {
                if self.claim_due() {
                    self.notice = None;
                    return Some(PlayAction::Seat(SeatCmd::Claim));
                }
                self.set_notice(crate::protocol::Refusal::ClaimEarly.to_string(), false);
                Some(PlayAction::None)
            }
            Key::Char('w' | 'W') if !self.types_into_field('w') => {
                let why = self.why_no_claim();
                self.set_notice(why, false);
                Some(PlayAction::None)
            }
            Key::Char('-') if self.offer_to_me().is_some() => {
                self.notice = None;
                Some(PlayAction::Seat(SeatCmd::Answer(false)))
            }
            // Never part of a move: say why it does nothing.
            Key::Char('-') => {
                self.say("minus-no-offer", false);
                Some(PlayAction::None)
            }
            _ if undo_key && !self.against_computer() => {
                if self.game.rated {
                    self.say("no-takebacks-rated", true);
                    return Some(PlayAction::None);
                }
                self.notice = None;
                Some(PlayAction::Seat(SeatCmd::Offer(OfferKind::Takeback)))
            }
            _ => None,
        }
    }

    /// Keys of the analysis after the game: stepping, and back.
    fn review_key(&mut self, key: Key) -> PlayAction {
        match key {
            Key::Esc | Key::Backspace | Key::Char('q' | 'Q') => {
                self.review = None;
                PlayAction::Redraw
            }
            key => match self.review.as_mut().map(|r| r.handle(key)) {
                Some(super::super::review::ReviewAction::Analyze(ask)) => PlayAction::Analyze(ask),
                _ => PlayAction::None,
            },
        }
    }

    /// `[a]` after the game: the game stepped through with its analysis,
    /// asked of the host now.
    fn open_review(&mut self) -> PlayAction {
        let mut review = Box::new(super::super::review::Review::new(
            self.replay_view(),
            self.game.record.clone(),
            self.lang,
        ));
        let ask = review.ask();
        self.review = Some(review);
        PlayAction::Analyze(ask)
    }

    /// The host's analysis of the game ended here (dropped when the
    /// review is closed or another game began).
    pub fn set_analysis(
        &mut self,
        ask: &super::super::review::AnalyzeAsk,
        answer: super::super::review::Analysed,
    ) {
        if let Some(review) = self.review.as_mut()
            && review.is_for(ask)
        {
            review.analysed(answer);
        }
    }

    /// Keys after the game: a rematch (when both are still there), the
    /// analysis, the lobby or menu, quitting.
    fn after_game_key(&mut self, key: Key) -> PlayAction {
        let self_gone = self.seat_left(true);
        match key {
            Key::Char('a' | 'A') => self.open_review(),
            Key::Char('r') | Key::Char('R') if self_gone => {
                self.say("you-left-no-rematch", true);
                PlayAction::None
            }
            Key::Char('r') | Key::Char('R') if self.partner_gone() => {
                self.say("opponent-left-no-rematch", true);
                PlayAction::None
            }
            Key::Char('r') | Key::Char('R') => PlayAction::Seat(SeatCmd::Rematch),
            Key::Char('m') | Key::Char('M') | Key::Char('l') | Key::Char('L') | Key::Esc => {
                PlayAction::ToMenu
            }
            Key::Char('q') | Key::Char('Q') => PlayAction::Quit,
            Key::Char(c) if !c.is_whitespace() => {
                let key = crate::text::sanitize_quote(&c.to_string(), 4);
                let text = self.tw("key-does-nothing", &[("key", key.into())]);
                self.set_notice(text, true);
                PlayAction::None
            }
            _ => PlayAction::None,
        }
    }

    /// Keys that make a move: the cursor, Enter, the move field.
    fn field_key(&mut self, key: Key) -> PlayAction {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Colour, Rules};
    use crate::session::play::tests::{ann_and_bob_at, two_people};
    use crate::table::{Seat, Table};

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
        assert!(
            bob.frame(Theme::Ascii)
                .to_plain("\n")
                .contains(&crate::protocol::Refusal::ClaimEarly.to_string())
        );
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
        let mut t = ann_and_bob_at(rules);
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

    /// A point typed and entered on the other side's turn stays in the
    /// field (shown), and Enter plays it once the turn comes.
    #[test]
    fn a_move_typed_ahead_is_kept_for_the_turn() {
        let mut t = ann_and_bob_at(Rules::gomoku());
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
            let t = ann_and_bob_at(rules);
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
