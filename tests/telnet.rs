//! The host over telnet: raw TCP clients that negotiate like a real client
//! (or not at all, like nc), an SSH player in the same lobby, and the stock
//! telnet client under tmux.

use std::time::Duration;

use inarow::server::telnet_codec::IAC;

use crate::util::TestClient;
use crate::util::ssh::{Client, Login, start_host};
use crate::util::telnet::{TelnetClient, naws};

fn telnet_addr(t: &crate::util::ssh::TestHost) -> std::net::SocketAddr {
    t.host.as_ref().unwrap().telnet_addr.expect("telnet is on")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn negotiation_offers_asks_and_never_loops() {
    let t = start_host().await;
    let mut c = TelnetClient::connect(telnet_addr(&t), None, 80, 24).await;
    c.pump(Duration::from_millis(200)).await;
    // The offers, first thing on the wire.
    assert_eq!(
        &c.raw[..15],
        &[
            IAC, 251, 1, IAC, 251, 3, IAC, 253, 31, IAC, 253, 24, IAC, 253, 39
        ]
    );
    // Answer like inetutils telnet; the host asks for the terminal type once
    // and answers none of our confirmations.
    let mut answer = vec![IAC, 253, 1, IAC, 253, 3, IAC, 251, 31];
    answer.extend(naws(90, 30));
    answer.extend_from_slice(&[IAC, 251, 24]);
    // An option it does not have: refused once.
    answer.extend_from_slice(&[IAC, 253, 34]);
    c.send(&answer).await;
    c.pump(Duration::from_millis(300)).await;
    let after: Vec<u8> = c.raw[15..].to_vec();
    let commands: Vec<&[u8]> = after
        .windows(3)
        .filter(|w| w[0] == IAC && (251..=254).contains(&w[1]))
        .collect();
    assert_eq!(
        commands,
        vec![&[IAC, 252, 34][..]],
        "only the refusal: {after:?}"
    );
    let sb_send = [IAC, 250, 24, 1, IAC, 240];
    assert_eq!(after.windows(6).filter(|w| *w == sb_send).count(), 1);
    // Sending the same answers again changes nothing.
    let before = c.raw.len();
    c.send(&[IAC, 253, 1, IAC, 251, 31, IAC, 251, 24]).await;
    c.pump(Duration::from_millis(300)).await;
    assert!(
        !c.raw[before..]
            .windows(2)
            .any(|w| w[0] == IAC && (250..=254).contains(&w[1]))
    );
    c.wait_for("What should people call you?").await;
}

/// What a telnet client reads, split into commands (`[verb, option]`, or
/// `[SB, option, payload...]` for a subnegotiation) and data (`IAC IAC` as
/// one 255). A stray IAC that starts no valid command counts as a command
/// of its own (`[IAC, byte]`), so a malformed stream shows up.
fn telnet_parse(raw: &[u8]) -> (Vec<Vec<u8>>, Vec<u8>) {
    let (mut commands, mut data) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] != IAC {
            data.push(raw[i]);
            i += 1;
            continue;
        }
        match raw.get(i + 1) {
            Some(&IAC) => {
                data.push(IAC);
                i += 2;
            }
            Some(&verb @ 251..=254) if i + 2 < raw.len() => {
                commands.push(vec![verb, raw[i + 2]]);
                i += 3;
            }
            Some(&250) => {
                let end = (i + 2..raw.len().saturating_sub(1))
                    .find(|&j| raw[j] == IAC && raw[j + 1] == 240)
                    .expect("an unterminated subnegotiation");
                let mut sb = vec![250];
                sb.extend_from_slice(&raw[i + 2..end]);
                commands.push(sb);
                i = end + 2;
            }
            Some(&b) => {
                commands.push(vec![IAC, b]);
                i += 2;
            }
            None => {
                commands.push(vec![IAC]);
                i += 1;
            }
        }
    }
    (commands, data)
}

/// Connects, waits `delay`, then asks for options, and returns what the
/// host answered (after its opening offers) and the data it sent.
async fn negotiate_after(addr: std::net::SocketAddr, delay: Duration) -> (Vec<Vec<u8>>, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    tokio::time::sleep(delay).await;
    // WILL TTYPE (asked for: the host requests the type), WILL 34 and
    // DO 35 (options the host lacks: refused), DO ECHO (only confirms
    // what the host offered: no answer).
    s.write_all(&[IAC, 251, 24, IAC, 251, 34, IAC, 253, 35, IAC, 253, 1])
        .await
        .unwrap();
    let expected: Vec<Vec<u8>> = vec![vec![250, 24, 1], vec![254, 34], vec![252, 35]];
    let mut raw = Vec::new();
    let mut buf = vec![0u8; 8192];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (commands, _) = telnet_parse(&raw);
        if commands.len() >= 5 + expected.len() {
            // A moment more, to catch anything extra.
            if let Ok(Ok(n)) =
                tokio::time::timeout(Duration::from_millis(300), s.read(&mut buf)).await
            {
                raw.extend_from_slice(&buf[..n]);
            }
            break;
        }
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => raw.extend_from_slice(&buf[..n]),
            _ => break,
        }
    }
    let (mut commands, data) = telnet_parse(&raw);
    assert!(commands.len() >= 5, "no greeting: {raw:?}");
    let greeting: Vec<Vec<u8>> = commands.drain(..5).collect();
    assert_eq!(
        greeting,
        vec![
            vec![251, 1],
            vec![251, 3],
            vec![253, 31],
            vec![253, 24],
            vec![253, 39]
        ]
    );
    (commands, data)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn negotiation_replies_are_well_formed_at_any_time() {
    let t = start_host().await;
    let addr = telnet_addr(&t);
    // At once, within the host's first 400 ms (while it waits for the
    // size and terminal type), and well after, when the session runs and
    // replies go out with its output.
    let delays = [0, 150, 600, 1200].map(Duration::from_millis);
    let results = futures_join(delays.map(|d| negotiate_after(addr, d))).await;
    for (d, (commands, data)) in delays.iter().zip(results) {
        assert_eq!(
            commands,
            vec![vec![250, 24, 1], vec![254, 34], vec![252, 35]],
            "after {d:?}: exactly SB TTYPE SEND, DONT 34, WONT 35"
        );
        // Our output never holds 255, so a doubled IAC means a protocol
        // reply was escaped as data.
        assert!(
            !data.contains(&IAC),
            "after {d:?}: a doubled IAC in the data"
        );
    }
}

/// Runs futures at once and collects their outputs in order.
async fn futures_join<F: std::future::Future + Send + 'static, const N: usize>(
    futures: [F; N],
) -> Vec<F::Output>
where
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.into_iter().map(tokio::spawn).collect();
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn window_size_changes_redraw() {
    let t = start_host().await;
    let mut c = TelnetClient::connect(telnet_addr(&t), Some("XTERM-256COLOR"), 100, 30).await;
    c.wait_for("What should people call you?").await;
    c.send(&naws(30, 8)).await;
    c.term.screen_mut().set_size(8, 30);
    c.wait_for("please enlarge to").await;
    c.send(&naws(100, 30)).await;
    c.term.screen_mut().set_size(30, 100);
    c.wait_for("What should people call you?").await;
}

/// Plays Connect Four against the easy computer until the game ends.
async fn play_computer_to_the_end(c: &mut TelnetClient) -> String {
    c.send(b"1").await; // Connect Four
    c.wait_for("Play the computer").await;
    c.send(b"2").await;
    c.wait_for("how strong").await;
    c.send(b"1").await; // easy
    let mut column = 0u8;
    for _ in 0..200 {
        c.pump(Duration::from_millis(100)).await;
        let s = c.screen();
        if s.contains("wins with") || s.contains("Draw:") {
            return s;
        }
        if s.contains("Move: ") {
            column = (column + 1) % 7;
            c.send(&[b'1' + column, b'\r', 0]).await; // Enter as CR NUL
        }
    }
    panic!("the game did not end:\n{}", c.screen());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_against_the_computer_with_the_terminals_theme() {
    let t = start_host().await;
    // A VT100 cannot show emoji: the stones are letters.
    let mut c = TelnetClient::connect(telnet_addr(&t), Some("VT100"), 100, 30).await;
    c.log_in(b"Tess\r\0", "Tess").await;
    let s = play_computer_to_the_end(&mut c).await;
    assert!(s.contains("Tess ("), "{s}");
    assert!(s.is_ascii(), "emoji on a VT100:\n{s}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_telnet_player_is_matched_with_an_ssh_player() {
    let t = start_host().await;
    let mut tel = TelnetClient::connect(telnet_addr(&t), Some("xterm"), 100, 30).await;
    tel.log_in(b"Tom\r\n", "Tom").await;
    let mut ssh = Client::in_lobby(t.addr, "sue", Login::Guest).await;
    tel.walk(&[(b"1", "Quick match"), (b"1", "Looking for another")])
        .await;
    ssh.walk(&[(b"1", "Quick match"), (b"1", "(you)")]).await;
    tel.wait_for("(you)").await;
    assert!(ssh.screen().contains("Tom") && tel.screen().contains("sue"));
    // Whoever starts plays D, the other E, until the first wins in D.
    for _ in 0..100 {
        tel.pump(Duration::from_millis(30)).await;
        ssh.pump(Duration::from_millis(30)).await;
        if tel.screen().contains("Move: ") || ssh.screen().contains("Move: ") {
            break;
        }
    }
    let telnet_first = tel.screen().contains("Move: ");
    for round in 0..4 {
        if telnet_first {
            tel.wait_for("Move: ").await;
            tel.send(b"d\r").await;
            if round < 3 {
                ssh.wait_for("Move: ").await;
                ssh.send(b"e\r").await;
            }
        } else {
            ssh.wait_for("Move: ").await;
            ssh.send(b"d\r").await;
            if round < 3 {
                tel.wait_for("Move: ").await;
                tel.send(b"e\r").await;
            }
        }
        // Let the move land before looking for the next prompt.
        tel.pump(Duration::from_millis(150)).await;
        ssh.pump(Duration::from_millis(150)).await;
    }
    tel.wait_for("wins with (3|0) (3|1) (3|2) (3|3)").await;
    ssh.wait_for("wins with (3|0) (3|1) (3|2) (3|3)").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_socket_without_telnet_gets_line_mode() {
    let t = start_host().await;
    // Like `nc host 2323`: no telnet commands, whole lines with LF.
    let mut c = TelnetClient::connect(telnet_addr(&t), None, 80, 24).await;
    c.log_in(b"Nina\n", "Nina").await;
    c.walk(&[
        (b"1\n", "Play the computer"),
        (b"2\n", "how strong"),
        (b"1\n", "Computer (easy)"),
    ])
    .await;
    c.wait_for("Move: ").await;
    c.send(b"zz\n").await;
    c.wait_for("unknown column").await;
    c.send(b"d\n").await;
    c.pump(Duration::from_millis(500)).await;
    let t2 = c.screen();
    assert!(
        t2.contains("(3|0)")
            || t2.matches('\u{1F534}').count()
                + t2.matches('\u{1F7E2}').count()
                + t2.matches('\u{1F7E1}').count()
                + t2.matches('\u{1F535}').count()
                >= 2,
        "{t2}"
    );
    c.walk(&[(b"q\n", "Leave the game?"), (b"y\n", "wins by forfeit")])
        .await;
}

#[test]
fn a_telnet_client_that_never_reads_is_cut_off_with_memory_bounded() {
    let server = crate::util::ssh::ServerProcess::start(
        "[limits]\noutput_buffer_kib = 16\noutput_grace_secs = 2\ninput_bytes_per_sec = 1000000\ninput_burst_bytes = 1000000",
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut c = TelnetClient::connect(server.telnet, Some("XTERM"), 200, 60).await;
        c.wait_for("What should people call you?").await;
        // Into a Gomoku game: a big picture to repaint.
        c.walk(&[
            (b"\r\0", "Choose a game"),
            (b"2", "Play the computer"),
            (b"2", "how strong"),
            (b"1", "Gomoku 15x15"),
        ])
        .await;
        // From now on read nothing.
        crate::util::flood_a_stalled_client(&server, &mut c).await;
    });
}

/// The stock telnet client (inetutils) under tmux, like a person.
#[test]
fn stock_telnet_client_under_tmux() {
    assert!(
        std::process::Command::new("telnet")
            .arg("--version")
            .output()
            .is_ok(),
        "the telnet client is needed for this test (scripts/test-deps installs it)"
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let t = rt.block_on(start_host());
    let port = telnet_addr(&t).port();
    let tmux = crate::util::Tmux::new("inarow-telnet-test", 100, 30);
    tmux.run(&format!(
        "telnet 127.0.0.1 {port}; echo TELNET-EXIT-$?; sleep 60"
    ));
    tmux.wait_for("What should people call you?");
    tmux.keys(&["Uli", "Enter"]);
    tmux.wait_for("you are Uli");
    // The same game as over the stock ssh client, arrow keys included.
    crate::util::play_the_computer_in_tmux(&tmux);
    assert!(tmux.screen().contains("Uli ("));
    tmux.keys(&["l"]);
    tmux.wait_for("Quick match");
    // A window resize reaches the host (NAWS): the screen is drawn again.
    tmux.resize(40, 12);
    tmux.wait_for("please enlarge to");
    tmux.resize(100, 30);
    tmux.wait_for("Quick match");
    tmux.keys(&["C-c"]);
    tmux.wait_for("TELNET-EXIT-");
    drop(rt);
}
