//! MCP over stdio (one JSON-RPC message per line), in place of rmcp's stdio transport: that one
//! ignores a line that is not JSON, answers a malformed message -32600 without its `id`, and
//! hands `tools/call` with broken params to the router as an unknown method (-32601).
//!
//! Here each line is checked first ([`crate::jsonrpc`]): not JSON is -32700 and malformed
//! -32600, with the message's id when it has a valid one, else `id: null`; a known MCP request
//! whose params do not fit it (a `tools/call` without a string `name`, `arguments` that are not
//! an object) is -32602. A line longer than [`MAX_MESSAGE_BYTES`] is answered and skipped
//! without being held. stdin is read on a thread of its own, so the runtime never waits for it.

use std::io::{self, BufRead, Write};

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde_json::{Map, Value};
use tokio::sync::mpsc;

use crate::jsonrpc::{
    self, error_answer, read_line, Line, INVALID_PARAMS, INVALID_REQUEST, MAX_MESSAGE_BYTES,
};

/// Messages read ahead of the server.
const QUEUED_MESSAGES: usize = 16;

/// Requests of the MCP specification: rmcp takes one whose params do not fit for a custom
/// request, which the router answers -32601 (method not found). Their params are wrong instead.
const SPEC_REQUESTS: [&str; 13] = [
    "initialize",
    "ping",
    "tools/call",
    "tools/list",
    "prompts/get",
    "prompts/list",
    "resources/read",
    "resources/list",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
];

/// Why `tools/call` params are not usable, in the words of the specification's schema.
fn tools_call_problem(params: Option<&Value>) -> Option<&'static str> {
    let Some(Value::Object(params)) = params else {
        return Some("`params` must be an object with the tool's `name`");
    };
    match (params.get("name"), params.get("arguments")) {
        (None, _) => Some("`params.name` (the tool to call) is missing"),
        (Some(name), _) if !name.is_string() => Some("`params.name` must be a string"),
        (_, Some(args)) if !args.is_object() && !args.is_null() => {
            Some("`params.arguments` must be an object")
        }
        _ => None,
    }
}

/// The message on one line for the server; `Err` is the answer due instead, `Ok(None)` a line
/// to drop (blank, or a notification or response rmcp has no type for).
fn message(line: &[u8]) -> Result<Option<RxJsonRpcMessage<RoleServer>>, Value> {
    if line.trim_ascii().is_empty() {
        return Ok(None);
    }
    let object: Map<String, Value> = jsonrpc::check(line)?;
    let id = object.get("id").cloned();
    let method = object
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let invalid_params = |why: &str| {
        Err(error_answer(
            id.clone().unwrap_or(Value::Null),
            INVALID_PARAMS,
            &format!("Invalid params: {why}"),
        ))
    };
    if let (Some("tools/call"), Some(_)) = (method.as_deref(), &id) {
        if let Some(why) = tools_call_problem(object.get("params")) {
            return invalid_params(why);
        }
    }
    let parsed = serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(Value::Object(object));
    match (parsed, method, &id) {
        (Ok(rmcp::model::JsonRpcMessage::Request(request)), Some(method), _)
            if matches!(
                request.request,
                rmcp::model::ClientRequest::CustomRequest(_)
            ) && SPEC_REQUESTS.contains(&method.as_str()) =>
        {
            invalid_params(&format!(
                "the params do not fit the specification's `{method}` request"
            ))
        }
        (Ok(message), _, _) => Ok(Some(message)),
        (Err(e), Some(_), Some(_)) => invalid_params(&e.to_string()),
        // A notification or response of a kind rmcp does not know: nothing to answer.
        (Err(_), _, _) => Ok(None),
    }
}

/// Read lines from `input` until it ends or `deliver` returns `false`: each message goes to
/// `deliver`, each answer due to `answer`. Shared by the stdin thread and the fuzz target.
pub fn read_messages(
    mut input: impl BufRead,
    mut deliver: impl FnMut(RxJsonRpcMessage<RoleServer>) -> bool,
    mut answer: impl FnMut(Value),
) -> io::Result<()> {
    let mut line = Vec::new();
    let cap = usize::try_from(MAX_MESSAGE_BYTES).unwrap_or(usize::MAX);
    loop {
        match read_line(&mut input, &mut line, cap)? {
            Line::End => return Ok(()),
            Line::TooLong => answer(error_answer(
                Value::Null,
                INVALID_REQUEST,
                &format!(
                    "Invalid Request: the message is longer than {}, the most mcp-lint reads; \
                     it was skipped",
                    crate::read::size_text(MAX_MESSAGE_BYTES)
                ),
            )),
            Line::Line => match message(&line) {
                Ok(Some(message)) => {
                    if !deliver(message) {
                        return Ok(());
                    }
                }
                Ok(None) => {}
                Err(due) => answer(due),
            },
        }
    }
}

/// One line to stdout, whole: the reader's answers and the server's messages never interleave.
fn write_line(message: &impl serde::Serialize) -> io::Result<()> {
    let mut text = serde_json::to_vec(message)?;
    text.push(b'\n');
    let mut out = io::stdout().lock();
    out.write_all(&text)?;
    out.flush()
}

/// The server's side of stdin and stdout.
pub struct Stdio {
    incoming: mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
}

/// Start reading stdin (on a thread that ends at its end, or when the server is gone).
pub fn stdio() -> Stdio {
    let (to_server, incoming) = mpsc::channel(QUEUED_MESSAGES);
    std::thread::spawn(move || {
        let result = read_messages(
            io::stdin().lock(),
            |message| to_server.blocking_send(message).is_ok(),
            |answer| {
                let _ = write_line(&answer);
            },
        );
        if let Err(e) = result {
            eprintln!("mcp-lint mcp: could not read stdin: {e}");
        }
    });
    Stdio { incoming }
}

impl Transport<RoleServer> for Stdio {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), io::Error>> + Send + 'static {
        std::future::ready(write_line(&item))
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.incoming.close();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(input: &str) -> (usize, Vec<Value>) {
        let (mut delivered, mut answers) = (0, Vec::new());
        read_messages(
            input.as_bytes(),
            |_| {
                delivered += 1;
                true
            },
            |a| answers.push(a),
        )
        .expect("reads");
        (delivered, answers)
    }

    fn code_and_id(answer: &Value) -> (i64, Value) {
        (
            answer["error"]["code"].as_i64().expect("code"),
            answer["id"].clone(),
        )
    }

    #[test]
    fn broken_tools_call_params_are_invalid_params() {
        let calls = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":7}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lint","arguments":[]}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call"}"#,
        ];
        let (delivered, found) = answers(&calls.join("\n"));
        assert_eq!(delivered, 0);
        let found: Vec<(i64, Value)> = found.iter().map(code_and_id).collect();
        assert_eq!(
            found,
            (1..=4)
                .map(|id| (INVALID_PARAMS, Value::from(id)))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn every_line_is_answered_or_delivered() {
        let input = [
            "{not json",
            "",
            r#"{"jsonrpc":"2.0","id":5}"#,
            r#"[]"#,
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"lint","arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#,
        ]
        .join("\n");
        let (delivered, found) = answers(&input);
        let found: Vec<(i64, Value)> = found.iter().map(code_and_id).collect();
        assert_eq!(
            found,
            [
                (jsonrpc::PARSE_ERROR, Value::Null),
                (INVALID_REQUEST, Value::from(5)),
                (INVALID_REQUEST, Value::Null),
            ]
        );
        // tools/list, tools/call and the notification (rmcp ignores it), the last line without
        // its line break included.
        assert_eq!(delivered, 3);
    }
}
