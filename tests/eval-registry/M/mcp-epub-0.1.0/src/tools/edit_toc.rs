use std::collections::HashMap;
use std::path::Path;

use crate::cache::EpubCache;
use crate::epub::types::TocEntry;
use crate::epub::validate::{self, ShadowBuffer};
use crate::EpubError;

pub fn edit_epub_toc(
    cache: &EpubCache,
    file_path: &str,
    entries: &[TocEntry],
    output_path: Option<&str>,
) -> Result<String, EpubError> {
    let source_path = Path::new(file_path);
    if !source_path.exists() {
        return Err(EpubError::FileNotFound(file_path.to_string()));
    }

    let entry = cache.get_or_extract(file_path)?;
    let oebps_dir = entry.opf_path.parent().unwrap();
    let extract_dir = entry.extract_dir.path();

    let opf_dir = oebps_dir;
    let opf_xml = std::fs::read_to_string(&entry.opf_path)?;

    let mut ncx_href: Option<String> = None;
    let mut in_manifest = false;
    let mut reader = quick_xml::Reader::from_str(&opf_xml);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(ref e))
            | Ok(quick_xml::events::Event::Empty(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "manifest" => in_manifest = true,
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
                        if !id.is_empty() && mime == "application/x-dtbncx+xml" {
                            ncx_href = Some(href);
                        }
                    }
                    _ => {}
                }
            }
            Ok(quick_xml::events::Event::End(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "manifest" {
                    break;
                }
            }
            Ok(quick_xml::events::Event::Eof) => break,
            Err(_) => break,
            _ => {}
        }
    }

    if let Some(ref ncx_href) = ncx_href {
        let ncx_path = opf_dir.join(ncx_href);
        if ncx_path.exists() {
            let mut shadow = ShadowBuffer::new();
            shadow.backup(&ncx_path)?;

            let opf_xml_full = std::fs::read_to_string(&entry.opf_path)?;
            let mut title = String::new();
            let mut reader2 = quick_xml::Reader::from_str(&opf_xml_full);
            loop {
                match reader2.read_event() {
                    Ok(quick_xml::events::Event::Start(ref e)) => {
                        let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                        if tag == "dc:title" {
                            if let Ok(quick_xml::events::Event::Text(ref t)) = reader2.read_event()
                            {
                                title = t.unescape().unwrap_or_default().to_string();
                            }
                        }
                    }
                    Ok(quick_xml::events::Event::Eof) => break,
                    _ => {}
                }
            }
            if title.is_empty() {
                title = "Untitled".to_string();
            }

            let mut nav_points = String::new();
            for (i, entry) in entries.iter().enumerate() {
                nav_points.push_str(&format!(
                    r#"    <navPoint id="{id}" playOrder="{order}">
      <navLabel>
        <text>{label}</text>
      </navLabel>
      <content src="{src}"/>
    </navPoint>
"#,
                    id = entry
                        .id
                        .as_deref()
                        .unwrap_or(&format!("navpoint-{}", i + 1)),
                    order = entry.play_order,
                    label = entry.label,
                    src = entry.href
                ));
            }

            let ncx = format!(
                r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd">
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
  <head>
    <meta name="dtb:uid" content="edit-toc-uuid"/>
    <meta name="dtb:depth" content="1"/>
    <meta name="dtb:totalPageCount" content="0"/>
    <meta name="dtb:maxPageNumber" content="0"/>
  </head>
  <docTitle>
    <text>{}</text>
  </docTitle>
  <navMap>
{}
  </navMap>
</ncx>"#,
                title, nav_points
            );

            std::fs::write(&ncx_path, &ncx)?;

            let mut modified: HashMap<String, String> = HashMap::new();
            modified.insert(ncx_path.to_string_lossy().to_string(), ncx);

            if let Err(e) = validate::validate_all_modified(&shadow, &modified) {
                let _ = shadow.restore_all();
                return Err(e);
            }
        }
    }

    let out_path = Path::new(output_path.unwrap_or(file_path));
    let file = std::fs::File::create(out_path)?;
    let mut zip = zip::ZipWriter::new(file);
    let options: zip::write::FileOptions<'_, ()> =
        zip::write::FileOptions::default().compression_method(zip::CompressionMethod::Deflated);

    let entries_iter: Vec<_> = walkdir::WalkDir::new(extract_dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .collect();
    let extract_canonical =
        std::fs::canonicalize(extract_dir).unwrap_or_else(|_| extract_dir.to_path_buf());

    for e in &entries_iter {
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
