//! PostgreSQL: a pool of connections; every write is one transaction, and the primary key
//! `(game_id, seq)` makes the second of two writers for one decision fail.

use super::{
    GameMeta, Head, Notice, Store, StoreError, db_error, decode_meta, encode_dice, encode_options,
    encode_tokens, now_column, seed_column, seq_column,
};
use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
use std::time::Duration;
use tokio::sync::mpsc;

/// The channel on which every server writing to the database tells the others what it wrote:
/// the payload is `WRITER GAME VERSION` (the writer's tag, so that a server skips its own).
pub const CHANNEL: &str = "tricorne_games";

/// Tell the other servers, in the transaction of the write (PostgreSQL delivers a notification
/// when, and only if, its transaction commits), that `game` now has the actions counted in the
/// store.
async fn notify(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    tag: &str,
    game: &str,
) -> Result<(), StoreError> {
    sqlx::query(
        "SELECT pg_notify($1, $2 || ' ' || $3 || ' ' ||
             (SELECT COUNT(*) FROM actions WHERE game_id = $3)::text)",
    )
    .bind(CHANNEL)
    .bind(tag)
    .bind(game)
    .execute(&mut **tx)
    .await
    .map(|_| ())
    .map_err(|e| db_error(e, game))
}

/// A notification's payload, `None` if it is not one of ours or is this writer's own.
fn parse_notice(payload: &str, own: &str) -> Option<Notice> {
    let mut parts = payload.split(' ');
    let (tag, game, version) = (parts.next()?, parts.next()?, parts.next()?);
    if tag == own || parts.next().is_some() {
        return None;
    }
    Some(Notice::Changed {
        game: game.to_string(),
        version: version.parse().ok()?,
    })
}

/// Listen on [`CHANNEL`] until `out` is dropped: [`Notice::Up`] once listening, each other
/// writer's change, [`Notice::Down`] when the connection is lost (then connect again).
async fn listen(url: String, own: String, out: mpsc::Sender<Notice>) {
    let mut down_sent = false;
    loop {
        let listening = async {
            let mut l = PgListener::connect(&url).await?;
            l.listen(CHANNEL).await?;
            Ok::<_, sqlx::Error>(l)
        };
        let mut l = tokio::select! {
            r = listening => match r {
                Ok(l) => l,
                Err(e) => {
                    tracing::warn!("PostgreSQL notifications: cannot listen: {e}");
                    if !down_sent && out.send(Notice::Down).await.is_err() {
                        return;
                    }
                    down_sent = true;
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                }
            },
            () = out.closed() => return,
        };
        if out.send(Notice::Up).await.is_err() {
            return;
        }
        loop {
            let got = tokio::select! {
                r = l.try_recv() => r,
                () = out.closed() => return,
            };
            match got {
                Ok(Some(n)) => {
                    if let Some(notice) = parse_notice(n.payload(), &own)
                        && out.send(notice).await.is_err()
                    {
                        return;
                    }
                }
                // The connection was lost: notifications may have been missed.
                Ok(None) | Err(_) => {
                    tracing::warn!("PostgreSQL notifications: connection lost; reconnecting");
                    if out.send(Notice::Down).await.is_err() {
                        return;
                    }
                    down_sent = true;
                    break;
                }
            }
        }
    }
}

const SCHEMA: [&str; 4] = [
    "CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        ruleset TEXT NOT NULL,
        scenario TEXT NOT NULL,
        options TEXT NOT NULL,
        seed BIGINT NOT NULL,
        mode TEXT NOT NULL,
        ai_seat INTEGER,
        tokens TEXT NOT NULL,
        created BIGINT NOT NULL
    )",
    "CREATE TABLE IF NOT EXISTS actions (
        game_id TEXT NOT NULL REFERENCES games(id),
        seq BIGINT NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    )",
    // Added with verifiable dice; NULL (a plain seed) in the rows of an older tricorne.
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS dice TEXT",
    // Issue 20: the computer's level per game; NULL (the server's own) in older rows.
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS ai_level TEXT",
];

/// Issue 13 (expiry of abandoned games): each action's time, and a mark on the games found over.
/// Added to a database of any age; the actions stored before count as written at the upgrade.
async fn upgrade(pool: &PgPool) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    let has_written: Option<i32> = sqlx::query_scalar(
        "SELECT 1 FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = 'actions' AND column_name = 'written'",
    )
    .fetch_optional(&mut *tx)
    .await?;
    if has_written.is_none() {
        sqlx::query("ALTER TABLE actions ADD COLUMN IF NOT EXISTS written BIGINT")
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE actions SET written = $1 WHERE written IS NULL")
            .bind(now_column())
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query(
        "ALTER TABLE games ADD COLUMN IF NOT EXISTS finished BOOLEAN NOT NULL DEFAULT FALSE",
    )
    .execute(&mut *tx)
    .await?;
    // Issue 19 (undo): how many actions each game took back.
    sqlx::query("ALTER TABLE games ADD COLUMN IF NOT EXISTS undone BIGINT NOT NULL DEFAULT 0")
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

/// Games in a PostgreSQL database.
pub struct PostgresStore {
    pool: PgPool,
    where_: String,
    url: String,
    /// This writer's tag in its notifications (random: one per store).
    tag: String,
}

impl PostgresStore {
    /// Connect to `postgres://user@host:port/db` and create the tables if missing.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .connect(url)
            .await
            .map_err(|e| StoreError::Database(format!("cannot connect to PostgreSQL: {e}")))?;
        for stmt in SCHEMA {
            sqlx::query(stmt)
                .execute(&pool)
                .await
                .map_err(|e| StoreError::Database(format!("PostgreSQL schema: {e}")))?;
        }
        upgrade(&pool)
            .await
            .map_err(|e| StoreError::Database(format!("PostgreSQL schema: {e}")))?;
        // Say where, without the password.
        let where_ = match url.rsplit_once('@') {
            Some((_, host)) => format!("postgres://…@{host}"),
            None => url.to_string(),
        };
        let tag = crate::token::new_token()
            .map_err(|e| StoreError::Database(format!("no randomness for a tag: {e}")))?;
        Ok(Self {
            pool,
            where_,
            url: url.to_string(),
            tag,
        })
    }
}

#[async_trait]
impl Store for PostgresStore {
    async fn create(&self, meta: &GameMeta, actions: &[String]) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await.map_err(|e| db_error(e, &meta.id))?;
        sqlx::query(
            "INSERT INTO games (id, ruleset, scenario, options, seed, mode, ai_seat, tokens, created, dice, ai_level)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
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
        .execute(&mut *tx)
        .await
        .map_err(|e| db_error(e, &meta.id))?;
        for (i, a) in actions.iter().enumerate() {
            sqlx::query(
                "INSERT INTO actions (game_id, seq, action, written) VALUES ($1, $2, $3, $4)",
            )
            .bind(&meta.id)
            .bind(seq_column(i as u64 + 1)?)
            .bind(a)
            .bind(now_column())
            .execute(&mut *tx)
            .await
            .map_err(|e| db_error(e, &meta.id))?;
        }
        tx.commit().await.map_err(|e| db_error(e, &meta.id))
    }

    async fn append(
        &self,
        game: &str,
        first_seq: u64,
        actions: &[String],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await.map_err(|e| db_error(e, game))?;
        // The game's row first, as `take_back` does: an action taken back meanwhile is seen.
        sqlx::query("SELECT 1 FROM games WHERE id = $1 FOR UPDATE")
            .bind(game)
            .fetch_optional(&mut *tx)
            .await
            .map_err(|e| db_error(e, game))?;
        let stored: i64 =
            sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = $1")
                .bind(game)
                .fetch_one(&mut *tx)
                .await
                .map_err(|e| db_error(e, game))?;
        if stored != seq_column(first_seq)? - 1 {
            return Err(StoreError::Conflict(format!(
                "the game has {stored} actions stored, not {}: another decision was taken first",
                first_seq.saturating_sub(1)
            )));
        }
        for (i, a) in actions.iter().enumerate() {
            sqlx::query(
                "INSERT INTO actions (game_id, seq, action, written) VALUES ($1, $2, $3, $4)",
            )
            .bind(game)
            .bind(seq_column(first_seq + i as u64)?)
            .bind(a)
            .bind(now_column())
            .execute(&mut *tx)
            .await
            .map_err(|e| db_error(e, game))?;
        }
        notify(&mut tx, &self.tag, game).await?;
        tx.commit().await.map_err(|e| db_error(e, game))
    }

    async fn take_back(&self, game: &str, stored: u64, keep: u64) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await.map_err(|e| db_error(e, game))?;
        // The game's row first: two writers of one game are taken one after the other.
        let found: Option<i64> =
            sqlx::query_scalar("SELECT undone FROM games WHERE id = $1 FOR UPDATE")
                .bind(game)
                .fetch_optional(&mut *tx)
                .await
                .map_err(|e| db_error(e, game))?;
        if found.is_none() {
            return Err(StoreError::UnknownGame(game.to_string()));
        }
        let now: i64 =
            sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = $1")
                .bind(game)
                .fetch_one(&mut *tx)
                .await
                .map_err(|e| db_error(e, game))?;
        if now != seq_column(stored)? || keep > stored {
            return Err(StoreError::Conflict(format!(
                "the game has {now} actions stored, not {stored}: another decision was taken first"
            )));
        }
        sqlx::query("DELETE FROM actions WHERE game_id = $1 AND seq > $2")
            .bind(game)
            .bind(seq_column(keep)?)
            .execute(&mut *tx)
            .await
            .map_err(|e| db_error(e, game))?;
        sqlx::query("UPDATE games SET undone = undone + $2 WHERE id = $1")
            .bind(game)
            .bind(seq_column(stored - keep)?)
            .execute(&mut *tx)
            .await
            .map_err(|e| db_error(e, game))?;
        notify(&mut tx, &self.tag, game).await?;
        tx.commit().await.map_err(|e| db_error(e, game))
    }

    async fn update_seats(&self, before: &GameMeta, after: &GameMeta) -> Result<(), StoreError> {
        // One statement: the seats change only if they are still as the asker saw them.
        let mut tx = self
            .pool
            .begin()
            .await
            .map_err(|e| db_error(e, &before.id))?;
        let changed = sqlx::query(
            "UPDATE games SET tokens = $1, dice = $2, seed = $3
             WHERE id = $4 AND tokens = $5 AND dice IS NOT DISTINCT FROM $6 AND seed = $7",
        )
        .bind(encode_tokens(&after.tokens))
        .bind(encode_dice(&after.dice))
        .bind(seed_column(after.seed))
        .bind(&before.id)
        .bind(encode_tokens(&before.tokens))
        .bind(encode_dice(&before.dice))
        .bind(seed_column(before.seed))
        .execute(&mut *tx)
        .await
        .map_err(|e| db_error(e, &before.id))?
        .rows_affected();
        if changed == 1 {
            notify(&mut tx, &self.tag, &before.id).await?;
            tx.commit().await.map_err(|e| db_error(e, &before.id))
        } else {
            Err(StoreError::Conflict(
                "the game's seats changed meanwhile (another request was first)".into(),
            ))
        }
    }

    async fn load(&self, game: &str) -> Result<Option<(GameMeta, Vec<String>)>, StoreError> {
        // REPEATABLE READ: the metadata and the actions are read from one snapshot.
        let mut tx = self.pool.begin().await.map_err(|e| db_error(e, game))?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .execute(&mut *tx)
            .await
            .map_err(|e| db_error(e, game))?;
        let row = sqlx::query(
            "SELECT id, ruleset, scenario, options, seed, mode, ai_seat, tokens, created, dice, ai_level, undone
             FROM games WHERE id = $1",
        )
        .bind(game)
        .fetch_optional(&mut *tx)
        .await
        .map_err(|e| db_error(e, game))?;
        let Some(row) = row else { return Ok(None) };
        let get = |e: sqlx::Error| StoreError::Corrupt(e.to_string());
        let meta = decode_meta(
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
        )?;
        let actions: Vec<String> =
            sqlx::query_scalar("SELECT action FROM actions WHERE game_id = $1 ORDER BY seq")
                .bind(game)
                .fetch_all(&mut *tx)
                .await
                .map_err(|e| db_error(e, game))?;
        tx.commit().await.map_err(|e| db_error(e, game))?;
        Ok(Some((meta, actions)))
    }

    async fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        sqlx::query_scalar("SELECT id FROM games ORDER BY created, id")
            .fetch_all(&self.pool)
            .await
            .map_err(|e| db_error(e, ""))
    }

    async fn idle_games(&self, before: i64) -> Result<Vec<String>, StoreError> {
        sqlx::query_scalar(concat!(
            "SELECT id FROM games g WHERE NOT g.finished AND ",
            last_active!(),
            " < $1 ORDER BY created, id"
        ))
        .bind(before)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| db_error(e, ""))
    }

    async fn keep(&self, game: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET finished = TRUE WHERE id = $1")
            .bind(game)
            .execute(&self.pool)
            .await
            .map(|_| ())
            .map_err(|e| db_error(e, game))
    }

    async fn expire(&self, game: &str, before: i64) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await.map_err(|e| db_error(e, game))?;
        // Lock the game's row: an append's foreign key check waits for it (and one in progress
        // makes this wait), so the check below sees every action written before the deletion.
        let found: Option<bool> =
            sqlx::query_scalar("SELECT finished FROM games WHERE id = $1 FOR UPDATE")
                .bind(game)
                .fetch_optional(&mut *tx)
                .await
                .map_err(|e| db_error(e, game))?;
        if found != Some(false) {
            return Ok(false);
        }
        let idle: Option<i32> = sqlx::query_scalar(concat!(
            "SELECT 1 FROM games g WHERE g.id = $1 AND ",
            last_active!(),
            " < $2"
        ))
        .bind(game)
        .bind(before)
        .fetch_optional(&mut *tx)
        .await
        .map_err(|e| db_error(e, game))?;
        if idle.is_none() {
            return Ok(false);
        }
        for stmt in [
            "DELETE FROM actions WHERE game_id = $1",
            "DELETE FROM games WHERE id = $1",
        ] {
            sqlx::query(stmt)
                .bind(game)
                .execute(&mut *tx)
                .await
                .map_err(|e| db_error(e, game))?;
        }
        // The others drop it from memory (it has no actions now: it is gone).
        notify(&mut tx, &self.tag, game).await?;
        tx.commit().await.map_err(|e| db_error(e, game))?;
        Ok(true)
    }

    fn describe(&self) -> String {
        format!("PostgreSQL at {}", self.where_)
    }

    fn notifications(&self) -> Option<mpsc::Receiver<Notice>> {
        let (tx, rx) = mpsc::channel(1024);
        // Outside a runtime the sender is dropped at once: the feed is down for good, and the
        // server checks the store before each answer.
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(listen(self.url.clone(), self.tag.clone(), tx));
        }
        Some(rx)
    }

    async fn head(&self, game: &str) -> Result<Option<Head>, StoreError> {
        let row = sqlx::query(
            "SELECT tokens, dice, seed, undone,
                 (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = $1) AS actions
             FROM games WHERE id = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
        .await
        .map_err(|e| db_error(e, game))?;
        let Some(row) = row else { return Ok(None) };
        let get = |e: sqlx::Error| StoreError::Corrupt(e.to_string());
        let tokens: String = row.try_get("tokens").map_err(get)?;
        let dice: Option<String> = row.try_get("dice").map_err(get)?;
        let seed: i64 = row.try_get("seed").map_err(get)?;
        let actions: i64 = row.try_get("actions").map_err(get)?;
        let undone: i64 = row.try_get("undone").map_err(get)?;
        Ok(Some(Head {
            undone: u64::try_from(undone).unwrap_or(0),
            actions: u64::try_from(actions).unwrap_or(0),
            tokens: serde_json::from_str(&tokens)
                .map_err(|e| StoreError::Corrupt(format!("game {game}: tokens: {e}")))?,
            dice: dice
                .as_deref()
                .map(serde_json::from_str)
                .transpose()
                .map_err(|e| StoreError::Corrupt(format!("game {game}: dice: {e}")))?,
            seed: u64::from_le_bytes(seed.to_le_bytes()),
        }))
    }
}
