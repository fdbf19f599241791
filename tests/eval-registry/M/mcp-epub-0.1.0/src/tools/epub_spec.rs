use crate::EpubError;
use std::collections::HashMap;

struct SpecEntry {
    title: &'static str,
    content: &'static str,
    see_also: &'static [&'static str],
}

fn spec_knowledge() -> HashMap<&'static str, SpecEntry> {
    let mut map = HashMap::new();

    map.insert(
        "overview",
        SpecEntry {
            title: "EPUB 3.3 Overview",
            content: include_str!("knowledge/overview.md"),
            see_also: &[
                "required_files",
                "package_document",
                "creating_epub",
                "core_media_types",
            ],
        },
    );
    map.insert(
        "required_files",
        SpecEntry {
            title: "Required Files in EPUB",
            content: include_str!("knowledge/required_files.md"),
            see_also: &[
                "mimetype",
                "container_xml",
                "package_document",
                "navigation_document",
            ],
        },
    );
    map.insert(
        "mimetype",
        SpecEntry {
            title: "The mimetype File",
            content: include_str!("knowledge/mimetype.md"),
            see_also: &["required_files", "zip_container"],
        },
    );
    map.insert(
        "container_xml",
        SpecEntry {
            title: "META-INF/container.xml",
            content: include_str!("knowledge/container_xml.md"),
            see_also: &["required_files", "package_document"],
        },
    );
    map.insert(
        "package_document",
        SpecEntry {
            title: "Package Document (OPF)",
            content: include_str!("knowledge/package_document.md"),
            see_also: &[
                "opf_metadata",
                "opf_manifest",
                "opf_spine",
                "required_files",
            ],
        },
    );
    map.insert(
        "opf_metadata",
        SpecEntry {
            title: "OPF Metadata Section",
            content: include_str!("knowledge/opf_metadata.md"),
            see_also: &["package_document", "creating_epub"],
        },
    );
    map.insert(
        "opf_manifest",
        SpecEntry {
            title: "OPF Manifest Section",
            content: include_str!("knowledge/opf_manifest.md"),
            see_also: &[
                "package_document",
                "opf_spine",
                "core_media_types",
                "resource_fallbacks",
            ],
        },
    );
    map.insert(
        "opf_spine",
        SpecEntry {
            title: "OPF Spine Section",
            content: include_str!("knowledge/opf_spine.md"),
            see_also: &["package_document", "opf_manifest", "content_xhtml"],
        },
    );
    map.insert(
        "core_media_types",
        SpecEntry {
            title: "Core Media Types",
            content: include_str!("knowledge/core_media_types.md"),
            see_also: &["opf_manifest", "resource_fallbacks", "content_xhtml"],
        },
    );
    map.insert(
        "content_xhtml",
        SpecEntry {
            title: "XHTML Content Documents",
            content: include_str!("knowledge/content_xhtml.md"),
            see_also: &[
                "content_svg",
                "css_requirements",
                "navigation_document",
                "editing_epub",
            ],
        },
    );
    map.insert(
        "content_svg",
        SpecEntry {
            title: "SVG Content Documents",
            content: include_str!("knowledge/content_svg.md"),
            see_also: &["content_xhtml", "core_media_types", "fixed_layout"],
        },
    );
    map.insert(
        "css_requirements",
        SpecEntry {
            title: "CSS Requirements in EPUB",
            content: include_str!("knowledge/css_requirements.md"),
            see_also: &["css_prefixed_properties", "best_practices"],
        },
    );
    map.insert(
        "css_prefixed_properties",
        SpecEntry {
            title: "EPUB-Prefixed CSS Properties",
            content: include_str!("knowledge/css_prefixed_properties.md"),
            see_also: &["css_requirements"],
        },
    );
    map.insert(
        "navigation_document",
        SpecEntry {
            title: "Navigation Document",
            content: include_str!("knowledge/navigation_document.md"),
            see_also: &["required_files", "content_xhtml", "package_document"],
        },
    );
    map.insert(
        "zip_container",
        SpecEntry {
            title: "ZIP Container Requirements",
            content: include_str!("knowledge/zip_container.md"),
            see_also: &["mimetype", "required_files"],
        },
    );
    map.insert(
        "fixed_layout",
        SpecEntry {
            title: "Fixed-Layout EPUB",
            content: include_str!("knowledge/fixed_layout.md"),
            see_also: &["package_document", "opf_metadata", "content_xhtml"],
        },
    );
    map.insert(
        "creating_epub",
        SpecEntry {
            title: "How to Create an EPUB",
            content: include_str!("knowledge/creating_epub.md"),
            see_also: &[
                "required_files",
                "package_document",
                "opf_metadata",
                "editing_epub",
                "best_practices",
            ],
        },
    );
    map.insert(
        "editing_epub",
        SpecEntry {
            title: "How to Edit an EPUB Safely",
            content: include_str!("knowledge/editing_epub.md"),
            see_also: &[
                "creating_epub",
                "best_practices",
                "content_xhtml",
                "css_requirements",
            ],
        },
    );
    map.insert(
        "resource_fallbacks",
        SpecEntry {
            title: "Resource Fallbacks",
            content: include_str!("knowledge/resource_fallbacks.md"),
            see_also: &["opf_manifest", "core_media_types"],
        },
    );
    map.insert(
        "best_practices",
        SpecEntry {
            title: "EPUB Best Practices",
            content: include_str!("knowledge/best_practices.md"),
            see_also: &["creating_epub", "editing_epub", "css_requirements"],
        },
    );
    map.insert(
        "data_urls",
        SpecEntry {
            title: "Data URLs in EPUB",
            content: include_str!("knowledge/data_urls.md"),
            see_also: &["content_xhtml", "css_requirements"],
        },
    );

    map
}

pub fn get_epub_spec(topic: &str) -> Result<serde_json::Value, EpubError> {
    let knowledge = spec_knowledge();

    if topic == "list" {
        let mut topics: Vec<String> = knowledge
            .iter()
            .map(|(key, entry)| format!("- `{}`: {}", key, entry.title))
            .collect();
        topics.sort();
        let content = format!(
            "## Available EPUB Specification Topics\n\nUse `get_epub_spec` with any of these topics:\n\n{}",
            topics.join("\n")
        );
        return Ok(serde_json::json!({
            "topic": "list",
            "title": "Available Topics",
            "content": content,
            "see_also": []
        }));
    }

    if topic == "all" {
        let mut keys: Vec<&&str> = knowledge.keys().collect();
        keys.sort();
        let mut sections = Vec::new();
        for key in keys {
            if let Some(entry) = knowledge.get(*key) {
                sections.push(format!("# {}\n\n{}", entry.title, entry.content));
            }
        }
        let content = sections.join("\n\n---\n\n");
        return Ok(serde_json::json!({
            "topic": "all",
            "title": "Complete EPUB 3.3 Specification Reference",
            "content": content,
            "see_also": []
        }));
    }

    match knowledge.get(topic) {
        Some(entry) => Ok(serde_json::json!({
            "topic": topic,
            "title": entry.title,
            "content": entry.content,
            "see_also": entry.see_also
        })),
        None => Err(EpubError::ParseError(format!(
            "Unknown topic '{}'. Use 'list' to see all available topics.",
            topic
        ))),
    }
}
