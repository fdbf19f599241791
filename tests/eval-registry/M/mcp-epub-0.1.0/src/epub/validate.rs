use std::collections::HashMap;
use std::path::Path;

use quick_xml::events::Event;
use quick_xml::Reader;

use crate::EpubError;

pub struct ShadowBuffer {
    files: HashMap<String, String>,
}

impl Default for ShadowBuffer {
    fn default() -> Self {
        Self::new()
    }
}

impl ShadowBuffer {
    pub fn new() -> Self {
        ShadowBuffer {
            files: HashMap::new(),
        }
    }

    pub fn backup<P: AsRef<Path>>(&mut self, path: P) -> Result<(), EpubError> {
        let path = path.as_ref();
        let content = std::fs::read_to_string(path)?;
        self.files
            .insert(path.to_string_lossy().to_string(), content);
        Ok(())
    }

    pub fn restore_all(&self) -> Result<(), EpubError> {
        for (path, content) in &self.files {
            std::fs::write(path, content)?;
        }
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

pub fn validate_xhtml(content: &str) -> Result<(), EpubError> {
    let mut reader = Reader::from_str(content);

    loop {
        match reader.read_event() {
            Ok(Event::Eof) => break,
            Err(e) => {
                return Err(EpubError::ContentValidationError {
                    file: "xhtml".to_string(),
                    detail: format!("XML well-formedness error: {}", e),
                });
            }
            _ => {}
        }
    }

    Ok(())
}

pub fn validate_css(content: &str) -> Result<(), EpubError> {
    lightningcss::stylesheet::StyleSheet::parse(
        content,
        lightningcss::stylesheet::ParserOptions::default(),
    )
    .map_err(|e| EpubError::ContentValidationError {
        file: "css".to_string(),
        detail: format!("CSS syntax error: {}", e),
    })?;
    Ok(())
}

pub fn validate_all_modified(
    _shadow: &ShadowBuffer,
    new_files: &HashMap<String, String>,
) -> Result<(), EpubError> {
    for (path, content) in new_files {
        let lowercase = path.to_lowercase();
        if lowercase.ends_with(".xhtml")
            || lowercase.ends_with(".html")
            || lowercase.ends_with(".htm")
        {
            validate_xhtml(content)?;
        } else if lowercase.ends_with(".css") {
            validate_css(content)?;
        } else if lowercase.ends_with(".opf") || lowercase.ends_with(".ncx") {
            let mut reader = Reader::from_str(content);
            loop {
                match reader.read_event() {
                    Ok(Event::Eof) => break,
                    Err(e) => {
                        return Err(EpubError::ContentValidationError {
                            file: path.clone(),
                            detail: format!("XML well-formedness error: {}", e),
                        });
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(())
}
