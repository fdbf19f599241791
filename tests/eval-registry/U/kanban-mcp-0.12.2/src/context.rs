use kanban_core::{AppConfig, PaginatedList};
use kanban_domain::KanbanResult;
use kanban_domain::{
    ArchivedCard, Board, BoardListFilter, BoardSortField, BoardUpdate, Card, CardListFilter,
    CardSummary, CardUpdate, Column, ColumnUpdate, CreateCardOptions, GraphOperations,
    Invalidation, KanbanOperations, MutationOperations, SortOrder, Sprint, SprintUpdate,
    UndoOperations, DEFAULT_BOARD_SORT_LIVE,
};
use kanban_service::{AppType, KanbanContext, StoreManager};
use std::str::FromStr;
use uuid::Uuid;

pub struct McpContext {
    inner: KanbanContext,
}

impl McpContext {
    pub async fn new(
        store_manager: &StoreManager,
        data_file: &str,
        mut config: AppConfig,
    ) -> KanbanResult<Self> {
        if store_manager.sync_backend_with_file(data_file, &mut config) {
            tracing::warn!(
                "Storage backend auto-corrected to '{}' based on file content.",
                config.effective_storage_backend()
            );
        }
        let backend = store_manager.make_backend(data_file, &config).await?;
        Ok(Self {
            inner: KanbanContext::open(backend, config)
                .await?
                .with_app_type(AppType::Mcp),
        })
    }

    pub async fn reload(&mut self) -> KanbanResult<()> {
        self.inner.reload().await.map(|_| ())
    }

    /// The stable session id of the running context (per-process). Exposed so
    /// callers can assert that a config-only mutation (e.g. `set_board_sort`)
    /// leaves the session — and thus the per-session undo history — intact.
    pub fn session_id(&self) -> Uuid {
        self.inner.session_id()
    }

    pub fn list_boards_filtered_with_archived_at(
        &self,
        filter: BoardListFilter,
    ) -> KanbanResult<Vec<(Board, Option<chrono::DateTime<chrono::Utc>>)>> {
        self.inner.list_boards_filtered_with_archived_at(filter)
    }

    /// The archival marker's `archived_at` for a card / board, or `None` if
    /// live. Lets `get_card` / `get_board` stamp the archived projection so an
    /// archived entity is never returned looking live.
    pub fn card_archived_at(
        &self,
        id: Uuid,
    ) -> KanbanResult<Option<chrono::DateTime<chrono::Utc>>> {
        self.inner.card_archived_at(id)
    }

    pub fn board_archived_at(
        &self,
        id: Uuid,
    ) -> KanbanResult<Option<chrono::DateTime<chrono::Utc>>> {
        self.inner.board_archived_at(id)
    }

    /// Persist the default board-list sort into `AppConfig`
    /// (`board_sort_field` / `board_sort_order`) and reflect it in the running
    /// context. Either dimension may be left unchanged by passing `None`; the
    /// omitted dimension is resolved from the current config (falling back to the
    /// live built-in default) so `None` truly means "leave as-is". Returns the
    /// resolved, persisted `(field, order)` so callers can report the concrete
    /// value rather than the raw (possibly omitted) request.
    ///
    /// Delegates to `KanbanContext::set_board_sort` (R3), which persists first
    /// then mutates `app_config` in place. It deliberately does NOT rebuild the
    /// context via `open_deferred`, so the session id and per-session undo/redo
    /// history survive the change.
    pub fn set_board_sort(
        &mut self,
        sort: Option<BoardSortField>,
        order: Option<SortOrder>,
    ) -> KanbanResult<(BoardSortField, SortOrder)> {
        let config = self.inner.app_config();
        let field = sort.unwrap_or_else(|| {
            config
                .board_sort_field
                .as_deref()
                .and_then(|s| BoardSortField::from_str(s).ok())
                .unwrap_or(DEFAULT_BOARD_SORT_LIVE.0)
        });
        let order = order.unwrap_or_else(|| {
            config
                .board_sort_order
                .as_deref()
                .and_then(|s| SortOrder::from_str(s).ok())
                .unwrap_or(DEFAULT_BOARD_SORT_LIVE.1)
        });
        self.inner.set_board_sort(field, order)?;
        Ok((field, order))
    }

    pub fn clear_history(&mut self) -> KanbanResult<()> {
        self.inner.clear_history()
    }

    pub async fn save(&self) -> KanbanResult<()> {
        self.inner.save().await
    }

    /// MCP-specific method that exposes pagination.
    /// `KanbanOperations::list_cards` cannot carry pagination params, so
    /// `tool_list_cards` calls this directly.
    pub fn list_cards_paged(
        &self,
        filter: CardListFilter,
        page: usize,
        page_size: usize,
    ) -> KanbanResult<PaginatedList<CardSummary>> {
        let cards = self.inner.list_cards(filter)?;
        Ok(PaginatedList::paginate(cards, page, page_size)?)
    }

    /// Builds a fresh `Model`, syncs `plan` into it, and hands it back. The
    /// Model is scoped to a single tool call: nothing on `McpContext` retains
    /// it, so the next call starts from `Model::default()` again.
    pub fn model_for(&self, plan: &dyn kanban_service::FetchPlan) -> kanban_domain::Model {
        let mut model = kanban_domain::Model::default();
        self.sync_into(plan, &mut model);
        model
    }

    pub fn sync_into(
        &self,
        plan: &dyn kanban_service::FetchPlan,
        model: &mut kanban_domain::Model,
    ) {
        self.inner
            .sync(plan, model, &mut kanban_domain::NoProjections);
    }

    pub fn sync_invalidated(
        &self,
        inv: kanban_domain::Invalidation,
        plan: &dyn kanban_service::FetchPlan,
        model: &mut kanban_domain::Model,
    ) {
        self.inner
            .sync_invalidated(inv, plan, model, &mut kanban_domain::NoProjections);
    }

    /// The crate's only door onto a mutating `KanbanContext` method. Hands the
    /// `(value, Invalidation)` pair straight back to the caller, who must state
    /// what happens to the `Invalidation`: pass it to `sync_invalidated` against
    /// a call-scoped `Model` when the tool re-reads, or bind it `_` when the
    /// response is built entirely from `value`.
    pub(crate) fn mutate<T>(
        &mut self,
        op: impl FnOnce(&mut dyn MutationOperations) -> KanbanResult<(T, Invalidation)>,
    ) -> KanbanResult<(T, Invalidation)> {
        op(&mut self.inner)
    }

    /// Same as [`Self::mutate`] for operations that report only the
    /// `Invalidation`, with no separate result value.
    pub(crate) fn mutate_unit(
        &mut self,
        op: impl FnOnce(&mut dyn MutationOperations) -> KanbanResult<Invalidation>,
    ) -> KanbanResult<Invalidation> {
        op(&mut self.inner)
    }
}

impl KanbanOperations for McpContext {
    // ========================================================================
    // Board Operations
    // ========================================================================

    fn create_board(&mut self, name: String, card_prefix: Option<String>) -> KanbanResult<Board> {
        self.inner.create_board(name, card_prefix)
    }

    fn list_boards(&self) -> KanbanResult<Vec<Board>> {
        self.inner.list_boards()
    }

    fn list_boards_filtered(&self, filter: BoardListFilter) -> KanbanResult<Vec<Board>> {
        self.inner.list_boards_filtered(filter)
    }

    fn get_board(&self, id: Uuid) -> KanbanResult<Option<Board>> {
        self.inner.get_board(id)
    }

    fn update_board(&mut self, id: Uuid, updates: BoardUpdate) -> KanbanResult<Board> {
        self.inner.update_board(id, updates)
    }

    fn delete_board(&mut self, id: Uuid) -> KanbanResult<()> {
        self.inner.delete_board(id)
    }
    fn archive_board(&mut self, id: Uuid) -> KanbanResult<()> {
        self.inner.archive_board(id)
    }
    fn restore_board(&mut self, id: Uuid) -> KanbanResult<()> {
        self.inner.restore_board(id)
    }
    fn list_archived_boards(&self) -> KanbanResult<Vec<kanban_domain::ArchivedBoard>> {
        self.inner.list_archived_boards()
    }

    // ========================================================================
    // Column Operations
    // ========================================================================

    fn create_column(
        &mut self,
        board_id: Uuid,
        name: String,
        position: Option<i32>,
    ) -> KanbanResult<Column> {
        self.inner.create_column(board_id, name, position)
    }

    fn list_columns(&self, board_id: Uuid) -> KanbanResult<Vec<Column>> {
        self.inner.list_columns(board_id)
    }

    fn get_column(&self, id: Uuid) -> KanbanResult<Option<Column>> {
        self.inner.get_column(id)
    }

    fn update_column(&mut self, id: Uuid, updates: ColumnUpdate) -> KanbanResult<Column> {
        self.inner.update_column(id, updates)
    }

    fn delete_column(&mut self, id: Uuid) -> KanbanResult<()> {
        self.inner.delete_column(id)
    }

    fn reorder_column(&mut self, id: Uuid, new_position: i32) -> KanbanResult<Column> {
        self.inner.reorder_column(id, new_position)
    }

    // ========================================================================
    // Card Operations
    // ========================================================================

    fn create_card(
        &mut self,
        board_id: Uuid,
        column_id: Uuid,
        title: String,
        options: CreateCardOptions,
    ) -> KanbanResult<Card> {
        self.inner.create_card(board_id, column_id, title, options)
    }

    fn list_cards(&self, filter: CardListFilter) -> KanbanResult<Vec<CardSummary>> {
        self.inner.list_cards(filter)
    }

    fn get_card(&self, id: Uuid) -> KanbanResult<Option<Card>> {
        self.inner.get_card(id)
    }

    fn find_cards_by_identifier(&self, identifier: &str) -> KanbanResult<Vec<Card>> {
        self.inner.find_cards_by_identifier(identifier)
    }

    fn list_all_cards(&self) -> KanbanResult<Vec<Card>> {
        self.inner.list_all_cards()
    }

    fn list_all_columns(&self) -> KanbanResult<Vec<kanban_domain::Column>> {
        self.inner.list_all_columns()
    }

    fn list_all_sprints(&self) -> KanbanResult<Vec<kanban_domain::Sprint>> {
        self.inner.list_all_sprints()
    }

    fn update_card(&mut self, id: Uuid, updates: CardUpdate) -> KanbanResult<Card> {
        self.inner.update_card(id, updates)
    }

    fn move_card(
        &mut self,
        id: Uuid,
        column_id: Uuid,
        position: Option<i32>,
    ) -> KanbanResult<Card> {
        self.inner.move_card(id, column_id, position)
    }

    fn archive_card(&mut self, id: Uuid) -> KanbanResult<()> {
        self.inner.archive_card(id)
    }

    fn restore_card(&mut self, id: Uuid, column_id: Option<Uuid>) -> KanbanResult<Card> {
        self.inner.restore_card(id, column_id)
    }

    fn delete_card(&mut self, id: Uuid) -> KanbanResult<()> {
        self.inner.delete_card(id)
    }

    fn list_archived_cards(&self) -> KanbanResult<Vec<ArchivedCard>> {
        self.inner.list_archived_cards()
    }
    fn list_archived_cards_by_board(&self, board_id: Uuid) -> KanbanResult<Vec<ArchivedCard>> {
        self.inner.list_archived_cards_by_board(board_id)
    }

    // ========================================================================
    // Card Sprint Operations
    // ========================================================================

    fn assign_card_to_sprint(&mut self, card_id: Uuid, sprint_id: Uuid) -> KanbanResult<Card> {
        self.inner.assign_card_to_sprint(card_id, sprint_id)
    }

    fn unassign_card_from_sprint(&mut self, card_id: Uuid) -> KanbanResult<Card> {
        self.inner.unassign_card_from_sprint(card_id)
    }

    // ========================================================================
    // Card Utilities
    // ========================================================================

    fn get_card_branch_name(&self, id: Uuid) -> KanbanResult<String> {
        self.inner.get_card_branch_name(id)
    }

    fn get_card_git_checkout(&self, id: Uuid) -> KanbanResult<String> {
        self.inner.get_card_git_checkout(id)
    }

    // ========================================================================
    // Multi-card operations
    // ========================================================================

    fn archive_cards(&mut self, ids: Vec<Uuid>) -> KanbanResult<usize> {
        self.inner.archive_cards(ids)
    }

    fn move_cards(&mut self, ids: Vec<Uuid>, column_id: Uuid) -> KanbanResult<usize> {
        self.inner.move_cards(ids, column_id)
    }

    fn update_cards(
        &mut self,
        updates: Vec<(Uuid, kanban_domain::CardUpdate)>,
    ) -> KanbanResult<usize> {
        self.inner.update_cards(updates)
    }

    fn assign_cards_to_sprint(&mut self, ids: Vec<Uuid>, sprint_id: Uuid) -> KanbanResult<usize> {
        self.inner.assign_cards_to_sprint(ids, sprint_id)
    }

    fn carry_over_sprint_cards(
        &mut self,
        from_sprint_id: Uuid,
        to_sprint_id: Uuid,
    ) -> KanbanResult<usize> {
        self.inner
            .carry_over_sprint_cards(from_sprint_id, to_sprint_id)
    }

    // ========================================================================
    // Sprint Operations
    // ========================================================================

    fn create_sprint(
        &mut self,
        board_id: Uuid,
        prefix: Option<String>,
        name: Option<String>,
    ) -> KanbanResult<Sprint> {
        self.inner.create_sprint(board_id, prefix, name)
    }

    fn list_sprints(&self, board_id: Uuid) -> KanbanResult<Vec<Sprint>> {
        self.inner.list_sprints(board_id)
    }

    fn get_sprint(&self, id: Uuid) -> KanbanResult<Option<Sprint>> {
        self.inner.get_sprint(id)
    }

    fn update_sprint(&mut self, id: Uuid, updates: SprintUpdate) -> KanbanResult<Sprint> {
        self.inner.update_sprint(id, updates)
    }

    fn activate_sprint(&mut self, id: Uuid, duration_days: Option<i32>) -> KanbanResult<Sprint> {
        self.inner.activate_sprint(id, duration_days)
    }

    fn complete_sprint(&mut self, id: Uuid) -> KanbanResult<Sprint> {
        self.inner.complete_sprint(id)
    }

    fn cancel_sprint(&mut self, id: Uuid) -> KanbanResult<Sprint> {
        self.inner.cancel_sprint(id)
    }

    fn delete_sprint(&mut self, id: Uuid) -> KanbanResult<()> {
        self.inner.delete_sprint(id)
    }

    // ========================================================================
    // Import/Export
    // ========================================================================

    fn export_board(&self, board_id: Option<Uuid>) -> KanbanResult<String> {
        self.inner.export_board(board_id)
    }

    fn import_board(&mut self, data: &str) -> KanbanResult<Board> {
        self.inner.import_board(data)
    }
}

impl GraphOperations for McpContext {
    fn attach_children(&mut self, parent: Uuid, children: Vec<Uuid>) -> KanbanResult<()> {
        self.inner.attach_children(parent, children)
    }
    fn detach_children(&mut self, parent: Uuid, children: Vec<Uuid>) -> KanbanResult<()> {
        self.inner.detach_children(parent, children)
    }
    fn list_children_of(&self, parent: Uuid) -> KanbanResult<Vec<Uuid>> {
        self.inner.list_children_of(parent)
    }
    fn list_parents_of(&self, child: Uuid) -> KanbanResult<Vec<Uuid>> {
        self.inner.list_parents_of(child)
    }
    fn block(
        &mut self,
        blocker: Uuid,
        blocked: Uuid,
        severity: kanban_domain::Severity,
    ) -> KanbanResult<()> {
        self.inner.block(blocker, blocked, severity)
    }
    fn unblock(&mut self, blocker: Uuid, blocked: Uuid) -> KanbanResult<()> {
        self.inner.unblock(blocker, blocked)
    }
    fn list_blocked_by(&self, blocker: Uuid) -> KanbanResult<Vec<Uuid>> {
        self.inner.list_blocked_by(blocker)
    }
    fn list_blockers_of(&self, blocked: Uuid) -> KanbanResult<Vec<Uuid>> {
        self.inner.list_blockers_of(blocked)
    }
    fn relate(&mut self, a: Uuid, b: Uuid, kind: kanban_domain::RelatesKind) -> KanbanResult<()> {
        self.inner.relate(a, b, kind)
    }
    fn dissociate(&mut self, a: Uuid, b: Uuid) -> KanbanResult<()> {
        self.inner.dissociate(a, b)
    }
    fn list_related_to(&self, card: Uuid) -> KanbanResult<Vec<Uuid>> {
        self.inner.list_related_to(card)
    }
}

impl UndoOperations for McpContext {
    fn undo(&mut self) -> KanbanResult<Option<Invalidation>> {
        self.inner.undo()
    }

    fn redo(&mut self) -> KanbanResult<Option<Invalidation>> {
        self.inner.redo()
    }

    fn can_undo(&self) -> bool {
        self.inner.can_undo()
    }

    fn can_redo(&self) -> bool {
        self.inner.can_redo()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scope::ToolScope;
    use kanban_core::AppConfig;
    use kanban_service::StoreManager;

    fn test_store_manager() -> StoreManager {
        let mut registry = kanban_persistence::StoreRegistry::new();
        let mut backends = kanban_backend::KanbanBackendRegistry::new();
        backends.register(Box::new(kanban_persistence_sqlite::SqliteBackendFactory));
        registry.register(Box::new(kanban_persistence_json::JsonStoreFactory));
        backends.register(Box::new(kanban_persistence_json::JsonBackendFactory));
        StoreManager::new(registry, backends)
    }

    async fn test_context() -> (McpContext, tempfile::TempDir) {
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
        (ctx, dir)
    }

    #[tokio::test]
    async fn test_mutate_seam_accepts_a_mutation_operations_closure() {
        let (mut ctx, _dir) = test_context().await;

        let (board, _inv) = ctx
            .mutate(|c: &mut dyn kanban_domain::MutationOperations| {
                c.create_board_impl("Seam".to_string(), None)
            })
            .unwrap();
        assert_eq!(board.name, "Seam");

        let _inv = ctx
            .mutate_unit(|c: &mut dyn kanban_domain::MutationOperations| {
                c.delete_board_impl(board.id)
            })
            .unwrap();
        assert!(ctx.list_boards().unwrap().is_empty());
    }

    #[tokio::test]
    async fn test_mutate_returns_the_operations_value_and_invalidation() {
        let (mut ctx, _dir) = test_context().await;

        let (value, inv) = ctx
            .mutate(|_c| Ok::<_, kanban_domain::KanbanError>((42, Invalidation::All)))
            .unwrap();

        assert_eq!(value, 42);
        assert_eq!(inv, Invalidation::All);
    }

    #[tokio::test]
    async fn test_mutate_propagates_the_error_and_leaves_the_board_unchanged() {
        let (mut ctx, _dir) = test_context().await;
        let board = ctx
            .create_board("Kanban".into(), Some("KAN".into()))
            .unwrap();
        let missing_id = Uuid::new_v4();

        let result = ctx.mutate(|c| c.update_board_impl(missing_id, BoardUpdate::default()));

        assert!(result.is_err());
        let boards = ctx.list_boards().unwrap();
        assert_eq!(boards.len(), 1);
        assert_eq!(boards[0], board);
    }

    #[tokio::test]
    async fn test_mutate_runs_the_operation_exactly_once() {
        let (mut ctx, _dir) = test_context().await;
        let calls = std::cell::Cell::new(0);

        let (value, _inv) = ctx
            .mutate(|_c| {
                calls.set(calls.get() + 1);
                Ok::<_, kanban_domain::KanbanError>((calls.get(), Invalidation::All))
            })
            .unwrap();

        assert_eq!(value, 1);
        assert_eq!(calls.get(), 1);
    }

    #[tokio::test]
    async fn test_mutate_unit_returns_the_invalidation_and_propagates_the_error() {
        let (mut ctx, _dir) = test_context().await;
        let board = ctx
            .create_board("Kanban".into(), Some("KAN".into()))
            .unwrap();

        let inv = ctx.mutate_unit(|c| c.delete_board_impl(board.id));
        assert!(inv.is_ok());
        assert!(ctx.list_boards().unwrap().is_empty());

        let missing_id = Uuid::new_v4();
        let err = ctx.mutate_unit(|c| c.delete_board_impl(missing_id));
        assert!(err.is_err());
    }

    #[tokio::test]
    async fn test_model_for_builds_a_model_and_does_not_retain_it() {
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

        ctx.create_board("Kanban".into(), Some("KAN".into()))
            .unwrap();

        let scope = ToolScope {
            board: Some(crate::scope::Ref::Name),
            ..Default::default()
        };
        let model = ctx.model_for(&scope);
        assert!(model.boards_state().is_loaded());

        let empty_scope = ToolScope::default();
        let second_model = ctx.model_for(&empty_scope);
        assert!(second_model.boards_state().is_not_loaded());
    }

    #[tokio::test]
    async fn test_a_named_column_resolves_end_to_end_after_the_second_round() {
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
        let column = ctx.create_column(board.id, "TODO".into(), None).unwrap();
        let sprint = ctx.create_sprint(board.id, None, None).unwrap();

        let scope = ToolScope {
            board: Some(crate::scope::Ref::Name),
            wants_board_columns: true,
            wants_board_sprints: true,
            ..Default::default()
        };
        let mut model = ctx.model_for(&scope);
        let board_id = crate::helpers::model_read::resolve_board(&model, "Kanban").unwrap();
        ctx.sync_into(&scope.for_board(board_id), &mut model);

        assert_eq!(
            crate::helpers::model_read::resolve_column_in_board(&model, "TODO", board_id).unwrap(),
            column.id
        );
        let board = crate::helpers::board_head(&ctx, &model, board_id).unwrap();
        assert_eq!(
            crate::helpers::model_read::resolve_sprint_in_board(
                &model,
                &sprint.sprint_number.to_string(),
                &board
            )
            .unwrap(),
            sprint.id
        );
    }
}
