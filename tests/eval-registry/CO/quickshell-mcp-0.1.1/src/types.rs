use serde::{Deserialize, Serialize};

#[allow(dead_code)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct QsTypeRef {
    #[serde(rename = "type")]
    pub kind: String,
    pub module: String,
    pub name: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct QsInstance {
    pub name: Option<String>,
    #[serde(rename = "type")]
    pub type_info: QsTypeRef,
    pub details: Option<String>,
    pub flags: Option<Vec<String>>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct QsFunction {
    pub name: String,
    pub id: String,
    pub details: String,
    pub ret: QsInstance,
    pub params: Vec<QsInstance>,
}

#[allow(dead_code)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct QsSignal {
    pub name: String,
    pub details: String,
    pub params: Vec<QsInstance>,
}

#[allow(dead_code)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct QsVariant {
    pub name: Option<String>,
    pub details: String,
    pub params: Option<Vec<QsInstance>>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TypeData {
    pub name: String,
    pub description: String,
    pub details: String,
    pub flags: Option<Vec<String>>,
    pub contains: Option<Vec<String>>,
    #[serde(rename = "super")]
    pub super_type: Option<QsTypeRef>,
    pub properties: Option<serde_json::Map<String, serde_json::Value>>,
    pub functions: Option<Vec<QsFunction>>,
    pub signals: Option<serde_json::Map<String, serde_json::Value>>,
    pub variants: Option<serde_json::Map<String, serde_json::Value>>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ModuleIndex {
    pub name: String,
    pub description: String,
    pub details: String,
}

#[allow(dead_code)]
#[derive(Debug, Deserialize)]
pub struct GitTreeNode {
    pub path: String,
    #[serde(rename = "type")]
    pub kind: String,
}

#[allow(dead_code)]
#[derive(Debug, Deserialize)]
pub struct GitTree {
    pub tree: Vec<GitTreeNode>,
}
