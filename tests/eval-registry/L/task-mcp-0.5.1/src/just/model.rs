use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

// =============================================================================
// just --dump --dump-format json --unstable output types
// =============================================================================

/// Top-level output of `just --dump --dump-format json --unstable`.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(default)]
pub struct JustDump {
    pub recipes: HashMap<String, JustRecipe>,
    pub source: Option<String>,
}

/// A single recipe from just dump json.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(default)]
pub struct JustRecipe {
    pub name: String,
    pub namepath: String,
    pub doc: Option<String>,
    pub attributes: Vec<RecipeAttribute>,
    pub parameters: Vec<RecipeParameter>,
    pub private: bool,
    pub quiet: bool,
}

/// Attribute attached to a recipe.
///
/// `just --dump --dump-format json` encodes recipe attributes in three shapes:
/// 1. Bare string for nullary attributes:        `"private"`
/// 2. Object with string payload:                `{"group": "allow-agent"}`
/// 3. Object with null payload (other unary):    `{"confirm": null}`
///
/// We model all three with an untagged enum so deserialization is total. Only
/// `Group` is consumed by current logic; the rest are preserved as `Other`
/// for forward compatibility.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum RecipeAttribute {
    /// Bare-string attribute, e.g. `"private"`, `"no-cd"`, `"linux"`.
    Bare(String),
    /// Object attribute, e.g. `{"group": "allow-agent"}` or `{"confirm": null}`.
    Object(HashMap<String, Option<String>>),
}

impl RecipeAttribute {
    /// Returns the group name if this attribute is `[group: '<name>']`.
    pub fn group(&self) -> Option<&str> {
        match self {
            RecipeAttribute::Object(map) => map.get("group").and_then(|v| v.as_deref()),
            RecipeAttribute::Bare(_) => None,
        }
    }
}

/// Parameter of a recipe.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct RecipeParameter {
    pub name: String,
    pub kind: String,
    pub default: Option<String>,
    pub help: Option<String>,
}

// =============================================================================
// Domain types (used by MCP layer)
// =============================================================================

/// Origin of a recipe in a merged recipe list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum RecipeSource {
    /// Recipe comes from the project-local justfile.
    #[default]
    Project,
    /// Recipe comes from the global (~/.config/task-mcp) justfile.
    Global,
}

/// A recipe exposed to MCP callers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Recipe {
    /// Recipe name.
    pub name: String,
    /// Dotted name-path (e.g. `module::recipe`).
    pub namepath: String,
    /// Description from doc comment.
    pub description: Option<String>,
    /// Parameters the recipe accepts.
    pub parameters: Vec<RecipeParameter>,
    /// Groups the recipe belongs to (from `[group: '...']`).
    pub groups: Vec<String>,
    /// Whether the recipe is marked agent-safe.
    pub allow_agent: bool,
    /// Where this recipe originates (project or global).
    pub source: RecipeSource,
}

impl Recipe {
    /// Build a `Recipe` from `JustRecipe`, setting `allow_agent` and `source` explicitly.
    pub fn from_just_recipe(raw: JustRecipe, allow_agent: bool) -> Self {
        Self::from_just_recipe_with_source(raw, allow_agent, RecipeSource::Project)
    }

    /// Build a `Recipe` from `JustRecipe` with an explicit source tag.
    pub fn from_just_recipe_with_source(
        raw: JustRecipe,
        allow_agent: bool,
        source: RecipeSource,
    ) -> Self {
        let groups = raw
            .attributes
            .iter()
            .filter_map(|a| a.group().map(str::to_owned))
            .collect();
        Self {
            name: raw.name,
            namepath: raw.namepath,
            description: raw.doc,
            parameters: raw.parameters,
            groups,
            allow_agent,
            source,
        }
    }
}

// =============================================================================
// Execution types (used by run/logs tools)
// =============================================================================

/// Result of a single task execution.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaskExecution {
    /// UUID v4 identifier for this execution.
    pub id: String,
    /// Name of the executed recipe.
    pub task_name: String,
    /// Arguments passed to the recipe (parameter name → value).
    pub args: HashMap<String, String>,
    /// Content arguments passed as environment variables (key → value).
    pub content: HashMap<String, String>,
    /// Exit code of the process; `None` if killed by signal.
    pub exit_code: Option<i32>,
    /// Captured stdout (may be truncated).
    pub stdout: String,
    /// Captured stderr (may be truncated).
    pub stderr: String,
    /// Unix timestamp (seconds) when the execution started.
    pub started_at: u64,
    /// Elapsed time in milliseconds.
    pub duration_ms: u64,
    /// `true` if stdout or stderr was truncated due to size limit.
    pub truncated: bool,
}

/// Lightweight summary of a task execution (omits stdout/stderr).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaskExecutionSummary {
    pub id: String,
    pub task_name: String,
    pub exit_code: Option<i32>,
    pub started_at: u64,
    pub duration_ms: u64,
    pub truncated: bool,
}

impl TaskExecutionSummary {
    pub fn from_execution(exec: &TaskExecution) -> Self {
        Self {
            id: exec.id.clone(),
            task_name: exec.task_name.clone(),
            exit_code: exec.exit_code,
            started_at: exec.started_at,
            duration_ms: exec.duration_ms,
            truncated: exec.truncated,
        }
    }
}

/// Errors that can occur during recipe execution.
#[derive(Debug, Error)]
pub enum TaskError {
    #[error("recipe not found or not accessible: {0}")]
    RecipeNotFound(String),
    #[error("argument contains invalid control character: {0}")]
    DangerousArgument(String),
    #[error("invalid content key '{0}': must match [A-Za-z][A-Za-z0-9_]*")]
    InvalidContentKey(String),
    #[error("execution timed out")]
    Timeout,
    #[error("command failed with exit code {code}: {stderr}")]
    CommandFailed { code: i32, stderr: String },
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    #[error("just error: {0}")]
    JustError(#[from] crate::just::JustError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_just_dump_minimal() {
        let json = r#"{"recipes":{"build":{"name":"build","namepath":"build","doc":null,"attributes":[],"parameters":[],"private":false,"quiet":false}},"source":"/tmp/justfile"}"#;
        let dump: JustDump = serde_json::from_str(json).expect("parse should succeed");
        assert!(dump.recipes.contains_key("build"));
    }

    #[test]
    fn parse_recipe_with_group_attribute() {
        let json = r#"{"recipes":{"build":{"name":"build","namepath":"build","doc":"Build the project","attributes":[{"group":"allow-agent"}],"parameters":[],"private":false,"quiet":false}}}"#;
        let dump: JustDump = serde_json::from_str(json).expect("parse should succeed");
        let build = dump.recipes.get("build").expect("build recipe");
        assert_eq!(build.attributes[0].group(), Some("allow-agent"));
        assert_eq!(build.doc.as_deref(), Some("Build the project"));
    }

    #[test]
    fn parse_recipe_with_mixed_attribute_shapes() {
        // just emits attributes in three shapes:
        //   - bare string ("private")
        //   - object with string payload ({"group":"allow-agent"})
        //   - object with null payload ({"confirm":null})
        // All three must deserialize via the untagged enum.
        let json = r#"{"recipes":{"r":{"name":"r","namepath":"r","doc":null,"attributes":["private",{"group":"allow-agent"},{"confirm":null}],"parameters":[],"private":true,"quiet":false}}}"#;
        let dump: JustDump = serde_json::from_str(json).expect("parse should succeed");
        let r = dump.recipes.get("r").expect("r recipe");
        assert_eq!(r.attributes.len(), 3);
        assert!(matches!(&r.attributes[0], RecipeAttribute::Bare(s) if s == "private"));
        assert_eq!(r.attributes[1].group(), Some("allow-agent"));
        assert!(matches!(&r.attributes[2], RecipeAttribute::Object(_)));
        assert_eq!(r.attributes[2].group(), None);
    }

    #[test]
    fn parse_recipe_with_parameters() {
        let json = r#"{"recipes":{"test":{"name":"test","namepath":"test","doc":null,"attributes":[],"parameters":[{"name":"filter","kind":"singular","default":"","help":null}],"private":false,"quiet":false}}}"#;
        let dump: JustDump = serde_json::from_str(json).expect("parse should succeed");
        let test = dump.recipes.get("test").expect("test recipe");
        assert_eq!(test.parameters[0].name, "filter");
        assert_eq!(test.parameters[0].default.as_deref(), Some(""));
    }

    #[test]
    fn recipe_from_just_recipe_allow_agent_true() {
        let raw = JustRecipe {
            name: "build".to_string(),
            namepath: "build".to_string(),
            doc: Some("Build".to_string()),
            attributes: vec![RecipeAttribute::Object(
                [("group".to_string(), Some("allow-agent".to_string()))]
                    .into_iter()
                    .collect(),
            )],
            parameters: vec![],
            private: false,
            quiet: false,
        };
        let recipe = Recipe::from_just_recipe(raw, true);
        assert!(recipe.allow_agent);
        assert_eq!(recipe.groups, vec!["allow-agent"]);
        assert_eq!(recipe.description.as_deref(), Some("Build"));
        assert_eq!(recipe.source, RecipeSource::Project);
    }

    #[test]
    fn recipe_from_just_recipe_allow_agent_false() {
        let raw = JustRecipe {
            name: "deploy".to_string(),
            namepath: "deploy".to_string(),
            doc: None,
            attributes: vec![],
            parameters: vec![],
            private: false,
            quiet: false,
        };
        let recipe = Recipe::from_just_recipe(raw, false);
        assert!(!recipe.allow_agent);
        assert!(recipe.groups.is_empty());
        assert_eq!(recipe.source, RecipeSource::Project);
    }

    #[test]
    fn recipe_from_just_recipe_with_source_global() {
        let raw = JustRecipe {
            name: "init-project".to_string(),
            namepath: "init-project".to_string(),
            doc: Some("Initialize project".to_string()),
            attributes: vec![RecipeAttribute::Object(
                [("group".to_string(), Some("allow-agent".to_string()))]
                    .into_iter()
                    .collect(),
            )],
            parameters: vec![],
            private: false,
            quiet: false,
        };
        let recipe = Recipe::from_just_recipe_with_source(raw, true, RecipeSource::Global);
        assert_eq!(recipe.source, RecipeSource::Global);
        assert!(recipe.allow_agent);
    }

    #[test]
    fn task_execution_summary_from_execution() {
        let exec = TaskExecution {
            id: "test-id".to_string(),
            task_name: "build".to_string(),
            args: HashMap::new(),
            content: HashMap::new(),
            exit_code: Some(0),
            stdout: "output".to_string(),
            stderr: "".to_string(),
            started_at: 1000,
            duration_ms: 500,
            truncated: false,
        };
        let summary = TaskExecutionSummary::from_execution(&exec);
        assert_eq!(summary.id, "test-id");
        assert_eq!(summary.task_name, "build");
        assert_eq!(summary.exit_code, Some(0));
        assert_eq!(summary.started_at, 1000);
        assert_eq!(summary.duration_ms, 500);
        assert!(!summary.truncated);
    }
}
