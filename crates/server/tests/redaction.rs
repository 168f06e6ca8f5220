//! Hidden information never leaves the server for a side that may not see it (rule 3.6: the
//! contents of enemy stacks under their top counter). Every answer a seat or a spectator can get
//! about a game — the game, its legal actions, its log, the answer to an action, the replay, the
//! live updates, the record, the creation — is searched for every name and id hidden from it.

mod common;

use axum::http::StatusCode;
use common::{Api, Created, Rng};
use engine::{DynGame, Seat};
use serde_json::json;

/// What a reader may not see now: for a seat its `hidden_from`, for spectators
/// `hidden_from_public`.
fn hidden(g: &dyn DynGame, seat: Option<Seat>) -> Vec<String> {
    match seat {
        Some(s) => g.hidden_from(s),
        None => g.hidden_from_public(),
    }
}

/// Every unit name and id of Hastenbeck (the scenarios these tests play).
fn all_names() -> Vec<String> {
    let (g, _) = catalog::open("hastenbeck", &[], None, 1).expect("opens");
    g.board()["units"]
        .as_array()
        .map(|us| {
            us.iter()
                .flat_map(|u| [u["name"].as_str(), u["id"].as_str()])
                .flatten()
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

fn assert_clean(what: &str, body: &str, secrets: &[String]) {
    // A hidden name inside a longer name that is not hidden ("Dachenhausen" in "Von Dachenhausen
    // 1", "dachenhausen" in "von-dachenhausen-2") is not that unit: take the longer names and
    // ids out first.
    let mut body = body.to_string();
    for n in all_names() {
        if !secrets.contains(&n) && secrets.iter().any(|s| n != *s && n.contains(s.as_str())) {
            body = body.replace(&n, "");
        }
    }
    let body = body.as_str();
    for s in secrets {
        if let Some(i) = body.find(s.as_str()) {
            let from = body.floor_char_boundary(i.saturating_sub(300));
            let to = body.ceil_char_boundary((i + 200).min(body.len()));
            panic!("{what} reveals the hidden {s:?}: …{}…", &body[from..to]);
        }
    }
}

/// The historical set-up: the Allies' "Von Block 2" is under the redoubt at 0515 and
/// "Erbprinz von Brunswick 2" under "Erbprinz von Brunswick 1" at 0909; the French "Orleans" is
/// under the artillery at 1309.
#[tokio::test]
async fn the_historical_set_up_hides_the_named_stacks() {
    let api = Api::sqlite().await;
    for mode in ["friend", "hotseat"] {
        let c = api
            .create(json!({"scenario": "hastenbeck", "mode": mode}))
            .await;
        let (f, a) = (c.french.clone().expect("F"), c.allies.clone().expect("A"));
        let allied_secrets = [
            "Von Block 2",
            "von-block-2",
            "Erbprinz von Brunswick 2",
            "erbprinz-von-brunswick-2",
        ]
        .map(String::from);
        let french_secrets = ["Orleans", "orleans"].map(String::from);
        let every = [allied_secrets.as_slice(), french_secrets.as_slice()].concat();

        let fr = api.get(&format!("/api/games/{}?token={f}", c.id)).await;
        let al = api.get(&format!("/api/games/{}?token={a}", c.id)).await;
        let sp = api
            .get(&format!("/api/games/{}?token={}", c.id, c.spectator))
            .await;
        assert_clean("the French view", &fr.body, &allied_secrets);
        assert_clean("the Allied view", &al.body, &french_secrets);
        assert_clean("the spectators' view", &sp.body, &every);
        // The owners do see them (so the search above can find what it looks for).
        assert!(fr.body.contains("Orleans"));
        assert!(al.body.contains("Von Block 2") && al.body.contains("Erbprinz von Brunswick 2"));
        // The stacks are there, shown by their top counter only.
        let fv = fr.json();
        let at = |hex: &str| {
            fv["view"]["stacks"]
                .as_array()
                .expect("stacks")
                .iter()
                .find(|s| s["hex"] == hex)
                .cloned()
                .unwrap_or_else(|| panic!("no stack at {hex}"))
        };
        assert_eq!(at("0515")["stacked"], true);
        assert_eq!(at("0515")["units"].as_array().expect("units").len(), 1);
        assert_eq!(at("0909")["units"][0]["name"], "Erbprinz von Brunswick 1");
        assert_clean("the creation", &c.raw.to_string(), &every);
        let rp = api
            .get(&format!("/api/games/{}/replay?token={f}&upto=0", c.id))
            .await;
        assert_eq!(rp.status, StatusCode::OK);
        assert_clean("the French replay", &rp.body, &allied_secrets);
        let rp = api
            .get(&format!("/api/games/{}/replay?token={}", c.id, c.spectator))
            .await;
        assert_clean("the spectators' replay", &rp.body, &every);
        if mode == "friend" {
            for t in [&f, &a, &c.spectator] {
                let r = api
                    .get(&format!("/api/games/{}/record?token={t}", c.id))
                    .await;
                assert_eq!(r.status, StatusCode::CONFLICT);
                assert_clean("a refused record", &r.body, &every);
            }
        }
    }
}

/// Seeded random games through the API, with a shadow copy of each game in the test: after
/// every action, each seat's and the spectators' answers contain none of the names hidden from
/// them then.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_ever_reveals_a_hidden_name() {
    never_reveals(Api::sqlite().await).await;
}

/// The same games over PostgreSQL: games rebuilt from that store hide the same names.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_ever_reveals_a_hidden_name_postgres() {
    let pg = common::pg::Postgres::start();
    let store = server::connect(&pg.url)
        .await
        .expect("connect to PostgreSQL");
    never_reveals(Api::over(store)).await;
    drop(pg);
}

async fn never_reveals(api: Api) {
    let mut checked_nonempty = 0;
    for (scenario, seed, steps) in [("hastenbeck", 41u64, 220), ("hastenbeck-free", 42, 120)] {
        let c: Created = api
            .create(json!({"scenario": scenario, "mode": "hotseat", "seed": seed}))
            .await;
        let (mut shadow, _) = catalog::open(scenario, &[], None, seed).expect("opens");
        let readers: [(Option<Seat>, String); 3] = [
            (Some(Seat(0)), c.french.clone().expect("F")),
            (Some(Seat(1)), c.allies.clone().expect("A")),
            (None, c.spectator.clone()),
        ];
        let mut rng = Rng::new(seed);
        let mut played: Vec<String> = Vec::new();
        for step in 0..steps {
            // Every reader's game answer and (now and then) replay.
            for (seat, token) in &readers {
                let secrets = hidden(shadow.as_ref(), *seat);
                if !secrets.is_empty() {
                    checked_nonempty += 1;
                    // The unredacted view would have given them away.
                    let full = shadow.view_json(None).to_string();
                    assert!(secrets.iter().any(|s| full.contains(s.as_str())));
                }
                let r = api.get(&format!("/api/games/{}?token={token}", c.id)).await;
                assert_eq!(r.status, StatusCode::OK);
                // Everything but the log, which holds lines written when they happened: a unit
                // seen moving before it went under a stack was seen (checked action by action
                // below, and by twin states in crates/saxe/tests/r03_6_hidden_twins.rs).
                let mut now: serde_json::Value = serde_json::from_str(&r.body).expect("JSON");
                now["log"] = json!(null);
                assert_clean(
                    &format!("game answer at step {step}"),
                    &now.to_string(),
                    &secrets,
                );
                if step % 15 == 0 {
                    let upto = rng.below(step + 1);
                    let r = api
                        .get(&format!(
                            "/api/games/{}/replay?token={token}&upto={upto}",
                            c.id
                        ))
                        .await;
                    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
                    let (mut then, _) = catalog::open(scenario, &[], None, seed).expect("opens");
                    for a in &played[..upto] {
                        then.apply(a).expect("replays");
                    }
                    let mut v: serde_json::Value = serde_json::from_str(&r.body).expect("JSON");
                    v["log"] = json!(null);
                    v["events"] = json!(null);
                    assert_clean(
                        &format!("replay to {upto} at step {step}"),
                        &v.to_string(),
                        &hidden(then.as_ref(), *seat),
                    );
                }
            }
            // The decider acts; its answer (events) is checked against what it may not see
            // after the action.
            let Some(decider) = shadow.decider() else {
                break;
            };
            let token = &readers[usize::from(decider.0)].1;
            let g = api.game(&c, token).await;
            let legal = g["legal"].as_array().expect("legal");
            let pick = legal[rng.below(legal.len())]["id"]
                .as_str()
                .expect("id")
                .to_string();
            let before: Vec<[Vec<String>; 3]> = vec![[
                hidden(shadow.as_ref(), Some(Seat(0))),
                hidden(shadow.as_ref(), Some(Seat(1))),
                hidden(shadow.as_ref(), None),
            ]];
            let r = api.act(&c, token, &pick, step as u64).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.body);
            shadow.apply(&pick).expect("the shadow follows");
            played.push(pick.clone());
            // Names hidden from the decider before and after the action: its lines may not hold
            // them (a unit that came out alone, or was seen before it went under, may be named).
            let after = hidden(shadow.as_ref(), Some(decider));
            let both: Vec<String> = before[0][usize::from(decider.0)]
                .iter()
                .filter(|n| after.contains(n))
                .cloned()
                .collect();
            assert_clean(&format!("action answer at step {step}"), &r.body, &both);
            // Every reader's lines of this action (the replay's `events`), the same way.
            for (i, (seat, token)) in readers.iter().enumerate() {
                let r = api
                    .get(&format!(
                        "/api/games/{}/replay?token={token}&upto={}",
                        c.id,
                        played.len()
                    ))
                    .await;
                let v: serde_json::Value = serde_json::from_str(&r.body).expect("JSON");
                let after = hidden(shadow.as_ref(), *seat);
                let both: Vec<String> = before[0][i]
                    .iter()
                    .filter(|n| after.contains(n))
                    .cloned()
                    .collect();
                assert_clean(
                    &format!("lines of step {step}"),
                    &v["events"].to_string(),
                    &both,
                );
            }
        }
    }
    assert!(
        checked_nonempty > 100,
        "hidden stacks were present in the checks ({checked_nonempty})"
    );
}

/// Against the agent: the person's answers never reveal the agent's hidden stacks, even though
/// the agent's own moves are in them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agents_stacks_stay_hidden_from_its_opponent() {
    let api = Api::sqlite().await;
    // A game against the computer takes no seed (its dice come from the server's committed
    // seed), so each run plays other games: four of them. CI once met one that this test read
    // too strictly (a unit the French saw moving before it went under a stack).
    for seed in 1..=4u64 {
        agents_game(&api, seed).await;
    }
}

async fn agents_game(api: &Api, seed: u64) {
    let c = api
        .create(json!({"scenario": "hastenbeck", "mode": "ai", "human": "French"}))
        .await;
    let f = c.french.clone().expect("F");
    let mut rng = Rng::new(10 + seed);
    for _ in 0..80 {
        let g = api.game(&c, &f).await;
        if g["decider"].is_null() {
            break;
        }
        // Rebuild what the server holds from the record the test may not get: replay the log's
        // actions through the store instead.
        let (meta, actions) = api
            .state
            .store()
            .load(&c.id)
            .await
            .expect("load")
            .expect("stored");
        let (mut shadow, _) =
            catalog::open(&meta.scenario, &meta.options, None, meta.seed).expect("opens");
        for a in &actions {
            shadow.apply(a).expect("replays");
        }
        let secrets = shadow.hidden_from(Seat(0));
        // Everything but the log, whose lines were written when they happened (each action's
        // lines are checked below, against what was hidden throughout).
        let mut now = g.clone();
        now["log"] = json!(null);
        assert_clean("the person's game answer", &now.to_string(), &secrets);
        let legal = g["legal"].as_array().expect("legal");
        let pick = legal[rng.below(legal.len())]["id"].as_str().expect("id");
        let r = api
            .act(&c, &f, pick, g["version"].as_u64().expect("v"))
            .await;
        assert_eq!(r.status, StatusCode::OK);
        // The answer holds the person's action and the agent's answers to it. A name the
        // person may read is one it could see at some point of that sequence (a unit seen
        // moving before it went under a stack was seen, 3.6): what must stay out is what was
        // hidden from the French in every state from before the action to the end.
        let before = actions.len();
        let (meta, actions) = api
            .state
            .store()
            .load(&c.id)
            .await
            .expect("load")
            .expect("stored");
        let (mut shadow, _) =
            catalog::open(&meta.scenario, &meta.options, None, meta.seed).expect("opens");
        let mut throughout: Option<Vec<String>> = None;
        for (i, a) in actions.iter().enumerate() {
            if i >= before {
                let now = shadow.hidden_from(Seat(0));
                throughout = Some(match throughout {
                    None => now,
                    Some(t) => t.into_iter().filter(|n| now.contains(n)).collect(),
                });
            }
            shadow.apply(a).expect("replays");
        }
        let now = shadow.hidden_from(Seat(0));
        let secrets: Vec<String> = throughout
            .unwrap_or_else(|| now.clone())
            .into_iter()
            .filter(|n| now.contains(n))
            .collect();
        assert_clean("the person's action answer", &r.body, &secrets);
    }
}
