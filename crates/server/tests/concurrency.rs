//! Two submissions for the same decision at the same time: exactly one is applied, the other
//! gets 409 with a clear reason; the store holds one action per decision.

mod common;

use axum::http::StatusCode;
use common::{Api, Rng, pg::Postgres};
use serde_json::json;
use std::sync::Arc;
use tokio::sync::Barrier;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_submissions_for_one_decision_one_wins() {
    one_wins(Arc::new(Api::sqlite().await)).await;
}

/// The same race over PostgreSQL (a throwaway server the test starts itself).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_submissions_for_one_decision_one_wins_postgres() {
    let pg = Postgres::start();
    let store = server::connect(&pg.url)
        .await
        .expect("connect to PostgreSQL");
    one_wins(Arc::new(Api::over(store))).await;
    drop(pg);
}

async fn one_wins(api: Arc<Api>) {
    let c = api
        .create(json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": 17}))
        .await;
    let mut rng = Rng::new(17);
    let rounds = 30;
    for round in 0..rounds {
        let g = api.game(&c, c.any_token()).await;
        let decider = g["decider"].as_str().expect("decider").to_string();
        let token = c.seat(&decider).expect("token").to_string();
        let g = api.game(&c, &token).await;
        let version = g["version"].as_u64().expect("version");
        assert_eq!(version, round);
        let legal = g["legal"].as_array().expect("legal").clone();
        // Two different choices when there are two, else the same one twice.
        let a = legal[rng.below(legal.len())]["id"]
            .as_str()
            .expect("id")
            .to_string();
        let b = legal[rng.below(legal.len())]["id"]
            .as_str()
            .expect("id")
            .to_string();
        let barrier = Arc::new(Barrier::new(2));
        let mut tasks = Vec::new();
        for action in [a, b] {
            let (api, c, token, barrier) = (api.clone(), c.clone(), token.clone(), barrier.clone());
            tasks.push(tokio::spawn(async move {
                barrier.wait().await;
                let r = api.act(&c, &token, &action, version).await;
                (action, r)
            }));
        }
        let mut ok = Vec::new();
        let mut refused = Vec::new();
        for t in tasks {
            let (action, r) = t.await.expect("task");
            match r.status {
                StatusCode::OK => ok.push(action),
                StatusCode::CONFLICT => {
                    assert!(r.error().contains("stale version"), "{}", r.body);
                    refused.push(action);
                }
                s => panic!("unexpected {s}: {}", r.body),
            }
        }
        assert_eq!((ok.len(), refused.len()), (1, 1), "round {round}");
        let (_, stored) = api
            .state
            .store()
            .load(&c.id)
            .await
            .expect("load")
            .expect("stored");
        assert_eq!(stored.len() as u64, version + 1);
        assert_eq!(stored.last(), ok.first());
    }
    assert_eq!(api.game(&c, &c.spectator).await["version"], rounds);
}

/// Two servers on one database (each with its own cache) racing for one decision: the store's
/// primary key lets one through; the other answers 409 and rebuilds the game from the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_file_cannot_both_take_a_decision() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let one = Api::over(server::connect(&url).await.expect("open"));
    let two = Api::over(server::connect(&url).await.expect("open"));
    let c = one
        .create(json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": 2}))
        .await;
    let f = c.french.clone().expect("F");
    // Both servers have the game in memory at version 0.
    let g1 = one.game(&c, &f).await;
    let g2 = two.game(&c, &f).await;
    assert_eq!(g1, g2);
    let legal = g1["legal"].as_array().expect("legal");
    let a = legal[0]["id"].as_str().expect("id");
    let b = legal[legal.len() - 1]["id"].as_str().expect("id");
    assert_eq!(one.act(&c, &f, a, 0).await.status, StatusCode::OK);
    let r = two.act(&c, &f, b, 0).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    // The second server now tells the truth.
    assert_eq!(two.game(&c, &f).await["version"], 1);
    assert_eq!(
        two.game(&c, &f).await["view"],
        one.game(&c, &f).await["view"]
    );
}
