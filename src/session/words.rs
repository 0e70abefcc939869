//! Words about a game in the viewer's language: colours, players, how a
//! game ended. Made here, where screens are made (the table keeps facts:
//! seats, endings, points).

use fluent_templates::fluent_bundle::FluentValue;

use crate::game::Colour;
use crate::lang::Lang;
use crate::table::{Ending, GameView, Seat};

/// A game's name in `lang`: Connect Four, Vier Gewinnt, 四子棋.
pub fn game_name(lang: Lang, kind: crate::game::GameKind) -> String {
    use crate::game::GameKind;
    lang.text(match kind {
        GameKind::ConnectFour => "game-connect4",
        GameKind::Gomoku => "game-gomoku",
        GameKind::Renju => "game-renju",
    })
}

/// A stone colour's name: Red, Rot, 紅.
pub fn colour(lang: Lang, c: Colour) -> String {
    lang.text(match c {
        Colour::Red => "colour-red",
        Colour::Green => "colour-green",
        Colour::Yellow => "colour-yellow",
        Colour::Blue => "colour-blue",
    })
}

/// A seat's name: the player's, or the computer's with its level
/// (`Computer (easy)`, `電腦（簡單）`).
pub fn seat_name(lang: Lang, s: &Seat) -> String {
    match s.computer {
        Some(level) => lang.text_with(
            "player-computer-name",
            &[("level", FluentValue::from(self::level(lang, level)))],
        ),
        None => s.name.clone(),
    }
}

/// A player at a table with their colour: `Anna (Red)`, `Anna (Rot)`,
/// `Anna（紅）`; the computer with its level.
pub fn seat(lang: Lang, s: &Seat) -> String {
    let c = FluentValue::from(colour(lang, s.colour));
    match s.computer {
        Some(level) => lang.text_with(
            "player-computer",
            &[
                ("level", FluentValue::from(self::level(lang, level))),
                ("colour", c),
            ],
        ),
        None => lang.text_with(
            "player-named",
            &[("name", FluentValue::from(s.name.as_str())), ("colour", c)],
        ),
    }
}

/// How the game ended, in `lang`: `Anna (Red) wins with (0|0) (1|0) (2|0)
/// (3|0)`, `Anna (Rot) hat mit folgenden Steinen gewonnen: ...`; `None`
/// while it goes on.
pub fn ending(lang: Lang, g: &GameView) -> Option<String> {
    let player = |side: crate::game::Side| FluentValue::from(seat(lang, g.seat(side)));
    Some(match g.ending.as_ref()? {
        Ending::Line { winner, line } => lang.text_with(
            "end-line",
            &[
                ("player", player(*winner)),
                (
                    "points",
                    FluentValue::from(g.position.rules().format_points(line)),
                ),
            ],
        ),
        Ending::Draw => lang.text("end-full"),
        Ending::Resigned { loser } => lang.text_with(
            "end-resigned",
            &[("loser", player(*loser)), ("winner", player(loser.other()))],
        ),
        Ending::DrawAgreed => lang.text("end-agreed"),
        Ending::Flag { loser } => lang.text_with(
            "end-flag",
            &[("loser", player(*loser)), ("winner", player(loser.other()))],
        ),
        Ending::Forfeit { leaver, reason } => lang.text_with(
            "end-forfeit",
            &[
                ("loser", player(*leaver)),
                ("why", FluentValue::from(why(lang, reason))),
                ("winner", player(leaver.other())),
            ],
        ),
        Ending::Aborted { reason } => lang.text_with(
            "end-aborted",
            &[("reason", FluentValue::from(aborted(lang, g, reason)))],
        ),
    })
}

/// A game's rules in a few words: `Connect Four 7x6`, `Vier Gewinnt
/// 7x6`, `五子棋 15x15, exactly 5`.
pub fn rules(lang: Lang, r: &crate::game::Rules) -> String {
    let mut s = format!("{} {}x{}", game_name(lang, r.kind()), r.width(), r.height());
    let count = [("count", FluentValue::from(r.line()))];
    if r.line() != r.kind().standard_line() {
        s.push_str(&format!(", {}", lang.text_with("rules-in-a-line", &count)));
    }
    if r.is_exact() {
        s.push_str(&format!(", {}", lang.text_with("rules-exactly", &count)));
    }
    s
}

/// A time control in words: `5+3`, or `no clock`, `ohne Uhr`, `不計時`.
pub fn clock(lang: Lang, c: Option<crate::clock::TimeControl>) -> String {
    match c {
        Some(c) => c.to_string(),
        None => lang.text("clock-none"),
    }
}

/// How a game opens, in words.
pub fn opening(lang: Lang, o: crate::table::Opening) -> String {
    lang.text(match o {
        crate::table::Opening::Standard => "opening-standard",
        crate::table::Opening::Swap2 => "opening-swap2",
    })
}

/// Why someone left a game, in `lang`. The table keeps the reason as the
/// host's own words ([`crate::protocol::LeaveReason::text`], "stayed idle
/// for 60 s", "resigned"); a reason this host does not know (another
/// version's) is shown as it came.
pub fn why(lang: Lang, reason: &str) -> String {
    use crate::protocol::LeaveReason as R;
    let known = [
        (R::Left.text(), "why-left"),
        (R::Disconnected.text(), "why-disconnected"),
        (R::LostConnection.text(), "why-lost-connection"),
        (R::Idle.text(), "why-idle"),
        (R::Shutdown.text(), "why-shutdown"),
        (R::Replaced.text(), "why-replaced"),
        ("resigned", "why-resigned"),
        ("the computer failed", "why-computer-failed"),
    ];
    if let Some((_, id)) = known.iter().find(|(text, _)| *text == reason) {
        return lang.text(id);
    }
    if let Some(secs) = reason
        .strip_prefix("stayed idle for ")
        .and_then(|r| r.strip_suffix(" s"))
        .and_then(|n| n.parse::<u64>().ok())
    {
        return lang.text_with("why-idle-for", &[("seconds", FluentValue::from(secs))]);
    }
    reason.to_string()
}

/// Why a game was stopped without a result, in `lang`: a player who left
/// or resigned before both had moved (named with their colour), or the
/// host's reason.
pub fn aborted(lang: Lang, g: &GameView, reason: &str) -> String {
    const EARLY: &str = " before both players had moved";
    if let Some(rest) = reason.strip_suffix(EARLY) {
        for side in crate::game::Side::BOTH {
            let s = g.seat(side);
            if let Some(did) = rest
                .strip_prefix(&s.label())
                .and_then(|d| d.strip_prefix(' '))
            {
                return lang.text_with(
                    "end-aborted-early",
                    &[
                        ("player", FluentValue::from(seat(lang, s))),
                        ("why", FluentValue::from(why(lang, did))),
                    ],
                );
            }
        }
    }
    why(lang, reason)
}

/// A computer level's name: `medium`, `mittel`, `中等`; Gomoku's by number.
pub fn level(lang: Lang, l: crate::engine::Level) -> String {
    use crate::engine::Level;
    match l {
        Level::Easy => lang.text("level-easy"),
        Level::Medium => lang.text("level-medium"),
        Level::Hard => lang.text("level-hard"),
        Level::Perfect => lang.text("level-perfect"),
        Level::Strong => lang.text("level-strong"),
        Level::Gomoku(g) => {
            lang.text_with("level-number", &[("number", FluentValue::from(g.number()))])
        }
    }
}

/// What a level plays like, for the level menu.
pub fn level_detail(lang: Lang, kind: crate::game::GameKind, l: crate::engine::Level) -> String {
    use crate::engine::Level;
    use crate::game::GameKind;
    let id = match (kind, l) {
        (GameKind::ConnectFour, Level::Easy) => "level-c4-easy",
        (GameKind::ConnectFour, Level::Medium) => "level-c4-medium",
        (GameKind::ConnectFour, Level::Hard) => "level-c4-hard",
        (GameKind::ConnectFour, Level::Perfect) => "level-c4-perfect",
        (GameKind::ConnectFour, _) => return String::new(),
        (_, l) => match l.in_game(kind) {
            Some(Level::Gomoku(g)) => match g.number() {
                1 => "level-gomoku-1",
                2 => "level-gomoku-2",
                3 => "level-gomoku-3",
                4 => "level-gomoku-4",
                5 => "level-gomoku-5",
                6 => "level-gomoku-6",
                7 => "level-gomoku-7",
                _ => "level-gomoku-8",
            },
            _ => return String::new(),
        },
    };
    lang.text(id)
}

/// Why a move is illegal, in `lang` (renju's forbidden points named by
/// the first player's colour, `first`).
pub fn illegal(lang: Lang, e: &crate::game::IllegalMoveError, first: Colour) -> String {
    use crate::game::IllegalMoveError as E;
    let v = |s: &str| FluentValue::from(s.to_string());
    match e {
        E::GameOver => lang.text("illegal-over"),
        E::ColumnFull(c) => lang.text_with("illegal-column-full", &[("column", v(&c.to_string()))]),
        E::Occupied(p) => lang.text_with("illegal-occupied", &[("point", v(p))]),
        E::OffBoard(p) => lang.text_with("illegal-off-board", &[("point", v(p))]),
        E::Forbidden { point, why } => lang.text_with(
            "forbidden-point",
            &[
                ("point", v(point)),
                ("colour", FluentValue::from(colour(lang, first))),
                ("why", FluentValue::from(forbidden(lang, *why))),
            ],
        ),
        E::NotLanding {
            column,
            lands,
            asked,
        } => lang.text_with(
            "illegal-not-landing",
            &[
                ("column", v(&column.to_string())),
                ("lands", v(lands)),
                ("asked", v(asked)),
            ],
        ),
    }
}

/// Why a table refused a move or an offer, in `lang`.
pub fn table_error(lang: Lang, e: &crate::table::TableError, first: Colour) -> String {
    use crate::table::TableError as E;
    match e {
        E::NotYourTurn(who) => lang.text_with(
            "not-your-turn",
            &[("player", FluentValue::from(who.as_str()))],
        ),
        E::Refused(r) => table_refused(lang, *r),
        E::Illegal(e) => illegal(lang, e, first),
    }
}

/// How to type a move in this game: `A-G or 1-7`, `A-G oder 1-7`; for
/// Gomoku, a point like h8.
pub fn move_hint(lang: Lang, r: &crate::game::Rules) -> String {
    match r.kind() {
        crate::game::GameKind::ConnectFour => column_range(lang, r),
        _ => lang.text("move-hint-point"),
    }
}

fn column_range(lang: Lang, r: &crate::game::Rules) -> String {
    let last = char::from(b'A' + r.width().saturating_sub(1));
    lang.text_with(
        "move-columns",
        &[
            ("last", FluentValue::from(last.to_string())),
            ("count", FluentValue::from(r.width())),
        ],
    )
}

/// Why typed text is no move, in `lang` (the text quoted as it was, the
/// ranges from the rules).
pub fn parse_error(lang: Lang, e: &crate::game::ParseMoveError, r: &crate::game::Rules) -> String {
    use crate::game::ParseMoveError as E;
    let text = |t: &str| FluentValue::from(t.to_string());
    let range = || match r.kind() {
        crate::game::GameKind::ConnectFour => column_range(lang, r),
        _ => lang.text_with(
            "move-points",
            &[
                (
                    "last",
                    FluentValue::from(char::from(b'a' + r.width().saturating_sub(1)).to_string()),
                ),
                ("rows", FluentValue::from(r.height())),
            ],
        ),
    };
    match e {
        E::Empty => lang.text("move-empty"),
        E::UnknownColumn { text: t, .. } => lang.text_with(
            "move-unknown-column",
            &[("text", text(t)), ("range", FluentValue::from(range()))],
        ),
        E::OffBoard { text: t, .. } => lang.text_with(
            "move-off-board",
            &[("text", text(t)), ("range", FluentValue::from(range()))],
        ),
        E::NotUnderstood { text: t, .. } => lang.text_with(
            "move-not-understood",
            &[
                ("text", text(t)),
                ("hint", FluentValue::from(move_hint(lang, r))),
            ],
        ),
    }
}

/// A renju forbidden move's kind: double three, Doppeldrei, 雙三.
pub fn forbidden(lang: Lang, f: crate::game::renju::Forbidden) -> String {
    use crate::game::renju::Forbidden as F;
    lang.text(match f {
        F::DoubleThree => "forbidden-double-three",
        F::DoubleFour => "forbidden-double-four",
        F::Overline => "forbidden-overline",
    })
}

/// Why a host will not do what was asked, in `lang`; names in it are
/// another host's (sanitised and bounded here).
pub fn refusal(lang: Lang, r: &crate::protocol::Refusal) -> String {
    use crate::protocol::Refusal as R;
    let name = |n: &str| FluentValue::from(crate::text::sanitize(n, 40));
    let with_name = |id: &str, n: &str| lang.text_with(id, &[("name", name(n))]);
    let text = match r {
        R::NotUnderstood => lang.text("refusal-not-understood"),
        R::ShuttingDown => lang.text("refusal-shutting-down"),
        R::GameNotOffered => lang.text("refusal-game-not-offered"),
        R::PlayerLeft => lang.text("refusal-player-left"),
        R::NoInvitations(n) => with_name("refusal-no-invitations", n),
        R::Playing(n) => with_name("refusal-playing", n),
        R::Watching(n) => with_name("refusal-watching", n),
        R::Hosting(n) => with_name("refusal-hosting", n),
        R::InvitedAlready(n) => with_name("refusal-invited-already", n),
        R::TooManyInvitations(k) => lang.text_with(
            "refusal-too-many-invitations",
            &[("count", FluentValue::from(*k))],
        ),
        R::ManyInvitationsWaiting(n) => with_name("refusal-many-invitations-waiting", n),
        R::InvitationClosed => lang.text("refusal-invitation-closed"),
        R::NoLongerFree(n) => with_name("refusal-no-longer-free", n),
        R::HasLeft(n) => with_name("refusal-has-left", n),
        R::FriendLeft => lang.text("refusal-friend-left"),
        R::GameEnded => lang.text("refusal-game-ended"),
        R::Private => lang.text("refusal-private"),
        R::YouLeft => lang.text("refusal-you-left"),
        R::AtAnotherTable => lang.text("refusal-at-another-table"),
        R::NoSeat => lang.text("refusal-no-seat"),
        R::RoomPlaying(code) => lang.text_with(
            "refusal-room-playing",
            &[(
                "code",
                FluentValue::from(crate::text::sanitize_quote(code, 8)),
            )],
        ),
        R::NoSuchRoom(code) => lang.text_with(
            "refusal-no-such-room",
            &[(
                "code",
                FluentValue::from(crate::text::sanitize_quote(code, 8)),
            )],
        ),
        R::CannotRun => lang.text("refusal-cannot-run"),
        R::GameMoved => lang.text("refusal-game-moved"),
        R::HostNotAnswering => lang.text("refusal-host-not-answering"),
        R::ClaimEarly => lang.text("claim-early"),
        R::OwnRoom => lang.text("refusal-own-room"),
        R::YouPlayThere => lang.text("refusal-you-play-there"),
        R::InviteYourself => lang.text("refusal-invite-yourself"),
        R::NameReserved => lang.text("refusal-name-reserved"),
        R::NameTaken(taken) => lang.text_with(
            "refusal-name-taken",
            &[("name", name(&taken.asked)), ("given", name(&taken.given))],
        ),
        R::FullOfWatchers(k) => lang.text_with(
            "refusal-full-of-watchers",
            &[("count", FluentValue::from(*k))],
        ),
        R::ResumeOver => lang.text("refusal-resume-over"),
        // A table's answer outside a game screen (the screen itself words
        // it with its own colours: `Session::refused`; here the first
        // player has the default colour).
        R::Table(e) => table_error(lang, e, Colour::Red),
        R::NoSuchLevel(game) => lang.text_with(
            "refusal-no-such-level",
            &[(
                "game",
                FluentValue::from(
                    crate::game::GameKind::ALL
                        .into_iter()
                        .find(|k| k.id() == game)
                        .map_or_else(|| crate::text::sanitize(game, 20), |k| game_name(lang, k)),
                ),
            )],
        ),
        R::InvitationsPerMinute(n) => lang.text_with(
            "refusal-invitations-per-minute",
            &[("count", FluentValue::from(*n))],
        ),
        R::HostDidNotAnswer(host) => lang.text_with(
            "refusal-host-did-not-answer",
            &[("host", FluentValue::from(crate::text::sanitize(host, 40)))],
        ),
        R::RoomHostDidNotAnswer(code) => lang.text_with(
            "refusal-room-host-did-not-answer",
            &[(
                "code",
                FluentValue::from(crate::text::sanitize_quote(code, 8)),
            )],
        ),
        R::GameDidNotStart(host) => lang.text_with(
            "refusal-game-did-not-start",
            &[("host", FluentValue::from(crate::text::sanitize(host, 40)))],
        ),
        R::Said(text) => text.clone(),
    };
    crate::text::sanitize(&text, 200)
}

/// What the host tells a person unasked, in `lang`; names in it are
/// another host's, perhaps (sanitised and bounded here).
pub fn news(lang: Lang, n: &crate::protocol::News) -> String {
    use crate::protocol::News as N;
    use crate::protocol::news::LapseWhy;
    let name = |n: &str| FluentValue::from(crate::text::sanitize(n, 40));
    let text = match n {
        N::InvitationSent(who) => lang.text_with(
            "news-invitation-sent",
            &[
                ("name", name(who)),
                (
                    "seconds",
                    FluentValue::from(crate::protocol::news::INVITATION_WAIT_SECS),
                ),
            ],
        ),
        N::NotAnswered(who) => lang.text_with("news-not-answered", &[("name", name(who))]),
        N::Declined(who) => lang.text_with("news-declined", &[("name", name(who))]),
        N::Lapsed(l) => lang.text_with(
            match l.why {
                LapseWhy::StartedAnotherGame => "news-lapsed-other-game",
                LapseWhy::NoInvitationsNow => "news-lapsed-no-invitations",
                LapseWhy::Left => "news-lapsed-left",
            },
            &[("name", name(&l.name))],
        ),
        N::GameElsewhere => lang.text("news-game-elsewhere"),
        N::NotStarted => lang.text("news-not-started"),
        N::OpponentLeftEarly => lang.text("news-opponent-left-early"),
        N::HostLost => lang.text("news-host-lost"),
        N::HostSilent => lang.text("news-host-silent"),
        N::Refused(why) => refusal(lang, why),
        N::NotDelivered(host) => lang.text_with(
            "news-not-delivered",
            &[("host", FluentValue::from(crate::text::sanitize(host, 40)))],
        ),
        N::Said(text) => text.clone(),
    };
    crate::text::sanitize(&text, 200)
}

/// What a table will not do now, in `lang`.
pub fn table_refused(lang: Lang, r: crate::table::Refused) -> String {
    use crate::table::Refused as R;
    lang.text(match r {
        R::ChooseSideFirst => "table-choose-side-first",
        R::NoSideToChoose => "table-no-side-to-choose",
        R::StonesPlaced => "table-stones-placed",
        R::DuringSwap2 => "table-not-during-swap2",
        R::ComputerPlaysOn => "table-computer-plays-on",
        R::TakebackWithU => "table-takeback-with-u",
        R::OfferWaiting => "table-offer-waiting",
        R::AnswerFirst => "table-answer-first",
        R::NoTakebacksRated => "no-takebacks-rated",
        R::NoMoveToTakeBack => "table-no-move-to-take-back",
        R::OpeningStays => "table-opening-stays",
        R::OfferedAlready => "table-offered-already",
        R::NoOffer => "table-no-offer",
        R::UndoComputerOnly => "table-undo-computer-only",
        R::GameOver => "table-game-over",
    })
}

/// The day's puzzle in words: its game and task ("Connect Four, win in
/// 2"), made in the reader's language ([`DailyWords::words`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyWords {
    pub kind: Option<crate::game::GameKind>,
    /// `None`: hold (the only move); `Some(None)`: a win; `Some(n)`: a
    /// win in `n`.
    pub win: Option<Option<i64>>,
}

impl DailyWords {
    pub fn words(&self, lang: crate::lang::Lang) -> String {
        let game = self.kind.map(|k| game_name(lang, k)).unwrap_or_default();
        let what = match self.win {
            None => lang.text("daily-hold"),
            Some(Some(n)) => lang.text_with("daily-win-in", &[("count", n.into())]),
            Some(None) => lang.text("daily-win"),
        };
        lang.text_with(
            "daily-puzzle",
            &[("game", game.into()), ("task", what.into())],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Move, Rules, Side};

    /// A Connect Four game the first player won in the bottom row.
    fn won() -> GameView {
        let mut t = crate::table::Table::new(
            Rules::connect_four(),
            [
                Seat::human("Anna", Colour::Red),
                Seat::human("Ben", Colour::Yellow),
            ],
        );
        for (i, x) in [0, 0, 1, 1, 2, 2, 3].into_iter().enumerate() {
            let side = if i % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            t.play(side, Move::Column(x)).unwrap();
        }
        t.view().clone()
    }

    #[test]
    fn the_winning_line_reads_in_each_language() {
        let g = won();
        assert_eq!(
            ending(Lang::En, &g).unwrap(),
            "Anna (Red) wins with (0|0) (1|0) (2|0) (3|0)"
        );
        assert_eq!(
            ending(Lang::De, &g).unwrap(),
            "Anna (Rot) hat mit folgenden Steinen gewonnen: (0|0) (1|0) (2|0) (3|0)"
        );
        assert_eq!(
            ending(Lang::ZhTw, &g).unwrap(),
            "Anna（紅） 以 (0|0) (1|0) (2|0) (3|0) 連線獲勝"
        );
        // English is what the table itself says.
        assert_eq!(ending(Lang::En, &g), g.ending_text());
    }

    /// Every refusal and piece of news a host sends is worded in every
    /// language (none left in English but words from an older host).
    #[test]
    fn every_refusal_and_news_is_worded_in_every_language() {
        use crate::protocol::news::{Lapse, LapseWhy};
        use crate::protocol::refusal::NameTaken;
        use crate::protocol::{News, Refusal as R};
        let n = || "Zoë".to_string();
        let refusals = [
            R::NotUnderstood,
            R::ShuttingDown,
            R::GameNotOffered,
            R::PlayerLeft,
            R::NoInvitations(n()),
            R::Playing(n()),
            R::Watching(n()),
            R::Hosting(n()),
            R::InvitedAlready(n()),
            R::TooManyInvitations(3),
            R::ManyInvitationsWaiting(n()),
            R::InvitationClosed,
            R::NoLongerFree(n()),
            R::HasLeft(n()),
            R::FriendLeft,
            R::GameEnded,
            R::Private,
            R::YouLeft,
            R::AtAnotherTable,
            R::NoSeat,
            R::RoomPlaying("K7Q2PX".into()),
            R::NoSuchRoom("K7Q2PX".into()),
            R::CannotRun,
            R::GameMoved,
            R::HostNotAnswering,
            R::OwnRoom,
            R::YouPlayThere,
            R::InviteYourself,
            R::NameReserved,
            R::NameTaken(Box::new(NameTaken {
                asked: n(),
                given: "Zoë2".into(),
            })),
            R::FullOfWatchers(50),
            R::ResumeOver,
            R::ClaimEarly,
            R::Table(Box::new(crate::table::Refused::ComputerPlaysOn.into())),
            R::NoSuchLevel("gomoku".into()),
            R::InvitationsPerMinute(10),
            R::HostDidNotAnswer("host-b".into()),
            R::RoomHostDidNotAnswer("K7Q2PX".into()),
            R::GameDidNotStart("host-b".into()),
        ];
        // A new refusal fails to compile here until it is in the list.
        for r in &refusals {
            match r {
                R::NotUnderstood
                | R::ShuttingDown
                | R::GameNotOffered
                | R::PlayerLeft
                | R::NoInvitations(_)
                | R::Playing(_)
                | R::Watching(_)
                | R::Hosting(_)
                | R::InvitedAlready(_)
                | R::TooManyInvitations(_)
                | R::ManyInvitationsWaiting(_)
                | R::InvitationClosed
                | R::NoLongerFree(_)
                | R::HasLeft(_)
                | R::FriendLeft
                | R::GameEnded
                | R::Private
                | R::YouLeft
                | R::AtAnotherTable
                | R::NoSeat
                | R::RoomPlaying(_)
                | R::NoSuchRoom(_)
                | R::CannotRun
                | R::GameMoved
                | R::HostNotAnswering
                | R::OwnRoom
                | R::YouPlayThere
                | R::InviteYourself
                | R::NameReserved
                | R::NameTaken(_)
                | R::FullOfWatchers(_)
                | R::ResumeOver
                | R::ClaimEarly
                | R::Table(_)
                | R::NoSuchLevel(_)
                | R::InvitationsPerMinute(_)
                | R::HostDidNotAnswer(_)
                | R::RoomHostDidNotAnswer(_)
                | R::GameDidNotStart(_) => {}
                R::Said(_) => unreachable!("not in the list"),
            }
        }
        let news = [
            News::InvitationSent(n()),
            News::NotAnswered(n()),
            News::Declined(n()),
            News::Lapsed(Box::new(Lapse {
                name: n(),
                why: LapseWhy::Left,
            })),
            News::GameElsewhere,
            News::NotStarted,
            News::OpponentLeftEarly,
            News::HostLost,
            News::HostSilent,
            News::Refused(Box::new(R::GameEnded)),
            News::NotDelivered("host-b".into()),
        ];
        let texts = refusals
            .iter()
            .map(|r| (format!("{r:?}"), Lang::ALL.map(|l| refusal(l, r))))
            .chain(
                news.iter()
                    .map(|x| (format!("{x:?}"), Lang::ALL.map(|l| super::news(l, x)))),
            );
        for (what, [en, de, zh]) in texts {
            for t in [&en, &de, &zh] {
                assert!(
                    !t.is_empty() && !t.contains('{') && !t.contains("Unknown"),
                    "{what}: {t}"
                );
            }
            assert_ne!(en, de, "{what} in German");
            assert_ne!(en, zh, "{what} in Chinese");
        }
        assert_eq!(
            refusal(Lang::De, &refusals[33]),
            "der Computer spielt weiter"
        );
        assert_eq!(
            refusal(Lang::ZhTw, &refusals[34]),
            "電腦在五子棋沒有這個難度：請從清單中選擇"
        );
    }
}
