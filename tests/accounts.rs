//! Accounts, ratings and records over real SSH: the host with its SQLite
//! store in a temp dir, russh clients with keys, and the `inarow games` and
//! `inarow admin` commands on the same store.

use inarow::store::Store;
use russh::keys::HashAlg;
use serde_json::Value;

use crate::util::TestClient;
use crate::util::ssh::{
    Client, Login, MY_TURN, THEIR_TURN, TestHost, mover_first, new_key, play, start_host,
    test_config_text, wait_any,
};

/// The test host's configuration, written to a file the commands can read.
pub(crate) fn config_file(t: &TestHost) -> std::path::PathBuf {
    let path = t.dir.path().join("inarow.toml");
    std::fs::write(&path, test_config_text(t.dir.path(), "")).unwrap();
    path
}

/// The store the host of `config` keeps.
async fn store_of(config: &std::path::Path) -> Store {
    let url = inarow::config::Config::load(config).unwrap().store.url;
    Store::open(&url).await.unwrap()
}

/// The account `key` signs in to.
async fn account_of(store: &Store, key: &russh::keys::PrivateKey) -> inarow::store::Account {
    store
        .account_by_key(&fingerprint(key))
        .await
        .unwrap()
        .unwrap()
}

/// Runs `inarow ARGS --config FILE` to its end.
fn inarow_on(config: &std::path::Path, args: &[&str]) -> std::process::Output {
    crate::util::inarow()
        .args(args)
        .arg("--config")
        .arg(config)
        .output()
        .unwrap()
}

/// `inarow ARGS --config FILE`: stdout, or a panic with stderr.
pub(crate) fn inarow_with(config: &std::path::Path, args: &[&str]) -> String {
    let out = inarow_on(config, args);
    assert!(
        out.status.success(),
        "inarow {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The exported games, as JSON.
pub(crate) fn exported(config: &std::path::Path) -> Vec<Value> {
    inarow_with(config, &["games", "export"])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn fingerprint(key: &russh::keys::PrivateKey) -> String {
    key.public_key().fingerprint(HashAlg::Sha256).to_string()
}

/// Two players with these keys quick-match at Connect Four; returns
/// (first to move, second).
pub(crate) async fn rated_pair(
    t: &TestHost,
    a: (&str, &russh::keys::PrivateKey),
    b: (&str, &russh::keys::PrivateKey),
) -> (Client, Client) {
    rated_pair_at(t.addr, a, b).await
}

async fn rated_pair_at(
    addr: std::net::SocketAddr,
    a: (&str, &russh::keys::PrivateKey),
    b: (&str, &russh::keys::PrivateKey),
) -> (Client, Client) {
    let mut ca = Client::connect(addr, a.0, Login::Key(Box::new(a.1.clone()))).await;
    let mut cb = Client::connect(addr, b.0, Login::Key(Box::new(b.1.clone()))).await;
    for c in [&mut ca, &mut cb] {
        c.walk(&[(b"1", "Quick match")]).await;
        c.send(b"1").await;
    }
    for c in [&mut ca, &mut cb] {
        wait_any(c, &[MY_TURN, THEIR_TURN[0]]).await;
    }
    mover_first(ca, cb)
}

/// The first player wins in column a.
async fn first_wins(first: &mut Client, second: &mut Client) {
    for _ in 0..3 {
        play(first, "a").await;
        play(second, "b").await;
    }
    play(first, "a").await;
    for c in [first, second] {
        c.wait_for("wins with").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_quick_match_moves_both_ratings_and_is_exported_and_kept_over_a_restart() {
    let mut t = start_host().await;
    let (ann, bob) = (new_key(), new_key());
    let (mut first, mut second) = rated_pair(&t, ("ann", &ann), ("bob", &bob)).await;
    for c in [&mut first, &mut second] {
        let s = c.screen();
        assert!(s.contains("rated"), "{s}");
        assert!(s.contains("ann 1500") && s.contains("bob 1500"), "{s}");
    }
    first_wins(&mut first, &mut second).await;
    // Glicko-2, two new players (1500 ± 350, volatility 0.06): the winner
    // 1662.31, the loser 1337.69.
    first.wait_for("rating 1500 \u{2192} 1662 (+162)").await;
    second.wait_for("rating 1500 \u{2192} 1338 (-162)").await;
    let winner = if first.screen().contains("ann 1500 (you)") {
        "ann"
    } else {
        "bob"
    };

    let config = config_file(&t);
    let games = exported(&config);
    assert_eq!(games.len(), 1, "{games:?}");
    let g = &games[0];
    assert_eq!(g["game"], "connect4");
    assert_eq!(g["size"], "7x6");
    assert_eq!(g["rule"], "freestyle");
    assert_eq!(g["rated"], true);
    assert_eq!(g["result"], "win");
    assert_eq!(g["reason"], "line");
    assert_eq!(g["first"], 0);
    assert_eq!(g["winner"], 0);
    assert_eq!(
        g["moves"],
        serde_json::json!(["1", "2", "1", "2", "1", "2", "1"])
    );
    assert_eq!(
        g["line"],
        serde_json::json!(["(0|0)", "(0|1)", "(0|2)", "(0|3)"])
    );
    let p = &g["players"];
    assert_eq!(p[0]["name"], winner);
    assert!(p[0]["account"].is_string() && p[1]["account"].is_string());
    assert_eq!(p[0]["computer"], Value::Null);
    assert_eq!(p[0]["rating_before"], 1500.0);
    assert_eq!(p[0]["rating_after"], 1662.0);
    assert_eq!(p[1]["rating_after"], 1338.0);
    for key in ["started", "ended"] {
        let s = g[key].as_str().unwrap();
        assert!(
            s.len() == 24 && s.ends_with('Z') && s.as_bytes()[10] == b'T',
            "{s}"
        );
    }
    // The text form: one line, the move string `inarow solve` reads.
    let text = inarow_with(&config, &["games", "export", "--format", "text"]);
    assert_eq!(text.lines().count(), 1);
    assert!(text.contains("moves: ABABABA"), "{text}");
    assert!(text.contains("won (line)"), "{text}");
    // Filters.
    assert_eq!(
        inarow_with(&config, &["games", "export", "--game", "gomoku"]),
        ""
    );
    assert_eq!(
        inarow_with(&config, &["games", "export", "--player", "ANN"])
            .lines()
            .count(),
        1
    );
    assert_eq!(
        inarow_with(&config, &["games", "export", "--since", "2999-01-01"]),
        ""
    );
    let shown = inarow_with(&config, &["games", "show", g["id"].as_str().unwrap()]);
    assert!(shown.contains("result   "), "{shown}");
    assert!(shown.contains("+--+--+"), "the final board: {shown}");

    // With the analysis: the same keys, and one entry a move. The winning
    // move is the best there was; an early position the solver does not
    // settle in its time says so rather than guess.
    let analysed = inarow_with(&config, &["games", "export", "--analyze"]);
    let analysed: Value = serde_json::from_str(analysed.lines().next().unwrap()).unwrap();
    for (key, value) in g.as_object().unwrap() {
        assert_eq!(&analysed[key], value, "{key}");
    }
    let moves = analysed["analysis"].as_array().unwrap();
    assert_eq!(moves.len(), 7);
    let last = &moves[6];
    assert_eq!(last["move"], "1");
    assert_eq!(last["exact"], true, "{last}");
    assert_eq!(last["label"], "best", "{last}");
    assert_eq!(last["best"], serde_json::json!(["1"]));
    assert_eq!(last["value_before"], last["value_after"]);
    assert!(last["value_before"].as_i64().unwrap() > 0, "{last}");
    for m in moves {
        if m["exact"] == false {
            assert!(m["label"].is_null() && m["value_after"].is_null(), "{m}");
        } else {
            assert!(m["label"].is_string(), "{m}");
        }
    }
    let shown = inarow_with(
        &config,
        &["games", "show", "--analyze", g["id"].as_str().unwrap()],
    );
    assert!(shown.contains("Connect Four analysis: 7 moves"), "{shown}");
    assert!(shown.contains("first player: "), "{shown}");

    // After a restart the same keys are the same players, ratings kept.
    drop((first, second));
    t.shutdown().await;
    let text = test_config_text(t.dir.path(), "");
    let host = inarow::server::Host::start(inarow::config::Config::parse(&text, "t").unwrap())
        .await
        .unwrap();
    let t2 = TestHost {
        addr: host.ssh_addr,
        host: Some(host),
        dir: t.dir,
    };
    // Logged in as "play", a generic name: the account's name comes back.
    let (mut a, mut b) = rated_pair(&t2, ("play", &ann), ("play", &bob)).await;
    for c in [&mut a, &mut b] {
        let s = c.screen();
        let (w, l) = if winner == "ann" {
            ("ann 1662", "bob 1338")
        } else {
            ("bob 1662", "ann 1338")
        };
        assert!(s.contains(w) && s.contains(l), "{s}");
    }
}

/// After a rated game, 1662 and 1338 seek again: 324 apart, more than
/// the window at first, so both wait, each told the other's rating and
/// when the widening window reaches the gap.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_match_names_the_other_seekers_rating_and_when_the_window_reaches_it() {
    let t = crate::util::ssh::start_host_with("[lobby]\nmatch_wait_secs = 60\n").await;
    let (ann, bob) = (new_key(), new_key());
    let (mut first, mut second) = rated_pair(&t, ("ann", &ann), ("bob", &bob)).await;
    first_wins(&mut first, &mut second).await;
    first.wait_for("rating 1500 \u{2192} 1662 (+162)").await;
    second.wait_for("rating 1500 \u{2192} 1338 (-162)").await;
    for c in [&mut first, &mut second] {
        // Back at the lobby's menu for Connect Four.
        c.walk(&[(b"l", "Quick match")]).await;
        c.send(b"1").await;
        c.wait_for("Looking for another").await;
    }
    first.wait_for("1 other player waiting, rating 1338:").await;
    second
        .wait_for("1 other player waiting, rating 1662:")
        .await;
    for c in [&mut first, &mut second] {
        // 224/400 of a minute after the first began: about 34 s.
        let s = c
            .wait_for("pairing when the window reaches \u{b1}324 (in ")
            .await;
        let secs: u64 = s
            .split("(in ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{s}"));
        assert!((25..=34).contains(&secs), "{s}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_cannot_take_an_accounts_name_nor_a_look_alike() {
    let t = start_host().await;
    let key = new_key();
    let mut owner = Client::connect(t.addr, "Vera", Login::Key(key)).await;
    owner.wait_for("you are Vera").await;
    // The login name of a guest: a guest name instead.
    let mut g = Client::in_lobby(t.addr, "vera", Login::Guest).await;
    assert!(g.screen().contains("you are Guest"), "{}", g.screen());
    // Typed in the lobby, in another case or with look-alike letters.
    for attempt in ["VERA", "V\u{0435}ra", "v\u{0435}r\u{0430}"] {
        g.send(b"n").await;
        g.wait_for("What should people call you?").await;
        g.send(format!("{attempt}\r").as_bytes()).await;
        g.wait_for("belongs to a registered player").await;
        assert!(g.screen().contains("you are Guest"), "{}", g.screen());
    }
    // A free name is fine.
    g.walk(&[
        (b"n", "What should people call you?"),
        (b"Wanda\r", "you are Wanda"),
    ])
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_key_linked_by_code_reaches_the_same_account() {
    let t = start_host().await;
    let (first, second) = (new_key(), new_key());
    let mut c = Client::connect(t.addr, "Xena", Login::Key(first.clone())).await;
    c.wait_for("you are Xena").await;
    // The one-time code, as the lobby's account screen gives it.
    let config = config_file(&t);
    let store = store_of(&config).await;
    let account = account_of(&store, &first).await;
    let code = store
        .create_link_code(&account.id, inarow::store::now_ms())
        .await
        .unwrap();
    let mut d = Client::connect(t.addr, &code, Login::Key(second.clone())).await;
    d.wait_for("linked to Xena").await;
    // The old session gave way (same account, another terminal)? No: a
    // second key is a second terminal of the same person; its name is the
    // account's.
    assert!(d.screen().contains("you are Xena"), "{}", d.screen());
    let linked = account_of(&store, &second).await;
    assert_eq!(linked.id, account.id);
    // The code was for one use.
    let third = new_key();
    let mut e = Client::connect(t.addr, &code, Login::Key(third)).await;
    e.wait_for("unknown or already used").await;
    assert!(!e.screen().contains("you are Xena"), "{}", e.screen());
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_banned_key_is_refused_with_the_reason_and_unbanned_it_plays() {
    let t = start_host().await;
    let key = new_key();
    let fp = fingerprint(&key);
    let config = config_file(&t);
    let out = inarow_with(
        &config,
        &[
            "admin",
            "ban",
            &fp,
            "--reason",
            "flooding the lobby",
            "--hours",
            "2",
        ],
    );
    assert!(out.contains("banned"), "{out}");
    let mut c = Client::connect(t.addr, "yuri", Login::Key(key.clone())).await;
    c.wait_for("You are banned from this host for about 2 more hours: flooding the lobby")
        .await;
    c.wait_closed().await;
    // Another key plays; lifting the ban lets the first in again.
    let _other = Client::in_lobby(t.addr, "zed", Login::Key(new_key())).await;
    inarow_with(&config, &["admin", "unban", &fp]);
    let c = Client::in_lobby(t.addr, "yuri", Login::Key(key.clone())).await;
    let users = inarow_with(&config, &["admin", "users", "--name", "yu"]);
    assert_eq!(users.lines().count(), 1, "{users}");
    assert!(users.contains("yuri"), "{users}");
    // Renamed by the admin: the next login has the new name; a taken
    // name is refused.
    drop(c);
    inarow_with(&config, &["admin", "rename", "yuri", "Yusuf"]);
    let mut c = Client::connect(t.addr, "play", Login::Key(key)).await;
    c.wait_for("you are Yusuf").await;
    let out = crate::util::inarow()
        .args(["admin", "rename", "Yusuf", "zed", "--config"])
        .arg(&config)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("taken"));
}

#[test]
fn a_game_that_ended_survives_kill_9() {
    let server = crate::util::ssh::ServerProcess::start("");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (ann, bob) = (new_key(), new_key());
    rt.block_on(async {
        // A game against the computer, left: a forfeit.
        let mut c = Client::connect(server.addr, "kim", Login::Key(new_key())).await;
        c.against_the_computer().await;
        c.walk(&[(b"q", "Leave the game?"), (b"y", "wins by forfeit")])
            .await;
        // A rated game won by a line: the host is killed the moment the
        // winner's screen says so, with no time for anything else.
        let (mut first, mut second) =
            rated_pair_at(server.addr, ("ann", &ann), ("bob", &bob)).await;
        for _ in 0..3 {
            play(&mut first, "a").await;
            play(&mut second, "b").await;
        }
        first.wait_for(MY_TURN).await;
        first.send(b"a\r").await;
        first.wait_for("wins with").await;
        server.signal("KILL");
    });
    let games = exported(&server.config());
    assert_eq!(games.len(), 2, "{games:?}");
    let g = games
        .iter()
        .find(|g| g["reason"] == "forfeit_left")
        .unwrap();
    assert_eq!(g["rated"], false);
    let players = g["players"].as_array().unwrap();
    assert!(players.iter().any(|p| p["computer"] == "easy"), "{g}");
    assert!(players.iter().any(|p| p["name"] == "kim"), "{g}");
    let g = games.iter().find(|g| g["reason"] == "line").unwrap();
    assert_eq!(g["rated"], true, "{g}");
    assert_eq!(g["moves"].as_array().unwrap().len(), 7, "{g}");
    for p in g["players"].as_array().unwrap() {
        assert!(p["rating_after"].is_number(), "{g}");
    }
}

/// A game cut by the host's shutdown is recorded as `aborted`, with no
/// winner and no rating change, and each move keeps its time since the
/// start (the pause before the second move shows in the record).
#[test]
fn a_game_cut_by_a_shutdown_is_recorded_aborted_with_its_move_times() {
    let mut server = crate::util::ssh::ServerProcess::start("");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (ann, bob) = (new_key(), new_key());
    let pause = std::time::Duration::from_millis(600);
    let (mut first, mut second) = rt.block_on(async {
        let (mut first, mut second) =
            rated_pair_at(server.addr, ("ann", &ann), ("bob", &bob)).await;
        play(&mut first, "a").await;
        tokio::time::sleep(pause).await;
        play(&mut second, "b").await;
        play(&mut first, "c").await;
        second.wait_for(MY_TURN).await;
        (first, second)
    });
    server.signal("TERM");
    rt.block_on(async {
        first.wait_closed().await;
        second.wait_closed().await;
    });
    server
        .wait(std::time::Duration::from_secs(8))
        .expect("the host did not exit");
    let games = exported(&server.config());
    assert_eq!(games.len(), 1, "{games:?}");
    let g = &games[0];
    assert_eq!(
        (&g["result"], &g["reason"], &g["winner"]),
        (
            &Value::from("aborted"),
            &Value::from("aborted"),
            &Value::Null
        ),
        "{g}"
    );
    assert_eq!(g["moves"], serde_json::json!(["1", "2", "3"]), "{g}");
    for p in g["players"].as_array().unwrap() {
        assert!(
            p["rating_after"].is_null() || p["rating_after"] == p["rating_before"],
            "an aborted game moved a rating: {g}"
        );
    }
    // The times, from the store itself and as `inarow games show` prints them.
    let id = g["id"].as_str().unwrap().to_string();
    let db = server.config().parent().unwrap().join("var/inarow.db");
    let record = rt.block_on(async {
        let store = Store::open(&format!("sqlite://{}", db.display()))
            .await
            .unwrap();
        let r = store.game(&id).await.unwrap().unwrap();
        store.close().await;
        r
    });
    let ms: Vec<u64> = record.moves.iter().map(|m| m.ms).collect();
    assert!(ms.windows(2).all(|w| w[0] <= w[1]), "{ms:?}");
    assert!(
        ms[1] - ms[0] >= pause.as_millis() as u64,
        "the pause before the second move is not in the record: {ms:?}"
    );
    assert!(
        ms[2] as i64 <= record.ended_ms - record.started_ms,
        "{ms:?} {record:?}"
    );
    let shown = inarow_with(&server.config(), &["games", "show", &id]);
    let times = shown
        .lines()
        .find_map(|l| l.strip_prefix("times"))
        .unwrap_or_else(|| panic!("no times line: {shown}"));
    assert_eq!(times.split_whitespace().count(), 3, "{shown}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_room_is_rated_when_its_host_chooses_so() {
    let t = start_host().await;
    let mut host = Client::connect(t.addr, "ida", Login::Key(new_key())).await;
    host.walk(&[(b"1", "Rated invite"), (b"4", "Room code:")])
        .await;
    let s = host.screen();
    let code = s
        .lines()
        .find_map(|l| l.split("Room code:").nth(1))
        .unwrap()
        .trim()
        .to_string();
    let mut friend = Client::connect(t.addr, &code, Login::Key(new_key())).await;
    for c in [&mut host, &mut friend] {
        c.wait_for("(you)").await;
        let s = c.screen();
        assert!(s.contains("rated"), "{s}");
        assert!(s.contains("ida 1500"), "{s}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_changes_its_name_once_a_minute_and_keeps_it() {
    let t = start_host().await;
    let key = new_key();
    let mut c = Client::connect(t.addr, "Olga", Login::Key(key.clone())).await;
    c.wait_for("you are Olga").await;
    c.walk(&[
        (b"n", "What should people call you?"),
        (b"Oksana\r", "you are Oksana"),
        (b"n", "What should people call you?"),
        (b"Olivia\r", "once a minute"),
    ])
    .await;
    assert!(c.screen().contains("you are Oksana"), "{}", c.screen());
    drop(c);
    // The new name is the account's: the next login has it.
    let mut c = Client::connect(t.addr, "play", Login::Key(key)).await;
    c.wait_for("you are Oksana").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_shaped_login_with_no_room_keeps_one_name_on_screen_account_and_record() {
    let t = start_host().await;
    let (zed, amy) = (new_key(), new_key());
    // ZZZZ has the shape of a room code and no room has it: a key user
    // keeps the account's name, which is what the store and records say.
    let (mut first, mut second) = rated_pair(&t, ("ZZZZ", &zed), ("amy", &amy)).await;
    let config = config_file(&t);
    let store = store_of(&config).await;
    let account = account_of(&store, &zed).await;
    assert_ne!(account.name, "ZZZZ");
    let zed_is_first = first
        .screen()
        .contains(&format!("{} 1500 (you)", account.name));
    let zc = if zed_is_first { &first } else { &second };
    let s = zc.screen();
    assert!(!s.contains("ZZZZ 1500"), "{s}");
    assert!(s.contains(&format!("{} 1500 (you)", account.name)), "{s}");
    first_wins(&mut first, &mut second).await;
    let games = exported(&config);
    let names: Vec<&str> = games[0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&account.name.as_str()), "{names:?}");
    assert!(!names.contains(&"ZZZZ"), "{names:?}");
    let users = inarow_with(&config, &["admin", "users", "--name", &account.name]);
    assert!(users.contains(&account.name), "{users}");
    // In the lobby the person is told, under the account's name.
    drop((first, second));
    let mut c = Client::connect(t.addr, "zzzz", Login::Key(zed)).await;
    c.wait_for("no room has the code ZZZZ").await;
    c.wait_for(&format!("you are {}", account.name)).await;
    assert!(!c.screen().contains("you are ZZZZ"), "{}", c.screen());
    // A guest gets the code as a name, but never an account's name.
    let mut owner = Client::connect(t.addr, "Kim", Login::Key(new_key())).await;
    owner.wait_for("you are Kim").await;
    store.admin_rename("Kim", "XKCD").await.unwrap();
    let mut g = Client::connect(t.addr, "xkcd", Login::Guest).await;
    g.wait_for("registered player").await;
    assert!(
        g.screen()
            .contains("no room has the code XKCD, and XKCD belongs")
    );
    assert!(g.screen().contains("you are Guest"), "{}", g.screen());
    let mut h = Client::connect(t.addr, "fwdx", Login::Guest).await;
    h.wait_for("you are FWDX").await;
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_user_whose_account_cannot_be_read_plays_as_a_guest_under_a_guest_name() {
    let t = start_host().await;
    let key = new_key();
    let mut c = Client::connect(t.addr, "Vera", Login::Key(key.clone())).await;
    c.wait_for("you are Vera").await;
    drop(c);
    // The store fails under the running host: the keys cannot be read.
    let path = t.dir.path().join("var/inarow.db");
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(sqlx::sqlite::SqliteConnectOptions::new().filename(&path))
        .await
        .unwrap();
    sqlx::query("ALTER TABLE keys RENAME TO keys_away")
        .execute(&pool)
        .await
        .unwrap();
    let mut c = Client::connect(t.addr, "Vera", Login::Key(key.clone())).await;
    c.wait_for("the store is unavailable: playing as a guest")
        .await;
    let s = c.screen();
    assert!(s.contains("you are Guest"), "{s}");
    assert!(!s.contains("Vera"), "{s}");
    drop(c);
    // Nor a code-shaped login name the store cannot check (it may be an
    // account's).
    sqlx::query("ALTER TABLE accounts RENAME TO accounts_away")
        .execute(&pool)
        .await
        .unwrap();
    let mut c = Client::connect(t.addr, "QQQQ", Login::Key(key)).await;
    c.wait_for("as a name just now").await;
    let s = c.screen();
    assert!(s.contains("the store cannot check"), "{s}");
    assert!(s.contains("you are Guest"), "{s}");
    assert!(!s.contains("you are QQQQ"), "{s}");
    pool.close().await;
}

/// `inarow ARGS --config FILE` that must fail: (exit code, stderr).
fn inarow_fails(config: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = inarow_on(config, args);
    assert!(!out.status.success(), "inarow {args:?} succeeded");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_ban_takes_only_what_can_match_and_users_shows_fingerprints() {
    let t = start_host().await;
    let key = new_key();
    let fp = fingerprint(&key);
    let mut c = Client::connect(t.addr, "Quinn", Login::Key(key)).await;
    c.wait_for("you are Quinn").await;
    let config = config_file(&t);
    for bad in [
        "notafingerprint",
        "SHA256:short",
        "1.2.3.4/40",
        "10.0.0/8",
        "sha256:x",
    ] {
        let (code, err) = inarow_fails(&config, &["admin", "ban", bad]);
        assert_eq!(code, Some(2), "{bad}: {err}");
        assert!(err.contains("SHA256:"), "{bad}: {err}");
        assert!(err.contains("network"), "{bad}: {err}");
        assert!(err.contains("account"), "{bad}: {err}");
    }
    // Nothing was stored: the lobby goes on and no ban lists them.
    let store = store_of(&config).await;
    assert_eq!(store.bans().await.unwrap(), vec![]);
    // What can match is taken.
    let out = inarow_with(&config, &["admin", "ban", "203.0.113.77/24"]);
    assert!(out.contains("banned 203.0.113.0/24 until lifted"), "{out}");
    let out = inarow_with(
        &config,
        &["admin", "ban", "::ffff:198.51.100.9", "--hours", "1"],
    );
    assert!(out.contains("banned 198.51.100.9 until"), "{out}");
    inarow_with(&config, &["admin", "unban", "203.0.113.0/24"]);
    inarow_with(&config, &["admin", "unban", "198.51.100.9"]);
    assert_eq!(store.bans().await.unwrap(), vec![]);
    // The users listing shows each account's keys.
    let users = inarow_with(&config, &["admin", "users", "--name", "quinn"]);
    assert!(users.contains("Quinn") && users.contains(&fp), "{users}");
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ban_closes_the_open_sessions_it_covers_with_the_reason() {
    let t = start_host().await;
    let config = config_file(&t);
    let (rho, sam, tia) = (new_key(), new_key(), new_key());
    let mut r = Client::connect(t.addr, "Rho", Login::Key(rho.clone())).await;
    let mut s = Client::connect(t.addr, "Sam", Login::Key(sam.clone())).await;
    let mut u = Client::connect(t.addr, "Tia", Login::Key(tia.clone())).await;
    for (c, n) in [(&mut r, "Rho"), (&mut s, "Sam"), (&mut u, "Tia")] {
        c.wait_for(&format!("you are {n}")).await;
    }
    // By account name: Rho's session ends with the reason on the screen.
    let out = inarow_with(&config, &["admin", "ban", "rho", "--reason", "cheating"]);
    assert!(out.contains("banned the account Rho"), "{out}");
    r.wait_closed().await;
    let raw = r.raw_text();
    assert!(
        raw.contains("You are banned from this host: cheating"),
        "{raw}"
    );
    // By key: Sam's.
    inarow_with(
        &config,
        &["admin", "ban", &fingerprint(&sam), "--reason", "spam"],
    );
    s.wait_closed().await;
    assert!(s.raw_text().contains("You are banned from this host: spam"));
    // Tia, covered by neither, plays on; Rho's account is refused again
    // with any of its keys.
    assert!(!u.closed);
    u.send(b"1").await;
    u.wait_for("Quick match").await;
    let mut r = Client::connect(t.addr, "play", Login::Key(rho.clone())).await;
    r.wait_for("You are banned from this host: cheating").await;
    r.wait_closed().await;
    // By network: everyone from 127.0.0.0/8, guests too.
    let mut g = Client::in_lobby(t.addr, "gus", Login::Guest).await;
    inarow_with(
        &config,
        &["admin", "ban", "127.0.0.0/8", "--reason", "closed"],
    );
    for c in [&mut u, &mut g] {
        c.wait_closed().await;
        assert!(
            c.raw_text()
                .contains("You are banned from this host: closed")
        );
    }
    let mut h = Client::connect(t.addr, "hal", Login::Guest).await;
    h.wait_for("You are banned from this host: closed").await;
    // Lifted (the account by its name): Rho plays again.
    inarow_with(&config, &["admin", "unban", "127.0.0.0/8"]);
    let out = inarow_with(&config, &["admin", "unban", "Rho"]);
    assert!(out.contains("unbanned the account Rho"), "{out}");
    let mut r = Client::connect(t.addr, "play", Login::Key(rho)).await;
    r.wait_for("you are Rho").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_rename_says_why_a_name_is_refused() {
    let t = start_host().await;
    let mut c = Client::connect(t.addr, "cat", Login::Key(new_key())).await;
    c.wait_for("you are cat").await;
    let mut d = Client::connect(t.addr, "dog", Login::Key(new_key())).await;
    d.wait_for("you are dog").await;
    let config = config_file(&t);
    let long = "x".repeat(40);
    for (new, why) in [
        (long.as_str(), "it is 40 columns wide; at most 20"),
        ("C0mputer", "kept for the computer"),
        ("", "it is empty"),
        ("a\u{1b}[2Jb", "cannot be shown"),
        ("  ann", "starts or ends with a space"),
        ("DOG", "is taken by another account"),
    ] {
        let (code, err) = inarow_fails(&config, &["admin", "rename", "cat", new]);
        assert_eq!(code, Some(2), "{new:?}: {err}");
        assert!(err.contains(why), "{new:?}: {err}");
        assert!(!err.contains('\u{1b}'), "{new:?}: {err}");
    }
    let (_, err) = inarow_fails(&config, &["admin", "rename", "nobody", "cat2"]);
    assert!(err.contains("no account is named"), "{err}");
    inarow_with(&config, &["admin", "rename", "cat", "Cat Stevens"]);
}
