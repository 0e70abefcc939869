//! One person's screens as a state machine: bytes and events go in, bytes
//! for the terminal and requests for the outside world come out. No IO, no
//! async: the local terminal driver and every remote connection run this
//! same code, and tests drive it directly.
//!
//! The session owns the key decoder and the row-diffing screen, so a front
//! end only moves bytes: it feeds [`Session::input`], calls
//! [`Session::flush_input`] when a lone ESC has waited long enough, reports
//! sizes with [`Session::resize`], calls [`Session::tick`] by
//! [`Session::next_deadline`], and carries out the [`Request`]s.

pub mod games;
pub mod help;
mod input;
pub mod lobby;
pub mod people;
pub mod play;
pub mod puzzle;
pub mod records;
mod request;
pub mod review;
pub mod setup;
mod shared;
pub mod widgets;
pub mod words;

pub use input::{BURST_CHARS, ESC_TIMEOUT, MAX_WAITING_KEYS};
pub use request::{Output, Request};
pub use shared::SharedFrames;

use std::time::Instant;

use crate::game::GameKind;
use crate::table::GameView;
use crate::term::board::Theme;
use crate::term::input::{Key, KeyDecoder};
use crate::term::screen::{ENTER_SEQUENCE, Frame, Screen, leave_bytes};

use games::GamesScreen;
use help::HelpTopic;
use input::ScreenKind;
use lobby::{HostScreen, LobbyScreen, RemoteOptions, SeekScreen, Stats};
use people::PeopleScreen;
use play::PlayScreen;
use records::{KeyRow, LeaderboardView, ProfileView, RecordsScreen, ReplayView};
use setup::{PlayOptions, Setup};

pub use crate::protocol::RenderSlot;
pub use crate::protocol::Seating;

enum State {
    Setup(Box<Setup>),
    Play(Box<PlayScreen>),
    Lobby(Box<LobbyScreen>),
    Seeking(Box<SeekScreen>),
    Hosting(Box<HostScreen>),
    /// The profile, keys, leaderboard and replays.
    Records(Box<RecordsScreen>, Option<crate::game::Rules>),
    /// The games in play, to watch one; the lobby menu to go back to.
    Games(Box<GamesScreen>, Option<crate::game::Rules>),
    /// Who is online, to invite one of them.
    People(Box<PeopleScreen>, Option<crate::game::Rules>),
    /// `[z] Puzzles`.
    Puzzle(Box<puzzle::PuzzleScreen>, Option<crate::game::Rules>),
    Closed,
}

/// What only a remote session has.
struct RemoteState {
    opts: RemoteOptions,
    name: String,
    colour: Option<crate::game::Colour>,
    stats: Stats,
    /// Invitations received, the one shown first (bounded by the lobby).
    invitations: std::collections::VecDeque<crate::protocol::Invitation>,
    /// The day's puzzle in words, for the lobby's header.
    daily: Option<words::DailyWords>,
}

pub struct Session {
    screen: Screen,
    decoder: KeyDecoder,
    theme: Theme,
    state: State,
    /// Flags the local menu started from, for "back to the menu".
    local_preset: PlayOptions,
    remote: Option<RemoteState>,
    keys: Vec<Key>,
    /// The time the caller gave last (the session reads no clock itself).
    now: Option<Instant>,
    /// A guest's resume code at the current table.
    resume: Option<String>,
    /// Inside a bracketed paste: characters are text, never commands.
    pasting: bool,
    /// The help screen is showing, for this screen.
    help: Option<HelpTopic>,
    /// Keys typed while the terminal was too small, for the screen they
    /// were typed on (applied once it fits; bounded).
    waiting: Vec<Key>,
    waiting_for: Option<ScreenKind>,
    /// The language this person reads.
    lang: crate::lang::Lang,
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
        let setup = Setup::new(preset.clone(), crate::rng::make_rng(seed));
        let mut s = Session {
            lang: preset.lang,
            local_preset: preset,
            ..Session::showing(State::Setup(Box::new(setup)), theme, cols, rows)
        };
        s.screen.set_lang(s.lang);
        s
    }

    /// A session showing `state` first, with nothing typed yet.
    fn showing(state: State, theme: Theme, cols: u32, rows: u32) -> Session {
        Session {
            screen: Screen::new(cols, rows),
            decoder: KeyDecoder::new(),
            theme,
            state,
            local_preset: PlayOptions::default(),
            remote: None,
            keys: Vec::new(),
            now: None,
            resume: None,
            pasting: false,
            help: None,
            waiting: Vec::new(),
            waiting_for: None,
            lang: crate::lang::Lang::En,
        }
    }

    /// A remote session: the lobby (or the name question first).
    pub fn remote(opts: RemoteOptions, theme: Theme, cols: u32, rows: u32) -> Session {
        let lobby = LobbyScreen::new(&opts);
        let mut screen = Screen::new(cols, rows);
        screen.set_lang(opts.lang);
        Session {
            screen,
            lang: opts.lang,
            remote: Some(RemoteState {
                name: opts.name.clone(),
                colour: None,
                opts,
                stats: Stats::default(),
                invitations: std::collections::VecDeque::new(),
                daily: None,
            }),
            ..Session::showing(State::Lobby(Box::new(lobby)), theme, cols, rows)
        }
    }

    /// Reads the screens in `lang` from now on (a guest's choice back with
    /// their resume code).
    pub fn set_lang(&mut self, lang: crate::lang::Lang) -> Output {
        self.lang = lang;
        self.screen.set_lang(lang);
        if let Some(r) = &mut self.remote {
            r.opts.lang = lang;
            if let State::Lobby(l) = &mut self.state {
                l.set_lang(lang, &r.opts);
            }
        }
        if let State::Play(p) = &mut self.state {
            p.lang = lang;
        }
        self.screen.invalidate();
        self.rendered()
    }

    pub fn theme(&self) -> Theme {
        self.theme
    }

    pub fn is_closed(&self) -> bool {
        matches!(self.state, State::Closed)
    }

    /// Whether a game screen is showing.
    pub fn in_game(&self) -> bool {
        matches!(self.state, State::Play(_))
    }

    /// The stones on the board of the game showing, if one is.
    pub fn stones_on_board(&self) -> Option<usize> {
        match &self.state {
            State::Play(p) => Some(p.game.position.stones()),
            _ => None,
        }
    }

    /// Whether this person is waiting for someone else: a game where it is
    /// another seat's turn, a rematch asked for and not yet answered, or a
    /// quick match or room with no opponent yet. (The host's idle timer
    /// does not run then.)
    pub fn waiting_for_others(&self) -> bool {
        match &self.state {
            State::Play(p) => match p.game.to_move() {
                Some(side) => !p.mine[side.index()],
                None => {
                    let asked = (0..2).any(|i| p.mine[i] && p.game.rematch[i]);
                    let other_to_answer =
                        (0..2).any(|i| !p.mine[i] && p.present[i] && !p.game.rematch[i]);
                    asked && other_to_answer
                }
            },
            State::Seeking(_) | State::Hosting(_) => true,
            _ => false,
        }
    }

    /// The display name of a remote session.
    pub fn name(&self) -> Option<&str> {
        self.remote.as_ref().map(|r| r.name.as_str())
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

    /// The last bytes with a parting message printed on the restored terminal.
    pub fn goodbye(&mut self, message: &str) -> Vec<u8> {
        let mut bytes = self.close();
        bytes.extend_from_slice(crate::text::sanitize(message, 200).as_bytes());
        bytes.extend_from_slice(b"\r\n");
        bytes
    }

    /// The lobby says who, waiting for `kind` too, is nearest to being
    /// paired with this person (shown while the quick match waits).
    pub fn waiting_news(&mut self, kind: GameKind, nearest: Option<lobby::Nearest>) -> Output {
        match &mut self.state {
            State::Seeking(s) if s.rules().kind() == kind => {
                s.set_nearest(nearest);
                self.rendered()
            }
            _ => Output::default(),
        }
    }

    /// Switches the theme (the terminal type became known, or the stones
    /// the person chose before are known) and repaints.
    pub fn set_theme(&mut self, theme: Theme) -> Output {
        if theme == self.theme {
            return Output::default();
        }
        self.theme = theme;
        self.redraw()
    }

    /// The terminal has a new size.
    pub fn resize(&mut self, cols: u32, rows: u32) -> Output {
        self.screen.resize(cols, rows);
        self.rendered()
    }

    /// Forget what the terminal shows; the next output repaints it all
    /// (after output was dropped for a client that did not read).
    pub fn invalidate(&mut self) {
        self.screen.invalidate();
    }

    /// Repaint everything now.
    pub fn redraw(&mut self) -> Output {
        self.screen.invalidate();
        self.rendered()
    }

    /// When [`Session::tick`] should next be called, if ever.
    pub fn next_deadline(&self) -> Option<Instant> {
        match (&self.state, &self.remote) {
            (State::Seeking(s), Some(r)) => Some(s.next_deadline(&r.opts, self.now)),
            (State::Play(p), _) => p.next_change(),
            _ => None,
        }
    }

    /// Time passes.
    pub fn tick(&mut self, now: Instant) -> Output {
        self.now = Some(now);
        match (&mut self.state, &self.remote) {
            (State::Seeking(s), Some(r)) => s.tick(now, &r.opts),
            (State::Play(p), _) => {
                p.tick(now);
                // Only the time moved since the last frame (every other
                // change draws a whole one): the clock rows are enough.
                if self.help.is_none() {
                    let mut out = Output::default();
                    if self.screen.patch(&p.time_lines(), &mut out.bytes) {
                        return out;
                    }
                }
            }
            _ => {}
        }
        self.rendered()
    }

    /// A remote screen with nothing over the table (no help, no
    /// invitation): one that may share what other watchers draw.
    fn shows_only_the_table(&self) -> bool {
        self.remote.is_some() && self.help.is_none() && self.invitation_showing().is_none()
    }

    /// Time passes for a watcher of a table whose current state is
    /// `shared`: a plain watcher showing a shared picture takes the clocks'
    /// tick from another watcher showing the same one when there is one
    /// (and leaves its own for the others when not).
    pub fn tick_shared(&mut self, now: Instant, shared: &RenderSlot) -> Output {
        let shared: &SharedFrames = shared.get_or_default();
        let plain = self.shows_only_the_table();
        if let (true, State::Play(p), Some(before)) =
            (plain, &mut self.state, self.screen.shared_id())
            && p.is_plain_watcher()
        {
            self.now = Some(now);
            p.tick(now);
            let lines = p.time_lines();
            let mut out = Output::default();
            if let Some((shown, bytes)) = shared.find_tick(before, &lines) {
                out.bytes.extend_from_slice(&bytes);
                self.screen.take_shared(&shown);
                return out;
            }
            if self.screen.patch(&lines, &mut out.bytes) {
                let shown = self.screen.share();
                shared.add_tick(before, lines, shown, &out.bytes);
                return out;
            }
        }
        self.tick(now)
    }

    /// The time now, without redrawing (before news from the table, so
    /// countdowns start from the right moment).
    pub fn set_now(&mut self, now: Instant) {
        self.now = Some(now);
        if let State::Play(p) = &mut self.state {
            p.tick(now);
        }
    }

    /// A guest's resume code for the table it sits at now (`None`: none).
    pub fn set_resume(&mut self, code: Option<String>) {
        self.resume = code;
    }

    /// A game begins (or a new round at the same table): show it.
    pub fn game_started(&mut self, view: GameView, seating: Seating) -> Output {
        let mut p = PlayScreen::new(view, seating.mine, self.remote.is_some());
        p.seat(seating.mine, seating.present);
        p.resume = self.resume.clone();
        p.lang = self.lang;
        if let Some(r) = &self.remote {
            p.chat_max = r.opts.chat_max;
            p.my_name = r.name.clone();
            p.web.clone_from(&r.opts.web);
        }
        if let Some(now) = self.now {
            p.tick(now);
        }
        self.state = State::Play(Box::new(p));
        self.rendered()
    }

    /// The game changed, for a session that may share its picture with
    /// others watching the same table ([`SharedFrames`], which lives in
    /// the table's published state): a plain watcher takes what another
    /// watcher of the same size and theme has drawn of this state, and
    /// sends the same bytes when both showed the same picture before.
    pub fn game_update_shared(
        &mut self,
        view: GameView,
        seating: Seating,
        shared: &RenderSlot,
    ) -> Output {
        let shared: &SharedFrames = shared.get_or_default();
        let clock_at = view.clock.map(|c| c.at);
        let plain = self.shows_only_the_table();
        let State::Play(p) = &mut self.state else {
            return self.game_update(view, seating);
        };
        p.seat(seating.mine, seating.present);
        p.update(view);
        if !plain || !p.is_plain_watcher() {
            return self.rendered();
        }
        // The clocks as the state had them: the same for every watcher
        // (the next tick shows this screen's own time again).
        if let Some(at) = clock_at {
            p.tick(at);
        }
        let (cols, rows) = self.screen.size();
        let key = (self.theme, cols, rows);
        let before = self.screen.shared_id();
        let mut out = Output::default();
        let found = shared.find(key, before);
        match found {
            Some((shown, layout, Some(bytes))) => {
                out.bytes.extend_from_slice(&bytes);
                self.screen.take_shared(&shown);
                p.set_layout(layout);
            }
            Some((shown, layout, None)) => {
                self.screen.adopt(&shown, &mut out.bytes);
                p.set_layout(layout);
                if let Some(id) = before {
                    shared.add_diff(key, id, &out.bytes);
                }
            }
            None => {
                self.render(&mut out);
                let layout = match &self.state {
                    State::Play(p) => p.layout(),
                    _ => return out,
                };
                let shown = self.screen.share();
                shared.add(key, shown, layout, before, &out.bytes);
            }
        }
        out
    }

    /// The game changed.
    pub fn game_update(&mut self, view: GameView, seating: Seating) -> Output {
        if let State::Play(p) = &mut self.state {
            p.seat(seating.mine, seating.present);
            p.update(view);
        }
        self.rendered()
    }

    /// A move made just as the game moved to another host: it is played
    /// there once this session reaches the table that goes on.
    pub fn move_carried(&mut self) -> Output {
        if let State::Play(p) = &mut self.state {
            p.say("game-moved-carried", false);
        }
        self.rendered()
    }

    /// The table (or another host) refused what this person asked at it.
    pub fn refused(&mut self, why: &crate::protocol::Refusal) -> Output {
        if let crate::protocol::Refusal::Table(e) = why {
            return self.table_refused(e);
        }
        if let State::Play(p) = &mut self.state {
            p.set_notice(words::refusal(self.lang, why), true);
        }
        self.rendered()
    }

    /// Why the host refused something, in this person's language.
    pub fn refusal_words(&self, why: &crate::protocol::Refusal) -> String {
        words::refusal(self.lang, why)
    }

    /// The language this person reads.
    pub fn lang(&self) -> crate::lang::Lang {
        self.lang
    }

    /// What the host tells this person, in their language.
    pub fn news_words(&self, news: &crate::protocol::News) -> String {
        words::news(self.lang, news)
    }

    /// Words of this person's language: the message `id` with `args`
    /// (for what the connection tells the person itself).
    pub fn words(&self, id: &str, args: &[(&'static str, crate::lang::Value<'_>)]) -> String {
        self.lang.text_with(id, args)
    }

    /// The local table refused a move or an offer.
    pub fn table_refused(&mut self, e: &crate::table::TableError) -> Output {
        if let State::Play(p) = &mut self.state {
            let first = p.game.seat(crate::game::Side::First).colour;
            p.set_notice(words::table_error(self.lang, e, first), true);
        }
        self.rendered()
    }

    /// A one-line message for this person, shown where messages go.
    pub fn notice(&mut self, text: &str) -> Output {
        let text = crate::text::sanitize(text, 120);
        match &mut self.state {
            State::Play(p) => p.set_notice(text, false),
            State::Lobby(l) => l.set_error(text),
            State::People(p, _) => p.set_message(text),
            State::Games(g, _) => g.set_message(text),
            State::Records(r, _) => r.set_message(text),
            State::Puzzle(p, _) => p.set_notice(text),
            _ => {}
        }
        self.rendered()
    }

    /// Takes a message shown with [`Session::notice`] away again, if it is
    /// still the one showing.
    pub fn clear_notice(&mut self, text: &str) -> Output {
        let text = crate::text::sanitize(text, 120);
        match &mut self.state {
            State::Play(p) if p.notice.as_ref().is_some_and(|n| n.text == text) => {
                p.notice = None;
            }
            State::Lobby(l) => l.clear_error_if(&text),
            _ => {}
        }
        self.rendered()
    }

    /// Remote: who is around.
    pub fn stats(&mut self, stats: Stats) -> Output {
        let changed = match &mut self.remote {
            Some(r) if r.stats != stats => {
                r.stats = stats;
                true
            }
            _ => false,
        };
        if changed && !matches!(self.state, State::Play(_)) {
            self.rendered()
        } else {
            Output::default()
        }
    }

    /// Remote: the name the lobby gave us (unique among those online).
    pub fn name_set(&mut self, name: &str) -> Output {
        if let Some(r) = &mut self.remote {
            r.name = name.to_string();
            if let State::Lobby(l) = &mut self.state {
                l.name_given(&r.opts);
            }
        }
        self.rendered()
    }

    /// Remote: our room is open under this code.
    pub fn room_code(&mut self, code: &str) -> Output {
        if let State::Hosting(h) = &mut self.state {
            h.set_code(code.to_string());
        }
        self.rendered()
    }

    /// Remote: what we asked the lobby for did not work; back to the lobby with the reason.
    pub fn lobby_error(&mut self, reason: &str) -> Output {
        self.show_lobby();
        if let State::Lobby(l) = &mut self.state {
            l.set_error(crate::text::sanitize(reason, 120));
            if let Some(r) = &self.remote {
                l.name_refused(&r.opts);
            }
        }
        self.rendered()
    }

    /// Remote: the profile asked for came (`None`: a guest, who has none).
    pub fn show_profile(&mut self, view: Option<ProfileView>) -> Output {
        if let State::Records(r, _) = &mut self.state
            && r.wants_profile()
        {
            r.set_profile(view);
        }
        self.rendered()
    }

    /// Remote: the leaderboard asked for came.
    pub fn show_leaderboard(&mut self, view: LeaderboardView) -> Output {
        if let State::Records(r, _) = &mut self.state {
            r.set_leaderboard(view);
        }
        self.rendered()
    }

    /// Remote: the recorded game asked for came.
    pub fn show_replay(&mut self, view: ReplayView) -> Output {
        if let State::Records(r, _) = &mut self.state
            && r.wants_profile()
        {
            r.set_replay(view);
        }
        self.rendered()
    }

    /// The host's analysis of a finished game ([`Request::Analyze`]):
    /// shown on the end screen's analysis or the replay that asked for
    /// it, if it is still showing that game.
    pub fn show_analysis(&mut self, ask: &review::AnalyzeAsk, answer: review::Analysed) -> Output {
        match &mut self.state {
            State::Play(p) => p.set_analysis(ask, answer),
            State::Records(r, _) => r.set_analysis(ask, answer),
            _ => return Output::default(),
        }
        self.rendered()
    }

    /// Remote: the puzzle asked for (`[z] Puzzles`), or why there is none.
    pub fn show_puzzle(&mut self, puzzle: Result<puzzle::PuzzleView, String>) -> Output {
        if let State::Puzzle(p, _) = &mut self.state {
            p.set_puzzle(puzzle);
        }
        self.rendered()
    }

    /// Remote: what the host made of the attempt at puzzle `id`.
    pub fn puzzle_outcome(&mut self, id: &str, outcome: puzzle::PuzzleOutcome) -> Output {
        if let State::Puzzle(p, _) = &mut self.state {
            p.set_outcome(id, outcome);
        }
        self.rendered()
    }

    /// Remote: the day's puzzle in words (`None`: no puzzles), for the
    /// lobby's header.
    pub fn set_daily(&mut self, daily: Option<words::DailyWords>) -> Output {
        match &mut self.remote {
            Some(r) if r.daily != daily => r.daily = daily,
            _ => return Output::default(),
        }
        self.rendered()
    }

    /// Remote: my account's keys.
    pub fn show_keys(&mut self, keys: Vec<KeyRow>) -> Output {
        if let State::Records(r, _) = &mut self.state {
            r.set_keys(keys);
        }
        self.rendered()
    }

    /// Remote: a new link code for my account.
    pub fn show_link_code(&mut self, code: &str) -> Output {
        if let State::Records(r, _) = &mut self.state {
            r.set_link_code(code);
        }
        self.rendered()
    }

    /// Remote: who is online came.
    pub fn show_people(&mut self, rows: Vec<crate::protocol::Person>) -> Output {
        if let State::People(p, _) = &mut self.state {
            p.set_people(rows);
        }
        self.rendered()
    }

    /// Remote: an invitation to a game (shown over the lobby screens).
    pub fn invited(&mut self, inv: crate::protocol::Invitation) -> Output {
        if let Some(r) = &mut self.remote
            && r.invitations.len() < 16
        {
            r.invitations.retain(|i| i.from != inv.from);
            r.invitations.push_back(inv);
            self.screen.invalidate();
        }
        self.rendered()
    }

    /// Remote: the invitation from `from` is gone (lapsed, withdrawn).
    pub fn invitation_gone(&mut self, from: u64) -> Output {
        if let Some(r) = &mut self.remote {
            r.invitations.retain(|i| i.from != from);
        }
        self.rendered()
    }

    /// The invitation shown now, if any: over every screen but a game.
    fn invitation_showing(&self) -> Option<&crate::protocol::Invitation> {
        if matches!(self.state, State::Play(_) | State::Closed) || self.help.is_some() {
            return None;
        }
        self.remote.as_ref()?.invitations.front()
    }

    /// Remote: the games in play came.
    pub fn show_games(&mut self, rows: Vec<crate::protocol::GameSummary>) -> Output {
        if let State::Games(g, _) = &mut self.state {
            g.set_games(rows);
        }
        self.rendered()
    }

    /// Remote: a message on the profile, keys or leaderboard screen (what
    /// was asked for failed, or a key was removed).
    pub fn records_message(&mut self, text: &str) -> Output {
        if let State::Records(r, _) = &mut self.state {
            r.set_message(crate::text::sanitize(text, 120));
        }
        self.rendered()
    }

    /// Back to the local new-game screens (after "menu"): everything is
    /// asked again, except a non-standard board size given by flag (there
    /// is no menu entry for other sizes).
    pub fn to_local_menu(&mut self) -> Output {
        let mut keep = match self.local_preset.rules {
            Some(r) if r != crate::game::Rules::standard(r.kind()) => PlayOptions {
                rules: Some(r),
                ..PlayOptions::default()
            },
            _ => PlayOptions::default(),
        };
        // The opening chosen by flag holds for the next games between people.
        keep.opening = self.local_preset.opening;
        let setup = Setup::new(keep, crate::rng::make_rng(None));
        self.state = State::Setup(Box::new(setup));
        self.rendered()
    }

    /// The current picture as plain text (tests, logs).
    pub fn frame_text(&mut self) -> String {
        self.frame().to_plain("\n")
    }

    fn current_rules(&self) -> Option<crate::game::Rules> {
        match &self.state {
            State::Play(p) => Some(*p.game.position.rules()),
            State::Seeking(s) => Some(s.rules()),
            State::Hosting(h) => Some(h.rules()),
            State::Records(_, back)
            | State::Games(_, back)
            | State::People(_, back)
            | State::Puzzle(_, back) => *back,
            _ => None,
        }
    }

    /// The game whose lobby menu is showing, to come back to.
    fn lobby_game(&self) -> Option<crate::game::Rules> {
        match &self.state {
            State::Lobby(l) => l.current(),
            _ => self.current_rules(),
        }
    }

    /// Remote: show the lobby, at the menu of the game we were in.
    fn show_lobby(&mut self) {
        let Some(r) = &self.remote else { return };
        let lobby = match self.current_rules() {
            Some(rules) => LobbyScreen::back_to(&r.opts, rules),
            None => match &self.state {
                State::Lobby(_) => return,
                _ => LobbyScreen::new(&RemoteOptions {
                    ask_name: false,
                    ..r.opts.clone()
                }),
            },
        };
        self.state = State::Lobby(Box::new(lobby));
    }

    /// The help topic of what is on screen now.
    fn help_topic(&self) -> HelpTopic {
        match &self.state {
            State::Setup(_) | State::Closed => HelpTopic::Setup,
            State::Lobby(_) => HelpTopic::Lobby,
            State::Seeking(_) | State::Hosting(_) => HelpTopic::Waiting,
            State::Records(..) | State::Games(..) | State::People(..) => HelpTopic::Records,
            State::Puzzle(..) => HelpTopic::Puzzles,
            State::Play(p) => HelpTopic::Game {
                rules: *p.game.position.rules(),
                remote: self.remote.is_some(),
                computer: p.against_computer(),
            },
        }
    }

    /// Whether `?` is typed as text here (a name may contain one).
    fn question_mark_is_text(&self) -> bool {
        match &self.state {
            State::Setup(s) => s.is_text_step(),
            State::Lobby(l) => l.is_name_step(),
            _ => false,
        }
    }

    /// A pasted character: into the field or move being typed, if any;
    /// never a menu key or a command.
    fn paste_char(&mut self, c: char) {
        if self.help.is_some() {
            return;
        }
        match &mut self.state {
            State::Setup(setup) if setup.is_text_step() => {
                setup.handle(Key::Char(c));
            }
            State::Lobby(lobby) if lobby.is_text_step() => {
                if let Some(r) = &self.remote {
                    lobby.handle(Key::Char(c), &r.opts, &r.name);
                }
            }
            State::Play(play) => play.paste(c),
            State::Puzzle(p, _) => p.paste(c),
            _ => {}
        }
    }

    fn frame(&mut self) -> Frame {
        if let Some(topic) = self.help {
            let (cols, rows) = self.screen.size();
            return help::frame(topic, self.lang, usize::from(cols), usize::from(rows));
        }
        if let (Some(inv), Some(r)) = (self.invitation_showing(), &self.remote) {
            return people::invitation_frame(
                self.lang,
                &r.name,
                &r.stats,
                inv,
                r.invitations.len() - 1,
            );
        }
        let now = self.now;
        let lang = self.lang;
        let label = self.remote.as_ref().map(|r| match r.colour {
            Some(c) => format!("{} ({})", r.name, words::colour(lang, c)),
            None => r.name.clone(),
        });
        let label = label.as_deref().unwrap_or("");
        let cols = self.screen.size().0;
        match (&mut self.state, &self.remote) {
            (State::Setup(s), _) => s.frame(),
            (State::Play(p), _) => {
                p.width = usize::from(self.screen.size().0);
                p.frame(self.theme)
            }
            (State::Games(g, _), Some(r)) => {
                fitted(g.frame(self.lang, label, &r.stats, usize::from(cols)), cols)
            }
            (State::People(p, _), Some(r)) => {
                fitted(p.frame(label, &r.stats, usize::from(cols)), cols)
            }
            (State::Lobby(l), Some(r)) => fitted(
                l.frame(
                    &r.opts,
                    label,
                    &r.stats,
                    self.theme,
                    r.daily.map(|d| d.words(self.lang)).as_deref(),
                ),
                cols,
            ),
            (State::Puzzle(p, _), _) => p.frame(self.theme, usize::from(self.screen.size().0)),
            // Screens of words only: a line wider than the terminal is
            // shortened at a word rather than asking for a bigger one.
            (State::Seeking(s), Some(r)) => fitted(
                s.frame(&r.opts, label, &r.stats, now.unwrap_or(s.since())),
                self.screen.size().0,
            ),
            (State::Hosting(h), Some(r)) => {
                fitted(h.frame(&r.opts, label, &r.stats), self.screen.size().0)
            }
            (State::Records(r, _), _) => r.frame(self.theme, usize::from(self.screen.size().0)),
            _ => Frame::new(),
        }
    }

    fn rendered(&mut self) -> Output {
        let mut out = Output::default();
        self.render(&mut out);
        self.release_waiting(&mut out);
        out
    }

    fn render(&mut self, out: &mut Output) {
        if self.is_closed() {
            return;
        }
        let frame = self.frame();
        self.screen.present(frame, &mut out.bytes);
    }
}

/// `f` with every line shortened to `cols` columns (at a word).
fn fitted(mut f: Frame, cols: u16) -> Frame {
    for line in &mut f.lines {
        line.fit(usize::from(cols).max(20));
    }
    f
}

/// The kinds of game on offer, in menu order, each once.
/// The rated games on offer (those with leaderboards and profiles).
fn game_kinds(opts: &RemoteOptions) -> Vec<GameKind> {
    let mut kinds = Vec::new();
    for r in &opts.games {
        if r.kind().rating_index().is_some() && !kinds.contains(&r.kind()) {
            kinds.push(r.kind());
        }
    }
    kinds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{Clock, TimeControl};
    use crate::game::{Move, Rules, Side};
    use crate::table::Table;
    use std::time::Duration;

    fn ann_and_bob() -> Table {
        play::tests::ann_and_bob_at(Rules::connect_four())
    }

    fn remote() -> Session {
        remote_named("ann", 80, 24)
    }

    /// A remote session of `name` on a `cols` x `rows` terminal.
    fn remote_named(name: &str, cols: u32, rows: u32) -> Session {
        Session::remote(RemoteOptions::for_tests(name), Theme::Ascii, cols, rows)
    }

    #[test]
    fn keys_waiting_for_a_terminal_that_fits_are_bounded() {
        let mut s = remote_named("ann", 10, 4);
        s.open();
        let now = Instant::now();
        for _ in 0..10_000 {
            s.input(b"x", now);
        }
        assert!(s.screen.too_small());
        assert_eq!(s.waiting.len(), MAX_WAITING_KEYS);
        // Clicks do not wait (they were aimed at the notice).
        let mut s = remote_named("ann", 10, 4);
        s.open();
        s.input(b"\x1b[<0;3;2M", now);
        assert!(s.waiting.is_empty());
    }

    #[test]
    fn a_clock_tick_redraws_the_clock_row_alone_and_the_terminal_matches_a_full_frame() {
        let mut s = remote();
        let mut term = vt100::Parser::new(24, 80, 0);
        term.process(&s.open().bytes);
        let t0 = Instant::now();
        let table = ann_and_bob();
        let mut clock = Clock::new(TimeControl::new(1, 0));
        clock.start(Side::First, t0);
        let mut view = table.view().clone();
        view.clock = Some(clock.view(t0));
        s.set_now(t0);
        let seating = Seating {
            mine: [true, false],
            present: [true, true],
        };
        term.process(&s.game_started(view, seating).bytes);
        assert!(term.screen().contents().contains("1:00"));
        for secs in 1..=12 {
            let now = t0 + Duration::from_secs(secs);
            let out = s.tick(now);
            // Only the running clock's row is written.
            let text = String::from_utf8_lossy(&out.bytes).to_string();
            assert!(text.len() < 120, "more than a row at {secs} s: {text:?}");
            term.process(&out.bytes);
            let shown = term.screen().contents();
            let left = 60 - secs;
            assert!(shown.contains(&format!("0:{left:02}")), "{shown}");
            // The terminal shows exactly what a whole frame would.
            let mut fresh = vt100::Parser::new(24, 80, 0);
            let mut again = remote();
            // (Drawn whole at this moment: the time is set before the game.)
            again.set_now(now);
            let mut view = table.view().clone();
            view.clock = Some(clock.view(t0));
            fresh.process(&again.open().bytes);
            fresh.process(&again.game_started(view, seating).bytes);
            assert_eq!(shown, fresh.screen().contents());
        }
        // A redraw asked for (Ctrl-L) still draws everything.
        let out = s.redraw();
        assert!(out.bytes.len() > 400);
    }

    /// A watcher's session at 80x24 (or `cols` x `rows`), watching.
    fn watcher(name: &str, cols: u32, rows: u32) -> (Session, vt100::Parser) {
        let mut s = remote_named(name, cols, rows);
        let mut term = vt100::Parser::new(rows as u16, cols as u16, 0);
        term.process(&s.open().bytes);
        (s, term)
    }

    #[test]
    fn watchers_share_the_rendering_of_a_state_and_every_terminal_shows_what_its_own_would() {
        const WATCHING: Seating = Seating {
            mine: [false, false],
            present: [true, true],
        };
        let t0 = Instant::now();
        let mut table = ann_and_bob();
        let mut clock = Clock::new(TimeControl::new(3, 2));
        clock.start(Side::First, t0);
        let mut view = table.view().clone();
        view.clock = Some(clock.view(t0));
        // Three plain watchers of one size, one of another, and one who
        // renders for itself.
        let mut ws: Vec<(Session, vt100::Parser)> = vec![
            watcher("cy", 80, 24),
            watcher("dee", 80, 24),
            watcher("eve", 80, 24),
            watcher("fay", 100, 30),
            watcher("gus", 80, 24),
        ];
        for (s, term) in &mut ws {
            s.set_now(t0);
            term.process(&s.game_started(view.clone(), WATCHING).bytes);
        }
        let mut shared_sends = 0;
        for (i, column) in [3u8, 3, 2, 4, 4].into_iter().enumerate() {
            let side = table.view().position.to_move();
            table.play(side, Move::Column(column)).unwrap();
            let at = t0 + Duration::from_millis(1500 * (i as u64 + 1));
            let _ = clock.moved(side, at);
            let mut view = table.view().clone();
            view.clock = Some(clock.view(at));
            if i == 3 {
                // dee said something: her own line shows as hers, so her
                // screen is her own from then on.
                view.chat[crate::table::WATCHERS_CHAT] =
                    std::sync::Arc::new(vec![crate::table::ChatLine {
                        from: "dee".into(),
                        side: None,
                        text: "nice".into(),
                    }]);
            }
            // One published state, one cache, as the room hands them out.
            let frames = RenderSlot::default();
            let mut first_bytes: Option<Vec<u8>> = None;
            for (k, (s, term)) in ws.iter_mut().enumerate() {
                s.set_now(at + Duration::from_millis(k as u64));
                let out = if k == 4 {
                    s.game_update(view.clone(), WATCHING)
                } else {
                    s.game_update_shared(view.clone(), WATCHING, &frames)
                };
                if k < 3 {
                    match &first_bytes {
                        None => first_bytes = Some(out.bytes.clone()),
                        Some(b) if *b == out.bytes => shared_sends += 1,
                        Some(_) => {}
                    }
                }
                term.process(&out.bytes);
                // What a session drawing this state whole would show.
                let (rows, cols) = term.screen().size();
                let (name, _) = ["cy", "dee", "eve", "fay", "gus"]
                    .iter()
                    .zip(0..)
                    .find(|(_, j)| *j == k)
                    .unwrap();
                let (mut fresh, mut fresh_term) = watcher(name, u32::from(cols), u32::from(rows));
                fresh.set_now(at);
                fresh_term.process(&fresh.game_started(view.clone(), WATCHING).bytes);
                assert_eq!(
                    term.screen().contents(),
                    fresh_term.screen().contents(),
                    "watcher {name} after move {i}"
                );
            }
            // A second later the clocks tick on every screen: the plain
            // watchers of one picture share the tick (the same bytes, the
            // same picture after it), and every terminal shows the time a
            // whole frame would.
            let tick_at = at + Duration::from_millis(1000);
            let mut tick_bytes = Vec::new();
            for (k, (s, term)) in ws.iter_mut().enumerate() {
                let out = if k == 4 {
                    s.tick(tick_at)
                } else {
                    s.tick_shared(tick_at, &frames)
                };
                term.process(&out.bytes);
                tick_bytes.push((out.bytes, s.screen.shared_id()));
                let (rows, cols) = term.screen().size();
                let (mut fresh, mut fresh_term) = watcher("x", u32::from(cols), u32::from(rows));
                fresh.set_now(tick_at);
                fresh_term.process(&fresh.game_started(view.clone(), WATCHING).bytes);
                let mine = term.screen().contents();
                let whole = fresh_term.screen().contents();
                // (Only the clock rows are compared: names differ.)
                let clock_rows = |t: &str| -> Vec<String> {
                    t.lines()
                        .filter(|l| l.contains(':'))
                        .map(String::from)
                        .collect()
                };
                assert!(!clock_rows(&whole).is_empty());
                assert_eq!(
                    clock_rows(&mine),
                    clock_rows(&whole),
                    "watcher {k} tick {i}"
                );
            }
            assert!(!tick_bytes[0].0.is_empty());
            assert!(tick_bytes[0].1.is_some(), "cy's tick is shared");
            assert_eq!(tick_bytes[0], tick_bytes[2], "cy and eve share the tick");
            assert_eq!(tick_bytes[4].1, None, "gus draws for himself");
        }
        // The watchers who showed the same picture were sent the same bytes
        // (dee only until she spoke).
        assert!(shared_sends >= 6, "{shared_sends}");
    }
}
