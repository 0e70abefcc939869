//! Cluster mode against the real NATS server on this machine (with
//! JetStream, 127.0.0.1:4222, or `INAROW_TEST_NATS`). These tests fail
//! when NATS cannot be reached; each run uses its own bucket prefix and
//! removes its buckets afterwards.

use std::time::Duration;

use inarow::config::Config;
use inarow::server::Host;

use crate::util::TestClient;
use crate::util::http::{get, parse_metrics};
use crate::util::proxy::Proxy;
use crate::util::scratch::{PgScratch, Scratch, nats_url, pg_url};
use crate::util::ssh::{
    Client, Login, MY_TURN, THEIR_TURN, TestHost, at_table, declined_then_accepted, merge,
    mover_first, play, test_config_text, wait_any, wait_any_within,
};

fn cluster_config_text(dir: &std::path::Path, scratch: &Scratch, host: &str, nats: &str) -> String {
    let extra = format!(
        "[cluster]\nenabled = true\nnats_url = \"{nats}\"\nhost_name = \"{host}\"\nprefix = \"{}\"\n\n[http]\nenabled = true\nlisten = \"127.0.0.1:0\"\n",
        scratch.prefix
    );
    merge(&test_config_text(dir, ""), &extra)
}

fn cluster_config(dir: &std::path::Path, scratch: &Scratch, host: &str, nats: &str) -> Config {
    Config::parse(
        &cluster_config_text(dir, scratch, host, nats),
        "test config",
    )
    .unwrap()
}

async fn start_cluster_host(scratch: &Scratch, host: &str, nats: &str) -> TestHost {
    start_cluster_host_with(scratch, host, nats, "").await
}

/// Cluster hosts named `names` on the run's NATS, started in turn.
async fn start_cluster_hosts<const N: usize>(scratch: &Scratch, names: [&str; N]) -> [TestHost; N] {
    let nats = nats_url();
    let mut hosts = Vec::with_capacity(N);
    for name in names {
        hosts.push(start_cluster_host(scratch, name, &nats).await);
    }
    match hosts.try_into() {
        Ok(hosts) => hosts,
        Err(_) => unreachable!("{N} hosts started"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_mode_refuses_to_start_when_nats_cannot_be_reached() {
    let scratch = Scratch::new();
    // A port nobody listens on.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("nats://127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let config = cluster_config(dir.path(), &scratch, "lonely", &url);
    let started = std::time::Instant::now();
    let err = match Host::start(config).await {
        Ok(_) => panic!("a cluster host started without NATS"),
        Err(e) => format!("{e:#}"),
    };
    assert!(
        err.contains(&format!("cannot reach NATS at {url} (cluster.nats_url)")),
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // The same through `inarow serve`: a clear error and a failure status.
    let path = dir.path().join("inarow.toml");
    let text = merge(
        &test_config_text(dir.path(), ""),
        &format!(
            "[cluster]\nenabled = true\nnats_url = \"{url}\"\nprefix = \"{}\"\n",
            scratch.prefix
        ),
    );
    std::fs::write(&path, text).unwrap();
    let stderr = crate::util::serve_refused(&path);
    assert!(stderr.contains("cannot reach NATS at"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hosts_in_a_cluster_show_the_same_counts_invite_across_and_names_are_unique() {
    let scratch = Scratch::new();
    let nats = nats_url();
    let [mut a, mut b] = start_cluster_hosts(&scratch, ["host-a", "host-b"]).await;
    let mut ann = Client::connect(a.addr, "ann", Login::Guest).await;
    ann.wait_for("you are ann").await;
    let mut bo = Client::connect(b.addr, "bo", Login::Guest).await;
    bo.wait_for("you are bo").await;
    // Each lobby counts the people on both hosts.
    ann.wait_for("2 online").await;
    bo.wait_for("2 online").await;
    // Who is online lists both, the other host's people marked.
    ann.send(b"o").await;
    let s = ann.wait_for("(on host-b)").await;
    assert!(s.contains("ann (you)"), "{s}");
    assert!(s.contains("bo "), "{s}");
    let mut pressed = 0;
    while !ann
        .screen()
        .lines()
        .any(|l| l.contains('>') && l.contains("bo "))
    {
        ann.send(b"\x1b[B").await;
        ann.pump(Duration::from_millis(100)).await;
        pressed += 1;
        assert!(pressed < 5, "bo could not be selected:\n{}", ann.screen());
    }
    // ann invites bo across hosts: bo declines, then accepts the next.
    ann.walk(&[
        (b"\r", "Invite bo to a game"),
        (b"\r", "invitation sent to bo"),
    ])
    .await;
    bo.wait_for("ann invites you to a game").await;
    declined_then_accepted((&mut ann, "ann"), (&mut bo, "bo")).await;
    // The table runs on ann's host; bo plays there as a visitor.
    for c in [&mut ann, &mut bo] {
        c.wait_for("(you)").await;
        wait_any(c, &[MY_TURN, THEIR_TURN[0]]).await;
    }
    let (first, second) = mover_first(&mut ann, &mut bo);
    play(first, "d").await;
    play(second, "c").await;
    first.wait_for(MY_TURN).await;
    assert_eq!(crate::util::board_stones(&first.screen()), 2);
    // Guests' names are unique across hosts: bo is taken on host-b.
    let mut other_bo = Client::connect(a.addr, "bo", Login::Guest).await;
    let s = other_bo.wait_for("you are ").await;
    let header = s
        .lines()
        .find(|l| l.contains("you are "))
        .unwrap_or_default();
    assert!(header.contains("you are bo2"), "{s}");
    drop(other_bo);

    // A second host with a live host's name is refused.
    let dir = tempfile::tempdir().unwrap();
    match Host::start(cluster_config(dir.path(), &scratch, "host-a", &nats)).await {
        Ok(_) => panic!("two hosts named host-a"),
        Err(e) => {
            let e = format!("{e:#}");
            assert!(e.contains("another host named host-a"), "{e}");
        }
    }

    // Operators see the cluster.
    let http = a.host.as_ref().unwrap().http_addr.unwrap();
    assert_eq!(get(http, "/readyz").await.0, 200);
    let m = parse_metrics(&get(http, "/metrics").await.1);
    assert_eq!(m["inarow_cluster_hosts"], 2.0, "{m:?}");
    assert!(m["inarow_nats_round_trip_seconds_count"] >= 1.0, "{m:?}");

    // A host that leaves takes its people out of the others' counts.
    let mut cy = Client::connect(a.addr, "cy", Login::Guest).await;
    cy.wait_for("3 online").await;
    drop(bo);
    b.shutdown().await;
    cy.wait_for("2 online").await;
    a.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_cut_off_from_nats_keeps_playing_and_recovers() {
    let scratch = Scratch::new();
    let nats = nats_url();
    let target = nats.trim_start_matches("nats://").to_string();
    let proxy = Proxy::start(target).await;
    let via_proxy = format!("nats://127.0.0.1:{}", proxy.port);
    let mut a = start_cluster_host(&scratch, "cut-a", &via_proxy).await;
    let mut b = start_cluster_host(&scratch, "cut-b", &nats).await;
    let http = a.host.as_ref().unwrap().http_addr.unwrap();
    let mut ann = Client::connect(a.addr, "ann", Login::Guest).await;
    let mut bo = Client::connect(b.addr, "bo", Login::Guest).await;
    ann.wait_for("2 online").await;
    bo.wait_for("2 online").await;
    assert_eq!(get(http, "/readyz").await.0, 200);

    proxy.cut();
    // Not ready while NATS is away; the host's own people carry on.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (code, body) = get(http, "/readyz").await;
        if code == 503 {
            assert_eq!(body, "nats unreachable\n");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "still ready without NATS"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The other host stops counting it once its presence is stale.
    bo.wait_for("1 online").await;
    // ann's lobby says what is off; a quick match waits at home.
    ann.wait_for("some features are unavailable").await;
    ann.seek(b"1").await;
    ann.wait_for("Looking for").await;

    proxy.restore();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while get(http, "/readyz").await.0 != 200 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not ready again after NATS came back"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bo.wait_for("2 online").await;
    // Back by itself: ann's seek is offered to the other hosts again, and
    // bo, on the other host, meets her.
    bo.seek(b"1").await;
    for c in [&mut ann, &mut bo] {
        wait_any(c, &[MY_TURN, THEIR_TURN[0]]).await;
    }
    assert!(bo.screen().contains("ann"), "{}", bo.screen());
    drop((ann, bo));
    a.shutdown().await;
    b.shutdown().await;
}

/// This run's rooms bucket, as any host sees it.
async fn rooms_bucket(scratch: &Scratch) -> async_nats::jetstream::kv::Store {
    let client = async_nats::connect(nats_url()).await.expect("NATS");
    let js = async_nats::jetstream::new(client);
    inarow::cluster::open_bucket_sized(
        &js,
        &format!("{}_rooms", scratch.prefix),
        Duration::from_secs(3600),
        inarow::cluster::rooms::MAX_ROOM_VALUE,
    )
    .await
    .unwrap()
}

/// Waits (at most 10 s) until the rooms kept in NATS satisfy `ok`.
async fn wait_for_rooms(
    kv: &async_nats::jetstream::kv::Store,
    ok: impl Fn(&[inarow::cluster::rooms::StoredRoom]) -> bool,
) -> Vec<inarow::cluster::rooms::StoredRoom> {
    use futures_util::StreamExt;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let mut rooms = Vec::new();
        let keys: Vec<String> = match kv.keys().await {
            Ok(k) => k.filter_map(|k| async move { k.ok() }).collect().await,
            Err(_) => Vec::new(),
        };
        for key in keys {
            if let Ok(Some(v)) = kv.get(&key).await
                && let Some((r, _)) = inarow::cluster::rooms::StoredRoom::parse(&v)
            {
                rooms.push(r);
            }
        }
        if ok(&rooms) {
            return rooms;
        }
        assert!(std::time::Instant::now() < deadline, "{rooms:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Two people on two hosts of a cluster meet by quick match, `waiter`
/// seeking first (the table is on `seeker`'s host); whether `seeker`
/// moves first.
async fn quick_match(waiter: &mut Client, seeker: &mut Client) -> bool {
    seeker.wait_for("2 online").await;
    waiter.wait_for("2 online").await;
    waiter.seek(b"1").await;
    waiter.wait_for("Looking for").await;
    seeker.seek(b"1").await;
    let seeker_first = at_table(seeker).await;
    assert_ne!(seeker_first, at_table(waiter).await);
    seeker_first
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_match_pairs_people_on_different_hosts_and_they_play_it_out() {
    let scratch = Scratch::new();
    let [mut a, mut b] = start_cluster_hosts(&scratch, ["qa", "qb"]).await;
    let mut ann = Client::connect(a.addr, "ann", Login::Guest).await;
    let mut bo = Client::connect(b.addr, "bo", Login::Guest).await;
    ann.wait_for("2 online").await;
    ann.seek(b"1").await;
    ann.wait_for("Looking for").await;
    bo.seek(b"1").await;
    for c in [&mut ann, &mut bo] {
        wait_any(c, &[MY_TURN, THEIR_TURN[0]]).await;
    }
    // Each sees the other's name at the table.
    assert!(ann.screen().contains("bo"), "{}", ann.screen());
    assert!(bo.screen().contains("ann"), "{}", bo.screen());
    let (mut first, mut second) = mover_first(ann, bo);
    // Every move crosses: the first player's four in column a win.
    for _ in 0..3 {
        play(&mut first, "a").await;
        play(&mut second, "b").await;
    }
    // The game as it stands is kept in NATS, where any host can read it.
    let rooms = rooms_bucket(&scratch).await;
    let kept = wait_for_rooms(&rooms, |r| r.iter().any(|r| r.moves.len() == 6)).await;
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0].moves[..2], [(0, 0), (1, 0)], "{kept:?}");
    assert!(["qa", "qb"].contains(&kept[0].owner.as_str()), "{kept:?}");
    wins_in_column_a(&mut first, &mut second).await;
    // An ended game is no longer kept.
    wait_for_rooms(&rooms, |r| r.is_empty()).await;
    assert!(first.screen().contains("You win!"), "{}", first.screen());
    assert!(second.screen().contains("You lost."), "{}", second.screen());
    // Both go back to their lobbies, free to play again.
    for c in [&mut first, &mut second] {
        c.send(b"l").await;
        c.wait_for("Quick match").await;
    }
    first.wait_for("2 online, 0 playing").await;
    // And again: they meet once more (the queue holds no stale ticket).
    for c in [&mut first, &mut second] {
        c.send(b"1").await;
    }
    for c in [&mut first, &mut second] {
        wait_any(c, &[MY_TURN, THEIR_TURN[0]]).await;
    }
    drop((first, second));
    a.shutdown().await;
    b.shutdown().await;
}

#[test]
fn the_cluster_benchmark_plays_games_across_hosts_and_reports_figures() {
    let text = crate::util::run_ok(&[
        "bench",
        "cluster",
        "--hosts",
        "2",
        "--games",
        "4",
        "--seconds",
        "2",
        "--think-ms",
        "100",
        "--nats-url",
        &nats_url(),
    ]);
    assert!(text.contains("4 cross-host matches"), "{text}");
    // Moves crossed and their latency was measured on the other host.
    let measured = crate::util::number_after(&text, " over ");
    assert!(measured > 10, "{text}");
    assert!(text.contains(", 0 errors"), "{text}");
}

/// Types a room code from the lobby (`j`).
async fn join_by_code(c: &mut Client, code: &str) {
    c.wait_for("Choose a game").await;
    c.send(b"j").await;
    c.wait_for("room code:").await;
    c.send(format!("{code}\r").as_bytes()).await;
}

/// Opens a room for a friend from the lobby; its code.
async fn open_friend_room(c: &mut Client, game_key: &[u8]) -> String {
    c.wait_for("Choose a game").await;
    c.send(game_key).await;
    c.wait_for("Invite a friend").await;
    c.send(b"3").await;
    crate::ssh::room_code(&c.wait_for("Room code:").await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hosts_racing_to_apply_a_move_to_the_same_room_apply_it_once() {
    use inarow::cluster::rooms::{Applied, MAX_ROOM_VALUE, Rooms, StoredRoom};
    let scratch = Scratch::new();
    let nats = nats_url();
    // Three hosts, each with its own connection to NATS.
    let mut hosts = Vec::new();
    for host in ["race-a", "race-b", "race-c"] {
        let client = async_nats::connect(&nats)
            .await
            .unwrap_or_else(|e| panic!("NATS at {nats}: {e}"));
        let js = async_nats::jetstream::new(client);
        let bucket = format!("{}_rooms", scratch.prefix);
        let kv = inarow::cluster::open_bucket_sized(
            &js,
            &bucket,
            Duration::from_secs(3600),
            MAX_ROOM_VALUE,
        )
        .await
        .unwrap();
        hosts.push(Rooms::new(kv, host.into()));
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let start = StoredRoom {
        owner: "race-a".into(),
        lease_until_ms: now + 60_000,
        game: "gomoku".into(),
        width: 15,
        height: 15,
        line: 5,
        exact: false,
        players: ["ann".into(), "bo".into()],
        moves: Vec::new(),
        owner_instance: "race-a-1".into(),
        ..Default::default()
    };
    hosts[0].create("r1", &start).await.unwrap();
    assert!(hosts[1].create("r1", &start).await.is_err(), "made twice");
    // The same move sent by two hosts at once, twenty times over: each
    // is applied once, and the other host hears it was already.
    for n in 0..20usize {
        let mv = ((n % 15) as u8, (n / 15) as u8);
        let (a, b) = tokio::join!(
            hosts[0].apply_move("r1", n, mv),
            hosts[1].apply_move("r1", n, mv)
        );
        let mut got = [a.unwrap(), b.unwrap()];
        got.sort_by_key(|x| matches!(x, Applied::Already));
        assert!(
            matches!(got, [Applied::Done(_), Applied::Already]),
            "move {n}: {got:?}"
        );
    }
    // Two different moves for the same turn: one is played, the other
    // refused.
    let (a, b) = tokio::join!(
        hosts[0].apply_move("r1", 20, (5, 1)),
        hosts[1].apply_move("r1", 20, (6, 1))
    );
    let got = [a.unwrap(), b.unwrap()];
    assert_eq!(
        got.iter().filter(|x| matches!(x, Applied::Done(_))).count(),
        1,
        "{got:?}"
    );
    assert!(
        got.contains(&Applied::Refused("another move was played first".into())),
        "{got:?}"
    );
    let (room, position, _) = hosts[2].read("r1").await.unwrap().unwrap();
    assert_eq!(room.moves.len(), 21);
    assert_eq!(position.stones(), 21);
    // A taken point, or a move out of step, is refused.
    assert!(matches!(
        hosts[2].apply_move("r1", 21, (0, 0)).await.unwrap(),
        Applied::Refused(_)
    ));
    assert!(matches!(
        hosts[2].apply_move("r1", 25, (9, 9)).await.unwrap(),
        Applied::Refused(_)
    ));
    // While the owner's lease holds, nobody takes the room over; once it
    // has run out, not while the owner's run is live; then, of two hosts
    // claiming at once exactly one gets it.
    let nobody_live = |_: &str, _: &str| false;
    let a_live = |h: &str, i: &str| h == "race-a" && i == "race-a-1";
    assert!(
        hosts[1]
            .claim("r1", now, Duration::from_secs(30), nobody_live)
            .await
            .unwrap()
            .is_none()
    );
    let later = now + 120_000;
    assert!(
        hosts[1]
            .claim("r1", later, Duration::from_secs(30), a_live)
            .await
            .unwrap()
            .is_none()
    );
    let (b, c) = tokio::join!(
        hosts[1].claim("r1", later, Duration::from_secs(30), nobody_live),
        hosts[2].claim("r1", later, Duration::from_secs(30), nobody_live)
    );
    let (b, c) = (b.unwrap().is_some(), c.unwrap().is_some());
    assert!(b != c, "both or neither took the room: {b} {c}");
    let (room, _, rev) = hosts[0].read("r1").await.unwrap().unwrap();
    assert_eq!(room.owner, if b { "race-b" } else { "race-c" });
    assert_eq!(room.moves.len(), 21, "a claim keeps the game");
    // A room its owner let go (a restart) is claimed at once, lease or not.
    let owner = if b { &hosts[1] } else { &hosts[2] };
    owner.release("r1", &room, rev).await.unwrap();
    assert!(
        hosts[0]
            .claim("r1", now, Duration::from_secs(30), |_, _| true)
            .await
            .unwrap()
            .is_some()
    );
    // An ended room goes.
    hosts[0].remove("r1").await.unwrap();
    assert!(hosts[1].read("r1").await.unwrap().is_none());
    assert_eq!(
        hosts[1].apply_move("r1", 21, (9, 9)).await.unwrap(),
        Applied::Refused("the room has ended".into())
    );
}

/// Two guests, ann and bo, meet by quick match of Connect Four on host
/// `a`; the first to move has played column D. First mover first.
async fn guests_playing_on(a: &TestHost) -> (Client, Client) {
    let mut ann = Client::connect(a.addr, "ann", Login::Guest).await;
    let mut bo = Client::connect(a.addr, "bo", Login::Guest).await;
    ann.seek(b"1").await;
    ann.wait_for("Looking for").await;
    bo.seek(b"1").await;
    for c in [&mut ann, &mut bo] {
        wait_any(c, &[MY_TURN, THEIR_TURN[0]]).await;
    }
    let (mut first, second) = mover_first(ann, bo);
    play(&mut first, "d").await;
    (first, second)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_on_one_host_is_watched_live_from_another() {
    let scratch = Scratch::new();
    let [a, b] = start_cluster_hosts(&scratch, ["wa", "wb"]).await;
    // Two players meet on host wa.
    let (mut first, mut second) = guests_playing_on(&a).await;

    // A watcher on host wb finds the game in the list, marked with its
    // host (once wb has seen wa's heartbeat), and joins it late.
    let mut cy = Client::connect(b.addr, "cy", Login::Guest).await;
    cy.wait_for("3 online").await;
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        cy.send(b"w").await;
        cy.wait_for("Games in play:").await;
        wait_any(&mut cy, &["to watch", "none just now"]).await;
        let s = cy.screen();
        if s.contains("(on wa)") {
            assert!(s.contains("ann") && s.contains("bo"), "{s}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{s}");
        cy.send(b"\x1b").await;
        cy.wait_for("Watch a game").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    cy.send(b"\r").await;
    cy.wait_for("Moves (1)").await;
    cy.wait_for("q back to the lobby").await;
    assert_eq!(crate::util::board_stones(&cy.screen()), 1);
    assert!(!cy.screen().contains("(you)"), "{}", cy.screen());
    for c in [&mut first, &mut second] {
        c.wait_for("1 watching").await;
    }
    // Every move reaches the watcher on the other host.
    play(&mut second, "d").await;
    cy.wait_for("Moves (2)").await;
    assert_eq!(crate::util::board_stones(&cy.screen()), 2);
    // A watcher's keys do not play, here as at home.
    cy.send(b"e\r").await;
    cy.wait_for("you are watching").await;
    // The watchers' chat crosses back to the table (cleaned of control
    // bytes on the way); the players do not see it.
    cy.send("\tnice\u{202e} game\r".as_bytes()).await;
    cy.wait_for("cy: nice game").await;
    first.send(b"\tthanks\r").await;
    second.wait_for(": thanks").await;
    for c in [&first, &second] {
        assert!(!c.screen().contains("nice game"), "{}", c.screen());
    }
    assert!(!cy.screen().contains("thanks"), "{}", cy.screen());
    // The watcher leaves with q: back in the lobby, and the table's count
    // goes down.
    cy.send(b"q").await;
    cy.wait_for("Watch a game").await;
    first.wait_gone("1 watching").await;
    // The game goes on; the watcher can come back and see where it is.
    play(&mut first, "e").await;
    cy.send(b"w").await;
    let s = cy.wait_for("(on wa)").await;
    assert!(s.contains("Games in play: 1 to watch"), "{s}");
    cy.send(b"\r").await;
    cy.wait_for("Moves (3)").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friends_room_code_made_on_one_host_is_joined_from_another() {
    let scratch = Scratch::new();
    let [mut a, mut b] = start_cluster_hosts(&scratch, ["ca", "cb"]).await;
    let mut fay = Client::connect(a.addr, "fay", Login::Guest).await;
    let code = open_friend_room(&mut fay, b"1").await;
    let mut gus = Client::connect(b.addr, "gus", Login::Guest).await;
    // A code no host has: the same clear error as on one host.
    join_by_code(&mut gus, "ZZZZ").await;
    gus.wait_for("no room has the code ZZZZ").await;
    // The code from the other host, typed in lower case.
    gus.send(format!("{}\r", code.to_lowercase()).as_bytes())
        .await;
    for c in [&mut fay, &mut gus] {
        c.wait_for("(you)").await;
        let s = c.screen();
        assert!(s.contains("fay") && s.contains("gus"), "{s}");
    }
    let (mut first, mut second) = mover_first(fay, gus);
    for _ in 0..3 {
        play(&mut first, "c").await;
        play(&mut second, "d").await;
    }
    play(&mut first, "c").await;
    for c in [&mut first, &mut second] {
        c.wait_for("wins with (2|0) (2|1) (2|2) (2|3)").await;
    }
    // A used code is gone everywhere.
    let mut kim = Client::connect(b.addr, "kim", Login::Guest).await;
    join_by_code(&mut kim, &code).await;
    kim.wait_for(&format!("no room has the code {code}")).await;

    // As the SSH user name on the other host: `ssh CODE@host`.
    let mut hal = Client::connect(b.addr, "hal", Login::Guest).await;
    let code = open_friend_room(&mut hal, b"2").await;
    let mut ivy = Client::connect(a.addr, &code, Login::Guest).await;
    for c in [&mut hal, &mut ivy] {
        c.wait_for("(you)").await;
        assert!(c.screen().contains("Gomoku 15x15"), "{}", c.screen());
    }
    // A name shaped like a code that no host has is a name.
    let mut fwdx = Client::connect(a.addr, "FWDX", Login::Guest).await;
    fwdx.wait_for("you are FWDX").await;
    drop((first, second, hal, ivy, fwdx, kim));
    a.shutdown().await;
    b.shutdown().await;
}

/// The `[cluster]` section of a host of this run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swap2_room_on_one_host_is_played_from_another_with_its_choices() {
    use crate::swap2::{place, placer_first, sides_swapped, three_stones_placed};
    let scratch = Scratch::new();
    let [mut a, mut b] = start_cluster_hosts(&scratch, ["sa", "sb"]).await;
    let mut fay = Client::connect(a.addr, "fay", Login::Guest).await;
    let code = open_friend_room(&mut fay, b"2").await;
    fay.send(b"o").await;
    fay.wait_for("Opening:  swap2").await;
    let mut gus = Client::connect(b.addr, "gus", Login::Guest).await;
    join_by_code(&mut gus, &code).await;
    let (mut placer, mut chooser) = placer_first(fay, gus).await;
    let names = three_stones_placed(&mut placer, &mut chooser).await;
    // Whichever host the chooser is on, the choice reaches the table.
    chooser.send(b"3").await;
    // The stage comes back from the table's host before stones are typed.
    chooser.wait_for("place two more stones,").await;
    place(&mut chooser, "g7").await;
    place(&mut chooser, "k10").await;
    placer.wait_for("Press 1 or 2").await;
    placer.send(b"2").await;
    sides_swapped(&mut placer, &mut chooser, &names).await;
    place(&mut placer, "f6").await;
    chooser.wait_for(MY_TURN).await;
    a.shutdown().await;
    b.shutdown().await;
}

fn cluster_extra(scratch: &Scratch, host: &str, nats: &str) -> String {
    format!(
        "[cluster]\nenabled = true\nnats_url = \"{nats}\"\nhost_name = \"{host}\"\nprefix = \"{}\"\n",
        scratch.prefix
    )
}

async fn start_cluster_host_with(
    scratch: &Scratch,
    host: &str,
    nats: &str,
    extra: &str,
) -> TestHost {
    let dir = tempfile::tempdir().unwrap();
    let base = cluster_config_text(dir.path(), scratch, host, nats);
    let config = Config::parse(&merge(&base, extra), "test config").unwrap();
    let host = Host::start(config).await.unwrap_or_else(|e| {
        panic!(
            "a cluster host did not start (NATS at {nats}, PostgreSQL at {}?): {e:#}",
            pg_url()
        )
    });
    TestHost {
        addr: host.ssh_addr,
        host: Some(host),
        dir,
    }
}

/// The games a store holds with `player` in them.
async fn games_of(url: &str, player: &str) -> Vec<inarow::store::GameRecord> {
    let store = inarow::store::Store::open(url).await.unwrap();
    let games = store
        .export(&inarow::store::ExportFilter {
            player: Some(player.into()),
            limit: 100,
            ..Default::default()
        })
        .await
        .unwrap();
    store.close().await;
    games
}

/// Waits (at most 10 s) until the store holds exactly one game of
/// `player`, and checks it has all `moves`; fails if it holds two.
async fn recorded_once(pg: &PgScratch, player: &str, moves: usize) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let all = games_of(&pg.url(), player).await;
        if let [g] = &all[..] {
            assert_eq!(g.moves.len(), moves, "{g:?}");
            return;
        }
        assert!(all.len() < 2, "recorded twice: {all:?}");
        assert!(std::time::Instant::now() < deadline, "never recorded");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The first player's fourth stone in column a: both see the win.
async fn wins_in_column_a(first: &mut Client, second: &mut Client) {
    play(first, "a").await;
    for c in [first, second] {
        c.wait_for("wins with (0|0) (0|1) (0|2) (0|3)").await;
    }
}

/// The pair `players` in the order of play, `first` the one who moves first.
fn in_turn<T>(players: &mut [T; 2], first: usize) -> (&mut T, &mut T) {
    let [p0, p1] = players;
    if first == 0 { (p0, p1) } else { (p1, p0) }
}

/// One move each, column a for the first player and b for the second.
async fn one_each(first: &mut Client, second: &mut Client) {
    play(first, "a").await;
    play(second, "b").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_of_a_game_killed_its_players_finish_it_from_the_other_hosts_recorded_once() {
    let scratch = Scratch::new();
    let nats = nats_url();
    // The hosts share one store, as a cluster does. A and B are processes
    // of their own (the one that holds the table is killed with SIGKILL);
    // C is where the players come back.
    let pg = PgScratch::new().await;
    let mut p = paired(&scratch, &pg, ["ka", "kb"]).await;
    let mut c = start_cluster_host_with(&scratch, "kc", &nats, &pg.section()).await;
    let doomed = p.table;
    let other = 1 - doomed;
    p.procs[doomed].signal("KILL");
    // The other player's host carries the game on once the dead host is
    // seen gone (its heartbeat and the room's lease lapse): that player
    // sees the seat of the one who was on it wait.
    told_away(&mut p, doomed, 25).await;
    let rooms = rooms_bucket(&scratch).await;
    let survivor = ["ka", "kb"][other];
    let kept = wait_for_rooms(&rooms, |r| r.iter().any(|r| r.owner == survivor)).await;
    assert_eq!(kept[0].moves.len(), 4, "the game as it stood: {kept:?}");
    // The player of the dead host comes back through the third host and
    // finds the game.
    come_back(&mut p, doomed, c.addr).await;
    assert_eq!(at_table(&mut p.players[doomed]).await, doomed == p.first);
    p.players[other].wait_gone("lost the connection").await;
    // The other one moves to the third host too (the balancer sent them).
    come_back(&mut p, other, c.addr).await;
    assert_eq!(at_table(&mut p.players[other]).await, other == p.first);
    finish(&mut p).await;
    wait_for_rooms(&rooms, |r| r.is_empty()).await;
    // The record: once, whole.
    recorded_once(&pg, "ann", 7).await;
    drop(p);
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_of_every_host_loses_no_game() {
    use crate::util::ssh::new_key;
    let scratch = Scratch::new();
    let nats = nats_url();
    let pg = PgScratch::new().await;
    let store = pg.section();
    let names = ["ra", "rb", "rc"];
    let mut hosts = Vec::new();
    for name in names {
        hosts.push(start_cluster_host_with(&scratch, name, &nats, &store).await);
    }
    let (ann_key, bo_key) = (new_key(), new_key());
    let mut bo = Client::connect(hosts[1].addr, "bo", Login::Key(bo_key.clone())).await;
    let mut ann = Client::connect(hosts[0].addr, "ann", Login::Key(ann_key.clone())).await;
    // bo waits first: the table is on ann's host, A.
    let ann_first = quick_match(&mut bo, &mut ann).await;
    let mut players = [(ann, ann_key, 0usize), (bo, bo_key, 1usize)];
    // Which of `players` moves first.
    let first = if ann_first { 0 } else { 1 };
    let (f, s) = in_turn(&mut players, first);
    one_each(&mut f.0, &mut s.0).await;
    // A word at the table: the chat is kept with the game.
    f.0.send(b"\tgood luck\r").await;
    s.0.wait_for(": good luck").await;
    let rooms = rooms_bucket(&scratch).await;
    wait_for_rooms(&rooms, |r| r.iter().any(|r| !r.chat[0].is_empty())).await;
    // Each host in turn restarts (whether it holds the table or a visitor);
    // whoever was on it comes back on another host; the game goes on.
    for (round, restarting) in [0usize, 1, 2].into_iter().enumerate() {
        hosts[restarting].shutdown().await;
        let who = players
            .iter()
            .position(|p| p.2 == restarting)
            .expect("a player on the restarting host");
        players[who]
            .0
            .wait_for("This host is restarting; reconnect to continue your game")
            .await;
        // Back under its name (a new run of it).
        hosts[restarting] =
            start_cluster_host_with(&scratch, names[restarting], &nats, &store).await;
        // The other player sees the seat wait, on the host that carries
        // the game on now.
        let other = 1 - who;
        players[other]
            .0
            .wait_for_within("lost the connection, waiting", Duration::from_secs(15))
            .await;
        // Neither the host restarting nor the other player's.
        let to = (restarting + 2) % 3;
        assert_ne!(to, players[other].2);
        let name = if who == 0 { "ann" } else { "bo" };
        let key = players[who].1.clone();
        players[who].0 = Client::connect(hosts[to].addr, name, Login::Key(key)).await;
        players[who].2 = to;
        assert_eq!(
            at_table(&mut players[who].0).await,
            who == first,
            "round {round}"
        );
        // The table's chat came along.
        players[who].0.wait_for(": good luck").await;
        players[other].0.wait_gone("lost the connection").await;
        let (f, s) = in_turn(&mut players, first);
        if round < 2 {
            one_each(&mut f.0, &mut s.0).await;
        } else {
            wins_in_column_a(&mut f.0, &mut s.0).await;
        }
    }
    // The game, whole, recorded once.
    recorded_once(&pg, "ann", 7).await;
    drop(players);
    for h in &mut hosts {
        h.shutdown().await;
    }
}

#[test]
fn sigterm_in_a_cluster_hands_a_game_against_the_computer_to_another_host() {
    use crate::util::ssh::{ServerProcess, new_key, stones};
    let rt = tokio::runtime::Runtime::new().unwrap();
    let scratch = Scratch::new();
    let nats = nats_url();
    let pg = rt.block_on(PgScratch::new());
    let mut a = ServerProcess::start(&(cluster_extra(&scratch, "ta", &nats) + &pg.section()));
    let mut b = rt.block_on(start_cluster_host_with(
        &scratch,
        "tb",
        &nats,
        &pg.section(),
    ));
    let key = new_key();
    let mut c = rt.block_on(async {
        let mut c = Client::connect(a.addr, "cleo", Login::Key(key.clone())).await;
        c.wait_for("you are cleo").await;
        c.first_against_the_computer().await;
        // One stone each.
        c.send(b"d\r").await;
        stones(&mut c, 2).await;
        c
    });
    let board = crate::util::board_stones(&c.screen());
    assert_eq!(board, 2, "{}", c.screen());
    let started = std::time::Instant::now();
    a.signal("TERM");
    rt.block_on(async { c.wait_closed().await });
    assert!(
        c.raw_text()
            .contains("This host is restarting; reconnect to continue your game."),
        "{}",
        c.raw_text()
    );
    let status = a
        .wait(Duration::from_secs(8))
        .expect("the host did not exit");
    assert!(status.success(), "{status:?}");
    assert!(started.elapsed() < Duration::from_secs(8));
    eprintln!(
        "SIGTERM to exit, with a game handed over: {:?}",
        started.elapsed()
    );
    assert!(
        a.log().contains("room released for another host"),
        "{}",
        a.log()
    );
    // Back on another host: the same game, the computer still in its seat.
    rt.block_on(async {
        let mut c = Client::connect(b.addr, "cleo", Login::Key(key)).await;
        c.wait_for(MY_TURN).await;
        assert_eq!(crate::util::board_stones(&c.screen()), 2, "{}", c.screen());
        assert!(c.screen().contains("Computer (easy)"), "{}", c.screen());
        c.send(b"d\r").await;
        // The computer answers there.
        stones(&mut c, 4).await;
        drop(c);
        b.shutdown().await;
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_keep_their_game_when_its_host_restarts() {
    let scratch = Scratch::new();
    let [mut a, mut b, mut c] = start_cluster_hosts(&scratch, ["ga", "gb", "gc"]).await;
    // ned's room for a friend on A, ola joins from B: the table is on A.
    let mut ned = Client::connect(a.addr, "ned", Login::Guest).await;
    let code = open_friend_room(&mut ned, b"1").await;
    let mut ola = Client::connect(b.addr, "ola", Login::Guest).await;
    join_by_code(&mut ola, &code).await;
    ned.wait_for("(you)").await;
    ola.wait_for("(you)").await;
    let ned_first = at_table(&mut ned).await;
    assert_ne!(ned_first, at_table(&mut ola).await);
    let resume = crate::live::resume_code(&ned.wait_for("Cut off? Log in as ").await);
    {
        let (f, s) = if ned_first {
            (&mut ned, &mut ola)
        } else {
            (&mut ola, &mut ned)
        };
        one_each(f, s).await;
    }
    // A restarts: ola's host carries the game on (ola never reconnects),
    // ned comes back on C with the resume code as the login name.
    a.shutdown().await;
    ned.wait_for("This host is restarting; reconnect to continue your game")
        .await;
    ola.wait_for_within("ned lost the connection, waiting", Duration::from_secs(15))
        .await;
    let mut ned = Client::connect(c.addr, &resume, Login::Guest).await;
    ned.wait_for("ned (you)").await;
    assert_eq!(at_table(&mut ned).await, ned_first);
    ola.wait_gone("lost the connection").await;
    let (f, s) = if ned_first {
        (&mut ned, &mut ola)
    } else {
        (&mut ola, &mut ned)
    };
    for _ in 0..2 {
        one_each(f, s).await;
    }
    wins_in_column_a(f, s).await;
    drop((ned, ola));
    b.shutdown().await;
    c.shutdown().await;
}

/// Hosts of a cluster often start at once (a deploy, a restart of the
/// machine): each creates the buckets it does not find, so several may
/// race to create the same one. Every one of them must open it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hosts_starting_at_once_all_open_the_same_new_buckets() {
    let scratch = Scratch::new();
    for round in ["hosts", "people", "queue"] {
        let bucket = format!("{}_{round}", scratch.prefix);
        let mut clients = Vec::new();
        for _ in 0..8 {
            clients.push(async_nats::connect(nats_url()).await.expect("NATS"));
        }
        let opens = clients.into_iter().map(|client| {
            let bucket = bucket.clone();
            tokio::spawn(async move {
                let js = async_nats::jetstream::new(client);
                inarow::cluster::open_bucket(&js, &bucket, Duration::from_secs(60))
                    .await
                    .map(|_| ())
                    .map_err(|e| format!("{e:#}"))
            })
        });
        let results = futures_util::future::join_all(opens).await;
        for r in results {
            if let Err(e) = r.unwrap() {
                panic!("a host could not open {bucket} while others created it: {e}");
            }
        }
    }
}

/// A NATS server that stops answering for a moment while a host opens its
/// buckets (JetStream on a busy disk, a server restarting) costs the host
/// a retry, not its start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bucket_open_that_times_out_while_nats_is_stalled_is_tried_again() {
    let scratch = Scratch::new();
    let target = nats_url().trim_start_matches("nats://").to_string();
    let proxy = Proxy::start(target).await;
    let client = async_nats::ConnectOptions::new()
        .request_timeout(Some(Duration::from_secs(1)))
        .connect(format!("nats://127.0.0.1:{}", proxy.port))
        .await
        .expect("NATS through the proxy");
    let js = async_nats::jetstream::new(client);
    let bucket = format!("{}_hosts", scratch.prefix);
    proxy.stall();
    let started = std::time::Instant::now();
    let open = tokio::spawn(async move {
        inarow::cluster::open_bucket(&js, &bucket, Duration::from_secs(60))
            .await
            .map_err(|e| format!("{e:#}"))
    });
    // Longer than one request may take: the first try times out.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    proxy.restore();
    let store = tokio::time::timeout(Duration::from_secs(15), open)
        .await
        .expect("the open ends")
        .unwrap()
        .unwrap_or_else(|e| panic!("the bucket was not opened after NATS came back: {e}"));
    assert!(started.elapsed() >= Duration::from_millis(1500));
    store.put("k", "v".into()).await.expect("the bucket works");
}

/// Two hosts as processes of their own (`fa`, `fb`) on one store, ann on
/// the first and bo on the second, paired by quick match with two moves
/// each played: the players, who moved first, the hosts, and which of
/// them holds the table (the other's player is its visitor).
struct Paired {
    procs: [crate::util::ssh::ServerProcess; 2],
    players: [Client; 2],
    /// Their keys (guests paired by [`paired_guests`] have none: unused).
    keys: [Box<russh::keys::PrivateKey>; 2],
    first: usize,
    table: usize,
}

const NAMES: [&str; 2] = ["ann", "bo"];

impl Drop for Paired {
    fn drop(&mut self) {
        // What the hosts logged, for a failure's reader.
        if std::thread::panicking() {
            for p in &self.procs {
                eprintln!("---- host log ----\n{}", p.log());
            }
            for (c, name) in self.players.iter().zip(NAMES) {
                // The notices each player was shown, in order.
                let raw = c.raw_text();
                let shown: Vec<&str> = raw
                    .split('\x1b')
                    .filter(|s| s.contains("host") || s.contains("again") || s.contains("!"))
                    .collect();
                eprintln!("---- {name} was shown ----\n{shown:?}");
            }
        }
    }
}

async fn paired(scratch: &Scratch, pg: &PgScratch, hosts: [&str; 2]) -> Paired {
    pair_up(scratch, pg, hosts, false).await
}

/// [`paired`], ann and bo as guests (no key): each has a resume code.
async fn paired_guests(scratch: &Scratch, pg: &PgScratch, hosts: [&str; 2]) -> Paired {
    pair_up(scratch, pg, hosts, true).await
}

async fn pair_up(scratch: &Scratch, pg: &PgScratch, hosts: [&str; 2], guests: bool) -> Paired {
    use crate::util::ssh::{ServerProcess, new_key};
    let nats = nats_url();
    let procs = hosts
        .map(|name| ServerProcess::start(&(cluster_extra(scratch, name, &nats) + &pg.section())));
    let keys = [new_key(), new_key()];
    let login = |i: usize| {
        if guests {
            Login::Guest
        } else {
            Login::Key(keys[i].clone())
        }
    };
    let mut ann = Client::connect(procs[0].addr, NAMES[0], login(0)).await;
    let mut bo = Client::connect(procs[1].addr, NAMES[1], login(1)).await;
    let ann_first = quick_match(&mut bo, &mut ann).await;
    let mut players = [ann, bo];
    let first = if ann_first { 0 } else { 1 };
    for _ in 0..2 {
        let (f, s) = in_turn(&mut players, first);
        one_each(f, s).await;
    }
    let rooms = rooms_bucket(scratch).await;
    let kept = wait_for_rooms(&rooms, |r| r.iter().any(|r| r.moves.len() == 4)).await;
    let table = hosts
        .iter()
        .position(|h| *h == kept[0].owner)
        .unwrap_or_else(|| panic!("the table is on one of {hosts:?}: {kept:?}"));
    Paired {
        procs,
        players,
        keys,
        first,
        table,
    }
}

/// The player `who`'s host gone, the other player is shown their seat
/// waiting for them (within `secs` seconds).
async fn told_away(p: &mut Paired, who: usize, secs: u64) {
    p.players[1 - who]
        .wait_for_within(
            &format!("{} lost the connection, waiting", NAMES[who]),
            Duration::from_secs(secs),
        )
        .await;
}

/// The player `who` signs in again at `addr` with their key.
async fn come_back(p: &mut Paired, who: usize, addr: std::net::SocketAddr) {
    p.players[who] = Client::connect(addr, NAMES[who], Login::Key(p.keys[who].clone())).await;
}

/// [`finish`], and the game is recorded once, whole.
async fn finish_recorded(p: &mut Paired, pg: &PgScratch) {
    finish(p).await;
    recorded_once(pg, "ann", 7).await;
}

/// The game of `p` played to its end from where `paired` left it (four
/// moves): the first player wins in column a.
async fn finish(p: &mut Paired) {
    let (f, s) = in_turn(&mut p.players, p.first);
    play_on(f, "a").await;
    play_on(s, "b").await;
    play_on(f, "a").await;
    for c in [f, s] {
        c.wait_for("wins with (0|0) (0|1) (0|2) (0|3)").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_of_a_visitor_killed_the_table_holds_the_seat_and_the_player_comes_back_to_it() {
    let scratch = Scratch::new();
    let pg = PgScratch::new().await;
    let mut p = paired(&scratch, &pg, ["va", "vb"]).await;
    let visitor = 1 - p.table;
    p.procs[visitor].signal("KILL");
    // The table's host sees the visitor's host gone (its heartbeat
    // lapses) and tells the opponent, who waits for the player.
    let opponent = p.table;
    told_away(&mut p, visitor, 10).await;
    // The player comes back to the table's host with the same key and
    // finds the seat, not the lobby.
    let table = p.procs[p.table].addr;
    come_back(&mut p, visitor, table).await;
    assert_eq!(at_table(&mut p.players[visitor]).await, visitor == p.first);
    p.players[opponent].wait_gone("lost the connection").await;
    finish_recorded(&mut p, &pg).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_of_a_table_killed_its_visitor_plays_on_and_the_other_comes_to_the_visitors_host()
{
    let scratch = Scratch::new();
    let pg = PgScratch::new().await;
    let mut p = paired(&scratch, &pg, ["ta", "tb"]).await;
    let doomed = p.table;
    let other = 1 - doomed;
    p.procs[doomed].signal("KILL");
    // The player of the dead host comes back at once to the other
    // player's host (who stays connected throughout), before that host has
    // seen the table's host gone: whichever of the two finds the game in
    // NATS first carries it on there, and both end up at that one table.
    let to = p.procs[other].addr;
    come_back(&mut p, doomed, to).await;
    let doomed_first = wait_any_within(
        &mut p.players[doomed],
        &[MY_TURN, THEIR_TURN[0]],
        Duration::from_secs(25),
    )
    .await
        == 0;
    assert_eq!(doomed_first, doomed == p.first);
    p.players[other].wait_gone("lost the connection").await;
    finish_recorded(&mut p, &pg).await;
}

/// [`play`], as a player does after a host went: a move refused because
/// the game was moving to another host is played again there.
async fn play_on(c: &mut Client, mv: &str) {
    c.wait_for(MY_TURN).await;
    c.send(format!("{mv}\r").as_bytes()).await;
    let done = [THEIR_TURN[0], THEIR_TURN[1], "wins with", "Draw:"];
    let again = ["play again in a moment", "play your move again"];
    let seen = wait_any(c, &[done[0], done[1], done[2], done[3], again[0], again[1]]).await;
    if seen < done.len() {
        return;
    }
    // Refused: once the game has its new table, the move again.
    c.pump(Duration::from_millis(500)).await;
    c.wait_for(MY_TURN).await;
    c.send(format!("{mv}\r").as_bytes()).await;
    wait_any(c, &done).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_key_on_two_hosts_is_one_session_under_one_name() {
    use crate::util::ssh::new_key;
    let scratch = Scratch::new();
    let nats = nats_url();
    let pg = PgScratch::new().await;
    let mut a = start_cluster_host_with(&scratch, "one-a", &nats, &pg.section()).await;
    let mut b = start_cluster_host_with(&scratch, "one-b", &nats, &pg.section()).await;
    let key = new_key();
    let header = |c: &Client| {
        c.screen()
            .lines()
            .find(|l| l.contains("you are "))
            .unwrap_or_default()
            .to_string()
    };
    let mut first = Client::connect(a.addr, "bob", Login::Key(key.clone())).await;
    first.wait_for("you are bob").await;
    // Someone on B sees bob listed there (the hosts know each other).
    let mut cy = Client::connect(b.addr, "cy", Login::Guest).await;
    cy.wait_for("2 online").await;
    // The same key on the other host: the newest session stays, under the
    // same name; the old one is told why and closed.
    let mut second = Client::connect(b.addr, "bob", Login::Key(key.clone())).await;
    second.wait_for("you are bob").await;
    assert!(
        header(&second).contains("you are bob "),
        "{}",
        second.screen()
    );
    first.wait_closed().await;
    assert!(
        first.raw_text().contains("signed in again on another host"),
        "{}",
        first.raw_text()
    );
    cy.wait_for("2 online").await;
    // Closed on B and back on A at once, while A may still list the old
    // session: the name is bob again, not a copy.
    drop(second);
    let mut third = Client::connect(a.addr, "bob", Login::Key(key.clone())).await;
    third.wait_for("you are bob").await;
    assert!(
        header(&third).contains("you are bob "),
        "{}",
        third.screen()
    );
    drop(third);
    drop(cy);
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_host_paused_past_its_lease_stops_its_table_and_its_player_goes_to_the_game_elsewhere()
 {
    let scratch = Scratch::new();
    let pg = PgScratch::new().await;
    let mut p = paired(&scratch, &pg, ["pa", "pb"]).await;
    let paused = p.table;
    let other = 1 - paused;
    // The paused host's player is to move when it comes back (the first
    // player, in column a so far, one stone more in column c if need be).
    let mut moves = 4;
    if paused != p.first {
        play_on(&mut p.players[other], "c").await;
        moves += 1;
    }
    p.procs[paused].signal("STOP");
    let stopped = std::time::Instant::now();
    // The other host takes the game over once the paused one's heartbeat
    // and lease lapse; its player sees the paused host's player away.
    told_away(&mut p, paused, 25).await;
    let rooms = rooms_bucket(&scratch).await;
    let host_names = ["pa", "pb"];
    wait_for_rooms(&rooms, |r| r.iter().any(|r| r.owner == host_names[other])).await;
    // Paused for the lease and five seconds more, then back.
    let pause = Duration::from_secs(11);
    if let Some(left) = pause.checked_sub(stopped.elapsed()) {
        tokio::time::sleep(left).await;
    }
    p.procs[paused].signal("CONT");
    // The paused host learns it lost the game: its table stops (never a
    // second table taking moves) and its player, still connected to it,
    // is taken to the table that goes on.
    let mover = &mut p.players[paused];
    mover
        .wait_for_within("your game goes on at another host", Duration::from_secs(10))
        .await;
    // They move at once, before reaching that table: the move goes with
    // them and is played there, once, without being asked for again.
    let (mine, theirs) = if paused == p.first {
        ("a", "b")
    } else {
        ("b", "a")
    };
    mover.send(format!("{mine}\r").as_bytes()).await;
    let seen = wait_any_within(
        mover,
        &[THEIR_TURN[0], "play your move again"],
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(seen, 0, "{}", mover.screen());
    p.players[other].wait_gone("lost the connection").await;
    play_on(&mut p.players[other], theirs).await;
    // The one who moved first has three stones in column a, the other
    // three in column b: the one to move now wins in their column.
    let (winner, line) = if paused == p.first {
        ("a", "(0|0) (0|1) (0|2) (0|3)")
    } else {
        ("b", "(1|0) (1|1) (1|2) (1|3)")
    };
    play_on(&mut p.players[paused], winner).await;
    for c in &mut p.players {
        c.wait_for(&format!("wins with {line}")).await;
    }
    recorded_once(&pg, "ann", moves + 3).await;
    let kept = wait_for_rooms(&rooms, |r| r.is_empty()).await;
    assert!(kept.is_empty());
}

#[test]
fn the_failover_benchmark_runs_the_fault_matrix_and_its_cases_pass() {
    // Cases 1, 2, 3 and 5 have tests of their own above (the same faults,
    // hosts in this process); here the bench runs the cases found nowhere
    // else: one key on two hosts, NATS stopped 10 s (a NATS server of the
    // bench's own), PostgreSQL cut 10 s.
    let out = crate::util::inarow()
        .args([
            "bench",
            "failover",
            "--runs",
            "1",
            "--cases",
            "4,6,7",
            "--nats-url",
            &nats_url(),
            "--pg-url",
            &pg_url(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    let row = |case: &str| {
        text.lines()
            .find(|l| l.starts_with(case))
            .unwrap_or_else(|| panic!("no row for case {case}:\n{text}\n{err}"))
            .to_string()
    };
    for case in ["4 one key", "6 NATS down", "7 PostgreSQL down"] {
        let cells: Vec<String> = row(case).split('|').map(|c| c.trim().to_string()).collect();
        assert_eq!(cells.len(), 6, "{text}");
        // runs, finished, recorded once, a time, no failure.
        assert_eq!(cells[1..4], ["1", "1", "1"], "case {case}:\n{text}\n{err}");
        assert!(cells[4].parse::<f64>().is_ok(), "{text}");
        assert_eq!(cells[5], "0", "case {case}:\n{text}\n{err}");
    }
    // Only the cases asked for are run.
    assert!(!text.lines().any(|l| l.starts_with("1 ")), "{text}");
    assert!(out.status.success(), "{text}\n{err}");
}

/// The resume code a guest's seat shows under the board.
async fn resume_shown(c: &mut Client) -> String {
    crate::live::resume_code(&c.wait_for("Cut off? Log in as ").await)
}

/// A guest visiting a table on another host (quick match), whose own host
/// is killed: the table's host holds the seat and tells the opponent
/// within 10 s; the guest logs in with the resume code they were shown
/// at the table's host (`third`: `None`) or at a third host, gets the
/// seat back under their name, and the game is finished and recorded once.
async fn a_visiting_guest_comes_back_by_resume_code(hosts: [&str; 2], third: Option<&str>) {
    let scratch = Scratch::new();
    let pg = PgScratch::new().await;
    let mut p = paired_guests(&scratch, &pg, hosts).await;
    let visitor = 1 - p.table;
    let opponent = p.table;
    let code = resume_shown(&mut p.players[visitor]).await;
    let mut c = match third {
        Some(name) => {
            Some(start_cluster_host_with(&scratch, name, &nats_url(), &pg.section()).await)
        }
        None => None,
    };
    p.procs[visitor].signal("KILL");
    told_away(&mut p, visitor, 10).await;
    let to = c.as_ref().map_or(p.procs[p.table].addr, |c| c.addr);
    p.players[visitor] = Client::connect(to, &code, Login::Guest).await;
    p.players[visitor]
        .wait_for(&format!("{} (you)", NAMES[visitor]))
        .await;
    assert_eq!(at_table(&mut p.players[visitor]).await, visitor == p.first);
    // The same code still leads back to the seat.
    assert_eq!(resume_shown(&mut p.players[visitor]).await, code);
    p.players[opponent].wait_gone("lost the connection").await;
    finish_recorded(&mut p, &pg).await;
    drop(p);
    if let Some(c) = &mut c {
        c.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visiting_guest_whose_host_is_killed_comes_back_by_resume_code_to_the_tables_host() {
    a_visiting_guest_comes_back_by_resume_code(["gva", "gvb"], None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visiting_guest_whose_host_is_killed_comes_back_by_resume_code_on_a_third_host() {
    a_visiting_guest_comes_back_by_resume_code(["gwa", "gwb"], Some("gwc")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guests_host_holding_the_table_killed_the_guest_comes_back_by_resume_code_to_the_other_host()
 {
    let scratch = Scratch::new();
    let pg = PgScratch::new().await;
    let mut p = paired_guests(&scratch, &pg, ["gta", "gtb"]).await;
    let doomed = p.table;
    let other = 1 - doomed;
    let code = resume_shown(&mut p.players[doomed]).await;
    p.procs[doomed].signal("KILL");
    // The other player's host carries the game on once the dead host is
    // seen gone, the guest's seat held for them.
    told_away(&mut p, doomed, 25).await;
    p.players[doomed] = Client::connect(p.procs[other].addr, &code, Login::Guest).await;
    p.players[doomed]
        .wait_for(&format!("{} (you)", NAMES[doomed]))
        .await;
    assert_eq!(at_table(&mut p.players[doomed]).await, doomed == p.first);
    assert_eq!(resume_shown(&mut p.players[doomed]).await, code);
    p.players[other].wait_gone("lost the connection").await;
    finish_recorded(&mut p, &pg).await;
}

/// `/live/HOST-ROOM` on every host: a game two guests play on host la is
/// listed on lb's front page with its host, and lb's web follows it move
/// by move over NATS to its result, as lb's watchers would.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_on_one_host_is_followed_on_the_web_of_another() {
    use crate::web::Events;
    let scratch = Scratch::new();
    let [mut a, mut b] = start_cluster_hosts(&scratch, ["la", "lb"]).await;
    let http = |h: &TestHost| h.host.as_ref().unwrap().http_addr.unwrap();
    let (web_a, web_b) = (http(&a), http(&b));
    let (mut first, mut second) = guests_playing_on(&a).await;

    // lb's front page lists the game on la, linked by its host.
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    let id = loop {
        let (code, page) = get(web_b, "/").await;
        assert_eq!(code, 200);
        if let Some(at) = page.find("href=\"/live/la-") {
            break page[at + 12..].split('"').next().unwrap().to_string();
        }
        assert!(std::time::Instant::now() < deadline, "{page}");
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    // The page on either host names the same events.
    for web in [web_a, web_b] {
        let (code, page) = get(web, &format!("/live/{id}")).await;
        assert_eq!(code, 200, "{page}");
        assert!(
            page.contains(&format!("data-events=\"/live/{id}/events\"")),
            "{page}"
        );
    }
    let (code, mut events) = Events::open(web_b, &format!("/live/{id}/events")).await;
    assert_eq!(code, 200);
    let now = events
        .next(Duration::from_secs(5))
        .await
        .expect("the state");
    assert_eq!(now["moves"], 1, "{now}");
    // Each move crosses to lb's web, to the result.
    let mut moves = 1;
    let mut last = now;
    for (who, mv) in [(1, "d"), (0, "e"), (1, "e"), (0, "f"), (1, "f"), (0, "g")] {
        let c = if who == 0 { &mut first } else { &mut second };
        play(c, mv).await;
        moves += 1;
        loop {
            let e = events
                .next(Duration::from_secs(5))
                .await
                .unwrap_or_else(|| panic!("move {moves} did not reach lb's web"));
            if e["moves"] == moves {
                last = e;
                break;
            }
        }
    }
    let mut over = last["over"] == true;
    while !over {
        let e = events
            .next(Duration::from_secs(5))
            .await
            .expect("the result");
        over = e["over"] == true;
        last = e;
    }
    assert!(
        last["status"].as_str().unwrap().contains("wins with"),
        "{last}"
    );
    // Games that are not there, and ids that are no games.
    for path in [
        "/live/la-999999",
        "/live/nohost-1",
        "/live/la-x",
        "/live/bad!-1",
    ] {
        assert_eq!(get(web_b, path).await.0, 404, "{path}");
    }
    a.shutdown().await;
    b.shutdown().await;
}
