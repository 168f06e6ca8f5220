//! `GET /api/scenarios` and `GET /api/scenarios/{id}/board`.

use crate::{AppState, error::ApiError};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use std::sync::Arc;

/// The scenarios on offer and their static boards.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/scenarios", get(list))
        .route("/api/scenarios/{id}/board", get(board))
}

/// The catalogue with each scenario's seat names (the lobby offers them as sides to play): built
/// once, by opening each scenario.
async fn list(State(st): State<AppState>) -> Result<impl IntoResponse, ApiError> {
    let dd = st.hub().data_dir().map(|p| p.to_path_buf());
    let body = st
        .scenario_list()
        .get_or_try_init(|| async move {
            tokio::task::spawn_blocking(move || -> Result<Arc<String>, ApiError> {
                let mut list = Vec::new();
                for s in catalog::scenarios() {
                    let mut v =
                        serde_json::to_value(&s).map_err(|e| ApiError::Internal(e.to_string()))?;
                    // A scenario that does not open (a broken data file) is still listed; creating
                    // a game of it gives the reason.
                    let seats = catalog::open(s.id, &[], dd.as_deref(), 0)
                        .ok()
                        .map(|(g, _)| g.seat_names().to_vec());
                    v["seats"] = serde_json::json!(seats);
                    list.push(v);
                }
                serde_json::to_string(&list)
                    .map(Arc::new)
                    .map_err(|e| ApiError::Internal(e.to_string()))
            })
            .await?
        })
        .await?
        .clone();
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        body.as_str().to_owned(),
    ))
}

/// The static board of a scenario (map, counter sheet, formations, commanders): public
/// information, the same for every game of the scenario, so it is built once and cached.
async fn board(
    State(st): State<AppState>,
    path: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let Path(id) = path.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    if !catalog::scenarios().iter().any(|s| s.id == id) {
        return Err(ApiError::NotFound(format!("no scenario {id:?}")));
    }
    let cached = st.board_cache().get(&id).cloned();
    let body = match cached {
        Some(b) => b,
        None => {
            let dd = st.hub().data_dir().map(|p| p.to_path_buf());
            let sid = id.clone();
            let built = tokio::task::spawn_blocking(move || {
                catalog::open(&sid, &[], dd.as_deref(), 0)
                    .map(|(g, _)| serde_json::to_string(&g.board()).unwrap_or_default())
            })
            .await?
            .map_err(|e| ApiError::Internal(format!("scenario {id}: {e}")))?;
            let b = Arc::new(built);
            st.board_cache().insert(id, b.clone());
            b
        }
    };
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        body.as_str().to_owned(),
    ))
}
