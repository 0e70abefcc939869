//! The profile, replay and keys screens over real SSH, on the host's own
//! store: a player with a key forfeits a game against the computer, finds
//! it in the profile, replays it, and gets a link code.

use std::time::Duration;

use crate::util::TestClient;
use crate::util::ssh::{Client, Login, MY_TURN, new_key, start_host};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_with_a_key_replays_a_game_from_the_profile_and_gets_a_link_code() {
    let t = start_host().await;
    let mut c = Client::connect(t.addr, "Nora", Login::Key(new_key())).await;
    c.wait_for("you are Nora").await;
    c.walk(&[(b"1", "Play the computer"), (b"2", "how strong")])
        .await;
    // I move first, one stone; the computer answers; then I leave.
    c.walk(&[(b"f", "Who moves first  you")]).await;
    c.send(b"1").await;
    c.wait_for(MY_TURN).await;
    c.send(b"d\r").await;
    for _ in 0..100 {
        if crate::util::board_stones(&c.screen()) == 2 && c.screen().contains(MY_TURN) {
            break;
        }
        c.pump(Duration::from_millis(50)).await;
    }
    assert_eq!(crate::util::board_stones(&c.screen()), 2, "{}", c.screen());
    // Leaving ends the game: a forfeit, recorded.
    c.send(b"q").await;
    c.wait_for("Leave the game?").await;
    c.send(b"y").await;
    c.wait_for("wins by forfeit").await;
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
    c.send(b"\x1b[H").await;
    c.wait_for("Move 0 of 2").await;
    c.send(b"\x1b[C").await;
    c.wait_for("Move 1 of 2   last: D").await;
    c.send(b"\x1b[F").await;
    c.wait_for("Move 2 of 2").await;
    c.send(b"\x1b").await;
    c.wait_for("Profile of Nora").await;
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
