//! The room's timers under a paused tokio clock: a real room task (the
//! `tokio::select!` that sleeps until the flag, the end of a reconnect
//! grace, or a held record) driven through its handle, with time moved by
//! the test alone. Nothing here waits in real time or depends on the
//! machine's speed: the runtime's clock only moves when every task is idle
//! (auto-advance), so when a test wakes at an instant, everything the room
//! had to do before it is done.
//!
//! The clock arithmetic itself (`crate::clock`) and the table's rules have
//! their own pure tests; these check that the room reads the same clock its
//! timers sleep on, and acts at the right instant.

use super::*;
use crate::game::Colour;
use crate::protocol::LeaveReason;
use crate::session::play::PlayScreen;
use crate::term::board::Theme;

const ANN: SessionId = 1;
const BOB: SessionId = 2;
/// Bob's session after he connects again.
const BOB_AGAIN: SessionId = 3;

/// A room between ann (first to move) and bob, both with an account, on
/// `clock`; with what the room tells the lobby and each player's inbox.
struct Game {
    room: RoomHandle,
    state: watch::Receiver<Arc<RoomState>>,
    lobby: mpsc::Receiver<Cmd>,
    inboxes: [crate::mailbox::Receiver<ToSession>; 2],
    /// When the room started (the paused clock stands still until a test moves it).
    t0: Instant,
}

fn services(lobby: mpsc::Sender<Cmd>, claim_after: Duration, grace: Duration) -> RoomServices {
    RoomServices {
        lobby,
        computer: Computer::for_tests(),
        recorder: None,
        tracker: tokio_util::task::TaskTracker::new(),
        claim_after,
        reconnect_grace: grace,
        max_spectators: 10,
        chat_max: 200,
        metrics: Default::default(),
    }
}

fn seat(
    id: SessionId,
    name: &str,
    colour: Colour,
) -> (SeatSpec, crate::mailbox::Receiver<ToSession>) {
    let (tx, rx) = crate::mailbox::channel(32);
    let seat = super::super::state::Occupant::Human {
        id,
        name: name.into(),
        colour,
        account: Some(format!("account-{name}")),
        rating: None,
        resume: None,
    };
    ((seat, Some(tx)), rx)
}

fn start(clock: Option<TimeControl>, claim_after: Duration, grace: Duration) -> Game {
    start_with(
        Rules::connect_four(),
        Opening::Standard,
        clock,
        claim_after,
        grace,
    )
}

fn start_with(
    rules: Rules,
    opening: Opening,
    clock: Option<TimeControl>,
    claim_after: Duration,
    grace: Duration,
) -> Game {
    let (lobby_tx, lobby) = mpsc::channel(64);
    let (ann, ann_rx) = seat(ANN, "ann", Colour::Red);
    let (bob, bob_rx) = seat(BOB, "bob", Colour::Blue);
    let services = services(lobby_tx, claim_after, grace);
    let t0 = crate::lobby::now();
    let (room, state) = spawn(7, rules, [ann, bob], false, clock, opening, None, &services);
    Game {
        room,
        state,
        lobby,
        inboxes: [ann_rx, bob_rx],
        t0,
    }
}

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

const MS: Duration = Duration::from_millis(1);

impl Game {
    /// Lets the paused clock run (auto-advance: timer by timer, each
    /// task running to idle in between) until `t0 + at`, then lets
    /// whatever is due at that very instant run as well.
    async fn until(&self, at: Duration) {
        tokio::time::sleep_until(tokio::time::Instant::from_std(self.t0 + at)).await;
        settle().await;
        assert_eq!(crate::lobby::now(), self.t0 + at);
    }

    /// The room's state once it has handled everything sent so far.
    async fn state(&mut self) -> Arc<RoomState> {
        settle().await;
        self.state.borrow_and_update().clone()
    }

    /// Bob logs in again (as `BOB_AGAIN`): the room may give his seat
    /// back; what it tells that session comes to the inbox returned.
    async fn bob_comes_back(&mut self) -> crate::mailbox::Receiver<ToSession> {
        let (inbox, back) = crate::mailbox::channel(8);
        let rejoin = RoomCmd::Rejoin {
            key: "account-bob".into(),
            id: BOB_AGAIN,
            inbox,
        };
        self.room.send(rejoin).await;
        back
    }

    /// `who`'s connection drops (their seat may be kept for them).
    async fn drop_connection(&mut self, who: SessionId) {
        let leave = SeatCmd::Leave {
            reason: LeaveReason::LostConnection,
            dropped: true,
        };
        self.room.send(RoomCmd::seat(who, leave)).await;
    }

    async fn play(&mut self, who: SessionId, column: u8) {
        self.play_move(who, Move::Column(column)).await;
    }

    async fn play_move(&mut self, who: SessionId, m: Move) {
        let stones = self.state.borrow().view.position.stones();
        self.room.send(RoomCmd::seat(who, SeatCmd::Move(m))).await;
        let s = self.state().await;
        assert_eq!(s.view.position.stones(), stones + 1, "the move was refused");
    }

    /// The refusals a player was sent since the last look.
    fn refusals(&mut self, side: Side) -> Vec<Refusal> {
        let mut said = Vec::new();
        while let Ok(msg) = self.inboxes[side.index()].try_recv() {
            if let ToSession::Rejected(why) = msg {
                said.push(why);
            }
        }
        said
    }

    /// What the room told the lobby since the last look.
    fn told_lobby(&mut self) -> Vec<Command> {
        let mut told = Vec::new();
        while let Ok(cmd) = self.lobby.try_recv() {
            if let Cmd::Do(c) = cmd {
                told.push(c);
            }
        }
        told
    }
}

/// Lets every task that can run now run, without time moving: only the
/// test task is ever ready while it yields, so the clock does not advance.
async fn settle() {
    for _ in 0..64 {
        tokio::task::yield_now().await;
    }
}

/// What the store records as the reason a forfeit was given for.
fn forfeit_of(state: &RoomState) -> (Side, &'static str) {
    match &state.view.ending {
        Some(Ending::Forfeit { leaver, reason }) => (*leaver, forfeit_reason(reason).as_str()),
        other => panic!("not a forfeit: {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn the_clock_runs_for_the_side_to_move_and_flags_it_at_its_deadline() {
    let mut g = start(Some(TimeControl::new(1, 0)), secs(120), secs(60));
    let s = g.state().await;
    let clock = s.view.clock.expect("a game with a clock shows it");
    // The room reads the paused clock: its clocks start at the test's now.
    assert_eq!(clock.at, g.t0);
    assert_eq!(clock.left, [secs(60); 2]);
    assert_eq!(clock.running, Some(Side::First));
    assert_eq!(s.view.claim_from, None, "no claims in a game with a clock");

    // Ann moves after 20 s: her clock stops at 0:40, bob's runs from 1:00.
    g.until(secs(20)).await;
    g.play(ANN, 3).await;
    let clock = g.state().await.view.clock.unwrap();
    assert_eq!(clock.left, [secs(40), secs(60)]);
    assert_eq!(clock.running, Some(Side::Second));

    // Bob sits still: a millisecond before his minute is up, the game is on.
    g.until(secs(80) - MS).await;
    let s = g.state().await;
    assert!(
        s.view.ending.is_none(),
        "flagged early: {:?}",
        s.view.ending
    );
    assert_eq!(
        s.view
            .clock
            .unwrap()
            .left_at(Side::Second, crate::lobby::now()),
        MS
    );

    // At the minute, the room's own timer ends it: bob lost on time.
    g.until(secs(80)).await;
    let s = g.state().await;
    assert_eq!(
        s.view.ending,
        Some(Ending::Flag {
            loser: Side::Second
        })
    );
    let clock = s.view.clock.unwrap();
    assert_eq!(clock.left, [secs(40), Duration::ZERO]);
    assert_eq!(clock.running, None, "the clocks stop with the game");
    let text = s.view.ending_text().unwrap();
    assert!(
        text.contains("bob (Blue) ran out of time: ann (Red) wins"),
        "{text}"
    );
    // A move after the flag changes nothing.
    g.room
        .send(RoomCmd::seat(BOB, SeatCmd::Move(Move::Column(3))))
        .await;
    assert_eq!(g.state().await.view.position.stones(), 1);
}

#[tokio::test(start_paused = true)]
async fn each_move_adds_the_increment_and_moves_the_flag_with_it() {
    // One minute and five seconds a move.
    let mut g = start(Some(TimeControl::new(1, 5)), secs(120), secs(60));
    g.until(secs(10)).await;
    g.play(ANN, 3).await;
    // 60 - 10 + 5.
    assert_eq!(
        g.state().await.view.clock.unwrap().left,
        [secs(55), secs(60)]
    );
    g.until(secs(30)).await;
    g.play(BOB, 3).await;
    // 60 - 20 + 5.
    let clock = g.state().await.view.clock.unwrap();
    assert_eq!(clock.left, [secs(55), secs(45)]);
    assert_eq!(clock.running, Some(Side::First));
    // Ann's 55 s run out at 30 + 55 = 85 s, and not before: without the
    // increment it would have been at 80 s.
    g.until(secs(85) - MS).await;
    assert!(g.state().await.view.ending.is_none());
    g.until(secs(85)).await;
    assert_eq!(
        g.state().await.view.ending,
        Some(Ending::Flag { loser: Side::First })
    );
}

#[tokio::test(start_paused = true)]
async fn without_a_clock_a_claim_is_refused_until_the_opponent_has_idled_long_enough() {
    let mut g = start(None, secs(120), secs(60));
    let s = g.state().await;
    assert!(s.view.clock.is_none());
    // Bob waits for ann's first move: he may claim from 120 s on.
    assert_eq!(s.view.claim_from, Some(g.t0 + secs(120)));

    g.until(secs(50)).await;
    g.play(ANN, 3).await;
    // Bob to move now: ann's wait starts.
    assert_eq!(g.state().await.view.claim_from, Some(g.t0 + secs(170)));

    g.until(secs(170) - MS).await;
    g.room.send(RoomCmd::seat(ANN, SeatCmd::Claim)).await;
    let s = g.state().await;
    assert!(
        s.view.ending.is_none(),
        "claimed too early: {:?}",
        s.view.ending
    );
    assert_eq!(g.refusals(Side::First), [Refusal::ClaimEarly]);

    g.until(secs(170)).await;
    // The side to move has nothing to claim, however long it has been.
    g.room.send(RoomCmd::seat(BOB, SeatCmd::Claim)).await;
    assert!(g.state().await.view.ending.is_none());
    assert_eq!(g.refusals(Side::Second).len(), 1);
    // The waiting side may now.
    g.room.send(RoomCmd::seat(ANN, SeatCmd::Claim)).await;
    let s = g.state().await;
    assert_eq!(forfeit_of(&s), (Side::Second, "forfeit_idle"));
    let text = s.view.ending_text().unwrap();
    assert!(
        text.contains("bob (Blue) stayed idle for 120 s: ann (Red) wins by forfeit"),
        "{text}"
    );
    assert!(g.refusals(Side::First).is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_dropped_player_keeps_the_seat_for_the_grace_then_loses_it() {
    let mut g = start(None, secs(120), secs(60));
    g.play(ANN, 3).await;
    g.play(BOB, 3).await;
    g.until(secs(5)).await;
    g.drop_connection(BOB).await;
    let s = g.state().await;
    assert!(s.view.ending.is_none(), "{:?}", s.view.ending);
    assert_eq!(s.present, [true, false]);
    assert_eq!(s.view.away, [None, Some(g.t0 + secs(65))]);
    assert!(g.told_lobby().contains(&Command::SeatHeld {
        key: "account-bob".into(),
        room: 7,
    }));

    // Ann's screen counts the grace down with the same clock.
    let mut ann = PlayScreen::new(s.view.clone(), [true, false], true);
    g.until(secs(7)).await;
    ann.tick(crate::lobby::now());
    let text = ann.frame(Theme::Ascii).to_plain("\n");
    assert!(
        text.contains("bob lost the connection, waiting 58 s"),
        "{text}"
    );

    // A millisecond before the grace ends the seat is still kept...
    g.until(secs(65) - MS).await;
    let s = g.state().await;
    assert!(
        s.view.ending.is_none(),
        "forfeited early: {:?}",
        s.view.ending
    );
    assert_eq!(s.view.away[1], Some(g.t0 + secs(65)));
    // ...and when it ends, ann wins by forfeit, as the record says.
    g.until(secs(65)).await;
    let s = g.state().await;
    assert_eq!(forfeit_of(&s), (Side::Second, "forfeit_left"));
    assert_eq!(s.view.away, [None, None]);
    assert!(g.told_lobby().contains(&Command::SeatReleased {
        key: "account-bob".into(),
    }));
    // Ann's end screen says who wins and why.
    ann.update(s.view.clone());
    ann.seat([true, false], s.present);
    let text = ann.frame(Theme::Ascii).to_plain("\n");
    assert!(
        text.contains("bob (") && text.contains(") did not come back: ann ("),
        "{text}"
    );
    assert!(text.contains("wins by forfeit"), "{text}");
    // Too late to come back.
    let mut back = g.bob_comes_back().await;
    let s = g.state().await;
    assert_eq!(s.ids, [Some(ANN), Some(BOB)]);
    assert!(back.try_recv().is_err());
}

#[tokio::test(start_paused = true)]
async fn a_dropped_player_back_within_the_grace_has_the_seat_and_the_clock_ran_on() {
    let mut g = start(Some(TimeControl::new(10, 0)), secs(120), secs(60));
    g.play(ANN, 3).await;
    // Bob's clock runs; his connection drops after 10 s.
    g.until(secs(10)).await;
    g.drop_connection(BOB).await;
    assert_eq!(g.state().await.view.away[1], Some(g.t0 + secs(70)));

    // Back 50 s later, a millisecond before the grace ends.
    g.until(secs(70) - MS).await;
    let mut back = g.bob_comes_back().await;
    let s = g.state().await;
    assert!(s.view.ending.is_none());
    assert_eq!(s.ids, [Some(ANN), Some(BOB_AGAIN)]);
    assert_eq!(s.present, [true, true]);
    assert_eq!(s.view.away, [None, None]);
    // His clock kept running while he was away.
    let clock = s.view.clock.unwrap();
    assert_eq!(clock.left, [secs(600), secs(600) - secs(70) + MS]);
    assert_eq!(clock.running, Some(Side::Second));
    assert!(g.told_lobby().iter().any(|c| matches!(
        c,
        Command::Rejoined { id: BOB_AGAIN, room: 7, key } if key == "account-bob"
    )));

    // The grace's end passes without a forfeit, and he plays on from
    // the new session.
    g.until(secs(120)).await;
    assert!(g.state().await.view.ending.is_none());
    g.play(BOB_AGAIN, 4).await;
    assert!(back.try_recv().is_err(), "the move was not refused");
    assert_eq!(
        g.state().await.view.clock.unwrap().running,
        Some(Side::First)
    );
}

#[tokio::test(start_paused = true)]
async fn in_a_swap2_opening_the_clock_runs_for_whoever_acts_and_each_keeps_their_time_across_a_swap()
 {
    let point = |x, y| Move::Point(crate::game::Point::new(x, y));
    let mut g = start_with(
        Rules::gomoku(),
        Opening::Swap2,
        Some(TimeControl::new(1, 0)),
        secs(120),
        secs(60),
    );
    // Ann (the first seat) places three stones at 5, 10 and 15 s: her
    // clock alone runs, though the stones alternate sides.
    for (i, (x, y)) in [(7, 7), (8, 7), (7, 8)].into_iter().enumerate() {
        g.until(secs(5 * (i as u64 + 1))).await;
        g.play_move(ANN, point(x, y)).await;
        let clock = g.state().await.view.clock.unwrap();
        assert_eq!(clock.left[1], secs(60), "bob's clock ran while ann placed");
    }
    let s = g.state().await;
    let clock = s.view.clock.unwrap();
    assert_eq!(clock.left, [secs(45), secs(60)]);
    assert_eq!(
        clock.running,
        Some(Side::Second),
        "bob's choice is on his clock"
    );
    assert_eq!(s.view.swap2, Some(crate::table::Swap2Stage::Choose));

    // A stone is no choice: refused, and said to bob only.
    g.room
        .send(RoomCmd::seat(BOB, SeatCmd::Move(point(0, 0))))
        .await;
    assert_eq!(g.state().await.view.position.stones(), 3);
    assert_eq!(g.refusals(Side::Second).len(), 1);
    assert!(g.refusals(Side::First).is_empty());

    // At 25 s bob takes the first side: the two change seats, each with
    // their own time (bob 50 s, ann 45 s), and ann's clock runs for the
    // fourth stone.
    g.until(secs(25)).await;
    g.room
        .send(RoomCmd::seat(
            BOB,
            SeatCmd::Swap2(crate::table::Swap2Choice::First),
        ))
        .await;
    let s = g.state().await;
    assert_eq!(s.ids, [Some(BOB), Some(ANN)]);
    assert_eq!(s.view.seats[0].name, "bob");
    assert_eq!(
        s.view.seats[0].colour,
        Colour::Red,
        "colours stay with the stones"
    );
    let clock = s.view.clock.unwrap();
    assert_eq!(clock.left, [secs(50), secs(45)]);
    assert_eq!(clock.running, Some(Side::Second));
    assert_eq!(
        s.carry.as_ref().unwrap().accounts,
        [Some("account-bob".into()), Some("account-ann".into())],
        "what takes a seat back moves with the player"
    );

    // Ann plays at 30 s; then bob's clock runs, and ann's ran 5 s.
    g.until(secs(30)).await;
    g.play_move(ANN, point(9, 9)).await;
    let clock = g.state().await.view.clock.unwrap();
    assert_eq!(clock.left, [secs(50), secs(40)]);
    assert_eq!(clock.running, Some(Side::First));
}

#[tokio::test(start_paused = true)]
async fn leaving_or_resigning_before_both_have_moved_aborts_the_game() {
    let aborted = |s: &RoomState| match &s.view.ending {
        Some(Ending::Aborted { reason }) => reason.clone(),
        other => panic!("not aborted: {other:?}"),
    };
    // Bob leaves after Ann's first move: aborted, nobody scores.
    let mut g = start(None, secs(120), secs(60));
    g.play(ANN, 3).await;
    g.room.send(RoomCmd::seat(BOB, SeatCmd::LEAVE)).await;
    let s = g.state().await;
    assert!(
        aborted(&s).ends_with("left before both players had moved"),
        "{:?}",
        s.view.ending
    );
    assert_eq!(s.view.score, [0, 0]);
    let text = s.view.ending_text().unwrap();
    assert!(text.starts_with("Game aborted: bob ("), "{text}");

    // Ann resigns before moving at all.
    let mut g = start(None, secs(120), secs(60));
    g.room.send(RoomCmd::seat(ANN, SeatCmd::Resign)).await;
    let s = g.state().await;
    assert!(aborted(&s).contains("resigned before both players had moved"));

    // Bob's connection drops before his first move and he does not come back.
    let mut g = start(None, secs(120), secs(60));
    g.play(ANN, 3).await;
    g.drop_connection(BOB).await;
    g.until(secs(60)).await;
    let s = g.state().await;
    assert!(aborted(&s).contains("did not come back before both players had moved"));

    // Once both have moved, resigning loses.
    let mut g = start(None, secs(120), secs(60));
    g.play(ANN, 3).await;
    g.play(BOB, 3).await;
    g.room.send(RoomCmd::seat(ANN, SeatCmd::Resign)).await;
    let s = g.state().await;
    assert_eq!(s.view.ending, Some(Ending::Resigned { loser: Side::First }));
}

#[tokio::test(start_paused = true)]
async fn a_move_sent_after_the_game_moved_to_another_host_is_answered() {
    let mut g = start(None, secs(120), secs(60));
    g.play(ANN, 3).await;
    // Another host runs the game now: bob is being taken there when he
    // plays; his move is refused in words he sees, not lost.
    g.room.send(RoomCmd::Fence).await;
    assert!(g.state().await.handed_over);
    g.room
        .send(RoomCmd::seat(BOB, SeatCmd::Move(Move::Column(3))))
        .await;
    settle().await;
    assert_eq!(g.refusals(Side::Second), [Refusal::GameMoved]);
    // The table here stopped: the move was not played.
    assert_eq!(g.state().await.view.position.stones(), 1);
}
