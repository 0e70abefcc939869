//! The lobby's list of games in play, to pick one to watch.

use super::remote::{Stats, header};
use crate::term::input::Key;
use crate::term::screen::{Frame, Line, Style};
use crate::text;

/// A game in play, as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// The table, to ask to watch it.
    pub room: u64,
    /// "Connect Four 7x6" and the like.
    pub game: String,
    /// Both players (with ratings in a rated game), first player first.
    pub players: [String; 2],
    pub rated: bool,
    pub moves: usize,
    pub watchers: usize,
}

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
const PAGE: usize = 12;
/// Frame line of the first game row (for clicks).
const ROWS_TOP: usize = 5;

/// The games in play.
#[derive(Debug, Clone, Default)]
pub struct GamesScreen {
    /// `None` until the lobby answers.
    rows: Option<Vec<GameRow>>,
    selected: usize,
    message: Option<String>,
}

impl GamesScreen {
    pub fn new() -> GamesScreen {
        GamesScreen::default()
    }

    /// The list came (again): the same game stays chosen if it is still on.
    pub fn set_games(&mut self, rows: Vec<GameRow>) {
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

    pub fn frame(&self, name: &str, stats: &Stats) -> Frame {
        let mut f = header(name, stats);
        let title = match &self.rows {
            None => " Games in play: asking the lobby...".to_string(),
            Some(r) if r.is_empty() => " Games in play: none just now".to_string(),
            Some(r) => format!(" Games in play: {} to watch", r.len()),
        };
        f.push(Line::styled(title, Style::PLAIN.bold()));
        f.blank();
        let rows = self.rows.as_deref().unwrap_or(&[]);
        let start = window_start(self.selected, rows.len(), PAGE);
        f.push(Line::styled(
            format!(
                "   {:<17}{:<40}{:>6}{:>9}",
                "game", "players", "moves", "watching"
            ),
            Style::PLAIN.dim(),
        ));
        debug_assert_eq!(f.height(), ROWS_TOP);
        for (i, g) in rows.iter().enumerate().skip(start).take(PAGE) {
            let players = format!(
                "{} vs {}",
                text::sanitize(&g.players[0], 19),
                text::sanitize(&g.players[1], 19)
            );
            let game = if g.rated {
                format!("{} rated", g.game)
            } else {
                g.game.clone()
            };
            let row = format!(
                "{:<17}{:<40}{:>6}{:>9}",
                text::sanitize(&game, 16),
                text::sanitize(&players, 39),
                g.moves,
                g.watchers
            );
            let (lead, st) = if i == self.selected {
                (" > ", Style::PLAIN.bold().reverse())
            } else {
                ("   ", Style::PLAIN)
            };
            f.push(Line::plain(lead).with(row, st));
        }
        for _ in rows.len().saturating_sub(start).min(PAGE)..PAGE {
            f.blank();
        }
        if rows.len() > PAGE {
            f.push(Line::styled(
                format!(
                    "   {}-{} of {}",
                    start + 1,
                    (start + PAGE).min(rows.len()),
                    rows.len()
                ),
                Style::PLAIN.dim(),
            ));
        } else {
            f.blank();
        }
        match &self.message {
            Some(m) => f.push(Line::styled(
                format!(" ! {}", text::sanitize(m, 70)),
                Style::PLAIN.bold(),
            )),
            None => f.blank(),
        }
        f.push(Line::styled(
            " arrows choose, Enter watches, r refreshes, Esc back; ? help",
            Style::PLAIN.dim(),
        ));
        f
    }
}

/// The first row of a window of `size` rows over `len` that shows `selected`.
fn window_start(selected: usize, len: usize, size: usize) -> usize {
    if len <= size {
        0
    } else {
        selected.saturating_sub(size / 2).min(len - size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(room: u64, a: &str, b: &str) -> GameRow {
        GameRow {
            room,
            game: "Connect Four 7x6".into(),
            players: [a.into(), b.into()],
            rated: false,
            moves: room as usize,
            watchers: 0,
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
    fn a_long_list_pages_and_names_are_cleaned() {
        let mut s = GamesScreen::new();
        let mut rows: Vec<GameRow> = (1..=30).map(|i| row(i, "ann", "bob")).collect();
        rows[0].players[0] = "evil\x1b[2Jname".into();
        s.set_games(rows);
        let text = s.frame("me", &Stats::default()).to_plain("\n");
        assert!(!text.contains('\x1b'), "{text}");
        assert!(text.contains("1-12 of 30"), "{text}");
        s.handle(Key::End);
        let text = s.frame("me", &Stats::default()).to_plain("\n");
        assert!(text.contains("19-30 of 30"), "{text}");
        assert_eq!(s.handle(Key::Enter), LiveAction::Watch(30));
        // A click on the first row shown watches that game.
        assert_eq!(s.click(ROWS_TOP), LiveAction::Watch(19));
    }
}
