//! A `symex serve` started for a test on a free loopback port, and a plain
//! HTTP/1.1 client for it (and for the WebDriver of the browser test).

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running server, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Server {
    /// `symex serve --port 0` with `extra` options, once it listens; the
    /// binary is this build's, or the one `SYMEX_SERVE_BIN` names (a release
    /// build, for the load test's figures).
    pub fn start(extra: &[&str]) -> Server {
        let binary = std::env::var_os("SYMEX_SERVE_BIN")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_symex").into());
        let mut child = Command::new(binary)
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .strip_prefix("symex serve: http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Server { child, address }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process still runs.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        request(&self.address, "GET", path, None)
    }

    /// POSTs `body` to `/api/COMMAND`: the status and the JSON answered.
    pub fn api(&self, command: &str, body: &Value) -> (u16, Value) {
        let (status, text) = request(
            &self.address,
            "POST",
            &format!("/api/{command}"),
            Some(&body.to_string()),
        );
        (status, serde_json::from_str(&text).unwrap())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request on a connection of its own: the status and the body.
pub fn request(address: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    request_bytes(address, method, path, body.map(str::as_bytes))
}

pub fn request_bytes(
    address: &str,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let body = body.unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // The server may answer (413) and close before reading a large body.
    let _ = stream.write_all(body);
    // Read by the length the head gives: a server may keep the connection open.
    let mut answer = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    let mut expected: Option<usize> = None;
    loop {
        if let Some(split) = head_end(&answer) {
            let head = String::from_utf8_lossy(&answer[..split]).to_ascii_lowercase();
            let done = match content_length(&head) {
                Some(length) => answer.len() >= split + 4 + length,
                None if head.contains("transfer-encoding: chunked") => {
                    answer.ends_with(b"0\r\n\r\n")
                }
                None => false,
            };
            expected = Some(split);
            if done {
                break;
            }
        }
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buffer[..n]),
        }
    }
    let split = expected
        .unwrap_or_else(|| panic!("no HTTP head in {:?}", String::from_utf8_lossy(&answer)));
    let head = String::from_utf8_lossy(&answer[..split]).to_ascii_lowercase();
    let rest = &answer[split + 4..];
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP status in {head:?}"));
    let body = match head.contains("transfer-encoding: chunked") {
        true => dechunk(rest),
        false => rest.to_vec(),
    };
    (status, String::from_utf8(body).unwrap())
}

fn head_end(answer: &[u8]) -> Option<usize> {
    answer.windows(4).position(|w| w == b"\r\n\r\n")
}

fn content_length(head: &str) -> Option<usize> {
    head.lines()
        .find_map(|line| line.strip_prefix("content-length:"))
        .and_then(|n| n.trim().parse().ok())
}

/// The body of a chunked answer.
fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(end) = rest.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&rest[..end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.trim(), 16).ok())
            .unwrap_or(0);
        if size == 0 {
            break;
        }
        let chunk = &rest[end + 2..];
        body.extend_from_slice(&chunk[..size]);
        rest = &chunk[size + 2..];
    }
    body
}
