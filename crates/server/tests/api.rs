//! The HTTP API in process (`tower::ServiceExt::oneshot` on `server::app`): every route, every
//! mode, and every refusal — a 4xx with a short reason, and nothing changed.

mod common;

use axum::http::header::CACHE_CONTROL;
use axum::http::{Method, StatusCode};
use common::{Api, Created, Rng};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

async fn hotseat(api: &Api, seed: u64) -> Created {
    api.create(json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": seed}))
        .await
}

/// The number of actions the store holds for a game.
async fn stored(api: &Api, id: &str) -> usize {
    api.state
        .store()
        .load(id)
        .await
        .expect("load")
        .expect("stored")
        .1
        .len()
}

#[tokio::test]
async fn the_page_and_its_files() {
    let api = Api::sqlite().await;
    for (uri, ty) in [
        ("/", "text/html"),
        ("/play/abc", "text/html"),
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let r = api.get(uri).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}");
        assert!(r.content_type.starts_with(ty), "{uri}: {}", r.content_type);
    }
    assert!(api.get("/").await.body.contains("<html"));
}

/// Issue 19.9: the page is ES modules. Every module `/app.js` imports, and each ruleset's drawing
/// module (loaded by id), is served as a script, never cached stale; and the page loads `/app.js`
/// as a module.
#[tokio::test]
async fn every_module_of_the_page_is_served() {
    let api = Api::sqlite().await;
    assert!(
        api.get("/")
            .await
            .body
            .contains(r#"<script type="module" src="/app.js">"#)
    );
    let mut todo = vec![
        "/app.js".to_string(),
        "/js/rulesets/saxe.js".to_string(),
        "/js/rulesets/minis.js".to_string(),
    ];
    let mut seen = std::collections::BTreeSet::new();
    while let Some(path) = todo.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let r = api.get(&path).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        assert!(
            r.content_type.starts_with("text/javascript"),
            "{path}: {}",
            r.content_type
        );
        assert_eq!(r.headers[CACHE_CONTROL], "no-cache", "{path}");
        let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        for line in r.body.lines().filter(|l| l.starts_with("import ")) {
            let Some(from) = line.split('\'').nth(1) else {
                continue;
            };
            let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
            for p in from.split('/') {
                match p {
                    "." => {}
                    ".." => {
                        parts.pop();
                    }
                    p => parts.push(p),
                }
            }
            todo.push(format!("/{}", parts.join("/")));
        }
    }
    assert!(seen.len() > 10, "{seen:?}");
    assert_eq!(
        api.get("/js/nothing.js").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn scenarios_and_boards() {
    let api = Api::sqlite().await;
    let list = api.get("/api/scenarios").await.json();
    let ids: Vec<&str> = list
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|s| s["id"].as_str())
        .collect();
    assert!(ids.contains(&"hastenbeck") && ids.contains(&"hastenbeck-free"));
    assert_eq!(list[0]["ruleset"], "saxe");
    let board = api.get("/api/scenarios/hastenbeck/board").await;
    assert_eq!(board.status, StatusCode::OK);
    let b = board.json();
    assert!(b["map"]["hexes"].as_array().is_some_and(|h| h.len() > 100));
    // Issue 19.4: the game's tables, read-only, each row with its provenance (a reconstructed CRT
    // row says so).
    let crt = b["tables"]["crt"]["rows"].as_array().expect("the CRT");
    assert!(crt.iter().any(|r| r["reconstructed"].is_string()));
    assert!(crt.iter().any(|r| r["source"] == "printed"));
    assert!(
        b["tables"]["terrain"]
            .as_array()
            .is_some_and(|t| t.len() >= 4)
    );
    // Cached: the same bytes the second time.
    assert_eq!(
        api.get("/api/scenarios/hastenbeck/board").await.body,
        board.body
    );
    let r = api.get("/api/scenarios/atlantis/board").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.error().contains("atlantis"));
}

#[tokio::test]
async fn a_hotseat_game_is_played_by_both_links_and_watched() {
    let api = Api::sqlite().await;
    let c = hotseat(&api, 3).await;
    assert!(c.french.is_some() && c.allies.is_some());
    assert_eq!(c.raw["mode"], "hotseat");
    assert_eq!(c.raw["version"], 0);
    for k in ["French", "Allies", "spectator"] {
        let link = c.raw["links"][k].as_str().expect("link");
        assert!(
            link.starts_with(&format!("/play/{}?token=", c.id)),
            "{link}"
        );
    }
    // Three different capabilities, none guessable from another.
    let toks = [
        c.french.clone(),
        c.allies.clone(),
        Some(c.spectator.clone()),
    ];
    assert!(toks[0] != toks[1] && toks[1] != toks[2] && toks[0] != toks[2]);

    let f = api.game(&c, c.french.as_deref().expect("French")).await;
    assert_eq!(f["seat"], "French");
    assert_eq!(f["decider"], "French");
    assert_eq!(f["version"], 0);
    assert!(!f["legal"].as_array().expect("legal").is_empty());
    assert!(f["legal"][0]["id"].is_string() && f["legal"][0]["label"].is_string());
    assert!(f["log"].as_array().is_some_and(|l| !l.is_empty()));
    assert!(f["decision"].is_string());
    assert_eq!(f["outcome"], Value::Null);
    let a = api.game(&c, c.allies.as_deref().expect("Allies")).await;
    assert_eq!(a["seat"], "Allies");
    assert_eq!(a["legal"], json!([]), "only the decider gets legal actions");
    let s = api.game(&c, &c.spectator).await;
    assert_eq!(s["seat"], Value::Null);
    assert_eq!(s["legal"], json!([]));

    let mut rng = Rng::new(1);
    for i in 1..=40u64 {
        let (_, answer) = api.play_one(&c, &mut rng).await.expect("goes on");
        assert_eq!(answer["version"], i);
        assert!(answer["events"].is_array());
    }
    assert_eq!(stored(&api, &c.id).await, 40);
    assert_eq!(api.game(&c, &c.spectator).await["version"], 40);
}

#[tokio::test]
async fn against_the_ai_the_server_answers_every_move() {
    let api = Api::sqlite().await;
    // The person plays the French, who move first: no agent move yet.
    let c = api
        .create(json!({"scenario": "hastenbeck", "mode": "ai", "human": "French"}))
        .await;
    assert!(c.french.is_some() && c.allies.is_none(), "{}", c.raw);
    assert_eq!(c.raw["ai_seat"], "Allies");
    let mut rng = Rng::new(9);
    let mut version = 0;
    // The dice of a game against the computer are the server's (unseeded), so how many French
    // decisions come before the Allies' first one varies: play until the agent has answered
    // (the version passes the person's own count), within a bound no game comes near.
    let mut mine = 0u64;
    for _ in 0..400 {
        let Some((_, answer)) = api.play_one(&c, &mut rng).await else {
            break;
        };
        mine += 1;
        let v = answer["version"].as_u64().expect("version");
        assert!(v > version);
        version = v;
        // The agent played until the person decides (or the game ended).
        assert!(
            answer["decider"] == "French" || answer["decider"].is_null(),
            "{answer}"
        );
        if version > mine && mine >= 60 {
            break;
        }
    }
    assert!(
        version > mine,
        "the agent moved too: version {version} after {mine} moves of the person"
    );
    assert_eq!(stored(&api, &c.id).await as u64, version);

    // The person plays the Allies: the agent (French) opens before the answer.
    let c = api
        .create(json!({"scenario": "hastenbeck", "mode": "ai", "human": "allies"}))
        .await;
    assert!(c.french.is_none() && c.allies.is_some());
    assert_eq!(c.raw["ai_seat"], "French");
    let g = api.game(&c, c.allies.as_deref().expect("Allies")).await;
    assert_eq!(g["decider"], "Allies");
    assert!(g["version"].as_u64().expect("v") > 0);
    assert_eq!(g["mode"], "ai");
    assert_eq!(g["ai_seat"], "French");
    assert_eq!(
        stored(&api, &c.id).await as u64,
        g["version"].as_u64().expect("v")
    );
}

/// Issue 20: the level chosen at creation plays the computer's seat and is kept with the game:
/// `easy` is the heuristic, whose explanations carry no search figures ("best of 4 plans"), which
/// the default level's do.
#[tokio::test]
async fn the_computer_plays_at_the_level_chosen_for_the_game() {
    let api = Api::sqlite().await;
    let mut searched = Vec::new();
    for level in ["easy", "normal"] {
        let c = api
            .create(json!({"scenario": "hastenbeck", "mode": "ai", "human": "Allies", "ai_level": level}))
            .await;
        assert_eq!(c.raw["ai_level"], level, "{}", c.raw);
        let g = api.game(&c, &c.spectator).await;
        let lines: Vec<String> = g["log"]
            .as_array()
            .expect("log")
            .iter()
            .filter_map(|l| l.as_str())
            .filter(|l| l.contains("(computer): "))
            .map(String::from)
            .collect();
        assert!(!lines.is_empty(), "{level}: the computer opened");
        searched.push(lines.iter().any(|l| l.contains("best of")));
    }
    assert_eq!(searched, [false, true]);
}

#[tokio::test]
async fn friend_games_take_no_seed_and_both_seats_play_once_the_invitation_is_claimed() {
    let api = Api::sqlite().await;
    let c = api
        .create(json!({"scenario": "hastenbeck-free", "mode": "friend"}))
        .await;
    assert!(c.french.is_some() && c.allies.is_some());
    let r = api
        .post(
            "/api/games",
            &json!({"scenario": "hastenbeck", "mode": "friend", "seed": 1}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.error().contains("seed"));
}

/// Issue 13: the links are built on the configured public URL, never on the `Host` the request
/// names (which the client chooses); relative without one.
#[tokio::test]
async fn links_use_the_public_url_not_the_host() {
    async fn link_of(api: &Api) -> String {
        let req = axum::http::Request::builder()
            .method(Method::POST)
            .uri("/api/games")
            .header("host", "evil.example")
            .header("content-type", "application/json")
            .body(axum::body::Body::from(
                json!({"scenario": "hastenbeck", "mode": "hotseat"}).to_string(),
            ))
            .expect("request");
        let res = api.app.clone().oneshot(req).await.expect("infallible");
        assert_eq!(res.status(), StatusCode::CREATED);
        let body = res.into_body().collect().await.expect("body").to_bytes();
        let v: Value = serde_json::from_slice(&body).expect("json");
        v["links"]["French"].as_str().expect("link").to_string()
    }
    let api = Api::sqlite().await;
    let link = link_of(&api).await;
    assert!(link.starts_with("/play/"), "{link}");
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let api = Api::with(
        server::connect(&url).await.expect("open"),
        server::Settings {
            public_url: Some("https://games.example.org/".into()),
            ..server::Settings::default()
        },
    );
    let link = link_of(&api).await;
    assert!(
        link.starts_with("https://games.example.org/play/"),
        "{link}"
    );
}

/// Every refusal: the status, a short reason, and the game exactly as it was.
#[tokio::test]
async fn refusals_are_4xx_with_a_reason_and_change_nothing() {
    refusals(Api::sqlite().await).await;
}

/// The same refusals with the games in PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_4xx_with_a_reason_and_change_nothing_postgres() {
    let pg = common::pg::Postgres::start();
    let store = server::connect(&pg.url)
        .await
        .expect("connect to PostgreSQL");
    refusals(Api::over(store)).await;
    drop(pg);
}

async fn refusals(api: Api) {
    let c = hotseat(&api, 8).await;
    let (f, a) = (
        c.french.clone().expect("French"),
        c.allies.clone().expect("Allies"),
    );
    let mut rng = Rng::new(2);
    api.play_one(&c, &mut rng).await.expect("goes on");
    let before = api.game(&c, &c.spectator).await;
    let v = before["version"].as_u64().expect("version");
    let decider = before["decider"].as_str().expect("decider").to_string();
    let (mine, theirs) = if decider == "French" {
        (f.clone(), a.clone())
    } else {
        (a.clone(), f.clone())
    };
    let legal = api.game(&c, &mine).await["legal"][0]["id"]
        .as_str()
        .expect("a legal id")
        .to_string();
    let acts = format!("/api/games/{}/actions", c.id);

    let cases: Vec<(StatusCode, &str, Option<String>, &str)> = vec![
        // (status, method+uri marker, raw body, words the reason must contain)
        (
            StatusCode::BAD_REQUEST,
            "post",
            Some("{\"token\":".into()),
            "malformed JSON",
        ),
        (
            StatusCode::BAD_REQUEST,
            "post",
            Some("[1,2]".into()),
            "malformed JSON",
        ),
        (
            StatusCode::BAD_REQUEST,
            "post",
            Some(json!({"token": mine, "action": legal}).to_string()),
            "version",
        ),
        (
            StatusCode::BAD_REQUEST,
            "post",
            Some(json!({"token": mine, "action": legal, "version": "one"}).to_string()),
            "malformed JSON",
        ),
        (
            StatusCode::FORBIDDEN,
            "post",
            Some(
                json!({"token": "AAAAAAAAAAAAAAAAAAAAAA", "action": legal, "version": v})
                    .to_string(),
            ),
            "unknown token",
        ),
        (
            StatusCode::FORBIDDEN,
            "post",
            Some(json!({"token": "", "action": legal, "version": v}).to_string()),
            "token",
        ),
        (
            StatusCode::FORBIDDEN,
            "post",
            Some(json!({"token": c.spectator, "action": legal, "version": v}).to_string()),
            "spectators",
        ),
        (
            StatusCode::FORBIDDEN,
            "post",
            Some(json!({"token": theirs, "action": legal, "version": v}).to_string()),
            "decide now",
        ),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "post",
            Some(json!({"token": mine, "action": "fly:to-the-moon", "version": v}).to_string()),
            "not a legal action",
        ),
        (
            StatusCode::CONFLICT,
            "post",
            Some(json!({"token": mine, "action": legal, "version": v - 1}).to_string()),
            "stale version",
        ),
        (
            StatusCode::CONFLICT,
            "post",
            Some(json!({"token": mine, "action": legal, "version": v + 5}).to_string()),
            "stale version",
        ),
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            "post",
            Some(format!(
                "{{\"token\":\"{mine}\",\"action\":\"{}\",\"version\":{v}}}",
                "x".repeat(70_000)
            )),
            "too large",
        ),
    ];
    for (status, _, body, words) in &cases {
        let r = api.request(Method::POST, &acts, body.clone()).await;
        assert_eq!(r.status, *status, "{body:?}: {}", r.body);
        assert!(r.content_type.starts_with("application/json"), "{}", r.body);
        let reason = r.error();
        assert!(reason.contains(words), "{words:?} not in {reason:?}");
        assert!(reason.len() < 200, "short reason: {reason}");
    }

    // Unknown game, unknown token, no token, bad query, unknown route or method.
    let gets: Vec<(String, StatusCode)> = vec![
        (
            format!("/api/games/nosuchgame?token={f}"),
            StatusCode::NOT_FOUND,
        ),
        (
            format!("/api/games/{}?token=nope", c.id),
            StatusCode::FORBIDDEN,
        ),
        (format!("/api/games/{}", c.id), StatusCode::FORBIDDEN),
        (
            format!("/api/games/{}/events?token=nope", c.id),
            StatusCode::FORBIDDEN,
        ),
        (
            format!("/api/games/{}/record?token=nope", c.id),
            StatusCode::FORBIDDEN,
        ),
        (
            format!("/api/games/{}/replay?token=nope", c.id),
            StatusCode::FORBIDDEN,
        ),
        (
            format!("/api/games/{}/replay?token={f}&upto=99999", c.id),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/games/{}/replay?token={f}&upto=-1", c.id),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games/x%2Fy?token=t".to_string(),
            StatusCode::NOT_FOUND,
        ),
        ("/api/nothing".to_string(), StatusCode::NOT_FOUND),
    ];
    for (uri, status) in gets {
        let r = api.get(&uri).await;
        assert_eq!(r.status, status, "{uri}: {}", r.body);
        assert!(!r.error().is_empty());
    }
    let r = api
        .post(
            "/api/games/nosuchgame/actions",
            &json!({"token": f, "action": legal, "version": v}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = api.request(Method::DELETE, "/api/games", None).await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(!r.error().is_empty());

    // Bad creations.
    for (body, words) in [
        (
            json!({"scenario": "atlantis", "mode": "hotseat"}),
            "atlantis",
        ),
        (json!({"scenario": "hastenbeck", "mode": "solo"}), "mode"),
        (json!({"scenario": "hastenbeck"}), "mode"),
        (
            json!({"scenario": "hastenbeck", "mode": "hotseat", "options": ["gunpowder"]}),
            "gunpowder",
        ),
        (
            json!({"scenario": "hastenbeck", "mode": "ai", "human": "Prussians"}),
            "Prussians",
        ),
        (
            json!({"scenario": "hastenbeck", "mode": "ai", "ai_level": "grandmaster"}),
            "grandmaster",
        ),
        (
            json!({"scenario": "hastenbeck", "mode": "hotseat", "ai_level": "easy"}),
            "ai_level",
        ),
        (
            json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": -3}),
            "malformed JSON",
        ),
    ] {
        let r = api.post("/api/games", &body).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}: {}", r.body);
        assert!(r.error().contains(words), "{words}: {}", r.body);
    }

    // Nothing changed.
    let after = api.game(&c, &c.spectator).await;
    assert_eq!(after, before);
    assert_eq!(stored(&api, &c.id).await as u64, v);
    // And the right submission still works.
    let r = api.act(&c, &mine, &legal, v).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

#[tokio::test]
async fn live_updates_tell_every_version() {
    let api = Api::sqlite().await;
    let c = hotseat(&api, 5).await;
    let req = axum::http::Request::builder()
        .uri(format!("/api/games/{}/events?token={}", c.id, c.spectator))
        .body(axum::body::Body::empty())
        .expect("request");
    let res = api.app.clone().oneshot(req).await.expect("infallible");
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .expect("ascii")
            .starts_with("text/event-stream")
    );
    let mut body = res.into_body();
    let mut next_frame = async || -> String {
        loop {
            let f = tokio::time::timeout(std::time::Duration::from_secs(5), body.frame())
                .await
                .expect("an event within 5 s")
                .expect("stream open")
                .expect("frame");
            if let Ok(data) = f.into_data() {
                let s = String::from_utf8_lossy(&data).into_owned();
                if s.contains("event: version") {
                    return s;
                }
            }
        }
    };
    let first = next_frame().await;
    assert!(first.contains("data: {\"version\":0}"), "{first}");
    let mut rng = Rng::new(3);
    api.play_one(&c, &mut rng).await.expect("goes on");
    let second = next_frame().await;
    assert!(second.contains("data: {\"version\":1}"), "{second}");
    assert!(second.contains("id: 1"), "{second}");
    api.play_one(&c, &mut rng).await.expect("goes on");
    assert!(next_frame().await.contains("{\"version\":2}"));
    // At shutdown the stream ends, so connections can close.
    api.state.shutdown();
    let end = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        while let Some(f) = body.frame().await {
            f.expect("frame");
        }
    })
    .await;
    assert!(end.is_ok(), "the stream ends at shutdown");
}

#[tokio::test]
async fn export_import_and_replay() {
    let api = Api::sqlite().await;
    let c = hotseat(&api, 12).await;
    let f = c.french.clone().expect("French");
    let mut rng = Rng::new(4);
    let mut played = Vec::new();
    for _ in 0..30 {
        played.push(api.play_one(&c, &mut rng).await.expect("goes on").0);
    }
    let rec = api
        .get(&format!("/api/games/{}/record?token={f}", c.id))
        .await;
    assert_eq!(rec.status, StatusCode::OK, "{}", rec.body);
    let record = rec.json();
    assert_eq!(record["format"], "tricorne-game");
    assert_eq!(record["scenario"], "hastenbeck");
    assert_eq!(record["seed"], 12);
    assert_eq!(record["actions"], json!(played));
    // The spectators get no record of a game in play.
    let r = api
        .get(&format!("/api/games/{}/record?token={}", c.id, c.spectator))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    // Import: a new hot-seat game at the same point.
    let r = api.post("/api/import", &record).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let imported = Created::of(&r.json());
    assert_ne!(imported.id, c.id);
    assert_eq!(r.json()["version"], 30);
    let orig = api.game(&c, &c.spectator).await;
    let copy = api.game(&imported, &imported.spectator).await;
    assert_eq!(copy["view"], orig["view"]);
    assert_eq!(copy["log"], orig["log"]);
    assert_eq!(copy["mode"], "hotseat");
    assert_eq!(stored(&api, &imported.id).await, 30);
    api.play_one(&imported, &mut rng)
        .await
        .expect("the imported game goes on");

    // Records that do not replay, or are not records: 422 / 400, nothing stored.
    let games_before = api.state.store().game_ids().await.expect("ids").len();
    let mut bad = record.clone();
    bad["actions"][3] = json!("activate:nobody");
    let r = api.post("/api/import", &bad).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.error().contains("cannot be replayed"), "{}", r.body);
    let mut bad = record.clone();
    bad["seed"] = json!(13);
    let r = api.post("/api/import", &bad).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let mut bad = record.clone();
    bad["scenario"] = json!("atlantis");
    let r = api.post("/api/import", &bad).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let mut bad = record.clone();
    bad["format"] = json!("chess-pgn");
    assert_eq!(
        api.post("/api/import", &bad).await.status,
        StatusCode::BAD_REQUEST
    );
    let r = api
        .request(Method::POST, "/api/import", Some("not json".into()))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let mut huge = record.clone();
    huge["last_events"] = json!(vec!["x".repeat(1000); 1100]);
    let r = api.post("/api/import", &huge).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.error());
    assert_eq!(
        api.state.store().game_ids().await.expect("ids").len(),
        games_before
    );

    // Replay: the view after the first N actions.
    let r = api
        .get(&format!("/api/games/{}/replay?token={f}&upto=0", c.id))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let r0 = r.json();
    assert_eq!(r0["upto"], 0);
    assert_eq!(r0["total"], 30);
    assert_eq!(r0["action"], Value::Null);
    let r10 = api
        .get(&format!("/api/games/{}/replay?token={f}&upto=10", c.id))
        .await
        .json();
    assert_eq!(r10["action"], json!(played[9]));
    assert!(r10["view"].is_object());
    let now = api
        .get(&format!("/api/games/{}/replay?token={f}", c.id))
        .await
        .json();
    assert_eq!(now["upto"], 30);
    assert_eq!(now["view"], api.game(&c, &f).await["view"]);
}

#[tokio::test]
async fn records_of_games_in_play_are_kept_from_ai_and_friend_players() {
    let api = Api::sqlite().await;
    let ai = api
        .create(json!({"scenario": "hastenbeck", "mode": "ai"}))
        .await;
    let r = api
        .get(&format!(
            "/api/games/{}/record?token={}",
            ai.id,
            ai.french.as_deref().expect("French")
        ))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    let fr = api
        .create(json!({"scenario": "hastenbeck", "mode": "friend"}))
        .await;
    for t in [
        fr.french.as_deref(),
        fr.allies.as_deref(),
        Some(&fr.spectator),
    ] {
        let r = api
            .get(&format!(
                "/api/games/{}/record?token={}",
                fr.id,
                t.expect("token")
            ))
            .await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
        assert!(r.error().contains("over"));
    }

    // A finished game (played here by agents, imported): anyone holding a link gets the record.
    let (mut g, _) = catalog::open("hastenbeck", &[], None, 77).expect("opens");
    let mut agents = [
        ai::agent("random", 1).expect("agent"),
        ai::agent("random", 2).expect("agent"),
    ];
    let mut actions = Vec::new();
    while let Some(s) = g.decider() {
        let i = agents[usize::from(s.0)].choose(g.as_ref());
        actions.push(g.apply_index(i).expect("legal").0);
    }
    let rec = catalog::record(g.as_ref(), "hastenbeck", &[], 77, actions, Vec::new());
    let r = api
        .post("/api/import", &serde_json::to_value(&rec).expect("json"))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let done = Created::of(&r.json());
    let s = api.game(&done, &done.spectator).await;
    assert_eq!(s["decider"], Value::Null);
    assert!(s["outcome"]["level"].is_string(), "{}", s["outcome"]);
    let r = api
        .get(&format!(
            "/api/games/{}/record?token={}",
            done.id, done.spectator
        ))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["actions"], json!(rec.actions));
    // A finished game takes no more actions.
    let r = api
        .act(
            &done,
            done.french.as_deref().expect("French"),
            "pass",
            rec.actions.len() as u64,
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(r.error().contains("over"));
}

#[tokio::test]
async fn a_restarted_server_rebuilds_its_games_from_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let api = Api::over(server::connect(&url).await.expect("open"));
    let c = hotseat(&api, 31).await;
    let ai = api
        .create(json!({"scenario": "hastenbeck", "mode": "ai", "human": "Allies"}))
        .await;
    let mut rng = Rng::new(8);
    for _ in 0..20 {
        api.play_one(&c, &mut rng).await.expect("goes on");
        api.play_one(&ai, &mut rng).await.expect("goes on");
    }
    let before = api.game(&c, &c.spectator).await;
    let before_ai = without_explanations(api.game(&ai, &ai.spectator).await);
    assert!(
        api.game(&ai, &ai.spectator).await["log"]
            .as_array()
            .expect("log")
            .iter()
            .any(|l| l.as_str().is_some_and(|l| l.contains("(computer): "))),
        "the computer explains its choices"
    );
    drop(api);
    // The file keeps the tokens' digests only: a copy of it gives no link.
    let mut bytes = Vec::new();
    for e in std::fs::read_dir(dir.path()).expect("dir") {
        bytes.extend(std::fs::read(e.expect("entry").path()).expect("read"));
    }
    let tokens = [&c, &ai]
        .into_iter()
        .flat_map(|g| {
            [
                g.french.clone(),
                g.allies.clone(),
                Some(g.spectator.clone()),
            ]
        })
        .flatten()
        .collect::<Vec<_>>();
    assert_eq!(tokens.len(), 5);
    for t in &tokens {
        assert!(
            !bytes.windows(t.len()).any(|w| w == t.as_bytes()),
            "token {t} stored in clear"
        );
    }

    let api = Api::over(server::connect(&url).await.expect("reopen"));
    assert_eq!(api.state.hub().cached(), 0);
    assert_eq!(api.game(&c, &c.spectator).await, before);
    // The computer's explanations live in memory only: the record holds the actions, and the
    // rebuilt log has every event of them.
    assert_eq!(
        without_explanations(api.game(&ai, &ai.spectator).await),
        before_ai
    );
    api.play_one(&c, &mut rng).await.expect("goes on");
    api.play_one(&ai, &mut rng).await.expect("goes on");
}

#[tokio::test]
async fn idle_games_leave_memory_and_come_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let api = Api::with(
        server::connect(&url).await.expect("open"),
        server::Settings {
            cache_games: 3,
            limits: server::Limits::default().without_rates(),
            ..server::Settings::default()
        },
    );
    let mut games = Vec::new();
    let mut rng = Rng::new(6);
    for seed in 0..6 {
        let c = hotseat(&api, seed).await;
        api.play_one(&c, &mut rng).await.expect("goes on");
        games.push(c);
    }
    assert!(
        api.state.hub().cached() <= 3,
        "{}",
        api.state.hub().cached()
    );
    for c in &games {
        assert_eq!(api.game(c, &c.spectator).await["version"], 1);
        api.play_one(c, &mut rng).await.expect("goes on");
    }
    for c in &games {
        assert_eq!(api.game(c, &c.spectator).await["version"], 2);
    }
}

/// A game's JSON with the computer's explanation lines taken out of its log.
fn without_explanations(mut g: Value) -> Value {
    if let Some(log) = g["log"].as_array_mut() {
        log.retain(|l| !l.as_str().is_some_and(|l| l.contains("(computer): ")));
    }
    g
}

/// Issue 19.7: an imported game may continue against the computer (`POST /api/import?computer=SEAT`):
/// the record replays as before, the page gets the other seat's link only, and the computer plays
/// its seat — at once when it decides at the record's last action, and after each of the person's
/// decisions. An unknown seat is refused.
#[tokio::test]
async fn import_continues_against_the_computer() {
    let api = Api::sqlite().await;
    let c = hotseat(&api, 12).await;
    let f = c.french.clone().expect("French");
    let mut rng = Rng::new(4);
    for _ in 0..30 {
        api.play_one(&c, &mut rng).await.expect("goes on");
    }
    let record = api
        .get(&format!("/api/games/{}/record?token={f}", c.id))
        .await
        .json();
    let r = api.post("/api/import?computer=Prussia", &record).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    let r = api.post("/api/import?computer=Allies", &record).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let imported = Created::of(&r.json());
    assert!(imported.allies.is_none(), "no link for the computer's seat");
    let french = imported.french.clone().expect("the person's seat");
    let g = api.game(&imported, &french).await;
    assert_eq!(g["mode"], "ai");
    assert_eq!(g["ai_seat"], "Allies");
    // The computer never waits: the French decide (or the game is over).
    let v0 = g["version"].as_u64().expect("version");
    assert!(v0 >= 30);
    assert_eq!(stored(&api, &imported.id).await as u64, v0);
    assert!(
        g["decider"] == "French" || g["decider"].is_null(),
        "{}",
        g["decider"]
    );
    // The French play on until the computer has answered.
    let mut answered = false;
    for _ in 0..60 {
        let g = api.game(&imported, &french).await;
        if g["decider"] != "French" {
            break;
        }
        let legal = g["legal"].as_array().expect("legal").clone();
        let pick = legal[rng.below(legal.len())]["id"]
            .as_str()
            .expect("id")
            .to_string();
        let v = g["version"].as_u64().expect("version");
        let r = api.act(&imported, &french, &pick, v).await;
        assert_eq!(r.status, StatusCode::OK, "{pick}: {}", r.body);
        if r.json()["version"].as_u64().expect("version") > v + 1 {
            answered = true;
            break;
        }
    }
    assert!(answered, "the computer answered the French");
}

/// Issue 19.3, rule 9.3: a reaction fire carries its odds before it is declared, as attacks and
/// fire do (`legal[].odds`): the Artillery Table's modifiers and the result of each face.
#[tokio::test]
async fn r9_3_a_reaction_fire_carries_its_odds() {
    let api = Api::sqlite().await;
    for seed in 1..=8 {
        let c = hotseat(&api, seed).await;
        let mut rng = Rng::new(seed);
        for _ in 0..600 {
            let any = api.game(&c, c.any_token()).await;
            let Some(decider) = any["decider"].as_str() else {
                break;
            };
            let token = c.seat(decider).expect("a seat").to_string();
            let g = api.game(&c, &token).await;
            let legal = g["legal"].as_array().expect("legal").clone();
            if let Some(a) = legal.iter().find(|a| {
                a["id"]
                    .as_str()
                    .is_some_and(|id| id.starts_with("reaction-fire:"))
            }) {
                let o = &a["odds"];
                assert_eq!(o["kind"], "fire", "{a}");
                assert!(
                    o["rule"].as_str().is_some_and(|r| r.starts_with("9.3")),
                    "{a}"
                );
                assert_eq!(o["faces"].as_array().map(Vec::len), Some(6), "{a}");
                let faces: usize = o["results"]
                    .as_array()
                    .expect("results")
                    .iter()
                    .map(|r| r["faces"].as_array().map_or(0, Vec::len))
                    .sum();
                assert_eq!(faces, 6, "{a}");
                return;
            }
            api.play_one(&c, &mut rng).await;
        }
    }
    panic!("no reaction fire was offered in 8 games");
}
