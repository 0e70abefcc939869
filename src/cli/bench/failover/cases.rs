//! The cases of the fault matrix, each run once on hosts of its own.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::game::{
    Game, Outcome, check_record, check_record_within, clocks_kept, clocks_now, names_of, pair,
    records_of, seat,
};
use super::hosts::{Cluster, Rooms, signal};
use super::outages::{NatsServer, StoreProxy};
use super::player::{Player, new_key};
use super::{
    BenchFailoverArgs, LOST_CONNECTION, MY_TURN, OUTAGE, PAUSE, RESUME_WAIT, SIGNED_IN_ELSEWHERE,
    THEIR_TURN, WAIT, WON,
};

/// Runs case `case` once (run number `run`).
pub(super) async fn run_case(
    case: usize,
    run: usize,
    args: &BenchFailoverArgs,
    store_url: &str,
) -> Outcome {
    let mut out = Outcome::default();
    let tag = format!("{case}r{run}");
    // Case 6 runs on a NATS server of its own, case 7 reaches the store
    // through a proxy it can cut.
    let mut nats = None;
    if case == 6 {
        match NatsServer::start(&args.nats_server, &tag) {
            Ok(n) => nats = Some(n),
            Err(e) => {
                out.failure = Some(format!("nats-server: {e:#}"));
                return out;
            }
        }
    }
    let mut proxy = None;
    if case == 7 {
        match StoreProxy::start(store_url).await {
            Ok(p) => proxy = Some(p),
            Err(e) => {
                out.failure = Some(format!("store proxy: {e:#}"));
                return out;
            }
        }
    }
    let nats_url = nats
        .as_ref()
        .map_or_else(|| args.nats_url.clone(), NatsServer::url);
    let host_store = proxy
        .as_ref()
        .map_or_else(|| store_url.to_string(), |p| p.url.clone());
    let mut cluster = match Cluster::start(&tag, 2, &nats_url, &host_store) {
        Ok(c) => c,
        Err(e) => {
            out.failure = Some(format!("hosts: {e:#}"));
            return out;
        }
    };
    let result = match (case, nats.as_mut(), proxy.as_ref()) {
        (1, ..) => table_host_killed(&mut cluster, run, store_url, &mut out).await,
        (2, ..) => visitor_host_killed(&mut cluster, run, store_url, &mut out).await,
        (3, ..) => rolling_restart(&mut cluster, run, store_url, &mut out).await,
        (4, ..) => one_key_two_hosts(&mut cluster, run, store_url, &mut out).await,
        (5, ..) => table_host_paused(&mut cluster, run, store_url, &mut out).await,
        (6, Some(n), _) => nats_restarted(&mut cluster, n, run, store_url, &mut out).await,
        (7, _, Some(p)) => store_down(&mut cluster, p, run, store_url, &mut out).await,
        _ => Err(anyhow::anyhow!("no such case")),
    };
    if let Err(e) = result {
        let reason = format!("{e:#}");
        eprintln!(
            "failover: case {case} run {run} failed: {reason}\n{}",
            cluster.logs()
        );
        out.failure = Some(reason);
    }
    cluster.stop_all();
    cluster.close().await;
    drop(nats);
    drop(proxy);
    out
}

/// Sets up the common start: players on hosts 0 and 1, the seeker order
/// alternating by run (the table lands on the second seeker's host); the
/// game four moves in, the table's host and the player on it.
pub(super) async fn start_game(
    cluster: &Cluster,
    case: usize,
    run: usize,
) -> anyhow::Result<(Game, usize, usize)> {
    let seek_first = run % 2;
    let game = pair(cluster, names_of(case, run), [0, 1], seek_first).await?;
    let rooms = Rooms::open(&cluster.nats_url, &cluster.prefix).await?;
    let owner = rooms.owner_at(4).await?;
    let table = cluster
        .index_of(&owner)
        .with_context(|| format!("the table is on an unknown host {owner}"))?;
    let on_table = game
        .on_host(table)
        .context("a player on the table's host")?;
    Ok((game, table, on_table))
}

/// (1) The table's host is killed; its player comes back on the other host.
pub(super) async fn table_host_killed(
    cluster: &mut Cluster,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let (mut g, _, doomed) = start_game(&*cluster, 1, run).await?;
    let other = 1 - doomed;
    let before = clocks_now(&mut g.players[other]).await?;
    let fault = g.host_signalled(cluster, doomed, "KILL", "killed").await?;
    let to = g.on[other];
    g.come_back_and_finish(cluster, doomed, to, fault, (other, before), store_url, out)
        .await
}

/// (2) A visitor's host is killed: the table's host tells the opponent
/// within 10 s; the player comes back to the table's host.
pub(super) async fn visitor_host_killed(
    cluster: &mut Cluster,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let (mut g, table, opponent) = start_game(&*cluster, 2, run).await?;
    let visitor = 1 - opponent;
    let before = clocks_now(&mut g.players[opponent]).await?;
    let fault = g.host_signalled(cluster, visitor, "KILL", "killed").await?;
    let told = format!("{} {LOST_CONNECTION}", g.names[visitor]);
    g.players[opponent]
        .wait_for(&told, Duration::from_secs(10))
        .await
        .context("the opponent told within 10 s")?;
    g.come_back_and_finish(
        cluster,
        visitor,
        table,
        fault,
        (opponent, before),
        store_url,
        out,
    )
    .await
}

/// (3) The table's host restarts (SIGTERM, started again under its name);
/// its player comes back to it.
pub(super) async fn rolling_restart(
    cluster: &mut Cluster,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let (mut g, table, leaving) = start_game(&*cluster, 3, run).await?;
    let other = 1 - leaving;
    let before = clocks_now(&mut g.players[other]).await?;
    let fault = g
        .host_signalled(cluster, leaving, "TERM", "restarting")
        .await?;
    let said = String::from_utf8_lossy(&g.players[leaving].raw).contains("This host is restarting");
    if !said {
        bail!("the player on the restarting host was not told it restarts");
    }
    restart(cluster, table)?;
    g.come_back_and_finish(
        cluster,
        leaving,
        table,
        fault,
        (other, before),
        store_url,
        out,
    )
    .await
}

/// Waits for host `i` to stop and starts it again (same name, config,
/// port).
pub(super) fn restart(cluster: &mut Cluster, i: usize) -> anyhow::Result<()> {
    let nats_url = cluster.nats_url.clone();
    let host = &mut cluster.hosts[i];
    host.wait_exit(Duration::from_secs(20))
        .context("the host after SIGTERM")?;
    host.start(&nats_url).context("the restarted host")
}

/// (4) One key signs in on a second host while seeking on the first: the
/// first session is closed and told why, the second keeps the name, and
/// it is paired with the other player, not with its old self.
pub(super) async fn one_key_two_hosts(
    cluster: &mut Cluster,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let names = names_of(4, run);
    let keys = [new_key()?, new_key()?];
    let (a, b) = (cluster.hosts[0].addr, cluster.hosts[1].addr);
    // X (player 0) seeks on A; Y (player 1) is on A too.
    let mut old = Player::connect(a, &names[0], &keys[0]).await?;
    let mut y = Player::connect(a, &names[1], &keys[1]).await?;
    old.wait_for(&format!("you are {}", names[0]), WAIT).await?;
    y.wait_for("2 online", WAIT).await?;
    // A guest on B sees both: B has heard from A (a sign-in on B is told
    // only to the hosts B knows to be live).
    let mut watcher = Player::connect_as(b, &format!("w{run}"), None).await?;
    watcher
        .wait_for("3 online", WAIT)
        .await
        .context("the hosts see each other")?;
    old.seek().await?;
    old.wait_for("Looking for", WAIT).await?;
    // X signs in on B.
    let fault = Instant::now();
    let mut x = Player::connect(b, &names[0], &keys[0]).await?;
    x.wait_for("you are ", WAIT).await?;
    if x.header_name().as_deref() != Some(names[0].as_str()) {
        bail!(
            "the second session is not named {}; {}",
            names[0],
            x.shown()
        );
    }
    if let Err(e) = old.wait_closed(Duration::from_secs(10)).await {
        bail!(
            "the first session of the key (seeking on {}): {e:#}; {}",
            cluster.hosts[0].name,
            old.shown()
        );
    }
    if !String::from_utf8_lossy(&old.raw).contains(SIGNED_IN_ELSEWHERE) {
        bail!("the first session was closed without {SIGNED_IN_ELSEWHERE:?}");
    }
    // Seek; by turns X or Y first (the table on A or on B).
    let mut players = [x, y];
    let seek_first = run % 2;
    let x_first = seat(&mut players, &names, seek_first).await?;
    let mut g = Game {
        names,
        keys,
        players,
        on: [1, 0],
        first: if x_first { 0 } else { 1 },
    };
    out.resume = Some(g.resumed(fault).await?);
    g.play_moves(0, 4).await.context("the first four moves")?;
    g.finish_recorded(store_url, out).await
}

/// (5) The table's host is paused (SIGSTOP) longer than its lease, then
/// resumed: the game must go on on the other host, and the paused host
/// must not keep a second table that takes moves.
pub(super) async fn table_host_paused(
    cluster: &mut Cluster,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let (mut g, table, stuck) = start_game(&*cluster, 5, run).await?;
    let other = 1 - stuck;
    let before = clocks_now(&mut g.players[other]).await?;
    let pid = cluster.hosts[table].pid().context("the table's host")?;
    signal(pid, "STOP")?;
    let fault = Instant::now();
    // Resumed after the pause, whatever the players do meanwhile.
    let resumer = std::thread::spawn(move || {
        std::thread::sleep(PAUSE);
        signal(pid, "CONT")
    });
    // The player whose host hangs opens a new session on the other host;
    // the old one hangs on (its client does not know the host is paused).
    let to = g.on[other];
    let fresh = Player::connect(cluster.hosts[to].addr, &g.names[stuck], &g.keys[stuck]).await?;
    let mut stale = std::mem::replace(&mut g.players[stuck], fresh);
    g.on[stuck] = to;
    let resumed = g.resumed(fault).await;
    let cont = resumer
        .join()
        .map_err(|_| anyhow::anyhow!("SIGCONT thread"))?;
    cont.context("SIGCONT")?;
    out.resume = Some(resumed.context("the game carried on while the host is paused")?);
    clocks_kept(before, clocks_now(&mut g.players[other]).await?)?;
    // The paused host runs again. Its old table must not take a move: try
    // one from the stale session (column c, which the game never plays).
    stale.pump(Duration::from_secs(3)).await;
    eprintln!(
        "failover: case 5 run {run}: 3 s after SIGCONT the old session on the paused host is {}; {}",
        if stale.closed { "closed" } else { "open" },
        stale.shown()
    );
    let mut stale_took_move = false;
    if !stale.closed && stale.screen().contains(MY_TURN) {
        stale.send(b"c\r").await.ok();
        stale.pump(Duration::from_secs(2)).await;
        stale_took_move = !stale.closed && stale.screen().contains(THEIR_TURN);
    }
    let rooms = Rooms::open(&cluster.nats_url, &cluster.prefix).await?;
    let kept = rooms.all().await;
    let owners: Vec<String> = kept.iter().map(|r| r.owner.clone()).collect();
    let paused = &cluster.hosts[table].name;
    if owners.iter().any(|o| o == paused) {
        bail!("the paused host, running again, holds the room in NATS (owners: {owners:?})");
    }
    if owners.len() != 1 {
        bail!("one room kept in NATS expected after SIGCONT, found owners {owners:?}");
    }
    if stale_took_move {
        bail!(
            "the paused host, running again, took a move at its old table (rooms kept: {owners:?}); {}",
            stale.shown()
        );
    }
    // One account, one live session.
    stale
        .wait_closed(Duration::from_secs(10))
        .await
        .context("the old session on the paused host after SIGCONT")?;
    g.finish_recorded(store_url, out).await
}

/// (6) NATS stops for 10 s and starts again (its store on disk kept):
/// nobody is closed; the move the player to move types during the outage
/// is played (or its player is told to play it again: never lost without
/// a word); the game goes on across the hosts once NATS is back, one host
/// keeps the room, the game is recorded once. The time reported is from
/// NATS being back until that move shows on both screens.
pub(super) async fn nats_restarted(
    cluster: &mut Cluster,
    nats: &mut NatsServer,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let (mut g, table, _) = start_game(&*cluster, 6, run).await?;
    let before = clocks_now(&mut g.players[0]).await?;
    nats.down()?;
    let fault = Instant::now();
    g.pump_for(Duration::from_secs(2)).await?;
    let mover = g.first;
    let them = 1 - mover;
    g.players[mover]
        .wait_for(MY_TURN, WAIT)
        .await
        .context("the turn during the outage")?;
    g.players[mover].send(b"a\r").await?;
    g.pump_for(OUTAGE.saturating_sub(fault.elapsed())).await?;
    eprintln!(
        "failover: case 6 run {run}: {:?} without NATS (the table on {}, {} moved at 2 s): {}; {}",
        fault.elapsed(),
        cluster.hosts[table].name,
        g.names[mover],
        g.players[mover].shown(),
        g.players[them].shown()
    );
    nats.up()?;
    let back = Instant::now();
    let played = |g: &Game| {
        g.players[mover].screen().contains(THEIR_TURN)
            && g.players[them].screen().contains(MY_TURN)
            && !g.players[them].screen().contains(LOST_CONNECTION)
    };
    let deadline = back + RESUME_WAIT;
    let mut replayed = false;
    while !played(&g) {
        if Instant::now() > deadline {
            bail!(
                "the move typed while NATS was away did not show within {RESUME_WAIT:?} of its return; {}; {}",
                g.players[mover].shown(),
                g.players[them].shown()
            );
        }
        let told = {
            let s = g.players[mover].screen();
            s.contains("play again in a moment") || s.contains("play your move again")
        };
        if told && !replayed && back.elapsed() > Duration::from_secs(3) {
            eprintln!("failover: case 6 run {run}: told to play the move again; played again");
            g.players[mover].send(b"a\r").await?;
            replayed = true;
        }
        g.pump_for(Duration::from_millis(100)).await?;
    }
    out.resume = Some(back.elapsed());
    clocks_kept(before, clocks_now(&mut g.players[0]).await?)?;
    // A move each way across the hosts, then the room is held by one host.
    g.play_moves(5, 1)
        .await
        .context("the move after NATS came back")?;
    let rooms = Rooms::open(&cluster.nats_url, &cluster.prefix).await?;
    let owners: Vec<String> = rooms.all().await.into_iter().map(|r| r.owner).collect();
    if owners.len() != 1 {
        bail!("one room kept in NATS expected after the restart, found owners {owners:?}");
    }
    if owners[0] != cluster.hosts[table].name {
        eprintln!(
            "failover: case 6 run {run}: the room moved from {} to {}",
            cluster.hosts[table].name, owners[0]
        );
    }
    g.play_moves(6, 1).await.context("the winning move")?;
    for p in &mut g.players {
        p.wait_for(WON, WAIT).await.context("the win")?;
    }
    out.finished = true;
    check_record(store_url, &g.names).await?;
    out.recorded_once = true;
    Ok(())
}

/// (7) PostgreSQL is unreachable for 10 s while the game is played to its
/// end: the end is shown at once, the record waits in the journal (it is
/// not in the store while the store is away) and is stored once when the
/// store is back.
pub(super) async fn store_down(
    cluster: &mut Cluster,
    proxy: &StoreProxy,
    run: usize,
    store_url: &str,
    out: &mut Outcome,
) -> anyhow::Result<()> {
    let (mut g, ..) = start_game(&*cluster, 7, run).await?;
    proxy.cut();
    let fault = Instant::now();
    out.resume = Some(g.resumed(fault).await?);
    g.finish(out)
        .await
        .context("the game's end with the store away")?;
    let ended = fault.elapsed();
    if ended >= OUTAGE {
        bail!("the game's end took {ended:?}, longer than the store was away");
    }
    if records_of(store_url, &g.names[0]).await? != 0 {
        bail!("the game reached the store while the hosts could not reach it");
    }
    tokio::time::sleep(OUTAGE - ended).await;
    proxy.mend();
    check_record_within(store_url, &g.names, Duration::from_secs(30))
        .await
        .context("the journaled game once the store is back")?;
    out.recorded_once = true;
    Ok(())
}
