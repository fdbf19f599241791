use std::path::Path;

use quick_xml::events::Event;
use quick_xml::Reader;

use crate::epub::types::TocEntry;
use crate::EpubError;

pub fn parse_toc<P: AsRef<Path>>(_extract_dir: P, opf_path: P) -> Result<Vec<TocEntry>, EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_dir = opf_path.parent().unwrap_or(Path::new(""));

    let ncx_path = find_ncx_path(opf_path)?;

    if let Some(ncx_path) = ncx_path {
        let ncx_full_path = opf_dir.join(&ncx_path);
        if ncx_full_path.exists() {
            return parse_ncx(&ncx_full_path);
        }
    }

    let nav_path = find_nav_path(opf_path);
    if let Some(nav_path) = nav_path {
        let nav_full_path = opf_dir.join(&nav_path);
        if nav_full_path.exists() {
            return parse_nav_xhtml(&nav_full_path);
        }
    }

    Err(EpubError::TocNotFound)
}

fn find_ncx_path(opf_path: &Path) -> Result<Option<String>, EpubError> {
    let opf_xml = std::fs::read_to_string(opf_path)?;
    let mut reader = Reader::from_str(&opf_xml);

    let mut in_manifest = false;
    let mut ncx_id_ref: Option<String> = None;
    let mut manifest_items: Vec<(String, String, String)> = Vec::new();

    loop {
        match reader.read_event() {
            Ok(Event::Start(ref e)) | Ok(Event::Empty(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "manifest" => in_manifest = true,
                    "spine" => {
                        for a in e.attributes().flatten() {
                            if a.key.as_ref() == b"toc" {
                                ncx_id_ref =
                                    Some(String::from_utf8_lossy(a.value.as_ref()).to_string());
                            }
                        }
                    }
                    "item" if in_manifest => {
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
                        if !id.is_empty() && !href.is_empty() {
                            manifest_items.push((id, href, media_type));
                        }
                    }
                    _ => {}
                }
            }
            Ok(Event::End(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "manifest" => in_manifest = false,
                    "spine" => break,
                    _ => {}
                }
            }
            Ok(Event::Eof) => break,
            Err(_) => break,
            _ => {}
        }
    }

    if let Some(ref ncx_id) = ncx_id_ref {
        for (id, href, media_type) in &manifest_items {
            if id == ncx_id && media_type == "application/x-dtbncx+xml" {
                return Ok(Some(href.clone()));
            }
        }
    }

    Ok(None)
}

fn find_nav_path(opf_path: &Path) -> Option<String> {
    let opf_xml = std::fs::read_to_string(opf_path).ok()?;
    let mut reader = Reader::from_str(&opf_xml);

    let mut in_manifest = false;

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
                    let mut properties = String::new();
                    for a in e.attributes().flatten() {
                        let name = String::from_utf8_lossy(a.key.as_ref()).to_string();
                        let val = String::from_utf8_lossy(a.value.as_ref()).to_string();
                        match name.as_str() {
                            "id" => id = val,
                            "href" => href = val,
                            "media-type" => media_type = val,
                            "properties" => properties = val,
                            _ => {}
                        }
                    }
                    if media_type == "application/xhtml+xml"
                        && (id == "nav" || href.contains("nav") || properties.contains("nav"))
                    {
                        return Some(href);
                    }
                }
            }
            Ok(Event::End(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "manifest" {
                    break;
                }
            }
            Ok(Event::Eof) => break,
            Err(_) => break,
            _ => {}
        }
    }

    None
}

fn parse_ncx(path: &Path) -> Result<Vec<TocEntry>, EpubError> {
    let xml = std::fs::read_to_string(path)?;
    let mut reader = Reader::from_str(&xml);

    let mut result: Vec<TocEntry> = Vec::new();
    let mut siblings_stack: Vec<Vec<TocEntry>> = Vec::new();
    let mut meta_stack: Vec<(String, String, String, usize)> = Vec::new();
    let mut current_siblings: Vec<TocEntry> = Vec::new();
    let mut label = String::new();
    let mut href = String::new();
    let mut nav_id = String::new();
    let mut play_order = 0;
    let mut in_label = false;
    let mut in_text = false;

    loop {
        match reader.read_event() {
            Ok(Event::Start(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "navPoint" => {
                        siblings_stack.push(std::mem::take(&mut current_siblings));
                        meta_stack.push((label.clone(), href.clone(), nav_id.clone(), play_order));
                        label.clear();
                        href.clear();
                        nav_id.clear();
                        play_order = 0;
                        for a in e.attributes().flatten() {
                            if a.key.as_ref() == b"id" {
                                nav_id = String::from_utf8_lossy(a.value.as_ref()).to_string();
                            }
                            if a.key.as_ref() == b"playOrder" {
                                play_order = String::from_utf8_lossy(a.value.as_ref())
                                    .parse()
                                    .unwrap_or(0);
                            }
                        }
                    }
                    "navLabel" => in_label = true,
                    "text" if in_label => in_text = true,
                    _ => {}
                }
            }
            Ok(Event::Empty(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "content" {
                    for a in e.attributes().flatten() {
                        if a.key.as_ref() == b"src" {
                            href = String::from_utf8_lossy(a.value.as_ref()).to_string();
                        }
                    }
                }
            }
            Ok(Event::Text(ref e)) => {
                if in_text {
                    label = e.unescape().unwrap_or_default().to_string();
                }
            }
            Ok(Event::End(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "navPoint" => {
                        let children = std::mem::take(&mut current_siblings);
                        let entry = TocEntry {
                            label: label.clone(),
                            href: href.clone(),
                            play_order,
                            id: if nav_id.is_empty() {
                                None
                            } else {
                                Some(nav_id.clone())
                            },
                            children,
                        };

                        if let Some(parent_siblings) = siblings_stack.pop() {
                            current_siblings = parent_siblings;
                            current_siblings.push(entry);
                            if let Some((l, h, id, po)) = meta_stack.pop() {
                                label = l;
                                href = h;
                                nav_id = id;
                                play_order = po;
                            }
                        } else {
                            result.push(entry);
                            label.clear();
                            href.clear();
                            nav_id.clear();
                            play_order = 0;
                        }
                    }
                    "navLabel" => in_label = false,
                    "text" => in_text = false,
                    _ => {}
                }
            }
            Ok(Event::Eof) => {
                result.extend(std::mem::take(&mut current_siblings));
                break;
            }
            Err(e) => {
                return Err(EpubError::ParseError(format!("Failed to parse NCX: {}", e)));
            }
            _ => {}
        }
    }

    Ok(result)
}

fn parse_nav_xhtml(path: &Path) -> Result<Vec<TocEntry>, EpubError> {
    let xml = std::fs::read_to_string(path)?;
    let doc = scraper::Html::parse_document(&xml);

    let nav_sel = scraper::Selector::parse("nav[epub\\:type='toc'], nav#toc, nav").unwrap();
    let link_sel = scraper::Selector::parse("a").unwrap();
    let list_sel = scraper::Selector::parse("ol, ul").unwrap();

    let mut entries = Vec::new();

    if let Some(nav) = doc.select(&nav_sel).next() {
        if let Some(list) = nav.select(&list_sel).next() {
            parse_nav_li_children(&list, &link_sel, &list_sel, &mut entries);
        }
    }

    Ok(entries)
}

fn parse_nav_li_children(
    parent: &scraper::ElementRef,
    link_sel: &scraper::Selector,
    list_sel: &scraper::Selector,
    results: &mut Vec<TocEntry>,
) {
    for child in parent.children() {
        if let Some(el) = scraper::ElementRef::wrap(child) {
            if el.value().name() == "li" {
                let mut label = String::new();
                let mut href = String::new();

                if let Some(a) = el.select(link_sel).next() {
                    label = a.text().collect::<String>();
                    if let Some(h) = a.value().attr("href") {
                        href = h.to_string();
                    }
                }

                let mut children = Vec::new();
                if let Some(list) = el.select(list_sel).next() {
                    parse_nav_li_children(&list, link_sel, list_sel, &mut children);
                }

                results.push(TocEntry {
                    label,
                    href,
                    play_order: results.len() + 1,
                    id: None,
                    children,
                });
            }
        }
    }
}
