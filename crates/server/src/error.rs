//! The one error type of the HTTP API and its mapping to statuses: `{"error": "short reason"}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::store::StoreError;

/// Everything a request can fail with. Each variant is one HTTP status; the text is the short
/// reason sent to the client. Nothing is changed by a request that fails.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: malformed JSON, a missing or wrong field, an unknown scenario or option.
    #[error("{0}")]
    BadRequest(String),
    /// 403: a missing, unknown or wrong token, or a seat acting out of turn.
    #[error("{0}")]
    Forbidden(String),
    /// 404: an unknown game, scenario or route.
    #[error("{0}")]
    NotFound(String),
    /// 405: a route that exists with another method.
    #[error("{0}")]
    MethodNotAllowed(String),
    /// 409: a stale version (the decision was already taken), or a game that is over.
    #[error("{0}")]
    Conflict(String),
    /// 413: a body over the limit.
    #[error("{0}")]
    TooLarge(String),
    /// 422: an illegal action id, or a record that does not replay.
    #[error("{0}")]
    Unprocessable(String),
    /// 500: storage or engine failure (details go to the server's log, not to the client).
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let reason = match &self {
            ApiError::Internal(detail) => {
                tracing::error!("internal error: {detail}");
                "internal error (see the server's log)".to_string()
            }
            other => other.to_string(),
        };
        (status, Json(serde_json::json!({ "error": reason }))).into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict(m) => ApiError::Conflict(m),
            StoreError::UnknownGame(id) => ApiError::NotFound(format!("no game {id:?}")),
            StoreError::Database(m) | StoreError::Corrupt(m) => ApiError::Internal(m),
        }
    }
}

impl From<tokio::task::JoinError> for ApiError {
    fn from(e: tokio::task::JoinError) -> Self {
        ApiError::Internal(format!("a worker task failed: {e}"))
    }
}
