//! The swap2 opening between two people over real SSH: a friend room and
//! an invitation that choose it, the three opening stones, the choices on
//! both screens, the players changing seats, and the game's record.

use crate::accounts::{config_file, exported};
use crate::ssh::room_code;
use crate::util::TestClient;
use crate::util::ssh::{Client, Login, MY_TURN, board_point, start_host, wait_any};

/// The names on the players' line, first side first (the line that holds
/// " vs "), with the markers taken off.
pub(crate) fn seat_names(c: &Client) -> [String; 2] {
    let s = c.screen();
    let line = s
        .lines()
        .find(|l| l.contains(" vs "))
        .unwrap_or_else(|| panic!("no players' line:\n{s}"));
    let mut halves = line.split(" vs ").map(|h| {
        h.replace("(you)", "")
            .split_whitespace()
            .find(|w| w.chars().all(|c| c.is_ascii_alphanumeric()))
            .unwrap_or_default()
            .to_string()
    });
    [halves.next().unwrap(), halves.next().unwrap()]
}

/// Places a stone at `point` (typed, then Enter) and waits until this
/// client's board shows a stone there.
pub(crate) async fn place(c: &mut Client, point: &str) {
    c.send(format!("{point}\r").as_bytes()).await;
    let deadline = tokio::time::Instant::now() + crate::util::ssh::WAIT;
    loop {
        if board_point(c, point).is_some_and(|p| !p.is_empty() && p != "+" && p != ".") {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no stone at {point}:\n{}",
            c.screen()
        );
        c.pump(std::time::Duration::from_millis(50)).await;
    }
}

/// The two players of a new game, the one who places the opening stones
/// first: the screen that says so tells which.
pub(crate) async fn placer_first(a: Client, b: Client) -> (Client, Client) {
    let (mut a, mut b) = (a, b);
    for c in [&mut a, &mut b] {
        c.wait_for("Swap2:").await;
    }
    let i = wait_any(
        &mut a,
        &["Swap2: place three stones", "places three opening stones"],
    )
    .await;
    if i == 0 { (a, b) } else { (b, a) }
}

/// The opening's first three stones (h8, i9, j8) placed, until the
/// chooser is asked to choose; the seats' names as they were (first,
/// second).
pub(crate) async fn three_stones_placed(placer: &mut Client, chooser: &mut Client) -> [String; 2] {
    let names = seat_names(placer);
    for p in ["h8", "i9", "j8"] {
        place(placer, p).await;
    }
    chooser.wait_for("Press 1, 2 or 3").await;
    names
}

/// Both screens say who chose to play which side: the seats, `names` as
/// they were (first, second), have changed places.
pub(crate) async fn sides_swapped(placer: &mut Client, chooser: &mut Client, names: &[String; 2]) {
    let [first, second] = names;
    for c in [placer, chooser] {
        c.wait_for("chose to play").await;
        assert_eq!(seat_names(c), [second.clone(), first.clone()]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swap2_friend_room_two_more_stones_then_the_first_player_takes_the_second_side() {
    let t = start_host().await;
    let config = config_file(&t);
    let mut ann = Client::in_lobby(t.addr, "ann", Login::Guest).await;
    ann.send(b"2").await;
    ann.wait_for("Invite a friend").await;
    ann.send(b"3").await;
    let code = room_code(&ann.wait_for("Room code:").await);
    ann.wait_for("Opening:  standard").await;
    ann.send(b"o").await;
    ann.wait_for("Opening:  swap2").await;
    let bob = Client::connect(t.addr, &code, Login::Guest).await;
    let (mut placer, mut chooser) = placer_first(ann, bob).await;
    let [first, second] = seat_names(&placer);
    chooser.wait_for("places three opening stones").await;

    // The chooser cannot place a stone of the opening.
    chooser.send(b"a1\r").await;
    chooser.wait_for("not your turn").await;
    // Three stones: the first side's, the second's, the first's.
    placer.wait_for("(now ").await;
    place(&mut placer, "h8").await;
    placer.wait_for("places a").await;
    place(&mut placer, "i8").await;
    place(&mut placer, "h9").await;
    placer
        .wait_for("chooses a colour, or to place two more")
        .await;
    chooser.wait_for("3 place two more").await;
    chooser.wait_for("Press 1, 2 or 3").await;
    // A move is no choice; the placer has nothing to choose.
    chooser.send(b"j9\r").await;
    chooser.wait_for("choose with 1, 2 or 3").await;
    placer.send(b"1").await;
    let j9 = board_point(&chooser, "j9");
    assert!(matches!(j9.as_deref(), Some("." | "+")), "j9: {j9:?}");

    // Two more: the chooser places the second side's stone, then the first's.
    chooser.send(b"3").await;
    placer.wait_for("places two more stones").await;
    chooser.wait_for("place two more stones").await;
    place(&mut chooser, "g7").await;
    place(&mut chooser, "j10").await;
    // The first player chooses again: the second side, and places next.
    chooser.wait_for("chooses a colour").await;
    placer.wait_for("Press 1 or 2").await;
    placer.send(b"3").await;
    placer.wait_for("choose with 1 or 2").await;
    placer.send(b"2").await;
    for c in [&mut placer, &mut chooser] {
        c.wait_for("chose to play").await;
        assert_eq!(
            seat_names(c),
            [second.clone(), first.clone()],
            "the players changed seats:\n{}",
            c.screen()
        );
    }
    // The placer now plays the second side and is to move.
    placer.wait_for(MY_TURN).await;
    chooser.wait_for("Waiting for").await;
    place(&mut placer, "k11").await;
    chooser.wait_for(MY_TURN).await;
    // The colours stayed with the stones: h8 is still the first side's.
    assert_eq!(board_point(&chooser, "h8"), board_point(&placer, "h9"));
    assert_ne!(board_point(&chooser, "h8"), board_point(&chooser, "i8"));

    // The chooser (now first) resigns: the record has the seats as they
    // ended, and the placer, on the second side, as the winner.
    chooser.send(b"!").await;
    chooser.wait_for("Resign?").await;
    chooser.send(b"y").await;
    placer.wait_for("You win!").await;
    let games = loop {
        let games = exported(&config);
        if !games.is_empty() {
            break games;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    let g = &games[0];
    let firsts = g["first"].as_u64().unwrap() as usize;
    assert_eq!(g["players"][firsts]["name"], second.as_str(), "{g}");
    assert_eq!(g["players"][1 - firsts]["name"], first.as_str(), "{g}");
    assert_eq!(g["winner"].as_u64(), Some(1 - firsts as u64), "{g}");
    assert_eq!(g["moves"].as_array().unwrap().len(), 6, "{g}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invitation_with_swap2_says_so_and_the_chooser_takes_the_first_side() {
    let t = start_host().await;
    let mut ann = Client::in_lobby(t.addr, "ann", Login::Guest).await;
    let mut bob = Client::in_lobby(t.addr, "bob", Login::Guest).await;
    ann.invite_form("bob").await;
    // Connect Four has no swap2.
    ann.send(b"o").await;
    ann.wait_for("swap2 is for Gomoku and Renju").await;
    ann.wait_for("[o] Opening: standard").await;
    // Gomoku: the opening may be swap2.
    ann.walk(&[(b"g", "Gomoku"), (b"o", "[o] Opening: swap2")])
        .await;
    ann.send(b"\r").await;
    bob.wait_for("ann invites you to a game").await;
    bob.wait_for("Gomoku, casual, no clock, swap2 opening")
        .await;
    bob.send(b"y").await;
    let (mut placer, mut chooser) = placer_first(ann, bob).await;
    let names = three_stones_placed(&mut placer, &mut chooser).await;
    chooser.send(b"1").await;
    sides_swapped(&mut placer, &mut chooser, &names).await;
    // The placer, now on the second side, places the fourth stone.
    placer.wait_for(MY_TURN).await;
    place(&mut placer, "g7").await;
    chooser.wait_for(MY_TURN).await;
}
