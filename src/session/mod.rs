//! One person's screens as a state machine: bytes and events go in, bytes
//! for the terminal and requests for the outside world come out. No IO, no
//! async: the local terminal driver and every remote connection run this
//! same code, and tests drive it directly.
//!
//! The session owns the key decoder and the row-diffing screen, so a front
//! end only moves bytes: it feeds [`Session::input`], calls
//! [`Session::flush_input`] when a lone ESC has waited long enough, reports
//! sizes with [`Session::resize`], and carries out the [`Request`]s.

pub mod play;
pub mod setup;
pub mod widgets;

use crate::game::Move;
use crate::table::GameView;
use crate::term::board::Theme;
use crate::term::input::{Key, KeyDecoder};
use crate::term::screen::{ENTER_SEQUENCE, Frame, Screen, leave_bytes};

use play::{PlayAction, PlayScreen};
use setup::{LocalGame, PlayOptions, Setup, SetupEvent};

/// How long a lone ESC waits for the rest of a sequence before it counts as the Esc key.
pub const ESC_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(40);

/// What the session asks of the world around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Start this local game.
    StartLocal(LocalGame),
    /// Play this move in the current game (checked against what we show;
    /// the table checks again).
    Move(Move),
    /// Leave the current game (a forfeit if it is still on).
    Leave,
    /// Ask for a rematch / play again.
    Rematch,
    /// Back to the menu (local) or lobby.
    ToMenu,
    /// Close the session.
    Quit,
}

/// What one call produced.
#[derive(Debug, Default)]
pub struct Output {
    /// Bytes for the terminal.
    pub bytes: Vec<u8>,
    pub requests: Vec<Request>,
}

enum State {
    Setup(Box<Setup>),
    Play(Box<PlayScreen>),
    Closed,
}

pub struct Session {
    screen: Screen,
    decoder: KeyDecoder,
    theme: Theme,
    state: State,
    /// Flags the local menu started from, for "back to the menu".
    local_preset: PlayOptions,
    remote: bool,
    keys: Vec<Key>,
}

impl Session {
    /// A local session: the new-game screens, pre-answered by `preset`.
    pub fn local(
        preset: PlayOptions,
        theme: Theme,
        cols: u32,
        rows: u32,
        seed: Option<u64>,
    ) -> Session {
        let setup = Setup::new(preset.clone(), crate::engine::simple::make_rng(seed));
        Session {
            screen: Screen::new(cols, rows),
            decoder: KeyDecoder::new(),
            theme,
            state: State::Setup(Box::new(setup)),
            local_preset: preset,
            remote: false,
            keys: Vec::new(),
        }
    }

    pub fn theme(&self) -> Theme {
        self.theme
    }

    pub fn is_closed(&self) -> bool {
        matches!(self.state, State::Closed)
    }

    /// Whether the key decoder waits for more bytes (arm an [`ESC_TIMEOUT`] timer).
    pub fn input_pending(&self) -> bool {
        self.decoder.has_pending()
    }

    /// The first bytes: take over the terminal and draw.
    pub fn open(&mut self) -> Output {
        let mut out = Output::default();
        out.bytes.extend_from_slice(ENTER_SEQUENCE.as_bytes());
        self.screen.invalidate();
        // Flags may have answered every question: start at once.
        if let State::Setup(setup) = &mut self.state
            && let Some(game) = setup.completed()
        {
            out.requests.push(Request::StartLocal(game));
        }
        self.render(&mut out);
        out
    }

    /// The last bytes: give the terminal back.
    pub fn close(&mut self) -> Vec<u8> {
        self.state = State::Closed;
        leave_bytes()
    }

    /// Bytes typed by the person.
    pub fn input(&mut self, bytes: &[u8]) -> Output {
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        self.decoder.feed(bytes, &mut keys);
        let out = self.keys_in(&keys);
        self.keys = keys;
        out
    }

    /// No more bytes came after a lone ESC: it was the Esc key.
    pub fn flush_input(&mut self) -> Output {
        let mut keys = Vec::new();
        self.decoder.flush(&mut keys);
        self.keys_in(&keys)
    }

    /// The terminal has a new size.
    pub fn resize(&mut self, cols: u32, rows: u32) -> Output {
        self.screen.resize(cols, rows);
        let mut out = Output::default();
        self.render(&mut out);
        out
    }

    /// A game begins (or a new round at the same table): show it.
    pub fn game_started(&mut self, view: GameView, mine: [bool; 2]) -> Output {
        self.state = State::Play(Box::new(PlayScreen::new(view, mine, self.remote)));
        let mut out = Output::default();
        self.render(&mut out);
        out
    }

    /// The game changed.
    pub fn game_update(&mut self, view: GameView) -> Output {
        if let State::Play(p) = &mut self.state {
            p.update(view);
        }
        let mut out = Output::default();
        self.render(&mut out);
        out
    }

    /// The table refused our move.
    pub fn move_rejected(&mut self, reason: &str) -> Output {
        if let State::Play(p) = &mut self.state {
            p.set_notice(reason, true);
        }
        let mut out = Output::default();
        self.render(&mut out);
        out
    }

    /// Back to the local new-game screens (after "menu"): everything is
    /// asked again, except a non-standard board size given by flag (there
    /// is no menu entry for other sizes).
    pub fn to_local_menu(&mut self) -> Output {
        let keep = match self.local_preset.rules {
            Some(r) if r != crate::game::Rules::standard(r.kind()) => PlayOptions {
                rules: Some(r),
                ..PlayOptions::default()
            },
            _ => PlayOptions::default(),
        };
        let setup = Setup::new(keep, crate::engine::simple::make_rng(None));
        self.state = State::Setup(Box::new(setup));
        let mut out = Output::default();
        self.render(&mut out);
        out
    }

    /// The current picture as plain text (tests, logs).
    pub fn frame_text(&mut self) -> String {
        self.frame().to_plain("\n")
    }

    fn frame(&mut self) -> Frame {
        match &mut self.state {
            State::Setup(s) => s.frame(),
            State::Play(p) => p.frame(self.theme),
            State::Closed => Frame::new(),
        }
    }

    fn render(&mut self, out: &mut Output) {
        if self.is_closed() {
            return;
        }
        let frame = self.frame();
        self.screen.render(&frame, &mut out.bytes);
    }

    fn keys_in(&mut self, keys: &[Key]) -> Output {
        let mut out = Output::default();
        for &key in keys {
            if self.is_closed() {
                break;
            }
            self.key(key, &mut out);
        }
        self.render(&mut out);
        out
    }

    fn key(&mut self, key: Key, out: &mut Output) {
        if key == Key::CtrlL {
            self.screen.invalidate();
            return;
        }
        let placement = self.screen.placement();
        match &mut self.state {
            State::Setup(setup) => {
                let event = match key {
                    Key::Click { col, row } => match placement.to_frame(col, row) {
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
                    Key::Click { col, row } => match placement.to_frame(col, row) {
                        Some((c, l)) => play.click(c, l),
                        None => PlayAction::None,
                    },
                    k => play.handle(k),
                };
                match action {
                    PlayAction::None => {}
                    PlayAction::Redraw => self.screen.invalidate(),
                    PlayAction::Submit(m) => out.requests.push(Request::Move(m)),
                    PlayAction::Leave => out.requests.push(Request::Leave),
                    PlayAction::Rematch => out.requests.push(Request::Rematch),
                    PlayAction::ToMenu => out.requests.push(Request::ToMenu),
                    PlayAction::Quit => out.requests.push(Request::Quit),
                }
            }
            State::Closed => {}
        }
    }
}
