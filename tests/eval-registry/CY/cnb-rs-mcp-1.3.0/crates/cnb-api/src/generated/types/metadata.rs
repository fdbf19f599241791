use super::ChartDependency;
use super::Maintainer;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Metadata
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Metadata {
    /// Annotations are additional mappings uninterpreted by Helm,
    /// made available for inspection by other applications.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<HashMap<String, String>>,
    /// The API Version of this chart. Required.
    #[serde(rename = "apiVersion")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// The version of the application enclosed inside of this chart.
    #[serde(rename = "appVersion")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_version: Option<String>,
    /// The condition to check to enable chart
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// Dependencies are a list of dependencies for a chart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<Vec<ChartDependency>>,
    /// Whether or not this chart is deprecated
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<bool>,
    /// A one-sentence description of the chart
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The URL to a relevant project page, git repo, or contact person
    #[serde(skip_serializing_if = "Option::is_none")]
    pub home: Option<String>,
    /// The URL to an icon file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// A list of string keywords
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keywords: Option<Vec<String>>,
    /// `KubeVersion` is a `SemVer` constraint specifying the version of Kubernetes required.
    #[serde(rename = "kubeVersion")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kube_version: Option<String>,
    /// A list of name and URL/email address combinations for the maintainer(s)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maintainers: Option<Vec<Maintainer>>,
    /// The name of the chart. Required.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Source is the URL to the source code of this chart
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<String>>,
    /// The tags to check to enable chart
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<String>,
    /// Specifies the chart type: application or library
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// A `SemVer` 2 conformant version string of the chart. Required.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

impl Metadata {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "annotations",
        "apiVersion",
        "appVersion",
        "condition",
        "dependencies",
        "deprecated",
        "description",
        "home",
        "icon",
        "keywords",
        "kubeVersion",
        "maintainers",
        "name",
        "sources",
        "tags",
        "type",
        "version",
    ];
}
