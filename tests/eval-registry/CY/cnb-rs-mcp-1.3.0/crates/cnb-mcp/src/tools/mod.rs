mod build;
mod group;
mod issue;
mod knowledge;
mod pull;
mod repo;
mod workspace;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{Implementation, ServerCapabilities, ServerInfo};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};

use crate::server::CnbMcpServer;

#[tool_router]
impl CnbMcpServer {
    #[tool(name = "cnb_list_issues", description = "列出仓库的 Issues")]
    async fn list_issues(
        &self,
        Parameters(input): Parameters<issue::ListIssuesInput>,
    ) -> Result<String, String> {
        issue::list_issues(&self.client, input).await
    }

    #[tool(name = "cnb_get_issue", description = "获取指定 Issue 的详细信息")]
    async fn get_issue(
        &self,
        Parameters(input): Parameters<issue::GetIssueInput>,
    ) -> Result<String, String> {
        issue::get_issue(&self.client, input).await
    }

    #[tool(name = "cnb_create_issue", description = "创建一个新的 Issue")]
    async fn create_issue(
        &self,
        Parameters(input): Parameters<issue::CreateIssueInput>,
    ) -> Result<String, String> {
        issue::create_issue(&self.client, input).await
    }

    #[tool(name = "cnb_update_issue", description = "更新指定 Issue 的信息")]
    async fn update_issue(
        &self,
        Parameters(input): Parameters<issue::UpdateIssueInput>,
    ) -> Result<String, String> {
        issue::update_issue(&self.client, input).await
    }

    #[tool(
        name = "cnb_list_issue_comments",
        description = "获取指定 Issue 的评论列表"
    )]
    async fn list_issue_comments(
        &self,
        Parameters(input): Parameters<issue::ListIssueCommentsInput>,
    ) -> Result<String, String> {
        issue::list_issue_comments(&self.client, input).await
    }

    #[tool(
        name = "cnb_create_issue_comment",
        description = "为指定 Issue 创建一条评论。可通过 work_mode 开启 NPC 工作模式：评论中需 @ NPC；授予其写代码 / 推分支 / 发 PR 权限，需仓库开发者及以上；仅为 true 时下发"
    )]
    async fn create_issue_comment(
        &self,
        Parameters(input): Parameters<issue::CreateIssueCommentInput>,
    ) -> Result<String, String> {
        issue::create_issue_comment(&self.client, input).await
    }

    #[tool(
        name = "cnb_update_issue_comment",
        description = "更新指定 Issue 的一条评论"
    )]
    async fn update_issue_comment(
        &self,
        Parameters(input): Parameters<issue::UpdateIssueCommentInput>,
    ) -> Result<String, String> {
        issue::update_issue_comment(&self.client, input).await
    }

    #[tool(
        name = "cnb_list_issue_labels",
        description = "获取指定 Issue 的标签列表"
    )]
    async fn list_issue_labels(
        &self,
        Parameters(input): Parameters<issue::ListIssueLabelsInput>,
    ) -> Result<String, String> {
        issue::list_issue_labels(&self.client, input).await
    }

    #[tool(name = "cnb_add_issue_labels", description = "为指定 Issue 添加标签")]
    async fn add_issue_labels(
        &self,
        Parameters(input): Parameters<issue::AddIssueLabelsInput>,
    ) -> Result<String, String> {
        issue::add_issue_labels(&self.client, input).await
    }

    #[tool(
        name = "cnb_set_issue_labels",
        description = "设置指定 Issue 的标签（替换所有现有标签）"
    )]
    async fn set_issue_labels(
        &self,
        Parameters(input): Parameters<issue::SetIssueLabelsInput>,
    ) -> Result<String, String> {
        issue::set_issue_labels(&self.client, input).await
    }

    #[tool(
        name = "cnb_clear_issue_labels",
        description = "清空指定 Issue 的所有标签"
    )]
    async fn clear_issue_labels(
        &self,
        Parameters(input): Parameters<issue::ClearIssueLabelsInput>,
    ) -> Result<String, String> {
        issue::clear_issue_labels(&self.client, input).await
    }

    #[tool(
        name = "cnb_remove_issue_label",
        description = "删除指定 Issue 的某个标签"
    )]
    async fn remove_issue_label(
        &self,
        Parameters(input): Parameters<issue::RemoveIssueLabelInput>,
    ) -> Result<String, String> {
        issue::remove_issue_label(&self.client, input).await
    }

    // ─── PR Tools ───

    #[tool(name = "cnb_list_pulls", description = "列出仓库的合并请求")]
    async fn list_pulls(
        &self,
        Parameters(input): Parameters<pull::ListPullsInput>,
    ) -> Result<String, String> {
        pull::list_pulls(&self.client, input).await
    }

    #[tool(name = "cnb_get_pull", description = "获取指定合并请求的详细信息")]
    async fn get_pull(
        &self,
        Parameters(input): Parameters<pull::GetPullInput>,
    ) -> Result<String, String> {
        pull::get_pull(&self.client, input).await
    }

    #[tool(name = "cnb_create_pull", description = "创建一个新的合并请求")]
    async fn create_pull(
        &self,
        Parameters(input): Parameters<pull::CreatePullInput>,
    ) -> Result<String, String> {
        pull::create_pull(&self.client, input).await
    }

    #[tool(name = "cnb_update_pull", description = "更新指定合并请求的信息")]
    async fn update_pull(
        &self,
        Parameters(input): Parameters<pull::UpdatePullInput>,
    ) -> Result<String, String> {
        pull::update_pull(&self.client, input).await
    }

    #[tool(
        name = "cnb_merge_pull",
        description = "合并指定的合并请求；支持强制合并（绕过分支保护，仅仓库 owner / admin 可用）"
    )]
    async fn merge_pull(
        &self,
        Parameters(input): Parameters<pull::MergePullInput>,
    ) -> Result<String, String> {
        pull::merge_pull(&self.client, input).await
    }

    #[tool(
        name = "cnb_list_pull_comments",
        description = "获取指定合并请求的评论列表"
    )]
    async fn list_pull_comments(
        &self,
        Parameters(input): Parameters<pull::ListPullCommentsInput>,
    ) -> Result<String, String> {
        pull::list_pull_comments(&self.client, input).await
    }

    #[tool(
        name = "cnb_create_pull_comment",
        description = "为指定合并请求创建一条评论。可通过 work_mode 开启 NPC 工作模式：评论中需 @ NPC；授予其写代码 / 推分支 / 发 PR 权限，需仓库开发者及以上；仅为 true 时下发"
    )]
    async fn create_pull_comment(
        &self,
        Parameters(input): Parameters<pull::CreatePullCommentInput>,
    ) -> Result<String, String> {
        pull::create_pull_comment(&self.client, input).await
    }

    // ─── Repo Tools ───

    #[tool(
        name = "cnb_list_repositories",
        description = "获取当前用户有权限的仓库列表"
    )]
    async fn list_repositories(
        &self,
        Parameters(input): Parameters<repo::ListRepositoriesInput>,
    ) -> Result<String, String> {
        repo::list_repositories(&self.client, input).await
    }

    #[tool(
        name = "cnb_list_group_repositories",
        description = "获取指定组织下的仓库列表"
    )]
    async fn list_group_repositories(
        &self,
        Parameters(input): Parameters<repo::ListGroupRepositoriesInput>,
    ) -> Result<String, String> {
        repo::list_group_repositories(&self.client, input).await
    }

    #[tool(
        name = "cnb_get_current_repository",
        description = "根据 git remote URL 获取当前仓库信息"
    )]
    async fn get_current_repository(
        &self,
        Parameters(input): Parameters<repo::GetCurrentRepositoryInput>,
    ) -> Result<String, String> {
        repo::get_current_repository(&self.client, input).await
    }

    #[tool(name = "cnb_get_repository", description = "获取指定仓库的详细信息")]
    async fn get_repository(
        &self,
        Parameters(input): Parameters<repo::GetRepositoryInput>,
    ) -> Result<String, String> {
        repo::get_repository(&self.client, input).await
    }

    #[tool(name = "cnb_create_repository", description = "创建一个新仓库")]
    async fn create_repository(
        &self,
        Parameters(input): Parameters<repo::CreateRepositoryInput>,
    ) -> Result<String, String> {
        repo::create_repository(&self.client, input).await
    }

    // ─── Group Tools ───

    #[tool(
        name = "cnb_list_groups",
        description = "获取当前用户有权限的顶层组织列表"
    )]
    async fn list_groups(
        &self,
        Parameters(input): Parameters<group::ListGroupsInput>,
    ) -> Result<String, String> {
        group::list_groups(&self.client, input).await
    }

    #[tool(
        name = "cnb_list_sub_groups",
        description = "获取指定组织下的子组织列表"
    )]
    async fn list_sub_groups(
        &self,
        Parameters(input): Parameters<group::ListSubGroupsInput>,
    ) -> Result<String, String> {
        group::list_sub_groups(&self.client, input).await
    }

    #[tool(name = "cnb_get_group", description = "获取指定组织的详细信息")]
    async fn get_group(
        &self,
        Parameters(input): Parameters<group::GetGroupInput>,
    ) -> Result<String, String> {
        group::get_group(&self.client, input).await
    }

    #[tool(name = "cnb_create_group", description = "创建一个新组织")]
    async fn create_group(
        &self,
        Parameters(input): Parameters<group::CreateGroupInput>,
    ) -> Result<String, String> {
        group::create_group(&self.client, input).await
    }

    // ─── Build Tools ───

    #[tool(name = "cnb_get_build_logs", description = "查询构建列表")]
    async fn get_build_logs(
        &self,
        Parameters(input): Parameters<build::GetBuildLogsInput>,
    ) -> Result<String, String> {
        build::get_build_logs(&self.client, input).await
    }

    #[tool(name = "cnb_get_build_stage", description = "查询构建 Stage 详情")]
    async fn get_build_stage(
        &self,
        Parameters(input): Parameters<build::GetBuildStageInput>,
    ) -> Result<String, String> {
        build::get_build_stage(&self.client, input).await
    }

    #[tool(name = "cnb_get_build_status", description = "查询构建状态")]
    async fn get_build_status(
        &self,
        Parameters(input): Parameters<build::GetBuildStatusInput>,
    ) -> Result<String, String> {
        build::get_build_status(&self.client, input).await
    }

    #[tool(name = "cnb_start_build", description = "启动一个构建")]
    async fn start_build(
        &self,
        Parameters(input): Parameters<build::StartBuildInput>,
    ) -> Result<String, String> {
        build::start_build(&self.client, input).await
    }

    #[tool(name = "cnb_stop_build", description = "停止一个构建")]
    async fn stop_build(
        &self,
        Parameters(input): Parameters<build::StopBuildInput>,
    ) -> Result<String, String> {
        build::stop_build(&self.client, input).await
    }

    #[tool(name = "cnb_build_logs_delete", description = "删除构建日志")]
    async fn build_logs_delete(
        &self,
        Parameters(input): Parameters<build::BuildLogsDeleteInput>,
    ) -> Result<String, String> {
        build::build_logs_delete(&self.client, input).await
    }

    #[tool(
        name = "cnb_build_runner_download_log",
        description = "下载构建 Runner 日志"
    )]
    async fn build_runner_download_log(
        &self,
        Parameters(input): Parameters<build::BuildRunnerDownloadLogInput>,
    ) -> Result<String, String> {
        build::build_runner_download_log(&self.client, input).await
    }

    // ─── Workspace Tools ───

    #[tool(name = "cnb_list_workspaces", description = "获取云原生开发环境列表")]
    async fn list_workspaces(
        &self,
        Parameters(input): Parameters<workspace::ListWorkspacesInput>,
    ) -> Result<String, String> {
        workspace::list_workspaces(&self.client, input).await
    }

    #[tool(
        name = "cnb_delete_workspace",
        description = "删除指定的云原生开发环境"
    )]
    async fn delete_workspace(
        &self,
        Parameters(input): Parameters<workspace::DeleteWorkspaceInput>,
    ) -> Result<String, String> {
        workspace::delete_workspace(&self.client, input).await
    }

    #[tool(name = "cnb_start_workspace", description = "启动云原生开发环境")]
    async fn start_workspace(
        &self,
        Parameters(input): Parameters<workspace::StartWorkspaceInput>,
    ) -> Result<String, String> {
        workspace::start_workspace(&self.client, input).await
    }

    // ─── Knowledge Tools ───

    #[tool(
        name = "cnb_get_knowledge_base_info",
        description = "获取仓库知识库信息"
    )]
    async fn get_knowledge_base_info(
        &self,
        Parameters(input): Parameters<knowledge::GetKnowledgeBaseInfoInput>,
    ) -> Result<String, String> {
        knowledge::get_knowledge_base_info(&self.client, input).await
    }

    #[tool(name = "cnb_query_knowledge_base", description = "查询仓库知识库")]
    async fn query_knowledge_base(
        &self,
        Parameters(input): Parameters<knowledge::QueryKnowledgeBaseInput>,
    ) -> Result<String, String> {
        knowledge::query_knowledge_base(&self.client, input).await
    }
}

#[tool_handler]
impl ServerHandler for CnbMcpServer {
    /// 手写 `list_tools`：`#[tool_handler]` 缺省生成的是没有 `.await` 的 `async fn`，
    /// 会触发 `clippy::unused_async`；工具列表本就同步可得，直接返回 ready future。
    fn list_tools(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> impl Future<Output = Result<rmcp::model::ListToolsResult, rmcp::ErrorData>> + Send + '_
    {
        std::future::ready(Ok(rmcp::model::ListToolsResult {
            tools: Self::tool_router().list_all(),
            meta: None,
            next_cursor: None,
        }))
    }

    fn get_info(&self) -> ServerInfo {
        let capabilities = ServerCapabilities::builder().enable_tools().build();
        let server_info = Implementation::new("cnb-rs-mcp", env!("CARGO_PKG_VERSION"));
        ServerInfo::new(capabilities)
            .with_server_info(server_info)
            .with_instructions(
                "CNB MCP Server — 在命令行中通过 MCP 协议管理 CNB 平台资源（Issue / PR / 仓库 / 构建等）",
            )
    }
}
