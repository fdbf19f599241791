//! Prompts that turn a notebook into a conversation starter.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{GetPromptResult, PromptMessage, PromptMessageRole};
use rmcp::{prompt, prompt_router, schemars, ErrorData as McpError};
use serde::Deserialize;

use crate::server::NotesServer;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SummarizeArgs {
    /// Handle of the notebook to summarize
    pub notebook: String,
    /// "bullets" or "prose"
    pub style: Option<String>,
}

#[prompt_router(vis = "pub(crate)")]
impl NotesServer {
    #[prompt(
        name = "summarize_notebook",
        description = "Summarize the notes of a notebook"
    )]
    async fn summarize(
        &self,
        Parameters(SummarizeArgs { notebook, style }): Parameters<SummarizeArgs>,
    ) -> Result<GetPromptResult, McpError> {
        let style = style.unwrap_or_else(|| "bullets".into());
        if style != "bullets" && style != "prose" {
            return Err(McpError::invalid_params("invalid input", None));
        }
        let mut store = self.store()?;
        let nb = store.get(&notebook).ok_or_else(|| {
            McpError::invalid_params(format!("unknown notebook {notebook}"), None)
        })?;
        let notes: Vec<String> = nb.notes.values().map(|n| format!("- {}", n.text)).collect();
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            PromptMessageRole::User,
            format!(
                "Summarize these notes from \"{}\" as {style}:\n{}",
                nb.title,
                notes.join("\n")
            ),
        )]))
    }
}
