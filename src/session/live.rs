//! The lobby's live screens: the games in play (to watch one), who is
//! online (to invite one of them to a game), and an invitation received.

use super::records::window_start;
use super::remote::{Stats, header};
use crate::clock::TimeControl;
use crate::game::{GameKind, Rules};
use crate::protocol::{Doing, GameSummary, Invitation, Person};
use crate::table::Opening;
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
const PAGE: usize = 12;
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
        let page: Vec<&GameSummary> = rows.iter().skip(start).take(PAGE).collect();
        // The game column as wide as its widest entry ("Connect Four 7x6
        // rated"); the players have the rest of the row.
        let game_of = |g: &GameSummary| {
            let game = text::sanitize(&g.game, GAME_MAX);
            if g.rated {
                format!("{game} rated")
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
        let players_w = ROW_WIDTH - game_w - 6 - 9;
        f.push(Line::styled(
            format!(
                "   {}{}{:>6}{:>9}",
                pad("game", game_w),
                pad("players", players_w),
                "moves",
                "watching"
            ),
            Style::PLAIN.dim(),
        ));
        debug_assert_eq!(f.height(), ROWS_TOP);
        let mut shown = Vec::new();
        for g in page {
            let row = format!(
                "{}{}{:>6}{:>9}",
                pad(&game_of(g), game_w),
                pad(&players_text(g, players_w - 1), players_w),
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
            " arrows choose, Enter watches, r refreshes, Esc back; ? help",
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
fn players_text(g: &GameSummary, max: usize) -> String {
    let at = g
        .host
        .as_ref()
        .map(|h| format!(" (on {})", text::shorten(h, 12)))
        .unwrap_or_default();
    let room = max.saturating_sub(text::width(&at));
    let [a, b] = g.players.each_ref().map(|p| text::sanitize(p, usize::MAX));
    let whole = format!("{a} vs {b}");
    if text::width(&whole) <= room {
        return format!("{whole}{at}");
    }
    let (a, b) = (bare_name(&a), bare_name(&b));
    let bare = format!("{a} vs {b}");
    if text::width(&bare) <= room {
        return format!("{bare}{at}");
    }
    let names = room.saturating_sub(4);
    let a = text::shorten(
        a,
        names.div_ceil(2).max(names.saturating_sub(text::width(b))),
    );
    let b = text::shorten(b, names.saturating_sub(text::width(&a)));
    format!("{a} vs {b}{at}")
}

/// A page of a list: the `shown` rows (the window from `start` of `len`
/// rows, with `selected` highlighted), padded to [`PAGE`]; "a-b of n"
/// when there are more; the message; the keys.
fn push_page(
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
        let text = s.frame("me", &Stats::default()).to_plain("\n");
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

/// What a key on the who-is-online screen asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeopleAction {
    None,
    Lobby,
    Refresh,
    /// Take invitations (or not).
    SetInvitations(bool),
    Challenge {
        to: u64,
        kind: GameKind,
        rated: bool,
        clock: Option<TimeControl>,
        opening: Opening,
    },
}

/// The invitation being put together.
#[derive(Debug, Clone)]
struct Form {
    to: u64,
    name: String,
    /// Index into the games on offer.
    game: usize,
    rated: bool,
    clock: Option<TimeControl>,
    /// How the game opens (swap2 for the games it fits).
    opening: Opening,
    /// Both have accounts: a standard board may be rated.
    both_accounts: bool,
}

/// Who is online, and inviting one of them.
#[derive(Debug, Clone)]
pub struct PeopleScreen {
    games: Vec<Rules>,
    rows: Option<Vec<Person>>,
    selected: usize,
    message: Option<String>,
    form: Option<Form>,
    /// The last invitation's choices (game, rated, clock, opening),
    /// offered again.
    last: (usize, bool, Option<TimeControl>, Opening),
}

/// Frame line of the first person row (for clicks).
const PEOPLE_TOP: usize = 5;

impl PeopleScreen {
    pub fn new(games: Vec<Rules>) -> PeopleScreen {
        PeopleScreen {
            games,
            rows: None,
            selected: 0,
            message: None,
            form: None,
            last: (0, false, None, Opening::Standard),
        }
    }

    /// The list came (again): the same person stays chosen if still here.
    pub fn set_people(&mut self, rows: Vec<Person>) {
        let chosen = self
            .rows
            .as_ref()
            .and_then(|r| r.get(self.selected))
            .map(|p| p.id);
        self.selected = chosen
            .and_then(|id| rows.iter().position(|p| p.id == id))
            .unwrap_or(0);
        self.rows = Some(rows);
    }

    pub fn set_message(&mut self, m: impl Into<String>) {
        self.message = Some(m.into());
    }

    /// Whether this person takes invitations, as last listed.
    fn invitable_me(&self) -> bool {
        self.rows
            .as_ref()
            .and_then(|r| r.iter().find(|p| p.me))
            .is_none_or(|p| p.invitable)
    }

    fn len(&self) -> usize {
        self.rows.as_ref().map_or(0, Vec::len)
    }

    /// The invitation form for the chosen person, or why not.
    fn open_form(&mut self) {
        let Some(rows) = &self.rows else { return };
        let Some(p) = rows.get(self.selected) else {
            return;
        };
        let why = if p.me {
            Some("that is you: choose someone else".to_string())
        } else if !p.invitable {
            Some(format!("{} does not take invitations", p.name))
        } else {
            None
        };
        if let Some(why) = why {
            self.message = Some(why);
            return;
        }
        let me_account = rows.iter().any(|r| r.me && r.account);
        let (game, rated, clock, opening) = self.last;
        self.form = Some(Form {
            to: p.id,
            name: p.name.clone(),
            game,
            rated,
            clock,
            opening,
            both_accounts: me_account && p.account,
        });
    }

    /// Whether the form's game may be rated.
    fn may_rate(&self, form: &Form) -> bool {
        form.both_accounts && self.games.get(form.game).is_some_and(Rules::is_rated)
    }

    pub fn handle(&mut self, key: Key) -> PeopleAction {
        self.message = None;
        if let Some(mut form) = self.form.take() {
            let action = match key {
                Key::Esc | Key::Backspace => return PeopleAction::None,
                Key::Char('g' | 'G') => {
                    form.game = (form.game + 1) % self.games.len().max(1);
                    PeopleAction::None
                }
                Key::Char('r' | 'R') if self.may_rate(&form) => {
                    form.rated = !form.rated;
                    PeopleAction::None
                }
                Key::Char('r' | 'R') => {
                    self.message = Some(
                        "rated games are for two players with keys, on the standard board".into(),
                    );
                    PeopleAction::None
                }
                Key::Char('c' | 'C') => {
                    form.clock = crate::clock::next_preset(form.clock);
                    PeopleAction::None
                }
                Key::Char('o' | 'O') => {
                    if let Some(rules) = self.games.get(form.game) {
                        form.opening = form.opening.next(rules);
                        if form.opening == Opening::Standard && !Opening::Swap2.fits(rules) {
                            self.message = Some("swap2 is for Gomoku and Renju".into());
                        }
                    }
                    PeopleAction::None
                }
                Key::Enter => {
                    let Some(rules) = self.games.get(form.game) else {
                        return PeopleAction::None;
                    };
                    self.last = (form.game, form.rated, form.clock, form.opening);
                    let opening = if form.opening.fits(rules) {
                        form.opening
                    } else {
                        Opening::Standard
                    };
                    return PeopleAction::Challenge {
                        to: form.to,
                        kind: rules.kind(),
                        rated: form.rated && self.may_rate(&form),
                        clock: form.clock,
                        opening,
                    };
                }
                _ => PeopleAction::None,
            };
            self.form = Some(form);
            return action;
        }
        let len = self.len();
        match key {
            Key::Up => self.selected = self.selected.saturating_sub(1),
            Key::Down if self.selected + 1 < len => self.selected += 1,
            Key::Home => self.selected = 0,
            Key::End => self.selected = len.saturating_sub(1),
            Key::Enter | Key::Char(' ') => self.open_form(),
            Key::Char('r' | 'R') => return PeopleAction::Refresh,
            Key::Char('i' | 'I') => {
                let on = !self.invitable_me();
                if let Some(me) = self.rows.as_mut().and_then(|r| r.iter_mut().find(|p| p.me)) {
                    me.invitable = on;
                }
                return PeopleAction::SetInvitations(on);
            }
            Key::Esc | Key::Backspace | Key::Char('q' | 'Q' | 'b' | 'B') => {
                return PeopleAction::Lobby;
            }
            Key::Char(c) if !c.is_whitespace() => {
                self.message = Some("arrows choose a person, Enter invites them".into());
            }
            _ => {}
        }
        PeopleAction::None
    }

    /// A click on a row chooses that person and opens the invitation.
    pub fn click(&mut self, line: usize) -> PeopleAction {
        if self.form.is_some() {
            return PeopleAction::None;
        }
        let start = window_start(self.selected, self.len(), PAGE);
        if let Some(i) = line.checked_sub(PEOPLE_TOP)
            && i < PAGE
            && start + i < self.len()
        {
            self.selected = start + i;
            self.open_form();
        }
        PeopleAction::None
    }

    pub fn frame(&self, name: &str, stats: &Stats) -> Frame {
        let mut f = header(name, stats);
        if let Some(form) = &self.form {
            return self.form_frame(f, form);
        }
        let rows = self.rows.as_deref().unwrap_or(&[]);
        let title = match &self.rows {
            None => " Who is online: asking the lobby...".to_string(),
            Some(_) => {
                let count = |f: fn(Doing) -> bool| rows.iter().filter(|p| f(p.doing)).count();
                format!(
                    " Who is online: {} ({} in the lobby, {} seeking, {} playing, {} watching)",
                    rows.len(),
                    count(|d| d == Doing::Lobby),
                    count(|d| matches!(d, Doing::Seeking(_))),
                    count(|d| d == Doing::Playing),
                    count(|d| d == Doing::Watching)
                )
            }
        };
        f.push(Line::styled(title, Style::PLAIN.bold()));
        f.blank();
        let kinds: Vec<GameKind> = {
            let mut k = Vec::new();
            // Ratings are kept for the rated games only.
            for r in &self.games {
                if r.kind().rating_index().is_some() && !k.contains(&r.kind()) {
                    k.push(r.kind());
                }
            }
            k
        };
        let mut head = format!("   {:<22}", "name");
        for kind in &kinds {
            let short = match kind {
                GameKind::ConnectFour => "C4",
                GameKind::Gomoku => "Gomoku",
                GameKind::Renju => "Renju",
            };
            head.push_str(&format!("{short:<7}"));
        }
        head.push_str("doing");
        f.push(Line::styled(head, Style::PLAIN.dim()));
        debug_assert_eq!(f.height(), PEOPLE_TOP);
        let start = window_start(self.selected, rows.len(), PAGE);
        let mut shown = Vec::new();
        for p in rows.iter().skip(start).take(PAGE) {
            let mut who = text::sanitize(&p.name, text::MAX_NAME_WIDTH);
            if p.me {
                who.push_str(" (you)");
            }
            let mut row = format!("{who:<22}");
            for kind in &kinds {
                let r = kind.rating_index().and_then(|i| p.ratings[i]);
                let r = match (r, p.account) {
                    (Some(r), _) => r.to_string(),
                    (None, true) => "1500".to_string(),
                    (None, false) => "-".to_string(),
                };
                row.push_str(&format!("{r:<7}"));
            }
            let mut doing = p.doing.describe();
            if let Some(host) = &p.host {
                doing.push_str(&format!(" (on {host})"));
            }
            if !p.invitable {
                doing.push_str(", no invitations");
            }
            row.push_str(&text::sanitize(&doing, 34));
            shown.push(row);
        }
        let on = if self.invitable_me() { "on" } else { "off" };
        push_page(
            &mut f,
            shown,
            (self.selected, start, rows.len()),
            self.message.as_deref(),
            &format!(" Enter invites, i invitations (now {on}), r refreshes, Esc back"),
        );
        f
    }

    fn form_frame(&self, mut f: Frame, form: &Form) -> Frame {
        f.push(Line::styled(
            format!(
                " Invite {} to a game",
                text::sanitize(&form.name, text::MAX_NAME_WIDTH)
            ),
            Style::PLAIN.bold(),
        ));
        f.blank();
        let game = self
            .games
            .get(form.game)
            .map_or_else(String::new, |r| r.describe());
        f.push(Line::plain(format!("   [g] Game:   {game}")));
        let rated = if !self.may_rate(form) {
            "casual (rated: two players with keys, standard board)"
        } else if form.rated {
            "rated"
        } else {
            "casual"
        };
        f.push(Line::plain(format!("   [r] Rated:  {rated}")));
        f.push(Line::plain(format!(
            "   [c] Clock:  {}",
            crate::clock::describe(form.clock)
        )));
        let opening = match self.games.get(form.game) {
            Some(rules) if Opening::Swap2.fits(rules) => form.opening.describe(),
            _ => Opening::Standard.describe(),
        };
        f.push(Line::plain(format!("   [o] Opening: {opening}")));
        f.blank();
        f.push(Line::styled(
            format!(" They have {} seconds to answer.", INVITE_WAIT_SECS),
            Style::PLAIN.dim(),
        ));
        f.blank();
        match &self.message {
            Some(m) => f.push(Line::styled(
                format!(" ! {}", text::sanitize(m, 76)),
                Style::PLAIN.bold(),
            )),
            None => f.blank(),
        }
        f.push(Line::styled(
            " Enter sends the invitation, Esc goes back",
            Style::PLAIN.dim(),
        ));
        f
    }
}

/// How long an invitation waits (the lobby's rule, said on screens).
pub const INVITE_WAIT_SECS: u64 = 60;

/// The invitation in front of everything else on a lobby screen.
pub fn invitation_frame(name: &str, stats: &Stats, inv: &Invitation, more: usize) -> Frame {
    let mut f = header(name, stats);
    let mut who = text::sanitize(&inv.name, text::MAX_NAME_WIDTH);
    if let Some(r) = inv.rating {
        who.push_str(&format!(" ({r})"));
    }
    f.push(Line::styled(" An invitation", Style::PLAIN.bold()));
    f.blank();
    let mut l = Line::plain("   ");
    l.push(who, Style::PLAIN.bold());
    l.push(" invites you to a game:", Style::PLAIN);
    f.push(l);
    f.blank();
    let rated = if inv.rated { "rated" } else { "casual" };
    let opening = match inv.opening {
        Opening::Standard => "",
        Opening::Swap2 => ", swap2 opening",
    };
    f.push(Line::plain(format!(
        "   {}, {rated}, {}{opening}",
        inv.kind.name(),
        crate::clock::describe(inv.clock)
    )));
    f.blank();
    f.push(Line::styled(
        " [y] accept   [n] decline",
        Style::PLAIN.bold().reverse(),
    ));
    f.blank();
    if more > 0 {
        f.push(Line::styled(
            format!(" {more} more invitation(s) after this one"),
            Style::PLAIN.dim(),
        ));
    } else {
        f.blank();
    }
    f.push(Line::styled(
        format!(" It lapses if not answered within {INVITE_WAIT_SECS} seconds."),
        Style::PLAIN.dim(),
    ));
    f
}
