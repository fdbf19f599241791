use std::collections::BTreeMap;

use rmcp::schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

fn any_json_object(_: &mut SchemaGenerator) -> Schema {
    serde_json::from_value(json!({
        "type": "object",
        "additionalProperties": {}
    }))
    .expect("static schema literal must deserialize")
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ToolResponse {
    #[schemars(schema_with = "any_json_object")]
    pub result: Value,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct AuthSetCredentialsArgs {
    pub profile: Option<String>,
    pub url: Option<String>,
    pub email: Option<String>,
    pub token: Option<String>,
    pub project: Option<String>,
    pub timeout_secs: Option<u64>,
    pub deployment: Option<String>,
    pub auth_type: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueListArgs {
    pub project_key: Option<String>,
    pub jql: Option<String>,
    pub limit: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueStandupArgs {
    pub project_key: Option<String>,
    pub jql: Option<String>,
    pub since: Option<String>,
    pub limit: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SprintSummaryArgs {
    pub project_key: String,
    pub sprint: Option<String>,
    pub limit: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueNotificationsArgs {
    pub project_key: Option<String>,
    pub since: Option<String>,
    pub limit: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueKeyArgs {
    pub key: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct NotificationsMarkReadArgs {
    /// Notification ids (the `id` field from jira_issue_notifications entries).
    pub ids: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueTypesListArgs {
    pub project_key: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ProjectKeyArgs {
    pub project_key: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueFieldsArgs {
    pub project_key: String,
    pub issue_type_id: Option<String>,
    pub required_only: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SearchUsersArgs {
    /// Name, email, or partial string to match Jira users against.
    pub query: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SprintListArgs {
    pub project_key: String,
    pub states: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SprintCreateArgs {
    pub board_id: u64,
    pub name: String,
    pub start_date: Option<String>,
    pub end_date: Option<String>,
    pub goal: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SprintUpdateArgs {
    pub sprint_id: u64,
    pub name: Option<String>,
    pub state: Option<String>,
    pub start_date: Option<String>,
    pub end_date: Option<String>,
    pub goal: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SprintDeleteArgs {
    pub sprint_id: u64,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SprintAddIssueArgs {
    pub sprint_id: u64,
    pub issue_key: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SprintBacklogIssueArgs {
    pub issue_key: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SprintRankIssueArgs {
    pub issue_key: String,
    pub relative_issue_key: String,
    pub before: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct WatcherAddArgs {
    pub issue_key: String,
    /// Defaults to the current authenticated user.
    pub account_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct WatcherRemoveArgs {
    pub issue_key: String,
    pub account_id: String,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct AttachmentListArgs {
    pub issue_key: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct AttachmentDownloadArgs {
    pub attachment_id: String,
    /// Absolute path to save the downloaded file to. By default the path
    /// must be inside $HOME; set force_path=true to override.
    pub save_path: String,
    /// Allow save_path outside $HOME (still rejects /etc, /System, /usr, /bin, /sbin, /var).
    pub force_path: Option<bool>,
    /// Overwrite if the destination file already exists.
    pub overwrite: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct AttachmentDeleteArgs {
    pub attachment_id: String,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BoardListArgs {
    pub project_key: Option<String>,
    /// Board type filter: scrum | kanban | simple
    pub board_type: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BoardGetArgs {
    pub board_id: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BoardIssuesArgs {
    pub board_id: u64,
    pub jql: Option<String>,
    pub max_results: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct JqlBuildArgs {
    /// Structured JqlParams object (see jira_core::jql::JqlParams).
    /// Example: {"project":"ABC","status":["In Progress"],
    ///           "assignee":[{"type":"current_user"}],
    ///           "order_by":[["updated","desc"]]}
    #[schemars(schema_with = "any_json_object")]
    pub params: Value,
    /// If true, also runs the composed JQL and returns the first matching issue keys.
    pub dry_run: Option<bool>,
    /// Max number of preview keys to return when dry_run is true (default 10).
    pub max_preview: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ProjectVersionCreateArgs {
    pub project_key: String,
    pub name: String,
    pub description: Option<String>,
    pub archived: Option<bool>,
    pub released: Option<bool>,
    pub release_date: Option<String>,
    pub start_date: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ProjectVersionUpdateArgs {
    pub version_id: String,
    pub name: Option<String>,
    pub description: Option<String>,
    pub archived: Option<bool>,
    pub released: Option<bool>,
    pub release_date: Option<String>,
    pub start_date: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueCreateArgs {
    pub project_key: String,
    pub summary: String,
    pub issue_type: String,
    /// Issue description as plain Markdown (headings, lists, tables, code,
    /// links). Auto-converted to Atlassian Document Format. Use this for
    /// normal text — do NOT hand-build ADF.
    pub description: Option<String>,
    /// Advanced/optional: pre-built ADF JSON. Leave unset and use `description`
    /// for Markdown. If both are set, this one wins.
    #[serde(default)]
    #[schemars(schema_with = "any_json_object")]
    pub description_adf: Option<Value>,
    pub assignee: Option<String>,
    pub priority: Option<String>,
    pub labels: Option<Vec<String>>,
    pub components: Option<Vec<String>>,
    pub parent: Option<String>,
    pub fix_versions: Option<Vec<String>>,
    /// Map of field id (e.g. customfield_10011) or name -> value. Fetch ids
    /// via jira_issue_fields.
    #[serde(default)]
    #[schemars(schema_with = "any_json_object")]
    pub custom_fields: Option<BTreeMap<String, Value>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueUpdateArgs {
    pub key: String,
    pub summary: Option<String>,
    /// Issue description as plain Markdown (headings, lists, tables, code,
    /// links). Auto-converted to Atlassian Document Format. Use this for
    /// normal text — do NOT hand-build ADF.
    pub description: Option<String>,
    /// Advanced/optional: pre-built ADF JSON. Leave unset and use `description`
    /// for Markdown. If both are set, this one wins.
    #[serde(default)]
    #[schemars(schema_with = "any_json_object")]
    pub description_adf: Option<Value>,
    pub assignee: Option<String>,
    pub priority: Option<String>,
    pub labels: Option<Vec<String>>,
    pub components: Option<Vec<String>>,
    pub parent: Option<String>,
    pub fix_versions: Option<Vec<String>>,
    /// Map of field id (e.g. customfield_10011) or name -> value. Fetch ids
    /// via jira_issue_fields.
    #[serde(default)]
    #[schemars(schema_with = "any_json_object")]
    pub custom_fields: Option<BTreeMap<String, Value>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueDeleteArgs {
    pub key: String,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueCloneArgs {
    pub key: String,
    pub project_key: Option<String>,
    pub summary: Option<String>,
    pub assignee: Option<String>,
    pub move_original: Option<bool>,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueTransitionArgs {
    pub key: String,
    pub transition: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueMoveArgs {
    pub key: String,
    /// Target project key to move the issue into.
    pub project_key: String,
    /// Target issue type id (not name). Fetch ids via jira_issue_types_list.
    pub issue_type_id: String,
    /// Optional target parent key (for sub-tasks).
    pub parent: Option<String>,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AttachmentInput {
    Path {
        path: String,
    },
    Inline {
        filename: String,
        media_type: Option<String>,
        base64: String,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueAttachArgs {
    pub key: String,
    pub attachments: Vec<AttachmentInput>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CommentAddArgs {
    pub key: String,
    pub body: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CommentUpdateArgs {
    pub key: String,
    pub comment_id: String,
    pub body: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CommentDeleteArgs {
    pub key: String,
    pub comment_id: String,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BulkCommentArgs {
    pub jql: Option<String>,
    pub keys: Option<Vec<String>>,
    pub body: String,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueLinkCreateArgs {
    pub outward_key: String,
    pub inward_key: String,
    pub link_type: String,
    pub comment: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct IssueLinkDeleteArgs {
    pub link_id: String,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct RemoteLinkAddArgs {
    pub key: String,
    pub url: String,
    pub title: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct RemoteLinkDeleteArgs {
    pub key: String,
    pub link_id: String,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct WorklogAddArgs {
    pub key: String,
    pub time_spent: String,
    pub comment: Option<String>,
    pub started: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct WorklogDeleteArgs {
    pub key: String,
    pub id: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct WorklogUpdateArgs {
    pub key: String,
    pub id: String,
    pub time_spent: Option<String>,
    pub comment: Option<String>,
    pub started: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BulkTransitionArgs {
    pub jql: String,
    pub to: String,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BulkUpdateArgs {
    pub jql: String,
    pub assignee: Option<String>,
    pub priority: Option<String>,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ArchiveArgs {
    pub jql: String,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BatchCreateOp {
    pub project_key: String,
    pub summary: String,
    pub issue_type: Option<String>,
    /// Issue description as plain Markdown. Auto-converted to ADF — do NOT
    /// hand-build ADF.
    pub description: Option<String>,
    /// Advanced/optional: pre-built ADF JSON. Leave unset and use `description`
    /// for Markdown. If both are set, this one wins.
    #[serde(default)]
    #[schemars(schema_with = "any_json_object")]
    pub description_adf: Option<Value>,
    pub assignee: Option<String>,
    pub priority: Option<String>,
    pub labels: Option<Vec<String>>,
    pub components: Option<Vec<String>>,
    pub parent: Option<String>,
    pub fix_versions: Option<Vec<String>>,
    /// Map of field id (e.g. customfield_10011) or name -> value. Fetch ids
    /// via jira_issue_fields.
    #[serde(default)]
    #[schemars(schema_with = "any_json_object")]
    pub custom_fields: Option<BTreeMap<String, Value>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BatchUpdateOp {
    pub key: String,
    pub summary: Option<String>,
    /// Issue description as plain Markdown. Auto-converted to ADF — do NOT
    /// hand-build ADF.
    pub description: Option<String>,
    /// Advanced/optional: pre-built ADF JSON. Leave unset and use `description`
    /// for Markdown. If both are set, this one wins.
    #[serde(default)]
    #[schemars(schema_with = "any_json_object")]
    pub description_adf: Option<Value>,
    pub assignee: Option<String>,
    pub priority: Option<String>,
    pub labels: Option<Vec<String>>,
    pub components: Option<Vec<String>>,
    pub parent: Option<String>,
    pub fix_versions: Option<Vec<String>>,
    /// Map of field id (e.g. customfield_10011) or name -> value. Fetch ids
    /// via jira_issue_fields.
    #[serde(default)]
    #[schemars(schema_with = "any_json_object")]
    pub custom_fields: Option<BTreeMap<String, Value>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BatchTransitionOp {
    pub key: String,
    pub transition: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BatchArchiveOp {
    pub key: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum BatchOperation {
    Create(BatchCreateOp),
    Update(BatchUpdateOp),
    Transition(BatchTransitionOp),
    Archive(BatchArchiveOp),
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BatchArgs {
    pub operations: Vec<BatchOperation>,
    pub confirm: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ApiRequestArgs {
    pub method: String,
    pub path: String,
    #[serde(default)]
    #[schemars(schema_with = "any_json_object")]
    pub query: Option<BTreeMap<String, Value>>,
    #[serde(default)]
    #[schemars(schema_with = "any_json_object")]
    pub body: Option<Value>,
}
