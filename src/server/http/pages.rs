//! The web pages on the `[http]` listener: read from the store and the
//! lobby, made into HTML by [`crate::web`], served with a Content Security
//! Policy that allows no inline script, within a per-address request rate.

use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, Request, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderName, HeaderValue, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::listener::{Connection, Peer};
use super::live::{Event, Live, NotLive, STREAM_IDLE};
use crate::game::GameKind;
use crate::server::Ctx;
use crate::store::{GameRecord, now_ms};

/// How long a page waits for the store.
const STORE_WAIT: Duration = Duration::from_secs(3);
/// Games read for a profile's rating chart (the list shows 50 of them).
const PROFILE_HISTORY: i64 = 200;
/// Addresses whose request rate is kept at once.
const RATE_ADDRESSES: usize = 10_000;

/// What the pages allow a browser: their own style sheet, script and
/// images; no inline script, no frames, nothing from elsewhere.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
                   connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The pages' router (state: the host's context).
pub fn routes(ctx: Arc<Ctx>) -> Router {
    let http = &ctx.config.http;
    let live = Live::new(
        ctx.lobby.clone(),
        http.max_live_viewers,
        http.max_live_streams,
    );
    let per_minute = ctx.config.http.requests_per_minute as u32;
    let limiter = Arc::new(Mutex::new(crate::limit::Keyed::new(
        crate::limit::Rate::per_minute(per_minute),
        per_minute.max(1),
        RATE_ADDRESSES,
    )));
    Router::new()
        .route("/", get(home))
        .route("/leaderboard/{game}", get(leaderboard))
        .route("/@/{name}", get(profile))
        .route("/g/{id}", get(game))
        .route("/live/{room}", get(live_page))
        .route("/live/{room}/events", get(live_events))
        .route(
            "/static/site.css",
            get(|| async { asset("text/css; charset=utf-8", crate::web::CSS) }),
        )
        .route(
            "/static/replay.js",
            get(|| async { asset("text/javascript; charset=utf-8", crate::web::REPLAY_JS) }),
        )
        .route(
            "/static/live.js",
            get(|| async { asset("text/javascript; charset=utf-8", crate::web::LIVE_JS) }),
        )
        .fallback(|| async { not_found("Nothing is at this address.") })
        .layer(axum::middleware::from_fn_with_state(limiter, rate_limited))
        .layer(axum::Extension(live))
        .with_state(ctx)
}

type Limiter = Arc<Mutex<crate::limit::Keyed<IpAddr>>>;

/// At most `[http] requests_per_minute` page requests an address (a
/// burst of as many at once): beyond, 429 with the seconds to wait.
async fn rate_limited(State(limiter): State<Limiter>, req: Request, next: Next) -> Response {
    if let Some(Peer(addr)) = req.extensions().get::<Peer>().copied() {
        let taken = limiter
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .try_take(&addr.ip(), std::time::Instant::now());
        if let Err(wait) = taken {
            let secs = wait.as_secs() + 1;
            let mut res = page(StatusCode::TOO_MANY_REQUESTS, crate::web::too_many(secs));
            res.headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(secs));
            return res;
        }
    }
    next.run(req).await
}

/// An HTML page with the pages' headers.
fn page(status: StatusCode, html: String) -> Response {
    let mut res = (status, html).into_response();
    let h = res.headers_mut();
    h.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    security_headers(h);
    res
}

fn security_headers(h: &mut axum::http::HeaderMap) {
    h.insert(
        HeaderName::from_static("content-security-policy"),
        HeaderValue::from_static(CSP),
    );
    h.insert(
        HeaderName::from_static("x-content-type-options"),
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        HeaderName::from_static("referrer-policy"),
        HeaderValue::from_static("same-origin"),
    );
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    let mut res = body.into_response();
    let h = res.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(
        CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    security_headers(h);
    res
}

fn not_found(what: &str) -> Response {
    page(StatusCode::NOT_FOUND, crate::web::not_found(what))
}

/// The store did not answer in time (or failed): said, not dumped.
fn store_down() -> Response {
    page(
        StatusCode::SERVICE_UNAVAILABLE,
        crate::web::not_found("The records cannot be read just now: try again in a moment."),
    )
}

/// A store read within [`STORE_WAIT`]; `None` when it failed or took
/// too long (logged).
async fn read<T>(
    what: &str,
    f: impl Future<Output = Result<T, crate::store::StoreError>>,
) -> Option<T> {
    match tokio::time::timeout(STORE_WAIT, f).await {
        Ok(Ok(v)) => Some(v),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, what, "a page's store read failed");
            None
        }
        Err(_) => {
            tracing::warn!(what, "a page's store read took too long");
            None
        }
    }
}

async fn home(State(ctx): State<Arc<Ctx>>) -> Response {
    let stats = ctx.lobby.stats().borrow().clone();
    let games = ctx.lobby.games().await;
    let daily = ctx.daily.get(&ctx.store).await.map(|(_, words)| words);
    let lobby = &ctx.config.lobby;
    let name = lobby.public_address.as_deref().unwrap_or("inarow");
    let connect = lobby
        .public_address
        .as_ref()
        .map(|a| match a.rsplit_once(':') {
            Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => {
                format!("ssh -p {port} play@{host}")
            }
            _ => format!("ssh play@{a}"),
        });
    let home = crate::web::Home {
        name,
        motd: &lobby.motd,
        connect,
        online: stats.online,
        playing: stats.playing,
        games: &games,
        daily: daily.as_deref(),
    };
    page(StatusCode::OK, crate::web::home(&home))
}

async fn leaderboard(State(ctx): State<Arc<Ctx>>, Path(game): Path<String>) -> Response {
    let kind = match game.as_str() {
        "connect4" => GameKind::ConnectFour,
        "gomoku" => GameKind::Gomoku,
        _ => return not_found("There is a leaderboard for connect4 and for gomoku."),
    };
    match read("leaderboard", ctx.store.board(kind, None, now_ms(), 100)).await {
        Some(board) => page(StatusCode::OK, crate::web::leaderboard(&board)),
        None => store_down(),
    }
}

async fn profile(State(ctx): State<Arc<Ctx>>, Path(name): Path<String>) -> Response {
    let nobody = || not_found("No player has this name.");
    if name.chars().count() > 64 {
        return nobody();
    }
    let Some(account) = read("profile name", ctx.store.name_taken(&name)).await else {
        return store_down();
    };
    let Some(account) = account else {
        return nobody();
    };
    let now = now_ms();
    let (profile, games, puzzles) = tokio::join!(
        read("profile", ctx.store.profile(&account, now)),
        read(
            "profile games",
            ctx.store.history(&account, PROFILE_HISTORY)
        ),
        read("profile puzzles", ctx.store.puzzle_standing(&account, now)),
    );
    match (profile, games, puzzles) {
        (Some(Some(p)), Some(games), Some(puzzles)) => page(
            StatusCode::OK,
            crate::web::profile(&p, &games, puzzles.as_ref()),
        ),
        (Some(None), _, _) => nobody(),
        _ => store_down(),
    }
}

/// `?move=N`: the move the page shows.
fn move_asked(uri: &Uri) -> Option<usize> {
    uri.query()?
        .split('&')
        .find_map(|kv| kv.strip_prefix("move="))?
        .parse()
        .ok()
}

async fn game(State(ctx): State<Arc<Ctx>>, Path(id): Path<String>, uri: Uri) -> Response {
    let (id, form) = match id.rsplit_once('.') {
        Some((id, "json")) => (id, Form::Json),
        Some((id, "txt")) => (id, Form::Text),
        Some(_) => return not_found("No game has this id."),
        None => (id.as_str(), Form::Page),
    };
    let id = &dashed(id);
    let Some(found) = read("game", ctx.store.game(id)).await else {
        return store_down();
    };
    let Some(g) = found else {
        return not_found("No game has this id.");
    };
    match form {
        Form::Json => json_record(&g),
        Form::Text => {
            let mut res = format!("{}\n", crate::records::export_text(&g)).into_response();
            res.headers_mut().insert(
                CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            );
            security_headers(res.headers_mut());
            res
        }
        Form::Page => {
            let kept = read("game analysis", ctx.store.analysis(id))
                .await
                .flatten();
            let notes = kept.and_then(|k| crate::web::move_notes(&k.moves));
            match crate::web::game(&g, move_asked(&uri), notes.as_deref()) {
                Some(html) => page(StatusCode::OK, html),
                None => not_found("This game's rules are not ones this host knows."),
            }
        }
    }
}

/// A game id as the store keeps it: the short form an end screen may
/// show (the 32 hex digits without dashes) gets its dashes back.
fn dashed(id: &str) -> String {
    if id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()) {
        format!(
            "{}-{}-{}-{}-{}",
            &id[..8],
            &id[8..12],
            &id[12..16],
            &id[16..20],
            &id[20..]
        )
    } else {
        id.to_string()
    }
}

enum Form {
    Page,
    Json,
    Text,
}

/// The game as `inarow games export --format json` writes it.
fn json_record(g: &GameRecord) -> Response {
    let body = format!("{}\n", crate::records::export_json(g));
    let mut res = body.into_response();
    res.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    security_headers(res.headers_mut());
    res
}

/// A table's state as its event.
fn event_of(st: &crate::lobby::room::RoomState) -> Arc<Event> {
    Arc::new(Event {
        json: crate::web::live_event(&st.view, crate::lobby::now()),
        done: st.view.ending.is_some() && st.view.record.is_some(),
    })
}

fn not_live(why: NotLive) -> Response {
    match why {
        NotLive::Unknown => not_found("No game in play here has this number: it may have ended."),
        NotLive::Full => page(
            StatusCode::SERVICE_UNAVAILABLE,
            crate::web::not_found(
                "This game has all the viewers on the web it may have: try again later.",
            ),
        ),
    }
}

async fn live_page(
    axum::Extension(live): axum::Extension<Arc<Live>>,
    Path(room): Path<String>,
) -> Response {
    let Ok(room) = room.parse::<u64>() else {
        return not_live(NotLive::Unknown);
    };
    match live.feed(room, event_of).await {
        Ok(feed) => {
            let st = feed.state.borrow().clone();
            page(
                StatusCode::OK,
                crate::web::live(room, &st.view, crate::lobby::now()),
            )
        }
        Err(why) => not_live(why),
    }
}

/// The game's events: the current state first, then one each time it
/// changes; the stream ends after the recorded end, when the table goes,
/// or after [`STREAM_IDLE`] with nothing to send.
async fn live_events(
    axum::Extension(live): axum::Extension<Arc<Live>>,
    Path(room): Path<String>,
    req: Request,
) -> Response {
    use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
    let Ok(room) = room.parse::<u64>() else {
        return not_live(NotLive::Unknown);
    };
    let viewer = match live.view(room, event_of).await {
        Ok(v) => v,
        Err(why) => return not_live(why),
    };
    // The connection serves this stream: not closed to make room.
    let busy = req.extensions().get::<Connection>().map(Connection::busy);
    let events = viewer.feed.events.clone();
    let stream = futures_util::stream::unfold(
        (Some((viewer, events, busy)), true),
        |(held, first)| async move {
            let (viewer, mut events, busy) = held?;
            if !first {
                match tokio::time::timeout(STREAM_IDLE, events.changed()).await {
                    Ok(Ok(())) => {}
                    _ => return None,
                }
            }
            let event = events.borrow_and_update().clone();
            let next = (!event.done).then_some((viewer, events, busy));
            Some((
                Ok::<_, std::convert::Infallible>(SseEvent::default().data(event.json.as_str())),
                (next, false),
            ))
        },
    );
    let mut res = Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response();
    security_headers(res.headers_mut());
    res
}
