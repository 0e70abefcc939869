//! Quick match across hosts: the queue of tickets in NATS, and settling
//! a match with the ticket's host (see the module above for how).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use async_nats::jetstream::kv;

use crate::cluster::wire::{MatchAnswer, MatchAsk, Ticket, ToVisitor, parse_tickets};
use crate::game::{GameKind, Rules};
use crate::lobby::state::{rated_rules, rating_window};
use crate::lobby::{SessionId, Visitor};

use super::visit::Visit;
use super::{ASK_TIMEOUT, Crossing, lock, new_token, valid_token};

/// Most presences one look at a queue reads from NATS, for tickets of
/// hosts this host does not (yet) count as live.
const PRUNE_READS: usize = 8;

/// Longest those reads may take together (the queue's loop waits on them).
const PRUNE_TIME: Duration = Duration::from_secs(1);

/// Queue operations a seek may retry on conflicts before giving up.
const CAS_TRIES: usize = 50;

fn queue_key(kind: GameKind) -> String {
    format!("queue.{}", kind.id())
}

/// Whether two tickets may play each other now (`now_ms`): anyone with
/// anyone, except two rated players outside the window of the longer wait.
fn fits(a: &Ticket, b: &Ticket, now_ms: i64, match_wait: Duration) -> Option<u32> {
    match (a.rating, b.rating) {
        (Some(ra), Some(rb)) => {
            let gap = ra.abs_diff(rb);
            let waited = now_ms.saturating_sub(a.since_ms.min(b.since_ms)).max(0) as u64;
            (gap <= rating_window(Duration::from_millis(waited), match_wait)).then_some(gap)
        }
        _ => Some(u32::MAX),
    }
}

/// The best ticket in `queue` for `me` among other live hosts': the
/// closest rating, else the longest waiting.
fn best_for(
    me: &Ticket,
    queue: &[Ticket],
    live: &HashMap<String, String>,
    now_ms: i64,
    match_wait: Duration,
) -> Option<usize> {
    queue
        .iter()
        .enumerate()
        .filter(|(_, t)| t.host != me.host && live.get(&t.host) == Some(&t.instance))
        .filter(|(_, t)| me.account.is_none() || t.account != me.account)
        .filter_map(|(i, t)| Some((fits(me, t, now_ms, match_wait)?, t.since_ms, i)))
        .min()
        .map(|(_, _, i)| i)
}

impl Crossing {
    /// The queue of `kind` and its revision (0: no key yet).
    async fn read_queue(&self, kind: GameKind) -> anyhow::Result<(Vec<Ticket>, u64)> {
        Ok(match self.queue.entry(queue_key(kind)).await? {
            Some(e) if e.operation == kv::Operation::Put => (parse_tickets(&e.value), e.revision),
            Some(e) => (Vec::new(), e.revision),
            None => (Vec::new(), 0),
        })
    }

    /// Writes the queue if nobody changed it since `rev`; `false` on a conflict.
    async fn write_queue(
        &self,
        kind: GameKind,
        queue: &[Ticket],
        rev: u64,
    ) -> anyhow::Result<bool> {
        let value = serde_json::to_vec(queue)?;
        match tokio::time::timeout(
            Duration::from_secs(3),
            self.queue.update(queue_key(kind), value.into(), rev),
        )
        .await
        {
            Ok(Ok(_)) => Ok(true),
            Ok(Err(e)) if e.kind() == kv::UpdateErrorKind::WrongLastRevision => Ok(false),
            Ok(Err(e)) => Err(e.into()),
            Err(_) => anyhow::bail!("the queue did not answer in time"),
        }
    }

    /// Keeps only live hosts' tickets (ours included).
    async fn prune(&self, queue: &mut Vec<Ticket>) {
        // A host missing from our view may be alive all the same: our view
        // lags after NATS came back to us (a ticket dropped then would
        // leave its seeker waiting unseen). Its presence decides, read
        // afresh, for a bounded number of hosts; the rest stay this time.
        let unknown: Vec<(String, String)> = {
            let live = self.live.borrow();
            let mut unknown: Vec<(String, String)> = Vec::new();
            for t in queue.iter() {
                let known = (t.host == self.host && t.instance == self.instance)
                    || live.get(&t.host) == Some(&t.instance);
                let id = (t.host.clone(), t.instance.clone());
                if !known && !unknown.contains(&id) && unknown.len() < PRUNE_READS {
                    unknown.push(id);
                }
            }
            unknown
        };
        let deadline = tokio::time::Instant::now() + PRUNE_TIME;
        let mut gone = Vec::new();
        for (host, instance) in unknown {
            let dead = match self.presence_afresh(&host, &instance, deadline).await {
                Some(alive) => !alive,
                // No answer in time: kept for the next look.
                None => false,
            };
            if dead {
                gone.push((host, instance));
            }
        }
        queue.retain(|t| !gone.iter().any(|(h, i)| *h == t.host && *i == t.instance));
    }

    /// Offers `me` to the other hosts: takes the best ticket that fits
    /// (returned), or adds `me` to the queue (`None`).
    pub(super) async fn seek(&self, kind: GameKind, me: Ticket) -> anyhow::Result<Option<Ticket>> {
        for _ in 0..CAS_TRIES {
            let (mut queue, rev) = self.read_queue(kind).await?;
            self.prune(&mut queue).await;
            queue.retain(|t| !(t.host == me.host && t.session == me.session));
            let now = crate::store::now_ms();
            let best = best_for(&me, &queue, &self.live.borrow(), now, self.match_wait);
            let taken = match best {
                Some(i) => Some(queue.remove(i)),
                None if queue.len() < crate::cluster::wire::MAX_TICKETS => {
                    queue.push(me.clone());
                    None
                }
                // A full queue: this seeker waits at home only.
                None => return Ok(None),
            };
            if self.write_queue(kind, &queue, rev).await? {
                return Ok(taken);
            }
        }
        anyhow::bail!("the queue is too busy")
    }

    /// Takes this host's ticket for `id` out of the queue.
    pub(super) async fn withdraw(&self, kind: GameKind, id: SessionId) -> anyhow::Result<()> {
        for _ in 0..CAS_TRIES {
            let (mut queue, rev) = self.read_queue(kind).await?;
            let before = queue.len();
            queue.retain(|t| !(t.host == self.host && t.session == id));
            if queue.len() == before || self.write_queue(kind, &queue, rev).await? {
                return Ok(());
            }
        }
        anyhow::bail!("the queue is too busy")
    }

    /// Looks at the queue again: one of our tickets that now fits another
    /// host's is taken out with it (both at once).
    pub(super) async fn look_again(
        &self,
        kind: GameKind,
    ) -> anyhow::Result<Option<(SessionId, Ticket)>> {
        for _ in 0..CAS_TRIES {
            let (mut queue, rev) = self.read_queue(kind).await?;
            let before = queue.len();
            self.prune(&mut queue).await;
            let now = crate::store::now_ms();
            let pair = {
                let live = self.live.borrow();
                queue
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.host == self.host && t.instance == self.instance)
                    .find_map(|(i, me)| {
                        best_for(me, &queue, &live, now, self.match_wait).map(|j| (i, j))
                    })
            };
            let taken = match pair {
                Some((i, j)) => {
                    let other = queue[j].clone();
                    let me = queue[i].session;
                    queue.retain(|t| {
                        let ours = t.host == self.host && t.session == me;
                        let theirs = t.host == other.host && t.session == other.session;
                        !(ours || theirs)
                    });
                    Some((me, other))
                }
                None if queue.len() == before => return Ok(None),
                None => None,
            };
            if self.write_queue(kind, &queue, rev).await? {
                return Ok(taken);
            }
        }
        anyhow::bail!("the queue is too busy")
    }

    /// Puts a ticket we took back (our seeker had gone meanwhile).
    async fn put_back(&self, kind: GameKind, ticket: Ticket) -> anyhow::Result<()> {
        for _ in 0..CAS_TRIES {
            let (mut queue, rev) = self.read_queue(kind).await?;
            if queue.len() >= crate::cluster::wire::MAX_TICKETS {
                return Ok(());
            }
            let at = queue
                .iter()
                .position(|t| t.since_ms > ticket.since_ms)
                .unwrap_or(queue.len());
            queue.insert(at, ticket.clone());
            if self.write_queue(kind, &queue, rev).await? {
                return Ok(());
            }
        }
        anyhow::bail!("the queue is too busy")
    }

    pub(super) fn settle_later(self: &Arc<Self>, id: SessionId, kind: GameKind, other: Ticket) {
        let Ok(permit) = Arc::clone(&self.settling).try_acquire_owned() else {
            tracing::warn!("too many matches being settled: one seeker seeks again");
            let lobby = self.lobby.clone();
            tokio::spawn(async move { lobby.send(crate::lobby::Cmd::Release { id, kind }).await });
            return;
        };
        let this = Arc::clone(self);
        tokio::spawn(async move {
            this.settle(id, kind, other).await;
            drop(permit);
        });
    }

    /// Our seeker `id` meets the seeker of `other`'s ticket at a table here.
    async fn settle(&self, id: SessionId, kind: GameKind, other: Ticket) {
        if self.lobby.reserve(id, kind).await.is_none() {
            if let Err(e) = self.put_back(kind, other).await {
                self.dropped(&queue_key(kind), e);
            }
            return;
        }
        let token = new_token();
        let ask = MatchAsk {
            game: kind.id().to_string(),
            session: other.session,
            instance: other.instance.clone(),
            room_host: self.host.clone(),
            token: token.clone(),
        };
        let answer = match serde_json::to_vec(&ask) {
            Ok(body) => {
                match tokio::time::timeout(
                    ASK_TIMEOUT,
                    self.client
                        .request(self.subject(&other.host, "match"), body.into()),
                )
                .await
                {
                    Ok(Ok(reply)) if reply.payload.len() <= 4096 => {
                        serde_json::from_slice::<MatchAnswer>(&reply.payload).ok()
                    }
                    _ => None,
                }
            }
            Err(_) => None,
        };
        let Some(MatchAnswer::Yes {
            name,
            account,
            rating,
            colour,
        }) = answer
        else {
            self.lobby
                .send(crate::lobby::Cmd::Release { id, kind })
                .await;
            return;
        };
        let rules = Rules::standard(kind);
        let visitor = Visitor {
            host: other.host.clone(),
            session: other.session,
            name: crate::text::sanitize_name(&name, "Visitor"),
            account: account.filter(|a| a.len() <= 128),
            rating: rating.filter(|&r| r <= 10_000 && rated_rules(&rules)),
            colour: colour.and_then(|c| c.parse().ok()),
            token,
        };
        if !self.lobby.open_across(id, kind, visitor).await {
            // Our seeker went meanwhile: theirs seeks again.
            let gone = ToVisitor::Told(crate::protocol::News::OpponentLeftEarly);
            self.send_visitor(&other.host, other.session, &gone).await;
        }
    }

    /// Another host took our seeker's ticket: our seeker goes there, if
    /// it still seeks.
    pub(super) async fn answer_match(&self, body: &[u8]) -> MatchAnswer {
        let Ok(ask) = serde_json::from_slice::<MatchAsk>(body) else {
            return MatchAnswer::No;
        };
        let Ok(kind) = ask.game.parse::<GameKind>() else {
            return MatchAnswer::No;
        };
        if ask.instance != self.instance
            || !crate::cluster::valid_host_name(&ask.room_host)
            || !valid_token(&ask.token)
        {
            return MatchAnswer::No;
        }
        let Some((seeker, inbox)) = self.lobby.leave_for(ask.session, kind).await else {
            return MatchAnswer::No;
        };
        lock(&self.visits).insert(
            ask.session,
            Visit {
                seek: Some(kind),
                ..Visit::player(ask.room_host, &ask.token, inbox, seeker.account.clone())
            },
        );
        MatchAnswer::Yes {
            name: seeker.name,
            account: seeker.account,
            rating: seeker.rating,
            colour: seeker.colour.map(|c| c.name().to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ticket(host: &str, session: SessionId, rating: Option<u32>, since_ms: i64) -> Ticket {
        Ticket {
            host: host.into(),
            instance: format!("{host}-1"),
            session,
            name: format!("p{session}"),
            rating,
            since_ms,
            account: None,
        }
    }

    #[test]
    fn a_ticket_takes_the_closest_fitting_rating_of_another_live_host() {
        let live: HashMap<String, String> = [("b", "b-1"), ("c", "c-1")]
            .into_iter()
            .map(|(h, i)| (h.to_string(), i.to_string()))
            .collect();
        let wait = Duration::from_secs(30);
        let me = ticket("a", 1, Some(1500), 1000);
        let queue = vec![
            ticket("a", 2, Some(1500), 0),    // our own host: never
            ticket("dead", 3, Some(1500), 0), // no live host
            ticket("b", 4, Some(2100), 0),    // too far
            ticket("c", 5, Some(1580), 500),  // fits
            ticket("b", 6, Some(1530), 900),  // fits, closer
        ];
        assert_eq!(best_for(&me, &queue, &live, 1000, wait), Some(4));
        // A rating too far fits after a long enough wait.
        assert_eq!(best_for(&me, &queue[..3], &live, 1000, wait), None);
        let late = 1000 + 31_000;
        assert_eq!(best_for(&me, &queue[..3], &live, late, wait), Some(2));
        // A guest meets the longest waiting of another live host.
        let guest = ticket("a", 7, None, 1000);
        assert_eq!(best_for(&guest, &queue, &live, 1000, wait), Some(2));
        // A stale instance of a live host does not count.
        let mut old = ticket("b", 8, None, 0);
        old.instance = "b-0".into();
        assert_eq!(best_for(&guest, &[old], &live, 1000, wait), None);
    }

    #[test]
    fn an_account_seeking_on_two_hosts_is_never_paired_with_itself() {
        let live: HashMap<String, String> = [("b".to_string(), "b-1".to_string())].into();
        let wait = Duration::from_secs(30);
        let mut me = ticket("a", 1, Some(1500), 1000);
        me.account = Some("acct-bob".into());
        let mut twin = ticket("b", 2, Some(1500), 0);
        twin.account = Some("acct-bob".into());
        let mut other = ticket("b", 3, Some(1600), 500);
        other.account = Some("acct-ann".into());
        assert_eq!(best_for(&me, &[twin.clone()], &live, 1000, wait), None);
        assert_eq!(best_for(&me, &[twin, other], &live, 1000, wait), Some(1));
        // Two guests (no account) still meet.
        let guest = ticket("a", 4, None, 1000);
        assert_eq!(
            best_for(&guest, &[ticket("b", 5, None, 0)], &live, 1000, wait),
            Some(0)
        );
    }
}
