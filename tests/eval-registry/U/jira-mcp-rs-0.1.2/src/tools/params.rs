use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SearchIssuesParams {
    /// JQL query string (e.g., 'project = PROJ AND status = Open')
    pub jql: String,
    /// Maximum number of results to return (default: 50, max: 100)
    pub max_results: Option<u32>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct GetIssueParams {
    /// The issue key (e.g., 'PROJ-123')
    pub issue_key: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AddCommentParams {
    /// The issue key (e.g., 'PROJ-123')
    pub issue_key: String,
    /// The comment text to add to the issue
    pub comment: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct UpdateIssueParams {
    /// The issue key (e.g., 'PROJ-123')
    pub issue_key: String,
    /// New summary/title for the issue
    pub summary: Option<String>,
    /// New description for the issue. Supports Markdown (headings, bold, italic, bullet lists, inline code, code blocks). Automatically converted to Atlassian Document Format (ADF).
    pub description: Option<String>,
    /// Due date in YYYY-MM-DD format (e.g., '2025-01-31')
    pub due_date: Option<String>,
    /// Priority name (e.g., 'High', 'Medium', 'Low')
    pub priority: Option<String>,
    /// Assignee's account ID
    pub assignee_account_id: Option<String>,
    /// Parent issue key for subtasks or epic (e.g., 'EPIC-123')
    pub parent_key: Option<String>,
    /// Labels to set on the issue
    pub labels: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct GetChildrenParams {
    /// The parent issue key (e.g., 'EPIC-123' or 'STORY-456')
    pub parent_key: String,
    /// Maximum number of results to return (default: 50, max: 100)
    pub max_results: Option<u32>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CreateIssueParams {
    /// The project key (e.g., 'PROJ')
    pub project_key: String,
    /// The issue summary/title
    pub summary: String,
    /// The issue type (e.g., 'Story', 'Bug', 'Task', 'Epic', 'Subtask')
    pub issue_type: String,
    /// Description of the issue. Supports Markdown (headings, bold, italic, bullet lists, inline code, code blocks). Automatically converted to Atlassian Document Format (ADF).
    pub description: Option<String>,
    /// Priority name (e.g., 'High', 'Medium', 'Low')
    pub priority: Option<String>,
    /// Assignee's account ID
    pub assignee_account_id: Option<String>,
    /// Parent issue key (e.g., 'EPIC-123' for stories, or parent story for subtasks)
    pub parent_key: Option<String>,
    /// Labels to set on the issue
    pub labels: Option<Vec<String>>,
    /// Due date in YYYY-MM-DD format (e.g., '2025-01-31')
    pub due_date: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct GetCommentsParams {
    /// The issue key (e.g., 'PROJ-123')
    pub issue_key: String,
    /// Starting index for pagination (default: 0)
    pub start_at: Option<u32>,
    /// Maximum number of comments to return (default: 50, max: 100)
    pub max_results: Option<u32>,
}
