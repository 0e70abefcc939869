//! Live play over real SSH: resigning, draw offers and takebacks between
//! two people at one table, on both screens and in the game's record.

use serde_json::Value;

use crate::accounts::{config_file, exported};
use crate::ssh::quick_match_pair;
use crate::util::ssh::{MY_TURN, play, start_host, wait_any};

/// The record of the game with this reason, once it is stored.
async fn record_with(config: &std::path::Path, reason: &str, count: usize) -> Vec<Value> {
    let deadline = tokio::time::Instant::now() + crate::util::ssh::WAIT;
    loop {
        let games: Vec<Value> = exported(config)
            .into_iter()
            .filter(|g| g["reason"] == reason)
            .collect();
        if games.len() >= count {
            return games;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no {count} games with reason {reason}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offers_and_resignations_between_two_people() {
    let t = start_host().await;
    let config = config_file(&t);
    let (mut first, mut second) = quick_match_pair(&t, ["ann", "bob"], b"1").await;
    play(&mut first, "d").await;

    // A draw offer: the other side sees it with the keys that answer,
    // declines it; the same offer at the same move is refused.
    first.send(b"=").await;
    first.wait_for("You offered a draw: waiting for").await;
    second.wait_for("offers a draw: = accept   - decline").await;
    second.send(b"-").await;
    first.wait_for("declined the draw: play on").await;
    let s = first.screen();
    assert!(!s.contains("You offered a draw"), "{s}");
    first.send(b"=").await;
    first
        .wait_for("you made an offer at this move already")
        .await;

    // A takeback in a casual game: asked after one's own move, allowed,
    // and the asker is to move again with one stone fewer.
    play(&mut second, "d").await;
    second.send(b"u").await;
    first
        .wait_for("asks to take back a move: = allow   - refuse")
        .await;
    first.send(b"=").await;
    second.wait_for(MY_TURN).await;
    assert_eq!(crate::util::board_stones(&second.screen()), 1);

    // An offer lapses when the one it was made to moves instead.
    second.send(b"=").await;
    first.wait_for("offers a draw").await;
    play(&mut second, "e").await;
    play(&mut first, "e").await;
    let s = first.screen();
    assert!(!s.contains("offers a draw"), "{s}");

    // Accepted: a draw by agreement on both screens, recorded as a draw.
    second.wait_for(MY_TURN).await;
    second.send(b"=").await;
    first.wait_for("offers a draw").await;
    first.send(b"=").await;
    for c in [&mut first, &mut second] {
        c.wait_for("Draw by agreement").await;
        c.wait_for("Draw.").await;
    }
    let drawn = record_with(&config, "draw", 1).await;
    assert_eq!(drawn[0]["result"], "draw");
    // d, e, e: the second d was taken back.
    assert_eq!(drawn[0]["moves"].as_array().unwrap().len(), 3);

    // The rematch: resigning asks first; a no keeps the game going, a yes
    // loses it, on the opponent's turn too.
    for c in [&mut first, &mut second] {
        c.send(b"r").await;
    }
    for c in [&mut first, &mut second] {
        wait_any(c, &[MY_TURN, "Waiting for"]).await;
    }
    let (mut mover, mut other) = if second.screen().contains(MY_TURN) {
        (second, first)
    } else {
        (first, second)
    };
    other.send(b"!").await;
    other.wait_for("Resign? You lose this game. y/n").await;
    other.send(b"n").await;
    other.wait_for("you play on").await;
    play(&mut mover, "c").await;
    mover.send(b"!").await;
    mover.wait_for("Resign?").await;
    mover.send(b"y").await;
    for c in [&mut mover, &mut other] {
        c.wait_for("resigned:").await;
    }
    mover.wait_for("You lost.").await;
    other.wait_for("You win!").await;
    let resigned = record_with(&config, "resign", 1).await;
    assert_eq!(resigned[0]["result"], "win");
    let winner = resigned[0]["winner"].as_u64().unwrap() as usize;
    let loser_name = resigned[0]["players"][1 - winner]["name"].as_str().unwrap();
    let s = mover.screen();
    assert!(s.contains(&format!("{loser_name} (you)")), "{s}");
    assert_eq!(resigned[0]["moves"].as_array().unwrap().len(), 1);
}
