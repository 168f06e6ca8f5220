//! Fair seats and dice anyone can verify (issue 13): a friend game gives its creator one seat and a
//! one-time invitation; no client chooses the seed of a game it plays; the server commits to its
//! secret seed before any client seed is taken, the game starts only when every person's seed is
//! in, and the seed revealed at the end matches the commitment and gives every roll.

mod common;

use axum::http::StatusCode;
use common::{Api, Created, Rng};
use serde_json::{Value, json};
use server::AppState;

/// A server whose computer plays with the `random` agent (fast: a whole game in a test).
async fn random_agent_api() -> Api {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("games.db").display());
    let store = server::connect(&url).await.expect("open SQLite");
    let state = AppState::with_settings(
        store,
        None,
        server::Settings {
            agent: "random".into(),
            limits: server::Limits::default().without_rates(),
            ..server::Settings::default()
        },
    );
    let mut api = Api::of(state);
    api.dir = Some(dir);
    api
}

async fn claim(api: &Api, c: &Created, invitation: &str) -> common::Resp {
    api.post(
        &format!("/api/games/{}/claim", c.id),
        &json!({ "invitation": invitation }),
    )
    .await
}

fn sha256_hex(s: &str) -> String {
    engine::fair::sha256_hex(s)
}

#[tokio::test]
async fn fair_seats_the_creator_of_a_friend_game_receives_exactly_one_seat_token() {
    let api = Api::sqlite().await;
    let c = api
        .create_raw(json!({"scenario": "hastenbeck", "mode": "friend", "human": "Allies"}))
        .await;
    let seats = c.raw["seats"].as_object().expect("seats");
    assert_eq!(seats.len(), 1, "one seat token: {}", c.raw);
    assert!(
        seats.contains_key("Allies"),
        "the creator's side: {}",
        c.raw
    );
    let links = c.raw["links"].as_object().expect("links");
    assert_eq!(
        links.keys().collect::<Vec<_>>(),
        ["Allies", "spectator"],
        "the creator's link and the spectators': {}",
        c.raw
    );
    let inv = &c.raw["invitation"];
    assert_eq!(inv["seat"], "French");
    let secret = inv["token"].as_str().expect("invitation secret");
    assert!(
        inv["link"]
            .as_str()
            .expect("link")
            .ends_with(&format!("/play/{}?invite={secret}", c.id)),
        "{inv}"
    );
    // The invitation is no seat: it neither sees nor acts.
    let r = api
        .get(&format!("/api/games/{}?token={secret}", c.id))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let creator = c.allies.clone().expect("Allies");
    let g = api.game(&c, &creator).await;
    assert_eq!(g["invitation"], "pending");
    assert!(
        g["decision"]
            .as_str()
            .expect("decision")
            .contains("French (the invitation is not claimed yet)"),
        "{}",
        g["decision"]
    );

    // The friend claims it: the French token is minted now, given once, to the friend only.
    let r = claim(&api, &c, secret).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(v["seat"], "French");
    let french = v["token"].as_str().expect("token").to_string();
    assert!(!c.raw.to_string().contains(&french));
    let g = api.game(&c, &creator).await;
    assert_eq!(g["invitation"], "claimed");
    assert!(
        !g.to_string().contains(&french),
        "the creator never sees it"
    );
    let mine = api.game(&c, &french).await;
    assert_eq!(mine["seat"], "French");
    // The store keeps its digest only.
    let (meta, _) = api
        .state
        .store()
        .load(&c.id)
        .await
        .expect("load")
        .expect("stored");
    let stored = format!("{:?}", meta.tokens);
    assert!(
        !stored.contains(&french) && !stored.contains(secret),
        "{stored}"
    );
}

#[tokio::test]
async fn fair_seats_an_invitation_claimed_twice_is_refused() {
    let api = Api::sqlite().await;
    let c = api
        .create_raw(json!({"scenario": "hastenbeck", "mode": "friend"}))
        .await;
    let secret = c.raw["invitation"]["token"]
        .as_str()
        .expect("invitation")
        .to_string();
    let r = claim(&api, &c, "not-the-invitation").await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let r = claim(&api, &c, &secret).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let first = r.json()["token"].as_str().expect("token").to_string();
    let r = claim(&api, &c, &secret).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.error().contains("already claimed"), "{}", r.body);
    assert!(!r.body.contains(&first));
    // The first claimant keeps the seat; the stored game refuses a claim after a restart too.
    assert_eq!(api.game(&c, &first).await["seat"], "Allies");
    let again = Api::over(api.state.store().clone());
    let r = claim(&again, &c, &secret).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert_eq!(again.game(&c, &first).await["seat"], "Allies");
    // A game without an invitation has nothing to claim.
    let h = api
        .create(json!({"scenario": "hastenbeck", "mode": "hotseat"}))
        .await;
    let r = claim(&api, &h, &secret).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
}

#[tokio::test]
async fn fair_seats_a_seed_is_refused_in_ai_and_friend_modes_and_accepted_in_hotseat() {
    let api = Api::sqlite().await;
    for mode in ["ai", "friend"] {
        let r = api
            .post(
                "/api/games",
                &json!({"scenario": "hastenbeck", "mode": mode, "seed": 5}),
            )
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{mode}: {}", r.body);
        assert!(r.error().contains("takes no seed"), "{}", r.body);
    }
    let a = api
        .create_raw(json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": 5}))
        .await;
    let b = api
        .create_raw(json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": 5}))
        .await;
    assert_eq!(a.raw["dice"], Value::Null, "hot-seat keeps a plain seed");
    let view = |c: &Created| {
        let c = c.clone();
        let api = &api;
        async move { api.game(&c, c.french.as_deref().expect("F")).await["view"].clone() }
    };
    assert_eq!(
        view(&a).await,
        view(&b).await,
        "the same seed, the same game"
    );
}

#[tokio::test]
async fn dice_a_game_does_not_accept_actions_until_every_person_has_seeded_it() {
    let api = Api::sqlite().await;
    let c = api
        .create_raw(json!({"scenario": "hastenbeck", "mode": "friend"}))
        .await;
    let french = c.french.clone().expect("French");
    let g = api.game(&c, &french).await;
    assert_eq!(g["decider"], Value::Null);
    assert_eq!(g["legal"], json!([]));
    assert_eq!(g["dice"]["waiting"], json!(["French", "Allies"]));
    let r = api.act(&c, &french, "activate-auto:broglie", 0).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.error().contains("not started"), "{}", r.body);

    // Seeds that are refused.
    for bad in ["", " padded", "two\nlines", &"x".repeat(65)] {
        let r = api.add_seed(&c, &french, bad).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad:?}: {}", r.body);
    }
    let r = api.add_seed(&c, &c.spectator, "watching").await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);

    let r = api.add_seed(&c, &french, "Broglie's luck").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["started"], false);
    let r = api.add_seed(&c, &french, "again").await;
    assert_eq!(
        r.status,
        StatusCode::CONFLICT,
        "one seed a seat: {}",
        r.body
    );
    let r = api.act(&c, &french, "activate-auto:broglie", 0).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    let g = api.game(&c, &french).await;
    assert_eq!(g["dice"]["waiting"], json!(["Allies"]));
    assert_eq!(g["dice"]["client_seeds"]["French"], "Broglie's luck");

    let secret = c.raw["invitation"]["token"].as_str().expect("invitation");
    let r = claim(&api, &c, secret).await;
    let allies = r.json()["token"].as_str().expect("token").to_string();
    let r = api.act(&c, &french, "activate-auto:broglie", 0).await;
    assert_eq!(
        r.status,
        StatusCode::CONFLICT,
        "claimed, not seeded: {}",
        r.body
    );
    let r = api.add_seed(&c, &allies, "Cumberland's").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["started"], true);
    assert_eq!(r.json()["decider"], "French");
    let g = api.game(&c, &french).await;
    assert_eq!(g["decider"], "French");
    assert!(!g["legal"].as_array().expect("legal").is_empty());
    let pick = g["legal"][0]["id"].as_str().expect("id").to_string();
    let r = api.act(&c, &french, &pick, 0).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    // A hot-seat game has no client seeds.
    let h = api
        .create(json!({"scenario": "hastenbeck", "mode": "hotseat"}))
        .await;
    let r = api
        .add_seed(&h, h.french.as_deref().expect("F"), "mine")
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
}

/// Play a game against the computer to its end with random legal actions; the person's token.
async fn play_to_the_end(api: &Api, c: &Created) -> String {
    let me = c.french.clone().expect("French");
    let mut rng = Rng::new(13);
    for _ in 0..5_000 {
        if api.play_one(c, &mut rng).await.is_none() {
            return me;
        }
    }
    panic!("no end after 5,000 actions");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dice_the_commitment_is_published_before_any_client_seed_and_matches_the_revealed_seed() {
    let api = random_agent_api().await;
    let c = api
        .create_raw(json!({"scenario": "hastenbeck", "mode": "ai", "human": "French"}))
        .await;
    let commitment = c.raw["dice"]["commitment"]
        .as_str()
        .expect("commitment in the creation's answer")
        .to_string();
    assert_eq!(commitment.len(), 64);
    assert_eq!(c.raw["dice"]["client_seeds"], json!({"French": null}));
    assert_eq!(c.raw["dice"]["server_seed"], Value::Null);
    let me = c.french.clone().expect("French");
    let g = api.game(&c, &me).await;
    assert_eq!(g["dice"]["commitment"], commitment.as_str());
    let first = g["log"][0].as_str().expect("a first log line");
    assert!(first.contains(&commitment), "{first}");
    assert_eq!(g["log"].as_array().expect("log").len(), 1);
    // The computer neither moves nor rolls before the seed is in.
    assert_eq!(g["version"], 0);

    let r = api.add_seed(&c, &me, "a seed of my own").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let g = api.game(&c, &me).await;
    assert_eq!(g["log"][0], first, "the commitment stays the first line");
    assert_eq!(g["dice"]["server_seed"], Value::Null, "secret in play");
    let r = api
        .get(&format!("/api/games/{}/record?token={me}", c.id))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "no record in play");

    play_to_the_end(&api, &c).await;
    let g = api.game(&c, &me).await;
    assert_eq!(g["decider"], Value::Null);
    let revealed = g["dice"]["server_seed"]
        .as_str()
        .expect("revealed at the end");
    assert_eq!(sha256_hex(revealed), commitment);

    let r = api
        .get(&format!("/api/games/{}/record?token={}", c.id, c.spectator))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let rec = engine::GameRecord::from_json(&r.body).expect("a record");
    let d = rec.dice.clone().expect("the record's dice");
    assert_eq!(d.commitment, commitment);
    assert_eq!(d.server_seed.as_deref(), Some(revealed));
    assert_eq!(
        d.client_seeds,
        ["a seed of my own".to_string(), String::new()]
    );
    assert_eq!(
        rec.seed,
        engine::fair::dice_seed(revealed, &d.client_seeds),
        "the dice's seed is derived from the seeds"
    );
    // The record checks, and every alteration is caught.
    let ok = catalog::verify(&rec, None).expect("the record verifies");
    assert!(ok.committed && ok.over && ok.lines > 0, "{ok:?}");
    let mut bad = rec.clone();
    bad.dice.as_mut().expect("dice").server_seed = Some(engine::fair::server_seed_of([1; 32]));
    assert!(catalog::verify(&bad, None).is_err());
    let mut bad = rec.clone();
    bad.dice.as_mut().expect("dice").commitment = sha256_hex("another");
    assert!(catalog::verify(&bad, None).is_err());
    let mut bad = rec.clone();
    bad.dice.as_mut().expect("dice").client_seeds[0] = "a seed of my owm".into();
    assert!(catalog::verify(&bad, None).is_err());
}
