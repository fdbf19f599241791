use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use thiserror::Error;

#[derive(Error, Debug)]
pub enum EpubError {
    #[error("File not found: {0}")]
    FileNotFound(String),

    #[error("Not a valid EPUB file: {0}")]
    NotAnEpub(String),

    #[error("Failed to parse: {0}")]
    ParseError(String),

    #[error("Chapter not found: '{0}'. Available chapters: {1:?}")]
    ChapterNotFound(String, Vec<String>),

    #[error("No table of contents found in EPUB")]
    TocNotFound,

    #[error("Failed to write EPUB: {0}")]
    WriteError(String),

    #[error("I/O error: {0}")]
    IoError(#[from] std::io::Error),

    #[error("ZIP error: {0}")]
    ZipError(#[from] zip::result::ZipError),

    #[error("walkdir error: {0}")]
    WalkdirError(String),

    #[error("XML error: {0}")]
    XmlError(String),

    #[error("Invalid CSS selector '{selector}': {detail}")]
    SelectorError { selector: String, detail: String },

    #[error("Text not found in chapter '{chapter}': '{text}'")]
    PatchNotFound { text: String, chapter: String },

    #[error("Invalid line range {start}..={end} (file has {max} lines)")]
    LineRangeError {
        start: usize,
        end: usize,
        max: usize,
    },

    #[error("Content validation failed in '{file}': {detail}")]
    ContentValidationError { file: String, detail: String },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EpubMetadata {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identifier: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rights: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subjects: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contributors: Option<Vec<Contributor>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Contributor {
    pub role: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Chapter {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    pub play_order: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_lines: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_count: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub results: Option<Vec<MatchResult>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MatchResult {
    pub index: usize,
    pub html: String,
    pub text: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TocEntry {
    pub label: String,
    pub href: String,
    pub play_order: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub children: Vec<TocEntry>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StylesheetInfo {
    pub id: String,
    pub path: String,
    pub media_type: String,
}

#[derive(Debug)]
pub struct EpubEntry {
    pub extract_dir: tempfile::TempDir,
    pub opf_path: PathBuf,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ContentModification {
    pub selector: String,
    pub action: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribute_name: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TextPatch {
    pub chapter: String,
    pub search_text: String,
    pub replace_text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_occurrence: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChapterInput {
    pub id: String,
    pub title: String,
    #[serde(rename = "htmlContent")]
    pub html_content: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FixedLayoutProperties {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rendition_layout: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rendition_orientation: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rendition_spread: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SpinePropertyOverride {
    pub idref: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub properties: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FixedLayoutOutput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rendition_layout: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rendition_orientation: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rendition_spread: Option<String>,
    pub spine_overrides: Vec<SpinePropertyOverride>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WriteFixedLayoutInput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rendition_layout: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rendition_orientation: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rendition_spread: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spine_overrides: Option<Vec<SpinePropertyOverride>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CreateEpubInput {
    #[serde(rename = "outputPath")]
    pub output_path: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identifier: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rights: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subjects: Option<Vec<String>>,
    pub chapters: Vec<ChapterInput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cover_image_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stylesheet_content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub epub_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed_layout: Option<FixedLayoutProperties>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spine_properties: Option<Vec<SpinePropertyOverride>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WriteMetadataInput {
    pub title: Option<String>,
    pub creator: Option<String>,
    pub publisher: Option<String>,
    pub language: Option<String>,
    pub identifier: Option<String>,
    pub date: Option<String>,
    pub rights: Option<String>,
    pub description: Option<String>,
    pub subjects: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SearchMatch {
    pub line_number: usize,
    pub line_text: String,
    pub match_start: usize,
    pub match_end: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChapterSearchResult {
    pub chapter_id: String,
    pub chapter_title: Option<String>,
    pub play_order: usize,
    pub total_matches: usize,
    pub matches: Vec<SearchMatch>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChapterStats {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub words: usize,
    pub chars: usize,
    pub paragraphs: usize,
    pub headings: usize,
    pub links: usize,
    pub images: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EpubStatistics {
    pub total: ChapterStats,
    pub reading_time_minutes: f64,
    pub per_chapter: Vec<ChapterStats>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EpubLink {
    pub chapter_id: String,
    pub chapter_title: Option<String>,
    pub url: String,
    pub text: String,
    pub is_internal: bool,
    pub is_external: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fragment: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EpubImage {
    pub id: String,
    pub path: String,
    pub media_type: String,
    pub referenced_in: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChapterMapEntry {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub href: String,
    pub play_order: usize,
    pub word_count: usize,
}
