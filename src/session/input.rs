//! Keys in: decoding what the person typed or pasted, the keys that wait
//! while the terminal is too small, the help toggle, and what each key does
//! on the screen showing (turned into [`Request`]s).

use std::time::{Duration, Instant};

use crate::game::GameKind;
use crate::term::input::{Key, KeyDecoder};

use super::games::{GamesScreen, LiveAction};
use super::lobby::{HostScreen, RemoteAction, SeekScreen};
use super::people::{PeopleAction, PeopleScreen};
use super::play::PlayAction;
use super::puzzle::{PuzzleAction, PuzzleAsk};
use super::records::{RecordsAction, RecordsScreen};
use super::setup::SetupEvent;
use super::{Output, RemoteState, Request, Session, State, game_kinds};

/// How long a lone ESC waits for the rest of a sequence before it counts as the Esc key.
pub const ESC_TIMEOUT: Duration = Duration::from_millis(40);

/// Printable characters in one read from which the read counts as pasted
/// (a terminal without bracketed paste): text for a field, never commands.
/// People typing send a key or two per read.
pub const BURST_CHARS: usize = 16;

/// Whether the keys of one read were pasted rather than typed (a terminal
/// without bracketed paste): many characters, or a line break with more
/// keys after it (a person's Enter ends what one read carries; `d`, Enter,
/// `q`, Enter, `y` in one read is a paste, and must not leave a game).
fn is_burst(keys: &[Key]) -> bool {
    let chars = keys.iter().filter(|k| matches!(k, Key::Char(_))).count();
    let after_enter = keys
        .iter()
        .position(|k| *k == Key::Enter)
        .is_some_and(|i| i + 1 < keys.len());
    chars >= BURST_CHARS || after_enter
}

/// Keys kept while the terminal is too small.
pub const MAX_WAITING_KEYS: usize = 64;

/// Which screen keys were typed on: waiting keys are dropped when another
/// screen shows by the time the terminal fits (a `q` meant for a game in
/// play must not quit from its end screen).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ScreenKind {
    state: std::mem::Discriminant<State>,
    game_over: bool,
    help: bool,
}

impl Session {
    /// Bytes typed by the person.
    pub fn input(&mut self, bytes: &[u8], now: Instant) -> Output {
        self.now = Some(now);
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        self.decoder.feed(bytes, &mut keys);
        let burst = is_burst(&keys);
        let out = self.keys_in(&keys, burst, now);
        self.keys = keys;
        out
    }

    /// A whole line from a client in line mode (a plain socket: the
    /// person's terminal edits the line and sends it on Enter). In a text
    /// field or a game the line is typed and entered; in a menu its keys are
    /// pressed (`1` picks entry 1) and an empty line is Enter.
    pub fn line(&mut self, bytes: &[u8], now: Instant) -> Output {
        self.now = Some(now);
        let mut keys = KeyDecoder::decode_all(bytes);
        keys.retain(|k| *k != Key::Enter);
        if keys.is_empty() || self.wants_text() {
            keys.push(Key::Enter);
        }
        self.keys_in(&keys, false, now)
    }

    /// Whether what is on screen reads typed text (a field, a move).
    fn wants_text(&self) -> bool {
        match &self.state {
            State::Play(p) => p.game.ending.is_none() || p.chat_open(),
            State::Setup(s) => s.is_text_step(),
            State::Lobby(l) => l.is_text_step(),
            State::Puzzle(p, _) => p.wants_text(),
            _ => false,
        }
    }

    /// No more bytes came after a lone ESC: it was the Esc key.
    pub fn flush_input(&mut self, now: Instant) -> Output {
        self.now = Some(now);
        let mut keys = Vec::new();
        self.decoder.flush(&mut keys);
        self.keys_in(&keys, false, now)
    }

    fn keys_in(&mut self, keys: &[Key], burst: bool, now: Instant) -> Output {
        let mut out = Output::default();
        for &key in keys {
            if self.is_closed() {
                break;
            }
            match key {
                Key::PasteStart => self.pasting = true,
                Key::PasteEnd => self.pasting = false,
                Key::Char(c) if self.pasting || burst => self.paste_char(c),
                // Pasted line breaks and other keys are not commands.
                _ if self.pasting || burst => {}
                // Nothing acts on a screen that is not shown.
                // They wait (bounded) until it fits.
                k if self.screen.too_small()
                    && !matches!(k, Key::CtrlC | Key::CtrlD | Key::CtrlL) =>
                {
                    let kind = self.screen_kind();
                    if self.waiting_for != Some(kind) {
                        self.waiting.clear();
                        self.waiting_for = Some(kind);
                    }
                    // A click was aimed at what the small terminal showed,
                    // not at the screen to come: it does not wait.
                    if self.waiting.len() < MAX_WAITING_KEYS && !matches!(k, Key::Click { .. }) {
                        self.waiting.push(k);
                    }
                }
                Key::F1 => self.toggle_help(),
                Key::Char('?') if !self.question_mark_is_text() => self.toggle_help(),
                // Any key closes the help (Ctrl-C still quits).
                k if self.help.is_some() && !matches!(k, Key::CtrlC | Key::CtrlD) => {
                    self.help = None;
                    self.screen.invalidate();
                }
                k => self.key(k, &mut out, now),
            }
        }
        self.render(&mut out);
        self.release_waiting(&mut out);
        out
    }

    fn screen_kind(&self) -> ScreenKind {
        ScreenKind {
            state: std::mem::discriminant(&self.state),
            game_over: matches!(&self.state, State::Play(p) if p.game.ending.is_some()),
            help: self.help.is_some(),
        }
    }

    /// The terminal fits again: the keys typed meanwhile act, in order, if
    /// the screen they were typed on is still showing.
    pub(super) fn release_waiting(&mut self, out: &mut Output) {
        if self.waiting.is_empty() || self.screen.too_small() || self.is_closed() {
            return;
        }
        let keys = std::mem::take(&mut self.waiting);
        let typed_for = self.waiting_for.take();
        let Some(now) = self.now else { return };
        if typed_for != Some(self.screen_kind()) {
            return;
        }
        let more = self.keys_in(&keys, false, now);
        out.bytes.extend(more.bytes);
        out.requests.extend(more.requests);
    }

    fn toggle_help(&mut self) {
        self.help = match self.help {
            Some(_) => None,
            None => Some(self.help_topic()),
        };
        self.screen.invalidate();
    }

    fn remote_action(&mut self, action: RemoteAction, out: &mut Output, now: Instant) {
        let rules_of = |r: &RemoteState, kind: GameKind| {
            r.opts.games.iter().copied().find(|g| g.kind() == kind)
        };
        match action {
            RemoteAction::None => {}
            RemoteAction::Quit => out.requests.push(Request::Quit),
            RemoteAction::SetName(n) => out.requests.push(Request::SetName(n)),
            RemoteAction::SetColour(c) => {
                if let Some(r) = &mut self.remote {
                    r.colour = c;
                }
                out.requests.push(Request::SetColour(c));
            }
            RemoteAction::QuickMatch(kind) => {
                if let Some(rules) = self.remote.as_ref().and_then(|r| rules_of(r, kind)) {
                    self.state = State::Seeking(Box::new(SeekScreen::new(rules, now)));
                    out.requests.push(Request::QuickMatch(kind));
                }
            }
            RemoteAction::CreateRoom(kind, rated) => {
                if let Some(rules) = self.remote.as_ref().and_then(|r| rules_of(r, kind)) {
                    self.state = State::Hosting(Box::new(HostScreen::new(rules)));
                    out.requests.push(Request::CreateRoom(kind, rated));
                }
            }
            RemoteAction::PlayComputer(kind, level, first) => {
                // Leaving a quick-match queue first, if we were in one.
                if matches!(self.state, State::Seeking(_)) {
                    out.requests.push(Request::Cancel);
                }
                out.requests.push(Request::PlayComputer(kind, level, first));
            }
            RemoteAction::ToggleTheme => {
                self.theme = self.theme.toggled();
                self.screen.invalidate();
                out.requests.push(Request::SetStones(self.theme));
            }
            RemoteAction::JoinRoom(code) => out.requests.push(Request::JoinRoom(code)),
            RemoteAction::Cancel => {
                self.show_lobby();
                out.requests.push(Request::Cancel);
            }
            RemoteAction::Profile => {
                let Some(r) = &self.remote else { return };
                let screen =
                    RecordsScreen::profile(game_kinds(&r.opts), &r.opts.join_hint, self.lang);
                let back = self.lobby_game();
                self.state = State::Records(Box::new(screen), back);
                out.requests.push(Request::Profile);
            }
            RemoteAction::Games => {
                let back = self.lobby_game();
                self.state = State::Games(Box::new(GamesScreen::new()), back);
                out.requests.push(Request::Games);
            }
            RemoteAction::AllowWatchers(allow) => out.requests.push(Request::AllowWatchers(allow)),
            RemoteAction::RoomClock(clock) => out.requests.push(Request::RoomClock(clock)),
            RemoteAction::RoomOpening(opening) => out.requests.push(Request::RoomOpening(opening)),
            RemoteAction::People => {
                let Some(r) = &self.remote else { return };
                let back = self.lobby_game();
                self.state = State::People(
                    Box::new(PeopleScreen::new(r.opts.games.clone(), self.lang)),
                    back,
                );
                out.requests.push(Request::People);
            }
            RemoteAction::Language(lang) => {
                self.lang = lang;
                if let Some(r) = &mut self.remote {
                    r.opts.lang = lang;
                }
                self.screen.invalidate();
                out.requests.push(Request::SetLanguage(lang));
            }
            RemoteAction::Puzzles => {
                let back = self.lobby_game();
                let mut screen = Box::<super::puzzle::PuzzleScreen>::default();
                screen.lang = self.lang;
                self.state = State::Puzzle(screen, back);
                out.requests.push(Request::Puzzle(PuzzleAsk::Start));
            }
            RemoteAction::Leaderboard(kind) => {
                let Some(r) = &self.remote else { return };
                let kinds = game_kinds(&r.opts);
                // An unrated game (renju) has no leaderboard: show a rated one.
                let kind = if kinds.contains(&kind) {
                    kind
                } else {
                    kinds.first().copied().unwrap_or(kind)
                };
                let screen = RecordsScreen::leaderboard(kind, kinds, &r.opts.join_hint, self.lang);
                let back = self.lobby_game();
                self.state = State::Records(Box::new(screen), back);
                out.requests.push(Request::Leaderboard(kind));
            }
        }
    }

    fn records_action(&mut self, action: RecordsAction, out: &mut Output) {
        match action {
            RecordsAction::None => {}
            RecordsAction::Lobby => self.show_lobby(),
            RecordsAction::Replay(id) => out.requests.push(Request::Replay(id)),
            RecordsAction::Keys => out.requests.push(Request::Keys),
            RecordsAction::LinkCode => out.requests.push(Request::LinkCode),
            RecordsAction::RemoveKey(fp) => out.requests.push(Request::RemoveKey(fp)),
            RecordsAction::Leaderboard(kind) => out.requests.push(Request::Leaderboard(kind)),
            RecordsAction::Analyze(ask) => out.requests.push(Request::Analyze(ask)),
        }
    }

    fn key(&mut self, key: Key, out: &mut Output, now: Instant) {
        if key == Key::CtrlL {
            self.screen.invalidate();
            return;
        }
        if matches!(key, Key::CtrlC | Key::CtrlD) && self.remote.is_some() {
            out.requests.push(Request::Quit);
            return;
        }
        // An invitation on screen takes its keys first.
        if let Some(from) = self.invitation_showing().map(|i| i.from) {
            let accept = match key {
                Key::Char('y' | 'Y') => Some(true),
                // Ja, in German.
                Key::Char('j' | 'J') if self.lang == crate::lang::Lang::De => Some(true),
                Key::Char('n' | 'N') | Key::Esc => Some(false),
                _ => None,
            };
            if let (Some(accept), Some(r)) = (accept, &mut self.remote) {
                r.invitations.retain(|i| i.from != from);
                // Accepting leaves a quick-match queue or a room of one's own.
                if accept && matches!(self.state, State::Seeking(_) | State::Hosting(_)) {
                    self.show_lobby();
                }
                out.requests.push(Request::AnswerChallenge { from, accept });
                self.screen.invalidate();
            }
            return;
        }
        let placement = self.screen.placement();
        let line_of = |col: u16, row: u16| placement.to_frame(col, row);
        let name = self
            .remote
            .as_ref()
            .map(|r| r.name.clone())
            .unwrap_or_default();
        match &mut self.state {
            State::Setup(setup) => {
                let event = match key {
                    Key::Click { col, row } => match line_of(col, row) {
                        Some((_, line)) => setup.click(line),
                        None => SetupEvent::None,
                    },
                    k => setup.handle(k),
                };
                match event {
                    SetupEvent::None => {}
                    SetupEvent::Start(game) => out.requests.push(Request::StartLocal(game)),
                    SetupEvent::Quit => out.requests.push(Request::Quit),
                }
            }
            State::Play(play) => {
                let action = match key {
                    Key::Click { col, row } => match line_of(col, row) {
                        Some((c, l)) => play.click(c, l),
                        None => PlayAction::None,
                    },
                    k => play.handle(k),
                };
                match action {
                    PlayAction::None => {}
                    PlayAction::Redraw => self.screen.invalidate(),
                    PlayAction::Seat(cmd) => out.requests.push(Request::Seat(cmd)),
                    PlayAction::ToMenu => {
                        out.requests.push(Request::ToMenu);
                        self.show_lobby();
                    }
                    PlayAction::Quit => out.requests.push(Request::Quit),
                    PlayAction::Analyze(ask) => out.requests.push(Request::Analyze(ask)),
                }
            }
            State::Lobby(lobby) => {
                let Some(r) = &self.remote else { return };
                let action = match key {
                    Key::Click { col, row } => match line_of(col, row) {
                        Some((_, line)) => lobby.click(line, &r.opts),
                        None => RemoteAction::None,
                    },
                    k => lobby.handle(k, &r.opts, &name),
                };

                self.remote_action(action, out, now);
            }
            State::Seeking(seek) => {
                let action = match key {
                    Key::Click { col, row } => match line_of(col, row) {
                        Some((_, line)) => seek.click(line, now),
                        None => RemoteAction::None,
                    },
                    k => seek.handle(k, now),
                };
                self.remote_action(action, out, now);
            }
            State::Hosting(host) => {
                let action = host.handle(key);
                self.remote_action(action, out, now);
            }
            State::Records(records, _) => {
                let action = records.handle(key);
                self.records_action(action, out);
            }
            State::Games(games, _) => {
                let action = match key {
                    Key::Click { col, row } => match line_of(col, row) {
                        Some((_, line)) => games.click(line),
                        None => LiveAction::None,
                    },
                    k => games.handle(k),
                };
                match action {
                    LiveAction::None => {}
                    LiveAction::Lobby => self.show_lobby(),
                    LiveAction::Refresh => out.requests.push(Request::Games),
                    LiveAction::Watch(room) => out.requests.push(Request::Watch(room)),
                }
            }
            State::People(people, _) => {
                let action = match key {
                    Key::Click { col, row } => match line_of(col, row) {
                        Some((_, line)) => people.click(line),
                        None => PeopleAction::None,
                    },
                    k => people.handle(k),
                };
                match action {
                    PeopleAction::None => {}
                    PeopleAction::Lobby => self.show_lobby(),
                    PeopleAction::Refresh => out.requests.push(Request::People),
                    PeopleAction::SetInvitations(on) => {
                        out.requests.push(Request::SetInvitations(on))
                    }
                    PeopleAction::Challenge(c) => out.requests.push(Request::Challenge(c)),
                }
            }
            State::Puzzle(screen, _) => match screen.handle(key) {
                PuzzleAction::None => {}
                PuzzleAction::Ask(ask) => out.requests.push(Request::Puzzle(ask)),
                PuzzleAction::Done(attempt) => out.requests.push(Request::PuzzleDone(attempt)),
                PuzzleAction::Lobby => self.show_lobby(),
                PuzzleAction::Quit => out.requests.push(Request::Quit),
            },
            State::Closed => {}
        }
    }
}
