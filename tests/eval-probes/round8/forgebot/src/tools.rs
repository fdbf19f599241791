//! The MCP surface of forgebot: one `#[tool]` per operation on the build farm.

use crate::api::ForgeClient;
use crate::config;
use crate::runner;
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use turbomcp::prelude::*;
use turbomcp::{ProtocolError, ServerError};

const MAX_LOG_LINES: usize = 5000;

#[derive(Debug, Clone, serde::Serialize)]
pub struct RunnerInfo {
    pub id: String,
    pub tags: Vec<String>,
    pub paused: bool,
    pub busy_jobs: u32,
}

#[derive(Clone)]
pub struct ForgeBot {
    pub api: Arc<ForgeClient>,
    pub runners: Arc<RwLock<HashMap<String, RunnerInfo>>>,
}

#[server(name = "forgebot", version = "0.7.0", transports = ["stdio"])]
impl ForgeBot {
    #[tool("List recent pipelines of a project, optionally for one branch")]
    async fn list_pipelines(&self, project: String, branch: Option<String>, limit: Option<u32>) -> McpResult<String> {
        let limit = limit.unwrap_or(20) as usize;
        if limit == 0 || limit > 100 {
            return Err(McpError::invalid_input(format!("limit must be 1..=100, got {limit}")));
        }
        let pipelines = self.api.pipelines(&project, branch.as_deref()).await?;
        let lines: Vec<String> = pipelines
            .iter()
            .take(limit)
            .map(|p| format!("#{} {} {} {}", p.id, p.git_ref, p.status, p.web_url))
            .collect();
        Ok(lines.join("\n"))
    }

    #[tool("Show one pipeline with its jobs")]
    async fn get_pipeline(&self, pipeline_id: u64) -> McpResult<String> {
        let Some(pipeline) = self.api.pipeline(pipeline_id).await? else {
            return Ok(format!("Pipeline {pipeline_id} not found"));
        };
        let jobs = self.api.jobs(pipeline_id).await?;
        let body = json!({ "pipeline": pipeline, "jobs": jobs });
        Ok(serde_json::to_string_pretty(&body)?)
    }

    #[tool("Start a pipeline for a branch, tag or commit. variables_json is a JSON object of CI variables.")]
    async fn trigger_pipeline(&self, project: String, git_ref: String, variables_json: Option<String>) -> McpResult<String> {
        let cfg = config::get().ok_or_else(|| McpError::internal("forgebot configuration was not installed at start-up"))?;
        let sha = runner::resolve_ref(&cfg.workspace, &git_ref).await?;
        let vars: HashMap<String, String> = match variables_json {
            Some(raw) => serde_json::from_str(&raw)?,
            None => HashMap::new(),
        };
        if let Some(bad) = vars.keys().find(|k| !k.chars().all(|c| c.is_ascii_uppercase() || c == '_')) {
            return Err(McpError::from(ProtocolError::invalid_params(format!(
                "variable name {bad:?} must be UPPER_SNAKE_CASE"
            ))));
        }
        let pipeline = self.api.trigger(&project, &sha, vars).await?;
        Ok(format!("Started pipeline #{} on {} ({})", pipeline.id, git_ref, pipeline.web_url))
    }

    #[tool("Cancel a running pipeline")]
    async fn cancel_pipeline(&self, pipeline_id: u64) -> McpResult<String> {
        match self.api.cancel(pipeline_id).await {
            Ok(()) => Ok(format!("Pipeline {pipeline_id} cancelled")),
            Err(e) => Ok(json!({ "error": e.to_string(), "pipeline_id": pipeline_id }).to_string()),
        }
    }

    #[tool("Retry one failed job")]
    async fn retry_job(&self, job_id: u64) -> McpResult<String> {
        let job = self
            .api
            .retry_job(job_id)
            .await
            .map_err(|e| McpError::tool(format!("retry of job {job_id} failed: {e}")))?;
        Ok(format!("Job {} ({}) queued again as {}", job_id, job.name, job.id))
    }

    #[tool("Last lines of a job's log")]
    async fn job_log(&self, job_id: u64, tail: Option<usize>) -> McpResult<String> {
        let tail = tail.unwrap_or(200);
        if tail > MAX_LOG_LINES {
            return Err(McpError::invalid_input("Invalid tail"));
        }
        let log = self.api.job_log(job_id).await?;
        let lines: Vec<&str> = log.lines().collect();
        let start = lines.len().saturating_sub(tail);
        Ok(lines[start..].join("\n"))
    }

    #[tool("List the artifacts a pipeline produced")]
    async fn list_artifacts(&self, pipeline_id: u64) -> McpResult<String> {
        let artifacts = self.api.artifacts(pipeline_id).await?;
        if artifacts.is_empty() {
            return Ok(format!("Pipeline {pipeline_id} has no artifacts"));
        }
        let text = serde_json::to_string_pretty(&artifacts)
            .map_err(|e| McpError::internal(format!("encoding artifact list: {e}")))?;
        Ok(text)
    }

    #[tool("Download a pipeline artifact into the artifact folder (file name relative to it)")]
    async fn download_artifact(&self, pipeline_id: u64, name: String, file_name: String) -> McpResult<String> {
        let cfg = config::get().ok_or_else(|| McpError::internal("forgebot configuration was not installed at start-up"))?;
        if file_name.contains('/') || file_name.starts_with('.') {
            return Err(McpError::from(ProtocolError::invalid_params(format!(
                "file_name {file_name:?} must be a plain name inside {}",
                cfg.artifact_dir.display()
            ))));
        }
        let artifacts = self.api.artifacts(pipeline_id).await?;
        let artifact = artifacts
            .iter()
            .find(|a| a.name == name)
            .ok_or_else(|| McpError::tool(format!("pipeline {pipeline_id} has no artifact named {name:?}")))?;
        let bytes = self.api.download(&artifact.download_url).await?;
        tokio::fs::create_dir_all(&cfg.artifact_dir).await?;
        let dest: PathBuf = cfg.artifact_dir.join(&file_name);
        tokio::fs::write(&dest, &bytes).await?;
        Ok(format!("Saved {} ({} bytes) to {}", name, bytes.len(), dest.display()))
    }

    #[tool("Run the project's linter on a path of the workspace checkout")]
    async fn run_lint(&self, path: String) -> McpResult<String> {
        let cfg = config::get().ok_or_else(|| McpError::internal("forgebot configuration was not installed at start-up"))?;
        if path.contains("..") {
            return Err(McpError::tool(format!("path {path:?} must stay inside the workspace")));
        }
        let outcome = runner::lint(&cfg.workspace, &cfg.lint_command, &path).await?;
        if !outcome.passed {
            return Ok(format!("Error: lint failed for {path}\n{}", outcome.stderr));
        }
        Ok(format!("lint passed for {path}\n{}", outcome.stdout))
    }

    #[tool("Show which branch the workspace checkout is on")]
    async fn workspace_branch(&self) -> McpResult<String> {
        let cfg = config::get().expect("config installed in main");
        let branch = runner::current_branch(&cfg.workspace)
            .await
            .map_err(|e| McpError::internal(e.to_string()))?;
        Ok(branch)
    }

    #[tool("List build runners and their state")]
    async fn list_runners(&self) -> McpResult<String> {
        let runners = self
            .runners
            .read()
            .map_err(|_| McpError::internal("runner table lock poisoned"))?;
        let mut list: Vec<&RunnerInfo> = runners.values().collect();
        list.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(serde_json::to_string_pretty(&list)?)
    }

    #[tool("Pause or resume a runner so it takes no new jobs")]
    async fn pause_runner(&self, runner_id: String, paused: bool) -> McpResult<String> {
        let mut runners = self.runners.write().unwrap();
        let Some(runner) = runners.get_mut(&runner_id) else {
            return Err(McpError::Server(ServerError::not_found(format!("runner {runner_id}"))));
        };
        if paused && runner.busy_jobs > 0 {
            return Err(McpError::Server(ServerError::rate_limit(format!(
                "runner {runner_id} still has {} running jobs; wait or cancel them first",
                runner.busy_jobs
            ))));
        }
        runner.paused = paused;
        Ok(format!("runner {runner_id} {}", if paused { "paused" } else { "resumed" }))
    }

    #[tool("Compare two pipelines: status and duration")]
    async fn compare_pipelines(&self, a: u64, b: u64) -> McpResult<String> {
        let (left, right) = tokio::try_join!(self.api.pipeline(a), self.api.pipeline(b))?;
        let left = left.ok_or_else(|| McpError::from(ProtocolError::tool_execution_failed(
            "compare_pipelines",
            format!("pipeline {a} does not exist"),
        )))?;
        let right = match right {
            Some(p) => p,
            None => return Err(McpError::tool("Pipeline not found")),
        };
        let delta = right.duration_secs.unwrap_or(0) as i64 - left.duration_secs.unwrap_or(0) as i64;
        Ok(format!(
            "#{a}: {} ({}s)\n#{b}: {} ({}s)\ndelta: {delta:+}s",
            left.status,
            left.duration_secs.unwrap_or(0),
            right.status,
            right.duration_secs.unwrap_or(0)
        ))
    }

    #[tool("Queue statistics across all runners")]
    async fn queue_stats(&self) -> McpResult<String> {
        let runners = match self.runners.read() {
            Ok(r) => r,
            Err(_) => return Err(McpError::tool("Something went wrong")),
        };
        let busy: u32 = runners.values().map(|r| r.busy_jobs).sum();
        let paused = runners.values().filter(|r| r.paused).count();
        Ok(format!("{} runners, {paused} paused, {busy} jobs running", runners.len()))
    }

    #[resource("forge://runners")]
    async fn runners_resource(&self) -> McpResult<String> {
        let runners = self
            .runners
            .read()
            .map_err(|_| McpError::internal("runner table lock poisoned"))?;
        let ids: Vec<&String> = runners.keys().collect();
        Ok(serde_json::to_string(&ids)?)
    }

    #[resource("forge://pipeline/{id}")]
    async fn pipeline_resource(&self, id: String) -> McpResult<String> {
        let id: u64 = id
            .parse()
            .map_err(|_| McpError::resource(format!("pipeline id {id:?} is not a number")))?;
        let pipeline = self
            .api
            .pipeline(id)
            .await
            .map_err(|e| McpError::resource(format!("pipeline {id}: {e}")))?
            .ok_or_else(|| McpError::resource(format!("no pipeline {id}")))?;
        Ok(serde_json::to_string_pretty(&pipeline)?)
    }
}
