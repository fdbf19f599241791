use serde::{Deserialize, Serialize};

/// `WorkspaceInfo`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspaceInfo {
    /// 分支名，例如：main。Branch name, e.g. "main".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// 备份的 commit 数。Number of backed up commits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_count: Option<i64>,
    /// 开发环境创建时间，例如：2024-12-02T03:20:22.000Z。Dev environment creation time, e.g. 2024-12-02T03:20:22.000Z.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_time: Option<String>,
    /// 开发环境持续时间，单位：ms（非实时更新）。Dev environment duration in milliseconds (not real-time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<i64>,
    /// 备份的文件数。Number of backed up files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_count: Option<i64>,
    /// 备份的文件列表，仅前五个备份文件相对路径。Backed up file list, relative paths of the first five files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_list: Option<String>,
    /// 环境销毁时远程最新的 commit short hash。Latest remote commit short hash when the environment is destroyed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest_sha: Option<String>,
    /// 创建环境的子流水线 id。Sub-pipeline ID for creating the environment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline_id: Option<String>,
    /// 备份的 stash 数。Number of backed up stashes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remote_stash_count: Option<i64>,
    /// 仓库地址。Repository path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo_url: Option<String>,
    /// 恢复备份代码的流水线 id，如果有值表示备份代码已被恢复（重建环境时会恢复备份代码）。Pipeline ID for restoring backup code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restore_id: Option<String>,
    /// 仓库路径，例如：groupname/reponame。Repository path, e.g. "groupname/reponame".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// 创建开发环境的流水线 sn。Pipeline SN that created the dev environment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
    /// 开发环境是否支持 ssh 链接。Whether the dev environment supports SSH.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ssh: Option<bool>,
    /// 工作区状态，running: 开发环境已启动，closed：开发环境已关闭。Workspace status: "running" for started, "closed" for stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// 开发环境默认工作区路径。Dev environment default workspace path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
}

impl WorkspaceInfo {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "branch",
        "commit_count",
        "create_time",
        "duration",
        "file_count",
        "file_list",
        "latest_sha",
        "pipeline_id",
        "remote_stash_count",
        "repo_url",
        "restore_id",
        "slug",
        "sn",
        "ssh",
        "status",
        "workspace",
    ];
}
