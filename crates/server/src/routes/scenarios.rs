//! `GET /api/scenarios` and `GET /api/scenarios/{id}/board`.

use crate::{AppState, error::ApiError};
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use std::sync::Arc;

/// The scenarios on offer and their static boards.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/scenarios", get(list))
        .route("/api/scenarios/{id}/board", get(board))
}

async fn list() -> impl IntoResponse {
    Json(catalog::scenarios())
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
