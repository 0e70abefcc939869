//! The web pages on the `[http]` listener, asked as a browser would:
//! recorded games, profiles and leaderboards from the store; hostile names
//! stay text; unknown addresses get a 404 page; the rate limit answers 429
//! and leaves the operators' endpoints alone.

use std::time::Duration;

use inarow::store::{GameRecord, PlayerRecord, Store};

use crate::util::http::{get, request};
use crate::util::ssh::{TestHost, start_host_with};

/// A hostile name a guest could have had at the table.
const HOSTILE: &str = "<script>alert(1)</script>&\"'";

/// A host with its pages on, and its store opened beside it.
pub(crate) async fn host_with_store(extra: &str) -> (TestHost, std::net::SocketAddr, Store) {
    let t = start_host_with(&format!(
        "[http]\nenabled = true\nlisten = \"127.0.0.1:0\"\n{extra}"
    ))
    .await;
    let http = t.host.as_ref().unwrap().http_addr.unwrap();
    let db = t.dir.path().join("var/inarow.db");
    let store = Store::open(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    (t, http, store)
}

/// A Connect Four game: the first seat wins in column D (x = 3), the
/// second answers in column E.
fn game(players: [PlayerRecord; 2], rated: bool, ended_ms: i64) -> GameRecord {
    GameRecord::column_win(players, rated, ended_ms)
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then_some(v.trim())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recorded_games_profiles_and_leaderboards_are_pages_and_names_stay_text() {
    let (mut t, http, store) = host_with_store("").await;
    let now = inarow::store::now_ms();
    let alice = store
        .create_account("SHA256:webalice", "Alice", now)
        .await
        .unwrap();
    let carol = store
        .create_account("SHA256:webcarol", "Carol", now)
        .await
        .unwrap();
    let person =
        |name: &str, acc: &str, colour: &str| PlayerRecord::person(name, Some(acc), colour);
    let mut rated = Vec::new();
    for i in 0..6 {
        let g = game(
            [
                person("Alice", &alice.id, "Red"),
                person("Carol", &carol.id, "Yellow"),
            ],
            true,
            now - 100_000 + i * 1_000,
        );
        store.record_game(&g).await.unwrap();
        rated.push(g);
    }
    let hostile = game(
        [
            PlayerRecord::person(HOSTILE, None, "Green"),
            person("Alice", &alice.id, "Blue"),
        ],
        false,
        now,
    );
    store.record_game(&hostile).await.unwrap();

    // The game page: players, result, the board with every stone and the
    // winning line, the move list linking each position, the records.
    let (code, head, page) = request(http, "GET", &format!("/g/{}", hostile.id)).await;
    assert_eq!(code, 200, "{page}");
    assert!(
        !page.contains(HOSTILE),
        "a name reached the page raw:\n{page}"
    );
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt;&amp;"),
        "{page}"
    );
    assert!(page.contains("won: a line"), "{page}");
    assert_eq!(page.matches("class=\"stone\"").count(), 7, "{page}");
    assert_eq!(page.matches("class=\"win\"").count(), 4, "{page}");
    assert!(page.contains("href=\"?move=3#board\""), "{page}");
    assert!(page.contains(&format!("/g/{}.json", hostile.id)));
    assert!(
        page.contains("<script src=\"/static/replay.js\" defer"),
        "{page}"
    );
    let csp = header(&head, "content-security-policy").expect("a CSP");
    assert!(
        csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    assert!(
        header(&head, "content-type")
            .unwrap()
            .starts_with("text/html")
    );
    // At move 3: three stones, the rest hidden, no line yet.
    let (_, page) = get(http, &format!("/g/{}?move=3", hostile.id)).await;
    assert_eq!(page.matches("class=\"stone\"").count(), 3, "{page}");
    assert_eq!(page.matches("class=\"stone later\"").count(), 4, "{page}");
    assert_eq!(page.matches("class=\"win later\"").count(), 4, "{page}");
    // The JSON is the export's; the text is the export's line.
    let (code, json) = get(http, &format!("/g/{}.json", hostile.id)).await;
    assert_eq!(code, 200);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value, inarow::records::export_json(&hostile));
    let (code, text) = get(http, &format!("/g/{}.txt", hostile.id)).await;
    assert_eq!(code, 200);
    assert_eq!(text.trim_end(), inarow::records::export_text(&hostile));

    // The short id an end screen shows where the full one does not fit.
    let short = hostile.id.replace('-', "");
    let (code, page) = get(http, &format!("/g/{short}")).await;
    assert_eq!(code, 200, "{page}");
    assert!(page.contains(&format!("/g/{}.json", hostile.id)), "{page}");
    // `inarow games show` gives the address where the pages are public.
    let config = t.dir.path().join("show.toml");
    std::fs::write(
        &config,
        format!(
            "[store]\nurl = \"sqlite://{}\"\n[http]\npublic_url = \"https://play.example.org/\"\n",
            t.dir.path().join("var/inarow.db").display()
        ),
    )
    .unwrap();
    let out = crate::util::inarow()
        .args(["games", "show", "--config"])
        .arg(&config)
        .arg(&hostile.id)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "web      https://play.example.org/g/{}\n",
            hostile.id
        )),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A profile: ratings with a chart, the games with links.
    let (code, page) = get(http, "/@/Alice").await;
    assert_eq!(code, 200, "{page}");
    assert!(page.contains("<h1>Alice</h1>"), "{page}");
    assert!(
        page.contains("Connect Four") && page.contains("6 rated games: 6 won"),
        "{page}"
    );
    assert!(page.contains("aria-label=\"rating history\""), "{page}");
    assert!(
        page.contains(&format!("href=\"/g/{}\"", rated[0].id)),
        "{page}"
    );
    assert!(page.contains("href=\"/@/Carol\""), "{page}");
    assert!(!page.contains(HOSTILE), "{page}");
    assert!(
        !page.contains("SHA256:"),
        "a key fingerprint on a page:\n{page}"
    );
    // Any case of the name finds the player.
    assert_eq!(get(http, "/@/alice").await.0, 200);

    // The leaderboards.
    let (code, page) = get(http, "/leaderboard/connect4").await;
    assert_eq!(code, 200);
    assert!(page.contains("Connect Four leaderboard"), "{page}");
    assert_eq!(get(http, "/leaderboard/gomoku").await.0, 200);

    // Nothing there: a 404 page, never an error dump.
    for path in [
        "/leaderboard/chess",
        "/@/nobody-here",
        "/g/0000",
        "/g/0000.json",
        &format!("/g/{}.exe", hostile.id),
        "/nothing/here",
        "/@/%3Cscript%3E",
    ] {
        let (code, head, page) = request(http, "GET", path).await;
        assert_eq!(code, 404, "{path}: {page}");
        assert!(page.contains("Not found"), "{path}: {page}");
        assert!(!page.contains("<script>"), "{path}: {page}");
        assert!(header(&head, "content-security-policy").is_some(), "{path}");
    }
    // Other methods are refused, and the host answers on.
    let (code, _, _) = request(http, "POST", &format!("/g/{}", hostile.id)).await;
    assert_eq!(code, 405);
    let (code, _, _) = request(http, "DELETE", "/").await;
    assert_eq!(code, 405);
    let (code, page) = get(http, "/").await;
    assert_eq!(code, 200);
    assert!(
        !page.contains("Puzzle of the day"),
        "no puzzles yet:\n{page}"
    );
    store.close().await;
    t.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_front_page_says_how_to_connect_and_the_rate_limit_spares_the_endpoints() {
    let (mut t, http, store) = host_with_store(
        "requests_per_minute = 5\n[lobby]\npublic_address = \"play.example.org\"\nmotd = \"Be <kind>\"",
    )
    .await;
    daily_puzzle(&store).await;
    let (code, page) = get(http, "/").await;
    assert_eq!(code, 200, "{page}");
    assert!(
        page.contains("href=\"/puzzle/daily\">Connect Four, win in 2</a>"),
        "{page}"
    );
    assert!(page.contains("ssh play@play.example.org"), "{page}");
    assert!(page.contains("Be &lt;kind&gt;"), "{page}");
    assert!(page.contains("0 online"), "{page}");
    assert!(page.contains("href=\"/leaderboard/connect4\""), "{page}");
    // Five page requests a minute: the rest of the burst is refused with
    // the time to wait...
    let mut codes = Vec::new();
    for _ in 0..6 {
        let (code, head, _) = request(http, "GET", "/static/site.css").await;
        if code == 429 {
            let wait: u64 = header(&head, "retry-after").unwrap().parse().unwrap();
            assert!((1..=60).contains(&wait), "{wait}");
        }
        codes.push(code);
    }
    assert_eq!(codes.iter().filter(|c| **c == 429).count(), 2, "{codes:?}");
    // ...and the operators' endpoints answer on.
    for path in ["/healthz", "/readyz", "/metrics"] {
        assert_eq!(get(http, path).await.0, 200, "{path}");
    }
    store.close().await;
    t.shutdown().await;
}

/// A Connect Four puzzle made before today (so the day's puzzle): red
/// to move makes an open three on the bottom row (D), yellow blocks one
/// end (A), red wins at the other (E).
pub(crate) async fn daily_puzzle(store: &Store) {
    let puzzle = inarow::store::NewPuzzle {
        game: "connect4".into(),
        kind: "win".into(),
        position: "2233".into(),
        line: "415".into(),
        win_in: Some(2),
        key: "web:daily".into(),
        source: "self-play".into(),
    };
    let day = 24 * 3600 * 1000;
    store
        .add_puzzle(&puzzle, inarow::store::now_ms() - day)
        .await
        .unwrap();
}

/// The column links a puzzle page offers, in order.
fn column_links(page: &str) -> Vec<String> {
    page.match_indices("class=\"play\" href=\"")
        .map(|(at, m)| page[at + m.len()..].split('"').next().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_puzzle_is_played_by_address_and_checked_by_the_host() {
    // No puzzles: no page, and the front page does not link one.
    let (mut t, http, store) = host_with_store("").await;
    let (code, page) = get(http, "/puzzle/daily").await;
    assert_eq!(code, 404, "{page}");
    assert!(page.contains("no puzzles yet"), "{page}");
    assert!(!get(http, "/").await.1.contains("/puzzle/daily"));
    store.close().await;
    t.shutdown().await;

    let (mut t, http, store) = host_with_store("").await;
    daily_puzzle(&store).await;
    let (code, page) = get(http, "/puzzle/daily").await;
    assert_eq!(code, 200, "{page}");
    assert!(
        page.contains("Red to move: find the winning move (win in 2)"),
        "{page}"
    );
    assert_eq!(page.matches("class=\"stone\"").count(), 4, "{page}");
    // Every column is a link that plays it.
    let links = column_links(&page);
    assert_eq!(
        links,
        ["A", "B", "C", "D", "E", "F", "G"]
            .map(|c| format!("/puzzle/daily?play={c}"))
            .to_vec(),
        "{page}"
    );
    // The right move: the host answers from the line, the links go on
    // from there.
    let (code, page) = get(http, "/puzzle/daily?play=D").await;
    assert_eq!(code, 200);
    assert!(
        page.contains("Right. Yellow answers A: your move."),
        "{page}"
    );
    assert_eq!(page.matches("class=\"stone\"").count(), 6, "{page}");
    assert!(
        column_links(&page).contains(&"/puzzle/daily?play=D,E".to_string()),
        "{page}"
    );
    assert!(page.contains("name=\"play\" value=\"D\""), "{page}");
    // The winning move: solved, nothing more to click.
    for path in ["/puzzle/daily?play=D,E", "/puzzle/daily?play=D&move=e"] {
        let (code, page) = get(http, path).await;
        assert_eq!(code, 200, "{path}");
        assert!(
            page.contains("Solved!</b> The line: D A E"),
            "{path}: {page}"
        );
        assert!(column_links(&page).is_empty(), "{page}");
    }
    // A wrong move: the attempt ends, the host's answer is ringed, the
    // solution is given.
    let (code, page) = get(http, "/puzzle/daily?play=G").await;
    assert_eq!(code, 200);
    assert!(
        page.contains("G is not the move</b>: Yellow answers"),
        "{page}"
    );
    assert!(page.contains("The move was <b>D</b>"), "{page}");
    assert!(
        page.contains("class=\"best\""),
        "the refutation is ringed: {page}"
    );
    assert!(page.contains("The solution: D A E"), "{page}");
    assert!(column_links(&page).is_empty());
    // After the wrong move, nothing asked later counts.
    let (_, later) = get(http, "/puzzle/daily?play=G,E").await;
    assert!(later.contains("G is not the move"), "{later}");
    // Moves that cannot be played are refused in words; the puzzle goes on.
    for (path, words) in [
        ("/puzzle/daily?play=Z", "Z: "),
        ("/puzzle/daily?play=%3Cscript%3E", "&lt;script"),
        (
            "/puzzle/daily?play=D,D,D,D",
            "more moves than this puzzle has",
        ),
    ] {
        let (code, page) = get(http, path).await;
        assert_eq!(code, 200, "{path}");
        assert!(page.contains(words), "{path}: {page}");
        assert!(!page.contains("<script>"), "{path}: {page}");
        assert!(page.contains("class=\"refused\""), "{path}: {page}");
        assert_eq!(column_links(&page).len(), 7, "{path}: {page}");
    }
    let long = format!("/puzzle/daily?play={}", "D,".repeat(300));
    assert_eq!(get(http, &long).await.0, 200);
    // The front page links it.
    assert!(get(http, "/").await.1.contains("href=\"/puzzle/daily\""));
    store.close().await;
    t.shutdown().await;
}

/// A browser's event stream, read raw: the JSON of each `data:` line.
pub(crate) struct Events {
    stream: tokio::net::TcpStream,
    buf: String,
    ended: bool,
}

impl Events {
    pub(crate) async fn open(addr: std::net::SocketAddr, path: &str) -> (u16, Events) {
        use tokio::io::AsyncWriteExt;
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        stream
            .write_all(
                format!("GET {path} HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n\r\n")
                    .as_bytes(),
            )
            .await
            .unwrap();
        let mut e = Events {
            stream,
            buf: String::new(),
            ended: false,
        };
        while !e.buf.contains("\r\n\r\n") {
            assert!(e.fill(Duration::from_secs(5)).await, "no answer: {}", e.buf);
        }
        let code = e.buf.split(' ').nth(1).unwrap().parse().unwrap();
        let head_end = e.buf.find("\r\n\r\n").unwrap() + 4;
        e.buf.drain(..head_end);
        (code, e)
    }

    /// Reads more; false once the stream ended or nothing came in `wait`.
    async fn fill(&mut self, wait: Duration) -> bool {
        use tokio::io::AsyncReadExt;
        let mut chunk = [0u8; 65536];
        match tokio::time::timeout(wait, self.stream.read(&mut chunk)).await {
            Ok(Ok(0)) | Ok(Err(_)) => {
                self.ended = true;
                false
            }
            Ok(Ok(n)) => {
                self.buf.push_str(&String::from_utf8_lossy(&chunk[..n]));
                true
            }
            Err(_) => false,
        }
    }

    /// The next event, within `wait`.
    pub(crate) async fn next(&mut self, wait: Duration) -> Option<serde_json::Value> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(start) = self.buf.find("data: ")
                && let Some(len) = self.buf[start..].find('\n')
            {
                let line = self.buf[start + 6..start + len].to_string();
                self.buf.drain(..start + len);
                return Some(serde_json::from_str(&line).unwrap());
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero()
                || !self.fill(left).await && (self.ended || tokio::time::Instant::now() >= deadline)
            {
                return None;
            }
        }
    }
}

/// The first game in play the front page links to: its number.
pub(crate) async fn live_game(http: std::net::SocketAddr) -> u64 {
    let (_, page) = get(http, "/").await;
    let at = page
        .find("href=\"/live/")
        .unwrap_or_else(|| panic!("no game in play:\n{page}"));
    page[at + 12..].split('"').next().unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_play_is_followed_live_to_its_recorded_end() {
    use crate::util::ssh::play;
    let (mut t, http, store) = host_with_store("max_live_viewers = 2").await;
    let (mut first, mut second) =
        crate::ssh::quick_match_pair(&t, ["lena", "<i>max</i>"], b"1").await;
    let room = live_game(http).await;
    let (code, page) = get(http, &format!("/live/{room}")).await;
    assert_eq!(code, 200, "{page}");
    assert!(
        page.contains(&format!("data-events=\"/live/{room}/events\"")),
        "{page}"
    );
    assert!(page.contains("&lt;i&gt;max&lt;/i&gt;"), "{page}");
    assert!(page.contains("to move"), "{page}");
    let (code, mut events) = Events::open(http, &format!("/live/{room}/events")).await;
    assert_eq!(code, 200);
    // The current state first.
    let now = events
        .next(Duration::from_secs(5))
        .await
        .expect("the first event");
    assert_eq!(now["moves"], 0, "{now}");
    assert_eq!(now["over"], false);
    assert!(now["board"].as_str().unwrap().starts_with("<svg"), "{now}");
    // A second viewer fits; a third is one too many.
    let (code, _also) = Events::open(http, &format!("/live/{room}/events")).await;
    assert_eq!(code, 200);
    let (code, _) = Events::open(http, &format!("/live/{room}/events")).await;
    assert_eq!(code, 503);
    // Each move arrives.
    let mut moves = 0;
    let mut last = now;
    for (who, mv) in [
        (0, "a"),
        (1, "b"),
        (0, "a"),
        (1, "b"),
        (0, "a"),
        (1, "b"),
        (0, "a"),
    ] {
        let c = if who == 0 { &mut first } else { &mut second };
        let sent = std::time::Instant::now();
        play(c, mv).await;
        moves += 1;
        loop {
            let e = events
                .next(Duration::from_secs(5))
                .await
                .expect("an event for each move");
            if e["moves"] == moves {
                assert!(sent.elapsed() < Duration::from_secs(5));
                last = e;
                break;
            }
        }
    }
    // Then the result, and once the game is recorded, its id: the stream
    // ends there.
    let mut record = last["record"].as_str().map(str::to_string);
    assert_eq!(last["over"], true, "{last}");
    assert_eq!(last["list"], "A B A B A B A", "the move list: {last}");
    while let Some(e) = events.next(Duration::from_secs(10)).await {
        assert_eq!(e["over"], true, "{e}");
        assert!(e["status"].as_str().unwrap().contains("wins with"), "{e}");
        if let Some(id) = e["record"].as_str() {
            record = Some(id.to_string());
        }
    }
    let record = record.expect("the recorded game's id");
    assert!(events.ended, "the stream ended after the record");
    assert_eq!(get(http, &format!("/g/{record}")).await.0, 200);
    // No game has the number after the players leave: a 404 page.
    assert_eq!(get(http, "/live/999999").await.0, 404);
    assert_eq!(get(http, "/live/x").await.0, 404);
    store.close().await;
    t.shutdown().await;
}

/// The pages speak the browser's language (`Accept-Language`), a
/// language link (`?lang=`) chooses another and a cookie keeps it; the
/// answers say which language they are in and that they vary with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_speak_the_browsers_language_and_a_link_keeps_another() {
    use crate::util::http::get_with;
    let (mut t, http, store) = host_with_store("").await;
    let now = inarow::store::now_ms();
    let g = game(
        [
            PlayerRecord::person("Anna", None, "Red"),
            PlayerRecord::person("Mei", None, "Yellow"),
        ],
        false,
        now,
    );
    store.record_game(&g).await.unwrap();
    let german = [("Accept-Language", "fr;q=0.9, de-DE;q=0.8, en;q=0.5")];
    let (code, head, page) = get_with(http, "/", &german).await;
    assert_eq!(code, 200, "{page}");
    assert!(page.contains("<html lang=\"de\""), "{page}");
    assert!(page.contains("Laufende Partien"), "{page}");
    assert!(page.contains("Bestenliste Vier Gewinnt"), "{page}");
    assert!(page.contains("Willkommen bei inarow"), "{page}");
    assert_eq!(header(&head, "content-language"), Some("de"), "{head}");
    assert!(
        header(&head, "vary").is_some_and(|v| v.contains("Accept-Language")),
        "{head}"
    );
    assert!(header(&head, "set-cookie").is_none(), "{head}");
    // Each language is linked at the foot, named in its own words.
    for (id, name) in [("en", "English"), ("zh-TW", "繁體中文")] {
        assert!(
            page.contains(&format!(
                "href=\"?lang={id}\" lang=\"{id}\" hreflang=\"{id}\">{name}</a>"
            )),
            "{id}: {page}"
        );
    }
    // The game page and its replay in German.
    let (_, _, page) = get_with(http, &format!("/g/{}", g.id), &german).await;
    assert!(page.contains("Zug 7 von 7"), "{page}");
    assert!(page.contains("data-text=\"Zug #n von #m\""), "{page}");
    assert!(page.contains("Anna gewann: eine Reihe"), "{page}");
    // A 404 in German.
    let (code, _, page) = get_with(http, "/nothing", &german).await;
    assert_eq!(code, 404);
    assert!(page.contains("Nicht gefunden"), "{page}");
    // Traditional Chinese from a browser that asks for it.
    let (_, _, page) = get_with(
        http,
        "/leaderboard/gomoku",
        &[("Accept-Language", "zh-Hant-TW")],
    )
    .await;
    assert!(page.contains("五子棋排行榜"), "{page}");
    // The link to Chinese wins over the browser, and a cookie keeps it.
    let (_, head, page) = get_with(http, "/?lang=zh-TW", &german).await;
    assert!(page.contains("進行中的對局"), "{page}");
    let cookie = header(&head, "set-cookie").expect("the choice is kept");
    assert!(cookie.starts_with("lang=zh-TW;"), "{cookie}");
    let (_, _, page) = get_with(http, "/", &[german[0], ("Cookie", "theme=x; lang=zh-TW")]).await;
    assert!(page.contains("進行中的對局"), "{page}");
    // Nothing asked: the host's default, English.
    let (_, head, page) = get_with(http, "/", &[]).await;
    assert!(page.contains("Games in play"), "{page}");
    assert_eq!(header(&head, "content-language"), Some("en"), "{head}");
    // A language inarow does not speak, or nonsense: the default too.
    let (_, _, page) = get_with(http, "/?lang=xx", &[("Accept-Language", "ja, *;q=0.1")]).await;
    assert!(page.contains("Games in play"), "{page}");
    store.close().await;
    t.shutdown().await;
}

/// A page asked for again is sent as made: the same headers and body as
/// the first time (in each language), and each answer counted against
/// the address's rate all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_sent_again_is_the_page_first_made_and_counted() {
    let (mut t, http, store) = host_with_store("requests_per_minute = 6").await;
    let now = inarow::store::now_ms();
    let ann = store
        .create_account("SHA256:webann", "Ann", now)
        .await
        .unwrap();
    let g = game(
        [
            PlayerRecord::person("Ann", Some(&ann.id), "Red"),
            PlayerRecord::person("Ben", None, "Yellow"),
        ],
        false,
        now,
    );
    store.record_game(&g).await.unwrap();
    // Every header but the date, which moves.
    let without_date = |head: &str| -> Vec<String> {
        let mut lines: Vec<String> = head
            .lines()
            .filter(|l| !l.to_ascii_lowercase().starts_with("date:"))
            .map(str::to_string)
            .collect();
        // In any order.
        lines.sort();
        lines
    };
    let game_path = format!("/g/{}", g.id);
    for (path, language) in [
        (game_path.as_str(), "en"),
        (game_path.as_str(), "de"),
        ("/@/Ann", "zh-TW"),
    ] {
        let asked = [("Accept-Language", language)];
        let (code, first_head, first) = crate::util::http::get_with(http, path, &asked).await;
        assert_eq!(code, 200, "{path} {first}");
        let (code, again_head, again) = crate::util::http::get_with(http, path, &asked).await;
        assert_eq!(code, 200, "{path} {again}");
        assert_eq!(
            without_date(&first_head),
            without_date(&again_head),
            "{path}"
        );
        assert_eq!(first, again, "{path}");
        assert_eq!(header(&again_head, "content-language"), Some(language));
        assert!(header(&again_head, "content-security-policy").is_some());
    }
    // Six answers so far: the seventh, of a page kept, is refused.
    let (code, head, _) = request(http, "GET", &game_path).await;
    assert_eq!(code, 429, "{head}");
    store.close().await;
    t.shutdown().await;
}
