//! Issue 13, "Several servers on one database": two servers (two `AppState`s over two stores
//! connected to one PostgreSQL database) serve the same games. An action accepted by one reaches
//! the live viewers of the other within a second (`LISTEN/NOTIFY`); two submissions of one
//! decision to the two servers: exactly one applied, the other 409; neither answers from a stale
//! copy after the other wrote.

mod common;

use axum::http::StatusCode;
use common::{Api, Created, Rng, pg::Postgres};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Barrier;
use tower::ServiceExt;

/// Two servers over one database, each listening for the other's writes.
async fn two(pg: &Postgres) -> (Arc<Api>, Arc<Api>) {
    let a = Api::over(server::connect(&pg.url).await.expect("connect A"));
    let b = Api::over(server::connect(&pg.url).await.expect("connect B"));
    for api in [&a, &b] {
        assert!(api.state.hub().is_shared());
        let t = tokio::time::Instant::now();
        while !api.state.hub().notified() {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "no LISTEN after 10 s"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    (Arc::new(a), Arc::new(b))
}

/// The seat that decides and its token, and the game's version and first legal action, as a
/// server answers.
async fn turn(api: &Api, c: &Created) -> (String, u64, Vec<String>) {
    let g = api.game(c, c.any_token()).await;
    let decider = g["decider"].as_str().expect("decider").to_string();
    let token = c.seat(&decider).expect("token").to_string();
    let g = api.game(c, &token).await;
    let legal = g["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .map(|l| l["id"].as_str().expect("id").to_string())
        .collect();
    (token, g["version"].as_u64().expect("version"), legal)
}

/// The next `version` event of a live-update stream, within `within`.
async fn next_version(body: &mut axum::body::Body, within: Duration) -> u64 {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let f = tokio::time::timeout_at(deadline, body.frame())
            .await
            .unwrap_or_else(|_| panic!("no live update within {within:?}"))
            .expect("stream open")
            .expect("frame");
        if let Ok(data) = f.into_data() {
            let s = String::from_utf8_lossy(&data).into_owned();
            if let Some(rest) = s.split("data: {\"version\":").nth(1) {
                return rest
                    .split('}')
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("a version");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_servers_action_through_a_reaches_live_viewer_on_b_within_a_second() {
    let pg = Postgres::start();
    let (a, b) = two(&pg).await;
    let c = a
        .create(json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": 13}))
        .await;
    // A spectator watches through B.
    let req = axum::http::Request::builder()
        .uri(format!("/api/games/{}/events?token={}", c.id, c.spectator))
        .body(axum::body::Body::empty())
        .expect("request");
    let res = b.app.clone().oneshot(req).await.expect("infallible");
    assert_eq!(res.status(), StatusCode::OK);
    let mut body = res.into_body();
    assert_eq!(next_version(&mut body, Duration::from_secs(5)).await, 0);
    let mut rng = Rng::new(13);
    for v in 1..=5u64 {
        a.play_one(&c, &mut rng).await.expect("goes on");
        assert_eq!(next_version(&mut body, Duration::from_secs(1)).await, v);
        // And B answers the new version, the same game as A's.
        let on_b = b.game(&c, &c.spectator).await;
        let on_a = a.game(&c, &c.spectator).await;
        assert_eq!(on_b["version"], json!(v));
        assert_eq!(on_b, on_a);
    }
    // B brought its copy up to date (it did not answer from the copy it loaded at version 0).
    assert!(
        b.state.hub().caught_up() >= 5,
        "{}",
        b.state.hub().caught_up()
    );
    drop(pg);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_servers_one_decision_submitted_to_both_one_applied() {
    let pg = Postgres::start();
    let (a, b) = two(&pg).await;
    let c = a
        .create(json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": 21}))
        .await;
    let mut rng = Rng::new(21);
    for round in 0..20u64 {
        // Both servers hold the game at this version.
        let (token, version, legal) = turn(&a, &c).await;
        assert_eq!(turn(&b, &c).await.1, version);
        assert_eq!(version, round);
        let pick = |rng: &mut Rng| legal[rng.below(legal.len())].clone();
        let barrier = Arc::new(Barrier::new(2));
        let mut tasks = Vec::new();
        for (api, action) in [(a.clone(), pick(&mut rng)), (b.clone(), pick(&mut rng))] {
            let (c, token, barrier) = (c.clone(), token.clone(), barrier.clone());
            tasks.push(tokio::spawn(async move {
                barrier.wait().await;
                api.act(&c, &token, &action, version).await
            }));
        }
        let mut statuses = Vec::new();
        for t in tasks {
            let r = t.await.expect("task");
            assert!(
                matches!(r.status, StatusCode::OK | StatusCode::CONFLICT),
                "{}: {}",
                r.status,
                r.body
            );
            statuses.push(r.status);
        }
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::CONFLICT],
            "round {round}"
        );
        // One action stored, and both servers answer the game after it.
        let (_, stored) = a
            .state
            .store()
            .load(&c.id)
            .await
            .expect("load")
            .expect("game");
        assert_eq!(stored.len() as u64, version + 1);
        let (on_a, on_b) = (
            a.game(&c, &c.spectator).await,
            b.game(&c, &c.spectator).await,
        );
        assert_eq!(on_a["version"], json!(version + 1));
        assert_eq!(on_a, on_b, "round {round}");
    }
    drop(pg);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_servers_never_answer_stale_after_the_other_wrote() {
    let pg = Postgres::start();
    let (a, b) = two(&pg).await;
    let c = a
        .create(json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": 34}))
        .await;
    let mut rng = Rng::new(34);
    // Each action through one server, the next read and action at once through the other: no
    // wait for the notification. Every answer is the latest version.
    for v in 0..40u64 {
        let (here, there) = if v % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let (token, version, legal) = turn(here, &c).await;
        assert_eq!(version, v, "stale answer at {v}");
        let action = &legal[rng.below(legal.len())];
        let r = here.act(&c, &token, action, version).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        let seen: Value = there.game(&c, &c.spectator).await;
        assert_eq!(seen["version"], json!(v + 1), "stale answer after {v}");
        // The replay and the log agree too.
        let r = there
            .get(&format!("/api/games/{}/replay?token={}", c.id, c.spectator))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        assert_eq!(r.json()["total"], json!(v + 1));
    }
    // A friend game's invitation claimed through A: B knows the new seat at once.
    let f = a
        .create_raw(json!({"scenario": "hastenbeck", "mode": "friend"}))
        .await;
    let g = b
        .get(&format!("/api/games/{}?token={}", f.id, f.spectator))
        .await;
    assert_eq!(g.status, StatusCode::OK, "{}", g.body);
    let inv = f.raw["invitation"]["token"].as_str().expect("invitation");
    let r = a
        .post(
            &format!("/api/games/{}/claim", f.id),
            &json!({ "invitation": inv }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let token = r.json()["token"].as_str().expect("token").to_string();
    let g = b.get(&format!("/api/games/{}?token={token}", f.id)).await;
    assert_eq!(g.status, StatusCode::OK, "{}", g.body);
    // A second claim through B is refused.
    let r = b
        .post(
            &format!("/api/games/{}/claim", f.id),
            &json!({ "invitation": inv }),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    drop(pg);
}

/// Three actions through A: B's next answer brings its copy up to date once (the new actions
/// applied to the copy it holds), and is A's game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_servers_copy_catches_up_in_one_step() {
    let pg = Postgres::start();
    let (a, b) = two(&pg).await;
    let c = a
        .create(json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": 55}))
        .await;
    assert_eq!(b.game(&c, &c.spectator).await["version"], json!(0));
    let before = b.state.hub().caught_up();
    let mut rng = Rng::new(55);
    for _ in 0..3 {
        a.play_one(&c, &mut rng).await.expect("goes on");
    }
    assert_eq!(b.game(&c, &c.spectator).await["version"], json!(3));
    assert_eq!(b.state.hub().caught_up(), before + 1);
    assert_eq!(
        b.game(&c, &c.spectator).await,
        a.game(&c, &c.spectator).await
    );
    drop(pg);
}
