//! Invitations (challenges): sending one, bounded per pair, per sender
//! and per recipient; answering; lapsing; withdrawing them when either
//! side leaves or sits down; and invitations to and from other hosts.

use super::*;

/// Why `name` cannot be invited now (taking invitations or not, doing
/// `doing`), if they cannot.
pub(super) fn not_free(name: &str, invitable: bool, doing: Doing) -> Option<Refusal> {
    let name = name.to_string();
    if !invitable {
        return Some(Refusal::NoInvitations(name));
    }
    match doing {
        Doing::Lobby | Doing::Seeking(_) => None,
        Doing::Playing => Some(Refusal::Playing(name)),
        Doing::Watching => Some(Refusal::Watching(name)),
        Doing::Hosting => Some(Refusal::Hosting(name)),
    }
}

/// How long an invitation waits for its answer.
pub const INVITATION_LAPSE: Duration = Duration::from_secs(60);

/// Invitations one person may send a minute.
pub const INVITATIONS_PER_MINUTE: usize = 5;

/// Invitations of one sender waiting for answers at once.
pub const OPEN_PER_SENDER: usize = 3;

/// Invitations waiting for one recipient at once.
pub const OPEN_PER_RECIPIENT: usize = 10;

/// An invitation waiting for its answer: the lobby's own note of it
/// (who invited whom to what, and since when). It never leaves the lobby;
/// what the recipient is sent is an [`Invitation`].
#[derive(Debug, Clone)]
pub(super) struct Invite {
    pub(super) from: SessionId,
    pub(super) to: SessionId,
    pub(super) kind: GameKind,
    pub(super) rated: bool,
    pub(super) clock: Option<TimeControl>,
    pub(super) opening: Opening,
    pub(super) at: Instant,
}

impl LobbyState {
    /// Invitations nobody answered by `now` lapse.
    pub(super) fn lapse_invites(&mut self, now: Instant) {
        let (lapsed, open): (Vec<Invite>, Vec<Invite>) = std::mem::take(&mut self.invites)
            .into_iter()
            .partition(|i| now.saturating_duration_since(i.at) >= INVITATION_LAPSE);
        self.invites = open;
        for i in lapsed {
            let name = self.name_of(i.to);
            self.tell(
                i.from,
                Notice::Told(crate::protocol::News::NotAnswered(name)),
            );
            self.tell(i.to, Notice::InvitationGone { from: i.from });
        }
    }

    /// `id` invites `to` to a game, within the bounds: one open invitation
    /// per pair, [`OPEN_PER_SENDER`] and [`INVITATIONS_PER_MINUTE`] per
    /// sender, [`OPEN_PER_RECIPIENT`] per recipient.
    pub(super) fn challenge(&mut self, id: SessionId, challenge: Challenge) {
        let Challenge {
            to,
            kind,
            rated,
            clock,
            opening,
        } = challenge;
        let now = self.now;
        let refuse =
            |s: &mut Self, why: crate::protocol::Refusal| s.tell(id, Notice::LobbyError(why));
        if to == id {
            return refuse(self, crate::protocol::Refusal::InviteYourself);
        }
        let Some(rules) = self.offered(id, kind) else {
            return;
        };
        // Who they are and what they do (someone on another host as
        // their host last said; it has the last word).
        let (name, invitable, doing, account) = match self.members.get(&to) {
            Some(t) => (
                t.name.clone(),
                t.invitable,
                t.doing(),
                t.rated(&rules).is_some(),
            ),
            None => {
                let listed = self.afar.get(&to).and_then(|a| {
                    self.remote_people
                        .iter()
                        .find(|p| p.host.as_ref() == Some(&a.host) && p.id == a.session)
                });
                match listed {
                    Some(p) => (
                        p.name.clone(),
                        p.invitable,
                        p.doing,
                        p.account && rated_rules(&rules),
                    ),
                    None => return refuse(self, crate::protocol::Refusal::PlayerLeft),
                }
            }
        };
        if let Some(why) = not_free(&name, invitable, doing) {
            return refuse(self, why);
        }
        if self.invites.iter().any(|i| i.from == id && i.to == to) {
            return refuse(self, crate::protocol::Refusal::InvitedAlready(name));
        }
        if self.invites.iter().filter(|i| i.from == id).count() >= OPEN_PER_SENDER {
            return refuse(
                self,
                crate::protocol::Refusal::TooManyInvitations(OPEN_PER_SENDER),
            );
        }
        if self.invites.iter().filter(|i| i.to == to).count() >= OPEN_PER_RECIPIENT {
            return refuse(self, crate::protocol::Refusal::ManyInvitationsWaiting(name));
        }
        let Some(me) = self.members.get_mut(&id) else {
            return;
        };
        while me
            .invited_at
            .front()
            .is_some_and(|&t| now.saturating_duration_since(t) >= Duration::from_secs(60))
        {
            me.invited_at.pop_front();
        }
        if me.invited_at.len() >= INVITATIONS_PER_MINUTE {
            return refuse(
                self,
                crate::protocol::Refusal::InvitationsPerMinute(INVITATIONS_PER_MINUTE),
            );
        }
        me.invited_at.push_back(now);
        let from_name = me.name.clone();
        // Rated only between two accounts on the standard board.
        let rated = rated
            && self
                .members
                .get(&id)
                .and_then(|m| m.rated(&rules))
                .is_some()
            && account;
        let rating = if rated {
            self.members.get(&id).and_then(|m| m.rated(&rules))
        } else {
            None
        };
        self.invites.push(Invite {
            from: id,
            to,
            kind,
            rated,
            clock,
            opening,
            at: now,
        });
        let from_account = self
            .members
            .get(&id)
            .is_some_and(|m| m.seeker(Some(&rules)).account.is_some());
        let invitation = Invitation {
            from: id,
            name: from_name,
            account: from_account,
            rating,
            kind,
            rated,
            clock,
            opening,
        };
        match self.afar.get(&to) {
            Some(a) => {
                self.out.push(Effect::Across(Ask::Invite {
                    host: a.host.clone(),
                    session: a.session,
                    invitation,
                }));
            }
            None => self.tell(to, Notice::Invited(invitation)),
        }
        self.tell(
            id,
            Notice::Told(crate::protocol::News::InvitationSent(name)),
        );
    }

    /// The answer of `id` to the invitation from `from`.
    pub(super) fn answer_challenge(&mut self, id: SessionId, from: SessionId, accept: bool) {
        let Some(i) = self
            .invites
            .iter()
            .position(|i| i.from == from && i.to == id)
        else {
            self.tell(
                id,
                Notice::LobbyError(crate::protocol::Refusal::InvitationClosed),
            );
            return;
        };
        let invite = self.invites.swap_remove(i);
        let name = self.name_of(id);
        if let Some(a) = self.afar.get(&from).cloned() {
            return self.answer_from_afar(id, a, invite, accept);
        }
        if !accept {
            self.tell(from, Notice::Told(crate::protocol::News::Declined(name)));
            return;
        }
        let free = |m: Option<&Member>| {
            m.is_some_and(|m| matches!(m.status, Status::Idle | Status::Seeking(_)))
        };
        if !free(self.members.get(&from)) {
            let inviter = self.name_of(from);
            self.tell(
                id,
                Notice::LobbyError(crate::protocol::Refusal::NoLongerFree(inviter.clone())),
            );
            return;
        }
        let Some(rules) = self.rules(invite.kind) else {
            return;
        };
        self.unqueue(id);
        self.unqueue(from);
        let first = self.rng.random_bool(0.5);
        self.start_room(
            rules,
            from,
            Some(id),
            None,
            first,
            invite.rated,
            invite.clock,
            invite.opening,
        );
    }

    /// Cluster mode: `id` answers the invitation of `a`, on another host.
    /// Declined: their host hears it. Accepted: `id` goes to play there
    /// (the table runs on the inviter's host).
    pub(super) fn answer_from_afar(
        &mut self,
        id: SessionId,
        a: Afar,
        invite: Invite,
        accept: bool,
    ) {
        if !accept {
            self.out.push(Effect::Across(Ask::Decline {
                host: a.host,
                inviter: a.session,
                id,
            }));
            return;
        }
        let Some(rules) = self.rules(invite.kind) else {
            return;
        };
        self.unqueue(id);
        let Some(m) = self.members.get_mut(&id) else {
            return;
        };
        m.status = Status::Playing(ELSEWHERE);
        let seeker = m.seeker(Some(&rules));
        self.withdraw_invites_to(id, crate::protocol::news::LapseWhy::StartedAnotherGame);
        self.withdraw_invites_of(id);
        self.dirty = true;
        self.out.push(Effect::AcceptAcross {
            id,
            host: a.host,
            inviter: a.session,
            seeker,
        });
    }

    /// Cluster mode: someone on another host invites a person here; why
    /// not, for them, if it cannot be (the same bounds as here).
    /// `ask.from` is their session on `host`.
    pub fn invited_from_afar(
        &mut self,
        host: &str,
        to: SessionId,
        ask: Invitation,
    ) -> Result<Vec<Effect>, Refusal> {
        let name = crate::text::sanitize_name(&ask.name, "Visitor");
        let from = self.afar_id(host, ask.from, &name);
        let rules = self.rules(ask.kind).ok_or(Refusal::GameNotOffered)?;
        let Some(target) = self.members.get(&to) else {
            return Err(Refusal::PlayerLeft);
        };
        let to_name = target.name.clone();
        if let Some(why) = not_free(&to_name, target.invitable, target.doing()) {
            return Err(why);
        }
        let rated = ask.rated && ask.account && target.rated(&rules).is_some();
        if self.invites.iter().any(|i| i.from == from && i.to == to) {
            return Err(Refusal::InvitedAlready(to_name));
        }
        if self.invites.iter().filter(|i| i.from == from).count() >= OPEN_PER_SENDER {
            return Err(Refusal::TooManyInvitations(OPEN_PER_SENDER));
        }
        if self.invites.iter().filter(|i| i.to == to).count() >= OPEN_PER_RECIPIENT {
            return Err(Refusal::ManyInvitationsWaiting(to_name));
        }
        self.invites.push(Invite {
            from,
            to,
            kind: ask.kind,
            rated,
            clock: ask.clock,
            opening: ask.opening,
            at: self.now,
        });
        self.tell(
            to,
            Notice::Invited(Invitation {
                from,
                name,
                rating: ask.rating.filter(|_| rated),
                rated,
                ..ask
            }),
        );
        Ok(std::mem::take(&mut self.out))
    }

    /// Cluster mode: the invitation `inviter` sent to `session` on `host`
    /// did not reach them, or they declined it (`why`: for the inviter).
    pub fn invitation_refused(
        &mut self,
        inviter: SessionId,
        host: &str,
        session: SessionId,
        why: crate::protocol::News,
    ) -> Vec<Effect> {
        if let Some(&to) = self.afar_ids.get(&(host.to_string(), session))
            && let Some(i) = self
                .invites
                .iter()
                .position(|i| i.from == inviter && i.to == to)
        {
            self.invites.swap_remove(i);
            self.tell(inviter, Notice::Told(why));
        }
        std::mem::take(&mut self.out)
    }

    /// Cluster mode: the person `inviter` invited on another host accepted:
    /// the game starts here, with them as a visitor. The error is for them.
    pub fn open_for_invitee(
        &mut self,
        inviter: SessionId,
        mut visitor: Visitor,
        ratings: [Option<u32>; 2],
    ) -> Result<Vec<Effect>, Refusal> {
        let to = self
            .afar_ids
            .get(&(visitor.host.clone(), visitor.session))
            .copied()
            .ok_or(Refusal::InvitationClosed)?;
        let i = self
            .invites
            .iter()
            .position(|i| i.from == inviter && i.to == to)
            .ok_or(Refusal::InvitationClosed)?;
        let invite = self.invites.swap_remove(i);
        let inviter_name = self.name_of(inviter);
        if !self
            .members
            .get(&inviter)
            .is_some_and(|m| matches!(m.status, Status::Idle | Status::Seeking(_)))
        {
            return Err(Refusal::NoLongerFree(inviter_name));
        }
        let rules = self.rules(invite.kind).ok_or(Refusal::GameNotOffered)?;
        visitor.rating = if invite.rated && visitor.account.is_some() && rated_rules(&rules) {
            Some(
                rating_index(invite.kind)
                    .and_then(|i| ratings[i])
                    .unwrap_or(1500),
            )
        } else {
            None
        };
        self.unqueue(inviter);
        self.withdraw_invites_of(inviter);
        self.withdraw_invites_to(inviter, crate::protocol::news::LapseWhy::StartedAnotherGame);
        match self.start_with_visitor(
            rules,
            inviter,
            visitor,
            invite.rated,
            invite.clock,
            invite.opening,
        ) {
            Some(_) => Ok(std::mem::take(&mut self.out)),
            None => {
                self.out.clear();
                Err(Refusal::HasLeft(inviter_name))
            }
        }
    }

    /// Invitations waiting for `id` are void (`why`: "has left"...): their
    /// senders are told, and `id`'s screen drops them.
    pub(super) fn withdraw_invites_to(
        &mut self,
        id: SessionId,
        why: crate::protocol::news::LapseWhy,
    ) {
        let (gone, open): (Vec<Invite>, Vec<Invite>) = std::mem::take(&mut self.invites)
            .into_iter()
            .partition(|i| i.to == id);
        self.invites = open;
        let name = self.name_of(id);
        for i in gone {
            self.tell(
                i.from,
                Notice::Told(crate::protocol::News::Lapsed(Box::new(
                    crate::protocol::news::Lapse {
                        name: name.clone(),
                        why,
                    },
                ))),
            );
            self.tell(id, Notice::InvitationGone { from: i.from });
        }
    }

    /// Invitations `id` sent are void: their recipients' screens drop them.
    pub(super) fn withdraw_invites_of(&mut self, id: SessionId) {
        let (gone, open): (Vec<Invite>, Vec<Invite>) = std::mem::take(&mut self.invites)
            .into_iter()
            .partition(|i| i.from == id);
        self.invites = open;
        for i in gone {
            self.tell(i.to, Notice::InvitationGone { from: id });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::state::testing::*;

    #[test]
    fn an_accepted_invitation_seats_both_on_its_clock_and_a_declined_one_says_so() {
        let mut s = lobby(31);
        named(&mut s, 1, "ann");
        named(&mut s, 2, "bob");
        let e = invite(&mut s, 1, 2);
        let inv = invited(&e, 2).expect("bob is invited");
        assert_eq!((inv.from, inv.name.as_str(), inv.kind), (1, "ann", C4));
        assert!(said(&e, 1)[0].contains("invitation sent to bob"), "{e:?}");
        // Declined: the inviter is told; the invitation is gone.
        let e = s.handle(Command::AnswerChallenge {
            id: 2,
            from: 1,
            accept: false,
        });
        assert_eq!(said(&e, 1), vec!["bob declined your invitation"]);
        let e = s.handle(Command::AnswerChallenge {
            id: 2,
            from: 1,
            accept: true,
        });
        assert_eq!(said(&e, 2), vec!["that invitation is no longer open"]);
        // Accepted: a table for the two, on the invitation's clock,
        // watchable, and both listed as playing.
        invite(&mut s, 1, 2);
        let e = s.handle(Command::AnswerChallenge {
            id: 2,
            from: 1,
            accept: true,
        });
        let (room, rules, seats) = opened(&e);
        assert_eq!(rules, Rules::connect_four());
        let mut ids = seated(&seats);
        ids.sort();
        assert_eq!(ids, vec![Some(1), Some(2)]);
        assert!(e.iter().any(|x| matches!(
            x,
            Effect::OpenRoom(NewTable { clock: Some(c), .. }) if *c == TimeControl::new(3, 2)
        )));
        assert!(s.watchable(room));
        let people = s.people(1);
        assert!(
            people.iter().all(|p| p.doing == Doing::Playing),
            "{people:?}"
        );
        assert!(people[0].me && people[0].name == "ann");
    }

    #[test]
    fn invitations_are_bounded_per_pair_per_sender_and_lapse() {
        let mut s = lobby(32);
        for (id, name) in [(1, "ann"), (2, "bob"), (3, "cy"), (4, "dee"), (5, "eve")] {
            named(&mut s, id, name);
        }
        let now = Instant::now();
        s.tick(now);
        assert!(invited(&invite(&mut s, 1, 2), 2).is_some());
        // One open invitation per pair.
        let e = invite(&mut s, 1, 2);
        assert!(invited(&e, 2).is_none());
        assert!(said(&e, 1)[0].contains("invited bob already"), "{e:?}");
        // Nobody invites themself, or someone who turned invitations off.
        assert!(said(&invite(&mut s, 1, 1), 1)[0].contains("yourself"));
        s.handle(Command::SetInvitations { id: 5, on: false });
        let e = invite(&mut s, 1, 5);
        assert!(invited(&e, 5).is_none());
        assert!(said(&e, 1)[0].contains("eve does not take invitations"));
        // At most three waiting at once per sender.
        assert!(invited(&invite(&mut s, 1, 3), 3).is_some());
        assert!(invited(&invite(&mut s, 1, 4), 4).is_some());
        s.handle(Command::SetInvitations { id: 5, on: true });
        let e = invite(&mut s, 1, 5);
        assert!(invited(&e, 5).is_none(), "{e:?}");
        assert!(said(&e, 1)[0].contains("at most 3 invitations may wait"));
        // After a minute they lapse: both sides hear of it.
        let e = s.tick(now + INVITATION_LAPSE);
        let lapsed = said(&e, 1);
        assert_eq!(lapsed.len(), 3, "{e:?}");
        assert!(lapsed.iter().all(|m| m.contains("did not answer")));
        assert!(e.contains(&tell(2, Notice::InvitationGone { from: 1 })));
        // The rate: five a minute, counted from the sends (those before
        // the lapse are a minute old now).
        let decline = |s: &mut LobbyState, to: SessionId| {
            s.handle(Command::AnswerChallenge {
                id: to,
                from: 1,
                accept: false,
            })
        };
        for to in [2, 3, 4, 5, 2] {
            assert!(invited(&invite(&mut s, 1, to), to).is_some(), "to {to}");
            decline(&mut s, to);
        }
        let e = invite(&mut s, 1, 3);
        assert!(invited(&e, 3).is_none(), "the sixth in a minute: {e:?}");
        assert!(said(&e, 1)[0].contains("at most 5 invitations a minute"));
        s.tick(now + INVITATION_LAPSE * 2);
        assert!(invited(&invite(&mut s, 1, 3), 3).is_some());
    }

    #[test]
    fn a_recipient_holds_at_most_ten_invitations_and_a_lapsed_one_cannot_be_accepted() {
        let mut s = lobby(34);
        let now = Instant::now();
        s.tick(now);
        named(&mut s, 1, "ann");
        for i in 0..=OPEN_PER_RECIPIENT as SessionId {
            named(&mut s, 10 + i, &format!("fan{i}"));
        }
        for i in 0..OPEN_PER_RECIPIENT as SessionId {
            assert!(invited(&invite(&mut s, 10 + i, 1), 1).is_some(), "fan{i}");
        }
        let last = 10 + OPEN_PER_RECIPIENT as SessionId;
        let e = invite(&mut s, last, 1);
        assert!(invited(&e, 1).is_none(), "the eleventh reached ann: {e:?}");
        assert_eq!(
            said(&e, last),
            vec!["ann has many invitations waiting: try later"]
        );
        // A minute on, none is open: accepting one now seats nobody.
        let e = s.tick(now + INVITATION_LAPSE);
        assert_eq!(
            e.iter()
                .filter(|x| matches!(
                    x,
                    Effect::Tell {
                        to: 1,
                        notice: Notice::InvitationGone { .. }
                    }
                ))
                .count(),
            OPEN_PER_RECIPIENT,
            "{e:?}"
        );
        let e = accept(&mut s, 1, 10);
        assert!(
            !e.iter()
                .any(|x| matches!(x, Effect::OpenRoom(NewTable { .. }))),
            "{e:?}"
        );
        assert_eq!(said(&e, 1), vec!["that invitation is no longer open"]);
        // Room again for new ones.
        assert!(invited(&invite(&mut s, last, 1), 1).is_some());
        let (_, _, seats) = opened(&accept(&mut s, 1, last));
        let mut ids = seated(&seats);
        ids.sort();
        assert_eq!(ids, vec![Some(1), Some(last)]);
    }

    #[test]
    fn an_invitation_is_rated_only_between_two_accounts_on_the_standard_board() {
        let mut s = lobby(35);
        rated_player(&mut s, 1, "ann", 1620);
        rated_player(&mut s, 2, "bob", 1480);
        named(&mut s, 3, "cy");
        let ask = |s: &mut LobbyState, id, to, rated| {
            s.handle(Command::Challenge {
                id,
                challenge: Challenge {
                    to,
                    kind: C4,
                    rated,
                    clock: None,
                    opening: Opening::Standard,
                },
            })
        };
        let rated_of = |e: &[Effect]| {
            e.iter().find_map(|x| match x {
                Effect::OpenRoom(NewTable { rated, .. }) => Some(*rated),
                _ => None,
            })
        };
        // Two accounts, rated asked: the invitation says so with the
        // inviter's rating, and the game moves ratings.
        let inv = invited(&ask(&mut s, 1, 2, true), 2).expect("bob is invited");
        assert!(inv.rated, "{inv:?}");
        assert_eq!(inv.rating, Some(1620));
        assert_eq!(rated_of(&accept(&mut s, 2, 1)), Some(true));
        // Casual when asked so.
        rated_player(&mut s, 4, "dee", 1500);
        rated_player(&mut s, 5, "eve", 1500);
        let inv = invited(&ask(&mut s, 4, 5, false), 5).unwrap();
        assert!(!inv.rated);
        assert_eq!(rated_of(&accept(&mut s, 5, 4)), Some(false));
        // A guest on either side: never rated, whatever was asked.
        rated_player(&mut s, 6, "fay", 1500);
        let inv = invited(&ask(&mut s, 6, 3, true), 3).unwrap();
        assert!(!inv.rated, "{inv:?}");
        assert_eq!(rated_of(&accept(&mut s, 3, 6)), Some(false));
        named(&mut s, 7, "gus");
        rated_player(&mut s, 8, "hal", 1500);
        let inv = invited(&ask(&mut s, 7, 8, true), 8).unwrap();
        assert!(!inv.rated, "{inv:?}");
        assert_eq!(rated_of(&accept(&mut s, 8, 7)), Some(false));
    }

    #[test]
    fn invitations_go_when_either_side_leaves_or_sits_down() {
        let mut s = lobby(33);
        for (id, name) in [(1, "ann"), (2, "bob"), (3, "cy")] {
            named(&mut s, id, name);
        }
        invite(&mut s, 1, 2);
        invite(&mut s, 3, 2);
        // bob sits down with the computer: both invitations are void.
        let e = s.handle(Command::PlayComputer {
            id: 2,
            kind: C4,
            level: Level::Easy,
            human_first: Some(true),
        });
        for from in [1, 3] {
            assert!(
                said(&e, from)[0].contains("bob has started another game"),
                "{e:?}"
            );
            assert!(e.contains(&tell(2, Notice::InvitationGone { from })));
        }
        // A player at a table is not invited; a watcher neither.
        let e = invite(&mut s, 1, 2);
        assert!(said(&e, 1)[0].contains("bob is playing"), "{e:?}");
        // The inviter leaves: the invitation goes from the screen.
        invite(&mut s, 1, 3);
        let e = s.handle(Command::Leave { id: 1 });
        assert!(
            e.contains(&tell(3, Notice::InvitationGone { from: 1 })),
            "{e:?}"
        );
        let e = s.handle(Command::AnswerChallenge {
            id: 3,
            from: 1,
            accept: true,
        });
        assert!(said(&e, 3)[0].contains("no longer open"));
    }

    #[test]
    fn in_cluster_mode_people_on_other_hosts_are_invited_and_invite() {
        // Host A: ann invites bo, who is on host-b.
        let mut a = lobby(44).with_cluster(true);
        named(&mut a, 1, "ann");
        a.set_remote_people(vec![Person {
            host: Some("host-b".into()),
            id: 7,
            me: false,
            invitable: true,
            name: "bo".into(),
            account: false,
            account_id: None,
            ratings: [None; 2],
            doing: Doing::Lobby,
        }]);
        let bo = a.people(1).iter().find(|p| p.name == "bo").unwrap().id;
        assert!(bo >= AFAR_IDS);
        assert_eq!(
            a.afar(bo).map(|x| (x.host.as_str(), x.session)),
            Some(("host-b", 7))
        );
        let e = invite(&mut a, 1, bo);
        assert!(
            e.iter().any(|x| matches!(x,
                Effect::Across(Ask::Invite { host, session: 7, invitation, .. })
                    if host == "host-b" && invitation.from == 1 && invitation.name == "ann")),
            "{e:?}"
        );
        assert!(said(&e, 1)[0].contains("invitation sent to bo"), "{e:?}");
        let e = invite(&mut a, 1, bo);
        assert!(said(&e, 1)[0].contains("invited bo already"), "{e:?}");
        // Declined there: ann hears it and may ask again.
        let e = a.invitation_refused(1, "host-b", 7, crate::protocol::News::Declined("bo".into()));
        assert_eq!(said(&e, 1), vec!["bo declined your invitation"]);
        invite(&mut a, 1, bo);
        // Accepted there: the table opens here, bo a visitor.
        let mut v = visitor("bo");
        v.host = "host-b".into();
        v.session = 7;
        let e = a.open_for_invitee(1, v.clone(), [None; 2]).expect("opened");
        assert!(e.iter().any(|x| matches!(x, Effect::Visit { .. })), "{e:?}");
        let (_, _, seats) = opened(&e);
        assert!(seated(&seats).contains(&Some(1)));
        assert_eq!(
            a.open_for_invitee(1, v, [None; 2]),
            Err(Refusal::InvitationClosed)
        );

        // Host B: cy gets ann's invitation from host-a.
        let mut b = lobby(45).with_cluster(true);
        named(&mut b, 2, "cy");
        let ask = Invitation {
            from: 1,
            name: "ann\u{1b}[2J".into(),
            account: false,
            rating: None,
            kind: C4,
            rated: false,
            clock: None,
            opening: Opening::Standard,
        };
        let e = b
            .invited_from_afar("host-a", 2, ask.clone())
            .expect("delivered");
        let inv = invited(&e, 2).expect("cy is invited");
        assert!(inv.from >= AFAR_IDS);
        assert!(!inv.name.contains('\u{1b}'), "{inv:?}");
        assert!(matches!(
            b.invited_from_afar("host-a", 2, ask.clone()),
            Err(Refusal::InvitedAlready(_))
        ));
        assert_eq!(
            b.invited_from_afar("host-a", 99, ask.clone()),
            Err(Refusal::PlayerLeft)
        );
        let e = b.handle(Command::AnswerChallenge {
            id: 2,
            from: inv.from,
            accept: false,
        });
        assert_eq!(
            e,
            vec![Effect::Across(Ask::Decline {
                host: "host-a".into(),
                inviter: 1,
                id: 2
            })]
        );
        b.invited_from_afar("host-a", 2, ask.clone())
            .expect("delivered again");
        let e = b.handle(Command::AnswerChallenge {
            id: 2,
            from: inv.from,
            accept: true,
        });
        assert!(
            e.iter().any(|x| matches!(x,
                Effect::AcceptAcross { id: 2, host, inviter: 1, seeker } if host == "host-a" && seeker.name == "cy")),
            "{e:?}"
        );
        // cy plays elsewhere now: not free for another invitation.
        assert!(
            b.invited_from_afar("host-a", 2, ask.clone())
                .unwrap_err()
                .to_string()
                .contains("is playing")
        );
    }
}
