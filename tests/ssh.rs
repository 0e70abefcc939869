//! The host over real SSH on loopback: russh clients and the stock OpenSSH client.

use std::time::Duration;

use crate::util::ssh::{
    Client, Login, MY_TURN, THEIR_TURN, TestHost, board_point, mover_first, new_key, play,
    start_host, start_host_with, wait_any,
};

use crate::util::{TestClient, board_stones};

/// Waits until the board shows more than `n` stones or `needle` shows.
async fn wait_stones(c: &mut Client, n: usize, needles: &[&str]) {
    let deadline = tokio::time::Instant::now() + crate::util::ssh::WAIT;
    loop {
        let s = c.screen();
        if board_stones(&s) > n || needles.iter().any(|x| s.contains(x)) {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "no new stone:\n{s}");
        c.pump(Duration::from_millis(50)).await;
    }
}
/// Two clients matched by quick match: returns (first to move, second).
pub(crate) async fn quick_match_pair(
    t: &TestHost,
    names: [&str; 2],
    game_key: &[u8],
) -> (Client, Client) {
    quick_match_pair_at(t.addr, names, game_key).await
}

/// Two people seated by a quick match on the host at `addr` (the first
/// with a key, the second a guest): (the one to move, the other).
pub(crate) async fn quick_match_pair_at(
    addr: std::net::SocketAddr,
    names: [&str; 2],
    game_key: &[u8],
) -> (Client, Client) {
    let mut a = Client::connect(addr, names[0], Login::Key(new_key())).await;
    let mut b = Client::connect(addr, names[1], Login::Guest).await;
    for c in [&mut a, &mut b] {
        c.seek(game_key).await;
    }
    for c in [&mut a, &mut b] {
        wait_any(c, &[MY_TURN, THEIR_TURN[0]]).await;
    }
    mover_first(a, b)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_match_plays_a_whole_game_and_both_see_the_line() {
    let t = start_host().await;
    let (mut first, mut second) = quick_match_pair(&t, ["alice", "bob"], b"1").await;
    for _ in 0..3 {
        play(&mut first, "a").await;
        play(&mut second, "b").await;
    }
    play(&mut first, "a").await;
    for c in [&mut first, &mut second] {
        let s = c.wait_for("wins with (0|0) (0|1) (0|2) (0|3)").await;
        assert!(s.contains("[r] rematch"), "{s}");
        assert!(s.contains("(x|y): column and row"), "{s}");
    }
    // Each is told what it means for them.
    assert!(first.screen().contains("You win!"), "{}", first.screen());
    assert!(second.screen().contains("You lost."), "{}", second.screen());
    // The winner's name and colour are on both screens.
    let line = first
        .screen()
        .lines()
        .find(|l| l.contains("wins with"))
        .unwrap()
        .trim()
        .to_string();
    assert!(second.screen().contains(&line));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_turn_and_bad_moves_are_told_only_to_the_sender() {
    let t = start_host().await;
    let (mut first, mut second) = quick_match_pair(&t, ["carol", "dave"], b"1").await;
    second.send(b"d\r").await;
    second.wait_for("not your turn").await;
    first.send(b"z\r").await;
    first.wait_for("unknown column 'z'").await;
    first.pump(Duration::from_millis(200)).await;
    second.pump(Duration::from_millis(200)).await;
    assert!(!second.screen().contains("unknown column"));
    assert!(!first.screen().contains("not your turn"));
    assert!(
        first.screen().contains(MY_TURN),
        "still the first player's turn"
    );
    // The column typed ahead stays in the field (the cursor moved on to E
    // after it) and Enter plays it once the turn comes.
    assert!(
        second.screen().contains("Next move: d"),
        "{}",
        second.screen()
    );
    second.send(b"\x1b[C").await;
    first.send(b"a\r").await;
    first.wait_gone(MY_TURN).await;
    second.wait_for("Move: d").await;
    second.send(b"\r").await;
    let s = first.wait_for(MY_TURN).await;
    // The bottom row: a stone in A, then the last move marked in D.
    let row = s.lines().find(|l| l.ends_with("| 0")).unwrap_or_default();
    let cells: String = row.trim_start().chars().skip(3).collect();
    assert!(cells.starts_with("  |  ("), "a then d: {s}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_plays_gomoku_against_the_computer_to_the_end() {
    let t = start_host().await;
    let mut c = Client::in_lobby(t.addr, "erin", Login::Guest).await;
    c.send(b"2").await; // Gomoku
    c.wait_for("Play the computer").await;
    c.send(b"2").await;
    c.wait_for("how strong").await;
    c.send(b"1").await; // level 1
    let points: Vec<String> = (1..=15)
        .flat_map(|row| (b'a'..=b'o').map(move |col| format!("{}{row}", col as char)))
        .collect();
    let mut next = points.iter();
    while wait_any(&mut c, &[MY_TURN, "wins with", "Draw:"]).await == 0 {
        let p = next.next().expect("points left");
        let before = board_stones(&c.screen());
        c.send(format!("{p}\r").as_bytes()).await;
        // Either our stone (and the computer's answer) lands, or the point was taken.
        wait_stones(&mut c, before, &["is already taken", "wins with", "Draw:"]).await;
        if c.screen().contains("is already taken") {
            c.send(b"\x1b").await; // Esc clears the message
            c.pump(Duration::from_millis(60)).await;
        }
    }
    let s = c.screen();
    assert!(s.contains("wins with") || s.contains("Draw:"), "{s}");
    assert!(s.contains("Computer (level 1)"), "{s}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renju_is_a_game_of_its_own_and_marks_and_refuses_blacks_forbidden_points() {
    let t = start_host().await;
    let mut looker = Client::connect(t.addr, "uli", Login::Guest).await;
    let menu = looker.wait_for("Choose a game").await;
    assert!(menu.contains("Renju"), "{menu}");
    // Its own queue: someone waiting for Gomoku is not paired with Renju.
    looker
        .walk(&[(b"2", "Quick match"), (b"1", "1 waiting for Gomoku")])
        .await;
    let (mut black, mut white) = quick_match_pair(&t, ["rae", "sol"], b"3").await;
    for c in [&black, &white] {
        assert!(c.screen().contains("Renju 15x15"), "{}", c.screen());
    }
    assert!(!looker.screen().contains("rae"), "{}", looker.screen());
    for pair in ["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"].chunks(2) {
        play(&mut black, pair[0]).await;
        play(&mut white, pair[1]).await;
    }
    // Black to move: f8 g8 h8 and h6 h7 h8 would be two threes at once.
    black.wait_for(MY_TURN).await;
    black.pump(Duration::from_millis(100)).await;
    white.pump(Duration::from_millis(100)).await;
    assert_eq!(
        board_point(&black, "h8").as_deref(),
        Some("x"),
        "{}",
        black.screen()
    );
    assert_eq!(
        board_point(&black, "h9").as_deref(),
        Some("."),
        "{}",
        black.screen()
    );
    assert_eq!(
        board_point(&white, "h8").as_deref(),
        Some("+"),
        "{}",
        white.screen()
    );
    black.send(b"h8\r").await;
    black
        .wait_for("(who moves first) in renju: a double three")
        .await;
    assert!(black.screen().contains(MY_TURN), "{}", black.screen());
    white.pump(Duration::from_millis(200)).await;
    assert!(!white.screen().contains("forbidden"), "{}", white.screen());
    // Black plays elsewhere; white may take h8, and black's marks go on white's turn.
    play(&mut black, "o15").await;
    black.pump(Duration::from_millis(100)).await;
    assert_eq!(
        board_point(&black, "h8").as_deref(),
        Some("+"),
        "{}",
        black.screen()
    );
    play(&mut white, "h8").await;
    assert!(
        board_point(&white, "h8").is_some_and(|s| s != "+" && s != "x" && !s.is_empty()),
        "{}",
        white.screen()
    );
}

/// Reads the room code off the hosting screen.
pub(crate) fn room_code(screen: &str) -> String {
    let line = screen
        .lines()
        .find(|l| l.contains("Room code:"))
        .expect("a room code");
    line.split("Room code:").nth(1).unwrap().trim().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_joins_with_the_room_code_typed_in_the_lobby() {
    let t = start_host().await;
    let mut host = Client::in_lobby(t.addr, "fay", Login::Key(new_key())).await;
    host.send(b"1").await;
    host.wait_for("Invite a friend").await;
    host.send(b"3").await;
    let code = room_code(&host.wait_for("Room code:").await);
    assert_eq!(code.len(), 4);
    let mut friend = Client::in_lobby(t.addr, "gus", Login::Guest).await;
    // A wrong code first: a clear error, then the right one in lower case.
    friend
        .walk(&[
            (b"j", "room code:"),
            (b"ZZZZ\r", "no room has the code ZZZZ"),
        ])
        .await;
    // Still at the code field, emptied: type the right code, in lower case.
    friend
        .send(format!("{}\r", code.to_lowercase()).as_bytes())
        .await;
    for c in [&mut host, &mut friend] {
        c.wait_for("(you)").await;
        let s = c.screen();
        assert!(s.contains("fay") && s.contains("gus"), "{s}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_joins_with_the_code_as_ssh_user_name() {
    let t = start_host().await;
    let mut host = Client::in_lobby(t.addr, "hal", Login::Guest).await;
    host.send(b"2").await;
    host.wait_for("Invite a friend").await;
    host.send(b"3").await;
    let code = room_code(&host.wait_for("Room code:").await);
    let mut friend = Client::connect(t.addr, &code, Login::Key(new_key())).await;
    for c in [&mut host, &mut friend] {
        c.wait_for("(you)").await;
        assert!(c.screen().contains("Gomoku 15x15"), "{}", c.screen());
    }
    // The friend is not named after the code.
    assert!(
        !friend.screen().contains(&format!("{code} (")),
        "{}",
        friend.screen()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_loses_by_forfeit() {
    // A dropped seat is kept for a second (ivy by her key, jon by his
    // resume code), then lost.
    let t = start_host_with("[lobby]\nreconnect_grace_secs = 1\n").await;
    let (mut first, mut second) = quick_match_pair(&t, ["ivy", "jon"], b"1").await;
    play(&mut first, "d").await;
    play(&mut second, "d").await;
    let leaver = second
        .screen()
        .lines()
        .find(|l| l.contains("(you)"))
        .map(str::to_string)
        .unwrap();
    let leaver_name = if leaver.contains("ivy (you)") {
        "ivy"
    } else {
        "jon"
    };
    // Drop the connection without a word.
    drop(second);
    let s = first.wait_for("wins by forfeit").await;
    assert!(s.contains(&format!("{leaver_name} (")), "{s}");
    // Keys and guests alike: the seat was kept for the grace, then lost.
    assert!(s.contains("did not come back: "), "{s}");
    assert!(s.contains("has left the table"), "{s}");
    // No rematch with nobody there.
    first.send(b"r").await;
    first.wait_for("no rematch").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quitting_mid_game_ends_it_for_both() {
    let t = start_host().await;
    let (mut first, mut second) = quick_match_pair(&t, ["kim", "lou"], b"2").await;
    play(&mut first, "h8").await;
    play(&mut second, "h9").await;
    second
        .walk(&[
            (b"q", "Leave the game? You will lose. y/n"),
            (b"y", "wins by forfeit"),
        ])
        .await;
    first.wait_for("wins by forfeit").await;
    second.send(b"q").await;
    second.wait_closed().await;
    assert_eq!(second.exit_status, Some(0));
    // The terminal was given back: cursor shown, main screen restored.
    let raw = second.raw_text();
    assert!(raw.contains("\x1b[?25h") && raw.contains("\x1b[?1049l"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_match_alone_offers_the_computer_after_the_wait() {
    let t = start_host().await; // match_wait_secs = 1
    let mut c = Client::connect(t.addr, "max", Login::Guest).await;
    c.seek(b"1").await;
    c.wait_for("Looking for another Connect Four player").await;
    c.wait_for("Play the computer meanwhile?").await;
    c.send(b"1").await; // easy
    c.wait_for("Computer (easy)").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exec_and_subsystems_are_refused() {
    let t = start_host().await;
    let (_h, mut ch) = Client::open(t.addr, "nia", Login::Guest).await;
    ch.exec(true, "ls -la").await.unwrap();
    let mut text = Vec::new();
    let mut status = None;
    while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(5), ch.wait()).await {
        match msg {
            russh::ChannelMsg::Data { data } => text.extend_from_slice(&data),
            russh::ChannelMsg::ExitStatus { exit_status } => status = Some(exit_status),
            russh::ChannelMsg::Close => break,
            _ => {}
        }
    }
    assert_eq!(status, Some(1));
    assert!(String::from_utf8_lossy(&text).contains("interactive only"));
    let (_h2, mut ch2) = Client::open(t.addr, "nia", Login::Guest).await;
    ch2.request_subsystem(true, "sftp").await.unwrap();
    let mut refused = false;
    while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(5), ch2.wait()).await {
        match msg {
            russh::ChannelMsg::Failure => refused = true,
            russh::ChannelMsg::Close => break,
            russh::ChannelMsg::Success => panic!("sftp accepted"),
            _ => {}
        }
    }
    assert!(refused);
    // Port forwarding: a direct-tcpip channel is refused.
    let (h3, _ch3) = Client::open(t.addr, "nia", Login::Guest).await;
    let forwarded = h3
        .channel_open_direct_tcpip("127.0.0.1", 22, "127.0.0.1", 5555)
        .await;
    assert!(forwarded.is_err(), "port forwarding was allowed");
}

#[test]
fn the_server_benchmark_runs_and_reports_figures() {
    let text = crate::util::run_ok(&[
        "bench",
        "server",
        "--sessions",
        "40",
        "--games",
        "5",
        "--seconds",
        "2",
        "--think-ms",
        "100",
    ]);
    assert!(text.contains("connect: 40 sessions"), "{text}");
    assert!(text.contains("(failed: 0)"), "{text}");
    assert!(text.contains("KiB per session"), "{text}");
    // Games were played and latencies measured.
    let moves = crate::util::number_after(&text, "games in play, ");
    assert!(moves > 10, "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_key_is_created_once_and_reused() {
    let mut t = start_host().await;
    let key_path = t.dir.path().join("host_key");
    let first = t.host.as_ref().unwrap().fingerprint.clone();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key_path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    t.shutdown().await;
    let text = crate::util::ssh::test_config_text(t.dir.path(), "");
    let host = inarow::server::Host::start(inarow::config::Config::parse(&text, "t").unwrap())
        .await
        .unwrap();
    assert_eq!(host.fingerprint, first);
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn escape_bytes_in_names_and_input_never_reach_the_other_screen() {
    let t = start_host().await;
    let evil = "\x1b]0;pwned\x07\x1b[2Jmal\u{202e}lory";
    let mut a = Client::connect(t.addr, evil, Login::Guest).await;
    let mut b = Client::connect(t.addr, "olga", Login::Guest).await;
    for c in [&mut a, &mut b] {
        c.seek(b"1").await;
    }
    for c in [&mut a, &mut b] {
        wait_any(c, &[MY_TURN, THEIR_TURN[0]]).await;
    }
    // The hostile player types escape sequences and control bytes.
    a.send(b"\x1b]0;again\x07\x1b[31m\x9b2J\x07\x00").await;
    a.pump(Duration::from_millis(300)).await;
    b.pump(Duration::from_millis(300)).await;
    let seen = b.raw_text();
    assert!(!seen.contains("\x1b]0;"), "an OSC reached the other player");
    assert!(!seen.contains('\u{202e}'));
    assert!(!seen.contains('\x07'));
    assert!(
        b.screen().contains("mallory") || b.screen().contains("]0;pwned"),
        "{}",
        b.screen()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn window_changes_redraw_and_tiny_terminals_are_asked_to_grow() {
    let t = start_host().await;
    let mut c = Client::connect_sized(t.addr, "pia", Login::Guest, 100, 30).await;
    c.wait_for("Choose a game").await;
    c.ch.window_change(30, 8, 0, 0).await.unwrap();
    c.term.screen_mut().set_size(8, 30);
    c.wait_for("please enlarge to").await;
    c.ch.window_change(120, 40, 0, 0).await.unwrap();
    c.term.screen_mut().set_size(40, 120);
    c.wait_for("Choose a game").await;
    // Absurd sizes are clamped: the session survives.
    c.ch.window_change(100_000, 100_000, 0, 0).await.unwrap();
    c.ch.window_change(0, 0, 0, 0).await.unwrap();
    c.term.screen_mut().set_size(24, 80);
    c.send(b"\x0c").await; // Ctrl-L
    c.wait_for("Choose a game").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_key_connecting_again_finds_its_name() {
    let t = start_host().await;
    let key = new_key();
    let mut a = Client::connect(t.addr, "play", Login::Key(key.clone())).await;
    let s = a.wait_for("you are Guest").await;
    let name = s
        .split("you are ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let mut again = Client::connect(t.addr, "play", Login::Key(key)).await;
    again.wait_for(&format!("you are {name} ")).await;
    // The old session was told and closed.
    a.wait_for("connected again").await;
    a.wait_closed().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_players_are_disconnected_but_keepalives_do_not_count() {
    let t = start_host_with("[limits]\nidle_timeout_secs = 10\n[ssh]\nkeepalive_secs = 1").await;
    let mut c = Client::in_lobby(t.addr, "quin", Login::Guest).await;
    // Keystrokes keep the session alive past the idle time...
    for _ in 0..7 {
        c.pump(Duration::from_secs(2)).await;
        c.send(b"\x1b[B").await;
    }
    assert!(!c.closed);
    // ...silence (only keepalives) does not.
    for _ in 0..30 {
        c.pump(Duration::from_secs(1)).await;
        if c.closed {
            break;
        }
    }
    assert!(c.closed, "an idle session was kept");
    assert!(c.raw_text().contains("idle"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_for_the_opponent_is_not_idleness() {
    let t = start_host_with("[limits]\nidle_timeout_secs = 10").await;
    let (mut first, mut second) = quick_match_pair(&t, ["abe", "bea"], b"1").await;
    // Both have moved (else leaving aborts the game instead of losing it).
    play(&mut first, "d").await;
    play(&mut second, "d").await;
    play(&mut first, "d").await;
    // The second player stalls on their turn, moving the cursor now and
    // then, well past the idle time: the first, waiting, stays.
    second.wait_for(MY_TURN).await;
    for _ in 0..8 {
        second.send(b"\x1b[D").await;
        for c in [&mut first, &mut second] {
            c.pump(Duration::from_secs(1)).await;
        }
    }
    assert!(!first.closed, "the waiting player was disconnected");
    assert!(!first.raw_text().contains("idle"), "{}", first.screen());
    assert!(!second.closed);
    // Then stops pressing keys: warned at half time, then disconnected,
    // and the game is lost by forfeit.
    second
        .wait_for("You will be disconnected in 5 s: press a key.")
        .await;
    second.wait_closed().await;
    assert!(
        second
            .raw_text()
            .contains("You were idle for 10 seconds: goodbye."),
        "{}",
        second.raw_text()
    );
    let s = first.wait_for("wins by forfeit").await;
    assert!(s.contains("was idle too long"), "{s}");
    assert!(!first.closed);
    // The game is over: now it is the first player who is expected to act.
    first.wait_for("You will be disconnected in 5 s").await;
    // A key takes the warning away.
    first.send(b"\x1b[D").await;
    first.pump(Duration::from_millis(500)).await;
    assert!(
        !first.screen().contains("You will be disconnected"),
        "{}",
        first.screen()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_idle_warning_shows_in_the_lobby() {
    let t = start_host_with("[limits]\nidle_timeout_secs = 10").await;
    let mut c = Client::in_lobby(t.addr, "cyd", Login::Guest).await;
    c.wait_for("You will be disconnected in 5 s: press a key.")
        .await;
    c.wait_closed().await;
    assert!(c.raw_text().contains("You were idle for 10 seconds"));
}

/// A TCP relay between a client and the host that stops passing the
/// host's bytes on when `stop` is raised, and stops reading them: to the
/// host it looks exactly like a client that no longer reads.
async fn stalling_relay(
    host: std::net::SocketAddr,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let (client, _) = listener.accept().await.unwrap();
        let upstream = tokio::net::TcpStream::connect(host).await.unwrap();
        let (mut cr, mut cw) = client.into_split();
        let (mut ur, mut uw) = upstream.into_split();
        tokio::spawn(async move {
            let _ = tokio::io::copy(&mut cr, &mut uw).await;
        });
        let mut buf = vec![0u8; 4096];
        loop {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                // Hold both halves open, read nothing more.
                std::future::pending::<()>().await;
            }
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            match tokio::time::timeout(Duration::from_millis(50), ur.read(&mut buf)).await {
                Ok(Ok(0)) | Ok(Err(_)) => return,
                Ok(Ok(n)) => {
                    if cw.write_all(&buf[..n]).await.is_err() {
                        return;
                    }
                }
                Err(_) => {}
            }
        }
    });
    addr
}

#[test]
fn a_client_that_never_reads_is_cut_off_with_memory_bounded() {
    // The host runs as its own process so its memory can be read alone.
    let server = crate::util::ssh::ServerProcess::start(
        "[limits]\noutput_buffer_kib = 16\noutput_grace_secs = 2\ninput_bytes_per_sec = 1000000\ninput_burst_bytes = 1000000",
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let relay = stalling_relay(server.addr, std::sync::Arc::clone(&stop)).await;
        let mut c = Client::connect_sized(relay, "rex", Login::Guest, 200, 60).await;
        c.wait_for("Choose a game").await;
        // The relay stops passing the host's output on: the client reads nothing.
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        crate::util::flood_a_stalled_client(&server, &mut c).await;
    });
}

/// A watcher whose terminal stops reading is cut off with the host's
/// memory bounded, while the two players it watched play on: every move
/// reaches the opponent and the game ends as usual for both.
#[test]
fn a_watcher_that_never_reads_is_cut_off_and_the_players_play_on() {
    let server = crate::util::ssh::ServerProcess::start(
        "[limits]\noutput_buffer_kib = 16\noutput_grace_secs = 2\ninput_bytes_per_sec = 1000000\ninput_burst_bytes = 1000000",
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let (mut first, mut second) = quick_match_pair_at(server.addr, ["ann", "bob"], b"1").await;
        play(&mut first, "d").await;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let relay = stalling_relay(server.addr, std::sync::Arc::clone(&stop)).await;
        let mut wes = Client::connect_sized(relay, "wes", Login::Guest, 200, 60).await;
        wes.wait_for("Choose a game").await;
        wes.walk(&[(b"w", "1 to watch"), (b"\r", "Moves (1)")])
            .await;
        for c in [&mut first, &mut second] {
            c.wait_for("1 watching").await;
        }
        // From here the watcher's terminal takes nothing: its redraws (a
        // full frame for each Ctrl-L it sends, and every move) pile up.
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let players = async {
            let mut slowest = Duration::ZERO;
            for (mover, column) in [(1, "e"), (0, "d"), (1, "e"), (0, "d"), (1, "e"), (0, "d")] {
                tokio::time::sleep(Duration::from_millis(300)).await;
                let (me, other) = if mover == 0 {
                    (&mut first, &mut second)
                } else {
                    (&mut second, &mut first)
                };
                let before = crate::util::board_stones(&other.screen());
                let at = std::time::Instant::now();
                play(me, column).await;
                for _ in 0..400 {
                    if crate::util::board_stones(&other.screen()) > before {
                        break;
                    }
                    other.pump(Duration::from_millis(50)).await;
                }
                assert!(
                    crate::util::board_stones(&other.screen()) > before,
                    "the move {column} did not reach the opponent:\n{}",
                    other.screen()
                );
                slowest = slowest.max(at.elapsed());
            }
            for c in [&mut first, &mut second] {
                c.wait_for("wins with").await;
            }
            println!("slowest move to the opponent while the watcher stalled: {slowest:?}");
        };
        tokio::join!(
            crate::util::flood_a_stalled_client(&server, &mut wes),
            players
        );
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_limits_per_address() {
    let t = start_host_with("[limits]\nmax_per_ip = 2").await;
    let mut a = Client::connect(t.addr, "sam", Login::Guest).await;
    let mut b = Client::connect(t.addr, "tia", Login::Guest).await;
    a.wait_for("Choose a game").await;
    b.wait_for("Choose a game").await;
    // A third connection from the same address is closed at once.
    let config = std::sync::Arc::new(russh::client::Config::default());
    struct Any;
    impl russh::client::Handler for Any {
        type Error = anyhow::Error;
        async fn check_server_key(
            &mut self,
            _k: &russh::keys::PublicKeyOrCertificate,
        ) -> Result<bool, Self::Error> {
            Ok(true)
        }
    }
    let third = tokio::time::timeout(
        Duration::from_secs(5),
        russh::client::connect(config, t.addr, Any),
    )
    .await;
    assert!(matches!(third, Ok(Err(_))), "a third session was let in");
}

/// A paramiko client. `none`: asks with `auth_none` (refused, listing the
/// methods that may continue). `interactive` / `key`: logs in with
/// keyboard-interactive or a new ed25519 key, opens a pty and a shell and
/// reads until the lobby shows, then prints the name it was given.
const PARAMIKO_CLIENT: &str = r#"
import re, signal, socket, sys, time
import paramiko
signal.alarm(60)
sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
t = paramiko.Transport(sock)
t.auth_timeout = 20
t.start_client(timeout=20)
mode = sys.argv[2]
if mode == "none":
    try:
        t.auth_none("play")
        print("none accepted")
    except paramiko.BadAuthenticationType as e:
        print("none refused; allowed:", ",".join(e.allowed_types))
    t.close()
    sys.exit(0)
if mode == "interactive":
    t.auth_interactive("pia", lambda title, instructions, prompts: [""] * len(prompts))
else:
    t.auth_publickey("pia", paramiko.Ed25519Key.from_private_key_file(sys.argv[3]))
print("authenticated:", t.is_authenticated())
ch = t.open_session()
ch.get_pty("xterm", 100, 30)
ch.invoke_shell()
ch.settimeout(20)
seen = b""
deadline = time.time() + 20
while b"Choose a game" not in seen and time.time() < deadline:
    data = ch.recv(4096)
    if not data:
        break
    seen += data
print("lobby shown" if b"Choose a game" in seen else "no lobby")
m = re.search(rb"you are (\w+)", seen)
print("name:", m.group(1).decode() if m else "?")
t.close()
"#;

/// Fails the test, saying so, when python3 with paramiko is not here
/// (`scripts/test-deps` installs it).
fn need_paramiko() {
    let found = std::process::Command::new("python3")
        .args(["-c", "import paramiko"])
        .output();
    match found {
        Ok(o) if o.status.success() => {}
        Ok(o) => panic!(
            "this test needs python3 with paramiko, which does not import: {} \
             (scripts/test-deps installs it)",
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ),
        Err(e) => panic!(
            "this test needs python3 with paramiko; python3 does not run: {e} \
             (scripts/test-deps installs it)"
        ),
    }
}

/// Runs the paramiko client against `t` and returns what it printed.
async fn paramiko(t: &TestHost, args: &[&str]) -> String {
    let mut cmd = std::process::Command::new("python3");
    cmd.args(["-c", PARAMIKO_CLIENT, &t.addr.port().to_string()])
        .args(args)
        .stdin(std::process::Stdio::null());
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    stdout
}

/// A second SSH client library (paramiko): `none` is answered with the
/// methods that may continue, and keyboard-interactive and key logins work.
/// (paramiko's `auth_none` followed by another method on the same
/// connection still waits: paramiko asks for the authentication service
/// again before every attempt and russh 0.65 answers only the first
/// request; see docs/hosting.md.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paramiko_is_told_the_methods_and_logs_in_both_ways() {
    need_paramiko();
    let t = start_host().await;
    let out = paramiko(&t, &["none"]).await;
    assert!(
        out.contains("none refused; allowed: publickey,keyboard-interactive"),
        "{out}"
    );
    let out = paramiko(&t, &["interactive"]).await;
    assert!(out.contains("authenticated: True"), "{out}");
    assert!(out.contains("lobby shown"), "{out}");
    // With a key: the same key comes back to the same name.
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("id_ed25519");
    let k = new_key();
    std::fs::write(
        &key,
        k.to_openssh(russh::keys::ssh_key::LineEnding::LF)
            .unwrap()
            .as_bytes(),
    )
    .unwrap();
    let path = key.to_str().unwrap().to_string();
    let first = paramiko(&t, &["key", &path]).await;
    assert!(first.contains("lobby shown"), "{first}");
    assert!(first.contains("name: pia"), "{first}");
}

/// What the stock OpenSSH client prints (stderr) when it cannot log in to `addr`.
async fn openssh_refusal_output(addr: std::net::SocketAddr) -> String {
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("ssh")
            .args([
                "-o",
                "BatchMode=yes",
                "-o",
                "StrictHostKeyChecking=no",
                "-o",
                "UserKnownHostsFile=/dev/null",
                "-o",
                "LogLevel=ERROR",
                "-o",
                "ConnectTimeout=10",
                "-p",
                &addr.port().to_string(),
                "nia@127.0.0.1",
                "true",
            ])
            .stdin(std::process::Stdio::null())
            .output()
            .expect("the OpenSSH client (ssh) runs (scripts/test-deps installs it)")
    })
    .await
    .unwrap();
    assert_eq!(out.status.code(), Some(255));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// What a raw TCP client reads from `addr` until the host closes.
async fn read_to_close(addr: std::net::SocketAddr) -> String {
    use tokio::io::AsyncReadExt;
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out))
        .await
        .expect("the host closed the connection")
        .unwrap();
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_connections_are_told_why() {
    // Per address: OpenSSH prints the host's reason; telnet gets a line.
    let t = start_host_with("[limits]\nmax_per_ip = 1").await;
    let _a = Client::in_lobby(t.addr, "ora", Login::Guest).await;
    let why = "too many sessions from your address (limit 1)";
    let err = openssh_refusal_output(t.addr).await;
    assert!(err.contains(&format!(":12: {why}")), "{err}");
    let telnet = t.host.as_ref().unwrap().telnet_addr.unwrap();
    assert_eq!(read_to_close(telnet).await, format!("{why}\r\n"));
    // The whole host.
    let t = start_host_with("[limits]\nmax_sessions = 1").await;
    let _a = Client::in_lobby(t.addr, "pat", Login::Guest).await;
    let why = "the host is full (limit 1 session)";
    let err = openssh_refusal_output(t.addr).await;
    assert!(err.contains(why), "{err}");
    let telnet = t.host.as_ref().unwrap().telnet_addr.unwrap();
    assert_eq!(read_to_close(telnet).await, format!("{why}\r\n"));
    // A German host says it in German where the client shows it as sent
    // (telnet); OpenSSH shows only ASCII, so its reason stays English.
    let t = start_host_with("[lobby]\ndefault_language = \"de\"\n\n[limits]\nmax_per_ip = 1").await;
    let mut a = Client::connect(t.addr, "ria", Login::Guest).await;
    a.wait_for("Wähle ein Spiel:").await;
    let err = openssh_refusal_output(t.addr).await;
    assert!(
        err.contains(":12: too many sessions from your address (limit 1)"),
        "{err}"
    );
    let telnet = t.host.as_ref().unwrap().telnet_addr.unwrap();
    assert_eq!(
        read_to_close(telnet).await,
        "zu viele Sitzungen von deiner Adresse (höchstens 1)\r\n"
    );
}

/// The stock OpenSSH client, under tmux like a person: `ssh -tt` with and without a key.
#[test]
fn stock_openssh_client_under_tmux() {
    if std::process::Command::new("tmux")
        .arg("-V")
        .output()
        .is_err()
    {
        panic!("tmux is needed for this test (scripts/test-deps installs it)");
    }
    let rt = tokio::runtime::Runtime::new().unwrap();
    let t = rt.block_on(start_host());
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("id_ed25519");
    crate::util::ssh::openssh_key(&key, None);
    let port = t.addr.port().to_string();
    let common = format!(
        "ssh -tt -p {port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
    );
    let with_key = format!(
        "{common} -i {} -o IdentitiesOnly=yes uma@127.0.0.1",
        key.display()
    );
    let without_key = format!("{common} -o PubkeyAuthentication=no vic@127.0.0.1");
    let tmux = crate::util::Tmux::new("inarow-ssh-test", 100, 30);
    tmux.run(&format!("{with_key}; echo SSH-EXIT-$?; sleep 60"));
    tmux.wait_for("Choose a game");
    assert!(tmux.screen().contains("you are uma"));
    crate::util::play_the_computer_in_tmux(&tmux);
    tmux.keys(&["q"]);
    tmux.wait_for("SSH-EXIT-0");
    tmux.kill();

    let tmux = crate::util::Tmux::new("inarow-ssh-test2", 80, 24);
    tmux.run(&format!("{without_key}; echo SSH-EXIT-$?; sleep 60"));
    tmux.wait_for("you are vic");
    tmux.keys(&["C-c"]);
    tmux.wait_for("SSH-EXIT-0");
    tmux.kill();
    drop(rt);
}

#[test]
fn a_connection_that_never_logs_in_is_cut_after_the_login_timeout_and_a_player_stays() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = crate::util::ssh::ServerProcess::start("[ssh]\nlogin_timeout_secs = 2");
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        // A player who logs in at once.
        let mut player = Client::in_lobby(server.addr, "pat", Login::Guest).await;
        // A connection that says hello and then nothing more.
        let mut idle = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        idle.write_all(b"SSH-2.0-silent\r\n").await.unwrap();
        let started = std::time::Instant::now();
        let mut buf = [0u8; 4096];
        let closed = tokio::time::timeout(Duration::from_secs(30), async {
            loop {
                match idle.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        })
        .await;
        assert!(closed.is_ok(), "a connection that never logged in was kept");
        assert!(
            started.elapsed() >= Duration::from_millis(1500),
            "cut before its login time was up: {:?}",
            started.elapsed()
        );
        // The player, logged in well before, is still served.
        player.send(b"w").await;
        player.wait_for("Enter watches").await;
    });
    drop(rt);
}

#[test]
fn sigterm_tells_players_and_exits_quickly() {
    let mut server = crate::util::ssh::ServerProcess::start("");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut c = rt.block_on(async { Client::in_lobby(server.addr, "wes", Login::Guest).await });
    let started = std::time::Instant::now();
    server.signal("TERM");
    rt.block_on(async {
        c.wait_closed().await;
    });
    assert!(c.raw_text().contains("shutting down"), "{}", c.raw_text());
    let status = server
        .wait(Duration::from_secs(8))
        .expect("the host did not exit");
    assert!(status.success(), "{status:?}");
    assert!(started.elapsed() < Duration::from_secs(8));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn colour_wishes_are_granted_when_free() {
    let t = start_host().await;
    // Alone against the computer: the wish is granted.
    let mut c = Client::in_lobby(t.addr, "yan", Login::Guest).await;
    c.walk(&[
        (b"c", "Your colour, when your opponent"),
        (b"4", "you are yan (Blue)"),
        (b"1", "Play the computer"),
        (b"2", "how strong"),
        (b"1", "(you)"),
    ])
    .await;
    c.wait_for("yan (Blue)").await;
    // Two people wishing for the same colour: one gets it, the other does not.
    let mut a = Client::connect(t.addr, "zed", Login::Guest).await;
    let mut b = Client::connect(t.addr, "amy", Login::Guest).await;
    for x in [&mut a, &mut b] {
        x.wait_for("Choose a game").await;
        x.walk(&[
            (b"c", "Your colour, when"),
            (b"1", "(Red)"),
            (b"1", "Quick match"),
        ])
        .await;
        x.send(b"1").await;
    }
    a.wait_for("(you)").await;
    b.wait_for("(you)").await;
    a.pump(Duration::from_millis(200)).await;
    let s = a.screen();
    let zed_red = s.contains("zed (Red)") || s.contains("\u{1F534} zed");
    let amy_red = s.contains("amy (Red)") || s.contains("\u{1F534} amy");
    assert!(zed_red != amy_red, "exactly one is Red:\n{s}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_shaped_name_with_no_room_is_a_name_and_a_started_room_says_so() {
    let t = start_host().await;
    // FWDX has the shape of a room code, but no room has it: it is a name.
    let mut c = Client::connect(t.addr, "FWDX", Login::Guest).await;
    c.wait_for("you are FWDX").await;
    assert!(!c.screen().contains("no room"), "{}", c.screen());
    // A room whose game has started: joining it says so.
    let mut host = Client::in_lobby(t.addr, "hana", Login::Guest).await;
    host.send(b"1").await;
    host.wait_for("Invite a friend").await;
    host.send(b"3").await;
    let code = room_code(&host.wait_for("Room code:").await);
    let mut friend = Client::in_lobby(t.addr, "ivo", Login::Guest).await;
    friend.send(b"j").await;
    friend.wait_for("room code:").await;
    friend.send(format!("{code}\r").as_bytes()).await;
    host.wait_for("(you)").await;
    c.send(b"j").await;
    c.wait_for("room code:").await;
    c.send(format!("{code}\r").as_bytes()).await;
    c.wait_for("is already playing").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nobody_can_pass_for_the_computer() {
    let t = start_host().await;
    // As the login name: a guest name instead.
    let mut c = Client::connect(t.addr, "Computer (perfect)", Login::Guest).await;
    let s = c.wait_for("you are").await;
    assert!(s.contains("you are Guest"), "{s}");
    // Typed in the lobby, with look-alike characters: refused.
    c.send(b"n").await;
    c.wait_for("What should people call you?").await;
    c.send("C0mputer (easy)\r".as_bytes()).await;
    c.wait_for("kept for the computer").await;
    assert!(c.screen().contains("you are Guest"), "{}", c.screen());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_against_the_computer_through_the_room() {
    let t = start_host().await;
    let mut c = Client::in_lobby(t.addr, "uma", Login::Guest).await;
    c.walk(&[
        (b"1", "Play the computer"),
        (b"2", "how strong"),
        (b"f", "Who moves first  you"),
    ])
    .await;
    c.send(b"1").await; // easy
    c.wait_for(MY_TURN).await;
    assert_eq!(board_stones(&c.screen()), 0, "{}", c.screen());
    c.send(b"d\r").await;
    // Our stone and the computer's answer, then take both back.
    wait_stones(&mut c, 1, &[]).await;
    c.wait_for(MY_TURN).await;
    assert_eq!(board_stones(&c.screen()), 2, "{}", c.screen());
    c.send(b"u").await;
    let deadline = tokio::time::Instant::now() + crate::util::ssh::WAIT;
    while board_stones(&c.screen()) != 0 {
        assert!(tokio::time::Instant::now() < deadline, "{}", c.screen());
        c.pump(Duration::from_millis(50)).await;
    }
    c.wait_for(MY_TURN).await;
}

#[test]
fn a_missing_config_file_is_reported_once() {
    let o = crate::util::inarow()
        .args(["serve", "--config", "/nonexistent/inarow.toml"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cannot read /nonexistent/inarow.toml"),
        "{err}"
    );
    assert_eq!(
        err.matches("No such file or directory").count(),
        1,
        "the cause once: {err}"
    );
}

#[test]
fn a_shutdown_is_logged_as_one_and_stops_games_without_a_winner() {
    let mut server = crate::util::ssh::ServerProcess::start("");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut c = rt.block_on(async {
        let mut c = Client::in_lobby(server.addr, "xia", Login::Guest).await;
        c.walk(&[
            (b"1", "Play the computer"),
            (b"2", "how strong"),
            (b"1", "Computer (easy)"),
        ])
        .await;
        c
    });
    server.signal("TERM");
    rt.block_on(async {
        c.wait_closed().await;
    });
    server
        .wait(Duration::from_secs(8))
        .expect("the host did not exit");
    let log = server.log();
    // The first line says what is open, telnet unencrypted included.
    let first = log.lines().next().unwrap_or_default();
    assert!(
        first.contains(&format!(
            "telnet on {} (unencrypted; [telnet] enabled = false turns it off)",
            server.telnet
        )),
        "{log}"
    );
    // Addresses print plainly.
    assert!(
        log.contains(&format!("listening for telnet addr={}", server.telnet)),
        "{log}"
    );
    assert!(log.contains("reason=\"host shutting down\""), "{log}");
    assert!(log.contains("game stopped"), "{log}");
    assert!(!log.contains("forfeit"), "{log}");
    assert!(!log.contains("reason=\"left\""), "{log}");
}
