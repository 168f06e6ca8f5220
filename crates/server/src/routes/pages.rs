//! The page: `web/index.html`, `web/app.js` and `web/style.css`, embedded in the binary.

use crate::AppState;
use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

const INDEX: &str = include_str!("../../../../web/index.html");
const APP_JS: &str = include_str!("../../../../web/app.js");
const STYLE: &str = include_str!("../../../../web/style.css");

/// `GET /`, `GET /play/{id}`, `GET /app.js`, `GET /style.css`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(index))
        .route("/play/{id}", get(index))
        .route("/app.js", get(app_js))
        .route("/style.css", get(style))
}

async fn index() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
            // The secret link is in the address: never send it to another site.
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        INDEX,
    )
}

async fn app_js() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        APP_JS,
    )
}

async fn style() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        STYLE,
    )
}
