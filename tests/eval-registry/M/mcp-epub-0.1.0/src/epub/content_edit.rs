use std::collections::HashMap;
use std::path::Path;

use regex_lite::Regex;
use scraper::{Html, Selector};

use crate::epub::types::ContentModification;
use crate::EpubError;

#[derive(Debug)]
pub struct ModificationResult {
    pub selector: String,
    pub action: String,
    pub matched_count: usize,
    pub affected_files: Vec<String>,
}

fn apply_html_modification(
    content: &str,
    sel: &Selector,
    action: &str,
    value: Option<&str>,
    attr_name: Option<&str>,
) -> Result<String, EpubError> {
    let doc = Html::parse_fragment(content);
    let mut result = content.to_string();

    match action {
        "remove" => {
            let mut to_remove: Vec<String> = Vec::new();
            for el in doc.select(sel) {
                to_remove.push(el.html());
            }
            for html in to_remove {
                result = result.replace(&html, "");
            }
        }
        "replace_text" => {
            if let Some(val) = value {
                for el in doc.select(sel) {
                    let html = el.html();
                    let text: String = el.text().collect();
                    if !text.is_empty() {
                        let new_html = html.replace(&text, val);
                        if new_html != html {
                            result = result.replace(&html, &new_html);
                        }
                    }
                }
            }
        }
        "replace_html" => {
            if let Some(val) = value {
                for el in doc.select(sel) {
                    let outer = el.html();
                    let open_tag_end = outer.find('>').map(|i| i + 1).unwrap_or(0);
                    let close_tag = format!("</{}>", el.value().name());
                    if let Some(close_pos) = outer.rfind(&close_tag) {
                        let open_part = &outer[..open_tag_end];
                        let new_html = format!("{}{}{}", open_part, val, &outer[close_pos..]);
                        result = result.replace(&outer, &new_html);
                    }
                }
            }
        }
        "set_attribute" => {
            if let (Some(attr), Some(val)) = (attr_name, value) {
                for el in doc.select(sel) {
                    let outer = el.html();
                    let new_outer = set_attr(&outer, attr, val);
                    if new_outer != outer {
                        result = result.replace(&outer, &new_outer);
                    }
                }
            }
        }
        "remove_attribute" => {
            if let Some(attr) = attr_name {
                for el in doc.select(sel) {
                    let outer = el.html();
                    let new_outer = remove_attr(&outer, attr);
                    if new_outer != outer {
                        result = result.replace(&outer, &new_outer);
                    }
                }
            }
        }
        "prepend" => {
            if let Some(val) = value {
                for el in doc.select(sel) {
                    let outer = el.html();
                    let inner = el.inner_html();
                    let open_tag_end = outer.find('>').map(|i| i + 1).unwrap_or(0);
                    let close_tag = format!("</{}>", el.value().name());
                    if let Some(close_pos) = outer.rfind(&close_tag) {
                        let open_part = &outer[..open_tag_end];
                        let new_html =
                            format!("{}{}{}{}", open_part, val, inner, &outer[close_pos..]);
                        result = result.replace(&outer, &new_html);
                    }
                }
            }
        }
        "append" => {
            if let Some(val) = value {
                for el in doc.select(sel) {
                    let outer = el.html();
                    let inner = el.inner_html();
                    let open_tag_end = outer.find('>').map(|i| i + 1).unwrap_or(0);
                    let close_tag = format!("</{}>", el.value().name());
                    if let Some(close_pos) = outer.rfind(&close_tag) {
                        let open_part = &outer[..open_tag_end];
                        let new_html =
                            format!("{}{}{}{}", open_part, inner, val, &outer[close_pos..]);
                        result = result.replace(&outer, &new_html);
                    }
                }
            }
        }
        _ => {}
    }

    Ok(result)
}

fn set_attr(html: &str, attr: &str, value: &str) -> String {
    let pattern = format!(r#"{attr}="[^"]*""#);
    let re = Regex::new(&pattern).unwrap();
    if re.is_match(html) {
        return re.replace(html, format!(r#"{attr}="{value}""#)).to_string();
    }

    if let Some(gt_pos) = html.find('>') {
        let before_gt = &html[..gt_pos];
        let after_gt = &html[gt_pos..];
        format!(r#"{before_gt} {attr}="{value}"{after_gt}"#)
    } else {
        html.to_string()
    }
}

fn remove_attr(html: &str, attr: &str) -> String {
    let re = Regex::new(&format!(r#"\s+{attr}="[^"]*""#)).unwrap();
    re.replace(html, "").to_string()
}

pub fn apply_modifications<P: AsRef<Path>>(
    opf_path: P,
    spine_map: &HashMap<String, String>,
    modifications: &[ContentModification],
) -> Result<(HashMap<String, String>, Vec<ModificationResult>), EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_dir = opf_path.parent().unwrap_or(Path::new(""));
    let mut modified_files: HashMap<String, String> = HashMap::new();
    let mut results = Vec::new();

    for modification in modifications {
        let selector =
            Selector::parse(&modification.selector).map_err(|e| EpubError::SelectorError {
                selector: modification.selector.clone(),
                detail: format!("{}", e),
            })?;

        let mut total_matched = 0;
        let mut affected = Vec::new();

        for href in spine_map.values() {
            let file_path = opf_dir.join(href);
            let content = if let Some(cached) = modified_files.get(href) {
                cached.clone()
            } else {
                std::fs::read_to_string(&file_path).map_err(|e| {
                    EpubError::ParseError(format!("Failed to read '{}': {}", href, e))
                })?
            };

            let doc = Html::parse_fragment(&content);
            let matched_count = doc.select(&selector).count();

            if matched_count == 0 {
                continue;
            }

            total_matched += matched_count;

            let modified = apply_html_modification(
                &content,
                &selector,
                &modification.action,
                modification.value.as_deref(),
                modification.attribute_name.as_deref(),
            )?;

            if modified != content {
                modified_files.insert(href.clone(), modified);
                affected.push(href.clone());
            }
        }

        results.push(ModificationResult {
            selector: modification.selector.clone(),
            action: modification.action.clone(),
            matched_count: total_matched,
            affected_files: affected,
        });
    }

    Ok((modified_files, results))
}
