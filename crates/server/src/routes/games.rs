//! Games: create, show, act, live updates, record, replay, import.

use super::{JsonBody, body_bytes};
use crate::error::ApiError;
use crate::live::{Live, Log, Rebuilt, Role, dice_lines, play_ai, rebuild, view_for};
use crate::store::{DiceSeeds, GameMeta, Invitation, Mode, StoreError, Tokens};
use crate::{AppState, IMPORT_LIMIT, token};
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use engine::{ActionInfo, ApplyError, GameRecord, Lines, Outcome, Seat, Viewer};
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
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/policy", post(set_policy))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/seed", post(add_seed))
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
    /// The computer's level (`ai::LEVELS`), mode `ai` only; default: the server's.
    ai_level: Option<String>,
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

/// New capabilities: a token for each seat that `held` names, a spectator token, and the
/// one-time invitation to `invite`'s seat (a friend game's second seat, whose token is minted
/// only when the invitation is claimed).
fn tokens_for(held: [bool; 2], invite: Option<u8>) -> Result<Tokens, ApiError> {
    let mut seats: [Option<String>; 2] = [None, None];
    for (s, h) in seats.iter_mut().zip(held) {
        if h {
            *s = Some(token::new_token().map_err(internal)?);
        }
    }
    let invitation = match invite {
        Some(seat) => Some(Invitation {
            seat,
            token: token::new_token().map_err(internal)?,
            claimed: false,
        }),
        None => None,
    };
    Ok(Tokens {
        seats,
        spectator: token::new_token().map_err(internal)?,
        invitation,
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
    let invitation = tokens.invitation.as_ref().map(|i| {
        json!({
            "seat": names[usize::from(i.seat & 1)],
            "token": i.token,
            "link": format!("{base}/play/{id}?invite={}", i.token),
        })
    });
    json!({
        "game": id,
        "scenario": live.meta.scenario,
        "mode": live.meta.mode.as_str(),
        "ai_seat": live.meta.ai_seat.map(|s| names[usize::from(s & 1)].clone()),
        "ai_level": live.meta.ai_level,
        "version": live.version(),
        "seats": seats,
        "spectator": tokens.spectator,
        "links": links,
        "invitation": invitation,
        "dice": dice_answer(&live.meta, &names, false),
    })
}

/// `dice` in the answers: the scheme and the commitment (published from the creation on), the
/// client seeds added, the seats the dice wait for, and the server seed once the game is over.
#[derive(Serialize)]
struct DiceAnswer {
    scheme: &'static str,
    commitment: String,
    client_seeds: serde_json::Map<String, Value>,
    waiting: Vec<String>,
    server_seed: Option<String>,
}

fn dice_answer(meta: &GameMeta, names: &[String; 2], over: bool) -> Option<DiceAnswer> {
    let d = meta.dice.as_ref()?;
    let mut client_seeds = serde_json::Map::new();
    for (i, c) in d.client_seeds.iter().enumerate() {
        if meta.ai_seat != Some(i as u8) {
            client_seeds.insert(names[i].clone(), json!(c));
        }
    }
    Some(DiceAnswer {
        scheme: engine::fair::SCHEME,
        commitment: engine::fair::commitment(&d.server_seed),
        client_seeds,
        waiting: meta
            .waiting()
            .into_iter()
            .map(|i| names[usize::from(i & 1)].clone())
            .collect(),
        server_seed: over.then(|| d.server_seed.clone()),
    })
}

/// Whether a game is over: started, and nobody decides.
fn is_over(live: &Live) -> bool {
    live.meta.started() && live.game.decider().is_none()
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
    if body.seed.is_some() && mode != Mode::Hotseat {
        return Err(ApiError::BadRequest(format!(
            "a game {} takes no seed: whoever chose it could foresee the dice (its dice are drawn \
             from the server's committed seed and each player's client seed)",
            if mode == Mode::Ai {
                "against the computer"
            } else {
                "against a friend"
            }
        )));
    }
    // Hot-seat: a plain seed, chosen or drawn. Otherwise verifiable dice: a secret server seed
    // whose commitment is published now; the dice's seed is derived once every person has added
    // a client seed (`add_seed`), and until then the game is the set-up opened with seed 0, and
    // nobody moves.
    let dice = match mode {
        Mode::Hotseat => None,
        Mode::Ai | Mode::Friend => Some(DiceSeeds {
            server_seed: token::new_server_seed().map_err(internal)?,
            client_seeds: [None, None],
        }),
    };
    let seed = match (body.seed, &dice) {
        (Some(s), _) => s,
        (None, None) => token::new_seed().map_err(internal)?,
        (None, Some(_)) => 0,
    };
    let dd = st.hub().data_dir().map(|p| p.to_path_buf());
    let (scenario, options) = (body.scenario.clone(), body.options.clone());
    let (mut game, start) = tokio::task::spawn_blocking(move || {
        catalog::open_lines(&scenario, &options, dd.as_deref(), seed)
    })
    .await?
    .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let names = game.seat_names();
    let human = match body.human.as_deref() {
        None => 0,
        Some(h) => seat_index(&names, h)?,
    };
    let (ai_seat, tokens) = match mode {
        Mode::Ai => (Some(1 - human), tokens_for([human == 0, human == 1], None)?),
        Mode::Hotseat => (None, tokens_for([true, true], None)?),
        // The creator's seat, and an invitation to the other: its token is minted when the
        // friend claims it, and the creator never sees it.
        Mode::Friend => (None, tokens_for([human == 0, human == 1], Some(1 - human))?),
    };
    let started = dice.is_none();
    // Issue 20: a level a player chose in the lobby (easy, normal, hard).
    if let Some(level) = &body.ai_level {
        if mode != Mode::Ai {
            return Err(ApiError::BadRequest(
                "ai_level is for a game against the computer (mode \"ai\")".into(),
            ));
        }
        if !ai::LEVELS.iter().any(|(l, _)| l == level) {
            return Err(ApiError::BadRequest(format!(
                "unknown ai_level {level:?} ({})",
                ai::LEVELS.map(|(l, _)| l).join(", ")
            )));
        }
    }
    // The computer's first moves (a search takes time: off the async workers).
    let agent = body
        .ai_level
        .clone()
        .unwrap_or_else(|| st.hub().agent().to_string());
    let (game, actions, events) = tokio::task::spawn_blocking(move || {
        let mut actions = Vec::new();
        let mut events = Lines::default();
        play_ai(
            &agent,
            game.as_mut(),
            ai_seat.filter(|_| started),
            seed,
            0,
            &mut actions,
            &mut events,
        )
        .map(|()| (game, actions, events))
    })
    .await?
    .map_err(ApiError::Internal)?;
    let mut meta = GameMeta {
        id: token::new_game_id().map_err(internal)?,
        ruleset: game.ruleset_id(),
        scenario: body.scenario,
        options: body.options,
        seed,
        mode,
        ai_seat,
        tokens: tokens.digests(),
        created: now(),
        dice: None,
        ai_level: body.ai_level,
        undone: 0,
    };
    meta.dice = dice;
    let mut log = Log::default();
    // The commitment is the first line; a start whose dice are not drawn yet logs nothing.
    log.push(&Lines::public(dice_lines(&meta, &names)));
    if started {
        log.push(&start);
    }
    log.push(&events);
    let last_events = if !started {
        Vec::new()
    } else if events.is_empty() {
        start.for_viewer(Viewer::All).to_vec()
    } else {
        events.for_viewer(Viewer::All).to_vec()
    };
    let live = Live::new(meta, game, actions, log, last_events);
    let answer = created_json(&live, &tokens, st.public_url());
    st.hub().create(live).await?;
    Ok((StatusCode::CREATED, Json(answer)))
}

// ---------------------------------------------------------------------------------- show

/// `GET /api/games/{id}`: what a role sees of a game, everything written for it by the ruleset
/// (the view, the decision, the log lines). It is written straight to JSON text: the view is the
/// only JSON tree built.
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
    log: &'a VecDeque<String>,
    outcome: Option<OutcomeAnswer<'a>>,
    dice: Option<DiceAnswer>,
    invitation: Option<&'static str>,
    /// The seat's own reaction policy (issue 19); none for spectators.
    policy: Option<engine::Policy>,
}

/// `outcome` in the answers.
#[derive(Serialize)]
struct OutcomeAnswer<'a> {
    winner: Option<&'a str>,
    level: String,
    rule: String,
}

fn outcome_answer(outcome: Option<Outcome>, names: &[String; 2]) -> Option<OutcomeAnswer<'_>> {
    outcome.map(|o| OutcomeAnswer {
        winner: o.winner.map(|s| seat_name(names, s)),
        level: o.level,
        rule: o.rule,
    })
}

fn seat_name(names: &[String; 2], seat: Seat) -> &str {
    &names[usize::from(seat.0 & 1)]
}

/// What a role sees of a game, as JSON text.
fn game_answer(live: &Live, role: Role) -> Result<Vec<u8>, ApiError> {
    let g = live.game.as_ref();
    let names = g.seat_names();
    // Nobody decides before the dice have their seed.
    let started = live.meta.started();
    let decider = g.decider().filter(|_| started);
    let view = view_for(g, role);
    let decision = match view.get("decision").and_then(Value::as_str) {
        _ if !started => waiting_text(&live.meta, &names),
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
    // The decider's own choices, written for the decider.
    let legal = match seat {
        Some(s) if decider == Some(s) => g.legal(),
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
        log: live.log.of(role),
        outcome: outcome_answer(g.outcome(), &names),
        dice: dice_answer(&live.meta, &names, is_over(live)),
        invitation: live
            .meta
            .tokens
            .invitation
            .as_ref()
            .map(|i| if i.claimed { "claimed" } else { "pending" }),
        policy: seat.map(|s| g.policy(s)),
    };
    let mut out = Vec::with_capacity(ANSWER_CAPACITY);
    serde_json::to_writer(&mut out, &answer).map_err(internal)?;
    Ok(out)
}

/// What a game waits for before it starts: "waiting for the client seeds of the Allies (who
/// have not taken their seat yet)".
fn waiting_text(meta: &GameMeta, names: &[String; 2]) -> String {
    let unclaimed = meta
        .tokens
        .invitation
        .as_ref()
        .filter(|i| !i.claimed)
        .map(|i| i.seat);
    let who: Vec<String> = meta
        .waiting()
        .into_iter()
        .map(|i| {
            let n = &names[usize::from(i & 1)];
            if unclaimed == Some(i) {
                format!("the {n} (the invitation is not claimed yet)")
            } else {
                format!("the {n}")
            }
        })
        .collect();
    format!(
        "the game starts when every side has added its client seed: waiting for {}",
        who.join(" and ")
    )
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
    let live = slot.live.lock().await;
    let role = live.role(q.token.as_deref())?;
    let body = game_answer(&live, role)?;
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
    if !live.meta.started() {
        let names = live.game.seat_names();
        return Err(ApiError::Conflict(format!(
            "the game has not started: {}",
            waiting_text(&live.meta, &names)
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
    if engine::Policy::parse_action(&body.action).is_some() {
        return Err(ApiError::Unprocessable(format!(
            "{:?} is not a legal action now: a reaction policy is set through /policy",
            body.action
        )));
    }
    let mut next = live.game.boxed_clone();
    let refused = match next.apply_lines(&body.action) {
        Ok(events) => Ok(events),
        Err(ApplyError::Illegal(why)) => {
            // The ruleset's reason, when it gives one beyond the id ("path crosses the base of
            // …"): it is about the decider's own proposed action, written for the decider.
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
            Err(ApiError::Unprocessable(msg))
        }
        Err(ApplyError::GameOver) => Err(ApiError::Conflict("the game is over".into())),
        Err(ApplyError::Internal(m)) => Err(ApiError::Internal(m)),
    };
    let mut events = refused?;
    let mut new = vec![body.action];
    let ai_seat = live.meta.ai_seat;
    if next.decider().is_some()
        && (ai_seat.is_some_and(|a| next.decider() == Some(engine::Seat(a)))
            || next.policy_answer().is_some())
    {
        // The computer answers, and the reaction policies (a search takes time: off the async
        // workers; the game's lock is held, so no other submission for this game runs
        // meanwhile).
        let agent = live.meta.agent(st.hub().agent()).to_string();
        let seed = live.meta.seed;
        let (n, more, evs) = tokio::task::spawn_blocking(move || {
            let mut more = Vec::new();
            let mut evs = Lines::default();
            play_ai(
                &agent,
                next.as_mut(),
                ai_seat,
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
    live.log.push(&events);
    let now = live.version();
    slot.version.send_replace(now);
    let g = live.game.as_ref();
    let names = g.seat_names();
    let body = serde_json::to_vec(&ActAnswer {
        version: now,
        events: events.for_viewer(role.viewer()),
        decider: g.decider().map(|s| seat_name(&names, s)),
        outcome: outcome_answer(g.outcome(), &names),
    })
    .map_err(internal)?;
    live.last_events = events.for_viewer(Viewer::All).to_vec();
    drop(live);
    Ok(json_response(body))
}

/// The answer to an accepted action.
#[derive(Serialize)]
struct ActAnswer<'a> {
    version: u64,
    events: &'a [String],
    decider: Option<&'a str>,
    outcome: Option<OutcomeAnswer<'a>>,
}

// ---------------------------------------------------------------------------------- undo

/// `POST /api/games/{id}/undo` body.
#[derive(Deserialize)]
struct Undo {
    token: String,
    version: u64,
}

/// Take back the seat's last action (issue 19), as Rally the Troops does: only while no die was
/// rolled, nothing hidden was revealed and the other side has not decided since (in hot-seat,
/// either seat's last action, under the same limits). The engine says what an action rolled or
/// revealed (`DynGame::undo_blocker`). The action leaves the stored list in one transaction
/// (`Store::take_back`), so the record is still the game and a restarted server rebuilds the
/// game without it.
async fn undo(
    State(st): State<AppState>,
    id: IdPath,
    JsonBody(body): JsonBody<Undo>,
) -> Result<Response, ApiError> {
    let id = id_of(id)?;
    let slot = st.hub().get(&id).await?;
    let mut live = slot.live.lock().await;
    let role = live.role(Some(&body.token))?;
    let Role::Seat(seat) = role else {
        return Err(ApiError::Forbidden(
            "the spectators' link cannot undo".into(),
        ));
    };
    let version = live.version();
    if body.version != version {
        return Err(ApiError::Conflict(format!(
            "stale version {}: the game is at version {version} (fetch the game again)",
            body.version
        )));
    }
    if !live.meta.started() {
        return Err(ApiError::Conflict("nothing to undo".into()));
    }
    if live.game.decider().is_none() {
        return Err(ApiError::Conflict("the game is over".into()));
    }
    // Walk back from the last action, on the game before each (from the replay snapshots, off
    // the async workers): the other side's answers that decided nothing — its only legal action,
    // or its reaction policy's answer, a decision it took before — go with the seat's action;
    // any other answer of the other side is a decision, and stops the undo.
    let hotseat = live.meta.mode == Mode::Hotseat;
    let (meta, actions) = (live.meta.clone(), live.actions.clone());
    let hub = st.clone();
    let walked = tokio::task::spawn_blocking(move || -> Result<_, ApiError> {
        let mut keep = actions.len();
        loop {
            if keep == 0 {
                return Err(ApiError::Conflict("nothing to undo".into()));
            }
            keep -= 1;
            let rb = hub.hub().replay(&meta, &actions, keep).map_err(internal)?;
            let last = &actions[keep];
            let g = rb.game.as_ref();
            let entry = engine::Policy::parse_action(last);
            // Who took it: a policy entry names its seat; any other action is the decider's.
            let by = match &entry {
                Some(Ok((s, _))) => Some(*s),
                _ => g.decider(),
            };
            let by_policy = g.policy_answer().is_some_and(|p| &p.id == last);
            let forced = entry.is_none() && g.legal_count() == 1;
            // Hot-seat: the last decision, whoever took it; a policy's answer goes with it.
            // Otherwise the seat's own last action, and the other side's answers after it that
            // decided nothing.
            let take = if hotseat {
                !(by_policy && keep > 0)
            } else if by == Some(seat) {
                true
            } else if by_policy || forced {
                false
            } else {
                return Err(ApiError::Conflict(
                    "the other side has decided since".into(),
                ));
            };
            match g.undo_blocker(last) {
                Ok(None) => {}
                Ok(Some(why)) => return Err(ApiError::Conflict(why.to_string())),
                Err(e) => {
                    return Err(ApiError::Internal(format!(
                        "action {} does not apply to the game before it: {e}",
                        keep + 1
                    )));
                }
            }
            if take {
                return Ok((keep, rb));
            }
        }
    })
    .await??;
    let (keep, rb) = walked;
    let last = live.actions[keep].clone();
    let label = rb
        .game
        .legal()
        .into_iter()
        .find(|a| a.id == last)
        .map(|a| a.label);
    if let Err(e) = st.store().take_back(&id, version, keep as u64).await {
        if matches!(e, StoreError::Conflict(_)) {
            st.hub().forget(&id, &slot);
        }
        return Err(e.into());
    }
    st.hub().forget_replays_after(&id, keep);
    let names = rb.game.seat_names();
    let mut log = rb.log;
    crate::live::prepend_dice_lines(&mut log, &live.meta, &names);
    live.game = rb.game;
    live.actions.truncate(keep);
    live.log = log;
    live.last_events = rb.last_events;
    live.meta.undone += version - keep as u64;
    let now = live.version();
    slot.version.send_replace(now);
    let g = live.game.as_ref();
    let body = serde_json::to_vec(&json!({
        "version": now,
        "undone": label,
        "decider": g.decider().map(|s| seat_name(&names, s)),
        "outcome": outcome_answer(g.outcome(), &names),
    }))
    .map_err(internal)?;
    drop(live);
    Ok(json_response(body))
}

// ---------------------------------------------------------------------------------- policy

/// `POST /api/games/{id}/policy` body.
#[derive(Deserialize)]
struct SetPolicy {
    token: String,
    version: u64,
    policy: engine::Policy,
}

/// Set the seat's reaction policy (issue 19): how the engine answers the reactive prompts of the
/// rules for it (8.6, 9.3 in the French series) — never react, always ask, or react when the
/// rules' conditions and the policy's thresholds are met. Any seat may set its own at any time
/// (not only when it decides); the entry joins the action list (`policy:SEAT:…`), so the record
/// holds it and replays restore it. If the seat's policy answers the decision now, it does so at
/// once (and the computer, if it decides after).
async fn set_policy(
    State(st): State<AppState>,
    id: IdPath,
    JsonBody(body): JsonBody<SetPolicy>,
) -> Result<Response, ApiError> {
    let id = id_of(id)?;
    let slot = st.hub().get(&id).await?;
    let mut live = slot.live.lock().await;
    let role = live.role(Some(&body.token))?;
    let Role::Seat(seat) = role else {
        return Err(ApiError::Forbidden(
            "the spectators' link sets no policy".into(),
        ));
    };
    let version = live.version();
    if body.version != version {
        return Err(ApiError::Conflict(format!(
            "stale version {}: the game is at version {version} (fetch the game again)",
            body.version
        )));
    }
    if !live.meta.started() {
        let names = live.game.seat_names();
        return Err(ApiError::Conflict(format!(
            "the game has not started: {}",
            waiting_text(&live.meta, &names)
        )));
    }
    let cap = st.limits().max_game_actions;
    if version >= cap {
        return Err(ApiError::Conflict(format!(
            "this game has reached this server's limit of {cap} actions"
        )));
    }
    if live.game.decider().is_none() {
        return Err(ApiError::Conflict("the game is over".into()));
    }
    let entry = body.policy.action_id(seat);
    let mut next = live.game.boxed_clone();
    let mut events = next.apply_lines(&entry).map_err(|e| match e {
        ApplyError::GameOver => ApiError::Conflict("the game is over".into()),
        ApplyError::Illegal(m) => ApiError::Unprocessable(m),
        ApplyError::Internal(m) => ApiError::Internal(m),
    })?;
    let mut new = vec![entry];
    let agent = st.hub().agent().to_string();
    let (seed, ai_seat) = (live.meta.seed, live.meta.ai_seat);
    let (next, more, evs) = tokio::task::spawn_blocking(move || {
        let mut more = Vec::new();
        let mut evs = Lines::default();
        play_ai(
            &agent,
            next.as_mut(),
            ai_seat,
            seed,
            version + 1,
            &mut more,
            &mut evs,
        )
        .map(|()| (next, more, evs))
    })
    .await?
    .map_err(ApiError::Internal)?;
    new.extend(more);
    events.extend(evs);
    let gid = live.meta.id.clone();
    if let Err(e) = st.store().append(&gid, version + 1, &new).await {
        if matches!(e, StoreError::Conflict(_)) {
            st.hub().forget(&gid, &slot);
        }
        return Err(e.into());
    }
    live.game = next;
    live.actions.extend(new);
    live.log.push(&events);
    live.last_events = events.for_viewer(Viewer::All).to_vec();
    let now = live.version();
    slot.version.send_replace(now);
    let g = live.game.as_ref();
    let names = g.seat_names();
    let body = serde_json::to_vec(&ActAnswer {
        version: now,
        events: events.for_viewer(role.viewer()),
        decider: g.decider().map(|s| seat_name(&names, s)),
        outcome: outcome_answer(g.outcome(), &names),
    })
    .map_err(internal)?;
    drop(live);
    Ok(json_response(body))
}

// ---------------------------------------------------------------------------------- claim

/// `POST /api/games/{id}/claim` body: the invitation's secret from the link the creator sent.
#[derive(Deserialize)]
struct Claim {
    invitation: String,
}

/// Claim a friend game's invitation: mints the seat's token and returns it, once. A second claim
/// (even with the right secret) is refused, and the creator never sees this token.
async fn claim(
    State(st): State<AppState>,
    id: IdPath,
    JsonBody(body): JsonBody<Claim>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let id = id_of(id)?;
    let slot = st.hub().get(&id).await?;
    let mut live = slot.live.lock().await;
    let Some(inv) = live.meta.tokens.invitation.clone() else {
        return Err(ApiError::Forbidden(
            "this game has no invitation (only a game against a friend has one)".into(),
        ));
    };
    if body.invitation.is_empty() || !token::matches(&body.invitation, &inv.token) {
        return Err(ApiError::Forbidden(
            "unknown invitation for this game".into(),
        ));
    }
    if inv.claimed {
        return Err(ApiError::Conflict(
            "this invitation was already claimed: its seat is taken (an invitation is good once)"
                .into(),
        ));
    }
    let seat_token = token::new_token().map_err(internal)?;
    let before = live.meta.clone();
    let mut after = before.clone();
    after.tokens.seats[usize::from(inv.seat & 1)] = Some(token::digest(&seat_token));
    after.tokens.invitation = Some(Invitation {
        claimed: true,
        ..inv.clone()
    });
    if let Err(e) = st.store().update_seats(&before, &after).await {
        if matches!(e, StoreError::Conflict(_)) {
            st.hub().forget(&id, &slot);
            return Err(ApiError::Conflict(
                "this invitation was already claimed: its seat is taken (an invitation is good once)"
                    .into(),
            ));
        }
        return Err(e.into());
    }
    live.meta = after;
    let names = live.game.seat_names();
    let seat = names[usize::from(inv.seat & 1)].clone();
    let answer = json!({
        "game": id,
        "scenario": live.meta.scenario,
        "seat": seat,
        "token": seat_token,
        "link": format!("{}/play/{id}?token={seat_token}", st.public_url()),
        "dice": dice_answer(&live.meta, &names, false),
    });
    let version = live.version();
    drop(live);
    // The creator's page learns that the seat is taken.
    slot.version.send_replace(version);
    Ok((StatusCode::OK, Json(answer)))
}

// ---------------------------------------------------------------------------------- seed

/// `POST /api/games/{id}/seed` body: a seat's token and the client seed it adds.
#[derive(Deserialize)]
struct AddSeed {
    token: String,
    client_seed: String,
}

/// A seat adds its client seed to the dice (after their commitment was published, in the
/// creation's answer and the game's). When the last one is in, the dice's seed is derived, the
/// game starts (its first rolls are drawn), and the computer moves if it decides first.
async fn add_seed(
    State(st): State<AppState>,
    id: IdPath,
    JsonBody(body): JsonBody<AddSeed>,
) -> Result<Response, ApiError> {
    let id = id_of(id)?;
    let slot = st.hub().get(&id).await?;
    let mut live = slot.live.lock().await;
    let role = live.role(Some(&body.token))?;
    let Role::Seat(seat) = role else {
        return Err(ApiError::Forbidden(
            "the spectators' link adds no seed".into(),
        ));
    };
    let names = live.game.seat_names();
    let Some(d) = live.meta.dice.clone() else {
        return Err(ApiError::Conflict(
            "this game's dice have a plain seed (hot-seat or import): there is no client seed to add"
                .into(),
        ));
    };
    let i = usize::from(seat.0 & 1);
    if d.client_seeds[i].is_some() {
        return Err(ApiError::Conflict(format!(
            "the {} have already added their client seed",
            names[i]
        )));
    }
    engine::fair::check_client_seed(&body.client_seed).map_err(ApiError::BadRequest)?;
    let before = live.meta.clone();
    let mut after = before.clone();
    if let Some(d) = after.dice.as_mut() {
        d.client_seeds[i] = Some(body.client_seed.clone());
    }
    let starts = after.started();
    if starts {
        after.seed = engine::fair::dice_seed(&d.server_seed, &after.client_seeds());
    }
    // The game with its dice, and the computer's first moves (off the async workers).
    let started = if starts {
        let dd = st.hub().data_dir().map(|p| p.to_path_buf());
        let agent = after.agent(st.hub().agent()).to_string();
        let m = after.clone();
        Some(
            tokio::task::spawn_blocking(move || -> Result<_, ApiError> {
                let (mut game, start) =
                    catalog::open_lines(&m.scenario, &m.options, dd.as_deref(), m.seed)
                        .map_err(internal)?;
                let mut actions = Vec::new();
                let mut events = Lines::default();
                play_ai(
                    &agent,
                    game.as_mut(),
                    m.ai_seat,
                    m.seed,
                    0,
                    &mut actions,
                    &mut events,
                )
                .map_err(ApiError::Internal)?;
                Ok((game, start, actions, events))
            })
            .await??,
        )
    } else {
        None
    };
    if let Err(e) = st.store().update_seats(&before, &after).await {
        if matches!(e, StoreError::Conflict(_)) {
            st.hub().forget(&id, &slot);
        }
        return Err(e.into());
    }
    live.meta = after;
    let mut log = Log::default();
    log.push(&Lines::public(dice_lines(&live.meta, &names)));
    if let Some((game, start, actions, events)) = started {
        log.push(&start);
        log.push(&events);
        // The computer's first moves: stored after the seeds (a game loaded with the agent to
        // move lets it move then, should this write fail).
        if !actions.is_empty() {
            st.store().append(&id, 1, &actions).await?;
        }
        live.game = game;
        live.actions = actions;
        live.last_events = if events.is_empty() { start } else { events }
            .for_viewer(Viewer::All)
            .to_vec();
    }
    live.log = log;
    let version = live.version();
    slot.version.send_replace(version);
    let g = live.game.as_ref();
    let answer = json!({
        "version": version,
        "started": live.meta.started(),
        "decider": g.decider().filter(|_| live.meta.started()).map(|s| seat_name(&names, s).to_string()),
        "dice": dice_answer(&live.meta, &names, false),
    });
    drop(live);
    Ok(Json(answer).into_response())
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
    let over = is_over(&live);
    let hotseat_player = live.meta.mode == Mode::Hotseat && matches!(role, Role::Seat(_));
    if !over && !hotseat_player {
        return Err(ApiError::Conflict(
            "the record of a game in play holds what a side may not see (hidden stacks, the \
             dice's seed): it is given once the game is over (at any time to the players of a \
             hot-seat game)"
                .into(),
        ));
    }
    let Some(d) = live.meta.dice.clone() else {
        return Ok(Json(catalog::record(
            live.game.as_ref(),
            &live.meta.scenario,
            &live.meta.options,
            live.meta.seed,
            live.actions.clone(),
            live.last_events.clone(),
        )));
    };
    // Verifiable dice: the record reveals the server seed (the game is over) and carries every
    // event line of a replay from the dice's seed, for `tricorne verify`.
    let meta = live.meta.clone();
    let actions = live.actions.clone();
    drop(live);
    let dd = st.hub().data_dir().map(|p| p.to_path_buf());
    let rec = tokio::task::spawn_blocking(move || -> Result<GameRecord, ApiError> {
        let r = catalog::replay_log(
            &meta.scenario,
            &meta.options,
            dd.as_deref(),
            meta.seed,
            &actions,
        )
        .map_err(internal)?;
        let mut rec = catalog::record(
            r.game.as_ref(),
            &meta.scenario,
            &meta.options,
            meta.seed,
            actions,
            r.last_events,
        );
        rec.log = r.log;
        rec.dice = Some(engine::fair::DiceProof {
            scheme: engine::fair::SCHEME.into(),
            commitment: engine::fair::commitment(&d.server_seed),
            server_seed: Some(d.server_seed.clone()),
            client_seeds: meta.client_seeds(),
        });
        Ok(rec)
    })
    .await??;
    Ok(Json(rec))
}

// ---------------------------------------------------------------------------------- replay

async fn replay(
    State(st): State<AppState>,
    id: IdPath,
    q: AccessQuery,
) -> Result<Json<Value>, ApiError> {
    let (id, q) = (id_of(id)?, access_of(q)?);
    let slot = st.hub().get(&id).await?;
    let (meta, mut actions, role) = {
        let live = slot.live.lock().await;
        let role = live.role(q.token.as_deref())?;
        (live.meta.clone(), live.actions.clone(), role)
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
        // Each line as the ruleset wrote it for this viewer when it happened (what the seat could
        // see then); the action's id only to the seat that chose it (an id names its units).
        let own = matches!(role, Role::Seat(s) if rb.last_decider == Some(s));
        Ok(json!({
            "upto": upto,
            "total": total,
            "action": actions.last().filter(|_| own),
            "decider": g.decider().map(|s| seat_name(&g.seat_names(), s).to_string()),
            "view": view_for(g, role),
            "events": rb.last.for_viewer(role.viewer()),
            "log": rb.log.of(role),
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
    // Issue 19.7: `?computer=SEAT` — the game continues against the computer, which plays SEAT.
    let computer: Option<String> = req.uri().query().and_then(|q| {
        q.split('&')
            .find_map(|kv| kv.strip_prefix("computer=").map(str::to_string))
    });
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
    let names = rebuilt.game.seat_names();
    let ai_seat = computer
        .as_deref()
        .map(|c| seat_index(&names, c))
        .transpose()?;
    let tokens = match ai_seat {
        Some(a) => tokens_for([a != 0, a != 1], None)?,
        None => tokens_for([true, true], None)?,
    };
    // Against the computer: it answers at once if it decides now (its actions follow the record's).
    let mut rebuilt = rebuilt;
    let mut actions = rec.actions;
    if ai_seat.is_some() {
        let agent = st.hub().agent().to_string();
        let (seed, version) = (rec.seed, actions.len() as u64);
        let mut game = rebuilt.game;
        let (game, more, events) = tokio::task::spawn_blocking(move || {
            let mut more = Vec::new();
            let mut events = Lines::default();
            play_ai(
                &agent,
                game.as_mut(),
                ai_seat,
                seed,
                version,
                &mut more,
                &mut events,
            )
            .map(|()| (game, more, events))
        })
        .await?
        .map_err(ApiError::Internal)?;
        rebuilt.game = game;
        if !more.is_empty() {
            actions.extend(more);
            rebuilt.log.push(&events);
            rebuilt.last_events = events.for_viewer(Viewer::All).to_vec();
        }
    }
    let meta = GameMeta {
        id: token::new_game_id().map_err(internal)?,
        ruleset: rec.ruleset,
        scenario: rec.scenario,
        options: rec.options,
        seed: rec.seed,
        mode: if ai_seat.is_some() {
            Mode::Ai
        } else {
            Mode::Hotseat
        },
        ai_seat,
        tokens: tokens.digests(),
        created: now(),
        dice: None,
        ai_level: None,
        undone: 0,
    };
    let live = Live::new(
        meta,
        rebuilt.game,
        actions,
        rebuilt.log,
        rebuilt.last_events,
    );
    let answer = created_json(&live, &tokens, st.public_url());
    st.hub().create(live).await?;
    Ok((StatusCode::CREATED, Json(answer)))
}
