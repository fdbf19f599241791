use crate::context::McpContext;
use crate::helpers::error_mapping::kanban_err_to_mcp;
use kanban_domain::{Board, CardSummary, KanbanError, KanbanOperations, LoadState, Model, Sprint};
use kanban_service::api::SprintResponse;
use kanban_service::resolve_committed_sprint_name;
use rmcp::model::ErrorData as McpError;
use uuid::Uuid;

pub(crate) fn resolve_summaries(ctx: &McpContext, ids: Vec<Uuid>) -> Vec<CardSummary> {
    ids.into_iter()
        .filter_map(|id| match ctx.get_card(id) {
            Ok(Some(c)) => Some(CardSummary::from(&c)),
            Ok(None) => {
                // require_card_exists guards add/remove, so reaching
                // this branch in production indicates a dangling edge:
                // the graph references a card that no longer exists.
                // Log so an operator can see and investigate.
                tracing::warn!(
                    "graph references unknown card id {id}; dropping from summary list (possible corruption)"
                );
                None
            }
            Err(e) => {
                tracing::warn!(
                    "failed to resolve card id {id} for summary: {e}; dropping from list"
                );
                None
            }
        })
        .collect()
}

/// Derive a card's board via card → column → board, with MCP-flavoured error
/// mapping. Standalone (not on the resolver trait) because it composes
/// multiple trait calls rather than being a simple error-mapping shim.
pub(crate) fn card_board(ctx: &McpContext, card_id: Uuid) -> Result<Uuid, McpError> {
    let card = ctx
        .get_card(card_id)
        .map_err(kanban_err_to_mcp)?
        .ok_or_else(|| McpError::invalid_params(format!("Card not found: {}", card_id), None))?;
    let column = ctx
        .get_column(card.column_id)
        .map_err(kanban_err_to_mcp)?
        .ok_or_else(|| {
            McpError::invalid_params(format!("Column not found: {}", card.column_id), None)
        })?;
    Ok(column.board_id)
}

/// The board head for `board_id`: the model's loaded head when the call's
/// fetch plan supplied one, otherwise the unfiltered `get_board` point read,
/// which resolves an archived board as well as a live one.
pub(crate) fn board_head(
    ctx: &McpContext,
    model: &Model,
    board_id: Uuid,
) -> Result<Board, McpError> {
    if let LoadState::Loaded(board) = model.board_by_id_state(board_id) {
        return Ok(board.clone());
    }
    ctx.get_board(board_id)
        .map_err(kanban_err_to_mcp)?
        .ok_or_else(|| kanban_err_to_mcp(KanbanError::not_found("Board", board_id)))
}

/// Project a sprint the calling tool has just committed into its v1
/// `SprintResponse`. The name goes through
/// `kanban_service::resolve_committed_sprint_name`, so a failed lookup reports
/// the sprint unnamed instead of failing the tool, because the write already
/// happened.
pub(crate) fn project_committed_sprint(ctx: &McpContext, sprint: &Sprint) -> SprintResponse {
    SprintResponse::new(sprint, resolve_committed_sprint_name(ctx, sprint))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanban_domain::{CreateCardOptions, KanbanOperations};
    use kanban_service::StoreManager;

    fn test_store_manager() -> StoreManager {
        let mut registry = kanban_persistence::StoreRegistry::new();
        let mut backends = kanban_backend::KanbanBackendRegistry::new();
        backends.register(Box::new(kanban_persistence_sqlite::SqliteBackendFactory));
        registry.register(Box::new(kanban_persistence_json::JsonStoreFactory));
        backends.register(Box::new(kanban_persistence_json::JsonBackendFactory));
        StoreManager::new(registry, backends)
    }

    // resolve_summaries: graph-vs-store divergence

    /// `resolve_summaries` silently filters ids whose card no longer
    /// exists in the store. This documents the behaviour: if the
    /// graph references a dangling id (e.g. a cascade race or a
    /// hand-edited file), the list_card_* tools return fewer entries
    /// than the graph reports rather than erroring. The caller may
    /// see N parents on a child while only M < N appear in the
    /// rendered summaries.
    #[tokio::test]
    async fn resolve_summaries_silently_drops_ids_not_present_in_store() {
        use kanban_core::AppConfig;
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("test.json");
        let store_manager = test_store_manager();
        let mut ctx = McpContext::new(
            &store_manager,
            &path.to_string_lossy(),
            AppConfig::default(),
        )
        .await
        .unwrap();

        let board = ctx.create_board("Test".into(), Some("TST".into())).unwrap();
        let column = ctx.create_column(board.id, "TODO".into(), None).unwrap();
        let card = ctx
            .create_card(
                board.id,
                column.id,
                "Real".into(),
                CreateCardOptions::default(),
            )
            .unwrap();

        let ghost = Uuid::new_v4();
        let summaries = resolve_summaries(&ctx, vec![card.id, ghost]);

        assert_eq!(
            summaries.len(),
            1,
            "ghost id with no backing card should be silently filtered; got {summaries:?}"
        );
        assert_eq!(summaries[0].id, card.id);
    }

    #[tokio::test]
    async fn test_board_head_on_nonexistent_board_returns_not_found() {
        use kanban_core::AppConfig;
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("test.json");
        let store_manager = test_store_manager();
        let ctx = McpContext::new(
            &store_manager,
            &path.to_string_lossy(),
            AppConfig::default(),
        )
        .await
        .unwrap();

        let err = board_head(&ctx, &Model::default(), Uuid::new_v4()).unwrap_err();
        assert_eq!(err.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert!(!err.message.to_lowercase().contains("board is unavailable"));
    }

    #[tokio::test]
    async fn test_board_head_falls_back_to_the_point_read_for_an_archived_board() {
        use kanban_core::AppConfig;
        use kanban_domain::{resolved::Collection, Resolved};
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("test.json");
        let store_manager = test_store_manager();
        let mut ctx = McpContext::new(
            &store_manager,
            &path.to_string_lossy(),
            AppConfig::default(),
        )
        .await
        .unwrap();

        let board = ctx
            .create_board("Kanban".into(), Some("KAN".into()))
            .unwrap();
        ctx.archive_board(board.id).unwrap();

        let head = board_head(&ctx, &Model::default(), board.id).unwrap();
        assert_eq!(head.id, board.id);
        assert_eq!(head.name, "Kanban");

        let mut model = Model::default();
        let _ = model.apply_resolved(Resolved {
            boards: Collection {
                all: LoadState::Loaded(vec![board.clone()]),
                ..Default::default()
            },
            ..Default::default()
        });
        let head_from_model = board_head(&ctx, &model, board.id).unwrap();
        assert_eq!(head_from_model.id, board.id);
    }
}
