//! Helpers for the lobby core's unit tests.

pub(super) use super::*;
pub(super) use crate::rng::make_rng;

pub(crate) const C4: GameKind = GameKind::ConnectFour;

pub(crate) const GOMOKU: GameKind = GameKind::Gomoku;

pub(crate) fn lobby(seed: u64) -> LobbyState {
    LobbyState::new(
        vec![Rules::connect_four(), Rules::gomoku()],
        make_rng(Some(seed)),
    )
}

pub(crate) fn arrive(
    s: &mut LobbyState,
    id: SessionId,
    name: Option<&str>,
    key: Option<&str>,
) -> String {
    let (name, effects) = s.join(Arrival {
        id,
        name: name.map(str::to_string),
        account: None,
        identity: key.map(str::to_string),
    });
    assert_eq!(effects, vec![], "nothing to tell a plain arrival");
    name
}

pub(crate) fn named(s: &mut LobbyState, id: SessionId, name: &str) {
    assert_eq!(arrive(s, id, Some(name), None), name);
}

pub(crate) fn tell(to: SessionId, notice: Notice) -> Effect {
    Effect::Tell { to, notice }
}

pub(crate) fn error(to: SessionId, why: crate::protocol::Refusal) -> Effect {
    tell(to, Notice::LobbyError(why))
}

/// The room and seats of the one room these effects open.
pub(crate) fn opened(effects: &[Effect]) -> (RoomId, Rules, [Occupant; 2]) {
    let rooms: Vec<_> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::OpenRoom(NewTable {
                room, rules, seats, ..
            }) => Some((*room, *rules, seats.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(rooms.len(), 1, "one room opens: {effects:?}");
    rooms.into_iter().next().unwrap()
}

pub(crate) fn seated(seats: &[Occupant; 2]) -> Vec<Option<SessionId>> {
    let mut ids: Vec<_> = seats.iter().map(Occupant::id).collect();
    ids.sort();
    ids
}

pub(crate) fn quick(s: &mut LobbyState, id: SessionId, kind: GameKind) -> Vec<Effect> {
    s.handle(Command::QuickMatch { id, kind })
}

pub(crate) fn create(s: &mut LobbyState, id: SessionId) -> String {
    match s
        .handle(Command::CreateRoom {
            id,
            kind: C4,
            rated: false,
        })
        .as_slice()
    {
        [
            Effect::Tell {
                to,
                notice: Notice::RoomCode(code),
            },
        ] if *to == id => code.clone(),
        other => panic!("no code: {other:?}"),
    }
}

pub(crate) fn join_code(
    s: &mut LobbyState,
    id: SessionId,
    code: &str,
    from_login: bool,
) -> Vec<Effect> {
    s.handle(Command::JoinRoom {
        id,
        code: code.into(),
        from_login,
    })
}

pub(crate) fn arrive_replacing(s: &mut LobbyState, id: SessionId, key: &str) {
    let (_, effects) = s.join(Arrival {
        id,
        name: None,
        account: None,
        identity: Some(key.into()),
    });
    assert!(effects.contains(&Effect::Forget { id: 1 }), "{effects:?}");
}

/// A player with an account and a Connect Four rating.
pub(crate) fn rated_player(s: &mut LobbyState, id: SessionId, name: &str, c4: u32) {
    let (given, _) = s.join(Arrival {
        id,
        name: Some(name.into()),
        identity: Some(format!("SHA256:{name}")),
        account: Some(Player {
            account: format!("acct-{name}"),
            ratings: [Some(c4), None],
        }),
    });
    assert_eq!(given, name);
}

/// What joining as this account (with another key) asks of rooms.
pub(crate) fn rejoins(s: &mut LobbyState, id: SessionId, account: &str) -> Vec<Effect> {
    let (_, effects) = s.join(Arrival {
        id,
        name: None,
        identity: Some(format!("SHA256:other-{id}")),
        account: Some(Player {
            account: account.into(),
            ratings: [None, None],
        }),
    });
    effects
        .into_iter()
        .filter(|e| matches!(e, Effect::Rejoin { .. }))
        .collect()
}

pub(crate) fn rated_of(effects: &[Effect]) -> bool {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::OpenRoom(NewTable { rated, .. }) => Some(*rated),
            _ => None,
        })
        .expect("a room opened")
}

/// `host` opens a friend room (rated or not), `guest` joins it: whether
/// the game is rated.
pub(crate) fn friend_room(
    s: &mut LobbyState,
    host: SessionId,
    guest: SessionId,
    rated: bool,
) -> bool {
    s.handle(Command::CreateRoom {
        id: host,
        kind: C4,
        rated,
    });
    let code = s.hosted.keys().next().unwrap().clone();
    rated_of(&s.handle(Command::JoinRoom {
        id: guest,
        code,
        from_login: false,
    }))
}

/// The effects but the news of who waits nearest ([`Notice::Waiting`]).
pub(crate) fn no_waiting_news(effects: Vec<Effect>) -> Vec<Effect> {
    effects
        .into_iter()
        .filter(|e| {
            !matches!(
                e,
                Effect::Tell {
                    notice: Notice::Waiting { .. },
                    ..
                }
            )
        })
        .collect()
}

/// What each seeker was told of who waits nearest, by session.
pub(crate) fn waiting_news(effects: &[Effect]) -> Vec<(SessionId, Option<Nearest>)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Tell {
                to,
                notice: Notice::Waiting { kind: C4, nearest },
            } => Some((*to, *nearest)),
            _ => None,
        })
        .collect()
}

pub(crate) fn presence_wait(gap: u32, full: Duration) -> Duration {
    crate::presence::wait_for_gap(gap, full)
}

pub(crate) fn invite(s: &mut LobbyState, id: SessionId, to: SessionId) -> Vec<Effect> {
    s.handle(Command::Challenge {
        id,
        challenge: crate::protocol::Challenge {
            to,
            kind: C4,
            rated: false,
            clock: Some(TimeControl::new(3, 2)),
            opening: Opening::Standard,
        },
    })
}

pub(crate) fn invited(effects: &[Effect], to: SessionId) -> Option<Invitation> {
    effects.iter().find_map(|e| match e {
        Effect::Tell {
            to: t,
            notice: Notice::Invited(i),
        } if *t == to => Some(i.clone()),
        _ => None,
    })
}

pub(crate) fn said(effects: &[Effect], to: SessionId) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Tell {
                to: t,
                notice: Notice::Told(m),
            } if *t == to => Some(m.to_string()),
            Effect::Tell {
                to: t,
                notice: Notice::LobbyError(r),
            } if *t == to => Some(r.to_string()),
            _ => None,
        })
        .collect()
}

pub(crate) fn visitor(name: &str) -> Visitor {
    Visitor {
        host: "host-b".into(),
        session: 9,
        name: name.into(),
        account: None,
        rating: None,
        colour: Some(Colour::Blue),
        token: "t".into(),
    }
}

/// An invitation's answer: the invited person says yes to `from`.
pub(crate) fn accept(s: &mut LobbyState, id: SessionId, from: SessionId) -> Vec<Effect> {
    s.handle(Command::AnswerChallenge {
        id,
        from,
        accept: true,
    })
}
