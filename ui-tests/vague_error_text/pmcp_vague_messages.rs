//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// pmcp 2.x: the message of `Error::tool_rejected(..)` is the isError text the model reads, so a
// vague one is reported (and only that: the channel is right). `Error::internal("failed")` in a
// tool is vague and -32603 at once, two findings at their own spans. `CallToolResult::rejected`
// and `Content::text` in an error result are error text too. Detail in the message, or the
// error's own text, is not vague.
use async_trait::async_trait;
use pmcp::types::{CallToolResult, Content};
use pmcp::{Error, RequestHandlerExtra, ToolHandler, ToolOutput};
use serde_json::{json, Value};

pub struct ParseCsv;

#[async_trait]
impl ToolHandler for ParseCsv {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let Some(csv) = args.get("csv").and_then(Value::as_str) else {
            return Err(Error::tool_rejected("invalid input", None)); //~ vague_error_text
        };
        let mut rows = Vec::new();
        for (i, line) in csv.lines().enumerate() {
            let fields: Vec<&str> = line.split(',').collect();
            if fields.len() < 2 {
                return Err(Error::tool_rejected(format!("Invalid input: line {} has {} field(s), expected at least 2", i + 1, fields.len()), None));
            }
            rows.push(fields);
        }
        if rows.len() > 10_000 {
            return Err(Error::internal("failed")); //~ tool_failure_as_protocol_error
            //~^ vague_error_text
        }
        Ok(json!({ "rows": rows.len() }))
    }
}

pub struct Sum;

#[async_trait]
impl ToolHandler for Sum {
    async fn handle(&self, _args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        Ok(json!({}))
    }

    async fn handle_output(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<ToolOutput> {
        let Some(numbers) = args.get("numbers").and_then(Value::as_array) else {
            return Ok(ToolOutput::Result(CallToolResult::rejected("error", None))); //~ vague_error_text
        };
        let mut total = 0.0;
        for n in numbers {
            match n.as_f64() {
                Some(v) => total += v,
                None => return Ok(ToolOutput::Result(CallToolResult::error(vec![Content::text("Something went wrong")]))), //~ vague_error_text
            }
        }
        Ok(ToolOutput::Payload(json!({ "total": total })))
    }
}
