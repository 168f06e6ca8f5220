//! Games: create, show, act, live updates, record, replay, import.

use super::{JsonBody, body_bytes};
use crate::error::ApiError;
use crate::live::{Live, Rebuilt, Role, hidden_for, play_ai, push_log, rebuild, view_for};
use crate::redact::{RedactedLines, Redactor};
use crate::store::{GameMeta, Mode, StoreError, Tokens};
use crate::{AppState, IMPORT_LIMIT, token};
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use engine::{ActionInfo, ApplyError, GameRecord, Outcome, Seat};
use futures_util::{Stream, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::convert::Infallible;
use tokio_stream::wrappers::WatchStream;

/// `/api/games…` and `/api/import`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/events", get(events))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/replay", get(replay))
        .route(
            "/api/import",
            post(import).layer(DefaultBodyLimit::max(IMPORT_LIMIT)),
        )
}

/// `?token=T` (and `&upto=N` for the replay).
#[derive(Deserialize)]
struct Access {
    token: Option<String>,
    upto: Option<u64>,
}

type IdPath = Result<Path<String>, PathRejection>;
type AccessQuery = Result<Query<Access>, QueryRejection>;

fn id_of(p: IdPath) -> Result<String, ApiError> {
    p.map(|Path(id)| id)
        .map_err(|e| ApiError::BadRequest(e.body_text()))
}

fn access_of(q: AccessQuery) -> Result<Access, ApiError> {
    q.map(|Query(a)| a)
        .map_err(|e| ApiError::BadRequest(e.body_text()))
}

fn internal<E: std::fmt::Display>(e: E) -> ApiError {
    ApiError::Internal(e.to_string())
}

// ---------------------------------------------------------------------------------- create

/// `POST /api/games` body.
#[derive(Deserialize)]
struct NewGame {
    scenario: String,
    #[serde(default)]
    options: Vec<String>,
    seed: Option<u64>,
    mode: String,
    human: Option<String>,
}

fn seat_index(names: &[String; 2], name: &str) -> Result<u8, ApiError> {
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(name))
        .map(|i| i as u8)
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "unknown side {name:?} (this game's sides: {} and {})",
                names[0], names[1]
            ))
        })
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

fn tokens_for(ai_seat: Option<u8>) -> Result<Tokens, ApiError> {
    let mut seats: [Option<String>; 2] = [None, None];
    for (i, s) in seats.iter_mut().enumerate() {
        if ai_seat != Some(i as u8) {
            *s = Some(token::new_token().map_err(internal)?);
        }
    }
    Ok(Tokens {
        seats,
        spectator: token::new_token().map_err(internal)?,
    })
}

/// The 201 answer of a new game: its id, the tokens, the secret links. The only time the tokens
/// are sent: the game keeps their digests (`Tokens::digests`).
fn created_json(live: &Live, tokens: &Tokens, base: &str) -> Value {
    let names = live.game.seat_names();
    let id = &live.meta.id;
    let link = |t: &str| format!("{base}/play/{id}?token={t}");
    let mut seats = serde_json::Map::new();
    let mut links = serde_json::Map::new();
    for (i, t) in tokens.seats.iter().enumerate() {
        if let Some(t) = t {
            seats.insert(names[i].clone(), json!(t));
            links.insert(names[i].clone(), json!(link(t)));
        }
    }
    links.insert("spectator".into(), json!(link(&tokens.spectator)));
    json!({
        "game": id,
        "scenario": live.meta.scenario,
        "mode": live.meta.mode.as_str(),
        "ai_seat": live.meta.ai_seat.map(|s| names[usize::from(s & 1)].clone()),
        "version": live.version(),
        "seats": seats,
        "spectator": tokens.spectator,
        "links": links,
    })
}

async fn create(
    State(st): State<AppState>,
    JsonBody(body): JsonBody<NewGame>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let mode = Mode::parse(&body.mode).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "unknown mode {:?} (\"ai\", \"hotseat\" or \"friend\")",
            body.mode
        ))
    })?;
    if body.seed.is_some() && mode == Mode::Friend {
        return Err(ApiError::BadRequest(
            "a game against a friend takes no seed: whoever chose it could foresee the dice".into(),
        ));
    }
    let seed = match body.seed {
        Some(s) => s,
        None => token::new_seed().map_err(internal)?,
    };
    let dd = st.hub().data_dir().map(|p| p.to_path_buf());
    let (scenario, options) = (body.scenario.clone(), body.options.clone());
    let (mut game, start) = tokio::task::spawn_blocking(move || {
        catalog::open(&scenario, &options, dd.as_deref(), seed)
    })
    .await?
    .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let names = game.seat_names();
    let ai_seat = match mode {
        Mode::Ai => {
            let human = match body.human.as_deref() {
                None => 0,
                Some(h) => seat_index(&names, h)?,
            };
            Some(1 - human)
        }
        Mode::Hotseat | Mode::Friend => None,
    };
    let tokens = tokens_for(ai_seat)?;
    // The computer's first moves (a search takes time: off the async workers).
    let agent = st.hub().agent().to_string();
    let (game, actions, events) = tokio::task::spawn_blocking(move || {
        let mut actions = Vec::new();
        let mut events = Vec::new();
        play_ai(
            &agent,
            game.as_mut(),
            ai_seat,
            seed,
            0,
            &mut actions,
            &mut events,
        )
        .map(|()| (game, actions, events))
    })
    .await?
    .map_err(ApiError::Internal)?;
    let mut log = std::collections::VecDeque::new();
    push_log(&mut log, start.iter().cloned());
    push_log(&mut log, events.iter().cloned());
    let meta = GameMeta {
        id: token::new_game_id().map_err(internal)?,
        ruleset: game.ruleset_id(),
        scenario: body.scenario,
        options: body.options,
        seed,
        mode,
        ai_seat,
        tokens: tokens.digests(),
        created: now(),
    };
    let last_events = if events.is_empty() { start } else { events };
    let live = Live::new(meta, game, actions, log, last_events);
    let answer = created_json(&live, &tokens, st.public_url());
    st.hub().create(live).await?;
    Ok((StatusCode::CREATED, Json(answer)))
}

// ---------------------------------------------------------------------------------- show

/// `GET /api/games/{id}`: what a role sees of a game, everything redacted for it. It is written
/// straight to JSON text: the view is the only JSON tree built, and the log lines are redacted
/// as they are written, not copied.
#[derive(Serialize)]
struct GameAnswer<'a> {
    game: &'a str,
    ruleset: &'a str,
    scenario: &'a str,
    options: &'a [String],
    mode: &'static str,
    ai_seat: Option<&'a str>,
    seats: &'a [String; 2],
    version: u64,
    seat: Option<&'a str>,
    decider: Option<&'a str>,
    decision: String,
    legal: Vec<ActionInfo>,
    view: Value,
    log: RedactedLines<'a, &'a VecDeque<String>>,
    outcome: Option<OutcomeAnswer<'a>>,
}

/// `outcome` in the answers.
#[derive(Serialize)]
struct OutcomeAnswer<'a> {
    winner: Option<&'a str>,
    level: String,
    rule: String,
}

fn outcome_answer<'a>(
    outcome: Option<Outcome>,
    names: &'a [String; 2],
    r: &Redactor,
) -> Option<OutcomeAnswer<'a>> {
    outcome.map(|o| OutcomeAnswer {
        winner: o.winner.map(|s| seat_name(names, s)),
        level: r.text(&o.level),
        rule: r.text(&o.rule),
    })
}

fn seat_name(names: &[String; 2], seat: Seat) -> &str {
    &names[usize::from(seat.0 & 1)]
}

/// What a role sees of a game, as JSON text.
fn game_answer(live: &mut Live, role: Role) -> Result<Vec<u8>, ApiError> {
    let r = live.redactor(role);
    let live = &*live;
    let g = live.game.as_ref();
    let names = g.seat_names();
    let decider = g.decider();
    let mut view = view_for(g, role);
    r.json_in_place(&mut view);
    let decision = match view.get("decision").and_then(Value::as_str) {
        Some(d) => d.to_string(),
        None => match decider {
            Some(s) => format!("{} to decide", seat_name(&names, s)),
            None => "the game is over".into(),
        },
    };
    let seat = match role {
        Role::Seat(s) => Some(s),
        Role::Spectator => None,
    };
    let legal = match seat {
        Some(s) if decider == Some(s) => {
            let mut legal = g.legal();
            for a in &mut legal {
                r.text_in_place(&mut a.id);
                r.text_in_place(&mut a.label);
                a.hexes.iter_mut().for_each(|h| r.text_in_place(h));
            }
            legal
        }
        _ => Vec::new(),
    };
    let answer = GameAnswer {
        game: &live.meta.id,
        ruleset: &live.meta.ruleset,
        scenario: &live.meta.scenario,
        options: &live.meta.options,
        mode: live.meta.mode.as_str(),
        ai_seat: live.meta.ai_seat.map(|s| seat_name(&names, Seat(s))),
        seats: &names,
        version: live.version(),
        seat: seat.map(|s| seat_name(&names, s)),
        decider: decider.map(|s| seat_name(&names, s)),
        decision,
        legal,
        view,
        log: r.serialize_lines(&live.log),
        outcome: outcome_answer(g.outcome(), &names, &r),
    };
    let mut out = Vec::with_capacity(ANSWER_CAPACITY);
    serde_json::to_writer(&mut out, &answer).map_err(internal)?;
    Ok(out)
}

/// Room reserved for a game's answer: a Hastenbeck answer is 20 to 30 KB, and growing the buffer
/// step by step would copy it several times.
const ANSWER_CAPACITY: usize = 32 * 1024;

async fn show(
    State(st): State<AppState>,
    id: IdPath,
    q: AccessQuery,
) -> Result<Response, ApiError> {
    let (id, q) = (id_of(id)?, access_of(q)?);
    let slot = st.hub().get(&id).await?;
    let mut live = slot.live.lock().await;
    let role = live.role(q.token.as_deref())?;
    let body = game_answer(&mut live, role)?;
    drop(live);
    Ok(json_response(body))
}

/// JSON text as an answer (what `Json` does for a value).
fn json_response(body: Vec<u8>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

// ---------------------------------------------------------------------------------- act

/// `POST /api/games/{id}/actions` body.
#[derive(Deserialize)]
struct Submit {
    token: String,
    action: String,
    version: u64,
}

async fn act(
    State(st): State<AppState>,
    id: IdPath,
    JsonBody(body): JsonBody<Submit>,
) -> Result<Response, ApiError> {
    let id = id_of(id)?;
    let slot = st.hub().get(&id).await?;
    // One lock per game: a second submission for the same decision waits here, then finds the
    // version moved on and gets 409.
    let mut live = slot.live.lock().await;
    let role = live.role(Some(&body.token))?;
    let Role::Seat(seat) = role else {
        return Err(ApiError::Forbidden(
            "the spectators' link cannot act".into(),
        ));
    };
    let version = live.version();
    if body.version != version {
        return Err(ApiError::Conflict(format!(
            "stale version {}: the game is at version {version} (that decision was already taken; fetch the game again)",
            body.version
        )));
    }
    let cap = st.limits().max_game_actions;
    if version >= cap {
        return Err(ApiError::Conflict(format!(
            "this game has reached this server's limit of {cap} actions"
        )));
    }
    let Some(decider) = live.game.decider() else {
        return Err(ApiError::Conflict("the game is over".into()));
    };
    if decider != seat {
        return Err(ApiError::Forbidden(format!(
            "the {} decide now, not the {}",
            live.seat_name(decider),
            live.seat_name(seat)
        )));
    }
    let mut next = live.game.boxed_clone();
    let refused = match next.apply(&body.action) {
        Ok(events) => Ok(events),
        Err(ApplyError::Illegal(why)) => {
            // The ruleset's reason, when it gives one beyond the id ("path crosses the base of
            // …"), redacted like every string sent to this seat.
            let why = why
                .strip_prefix(body.action.as_str())
                .map_or(why.as_str(), |rest| {
                    rest.trim_start_matches([' ', '—', '-', ':'])
                })
                .trim();
            let mut msg = format!("{:?} is not a legal action now", body.action);
            if !why.is_empty() {
                msg.push_str(": ");
                msg.push_str(why);
            }
            Err(ApiError::Unprocessable(live.redactor(role).text(&msg)))
        }
        Err(ApplyError::GameOver) => Err(ApiError::Conflict("the game is over".into())),
        Err(ApplyError::Internal(m)) => Err(ApiError::Internal(m)),
    };
    let mut events = refused?;
    let mut new = vec![body.action];
    if let Some(ai_seat) = live.meta.ai_seat
        && next.decider() == Some(engine::Seat(ai_seat))
    {
        // The computer answers (a search takes time: off the async workers; the game's lock is
        // held, so no other submission for this game runs meanwhile).
        let agent = st.hub().agent().to_string();
        let seed = live.meta.seed;
        let (n, more, evs) = tokio::task::spawn_blocking(move || {
            let mut more = Vec::new();
            let mut evs = Vec::new();
            play_ai(
                &agent,
                next.as_mut(),
                Some(ai_seat),
                seed,
                version + 1,
                &mut more,
                &mut evs,
            )
            .map(|()| (next, more, evs))
        })
        .await?
        .map_err(ApiError::Internal)?;
        next = n;
        new.extend(more);
        events.extend(evs);
    }
    // The player's action and the agent's answers: one transaction. Nothing changes in memory
    // unless it is stored.
    let gid = live.meta.id.clone();
    if let Err(e) = st.store().append(&gid, version + 1, &new).await {
        if matches!(e, StoreError::Conflict(_)) {
            st.hub().forget(&gid, &slot);
        }
        return Err(e.into());
    }
    live.game = next;
    live.actions.extend(new);
    push_log(&mut live.log, events.iter().cloned());
    let now = live.version();
    slot.version.send_replace(now);
    let r = live.redactor(role);
    let g = live.game.as_ref();
    let names = g.seat_names();
    let body = serde_json::to_vec(&ActAnswer {
        version: now,
        events: r.serialize_lines(&events),
        decider: g.decider().map(|s| seat_name(&names, s)),
        outcome: outcome_answer(g.outcome(), &names, &r),
    })
    .map_err(internal)?;
    live.last_events = events;
    drop(live);
    Ok(json_response(body))
}

/// The answer to an accepted action.
#[derive(Serialize)]
struct ActAnswer<'a> {
    version: u64,
    events: RedactedLines<'a, &'a Vec<String>>,
    decider: Option<&'a str>,
    outcome: Option<OutcomeAnswer<'a>>,
}

// ---------------------------------------------------------------------------------- events

async fn events(
    State(st): State<AppState>,
    id: IdPath,
    q: AccessQuery,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let (id, q) = (id_of(id)?, access_of(q)?);
    let slot = st.hub().get(&id).await?;
    slot.live.lock().await.role(q.token.as_deref())?;
    // The stream holds the game's version channel, not the game: a watched game may leave the
    // cache like any other, and takes the same channel again when it is rebuilt.
    let held = slot.version.clone();
    drop(slot);
    let rx = held.subscribe();
    let stream = WatchStream::new(rx)
        .map(move |v| {
            let _ = &held;
            Ok(Event::default()
                .event("version")
                .id(v.to_string())
                .data(format!("{{\"version\":{v}}}")))
        })
        .take_until(st.shutting_down());
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

// ---------------------------------------------------------------------------------- record

async fn record(
    State(st): State<AppState>,
    id: IdPath,
    q: AccessQuery,
) -> Result<Json<GameRecord>, ApiError> {
    let (id, q) = (id_of(id)?, access_of(q)?);
    let slot = st.hub().get(&id).await?;
    let live = slot.live.lock().await;
    let role = live.role(q.token.as_deref())?;
    let over = live.game.decider().is_none();
    let hotseat_player = live.meta.mode == Mode::Hotseat && matches!(role, Role::Seat(_));
    if !over && !hotseat_player {
        return Err(ApiError::Conflict(
            "the record of a game in play holds what a side may not see (hidden stacks, the \
             dice's seed): it is given once the game is over (at any time to the players of a \
             hot-seat game)"
                .into(),
        ));
    }
    Ok(Json(catalog::record(
        live.game.as_ref(),
        &live.meta.scenario,
        &live.meta.options,
        live.meta.seed,
        live.actions.clone(),
        live.last_events.clone(),
    )))
}

// ---------------------------------------------------------------------------------- replay

async fn replay(
    State(st): State<AppState>,
    id: IdPath,
    q: AccessQuery,
) -> Result<Json<Value>, ApiError> {
    let (id, q) = (id_of(id)?, access_of(q)?);
    let slot = st.hub().get(&id).await?;
    let (meta, mut actions, role, hidden_now) = {
        let live = slot.live.lock().await;
        let role = live.role(q.token.as_deref())?;
        (
            live.meta.clone(),
            live.actions.clone(),
            role,
            live.hidden(role),
        )
    };
    let total = actions.len() as u64;
    let upto = q.upto.unwrap_or(total);
    if upto > total {
        return Err(ApiError::BadRequest(format!(
            "upto {upto} is beyond the game's {total} actions"
        )));
    }
    actions.truncate(usize::try_from(upto).unwrap_or(usize::MAX));
    let hub = st.clone();
    let answer = tokio::task::spawn_blocking(move || -> Result<Value, ApiError> {
        // From the nearest snapshot, not from the start.
        let rb = hub
            .hub()
            .replay(&meta, &actions, actions.len())
            .map_err(internal)?;
        let g = rb.game.as_ref();
        // Hidden then or hidden now: neither is told.
        let r = Redactor::new(hidden_for(g, role).into_iter().chain(hidden_now));
        Ok(json!({
            "upto": upto,
            "total": total,
            "action": actions.last().map(|a| r.text(a)),
            "decider": g.decider().map(|s| seat_name(&g.seat_names(), s).to_string()),
            "view": r.json(view_for(g, role)),
            "events": r.lines(&rb.last_events),
            "log": r.lines(&rb.log),
        }))
    })
    .await??;
    Ok(Json(answer))
}

// ---------------------------------------------------------------------------------- import

async fn import(
    State(st): State<AppState>,
    req: Request,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let bytes = body_bytes(req, &st).await?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| ApiError::BadRequest("the record is not UTF-8 text".into()))?;
    let rec = GameRecord::from_json(text).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let cap = st.limits().max_import_actions;
    if rec.actions.len() as u64 > cap {
        return Err(ApiError::TooLarge(format!(
            "the record has {} actions; this server imports at most {cap}",
            rec.actions.len()
        )));
    }
    let dd = st.hub().data_dir().map(|p| p.to_path_buf());
    let checked = rec.clone();
    // Replay the record and check that it reaches the state it holds before accepting it.
    let rebuilt: Rebuilt = tokio::task::spawn_blocking(move || -> Result<Rebuilt, ApiError> {
        let r = &checked;
        if !catalog::scenarios()
            .iter()
            .any(|s| s.ruleset == r.ruleset && s.id == r.scenario)
        {
            return Err(ApiError::Unprocessable(format!(
                "unknown scenario {:?} of ruleset {:?}",
                r.scenario, r.ruleset
            )));
        }
        let rb = rebuild(&r.scenario, &r.options, r.seed, &r.actions, dd.as_deref())
            .map_err(|e| ApiError::Unprocessable(e.to_string()))?;
        if rb.game.state_json() != r.state {
            return Err(ApiError::Unprocessable(
                catalog::CatalogError::Mismatch.to_string(),
            ));
        }
        Ok(rb)
    })
    .await??;
    let tokens = tokens_for(None)?;
    let meta = GameMeta {
        id: token::new_game_id().map_err(internal)?,
        ruleset: rec.ruleset,
        scenario: rec.scenario,
        options: rec.options,
        seed: rec.seed,
        mode: Mode::Hotseat,
        ai_seat: None,
        tokens: tokens.digests(),
        created: now(),
    };
    let live = Live::new(
        meta,
        rebuilt.game,
        rec.actions,
        rebuilt.log,
        rebuilt.last_events,
    );
    let answer = created_json(&live, &tokens, st.public_url());
    st.hub().create(live).await?;
    Ok((StatusCode::CREATED, Json(answer)))
}
