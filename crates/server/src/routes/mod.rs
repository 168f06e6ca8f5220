//! The HTTP API (`docs/api.md`): one router per resource, merged by [`app`].

pub mod games;
pub mod pages;
pub mod scenarios;

use crate::{AppState, BODY_LIMIT, IMPORT_LIMIT, error::ApiError, limits};
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Router, middleware};
use serde::de::DeserializeOwned;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::trace::TraceLayer;

/// The whole server: the page, the scenarios, the games; JSON errors for unknown routes and
/// methods; a 64 KiB body limit (1 MiB for imported records); per-client rates on creating,
/// importing and acting (429); `POST`s in JSON only (415); `Cache-Control: no-store` on the
/// answers about games; request tracing without the query (where the tokens are).
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(pages::router())
        .merge(scenarios::router())
        .merge(games::router())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        // Outside the routes (the last added runs first): the trace, JSON errors, no-store,
        // the content type, the rates, a hard cap on any body.
        .layer(RequestBodyLimitLayer::new(IMPORT_LIMIT))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            limits::rate_limit,
        ))
        .layer(middleware::from_fn(limits::require_json))
        .layer(middleware::from_fn(limits::no_store))
        .with_state(state)
        .layer(middleware::map_response(json_errors))
        .layer(TraceLayer::new_for_http().make_span_with(limits::request_span))
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such route (see docs/api.md)".into())
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed("method not allowed on this route".into())
}

/// An error answer that is not JSON yet (from a layer or an extractor axum answers itself)
/// becomes `{"error": reason}`.
async fn json_errors(res: Response) -> Response {
    let status = res.status();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return res;
    }
    let reason = match status {
        StatusCode::PAYLOAD_TOO_LARGE => too_large(),
        s => s.canonical_reason().unwrap_or("error").to_lowercase(),
    };
    let mut out = (status, axum::Json(serde_json::json!({ "error": reason }))).into_response();
    out.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    out
}

/// A JSON body (the content type is checked before, [`limits::require_json`]): 400 with the parser's reason if malformed or missing fields,
/// 413 if over the limit.
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = body_bytes(req, state).await?;
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::BadRequest(format!("malformed JSON: {e}")))
    }
}

/// The body's bytes, 413 if over the route's limit.
pub async fn body_bytes<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    Bytes::from_request(req, state).await.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(too_large())
        } else {
            ApiError::BadRequest(format!("unreadable body: {}", e.body_text()))
        }
    })
}

fn too_large() -> String {
    format!(
        "body too large (limit {} KiB; {} KiB for /api/import)",
        BODY_LIMIT / 1024,
        IMPORT_LIMIT / 1024
    )
}
