//! The page, its script and style, and the menu's programs, all compiled
//! into the binary: the server reads no file.

/// The lab sheets' programs and the paper examples, `(path, source)`, in
/// path order (listed by `build.rs`).
pub const EXAMPLES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/examples.rs"));

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");

/// The body and content type answered to `GET path`; `None` for any other path.
pub fn asset(path: &str) -> Option<(String, &'static str)> {
    Some(match path {
        "/" | "/index.html" => (INDEX.to_string(), "text/html; charset=utf-8"),
        "/app.js" => (SCRIPT.to_string(), "text/javascript; charset=utf-8"),
        "/style.css" => (STYLE.to_string(), "text/css; charset=utf-8"),
        "/examples.json" => (examples_json(), "application/json"),
        _ => return None,
    })
}

fn examples_json() -> String {
    let list: Vec<serde_json::Value> = EXAMPLES
        .iter()
        .map(|(path, source)| serde_json::json!({ "path": path, "source": source }))
        .collect();
    serde_json::Value::Array(list).to_string()
}
