use serde::{Deserialize, Serialize};

/// `ChartDependency`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ChartDependency {
    /// Alias usable alias to be used for the chart
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
    /// A yaml path that resolves to a boolean, used for enabling/disabling charts (e.g. subchart1.enabled )
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// Enabled bool determines if chart should be loaded
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// `ImportValues` holds the mapping of source values to parent key to be imported. Each item can be a
    /// string or pair of child/parent sublist items.
    #[serde(rename = "import-values")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub import_values: Option<Vec<serde_json::Value>>,
    /// Name is the name of the dependency.
    ///
    /// This must mach the name in the dependency's Chart.yaml.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The URL to the repository.
    ///
    /// Appending `index.yaml` to this string should result in a URL that can be
    /// used to fetch the repository index.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// Tags can be used to group charts for enabling/disabling together
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Version is the version (range) of this chart.
    ///
    /// A lock file will always produce a single version, while a dependency
    /// may contain a semantic version range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

impl ChartDependency {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "alias",
        "condition",
        "enabled",
        "import-values",
        "name",
        "repository",
        "tags",
        "version",
    ];
}
