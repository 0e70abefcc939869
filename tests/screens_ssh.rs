//! The profile, replay and keys screens over real SSH, on the host's own
//! store: a player with a key forfeits a game against the computer, finds
//! it in the profile, replays it, and gets a link code.

use std::time::Duration;

use crate::util::TestClient;
use crate::util::ssh::{Client, Login, new_key, start_host, stones};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_with_a_key_replays_a_game_from_the_profile_and_gets_a_link_code() {
    let t = start_host().await;
    let mut c = Client::connect(t.addr, "Nora", Login::Key(new_key())).await;
    c.wait_for("you are Nora").await;
    // I move first, one stone; the computer answers; then I leave.
    c.first_against_the_computer().await;
    c.send(b"d\r").await;
    stones(&mut c, 2).await;
    assert_eq!(crate::util::board_stones(&c.screen()), 2, "{}", c.screen());
    // Leaving ends the game: a forfeit, recorded.
    c.walk(&[(b"q", "Leave the game?"), (b"y", "wins by forfeit")])
        .await;
    c.walk(&[(b"l", "Quick match")]).await;
    // The profile lists the game (the recorder may take a moment).
    let mut listed = false;
    for _ in 0..50 {
        c.walk(&[(b"p", "Profile of Nora")]).await;
        c.pump(Duration::from_millis(100)).await;
        if c.screen().contains("Computer (easy)") {
            listed = true;
            break;
        }
        c.send(b"\x1b").await;
        c.wait_for("Quick match").await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(listed, "the game is not in the profile:\n{}", c.screen());
    let s = c.screen();
    assert!(s.contains("Your last game:"), "{s}");
    assert!(s.contains("Connect Four  Computer (easy)"), "{s}");
    assert!(s.contains("lost"), "{s}");
    // Enter replays it, at its end; Home goes to the start.
    c.send(b"\r").await;
    c.wait_for("Computer (easy) won: the other player left")
        .await;
    c.wait_for(" of ").await;
    c.wait_for("Move 2 of 2").await;
    c.walk(&[
        (b"\x1b[H", "Move 0 of 2"),
        (b"\x1b[C", "Move 1 of 2  Nora D"),
        (b"\x1b[F", "Move 2 of 2"),
        (b"\x1b", "Profile of Nora"),
    ])
    .await;
    // The keys screen lists this key and gives a link code.
    c.send(b"k").await;
    c.wait_for("Your SSH keys").await;
    c.wait_for("[g] gives a code").await;
    c.send(b"g").await;
    let s = c.wait_for("Link code: ").await;
    let line = s
        .lines()
        .find(|l| l.contains("Link code: "))
        .unwrap()
        .to_string();
    let code = line.split("Link code: ").nth(1).unwrap().trim();
    let shape = code.len() == 9
        && code.chars().enumerate().all(|(i, ch)| {
            if i == 4 {
                ch == '-'
            } else {
                ch.is_ascii_uppercase() || ch.is_ascii_digit()
            }
        });
    assert!(shape, "not a link code: {code:?}\n{s}");
    c.wait_for(&format!("{code}@")).await;
    c.wait_for("within 10 minutes").await;
    // The only key cannot be removed: the store says why.
    c.send(b"d").await;
    c.wait_for("the last key of an account cannot be removed")
        .await;
    c.walk(&[(b"\x1b", "Profile of Nora"), (b"q", "Quick match")])
        .await;
}

/// The leaderboard over SSH, read from the host's own store: the top 20
/// qualified players in the store's order, a visitor with no rated game
/// told what it takes, and a stored name carrying escape sequences drawn
/// without them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_shows_the_stores_top_20_and_my_standing() {
    use inarow::game::GameKind;
    use inarow::store::{GameRecord, PlayerRecord, Store};
    let t = start_host().await;
    let url = format!("sqlite://{}", t.dir.path().join("var/inarow.db").display());
    let store = Store::open(&url).await.unwrap();
    let now = inarow::store::now_ms();
    // 25 players, 48 rated games each: the lower number mostly wins.
    let mut ids = Vec::new();
    for i in 1..=25 {
        let a = store
            .create_account(&format!("SHA256:lead{i}"), &format!("Lead{i:02}"), now)
            .await
            .unwrap();
        ids.push(a.id);
    }
    let mut games = Vec::new();
    for round in 0..48usize {
        for i in 0..25usize {
            let j = (i + 1 + round % 24) % 25;
            let (a, b) = (i.min(j), i.max(j));
            let winner = if (round + i) % 5 == 0 { 1 } else { 0 };
            let end = now - 100_000 + (round * 25 + i) as i64;
            let players = [
                PlayerRecord::person(&format!("Lead{:02}", a + 1), Some(&ids[a]), "red"),
                PlayerRecord::person(&format!("Lead{:02}", b + 1), Some(&ids[b]), "yellow"),
            ];
            games.push(GameRecord {
                started_ms: end - 1_000,
                line: vec![(0, 0), (1, 0), (2, 0), (3, 0)],
                moves: Vec::new(),
                ..crate::store::game(players, Some(winner), true, end)
            });
        }
    }
    for chunk in games.chunks(200) {
        store.record_games(chunk).await.unwrap();
    }
    let board = store
        .leaderboard(GameKind::ConnectFour, None, now)
        .await
        .unwrap();
    assert_eq!(board.top.len(), 20, "{board:?}");
    // A name that reached the store with escape sequences in it (an older
    // version, an admin's SQL): the screen must not pass them on.
    let (first, second) = (board.top[0].clone(), board.top[1].clone());
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    sqlx::query("UPDATE accounts SET name = ? WHERE id = ?")
        .bind("\u{1b}]0;pwned\u{7}Evil\u{1b}[2J")
        .bind(&first.account)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    store.close().await;

    let mut c = Client::connect(t.addr, "Vera", Login::Key(new_key())).await;
    c.wait_for("you are Vera").await;
    c.send(b"l").await;
    let s = c.wait_for(&second.name).await;
    // Rank, then name, in the store's order.
    let row = |rank: i64, name: &str| format!("{rank:>4}  {name}");
    assert!(s.contains(&row(2, &second.name)), "{s}");
    let rows: Vec<usize> = board.top[1..8]
        .iter()
        .map(|e| {
            s.find(&row(e.rank, &e.name))
                .unwrap_or_else(|| panic!("{} missing:\n{s}", e.name))
        })
        .collect();
    assert!(rows.windows(2).all(|w| w[0] < w[1]), "out of order:\n{s}");
    assert!(s.contains("Evil"), "{s}");
    // Vera has no rated game yet: the screen says what it takes.
    assert!(s.contains("To appear here: 5 rated games"), "{s}");
    // The rest of the top 20 by scrolling; never the 21st.
    for _ in 0..20 {
        c.send(b"\x1b[B").await;
    }
    let last = &board.top[19];
    let s = c.wait_for(&row(20, &last.name)).await;
    let outside = store_names_outside(&board.top);
    for name in outside {
        assert!(!s.contains(&name), "{name} is not in the top 20:\n{s}");
    }
    let raw = c.raw_text();
    assert!(
        !raw.contains("pwned\u{7}") && !raw.contains("\u{1b}]0;"),
        "an escape sequence from a name reached the terminal"
    );
    c.walk(&[(b"\x1b", "Choose a game")]).await;
}

/// The seeded players who are not in `top`.
fn store_names_outside(top: &[inarow::store::LeaderEntry]) -> Vec<String> {
    (1..=25)
        .map(|i| format!("Lead{i:02}"))
        .filter(|n| !top.iter().any(|e| &e.name == n))
        .collect()
}
