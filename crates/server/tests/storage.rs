//! The storage suite, run against SQLite (a temporary file) and PostgreSQL (a throwaway server
//! this test starts itself): the action list is the game, every write is one transaction, and a
//! second writer for one decision fails.

mod common;

use common::{Api, Created, Rng, pg::Postgres};
use serde_json::json;
use server::store::{DiceSeeds, GameMeta, Invitation, Mode, Tokens};
use server::{Store, StoreError};
use std::sync::Arc;

fn meta(id: &str, seed: u64) -> GameMeta {
    GameMeta {
        id: id.to_string(),
        ruleset: "saxe".into(),
        scenario: "hastenbeck".into(),
        options: vec!["perception".into()],
        seed,
        mode: Mode::Ai,
        ai_seat: Some(1),
        tokens: Tokens {
            seats: [Some("french-token".into()), None],
            spectator: "spectator-token".into(),
            invitation: None,
        },
        created: 1_764_000_000,
        dice: None,
        ai_level: Some("hard".into()),
        undone: 0,
    }
}

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The suite every store passes. `reopen` opens the same database anew.
async fn suite<F, Fut>(store: Arc<dyn Store>, reopen: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Arc<dyn Store>>,
{
    // Create with the agent's opening actions; read back bit for bit (a seed above i64::MAX).
    let m = meta("game-a", u64::MAX - 7);
    store.create(&m, &ids(&["a1", "a2"])).await.expect("create");
    let (got, actions) = store.load("game-a").await.expect("load").expect("exists");
    assert_eq!(got, m);
    assert_eq!(actions, ids(&["a1", "a2"]));
    assert!(store.load("nothing").await.expect("load").is_none());

    // Append in order: one transaction for several actions.
    store
        .append("game-a", 3, &ids(&["a3", "a4", "a5"]))
        .await
        .expect("append");
    let (_, actions) = store.load("game-a").await.expect("load").expect("exists");
    assert_eq!(actions, ids(&["a1", "a2", "a3", "a4", "a5"]));

    // A seq already taken, a gap, an unknown game, a duplicate game: refused, nothing changed.
    assert!(matches!(
        store.append("game-a", 5, &ids(&["x"])).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(matches!(
        store.append("game-a", 3, &ids(&["x", "y", "z", "w"])).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(matches!(
        store.append("game-a", 8, &ids(&["x"])).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(matches!(
        store.append("no-such-game", 1, &ids(&["x"])).await,
        Err(StoreError::UnknownGame(_))
    ));
    assert!(matches!(
        store.create(&meta("game-a", 1), &[]).await,
        Err(StoreError::Conflict(_))
    ));
    let (got, actions) = store.load("game-a").await.expect("load").expect("exists");
    assert_eq!(got, m);
    assert_eq!(actions.len(), 5);

    // Issue 19 (undo): the last actions leave the list in one transaction, counted as taken
    // back; refused when the game has another number of actions than the taker saw.
    store
        .create(&meta("game-u", 3), &ids(&["u1", "u2", "u3"]))
        .await
        .expect("create");
    assert!(matches!(
        store.take_back("game-u", 4, 3).await,
        Err(StoreError::Conflict(_))
    ));
    store.take_back("game-u", 3, 2).await.expect("take back");
    let (got_u, actions_u) = store.load("game-u").await.expect("load").expect("exists");
    assert_eq!(actions_u, ids(&["u1", "u2"]));
    assert_eq!(got_u.undone, 1);
    assert!(matches!(
        store.take_back("game-u", 3, 2).await,
        Err(StoreError::Conflict(_))
    ));
    // The next action takes the number of the one taken back.
    store
        .append("game-u", 3, &ids(&["u3b"]))
        .await
        .expect("append");
    let (_, actions_u) = store.load("game-u").await.expect("load").expect("exists");
    assert_eq!(actions_u, ids(&["u1", "u2", "u3b"]));
    let head = store.head("game-u").await.expect("head").expect("exists");
    assert_eq!((head.actions, head.undone), (3, 1));

    // A second game, hot-seat, no actions.
    let mut m2 = meta("game-b", 0);
    m2.mode = Mode::Hotseat;
    m2.ai_seat = None;
    m2.options.clear();
    m2.tokens.seats = [Some("f".into()), Some("a".into())];
    store.create(&m2, &[]).await.expect("create b");
    assert_eq!(
        store.load("game-b").await.expect("load").expect("exists"),
        (m2.clone(), Vec::new())
    );
    let mut all = store.game_ids().await.expect("ids");
    all.sort();
    assert_eq!(all, ids(&["game-a", "game-b", "game-u"]));

    // Eight writers for the same decision at once: exactly one is stored.
    let mut tasks = Vec::new();
    for i in 0..8 {
        let s = store.clone();
        tasks.push(tokio::spawn(async move {
            s.append("game-a", 6, &[format!("w{i}")]).await
        }));
    }
    let mut winners = Vec::new();
    for (i, t) in tasks.into_iter().enumerate() {
        match t.await.expect("task") {
            Ok(()) => winners.push(format!("w{i}")),
            Err(StoreError::Conflict(_)) => {}
            Err(e) => panic!("writer {i}: unexpected {e}"),
        }
    }
    assert_eq!(winners.len(), 1, "exactly one writer wins: {winners:?}");
    let (_, actions) = store.load("game-a").await.expect("load").expect("exists");
    assert_eq!(actions.len(), 6);
    assert_eq!(actions[5], winners[0]);

    // The seats of a friend game: the invitation claimed and the seeds added, once; a change
    // from seats that moved on meanwhile is refused and changes nothing.
    let mut m3 = meta("game-c", 0);
    m3.mode = Mode::Friend;
    m3.ai_seat = None;
    m3.tokens.invitation = Some(Invitation {
        seat: 1,
        token: "sha256:invitation".into(),
        claimed: false,
    });
    m3.dice = Some(DiceSeeds {
        server_seed: "ab".repeat(32),
        client_seeds: [Some("mine".into()), None],
    });
    store.create(&m3, &[]).await.expect("create c");
    assert_eq!(store.load("game-c").await.expect("load").expect("c").0, m3);
    let mut claimed = m3.clone();
    claimed.tokens.seats[1] = Some("sha256:allies".into());
    if let Some(i) = claimed.tokens.invitation.as_mut() {
        i.claimed = true;
    }
    store.update_seats(&m3, &claimed).await.expect("claim");
    let mut other = m3.clone();
    other.tokens.seats[1] = Some("sha256:second-claimant".into());
    assert!(matches!(
        store.update_seats(&m3, &other).await,
        Err(StoreError::Conflict(_))
    ));
    let mut seeded = claimed.clone();
    if let Some(d) = seeded.dice.as_mut() {
        d.client_seeds[1] = Some("theirs".into());
    }
    seeded.seed = u64::MAX - 3;
    store.update_seats(&claimed, &seeded).await.expect("seed");
    assert_eq!(
        store.load("game-c").await.expect("load").expect("c").0,
        seeded
    );

    // Everything is there for a new connection.
    let again = reopen().await;
    let (got, actions) = again.load("game-a").await.expect("load").expect("exists");
    assert_eq!(got, m);
    assert_eq!(actions.len(), 6);
    assert_eq!(again.load("game-b").await.expect("load").expect("b").0, m2);
    assert_eq!(
        again.load("game-c").await.expect("load").expect("c").0,
        seeded
    );
}

/// The tables as the server wrote them before verifiable dice and invitations, with one hot-seat
/// game of 3 actions whose tokens are stored as digests.
const OLD_SCHEMA: [&str; 2] = [
    "CREATE TABLE games (id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, scenario TEXT NOT NULL,
        options TEXT NOT NULL, seed BIGINT NOT NULL, mode TEXT NOT NULL, ai_seat INTEGER,
        tokens TEXT NOT NULL, created BIGINT NOT NULL)",
    "CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id), seq BIGINT NOT NULL,
        action TEXT NOT NULL, PRIMARY KEY (game_id, seq))",
];

fn old_rows() -> Vec<String> {
    let tokens = json!({
        "seats": [server::token::digest("old-french"), server::token::digest("old-allies")],
        "spectator": server::token::digest("old-spectator"),
    });
    let (mut g, _) = catalog::open("hastenbeck", &[], None, 31).expect("opens");
    let mut rows = vec![format!(
        "INSERT INTO games VALUES ('oldgame', 'saxe', 'hastenbeck', '[]', 31, 'hotseat', NULL, '{tokens}', 1700000000)"
    )];
    for seq in 1..=3 {
        let (a, _) = g.apply_index(0).expect("legal");
        rows.push(format!(
            "INSERT INTO actions VALUES ('oldgame', {seq}, '{a}')"
        ));
    }
    rows
}

/// A database written by the server before this change opens, its games play on, and new games
/// with invitations and verifiable dice go in beside them.
async fn an_older_database_keeps_working(store: Arc<dyn Store>) {
    let (meta, actions) = store
        .load("oldgame")
        .await
        .expect("an older row loads")
        .expect("stored");
    assert_eq!(meta.dice, None);
    assert_eq!(meta.tokens.invitation, None);
    assert_eq!(actions.len(), 3);
    let api = Api::over(store);
    let old = Created {
        id: "oldgame".into(),
        french: Some("old-french".into()),
        allies: Some("old-allies".into()),
        spectator: "old-spectator".into(),
        raw: json!({}),
    };
    assert_eq!(api.game(&old, "old-spectator").await["version"], 3);
    assert_eq!(api.game(&old, "old-spectator").await["dice"], json!(null));
    let mut rng = Rng::new(3);
    api.play_one(&old, &mut rng)
        .await
        .expect("the old game goes on");
    assert_eq!(api.game(&old, "old-french").await["version"], 4);
    let c = api
        .create(json!({"scenario": "hastenbeck", "mode": "friend"}))
        .await;
    let g = api.game(&c, c.allies.as_deref().expect("Allies")).await;
    assert_eq!(g["decider"], "French");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_an_older_file_is_migrated() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("old.db").display());
    {
        let opts = <sqlx::sqlite::SqliteConnectOptions as std::str::FromStr>::from_str(&url)
            .expect("url")
            .create_if_missing(true);
        let pool = sqlx::SqlitePool::connect_with(opts).await.expect("open");
        for q in OLD_SCHEMA.iter().map(|s| s.to_string()).chain(old_rows()) {
            sqlx::query(sqlx::AssertSqlSafe(q))
                .execute(&pool)
                .await
                .expect("older rows");
        }
        pool.close().await;
    }
    an_older_database_keeps_working(server::connect(&url).await.expect("open")).await;
}

/// A game played through the API over a store, then rebuilt by a new server (empty cache) from
/// the same database: same version, same view, and it goes on.
async fn played_and_rebuilt<F, Fut>(store: Arc<dyn Store>, reopen: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Arc<dyn Store>>,
{
    let api = Api::over(store);
    let c: Created = api
        .create(json!({"scenario": "hastenbeck", "mode": "hotseat", "seed": 21}))
        .await;
    let mut rng = Rng::new(5);
    for _ in 0..25 {
        api.play_one(&c, &mut rng).await.expect("game goes on");
    }
    let before = api.game(&c, c.any_token()).await;
    assert_eq!(before["version"], 25);

    let api2 = Api::over(reopen().await);
    let after = api2.game(&c, c.any_token()).await;
    assert_eq!(after["version"], 25);
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["log"], before["log"]);
    api2.play_one(&c, &mut rng).await.expect("goes on");
    assert_eq!(api2.game(&c, c.any_token()).await["version"], 26);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_store() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("t.db").display());
    let open = || async { server::connect(&url).await.expect("open SQLite") };
    suite(open().await, open).await;
    let url2 = format!("sqlite://{}", dir.path().join("t2.db").display());
    let open2 = || async { server::connect(&url2).await.expect("open SQLite") };
    played_and_rebuilt(open2().await, open2).await;
    // The file is in WAL mode.
    let pool = sqlx::SqlitePool::connect(&url).await.expect("open");
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(&pool)
        .await
        .expect("pragma");
    assert_eq!(mode, "wal");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_refuses_a_memory_database() {
    assert!(server::connect("sqlite::memory:").await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_store() {
    let pg = Postgres::start();
    let url = pg.url.clone();
    let open = || async { server::connect(&url).await.expect("connect to PostgreSQL") };
    suite(open().await, open).await;

    // A database of the older server, migrated.
    let url3 = pg.create_database("tricorne_old");
    {
        let pool = sqlx::PgPool::connect(&url3).await.expect("connect");
        for q in OLD_SCHEMA.iter().map(|s| s.to_string()).chain(old_rows()) {
            sqlx::query(sqlx::AssertSqlSafe(q))
                .execute(&pool)
                .await
                .expect("older rows");
        }
        pool.close().await;
    }
    an_older_database_keeps_working(server::connect(&url3).await.expect("connect")).await;

    // The same game test as for SQLite, in a database of its own.
    let url2 = pg.create_database("tricorne_game");
    let open2 = || async { server::connect(&url2).await.expect("connect to PostgreSQL") };
    played_and_rebuilt(open2().await, open2).await;
    drop(pg);
}
