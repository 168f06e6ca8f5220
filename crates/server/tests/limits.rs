//! Issue 13, "Limits, so one client cannot take the server down": each limit refuses the client
//! that goes over it (429, 409, 413, 415, a closed connection) while another client's game goes
//! on. In process through `server::app` (a request's client address set as a real connection
//! sets it), or over a real socket (`server::serve_on`) where a timeout or a connection count is
//! tested.

mod common;

use axum::http::{Method, StatusCode};
use common::{Api, Created, Rng, pg::Postgres};
use serde_json::{Value, json};
use server::{AppState, Limits, Rate, Settings, Store};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn sqlite_store() -> (Arc<dyn Store>, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("games.db").display());
    (server::connect(&url).await.expect("open SQLite"), dir)
}

/// A server in process with these limits.
async fn server_with(limits: Limits) -> Api {
    let (store, dir) = sqlite_store().await;
    let mut api = Api::with(
        store,
        Settings {
            limits,
            ..Settings::default()
        },
    );
    api.dir = Some(dir);
    api
}

fn per_minute(count: u32) -> Option<Rate> {
    Rate::per_minute(count)
}

fn hotseat(seed: u64) -> Value {
    json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": seed})
}

/// The 429 of a rate: the reason, and a `Retry-After` of whole seconds, at least 1.
fn assert_too_many(r: &common::Resp, what: &str) -> u64 {
    assert_eq!(
        r.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{what}: {}",
        r.body
    );
    assert!(r.error().contains("too many"), "{what}: {}", r.body);
    let after: u64 = r
        .headers
        .get("retry-after")
        .unwrap_or_else(|| panic!("{what}: no Retry-After"))
        .to_str()
        .expect("ascii")
        .parse()
        .expect("seconds");
    assert!(after >= 1, "{what}: Retry-After {after}");
    after
}

/// Play `n` random actions in a hot-seat game.
async fn play(api: &Api, c: &Created, n: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    for _ in 0..n {
        api.play_one(c, &mut rng).await.expect("the game goes on");
    }
}

async fn version(api: &Api, c: &Created) -> u64 {
    api.game(c, &c.spectator).await["version"]
        .as_u64()
        .expect("version")
}

// ------------------------------------------------------------------------------ rates

#[tokio::test]
async fn a_client_creating_too_many_games_gets_429_while_another_plays_on() {
    let api = server_with(Limits {
        create: per_minute(3),
        ..Limits::default()
    })
    .await;
    let greedy = api.from("192.0.2.1");
    let other = api.from("198.51.100.7");
    let mut first = None;
    for seed in 0..3 {
        first.get_or_insert(greedy.create(hotseat(seed)).await);
    }
    let r = greedy.post("/api/games", &hotseat(9)).await;
    let after = assert_too_many(&r, "a fourth game in a minute");
    // 3 a minute: one more every 20 s.
    assert!(after <= 20, "Retry-After {after}");
    // A header the server was not told to trust changes nothing.
    let forged = greedy
        .from("192.0.2.1")
        .with_header("x-forwarded-for", "203.0.113.5");
    assert_too_many(&forged.post("/api/games", &hotseat(9)).await, "forged");
    // Another client creates and plays; the greedy client's own game goes on too.
    let c = other.create(hotseat(4)).await;
    play(&other, &c, 3, 1).await;
    let mine = first.expect("a game");
    play(&greedy, &mine, 2, 2).await;
    assert_eq!(version(&api, &c).await, 3);
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_quota() {
    let api = server_with(Limits {
        create: per_minute(2),
        client_header: server::limits::header_name("X-Forwarded-For"),
        ..Limits::default()
    })
    .await;
    // Every request comes from the proxy's address; the proxy appends the client's.
    let proxy = api.from("127.0.0.1");
    let a = proxy
        .from("127.0.0.1")
        .with_header("x-forwarded-for", "192.0.2.1");
    for seed in 0..2 {
        a.create(hotseat(seed)).await;
    }
    assert_too_many(&a.post("/api/games", &hotseat(3)).await, "client a");
    // A client that writes another address first is still the one its proxy saw.
    let spoof = proxy
        .from("127.0.0.1")
        .with_header("x-forwarded-for", "198.51.100.9, 192.0.2.1");
    assert_too_many(&spoof.post("/api/games", &hotseat(3)).await, "spoof");
    // Another client behind the same proxy is not held back.
    let b = proxy
        .from("127.0.0.1")
        .with_header("x-forwarded-for", "203.0.113.1, 192.0.2.2");
    let c = b.create(hotseat(5)).await;
    play(&b, &c, 2, 3).await;
}

#[tokio::test]
async fn a_client_acting_too_fast_gets_429_while_another_plays_on() {
    let api = server_with(Limits {
        act: Some(Rate {
            count: 5,
            per: Duration::from_secs(60),
        }),
        ..Limits::default()
    })
    .await;
    let fast = api.from("192.0.2.1");
    let other = api.from("198.51.100.7");
    let c = fast.create(hotseat(1)).await;
    let d = other.create(hotseat(2)).await;
    play(&fast, &c, 5, 1).await;
    // The sixth submission within the minute: 429, and the game is as it was.
    let g = fast.game(&c, c.any_token()).await;
    let decider = g["decider"].as_str().expect("decider").to_string();
    let token = c.seat(&decider).expect("token");
    let g = fast.game(&c, token).await;
    let action = g["legal"][0]["id"].as_str().expect("legal").to_string();
    let r = fast.act(&c, token, &action, 5).await;
    assert_too_many(&r, "a sixth action in a minute");
    assert_eq!(version(&api, &c).await, 5);
    // Reading is not limited, and another client's game goes on.
    fast.game(&c, &c.spectator).await;
    play(&other, &d, 5, 2).await;
    assert_eq!(version(&api, &d).await, 5);
}

/// A game record of `n` random actions.
async fn record(api: &Api, seed: u64, n: usize) -> Value {
    let c = api.create(hotseat(seed)).await;
    play(api, &c, n, seed).await;
    let token = c.french.as_deref().expect("hot-seat token");
    let r = api
        .get(&format!("/api/games/{}/record?token={token}", c.id))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.json()
}

#[tokio::test]
async fn a_client_importing_too_often_gets_429_while_another_imports() {
    let api = server_with(Limits {
        import: per_minute(2),
        ..Limits::default().without_rates()
    })
    .await;
    let rec = record(&api, 3, 4).await;
    let heavy = api.from("192.0.2.1");
    let other = api.from("198.51.100.7");
    for _ in 0..2 {
        let r = heavy.post("/api/import", &rec).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }
    assert_too_many(&heavy.post("/api/import", &rec).await, "a third import");
    let r = other.post("/api/import", &rec).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let c = Created::of(&r.json());
    play(&other, &c, 2, 9).await;
    assert_eq!(version(&api, &c).await, 6);
}

// ------------------------------------------------------------------------------ caps

#[tokio::test]
async fn a_game_at_its_action_cap_takes_no_more_while_others_go_on() {
    let api = server_with(Limits {
        max_game_actions: 6,
        ..Limits::default().without_rates()
    })
    .await;
    let c = api.create(hotseat(1)).await;
    let d = api.create(hotseat(2)).await;
    play(&api, &c, 6, 1).await;
    let g = api.game(&c, c.any_token()).await;
    let token = c
        .seat(g["decider"].as_str().expect("decider"))
        .expect("token");
    let g = api.game(&c, token).await;
    let action = g["legal"][0]["id"].as_str().expect("legal").to_string();
    let r = api.act(&c, token, &action, 6).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.error().contains("limit of 6 actions"), "{}", r.body);
    assert_eq!(version(&api, &c).await, 6);
    play(&api, &d, 5, 2).await;
    assert_eq!(version(&api, &d).await, 5);
}

#[tokio::test]
async fn a_record_over_the_import_cap_gets_413_while_a_smaller_one_imports() {
    let api = server_with(Limits {
        max_import_actions: 5,
        ..Limits::default().without_rates()
    })
    .await;
    let long = record(&api, 4, 6).await;
    let r = api.post("/api/import", &long).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.body);
    assert!(
        r.error().contains("6 actions") && r.error().contains("at most 5"),
        "{}",
        r.body
    );
    let short = record(&api, 5, 5).await;
    let r = api.post("/api/import", &short).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
}

// ------------------------------------------------------------------------------ JSON only

#[tokio::test]
async fn posts_without_a_json_content_type_get_415_and_change_nothing() {
    let api = server_with(Limits {
        create: per_minute(1),
        ..Limits::default()
    })
    .await;
    let body = hotseat(1).to_string();
    for ct in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        None,
    ] {
        for uri in ["/api/games", "/api/import"] {
            let r = api
                .request_as(Method::POST, uri, ct, Some(body.clone()))
                .await;
            assert_eq!(r.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{ct:?} {uri}");
            assert!(r.error().contains("application/json"), "{}", r.body);
        }
    }
    // Those refusals did not use up the client's one creation a minute.
    let r = api
        .request_as(
            Method::POST,
            "/api/games",
            Some("application/json; charset=utf-8"),
            Some(body),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let c = Created::of(&r.json());
    let token = c.french.clone().expect("token");
    let g = api.game(&c, &token).await;
    let action = g["legal"][0]["id"].as_str().expect("legal").to_string();
    let act = json!({"token": token, "action": action, "version": 0}).to_string();
    let uri = format!("/api/games/{}/actions", c.id);
    let r = api
        .request_as(Method::POST, &uri, Some("text/plain"), Some(act.clone()))
        .await;
    assert_eq!(r.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(version(&api, &c).await, 0);
    let r = api
        .request_as(Method::POST, &uri, Some("application/json"), Some(act))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

// ------------------------------------------------------------------------------ no-store, logs

#[tokio::test]
async fn answers_about_games_are_never_stored_by_a_cache() {
    let api = Api::sqlite().await;
    let r = api.post("/api/games", &hotseat(1)).await;
    let no_store = |r: &common::Resp, what: &str| {
        assert_eq!(
            r.headers
                .get("cache-control")
                .map(|v| v.to_str().expect("ascii")),
            Some("no-store"),
            "{what}"
        );
    };
    no_store(&r, "creation (tokens)");
    let c = Created::of(&r.json());
    let f = c.french.clone().expect("token");
    play(&api, &c, 2, 1).await;
    let rec = api
        .get(&format!("/api/games/{}/record?token={f}", c.id))
        .await;
    no_store(&rec, "record");
    no_store(
        &api.post("/api/import", &rec.json()).await,
        "import (tokens)",
    );
    for uri in [
        format!("/api/games/{}?token={f}", c.id),
        format!("/api/games/{}/replay?token={f}&upto=1", c.id),
        format!("/api/games/{}?token=wrong", c.id),
        format!("/play/{}?token={f}", c.id),
    ] {
        no_store(&api.get(&uri).await, &uri);
    }
    // The public scenario list may be cached.
    assert_ne!(
        api.get("/api/scenarios")
            .await
            .headers
            .get("cache-control")
            .map(|v| v.to_str().expect("ascii").to_string()),
        Some("no-store".to_string())
    );
}

// ------------------------------------------------------------------------------ replay snapshots

#[tokio::test]
async fn replays_start_from_the_nearest_snapshot_not_from_the_start() {
    let api = Api::sqlite().await;
    let c = api.create(hotseat(7)).await;
    play(&api, &c, 130, 7).await;
    let f = c.french.clone().expect("token");
    let hub = api.state.hub();
    let replay = async |upto: u64| -> (Value, u64) {
        let before = hub.replayed_actions();
        let r = api
            .get(&format!("/api/games/{}/replay?token={f}&upto={upto}", c.id))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        (r.json(), hub.replayed_actions() - before)
    };
    // The first replay goes through the game once, keeping snapshots on the way.
    let (_, work) = replay(130).await;
    assert_eq!(work, 130);
    // Then: from the snapshot at or before the step asked (one every 50 actions).
    let (at_120, work) = replay(120).await;
    assert_eq!(work, 20, "from the snapshot at 100");
    let (_, work) = replay(121).await;
    assert_eq!(work, 1, "one step on from the last replay");
    let (at_49, work) = replay(49).await;
    assert_eq!(work, 49, "from the start");
    let (_, work) = replay(0).await;
    assert_eq!(work, 0);
    // The same answers as a server that replays from the start.
    let fresh = Api::of(AppState::new(api.state.store().clone(), None));
    for (upto, seen) in [(120, at_120), (49, at_49)] {
        let r = fresh
            .get(&format!("/api/games/{}/replay?token={f}&upto={upto}", c.id))
            .await;
        assert_eq!(r.json(), seen, "replay to {upto}");
    }
    // The game goes on meanwhile.
    play(&api, &c, 2, 8).await;
}

// ------------------------------------------------------------------------------ streams, cache

/// Open a live-update stream; the first event (the current version) is read.
async fn watch(api: &Api, c: &Created) -> axum::body::Body {
    use tower::ServiceExt;
    let req = axum::http::Request::builder()
        .uri(format!("/api/games/{}/events?token={}", c.id, c.spectator))
        .body(axum::body::Body::empty())
        .expect("request");
    let res = api.app.clone().oneshot(req).await.expect("infallible");
    assert_eq!(res.status(), StatusCode::OK);
    let mut body = res.into_body();
    next_version(&mut body).await;
    body
}

/// The next version a stream tells.
async fn next_version(body: &mut axum::body::Body) -> u64 {
    use http_body_util::BodyExt;
    loop {
        let f = tokio::time::timeout(Duration::from_secs(5), body.frame())
            .await
            .expect("an event within 5 s")
            .expect("stream open")
            .expect("frame");
        if let Ok(data) = f.into_data() {
            let s = String::from_utf8_lossy(&data).into_owned();
            if let Some(v) = s
                .split("data: {\"version\":")
                .nth(1)
                .and_then(|r| r.split('}').next())
            {
                return v.parse().expect("version");
            }
        }
    }
}

#[tokio::test]
async fn a_watched_game_leaves_memory_past_the_cap_and_its_stream_still_hears() {
    let (store, _dir) = sqlite_store().await;
    let api = Api::with(
        store,
        Settings {
            cache_games: 2,
            limits: Limits::default().without_rates(),
            ..Settings::default()
        },
    );
    let mut games = Vec::new();
    let mut streams = Vec::new();
    for seed in 0..5 {
        let c = api.create(hotseat(seed)).await;
        streams.push(watch(&api, &c).await);
        games.push(c);
    }
    // Five games watched, two kept in memory.
    assert!(
        api.state.hub().cached() <= 2,
        "{} games in memory",
        api.state.hub().cached()
    );
    // The first game comes back from the store when played, and its stream hears it.
    play(&api, &games[0], 1, 1).await;
    assert_eq!(next_version(&mut streams[0]).await, 1);
    play(&api, &games[4], 2, 2).await;
    assert_eq!(next_version(&mut streams[4]).await, 2);
    assert!(api.state.hub().cached() <= 2);
}

// ------------------------------------------------------------------------------ expiry

/// A finished game's record (random play to the end).
fn finished_record(seed: u64) -> Value {
    let none: &[String] = &[];
    let (mut game, _) = catalog::open("hastenbeck", none, None, seed).expect("open");
    let mut actions = Vec::new();
    let mut rng = Rng::new(seed);
    let mut last = Vec::new();
    while game.decider().is_some() {
        let n = game.legal_count();
        let (id, ev) = game.apply_index(rng.below(n)).expect("legal");
        actions.push(id);
        last = ev;
        assert!(actions.len() < 20_000, "a game ends");
    }
    serde_json::to_value(catalog::record(
        game.as_ref(),
        "hastenbeck",
        none,
        seed,
        actions,
        last,
    ))
    .expect("record")
}

async fn abandoned_games_expire(store: Arc<dyn Store>) {
    let api = Api::with(
        store.clone(),
        Settings {
            limits: Limits::default().without_rates(),
            ..Settings::default()
        },
    );
    let abandoned = api.create(hotseat(1)).await;
    let played = api.create(hotseat(2)).await;
    play(&api, &abandoned, 2, 1).await;
    let r = api.post("/api/import", &finished_record(3)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let finished = Created::of(&r.json());
    // Two seconds pass; one game is played meanwhile.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    play(&api, &played, 1, 2).await;
    let hub = api.state.hub();
    let r = hub
        .expire_idle(server::live::unix_now(), Duration::from_secs(1))
        .await
        .expect("expire");
    assert_eq!((r.expired, r.kept), (1, 1));
    // The abandoned game is gone, from memory and from the store.
    let g = api
        .get(&format!(
            "/api/games/{}?token={}",
            abandoned.id, abandoned.spectator
        ))
        .await;
    assert_eq!(g.status, StatusCode::NOT_FOUND, "{}", g.body);
    assert!(store.load(&abandoned.id).await.expect("load").is_none());
    // The finished one stays (and is not looked at again), and the played one goes on.
    let g = api.game(&finished, &finished.spectator).await;
    assert!(g["outcome"].is_object(), "{g}");
    play(&api, &played, 2, 3).await;
    assert_eq!(version(&api, &played).await, 3);
    let r = hub
        .expire_idle(server::live::unix_now(), Duration::from_secs(1))
        .await
        .expect("expire");
    assert_eq!((r.expired, r.kept), (0, 0));
    let ids = store.game_ids().await.expect("ids");
    assert_eq!(ids.len(), 2, "{ids:?}");
}

#[tokio::test]
async fn abandoned_games_expire_and_finished_ones_stay() {
    let (store, _dir) = sqlite_store().await;
    abandoned_games_expire(store).await;
}

#[tokio::test]
async fn abandoned_games_expire_and_finished_ones_stay_postgres() {
    let pg = Postgres::start();
    let store = server::connect(&pg.url).await.expect("open PostgreSQL");
    abandoned_games_expire(store).await;
}

// ------------------------------------------------------------------------------ real sockets

/// A server on a free port of 127.0.0.1: its address, its state and what stops it.
struct Running {
    addr: std::net::SocketAddr,
    state: AppState,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<std::io::Result<()>>,
    _dir: tempfile::TempDir,
}

async fn running(limits: Limits) -> Running {
    let (store, dir) = sqlite_store().await;
    let state = AppState::with_settings(
        store,
        None,
        Settings {
            limits,
            ..Settings::default()
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let done = tokio::spawn(server::serve_on(listener, state.clone(), async move {
        let _ = stopped.await;
    }));
    Running {
        addr,
        state,
        stop: Some(stop),
        done,
        _dir: dir,
    }
}

impl Running {
    async fn shut(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        tokio::time::timeout(Duration::from_secs(10), self.done)
            .await
            .expect("the server stops")
            .expect("task")
            .expect("serve");
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

/// A client on its own loopback address (`127.0.0.2`: all of 127/8 is this machine).
fn client_from(ip: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(Some(ip.parse().expect("ip")))
        .build()
        .expect("client")
}

/// Create a hot-seat game and play `n` actions over HTTP.
async fn play_over_http(s: &Running, http: &reqwest::Client, n: usize) -> Value {
    let created: Value = http
        .post(s.url("/api/games"))
        .json(&hotseat(11))
        .send()
        .await
        .expect("create")
        .json()
        .await
        .expect("json");
    let id = created["game"].as_str().expect("id").to_string();
    for v in 0..n {
        let spec = created["spectator"].as_str().expect("spectator");
        let g: Value = http
            .get(s.url(&format!("/api/games/{id}?token={spec}")))
            .send()
            .await
            .expect("get")
            .json()
            .await
            .expect("json");
        let token = created["seats"][g["decider"].as_str().expect("decider")]
            .as_str()
            .expect("token")
            .to_string();
        let g: Value = http
            .get(s.url(&format!("/api/games/{id}?token={token}")))
            .send()
            .await
            .expect("get")
            .json()
            .await
            .expect("json");
        let action = g["legal"][0]["id"].as_str().expect("legal");
        let r = http
            .post(s.url(&format!("/api/games/{id}/actions")))
            .json(&json!({"token": token, "action": action, "version": v}))
            .send()
            .await
            .expect("act");
        assert_eq!(r.status(), 200);
    }
    created
}

/// Read until the peer closes; what was read, or the error.
async fn read_to_close(s: &mut tokio::net::TcpStream) -> std::io::Result<Vec<u8>> {
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        match s.read(&mut buf).await {
            Ok(0) => return Ok(got),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => return Err(e),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_never_finishes_its_head_is_closed_while_others_play() {
    let s = running(Limits {
        header_timeout: Duration::from_secs(1),
        ..Limits::default().without_rates()
    })
    .await;
    let mut slow = tokio::net::TcpStream::connect(s.addr)
        .await
        .expect("connect");
    slow.write_all(b"GET /api/scenarios HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .await
        .expect("write");
    let t0 = Instant::now();
    // Another client plays meanwhile, and a live-update stream (a request in progress, not a
    // head being read) outlives the timeout.
    let http = client_from("127.0.0.2");
    let created = play_over_http(&s, &http, 2).await;
    let mut stream = http
        .get(s.url(&format!(
            "/api/games/{}/events?token={}",
            created["game"].as_str().expect("id"),
            created["spectator"].as_str().expect("spectator")
        )))
        .send()
        .await
        .expect("events");
    assert!(stream.chunk().await.expect("chunk").is_some());
    let closed = tokio::time::timeout(Duration::from_secs(5), read_to_close(&mut slow))
        .await
        .expect("the half-sent head is cut off within 5 s");
    let took = t0.elapsed();
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(4),
        "closed after {took:?}"
    );
    if let Ok(got) = closed {
        assert!(
            !String::from_utf8_lossy(&got).contains("200 OK"),
            "no answer to a head never finished"
        );
    }
    tokio::time::sleep(Duration::from_millis(600)).await;
    play_over_http(&s, &http, 1).await;
    // The stream is still open past the timeout: the next version reaches it.
    let id = created["game"].as_str().expect("id");
    let token = created["seats"]["French"].as_str().expect("token");
    let g: Value = http
        .get(s.url(&format!("/api/games/{id}?token={token}")))
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    if g["decider"] == "French" {
        let action = g["legal"][0]["id"].as_str().expect("legal");
        let r = http
            .post(s.url(&format!("/api/games/{id}/actions")))
            .json(&json!({"token": token, "action": action, "version": 2}))
            .send()
            .await
            .expect("act");
        assert_eq!(r.status(), 200);
        let chunk = tokio::time::timeout(Duration::from_secs(5), stream.chunk())
            .await
            .expect("an event")
            .expect("chunk")
            .expect("open");
        assert!(String::from_utf8_lossy(&chunk).contains("version"));
    }
    drop(stream);
    s.shut().await;
}

/// Open a live-update stream on a raw connection from `ip`; the connection, once its answer's
/// head has come.
async fn open_stream(s: &Running, ip: &str, created: &Value) -> tokio::net::TcpStream {
    let sock = tokio::net::TcpSocket::new_v4().expect("socket");
    sock.bind(format!("{ip}:0").parse().expect("addr"))
        .expect("bind");
    let mut c = sock.connect(s.addr).await.expect("connect");
    let req = format!(
        "GET /api/games/{}/events?token={} HTTP/1.1\r\nHost: x\r\n\r\n",
        created["game"].as_str().expect("id"),
        created["spectator"].as_str().expect("spectator")
    );
    c.write_all(req.as_bytes()).await.expect("write");
    let mut buf = [0u8; 512];
    let n = tokio::time::timeout(Duration::from_secs(5), c.read(&mut buf))
        .await
        .expect("an answer")
        .expect("read");
    assert!(
        String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&buf[..n])
    );
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_over_its_connection_cap_is_refused_while_another_connects() {
    let s = running(Limits {
        max_connections_per_client: 3,
        ..Limits::default().without_rates()
    })
    .await;
    let other = client_from("127.0.0.2");
    let created = play_over_http(&s, &other, 1).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(open_stream(&s, "127.0.0.3", &created).await);
    }
    // A fourth connection from the same address: a 429, and closed.
    let sock = tokio::net::TcpSocket::new_v4().expect("socket");
    sock.bind("127.0.0.3:0".parse().expect("addr"))
        .expect("bind");
    let mut fourth = sock.connect(s.addr).await.expect("connect");
    let _ = fourth
        .write_all(b"GET /api/scenarios HTTP/1.1\r\nHost: x\r\n\r\n")
        .await;
    let got = tokio::time::timeout(Duration::from_secs(5), read_to_close(&mut fourth))
        .await
        .expect("closed at once");
    if let Ok(got) = got {
        let text = String::from_utf8_lossy(&got);
        assert!(text.starts_with("HTTP/1.1 429"), "{text}");
        assert!(text.contains("Retry-After: 1"), "{text}");
    }
    // Another address connects and plays meanwhile.
    play_over_http(&s, &other, 2).await;
    // Closing one stream makes room for one more.
    drop(held.pop());
    let t0 = Instant::now();
    loop {
        let sock = tokio::net::TcpSocket::new_v4().expect("socket");
        sock.bind("127.0.0.3:0".parse().expect("addr"))
            .expect("bind");
        let mut c = sock.connect(s.addr).await.expect("connect");
        c.write_all(b"GET /api/scenarios HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .expect("write");
        let got = read_to_close(&mut c).await.unwrap_or_default();
        if String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(5),
            "the closed stream's place is given back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(held);
    s.shut().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_server_expires_abandoned_games_by_itself() {
    let s = running(Limits {
        expire_after: Some(Duration::from_secs(1)),
        expire_every: Duration::from_millis(300),
        ..Limits::default().without_rates()
    })
    .await;
    let http = client_from("127.0.0.2");
    let abandoned = play_over_http(&s, &http, 1).await;
    let id = abandoned["game"].as_str().expect("id").to_string();
    let spec = abandoned["spectator"]
        .as_str()
        .expect("spectator")
        .to_string();
    let t0 = Instant::now();
    loop {
        let status = http
            .get(s.url(&format!("/api/games/{id}?token={spec}")))
            .send()
            .await
            .expect("get")
            .status();
        if status == 404 {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "the abandoned game is deleted within seconds"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(s.state.store().load(&id).await.expect("load").is_none());
    // A game being played is not.
    let played = play_over_http(&s, &http, 1).await;
    let pid = played["game"].as_str().expect("id");
    assert!(s.state.store().load(pid).await.expect("load").is_some());
    s.shut().await;
}
