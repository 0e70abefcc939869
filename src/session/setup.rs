//! The local "new game" screens: game, opponent, level, names, colours and
//! who starts. Every answer can come from a command-line flag instead; the
//! wizard asks only what is still open, and Esc goes back one question.

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;

use super::widgets::{FieldEvent, Menu, MenuEvent, TextField, not_a_choice};
use crate::engine::Level;
use crate::game::{Colour, GameKind, Rules};
use crate::table::Seat;
use crate::term::input::Key;
use crate::term::screen::{Frame, Line, Style};
use crate::text;

/// Who plays the second seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    Human,
    Computer,
}

impl std::str::FromStr for Opponent {
    type Err = crate::game::ParseNameError;

    fn from_str(text: &str) -> Result<Opponent, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "human" | "person" => Ok(Opponent::Human),
            "computer" => Ok(Opponent::Computer),
            _ => Err(crate::game::ParseNameError::new(
                "opponent",
                text,
                "human or computer",
            )),
        }
    }
}

impl std::fmt::Display for Opponent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Opponent::Human => "human",
            Opponent::Computer => "computer",
        })
    }
}

/// Answers known in advance (from flags). Sizes other than the standard
/// ones come only from here.
#[derive(Debug, Clone, Default)]
pub struct PlayOptions {
    pub rules: Option<Rules>,
    pub opponent: Option<Opponent>,
    pub level: Option<Level>,
    pub names: [Option<String>; 2],
    pub colours: [Option<Colour>; 2],
    /// 1 or 2: which player moves first.
    pub first: Option<u8>,
    /// How a game between two people opens (`--opening swap2`).
    pub opening: crate::table::Opening,
    /// The language of the screens (`inarow play`: the environment's).
    pub lang: crate::lang::Lang,
}

/// A game ready to start: seats in turn order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalGame {
    pub rules: Rules,
    pub seats: [Seat; 2],
    /// Which seats this keyboard plays.
    pub humans: [bool; 2],
    /// How the game opens (swap2 only between two people).
    pub opening: crate::table::Opening,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Game,
    Opponent,
    Level,
    Name(usize),
    Colour(usize),
    First,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Choice {
    Game(GameKind),
    Opponent(Opponent),
    Level(Level),
    Colour(Colour),
    First(u8),
    Quit,
}

/// What a key did to the wizard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupEvent {
    None,
    Start(LocalGame),
    Quit,
}

pub struct Setup {
    answers: PlayOptions,
    /// Steps answered interactively, for Esc.
    asked: Vec<Step>,
    step: Step,
    menu: Menu<Choice>,
    field: TextField,
    error: Option<String>,
    rng: SmallRng,
}

impl Setup {
    pub fn new(preset: PlayOptions, rng: SmallRng) -> Setup {
        let mut s = Setup {
            answers: preset,
            asked: Vec::new(),
            step: Step::Game,
            menu: Menu::new(),
            field: TextField::default(),
            error: None,
            rng,
        };
        s.advance();
        s
    }

    fn next_open_step(&self) -> Option<Step> {
        let a = &self.answers;
        let vs_computer = a.opponent == Some(Opponent::Computer);
        if a.rules.is_none() {
            return Some(Step::Game);
        }
        if a.opponent.is_none() {
            return Some(Step::Opponent);
        }
        // A level the game does not have (a Gomoku level for Connect
        // Four) is asked again.
        let kind = a.rules.map_or(GameKind::ConnectFour, |r| r.kind());
        if vs_computer && a.level.and_then(|l| l.in_game(kind)).is_none() {
            return Some(Step::Level);
        }
        if a.names[0].is_none() {
            return Some(Step::Name(0));
        }
        if a.colours[0].is_none() {
            return Some(Step::Colour(0));
        }
        if !vs_computer && a.names[1].is_none() {
            return Some(Step::Name(1));
        }
        if !vs_computer && a.colours[1].is_none() {
            return Some(Step::Colour(1));
        }
        if a.first.is_none() {
            return Some(Step::First);
        }
        None
    }

    /// Moves to the next open question and builds its menu or field.
    fn advance(&mut self) -> Option<LocalGame> {
        let Some(step) = self.next_open_step() else {
            return Some(self.build());
        };
        self.step = step;
        let a = &self.answers;
        match step {
            Step::Game => {
                let lang = a.lang;
                let size = |r: Rules| [("width", r.width().into()), ("height", r.height().into())];
                let game = |kind| crate::session::words::game_name(lang, kind);
                self.menu = Menu::new()
                    .entry(
                        '1',
                        game(GameKind::ConnectFour),
                        lang.text_with("lobby-connect4-detail", &size(Rules::connect_four())),
                        Choice::Game(GameKind::ConnectFour),
                    )
                    .entry(
                        '2',
                        game(GameKind::Gomoku),
                        lang.text_with("lobby-gomoku-detail", &size(Rules::gomoku())),
                        Choice::Game(GameKind::Gomoku),
                    )
                    .entry(
                        '3',
                        game(GameKind::Renju),
                        lang.text_with("lobby-renju-detail", &size(Rules::renju())),
                        Choice::Game(GameKind::Renju),
                    )
                    .entry('q', lang.text("lobby-quit"), "", Choice::Quit);
            }
            Step::Opponent => {
                let t = |id: &str| a.lang.text(id);
                self.menu = Menu::new()
                    .entry(
                        '1',
                        t("setup-vs-computer"),
                        "",
                        Choice::Opponent(Opponent::Computer),
                    )
                    .entry(
                        '2',
                        t("setup-two-players"),
                        t("setup-two-players-detail"),
                        Choice::Opponent(Opponent::Human),
                    );
            }
            Step::Level => {
                let kind = a.rules.map_or(GameKind::ConnectFour, |r| r.kind());
                let lang = a.lang;
                self.menu = Menu::numbered(Level::for_game(kind).iter().map(|&l| {
                    (
                        capitalise(&crate::session::words::level(lang, l)),
                        crate::session::words::level_detail(lang, kind, l),
                        Choice::Level(l),
                    )
                }))
                .select_where(|c| *c == Choice::Level(Level::default_for(kind)));
            }
            Step::Name(_) => {
                self.field = TextField::new("", text::MAX_NAME_WIDTH);
            }
            Step::Colour(i) => {
                let taken = if i == 1 { a.colours[0] } else { None };
                self.menu =
                    Menu::numbered(Colour::ALL.into_iter().filter(|&c| Some(c) != taken).map(
                        |c| {
                            let name = crate::session::words::colour(a.lang, c);
                            (name, String::new(), Choice::Colour(c))
                        },
                    ));
            }
            Step::First => {
                let n1 = a.names[0]
                    .clone()
                    .unwrap_or_else(|| default_name(a.lang, 0));
                let n2 = if a.opponent == Some(Opponent::Computer) {
                    a.lang.text("setup-the-computer")
                } else {
                    a.names[1]
                        .clone()
                        .unwrap_or_else(|| default_name(a.lang, 1))
                };
                self.menu = Menu::new().entry('1', n1, "", Choice::First(1)).entry(
                    '2',
                    n2,
                    "",
                    Choice::First(2),
                );
            }
        }
        None
    }

    fn build(&mut self) -> LocalGame {
        let a = &self.answers;
        let rules = a.rules.unwrap_or_else(Rules::connect_four);
        let vs_computer = a.opponent == Some(Opponent::Computer);
        let opening = if vs_computer {
            crate::table::Opening::Standard
        } else {
            a.opening
        };
        let c1 = a.colours[0].unwrap_or(Colour::Red);
        let p1 = Seat::human(
            a.names[0]
                .clone()
                .unwrap_or_else(|| default_name(a.lang, 0)),
            c1,
        );
        let p2 = if vs_computer {
            // The computer takes a random free colour.
            let free: Vec<Colour> = Colour::ALL.into_iter().filter(|&c| c != c1).collect();
            let c2 = *free.choose(&mut self.rng).unwrap_or(&Colour::Yellow);
            let level = a.level.and_then(|l| l.in_game(rules.kind()));
            Seat::computer(level.unwrap_or(Level::default_for(rules.kind())), c2)
        } else {
            let c2 = a.colours[1].filter(|&c| c != c1).unwrap_or_else(|| {
                Colour::ALL
                    .into_iter()
                    .find(|&c| c != c1)
                    .unwrap_or(Colour::Yellow)
            });
            Seat::human(
                a.names[1]
                    .clone()
                    .unwrap_or_else(|| default_name(a.lang, 1)),
                c2,
            )
        };
        let humans2 = !vs_computer;
        if a.first == Some(2) {
            LocalGame {
                rules,
                seats: [p2, p1],
                humans: [humans2, true],
                opening,
            }
        } else {
            LocalGame {
                rules,
                seats: [p1, p2],
                humans: [true, humans2],
                opening,
            }
        }
    }

    /// Whether a text field (a name) is being asked for.
    pub fn is_text_step(&self) -> bool {
        matches!(self.step, Step::Name(_))
    }

    /// The game, when every question is already answered (all by flags).
    pub fn completed(&mut self) -> Option<LocalGame> {
        self.next_open_step().is_none().then(|| self.build())
    }

    fn back(&mut self) {
        if let Some(prev) = self.asked.pop() {
            let a = &mut self.answers;
            match prev {
                Step::Game => a.rules = None,
                Step::Opponent => a.opponent = None,
                Step::Level => a.level = None,
                Step::Name(i) => a.names[i] = None,
                Step::Colour(i) => a.colours[i] = None,
                Step::First => a.first = None,
            }
            self.error = None;
            self.advance();
        }
    }

    fn answer(&mut self, choice: Choice) -> SetupEvent {
        let a = &mut self.answers;
        match choice {
            Choice::Quit => return SetupEvent::Quit,
            Choice::Game(kind) => a.rules = Some(Rules::standard(kind)),
            Choice::Opponent(o) => a.opponent = Some(o),
            Choice::Level(l) => a.level = Some(l),
            Choice::Colour(c) => {
                if let Step::Colour(i) = self.step {
                    a.colours[i] = Some(c);
                }
            }
            Choice::First(n) => a.first = Some(n),
        }
        self.asked.push(self.step);
        self.error = None;
        match self.advance() {
            Some(game) => SetupEvent::Start(game),
            None => SetupEvent::None,
        }
    }

    pub fn handle(&mut self, key: Key) -> SetupEvent {
        if matches!(key, Key::CtrlC | Key::CtrlD) {
            return SetupEvent::Quit;
        }
        if let Step::Name(i) = self.step {
            return match self.field.handle(key) {
                FieldEvent::Submitted(name) => {
                    let lang = self.answers.lang;
                    let name = text::sanitize_name(&name, &default_name(lang, i));
                    if i == 1 && self.answers.names[0].as_deref() == Some(name.as_str()) {
                        let taken = lang.text_with("setup-name-taken", &[("name", name.into())]);
                        self.error = Some(taken);
                        return SetupEvent::None;
                    }
                    self.answers.names[i] = Some(name);
                    self.asked.push(self.step);
                    self.error = None;
                    match self.advance() {
                        Some(game) => SetupEvent::Start(game),
                        None => SetupEvent::None,
                    }
                }
                FieldEvent::Cancelled => {
                    self.back();
                    SetupEvent::None
                }
                FieldEvent::None => SetupEvent::None,
            };
        }
        if key == Key::Char('q') || key == Key::Char('Q') {
            return SetupEvent::Quit;
        }
        match self.menu.handle(key) {
            MenuEvent::Chosen(c) => self.answer(c),
            MenuEvent::Back => {
                self.back();
                SetupEvent::None
            }
            MenuEvent::None => {
                if let Some(e) = not_a_choice(self.answers.lang, key) {
                    self.error = Some(e);
                }
                SetupEvent::None
            }
        }
    }

    /// Line index of the first menu entry in the frame, for clicks.
    const MENU_TOP: usize = 6;

    pub fn click(&mut self, line: usize) -> SetupEvent {
        if matches!(self.step, Step::Name(_)) || line < Self::MENU_TOP {
            return SetupEvent::None;
        }
        match self.menu.click(line - Self::MENU_TOP) {
            MenuEvent::Chosen(c) => self.answer(c),
            _ => SetupEvent::None,
        }
    }

    fn summary(&self) -> String {
        let a = &self.answers;
        let lang = a.lang;
        let mut parts = Vec::new();
        if let Some(r) = a.rules {
            parts.push(crate::session::words::rules(lang, &r));
        }
        match (a.opponent, a.level) {
            (Some(Opponent::Computer), Some(l)) => parts.push(lang.text_with(
                "setup-vs-computer-level",
                &[("level", crate::session::words::level(lang, l).into())],
            )),
            (Some(Opponent::Computer), None) => parts.push(lang.text("setup-vs-computer-short")),
            (Some(Opponent::Human), _) => parts.push(lang.text("setup-two-players-short")),
            _ => {}
        }
        for i in 0..2 {
            if let Some(n) = &a.names[i] {
                let c = a.colours[i]
                    .map(|c| format!(" ({})", crate::session::words::colour(lang, c)))
                    .unwrap_or_default();
                parts.push(format!("{n}{c}"));
            }
        }
        parts.join(", ")
    }

    fn question(&self) -> String {
        let lang = self.answers.lang;
        let vs_computer = self.answers.opponent == Some(Opponent::Computer);
        match self.step {
            Step::Game => lang.text("setup-which-game"),
            Step::Opponent => lang.text("setup-who-plays"),
            Step::Level => lang.text("setup-how-strong"),
            Step::Name(0) if vs_computer => lang.text("setup-your-name"),
            Step::Name(i) => lang.text_with("setup-player-name", &[("number", (i + 1).into())]),
            Step::Colour(i) => {
                let name = self.answers.names[i]
                    .clone()
                    .unwrap_or_else(|| default_name(lang, i));
                lang.text_with("setup-pick-colour", &[("name", name.into())])
            }
            Step::First => lang.text("setup-who-starts"),
        }
    }

    pub fn frame(&self) -> Frame {
        let mut f = Frame::new();
        let lang = self.answers.lang;
        f.push(Line::styled(
            format!(" inarow: {}", lang.text("setup-title")),
            Style::PLAIN.bold(),
        ));
        f.push(Line::styled(
            format!(" {}", lang.text("setup-new-game")),
            Style::PLAIN.dim(),
        ));
        f.push(Line::styled(
            format!(" {}", self.summary()),
            Style::PLAIN.dim(),
        ));
        f.blank();
        f.push(Line::styled(
            format!(" {}", self.question()),
            Style::PLAIN.bold(),
        ));
        f.blank();
        debug_assert_eq!(f.height(), Self::MENU_TOP);
        if let Step::Name(i) = self.step {
            f.push(self.field.line(&format!("   {} ", lang.text("name-field"))));
            let keeps = lang.text_with(
                "name-enter-keeps",
                &[("name", default_name(lang, i).into())],
            );
            f.push(Line::styled(format!("   ({keeps})"), Style::PLAIN.dim()));
        } else {
            for line in self.menu.lines(Style::PLAIN.bold()) {
                f.push(line);
            }
        }
        f.blank();
        match &self.error {
            Some(e) => f.push(Line::styled(format!(" ! {e}"), Style::PLAIN.bold())),
            None => f.blank(),
        }
        let help = lang.text(if matches!(self.step, Step::Name(_)) {
            "field-keys"
        } else {
            "setup-menu-keys"
        });
        f.push(Line::styled(format!(" {help}"), Style::PLAIN.dim()));
        f
    }
}

/// Player 1, Spieler 2, 玩家 1: a player who gave no name.
fn default_name(lang: crate::lang::Lang, i: usize) -> String {
    lang.text_with("player-numbered", &[("number", (i + 1).into())])
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::make_rng;

    fn press(s: &mut Setup, keys: &[Key]) -> SetupEvent {
        let mut last = SetupEvent::None;
        for &k in keys {
            last = s.handle(k);
        }
        last
    }

    fn typed(text: &str) -> Vec<Key> {
        let mut v: Vec<Key> = text.chars().map(Key::Char).collect();
        v.push(Key::Enter);
        v
    }

    #[test]
    fn two_players_full_walkthrough() {
        let mut s = Setup::new(PlayOptions::default(), make_rng(Some(1)));
        press(&mut s, &[Key::Char('1'), Key::Char('2')]);
        // Name: replace the default.
        let mut keys = vec![Key::Backspace; 10];
        keys.extend(typed("Alice"));
        press(&mut s, &keys);
        press(&mut s, &[Key::Char('1')]); // Red
        let mut keys = vec![Key::Backspace; 10];
        keys.extend(typed("Bob"));
        press(&mut s, &keys);
        // Red is gone for player 2: entry 2 of Green, Yellow, Blue is Yellow.
        let menu = s.frame().to_plain("\n");
        assert!(
            !menu.contains("] Red") && menu.contains("[1] Green"),
            "{menu}"
        );
        press(&mut s, &[Key::Char('2')]);
        let ev = press(&mut s, &[Key::Char('2')]); // Bob starts
        let SetupEvent::Start(game) = ev else {
            panic!("{ev:?}")
        };
        assert_eq!(game.seats[0], Seat::human("Bob", Colour::Yellow));
        assert_eq!(game.seats[1], Seat::human("Alice", Colour::Red));
        assert_eq!(game.humans, [true, true]);
        assert_eq!(game.rules, Rules::connect_four());
    }

    #[test]
    fn flags_skip_questions_and_the_computer_takes_a_free_colour() {
        for seed in 0..20 {
            let preset = PlayOptions {
                rules: Some(Rules::gomoku()),
                opponent: Some(Opponent::Computer),
                level: Some(Level::Easy),
                names: [Some("Ann".into()), None],
                colours: [Some(Colour::Blue), None],
                first: Some(1),
                opening: Default::default(),
                lang: Default::default(),
            };
            let mut s = Setup::new(preset, make_rng(Some(seed)));
            assert!(s.next_open_step().is_none());
            let game = s.build();
            assert_eq!(game.seats[0].colour, Colour::Blue);
            assert_ne!(game.seats[1].colour, Colour::Blue);
            assert_eq!(game.seats[1].computer, Level::gomoku(2));
            assert_eq!(game.humans, [true, false]);
        }
    }

    #[test]
    fn the_gomoku_level_menu_is_the_ladder_and_a_level_of_another_game_is_asked_again() {
        let preset = PlayOptions {
            rules: Some(Rules::gomoku()),
            opponent: Some(Opponent::Computer),
            ..PlayOptions::default()
        };
        let mut s = Setup::new(preset, make_rng(Some(1)));
        assert_eq!(s.step, Step::Level);
        let screen = s.frame().to_plain("\n");
        for n in 1..=8 {
            assert!(screen.contains(&format!("Level {n}")), "{screen}");
        }
        press(&mut s, &[Key::Char('7')]);
        assert_eq!(s.answers.level, Level::gomoku(7));
        // A Gomoku level given for Connect Four: the question comes back.
        let preset = PlayOptions {
            rules: Some(Rules::connect_four()),
            opponent: Some(Opponent::Computer),
            level: Level::gomoku(3),
            ..PlayOptions::default()
        };
        let s = Setup::new(preset, make_rng(Some(1)));
        assert_eq!(s.step, Step::Level);
        assert!(s.frame().to_plain("\n").contains("Perfect"));
    }

    #[test]
    fn escape_goes_back_and_bad_keys_say_so() {
        let mut s = Setup::new(PlayOptions::default(), make_rng(Some(1)));
        press(&mut s, &[Key::Char('2')]);
        assert_eq!(s.step, Step::Opponent);
        press(&mut s, &[Key::Char('x')]);
        assert!(s.frame().to_plain("\n").contains("not one of the choices"));
        press(&mut s, &[Key::Esc]);
        assert_eq!(s.step, Step::Game);
        assert_eq!(press(&mut s, &[Key::Char('q')]), SetupEvent::Quit);
    }

    #[test]
    fn player_two_cannot_take_player_ones_name() {
        let preset = PlayOptions {
            rules: Some(Rules::connect_four()),
            opponent: Some(Opponent::Human),
            names: [Some("Player 2".into()), None],
            colours: [Some(Colour::Red), None],
            ..PlayOptions::default()
        };
        let mut s = Setup::new(preset, make_rng(Some(1)));
        press(&mut s, &[Key::Enter]); // accepts the default "Player 2"
        assert_eq!(s.step, Step::Name(1));
        assert!(s.frame().to_plain("\n").contains("is taken"));
    }
}
