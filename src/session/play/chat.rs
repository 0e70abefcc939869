//! The game screen's chat: the line being typed, `/mute`, and the pane
//! beside the board (the chat's last lines, and the moves for a watcher).

use super::*;

impl PlayScreen {
    /// Whether this table has a chat for this terminal: on the host
    /// (chat on), watching, or playing a person (not the computer).
    pub(super) fn chat_here(&self) -> bool {
        self.chat_max > 0 && self.remote && (self.watching() || !self.against_computer())
    }

    /// Whether a chat line is being typed.
    pub fn chat_open(&self) -> bool {
        self.chat_typing.is_some()
    }

    /// The chat this terminal takes part in: the watchers' when it
    /// watches, else the players'; without what `/mute` hides.
    pub(super) fn chat_lines(&self) -> Vec<&ChatLine> {
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
    pub(super) fn is_mine(&self, l: &ChatLine) -> bool {
        match l.side {
            Some(side) => self.mine[side.index()],
            None => l.from == self.my_name,
        }
    }

    /// A chat line typed and entered: said, or a command (`/mute`).
    pub(super) fn send_chat(&mut self, text: String) -> PlayAction {
        let text = text.trim();
        match text {
            "" => PlayAction::None,
            "/mute" => {
                self.muted = true;
                let id = if self.watching() {
                    "chat-muted-watchers"
                } else {
                    "chat-muted-opponent"
                };
                self.say(id, false);
                PlayAction::None
            }
            "/unmute" => {
                self.muted = false;
                self.say("chat-unmuted", false);
                PlayAction::None
            }
            t if t.starts_with('/') => {
                self.say("chat-commands", true);
                PlayAction::None
            }
            t => PlayAction::Seat(SeatCmd::Chat(t.to_string())),
        }
    }

    /// Keys while a chat line is being typed.
    pub(super) fn chat_key(&mut self, key: Key) -> PlayAction {
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

    /// The chat line being typed, on the message row: its end, what fits
    /// beside the prompt.
    pub(super) fn chat_prompt(&self) -> Line {
        let mut l = Line::new();
        l.push(format!(" {} ", self.t("chat-say")), Style::PLAIN.bold());
        // The end of a long line: what fits beside the prompt.
        let typed = self.chat_typing.clone().unwrap_or_default();
        let room = self.width.saturating_sub(34).max(8);
        let chars: Vec<char> = typed.chars().collect();
        let shown: String = chars[chars.len().saturating_sub(room)..].iter().collect();
        l.push(shown, Style::PLAIN.underline());
        l.push("_", Style::PLAIN.bold());
        if chars.len() >= self.chat_max {
            let text = self.tw("chat-at-most", &[("count", self.chat_max.into())]);
            l.push(format!("  {text}"), Style::PLAIN.bold());
        } else {
            l.push(
                format!("  {}", self.t("chat-enter-sends")),
                Style::PLAIN.dim(),
            );
        }
        l
    }

    /// Where a pane beside the board starts (the chat, and the moves for
    /// a watcher), if it fits this terminal.
    pub(super) fn pane_fits(&self, f: &Frame, top: usize, rows: usize) -> Option<usize> {
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
    pub(super) fn draw_pane(&self, f: &mut Frame, top: usize, rows: usize, col: usize) {
        let w = (self.width - col - 1).min(PANE_MAX);
        let mut pane: Vec<Line> = Vec::new();
        if self.watching() {
            let rules = self.game.position.rules();
            let history = self.game.position.history();
            pane.push(Line::styled(
                self.tw("pane-moves", &[("count", history.len().into())]),
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
                self.t(if self.watching() {
                    "chat-title-watchers"
                } else {
                    "chat-title"
                }),
                Style::PLAIN.bold(),
            );
            if self.muted {
                head.push(
                    format!(" {}", self.t("chat-muted-mark")),
                    Style::PLAIN.dim(),
                );
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
                said.push(Line::styled(self.t("chat-tab-to-say"), Style::PLAIN.dim()));
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
pub(super) fn chat_line(l: &ChatLine, mine: bool, max: usize) -> Line {
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
