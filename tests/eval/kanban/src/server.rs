use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{
    AnnotateAble, CallToolResult, ContentBlock, Implementation, ListResourcesResult,
    PaginatedRequestParams, RawResource, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, ResourceContents, ServerCapabilities, ServerInfo,
};
use rmcp::service::RequestContext;
use rmcp::{
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;
use serde_json::json;

use crate::db::{Board, CardList};
use crate::error::AppError;

#[derive(Clone)]
pub struct KanbanServer {
    db: Board,
    tool_router: ToolRouter<Self>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NewCard {
    /// Board id
    pub board: String,
    /// Column name, e.g. "todo"
    pub column: String,
    pub title: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct MoveCard {
    pub card_id: i64,
    pub to_column: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ListArgs {
    pub board: String,
    /// Only cards in this column
    pub column: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct BoardArg {
    pub board: String,
}

#[tool_router]
impl KanbanServer {
    pub fn new(db: Board) -> Self {
        Self {
            db,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Create a card in a column of a board")]
    async fn create_card(
        &self,
        Parameters(NewCard {
            board,
            column,
            title,
        }): Parameters<NewCard>,
    ) -> Result<CallToolResult, McpError> {
        if title.trim().is_empty() {
            return Ok(CallToolResult::error(vec![ContentBlock::text(
                "title must not be empty",
            )]));
        }
        let info = self.db.board(&board).await?;
        if !info.columns.contains(&column) {
            return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "board {} has no column {column:?}; its columns are {}",
                info.name,
                info.columns.join(", ")
            ))]));
        }
        if let Some(limit) = info.wip_limit {
            let in_column = match self.db.cards(&info.id, Some(&column)).await {
                Ok(cards) => cards.len(),
                Err(e) => {
                    return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                        "could not check the WIP limit of {column}: {e}"
                    ))]))
                }
            };
            if in_column as u32 >= limit {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "column {column} is at its WIP limit of {limit}; move a card out first"
                ))]));
            }
        }
        let card = self.db.insert_card(&info.id, &column, &title).await?;
        Ok(CallToolResult::success(vec![
            ContentBlock::text(format!("created card {} in {column}", card.id)),
            ContentBlock::json(&card)?,
        ]))
    }

    #[tool(description = "Move a card to another column of its board")]
    async fn move_card(
        &self,
        Parameters(MoveCard { card_id, to_column }): Parameters<MoveCard>,
    ) -> Result<CallToolResult, McpError> {
        let card = match self.db.card(card_id).await {
            Ok(card) => card,
            Err(AppError::NotFound { .. }) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "no card {card_id}; use list_cards to find card ids"
                ))]))
            }
            Err(e) => return Err(e.into()),
        };
        if card.column == to_column {
            return Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "card {card_id} is already in {to_column}"
            ))]));
        }
        self.db.move_card(card_id, &to_column).await?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "moved card {card_id} from {} to {to_column}",
            card.column
        ))]))
    }

    #[tool(description = "List the cards of a board")]
    async fn list_cards(
        &self,
        Parameters(ListArgs { board, column }): Parameters<ListArgs>,
    ) -> Result<Json<CardList>, McpError> {
        let cards = self.db.cards(&board, column.as_deref()).await?;
        Ok(Json(CardList { cards }))
    }

    #[tool(description = "Delete a board that has no cards left")]
    async fn archive_board(
        &self,
        Parameters(BoardArg { board }): Parameters<BoardArg>,
    ) -> Result<CallToolResult, McpError> {
        let open = match self.db.cards(&board, None).await {
            Ok(cards) => cards,
            Err(e) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "could not read the cards of {board}: {e}"
                ))]))
            }
        };
        if !open.is_empty() {
            return Err(McpError::invalid_request(
                format!(
                    "board {board} still has {} cards; move or delete them first",
                    open.len()
                ),
                None,
            ));
        }
        match self.db.delete_board(&board).await {
            Ok(()) => Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "archived {board}"
            ))])),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "could not archive {board}: {e}"
            ))])),
        }
    }
}

#[tool_handler]
impl ServerHandler for KanbanServer {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::from_build_env())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let boards = self.db.boards().await?;
        Ok(ListResourcesResult::with_all_items(
            boards
                .into_iter()
                .map(|(id, name)| {
                    RawResource::new(format!("kanban://board/{id}"), name).no_annotation()
                })
                .collect(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let Some(id) = request.uri.strip_prefix("kanban://board/") else {
            return Err(McpError::invalid_params(
                format!("expected kanban://board/<id>, got {}", request.uri),
                Some(json!({ "uri": request.uri })),
            ));
        };
        let board = match self.db.board(id).await {
            Ok(b) => b,
            Err(AppError::NotFound { .. }) => {
                return Err(McpError::resource_not_found(
                    format!("no board {id}"),
                    Some(json!({ "uri": request.uri })),
                ))
            }
            Err(e) => return Err(e.into()),
        };
        let cards = self.db.cards(id, None).await?;
        let text = serde_json::to_string_pretty(&json!({ "board": board, "cards": cards }))
            .map_err(|e| {
                McpError::internal_error(format!("could not serialize board: {e}"), None)
            })?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri.clone())]).into())
    }
}
