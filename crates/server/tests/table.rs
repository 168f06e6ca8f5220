//! A ruleset without hexes through the same API (issue 6): the miniatures games (`minis-*`) are
//! listed with their sides, created against the computer, viewed and played; a refused
//! continuous move comes back as a 422 with the ruleset's reason.

mod common;

use axum::http::StatusCode;
use common::Api;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Create a game against the computer and add the person's client seed (the game starts); the
/// human seat's token and the creation answer.
async fn create_ai(api: &Api, scenario: &str, human: &str, seed: u64) -> (String, String, Value) {
    let r = api
        .post(
            "/api/games",
            &json!({"scenario": scenario, "mode": "ai", "human": human}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let c = r.json();
    let id = c["game"].as_str().expect("game id").to_string();
    let seats = c["seats"].as_object().expect("seats");
    assert_eq!(seats.len(), 1, "only the human seat gets a token: {c}");
    let token = seats
        .values()
        .next()
        .and_then(Value::as_str)
        .expect("token");
    let r = api
        .post(
            &format!("/api/games/{id}/seed"),
            &json!({"token": token, "client_seed": format!("table test {seed}")}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    (id, token.to_string(), c)
}

async fn game(api: &Api, id: &str, token: &str) -> Value {
    let r = api.get(&format!("/api/games/{id}?token={token}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.json()
}

async fn act(api: &Api, id: &str, token: &str, action: &str, version: u64) -> common::Resp {
    api.post(
        &format!("/api/games/{id}/actions"),
        &json!({"token": token, "action": action, "version": version}),
    )
    .await
}

#[tokio::test]
async fn scenarios_list_their_sides() {
    let api = Api::sqlite().await;
    let list = api.get("/api/scenarios").await.json();
    let find = |id: &str| {
        list.as_array()
            .and_then(|l| l.iter().find(|s| s["id"] == id))
            .cloned()
            .unwrap_or_else(|| panic!("{id} listed"))
    };
    assert_eq!(find("hastenbeck")["seats"], json!(["French", "Allies"]));
    assert_eq!(find("minis-encounter")["seats"], json!(["Blue", "Red"]));
    assert_eq!(find("minis-encounter")["ruleset"], "minis");
    assert!(find("minis-fontenoy")["seats"].is_array());
    // Built once: the same bytes again.
    assert_eq!(
        api.get("/api/scenarios").await.body,
        api.get("/api/scenarios").await.body
    );
    let b = api.get("/api/scenarios/minis-encounter/board").await.json();
    assert_eq!(b["kind"], "table");
}

#[tokio::test]
async fn a_table_game_is_played_against_the_computer() {
    let api = Api::sqlite().await;
    let (id, blue, c) = create_ai(&api, "minis-encounter", "blue", 5).await;
    assert_eq!(c["ai_seat"], "Red");
    let g = game(&api, &id, &blue).await;
    assert_eq!(g["ruleset"], "minis");
    assert_eq!(g["seat"], "Blue");
    assert_eq!(g["decider"], "Blue");
    assert_eq!(g["view"]["turn"], 1);
    assert!(g["view"]["units"].as_array().is_some_and(|u| u.len() > 20));
    let ids = |g: &Value| -> Vec<String> {
        g["legal"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|a| a["id"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    assert!(
        ids(&g).contains(&"sector:centre".to_string()),
        "{:?}",
        ids(&g)
    );
    let r = act(&api, &id, &blue, "sector:centre", 0).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);

    // A continuous move the menu does not list is refused with the ruleset's reason when it is
    // not valid, and nothing changes (first, while the sector has its pips: the dice of a game
    // against the computer are the server's and the players', so the test cannot choose them)...
    let r = act(&api, &id, &blue, "advance:b-foot1:50.0", 1).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let why = r.error();
    assert!(
        why.contains("not a legal action now: ") && why.contains("movement"),
        "{why}"
    );
    // ...and accepted when valid.
    let g = game(&api, &id, &blue).await;
    let r = act(&api, &id, &blue, "advance:b-foot3:2.3", 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("advances 2.3 cm"), "{}", r.body);
    assert!(ids(&g).iter().all(|a| a != "advance:b-foot3:2.3"));
    let r = act(&api, &id, &blue, "advance:nobody:5.0", 2).await;
    assert!(r.error().contains("no unit"), "{}", r.body);
    assert_eq!(game(&api, &id, &blue).await["version"], 2);

    // End the sectors with the buttons until the computer has answered with its own move.
    let mut version = 2;
    let mut slowest = Duration::ZERO;
    let mut answered = false;
    for _ in 0..20 {
        let g = game(&api, &id, &blue).await;
        let legal = ids(&g);
        let pick = ["moves-done", "guns-done", "sector:", "retreat:"]
            .iter()
            .find_map(|p| legal.iter().find(|a| a.starts_with(p)))
            .or(legal.first())
            .expect("Blue decides")
            .clone();
        let t = Instant::now();
        let r = act(&api, &id, &blue, &pick, version).await;
        slowest = slowest.max(t.elapsed());
        assert_eq!(r.status, StatusCode::OK, "{pick}: {}", r.body);
        let a = r.json();
        let v = a["version"].as_u64().expect("version");
        if v > version + 1 {
            answered = true;
            let events = a["events"].to_string();
            assert!(events.contains("Red (computer)"), "{events}");
            assert!(events.contains("turn 2, Blue"), "{events}");
            assert_eq!(a["decider"], "Blue");
            break;
        }
        version = v;
    }
    assert!(answered, "the computer answered");
    eprintln!("slowest answer (computer's move included): {slowest:?}");
    let g = game(&api, &id, &blue).await;
    assert_eq!(g["view"]["turn"], 2);
    assert!(
        g["log"].as_array().is_some_and(|l| l
            .iter()
            .any(|x| x.as_str().is_some_and(|s| s.contains("1d [")))),
        "every roll is in the log"
    );
}

#[tokio::test]
async fn the_computer_opens_a_table_game_when_it_moves_first() {
    let api = Api::sqlite().await;
    let list = api.get("/api/scenarios").await.json();
    let seats = list
        .as_array()
        .and_then(|l| l.iter().find(|s| s["id"] == "minis-fontenoy"))
        .map(|s| s["seats"].clone())
        .expect("minis-fontenoy");
    // Play each side in turn: against one of them the computer moves first.
    let mut opened = 0;
    for human in seats.as_array().expect("two seats") {
        let human = human.as_str().expect("seat name");
        let (id, token, _) = create_ai(&api, "minis-fontenoy", human, 2).await;
        let g = game(&api, &id, &token).await;
        assert_eq!(g["decider"], human, "the person decides after the computer");
        if g["version"].as_u64().expect("version") > 0 {
            opened += 1;
        }
    }
    assert_eq!(opened, 1, "one side moves first");
}
