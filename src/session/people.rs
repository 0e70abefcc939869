//! Who is online, to invite one of them to a game; and an invitation
//! received, shown in front of every lobby screen.

use super::games::{PAGE, push_page};
use super::lobby::{Stats, header};
use super::records::window_start;
use crate::clock::TimeControl;
use crate::game::{GameKind, Rules};
use crate::lang::Lang;
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
    /// The language the person reads.
    lang: Lang,
}

/// Frame line of the first person row (for clicks).
const PEOPLE_TOP: usize = 5;

impl PeopleScreen {
    pub fn new(games: Vec<Rules>, lang: Lang) -> PeopleScreen {
        PeopleScreen {
            lang,
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
            Some(self.lang.text("people-that-is-you"))
        } else if !p.invitable {
            let name = text::sanitize(&p.name, text::MAX_NAME_WIDTH);
            Some(
                self.lang
                    .text_with("refusal-no-invitations", &[("name", name.into())]),
            )
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
                    self.message = Some(self.lang.text("people-rated-who"));
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
                            self.message = Some(self.lang.text("people-swap2-games"));
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
                self.message = Some(self.lang.text("people-how"));
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

    /// The list for a terminal `width` columns wide (what each is doing
    /// is shortened at a word to fit).
    pub fn frame(&self, name: &str, stats: &Stats, width: usize) -> Frame {
        let lang = self.lang;
        let mut f = header(lang, name, stats);
        if let Some(form) = &self.form {
            return self.form_frame(f, form);
        }
        let rows = self.rows.as_deref().unwrap_or(&[]);
        // The title, and under it what everyone is doing (counts).
        let (title, counts) = match &self.rows {
            None => (lang.text("people-asking"), String::new()),
            Some(_) => {
                let count = |f: fn(Doing) -> bool| rows.iter().filter(|p| f(p.doing)).count();
                (
                    lang.text_with("people-title", &[("count", rows.len().into())]),
                    lang.text_with(
                        "people-counts",
                        &[
                            ("lobby", count(|d| d == Doing::Lobby).into()),
                            ("seeking", count(|d| matches!(d, Doing::Seeking(_))).into()),
                            ("playing", count(|d| d == Doing::Playing).into()),
                            ("watching", count(|d| d == Doing::Watching).into()),
                        ],
                    ),
                )
            }
        };
        f.push(Line::styled(format!(" {title}"), Style::PLAIN.bold()));
        f.push(Line::styled(format!(" {counts}"), Style::PLAIN.dim()));
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
        let mut head = format!("   {}", padded(&lang.text("people-name"), 22));
        for kind in &kinds {
            let short = lang.text(match kind {
                GameKind::ConnectFour => "people-short-connect4",
                GameKind::Gomoku => "people-short-gomoku",
                GameKind::Renju => "people-short-renju",
            });
            head.push_str(&padded(&short, 7));
        }
        head.push_str(&lang.text("people-doing"));
        f.push(Line::styled(head, Style::PLAIN.dim()));
        debug_assert_eq!(f.height(), PEOPLE_TOP);
        let start = window_start(self.selected, rows.len(), PAGE);
        let mut shown = Vec::new();
        for p in rows.iter().skip(start).take(PAGE) {
            let mut who = text::sanitize(&p.name, text::MAX_NAME_WIDTH);
            if p.me {
                who.push_str(&lang.text("players-you"));
            }
            let mut row = padded(&who, 22);
            for kind in &kinds {
                let r = kind.rating_index().and_then(|i| p.ratings[i]);
                let r = match (r, p.account) {
                    (Some(r), _) => r.to_string(),
                    (None, true) => "1500".to_string(),
                    (None, false) => "-".to_string(),
                };
                row.push_str(&format!("{r:<7}"));
            }
            let mut doing = match p.doing {
                Doing::Lobby => lang.text("doing-lobby"),
                Doing::Seeking(kind) => lang.text_with(
                    "doing-seeking",
                    &[("game", super::words::game_name(lang, kind).into())],
                ),
                Doing::Hosting => lang.text("doing-hosting"),
                Doing::Playing => lang.text("doing-playing"),
                Doing::Watching => lang.text("doing-watching"),
            };
            if let Some(host) = &p.host {
                let on = lang.text_with("doing-on-host", &[("host", host.as_str().into())]);
                doing.push_str(&format!(" ({on})"));
            }
            if !p.invitable {
                doing.push_str(&format!(", {}", lang.text("doing-no-invitations")));
            }
            let room = width.saturating_sub(4 + text::width(&row)).clamp(12, 34);
            row.push_str(&text::shorten(&doing, room));
            shown.push(row);
        }
        let keys = lang.text(if self.invitable_me() {
            "people-keys-on"
        } else {
            "people-keys-off"
        });
        push_page(
            &mut f,
            shown,
            (self.selected, start, rows.len()),
            self.message.as_deref(),
            &format!(" {keys}"),
        );
        f
    }

    fn form_frame(&self, mut f: Frame, form: &Form) -> Frame {
        let lang = self.lang;
        let name = text::sanitize(&form.name, text::MAX_NAME_WIDTH);
        let title = lang.text_with("invite-title", &[("name", name.into())]);
        f.push(Line::styled(format!(" {title}"), Style::PLAIN.bold()));
        f.blank();
        let game = self
            .games
            .get(form.game)
            .map_or_else(String::new, |r| super::words::rules(lang, r));
        let field = |id: &str, value: String| {
            Line::plain(format!(
                "   {}",
                lang.text_with(id, &[("value", value.into())])
            ))
        };
        f.push(field("invite-game", game));
        let rated = lang.text(if !self.may_rate(form) {
            "invite-casual-only"
        } else if form.rated {
            "invite-rated"
        } else {
            "invite-casual"
        });
        f.push(field("invite-rated-field", rated));
        f.push(field("invite-clock", super::words::clock(lang, form.clock)));
        let opening = match self.games.get(form.game) {
            Some(rules) if Opening::Swap2.fits(rules) => form.opening,
            _ => Opening::Standard,
        };
        f.push(field(
            "invite-opening",
            super::words::opening(lang, opening),
        ));
        f.blank();
        let wait = lang.text_with("invite-wait", &[("seconds", INVITE_WAIT_SECS.into())]);
        f.push(Line::styled(format!(" {wait}"), Style::PLAIN.dim()));
        f.blank();
        match &self.message {
            Some(m) => f.push(Line::styled(
                format!(" ! {}", text::sanitize(m, 76)),
                Style::PLAIN.bold(),
            )),
            None => f.blank(),
        }
        f.push(Line::styled(
            format!(" {}", lang.text("invite-keys")),
            Style::PLAIN.dim(),
        ));
        f
    }
}

/// How long an invitation waits (the lobby's rule, said on screens).
pub const INVITE_WAIT_SECS: u64 = 60;

/// The invitation in front of everything else on a lobby screen.
pub fn invitation_frame(
    lang: Lang,
    name: &str,
    stats: &Stats,
    inv: &Invitation,
    more: usize,
) -> Frame {
    let mut f = header(lang, name, stats);
    let mut who = text::sanitize(&inv.name, text::MAX_NAME_WIDTH);
    if let Some(r) = inv.rating {
        who.push_str(&format!(" ({r})"));
    }
    f.push(Line::styled(
        format!(" {}", lang.text("invitation-title")),
        Style::PLAIN.bold(),
    ));
    f.blank();
    let invites = lang.text_with("invitation-from", &[("name", who.into())]);
    f.push(Line::styled(format!("   {invites}"), Style::PLAIN.bold()));
    f.blank();
    let mut what = vec![
        super::words::game_name(lang, inv.kind),
        lang.text(if inv.rated {
            "invite-rated"
        } else {
            "invite-casual"
        }),
        super::words::clock(lang, inv.clock),
    ];
    if inv.opening == Opening::Swap2 {
        what.push(lang.text("invitation-swap2"));
    }
    for line in text::wrap(&what.join(", "), 56) {
        f.push(Line::plain(format!("   {line}")));
    }
    f.blank();
    f.push(Line::styled(
        format!(" {}", lang.text("invitation-keys")),
        Style::PLAIN.bold().reverse(),
    ));
    f.blank();
    if more > 0 {
        let text = lang.text_with("invitation-more", &[("count", more.into())]);
        f.push(Line::styled(format!(" {text}"), Style::PLAIN.dim()));
    } else {
        f.blank();
    }
    let lapses = lang.text_with("invitation-lapses", &[("seconds", INVITE_WAIT_SECS.into())]);
    f.push(Line::styled(format!(" {lapses}"), Style::PLAIN.dim()));
    f
}

/// `s` padded with spaces to `width` terminal columns.
fn padded(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(text::width(s))))
}
