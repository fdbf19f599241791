use std::collections::HashSet;
use std::path::Path;

use quick_xml::events::Event;
use quick_xml::Reader;

use crate::cache::EpubCache;
use crate::EpubError;

pub fn validate_epub_file(
    cache: &EpubCache,
    file_path: &str,
) -> Result<serde_json::Value, EpubError> {
    let source_path = Path::new(file_path);
    if !source_path.exists() {
        return Err(EpubError::FileNotFound(file_path.to_string()));
    }

    let entry = cache.get_or_extract(file_path)?;
    let oebps_dir = entry.opf_path.parent().unwrap();
    let opf_xml = std::fs::read_to_string(&entry.opf_path)?;

    let mut issues: Vec<serde_json::Value> = Vec::new();
    let mut warnings: Vec<serde_json::Value> = Vec::new();
    let mut passed = 0u32;
    let mut failed = 0u32;

    let container_xml = entry
        .extract_dir
        .path()
        .join("META-INF")
        .join("container.xml");
    if !container_xml.exists() {
        issues.push(serde_json::json!({
            "severity": "error",
            "check": "META-INF/container.xml",
            "message": "META-INF/container.xml is missing"
        }));
        failed += 1;
    } else {
        passed += 1;
    }

    let opf_check = {
        let mut r = Reader::from_str(&opf_xml);
        let mut ok = false;
        loop {
            match r.read_event() {
                Ok(Event::Start(ref e)) | Ok(Event::Empty(ref e)) => {
                    if e.name().as_ref() == b"package" {
                        ok = true;
                    }
                }
                Ok(Event::Eof) => break,
                Err(e) => {
                    issues.push(serde_json::json!({
                        "severity": "error",
                        "check": "OPF well-formedness",
                        "message": format!("XML parse error: {}", e)
                    }));
                    failed += 1;
                    ok = false;
                    break;
                }
                _ => {}
            }
        }
        if ok {
            passed += 1;
        } else if failed == 0 {
            issues.push(serde_json::json!({
                "severity": "error",
                "check": "OPF well-formedness",
                "message": "OPF file is not well-formed XML or missing <package> element"
            }));
            failed += 1;
        }
        ok
    };
    if !opf_check {
        issues.push(serde_json::json!({
            "severity": "warning",
            "check": "META-INF/container.xml",
            "message": "Could not verify mimetype file (not stored uncompressed)"
        }));
        warnings.push(serde_json::json!({
            "severity": "warning",
            "check": "OPF manifest",
            "message": "OPF is invalid, skipping further checks"
        }));
        return Ok(serde_json::json!({
            "valid": false,
            "total_checks": passed + failed,
            "passed": passed,
            "failed": failed,
            "issues": issues,
            "warnings": warnings
        }));
    }

    let mut manifest_ids: HashSet<String> = HashSet::new();
    let mut manifest_hrefs: HashSet<String> = HashSet::new();
    let mut manifest_items: Vec<(String, String, String)> = Vec::new();
    let mut spine_ids: Vec<String> = Vec::new();
    let mut in_manifest = false;
    let mut in_spine = false;

    let mut reader = Reader::from_str(&opf_xml);
    loop {
        match reader.read_event() {
            Ok(Event::Start(ref e)) | Ok(Event::Empty(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "manifest" => in_manifest = true,
                    "spine" => in_spine = true,
                    "item" if in_manifest => {
                        let mut id = String::new();
                        let mut href = String::new();
                        let mut mime = String::new();
                        for attr in e.attributes().flatten() {
                            let name = String::from_utf8_lossy(attr.key.as_ref()).to_string();
                            let val = String::from_utf8_lossy(attr.value.as_ref()).to_string();
                            match name.as_str() {
                                "id" => id = val,
                                "href" => href = val,
                                "media-type" => mime = val,
                                _ => {}
                            }
                        }
                        if !id.is_empty() {
                            if !manifest_ids.insert(id.clone()) {
                                issues.push(serde_json::json!({
                                    "severity": "error",
                                    "check": "Duplicate manifest ID",
                                    "message": format!("Duplicate manifest id '{}'", id)
                                }));
                                failed += 1;
                            }
                            manifest_items.push((id.clone(), href.clone(), mime.clone()));
                            if !href.is_empty() {
                                manifest_hrefs.insert(href);
                            }
                        }
                    }
                    "itemref" if in_spine => {
                        for attr in e.attributes().flatten() {
                            if attr.key.as_ref() == b"idref" {
                                spine_ids
                                    .push(String::from_utf8_lossy(attr.value.as_ref()).to_string());
                            }
                        }
                    }
                    _ => {}
                }
            }
            Ok(Event::End(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "manifest" => in_manifest = false,
                    "spine" => in_spine = false,
                    _ => {}
                }
            }
            Ok(Event::Eof) => break,
            Err(_) => break,
            _ => {}
        }
    }

    let nc_exists = manifest_items
        .iter()
        .any(|(_, _, m)| m == "application/x-dtbncx+xml");
    if !nc_exists {
        warnings.push(serde_json::json!({
            "severity": "warning",
            "check": "NCX",
            "message": "No NCX file found in manifest (EPUB 2 requirement)"
        }));
    }

    for (id, href, _) in &manifest_items {
        if !spine_ids.contains(id) && (href.ends_with(".xhtml") || href.ends_with(".html")) {
            warnings.push(serde_json::json!({
                "severity": "warning",
                "check": "XHTML not in spine",
                "message": format!("XHTML resource '{}' ({}) is not in the spine", id, href)
            }));
        }
    }

    for sid in &spine_ids {
        if !manifest_ids.contains(sid) {
            issues.push(serde_json::json!({
                "severity": "error",
                "check": "Spine integrity",
                "message": format!("Spine references '{}' but it is not in the manifest", sid)
            }));
            failed += 1;
        }
    }

    if spine_ids.is_empty() {
        issues.push(serde_json::json!({
            "severity": "error",
            "check": "Spine",
            "message": "Spine is empty — no reading order defined"
        }));
        failed += 1;
    } else {
        passed += 1;
    }

    for (_, href, _) in &manifest_items {
        let file_path = oebps_dir.join(href);
        if !file_path.exists() {
            issues.push(serde_json::json!({
                "severity": "error",
                "check": "Manifest file existence",
                "message": format!("Manifest references '{}' but file does not exist", href)
            }));
            failed += 1;
        } else {
            passed += 1;
        }
    }

    if manifest_ids.is_empty() {
        issues.push(serde_json::json!({
            "severity": "error",
            "check": "Manifest",
            "message": "Manifest is empty — no resources declared"
        }));
        failed += 1;
    } else {
        passed += 1;
    }

    let valid = failed == 0;
    Ok(serde_json::json!({
        "valid": valid,
        "total_checks": passed + failed,
        "passed": passed,
        "failed": failed,
        "issues": issues,
        "warnings": warnings
    }))
}
