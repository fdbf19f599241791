use std::path::Path;

use crate::epub::types::{CreateEpubInput, FixedLayoutProperties, SpinePropertyOverride};
use crate::EpubError;

pub fn create_epub(input: &CreateEpubInput) -> Result<String, EpubError> {
    let output_path = Path::new(&input.output_path);

    if let Some(parent) = output_path.parent() {
        if !parent.exists() {
            std::fs::create_dir_all(parent)?;
        }
    }

    let tmp_dir = tempfile::tempdir()?;
    let oebps_dir = tmp_dir.path().join("OEBPS");
    let meta_inf_dir = tmp_dir.path().join("META-INF");
    let styles_dir = oebps_dir.join("styles");
    let images_dir = oebps_dir.join("images");

    std::fs::create_dir_all(&meta_inf_dir)?;
    std::fs::create_dir_all(&oebps_dir)?;
    std::fs::create_dir_all(&styles_dir)?;
    std::fs::create_dir_all(&images_dir)?;

    write_container_xml(&meta_inf_dir)?;

    let epub_version = input.epub_version.as_deref().unwrap_or("2.0");
    let is_fixed = input
        .fixed_layout
        .as_ref()
        .is_some_and(|fl| fl.rendition_layout.as_deref() == Some("pre-paginated"));
    let chapter_files = write_chapters(&oebps_dir, &input.chapters, is_fixed)?;

    let cover_image_href: Option<String> = if let Some(ref cover_path) = input.cover_image_path {
        let cover_path = Path::new(cover_path);
        if cover_path.exists() {
            let ext = cover_path
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("jpg");
            let cover_filename = format!("cover.{}", ext);
            let dest = images_dir.join(&cover_filename);
            std::fs::copy(cover_path, &dest)?;
            Some(format!("images/{}", cover_filename))
        } else {
            return Err(EpubError::FileNotFound(
                cover_path.to_string_lossy().to_string(),
            ));
        }
    } else {
        None
    };

    let stylesheet_href: Option<String> = if input.stylesheet_content.is_some() {
        Some("styles/main.css".to_string())
    } else {
        None
    };

    if let Some(ref css) = input.stylesheet_content {
        std::fs::write(styles_dir.join("main.css"), css)?;
    }

    write_content_opf(
        &oebps_dir,
        &input.title,
        input.creator.as_deref(),
        input.publisher.as_deref(),
        input.language.as_deref().unwrap_or("en"),
        input.identifier.as_deref(),
        input.date.as_deref(),
        input.rights.as_deref(),
        input.description.as_deref(),
        input.subjects.as_ref(),
        &chapter_files,
        cover_image_href.as_deref(),
        stylesheet_href.as_deref(),
        &input.chapters,
        epub_version,
        input.fixed_layout.as_ref(),
        input.spine_properties.as_ref(),
    )?;

    write_toc_ncx(&oebps_dir, &input.title, &input.chapters)?;

    repack_epub(tmp_dir.path(), &input.output_path)?;

    Ok(input.output_path.clone())
}

fn write_container_xml(meta_inf_dir: &Path) -> Result<(), EpubError> {
    let container = r#"<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>"#;
    std::fs::write(meta_inf_dir.join("container.xml"), container)?;
    Ok(())
}

fn write_chapters(
    oebps_dir: &Path,
    chapters: &[crate::epub::types::ChapterInput],
    is_fixed_layout: bool,
) -> Result<Vec<(String, String)>, EpubError> {
    let viewport_meta = if is_fixed_layout {
        r#"
  <meta name="viewport" content="width=1200, height=1600" />"#
    } else {
        ""
    };

    let mut files = Vec::new();
    for (i, ch) in chapters.iter().enumerate() {
        let filename = format!("chapter{}.xhtml", i + 1);
        let xhtml = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head>
  <title>{title}</title>
  {viewport}
</head>
<body>
{content}
</body>
</html>"#,
            title = ch.title,
            content = ch.html_content,
            viewport = viewport_meta
        );
        std::fs::write(oebps_dir.join(&filename), xhtml)?;
        files.push((ch.id.clone(), filename));
    }
    Ok(files)
}

#[allow(clippy::too_many_arguments)]
fn write_content_opf(
    oebps_dir: &Path,
    title: &str,
    creator: Option<&str>,
    publisher: Option<&str>,
    language: &str,
    identifier: Option<&str>,
    date: Option<&str>,
    rights: Option<&str>,
    description: Option<&str>,
    subjects: Option<&Vec<String>>,
    chapter_files: &[(String, String)],
    cover_image_href: Option<&str>,
    stylesheet_href: Option<&str>,
    chapters: &[crate::epub::types::ChapterInput],
    epub_version: &str,
    fixed_layout: Option<&FixedLayoutProperties>,
    spine_properties: Option<&Vec<SpinePropertyOverride>>,
) -> Result<(), EpubError> {
    let default_id = format!("urn:uuid:{}", uuid_v4());
    let id = identifier.unwrap_or(&default_id);

    let mut manifest_items = String::new();
    let mut spine_refs = String::new();
    let mut guide_refs = String::new();

    if let Some(cover_href) = cover_image_href {
        manifest_items.push_str(&format!(
            r#"    <item id="cover-image" href="{href}" media-type="{mime}" properties="cover-image"/>
"#,
            href = cover_href,
            mime = mime_for_path(cover_href)
        ));
        guide_refs.push_str(&format!(
            r#"    <reference type="cover" title="Cover" href="{href}"/>
"#,
            href = cover_href
        ));
    }

    if let Some(ss_href) = stylesheet_href {
        manifest_items.push_str(&format!(
            r#"    <item id="stylesheet" href="{href}" media-type="text/css"/>
"#,
            href = ss_href
        ));
    }

    for (i, (ch_id, filename)) in chapter_files.iter().enumerate() {
        let _ch = &chapters[i];
        manifest_items.push_str(&format!(
            r#"    <item id="{id}" href="{href}" media-type="application/xhtml+xml"/>
"#,
            id = ch_id,
            href = filename
        ));

        // Look up spine properties override for this chapter
        let itemref_props = spine_properties
            .and_then(|props| props.iter().find(|o| o.idref == *ch_id))
            .and_then(|o| o.properties.as_ref())
            .map(|p| p.join(" "))
            .unwrap_or_default();

        spine_refs.push_str(&format!(
            r#"    <itemref idref="{id}"{props}/>
"#,
            id = ch_id,
            props = if itemref_props.is_empty() {
                String::new()
            } else {
                format!(" properties=\"{}\"", itemref_props)
            }
        ));
    }

    let subjects_xml = subjects
        .map(|subs| {
            subs.iter()
                .map(|s| format!(r#"    <dc:subject>{}</dc:subject>"#, escape_xml(s)))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();

    // Build rendition metadata for fixed-layout
    let rendition_metas = build_rendition_metas(fixed_layout);

    let is_epub3 = epub_version == "3.0";
    let package_attrs = if is_epub3 {
        r#"xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="BookId""#
    } else {
        r#"xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="BookId""#
    };

    let opf = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<package {package_attrs}>
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
    <dc:identifier id="BookId">{id}</dc:identifier>
    <dc:title>{title}</dc:title>
    <dc:language>{lang}</dc:language>
    {creator_line}
    {publisher_line}
    {date_line}
    {rights_line}
    {description_line}
{rendition_metas}
{subjects}
  </metadata>
  <manifest>
{manifest}
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
  </manifest>
  <spine toc="ncx">
{spine}
  </spine>
  <guide>
{guide}
  </guide>
</package>"#,
        package_attrs = package_attrs,
        id = escape_xml(id),
        title = escape_xml(title),
        lang = language,
        creator_line = creator.map_or(String::new(), |c| format!(
            r#"    <dc:creator opf:role="aut">{}</dc:creator>"#,
            escape_xml(c)
        )),
        publisher_line = publisher.map_or(String::new(), |p| format!(
            r#"    <dc:publisher>{}</dc:publisher>"#,
            escape_xml(p)
        )),
        date_line = date.map_or(String::new(), |d| format!(
            r#"    <dc:date>{}</dc:date>"#,
            escape_xml(d)
        )),
        rights_line = rights.map_or(String::new(), |r| format!(
            r#"    <dc:rights>{}</dc:rights>"#,
            escape_xml(r)
        )),
        description_line = description.map_or(String::new(), |d| format!(
            r#"    <dc:description>{}</dc:description>"#,
            escape_xml(d)
        )),
        rendition_metas = rendition_metas,
        subjects = subjects_xml,
        manifest = manifest_items,
        spine = spine_refs,
        guide = guide_refs,
    );

    std::fs::write(oebps_dir.join("content.opf"), opf)?;
    Ok(())
}

fn build_rendition_metas(fixed_layout: Option<&FixedLayoutProperties>) -> String {
    let fl = match fixed_layout {
        Some(fl) => fl,
        None => return String::new(),
    };

    let mut xml = String::new();
    if let Some(ref layout) = fl.rendition_layout {
        xml.push_str(&format!(
            r#"    <meta property="rendition:layout">{}</meta>
"#,
            escape_xml(layout)
        ));
    }
    if let Some(ref orientation) = fl.rendition_orientation {
        xml.push_str(&format!(
            r#"    <meta property="rendition:orientation">{}</meta>
"#,
            escape_xml(orientation)
        ));
    }
    if let Some(ref spread) = fl.rendition_spread {
        xml.push_str(&format!(
            r#"    <meta property="rendition:spread">{}</meta>
"#,
            escape_xml(spread)
        ));
    }
    xml
}

fn write_toc_ncx(
    oebps_dir: &Path,
    title: &str,
    chapters: &[crate::epub::types::ChapterInput],
) -> Result<(), EpubError> {
    let mut nav_points = String::new();
    for (i, ch) in chapters.iter().enumerate() {
        let play_order = i + 1;
        let filename = format!("chapter{}.xhtml", play_order);
        nav_points.push_str(&format!(
            r#"    <navPoint id="{id}" playOrder="{order}">
      <navLabel>
        <text>{label}</text>
      </navLabel>
      <content src="{src}"/>
    </navPoint>
"#,
            id = ch.id,
            order = play_order,
            label = escape_xml(&ch.title),
            src = filename
        ));
    }

    let ncx = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd">
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
  <head>
    <meta name="dtb:uid" content="{}"/>
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
        uuid_v4(),
        escape_xml(title),
        nav_points
    );

    std::fs::write(oebps_dir.join("toc.ncx"), ncx)?;
    Ok(())
}

fn repack_epub(extract_dir: &Path, output_path: &str) -> Result<(), EpubError> {
    let file = std::fs::File::create(output_path)?;
    let mut zip = zip::ZipWriter::new(file);

    let options: zip::write::FileOptions<'_, ()> =
        zip::write::FileOptions::default().compression_method(zip::CompressionMethod::Deflated);

    let entries = walkdir::WalkDir::new(extract_dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .collect::<Vec<_>>();

    let extract_dir_canonical =
        std::fs::canonicalize(extract_dir).unwrap_or_else(|_| extract_dir.to_path_buf());

    for entry in &entries {
        let path = entry.path();
        let canonical_file = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let relative = canonical_file
            .strip_prefix(&extract_dir_canonical)
            .unwrap_or_else(|_| path.strip_prefix(extract_dir).unwrap());
        let name = relative.to_string_lossy().replace('\\', "/");
        let content = std::fs::read(path)?;
        zip.start_file(&name, options)?;
        std::io::copy(&mut std::io::Cursor::new(content), &mut zip)?;
    }

    zip.finish()?;
    Ok(())
}

fn uuid_v4() -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let nanos = now.as_nanos();
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        (nanos >> 32) as u32,
        (nanos >> 16) as u16,
        (nanos & 0xfff) as u16,
        ((nanos >> 48) as u16 & 0x3fff) | 0x8000,
        (nanos >> 8) as u64 & 0xffffffffffff
    )
}

fn mime_for_path(path: &str) -> &str {
    let lower = path.to_lowercase();
    if lower.ends_with(".jpg") || lower.ends_with(".jpeg") {
        "image/jpeg"
    } else if lower.ends_with(".png") {
        "image/png"
    } else if lower.ends_with(".gif") {
        "image/gif"
    } else if lower.ends_with(".svg") {
        "image/svg+xml"
    } else {
        "application/octet-stream"
    }
}

fn escape_xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}
