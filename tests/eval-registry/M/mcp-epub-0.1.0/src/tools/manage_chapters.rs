use std::collections::HashMap;
use std::path::Path;

use crate::cache::EpubCache;
use crate::epub::content;
use crate::epub::validate::{self, ShadowBuffer};
use crate::EpubError;

fn escape_xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

pub fn add_epub_chapter(
    cache: &EpubCache,
    file_path: &str,
    chapter_id: &str,
    title: &str,
    html_content: &str,
    after_id: Option<&str>,
    output_path: Option<&str>,
) -> Result<String, EpubError> {
    let source_path = Path::new(file_path);
    if !source_path.exists() {
        return Err(EpubError::FileNotFound(file_path.to_string()));
    }

    let entry = cache.get_or_extract(file_path)?;
    let oebps_dir = entry.opf_path.parent().unwrap();
    let extract_dir = entry.extract_dir.path();

    let opf = std::fs::read_to_string(&entry.opf_path)?;

    if opf.contains(&format!(" id=\"{}\"", chapter_id)) {
        return Err(EpubError::ParseError(format!(
            "Chapter id '{}' already exists in manifest",
            chapter_id
        )));
    }

    let filename = format!("{}.xhtml", chapter_id);
    let xhtml = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml">
<head><title>{}</title></head>
<body>
{}
</body>
</html>"#,
        escape_xml(title),
        html_content
    );

    let chapter_path = oebps_dir.join(&filename);
    std::fs::write(&chapter_path, &xhtml)?;

    let mut shadow = ShadowBuffer::new();
    shadow.backup(&entry.opf_path)?;

    let item = format!(
        r#"    <item id="{id}" href="{href}" media-type="application/xhtml+xml"/>"#,
        id = chapter_id,
        href = filename
    );

    let insert_after = after_id.map(|s| format!(" id=\"{}\"", s));
    let new_opf = if let Some(ref search) = insert_after {
        let lines: Vec<&str> = opf.lines().collect();
        let mut insert_pos: Option<usize> = None;
        let mut in_manifest = false;
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim();
            if trimmed.starts_with("<manifest") {
                in_manifest = true;
            } else if trimmed.starts_with("</manifest>") {
                break;
            } else if in_manifest && trimmed.starts_with("<item") && line.contains(search) {
                insert_pos = Some(i + 1);
            }
        }
        if let Some(pos) = insert_pos {
            let mut new_lines: Vec<String> = Vec::new();
            for (i, l) in lines.iter().enumerate() {
                new_lines.push(l.to_string());
                if i == pos - 1 {
                    new_lines.push(item.clone());
                }
            }
            new_lines.join("\n")
        } else {
            if let Some(pos) = opf.rfind("</manifest>") {
                format!("{}{}\n{}", &opf[..pos], item, &opf[pos..])
            } else {
                return Err(EpubError::ParseError("Cannot find </manifest>".to_string()));
            }
        }
    } else {
        if let Some(pos) = opf.rfind("</manifest>") {
            format!("{}{}\n{}", &opf[..pos], item, &opf[pos..])
        } else {
            return Err(EpubError::ParseError("Cannot find </manifest>".to_string()));
        }
    };

    std::fs::write(&entry.opf_path, &new_opf)?;

    let itemref = format!(r#"    <itemref idref="{id}"/>"#, id = chapter_id);
    let spine_opf = std::fs::read_to_string(&entry.opf_path)?;

    let insert_after_spine = after_id.map(|s| format!("idref=\"{}\"", s));
    let new_opf_with_spine = if let Some(ref search) = insert_after_spine {
        let lines: Vec<&str> = spine_opf.lines().collect();
        let mut insert_pos: Option<usize> = None;
        let mut in_spine = false;
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim();
            if trimmed.starts_with("<spine") {
                in_spine = true;
            } else if trimmed.starts_with("</spine>") {
                break;
            } else if in_spine && trimmed.starts_with("<itemref") && line.contains(search) {
                insert_pos = Some(i + 1);
            }
        }
        if let Some(pos) = insert_pos {
            let mut new_lines: Vec<String> = Vec::new();
            for (i, l) in lines.iter().enumerate() {
                new_lines.push(l.to_string());
                if i == pos - 1 {
                    new_lines.push(itemref.clone());
                }
            }
            new_lines.join("\n")
        } else {
            if let Some(pos) = spine_opf.rfind("</spine>") {
                format!("{}{}\n{}", &spine_opf[..pos], itemref, &spine_opf[pos..])
            } else {
                return Err(EpubError::ParseError("Cannot find </spine>".to_string()));
            }
        }
    } else {
        if let Some(pos) = spine_opf.rfind("</spine>") {
            format!("{}{}\n{}", &spine_opf[..pos], itemref, &spine_opf[pos..])
        } else {
            return Err(EpubError::ParseError("Cannot find </spine>".to_string()));
        }
    };

    std::fs::write(&entry.opf_path, &new_opf_with_spine)?;

    let opf_content = std::fs::read_to_string(&entry.opf_path)?;
    let mut modified: HashMap<String, String> = HashMap::new();
    modified.insert(entry.opf_path.to_string_lossy().to_string(), opf_content);

    if let Err(e) = validate::validate_all_modified(&shadow, &modified) {
        let _ = shadow.restore_all();
        std::fs::remove_file(&chapter_path).ok();
        return Err(e);
    }

    let spine = content::list_spine(&entry.opf_path)?;
    let play_order = spine
        .iter()
        .position(|(id, _, _)| id == chapter_id)
        .unwrap_or(0)
        + 1;

    let ncx_path = find_ncx(&entry.opf_path);
    let oebps_dir_b = entry.opf_path.parent().unwrap();
    if let Some(ref ncx_href) = ncx_path {
        let ncx_full = oebps_dir_b.join(ncx_href);
        if ncx_full.exists() {
            let ncx_content = std::fs::read_to_string(&ncx_full)?;
            let navpoint = format!(
                r#"    <navPoint id="{id}" playOrder="{order}">
      <navLabel>
        <text>{label}</text>
      </navLabel>
      <content src="{src}"/>
    </navPoint>
"#,
                id = chapter_id,
                order = play_order,
                label = escape_xml(title),
                src = filename
            );
            let new_ncx = if let Some(pos) = ncx_content.rfind("</navMap>") {
                format!(
                    "{}{}\n  {}",
                    &ncx_content[..pos],
                    navpoint,
                    &ncx_content[pos..]
                )
            } else {
                ncx_content
            };
            std::fs::write(&ncx_full, &new_ncx)?;
        }
    }

    let out_path = Path::new(output_path.unwrap_or(file_path));
    let file = std::fs::File::create(out_path)?;
    let mut zip = zip::ZipWriter::new(file);
    let options: zip::write::FileOptions<'_, ()> =
        zip::write::FileOptions::default().compression_method(zip::CompressionMethod::Deflated);

    let all_entries: Vec<_> = walkdir::WalkDir::new(extract_dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .collect();
    let extract_canonical =
        std::fs::canonicalize(extract_dir).unwrap_or_else(|_| extract_dir.to_path_buf());

    for e in &all_entries {
        let path = e.path();
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let relative = canonical
            .strip_prefix(&extract_canonical)
            .unwrap_or_else(|_| path.strip_prefix(extract_dir).unwrap());
        let name = relative.to_string_lossy().replace('\\', "/");
        let content = std::fs::read(path)?;
        zip.start_file(&name, options)?;
        std::io::copy(&mut std::io::Cursor::new(content), &mut zip)?;
    }
    zip.finish()?;

    cache.invalidate(file_path);
    Ok(out_path.to_string_lossy().to_string())
}

pub fn delete_epub_chapter(
    cache: &EpubCache,
    file_path: &str,
    chapter_id: &str,
    output_path: Option<&str>,
) -> Result<String, EpubError> {
    let source_path = Path::new(file_path);
    if !source_path.exists() {
        return Err(EpubError::FileNotFound(file_path.to_string()));
    }

    let entry = cache.get_or_extract(file_path)?;
    let oebps_dir = entry.opf_path.parent().unwrap();
    let extract_dir = entry.extract_dir.path();

    let opf = std::fs::read_to_string(&entry.opf_path)?;

    let search_id = format!(" id=\"{}\"", chapter_id);
    if !opf.contains(&search_id) {
        return Err(EpubError::ParseError(format!(
            "Chapter '{}' not found in manifest",
            chapter_id
        )));
    }

    let filename = format!("{}.xhtml", chapter_id);
    let chapter_file = oebps_dir.join(&filename);

    let mut href = String::new();
    {
        let mut reader = quick_xml::Reader::from_str(&opf);
        let mut in_manifest = false;
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Start(ref e))
                | Ok(quick_xml::events::Event::Empty(ref e)) => {
                    let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                    if tag == "manifest" {
                        in_manifest = true;
                    } else if tag == "item" && in_manifest {
                        let mut id = String::new();
                        let mut h = String::new();
                        for attr in e.attributes().flatten() {
                            let name = String::from_utf8_lossy(attr.key.as_ref()).to_string();
                            let val = String::from_utf8_lossy(attr.value.as_ref()).to_string();
                            if name == "id" {
                                id = val;
                            } else if name == "href" {
                                h = val;
                            }
                        }
                        if id == chapter_id {
                            href = h;
                            break;
                        }
                    }
                }
                Ok(quick_xml::events::Event::End(ref e)) => {
                    if String::from_utf8_lossy(e.name().as_ref()) == "manifest" {
                        break;
                    }
                }
                Ok(quick_xml::events::Event::Eof) => break,
                Err(_) => break,
                _ => {}
            }
        }
    }

    let mut shadow = ShadowBuffer::new();
    shadow.backup(&entry.opf_path)?;

    let id_pattern = format!(" id=\"{}\"", chapter_id);
    let idref_pattern = format!("idref=\"{}\"", chapter_id);

    let lines: Vec<&str> = opf.lines().collect();
    let mut new_lines: Vec<String> = Vec::new();
    let mut in_manifest = false;
    let mut in_spine = false;

    for line in &lines {
        let trimmed = line.trim();
        if trimmed.starts_with("<manifest") {
            in_manifest = true;
        } else if trimmed.starts_with("</manifest>") {
            in_manifest = false;
        } else if trimmed.starts_with("<spine") {
            in_spine = true;
        } else if trimmed.starts_with("</spine>") {
            in_spine = false;
        }

        let skip = (in_manifest && trimmed.starts_with("<item") && line.contains(&id_pattern))
            || (in_spine && trimmed.starts_with("<itemref") && line.contains(&idref_pattern));

        if !skip {
            new_lines.push(line.to_string());
        }
    }

    let new_opf = new_lines.join("\n");
    std::fs::write(&entry.opf_path, &new_opf)?;

    let ncx_path = find_ncx(&entry.opf_path);
    let oebps_dir_b = entry.opf_path.parent().unwrap();

    if let Some(ref ncx_href) = ncx_path {
        let ncx_full = oebps_dir_b.join(ncx_href);
        if ncx_full.exists() {
            shadow.backup(&ncx_full)?;
            let ncx_content = std::fs::read_to_string(&ncx_full)?;
            let cleaned_ncx = remove_navpoint_block(&ncx_content, chapter_id);
            if cleaned_ncx != ncx_content {
                std::fs::write(&ncx_full, &cleaned_ncx)?;
            }
        }
    }

    std::fs::remove_file(&chapter_file).ok();
    if !href.is_empty() && href != filename {
        let extra_file = oebps_dir.join(&href);
        std::fs::remove_file(&extra_file).ok();
    }

    let final_opf = std::fs::read_to_string(&entry.opf_path)?;
    let mut modified: HashMap<String, String> = HashMap::new();
    modified.insert(entry.opf_path.to_string_lossy().to_string(), final_opf);

    if let Err(e) = validate::validate_all_modified(&shadow, &modified) {
        let _ = shadow.restore_all();
        return Err(e);
    }

    let out_path = Path::new(output_path.unwrap_or(file_path));
    let file = std::fs::File::create(out_path)?;
    let mut zip = zip::ZipWriter::new(file);
    let options: zip::write::FileOptions<'_, ()> =
        zip::write::FileOptions::default().compression_method(zip::CompressionMethod::Deflated);

    let all_entries: Vec<_> = walkdir::WalkDir::new(extract_dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .collect();
    let extract_canonical =
        std::fs::canonicalize(extract_dir).unwrap_or_else(|_| extract_dir.to_path_buf());

    for e in &all_entries {
        let path = e.path();
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let relative = canonical
            .strip_prefix(&extract_canonical)
            .unwrap_or_else(|_| path.strip_prefix(extract_dir).unwrap());
        let name = relative.to_string_lossy().replace('\\', "/");
        let content = std::fs::read(path)?;
        zip.start_file(&name, options)?;
        std::io::copy(&mut std::io::Cursor::new(content), &mut zip)?;
    }
    zip.finish()?;

    cache.invalidate(file_path);
    Ok(out_path.to_string_lossy().to_string())
}

fn find_ncx(opf_path: &Path) -> Option<String> {
    let opf = std::fs::read_to_string(opf_path).ok()?;
    let mut reader = quick_xml::Reader::from_str(&opf);
    let mut ncx_id = None;
    let mut manifest_items: Vec<(String, String)> = Vec::new();
    let mut in_manifest = false;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(ref e))
            | Ok(quick_xml::events::Event::Empty(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "manifest" => in_manifest = true,
                    "spine" => {
                        for attr in e.attributes().flatten() {
                            if attr.key.as_ref() == b"toc" {
                                ncx_id =
                                    Some(String::from_utf8_lossy(attr.value.as_ref()).to_string());
                            }
                        }
                    }
                    "item" if in_manifest => {
                        let mut id = String::new();
                        let mut href = String::new();
                        for attr in e.attributes().flatten() {
                            let name = String::from_utf8_lossy(attr.key.as_ref()).to_string();
                            let val = String::from_utf8_lossy(attr.value.as_ref()).to_string();
                            if name == "id" {
                                id = val;
                            } else if name == "href" {
                                href = val;
                            }
                        }
                        manifest_items.push((id, href));
                    }
                    _ => {}
                }
            }
            Ok(quick_xml::events::Event::End(ref e)) => {
                if String::from_utf8_lossy(e.name().as_ref()) == "manifest" {
                    break;
                }
            }
            Ok(quick_xml::events::Event::Eof) => break,
            Err(_) => break,
            _ => {}
        }
    }
    if let Some(ref nid) = ncx_id {
        for (item_id, href) in &manifest_items {
            if item_id == nid {
                return Some(href.clone());
            }
        }
    }
    for (_, href) in &manifest_items {
        if href.ends_with(".ncx") {
            return Some(href.clone());
        }
    }
    None
}

fn remove_navpoint_block(ncx: &str, chapter_id: &str) -> String {
    let mut result = String::new();
    let mut skip = false;
    let mut skip_depth = 0;
    let search = format!("id=\"{}\"", chapter_id);

    for line in ncx.lines() {
        let trimmed = line.trim();
        if !skip {
            if trimmed.contains("<navPoint") && line.contains(&search) {
                skip = true;
                skip_depth = 1;
                continue;
            }
            result.push_str(line);
            result.push('\n');
        } else {
            if trimmed.contains("<navPoint") && !trimmed.contains("</navPoint>") {
                skip_depth += 1;
            }
            if trimmed.contains("</navPoint>") {
                skip_depth -= 1;
                if skip_depth == 0 {
                    skip = false;
                }
            }
        }
    }

    result
}
