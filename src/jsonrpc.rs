//! The JSON-RPC 2.0 checks both servers (`server`, `mcp`) make on each incoming message before
//! their protocol library sees it: a body that is not JSON is answered -32700, a JSON value that
//! is not a request, notification or response -32600, both with `id: null` unless the message
//! carries a valid id. The server then goes on with the next message.

use std::io::{self, BufRead};

use serde_json::{json, Map, Value};

/// The largest message either server reads: an open document of the largest file mcp-lint
/// analyses (8 MiB), JSON-escaped, with room to spare.
pub const MAX_MESSAGE_BYTES: u64 = 64 << 20;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const INVALID_PARAMS: i64 = -32602;

/// The error answer to a message with `id` (`Value::Null` when it has none or an invalid one).
pub fn error_answer(id: Value, code: i64, message: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message },
    })
}

/// A JSON-RPC id: a string or an integer (a null id is for error answers only).
fn valid_id(id: &Value) -> bool {
    id.is_string() || id.as_i64().is_some() || id.as_u64().is_some()
}

/// The message in `body`, if it is one; else the error answer it is due.
pub fn check(body: &[u8]) -> Result<Map<String, Value>, Value> {
    let body = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        error_answer(
            Value::Null,
            PARSE_ERROR,
            &format!("Parse error: the message is not JSON ({e})"),
        )
    })?;
    let Value::Object(message) = value else {
        let what = if value.is_array() {
            "a batch (an array); send one message at a time"
        } else {
            "not an object"
        };
        return Err(error_answer(
            Value::Null,
            INVALID_REQUEST,
            &format!("Invalid Request: the message is {what}"),
        ));
    };
    let id = message.get("id");
    let answer_id = id.filter(|id| valid_id(id)).cloned().unwrap_or(Value::Null);
    let invalid = |why: &str| {
        Err(error_answer(
            answer_id.clone(),
            INVALID_REQUEST,
            &format!("Invalid Request: {why}"),
        ))
    };
    if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("`jsonrpc` must be \"2.0\"");
    }
    match message.get("method") {
        Some(method) if !method.is_string() => invalid("`method` must be a string"),
        Some(_) => {
            if id.is_some_and(|id| !valid_id(id)) {
                return invalid("`id` must be a string or an integer");
            }
            // `null` is not JSON-RPC, but clients (and lsp-server) send it for "no params".
            match message.get("params") {
                Some(Value::Object(_) | Value::Array(_) | Value::Null) | None => Ok(message),
                Some(_) => invalid("`params` must be an object or an array"),
            }
        }
        // A response: to one of our requests, so its id is one we sent (or null on an error).
        None => match id {
            None => invalid(
                "a message needs a `method` (request or notification) or an `id` (response)",
            ),
            Some(id) if !valid_id(id) && !id.is_null() => {
                invalid("`id` must be a string or an integer")
            }
            Some(_) if message.contains_key("result") != message.contains_key("error") => {
                Ok(message)
            }
            Some(_) => invalid("a response has either `result` or `error`"),
        },
    }
}

/// What [`read_line`] found.
pub enum Line {
    Line,
    TooLong,
    End,
}

/// Read one `\n`-terminated line into `line` (cleared first), never more than `cap` bytes of
/// it; the rest of a longer line is consumed and dropped. The line ending is kept.
pub fn read_line(r: &mut impl BufRead, line: &mut Vec<u8>, cap: usize) -> io::Result<Line> {
    line.clear();
    let mut too_long = false;
    loop {
        let available = r.fill_buf()?;
        if available.is_empty() {
            // A last line without its `\n` is still a line.
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::End,
                (false, false) => Line::Line,
            });
        }
        let newline = memchr::memchr(b'\n', available);
        let take = newline.map_or(available.len(), |n| n + 1);
        if !too_long && line.len() + take <= cap {
            line.extend_from_slice(&available[..take]);
        } else {
            too_long = true;
            line.clear();
        }
        r.consume(take);
        if newline.is_some() {
            return Ok(if too_long { Line::TooLong } else { Line::Line });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(body: &str) -> (i64, Value) {
        let answer = check(body.as_bytes()).expect_err("an error answer");
        assert_eq!(answer["jsonrpc"], "2.0");
        (
            answer["error"]["code"].as_i64().expect("code"),
            answer["id"].clone(),
        )
    }

    #[test]
    fn messages_pass() {
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"m"}"#,
            r#"{"jsonrpc":"2.0","method":"n","params":[1]}"#,
            r#"{"jsonrpc":"2.0","method":"exit","params":null}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":null}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}"#,
            "\u{feff}{\"jsonrpc\":\"2.0\",\"method\":\"n\"}",
        ] {
            assert!(check(body.as_bytes()).is_ok(), "{body}");
        }
    }

    #[test]
    fn malformed_messages_get_their_answer() {
        assert_eq!(answer("{not json"), (PARSE_ERROR, Value::Null));
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":1"#),
            (PARSE_ERROR, Value::Null)
        );
        assert_eq!(answer("[]"), (INVALID_REQUEST, Value::Null));
        assert_eq!(answer("7"), (INVALID_REQUEST, Value::Null));
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":{"x":1},"method":"m"}"#),
            (INVALID_REQUEST, Value::Null)
        );
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#),
            (INVALID_REQUEST, Value::Null)
        );
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":4,"method":7}"#),
            (INVALID_REQUEST, json!(4))
        );
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":"x","method":"m","params":3}"#),
            (INVALID_REQUEST, json!("x"))
        );
        assert_eq!(
            answer(r#"{"id":5,"method":"m"}"#),
            (INVALID_REQUEST, json!(5))
        );
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0"}"#),
            (INVALID_REQUEST, Value::Null)
        );
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":6}"#),
            (INVALID_REQUEST, json!(6))
        );
    }
}
