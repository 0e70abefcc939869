//! The host's own screens (before and between games): the lobby with its
//! menus, waiting for a quick match, and waiting for a friend with a room
//! code. The game screen itself is [`super::play::PlayScreen`], shared with
//! local play.

use std::time::{Duration, Instant};

use super::widgets::{FieldEvent, Menu, MenuEvent, TextField, not_a_choice};
use crate::engine::Level;
use crate::game::{Colour, GameKind, Rules};
use crate::term::board::Theme;
use crate::term::input::Key;
use crate::term::screen::{Frame, Line, Style};
use crate::text;

pub use crate::presence::{Nearest, Stats};

use crate::lang::Lang;
use fluent_templates::fluent_bundle::FluentValue;

pub use super::words::game_name;

/// Fixed facts of a remote session.
#[derive(Debug, Clone)]
pub struct RemoteOptions {
    /// Display name to start with (already sanitised and unique).
    pub name: String,
    /// The host's message of the day (`None`: the built-in welcome).
    pub motd: Option<String>,
    /// Games on offer, in menu order.
    pub games: Vec<Rules>,
    pub match_wait: Duration,
    /// How a friend joins a room from outside, e.g. `ssh CODE@host`;
    /// `CODE` is replaced by the room code.
    pub join_hint: String,
    pub max_line: usize,
    /// Ask for a name before the lobby (telnet, or a generic SSH user name).
    pub ask_name: bool,
    /// Longest chat line at a table (0: chat is off on this host).
    pub chat_max: usize,
    /// Where this host's pages are (`[http] public_url`): an ended game's
    /// screen shows its address there.
    pub web: Option<String>,
    /// The language the person reads.
    pub lang: Lang,
}

impl RemoteOptions {
    /// `name`'s session on a host offering Connect Four, with no message of
    /// the day and no name asked (tests elsewhere in the crate).
    #[cfg(test)]
    pub(crate) fn for_tests(name: &str) -> RemoteOptions {
        RemoteOptions {
            name: name.into(),
            motd: Some(String::new()),
            games: vec![Rules::connect_four()],
            match_wait: Duration::from_secs(30),
            join_hint: "ssh CODE@host".into(),
            max_line: 64,
            ask_name: false,
            chat_max: 200,
            web: None,
            lang: Lang::En,
        }
    }
}

/// What a key in these screens asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemoteAction {
    None,
    SetName(String),
    QuickMatch(GameKind),
    /// Against the computer; who moves first (`Some(true)`: the person).
    PlayComputer(GameKind, Level, Option<bool>),
    CreateRoom(GameKind, bool),
    JoinRoom(String),
    /// The colour this person would like (granted when free at the table).
    SetColour(Option<Colour>),
    /// Stop waiting (quick match or a room of our own).
    Cancel,
    /// Stones as emoji or as letters.
    ToggleTheme,
    /// My profile (ratings, games, keys).
    Profile,
    /// The leaderboard of this game.
    Leaderboard(GameKind),
    /// The games in play, to watch one.
    Games,
    /// A room for a friend: let people watch its game (or not).
    AllowWatchers(bool),
    /// A room for a friend: play on this clock.
    RoomClock(Option<crate::clock::TimeControl>),
    /// A room for a friend: open its games this way.
    RoomOpening(crate::table::Opening),
    /// Who is online, to invite one of them.
    People,
    /// `[z] Puzzles`.
    Puzzles,
    /// `[L]`: read the screens in this language from now on.
    Language(Lang),
    Quit,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Choice {
    Game(Rules),
    QuickMatch,
    Computer,
    Invite,
    InviteRated,
    Join,
    Name,
    ColourMenu,
    Colour(Option<Colour>),
    Level(Level),
    /// Change who moves first against the computer.
    First,
    Theme,
    Profile,
    Leaderboard,
    Watch,
    People,
    Puzzles,
    /// The next language (English, Deutsch, 繁體中文).
    Language,
    Back,
    KeepWaiting,
    Quit,
}

#[derive(Debug, Clone)]
enum Step {
    Name(TextField),
    Games(Menu<Choice>),
    Actions(Rules, Menu<Choice>),
    /// The computer's levels; who moves first (`Some(true)`: the person,
    /// `None`: drawn at random).
    Levels(Rules, Menu<Choice>, Option<bool>),
    JoinCode(TextField),
    Colours(Menu<Choice>),
}

/// The lobby.
#[derive(Debug, Clone)]
pub struct LobbyScreen {
    step: Step,
    /// The game chosen last, so "back to the lobby" returns there.
    current: Option<Rules>,
    error: Option<String>,
    /// Who moves first against the computer, as last chosen.
    first: Option<bool>,
    /// The name prompt a session opens with (telnet) is showing: it stays
    /// until the host gives a name, and asks again when one is refused.
    first_prompt: bool,
    /// A name was entered at that prompt and the host has not yet said
    /// which name we got.
    name_sent: bool,
    /// Names refused at the prompt so far (bounded: [`MAX_NAME_TRIES`]).
    name_refusals: u8,
    /// The language the person reads.
    lang: Lang,
    /// The host offers one game: its menu is the top one.
    single_game: bool,
}

/// Names a person may have refused at the name prompt before the lobby
/// shows with the name they have.
pub const MAX_NAME_TRIES: u8 = 5;

/// Waiting for a quick match.
#[derive(Debug, Clone)]
pub struct SeekScreen {
    rules: Rules,
    since: Instant,
    offer: Option<Menu<Choice>>,
    /// The other seeker on this host nearest to being paired with us, as
    /// the lobby last said.
    nearest: Option<Nearest>,
}

/// Waiting for a friend to join our room.
#[derive(Debug, Clone)]
pub struct HostScreen {
    rules: Rules,
    code: Option<String>,
    /// People may watch the game.
    watchers: bool,
    /// The game's time control.
    clock: Option<crate::clock::TimeControl>,
    /// How its games open.
    opening: crate::table::Opening,
}

/// Line index of the first menu entry in a lobby frame (for clicks).
const LOBBY_MENU_TOP: usize = 4;
/// Line index of the first menu entry in the quick-match wait (for clicks).
const MENU_TOP: usize = 6;

fn level_menu(lang: Lang, kind: GameKind) -> Menu<Choice> {
    let levels = Level::for_game(kind).iter().map(|&l| {
        let name = capitalised(&super::words::level(lang, l));
        (
            name,
            super::words::level_detail(lang, kind, l),
            Choice::Level(l),
        )
    });
    Menu::numbered(levels)
}

/// Text with its first letter in upper case (a menu entry's name).
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The levels, and an entry that says and changes who moves first.
fn levels_with_first(lang: Lang, kind: GameKind, first: Option<bool>) -> Menu<Choice> {
    let who = lang.text(match first {
        None => "first-random",
        Some(true) => "first-you",
        Some(false) => "first-computer",
    });
    level_menu(lang, kind).entry('f', lang.text("first-who"), who, Choice::First)
}

/// The entries every top lobby menu has, with the same keys everywhere.
fn with_common_entries(lang: Lang, m: Menu<Choice>) -> Menu<Choice> {
    let t = |id: &str| lang.text(id);
    m.entry('j', t("lobby-join"), t("lobby-join-detail"), Choice::Join)
        .entry('n', t("lobby-name"), "", Choice::Name)
        .entry('c', t("lobby-colour"), "", Choice::ColourMenu)
        .entry(
            'p',
            t("lobby-profile"),
            t("lobby-profile-detail"),
            Choice::Profile,
        )
        .entry('l', t("lobby-leaderboard"), "", Choice::Leaderboard)
        .entry(
            'w',
            t("lobby-watch"),
            t("lobby-watch-detail"),
            Choice::Watch,
        )
        .entry(
            'o',
            t("lobby-online"),
            t("lobby-online-detail"),
            Choice::People,
        )
        .entry(
            't',
            t("lobby-stones"),
            t("lobby-stones-detail"),
            Choice::Theme,
        )
        .entry(
            'z',
            t("lobby-puzzles"),
            t("lobby-puzzles-detail"),
            Choice::Puzzles,
        )
}

/// The entry that switches the language (`L`): on the top menu only (the
/// game's menu has no row to spare on a 24-row terminal; the key works
/// there too).
fn with_language(lang: Lang, m: Menu<Choice>) -> Menu<Choice> {
    m.entry(
        'L',
        lang.text("lobby-language"),
        lang.text("lobby-language-detail"),
        Choice::Language,
    )
}

/// Room codes are typed with these characters (upper or lower case).
fn is_code_char(c: char) -> bool {
    crate::room_code::is_code_char(c)
}

/// Widest line of text in the lobby: long texts (the message of the day,
/// errors) wrap at this width so the lobby fits a 60-column terminal and
/// never jumps sideways when a message appears.
const TEXT_WIDTH: usize = 56;

impl LobbyScreen {
    pub fn new(opts: &RemoteOptions) -> LobbyScreen {
        let mut s = LobbyScreen {
            step: Step::Games(Menu::new()),
            current: None,
            error: None,
            first: None,
            first_prompt: false,
            name_sent: false,
            name_refusals: 0,
            lang: opts.lang,
            single_game: opts.games.len() == 1,
        };
        if opts.ask_name {
            s.first_prompt = true;
            s.step = Step::Name(TextField::new("", opts.max_line.min(text::MAX_NAME_WIDTH)));
        } else {
            s.show_games(opts);
        }
        s
    }

    /// Back in the lobby after a game or a wait: the game's menu again.
    pub fn back_to(opts: &RemoteOptions, rules: Rules) -> LobbyScreen {
        let mut s = LobbyScreen::new(&RemoteOptions {
            ask_name: false,
            ..opts.clone()
        });
        s.show_actions(rules);
        s
    }

    /// Whether a text field (a name, a room code) is being asked for.
    pub fn is_text_step(&self) -> bool {
        matches!(self.step, Step::Name(_) | Step::JoinCode(_))
    }

    /// The game whose menu the lobby shows (or showed last).
    pub fn current(&self) -> Option<Rules> {
        self.current
    }

    /// Whether the name is being asked for.
    pub fn is_name_step(&self) -> bool {
        matches!(self.step, Step::Name(_))
    }

    /// Removes the message if it is `text` (it is out of date).
    pub fn clear_error_if(&mut self, text: &str) {
        if self.error.as_deref() == Some(text) {
            self.error = None;
        }
    }

    pub fn set_error(&mut self, e: impl Into<String>) {
        self.error = Some(e.into());
        // A refused room code or name is typed again from scratch.
        match &mut self.step {
            Step::JoinCode(field) => field.value.clear(),
            Step::Name(field) if self.name_sent => {
                field.value.clear();
                self.name_refusals = self.name_refusals.saturating_add(1);
            }
            _ => {}
        }
    }

    /// The host refused the name entered at the prompt (`set_error` has
    /// the reason): after [`MAX_NAME_TRIES`] refusals the prompt gives
    /// way to the menu, under the name this person has.
    pub fn name_refused(&mut self, opts: &RemoteOptions) {
        if self.is_name_step() && self.name_sent && self.name_refusals >= MAX_NAME_TRIES {
            self.name_sent = false;
            self.first_prompt = false;
            let error = self.error.take();
            self.go_back(opts);
            self.error = error;
        }
    }

    /// The host gave us a name: the prompt that asked for it closes (a
    /// message that came with it, such as the number added to a taken
    /// name, stays).
    pub fn name_given(&mut self, opts: &RemoteOptions) {
        if self.is_name_step() && std::mem::take(&mut self.name_sent) {
            self.first_prompt = false;
            let error = self.error.take();
            self.go_back(opts);
            self.error = error;
        }
    }

    /// Reads the lobby in `lang` from now on: the menu showing is made
    /// again in it (a name or code being typed stays as it is).
    pub fn set_lang(&mut self, lang: Lang, opts: &RemoteOptions) {
        self.lang = lang;
        match &self.step {
            Step::Games(_) => self.show_games(opts),
            Step::Actions(r, _) => {
                let r = *r;
                self.show_actions(r);
                if let Step::Actions(_, m) = &mut self.step {
                    *m = std::mem::take(m).select_where(|c| *c == Choice::Language);
                }
            }
            Step::Levels(r, _, first) => {
                let (r, first) = (*r, *first);
                self.step = Step::Levels(r, levels_with_first(lang, r.kind(), first), first);
            }
            Step::Colours(_) => {
                self.step = Step::Games(Menu::new());
                self.choose(Choice::ColourMenu, opts);
            }
            Step::Name(_) | Step::JoinCode(_) => {}
        }
        if let Step::Games(m) = &mut self.step {
            *m = std::mem::take(m).select_where(|c| *c == Choice::Language);
        }
    }

    fn show_games(&mut self, opts: &RemoteOptions) {
        if opts.games.len() == 1 {
            self.show_actions(opts.games[0]);
            return;
        }
        let lang = self.lang;
        let mut m = Menu::numbered(opts.games.iter().map(|r| {
            let size = [
                ("width", FluentValue::from(r.width())),
                ("height", FluentValue::from(r.height())),
            ];
            let detail = match r.kind() {
                GameKind::ConnectFour => lang.text_with("lobby-connect4-detail", &size),
                GameKind::Gomoku if r.is_exact() => {
                    lang.text_with("lobby-gomoku-exact-detail", &size)
                }
                GameKind::Gomoku => lang.text_with("lobby-gomoku-detail", &size),
                GameKind::Renju => lang.text_with("lobby-renju-detail", &size),
            };
            (game_name(lang, r.kind()), detail, Choice::Game(*r))
        }));
        m = with_language(lang, with_common_entries(lang, m)).entry(
            'q',
            lang.text("lobby-quit"),
            "",
            Choice::Quit,
        );
        // The screen most people idle on: no spare room kept.
        m.entries.shrink_to_fit();
        if let Some(cur) = self.current {
            m = m.select_where(|c| *c == Choice::Game(cur));
        }
        self.step = Step::Games(m);
    }

    fn show_actions(&mut self, rules: Rules) {
        self.current = Some(rules);
        let t = |id: &str| self.lang.text(id);
        let mut m = Menu::new()
            .entry(
                '1',
                t("lobby-quick-match"),
                t("lobby-quick-match-detail"),
                Choice::QuickMatch,
            )
            .entry(
                '2',
                t("lobby-computer"),
                t("lobby-computer-detail"),
                Choice::Computer,
            )
            .entry(
                '3',
                t("lobby-invite"),
                t("lobby-invite-detail"),
                Choice::Invite,
            );
        if rules.is_rated() {
            m = m.entry(
                '4',
                t("lobby-rated-invite"),
                t("lobby-rated-invite-detail"),
                Choice::InviteRated,
            );
        }
        let m = with_common_entries(self.lang, m);
        // The top menu when the host offers one game: no other games to go
        // back to, and the language's entry in their place.
        let m = if self.single_game {
            with_language(self.lang, m)
        } else {
            m.entry('b', t("lobby-back"), t("lobby-back-detail"), Choice::Back)
        };
        let m = m.entry('q', t("lobby-quit"), "", Choice::Quit);
        self.step = Step::Actions(rules, m);
    }

    fn choose(&mut self, c: Choice, opts: &RemoteOptions) -> RemoteAction {
        self.error = None;
        match (c, self.step.clone()) {
            (Choice::Quit, _) => return RemoteAction::Quit,
            (Choice::Game(r), _) => self.show_actions(r),
            (Choice::Back, _) => {
                if opts.games.len() > 1 {
                    self.show_games(opts)
                } else if let Some(r) = self.current {
                    self.show_actions(r)
                }
            }
            (Choice::Name, _) => {
                self.step = Step::Name(TextField::new("", opts.max_line.min(text::MAX_NAME_WIDTH)));
            }
            (Choice::Join, _) => self.step = Step::JoinCode(TextField::new("", 8)),
            (Choice::Theme, _) => return RemoteAction::ToggleTheme,
            (Choice::Profile, _) => return RemoteAction::Profile,
            (Choice::Watch, _) => return RemoteAction::Games,
            (Choice::People, _) => return RemoteAction::People,
            (Choice::Puzzles, _) => return RemoteAction::Puzzles,
            (Choice::Language, _) => {
                let next = Lang::ALL
                    .into_iter()
                    .cycle()
                    .skip_while(|l| *l != self.lang)
                    .nth(1)
                    .unwrap_or_default();
                self.set_lang(next, opts);
                return RemoteAction::Language(next);
            }
            (Choice::Leaderboard, _) => {
                let kind = self
                    .current
                    .or_else(|| opts.games.first().copied())
                    .map_or(GameKind::ConnectFour, |r| r.kind());
                return RemoteAction::Leaderboard(kind);
            }
            (Choice::ColourMenu, _) => {
                let lang = self.lang;
                let mut m = Menu::numbered(Colour::ALL.into_iter().map(|c| {
                    let name = super::words::colour(lang, c);
                    (name, String::new(), Choice::Colour(Some(c)))
                }));
                m = m.entry(
                    '0',
                    lang.text("colour-any"),
                    lang.text("colour-any-detail"),
                    Choice::Colour(None),
                );
                self.step = Step::Colours(m);
            }
            (Choice::Colour(c), _) => {
                self.go_back(opts);
                return RemoteAction::SetColour(c);
            }
            (Choice::QuickMatch, Step::Actions(r, _)) => return RemoteAction::QuickMatch(r.kind()),
            (Choice::Invite, Step::Actions(r, _)) => {
                return RemoteAction::CreateRoom(r.kind(), false);
            }
            (Choice::InviteRated, Step::Actions(r, _)) => {
                return RemoteAction::CreateRoom(r.kind(), true);
            }
            (Choice::Computer, Step::Actions(r, _)) => {
                let default = Level::default_for(r.kind());
                let m = levels_with_first(self.lang, r.kind(), self.first)
                    .select_where(|c| *c == Choice::Level(default));
                self.step = Step::Levels(r, m, self.first);
            }
            (Choice::Level(l), Step::Levels(r, _, first)) => {
                return RemoteAction::PlayComputer(r.kind(), l, first);
            }
            (Choice::First, Step::Levels(r, _, first)) => {
                let next = match first {
                    None => Some(true),
                    Some(true) => Some(false),
                    Some(false) => None,
                };
                self.first = next;
                let m = levels_with_first(self.lang, r.kind(), next)
                    .select_where(|c| *c == Choice::First);
                self.step = Step::Levels(r, m, next);
            }
            _ => {}
        }
        RemoteAction::None
    }

    fn go_back(&mut self, opts: &RemoteOptions) {
        self.error = None;
        match &self.step {
            Step::Levels(r, _, _) => {
                let r = *r;
                self.show_actions(r)
            }
            Step::Actions(..) if opts.games.len() > 1 => self.show_games(opts),
            Step::Name(_) | Step::JoinCode(_) | Step::Colours(_) => match self.current {
                Some(r) => self.show_actions(r),
                None => self.show_games(opts),
            },
            _ => {}
        }
    }

    pub fn handle(&mut self, key: Key, opts: &RemoteOptions, name: &str) -> RemoteAction {
        let top = matches!(self.step, Step::Games(_) | Step::Actions(..));
        match &mut self.step {
            Step::Name(field) => match field.handle(key) {
                // The prompt stays until the host says which name we got
                // ([`LobbyScreen::name_given`]); a refusal asks again.
                FieldEvent::Submitted(n) if self.first_prompt => {
                    let n = text::sanitize_name(&n, name);
                    self.name_sent = true;
                    self.error = None;
                    RemoteAction::SetName(n)
                }
                FieldEvent::Submitted(n) => {
                    let n = text::sanitize_name(&n, name);
                    self.go_back(opts);
                    RemoteAction::SetName(n)
                }
                FieldEvent::Cancelled => {
                    self.first_prompt = false;
                    self.name_sent = false;
                    self.go_back(opts);
                    RemoteAction::None
                }
                FieldEvent::None => RemoteAction::None,
            },
            Step::JoinCode(field) => match field.handle(key) {
                FieldEvent::Submitted(code) if code.trim().is_empty() => {
                    self.error = Some(self.lang.text("join-type-code"));
                    RemoteAction::None
                }
                FieldEvent::Submitted(code) => RemoteAction::JoinRoom(code),
                FieldEvent::Cancelled => {
                    self.go_back(opts);
                    RemoteAction::None
                }
                FieldEvent::None => RemoteAction::None,
            },
            // L switches the language on either top menu (a menu's keys
            // are case-blind: l is the leaderboard).
            Step::Games(_) | Step::Actions(..) if key == Key::Char('L') => {
                self.choose(Choice::Language, opts)
            }
            Step::Games(menu)
            | Step::Actions(_, menu)
            | Step::Levels(_, menu, _)
            | Step::Colours(menu) => {
                match menu.handle(key) {
                    MenuEvent::Chosen(c) => self.choose(c, opts),
                    MenuEvent::Back => {
                        self.go_back(opts);
                        RemoteAction::None
                    }
                    MenuEvent::None => {
                        match key {
                            // A room code typed straight into the menu:
                            // the code field takes it from its first character.
                            Key::Char(c) if top && is_code_char(c) => {
                                self.error = None;
                                let mut field = TextField::new("", 8);
                                field.handle(Key::Char(c));
                                self.step = Step::JoinCode(field);
                            }
                            _ => {
                                if let Some(e) = not_a_choice(self.lang, key) {
                                    self.error = Some(e);
                                }
                            }
                        }
                        RemoteAction::None
                    }
                }
            }
        }
    }

    pub fn click(&mut self, line: usize, opts: &RemoteOptions) -> RemoteAction {
        if line < LOBBY_MENU_TOP {
            return RemoteAction::None;
        }
        let chosen = match &mut self.step {
            Step::Games(m) | Step::Actions(_, m) | Step::Levels(_, m, _) | Step::Colours(m) => {
                m.click(line - MENU_TOP)
            }
            _ => MenuEvent::None,
        };
        match chosen {
            MenuEvent::Chosen(c) => self.choose(c, opts),
            _ => RemoteAction::None,
        }
    }

    /// The lobby; `daily`: the day's puzzle in words, for the header.
    pub fn frame(
        &self,
        opts: &RemoteOptions,
        name: &str,
        stats: &Stats,
        theme: Theme,
        daily: Option<&str>,
    ) -> Frame {
        let lang = self.lang;
        let mut f = header_with(lang, name, stats, daily);
        let (title, lines): (String, Vec<Line>) = match &self.step {
            Step::Name(field) => {
                let mut lines = vec![field.line(&format!("   {} ", lang.text("name-field")))];
                if !name.is_empty() {
                    let keeps = lang.text_with("name-enter-keeps", &[("name", name.into())]);
                    lines.push(Line::styled(format!("   {keeps}"), Style::PLAIN.dim()));
                }
                (lang.text("name-question"), lines)
            }
            Step::JoinCode(field) => (
                lang.text("join-question"),
                vec![field.line(&format!("   {} ", lang.text("join-field")))],
            ),
            Step::Games(m) => (
                self.lang.text("lobby-choose-game"),
                m.lines(Style::PLAIN.bold()),
            ),
            Step::Actions(r, m) => {
                let waiting = stats.waiting_for(r.kind());
                let mut t = format!("{}:", super::words::rules(lang, r));
                if waiting > 0 {
                    let w = lang.text_with("lobby-waiting-here", &[("count", waiting.into())]);
                    t.push_str(&format!("   ({w})"));
                }
                (t, m.lines(Style::PLAIN.bold()))
            }
            Step::Levels(r, m, _) => (
                lang.text_with(
                    "levels-question",
                    &[("game", game_name(lang, r.kind()).into())],
                ),
                m.lines(Style::PLAIN.bold()),
            ),
            Step::Colours(m) => (lang.text("colour-question"), m.lines(Style::PLAIN.bold())),
        };
        f.push(Line::styled(format!(" {title}"), Style::PLAIN.bold()));
        f.blank();
        debug_assert_eq!(f.height(), LOBBY_MENU_TOP);
        let in_games_menu = matches!(self.step, Step::Games(_) | Step::Actions(..));
        for mut l in lines {
            // The stones entry says what they are now.
            if in_games_menu && l.text().contains("[t] ") {
                let now = lang.text_with("lobby-stones-now", &[("theme", theme.name().into())]);
                l.push(format!(" ({now})"), Style::PLAIN.dim());
            }
            f.push(l);
        }
        // The message of the day, wrapped to fit narrow terminals.
        f.blank();
        let motd = opts
            .motd
            .clone()
            .unwrap_or_else(|| lang.text("lobby-welcome"));
        for line in text::wrap(&motd, TEXT_WIDTH) {
            f.push(Line::styled(format!(" {line}"), Style::PLAIN.dim()));
        }
        // The error's row, blank without one, sets the message of the day
        // apart from the keys.
        match &self.error {
            Some(e) => {
                for (i, part) in text::wrap(e, TEXT_WIDTH).into_iter().enumerate() {
                    let lead = if i == 0 { " ! " } else { "   " };
                    f.push(Line::styled(format!("{lead}{part}"), Style::PLAIN.bold()));
                }
            }
            None => f.blank(),
        }
        let help = lang.text(match self.step {
            Step::Name(_) | Step::JoinCode(_) => "field-keys",
            _ => "menu-keys",
        });
        f.push(Line::styled(format!(" {help}"), Style::PLAIN.dim()));
        f
    }
}

/// Whole seconds, rounded up (a wait of 0.2 s left is "1 s").
fn whole_secs_left(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

pub(crate) fn header(lang: Lang, name: &str, stats: &Stats) -> Frame {
    header_with(lang, name, stats, None)
}

/// The header, with the day's puzzle (`extra`: its game and task, such as
/// "Connect Four, win in 2") on its second line when that line has room.
fn header_with(lang: Lang, name: &str, stats: &Stats, extra: Option<&str>) -> Frame {
    let mut f = Frame::new();
    let mut l = Line::new();
    l.push(" inarow", Style::PLAIN.bold());
    let you = lang.text_with("header-you-are", &[("name", name.into())]);
    l.push(format!("   {you}"), Style::PLAIN);
    let counts = lang.text_with(
        "header-counts",
        &[
            ("online", stats.online.into()),
            ("playing", stats.playing.into()),
        ],
    );
    l.push(format!("   {counts}"), Style::PLAIN.dim());
    f.push(l);
    // Who waits for which game, so people waiting for different games
    // can find each other.
    let waiting: Vec<String> = stats
        .waiting
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(kind, n)| {
            lang.text_with(
                "header-waiting",
                &[
                    ("count", (*n).into()),
                    ("game", game_name(lang, *kind).into()),
                ],
            )
        })
        .collect();
    if stats.degraded {
        f.push(Line::styled(
            format!(" {}", lang.text("header-degraded")),
            Style::PLAIN.dim(),
        ));
    } else {
        let mut l = Line::styled(format!(" {}", waiting.join(", ")), Style::PLAIN.dim());
        if let Some(extra) = extra {
            let lead = if waiting.is_empty() { "" } else { "   " };
            let daily = lang.text_with(
                "header-daily",
                &[("puzzle", text::sanitize(extra, TEXT_WIDTH).into())],
            );
            let extra = format!("{lead}{daily} [z]");
            if l.width() + text::width(&extra) <= TEXT_WIDTH + 2 {
                l.push(extra, Style::PLAIN);
            }
        }
        f.push(l);
    }
    f
}

impl SeekScreen {
    pub fn new(rules: Rules, now: Instant) -> SeekScreen {
        SeekScreen {
            rules,
            since: now,
            offer: None,
            nearest: None,
        }
    }

    /// Who waits nearest to being paired with us, as the lobby says.
    pub fn set_nearest(&mut self, nearest: Option<Nearest>) {
        self.nearest = nearest;
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// When the next thing happens on this screen (the offer, or a clock tick).
    /// When the wait began.
    pub fn since(&self) -> Instant {
        self.since
    }

    /// When the next thing happens on this screen (the offer, or the next
    /// second of the clock shown), counted from `now` (the time last known).
    pub fn next_deadline(&self, opts: &RemoteOptions, now: Option<Instant>) -> Instant {
        let next_second = now.unwrap_or(self.since) + Duration::from_secs(1);
        if self.offer.is_none() {
            (self.since + opts.match_wait).min(next_second)
        } else {
            next_second
        }
    }

    /// Time passes: after the configured wait, offer the computer.
    pub fn tick(&mut self, now: Instant, opts: &RemoteOptions) {
        if self.offer.is_none() && now >= self.since + opts.match_wait {
            let mut m = level_menu(opts.lang, self.rules.kind());
            m = m.entry(
                'w',
                opts.lang.text("seek-keep-waiting"),
                "",
                Choice::KeepWaiting,
            );
            let default = Level::default_for(self.rules.kind());
            self.offer = Some(m.select_where(|c| *c == Choice::Level(default)));
        }
    }

    pub fn handle(&mut self, key: Key, now: Instant) -> RemoteAction {
        if let Some(menu) = &mut self.offer {
            return match menu.handle(key) {
                MenuEvent::Back => RemoteAction::Cancel,
                ev => self.offer_chosen(ev, now),
            };
        }
        match key {
            Key::Esc | Key::Char('q') | Key::Char('Q') | Key::Backspace => RemoteAction::Cancel,
            _ => RemoteAction::None,
        }
    }

    pub fn click(&mut self, line: usize, now: Instant) -> RemoteAction {
        let Some(menu) = &mut self.offer else {
            return RemoteAction::None;
        };
        if line < MENU_TOP {
            return RemoteAction::None;
        }
        match menu.click(line - MENU_TOP) {
            MenuEvent::Back => RemoteAction::None,
            ev => self.offer_chosen(ev, now),
        }
    }

    /// A choice in the offer of the computer: a level plays it, "keep
    /// waiting" hides the offer and starts the wait afresh.
    fn offer_chosen(&mut self, ev: MenuEvent<Choice>, now: Instant) -> RemoteAction {
        match ev {
            MenuEvent::Chosen(Choice::Level(l)) => {
                RemoteAction::PlayComputer(self.rules.kind(), l, None)
            }
            MenuEvent::Chosen(_) => {
                self.offer = None;
                self.since = now;
                RemoteAction::None
            }
            MenuEvent::Back | MenuEvent::None => RemoteAction::None,
        }
    }

    pub fn frame(&self, opts: &RemoteOptions, name: &str, stats: &Stats, now: Instant) -> Frame {
        let lang = opts.lang;
        let match_wait = opts.match_wait;
        let mut f = header(lang, name, stats);
        let waited_for = now.saturating_duration_since(self.since);
        let waited = waited_for.as_secs();
        let looking = lang.text_with(
            "seek-looking",
            &[
                ("game", game_name(lang, self.rules.kind()).into()),
                ("seconds", waited.into()),
            ],
        );
        f.push(Line::styled(format!(" {looking}"), Style::PLAIN.bold()));
        f.blank();
        let line = |id: &str, args: &[(&'static str, FluentValue)]| {
            Line::styled(format!(" {}", lang.text_with(id, args)), Style::PLAIN)
        };
        let esc = Line::styled(format!(" {}", lang.text("seek-esc")), Style::PLAIN.dim());
        match &self.offer {
            Some(menu) => {
                f.push(line("seek-offer-computer", &[]));
                f.blank();
                debug_assert_eq!(f.height(), MENU_TOP);
                for l in menu.lines(Style::PLAIN.bold()) {
                    f.push(l);
                }
                f.blank();
                f.push(esc);
            }
            None => {
                // Others wait for this game and we are not paired: the
                // ratings are further apart than the window, which widens
                // as the wait goes on (the longer wait of the two counts).
                // The lobby names the one here who comes first, and when;
                // otherwise (the other hosts' seekers) the counts tell.
                let others = stats.waiting_for(self.rules.kind()).saturating_sub(1);
                let window = crate::presence::rating_window(waited_for, match_wait);
                if let Some(n) = self.nearest {
                    f.push(line(
                        "seek-nearest",
                        &[("count", n.others.into()), ("rating", n.rating.into())],
                    ));
                    let secs = whole_secs_left(n.at.saturating_duration_since(now));
                    let id = match (n.window, secs) {
                        (Some(_), 0) => "seek-pairing-reach-now",
                        (Some(_), _) => "seek-pairing-reach",
                        (None, 0) => "seek-pairing-anyone-now",
                        (None, _) => "seek-pairing-anyone",
                    };
                    let window = n.window.unwrap_or_default();
                    f.push(line(
                        id,
                        &[("window", window.into()), ("seconds", secs.into())],
                    ));
                } else if others > 0 && window != u32::MAX {
                    let left = whole_secs_left(match_wait.saturating_sub(waited_for));
                    f.push(line("seek-others-far", &[("count", others.into())]));
                    f.push(line(
                        "seek-widening",
                        &[("window", window.into()), ("seconds", left.into())],
                    ));
                } else {
                    f.push(line("seek-next-person", &[]));
                    f.blank();
                }
                f.push(esc);
            }
        }
        f
    }
}

impl HostScreen {
    pub fn new(rules: Rules) -> HostScreen {
        HostScreen {
            rules,
            code: None,
            watchers: false,
            clock: None,
            opening: crate::table::Opening::Standard,
        }
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn set_code(&mut self, code: String) {
        self.code = Some(code);
    }

    pub fn handle(&mut self, key: Key) -> RemoteAction {
        match key {
            Key::Esc | Key::Char('q') | Key::Char('Q') | Key::Backspace => RemoteAction::Cancel,
            Key::Char('w' | 'W') if self.code.is_some() => {
                self.watchers = !self.watchers;
                RemoteAction::AllowWatchers(self.watchers)
            }
            Key::Char('c' | 'C') if self.code.is_some() => {
                self.clock = crate::clock::next_preset(self.clock);
                RemoteAction::RoomClock(self.clock)
            }
            Key::Char('o' | 'O')
                if self.code.is_some() && crate::table::Opening::Swap2.fits(&self.rules) =>
            {
                self.opening = self.opening.next(&self.rules);
                RemoteAction::RoomOpening(self.opening)
            }
            _ => RemoteAction::None,
        }
    }

    pub fn frame(&self, opts: &RemoteOptions, name: &str, stats: &Stats) -> Frame {
        let lang = opts.lang;
        let t = |id: &str| lang.text(id);
        let mut f = header(lang, name, stats);
        let title = lang.text_with(
            "room-title",
            &[("game", game_name(lang, self.rules.kind()).into())],
        );
        f.push(Line::styled(format!(" {title}"), Style::PLAIN.bold()));
        f.blank();
        match &self.code {
            Some(code) => {
                let mut l = Line::new();
                l.push(format!(" {} ", t("room-code")), Style::PLAIN);
                l.push(code.clone(), Style::PLAIN.bold().reverse());
                f.push(l);
                f.blank();
                let join = lang.text_with("room-how-to-join", &[("join", t("lobby-join").into())]);
                for part in text::wrap(&join, TEXT_WIDTH) {
                    f.push(Line::plain(format!(" {part}")));
                }
                let hint = opts.join_hint.replace("CODE", code);
                let connect = lang.text_with("room-or-connect", &[("command", hint.into())]);
                f.push(Line::plain(format!(" {connect}")));
                f.blank();
                let watch = t(if self.watchers {
                    "room-watchers-on"
                } else {
                    "room-watchers-off"
                });
                f.push(Line::styled(format!(" {watch}"), Style::PLAIN));
                let clock = super::words::clock(lang, self.clock);
                let clock = lang.text_with("room-clock", &[("clock", clock.into())]);
                f.push(Line::styled(format!(" {clock}"), Style::PLAIN));
                if crate::table::Opening::Swap2.fits(&self.rules) {
                    let opening = super::words::opening(lang, self.opening);
                    let opening = lang.text_with("room-opening", &[("opening", opening.into())]);
                    f.push(Line::styled(format!(" {opening}"), Style::PLAIN));
                }
                f.blank();
                f.push(Line::styled(
                    format!(" {}", t("room-waiting")),
                    Style::PLAIN,
                ));
            }
            None => f.push(Line::plain(format!(" {}", t("room-opening-room")))),
        }
        f.blank();
        f.push(Line::styled(
            format!(" {}", t("room-esc")),
            Style::PLAIN.dim(),
        ));
        f
    }
}
