//! Conversion between plain text and Hardcover's Slate review format.
//!
//! Populated by the review tooling; Hardcover only accepts review bodies as
//! Slate jsonb (`review_slate`), one paragraph block per paragraph of text.

use serde_json::json;

/// Convert plain text into a Hardcover Slate document: one paragraph block per
/// blank-line-separated paragraph, with internal single newlines preserved as
/// part of that paragraph's text. Empty/whitespace-only input still produces a
/// one-element array with an empty-text paragraph, since the API requires a
/// non-empty `review_slate` array.
pub fn text_to_slate(text: &str) -> serde_json::Value {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current: Vec<&str> = Vec::new();

    for line in text.lines() {
        if line.trim().is_empty() {
            if !current.is_empty() {
                paragraphs.push(current.join("\n"));
                current.clear();
            }
        } else {
            current.push(line);
        }
    }
    if !current.is_empty() {
        paragraphs.push(current.join("\n"));
    }

    let paragraphs: Vec<String> = paragraphs
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();

    if paragraphs.is_empty() {
        return json!([paragraph_block("")]);
    }

    json!(paragraphs
        .into_iter()
        .map(|p| paragraph_block(&p))
        .collect::<Vec<_>>())
}

fn paragraph_block(text: &str) -> serde_json::Value {
    json!({
        "data": {},
        "object": "block",
        "type": "paragraph",
        "children": [{"object": "text", "text": text}]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_paragraph() {
        let slate = text_to_slate("Just one paragraph.");
        assert_eq!(
            slate,
            json!([{
                "data": {},
                "object": "block",
                "type": "paragraph",
                "children": [{"object": "text", "text": "Just one paragraph."}]
            }])
        );
    }

    #[test]
    fn multiple_paragraphs() {
        let slate = text_to_slate("First paragraph.\n\nSecond paragraph.\n\n\nThird paragraph.");
        assert_eq!(
            slate,
            json!([
                {
                    "data": {}, "object": "block", "type": "paragraph",
                    "children": [{"object": "text", "text": "First paragraph."}]
                },
                {
                    "data": {}, "object": "block", "type": "paragraph",
                    "children": [{"object": "text", "text": "Second paragraph."}]
                },
                {
                    "data": {}, "object": "block", "type": "paragraph",
                    "children": [{"object": "text", "text": "Third paragraph."}]
                },
            ])
        );
    }

    #[test]
    fn empty_string_produces_one_empty_block() {
        let slate = text_to_slate("");
        assert_eq!(
            slate,
            json!([{
                "data": {}, "object": "block", "type": "paragraph",
                "children": [{"object": "text", "text": ""}]
            }])
        );
    }

    #[test]
    fn whitespace_only_produces_one_empty_block() {
        let slate = text_to_slate("   \n\t\n   ");
        assert_eq!(
            slate,
            json!([{
                "data": {}, "object": "block", "type": "paragraph",
                "children": [{"object": "text", "text": ""}]
            }])
        );
    }

    #[test]
    fn internal_single_newline_stays_in_same_paragraph() {
        let slate = text_to_slate("Line one\nLine two");
        assert_eq!(
            slate,
            json!([{
                "data": {}, "object": "block", "type": "paragraph",
                "children": [{"object": "text", "text": "Line one\nLine two"}]
            }])
        );
    }
}
