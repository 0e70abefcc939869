//! The games in play, to watch one; and the paging of the lobby's lists
//! (used by [`super::people`] too).

use super::lobby::{Stats, header};
use super::records::window_start;
use crate::protocol::GameSummary;
use crate::term::input::Key;
use crate::term::screen::{Frame, Line, Style};
use crate::text;

/// What a key on the list asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveAction {
    None,
    /// Back to the lobby.
    Lobby,
    /// Ask for the list again.
    Refresh,
    /// Watch the game at this table.
    Watch(u64),
}

/// Rows of games shown at once.
pub(super) const PAGE: usize = 12;
/// Frame line of the first game row (for clicks).
const ROWS_TOP: usize = 5;

/// The games in play.
#[derive(Debug, Clone, Default)]
pub struct GamesScreen {
    /// `None` until the lobby answers.
    rows: Option<Vec<GameSummary>>,
    selected: usize,
    message: Option<String>,
}

impl GamesScreen {
    pub fn new() -> GamesScreen {
        GamesScreen::default()
    }

    /// The list came (again): the same game stays chosen if it is still on.
    pub fn set_games(&mut self, rows: Vec<GameSummary>) {
        let chosen = self
            .rows
            .as_ref()
            .and_then(|r| r.get(self.selected))
            .map(|g| g.room);
        self.selected = chosen
            .and_then(|room| rows.iter().position(|g| g.room == room))
            .unwrap_or(0);
        self.rows = Some(rows);
    }

    pub fn set_message(&mut self, m: impl Into<String>) {
        self.message = Some(m.into());
    }

    fn len(&self) -> usize {
        self.rows.as_ref().map_or(0, Vec::len)
    }

    fn chosen(&self) -> LiveAction {
        match self.rows.as_ref().and_then(|r| r.get(self.selected)) {
            Some(g) => LiveAction::Watch(g.room),
            None => LiveAction::None,
        }
    }

    pub fn handle(&mut self, key: Key) -> LiveAction {
        let len = self.len();
        self.message = None;
        match key {
            Key::Up => self.selected = self.selected.saturating_sub(1),
            Key::Down if self.selected + 1 < len => self.selected += 1,
            Key::Home => self.selected = 0,
            Key::End => self.selected = len.saturating_sub(1),
            Key::Enter | Key::Char(' ') => return self.chosen(),
            Key::Char('r' | 'R') => {
                self.rows = None;
                return LiveAction::Refresh;
            }
            Key::Esc | Key::Backspace | Key::Char('q' | 'Q' | 'b' | 'B') => {
                return LiveAction::Lobby;
            }
            Key::Char(c) if !c.is_whitespace() => {
                self.message = Some("arrows choose a game, Enter watches it".into());
            }
            _ => {}
        }
        LiveAction::None
    }

    /// A click on a row watches that game.
    pub fn click(&mut self, line: usize) -> LiveAction {
        let start = window_start(self.selected, self.len(), PAGE);
        let Some(i) = line.checked_sub(ROWS_TOP).map(|i| i + start) else {
            return LiveAction::None;
        };
        if i < self.len() && line - ROWS_TOP < PAGE {
            self.selected = i;
            return self.chosen();
        }
        LiveAction::None
    }

    /// The list for a terminal `width` columns wide (rows narrow down to
    /// it, the players' column first).
    pub fn frame(&self, lang: crate::lang::Lang, name: &str, stats: &Stats, width: usize) -> Frame {
        let row_width = ROW_WIDTH.min(width.saturating_sub(4)).max(44);
        let mut f = header(lang, name, stats);
        let title = match &self.rows {
            None => lang.text("games-asking"),
            Some(r) if r.is_empty() => lang.text("games-none"),
            Some(r) => lang.text_with("games-to-watch", &[("count", r.len().into())]),
        };
        f.push(Line::styled(format!(" {title}"), Style::PLAIN.bold()));
        f.blank();
        let rows = self.rows.as_deref().unwrap_or(&[]);
        let start = window_start(self.selected, rows.len(), PAGE);
        let page: Vec<&GameSummary> = rows.iter().skip(start).take(PAGE).collect();
        // The game column as wide as its widest entry ("Connect Four 7x6
        // rated"); the players have the rest of the row.
        let game_of = |g: &GameSummary| {
            let game = summary_game(lang, g);
            if g.rated {
                format!("{game} {}", lang.text("title-rated"))
            } else {
                game
            }
        };
        let game_w = page
            .iter()
            .map(|g| text::width(&game_of(g)))
            .max()
            .unwrap_or(0)
            .max(4)
            + 1;
        let players_w = row_width.saturating_sub(game_w + 6 + 9).max(12);
        let head = |id: &str, w: usize| {
            let t = lang.text(id);
            let pad = " ".repeat(w.saturating_sub(text::width(&t)));
            (t, pad)
        };
        let (moves, moves_pad) = head("games-moves", 6);
        let (watching, watching_pad) = head("games-watching", 9);
        f.push(Line::styled(
            format!(
                "   {}{}{moves_pad}{moves}{watching_pad}{watching}",
                pad(&lang.text("games-game"), game_w),
                pad(&lang.text("games-players"), players_w),
            ),
            Style::PLAIN.dim(),
        ));
        debug_assert_eq!(f.height(), ROWS_TOP);
        let mut shown = Vec::new();
        for g in page {
            let row = format!(
                "{}{}{:>6}{:>9}",
                pad(&game_of(g), game_w),
                pad(&players_text(lang, g, players_w - 1), players_w),
                g.moves,
                g.watchers
            );
            shown.push(row);
        }
        push_page(
            &mut f,
            shown,
            (self.selected, start, rows.len()),
            self.message.as_deref(),
            &format!(" {}", lang.text("games-keys")),
        );
        f
    }
}

/// Columns of a row of the games list (after its three-column margin).
const ROW_WIDTH: usize = 75;
/// Widest game name in the list ("Connect Four 10x10").
const GAME_MAX: usize = 20;

/// `s` padded with spaces to `width` terminal columns.
fn pad(s: &str, width: usize) -> String {
    let mut out = s.to_string();
    out.extend(std::iter::repeat_n(
        ' ',
        width.saturating_sub(text::width(s)),
    ));
    out
}

/// A name without what follows it in brackets ("ann (Red)": "ann").
fn bare_name(name: &str) -> &str {
    match name.rfind(" (") {
        Some(i) if name.ends_with(')') && i > 0 => &name[..i],
        _ => name,
    }
}

/// Both players of a game, and the host it is on, in at most `max`
/// columns: whole if they fit, else without what is in brackets after
/// the names (colour, rating), else each name shortened at a word with
/// `…`; never a word cut in half (a host name longer than 12 columns is
/// abbreviated with `…`).
fn players_text(lang: crate::lang::Lang, g: &GameSummary, max: usize) -> String {
    let at = g
        .host
        .as_ref()
        .map(|h| {
            let on = lang.text_with("doing-on-host", &[("host", text::shorten(h, 12).into())]);
            format!(" ({on})")
        })
        .unwrap_or_default();
    let room = max.saturating_sub(text::width(&at));
    let [a, b] = summary_players(lang, g);
    let vs = lang.text("players-vs");
    let whole = format!("{a} {vs} {b}");
    if text::width(&whole) <= room {
        return format!("{whole}{at}");
    }
    let (a, b) = (bare_name(&a), bare_name(&b));
    let bare = format!("{a} {vs} {b}");
    if text::width(&bare) <= room {
        return format!("{bare}{at}");
    }
    let names = room.saturating_sub(text::width(&vs) + 2);
    let a = text::shorten(
        a,
        names.div_ceil(2).max(names.saturating_sub(text::width(b))),
    );
    let b = text::shorten(b, names.saturating_sub(text::width(&a)));
    format!("{a} {vs} {b}{at}")
}

/// A game in play's rules in `lang` (as its host said them, from a host
/// of an older version).
pub fn summary_game(lang: crate::lang::Lang, g: &GameSummary) -> String {
    match g.facts.as_ref().and_then(|f| f.rules()) {
        Some(r) => super::words::rules(lang, &r),
        None => text::sanitize(&g.game, GAME_MAX),
    }
}

/// Both players of a game in play in `lang`, with their colours and
/// ratings (as their host said them, from a host of an older version).
pub fn summary_players(lang: crate::lang::Lang, g: &GameSummary) -> [String; 2] {
    [0, 1].map(|i| match g.facts.as_ref().and_then(|f| f.seat(i)) {
        Some(seat) => {
            let label = super::words::seat(lang, &seat);
            match seat.rating {
                Some(r) => format!("{label} {r}"),
                None => label,
            }
        }
        None => text::sanitize(&g.players[i], usize::MAX),
    })
}

/// A page of a list: the `shown` rows (the window from `start` of `len`
/// rows, with `selected` highlighted), padded to [`PAGE`]; "a-b of n"
/// when there are more; the message; the keys.
pub(super) fn push_page(
    f: &mut Frame,
    shown: Vec<String>,
    (selected, start, len): (usize, usize, usize),
    message: Option<&str>,
    keys: &str,
) {
    let count = shown.len();
    for (i, row) in shown.into_iter().enumerate() {
        let (lead, st) = if start + i == selected {
            (" > ", Style::PLAIN.bold().reverse())
        } else {
            ("   ", Style::PLAIN)
        };
        f.push(Line::plain(lead).with(row, st));
    }
    for _ in count..PAGE {
        f.blank();
    }
    if len > PAGE {
        f.push(Line::styled(
            format!("   {}-{} of {len}", start + 1, (start + PAGE).min(len)),
            Style::PLAIN.dim(),
        ));
    } else {
        f.blank();
    }
    match message {
        Some(m) => f.push(Line::styled(
            format!(" ! {}", text::sanitize(m, 76)),
            Style::PLAIN.bold(),
        )),
        None => f.blank(),
    }
    f.push(Line::styled(keys, Style::PLAIN.dim()));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(room: u64, a: &str, b: &str) -> GameSummary {
        GameSummary {
            room,
            game: "Connect Four 7x6".into(),
            players: [a.into(), b.into()],
            rated: false,
            moves: room as usize,
            watchers: 0,
            host: None,
            facts: None,
        }
    }

    #[test]
    fn the_chosen_game_is_watched_and_stays_chosen_on_refresh() {
        let mut s = GamesScreen::new();
        assert_eq!(s.handle(Key::Enter), LiveAction::None, "nothing listed yet");
        s.set_games(vec![row(1, "ann", "bob"), row(2, "cy", "di")]);
        assert_eq!(s.handle(Key::Down), LiveAction::None);
        s.set_games(vec![row(3, "ed", "flo"), row(2, "cy", "di")]);
        assert_eq!(s.handle(Key::Enter), LiveAction::Watch(2));
        assert_eq!(s.handle(Key::Char('r')), LiveAction::Refresh);
        assert_eq!(s.handle(Key::Esc), LiveAction::Lobby);
    }

    #[test]
    fn long_names_and_hosts_give_way_at_words_never_in_half() {
        let mut s = GamesScreen::new();
        let mut long = row(1, "Guest7071 (Yellow)", "Computer (level 3) (Red)");
        long.host = Some("h1".into());
        long.rated = true;
        let mut longer = row(
            2,
            "Annabelle Wilhelmina (1723)",
            "Bartholomew Fitzgerald (1650)",
        );
        longer.host = Some("europe-west-host-1".into());
        s.set_games(vec![long, longer, row(3, "ann", "bob")]);
        let text = s
            .frame(crate::lang::Lang::En, "me", &Stats::default(), 80)
            .to_plain("\n");
        assert!(text.contains("Connect Four 7x6 rated "), "{text}");
        assert!(text.contains("Guest7071 vs Computer"), "{text}");
        assert!(text.contains(" (on h1) "), "{text}");
        assert!(text.contains(" (on europe-west…)"), "{text}");
        let words = "Connect Four 7x6 rated Guest7071 (Yellow) vs Computer (level 3) (Red) \
                     (on h1) Annabelle Wilhelmina (1723) Bartholomew Fitzgerald (1650) \
                     europe-west-host-1) ann bob";
        for line in text.lines().filter(|l| l.contains(" vs ")) {
            let shown = line.split_whitespace();
            for word in shown.filter(|w| *w != ">" && !w.chars().all(|c| c.is_ascii_digit())) {
                // Whole, or visibly abbreviated (its start, then "…").
                let whole = words.split(' ').any(|w| w == word);
                let abbreviated = word.contains('…')
                    && words
                        .split(' ')
                        .any(|w| w.starts_with(word.split('…').next().unwrap_or(word)));
                assert!(whole || abbreviated, "{word:?} cut in: {line}");
            }
            assert!(text::width(line) <= 80, "{line}");
        }
    }

    #[test]
    fn a_long_list_pages_and_names_are_cleaned() {
        let mut s = GamesScreen::new();
        let mut rows: Vec<GameSummary> = (1..=30).map(|i| row(i, "ann", "bob")).collect();
        rows[0].players[0] = "evil\x1b[2Jname".into();
        s.set_games(rows);
        let text = s
            .frame(crate::lang::Lang::En, "me", &Stats::default(), 80)
            .to_plain("\n");
        assert!(!text.contains('\x1b'), "{text}");
        assert!(text.contains("1-12 of 30"), "{text}");
        s.handle(Key::End);
        let text = s
            .frame(crate::lang::Lang::En, "me", &Stats::default(), 80)
            .to_plain("\n");
        assert!(text.contains("19-30 of 30"), "{text}");
        assert_eq!(s.handle(Key::Enter), LiveAction::Watch(30));
        // A click on the first row shown watches that game.
        assert_eq!(s.click(ROWS_TOP), LiveAction::Watch(19));
    }
}
