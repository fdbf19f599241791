use std::collections::HashMap;
use std::path::Path;

use quick_xml::events::Event;
use quick_xml::Reader;
use scraper::{Html, Selector};

use crate::epub::types::{
    Chapter, ChapterMapEntry, ChapterSearchResult, ChapterStats, EpubImage, EpubLink,
    EpubStatistics, MatchResult, SearchMatch,
};
use crate::EpubError;

pub fn list_spine<P: AsRef<Path>>(opf_path: P) -> Result<Vec<(String, String, usize)>, EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_xml = std::fs::read_to_string(opf_path)?;

    let mut reader = Reader::from_str(&opf_xml);

    let mut manifest: HashMap<String, String> = HashMap::new();
    let mut spine_items: Vec<(String, String, usize)> = Vec::new();
    let mut in_manifest = false;
    let mut in_spine = false;
    let mut play_order = 0;

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
                        for a in e.attributes().flatten() {
                            let name = String::from_utf8_lossy(a.key.as_ref()).to_string();
                            let val = String::from_utf8_lossy(a.value.as_ref()).to_string();
                            match name.as_str() {
                                "id" => id = val,
                                "href" => href = val,
                                _ => {}
                            }
                        }
                        if id.is_empty() || href.is_empty() {
                            continue;
                        }
                        manifest.insert(id.clone(), href.clone());
                    }
                    "itemref" if in_spine => {
                        let mut idref = String::new();
                        for a in e.attributes().flatten() {
                            if a.key.as_ref() == b"idref" {
                                idref = String::from_utf8_lossy(a.value.as_ref()).to_string();
                            }
                        }
                        if !idref.is_empty() {
                            play_order += 1;
                            if let Some(href) = manifest.get(&idref) {
                                spine_items.push((idref.clone(), href.clone(), play_order));
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
            Err(e) => {
                return Err(EpubError::ParseError(format!(
                    "Failed to parse OPF spine: {}",
                    e
                )));
            }
            _ => {}
        }
    }

    Ok(spine_items)
}

pub fn read_chapters<P: AsRef<Path>>(
    opf_path: P,
    spine: &[(String, String, usize)],
    chapter_ids: &[String],
    format: &str,
    selector: Option<&str>,
) -> Result<Vec<Chapter>, EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_dir = opf_path.parent().unwrap_or(Path::new(""));
    let mut chapters = Vec::new();

    for (id, href, order) in spine {
        if chapter_ids.iter().all(|c| c != "all") && !chapter_ids.contains(id) {
            continue;
        }

        let file_path = opf_dir.join(href);
        let content = std::fs::read_to_string(&file_path).map_err(|e| {
            EpubError::ParseError(format!("Failed to read chapter file '{}': {}", href, e))
        })?;

        let title = extract_title(&content);

        if let Some(sel) = selector {
            let results = filter_with_selector(&content, sel)?;
            let matched_count = results.len();
            chapters.push(Chapter {
                id: id.clone(),
                title,
                content: None,
                play_order: *order,
                total_lines: None,
                matched_count: Some(matched_count),
                results: Some(results),
            });
        } else {
            let formatted = format_content(&content, format);
            let total_lines = if format == "lines" {
                Some(content.lines().count())
            } else {
                None
            };
            chapters.push(Chapter {
                id: id.clone(),
                title,
                content: Some(formatted),
                play_order: *order,
                total_lines,
                matched_count: None,
                results: None,
            });
        }
    }

    Ok(chapters)
}

fn extract_title(content: &str) -> Option<String> {
    let doc = Html::parse_document(content);
    let sel = Selector::parse("title").ok()?;
    if let Some(el) = doc.select(&sel).next() {
        let text = el.text().collect::<String>();
        if !text.is_empty() {
            return Some(text);
        }
    }
    let sel = Selector::parse("h1").ok()?;
    if let Some(el) = doc.select(&sel).next() {
        let text = el.text().collect::<String>();
        if !text.is_empty() {
            return Some(text);
        }
    }
    None
}

fn format_content(content: &str, format: &str) -> String {
    match format {
        "html" => content.to_string(),
        "lines" => content
            .lines()
            .enumerate()
            .map(|(i, line)| format!("{}: {}", i + 1, line))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => {
            let doc = Html::parse_document(content);
            doc.root_element().text().collect::<String>()
        }
    }
}

fn filter_with_selector(content: &str, selector_str: &str) -> Result<Vec<MatchResult>, EpubError> {
    let selector = Selector::parse(selector_str).map_err(|e| EpubError::SelectorError {
        selector: selector_str.to_string(),
        detail: format!("{}", e),
    })?;

    let doc = Html::parse_fragment(content);
    let mut results = Vec::new();

    for (i, el) in doc.select(&selector).enumerate() {
        let html = el.html();
        let text = el.text().collect::<String>();
        results.push(MatchResult {
            index: i,
            html,
            text,
        });
    }

    Ok(results)
}

pub fn search_content<P: AsRef<Path>>(
    opf_path: P,
    spine: &[(String, String, usize)],
    chapter_ids: &[String],
    query: &str,
    case_sensitive: bool,
    max_results: usize,
) -> Result<Vec<ChapterSearchResult>, EpubError> {
    let adjusted_query = if case_sensitive {
        query.to_string()
    } else {
        query.to_lowercase()
    };
    let re = regex_lite::Regex::new(&adjusted_query)
        .map_err(|e| EpubError::ParseError(format!("Invalid regex: {}", e)))?;
    let opf_path = opf_path.as_ref();
    let opf_dir = opf_path.parent().unwrap_or(Path::new(""));
    let mut results = Vec::new();

    for (id, href, order) in spine {
        if chapter_ids.iter().all(|c| c != "all") && !chapter_ids.contains(id) {
            continue;
        }

        let file_path = opf_dir.join(href);
        let content = std::fs::read_to_string(&file_path).map_err(|e| {
            EpubError::ParseError(format!("Failed to read chapter file '{}': {}", href, e))
        })?;

        let doc = Html::parse_document(&content);
        let text_content: String = doc.root_element().text().collect();
        let text = if case_sensitive {
            text_content
        } else {
            text_content.to_lowercase()
        };

        let mut chapter_matches = Vec::new();
        for cap in re.find_iter(&text).take(max_results) {
            let line_num = text[..cap.start()].matches('\n').count() + 1;
            let line_start = text[..cap.start()].rfind('\n').map(|i| i + 1).unwrap_or(0);
            let line_end = text[cap.start()..]
                .find('\n')
                .map(|i| cap.start() + i)
                .unwrap_or(text.len());
            let line_text = text[line_start..line_end].to_string();
            chapter_matches.push(SearchMatch {
                line_number: line_num,
                line_text,
                match_start: cap.start() - line_start,
                match_end: cap.end() - line_start,
            });
            if chapter_matches.len() >= max_results {
                break;
            }
        }

        let title = extract_title(&content);

        if !chapter_matches.is_empty() {
            results.push(ChapterSearchResult {
                chapter_id: id.clone(),
                chapter_title: title,
                play_order: *order,
                total_matches: chapter_matches.len(),
                matches: chapter_matches,
            });
        }
    }

    Ok(results)
}

pub fn compute_statistics<P: AsRef<Path>>(
    opf_path: P,
    spine: &[(String, String, usize)],
    chapter_ids: &[String],
) -> Result<EpubStatistics, EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_dir = opf_path.parent().unwrap_or(Path::new(""));
    let mut per_chapter = Vec::new();

    let mut total_words = 0usize;
    let mut total_chars = 0usize;
    let mut total_paragraphs = 0usize;
    let mut total_headings = 0usize;
    let mut total_links = 0usize;
    let mut total_images = 0usize;

    for (id, href, _order) in spine {
        if chapter_ids.iter().all(|c| c != "all") && !chapter_ids.contains(id) {
            continue;
        }

        let file_path = opf_dir.join(href);
        let content = std::fs::read_to_string(&file_path).map_err(|e| {
            EpubError::ParseError(format!("Failed to read chapter file '{}': {}", href, e))
        })?;

        let title = extract_title(&content);
        let doc = Html::parse_document(&content);

        let text_content: String = doc.root_element().text().collect();
        let chars = text_content.len();
        let words = if text_content.trim().is_empty() {
            0
        } else {
            text_content.split_whitespace().count()
        };

        let paragraphs = doc.select(&Selector::parse("p").unwrap()).count();
        let headings = doc
            .select(&Selector::parse("h1,h2,h3,h4,h5,h6").unwrap())
            .count();
        let links = doc.select(&Selector::parse("a[href]").unwrap()).count();
        let images = doc.select(&Selector::parse("img").unwrap()).count();

        total_words += words;
        total_chars += chars;
        total_paragraphs += paragraphs;
        total_headings += headings;
        total_links += links;
        total_images += images;

        per_chapter.push(ChapterStats {
            id: id.clone(),
            title,
            words,
            chars,
            paragraphs,
            headings,
            links,
            images,
        });
    }

    let reading_time = if total_words > 0 {
        (total_words as f64) / 200.0
    } else {
        0.0
    };

    Ok(EpubStatistics {
        total: ChapterStats {
            id: "__total__".to_string(),
            title: None,
            words: total_words,
            chars: total_chars,
            paragraphs: total_paragraphs,
            headings: total_headings,
            links: total_links,
            images: total_images,
        },
        reading_time_minutes: reading_time,
        per_chapter,
    })
}

pub fn build_chapter_map<P: AsRef<Path>>(
    opf_path: P,
    spine: &[(String, String, usize)],
) -> Result<Vec<ChapterMapEntry>, EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_dir = opf_path.parent().unwrap_or(Path::new(""));
    let mut entries = Vec::new();

    for (id, href, order) in spine {
        let file_path = opf_dir.join(href);
        let content = std::fs::read_to_string(&file_path).map_err(|e| {
            EpubError::ParseError(format!("Failed to read chapter file '{}': {}", href, e))
        })?;

        let title = extract_title(&content);
        let doc = Html::parse_document(&content);
        let text_content: String = doc.root_element().text().collect();
        let word_count = if text_content.trim().is_empty() {
            0
        } else {
            text_content.split_whitespace().count()
        };

        entries.push(ChapterMapEntry {
            id: id.clone(),
            title,
            href: href.clone(),
            play_order: *order,
            word_count,
        });
    }

    Ok(entries)
}

pub fn extract_links<P: AsRef<Path>>(
    opf_path: P,
    spine: &[(String, String, usize)],
    chapter_ids: &[String],
) -> Result<Vec<EpubLink>, EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_dir = opf_path.parent().unwrap_or(Path::new(""));
    let mut all_links = Vec::new();

    for (id, href, _order) in spine {
        if chapter_ids.iter().all(|c| c != "all") && !chapter_ids.contains(id) {
            continue;
        }

        let file_path = opf_dir.join(href);
        let content = std::fs::read_to_string(&file_path).map_err(|e| {
            EpubError::ParseError(format!("Failed to read chapter file '{}': {}", href, e))
        })?;

        let title = extract_title(&content);
        let doc = Html::parse_document(&content);
        let sel = Selector::parse("a[href]").map_err(|e| EpubError::SelectorError {
            selector: "a[href]".to_string(),
            detail: format!("{}", e),
        })?;

        for el in doc.select(&sel) {
            let url = el.value().attr("href").unwrap_or("").to_string();
            let text: String = el.text().collect();
            let is_external = url.starts_with("http://")
                || url.starts_with("https://")
                || url.starts_with("mailto:");
            let is_internal = !is_external && !url.starts_with('#');
            let fragment = url.split('#').nth(1).map(|s| s.to_string());

            all_links.push(EpubLink {
                chapter_id: id.clone(),
                chapter_title: title.clone(),
                url,
                text,
                is_internal,
                is_external,
                fragment,
            });
        }
    }

    Ok(all_links)
}

pub fn list_images<P: AsRef<Path>>(
    opf_path: P,
    spine: &[(String, String, usize)],
) -> Result<Vec<EpubImage>, EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_xml = std::fs::read_to_string(opf_path)?;
    let opf_dir = opf_path.parent().unwrap_or(Path::new(""));

    let mut reader = Reader::from_str(&opf_xml);
    let mut images: HashMap<String, (String, String)> = HashMap::new();
    let mut in_manifest = false;

    loop {
        match reader.read_event() {
            Ok(Event::Start(ref e)) | Ok(Event::Empty(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "manifest" {
                    in_manifest = true;
                } else if tag == "item" && in_manifest {
                    let mut id = String::new();
                    let mut href = String::new();
                    let mut media_type = String::new();
                    for a in e.attributes().flatten() {
                        match String::from_utf8_lossy(a.key.as_ref()).as_ref() {
                            "id" => id = String::from_utf8_lossy(a.value.as_ref()).to_string(),
                            "href" => href = String::from_utf8_lossy(a.value.as_ref()).to_string(),
                            "media-type" => {
                                media_type = String::from_utf8_lossy(a.value.as_ref()).to_string()
                            }
                            _ => {}
                        }
                    }
                    if !id.is_empty() && !media_type.is_empty() && media_type.starts_with("image/")
                    {
                        images.insert(id, (href, media_type));
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
            Err(e) => return Err(EpubError::ParseError(format!("Failed to parse OPF: {}", e))),
            _ => {}
        }
    }

    let img_sel = Selector::parse("img[src]").ok();
    let mut result: Vec<EpubImage> = images
        .into_iter()
        .map(|(id, (path, media_type))| EpubImage {
            id,
            path,
            media_type,
            referenced_in: Vec::new(),
        })
        .collect();

    if let Some(ref sel) = img_sel {
        for (ref id, ref href, _order) in spine {
            let file_path = opf_dir.join(href);
            if let Ok(content) = std::fs::read_to_string(&file_path) {
                let doc = Html::parse_document(&content);
                for el in doc.select(sel) {
                    if let Some(src) = el.value().attr("src") {
                        let src_clean = src.split('#').next().unwrap_or(src);
                        for image in result.iter_mut() {
                            if (image.path == *src_clean
                                || file_path.parent().unwrap_or(Path::new("")).join(src_clean)
                                    == opf_dir.join(&image.path))
                                && !image.referenced_in.contains(id)
                            {
                                image.referenced_in.push(id.clone());
                            }
                        }
                    }
                }
            }
        }
    }

    Ok(result)
}
