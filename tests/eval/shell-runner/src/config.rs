//! commands.toml: which programs may run, with which argument prefixes.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct CommandSpec {
    /// Tool name, e.g. "git_status"
    pub name: String,
    pub description: String,
    /// Program to run, e.g. "git"
    pub program: String,
    /// Arguments always passed first, e.g. ["status", "--short"]
    #[serde(default)]
    pub fixed_args: Vec<String>,
    /// Extra arguments the model may pass must start with one of these (empty: none allowed)
    #[serde(default)]
    pub allowed_prefixes: Vec<String>,
}

impl CommandSpec {
    pub fn arg_allowed(&self, arg: &str) -> bool {
        self.allowed_prefixes
            .iter()
            .any(|p| arg.starts_with(p.as_str()))
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct Config {
    pub workdir: PathBuf,
    #[serde(default = "default_timeout")]
    pub timeout_secs: u64,
    pub commands: Vec<CommandSpec>,
}

fn default_timeout() -> u64 {
    30
}

impl Config {
    pub fn load(path: &str) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path)?;
        Ok(toml::from_str(&text)?)
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_secs)
    }
}
