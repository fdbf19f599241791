use anyhow::Result;
use rmcp::{
    handler::server::tool::Parameters,
    handler::server::tool::ToolRouter,
    model::{CallToolResult, Content, Implementation, ServerCapabilities, ServerInfo},
    tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;
use serde_json::json;
use std::future::Future;
use std::sync::Arc;

use crate::cache::AppCache;
use crate::github::{fetch_guide_markdown, fetch_module_list, fetch_type_doc, fetch_type_list};

#[derive(Clone)]
pub struct QuickshellTools {
    client: reqwest::Client,
    cache: AppCache,
    tool_router: ToolRouter<Self>,
}

#[derive(Debug, Deserialize)]
pub struct ListModulesParams {
    pub version: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct ListTypesParams {
    pub module: String,
    pub version: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct GetTypeDocParams {
    pub module: String,
    pub type_name: String,
    pub version: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct GetGuideParams {
    pub guide: String,
    pub version: Option<String>,
}

#[tool_router]
impl QuickshellTools {
    pub fn new() -> Self {
        Self {
            client: reqwest::Client::new(),
            cache: AppCache::new(),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "列出 Quickshell 所有模块及其包含的类型",
        input_schema = Arc::new(json!({
            "type": "object",
            "properties": {
                "version": {
                    "type": "string",
                    "description": "文档版本: v0.1.0, v0.2.0, v0.2.1, master"
                }
            }
        }).as_object().unwrap().clone())
    )]
    pub async fn list_modules(
        &self,
        params: Parameters<ListModulesParams>,
    ) -> Result<CallToolResult, McpError> {
        let p = params.0;
        let version = p.version.as_deref().unwrap_or("v0.1.0");
        let cache_key = format!("nav:{}", version);

        if let Some(cached) = self.cache.nav.get(&cache_key).await {
            return Ok(CallToolResult::success(vec![Content::text(cached)]));
        }

        match fetch_module_list(&self.client, version).await {
            Ok(modules) => {
                let mut md = format!("# Quickshell 模块列表 ({})\n\n", version);
                md.push_str(&format!("共 {} 个模块\n\n", modules.len()));
                for (name, desc) in &modules {
                    md.push_str(&format!("## {}\n\n", name));
                    if !desc.is_empty() {
                        md.push_str(&format!("{}\n\n", desc));
                    }
                }
                self.cache.nav.insert(cache_key, md.clone()).await;
                Ok(CallToolResult::success(vec![Content::text(md)]))
            }
            Err(e) => Ok(CallToolResult::success(vec![Content::text(format!(
                "❌ 获取模块列表失败: {}",
                e
            ))])),
        }
    }

    #[tool(
        description = "列出指定模块下所有类型",
        input_schema = Arc::new(json!({
            "type": "object",
            "properties": {
                "module": {
                    "type": "string",
                    "description": "模块名，例如: Quickshell, Quickshell.Hyprland"
                },
                "version": {
                    "type": "string",
                    "description": "文档版本: v0.1.0, v0.2.0, v0.2.1, master"
                }
            },
            "required": ["module"]
        }).as_object().unwrap().clone())
    )]
    pub async fn list_types(
        &self,
        params: Parameters<ListTypesParams>,
    ) -> Result<CallToolResult, McpError> {
        let p = params.0;
        let version = p.version.as_deref().unwrap_or("v0.1.0");
        let cache_key = format!("types_list:{}:{}", version, p.module);

        if let Some(cached) = self.cache.docs.get(&cache_key).await {
            return Ok(CallToolResult::success(vec![Content::text(cached)]));
        }

        match fetch_type_list(&self.client, version, &p.module).await {
            Ok(types) => {
                let mut md = format!("# {} 类型列表 ({})\n\n", p.module, version);
                md.push_str(&format!("共 **{}** 个类型\n\n", types.len()));
                for (name, desc) in &types {
                    let doc_url = format!(
                        "https://quickshell.outfoxxed.me/docs/{}/types/{}/{}/",
                        version, p.module, name
                    );
                    if desc.is_empty() {
                        md.push_str(&format!("- **[{}]({})**\n", name, doc_url));
                    } else {
                        md.push_str(&format!("- **[{}]({})** — {}\n", name, doc_url, desc));
                    }
                }
                self.cache.docs.insert(cache_key, md.clone()).await;
                Ok(CallToolResult::success(vec![Content::text(md)]))
            }
            Err(e) => Ok(CallToolResult::success(vec![Content::text(format!(
                "❌ 获取类型列表失败: {}",
                e
            ))])),
        }
    }

    #[tool(
        description = "获取 Quickshell 类型的完整 API 文档",
        input_schema = Arc::new(json!({
            "type": "object",
            "properties": {
                "module": {
                    "type": "string",
                    "description": "模块名，例如: Quickshell.Hyprland"
                },
                "type_name": {
                    "type": "string",
                    "description": "类型名，例如: PanelWindow"
                },
                "version": {
                    "type": "string",
                    "description": "文档版本: v0.1.0, v0.2.0, v0.2.1, master"
                }
            },
            "required": ["module", "type_name"]
        }).as_object().unwrap().clone())
    )]
    pub async fn get_type_doc(
        &self,
        params: Parameters<GetTypeDocParams>,
    ) -> Result<CallToolResult, McpError> {
        let p = params.0;
        let version = p.version.as_deref().unwrap_or("v0.1.0");
        let cache_key = format!("type:{}:{}:{}", version, p.module, p.type_name);

        if let Some(cached) = self.cache.docs.get(&cache_key).await {
            return Ok(CallToolResult::success(vec![Content::text(cached)]));
        }

        match fetch_type_doc(&self.client, version, &p.module, &p.type_name).await {
            Ok(html) => {
                let doc_url = format!(
                    "https://quickshell.outfoxxed.me/docs/{}/types/{}/{}/",
                    version, p.module, p.type_name
                );
                let md = format!(
                    "# {}.{}\n\n> 文档来源: {}\n\n{}\n",
                    p.module, p.type_name, doc_url, html
                );
                self.cache.docs.insert(cache_key, md.clone()).await;
                Ok(CallToolResult::success(vec![Content::text(md)]))
            }
            Err(e) => Ok(CallToolResult::success(vec![Content::text(format!(
                "❌ 获取 {}.{} 文档失败: {}\n\n请用 list_types 确认模块和类型名称是否正确",
                p.module, p.type_name, e
            ))])),
        }
    }

    #[tool(
        description = "获取 Quickshell 使用指南",
        input_schema = Arc::new(json!({
            "type": "object",
            "properties": {
                "guide": {
                    "type": "string",
                    "description": "指南名称: introduction, install-setup, size-position, qml-language, faq"
                },
                "version": {
                    "type": "string",
                    "description": "文档版本: v0.1.0, v0.2.0, v0.2.1, master"
                }
            },
            "required": ["guide"]
        }).as_object().unwrap().clone())
    )]
    pub async fn get_guide(
        &self,
        params: Parameters<GetGuideParams>,
    ) -> Result<CallToolResult, McpError> {
        let p = params.0;
        let version = p.version.as_deref().unwrap_or("v0.1.0");
        let cache_key = format!("guide:{}:{}", version, p.guide);

        if let Some(cached) = self.cache.docs.get(&cache_key).await {
            return Ok(CallToolResult::success(vec![Content::text(cached)]));
        }

        match fetch_guide_markdown(&self.client, version, &p.guide).await {
            Ok(html) => {
                let doc_url = format!("https://quickshell.outfoxxed.me/docs/{}/guide/{}/", version, p.guide);
                let md = format!(
                    "# Quickshell 指南: {}\n\n> 文档来源: {}\n\n{}\n",
                    p.guide, doc_url, html
                );
                self.cache.docs.insert(cache_key, md.clone()).await;
                Ok(CallToolResult::success(vec![Content::text(md)]))
            }
            Err(e) => Ok(CallToolResult::success(vec![Content::text(format!(
                "❌ 获取指南失败: {}\n\n可用指南: introduction, install-setup, size-position, qml-language, faq",
                e
            ))])),
        }
    }
}

#[tool_handler]
impl ServerHandler for QuickshellTools {
    fn get_info(&self) -> ServerInfo {
        ServerInfo {
            server_info: Implementation {
                name: "quickshell-docs".into(),
                version: "1.0.0".into(),
            },
            instructions: Some(
                "Quickshell QML 开发文档助手。\n\
                 可用工具:\n\
                 - list_modules: 列出所有模块\n\
                 - list_types: 列出某模块的所有类型\n\
                 - get_type_doc: 获取类型完整文档\n\
                 - get_guide: 获取使用指南\n\
                 \n\
                 默认版本: v0.1.0"
                    .into(),
            ),
            capabilities: ServerCapabilities::builder().enable_tools().build(),
            ..Default::default()
        }
    }
}
