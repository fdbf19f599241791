use std::collections::VecDeque;
use std::sync::Arc;

use rmcp::model::{
    AnnotateAble, CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode,
    Implementation, ListResourcesResult, ListToolsResult, PaginatedRequestParams, RawResource,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceContents,
    ServerCapabilities, ServerInfo,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use serde_json::json;
use tokio::sync::Mutex;

use crate::args::{number, numbers, string};
use crate::eval::{self, EvalError};
use crate::{tools, McpError};

const HISTORY_URI: &str = "calc://history";
const HISTORY_LEN: usize = 50;

#[derive(Clone)]
pub struct Calculator {
    keep_history: bool,
    history: Arc<Mutex<VecDeque<String>>>,
}

impl Calculator {
    pub fn new(keep_history: bool) -> Self {
        Self {
            keep_history,
            history: Arc::new(Mutex::new(VecDeque::new())),
        }
    }

    async fn remember(&self, tool: &str, result: &str) {
        if !self.keep_history {
            return;
        }
        let mut history = self.history.lock().await;
        if history.len() == HISTORY_LEN {
            history.pop_front();
        }
        history.push_back(format!("{tool} = {result}"));
    }
}

fn to_radix(mut n: u64, base: u32) -> String {
    if n == 0 {
        return "0".into();
    }
    let mut digits = Vec::new();
    while n > 0 {
        digits.push(std::char::from_digit((n % base as u64) as u32, base).unwrap_or('?'));
        n /= base as u64;
    }
    digits.iter().rev().collect()
}

impl ServerHandler for Calculator {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::from_build_env())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tools::all()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        let value = match request.name.as_ref() {
            "add" => number(&args, "a")? + number(&args, "b")?,
            "divide" => {
                let (a, b) = (number(&args, "a")?, number(&args, "b")?);
                if b == 0.0 {
                    return Err(McpError::internal_error("division by zero", None));
                }
                a / b
            }
            "sqrt" => {
                let x = number(&args, "x")?;
                if x < 0.0 {
                    return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                        "cannot take the square root of {x}; x must be zero or positive"
                    ))])
                    .into());
                }
                x.sqrt()
            }
            "evaluate" => {
                let expression = string(&args, "expression")?;
                match eval::evaluate(expression) {
                    Ok(v) => v,
                    Err(e @ EvalError::Syntax { .. }) => {
                        return Err(McpError::invalid_params(
                            format!("{e} in {expression:?}"),
                            None,
                        ));
                    }
                    Err(EvalError::Overflow) => {
                        return Ok(CallToolResult::error(vec![ContentBlock::text("Error")]).into());
                    }
                    Err(e) => {
                        return Ok(CallToolResponse::Complete(CallToolResult::error(vec![
                            ContentBlock::text(format!("cannot evaluate {expression:?}: {e}")),
                        ])));
                    }
                }
            }
            "mean" => {
                let values = numbers(&args, "values")?;
                if values.is_empty() {
                    return Ok(CallToolResult::error(Vec::new()).into());
                }
                values.iter().sum::<f64>() / values.len() as f64
            }
            "to_base" => {
                let n = number(&args, "n")?;
                let base = number(&args, "base")?;
                if !(2.0..=36.0).contains(&base) || base.fract() != 0.0 {
                    return Err(McpError::new(
                        ErrorCode(-32000),
                        format!("base must be an integer from 2 to 36, got {base}"),
                        None,
                    ));
                }
                if n < 0.0 || n.fract() != 0.0 || n > u64::MAX as f64 {
                    return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                        "n must be a non-negative integer, got {n}"
                    ))])
                    .into());
                }
                let text = to_radix(n as u64, base as u32);
                self.remember("to_base", &text).await;
                return Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into());
            }
            other => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "Unknown tool: {other}"
                ))])
                .into());
            }
        };
        let text = value.to_string();
        self.remember(&request.name, &text).await;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult::with_all_items(vec![RawResource::new(
            HISTORY_URI,
            "calculation history",
        )
        .no_annotation()]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        if request.uri != HISTORY_URI {
            return Err(McpError::invalid_params(
                format!("unknown resource {}", request.uri),
                Some(json!({ "uri": request.uri })),
            ));
        }
        if !self.keep_history {
            return Err(McpError::new(
                ErrorCode(-32001),
                "history is disabled; start the server with CALC_HISTORY=1",
                None,
            ));
        }
        let history = self.history.lock().await;
        let text = history.iter().cloned().collect::<Vec<_>>().join("\n");
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, HISTORY_URI)]).into())
    }
}
