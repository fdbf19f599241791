//@ rmcp = "2.2"
// `Err(McpError::..)` returned by a tool (a constructor or a struct literal) becomes
// `Ok(CallToolResult::error(..))` with the same message, less a trailing `.into()`
// (MachineApplicable). Dropping a `Some(data)` argument makes the fix MaybeIncorrect. An `Err`
// the tool does not return and one inside a closure get no fix; one built by a helper only the
// tool uses is fixed at the helper, which then builds the isError result the tool returns.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, ContentBlock, ErrorCode},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct OrderArgs {
    pub id: u64,
    pub quantity: u32,
}

pub struct Shop {
    stock: std::collections::HashMap<u64, u32>,
    tool_router: ToolRouter<Self>,
}

fn out_of_stock(id: u64) -> McpError {
    McpError::internal_error(format!("product {id} is out of stock"), None) //~ tool_failure_as_protocol_error
}

#[tool_router]
impl Shop {
    #[tool(description = "Order a product")]
    async fn order(&self, Parameters(OrderArgs { id, quantity }): Parameters<OrderArgs>) -> Result<CallToolResult, McpError> {
        if quantity == 0 {
            return Err(McpError::internal_error("quantity must be at least 1", None)); //~ tool_failure_as_protocol_error
        }
        let Some(available) = self.stock.get(&id) else {
            return Err(McpError::internal_error( //~ tool_failure_as_protocol_error
                format!("no product with id {id}"),
                Some(serde_json::json!({ "id": id })),
            ));
        };
        if *available == 0 {
            return Err(out_of_stock(id));
        }
        match available.checked_sub(quantity) {
            Some(left) => Ok(CallToolResult::success(vec![ContentBlock::text(format!("ordered; {left} left"))])),
            None => Err(McpError::internal_error(format!("only {available} in stock"), None)), //~ tool_failure_as_protocol_error
        }
    }

    #[tool(description = "Cancel an order")]
    async fn cancel(&self, Parameters(OrderArgs { id, .. }): Parameters<OrderArgs>) -> Result<CallToolResult, McpError> {
        if !self.stock.contains_key(&id) {
            return Err(McpError { //~ tool_failure_as_protocol_error
                code: ErrorCode::INTERNAL_ERROR,
                message: format!("order {id} has shipped and can no longer be cancelled").into(),
                data: None,
            });
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("cancelled {id}"))]))
    }

    #[tool(description = "Stock of a product")]
    async fn stock(&self, Parameters(OrderArgs { id, .. }): Parameters<OrderArgs>) -> Result<CallToolResult, McpError> {
        // Not what the tool returns: kept in a variable and propagated later.
        let checked: Result<u32, McpError> = match self.stock.get(&id) {
            Some(n) => Ok(*n),
            None => Err(McpError::internal_error(format!("no product with id {id}"), None)), //~ tool_failure_as_protocol_error
        };
        let n = checked?;
        // Inside a closure: `return` there would leave the closure, not the tool.
        let total: u32 = self
            .stock
            .values()
            .map(|n| if *n > 1_000_000 { Err(McpError::internal_error("stock count above a million", None)) } else { Ok(*n) }) //~ tool_failure_as_protocol_error
            .sum::<Result<u32, McpError>>()?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("{n} of {total}"))]))
    }
}
