use anyhow::{Context, Result};
use reqwest::Client;
use scraper::{Html, Selector};
use std::collections::HashSet;

use crate::types::{ModuleIndex, TypeData};

const DOCS_BASE: &str = "https://quickshell.outfoxxed.me/docs";

pub async fn fetch_module_list(client: &Client, version: &str) -> Result<Vec<(String, String)>> {
    let url = format!("{}/{}/types/", DOCS_BASE, version);
    let html = client
        .get(&url)
        .header(
            "User-Agent",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36",
        )
        .send()
        .await
        .context("请求文档网站失败")?
        .text()
        .await
        .context("获取页面内容失败")?;

    let document = Html::parse_document(&html);
    let link_selector =
        Selector::parse("a").map_err(|e| anyhow::anyhow!("Invalid selector: {}", e))?;

    let mut seen = HashSet::new();
    let mut modules = Vec::new();
    for element in document.select(&link_selector) {
        let href = element.value().attr("href").unwrap_or("");

        if href.starts_with(&format!("/docs/{}/types/Quickshell.", version)) {
            if let Some(name) = href.strip_prefix(&format!("/docs/{}/types/", version)) {
                if name.contains('.') && !name.contains('/') && !name.contains('#')
                    && seen.insert(name.to_string())
                {
                    modules.push((name.to_string(), String::new()));
                }
            }
        }
    }

    if modules.is_empty() {
        anyhow::bail!("未找到任何模块，版本 {} 可能不存在", version);
    }

    Ok(modules)
}

pub async fn fetch_type_list(
    client: &Client,
    version: &str,
    module: &str,
) -> Result<Vec<(String, String)>> {
    let url = format!("{}/{}/types/{}/", DOCS_BASE, version, module);
    let html = client
        .get(&url)
        .header(
            "User-Agent",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36",
        )
        .send()
        .await
        .context("请求模块页面失败")?
        .text()
        .await
        .context("获取页面内容失败")?;

    let document = Html::parse_document(&html);
    let link_selector =
        Selector::parse("a").map_err(|e| anyhow::anyhow!("Invalid selector: {}", e))?;

    let mut seen = HashSet::new();
    let mut types = Vec::new();
    for element in document.select(&link_selector) {
        let href = element.value().attr("href").unwrap_or("");

        if href.starts_with(&format!("/docs/{}/types/{}/", version, module)) {
            if let Some(name) = href.strip_prefix(&format!("/docs/{}/types/{}/", version, module)) {
                let name = name.trim_end_matches('/');
                if !name.is_empty() && !name.contains('#') && seen.insert(name.to_string()) {
                    types.push((name.to_string(), String::new()));
                }
            }
        }
    }

    if types.is_empty() {
        anyhow::bail!("未找到模块 {}，请确认模块名称是否正确", module);
    }

    Ok(types)
}

pub async fn fetch_type_doc(
    client: &Client,
    version: &str,
    module: &str,
    type_name: &str,
) -> Result<String> {
    let url = format!("{}/{}/types/{}/{}/", DOCS_BASE, version, module, type_name);
    let md = client
        .get(&url)
        .header("User-Agent", "quickshell-mcp/1.0")
        .send()
        .await
        .context("请求类型页面失败")?
        .text()
        .await
        .context("获取页面内容失败")?;

    if md.trim().is_empty() || md.contains("404") {
        anyhow::bail!("未找到类型 {}.{}，请确认名称是否正确", module, type_name);
    }

    Ok(md)
}

pub async fn fetch_guide_markdown(
    client: &Client,
    version: &str,
    guide_name: &str,
) -> Result<String> {
    let url = format!("{}/{}/guide/{}/", DOCS_BASE, version, guide_name);
    let md = client
        .get(&url)
        .header("User-Agent", "quickshell-mcp/1.0")
        .send()
        .await
        .context("请求指南页面失败")?
        .text()
        .await
        .context("获取页面内容失败")?;

    if md.trim().is_empty() || md.contains("404") {
        anyhow::bail!("未找到指南: {}", guide_name);
    }

    Ok(md)
}

#[allow(dead_code)]
pub async fn fetch_type_json(
    _client: &Client,
    _version: &str,
    _module: &str,
    _type_name: &str,
) -> Result<TypeData> {
    anyhow::bail!("JSON 数据源不可用，请使用 Markdown 文档");
}

#[allow(dead_code)]
pub async fn fetch_module_index(
    _client: &Client,
    _version: &str,
    _module: &str,
) -> Result<ModuleIndex> {
    anyhow::bail!("JSON 数据源不可用，请使用 Markdown 文档");
}
