//! Cluster mode on NATS with JetStream: several `inarow serve` processes
//! share one lobby.
//!
//! What is here so far: the connection (refused at start when NATS cannot
//! be reached, then reconnecting by itself), each host's presence in a
//! key-value bucket (`<prefix>_hosts`, key `host.<name>`: who it is, when
//! it last spoke, its lobby's counts), a host name that is unique in the
//! cluster, and the counts every lobby shows summed over the live hosts.
//! Everything read from NATS is bounded and validated like network input.
//!
//! Quick match across hosts and tables whose players sit on different
//! hosts are in [`crossing`]; what crosses for them, in [`wire`].
//!
//! Buckets are made by hand as streams (`KV_<bucket>`): the client's
//! bucket creation fails on the NATS 2.9 servers this project runs on, and
//! per-key TTL does not exist there, so liveness is a heartbeat time inside
//! each value, with the bucket's `max_age` as the safety net.

pub mod crossing;
pub mod rooms;
pub mod wire;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, anyhow};
use async_nats::jetstream::{self, kv, stream};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::config::ClusterConfig;
use crate::lobby::state::Person;
use crate::metrics::{Metrics, dropped};
use crate::presence::Stats;

/// How often a host renews its presence (and measures the round trip).
pub const HEARTBEAT: Duration = Duration::from_secs(2);
/// A host whose presence is older than this counts as gone.
pub const HOST_ALIVE: Duration = Duration::from_secs(6);
/// Presence entries disappear this long after their last renewal, whatever
/// happened to their host (the bucket's `max_age`).
const PRESENCE_MAX_AGE: Duration = Duration::from_secs(60);
/// Largest value accepted from the bucket (a presence is ~200 bytes).
const MAX_VALUE: usize = 4096;
/// Most hosts taken into account (a bound on what NATS can make us hold).
const MAX_HOSTS: usize = 256;
/// Most people taken from other hosts (a bound on what NATS can make us hold).
const MAX_REMOTE_PEOPLE: usize = 100_000;
/// People announcements outlive a host that vanished at most this long
/// (they are ignored as soon as the host is not alive).
const PEOPLE_MAX_AGE: Duration = Duration::from_secs(24 * 3600);
/// The quick-match queues' safety net: a ticket older than this is gone.
const QUEUE_MAX_AGE: Duration = Duration::from_secs(3600);
/// Room codes' safety net: a code older than this is gone.
const CODES_MAX_AGE: Duration = Duration::from_secs(24 * 3600);
/// Rooms' safety net: a room not written for this long is gone.
const ROOMS_MAX_AGE: Duration = Duration::from_secs(24 * 3600);
/// How long the first connection may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// Tries at opening a bucket before the host gives up starting: a NATS
/// server that is slow for a moment (a busy disk under JetStream, hosts
/// starting at once) does not stop a host.
const OPEN_TRIES: u32 = 4;
/// The wait before the second try, doubled before each later one.
const OPEN_RETRY_DELAY: Duration = Duration::from_millis(250);

/// One host's presence, as stored under `host.<name>`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Presence {
    pub host: String,
    /// A random id of this run of the host (a restart is a new instance).
    pub instance: String,
    /// Milliseconds since the Unix epoch, at the last renewal.
    pub heartbeat_ms: i64,
    pub online: u32,
    pub playing: u32,
    /// Quick-match seekers per game (`connect4`, `gomoku`).
    #[serde(default)]
    pub waiting: Vec<(String, u32)>,
    /// The version of what this host says to the others
    /// ([`crate::protocol::WIRE_VERSION`]; 0 from hosts that predate it).
    #[serde(default)]
    pub wire: u32,
}

impl Presence {
    /// A value from the bucket, if it is one (bounded, parsed, sane).
    fn parse(bytes: &[u8]) -> Option<Presence> {
        if bytes.len() > MAX_VALUE {
            return None;
        }
        let p: Presence = serde_json::from_slice(bytes).ok()?;
        (valid_host_name(&p.host) && p.instance.len() <= 64 && p.waiting.len() <= 8).then_some(p)
    }

    fn alive(&self, now_ms: i64) -> bool {
        now_ms.saturating_sub(self.heartbeat_ms) < HOST_ALIVE.as_millis() as i64
    }
}

/// The live hosts this host plays with (name -> instance): those that
/// speak its wire version. A host of another version (a rolling upgrade
/// half done) would disagree on move acks and resume codes: its people
/// are not paired, invited or watched from here, and it is said once per
/// run of it (`warned`).
fn playable<'a>(
    alive: impl IntoIterator<Item = &'a Presence>,
    warned: &mut std::collections::HashSet<(String, String)>,
) -> HashMap<String, String> {
    let mut live = HashMap::new();
    for p in alive {
        if p.wire == crate::protocol::WIRE_VERSION {
            live.insert(p.host.clone(), p.instance.clone());
        } else if warned.insert((p.host.clone(), p.instance.clone())) {
            tracing::warn!(
                host = %p.host,
                theirs = p.wire,
                ours = crate::protocol::WIRE_VERSION,
                "a host of another wire version: not available for cross-host play"
            );
        }
    }
    live
}

/// Host names: what a NATS key token and a log line can hold (kept in
/// the configuration, which checks them first).
pub use crate::config::{default_host_name, valid_host_name};

fn game_word(kind: crate::game::GameKind) -> &'static str {
    kind.id()
}

fn game_of(word: &str) -> Option<crate::game::GameKind> {
    crate::game::GameKind::ALL
        .into_iter()
        .find(|k| k.id() == word)
}

/// A running host's place in the cluster.
pub struct Cluster {
    client: async_nats::Client,
    hosts: kv::Store,
    people: kv::Store,
    instance: String,
    name: String,
    stop: CancellationToken,
    task: tokio::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
    /// Matches and tables across hosts.
    crossing: tokio::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
    across: Arc<crossing::Crossing>,
    /// The other live hosts' counts, summed.
    remote: watch::Receiver<Stats>,
    live_hosts: watch::Receiver<usize>,
    /// Where what could not be written to NATS is counted.
    metrics: Arc<Metrics>,
}

/// What the heartbeat asks of the lobby: take the other hosts' counts and
/// people, give this host's own.
/// The lobby's side of matches and tables across hosts.
pub struct LobbyLink {
    pub lobby: crate::lobby::LobbyHandle,
    pub from_lobby: tokio::sync::mpsc::Receiver<crate::lobby::Across>,
    pub match_wait: Duration,
    pub chat_max: usize,
}

pub type Exchange = Arc<
    dyn Fn(Stats, Vec<Person>) -> tokio::sync::oneshot::Receiver<(Stats, Vec<Person>)>
        + Send
        + Sync,
>;

/// Someone on `host` as announced under `p.<host>.<instance>.<session>`,
/// if it is one (bounded, sanitised).
fn remote_person(bytes: &[u8], host: &str, session: u64) -> Option<Person> {
    if bytes.len() > 512 {
        return None;
    }
    let v: Person = serde_json::from_slice(bytes).ok()?;
    let name = crate::text::sanitize(&v.name, crate::text::MAX_NAME_WIDTH);
    if name.is_empty() || v.ratings.iter().flatten().any(|&r| r > 10_000) {
        return None;
    }
    Some(Person {
        id: session,
        host: Some(host.to_string()),
        name,
        account_id: v.account_id.filter(|a| a.len() <= 128),
        ..v
    })
}

/// `p.<host>.<instance>.<session>` split, if it is one.
fn person_key(key: &str) -> Option<(&str, &str, u64)> {
    let mut parts = key.strip_prefix("p.")?.split('.');
    let (host, instance, id) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || !valid_host_name(host) || instance.len() > 64 {
        return None;
    }
    Some((host, instance, id.parse().ok()?))
}

impl Cluster {
    /// Connects to NATS, opens the buckets and claims this host's name.
    /// Fails (naming the URL) when NATS cannot be reached, and when a live
    /// host already has the name.
    pub async fn join(
        config: &ClusterConfig,
        metrics: Arc<Metrics>,
        exchange: Exchange,
        link: LobbyLink,
    ) -> anyhow::Result<Cluster> {
        let url = &config.nats_url;
        let client = async_nats::ConnectOptions::new()
            .name(format!("inarow-{}", config.host_name))
            .connection_timeout(CONNECT_TIMEOUT)
            .request_timeout(Some(Duration::from_secs(3)))
            .max_reconnects(None)
            .reconnect_delay_callback(|n| Duration::from_millis((100u64 << n.min(5)).min(2000)))
            .subscription_capacity(1024)
            .event_callback(|ev| async move { tracing::info!(event = %ev, "nats") })
            .connect(url.as_str())
            .await
            .map_err(|e| anyhow!("cannot reach NATS at {url} (cluster.nats_url): {e}"))?;
        tracing::info!(url = %url, server = %client.server_info().version, "nats connected");
        let js = jetstream::new(client.clone());
        let bucket = format!("{}_hosts", config.prefix);
        let hosts = open_bucket(&js, &bucket, PRESENCE_MAX_AGE)
            .await
            .with_context(|| format!("cannot open the NATS bucket {bucket} at {url}"))?;

        let instance = uuid::Uuid::now_v7().simple().to_string();
        let key = format!("host.{}", config.host_name);
        let me = Presence {
            host: config.host_name.clone(),
            instance: instance.clone(),
            heartbeat_ms: crate::store::now_ms(),
            online: 0,
            playing: 0,
            waiting: Vec::new(),
            wire: crate::protocol::WIRE_VERSION,
        };
        let rev = claim_name(&hosts, &key, &me).await?;
        let people_bucket = format!("{}_people", config.prefix);
        let people = open_bucket(&js, &people_bucket, PEOPLE_MAX_AGE)
            .await
            .with_context(|| format!("cannot open the NATS bucket {people_bucket} at {url}"))?;

        let queue_bucket = format!("{}_queue", config.prefix);
        let queue = open_bucket(&js, &queue_bucket, QUEUE_MAX_AGE)
            .await
            .with_context(|| format!("cannot open the NATS bucket {queue_bucket} at {url}"))?;
        let codes_bucket = format!("{}_codes", config.prefix);
        let codes = open_bucket(&js, &codes_bucket, CODES_MAX_AGE)
            .await
            .with_context(|| format!("cannot open the NATS bucket {codes_bucket} at {url}"))?;
        let rooms_bucket = format!("{}_rooms", config.prefix);
        let rooms = open_bucket_sized(&js, &rooms_bucket, ROOMS_MAX_AGE, rooms::MAX_ROOM_VALUE)
            .await
            .with_context(|| format!("cannot open the NATS bucket {rooms_bucket} at {url}"))?;
        let seats_bucket = format!("{}_seats", config.prefix);
        let seats = open_bucket(&js, &seats_bucket, ROOMS_MAX_AGE)
            .await
            .with_context(|| format!("cannot open the NATS bucket {seats_bucket} at {url}"))?;
        let rooms = rooms::Rooms::new(rooms, config.host_name.clone())
            .with_instance(instance.clone())
            .with_seats(seats)
            .with_metrics(Arc::clone(&metrics));
        let (live_tx, live) = watch::channel(HashMap::new());

        let (remote_tx, remote) = watch::channel(Stats::default());
        let (hosts_tx, live_hosts) = watch::channel(1usize);
        let stop = CancellationToken::new();
        let task = tokio::spawn(heartbeat(
            client.clone(),
            hosts.clone(),
            people.clone(),
            key,
            me,
            rev,
            exchange,
            Arc::clone(&metrics),
            remote_tx,
            hosts_tx,
            live_tx,
            stop.clone(),
        ));
        let crossing = crossing::Crossing::new(
            client.clone(),
            queue,
            codes,
            rooms,
            config.prefix.clone(),
            config.host_name.clone(),
            instance.clone(),
            link.lobby,
            link.match_wait,
            link.chat_max,
            live,
            hosts.clone(),
            Arc::clone(&metrics),
        );
        let across = Arc::clone(&crossing);
        let crossing = tokio::spawn(crossing.run(link.from_lobby, stop.clone()));
        Ok(Cluster {
            across,
            crossing: tokio::sync::Mutex::new(Some(crossing)),
            client,
            hosts,
            people,
            instance,
            name: config.host_name.clone(),
            stop,
            task: tokio::sync::Mutex::new(Some(task)),
            remote,
            live_hosts,
            metrics,
        })
    }

    /// Whether NATS is connected now.
    /// The games in play on the other live hosts that may be watched:
    /// each with its host (a host that does not answer in time is left out).
    pub async fn games(&self) -> Vec<crate::protocol::GameSummary> {
        self.across.games().await
    }

    /// Our session `id` would watch the game at `room` on `host`; the
    /// answer comes to the session as for a game here.
    pub fn watch(&self, id: crate::lobby::SessionId, host: String, room: u64) {
        self.across.watch(id, host, room);
    }

    /// The web on this host would follow the game at `room` on `host`
    /// (`id`: a session number of this host's, for the visit): the
    /// table's states come to the inbox returned, or `None` (no such game,
    /// the host does not answer).
    pub async fn watch_for_web(
        &self,
        id: crate::lobby::SessionId,
        host: String,
        room: u64,
    ) -> Option<crate::mailbox::Receiver<crate::lobby::ToSession>> {
        self.across.watch_for_web(id, host, room).await
    }

    /// This host's name in the cluster.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn connected(&self) -> bool {
        self.client.connection_state() == async_nats::connection::State::Connected
    }

    /// The other live hosts' counts, summed.
    pub fn remote(&self) -> Stats {
        self.remote.borrow().clone()
    }

    /// Live hosts, this one included.
    pub fn hosts(&self) -> usize {
        *self.live_hosts.borrow()
    }

    /// Leaves the cluster: the presence is removed so the others drop
    /// this host's counts at once.
    pub async fn leave(&self) {
        self.stop.cancel();
        if let Some(task) = self.task.lock().await.take() {
            let _ = task.await;
        }
        if let Some(task) = self.crossing.lock().await.take() {
            let _ = tokio::time::timeout(Duration::from_secs(3), task).await;
        }
        // Rooms handed over are released before the host is seen to go.
        self.across.keeping.close();
        let _ = tokio::time::timeout(Duration::from_secs(3), self.across.keeping.wait()).await;
        let key = format!("host.{}", self.name);
        match tokio::time::timeout(Duration::from_secs(2), self.hosts.delete(&key)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => self.dropped(&key, e),
            Err(_) => self.dropped(&key, "not deleted in time"),
        }
        // Our people's announcements (ignored by the others from now on,
        // as the host is gone; removed so they do not wait for max_age).
        let prefix = format!("p.{}.{}.", self.name, self.instance);
        let _ = tokio::time::timeout(Duration::from_secs(3), async {
            use futures_util::StreamExt;
            if let Ok(keys) = self.people.keys().await {
                let keys: Vec<String> = keys
                    .take(MAX_REMOTE_PEOPLE)
                    .filter_map(|k| async move { k.ok() })
                    .collect()
                    .await;
                for k in keys.iter().filter(|k| k.starts_with(&prefix)) {
                    if let Err(e) = self.people.purge(k).await {
                        self.dropped(k, e);
                    }
                }
            }
        })
        .await;
        let _ = tokio::time::timeout(Duration::from_secs(2), self.client.flush()).await;
    }

    /// A write to NATS (`what`: its key) given up on: counted and logged.
    fn dropped(&self, what: &str, why: impl std::fmt::Display) {
        self.metrics
            .dropped(dropped::NATS_PUBLISH, format_args!("{what}: {why}"));
    }
}

/// Opens a key-value bucket, creating its stream first when missing
/// (the way that works on NATS 2.9 as on newer servers).
pub async fn open_bucket(
    js: &jetstream::Context,
    bucket: &str,
    max_age: Duration,
) -> anyhow::Result<kv::Store> {
    open_bucket_sized(js, bucket, max_age, MAX_VALUE).await
}

/// [`open_bucket`] with values up to `max_value` bytes.
pub async fn open_bucket_sized(
    js: &jetstream::Context,
    bucket: &str,
    max_age: Duration,
    max_value: usize,
) -> anyhow::Result<kv::Store> {
    let mut retry = Retry::default();
    loop {
        match open_bucket_once(js, bucket, max_age, max_value).await {
            Ok(store) => return Ok(store),
            Err((e, true)) => retry.after(bucket, e).await?,
            Err((e, false)) => return Err(e),
        }
    }
}

/// The tries at a NATS request while a host starts: [`OPEN_TRIES`] in
/// all, the first wait [`OPEN_RETRY_DELAY`], doubled before each later one.
struct Retry {
    failures: u32,
    delay: Duration,
}

impl Default for Retry {
    fn default() -> Retry {
        Retry {
            failures: 0,
            delay: OPEN_RETRY_DELAY,
        }
    }
}

impl Retry {
    /// After a failure of `what`: waits for the next try, or gives the
    /// error back when the tries are spent.
    async fn after(&mut self, what: &str, e: anyhow::Error) -> anyhow::Result<()> {
        self.failures += 1;
        if self.failures >= OPEN_TRIES {
            return Err(e);
        }
        tracing::warn!(what, tries = self.failures, error = %e, "a NATS request at start failed; trying again");
        tokio::time::sleep(self.delay).await;
        self.delay *= 2;
        Ok(())
    }
}

/// One try of [`open_bucket_sized`]; the error says whether another try
/// may do better (not for a bad name, which no try will mend).
async fn open_bucket_once(
    js: &jetstream::Context,
    bucket: &str,
    max_age: Duration,
    max_value: usize,
) -> Result<kv::Store, (anyhow::Error, bool)> {
    use jetstream::context::CreateStreamErrorKind as Kind;
    js.get_or_create_stream(stream::Config {
        name: format!("KV_{bucket}"),
        subjects: vec![format!("$KV.{bucket}.>")],
        max_messages_per_subject: 1,
        max_age,
        max_message_size: max_value.min(i32::MAX as usize) as i32,
        allow_rollup: true,
        deny_delete: true,
        allow_direct: true,
        discard: stream::DiscardPolicy::New,
        ..Default::default()
    })
    .await
    .map_err(|e| {
        let again = !matches!(
            e.kind(),
            Kind::EmptyStreamName | Kind::InvalidStreamName | Kind::DomainAndExternalSet
        );
        (anyhow!("{e}"), again)
    })?;
    js.get_key_value(bucket)
        .await
        .map_err(|e| (anyhow!("{e}"), true))
}

/// Takes `key` for this host unless a live host holds it; returns the
/// revision written.
async fn claim_name(hosts: &kv::Store, key: &str, me: &Presence) -> anyhow::Result<u64> {
    let value: bytes::Bytes = serde_json::to_vec(me)?.into();
    // A request that failed (NATS slow for a moment) is tried again, as a
    // bucket's open is; an update that timed out may have been written,
    // and then the entry read next is this instance's own.
    let mut retry = Retry::default();
    let failed = |e: &dyn std::fmt::Display| anyhow!("cannot announce this host on NATS: {e}");
    let mut races = 0;
    while races < 5 {
        let rev = match hosts.entry(key).await {
            Ok(Some(e)) if e.operation == kv::Operation::Put => {
                if let Some(p) = Presence::parse(&e.value)
                    && p.instance != me.instance
                    && p.alive(crate::store::now_ms())
                {
                    return Err(anyhow!(
                        "another host named {} is running in the cluster (cluster.host_name must be unique)",
                        me.host
                    ));
                }
                e.revision
            }
            Ok(Some(e)) => e.revision,
            Ok(None) => 0,
            Err(e) => {
                retry.after(key, failed(&e)).await?;
                continue;
            }
        };
        match hosts.update(key, value.clone(), rev).await {
            Ok(rev) => return Ok(rev),
            Err(e) if e.kind() == kv::UpdateErrorKind::WrongLastRevision => races += 1,
            Err(e) => retry.after(key, failed(&e)).await?,
        }
    }
    Err(anyhow!(
        "another host named {} is starting in the cluster (cluster.host_name must be unique)",
        me.host
    ))
}

/// Renews this host's presence, reads the others', and trades counts with
/// the lobby, every [`HEARTBEAT`], until stopped. NATS going away only
/// pauses it; it carries on when NATS is back.
#[allow(clippy::too_many_arguments)]
async fn heartbeat(
    client: async_nats::Client,
    hosts: kv::Store,
    people: kv::Store,
    key: String,
    mut me: Presence,
    mut rev: u64,
    exchange: Exchange,
    metrics: Arc<Metrics>,
    remote_tx: watch::Sender<Stats>,
    hosts_tx: watch::Sender<usize>,
    live_tx: watch::Sender<HashMap<String, String>>,
    stop: CancellationToken,
) {
    let mut tick = tokio::time::interval(HEARTBEAT);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let others = Arc::new(std::sync::Mutex::new(HashMap::new()));
    let follower = tokio::spawn(follow(
        hosts.clone(),
        key.clone(),
        Arc::clone(&others),
        stop.clone(),
    ));
    let _follower = AbortOnDrop(follower);
    let everyone = Arc::new(std::sync::Mutex::new(HashMap::new()));
    let people_follower = tokio::spawn(follow_people(
        people.clone(),
        Arc::clone(&everyone),
        stop.clone(),
    ));
    let _people_follower = AbortOnDrop(people_follower);
    // What we announced: session -> value.
    let mut announced: HashMap<u64, Person> = HashMap::new();
    // The runs of other hosts of another wire version, said once each.
    let mut warned = std::collections::HashSet::new();
    loop {
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tick.tick() => {}
        }
        // The round trip to NATS.
        let started = std::time::Instant::now();
        let reachable = tokio::time::timeout(Duration::from_secs(2), client.flush())
            .await
            .is_ok_and(|r| r.is_ok())
            && client.connection_state() == async_nats::connection::State::Connected;
        if reachable {
            metrics
                .nats_round_trip
                .observe(started.elapsed().as_secs_f64());
        }
        // The others' counts to the lobby, ours back.
        let now = crate::store::now_ms();
        let (remote, live, instances) = {
            let map = others.lock().unwrap_or_else(|e| e.into_inner());
            let alive: Vec<&Presence> = map.values().filter(|p| p.alive(now)).collect();
            let instances = playable(alive.iter().copied(), &mut warned);
            (sum(alive.iter().copied()), alive.len() + 1, instances)
        };
        // The people of live hosts only (a vanished host's are ignored).
        let remote_people: Vec<Person> = {
            let map = everyone.lock().unwrap_or_else(|e| e.into_inner());
            map.iter()
                .filter(|((host, instance, _), _)| instances.get(host) == Some(instance))
                .map(|(_, p): (_, &Person)| p.clone())
                .collect()
        };
        let mut remote = remote;
        remote.degraded = !reachable;
        let _ = remote_tx.send_replace(remote.clone());
        let _ = live_tx.send_replace(instances.clone());
        let _ = hosts_tx.send_replace(live);
        metrics.cluster_hosts.set(live as i64);
        let (local, local_people) =
            match tokio::time::timeout(Duration::from_secs(1), exchange(remote, remote_people))
                .await
            {
                Ok(Ok(local)) => local,
                _ => continue, // the lobby is gone or busy: next time
            };
        announce_people(&people, &me, &local_people, &mut announced).await;
        me.heartbeat_ms = crate::store::now_ms();
        me.online = local.online as u32;
        me.playing = local.playing as u32;
        me.waiting = local
            .waiting
            .iter()
            .map(|(k, n)| (game_word(*k).to_string(), *n as u32))
            .collect();
        let Ok(value) = serde_json::to_vec(&me) else {
            continue;
        };
        match tokio::time::timeout(
            Duration::from_secs(2),
            hosts.update(&key, value.into(), rev),
        )
        .await
        {
            Ok(Ok(r)) => rev = r,
            Ok(Err(e)) if e.kind() == kv::UpdateErrorKind::WrongLastRevision => {
                // A write that timed out earlier may have landed after all:
                // take the current revision if the value is still ours.
                match hosts.entry(&key).await {
                    Ok(Some(e)) => match Presence::parse(&e.value) {
                        Some(p) if p.instance == me.instance => rev = e.revision,
                        Some(_) => {
                            tracing::error!(host = %me.host, "another host took this host's name in the cluster")
                        }
                        None => rev = e.revision,
                    },
                    Ok(None) => rev = 0,
                    Err(_) => {}
                }
            }
            // Renewed again at the next heartbeat.
            Ok(Err(e)) => metrics.dropped(dropped::NATS_PUBLISH, format_args!("{key}: {e}")),
            Err(_) => metrics.dropped(
                dropped::NATS_PUBLISH,
                format_args!("{key}: not renewed in time"),
            ),
        }
    }
}

/// Brings this host's people in the bucket up to date with `now`: puts
/// who is new or changed, removes who left. What fails is tried again at
/// the next heartbeat.
async fn announce_people(
    people: &kv::Store,
    me: &Presence,
    now: &[Person],
    announced: &mut HashMap<u64, Person>,
) {
    let key = |id: u64| format!("p.{}.{}.{id}", me.host, me.instance);
    let current: HashMap<u64, Person> = now.iter().map(|p| (p.id, p.clone())).collect();
    let gone: Vec<u64> = announced
        .keys()
        .filter(|id| !current.contains_key(id))
        .copied()
        .collect();
    for id in gone {
        match tokio::time::timeout(Duration::from_secs(2), people.purge(key(id))).await {
            Ok(Ok(())) => {
                announced.remove(&id);
            }
            _ => return,
        }
    }
    for (id, value) in current {
        if announced.get(&id) == Some(&value) {
            continue;
        }
        let Ok(bytes) = serde_json::to_vec(&value) else {
            continue;
        };
        match tokio::time::timeout(Duration::from_secs(2), people.put(key(id), bytes.into())).await
        {
            Ok(Ok(_)) => {
                announced.insert(id, value);
            }
            _ => return,
        }
    }
}

/// The other hosts' people by (host, instance, session).
type Everyone = HashMap<(String, String, u64), Person>;

/// Follows the keys matching `pattern` in `bucket`, from their history
/// on, handing each change to `take`, until stopped; a watcher that ends
/// (NATS gone a long while) is made again.
async fn follow_bucket(
    bucket: kv::Store,
    pattern: &str,
    stop: CancellationToken,
    mut take: impl FnMut(kv::Entry),
) {
    use futures_util::StreamExt;
    loop {
        let mut watch = tokio::select! {
            _ = stop.cancelled() => return,
            w = bucket.watch_with_history(pattern) => match w {
                Ok(w) => w,
                Err(e) => {
                    tracing::debug!(error = %e, pattern, "cannot watch a NATS bucket");
                    tokio::select! {
                        _ = stop.cancelled() => return,
                        _ = tokio::time::sleep(HEARTBEAT) => continue,
                    }
                }
            },
        };
        loop {
            let entry = tokio::select! {
                _ = stop.cancelled() => return,
                e = watch.next() => e,
            };
            let Some(Ok(entry)) = entry else {
                break; // ended or failed: watch again
            };
            take(entry);
        }
    }
}

/// Follows everyone's announcements (bounded, validated) into `everyone`,
/// by (host, instance, session).
async fn follow_people(
    people: kv::Store,
    everyone: Arc<std::sync::Mutex<Everyone>>,
    stop: CancellationToken,
) {
    follow_bucket(people, "p.>", stop, |entry| {
        let Some((host, instance, id)) = person_key(&entry.key) else {
            return;
        };
        let k = (host.to_string(), instance.to_string(), id);
        let mut map = everyone.lock().unwrap_or_else(|e| e.into_inner());
        match entry.operation {
            kv::Operation::Put => match remote_person(&entry.value, host, id) {
                Some(p) if map.len() < MAX_REMOTE_PEOPLE || map.contains_key(&k) => {
                    map.insert(k, p);
                }
                _ => {
                    map.remove(&k);
                }
            },
            kv::Operation::Delete | kv::Operation::Purge => {
                map.remove(&k);
            }
        }
    })
    .await;
}

/// Follows every host's presence (bounded, validated) into `others`.
async fn follow(
    hosts: kv::Store,
    own: String,
    others: Arc<std::sync::Mutex<HashMap<String, Presence>>>,
    stop: CancellationToken,
) {
    follow_bucket(hosts, "host.>", stop, |entry| {
        if entry.key == own {
            return;
        }
        let mut map = others.lock().unwrap_or_else(|e| e.into_inner());
        match entry.operation {
            kv::Operation::Put => match Presence::parse(&entry.value) {
                Some(p) if format!("host.{}", p.host) == entry.key => {
                    if map.len() < MAX_HOSTS || map.contains_key(&entry.key) {
                        map.insert(entry.key, p);
                    }
                }
                _ => {
                    map.remove(&entry.key);
                }
            },
            kv::Operation::Delete | kv::Operation::Purge => {
                map.remove(&entry.key);
            }
        }
    })
    .await;
}

pub(crate) struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The counts of several hosts, summed.
fn sum<'a>(hosts: impl Iterator<Item = &'a Presence>) -> Stats {
    let mut total = Stats::default();
    let mut waiting: HashMap<crate::game::GameKind, usize> = HashMap::new();
    for p in hosts {
        total.online += p.online as usize;
        total.playing += p.playing as usize;
        for (word, n) in &p.waiting {
            if let Some(kind) = game_of(word) {
                *waiting.entry(kind).or_default() += *n as usize;
            }
        }
    }
    total.waiting = waiting.into_iter().collect();
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presence_from_the_wire_is_bounded_and_checked() {
        let p = Presence {
            host: "a-1".into(),
            instance: "x".into(),
            heartbeat_ms: 1000,
            online: 3,
            playing: 2,
            waiting: vec![("gomoku".into(), 1), ("chess".into(), 9)],
            wire: crate::protocol::WIRE_VERSION,
        };
        let bytes = serde_json::to_vec(&p).unwrap();
        assert_eq!(Presence::parse(&bytes), Some(p.clone()));
        assert!(p.alive(1000 + 5000));
        assert!(!p.alive(1000 + 7000));
        // A bad host name, junk, or too much.
        let bad = Presence {
            host: "a b\u{1b}[2J".into(),
            ..p.clone()
        };
        assert_eq!(Presence::parse(&serde_json::to_vec(&bad).unwrap()), None);
        assert_eq!(Presence::parse(b"{\"host\":"), None);
        assert_eq!(Presence::parse(&vec![b' '; MAX_VALUE + 1]), None);
        // Unknown games are left out of the sums.
        let s = sum([p.clone(), p].iter());
        assert_eq!((s.online, s.playing), (6, 4));
        assert_eq!(s.waiting_for(crate::game::GameKind::Gomoku), 2);
        assert_eq!(s.waiting.len(), 1);
    }

    #[test]
    fn a_host_of_another_wire_version_is_not_played_with() {
        let host = |name: &str, wire: u32| Presence {
            host: name.into(),
            instance: format!("{name}-1"),
            heartbeat_ms: 1000,
            online: 1,
            playing: 0,
            waiting: Vec::new(),
            wire,
        };
        // A host from before the version was announced reads as 0.
        let old: Presence = serde_json::from_str(
            r#"{"host":"old","instance":"old-1","heartbeat_ms":1000,"online":1,"playing":0}"#,
        )
        .unwrap();
        assert_eq!(old.wire, 0);
        let now = crate::protocol::WIRE_VERSION;
        let hosts = [host("b", now), host("c", now + 1), old];
        let mut warned = std::collections::HashSet::new();
        let live = playable(&hosts, &mut warned);
        assert_eq!(live, HashMap::from([("b".to_string(), "b-1".to_string())]));
        assert_eq!(warned.len(), 2, "each said once: {warned:?}");
        // The next heartbeat says nothing new, and the same hosts stay out.
        assert_eq!(playable(&hosts, &mut warned), live);
        assert_eq!(warned.len(), 2);
        // A host that comes back upgraded (a new run) is played with.
        let upgraded = Presence {
            instance: "c-2".into(),
            ..host("c", now)
        };
        let live = playable([&hosts[0], &upgraded], &mut warned);
        assert_eq!(live.get("c").map(String::as_str), Some("c-2"));
    }

    #[test]
    fn host_names_are_tokens() {
        assert!(valid_host_name("web-1_a"));
        assert!(!valid_host_name(""));
        assert!(!valid_host_name("a.b"));
        assert!(!valid_host_name("a*"));
        assert!(valid_host_name(&default_host_name()));
    }
}
