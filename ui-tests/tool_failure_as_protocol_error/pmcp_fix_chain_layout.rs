//@ dep: pmcp = "2.23"
//@ dep: serde_json = "1"
// pmcp 2.23 `ToolHandler`s whose `Error::internal(..)` sits in a closure of a method chain, in a
// file rustfmt leaves alone. The fix puts `Error::tool_rejected(.., None)` in its place, which no
// longer fits on the closure's line: laid out as rustfmt does, the closure takes a block (a call
// body that does not fit on one line), and a chain whose last call it is goes back on one line
// when the calls before it fit within rustfmt's chain budget (`format_last_child`); a call in
// the middle of a chain (`.ok_or_else(..)?` before `.as_u64()`) keeps its line.
use pmcp::{async_trait, Error, RequestHandlerExtra, ToolHandler};
use serde_json::Value;

pub struct A;

#[async_trait]
impl ToolHandler for A {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let path = args.get("path").and_then(Value::as_str).unwrap_or_default();
        //~vv tool_failure_as_protocol_error
        std::fs::write(path, "x")
            .map_err(|e| Error::internal(format!("cannot write the file at {path}: {e}!!")))?;
        //~vvv tool_failure_as_protocol_error
        let size = std::fs::metadata(path)
            .map(|m| m.len())
            .map_err(|e| Error::internal(format!("cannot stat the note file at {path}: {e}!!")))?;
        //~vvv tool_failure_as_protocol_error
        let n = args
            .get("n")
            .ok_or_else(|| Error::internal("the n argument is needed here for all the calls!!!"))?
            .as_u64();
        if n.is_none() || size == 0 {
            //~vvv tool_failure_as_protocol_error
            return std::fs::read_to_string(path)
                .map(Value::from)
                .map_err(|e| Error::internal(format!("cannot read the note {path}: {e}")));
        }
        match args.get("x") {
            //~vvv tool_failure_as_protocol_error
            Some(_) => std::fs::read_to_string(path)
                .map(Value::from)
                .map_err(|e| Error::internal(format!("cannot read the note {path}: {e}"))),
            None => Ok(Value::Null),
        }
    }
}

pub struct B;

#[async_trait]
impl ToolHandler for B {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let path = args.get("path").and_then(Value::as_str).unwrap_or_default();
        //~vvv tool_failure_as_protocol_error
        std::fs::read_to_string(path)
            .map(Value::from)
            .map_err(|e| Error::internal(format!("cannot read the notes file at {path}: {e}")))
    }
}

/// A chain on one line that the fix lengthens goes one call per line, the closure on one line;
/// one whose calls before the closure take more than the chain budget keeps its lines.
pub struct C;

#[async_trait]
impl ToolHandler for C {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let path = args.get("path").and_then(Value::as_str).unwrap_or_default();
        std::fs::remove_file(path).map_err(|e| Error::internal(format!("gone {path}: {e}")))?; //~ tool_failure_as_protocol_error

        //~vvv tool_failure_as_protocol_error
        let very_long_binding_name_for_the_text = std::fs::read_to_string(path)
            .map(|text| text.trim().to_string())
            .map_err(|e| Error::internal(format!("cannot read the file {path}: {e}")))?;
        Ok(Value::from(very_long_binding_name_for_the_text))
    }
}
