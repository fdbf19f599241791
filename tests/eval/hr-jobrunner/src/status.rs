//! A plain HTTP status endpoint for the process supervisor; not part of the MCP protocol.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;

use serde_json::json;

use crate::jobs::State;

pub fn serve(addr: &str, state: Arc<State>) {
    let listener = match TcpListener::bind(addr) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("status endpoint disabled: cannot bind {addr}: {e}");
            return;
        }
    };
    for stream in listener.incoming().flatten() {
        handle(stream, &state);
    }
}

fn handle(mut stream: TcpStream, state: &State) {
    let mut first = String::new();
    if BufReader::new(&stream).read_line(&mut first).is_err() {
        return;
    }
    let path = first.split_whitespace().nth(1).unwrap_or("/");
    let (status, body) = match path {
        "/health" => match state.jobs.lock() {
            Ok(jobs) => ("200 OK", json!({ "status": "ok", "jobs": jobs.len() })),
            Err(_) => (
                "500 Internal Server Error",
                json!({ "error": { "code": 500, "message": "internal error" } }),
            ),
        },
        _ => (
            "404 Not Found",
            json!({ "error": { "code": 404, "message": "not found" } }),
        ),
    };
    let body = body.to_string();
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
}
