//@ rmcp = "1.8"
// -32602 is the spec's answer outside tools: a missing prompt argument, an unknown resource
// (2026-07-28), an invalid pagination cursor, a completion for an unknown argument.
use rmcp::{
    model::{
        CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResult, ListResourcesResult,
        PaginatedRequestParams, PromptMessage, PromptMessageRole, ReadResourceRequestParams, ReadResourceResult,
        ResourceContents,
    },
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};
use serde_json::json;

#[derive(Clone)]
pub struct Recipes {
    recipes: std::sync::Arc<std::collections::BTreeMap<String, String>>,
}

impl ServerHandler for Recipes {
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, McpError> {
        let dish = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("dish"))
            .and_then(|d| d.as_str())
            .ok_or_else(|| McpError::invalid_params("prompt `cook` requires the `dish` argument", None))?;
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(PromptMessageRole::User, format!("How do I cook {dish}?"))]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let name = request.uri.trim_start_matches("recipe://");
        match self.recipes.get(name) {
            Some(text) => Ok(ReadResourceResult::new(vec![ResourceContents::text(text.clone(), request.uri.clone())])),
            None => Err(McpError::invalid_params(format!("no recipe {name}"), Some(json!({ "uri": request.uri })))),
        }
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        if let Some(cursor) = request.and_then(|r| r.cursor) {
            if cursor.parse::<usize>().is_err() {
                return Err(McpError::invalid_params(format!("invalid cursor {cursor}"), None));
            }
        }
        Ok(ListResourcesResult::default())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        if request.argument.name != "dish" {
            return Err(McpError::invalid_params(format!("no completions for argument {}", request.argument.name), None));
        }
        Ok(CompleteResult::default())
    }
}
