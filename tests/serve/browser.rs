//! Lab 1 in headless Chromium, driven through chromedriver's WebDriver
//! protocol (plain JSON over HTTP): type POWER, explore, click a leaf and a
//! fork, compare a path, step to a fork, go true, then verify absdiff and
//! replay a counterexample, and run an oo program's model through its heap.
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs
//! them); `SYMEX_NO_BROWSER=1` skips it on a machine without them, and
//! `SYMEX_SCREENSHOTS=DIR` keeps the screenshots of the main views there.

use super::client::{request, Server};
use serde_json::{json, Value};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const DRIVER: &str = "/usr/bin/chromedriver";
const BROWSER: &str = "/usr/bin/chromium";
/// The W3C name of an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// chromedriver and one browser session, both ended when dropped.
struct Browser {
    driver: Child,
    address: String,
    session: String,
}

impl Browser {
    fn start() -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let address = format!("127.0.0.1:{port}");
        let start = Instant::now();
        while std::net::TcpStream::connect(&address).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut browser = Browser {
            driver,
            address,
            session: String::new(),
        };
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": BROWSER,
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"],
            },
        }}});
        let created = browser.call("POST", "/session", Some(capabilities));
        browser.session = created["sessionId"].as_str().unwrap().to_string();
        browser
    }

    /// One WebDriver command: its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let body = body.map(|b| b.to_string());
        let (status, text) = request(&self.address, method, path, body.as_deref());
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(status, 200, "{method} {path}: {answer}");
        answer["value"].clone()
    }

    fn session_call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn open(&self, url: &str) {
        self.session_call("POST", "/url", Some(json!({"url": url})));
    }

    fn find(&self, css: &str) -> String {
        let found = self.session_call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        found[ELEMENT].as_str().unwrap().to_string()
    }

    fn click(&self, element: &str) {
        self.session_call(
            "POST",
            &format!("/element/{element}/click"),
            Some(json!({})),
        );
    }

    fn type_into(&self, element: &str, text: &str) {
        self.session_call(
            "POST",
            &format!("/element/{element}/clear"),
            Some(json!({})),
        );
        self.session_call(
            "POST",
            &format!("/element/{element}/value"),
            Some(json!({"text": text})),
        );
    }

    fn text(&self, css: &str) -> String {
        let element = self.find(css);
        let text = self.session_call("GET", &format!("/element/{element}/text"), None);
        text.as_str().unwrap().to_string()
    }

    fn script(&self, script: &str) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Waits until the page's last command has answered; its status line.
    fn settled(&self) -> String {
        let start = Instant::now();
        loop {
            let status = self.text("#status");
            if !status.ends_with("running…") {
                return status;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no answer: {status}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until `css` matches an element whose text contains `wanted`.
    fn wait_for(&self, css: &str, wanted: &str) -> String {
        let start = Instant::now();
        loop {
            let found = self.script(&format!(
                "const e = document.querySelector({css:?}); return e ? e.textContent : null;"
            ));
            if let Some(text) = found.as_str().filter(|t| t.contains(wanted)) {
                return text.to_string();
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "{css} never showed {wanted:?}: {found}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Keeps a screenshot as `NAME.png` when `SYMEX_SCREENSHOTS` names a folder.
    fn screenshot(&self, name: &str) {
        let Some(dir) = std::env::var_os("SYMEX_SCREENSHOTS") else {
            return;
        };
        let picture = self.session_call("GET", "/screenshot", None);
        let bytes = base64_decode(picture.as_str().unwrap());
        std::fs::write(
            std::path::Path::new(&dir).join(format!("{name}.png")),
            bytes,
        )
        .unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = request(&self.address, "DELETE", &path, None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (the screenshot's encoding).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .map(value)
        .collect();
    let mut bytes = Vec::new();
    for chunk in digits.chunks(4) {
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0u32, |bits, (i, d)| bits | (u32::from(*d) << (18 - 6 * i)));
        bytes.extend_from_slice(&bits.to_be_bytes()[1..chunk.len()]);
    }
    bytes
}

#[test]
fn lab_1_end_to_end_in_headless_chromium() {
    let installed = std::path::Path::new(DRIVER).exists() && std::path::Path::new(BROWSER).exists();
    if !installed && std::env::var_os("SYMEX_NO_BROWSER").is_some() {
        eprintln!("SYMEX_NO_BROWSER: the browser test is skipped");
        return;
    }
    assert!(
        installed,
        "the browser test needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver), or SYMEX_NO_BROWSER=1"
    );
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&format!("http://{}/", server.address));

    // Type POWER (lab 1, task 3) and explore it with --unfold 3.
    let editor = browser.find("#source");
    browser.type_into(&editor, super::POWER);
    browser.wait_for("#diagnostics", "parses");
    browser.type_into(&browser.find("#unfold"), "3");
    browser.click(&browser.find("button[data-command=explore]"));
    let status = browser.settled();
    assert!(status.starts_with("explore: done (exit 0)"), "{status}");
    browser.wait_for("#view svg", "5 paths: 4 terminated, 0 errors, 1 bounded");

    // Click the leaf of the path that turns once: its φ, σ, model and path.
    let leaf = browser.script(
        "return [...document.querySelectorAll('#view svg g')].find(g => g.textContent.includes('y = 1'));",
    );
    browser.click(leaf[ELEMENT].as_str().unwrap());
    let details = browser.wait_for("#details", "model");
    assert!(details.contains("φ = y = 1"), "{details}");
    assert!(details.contains("z ↦ x"), "{details}");
    assert!(
        details.contains("path: z := 1; j := 1; y >= j"),
        "{details}"
    );
    assert!(details.contains("model: {x ↦ 0, y ↦ 1}"), "{details}");
    browser.screenshot("serve-explore");

    // Click the second fork (the loop's test after one turn): its whole
    // configuration, as the stepper shows it there.
    let fork = browser.script(
        "return [...document.querySelectorAll('#view svg g')].find(g => g.textContent.includes('y >= 2') && !g.textContent.includes('path'));",
    );
    browser.click(fork[ELEMENT].as_str().unwrap());
    let configuration = browser.wait_for("#configuration", "φ is satisfiable");
    assert!(
        configuration.contains("step: go; go true; show"),
        "{configuration}"
    );
    assert!(
        configuration.contains("#2: ⟨while y >= j { z := z * x; j := j + 1 }"),
        "{configuration}"
    );
    assert!(
        configuration.contains("σ = {j ↦ 2, x ↦ x, y ↦ y, z ↦ x}"),
        "{configuration}"
    );
    assert!(configuration.contains("φ = y >= 1"), "{configuration}");
    browser.screenshot("serve-fork");

    // Compare, on the path that turns once: forward and wp side by side.
    browser.click(&browser.find("button[data-command=compare]"));
    browser.settled();
    browser.wait_for("#compare", "path(ρ)");
    browser.script(
        "const list = document.getElementById('compare-path'); list.value = [...list.options].find(o => o.text.startsWith('TF ')).value; list.dispatchEvent(new Event('change'));",
    );
    let sides = browser.wait_for("#compare", "path(ρ) = y = 1");
    assert!(sides.contains("forward") && sides.contains("wp"), "{sides}");
    assert!(sides.contains("φ = y = 1"), "{sides}");
    browser.screenshot("serve-compare");

    // Step to the first fork, then take its true branch.
    browser.click(&browser.find("button[data-step='']"));
    browser.settled();
    browser.click(&browser.find("button[data-step='go']"));
    browser.settled();
    browser.wait_for("#walk", "fork on y >= 1");
    browser.click(&browser.find("button[data-step='go true']"));
    browser.settled();
    let walk = browser.wait_for("#walk", "› go true");
    assert!(walk.contains("φ = y >= 1"), "{walk}");
    assert!(
        walk.contains("#2 go true: at `while y >= j`   ◀ here"),
        "{walk}"
    );
    browser.screenshot("serve-step");

    // Lab 1, task 5: verify absdiff from the menu; then break it and replay the counterexample.
    browser.script(
        "const menu = document.getElementById('examples'); menu.value = 'labs/1-paths/absdiff.sx'; menu.dispatchEvent(new Event('change'));",
    );
    browser.wait_for("#diagnostics", "parses");
    browser.click(&browser.find("button[data-command=verify]"));
    let status = browser.settled();
    assert!(status.starts_with("verify: done (exit 0)"), "{status}");
    browser.wait_for("#view", "proved");
    browser.type_into(&editor, super::ABSDIFF_WRONG);
    browser.click(&browser.find("button[data-command=verify]"));
    let status = browser.settled();
    assert!(status.starts_with("verify: failed (exit 1)"), "{status}");
    browser.wait_for("#view", "counterexample");
    browser.wait_for("#details", "Replay the counterexample");
    browser.click(&browser.find("#replay"));
    let status = browser.settled();
    assert!(status.starts_with("run: failed (exit 1)"), "{status}");
    browser.wait_for("#view", "assertion");
    browser.screenshot("serve-verify");

    // An oo program: a leaf's model is a heap, run through the heap form.
    browser.script(
        "const menu = document.getElementById('examples'); menu.value = 'paper-examples/oo/list_find.sx'; menu.dispatchEvent(new Event('change'));",
    );
    browser.wait_for("#diagnostics", "parses");
    browser.click(&browser.find("button[data-command=explore]"));
    browser.settled();
    let leaf = browser.script(
        "return [...document.querySelectorAll('#view svg g')].find(g => g.textContent.includes('terminated'));",
    );
    browser.click(leaf[ELEMENT].as_str().unwrap());
    let details = browser.wait_for("#details", "Run this model");
    assert!(details.contains("model: {l ↦ "), "{details}");
    browser.click(&browser.find("#replay"));
    let status = browser.settled();
    assert!(status.starts_with("run: done (exit 0)"), "{status}");
    let heap = browser.script("return document.getElementById('heap').value;");
    assert!(heap.as_str().unwrap().contains("\"objects\""), "{heap}");
    browser.wait_for("#view", "terminated");
    browser.screenshot("serve-heap");
}
