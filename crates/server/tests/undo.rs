//! Issue 19, undo within the rules: `POST /api/games/{id}/undo` takes back a seat's last action
//! while no die was rolled, nothing hidden was revealed and the other side has not decided since
//! (in hot-seat, either seat's last action); the action leaves the stored list, the game replays
//! without it, and a restarted server has lost nothing.

mod common;

use axum::http::StatusCode;
use common::{Api, Created};
use serde_json::{Value, json};

async fn hotseat(api: &Api, seed: u64) -> Created {
    api.create(json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": seed}))
        .await
}

async fn undo(api: &Api, c: &Created, token: &str, version: u64) -> common::Resp {
    api.post(
        &format!("/api/games/{}/undo", c.id),
        &json!({"token": token, "version": version}),
    )
    .await
}

/// Play `actions` in order with whichever of the game's tokens decides.
async fn play(api: &Api, c: &Created, actions: &[&str]) {
    for a in actions {
        let g = api.game(c, c.any_token()).await;
        let decider = g["decider"].as_str().expect("a decider").to_string();
        let token = c.seat(&decider).expect("the decider's token");
        let v = g["version"].as_u64().expect("version");
        let r = api.act(c, token, a, v).await;
        assert_eq!(r.status, StatusCode::OK, "{a}: {}", r.body);
    }
}

async fn stored(api: &Api, id: &str) -> Vec<String> {
    api.state
        .store()
        .load(id)
        .await
        .expect("load")
        .expect("stored")
        .1
}

/// A seat's view of the game without what moves with the clock of the log.
fn seen(g: &Value) -> Value {
    json!({"view": g["view"], "decider": g["decider"], "legal": g["legal"], "version": g["version"]})
}

/// 5.2 / issue 19: a step taken in a move is taken back, the game is as before it, the store
/// forgets it, and another step can be played in its place; the record still replays (import).
#[tokio::test]
async fn r19_undo_takes_back_a_step_and_the_game_goes_on_differently() {
    let api = Api::sqlite().await;
    let c = hotseat(&api, 1).await;
    let french = c.french.clone().expect("french");
    play(&api, &c, &["activate-auto:chevert", "move-unit:hainaut"]).await;
    let before = api.game(&c, &french).await;
    play(&api, &c, &["step:W"]).await;
    assert_eq!(stored(&api, &c.id).await.len(), 3);

    let r = undo(&api, &c, &french, 3).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(v["version"], 2);
    assert_eq!(v["decider"], "French");
    assert!(
        v["undone"].as_str().is_some_and(|l| !l.is_empty()),
        "the answer names what was taken back: {v}"
    );
    assert_eq!(seen(&api.game(&c, &french).await), seen(&before));
    assert_eq!(
        stored(&api, &c.id).await,
        vec!["activate-auto:chevert", "move-unit:hainaut"]
    );
    // A stale version is refused.
    assert_eq!(
        undo(&api, &c, &french, 3).await.status,
        StatusCode::CONFLICT
    );

    // Replayed differently; the record replays and imports.
    play(&api, &c, &["step:E"]).await;
    assert_eq!(
        stored(&api, &c.id).await,
        vec!["activate-auto:chevert", "move-unit:hainaut", "step:E"]
    );
    let rec = api
        .get(&format!("/api/games/{}/record?token={french}", c.id))
        .await;
    assert_eq!(rec.status, StatusCode::OK, "{}", rec.body);
    let imported = api.post("/api/import", &rec.json()).await;
    assert_eq!(imported.status, StatusCode::CREATED, "{}", imported.body);
    // The replay of the game after its last action is the game.
    let rp = api
        .get(&format!("/api/games/{}/replay?token={french}&upto=3", c.id))
        .await;
    assert_eq!(rp.status, StatusCode::OK, "{}", rp.body);
    assert_eq!(rp.json()["view"], api.game(&c, &french).await["view"]);
}

/// 5.1: the activation test rolls a die: it may not be taken back.
#[tokio::test]
async fn r5_1_undo_never_past_a_die_roll() {
    let api = Api::sqlite().await;
    let c = hotseat(&api, 1).await;
    let french = c.french.clone().expect("french");
    play(&api, &c, &["activate:chevert"]).await;
    let before = api.game(&c, &french).await;
    let r = undo(&api, &c, &french, 1).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert_eq!(r.error(), "a die was rolled");
    assert_eq!(seen(&api.game(&c, &french).await), seen(&before));
    assert_eq!(stored(&api, &c.id).await.len(), 1);
}

/// 3.6: a unit that leaves the stack it was hidden in is seen by the enemy: its step may not be
/// taken back; its "begins to move" (still in the stack) may.
#[tokio::test]
async fn r3_6_undo_never_past_a_reveal() {
    let api = Api::sqlite().await;
    let c = hotseat(&api, 1).await;
    let french = c.french.clone().expect("french");
    play(&api, &c, &["activate-auto:contades", "move-unit:orleans"]).await;
    let r = undo(&api, &c, &french, 2).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    play(&api, &c, &["move-unit:orleans", "step:NW"]).await;
    let r = undo(&api, &c, &french, 3).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert_eq!(r.error(), "something hidden was revealed");
    assert_eq!(stored(&api, &c.id).await.len(), 3);
}

/// A game that has not begun has nothing to undo; spectators undo nothing.
#[tokio::test]
async fn r19_undo_nothing_to_undo_and_spectators() {
    let api = Api::sqlite().await;
    let c = hotseat(&api, 1).await;
    let french = c.french.clone().expect("french");
    let r = undo(&api, &c, &french, 0).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert_eq!(r.error(), "nothing to undo");
    play(&api, &c, &["activate-auto:chevert"]).await;
    let r = undo(&api, &c, &c.spectator, 1).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
}

/// The moves that bring Belzunce within reach of the Allies' reaction (8.6, 9.3): after the
/// last, the Allies are asked, and may only pass (3.6: they are asked all the same).
const TO_REACTION: [&str; 4] = [
    "activate-auto:armentieres",
    "move-unit:belzunce",
    "step:NW",
    "step:NW",
];

/// The moves that bring Champagne within reach of the redoubt at 1107 (9.3): after the last, the
/// Allies choose between reaction fire and passing.
const TO_REACTION_FIRE: [&str; 3] = [
    "activate-auto:armentieres",
    "move-unit:champagne",
    "step:NW",
];

/// 8.6 / 9.3: once the other side has decided (a reaction fire declined), the mover may not take
/// back his step; the side that declined may take back its own decision.
#[tokio::test]
async fn r9_3_undo_never_past_the_other_sides_decision() {
    let api = Api::sqlite().await;
    let c = api
        .create(json!({"scenario": "hastenbeck", "mode": "friend", "human": "French"}))
        .await;
    let (french, allies) = (
        c.french.clone().expect("french"),
        c.allies.clone().expect("allies"),
    );
    play(&api, &c, &TO_REACTION_FIRE).await;
    let g = api.game(&c, &allies).await;
    assert_eq!(g["decider"], "Allies");
    assert!(
        g["legal"].as_array().expect("legal").len() > 1,
        "{}",
        g["legal"]
    );
    // The Allies have not decided yet: the French may take back their step.
    let r = undo(&api, &c, &french, 3).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    play(&api, &c, &["step:NW", "pass"]).await;
    let r = undo(&api, &c, &french, 4).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert_eq!(r.error(), "the other side has decided since");
    // The Allies take back their pass: they are asked again.
    let r = undo(&api, &c, &allies, 4).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(api.game(&c, &allies).await["decider"], "Allies");
    assert_eq!(stored(&api, &c.id).await.len(), 3);
}

/// 3.6 / 8.6: an answer that decided nothing (a "pass" that was the only choice) is not a
/// decision of the other side: the step before it is taken back with it.
#[tokio::test]
async fn r8_6_undo_takes_back_an_answer_that_was_the_only_choice() {
    let api = Api::sqlite().await;
    let c = api
        .create(json!({"scenario": "hastenbeck", "mode": "friend", "human": "French"}))
        .await;
    let french = c.french.clone().expect("french");
    play(&api, &c, &TO_REACTION).await;
    play(&api, &c, &["pass"]).await;
    let r = undo(&api, &c, &french, 5).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["version"], 3);
    assert_eq!(stored(&api, &c.id).await.len(), 3);
}

/// Against the computer: its choice after a step (fire or pass, 9.3) is a decision of the other
/// side (or rolled a die): the step stays.
#[tokio::test]
async fn r9_3_undo_against_the_computer_stops_at_its_answer() {
    let api = Api::sqlite().await;
    let c = api
        .create(json!({"scenario": "hastenbeck", "mode": "ai", "human": "French"}))
        .await;
    let french = c.french.clone().expect("french");
    play(&api, &c, &TO_REACTION_FIRE[..2]).await;
    let g = api.game(&c, &french).await;
    let v = g["version"].as_u64().expect("version");
    let r = api.act(&c, &french, "step:NW", v).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let after = r.json()["version"].as_u64().expect("version");
    assert!(after > v + 1, "the computer answered the step");
    let r = undo(&api, &c, &french, after).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    let why = r.error();
    assert!(
        why == "the other side has decided since" || why == "a die was rolled",
        "{why}"
    );
}

/// Issue 19 item 5: a side that never reacts is never asked; its policy declines for it, as its
/// own decision, in a line only it reads; the mover may take back the step (the policy decided
/// before, not since).
#[tokio::test]
async fn r9_3_a_never_react_policy_asks_nothing() {
    let api = Api::sqlite().await;
    let c = api
        .create(json!({"scenario": "hastenbeck", "mode": "friend", "human": "French"}))
        .await;
    let (french, allies) = (
        c.french.clone().expect("french"),
        c.allies.clone().expect("allies"),
    );
    let r = api
        .post(
            &format!("/api/games/{}/policy", c.id),
            &json!({"token": allies, "version": 0, "policy": {"react": "never"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(api.game(&c, &allies).await["policy"]["react"], "never");
    // The French do not learn the Allies' policy.
    let fl = api.game(&c, &french).await;
    assert!(!fl["log"].to_string().contains("policy"), "{}", fl["log"]);
    // Champagne's move, then Champagne goes on as long as it can step (at most four steps).
    let mut moves: Vec<String> = TO_REACTION_FIRE.iter().map(|a| a.to_string()).collect();
    let mut i = 0;
    while i < moves.len() + 4 {
        let g = api.game(&c, &french).await;
        assert_eq!(
            g["decider"], "French",
            "the Allies are asked after {i} moves"
        );
        let a = match moves.get(i) {
            Some(a) => a.clone(),
            None => match g["legal"]
                .as_array()
                .expect("legal")
                .iter()
                .filter_map(|l| l["id"].as_str())
                .find(|id| id.starts_with("step:"))
            {
                Some(a) => a.to_string(),
                None => break,
            },
        };
        let v = g["version"].as_u64().expect("version");
        let r = api.act(&c, &french, &a, v).await;
        assert_eq!(r.status, StatusCode::OK, "{a}: {}", r.body);
        if i >= moves.len() {
            moves.push(a);
        }
        i += 1;
    }
    let actions = stored(&api, &c.id).await;
    assert!(actions.iter().any(|a| a == "pass"), "{actions:?}");
    let al = api.game(&c, &allies).await;
    assert!(
        al["log"].to_string().contains("(policy: never react)"),
        "{}",
        al["log"]
    );
    // The step before the policy's pass is taken back with it.
    let v = api.game(&c, &french).await["version"].as_u64().expect("v");
    let r = undo(&api, &c, &french, v).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    // The policy is in the record: a replay from the store restores it.
    let r = api
        .post(
            &format!("/api/games/{}/policy", c.id),
            &json!({"token": french, "version": 1, "policy": {"react": "never"}}),
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::CONFLICT,
        "a stale version: {}",
        r.body
    );
    assert_eq!(api.state.hub().cached(), 1);
}

/// 9.3, "react when": fire at a unit within the policy's range, else decline.
#[tokio::test]
async fn r9_3_a_react_when_policy_fires_within_its_range() {
    let api = Api::sqlite().await;
    let c = hotseat(&api, 1).await;
    let allies = c.allies.clone().expect("allies");
    let r = api
        .post(
            &format!("/api/games/{}/policy", c.id),
            &json!({"token": allies, "version": 0,
                    "policy": {"react": "when", "fire_within": 3, "cavalry": "against-cavalry"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    play(&api, &c, &TO_REACTION_FIRE).await;
    let actions = stored(&api, &c.id).await;
    assert!(
        actions.iter().any(|a| a.starts_with("reaction-fire:")),
        "{actions:?}"
    );
    // A policy entry is not an action a seat submits (it would set the other's policy).
    let french = c.french.clone().expect("french");
    let g = api.game(&c, &french).await;
    assert_eq!(g["decider"], "French");
    let v = g["version"].as_u64().expect("version");
    let r = api.act(&c, &french, "policy:1:never", v).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
}

/// Hot-seat: either seat's token takes back the last decision, whoever took it (both seats are at
/// one screen), under the same limits.
#[tokio::test]
async fn r19_hotseat_undoes_either_seats_last_decision() {
    let api = Api::sqlite().await;
    let c = hotseat(&api, 1).await;
    let allies = c.allies.clone().expect("allies");
    play(&api, &c, &TO_REACTION).await;
    play(&api, &c, &["pass"]).await;
    let french = c.french.clone().expect("french");
    // The French token takes back the Allies' pass, then the French step.
    let r = undo(&api, &c, &french, 5).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let r = undo(&api, &c, &allies, 4).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(stored(&api, &c.id).await.len(), 3);
}

/// Never losing an action on a restart: a game with an action taken back is rebuilt from the file
/// as it was, and goes on.
#[tokio::test]
async fn r19_undo_survives_a_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let api = Api::over(server::connect(&url).await.expect("open"));
    let c = hotseat(&api, 1).await;
    let french = c.french.clone().expect("french");
    play(
        &api,
        &c,
        &["activate-auto:chevert", "move-unit:hainaut", "step:W"],
    )
    .await;
    let r = undo(&api, &c, &french, 3).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let before = api.game(&c, &french).await;
    drop(api);

    let api = Api::over(server::connect(&url).await.expect("reopen"));
    assert_eq!(api.state.hub().cached(), 0);
    let after = api.game(&c, &french).await;
    assert_eq!(seen(&after), seen(&before));
    assert_eq!(after["log"], before["log"]);
    play(&api, &c, &["step:E"]).await;
    assert_eq!(stored(&api, &c.id).await.len(), 3);
}
