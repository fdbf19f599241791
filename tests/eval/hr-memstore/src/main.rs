mod peer;
mod protocol;
mod server;
mod store;

use std::io::{BufRead, Write};
use std::path::PathBuf;

use crate::protocol::{ErrorObject, Request, Response, PARSE_ERROR};
use crate::server::Server;

fn main() {
    let path = std::env::var("MEMSTORE_FILE")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from("memstore.json"));
    let peer = std::env::var("MEMSTORE_PEER_URL").ok();
    let server = Server::open(path, peer);

    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines().map_while(Result::ok) {
        let response = match serde_json::from_str::<Request>(&line) {
            Ok(request) => server.handle(request),
            Err(e) => Some(Response::err(
                serde_json::Value::Null,
                ErrorObject::new(PARSE_ERROR, format!("not a JSON-RPC request: {e}")),
            )),
        };
        if let Some(response) = response {
            serde_json::to_writer(&mut out, &response).expect("stdout is writable");
            out.write_all(b"\n").expect("stdout is writable");
            out.flush().expect("stdout is writable");
        }
    }
}
