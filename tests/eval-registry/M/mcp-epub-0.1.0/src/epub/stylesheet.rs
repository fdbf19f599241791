use std::collections::HashMap;
use std::path::Path;

use quick_xml::events::Event;
use quick_xml::Reader;

use crate::epub::types::StylesheetInfo;
use crate::EpubError;

pub fn list_stylesheets<P: AsRef<Path>>(opf_path: P) -> Result<Vec<StylesheetInfo>, EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_xml = std::fs::read_to_string(opf_path)?;

    let mut reader = Reader::from_str(&opf_xml);

    let mut in_manifest = false;
    let mut stylesheets = Vec::new();

    loop {
        match reader.read_event() {
            Ok(Event::Start(ref e)) | Ok(Event::Empty(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "manifest" {
                    in_manifest = true;
                } else if in_manifest && tag == "item" {
                    let mut id = String::new();
                    let mut href = String::new();
                    let mut media_type = String::new();
                    for a in e.attributes().flatten() {
                        let name = String::from_utf8_lossy(a.key.as_ref()).to_string();
                        let val = String::from_utf8_lossy(a.value.as_ref()).to_string();
                        match name.as_str() {
                            "id" => id = val,
                            "href" => href = val,
                            "media-type" => media_type = val,
                            _ => {}
                        }
                    }
                    if media_type == "text/css" {
                        stylesheets.push(StylesheetInfo {
                            id,
                            path: href,
                            media_type,
                        });
                    }
                }
            }
            Ok(Event::End(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "manifest" {
                    in_manifest = false;
                }
            }
            Ok(Event::Eof) => break,
            Err(e) => {
                return Err(EpubError::ParseError(format!(
                    "Failed to parse OPF manifest: {}",
                    e
                )));
            }
            _ => {}
        }
    }

    Ok(stylesheets)
}

pub fn resolve_stylesheet_path<P: AsRef<Path>>(
    opf_path: P,
    stylesheet_id: &str,
) -> Result<(String, String), EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_dir = opf_path.parent().unwrap_or(Path::new(""));
    let stylesheets = list_stylesheets(opf_path)?;

    for ss in &stylesheets {
        if ss.id == stylesheet_id {
            let full_path = opf_dir.join(&ss.path);
            return Ok((full_path.to_string_lossy().to_string(), ss.path.clone()));
        }
    }

    Err(EpubError::ContentValidationError {
        file: stylesheet_id.to_string(),
        detail: "Stylesheet ID not found in manifest".to_string(),
    })
}

pub fn read_stylesheet_content<P: AsRef<Path>>(file_path: P) -> Result<(String, usize), EpubError> {
    let path = file_path.as_ref();
    let content = std::fs::read_to_string(path)?;
    let size = content.len();
    Ok((content, size))
}

pub fn append_rules<P: AsRef<Path>>(file_path: P, css_text: &str) -> Result<(), EpubError> {
    let path = file_path.as_ref();
    let mut content = std::fs::read_to_string(path)?;

    validate_css_text(&format!("{}\n{}", content, css_text))?;

    content.push('\n');
    content.push_str(css_text);
    content.push('\n');
    std::fs::write(path, content)?;

    Ok(())
}

pub fn replace_properties<P: AsRef<Path>>(
    file_path: P,
    selector: &str,
    properties: &HashMap<String, String>,
) -> Result<(usize, usize), EpubError> {
    let path = file_path.as_ref();
    let content = std::fs::read_to_string(path)?;

    let mut result = content.clone();
    let mut rules_matched = 0;
    let mut properties_modified = 0;

    let mut i = 0;
    let bytes = content.as_bytes();
    let len = bytes.len();

    while i < len {
        let start_comment = content[i..].find("/*");
        let start_brace = content[i..].find('{');

        match (start_comment, start_brace) {
            (Some(ci), Some(bi)) if ci < bi => {
                let comment_end = content[i + ci..].find("*/");
                if let Some(ce) = comment_end {
                    i += ci + ce + 2;
                    continue;
                }
                break;
            }
            (Some(_ci), None) => break,
            _ => {}
        }

        let brace_pos = start_brace;
        if brace_pos.is_none() {
            break;
        }
        let brace_pos = brace_pos.unwrap();

        let before_brace = content[i..i + brace_pos].trim();
        if before_brace.ends_with(selector) || before_brace == selector {
            rules_matched += 1;
            let after_brace = &content[i + brace_pos + 1..];
            let close_pos = find_matching_brace(after_brace);
            if let Some(cp) = close_pos {
                let block = &after_brace[..cp];
                let mut new_block = block.to_string();

                for (prop, val) in properties {
                    let prop_pattern = format!("{}:", prop);
                    if let Some(decl_pos) = new_block.find(&prop_pattern) {
                        let after_colon = &new_block[decl_pos + prop_pattern.len()..];
                        let semi_pos = after_colon.find(';').unwrap_or(after_colon.len());
                        let start_to_decl = &new_block[..decl_pos + prop_pattern.len()];
                        let rest = &after_colon[semi_pos..];
                        new_block = format!("{}{}{}", start_to_decl, val, rest);
                        properties_modified += 1;
                    } else {
                        if !new_block.ends_with(';') && !new_block.is_empty() {
                            new_block.push(';');
                        }
                        new_block.push_str(&format!("\n  {}: {};", prop, val));
                        properties_modified += 1;
                    }
                }

                let before = &content[..i + brace_pos];
                let after = &content[i + brace_pos + 1 + cp + 1..];
                result = format!("{}{{{}}}{}", before, new_block, after);
            }
            break;
        } else {
            let after_brace = &content[i + brace_pos + 1..];
            if let Some(cp) = find_matching_brace(after_brace) {
                i += brace_pos + 1 + cp + 1;
            } else {
                break;
            }
        }
    }

    if rules_matched == 0 {
        return Err(EpubError::SelectorError {
            selector: selector.to_string(),
            detail: "No CSS rules match the given selector".to_string(),
        });
    }

    validate_css_text(&result)?;
    std::fs::write(path, result)?;

    Ok((rules_matched, properties_modified))
}

fn find_matching_brace(s: &str) -> Option<usize> {
    let mut depth = 1;
    let bytes = s.as_bytes();
    let mut in_string = false;
    let mut string_char = 0u8;
    let mut in_comment = false;

    for (i, &b) in bytes.iter().enumerate() {
        if in_comment {
            if b == b'*' && i + 1 < bytes.len() && bytes[i + 1] == b'/' {
                in_comment = false;
            }
            continue;
        }
        if in_string {
            if b == string_char {
                in_string = false;
            } else if b == b'\\' {
                continue;
            }
            continue;
        }
        match b {
            b'/' if i + 1 < bytes.len() && bytes[i + 1] == b'*' => {
                in_comment = true;
            }
            b'"' | b'\'' => {
                in_string = true;
                string_char = b;
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn validate_css_text(css: &str) -> Result<(), EpubError> {
    lightningcss::stylesheet::StyleSheet::parse(
        css,
        lightningcss::stylesheet::ParserOptions::default(),
    )
    .map_err(|e| EpubError::ContentValidationError {
        file: "css".to_string(),
        detail: format!("CSS syntax error: {}", e),
    })?;
    Ok(())
}
