//! The LSP base protocol on stdin and stdout, in place of `lsp-server`'s stdio threads (they end
//! the connection on the first malformed message, and allocate whatever `Content-Length` says).
//!
//! Each message is at most [`MAX_MESSAGE_BYTES`]; a larger one is answered with an error and
//! skipped without being held in memory. A body that is not JSON, or JSON that is not a message,
//! gets the answer JSON-RPC prescribes ([`crate::jsonrpc`]). A header line that is not a header
//! is ignored, and `Content-Length:` is found anywhere in a line, so the reader finds the next
//! message after a body that was shorter or longer than its header said.

use std::io::{self, BufRead, Read, Write};
use std::thread::JoinHandle;

use lsp_server::{Connection, Message};
use serde_json::Value;

use crate::jsonrpc::{
    self, error_answer, read_line, Line, INVALID_REQUEST, MAX_MESSAGE_BYTES, PARSE_ERROR,
};

/// The longest header line read; longer ones are skipped.
const MAX_HEADER_BYTES: usize = 8 << 10;
/// Messages read ahead of the server: the reader waits when this many are queued.
const QUEUED_MESSAGES: usize = 16;

/// What the reader found next.
#[derive(Debug)]
enum Frame {
    Body(Vec<u8>),
    /// The headers were unusable: the answer is due, there is no body to read.
    Broken(String),
    /// `Content-Length` above [`MAX_MESSAGE_BYTES`]: that many bytes are to be skipped.
    TooLarge(u64),
}

/// The value of a `Content-Length:` header anywhere in `line` (case-insensitive).
fn content_length(line: &[u8]) -> Option<Result<u64, ()>> {
    const NAME: &[u8] = b"content-length:";
    let at = line
        .windows(NAME.len())
        .rposition(|w| w.eq_ignore_ascii_case(NAME))?;
    let value = std::str::from_utf8(&line[at + NAME.len()..]).map_err(|_| ());
    Some(value.and_then(|v| v.trim().parse::<u64>().map_err(|_| ())))
}

/// The next frame; `None` at the end of the input (a message cut off by it is dropped).
fn read_frame(r: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut line = Vec::new();
    let mut length = None;
    let mut headers = 0usize;
    let mut broken = None;
    loop {
        match read_line(r, &mut line, MAX_HEADER_BYTES)? {
            Line::End => return Ok(None),
            Line::TooLong => {
                headers += 1;
                broken = Some(format!(
                    "a header line longer than {MAX_HEADER_BYTES} bytes"
                ));
                continue;
            }
            Line::Line => {}
        }
        let text = line.trim_ascii();
        if text.is_empty() {
            if headers == 0 {
                continue; // Blank lines between messages.
            }
            break;
        }
        headers += 1;
        if let Some(value) = content_length(text) {
            length = Some(value);
        }
    }
    let frame = match (broken, length) {
        (Some(why), _) => Frame::Broken(why),
        (None, None) => Frame::Broken("a message without a `Content-Length` header".into()),
        (None, Some(Err(()))) => Frame::Broken("`Content-Length` is not a number".into()),
        (None, Some(Ok(n))) if n > MAX_MESSAGE_BYTES => Frame::TooLarge(n),
        (None, Some(Ok(n))) => {
            let mut body = Vec::with_capacity(n as usize);
            r.take(n).read_to_end(&mut body)?;
            if (body.len() as u64) < n {
                return Ok(None);
            }
            Frame::Body(body)
        }
    };
    Ok(Some(frame))
}

/// The message in `body` for the server; `Err` is the answer due instead, `Ok(None)` a
/// malformed response of the client's, which is dropped (answering it could start a loop of
/// errors between the two sides).
fn message(body: &[u8]) -> Result<Option<Message>, Value> {
    let object = jsonrpc::check(body)?;
    let is_response = !object.contains_key("method");
    let id = object.get("id").cloned().unwrap_or(Value::Null);
    match serde_json::from_value::<Message>(Value::Object(object)) {
        Ok(message) => Ok(Some(message)),
        Err(_) if is_response => Ok(None),
        Err(e) => Err(error_answer(
            id,
            INVALID_REQUEST,
            &format!("Invalid Request: {e}"),
        )),
    }
}

/// Read messages from `input` until it ends or `deliver` returns `false`: each valid one goes to
/// `deliver`, each answer due to `answer`. Shared by the stdio reader and the fuzz target.
pub fn read_messages(
    mut input: impl BufRead,
    mut deliver: impl FnMut(Message) -> bool,
    mut answer: impl FnMut(Value),
) -> io::Result<()> {
    while let Some(frame) = read_frame(&mut input)? {
        match frame {
            Frame::Body(body) => match message(&body) {
                Ok(Some(message)) => {
                    if !deliver(message) {
                        return Ok(());
                    }
                }
                Ok(None) => {}
                Err(due) => answer(due),
            },
            Frame::Broken(why) => answer(error_answer(
                Value::Null,
                PARSE_ERROR,
                &format!("Parse error: {why}"),
            )),
            Frame::TooLarge(n) => {
                answer(error_answer(
                    Value::Null,
                    INVALID_REQUEST,
                    &format!(
                        "Invalid Request: the message is {n} bytes; mcp-lint reads at most {} \
                         per message, this one was skipped",
                        crate::read::size_text(MAX_MESSAGE_BYTES)
                    ),
                ));
                io::copy(&mut (&mut input).take(n), &mut io::sink())?;
            }
        }
    }
    Ok(())
}

/// Write one frame to stdout; whole frames only, so the reader's answers and the server's
/// messages never interleave.
fn write_frame(body: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    out.flush()
}

/// The threads serving a [`Connection`] on stdin and stdout.
pub struct IoThreads {
    writer: JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Wait until every message the server sent is written. The reader is not waited for: it
    /// may be blocked on stdin, and it ends with the process.
    pub fn join(self) -> Result<(), String> {
        match self.writer.join() {
            Ok(result) => result.map_err(|e| format!("could not write to stdout: {e}")),
            Err(_) => Err("the stdout writer panicked".to_string()),
        }
    }
}

/// A connection over stdin and stdout.
pub fn stdio() -> (Connection, IoThreads) {
    let (to_server, from_client) = crossbeam_channel::bounded::<Message>(QUEUED_MESSAGES);
    let (to_client, from_server) = crossbeam_channel::bounded::<Message>(QUEUED_MESSAGES);
    std::thread::spawn(move || {
        let stdin = io::stdin().lock();
        let result = read_messages(
            stdin,
            |message| {
                let is_exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                to_server.send(message).is_ok() && !is_exit
            },
            |answer| {
                let _ = write_frame(&answer.to_string());
            },
        );
        if let Err(e) = result {
            eprintln!("mcp-lint server: could not read stdin: {e}");
        }
    });
    let writer = std::thread::spawn(move || {
        for message in from_server {
            let mut out = io::stdout().lock();
            message.write(&mut out)?;
        }
        Ok(())
    });
    (
        Connection {
            sender: to_client,
            receiver: from_client,
        },
        IoThreads { writer },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every message and answer the reader produces for `input`.
    fn read_all(input: &[u8]) -> (Vec<Message>, Vec<Value>) {
        let (mut messages, mut answers) = (Vec::new(), Vec::new());
        read_messages(
            input,
            |m| {
                messages.push(m);
                true
            },
            |a| answers.push(a),
        )
        .expect("reads");
        (messages, answers)
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const PING: &str = r#"{"jsonrpc":"2.0","method":"ping"}"#;

    #[test]
    fn malformed_messages_are_answered_and_the_next_one_is_read() {
        let input = [
            frame("{not json"),
            frame("[]"),
            frame(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"m"}"#),
            "Content-Length: 8\r\n\r\n{\"jsonrpc\":\"2.0\"}".to_string(),
            frame(PING),
            "X-Other: 1\r\n\r\n".to_string(),
            frame(PING),
        ]
        .concat();
        let (messages, answers) = read_all(input.as_bytes());
        let codes: Vec<i64> = answers
            .iter()
            .map(|a| a["error"]["code"].as_i64().unwrap())
            .collect();
        assert_eq!(
            codes,
            [
                PARSE_ERROR,
                INVALID_REQUEST,
                INVALID_REQUEST,
                PARSE_ERROR,
                PARSE_ERROR
            ]
        );
        assert!(answers.iter().all(|a| a["id"].is_null()), "{answers:?}");
        // After the short body, the rest of it and the next header share a line: found anyway.
        assert_eq!(messages.len(), 2, "{messages:?}");
    }

    #[test]
    fn an_oversized_message_is_skipped_without_being_read_into_memory() {
        let huge = MAX_MESSAGE_BYTES + 1;
        let mut input = format!("Content-Length: {huge}\r\n\r\n").into_bytes();
        input.resize(input.len() + huge as usize, b' ');
        input.extend_from_slice(frame(PING).as_bytes());
        let (messages, answers) = read_all(&input);
        assert_eq!(answers.len(), 1);
        assert!(answers[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 64 MiB"));
        assert_eq!(messages.len(), 1);
        // A length the input never reaches: the reader skips to the end, and stops.
        let input = "Content-Length: 1000000000000\r\n\r\n{}";
        let (messages, answers) = read_all(input.as_bytes());
        assert_eq!((messages.len(), answers.len()), (0, 1));
    }

    #[test]
    fn long_header_lines_are_not_kept() {
        let input = format!("X: {}\r\n\r\n{}", "a".repeat(1 << 20), frame(PING));
        let (messages, answers) = read_all(input.as_bytes());
        assert_eq!((messages.len(), answers.len()), (1, 1));
        assert!(answers[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("header line longer"));
    }
}
