//! The web pages on the `[http]` listener, asked as a browser would:
//! recorded games, profiles and leaderboards from the store; hostile names
//! stay text; unknown addresses get a 404 page; the rate limit answers 429
//! and leaves the operators' endpoints alone.

use inarow::game::GameKind;
use inarow::store::{GameRecord, GameResult, MoveRecord, PlayerRecord, Reason, Store};

use crate::util::http::{get, request};
use crate::util::ssh::{TestHost, start_host_with};

/// A hostile name a guest could have had at the table.
const HOSTILE: &str = "<script>alert(1)</script>&\"'";

/// A host with its pages on, and its store opened beside it.
async fn host_with_store(extra: &str) -> (TestHost, std::net::SocketAddr, Store) {
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
    let mut moves = Vec::new();
    for i in 0..7u8 {
        let (x, y) = if i % 2 == 0 { (3, i / 2) } else { (4, i / 2) };
        moves.push(MoveRecord {
            x,
            y,
            ms: u64::from(i) * 1_500 + 700,
        });
    }
    GameRecord {
        id: GameRecord::new_id(),
        game: GameKind::ConnectFour,
        width: 7,
        height: 6,
        k: 4,
        rule: "freestyle".into(),
        rated,
        started_ms: ended_ms - 60_000,
        ended_ms,
        first: 0,
        players,
        result: GameResult::Win,
        winner: Some(0),
        reason: Reason::Line,
        line: vec![(3, 0), (3, 1), (3, 2), (3, 3)],
        moves,
    }
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
    assert_eq!(value, inarow::cli::games::export_json(&hostile));
    let (code, text) = get(http, &format!("/g/{}.txt", hostile.id)).await;
    assert_eq!(code, 200);
    assert_eq!(text.trim_end(), inarow::cli::games::export_text(&hostile));

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
    // A puzzle made before today: the day's puzzle.
    let puzzle = inarow::store::NewPuzzle {
        game: "connect4".into(),
        kind: "win".into(),
        position: "2233".into(),
        line: "415".into(),
        win_in: Some(2),
        key: "web:a".into(),
        source: "self-play".into(),
    };
    let day = 24 * 3600 * 1000;
    store
        .add_puzzle(&puzzle, inarow::store::now_ms() - day)
        .await
        .unwrap();
    let (code, page) = get(http, "/").await;
    assert_eq!(code, 200, "{page}");
    assert!(
        page.contains("Connect Four, win in 2: in the terminal"),
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
