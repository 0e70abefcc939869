//! Drawing the game screen: title, players, clocks, board, status, the
//! move field, the message row and the key bar.

use super::chat::chat_line;
use super::*;

impl PlayScreen {
    /// Draws the screen, top to bottom.
    pub fn frame(&mut self, theme: Theme) -> Frame {
        if let Some(review) = &self.review {
            // Nothing on it changes with the time alone.
            self.time_rows = None;
            let mut f = Frame::new();
            review.lines(&mut f, theme, self.width);
            f.push(self.message_line(true));
            f.push(Line::styled(review.keys(), Style::PLAIN.dim()));
            return f;
        }
        let mut f = Frame::new();
        f.push(self.title_line());
        let (players, second_at) = self.players_line(theme);
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
        let board_top = f.height();
        let board_rows = self.push_board(&mut f, theme);
        for line in self.status_lines(theme) {
            f.push(line);
        }
        f.push(self.field_line());
        let pane = self.pane_fits(&f, board_top, board_rows);
        f.push(self.message_line(pane.is_none()));
        f.push(self.key_bar());
        // Words wider than the terminal (a long notice, an offer in a
        // long language) are shortened at a word; the board never is.
        let max = self.width.max(20);
        for (i, line) in f.lines.iter_mut().enumerate() {
            if !(board_top..board_top + board_rows).contains(&i) {
                line.fit(max);
            }
        }
        if let Some(col) = pane {
            self.draw_pane(&mut f, board_top, board_rows, col);
        }
        f
    }

    /// Title: game, round and score.
    fn title_line(&self) -> Line {
        let g = &self.game;
        let mut title = Line::new();
        title.push(
            format!(
                " {}",
                crate::session::words::rules(self.lang, g.position.rules())
            ),
            Style::PLAIN.bold(),
        );
        if g.rated {
            title.push(format!("   {}", self.t("title-rated")), Style::PLAIN.dim());
        }
        if g.watchers > 0 {
            let text = self.tw("title-watching", &[("count", g.watchers.into())]);
            title.push(format!("   {text}"), Style::PLAIN.dim());
        }
        if g.round > 1 || g.score != [0, 0] {
            // Scores in the order of the players line below.
            let text = self.tw(
                "title-round",
                &[
                    ("round", g.round.into()),
                    ("first", g.score[0].into()),
                    ("second", g.score[1].into()),
                ],
            );
            title.push(format!("   {text}"), Style::PLAIN.dim());
        }
        title
    }

    /// Players; the one to move is marked. Also where the second player's
    /// name starts (the clocks go under the names).
    fn players_line(&self, theme: Theme) -> (Line, usize) {
        let g = &self.game;
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
                format!(
                    "{} {}",
                    theme.stone(seat.colour).trim_end(),
                    crate::session::words::seat_name(self.lang, seat)
                ),
                st,
            );
            if let Some(r) = seat.rating {
                players.push(format!(" {r}"), Style::PLAIN.dim());
            }
            if self.mine[side.index()] && self.mine != [true, true] {
                players.push(self.t("players-you"), Style::PLAIN.dim());
            }
            if side == Side::First {
                players.push(format!("   {}", self.t("players-vs")), Style::PLAIN.dim());
                second_at = players.width();
            }
        }
        (players, second_at)
    }

    /// The board, indented (drawn again only when it changed), and for
    /// Connect Four the line under it; notes where it went, for clicks.
    /// Returns the board's rows.
    fn push_board(&mut self, f: &mut Frame, theme: Theme) -> usize {
        let (board, geometry) = self.drawn_board(theme);
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
            if matches!(self.game.ending, Some(Ending::Line { .. })) {
                f.push(Line::styled(
                    format!("  {}", self.t("points-how-to-read")),
                    Style::PLAIN.dim(),
                ));
            } else {
                f.blank();
            }
        }
        board_rows
    }

    /// The board's lines and geometry: from the cache when the position,
    /// colours, cursor and theme are those it was drawn with.
    fn drawn_board(&mut self, theme: Theme) -> (Vec<Line>, BoardGeometry) {
        let g = &self.game;
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
        if let Some(c) = cached {
            return (c.lines.clone(), c.geometry);
        }
        let view = BoardView {
            position: &g.position,
            colours,
            cursor,
            theme,
            // On my turn: only black has forbidden points, and the
            // board marks them only when black is to move.
            show_forbidden: cursor.is_some(),
            hint: None,
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

    /// Status: how the game ended, or whose move (or choice) it is.
    /// Status: one line, but for an ending too long for the screen in the
    /// person's language (German's winning line), wrapped by display width.
    fn status_lines(&self, theme: Theme) -> Vec<Line> {
        let line = self.status_line(theme);
        let text = line.text();
        let max = self.width.saturating_sub(1).max(20);
        if self.game.ending.is_none() || crate::text::width(&text) <= max {
            return vec![line];
        }
        let style = line.spans.first().map_or(Style::PLAIN, |s| s.style);
        crate::text::wrap(text.trim_start(), max - 1)
            .into_iter()
            .map(|l| Line::styled(format!(" {l}"), style))
            .collect()
    }

    fn status_line(&self, theme: Theme) -> Line {
        let g = &self.game;
        match (crate::session::words::ending(self.lang, g), g.to_move()) {
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
                let name = || FluentValue::from(seat.name.as_str());
                let label = || FluentValue::from(self.label(side));
                let text = if choosing && self.mine[side.index()] {
                    self.tw("status-your-choice", &[("name", name())])
                } else if choosing {
                    self.tw("status-waiting-choice", &[("name", name())])
                } else if placing && self.mine[side.index()] {
                    let stone = g.seat(g.position.to_move()).colour;
                    let colour = crate::session::words::colour(self.lang, stone);
                    self.tw(
                        "status-places",
                        &[("name", name()), ("colour", colour.into())],
                    )
                } else if self.mine[side.index()] {
                    self.tw("status-to-move", &[("player", label())])
                } else if seat.computer.is_some() {
                    self.tw("status-thinking", &[("player", label())])
                } else {
                    self.tw("status-waiting", &[("player", label())])
                };
                let mut line = Line::styled(format!(" {text}"), theme.style(seat.colour));
                // The last move in words too (the board marks it; with the
                // cursor beside it, by reversing the stone).
                if !self.kind().has_gravity()
                    && let Some(p) = g.position.last_move()
                {
                    let point = g.position.rules().format_point(p);
                    let text = self.tw("status-last-move", &[("point", point.into())]);
                    line.push(format!("   {text}"), Style::PLAIN.dim());
                }
                line
            }
            (None, None) => Line::new(),
        }
    }

    /// The move field (or the swap2 keys) on this player's turn, a move
    /// typed ahead, or after the game the rematch state.
    fn field_line(&self) -> Line {
        let g = &self.game;
        if g.ending.is_some() {
            self.rematch_line()
        } else if self.my_turn() && g.swap2.is_some_and(|s| s.is_choice()) {
            let keys = self.t(if g.swap2 == Some(Swap2Stage::Choose) {
                "field-press-three"
            } else {
                "field-press-two"
            });
            Line::styled(format!(" {keys}"), Style::PLAIN.bold())
        } else if self.my_turn() {
            let mut l = Line::new();
            l.push(format!(" {} ", self.t("field-move")), Style::PLAIN.bold());
            l.push(self.typed.clone(), Style::PLAIN.underline());
            l.push("_", Style::PLAIN.bold());
            let hint = match self.kind() {
                GameKind::ConnectFour => self.tw(
                    "field-hint-column",
                    &[(
                        "keys",
                        crate::session::words::move_hint(self.lang, g.position.rules()).into(),
                    )],
                ),
                GameKind::Gomoku | GameKind::Renju => self.t("field-hint-point"),
            };
            l.push(format!("   {hint}"), Style::PLAIN.dim());
            l
        } else if !self.watching() && !self.typed.is_empty() {
            // Typed ahead on the other side's turn: shown, kept for later.
            let mut l = Line::new();
            l.push(format!(" {} ", self.t("field-next")), Style::PLAIN.bold());
            l.push(self.typed.clone(), Style::PLAIN.underline());
            l.push("_", Style::PLAIN.bold());
            l.push(
                format!("   {}", self.t("field-next-hint")),
                Style::PLAIN.dim(),
            );
            l
        } else {
            Line::new()
        }
    }

    /// After the game: who left the table, or who asked for a rematch.
    fn rematch_line(&self) -> Line {
        let g = &self.game;
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
            let text = self.tw("rematch-gone", &[("names", gone.join(", ").into())]);
            l.push(format!(" {text}"), Style::PLAIN.dim());
        } else if self.remote && !asked.is_empty() {
            let mine_asked = Side::BOTH
                .into_iter()
                .any(|s| self.mine[s.index()] && g.rematch[s.index()]);
            let text = if mine_asked {
                self.t("rematch-asked")
            } else {
                self.tw("rematch-wanted", &[("names", asked.join(", ").into())])
            };
            l.push(format!(" {text}"), Style::PLAIN.bold());
        }
        l
    }

    /// The message row: the chat line being typed, a question, the last
    /// notice, a guest's resume code, or (`no_pane`: no room for the pane)
    /// the newest chat line.
    fn message_line(&self, no_pane: bool) -> Line {
        let g = &self.game;
        let newest = self.chat_lines().last().map(|l| (*l).clone());
        match &self.notice {
            _ if self.chat_typing.is_some() => self.chat_prompt(),
            _ if self.confirm == Some(Confirm::Leave) => {
                let q = self.t(if self.aborts() {
                    "confirm-leave-abort"
                } else if self.remote || self.against_computer() {
                    "confirm-leave-lose"
                } else {
                    "confirm-leave"
                });
                Line::styled(format!(" {q}"), Style::PLAIN.bold().reverse())
            }
            _ if self.confirm == Some(Confirm::Resign) => {
                let q = if self.mine == [true, true] {
                    let who = g.to_move().map(|s| self.label(s)).unwrap_or_default();
                    self.tw("confirm-resign-for", &[("player", who.into())])
                } else if self.aborts() {
                    self.t("confirm-resign-abort")
                } else {
                    self.t("confirm-resign")
                };
                Line::styled(format!(" {q}"), Style::PLAIN.bold().reverse())
            }
            Some(n) if n.error => {
                Line::styled(format!(" ! {}", n.text), Style::fg(Ink::Red).bold())
            }
            Some(n) => Line::styled(format!(" {}", n.text), Style::PLAIN),
            None => match (&self.resume, newest) {
                (Some(code), _) if g.ending.is_none() => Line::styled(
                    format!(
                        " {}",
                        self.tw("resume-hint", &[("code", code.as_str().into())])
                    ),
                    Style::PLAIN.dim(),
                ),
                // No room for the pane: the newest line said, here.
                (_, Some(l)) if no_pane => {
                    chat_line(&l, self.is_mine(&l), self.width.saturating_sub(2))
                }
                _ => self.web_line(),
            },
        }
    }

    /// After the game, where the host has pages: the game's address on
    /// the web, in full, or with the short id where the full one does not
    /// fit (the host takes both).
    fn web_line(&self) -> Line {
        let (Some(base), Some(id), Some(_)) = (&self.web, &self.game.record, &self.game.ending)
        else {
            return Line::new();
        };
        let full = format!("{base}/g/{id}");
        let short = format!("{base}/g/{}", id.replace('-', ""));
        let fits = |s: &str| crate::text::width(s) <= self.width;
        let on_web = |url: &str| format!(" {}", self.tw("web-address", &[("url", url.into())]));
        let text = [on_web(&full), format!(" {full}"), on_web(&short)]
            .into_iter()
            .find(|t| fits(t))
            .unwrap_or_else(|| format!(" {short}"));
        Line::styled(text, Style::PLAIN.dim())
    }

    /// Keys: the key bar at the bottom, for this state of the game.
    fn key_bar(&self) -> Line {
        let g = &self.game;
        let more: &[&str] = if self.against_computer() {
            &["keys-undo"]
        } else if self.claim_due() {
            // The opponent keeps this player waiting: the claim first
            // (no takeback to ask of someone who is not there).
            &["keys-claim", "keys-draw"]
        } else if !g.rated {
            &["keys-draw", "keys-takeback"]
        } else {
            &["keys-draw"]
        };
        let chat: &[&str] = if self.chat_here() {
            &["keys-chat"]
        } else {
            &[]
        };
        let ids: Vec<&str> = if self.watching() && self.remote {
            [&["keys-back-to-lobby"], chat, &["keys-help"]].concat()
        } else if g.ending.is_some() {
            chat.to_vec()
        } else if self.remote {
            [&["keys-leave", "keys-resign"], more, chat, &["keys-help"]].concat()
        } else {
            [&["keys-quit", "keys-resign"], more, &["keys-help"]].concat()
        };
        let bar = |ids: &[&str]| {
            let mut parts: Vec<String> = Vec::new();
            if g.ending.is_some() && !(self.watching() && self.remote) {
                parts.push(self.after_game_keys());
            }
            parts.extend(ids.iter().map(|id| self.t(id)));
            format!(" {}", parts.join("   "))
        };
        let mut ids = ids;
        let mut keys = bar(&ids);
        // On a narrow terminal the chat key goes (the pane names it), then
        // help's (? is on every screen).
        for drop in ["keys-chat", "keys-help"] {
            if crate::text::width(&keys) > self.width {
                ids.retain(|id| *id != drop);
                keys = bar(&ids);
            }
        }
        Line::styled(keys.trim_end().to_string(), Style::PLAIN.dim())
    }

    /// The row of both clocks (a game with a clock); the second clock
    /// starts under the second player's name at `second_at`.
    pub(super) fn clock_row(&self, second_at: usize) -> Option<Line> {
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
    pub(super) fn verdict_row(&self) -> Line {
        let g = &self.game;
        match self.verdict() {
            Some(v) => {
                let mut l = Line::styled(format!(" {v} "), Style::PLAIN.bold().reverse());
                // A rated game: how this person's rating moved.
                let mine = Side::BOTH.into_iter().find(|s| self.mine[s.index()]);
                if let Some(change) = mine.and_then(|s| g.rating_change[s.index()]) {
                    let text = self.tw("verdict-rating", &[("change", change.to_string().into())]);
                    l.push(format!("  {text}"), Style::PLAIN.bold());
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::play::tests::two_people;

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
}
