//! Who is online, to invite one of them to a game; and an invitation
//! received, shown in front of every lobby screen.

use super::games::{PAGE, push_page};
use super::lobby::{Stats, header};
use super::records::window_start;
use crate::clock::TimeControl;
use crate::game::{GameKind, Rules};
use crate::protocol::{Challenge, Doing, Invitation, Person};
use crate::table::Opening;
use crate::term::input::Key;
use crate::term::screen::{Frame, Line, Style};
use crate::text;

/// What a key on the who-is-online screen asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeopleAction {
    None,
    Lobby,
    Refresh,
    /// Take invitations (or not).
    SetInvitations(bool),
    Challenge(Challenge),
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
                    return PeopleAction::Challenge(Challenge {
                        to: form.to,
                        kind: rules.kind(),
                        rated: form.rated && self.may_rate(&form),
                        clock: form.clock,
                        opening,
                    });
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
