//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// pmcp's fix replaces the constructor where it stands (`Error::internal(msg)` →
// `Error::tool_rejected(msg, None)`). When the longer call no longer fits on its line, the
// statement is laid out as rustfmt lays it out: the right-hand side on the next line, else the
// chain broken before the call, else the closure body in a block.
use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::Value;

pub struct Files;

fn read(path: &str) -> Result<String, std::io::Error> {
    std::fs::read_to_string(path)
}

fn read_the_note_and_its_attachment(path: &str, note: &str) -> Result<String, std::io::Error> {
    std::fs::read_to_string(format!("{path}/{note}"))
}

#[async_trait]
impl ToolHandler for Files {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let path = args.get("path").and_then(Value::as_str).unwrap_or_default();
        let a = read(path).map_err(|e| Error::internal(format!("cannot read {path}: {e}")))?; //~ tool_failure_as_protocol_error
        let both = read_the_note_and_its_attachment(path, &a)
            .map_err(|e| Error::internal(format!("{e}")))?; //~ tool_failure_as_protocol_error
        let c = read(path).map_err(|e| {
            Error::internal(format!(
                "cannot read the file {path} a third time, sorry: {e}"
            ))
        })?; //~^^^ tool_failure_as_protocol_error
        let d = read(path)
            .map_err(|e| Error::internal(format!("cannot read the file {path} again!: {e}")))?; //~ tool_failure_as_protocol_error
        Ok(Value::String(format!("{a}{both}{c}{d}")))
    }
}
