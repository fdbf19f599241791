use std::path::Path;

use crate::EpubError;

pub fn detect_mime(path: &str) -> &str {
    let lower = path.to_lowercase();
    if lower.ends_with(".jpg") || lower.ends_with(".jpeg") {
        "image/jpeg"
    } else if lower.ends_with(".png") {
        "image/png"
    } else if lower.ends_with(".gif") {
        "image/gif"
    } else if lower.ends_with(".svg") {
        "image/svg+xml"
    } else if lower.ends_with(".webp") {
        "image/webp"
    } else if lower.ends_with(".otf") {
        "font/otf"
    } else if lower.ends_with(".ttf") {
        "font/ttf"
    } else if lower.ends_with(".woff") {
        "font/woff"
    } else if lower.ends_with(".woff2") {
        "font/woff2"
    } else if lower.ends_with(".mp3") {
        "audio/mpeg"
    } else if lower.ends_with(".aac") || lower.ends_with(".m4a") {
        "audio/mp4"
    } else if lower.ends_with(".mp4") {
        "video/mp4"
    } else if lower.ends_with(".css") {
        "text/css"
    } else if lower.ends_with(".js") {
        "application/javascript"
    } else if lower.ends_with(".xhtml") || lower.ends_with(".html") || lower.ends_with(".htm") {
        "application/xhtml+xml"
    } else {
        "application/octet-stream"
    }
}

pub fn is_xhtml(mime: &str) -> bool {
    mime == "application/xhtml+xml"
}

pub fn is_font(mime: &str) -> bool {
    mime.starts_with("font/")
}

pub fn is_image(mime: &str) -> bool {
    mime.starts_with("image/")
}

pub fn is_core_media(mime: &str) -> bool {
    matches!(
        mime,
        "image/jpeg"
            | "image/png"
            | "image/gif"
            | "image/svg+xml"
            | "image/webp"
            | "font/otf"
            | "font/ttf"
            | "font/woff"
            | "font/woff2"
            | "audio/mpeg"
            | "audio/mp4"
            | "text/css"
            | "application/javascript"
            | "application/xhtml+xml"
    )
}

pub fn default_target(mime: &str) -> &str {
    if is_image(mime) {
        "images"
    } else if is_font(mime) {
        "fonts"
    } else if mime.starts_with("audio/") {
        "audio"
    } else if mime == "video/mp4" {
        "video"
    } else if mime == "text/css" {
        "styles"
    } else if mime == "application/javascript" {
        "scripts"
    } else {
        "."
    }
}

pub fn is_path_traversal(path: &str) -> bool {
    path.contains("..") || path.contains('\\')
}

pub fn generate_manifest_id(resource_path: &str) -> String {
    let p = Path::new(resource_path);
    let stem = p
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "resource".to_string());
    let clean: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() || clean.starts_with(|c: char| c.is_ascii_digit()) {
        format!("res_{}", clean)
    } else {
        clean
    }
}

pub fn add_manifest_item(
    opf_path: &Path,
    id: &str,
    href: &str,
    mime: &str,
    properties: &[String],
) -> Result<(), EpubError> {
    let opf = std::fs::read_to_string(opf_path)?;

    let id_quoted = format!(" id=\"{}\"", id);
    if opf.contains(&id_quoted) {
        return Err(EpubError::ParseError(format!(
            "Manifest item with id '{}' already exists",
            id
        )));
    }

    let props = if properties.is_empty() {
        String::new()
    } else {
        format!(" properties=\"{}\"", properties.join(" "))
    };

    let item = format!(
        r#"    <item id="{id}" href="{href}" media-type="{mime}"{props}/>"#,
        id = id,
        href = href,
        mime = mime,
        props = props
    );

    let pos = opf
        .rfind("</manifest>")
        .ok_or_else(|| EpubError::ParseError("Cannot find </manifest> in OPF".to_string()))?;

    let new_opf = format!("{}{}\n{}", &opf[..pos], item, &opf[pos..]);
    std::fs::write(opf_path, &new_opf)?;

    Ok(())
}

pub fn add_spine_ref(opf_path: &Path, id: &str) -> Result<(), EpubError> {
    let opf = std::fs::read_to_string(opf_path)?;

    let itemref = format!(r#"    <itemref idref="{id}"/>"#, id = id);

    let pos = opf
        .rfind("</spine>")
        .ok_or_else(|| EpubError::ParseError("Cannot find </spine> in OPF".to_string()))?;

    let new_opf = format!("{}{}\n{}", &opf[..pos], itemref, &opf[pos..]);
    std::fs::write(opf_path, &new_opf)?;

    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_detect_mime_images() {
        assert_eq!(detect_mime("cover.jpg"), "image/jpeg");
        assert_eq!(detect_mime("cover.jpeg"), "image/jpeg");
        assert_eq!(detect_mime("cover.png"), "image/png");
        assert_eq!(detect_mime("cover.gif"), "image/gif");
        assert_eq!(detect_mime("cover.svg"), "image/svg+xml");
        assert_eq!(detect_mime("cover.webp"), "image/webp");
    }

    #[test]
    fn test_detect_mime_fonts() {
        assert_eq!(detect_mime("font.otf"), "font/otf");
        assert_eq!(detect_mime("font.ttf"), "font/ttf");
        assert_eq!(detect_mime("font.woff"), "font/woff");
        assert_eq!(detect_mime("font.woff2"), "font/woff2");
    }

    #[test]
    fn test_detect_mime_audio() {
        assert_eq!(detect_mime("audio.mp3"), "audio/mpeg");
        assert_eq!(detect_mime("audio.aac"), "audio/mp4");
        assert_eq!(detect_mime("audio.m4a"), "audio/mp4");
    }

    #[test]
    fn test_detect_mime_video() {
        assert_eq!(detect_mime("video.mp4"), "video/mp4");
    }

    #[test]
    fn test_detect_mime_text() {
        assert_eq!(detect_mime("style.css"), "text/css");
        assert_eq!(detect_mime("script.js"), "application/javascript");
    }

    #[test]
    fn test_detect_mime_xhtml() {
        assert_eq!(detect_mime("chapter.xhtml"), "application/xhtml+xml");
        assert_eq!(detect_mime("chapter.html"), "application/xhtml+xml");
        assert_eq!(detect_mime("chapter.htm"), "application/xhtml+xml");
    }

    #[test]
    fn test_detect_mime_unknown() {
        assert_eq!(detect_mime("data.bin"), "application/octet-stream");
        assert_eq!(detect_mime("archive.zip"), "application/octet-stream");
    }

    #[test]
    fn test_detect_mime_case_insensitive() {
        assert_eq!(detect_mime("COVER.JPG"), "image/jpeg");
        assert_eq!(detect_mime("Font.TTF"), "font/ttf");
    }

    #[test]
    fn test_is_xhtml_true() {
        assert!(is_xhtml("application/xhtml+xml"));
    }

    #[test]
    fn test_is_xhtml_false() {
        assert!(!is_xhtml("image/png"));
        assert!(!is_xhtml("text/css"));
    }

    #[test]
    fn test_is_font() {
        assert!(is_font("font/otf"));
        assert!(is_font("font/ttf"));
        assert!(!is_font("image/png"));
    }

    #[test]
    fn test_is_image() {
        assert!(is_image("image/jpeg"));
        assert!(is_image("image/png"));
        assert!(!is_image("text/css"));
    }

    #[test]
    fn test_is_core_media() {
        assert!(is_core_media("image/jpeg"));
        assert!(is_core_media("font/otf"));
        assert!(is_core_media("audio/mpeg"));
        assert!(is_core_media("text/css"));
        assert!(!is_core_media("video/mp4"));
        assert!(!is_core_media("application/octet-stream"));
    }

    #[test]
    fn test_default_target_images() {
        assert_eq!(default_target("image/jpeg"), "images");
        assert_eq!(default_target("image/png"), "images");
    }

    #[test]
    fn test_default_target_fonts() {
        assert_eq!(default_target("font/otf"), "fonts");
        assert_eq!(default_target("font/ttf"), "fonts");
    }

    #[test]
    fn test_default_target_audio() {
        assert_eq!(default_target("audio/mpeg"), "audio");
        assert_eq!(default_target("audio/mp4"), "audio");
    }

    #[test]
    fn test_default_target_video() {
        assert_eq!(default_target("video/mp4"), "video");
    }

    #[test]
    fn test_default_target_css() {
        assert_eq!(default_target("text/css"), "styles");
    }

    #[test]
    fn test_default_target_javascript() {
        assert_eq!(default_target("application/javascript"), "scripts");
    }

    #[test]
    fn test_default_target_xhtml() {
        assert_eq!(default_target("application/xhtml+xml"), ".");
    }

    #[test]
    fn test_default_target_unknown() {
        assert_eq!(default_target("application/octet-stream"), ".");
    }

    #[test]
    fn test_is_path_traversal_dotdot() {
        assert!(is_path_traversal("../../etc/passwd"));
        assert!(is_path_traversal("foo/../bar"));
    }

    #[test]
    fn test_is_path_traversal_backslash() {
        assert!(is_path_traversal("..\\windows\\system32"));
    }

    #[test]
    fn test_is_path_traversal_safe() {
        assert!(!is_path_traversal("images/photo.jpg"));
        assert!(!is_path_traversal("chapter.xhtml"));
        assert!(!is_path_traversal("fonts/custom.otf"));
    }

    #[test]
    fn test_generate_manifest_id_simple() {
        let id = generate_manifest_id("photo.jpg");
        assert_eq!(id, "photo");
    }

    #[test]
    fn test_generate_manifest_id_nested() {
        let id = generate_manifest_id("images/custom-font.otf");
        assert_eq!(id, "custom-font");
    }

    #[test]
    fn test_generate_manifest_id_special_chars() {
        let id = generate_manifest_id("my image (2).png");
        assert_eq!(id, "my_image__2_");
    }

    #[test]
    fn test_generate_manifest_id_numeric_prefix() {
        let id = generate_manifest_id("123file.css");
        assert!(id.starts_with("res_123file"));
    }
}
