//! The web pages on the `[http]` listener: read from the store and the
//! lobby, made into HTML by [`crate::web`], served with a Content Security
//! Policy that allows no inline script, within a per-address request rate.

use std::collections::HashMap;
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
use super::live::{Event, GameId, Live, NotLive, STREAM_IDLE};
use crate::game::GameKind;
use crate::lang::Lang;
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
    // Cluster mode: games on other hosts are followed as their watchers
    // on this host follow them.
    let elsewhere = ctx.cluster.as_ref().map(|_| {
        let ctx = Arc::clone(&ctx);
        let ask: super::live::Elsewhere = Box::new(move |host, room| {
            let ctx = Arc::clone(&ctx);
            Box::pin(async move {
                let cluster = ctx.cluster.as_ref()?;
                cluster
                    .watch_for_web(ctx.new_session_id(), host, room)
                    .await
            })
        });
        ask
    });
    let live = Live::new(
        ctx.lobby.clone(),
        elsewhere,
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
        .route("/puzzle/daily", get(daily_puzzle))
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
        .fallback(
            |axum::Extension(PageLang(lang)): axum::Extension<PageLang>| async move {
                not_found(lang, "web-nothing-here")
            },
        )
        .layer(axum::middleware::from_fn_with_state(limiter, rate_limited))
        .layer(axum::middleware::from_fn_with_state(
            ctx.config.lobby.default_language,
            language,
        ))
        .layer(axum::Extension(live))
        .layer(axum::Extension(Arc::new(Refutations::default())))
        .layer(axum::Extension(Arc::new(Made::default())))
        .with_state(ctx)
}

/// What a kept game page is kept by.
fn game_key(lang: Lang, id: &str, at: Option<usize>) -> String {
    format!("g {} {id} {at:?}", lang.id())
}

/// What a kept profile is kept by.
fn profile_key(lang: Lang, name: &str) -> String {
    format!("@ {} {name}", lang.id())
}

type Limiter = Arc<Mutex<crate::limit::Keyed<IpAddr>>>;

/// The language a page is made in (a request extension).
#[derive(Debug, Clone, Copy)]
pub struct PageLang(pub Lang);

/// The cookie that keeps a language chosen by its link.
const LANG_COOKIE: &str = "lang";

/// The language `?lang=` asks for, and the page's language.
fn chosen_language(req: &Request, default: Lang) -> (Option<Lang>, Lang) {
    let asked = req.uri().query().and_then(|q| {
        q.split('&')
            .find_map(|kv| kv.strip_prefix("lang="))
            .and_then(Lang::of_id)
    });
    let header = |name| req.headers().get(name).and_then(|v| v.to_str().ok());
    let cookie = header(axum::http::header::COOKIE).and_then(|c| {
        c.split(';')
            .find_map(|kv| kv.trim().strip_prefix(LANG_COOKIE)?.strip_prefix('='))
            .and_then(Lang::of_id)
    });
    let accept = header(axum::http::header::ACCEPT_LANGUAGE).and_then(Lang::from_accept_language);
    (asked, asked.or(cookie).or(accept).unwrap_or(default))
}

/// The language of this request's page: `?lang=` (a language link,
/// then kept in a cookie for a year), else the cookie, else the browser's
/// `Accept-Language`, else the host's `[lobby] default_language`. The
/// answer says which (`Content-Language`) and that it varies with them.
async fn language(State(default): State<Lang>, mut req: Request, next: Next) -> Response {
    let (asked, lang) = chosen_language(&req, default);
    req.extensions_mut().insert(PageLang(lang));
    let mut res = next.run(req).await;
    language_headers(res.headers_mut(), lang, asked);
    res
}

/// An answer's language, that it varies with the browser's choice, and
/// the cookie that keeps a language `asked` by its link.
fn language_headers(h: &mut axum::http::HeaderMap, lang: Lang, asked: Option<Lang>) {
    h.insert(
        axum::http::header::VARY,
        HeaderValue::from_static("Accept-Language, Cookie"),
    );
    h.insert(
        axum::http::header::CONTENT_LANGUAGE,
        HeaderValue::from_static(lang.id()),
    );
    if let Some(lang) = asked
        && let Ok(v) = HeaderValue::from_str(&format!(
            "{LANG_COOKIE}={}; Path=/; Max-Age=31536000; SameSite=Lax",
            lang.id()
        ))
    {
        h.insert(axum::http::header::SET_COOKIE, v);
    }
}

/// At most `[http] requests_per_minute` page requests an address (a
/// burst of as many at once): beyond, 429 with the seconds to wait.
async fn rate_limited(State(limiter): State<Limiter>, req: Request, next: Next) -> Response {
    let lang = req.extensions().get::<PageLang>().map_or(Lang::En, |l| l.0);
    if let Some(Peer(addr)) = req.extensions().get::<Peer>().copied() {
        let taken = limiter
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .try_take(&addr.ip(), std::time::Instant::now());
        if let Err(wait) = taken {
            let secs = wait.as_secs() + 1;
            let mut res = page(
                StatusCode::TOO_MANY_REQUESTS,
                crate::web::too_many(lang, secs),
            );
            res.headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(secs));
            return res;
        }
    }
    next.run(req).await
}

/// An HTML page with the pages' headers.
fn page(status: StatusCode, html: impl IntoResponse) -> Response {
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

/// 404, saying what is not here (the message `id`) in `lang`.
fn not_found(lang: Lang, id: &str) -> Response {
    page(StatusCode::NOT_FOUND, crate::web::not_found(lang, id))
}

/// The store did not answer in time (or failed): said, not dumped.
fn store_down(lang: Lang) -> Response {
    page(
        StatusCode::SERVICE_UNAVAILABLE,
        crate::web::not_found(lang, "web-store-down"),
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

async fn home(
    State(ctx): State<Arc<Ctx>>,
    axum::Extension(PageLang(lang)): axum::Extension<PageLang>,
) -> Response {
    let stats = ctx.lobby.stats().borrow().clone();
    // Cluster mode: the games on every host, each linked by its host.
    let mut games = ctx.lobby.games().await;
    if let Some(cluster) = &ctx.cluster {
        for g in &mut games {
            g.host = Some(cluster.name().to_string());
        }
        games.extend(cluster.games().await);
        games.sort_by(crate::protocol::GameSummary::order);
        games.truncate(crate::lobby::GAMES_LISTED);
    }
    let daily = ctx
        .daily
        .get(&ctx.store)
        .await
        .map(|(_, words)| words.words(lang));
    let lobby = &ctx.config.lobby;
    let name = lobby.public_address.as_deref().unwrap_or("inarow");
    let connect = connect_command(&ctx);
    let home = crate::web::Home {
        name,
        motd: lobby.motd.as_deref(),
        connect,
        online: stats.online,
        playing: stats.playing,
        games: &games,
        daily: daily.as_deref(),
    };
    page(StatusCode::OK, crate::web::home(lang, &home))
}

/// `ssh play@ADDRESS` (with `-p PORT` when the address names one), when
/// the host's public address is configured.
fn connect_command(ctx: &Ctx) -> Option<String> {
    ctx.config
        .lobby
        .public_address
        .as_ref()
        .map(|a| match a.rsplit_once(':') {
            Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => {
                format!("ssh -p {port} play@{host}")
            }
            _ => format!("ssh play@{a}"),
        })
}

async fn leaderboard(
    State(ctx): State<Arc<Ctx>>,
    axum::Extension(PageLang(lang)): axum::Extension<PageLang>,
    Path(game): Path<String>,
) -> Response {
    let kind = match game.as_str() {
        "connect4" => GameKind::ConnectFour,
        "gomoku" => GameKind::Gomoku,
        _ => return not_found(lang, "web-no-such-leaderboard"),
    };
    match read("leaderboard", ctx.store.board(kind, None, now_ms(), 100)).await {
        Some(board) => page(StatusCode::OK, crate::web::leaderboard(lang, &board)),
        None => store_down(lang),
    }
}

async fn profile(
    State(ctx): State<Arc<Ctx>>,
    axum::Extension(made): axum::Extension<Arc<Made>>,
    axum::Extension(PageLang(lang)): axum::Extension<PageLang>,
    Path(name): Path<String>,
) -> Response {
    let nobody = || not_found(lang, "web-no-such-player");
    if name.chars().count() > 64 {
        return nobody();
    }
    let key = profile_key(lang, &name);
    if let Some(html) = made.fresh(&key, PROFILE_FRESH) {
        return page(StatusCode::OK, html);
    }
    let Some(account) = read("profile name", ctx.store.name_taken(&name)).await else {
        return store_down(lang);
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
        (Some(Some(p)), Some(games), Some(puzzles)) => {
            let html = bytes::Bytes::from(crate::web::profile(lang, &p, &games, puzzles.as_ref()));
            made.keep(key, html.clone());
            page(StatusCode::OK, html)
        }
        (Some(None), _, _) => nobody(),
        _ => store_down(lang),
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

async fn game(
    State(ctx): State<Arc<Ctx>>,
    axum::Extension(made): axum::Extension<Arc<Made>>,
    axum::Extension(PageLang(lang)): axum::Extension<PageLang>,
    Path(id): Path<String>,
    uri: Uri,
) -> Response {
    let (id, form) = match id.rsplit_once('.') {
        Some((id, "json")) => (id, Form::Json),
        Some((id, "txt")) => (id, Form::Text),
        Some(_) => return not_found(lang, "web-no-such-game"),
        None => (id.as_str(), Form::Page),
    };
    let id = &dashed(id);
    // A recorded game does not change (but for its analysis, kept later).
    let key = game_key(lang, id, move_asked(&uri));
    if let Form::Page = form
        && let Some(html) = made.fresh(&key, GAME_PAGE_FRESH)
    {
        return page(StatusCode::OK, html);
    }
    let Some(found) = read("game", ctx.store.game(id)).await else {
        return store_down(lang);
    };
    let Some(g) = found else {
        return not_found(lang, "web-no-such-game");
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
            match crate::web::game(lang, &g, move_asked(&uri), notes.as_deref()) {
                Some(html) => {
                    let html = bytes::Bytes::from(html);
                    made.keep(key, html.clone());
                    page(StatusCode::OK, html)
                }
                None => not_found(lang, "web-unknown-rules"),
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
        json: Lang::ALL.map(|lang| crate::web::live_event(lang, &st.view, crate::lobby::now())),
        done: st.view.ending.is_some() && st.view.record.is_some(),
    })
}

fn not_live(lang: Lang, why: NotLive) -> Response {
    match why {
        NotLive::Unknown => not_found(lang, "web-no-such-live"),
        NotLive::Full => page(
            StatusCode::SERVICE_UNAVAILABLE,
            crate::web::not_found(lang, "web-live-full"),
        ),
    }
}

/// The game `/live/ID` names: `ROOM`, or in cluster mode `HOST-ROOM`.
fn game_id(ctx: &Ctx, id: &str) -> Option<GameId> {
    if id.len() > 100 {
        return None;
    }
    GameId::parse(id, ctx.cluster.as_ref().map(|c| c.name()))
}

async fn live_page(
    State(ctx): State<Arc<Ctx>>,
    axum::Extension(live): axum::Extension<Arc<Live>>,
    axum::Extension(PageLang(lang)): axum::Extension<PageLang>,
    Path(id): Path<String>,
) -> Response {
    let Some(game) = game_id(&ctx, &id) else {
        return not_live(lang, NotLive::Unknown);
    };
    match live.feed(&game, event_of).await {
        Ok(feed) => {
            let st = feed.state.borrow().clone();
            page(
                StatusCode::OK,
                crate::web::live(lang, &id, &st.view, crate::lobby::now()),
            )
        }
        Err(why) => not_live(lang, why),
    }
}

/// The game's events: the current state first, then one each time it
/// changes; the stream ends after the recorded end, when the table goes,
/// or after [`STREAM_IDLE`] with nothing to send.
async fn live_events(
    State(ctx): State<Arc<Ctx>>,
    axum::Extension(live): axum::Extension<Arc<Live>>,
    Path(id): Path<String>,
    req: Request,
) -> Response {
    use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
    let lang = req.extensions().get::<PageLang>().map_or(Lang::En, |l| l.0);
    let Some(game) = game_id(&ctx, &id) else {
        return not_live(lang, NotLive::Unknown);
    };
    let viewer = match live.view(&game, event_of).await {
        Ok(v) => v,
        Err(why) => return not_live(lang, why),
    };
    // The connection serves this stream: not closed to make room.
    let busy = req.extensions().get::<Connection>().map(Connection::busy);
    let events = viewer.feed.events.clone();
    let lang_index = Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0);
    let stream = futures_util::stream::unfold(
        (Some((viewer, events, busy)), true),
        move |(held, first)| async move {
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
                Ok::<_, std::convert::Infallible>(
                    SseEvent::default().data(event.json[lang_index].as_str()),
                ),
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

/// How long a recorded game's page is served as made (its analysis,
/// when kept later, shows after this).
const GAME_PAGE_FRESH: Duration = Duration::from_secs(60);
/// How long a profile is served as made (a game just finished shows
/// after this).
const PROFILE_FRESH: Duration = Duration::from_secs(5);
/// Pages kept at once.
const PAGES_KEPT: usize = 4096;

/// Pages made lately, by what they show: a page asked for again soon is
/// sent as made, without reading the store or making it again. Only
/// pages that exist are kept (a made-up id or name is never a key), at
/// most [`PAGES_KEPT`]; when full, the stale go, and if none is stale,
/// all.
#[derive(Default)]
struct Made(Mutex<HashMap<String, (std::time::Instant, bytes::Bytes)>>);

impl Made {
    fn fresh(&self, key: &str, fresh: Duration) -> Option<bytes::Bytes> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.get(key)
            .filter(|(at, _)| at.elapsed() < fresh)
            .map(|(_, html)| html.clone())
    }

    fn keep(&self, key: String, html: bytes::Bytes) {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() >= PAGES_KEPT {
            kept.retain(|_, (at, _)| at.elapsed() < PROFILE_FRESH);
            if kept.len() >= PAGES_KEPT {
                kept.clear();
            }
        }
        kept.insert(key, (std::time::Instant::now(), html));
    }
}

/// Refutations of wrong puzzle moves already found: a wrong move asked
/// again (a reload, many people making the same mistake) costs no new
/// search. At most [`REFUTATIONS_KEPT`]; when full it starts again.
#[derive(Default)]
struct Refutations(Mutex<HashMap<Attempted, Option<crate::game::Move>>>);

/// A puzzle's id and the moves played in it.
type Attempted = (String, Vec<crate::game::Move>);

const REFUTATIONS_KEPT: usize = 4096;
/// The longest `?play=` list read (a puzzle's line is far shorter).
const MAX_PLAY_CHARS: usize = 400;

/// `/puzzle/daily[?play=D,E][&move=F]`: the day's puzzle with the
/// person's moves so far (`play`) and one more typed into the form
/// (`move`), each checked against the puzzle's line; not kept, not rated.
async fn daily_puzzle(
    State(ctx): State<Arc<Ctx>>,
    axum::Extension(refutations): axum::Extension<Arc<Refutations>>,
    axum::Extension(PageLang(lang)): axum::Extension<PageLang>,
    axum::extract::Query(query): axum::extract::Query<HashMap<String, String>>,
) -> Response {
    use crate::session::puzzle::{Step, step};
    use crate::web::puzzle::{Attempt, PuzzlePage};
    let Some((id, _)) = ctx.daily.get(&ctx.store).await else {
        return not_found(lang, "web-no-puzzles");
    };
    let Some(found) = read("daily puzzle", ctx.store.puzzle(&id)).await else {
        return store_down(lang);
    };
    let Some(view) = found.and_then(|p| crate::server::puzzles::view_of(&p, true, false, None))
    else {
        return not_found(lang, "web-puzzle-unshown");
    };
    let rules = view.rules;
    let asked: Vec<&str> = query
        .get("play")
        .map(String::as_str)
        .unwrap_or("")
        .split(',')
        .chain(query.get("move").map(String::as_str))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let too_long = query.values().map(String::len).sum::<usize>() > MAX_PLAY_CHARS;
    let mut played = Vec::new();
    let mut attempt = Attempt::Solving;
    let mut refused = None;
    if too_long || asked.len() > view.line.len() {
        refused = Some(lang.text("web-puzzle-too-many"));
    } else {
        for text in asked {
            let m = match rules.parse_move(text) {
                Ok(m) => m,
                Err(e) => {
                    let why = crate::session::words::parse_error(lang, &e, &rules);
                    refused = Some(format!("{}: {why}", crate::text::sanitize(text, 8)));
                    break;
                }
            };
            match step(&view, &played, m) {
                Err(why) => {
                    let why = why.words(lang);
                    refused = Some(format!("{}: {why}", rules.format_move(m)));
                    break;
                }
                Ok(Step::Answered(answer)) => played.extend([m, answer]),
                Ok(Step::Solved) => {
                    played.push(m);
                    attempt = Attempt::Solved;
                    break;
                }
                Ok(Step::Failed) => {
                    played.push(m);
                    attempt = Attempt::Failed { refutation: None };
                    break;
                }
            }
        }
    }
    if let Attempt::Failed { .. } = attempt {
        let key = (view.id.clone(), played.clone());
        let kept = refutations
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .copied();
        let refutation = match kept {
            Some(r) => r,
            None => {
                let moves: Vec<_> = view.position.iter().chain(&played).copied().collect();
                let r = ctx.analyst.reply(rules, moves).await;
                let mut kept = refutations.0.lock().unwrap_or_else(|e| e.into_inner());
                if kept.len() >= REFUTATIONS_KEPT {
                    kept.clear();
                }
                kept.insert(key, r);
                r
            }
        };
        attempt = Attempt::Failed { refutation };
    }
    let connect = connect_command(&ctx);
    let html = crate::web::puzzle::page(
        lang,
        &PuzzlePage {
            view: &view,
            played: &played,
            attempt,
            refused: refused.as_deref(),
            connect: connect.as_deref(),
        },
    );
    let mut res = page(StatusCode::OK, html);
    // Each address is one position: the same answer every time today.
    res.headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}
