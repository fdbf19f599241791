use std::path::Path;

use quick_xml::events::{BytesStart, BytesText, Event};
use quick_xml::Reader;
use quick_xml::Writer;

use crate::epub::types::{
    Contributor, EpubMetadata, FixedLayoutOutput, SpinePropertyOverride, WriteFixedLayoutInput,
    WriteMetadataInput,
};
use crate::EpubError;

pub fn parse_metadata<P: AsRef<Path>>(opf_path: P) -> Result<EpubMetadata, EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_xml = std::fs::read_to_string(opf_path)?;

    let mut reader = Reader::from_str(&opf_xml);

    let mut metadata = EpubMetadata {
        title: None,
        creator: None,
        publisher: None,
        language: None,
        identifier: None,
        date: None,
        rights: None,
        description: None,
        subjects: None,
        contributors: None,
    };

    let mut in_metadata = false;
    let mut current_tag = String::new();
    let mut current_text = String::new();
    let mut current_role = String::new();

    loop {
        match reader.read_event() {
            Ok(Event::Start(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "metadata" {
                    in_metadata = true;
                } else if in_metadata {
                    current_tag = tag.clone();
                    current_text.clear();
                    current_role.clear();
                    for a in e.attributes().flatten() {
                        let name = String::from_utf8_lossy(a.key.as_ref());
                        if name == "opf:role" || name == "role" {
                            current_role = String::from_utf8_lossy(a.value.as_ref()).to_string();
                        }
                    }
                }
            }
            Ok(Event::Text(ref e)) => {
                if in_metadata && !current_tag.is_empty() {
                    current_text = e.unescape().unwrap_or_default().to_string();
                }
            }
            Ok(Event::End(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "metadata" {
                    in_metadata = false;
                } else if in_metadata && tag == current_tag {
                    match tag.as_str() {
                        "dc:title" => metadata.title = Some(current_text.clone()),
                        "dc:creator" => metadata.creator = Some(current_text.clone()),
                        "dc:publisher" => metadata.publisher = Some(current_text.clone()),
                        "dc:language" => metadata.language = Some(current_text.clone()),
                        "dc:identifier" => metadata.identifier = Some(current_text.clone()),
                        "dc:date" => metadata.date = Some(current_text.clone()),
                        "dc:rights" => metadata.rights = Some(current_text.clone()),
                        "dc:description" => metadata.description = Some(current_text.clone()),
                        "dc:subject" => {
                            let subjects = metadata.subjects.get_or_insert_with(Vec::new);
                            subjects.push(current_text.clone());
                        }
                        "dc:contributor" => {
                            let contributors = metadata.contributors.get_or_insert_with(Vec::new);
                            contributors.push(Contributor {
                                role: if current_role.is_empty() {
                                    "contributor".to_string()
                                } else {
                                    current_role.clone()
                                },
                                name: current_text.clone(),
                            });
                        }
                        _ => {}
                    }
                    current_tag.clear();
                    current_text.clear();
                }
            }
            Ok(Event::Eof) => break,
            Err(e) => {
                return Err(EpubError::ParseError(format!(
                    "Failed to parse OPF metadata: {}",
                    e
                )));
            }
            _ => {}
        }
    }

    Ok(metadata)
}

fn has_new_value(metadata: &WriteMetadataInput, dc_tag: &str) -> bool {
    match dc_tag {
        "dc:title" => metadata.title.is_some(),
        "dc:creator" => metadata.creator.is_some(),
        "dc:publisher" => metadata.publisher.is_some(),
        "dc:language" => metadata.language.is_some(),
        "dc:identifier" => metadata.identifier.is_some(),
        "dc:date" => metadata.date.is_some(),
        "dc:rights" => metadata.rights.is_some(),
        "dc:description" => metadata.description.is_some(),
        "dc:subject" => metadata.subjects.is_some(),
        _ => false,
    }
}

pub fn modify_opf<P: AsRef<Path>>(
    opf_path: P,
    metadata: &WriteMetadataInput,
) -> Result<(), EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_xml = std::fs::read_to_string(opf_path)?;

    let mut reader = Reader::from_str(&opf_xml);
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);

    let mut in_metadata = false;
    let mut found_dc: Option<String> = None;
    let mut text_buf = String::new();
    let mut has_written = false;

    loop {
        match reader.read_event() {
            Ok(Event::Start(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "metadata" {
                    in_metadata = true;
                    writer
                        .write_event(Event::Start(e.clone()))
                        .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
                    writer
                        .write_event(Event::Text(BytesText::new("\n  ")))
                        .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
                    if !has_written {
                        write_metadata_fields(&mut writer, metadata)?;
                        has_written = true;
                    }
                } else if in_metadata && tag.starts_with("dc:") {
                    if has_new_value(metadata, &tag) {
                        found_dc = Some(tag.clone());
                        text_buf.clear();
                    } else {
                        writer
                            .write_event(Event::Start(e.clone()))
                            .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
                    }
                } else {
                    writer
                        .write_event(Event::Start(e.clone()))
                        .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
                }
            }
            Ok(Event::Text(ref e)) => {
                if found_dc.is_some() {
                    text_buf = e.unescape().unwrap_or_default().to_string();
                } else {
                    writer
                        .write_event(Event::Text(e.clone()))
                        .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
                }
            }
            Ok(Event::End(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "metadata" {
                    in_metadata = false;
                }
                if in_metadata && tag.starts_with("dc:") && has_new_value(metadata, &tag) {
                    found_dc = None;
                    continue;
                }
                writer
                    .write_event(Event::End(e.clone()))
                    .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
            }
            Ok(Event::Empty(ref e)) => {
                writer
                    .write_event(Event::Empty(e.clone()))
                    .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
            }
            Ok(Event::Decl(ref e)) => {
                writer
                    .write_event(Event::Decl(e.clone()))
                    .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
            }
            Ok(Event::PI(ref e)) => {
                writer
                    .write_event(Event::PI(e.clone()))
                    .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
            }
            Ok(Event::CData(ref e)) => {
                writer
                    .write_event(Event::CData(e.clone()))
                    .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
            }
            Ok(Event::Comment(ref e)) => {
                writer
                    .write_event(Event::Comment(e.clone()))
                    .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
            }
            Ok(Event::Eof) => break,
            Err(e) => {
                return Err(EpubError::ParseError(format!("Failed to parse OPF: {}", e)));
            }
            _ => {}
        }
    }

    let result = writer.into_inner();
    std::fs::write(opf_path, result)?;

    Ok(())
}

fn write_metadata_fields<W: std::io::Write>(
    writer: &mut Writer<W>,
    metadata: &WriteMetadataInput,
) -> Result<(), EpubError> {
    if let Some(ref title) = metadata.title {
        write_dc_element(writer, "dc:title", title)?;
    }
    if let Some(ref creator) = metadata.creator {
        write_dc_element(writer, "dc:creator", creator)?;
    }
    if let Some(ref publisher) = metadata.publisher {
        write_dc_element(writer, "dc:publisher", publisher)?;
    }
    if let Some(ref language) = metadata.language {
        write_dc_element(writer, "dc:language", language)?;
    }
    if let Some(ref identifier) = metadata.identifier {
        write_dc_element(writer, "dc:identifier", identifier)?;
    }
    if let Some(ref date) = metadata.date {
        write_dc_element(writer, "dc:date", date)?;
    }
    if let Some(ref rights) = metadata.rights {
        write_dc_element(writer, "dc:rights", rights)?;
    }
    if let Some(ref description) = metadata.description {
        write_dc_element(writer, "dc:description", description)?;
    }
    if let Some(ref subjects) = metadata.subjects {
        for subject in subjects {
            write_dc_element(writer, "dc:subject", subject)?;
        }
    }
    Ok(())
}

fn write_dc_element<W: std::io::Write>(
    writer: &mut Writer<W>,
    name: &str,
    value: &str,
) -> Result<(), EpubError> {
    let elem = BytesStart::new(name);
    writer
        .write_event(Event::Start(elem))
        .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
    writer
        .write_event(Event::Text(BytesText::new(value)))
        .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
    writer
        .write_event(Event::End(BytesStart::new(name).to_end()))
        .map_err(|e| EpubError::ParseError(format!("Write error: {}", e)))?;
    Ok(())
}

pub fn parse_fixed_layout<P: AsRef<Path>>(opf_path: P) -> Result<FixedLayoutOutput, EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_xml = std::fs::read_to_string(opf_path)?;

    let mut reader = Reader::from_str(&opf_xml);

    let mut result = FixedLayoutOutput {
        rendition_layout: None,
        rendition_orientation: None,
        rendition_spread: None,
        spine_overrides: Vec::new(),
    };

    let mut in_metadata = false;
    let mut in_spine = false;

    loop {
        match reader.read_event() {
            Ok(Event::Start(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "metadata" => in_metadata = true,
                    "spine" => in_spine = true,
                    "meta" if in_metadata => {
                        let mut property: Option<String> = None;
                        for a in e.attributes().flatten() {
                            let name = String::from_utf8_lossy(a.key.as_ref());
                            if name == "property" {
                                property =
                                    Some(String::from_utf8_lossy(a.value.as_ref()).to_string());
                            }
                        }
                        if let Some(prop) = property {
                            match prop.as_str() {
                                "rendition:layout" => {
                                    read_meta_text(&mut reader, &mut result.rendition_layout)?;
                                }
                                "rendition:orientation" => {
                                    read_meta_text(&mut reader, &mut result.rendition_orientation)?;
                                }
                                "rendition:spread" => {
                                    read_meta_text(&mut reader, &mut result.rendition_spread)?;
                                }
                                _ => {}
                            }
                        }
                    }
                    "itemref" if in_spine => {
                        let mut idref = String::new();
                        let mut props = Vec::new();
                        for a in e.attributes().flatten() {
                            let name = String::from_utf8_lossy(a.key.as_ref());
                            match name.as_ref() {
                                "idref" => {
                                    idref = String::from_utf8_lossy(a.value.as_ref()).to_string();
                                }
                                "properties" => {
                                    let raw = String::from_utf8_lossy(a.value.as_ref()).to_string();
                                    props = raw.split_whitespace().map(|s| s.to_string()).collect();
                                }
                                _ => {}
                            }
                        }
                        if !idref.is_empty() && !props.is_empty() {
                            result.spine_overrides.push(SpinePropertyOverride {
                                idref,
                                properties: Some(props),
                            });
                        }
                    }
                    _ => {}
                }
            }
            Ok(Event::Empty(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "itemref" && in_spine {
                    let mut idref = String::new();
                    let mut props = Vec::new();
                    for a in e.attributes().flatten() {
                        let name = String::from_utf8_lossy(a.key.as_ref());
                        match name.as_ref() {
                            "idref" => {
                                idref = String::from_utf8_lossy(a.value.as_ref()).to_string();
                            }
                            "properties" => {
                                let raw = String::from_utf8_lossy(a.value.as_ref()).to_string();
                                props = raw.split_whitespace().map(|s| s.to_string()).collect();
                            }
                            _ => {}
                        }
                    }
                    if !idref.is_empty() && !props.is_empty() {
                        result.spine_overrides.push(SpinePropertyOverride {
                            idref,
                            properties: Some(props),
                        });
                    }
                }
                // self-closing meta elements (no text content) are skipped
            }
            Ok(Event::End(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "metadata" => in_metadata = false,
                    "spine" => in_spine = false,
                    _ => {}
                }
            }
            Ok(Event::Eof) => break,
            Err(e) => {
                return Err(EpubError::ParseError(format!(
                    "Failed to parse OPF fixed layout: {}",
                    e
                )));
            }
            _ => {}
        }
    }

    Ok(result)
}

fn escape_xml_str(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

fn read_meta_text(
    reader: &mut Reader<&[u8]>,
    target: &mut Option<String>,
) -> Result<(), EpubError> {
    loop {
        match reader.read_event() {
            Ok(Event::Text(ref e)) => {
                *target = Some(e.unescape().unwrap_or_default().to_string());
            }
            Ok(Event::End(_)) => break,
            Ok(Event::Eof) => break,
            Err(e) => {
                return Err(EpubError::ParseError(format!("Parse error in meta: {}", e)));
            }
            _ => {}
        }
    }
    Ok(())
}

pub fn write_fixed_layout<P: AsRef<Path>>(
    opf_path: P,
    input: &WriteFixedLayoutInput,
) -> Result<(), EpubError> {
    let opf_path = opf_path.as_ref();
    let mut opf_xml = std::fs::read_to_string(opf_path)?;

    let re = regex_lite::Regex::new(
        r#"<meta\s+property="rendition:(layout|orientation|spread)"\s*>[^<]*</meta>"#,
    )
    .map_err(|e| EpubError::ParseError(format!("Regex error: {}", e)))?;
    opf_xml = re.replace_all(&opf_xml, "").to_string();

    let re_empty = regex_lite::Regex::new(
        r#"<meta\s+[^>]*property="rendition:(layout|orientation|spread)"[^>]*/>"#,
    )
    .map_err(|e| EpubError::ParseError(format!("Regex error: {}", e)))?;
    opf_xml = re_empty.replace_all(&opf_xml, "").to_string();

    let rendition_xml = build_rendition_xml(input);

    if !rendition_xml.is_empty() {
        if let Some(pos) = opf_xml.find("</metadata>") {
            opf_xml.insert_str(pos, &rendition_xml);
        }
    }

    if let Some(ref overrides) = input.spine_overrides {
        for ov in overrides {
            let props_str = ov
                .properties
                .as_ref()
                .map(|p| p.join(" "))
                .unwrap_or_default();
            let pattern = format!(
                r#"<itemref\s+[^>]*idref="{}"[^>]*>"#,
                regex_lite::escape(&ov.idref)
            );
            let re_itemref = regex_lite::Regex::new(&pattern)
                .map_err(|e| EpubError::ParseError(format!("Regex error: {}", e)))?;

            if let Some(captures) = re_itemref.find(&opf_xml) {
                let matched = captures.as_str().to_string();
                let new_itemref = if props_str.is_empty() {
                    let re_props = regex_lite::Regex::new(r#"\s+properties="[^"]*""#)
                        .map_err(|e| EpubError::ParseError(format!("Regex error: {}", e)))?;
                    re_props.replace(&matched, "").to_string()
                } else if matched.contains("properties=") {
                    let re_props = regex_lite::Regex::new(r#"properties="[^"]*""#)
                        .map_err(|e| EpubError::ParseError(format!("Regex error: {}", e)))?;
                    re_props
                        .replace(&matched, format!(r#"properties="{}""#, props_str))
                        .to_string()
                } else if matched.ends_with("/>") {
                    // Self-closing tag: <itemref idref="ch1"/>
                    matched.trim_end_matches("/>").to_string()
                        + &format!(r#" properties="{}" />"#, props_str)
                } else {
                    // Open-close tag: <itemref idref="ch1">
                    // This case is rare for itemref but handle it
                    matched.trim_end_matches('>').to_string()
                        + &format!(r#" properties="{}">"#, props_str)
                };
                opf_xml = opf_xml.replace(&matched, &new_itemref);
            }
        }
    }

    std::fs::write(opf_path, opf_xml)?;
    Ok(())
}

fn build_rendition_xml(input: &WriteFixedLayoutInput) -> String {
    let mut xml = String::new();
    if let Some(ref val) = input.rendition_layout {
        xml.push_str(&format!(
            "\n    <meta property=\"rendition:layout\">{}</meta>",
            escape_xml_str(val)
        ));
    }
    if let Some(ref val) = input.rendition_orientation {
        xml.push_str(&format!(
            "\n    <meta property=\"rendition:orientation\">{}</meta>",
            escape_xml_str(val)
        ));
    }
    if let Some(ref val) = input.rendition_spread {
        xml.push_str(&format!(
            "\n    <meta property=\"rendition:spread\">{}</meta>",
            escape_xml_str(val)
        ));
    }
    xml
}
