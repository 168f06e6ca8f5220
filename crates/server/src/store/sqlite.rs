//! SQLite in one file: WAL journal, `synchronous = FULL`, one writer with group commit.
//!
//! `FULL` makes SQLite sync the write-ahead log at every commit, so an accepted action survives
//! not only the server being killed (which `NORMAL` already survives in WAL mode, as the log is
//! written before the commit returns) but also a power cut or a kernel crash, which `NORMAL` may
//! lose the last transactions to. A sync costs milliseconds on a virtual disk (8 ms on the machine
//! of docs/server.md), so one writer task takes every write waiting at that moment into one
//! transaction — one sync for all — each write inside its own savepoint: a write that fails (a
//! sequence number already taken) is rolled back alone and the others go on. Nobody is answered
//! before the commit, so an accepted action is on disk.

use super::{
    GameMeta, Store, StoreError, db_error, decode_meta, encode_dice, encode_options, encode_tokens,
    now_column, seed_column, seq_column,
};
use async_trait::async_trait;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{Connection, Row};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

const SCHEMA: [&str; 2] = [
    "CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        ruleset TEXT NOT NULL,
        scenario TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        mode TEXT NOT NULL,
        ai_seat INTEGER,
        tokens TEXT NOT NULL,
        created INTEGER NOT NULL,
        dice TEXT,
        ai_level TEXT
    )",
    "CREATE TABLE IF NOT EXISTS actions (
        game_id TEXT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID",
];

/// Issue 13 (expiry of abandoned games): each action's time, and a mark on the games found over.
/// Added to a database of any age; the actions stored before count as written at the upgrade.
async fn upgrade(conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    let mut tx = conn.begin().await?;
    let columns = |table: &'static str| {
        sqlx::query_scalar::<_, String>("SELECT name FROM pragma_table_info(?)").bind(table)
    };
    let actions = columns("actions").fetch_all(&mut *tx).await?;
    if !actions.iter().any(|c| c == "written") {
        sqlx::query("ALTER TABLE actions ADD COLUMN written INTEGER")
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE actions SET written = ?")
            .bind(now_column())
            .execute(&mut *tx)
            .await?;
    }
    let games = columns("games").fetch_all(&mut *tx).await?;
    if !games.iter().any(|c| c == "finished") {
        sqlx::query("ALTER TABLE games ADD COLUMN finished INTEGER NOT NULL DEFAULT 0")
            .execute(&mut *tx)
            .await?;
    }
    // Issue 19 (undo): how many actions each game took back.
    if !games.iter().any(|c| c == "undone") {
        sqlx::query("ALTER TABLE games ADD COLUMN undone INTEGER NOT NULL DEFAULT 0")
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await
}

/// Games in an SQLite file.
pub struct SqliteStore {
    /// The writer task's queue.
    jobs: mpsc::UnboundedSender<Job>,
    /// Readers (loading a game) do not wait for writers in WAL mode.
    reader: SqlitePool,
    path: String,
}

/// A file written by an older tricorne: add the columns it lacks (their NULL is what an older
/// game means: a plain seed).
async fn migrate(conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    let has_dice: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM pragma_table_info('games') WHERE name = 'dice'")
            .fetch_one(&mut *conn)
            .await?;
    if has_dice == 0 {
        sqlx::query("ALTER TABLE games ADD COLUMN dice TEXT")
            .execute(&mut *conn)
            .await?;
    }
    // Issue 20: the computer's level per game (NULL: the server's own).
    let has_level: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM pragma_table_info('games') WHERE name = 'ai_level'",
    )
    .fetch_one(&mut *conn)
    .await?;
    if has_level == 0 {
        sqlx::query("ALTER TABLE games ADD COLUMN ai_level TEXT")
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// A write for the writer task.
enum Write {
    Create(Box<GameMeta>, Vec<String>),
    Append(String, u64, Vec<String>),
    Seats(Box<(GameMeta, GameMeta)>),
    /// Take back actions: (game, actions stored, actions kept).
    TakeBack(String, u64, u64),
    /// Mark a game as over.
    Keep(String),
    /// Delete a game idle since before a time (a conflict if it is not).
    Expire(String, i64),
}

struct Job {
    write: Write,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// Most writes in one transaction.
const BATCH: usize = 512;

impl SqliteStore {
    /// Open (and create if missing) the database `url` names: `sqlite://file.db`, `sqlite:file.db`
    /// or a plain path.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .unwrap_or(url)
            .to_string();
        if path.is_empty() || path.starts_with(":memory:") {
            return Err(StoreError::Database(
                "SQLite needs a file (the action list is the game: an in-memory database would \
                 lose every game at exit)"
                    .into(),
            ));
        }
        let opts = SqliteConnectOptions::from_str(&format!("sqlite://{path}"))
            .map_err(|e| StoreError::Database(format!("{url}: {e}")))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        // One writer connection: SQLite has one writer at a time anyway. It does not checkpoint
        // the WAL into the database itself (that syncs the database file, a pause for every
        // write waiting behind it); a task of its own does, beside it. When the WAL is reset it
        // is cut back to 16 MB.
        let opts = opts.pragma("journal_size_limit", "16777216");
        let mut writer =
            SqliteConnection::connect_with(&opts.clone().pragma("wal_autocheckpoint", "0"))
                .await
                .map_err(|e| StoreError::Database(format!("cannot open {path}: {e}")))?;
        for stmt in SCHEMA {
            sqlx::query(stmt)
                .execute(&mut writer)
                .await
                .map_err(|e| StoreError::Database(format!("{path}: schema: {e}")))?;
        }
        migrate(&mut writer)
            .await
            .map_err(|e| StoreError::Database(format!("{path}: schema: {e}")))?;
        upgrade(&mut writer)
            .await
            .map_err(|e| StoreError::Database(format!("{path}: schema: {e}")))?;
        let reader = SqlitePoolOptions::new()
            .max_connections(2)
            .connect_with(opts.clone())
            .await
            .map_err(|e| StoreError::Database(format!("cannot open {path}: {e}")))?;
        let checkpointer = SqliteConnection::connect_with(&opts)
            .await
            .map_err(|e| StoreError::Database(format!("cannot open {path}: {e}")))?;
        let (jobs, queue) = mpsc::unbounded_channel();
        let (written, pages) = mpsc::channel(1);
        let restart = Arc::new(AtomicBool::new(false));
        tokio::spawn(write_loop(writer, queue, written, restart.clone()));
        tokio::spawn(checkpoint_loop(checkpointer, pages, restart));
        Ok(Self { jobs, reader, path })
    }

    async fn write(&self, write: Write) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        self.jobs
            .send(Job { write, done })
            .map_err(|_| StoreError::Database("the SQLite writer has stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Database("the SQLite writer has stopped".into()))?
    }
}

/// Writes between two checkpoints of the WAL.
const CHECKPOINT_EVERY: usize = 500;
/// WAL frames (pages) left after a passive checkpoint beyond which the writer restarts the WAL
/// itself: under a steady stream of writes a passive checkpoint never finds the log all copied,
/// so the log would grow without end.
const RESTART_FRAMES: i64 = 4_000;

/// The writer task: every write waiting when it is free goes into one transaction.
async fn write_loop(
    mut conn: SqliteConnection,
    mut queue: mpsc::UnboundedReceiver<Job>,
    checkpoint: mpsc::Sender<()>,
    restart: Arc<AtomicBool>,
) {
    let mut since = 0;
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match queue.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        let results = commit(&mut conn, &batch).await;
        since += batch.len();
        for (job, r) in batch.into_iter().zip(results) {
            // The asker may have gone (its request was cancelled); the write stands.
            let _ = job.done.send(r);
        }
        if since >= CHECKPOINT_EVERY && checkpoint.try_send(()).is_ok() {
            since = 0;
        }
        if restart.swap(false, Ordering::Relaxed) {
            // Most of the log is in the database already (the passive checkpoints copied it):
            // a short pause to copy the rest and start the log again from its beginning.
            if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(RESTART)")
                .execute(&mut conn)
                .await
            {
                tracing::warn!("SQLite checkpoint: {e}");
            }
        }
    }
    // The last writes go into the database file before the connection closes.
    let _ = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
        .execute(&mut conn)
        .await;
}

/// Copy the WAL into the database file now and then, beside the writer (a passive checkpoint
/// never blocks it); ask the writer to restart the log when it stays long. Ends with the writer.
async fn checkpoint_loop(
    mut conn: SqliteConnection,
    mut due: mpsc::Receiver<()>,
    restart: Arc<AtomicBool>,
) {
    while due.recv().await.is_some() {
        // (busy, frames in the log, frames copied)
        match sqlx::query_as::<_, (i64, i64, i64)>("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&mut conn)
            .await
        {
            Ok((_, log, _)) if log > RESTART_FRAMES => restart.store(true, Ordering::Relaxed),
            Ok(_) => {}
            Err(e) => tracing::warn!("SQLite checkpoint: {e}"),
        }
    }
}

/// One transaction for a batch. An append is one statement, which SQLite undoes alone if it
/// fails; a creation (two statements) has a savepoint of its own. Each statement is a round
/// trip to SQLite's thread, and on a busy machine each costs a wait for a processor, so a
/// commit has as few as the writes allow.
async fn commit(conn: &mut SqliteConnection, batch: &[Job]) -> Vec<Result<(), StoreError>> {
    let fail = |e: &StoreError| {
        batch
            .iter()
            .map(|_| Err(StoreError::Database(e.to_string())))
            .collect()
    };
    let mut tx = match conn.begin().await {
        Ok(tx) => tx,
        Err(e) => return fail(&db_error(e, "")),
    };
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        let r = match &job.write {
            Write::Append(game, first_seq, actions) => {
                append_actions(&mut tx, game, *first_seq, actions).await
            }
            Write::Seats(b) => update_seats(&mut tx, &b.0, &b.1).await,
            Write::TakeBack(game, stored, keep) => match tx.begin().await {
                Ok(mut sp) => match take_back(&mut sp, game, *stored, *keep).await {
                    Ok(()) => sp.commit().await.map_err(|e| db_error(e, game)),
                    Err(e) => {
                        let _ = sp.rollback().await;
                        Err(e)
                    }
                },
                Err(e) => Err(db_error(e, game)),
            },
            Write::Keep(game) => sqlx::query("UPDATE games SET finished = 1 WHERE id = ?")
                .bind(game)
                .execute(&mut *tx)
                .await
                .map(|_| ())
                .map_err(|e| db_error(e, game)),
            Write::Expire(game, before) => match tx.begin().await {
                Ok(mut sp) => match expire_game(&mut sp, game, *before).await {
                    Ok(()) => sp.commit().await.map_err(|e| db_error(e, game)),
                    Err(e) => {
                        let _ = sp.rollback().await;
                        Err(e)
                    }
                },
                Err(e) => Err(db_error(e, game)),
            },
            Write::Create(meta, actions) => match tx.begin().await {
                Ok(mut sp) => match create_game(&mut sp, meta, actions).await {
                    Ok(()) => sp.commit().await.map_err(|e| db_error(e, "")),
                    Err(e) => {
                        let _ = sp.rollback().await;
                        Err(e)
                    }
                },
                Err(e) => Err(db_error(e, "")),
            },
        };
        results.push(r);
    }
    match tx.commit().await {
        Ok(()) => results,
        Err(e) => fail(&db_error(e, "")),
    }
}

/// One statement: the seats change only if they are still as the asker saw them.
async fn update_seats(
    conn: &mut SqliteConnection,
    before: &GameMeta,
    after: &GameMeta,
) -> Result<(), StoreError> {
    let changed = sqlx::query(
        "UPDATE games SET tokens = ?1, dice = ?2, seed = ?3
         WHERE id = ?4 AND tokens = ?5 AND dice IS ?6 AND seed = ?7",
    )
    .bind(encode_tokens(&after.tokens))
    .bind(encode_dice(&after.dice))
    .bind(seed_column(after.seed))
    .bind(&before.id)
    .bind(encode_tokens(&before.tokens))
    .bind(encode_dice(&before.dice))
    .bind(seed_column(before.seed))
    .execute(&mut *conn)
    .await
    .map_err(|e| db_error(e, &before.id))?
    .rows_affected();
    if changed == 1 {
        Ok(())
    } else {
        Err(StoreError::Conflict(
            "the game's seats changed meanwhile (another request was first)".into(),
        ))
    }
}

/// Delete the actions after `keep` if the game has `stored` actions, and count them as taken
/// back (issue 19); a conflict if the game has another number of actions.
async fn take_back(
    conn: &mut SqliteConnection,
    game: &str,
    stored: u64,
    keep: u64,
) -> Result<(), StoreError> {
    let now: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?")
            .bind(game)
            .fetch_one(&mut *conn)
            .await
            .map_err(|e| db_error(e, game))?;
    if now != seq_column(stored)? || keep > stored {
        return Err(StoreError::Conflict(format!(
            "the game has {now} actions stored, not {stored}: another decision was taken first"
        )));
    }
    sqlx::query("DELETE FROM actions WHERE game_id = ? AND seq > ?")
        .bind(game)
        .bind(seq_column(keep)?)
        .execute(&mut *conn)
        .await
        .map_err(|e| db_error(e, game))?;
    sqlx::query("UPDATE games SET undone = undone + ? WHERE id = ?")
        .bind(seq_column(stored - keep)?)
        .bind(game)
        .execute(&mut *conn)
        .await
        .map_err(|e| db_error(e, game))?;
    Ok(())
}

/// Delete a game if it is idle since before `before` and not over; a conflict if it is not.
async fn expire_game(
    conn: &mut SqliteConnection,
    game: &str,
    before: i64,
) -> Result<(), StoreError> {
    let idle: Option<i64> = sqlx::query_scalar(concat!(
        "SELECT 1 FROM games g WHERE g.id = ? AND g.finished = 0 AND ",
        last_active!(),
        " < ?"
    ))
    .bind(game)
    .bind(before)
    .fetch_optional(&mut *conn)
    .await
    .map_err(|e| db_error(e, game))?;
    if idle.is_none() {
        return Err(StoreError::Conflict(format!("game {game} is not idle")));
    }
    for stmt in [
        "DELETE FROM actions WHERE game_id = ?",
        "DELETE FROM games WHERE id = ?",
    ] {
        sqlx::query(stmt)
            .bind(game)
            .execute(&mut *conn)
            .await
            .map_err(|e| db_error(e, game))?;
    }
    Ok(())
}

async fn create_game(
    conn: &mut SqliteConnection,
    meta: &GameMeta,
    actions: &[String],
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO games (id, ruleset, scenario, options, seed, mode, ai_seat, tokens, created, dice, ai_level)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&meta.id)
    .bind(&meta.ruleset)
    .bind(&meta.scenario)
    .bind(encode_options(&meta.options))
    .bind(seed_column(meta.seed))
    .bind(meta.mode.as_str())
    .bind(meta.ai_seat.map(i32::from))
    .bind(encode_tokens(&meta.tokens))
    .bind(meta.created)
    .bind(encode_dice(&meta.dice))
    .bind(meta.ai_level.as_deref())
    .execute(&mut *conn)
    .await
    .map_err(|e| db_error(e, &meta.id))?;
    append_actions(conn, &meta.id, 1, actions).await
}

/// Append actions numbered from `first_seq` in one statement: the actions go in as one JSON
/// array, and rows are inserted only if `first_seq` follows the last action stored. A `seq`
/// already taken (the primary key) or an unknown game (the foreign key) fails the statement,
/// and SQLite undoes it whole.
async fn append_actions(
    conn: &mut SqliteConnection,
    game: &str,
    first_seq: u64,
    actions: &[String],
) -> Result<(), StoreError> {
    let first = seq_column(first_seq)?;
    seq_column(first_seq.saturating_add(actions.len() as u64))?;
    if !actions.is_empty() {
        // A list of strings always serialises.
        let list = serde_json::to_string(actions).unwrap_or_default();
        let inserted = sqlx::query(
            "INSERT INTO actions (game_id, seq, action, written)
             SELECT ?1, ?2 + key, value, ?4 FROM json_each(?3)
             WHERE (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?1) = ?2 - 1",
        )
        .bind(game)
        .bind(first)
        .bind(list)
        .bind(now_column())
        .execute(&mut *conn)
        .await
        .map_err(|e| db_error(e, game))?
        .rows_affected();
        if inserted == actions.len() as u64 {
            return Ok(());
        }
    }
    // Nothing inserted (or nothing to insert): say why.
    let stored: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?")
            .bind(game)
            .fetch_one(&mut *conn)
            .await
            .map_err(|e| db_error(e, game))?;
    if actions.is_empty() && stored == first - 1 {
        return Ok(());
    }
    Err(StoreError::Conflict(format!(
        "the game has {stored} actions stored, not {}: another decision was taken first",
        first_seq.saturating_sub(1)
    )))
}

#[async_trait]
impl Store for SqliteStore {
    async fn create(&self, meta: &GameMeta, actions: &[String]) -> Result<(), StoreError> {
        self.write(Write::Create(Box::new(meta.clone()), actions.to_vec()))
            .await
    }

    async fn append(
        &self,
        game: &str,
        first_seq: u64,
        actions: &[String],
    ) -> Result<(), StoreError> {
        self.write(Write::Append(game.to_string(), first_seq, actions.to_vec()))
            .await
    }

    async fn take_back(&self, game: &str, stored: u64, keep: u64) -> Result<(), StoreError> {
        self.write(Write::TakeBack(game.to_string(), stored, keep))
            .await
    }

    async fn update_seats(&self, before: &GameMeta, after: &GameMeta) -> Result<(), StoreError> {
        self.write(Write::Seats(Box::new((before.clone(), after.clone()))))
            .await
    }

    async fn load(&self, game: &str) -> Result<Option<(GameMeta, Vec<String>)>, StoreError> {
        // One read transaction, so the metadata and the actions are of the same moment.
        let mut tx = self.reader.begin().await.map_err(|e| db_error(e, game))?;
        let row = sqlx::query(
            "SELECT id, ruleset, scenario, options, seed, mode, ai_seat, tokens, created, dice, ai_level, undone
             FROM games WHERE id = ?",
        )
        .bind(game)
        .fetch_optional(&mut *tx)
        .await
        .map_err(|e| db_error(e, game))?;
        let Some(row) = row else { return Ok(None) };
        let meta = meta_of(&row)?;
        let actions: Vec<String> =
            sqlx::query_scalar("SELECT action FROM actions WHERE game_id = ? ORDER BY seq")
                .bind(game)
                .fetch_all(&mut *tx)
                .await
                .map_err(|e| db_error(e, game))?;
        tx.commit().await.map_err(|e| db_error(e, game))?;
        Ok(Some((meta, actions)))
    }

    async fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        sqlx::query_scalar("SELECT id FROM games ORDER BY created, id")
            .fetch_all(&self.reader)
            .await
            .map_err(|e| db_error(e, ""))
    }

    async fn idle_games(&self, before: i64) -> Result<Vec<String>, StoreError> {
        sqlx::query_scalar(concat!(
            "SELECT id FROM games g WHERE g.finished = 0 AND ",
            last_active!(),
            " < ? ORDER BY created, id"
        ))
        .bind(before)
        .fetch_all(&self.reader)
        .await
        .map_err(|e| db_error(e, ""))
    }

    async fn keep(&self, game: &str) -> Result<(), StoreError> {
        self.write(Write::Keep(game.to_string())).await
    }

    async fn expire(&self, game: &str, before: i64) -> Result<bool, StoreError> {
        match self.write(Write::Expire(game.to_string(), before)).await {
            Ok(()) => Ok(true),
            Err(StoreError::Conflict(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    fn describe(&self) -> String {
        format!("SQLite file {} (WAL, synchronous=FULL)", self.path)
    }
}

fn meta_of(row: &sqlx::sqlite::SqliteRow) -> Result<GameMeta, StoreError> {
    let get = |e: sqlx::Error| StoreError::Corrupt(e.to_string());
    decode_meta(
        row.try_get("id").map_err(get)?,
        row.try_get("ruleset").map_err(get)?,
        row.try_get("scenario").map_err(get)?,
        row.try_get::<String, _>("options").map_err(get)?.as_str(),
        row.try_get("seed").map_err(get)?,
        row.try_get::<String, _>("mode").map_err(get)?.as_str(),
        row.try_get("ai_seat").map_err(get)?,
        row.try_get::<String, _>("tokens").map_err(get)?.as_str(),
        row.try_get("created").map_err(get)?,
        row.try_get::<Option<String>, _>("dice")
            .map_err(get)?
            .as_deref(),
        row.try_get("ai_level").map_err(get)?,
        row.try_get("undone").map_err(get)?,
    )
}
