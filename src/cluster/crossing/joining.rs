//! Friends across hosts: rooms for a friend joined by their code from
//! another host, and invitations to and from people on other hosts.

use async_nats::jetstream::kv;

use crate::cluster::wire::{CodeValue, DeclineNote, InviteAsk, JoinAnswer, JoinAsk, JoinTo};
use crate::game::GameKind;
use crate::lobby::{Command, SessionId, ToSession};
use crate::protocol::Refusal;

use super::{ASK_TIMEOUT, Crossing, lock, visitor_from};

impl Crossing {
    /// Makes the room code `code` reachable from the other hosts.
    pub(super) async fn announce_code(&self, code: &str, kind: GameKind) -> anyhow::Result<()> {
        let key = format!("code.{code}");
        let value = serde_json::to_vec(&CodeValue {
            host: self.host.clone(),
            instance: self.instance.clone(),
            game: kind.id().to_string(),
        })?;
        match self.codes.create(&key, value.clone().into()).await {
            Ok(_) => Ok(()),
            Err(e) if e.kind() == kv::CreateErrorKind::AlreadyExists => {
                // Taken: only a host that is gone (or this one, earlier) may lose it.
                let Some(entry) = self.codes.entry(&key).await? else {
                    anyhow::bail!("the code {code} changed meanwhile");
                };
                let holder = CodeValue::parse(&entry.value);
                let free = holder.as_ref().is_none_or(|h| {
                    h.host == self.host || self.live.borrow().get(&h.host) != Some(&h.instance)
                });
                if !free {
                    anyhow::bail!("another host has a room with the code {code}");
                }
                self.codes
                    .update(&key, value.into(), entry.revision)
                    .await?;
                Ok(())
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Removes our room code from NATS.
    pub(super) async fn withdraw_code(&self, code: &str) {
        let key = format!("code.{code}");
        if let Ok(Some(entry)) = self.codes.entry(&key).await
            && CodeValue::parse(&entry.value).is_some_and(|h| h.host == self.host)
            && let Err(e) = self.codes.delete(&key).await
        {
            self.dropped(&key, e);
        }
    }

    /// Our session `id` asked for a room code no room here has: the room
    /// may be on another host; our session then plays there as a visitor.
    pub(super) async fn find_code(
        &self,
        id: SessionId,
        code: String,
        from_login: bool,
        joiner: crate::lobby::Seeker,
    ) {
        let unknown = || crate::lobby::Cmd::CodeUnknown {
            id,
            code: code.clone(),
            from_login,
        };
        // A guest's resume code for a game kept in NATS.
        if self.find_seat(id, &code).await {
            return;
        }
        let holder = match self.codes.entry(format!("code.{code}")).await {
            Ok(Some(e)) if e.operation == kv::Operation::Put => CodeValue::parse(&e.value),
            _ => None,
        };
        // Not checked against the live hosts (a host that just started
        // may not have seen the others yet): a host that is gone does not
        // answer, and then no room has the code.
        let Some(holder) = holder.filter(|h| h.host != self.host) else {
            self.lobby.send(unknown()).await;
            return;
        };
        let Some((_, inbox)) = self.lobby.leave_to_join(id).await else {
            return;
        };
        let token = self.visit_as_player(id, holder.host.clone(), &inbox, joiner.account.clone());
        let ask = JoinAsk {
            to: JoinTo::Room(code.clone()),
            token,
            host: self.host.clone(),
            session: id,
            name: joiner.name,
            account: joiner.account,
            ratings: joiner.ratings,
            colour: joiner.colour.map(|c| c.name().to_string()),
        };
        let mut nobody = false;
        let answer = match serde_json::to_vec(&ask) {
            Ok(body) => match tokio::time::timeout(
                ASK_TIMEOUT,
                self.client
                    .request(self.subject(&holder.host, "join"), body.into()),
            )
            .await
            {
                Ok(Ok(reply)) if reply.payload.len() <= 4096 => {
                    serde_json::from_slice::<JoinAnswer>(&reply.payload).ok()
                }
                Ok(Err(e)) => {
                    nobody = e.kind() == async_nats::client::RequestErrorKind::NoResponders;
                    None
                }
                _ => None,
            },
            Err(_) => None,
        };
        let why = match answer {
            Some(JoinAnswer::Yes) => return,
            Some(JoinAnswer::No(why)) => Some(why),
            None if nobody => None,
            None => Some(Refusal::RoomHostDidNotAnswer(code.to_string())),
        };
        if lock(&self.visits).remove(&id).is_some() {
            self.lobby.send(Command::LeftRoom { id }).await;
            match why {
                Some(why) => {
                    let _ = inbox.try_send(ToSession::LobbyError(Box::new(why)));
                }
                None => self.lobby.send(unknown()).await,
            }
        }
    }

    /// Someone on another host takes a seat here: in a room for a friend,
    /// or with the person whose invitation they accepted.
    pub(super) async fn answer_join(&self, body: &[u8]) -> JoinAnswer {
        let Ok(ask) = serde_json::from_slice::<JoinAsk>(body) else {
            return JoinAnswer::No(Refusal::NotUnderstood);
        };
        let bad_code = matches!(&ask.to, JoinTo::Room(code) if code.len() > 16);
        if bad_code || ask.ratings.iter().flatten().any(|&r| r > 10_000) {
            return JoinAnswer::No(Refusal::NotUnderstood);
        }
        let Some(visitor) = visitor_from(
            ask.host,
            ask.session,
            &ask.name,
            ask.account,
            ask.colour,
            ask.token,
        ) else {
            return JoinAnswer::No(Refusal::NotUnderstood);
        };
        self.lobby
            .open_for(ask.to, visitor, ask.ratings)
            .await
            .into()
    }

    /// Our `invitation` for `session` on `host`: delivered, or the
    /// inviter hears why not.
    pub(super) async fn invite(
        &self,
        host: String,
        session: SessionId,
        invitation: crate::lobby::Invitation,
    ) {
        let inviter = invitation.from;
        let ask = InviteAsk {
            host: self.host.clone(),
            to: session,
            invitation,
        };
        let why = match serde_json::to_vec(&ask) {
            Ok(body) => match self.ask(&host, "invite", body).await {
                Some(JoinAnswer::Yes) => return,
                Some(JoinAnswer::No(why)) => crate::protocol::News::Refused(Box::new(why)),
                None => crate::protocol::News::NotDelivered(host.clone()),
            },
            Err(_) => return,
        };
        self.lobby
            .send(crate::lobby::Cmd::InviteRefused {
                inviter,
                host,
                session,
                why,
            })
            .await;
    }

    /// An invitation from another host for someone here.
    pub(super) async fn answer_invite(&self, body: &[u8]) -> JoinAnswer {
        let not_understood = || JoinAnswer::No(Refusal::NotUnderstood);
        let Ok(ask) = serde_json::from_slice::<InviteAsk>(body) else {
            return not_understood();
        };
        if !crate::cluster::valid_host_name(&ask.host)
            || ask.invitation.rating.is_some_and(|r| r > 10_000)
        {
            return not_understood();
        }
        self.lobby
            .invited_from_afar(ask.host, ask.to, ask.invitation)
            .await
            .into()
    }

    /// Our session `id` declined the invitation of `inviter` on `host`.
    pub(super) async fn decline(&self, host: String, inviter: SessionId, id: SessionId) {
        let name = self.lobby_name(id).await;
        let note = DeclineNote {
            inviter,
            host: self.host.clone(),
            session: id,
            name,
        };
        if let Ok(body) = serde_json::to_vec(&note) {
            self.publish(self.subject(&host, "declined"), body).await;
        }
    }

    /// The name someone here goes by, as the list of people has it.
    pub(super) async fn lobby_name(&self, id: SessionId) -> String {
        self.lobby
            .people(id)
            .await
            .into_iter()
            .find(|p| p.me)
            .map_or_else(|| "someone".to_string(), |p| p.name)
    }

    /// Someone on another host declined our session's invitation.
    pub(super) fn declined(&self, body: &[u8]) {
        if body.len() > 4096 {
            return;
        }
        let Ok(note) = serde_json::from_slice::<DeclineNote>(body) else {
            return;
        };
        if !crate::cluster::valid_host_name(&note.host) {
            return;
        }
        let name = crate::text::sanitize_name(&note.name, "someone");
        self.lobby.try_send(crate::lobby::Cmd::InviteRefused {
            inviter: note.inviter,
            host: note.host,
            session: note.session,
            why: crate::protocol::News::Declined(name),
        });
    }

    /// Our session `id` accepted the invitation of `inviter` on `host`:
    /// it plays at a table there, as a visitor.
    pub(super) async fn accept(
        &self,
        id: SessionId,
        host: String,
        inviter: SessionId,
        seeker: crate::lobby::Seeker,
        inbox: crate::mailbox::Sender<ToSession>,
    ) {
        let token = self.visit_as_player(id, host.clone(), &inbox, seeker.account.clone());
        let ask = JoinAsk {
            to: JoinTo::Inviter(inviter),
            token,
            host: self.host.clone(),
            session: id,
            name: seeker.name,
            account: seeker.account,
            ratings: seeker.ratings,
            colour: seeker.colour.map(|c| c.name().to_string()),
        };
        let why = match serde_json::to_vec(&ask) {
            Ok(body) => match self.ask(&host, "join", body).await {
                Some(JoinAnswer::Yes) => return,
                Some(JoinAnswer::No(why)) => why,
                None => Refusal::GameDidNotStart(host.clone()),
            },
            Err(_) => Refusal::GameDidNotStart(host.clone()),
        };
        self.visit_failed(id, &inbox, why).await;
    }
}
