//! The page: `web/index.html` and every script and style under `web/` (the ES modules of
//! `web/js/`), embedded in the binary by `build.rs`.

use crate::AppState;
use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

const INDEX: &str = include_str!("../../../../web/index.html");

/// `(URL path, contents, content type)` of each file of the page but `index.html`: `/app.js`,
/// `/style.css`, `/js/…` (written by `build.rs`).
pub const FILES: &[(&str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// `GET /`, `GET /play/{id}`, and `GET` of each file of [`FILES`].
pub fn router() -> Router<AppState> {
    let mut r = Router::new()
        .route("/", get(index))
        .route("/play/{id}", get(index));
    for &(path, body, kind) in FILES {
        r = r.route(
            path,
            get(move || async move {
                (
                    [
                        (header::CONTENT_TYPE, kind),
                        (header::CACHE_CONTROL, "no-cache"),
                    ],
                    body,
                )
            }),
        );
    }
    r
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
