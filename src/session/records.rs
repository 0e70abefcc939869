//! The screens of what the host keeps about a player: the profile (ratings
//! and recent games), the keys and link codes of an account, the
//! leaderboard, and a recorded game replayed move by move.
//!
//! What they show comes in as the plain view types below, filled in by the
//! server from its store: the session never reads the store itself. Every
//! text from a view is sanitised here before it is drawn, and every list is
//! bounded.

use super::review::{Review, ReviewAction};
use crate::game::GameKind;
use crate::lang::Lang;
use crate::term::board::Theme;
use crate::term::input::Key;
use crate::term::screen::{Frame, Line, Style};
use crate::text;

/// Most games a profile lists.
pub const MAX_GAMES: usize = 20;
/// Most leaderboard rows shown.
pub const MAX_ROWS: usize = 20;
/// Most keys listed.
pub const MAX_KEYS: usize = 32;
/// Rows of a list on screen at once (longer lists scroll with the selection).
const WINDOW: usize = 10;
/// Leaderboard rows on screen at once.
const BOARD_WINDOW: usize = 14;

/// How a game ended for the player whose profile it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameOutcome {
    Won,
    Lost,
    Draw,
    Aborted,
}

impl GameOutcome {
    fn word(self, lang: Lang) -> String {
        lang.text(match self {
            GameOutcome::Won => "outcome-won",
            GameOutcome::Lost => "outcome-lost",
            GameOutcome::Draw => "outcome-draw",
            GameOutcome::Aborted => "outcome-aborted",
        })
    }
}

/// A player's standing in one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingRow {
    pub game: GameKind,
    pub rating: i64,
    pub deviation: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

/// One recent game in a profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// The game's id, asked for with [`super::Request::Replay`].
    pub id: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    pub game: GameKind,
    pub opponent: String,
    pub outcome: GameOutcome,
    /// How my rating moved, when the game was rated.
    pub rating_change: Option<i64>,
}

/// A player's profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileView {
    pub name: String,
    pub ratings: Vec<RatingRow>,
    /// The puzzle rating (one for all games) and the puzzles solved of
    /// those tried; `None` before the first rated puzzle.
    pub puzzles: Option<PuzzleRow>,
    /// Most recent first.
    pub games: Vec<GameRow>,
}

/// A player's puzzle standing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleRow {
    pub rating: i64,
    pub deviation: i64,
    pub solved: i64,
    pub tried: i64,
}

/// One leaderboard row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaderRow {
    /// 0: not (yet) on the leaderboard.
    pub rank: i64,
    pub name: String,
    pub rating: i64,
    pub games: i64,
    /// The row of the person looking.
    pub me: bool,
}

/// The leaderboard of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaderboardView {
    pub game: GameKind,
    pub top: Vec<LeaderRow>,
    /// My own row (rank 0 when I do not qualify yet); `None` without a rating.
    pub me: Option<LeaderRow>,
    /// What it takes to appear, e.g. "5 rated games and a deviation under 110".
    pub requirement: String,
}

/// One SSH key of an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRow {
    pub fingerprint: String,
    /// `YYYY-MM-DD`.
    pub added: String,
}

pub use super::review::{ReplayPlayer, ReplayView};

/// What a key on these screens asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordsAction {
    None,
    /// Back to the lobby.
    Lobby,
    Replay(String),
    Keys,
    LinkCode,
    RemoveKey(String),
    Leaderboard(GameKind),
    /// The analysis of the game replayed.
    Analyze(super::review::AnalyzeAsk),
}

#[derive(Debug, Clone)]
enum Page {
    /// Waiting for the host's answer (what is loading: a message id).
    Loading(&'static str),
    Profile,
    Keys {
        keys: Option<Vec<KeyRow>>,
        selected: usize,
        code: Option<String>,
    },
    Leaderboard {
        game: GameKind,
        view: Option<LeaderboardView>,
        scroll: usize,
    },
    Replay(Box<Review>),
}

/// The profile and the screens reached from it, and the leaderboard.
#[derive(Debug, Clone)]
pub struct RecordsScreen {
    page: Page,
    /// The profile, once it came (`Some(None)`: a guest).
    profile: Option<Option<ProfileView>>,
    selected: usize,
    message: Option<String>,
    /// Games the leaderboard switches between.
    games: Vec<GameKind>,
    /// How to reach the host (`ssh CODE@host`), for the link code.
    join_hint: String,
    /// The language the person reads.
    lang: Lang,
}

fn clean(s: &str) -> String {
    text::shorten(s, text::MAX_NAME_WIDTH)
}

/// A name in a column `width` terminal columns wide (wide characters
/// count twice), padded so the columns after it line up; shortened at a
/// word with `…` if it must be, never cut in half.
fn column(s: &str, width: usize) -> String {
    let mut name = text::shorten(s, width);
    let pad = width.saturating_sub(text::width(&name));
    name.extend(std::iter::repeat_n(' ', pad));
    name
}

/// The width of a column of names: the widest of them (so "Computer
/// (level 3)" shows whole), at least `min` (its heading), at most a
/// name's longest.
fn column_width<'a>(names: impl IntoIterator<Item = &'a str>, min: usize) -> usize {
    names
        .into_iter()
        .map(|n| text::width(&text::sanitize(n, usize::MAX)))
        .max()
        .unwrap_or(0)
        .clamp(min, text::MAX_NAME_WIDTH.max(min))
}

/// `s` padded with spaces to `width` columns (never shortened).
fn padded(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(text::width(s))))
}

fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

impl RecordsScreen {
    fn new(page: Page, games: Vec<GameKind>, join_hint: &str, lang: Lang) -> RecordsScreen {
        RecordsScreen {
            lang,
            page,
            profile: None,
            selected: 0,
            message: None,
            games,
            join_hint: join_hint.to_string(),
        }
    }

    /// The profile, waiting for the host.
    pub fn profile(games: Vec<GameKind>, join_hint: &str, lang: Lang) -> RecordsScreen {
        RecordsScreen::new(
            Page::Loading("records-loading-profile"),
            games,
            join_hint,
            lang,
        )
    }

    /// The leaderboard of `game`, waiting for the host.
    pub fn leaderboard(
        game: GameKind,
        games: Vec<GameKind>,
        join_hint: &str,
        lang: Lang,
    ) -> RecordsScreen {
        RecordsScreen::new(
            Page::Leaderboard {
                game,
                view: None,
                scroll: 0,
            },
            games,
            join_hint,
            lang,
        )
    }

    /// Whether the profile is what was asked for (not the leaderboard).
    pub fn wants_profile(&self) -> bool {
        !matches!(self.page, Page::Leaderboard { .. })
    }

    /// A message (what was asked for failed, or a key was removed). A
    /// game that could not be loaded leaves the profile showing.
    pub fn set_message(&mut self, m: impl Into<String>) {
        self.message = Some(m.into());
        if matches!(self.page, Page::Loading(_)) && self.profile.is_some() {
            self.page = Page::Profile;
        }
    }

    /// The profile came (`None`: a guest).
    pub fn set_profile(&mut self, mut view: Option<ProfileView>) {
        if let Some(v) = &mut view {
            v.games.truncate(MAX_GAMES);
            v.ratings.truncate(4);
        }
        self.profile = Some(view);
        self.selected = 0;
        if matches!(self.page, Page::Loading(_)) {
            self.page = Page::Profile;
        }
    }

    pub fn set_leaderboard(&mut self, mut view: LeaderboardView) {
        if let Page::Leaderboard { game, view: v, .. } = &mut self.page
            && *game == view.game
        {
            view.top.truncate(MAX_ROWS);
            *v = Some(view);
        }
    }

    pub fn set_replay(&mut self, view: ReplayView) {
        self.message = None;
        let game_id = view.game_id.clone();
        self.page = Page::Replay(Box::new(Review::new(view, game_id, self.lang)));
    }

    /// The host's analysis of the game replayed (dropped if another game
    /// is shown by now).
    pub fn set_analysis(
        &mut self,
        ask: &super::review::AnalyzeAsk,
        answer: super::review::Analysed,
    ) {
        if let Page::Replay(review) = &mut self.page
            && review.is_for(ask)
        {
            review.analysed(answer);
        }
    }

    pub fn set_keys(&mut self, mut rows: Vec<KeyRow>) {
        rows.truncate(MAX_KEYS);
        if let Page::Keys { keys, selected, .. } = &mut self.page {
            *selected = (*selected).min(rows.len().saturating_sub(1));
            *keys = Some(rows);
        }
    }

    pub fn set_link_code(&mut self, c: &str) {
        if let Page::Keys { code, .. } = &mut self.page {
            *code = Some(text::sanitize(c, 16));
        }
    }

    fn games_of_profile(&self) -> &[GameRow] {
        match &self.profile {
            Some(Some(p)) => &p.games,
            _ => &[],
        }
    }

    /// Back one screen: to the profile, or out to the lobby.
    fn back(&mut self) -> RecordsAction {
        self.message = None;
        match self.page {
            Page::Keys { .. } | Page::Replay(_) | Page::Loading(_) if self.profile.is_some() => {
                self.page = Page::Profile;
                RecordsAction::None
            }
            _ => RecordsAction::Lobby,
        }
    }

    pub fn handle(&mut self, key: Key) -> RecordsAction {
        if matches!(
            key,
            Key::Esc | Key::Char('q') | Key::Char('Q') | Key::Backspace
        ) {
            return self.back();
        }
        let n_games = self.games_of_profile().len();
        match &mut self.page {
            Page::Loading(_) => RecordsAction::None,
            Page::Profile => match key {
                // , and . too: a client in line mode has no arrows.
                Key::Up | Key::Char(',') if self.selected > 0 => {
                    self.selected -= 1;
                    RecordsAction::None
                }
                Key::Down | Key::Char('.') if self.selected + 1 < n_games => {
                    self.selected += 1;
                    RecordsAction::None
                }
                Key::Home => {
                    self.selected = 0;
                    RecordsAction::None
                }
                Key::End => {
                    self.selected = n_games.saturating_sub(1);
                    RecordsAction::None
                }
                Key::Enter | Key::Char(' ') => match self.games_of_profile().get(self.selected) {
                    Some(g) => {
                        let id = g.id.clone();
                        self.message = None;
                        self.page = Page::Loading("records-loading-game");
                        RecordsAction::Replay(id)
                    }
                    None => RecordsAction::None,
                },
                Key::Char('k') | Key::Char('K') if matches!(self.profile, Some(Some(_))) => {
                    self.message = None;
                    self.page = Page::Keys {
                        keys: None,
                        selected: 0,
                        code: None,
                    };
                    RecordsAction::Keys
                }
                _ => RecordsAction::None,
            },
            Page::Keys { keys, selected, .. } => {
                let n = keys.as_ref().map_or(0, Vec::len);
                match key {
                    Key::Up if *selected > 0 => *selected -= 1,
                    Key::Down if *selected + 1 < n => *selected += 1,
                    Key::Char('d') | Key::Char('D') => {
                        if let Some(k) = keys.as_ref().and_then(|k| k.get(*selected)) {
                            return RecordsAction::RemoveKey(k.fingerprint.clone());
                        }
                    }
                    Key::Char('g') | Key::Char('G') => return RecordsAction::LinkCode,
                    _ => {}
                }
                RecordsAction::None
            }
            Page::Leaderboard { game, scroll, view } => {
                let rows = view.as_ref().map_or(0, |v| v.top.len());
                let pick =
                    |g: GameKind| -> Option<GameKind> { self.games.contains(&g).then_some(g) };
                let i = self.games.iter().position(|g| g == game).unwrap_or(0);
                let n = self.games.len().max(1);
                let next = match key {
                    Key::Left => self.games.get((i + n - 1) % n).copied(),
                    Key::Right | Key::Tab => self.games.get((i + 1) % n).copied(),
                    Key::Char('1') => self.games.first().copied(),
                    Key::Char('2') => self.games.get(1).copied(),
                    Key::Char('c') | Key::Char('C') => pick(GameKind::ConnectFour),
                    Key::Char('g') | Key::Char('G') => pick(GameKind::Gomoku),
                    Key::Up => {
                        *scroll = scroll.saturating_sub(1);
                        None
                    }
                    Key::Down => {
                        *scroll = (*scroll + 1).min(rows.saturating_sub(BOARD_WINDOW));
                        None
                    }
                    _ => None,
                };
                match next {
                    Some(g) if g != *game => {
                        *game = g;
                        *view = None;
                        *scroll = 0;
                        self.message = None;
                        RecordsAction::Leaderboard(g)
                    }
                    _ => RecordsAction::None,
                }
            }
            Page::Replay(review) => match review.handle(key) {
                ReviewAction::None => RecordsAction::None,
                ReviewAction::Analyze(ask) => RecordsAction::Analyze(ask),
            },
        }
    }

    pub fn frame(&self, theme: Theme, width: usize) -> Frame {
        let mut f = Frame::new();
        let lang = self.lang;
        let keys = match &self.page {
            Page::Loading(id) => {
                f.push(Line::styled(
                    format!(" {}", lang.text(id)),
                    Style::PLAIN.bold(),
                ));
                f.blank();
                lang.text("records-keys-back")
            }
            Page::Profile => {
                self.profile_lines(&mut f);
                lang.text(match &self.profile {
                    Some(Some(_)) => "records-keys-profile",
                    _ => "records-keys-back",
                })
            }
            Page::Keys {
                keys,
                selected,
                code,
            } => {
                self.keys_lines(&mut f, keys.as_deref(), *selected, code.as_deref());
                lang.text("records-keys-keys")
            }
            Page::Leaderboard { game, view, scroll } => {
                self.board_lines(&mut f, *game, view.as_ref(), *scroll);
                lang.text("records-keys-leaderboard")
            }
            Page::Replay(review) => {
                review.lines(&mut f, theme, width);
                review.keys()
            }
        };
        match &self.message {
            Some(m) => f.push(Line::styled(
                format!(" ! {}", text::sanitize(m, 56)),
                Style::PLAIN.bold(),
            )),
            None => f.blank(),
        }
        let keys = keys.trim_start();
        f.push(Line::styled(format!(" {keys}"), Style::PLAIN.dim()));
        f
    }

    fn profile_lines(&self, f: &mut Frame) {
        let lang = self.lang;
        let Some(Some(p)) = &self.profile else {
            f.push(Line::styled(
                format!(" {}", lang.text("lobby-profile")),
                Style::PLAIN.bold(),
            ));
            f.blank();
            for l in text::wrap(&lang.text("records-guest"), 54) {
                f.push(Line::plain(format!(" {l}")));
            }
            f.blank();
            let host = self
                .join_hint
                .replace("CODE@", &lang.text("records-yourname"));
            f.push(Line::plain(format!(
                " {}",
                lang.text("records-for-example")
            )));
            f.push(Line::styled(
                format!("   {}", text::sanitize(&host, 54)),
                Style::PLAIN.bold(),
            ));
            f.blank();
            return;
        };
        let title = lang.text_with("records-profile-of", &[("name", clean(&p.name).into())]);
        f.push(Line::styled(format!(" {title}"), Style::PLAIN.bold()));
        f.blank();
        let label = |s: String| column(&s, 13);
        for kind in [GameKind::ConnectFour, GameKind::Gomoku] {
            let name = label(super::words::game_name(lang, kind));
            let text = match p.ratings.iter().find(|r| r.game == kind) {
                Some(r) => lang.text_with(
                    "records-rating",
                    &[
                        ("rating", r.rating.into()),
                        ("deviation", r.deviation.into()),
                        ("won", r.wins.into()),
                        ("lost", r.losses.into()),
                        ("drawn", r.draws.into()),
                    ],
                ),
                None => lang.text("records-no-rated-games"),
            };
            f.push(Line::plain(format!(" {name} {text}")));
        }
        let name = label(lang.text("lobby-puzzles"));
        let puzzles = match &p.puzzles {
            Some(r) => lang.text_with(
                "records-puzzle-rating",
                &[
                    ("rating", r.rating.into()),
                    ("deviation", r.deviation.into()),
                    ("solved", r.solved.into()),
                    ("tried", r.tried.into()),
                ],
            ),
            None => lang.text("records-no-puzzles"),
        };
        f.push(Line::plain(format!(" {name} {puzzles}")));
        f.blank();
        if p.games.is_empty() {
            f.push(Line::styled(
                format!(" {}", lang.text("records-no-games")),
                Style::PLAIN.dim(),
            ));
            return;
        }
        let last = lang.text_with("records-last-games", &[("count", p.games.len().into())]);
        f.push(Line::styled(format!(" {last}"), Style::PLAIN.bold()));
        let start = window_start(self.selected, p.games.len(), WINDOW);
        let opponents = column_width(p.games.iter().map(|g| g.opponent.as_str()), 8);
        let games_w = column_width(
            [GameKind::ConnectFour, GameKind::Gomoku, GameKind::Renju]
                .map(|k| super::words::game_name(lang, k))
                .iter()
                .map(String::as_str),
            8,
        )
        .min(14);
        // As wide as the commonest words (an aborted game's may be wider).
        let outcomes_w = [GameOutcome::Won, GameOutcome::Lost, GameOutcome::Draw]
            .map(|o| text::width(&o.word(lang)))
            .into_iter()
            .max()
            .unwrap_or(0)
            .max(5);
        for (i, g) in p.games.iter().enumerate().skip(start).take(WINDOW) {
            let change = g
                .rating_change
                .map(|c| format!(" {}", signed(c)))
                .unwrap_or_default();
            let text = format!(
                "{}  {}  {} {}{}",
                text::sanitize(&g.date, 10),
                column(&super::words::game_name(lang, g.game), games_w),
                column(&g.opponent, opponents),
                padded(&g.outcome.word(lang), outcomes_w),
                change
            );
            if i == self.selected {
                f.push(Line::styled(" > ", Style::PLAIN.bold()).with(text, Style::PLAIN.reverse()));
            } else {
                f.push(Line::plain(format!("   {text}")));
            }
        }
    }

    fn keys_lines(
        &self,
        f: &mut Frame,
        keys: Option<&[KeyRow]>,
        selected: usize,
        code: Option<&str>,
    ) {
        let lang = self.lang;
        f.push(Line::styled(
            format!(" {}", lang.text("records-keys-title")),
            Style::PLAIN.bold(),
        ));
        f.blank();
        match keys {
            None => f.push(Line::plain(format!(
                " {}",
                lang.text("records-loading-keys")
            ))),
            Some(keys) => {
                let start = window_start(selected, keys.len(), WINDOW);
                for (i, k) in keys.iter().enumerate().skip(start).take(WINDOW) {
                    let fp = k
                        .fingerprint
                        .strip_prefix("SHA256:")
                        .unwrap_or(&k.fingerprint);
                    let text = format!(
                        "{}  {}",
                        text::sanitize(&k.added, 10),
                        text::sanitize(fp, 44)
                    );
                    if i == selected {
                        f.push(
                            Line::styled(" > ", Style::PLAIN.bold())
                                .with(text, Style::PLAIN.reverse()),
                        );
                    } else {
                        f.push(Line::plain(format!("   {text}")));
                    }
                }
            }
        }
        f.blank();
        match code {
            Some(code) => {
                f.push(
                    Line::plain(format!(" {} ", lang.text("records-link-code")))
                        .with(code.to_string(), Style::PLAIN.bold().reverse()),
                );
                f.push(Line::plain(format!(" {}", lang.text("records-link-how"))));
                let how = self.join_hint.replace("CODE", code);
                f.push(Line::styled(
                    format!("   {}", text::sanitize(&how, 54)),
                    Style::PLAIN.bold(),
                ));
                f.push(Line::plain(format!(" {}", lang.text("records-link-once"))));
            }
            None => f.push(Line::styled(
                format!(" {}", lang.text("records-link-offer")),
                Style::PLAIN.dim(),
            )),
        }
        f.blank();
    }

    fn board_lines(
        &self,
        f: &mut Frame,
        game: GameKind,
        view: Option<&LeaderboardView>,
        scroll: usize,
    ) {
        let lang = self.lang;
        let mut title = Line::styled(
            format!(" {}: ", lang.text("lobby-leaderboard")),
            Style::PLAIN.bold(),
        );
        for (i, g) in self.games.iter().enumerate() {
            let st = if *g == game {
                Style::PLAIN.bold().reverse()
            } else {
                Style::PLAIN.dim()
            };
            if i > 0 {
                title.push(" ", Style::PLAIN);
            }
            title.push(format!(" {} ", super::words::game_name(lang, *g)), st);
        }
        f.push(title);
        let Some(v) = view else {
            f.blank();
            f.push(Line::plain(format!(" {}", lang.text("records-loading"))));
            return;
        };
        let names = column_width(v.top.iter().chain(&v.me).map(|r| r.name.as_str()), 4);
        let row = |r: &LeaderRow| -> String {
            let rank = if r.rank > 0 {
                r.rank.to_string()
            } else {
                "-".into()
            };
            format!(
                "{rank:>4}  {} {:>6} {:>6}",
                column(&r.name, names),
                r.rating,
                r.games
            )
        };
        let right = |id: &str| {
            let t = lang.text(id);
            format!("{}{t}", " ".repeat(6usize.saturating_sub(text::width(&t))))
        };
        f.push(Line::styled(
            format!(
                "   {:>4}  {} {} {}",
                "#",
                column(&lang.text("people-name"), names),
                right("records-rating-head"),
                right("records-games-head")
            ),
            Style::PLAIN.dim(),
        ));
        if v.top.is_empty() {
            f.push(Line::plain(format!(" {}", lang.text("records-nobody"))));
        }
        let scroll = scroll.min(v.top.len().saturating_sub(BOARD_WINDOW));
        for r in v.top.iter().skip(scroll).take(BOARD_WINDOW) {
            if r.me {
                f.push(
                    Line::styled(" > ", Style::PLAIN.bold())
                        .with(row(r), Style::PLAIN.bold().reverse()),
                );
            } else {
                f.push(Line::plain(format!("   {}", row(r))));
            }
        }
        if v.top.len() > BOARD_WINDOW {
            let rows = lang.text_with(
                "records-rows",
                &[
                    ("first", (scroll + 1).into()),
                    ("last", (scroll + BOARD_WINDOW).min(v.top.len()).into()),
                    ("count", v.top.len().into()),
                ],
            );
            f.push(Line::styled(format!("   {rows}"), Style::PLAIN.dim()));
        }
        let in_top = v.top.iter().any(|r| r.me);
        let requirement = text::sanitize(&v.requirement, 80);
        let explain = match &v.me {
            _ if in_top => None,
            Some(me) if me.rank > 0 => {
                f.push(
                    Line::styled(" > ", Style::PLAIN.bold())
                        .with(row(me), Style::PLAIN.bold().reverse()),
                );
                None
            }
            Some(me) => Some(lang.text_with(
                "records-not-listed",
                &[
                    ("rating", me.rating.into()),
                    ("requirement", requirement.into()),
                ],
            )),
            None => {
                Some(lang.text_with("records-to-appear", &[("requirement", requirement.into())]))
            }
        };
        for l in explain.iter().flat_map(|e| text::wrap(e, 56)).take(3) {
            f.push(Line::styled(format!(" {l}"), Style::PLAIN.dim()));
        }
    }
}

/// The first row of a window of `size` rows over `len` that shows `selected`.
pub(super) fn window_start(selected: usize, len: usize, size: usize) -> usize {
    if len <= size {
        0
    } else {
        selected.saturating_sub(size / 2).min(len - size)
    }
}
