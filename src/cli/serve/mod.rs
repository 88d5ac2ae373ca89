//! `ludic serve`: a local web server over the library's public API: the page (`web/`: Play,
//! Replay and Author, built into the binary), the built-in games, the checker, replays, and
//! tables (games in progress in memory) played by people through a JSON API and by computer
//! agents on the server. The API is documented in `API.md` beside this file.
//!
//! Layout: this file holds the command, the router and the tables' handlers; [`table`] a game
//! in progress (its state, steps, narration, undo, computer turns); [`texts`] the endpoints of
//! texts (a built-in game's text, the language's words, check, rules, replay: [`replay`]);
//! [`request`] the requests' bodies read; [`conn`] the connections, bounded. Every call into the engine
//! runs on tokio's blocking pool (`spawn_blocking`) under `catch_unwind`: a computer's search
//! never blocks another game, and a panic in one game marks that table broken and answers 500
//! while the server goes on.

mod conn;
mod replay;
mod request;
mod table;
mod texts;

use super::{FAILED, OK};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State as Ax};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use request::NewTable;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use table::Cell;

// Arguments of `ludic serve`.
#[derive(clap::Args)]
#[command(
    after_help = "Serves a JSON API for playing the built-in games and games posted as text, and checking\n.game texts (see src/cli/serve/API.md). Games live in memory: at most 1000 tables, each\nremoved after an hour unused. Ctrl-C stops the server.\n\nExamples:\n  ludic serve\n  ludic serve --port 0          (any free port; the address is printed)\n  ludic serve --port 8080 --open"
)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port)
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on (127.0.0.1: this machine only)
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in a browser
    #[arg(long)]
    pub open: bool,
}

/// Threads of the blocking pool, where every request's engine work runs.
pub const BLOCKING_THREADS: usize = 64;

/// Search threads running at once at most, on all tables: one core fewer than the machine has
/// (at least one), so that a core is always left for people's moves; a turn of a table's
/// computers takes a permit a thread of its searches. The others wait for their permits
/// without a thread (its time budget counted from its start), so that tables of searching
/// computers (up to 5 s a move, any number of them) never take the threads of the blocking
/// pool nor the cores, and never hold up the moves of other tables.
pub fn search_cap() -> usize {
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    cores.saturating_sub(1).clamp(1, BLOCKING_THREADS / 2)
}

/// The permits of a turn of `cell`'s computers (none if none searches).
async fn search_permits(s: &Server, cell: &Cell) -> Option<tokio::sync::OwnedSemaphorePermit> {
    let n = cell.searches().min(search_cap());
    if n == 0 {
        return None;
    }
    s.searches
        .clone()
        .acquire_many_owned(u32::try_from(n).unwrap_or(1))
        .await
        .ok()
}

/// A request body at most (a posted `.game` text is at most `MAX_SOURCE_BYTES` of it).
pub const MAX_BODY_BYTES: usize = 2 << 20;
/// Tables in memory at most.
pub const MAX_TABLES: usize = 1000;
/// A table unused for this long is removed.
pub const TABLE_IDLE: Duration = Duration::from_secs(3600);
/// Event streams open at once at most (the connections that stay open).
pub const MAX_WATCHERS: usize = 1000;
/// A computer's search at most, per decision.
pub const MAX_THINK: Duration = Duration::from_secs(5);

/// What the handlers share.
pub(crate) struct Server {
    tables: Mutex<HashMap<String, Arc<Cell>>>,
    /// ids and seat tokens (not game randomness: the games draw from their seeds)
    ids: Mutex<Xoshiro256PlusPlus>,
    games: Value,
    /// event streams open
    watchers: AtomicUsize,
    /// permits of the computers' searches (see [`search_cap`])
    searches: Arc<tokio::sync::Semaphore>,
}

/// An open event stream, counted while it lives.
struct Watching(Arc<Server>);

impl Drop for Watching {
    fn drop(&mut self) {
        self.0.watchers.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An error answer: a status and `{error, hint}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    error: String,
    hint: String,
}

pub(crate) fn err(
    status: StatusCode,
    error: impl Into<String>,
    hint: impl Into<String>,
) -> ApiError {
    ApiError {
        status,
        error: error.into(),
        hint: hint.into(),
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            axum::Json(json!({"error": self.error, "hint": self.hint})),
        )
            .into_response()
    }
}

type ApiResult = Result<Response, ApiError>;

fn ok_json(v: Value) -> ApiResult {
    Ok(axum::Json(v).into_response())
}

/// `ludic serve`
pub fn serve(args: &ServeArgs) -> u8 {
    super::signals::catch_signals();
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(BLOCKING_THREADS)
        // deep (but allowed) nesting in a posted game text is parsed on these threads
        .thread_stack_size(16 << 20)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            to_stderr!("error: cannot start the server: {e}");
            return FAILED;
        }
    };
    let code = rt.block_on(run(args));
    // a search in progress stops at the interrupt; don't wait long for it
    rt.shutdown_timeout(Duration::from_secs(2));
    code
}

async fn run(args: &ServeArgs) -> u8 {
    let addr = format!("{}:{}", args.host, args.port);
    // (a host and a port apart: `::1` needs no brackets)
    let listener = match tokio::net::TcpListener::bind((args.host.as_str(), args.port)).await {
        Ok(l) => l,
        Err(e) => {
            to_stderr!("error: cannot listen on {addr}: {e}");
            to_stderr!("hint: choose another port with --port (0: any free port)");
            return FAILED;
        }
    };
    let local = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            to_stderr!("error: cannot listen on {addr}: {e}");
            return FAILED;
        }
    };
    let url = format!("http://{local}/");
    if !local.ip().is_loopback() {
        to_stderr!(
            "note: listening beyond this machine ({}): whoever reaches it can play and post games",
            local.ip()
        );
    }
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "ludic serve: listening on {url} (Ctrl-C stops it)");
        let _ = out.flush();
    }
    if args.open {
        open_browser(&url);
    }
    let server = Arc::new(Server::new());
    let sweeper = {
        let s = server.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(60)).await;
                s.sweep();
            }
        })
    };
    let app = router(server);
    let stop = async {
        while !super::signals::interrupted() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    let served = tokio::select! {
        r = axum::serve(conn::Capped::new(listener, conn::cap()), app) => r,
        () = stop => Ok(()),
    };
    sweeper.abort();
    match served {
        Err(e) => {
            to_stderr!("error: the server stopped: {e}");
            FAILED
        }
        Ok(()) if super::signals::interrupted() => {
            to_stderr!("ludic serve: stopped");
            // Ctrl-C is how a server is stopped: a clean stop
            OK
        }
        Ok(()) => OK,
    }
}

/// Opens the page with the system's opener (its failure is only said).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        to_stderr!("note: cannot open a browser ({opener}: {e}); open {url}");
    }
}

fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/web/{file}", get(asset))
        .route("/api/games", get(games))
        .route("/api/games/{name}/text", get(texts::game_text))
        .route("/api/language", get(texts::language))
        .route("/api/check", post(texts::check))
        .route("/api/rules", post(texts::rules))
        .route("/api/replay", post(texts::replay_step))
        .route("/api/tables", post(create))
        .route("/api/tables/{id}", get(state))
        .route("/api/tables/{id}/move", post(play_move))
        .route("/api/tables/{id}/undo", post(undo))
        .route("/api/tables/{id}/resign", post(resign))
        .route("/api/tables/{id}/record", get(record))
        .route("/api/tables/{id}/events", get(events))
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .layer(axum::middleware::from_fn(timed))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(server)
}

impl Server {
    fn new() -> Server {
        let games = ludic::builtin::GAMES
            .iter()
            .filter_map(|(stem, src)| {
                ludic::load_game(src, &ludic::Settings::default())
                    .ok()
                    .map(|g| super::list::game_json(stem, &g))
            })
            .collect();
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Server {
            tables: Mutex::new(HashMap::new()),
            ids: Mutex::new(Xoshiro256PlusPlus::seed_from_u64(
                t ^ u64::from(std::process::id()).rotate_left(32),
            )),
            games: Value::Array(games),
            watchers: AtomicUsize::new(0),
            searches: Arc::new(tokio::sync::Semaphore::new(search_cap())),
        }
    }

    /// A fresh random name of `n` 64-bit words, in hex.
    pub(crate) fn fresh_id(&self, words: usize) -> String {
        let mut rng = self.ids.lock().unwrap_or_else(PoisonError::into_inner);
        (0..words)
            .map(|_| format!("{:016x}", rng.random::<u64>()))
            .collect()
    }

    /// Removes the tables unused for [`TABLE_IDLE`].
    fn sweep(&self) {
        let mut tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        tables.retain(|_, c| c.last_used().elapsed() < TABLE_IDLE);
    }

    fn table(&self, id: &str) -> Result<Arc<Cell>, ApiError> {
        let tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        match tables.get(id) {
            Some(c) => {
                c.touch();
                Ok(c.clone())
            }
            None => Err(err(
                StatusCode::NOT_FOUND,
                format!("no table `{}`", ludic::limits::shorten(id, 40)),
                "tables are created by POST /api/tables and removed after an hour unused",
            )),
        }
    }
}

/// Every answer says how long the server took to make it (`Server-Timing: app;dur=MS`, shown by
/// a browser's tools and read by the load script): the time from the request read to the answer
/// made, without the network and the client.
async fn timed(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let start = std::time::Instant::now();
    let mut r = next.run(req).await;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    if let Ok(v) = header::HeaderValue::from_str(&format!("app;dur={ms:.2}")) {
        r.headers_mut().insert("server-timing", v);
    }
    r
}

async fn wrong_method() -> ApiError {
    err(
        StatusCode::METHOD_NOT_ALLOWED,
        "this method is not served here",
        "see src/cli/serve/API.md: GET reads, POST changes",
    )
}

async fn not_found() -> ApiError {
    err(
        StatusCode::NOT_FOUND,
        "no such page",
        "the API is under /api/ (see src/cli/serve/API.md)",
    )
}

async fn index() -> Html<&'static str> {
    Html(include_str!("web/index.html"))
}

/// The page's files, built into the binary: a name from the client is only ever looked up in
/// this list (no path reaches the file system).
const ASSETS: &[(&str, &str, &str)] = &[
    ("app.js", "text/javascript", include_str!("web/app.js")),
    ("play.js", "text/javascript", include_str!("web/play.js")),
    (
        "replay.js",
        "text/javascript",
        include_str!("web/replay.js"),
    ),
    (
        "editor.js",
        "text/javascript",
        include_str!("web/editor.js"),
    ),
    ("editor.css", "text/css", include_str!("web/editor.css")),
    ("style.css", "text/css", include_str!("web/style.css")),
];

async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, mime, text)) => (
            [
                (header::CONTENT_TYPE, format!("{mime}; charset=utf-8")),
                (header::CACHE_CONTROL, "no-cache".to_string()),
            ],
            *text,
        )
            .into_response(),
        None => not_found().await.into_response(),
    }
}

async fn games(Ax(s): Ax<Arc<Server>>) -> ApiResult {
    ok_json(s.games.clone())
}

/// Runs `f` on the blocking pool, a panic caught (500).
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let r = tokio::task::spawn_blocking(move || catch_unwind(AssertUnwindSafe(f))).await;
    match r {
        Ok(Ok(r)) => r,
        Ok(Err(_)) | Err(_) => Err(err(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error: the engine failed on this request",
            "this is a bug of ludic: please report it with the game and the steps that led to it",
        )),
    }
}

/// The body as a JSON value (400 with the parser's message if it is not JSON).
fn body_json(body: Result<Bytes, BytesRejection>) -> Result<Value, ApiError> {
    let bytes = body_bytes(body)?;
    serde_json::from_slice(&bytes).map_err(|e| {
        err(
            StatusCode::BAD_REQUEST,
            format!("the body is not valid JSON: {e}"),
            "send a JSON object, e.g. {\"game\": \"NAME\"} (see src/cli/serve/API.md)",
        )
    })
}

fn body_bytes(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            err(
                status,
                format!("the body is larger than {} bytes", MAX_BODY_BYTES),
                "a .game text is at most 1 MiB",
            )
        } else {
            err(status, format!("cannot read the body: {e}"), "")
        }
    })
}

/// `POST /api/tables`
async fn create(Ax(s): Ax<Arc<Server>>, body: Result<Bytes, BytesRejection>) -> ApiResult {
    let v = body_json(body)?;
    let req = NewTable::read(&v)?;
    if let Some(text) = &req.text {
        texts::checked_text(text)?;
    }
    {
        let mut tables = s.tables.lock().unwrap_or_else(PoisonError::into_inner);
        if tables.len() >= MAX_TABLES {
            tables.retain(|_, c| c.last_used().elapsed() < TABLE_IDLE);
        }
        if tables.len() >= MAX_TABLES {
            return Err(err(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the server holds {MAX_TABLES} tables, its most"),
                "try again later: a table unused for an hour is removed",
            ));
        }
    }
    let id = s.fresh_id(1);
    let tokens: Vec<String> = (0..16).map(|_| s.fresh_id(2)).collect();
    let cell = blocking(move || table::create(id, req, tokens)).await?;
    let cell = Arc::new(cell);
    let id = cell.id().to_string();
    s.tables
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(id.clone(), cell.clone());
    let answer = cell.created();
    // chance and the computers play up to the first person's decision (all of a game of
    // computers only, in the background)
    let c = cell.clone();
    let server = s.clone();
    let advance = tokio::spawn(async move {
        let _permit = search_permits(&server, &c).await;
        let _ = tokio::task::spawn_blocking(move || {
            let _ = catch_unwind(AssertUnwindSafe(|| c.advance()));
        })
        .await;
    });
    if cell.has_person() {
        let _ = advance.await;
    }
    ok_json(answer)
}

/// The `seat` of a query string (`seat=TOKEN`).
fn seat_of(q: &Option<String>) -> Option<String> {
    q.as_deref()?.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == "seat").then(|| v.to_string())
    })
}

/// `GET /api/tables/{id}?seat=TOKEN`
async fn state(Ax(s): Ax<Arc<Server>>, Path(id): Path<String>, RawQuery(q): RawQuery) -> ApiResult {
    let cell = s.table(&id)?;
    let token = seat_of(&q);
    let v = blocking(move || cell.view(token.as_deref())).await?;
    ok_json(v)
}

/// `POST /api/tables/{id}/move` {seat, action | notation}
async fn play_move(
    Ax(s): Ax<Arc<Server>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let cell = s.table(&id)?;
    let v = body_json(body)?;
    let token = str_field(&v, "seat")?.to_string();
    let what = request::Move::read(&v)?;
    if cell.searches() > 0 {
        // the move at once; the computers' reply with the permits of their searches
        let c = cell.clone();
        let t = token.clone();
        blocking(move || c.play(&t, what)).await?;
        let _permit = search_permits(&s, &cell).await;
        let v = blocking(move || {
            cell.advance();
            cell.view(Some(&token))
        })
        .await?;
        return ok_json(v);
    }
    // one trip to the blocking pool, not three: on a busy machine each trip is a thread to
    // wake and wait for
    let v = blocking(move || {
        cell.play(&token, what)?;
        cell.advance();
        cell.view(Some(&token))
    })
    .await?;
    ok_json(v)
}

/// `POST /api/tables/{id}/undo` {seat}
async fn undo(
    Ax(s): Ax<Arc<Server>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    by_seat(&s, &id, body, |c, t| c.undo(t)).await
}

/// `POST /api/tables/{id}/resign` {seat}
async fn resign(
    Ax(s): Ax<Arc<Server>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    by_seat(&s, &id, body, |c, t| c.resign(t)).await
}

/// A request of a seat (`{seat}`) that changes its table (`act`), answered with the table
/// as that seat sees it.
async fn by_seat(
    s: &Server,
    id: &str,
    body: Result<Bytes, BytesRejection>,
    act: fn(&Cell, &str) -> Result<(), ApiError>,
) -> ApiResult {
    let cell = s.table(id)?;
    let v = body_json(body)?;
    let token = str_field(&v, "seat")?.to_string();
    let v = blocking(move || {
        act(&cell, &token)?;
        cell.view(Some(&token))
    })
    .await?;
    ok_json(v)
}

/// `GET /api/tables/{id}/record`: the game as the CLI's record (`ludic replay` reads it).
async fn record(Ax(s): Ax<Arc<Server>>, Path(id): Path<String>) -> ApiResult {
    let cell = s.table(&id)?;
    let rec = blocking(move || cell.record()).await?;
    let text = serde_json::to_string_pretty(&rec).map_err(|e| {
        err(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot write the record: {e}"),
            "",
        )
    })?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"game.json\"",
            ),
        ],
        text + "\n",
    )
        .into_response())
}

/// `GET /api/tables/{id}/events`: server-sent events, one `step` message at each step of the
/// game (and a `hello` first), each `{version, steps, turn, status}`.
async fn events(Ax(s): Ax<Arc<Server>>, Path(id): Path<String>) -> ApiResult {
    let cell = s.table(&id)?;
    if s.watchers.fetch_add(1, Ordering::SeqCst) >= MAX_WATCHERS {
        s.watchers.fetch_sub(1, Ordering::SeqCst);
        return Err(err(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("{MAX_WATCHERS} event streams are open, the server's most"),
            "try again later, or follow the table by its state",
        ));
    }
    let watching = Watching(s.clone());
    let rx = cell.subscribe();
    let hello = cell.summary();
    let first = futures_util::stream::once(async move {
        Ok::<_, std::convert::Infallible>(
            SseEvent::default().event("hello").data(hello.to_string()),
        )
    });
    let rest = futures_util::stream::unfold((rx, watching), |(mut rx, w)| async move {
        loop {
            match rx.recv().await {
                Ok((kind, msg)) => {
                    let ev = SseEvent::default().event(kind).data(msg);
                    return Some((Ok::<_, std::convert::Infallible>(ev), (rx, w)));
                }
                // a slow reader missed messages: the next one says the version anyway
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    use futures_util::StreamExt as _;
    Ok(Sse::new(first.chain(rest))
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// A string field of a JSON body (400 when missing).
pub(crate) fn str_field<'v>(v: &'v Value, name: &str) -> Result<&'v str, ApiError> {
    v.get(name).and_then(Value::as_str).ok_or_else(|| {
        err(
            StatusCode::BAD_REQUEST,
            format!("no `{name}` (a string) in the body"),
            "see src/cli/serve/API.md for the fields of each request",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic on the blocking pool (the engine failing on a request) is a 500 with its hint,
    /// and the pool serves the next request.
    #[tokio::test]
    async fn a_panic_is_a_500_and_the_next_request_is_served() {
        let r: Result<(), ApiError> = blocking(|| panic!("the engine failed")).await;
        let e = r.expect_err("a panic is an error");
        assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(e.hint.contains("bug of ludic"));
        assert_eq!(blocking(|| Ok(7)).await.ok(), Some(7));
    }
}
