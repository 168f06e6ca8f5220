//! Embeds every file of the page (`web/`, its modules under `web/js/`) in the binary: writes
//! `$OUT_DIR/web_files.rs`, a table of `(URL path, contents, content type)` that
//! `routes::pages` serves. A new module file is served without touching the server.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let web = manifest.join("../../web");
    println!("cargo:rerun-if-changed={}", web.display());
    let mut files = Vec::new();
    collect(&web, &web, &mut files);
    files.sort();
    let mut out = String::from("&[\n");
    for (url, path, kind) in &files {
        writeln!(
            out,
            "    ({url:?}, include_str!({:?}), {kind:?}),",
            path.display()
        )
        .expect("writing to a String");
    }
    out.push_str("]\n");
    let dest =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("web_files.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

/// The page's files under `dir`: scripts, styles and SVG images, with a URL path made of
/// letters, digits, `-`, `_` and `.` only (anything else is not served).
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf, &'static str)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        println!("cargo:rerun-if-changed={}", path.display());
        if path.is_dir() {
            collect(root, &path, files);
            continue;
        }
        let kind = match path.extension().and_then(|x| x.to_str()) {
            Some("js") => "text/javascript; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            Some("svg") => "image/svg+xml",
            _ => continue,
        };
        let Ok(rel) = path.strip_prefix(root) else {
            continue;
        };
        let url = format!("/{}", rel.to_string_lossy().replace('\\', "/"));
        let plain = url
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/-_.".contains(c));
        if !plain || url.contains("..") {
            continue;
        }
        let abs = path.canonicalize().unwrap_or(path.clone());
        files.push((url, abs, kind));
    }
}
