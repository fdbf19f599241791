use std::collections::HashMap;
use std::io::{BufRead, Write};

use mcp_epub::cache::EpubCache;
use mcp_epub::epub::types::{ContentModification, CreateEpubInput, TextPatch, WriteMetadataInput};
use mcp_epub::EpubError;

#[tokio::main]
async fn main() {
    let cache = EpubCache::new(16);

    let stdin = std::io::stdin();
    let stdout = std::io::stdout();

    let reader = std::io::BufReader::new(stdin.lock());

    for line in reader.lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => break,
        };

        if line.trim().is_empty() {
            continue;
        }

        let request: serde_json::Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                let err_resp = serde_json::json!({
                    "jsonrpc": "2.0",
                    "id": serde_json::Value::Null,
                    "error": {
                        "code": -32700,
                        "message": format!("Parse error: {}", e)
                    }
                });
                let mut out = stdout.lock();
                let _ = writeln!(out, "{}", err_resp);
                let _ = out.flush();
                continue;
            }
        };

        let method = request["method"].as_str().unwrap_or("").to_string();
        let id = request["id"].clone();
        let params = request["params"].clone();

        let response = handle_request(&cache, &method, &params);

        let resp = match response {
            Ok(result) => serde_json::json!({
                "jsonrpc": "2.0",
                "id": id,
                "result": result
            }),
            Err(e) => {
                let (code, message) = map_error(&e);
                serde_json::json!({
                    "jsonrpc": "2.0",
                    "id": id,
                    "error": {
                        "code": code,
                        "message": message
                    }
                })
            }
        };

        let mut out = stdout.lock();
        let _ = writeln!(out, "{}", resp);
        let _ = out.flush();
    }
}

fn handle_request(
    cache: &EpubCache,
    method: &str,
    params: &serde_json::Value,
) -> Result<serde_json::Value, EpubError> {
    match method {
        "initialize" => Ok(serde_json::json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {
                "tools": {}
            },
            "serverInfo": {
                "name": "mcp-epub",
                "version": "0.1.0"
            }
        })),
        "notifications/initialized" => Ok(serde_json::json!({})),
        "tools/list" => Ok(serde_json::json!({ "tools": list_tools() })),
        "tools/call" => {
            let name = params["name"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing tool name".to_string()))?;
            let arguments = &params["arguments"];
            handle_tool_call(cache, name, arguments)
        }
        _ => Err(EpubError::ParseError(format!("Unknown method: {}", method))),
    }
}

fn handle_tool_call(
    cache: &EpubCache,
    name: &str,
    args: &serde_json::Value,
) -> Result<serde_json::Value, EpubError> {
    match name {
        "read_epub_metadata" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let metadata = mcp_epub::tools::read_metadata::read_epub_metadata(cache, file_path)?;
            Ok(to_camel_case_value(&metadata))
        }
        "read_epub_content" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let chapters = &args["chapters"];
            let format = args["format"].as_str().unwrap_or("text");
            let selector = args["selector"].as_str();

            let chapters_out = mcp_epub::tools::read_content::read_epub_content(
                cache, file_path, chapters, format, selector,
            )?;
            Ok(serde_json::json!({ "chapters": to_camel_case_value(&chapters_out) }))
        }
        "read_epub_toc" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let entries = mcp_epub::tools::read_toc::read_epub_toc(cache, file_path)?;
            Ok(serde_json::json!({ "entries": entries }))
        }
        "write_epub_metadata" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let meta = &args["metadata"];
            let output_path = args["output_path"].as_str();

            let metadata_input = WriteMetadataInput {
                title: meta["title"].as_str().map(|s| s.to_string()),
                creator: meta["creator"].as_str().map(|s| s.to_string()),
                publisher: meta["publisher"].as_str().map(|s| s.to_string()),
                language: meta["language"].as_str().map(|s| s.to_string()),
                identifier: meta["identifier"].as_str().map(|s| s.to_string()),
                date: meta["date"].as_str().map(|s| s.to_string()),
                rights: meta["rights"].as_str().map(|s| s.to_string()),
                description: meta["description"].as_str().map(|s| s.to_string()),
                subjects: meta["subjects"].as_array().map(|arr| {
                    arr.iter()
                        .filter_map(|v| v.as_str().map(|s| s.to_string()))
                        .collect()
                }),
            };

            let out_path = mcp_epub::tools::write_metadata::write_epub_metadata(
                cache,
                file_path,
                &metadata_input,
                output_path,
            )?;
            Ok(serde_json::json!({
                "success": true,
                "outputPath": out_path
            }))
        }
        "modify_epub_content" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let output_path = args["output_path"].as_str();

            let modifications: Vec<ContentModification> =
                serde_json::from_value(args["modifications"].clone())
                    .map_err(|e| EpubError::ParseError(format!("Invalid modifications: {}", e)))?;

            let result = mcp_epub::tools::write_content::modify_epub_content(
                cache,
                file_path,
                &modifications,
                output_path,
            )?;

            let results_json: Vec<serde_json::Value> = result
                .results
                .into_iter()
                .map(|r| {
                    serde_json::json!({
                        "selector": r.selector,
                        "action": r.action,
                        "matchedCount": r.matched_count,
                        "affectedFiles": r.affected_files
                    })
                })
                .collect();

            Ok(serde_json::json!({
                "success": true,
                "outputPath": result.output_path,
                "totalModifications": result.total_modifications,
                "results": results_json
            }))
        }
        "patch_epub_content" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let output_path = args["output_path"].as_str();

            let patches: Vec<TextPatch> = serde_json::from_value(args["patches"].clone())
                .map_err(|e| EpubError::ParseError(format!("Invalid patches: {}", e)))?;

            let result = mcp_epub::tools::patch_content::patch_epub_content(
                cache,
                file_path,
                &patches,
                output_path,
            )?;

            let results_json: Vec<serde_json::Value> = result
                .results
                .into_iter()
                .map(|r| {
                    serde_json::json!({
                        "searchText": r.search_text,
                        "occurrencesFound": r.occurrences_found,
                        "occurrencesReplaced": r.occurrences_replaced,
                        "chapterId": r.chapter_id,
                        "replaced": r.replaced
                    })
                })
                .collect();

            Ok(serde_json::json!({
                "success": true,
                "outputPath": result.output_path,
                "totalPatches": result.total_patches,
                "results": results_json
            }))
        }
        "replace_epub_lines" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let chapter = args["chapter"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing chapter".to_string()))?;
            let start_line = args["start_line"]
                .as_u64()
                .ok_or_else(|| EpubError::ParseError("Missing or invalid start_line".to_string()))?
                as usize;
            let end_line = args["end_line"]
                .as_u64()
                .ok_or_else(|| EpubError::ParseError("Missing or invalid end_line".to_string()))?
                as usize;
            let new_text = args["new_text"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing new_text".to_string()))?;
            let output_path = args["output_path"].as_str();

            let result = mcp_epub::tools::replace_lines::replace_epub_lines(
                cache,
                file_path,
                chapter,
                start_line,
                end_line,
                new_text,
                output_path,
            )?;

            Ok(serde_json::json!({
                "success": true,
                "outputPath": result.output_path,
                "chapterId": result.chapter_id,
                "linesReplaced": {
                    "start": result.lines_replaced.start,
                    "end": result.lines_replaced.end,
                    "count": result.lines_replaced.count
                },
                "newLineCount": result.new_line_count,
                "warning": result.warning
            }))
        }
        "list_epub_stylesheets" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let stylesheets =
                mcp_epub::tools::list_stylesheets::list_epub_stylesheets(cache, file_path)?;
            Ok(serde_json::json!({ "stylesheets": stylesheets }))
        }
        "read_epub_stylesheet" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let stylesheet_id = args["stylesheet_id"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing stylesheet_id".to_string()))?;
            let result = mcp_epub::tools::read_stylesheet::read_epub_stylesheet(
                cache,
                file_path,
                stylesheet_id,
            )?;
            Ok(serde_json::json!({
                "id": result.id,
                "path": result.path,
                "content": result.content,
                "sizeBytes": result.size_bytes
            }))
        }
        "update_epub_stylesheet" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let stylesheet_id = args["stylesheet_id"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing stylesheet_id".to_string()))?;
            let action = args["action"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing action".to_string()))?;
            let css_text = args["css_text"].as_str();
            let selector = args["selector"].as_str();
            let properties = args["properties"].as_object().map(|obj| {
                obj.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                    .collect::<HashMap<String, String>>()
            });
            let output_path = args["output_path"].as_str();

            let result = mcp_epub::tools::update_stylesheet::update_epub_stylesheet(
                cache,
                file_path,
                stylesheet_id,
                action,
                css_text,
                selector,
                properties.as_ref(),
                output_path,
            )?;

            Ok(serde_json::json!({
                "success": true,
                "outputPath": result.output_path,
                "stylesheetId": result.stylesheet_id,
                "action": result.action,
                "details": {
                    "rulesMatched": result.rules_matched,
                    "propertiesModified": result.properties_modified,
                    "bytes_appended": result.bytes_appended
                }
            }))
        }
        "create_epub" => {
            let input: CreateEpubInput = serde_json::from_value(args.clone())
                .map_err(|e| EpubError::ParseError(format!("Invalid input: {}", e)))?;
            let out_path = mcp_epub::tools::create_epub::create_epub(&input)?;
            Ok(serde_json::json!({
                "success": true,
                "outputPath": out_path
            }))
        }
        "search_epub_content" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let chapters = &args["chapters"];
            let query = args["query"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing query".to_string()))?;
            let case_sensitive = args["case_sensitive"].as_bool().unwrap_or(false);
            let max_results = args["max_results"].as_u64().unwrap_or(100) as usize;

            let results = mcp_epub::tools::search_content::search_epub_content(
                cache,
                file_path,
                chapters,
                query,
                case_sensitive,
                max_results,
            )?;
            Ok(serde_json::json!({ "results": results }))
        }
        "get_epub_statistics" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let chapters = args
                .get("chapters")
                .cloned()
                .unwrap_or(serde_json::Value::String("all".to_string()));

            let stats =
                mcp_epub::tools::statistics::get_epub_statistics(cache, file_path, &chapters)?;
            Ok(stats)
        }
        "extract_epub_links" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let chapters = args
                .get("chapters")
                .cloned()
                .unwrap_or(serde_json::Value::String("all".to_string()));

            let links =
                mcp_epub::tools::extract_links::extract_epub_links(cache, file_path, &chapters)?;
            Ok(links)
        }
        "list_epub_images" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;

            let result = mcp_epub::tools::list_images::list_epub_images(cache, file_path)?;
            Ok(result)
        }
        "read_epub_chapter_map" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;

            let result = mcp_epub::tools::chapter_map::read_epub_chapter_map(cache, file_path)?;
            Ok(result)
        }
        "list_epub_resources" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let result = mcp_epub::tools::list_resources::list_epub_resources(cache, file_path)?;
            Ok(serde_json::json!({ "resources": result }))
        }
        "delete_epub_resource" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let resource_id = args["resource_id"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing resource_id".to_string()))?;
            let output_path = args["output_path"].as_str();
            let out_path = mcp_epub::tools::delete_resource::delete_epub_resource(
                cache,
                file_path,
                resource_id,
                output_path,
            )?;
            Ok(serde_json::json!({
                "success": true,
                "outputPath": out_path
            }))
        }
        "reorder_epub_spine" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let chapter_ids: Vec<String> = args["chapter_ids"]
                .as_array()
                .map(|arr| {
                    arr.iter()
                        .filter_map(|v| v.as_str().map(|s| s.to_string()))
                        .collect()
                })
                .ok_or_else(|| {
                    EpubError::ParseError("Missing or invalid chapter_ids".to_string())
                })?;
            let output_path = args["output_path"].as_str();
            let out_path = mcp_epub::tools::reorder_spine::reorder_epub_spine(
                cache,
                file_path,
                &chapter_ids,
                output_path,
            )?;
            Ok(serde_json::json!({
                "success": true,
                "outputPath": out_path
            }))
        }
        "edit_epub_toc" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let entries: Vec<mcp_epub::epub::types::TocEntry> =
                serde_json::from_value(args["entries"].clone())
                    .map_err(|e| EpubError::ParseError(format!("Invalid entries: {}", e)))?;
            let output_path = args["output_path"].as_str();
            let out_path =
                mcp_epub::tools::edit_toc::edit_epub_toc(cache, file_path, &entries, output_path)?;
            Ok(serde_json::json!({
                "success": true,
                "outputPath": out_path
            }))
        }
        "validate_epub" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let result = mcp_epub::tools::validate_epub::validate_epub_file(cache, file_path)?;
            Ok(result)
        }
        "get_epub_info" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let result = mcp_epub::tools::epub_info::get_epub_info(cache, file_path)?;
            Ok(result)
        }
        "set_epub_cover" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let image_path = args["image_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing image_path".to_string()))?;
            let remove_existing = args["remove_existing"].as_bool().unwrap_or(true);
            let output_path = args["output_path"].as_str();
            let out_path = mcp_epub::tools::set_cover::set_epub_cover(
                cache,
                file_path,
                image_path,
                remove_existing,
                output_path,
            )?;
            Ok(serde_json::json!({
                "success": true,
                "outputPath": out_path
            }))
        }
        "add_epub_chapter" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let chapter_id = args["chapter_id"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing chapter_id".to_string()))?;
            let title = args["title"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing title".to_string()))?;
            let html_content = args["html_content"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing html_content".to_string()))?;
            let after_id = args["after_id"].as_str();
            let output_path = args["output_path"].as_str();
            let out_path = mcp_epub::tools::manage_chapters::add_epub_chapter(
                cache,
                file_path,
                chapter_id,
                title,
                html_content,
                after_id,
                output_path,
            )?;
            Ok(serde_json::json!({
                "success": true,
                "outputPath": out_path
            }))
        }
        "delete_epub_chapter" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let chapter_id = args["chapter_id"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing chapter_id".to_string()))?;
            let output_path = args["output_path"].as_str();
            let out_path = mcp_epub::tools::manage_chapters::delete_epub_chapter(
                cache,
                file_path,
                chapter_id,
                output_path,
            )?;
            Ok(serde_json::json!({
                "success": true,
                "outputPath": out_path
            }))
        }
        "add_epub_resource" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let resource_path = args["resource_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing resource_path".to_string()))?;
            let manifest_id = args["manifest_id"].as_str();
            let target_dir = args["target_dir"].as_str();
            let properties: Vec<String> = args["properties"]
                .as_array()
                .map(|arr| {
                    arr.iter()
                        .filter_map(|v| v.as_str().map(|s| s.to_string()))
                        .collect()
                })
                .unwrap_or_default();
            let add_to_spine = args["add_to_spine"].as_bool();
            let output_path = args["output_path"].as_str();

            let out_path = mcp_epub::tools::add_resource::add_epub_resource(
                cache,
                file_path,
                resource_path,
                manifest_id,
                target_dir,
                &properties,
                add_to_spine,
                output_path,
            )?;
            Ok(serde_json::json!({
                "success": true,
                "outputPath": out_path
            }))
        }
        "get_epub_spec" => {
            let topic = args["topic"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing topic".to_string()))?;
            let result = mcp_epub::tools::epub_spec::get_epub_spec(topic)?;
            Ok(result)
        }
        "read_epub_fixed_layout" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let result = mcp_epub::tools::fixed_layout::read_epub_fixed_layout(cache, file_path)?;
            Ok(serde_json::json!({
                "renditionLayout": result.rendition_layout,
                "renditionOrientation": result.rendition_orientation,
                "renditionSpread": result.rendition_spread,
                "spineOverrides": result.spine_overrides
            }))
        }
        "write_epub_fixed_layout" => {
            let file_path = args["file_path"]
                .as_str()
                .ok_or_else(|| EpubError::ParseError("Missing file_path".to_string()))?;
            let input: mcp_epub::epub::types::WriteFixedLayoutInput =
                serde_json::from_value(args.clone())
                    .map_err(|e| EpubError::ParseError(format!("Invalid input: {}", e)))?;
            let output_path = args["output_path"].as_str();

            let out_path = mcp_epub::tools::fixed_layout::write_epub_fixed_layout(
                cache,
                file_path,
                &input,
                output_path,
            )?;
            Ok(serde_json::json!({
                "success": true,
                "outputPath": out_path
            }))
        }
        _ => Err(EpubError::ParseError(format!("Unknown tool: {}", name))),
    }
}

fn list_tools() -> Vec<serde_json::Value> {
    vec![
        tool_definition(
            "list_epub_resources",
            "List all resources (files) declared in the EPUB manifest with their IDs, paths, media types, and spine status. This is a generic resource listing — unlike list_epub_images or list_epub_stylesheets which filter by type, this returns every manifest item.",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the EPUB file"
                    }
                },
                "required": ["file_path"]
            }),
        ),
        tool_definition(
            "delete_epub_resource",
            "Delete a resource from an EPUB file by manifest ID. Removes the manifest entry, optional spine reference, and optionally deletes the underlying file. Use this to remove images, fonts, stylesheets, chapters, or any other resource from the EPUB. Use output_path to create a modified copy.",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the source EPUB file"
                    },
                    "resource_id": {
                        "type": "string",
                        "description": "Manifest ID of the resource to delete (from list_epub_resources)"
                    },
                    "output_path": {
                        "type": "string",
                        "description": "Optional output path. If not provided, overwrites source file."
                    }
                },
                "required": ["file_path", "resource_id"]
            }),
        ),
        tool_definition(
            "reorder_epub_spine",
            "Reorder the spine (reading order) of chapters in an EPUB file. Provide the chapter IDs in the desired order. Only XHTML content documents referenced in the spine will be affected. Use this to change chapter order, move front/back matter, or re-sequence content.",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the source EPUB file"
                    },
                    "chapter_ids": {
                        "type": "array",
                        "items": { "type": "string" },
                        "description": "Chapter manifest IDs in the desired reading order"
                    },
                    "output_path": {
                        "type": "string",
                        "description": "Optional output path. If not provided, overwrites source file."
                    }
                },
                "required": ["file_path", "chapter_ids"]
            }),
        ),
        tool_definition(
            "edit_epub_toc",
            "Edit the table of contents (NCX) in an EPUB file. Provide an array of TOC entries with labels, hrefs, and optional IDs and play orders. This completely rewrites the NCX file.",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the source EPUB file"
                    },
                    "entries": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "label": { "type": "string", "description": "Display text for this TOC entry" },
                                "href": { "type": "string", "description": "Relative path to content file" },
                                "play_order": { "type": "integer", "description": "Reading order position" },
                                "id": { "type": "string", "description": "Optional navPoint ID" },
                                "children": {
                                    "type": "array",
                                    "items": { "$ref": "#/" }
                                }
                            },
                            "required": ["label", "href"]
                        },
                        "description": "Array of TOC entries (nested structure with children)"
                    },
                    "output_path": {
                        "type": "string",
                        "description": "Optional output path. If not provided, overwrites source file."
                    }
                },
                "required": ["file_path", "entries"]
            }),
        ),
        tool_definition(
            "validate_epub",
            "Validate an EPUB file's structure — check OPF well-formedness, manifest completeness, spine integrity, and file existence. Returns a report of passed/failed checks, issues, and warnings. Does NOT run epubcheck — this is a structural sanity check.",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the EPUB file to validate"
                    }
                },
                "required": ["file_path"]
            }),
        ),
        tool_definition(
            "get_epub_info",
            "Get technical information about an EPUB file including file size, EPUB version, chapter count, TOC entry count, and resource counts (XHTML, CSS, images, fonts). Does NOT read full content — provides a lightweight overview.",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the EPUB file"
                    }
                },
                "required": ["file_path"]
            }),
        ),
        tool_definition(
            "set_epub_cover",
            "Set or change the cover image of an EPUB file. Adds the specified image to the EPUB manifest with the 'cover-image' property. Optionally removes any existing cover image first (default: true). Supports JPEG, PNG, GIF, SVG, and WebP cover images.",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the source EPUB file"
                    },
                    "image_path": {
                        "type": "string",
                        "description": "Absolute path to the cover image file"
                    },
                    "remove_existing": {
                        "type": "boolean",
                        "default": true,
                        "description": "Whether to remove any existing cover image before adding the new one"
                    },
                    "output_path": {
                        "type": "string",
                        "description": "Optional output path. If not provided, overwrites source file."
                    }
                },
                "required": ["file_path", "image_path"]
            }),
        ),
        tool_definition(
            "add_epub_chapter",
            "Add a new XHTML chapter to an existing EPUB file with proper manifest, spine, and table of contents (NCX) integration. Optionally insert after a specific chapter ID. Supports automatic NCX navPoint creation.",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the source EPUB file"
                    },
                    "chapter_id": {
                        "type": "string",
                        "description": "Unique chapter identifier (used in manifest, spine, and NCX)"
                    },
                    "title": {
                        "type": "string",
                        "description": "Chapter title (used in NCX TOC entry)"
                    },
                    "html_content": {
                        "type": "string",
                        "description": "XHTML content for the chapter body (without <html>/<body> wrapper)"
                    },
                    "after_id": {
                        "type": "string",
                        "description": "Optional — insert this chapter after the specified manifest/spine ID"
                    },
                    "output_path": {
                        "type": "string",
                        "description": "Optional output path. If not provided, overwrites source file."
                    }
                },
                "required": ["file_path", "chapter_id", "title", "html_content"]
            }),
        ),
        tool_definition(
            "delete_epub_chapter",
            "Delete a chapter from an EPUB file by chapter ID. Removes the chapter from the manifest, spine, and NCX table of contents, and deletes the underlying XHTML file. Use add_epub_resource or add_epub_chapter to add new content.",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the source EPUB file"
                    },
                    "chapter_id": {
                        "type": "string",
                        "description": "Manifest ID of the chapter to delete"
                    },
                    "output_path": {
                        "type": "string",
                        "description": "Optional output path. If not provided, overwrites source file."
                    }
                },
                "required": ["file_path", "chapter_id"]
            }),
        ),
        tool_definition(
            "add_epub_resource",
            "Add any file (image, font, stylesheet, audio, video, XHTML chapter, or other resource) into an existing EPUB file. The file is added to the EPUB manifest and the EPUB is re-packed. For XHTML files, the resource is automatically added to the spine as a new chapter. Supports images (JPEG, PNG, GIF, SVG, WebP), fonts (OTF, TTF, WOFF, WOFF2), audio (MP3, AAC, M4A), video (MP4), CSS, JavaScript, and XHTML. Use output_path to create a modified copy.",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the source EPUB file"
                    },
                    "resource_path": {
                        "type": "string",
                        "description": "Absolute path to the file to add to the EPUB"
                    },
                    "manifest_id": {
                        "type": "string",
                        "description": "Optional manifest ID (auto-generated from filename if omitted)"
                    },
                    "target_dir": {
                        "type": "string",
                        "description": "Optional subdirectory within EPUB (e.g., 'images', 'fonts', 'styles'). Auto-detected from file type if omitted."
                    },
                    "properties": {
                        "type": "array",
                        "items": { "type": "string" },
                        "description": "Optional manifest properties (e.g., ['cover-image'], ['nav'], ['scripted'])"
                    },
                    "add_to_spine": {
                        "type": "boolean",
                        "description": "Whether to add this resource to the reading order (spine). Auto-set for XHTML files. Only valid for application/xhtml+xml."
                    },
                    "output_path": {
                        "type": "string",
                        "description": "Optional output path. If not provided, overwrites source file."
                    }
                },
                "required": ["file_path", "resource_path"]
            }),
        ),
        tool_definition(
            "create_epub",
            "Create a new EPUB file with chapters, metadata, optional cover image, and optional stylesheet. Supports EPUB 2.0 (default) and EPUB 3.0 with fixed-layout options for comics, children's books, and designed publications.",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "outputPath": {
                        "type": "string",
                        "description": "Absolute path where the new EPUB file will be created"
                    },
                    "title": {
                        "type": "string",
                        "description": "Book title"
                    },
                    "creator": {
                        "type": "string",
                        "description": "Author/creator name"
                    },
                    "publisher": {
                        "type": "string",
                        "description": "Publisher name"
                    },
                    "language": {
                        "type": "string",
                        "description": "Language code (e.g., 'en', 'th')",
                        "default": "en"
                    },
                    "identifier": {
                        "type": "string",
                        "description": "ISBN or unique identifier (auto-generated if omitted)"
                    },
                    "date": {
                        "type": "string",
                        "description": "Publication date (ISO 8601)"
                    },
                    "rights": {
                        "type": "string",
                        "description": "Copyright/rights statement"
                    },
                    "description": {
                        "type": "string",
                        "description": "Book description/synopsis"
                    },
                    "subjects": {
                        "type": "array",
                        "items": { "type": "string" },
                        "description": "Subject/keyword tags"
                    },
                    "chapters": {
                        "type": "array",
                        "description": "Chapter content for the book",
                        "items": {
                            "type": "object",
                            "properties": {
                                "id": { "type": "string", "description": "Unique chapter identifier (used in manifest and spine)" },
                                "title": { "type": "string", "description": "Chapter title" },
                                "htmlContent": { "type": "string", "description": "XHTML content for the chapter body (without <html>/<body> wrapper)" }
                            },
                            "required": ["id", "title", "htmlContent"]
                        },
                        "minItems": 1
                    },
                    "coverImagePath": {
                        "type": "string",
                        "description": "Absolute path to a cover image file (JPEG, PNG, GIF, or SVG)"
                    },
                    "stylesheetContent": {
                        "type": "string",
                        "description": "CSS stylesheet content to include in the EPUB"
                    },
                    "epubVersion": {
                        "type": "string",
                        "enum": ["2.0", "3.0"],
                        "description": "EPUB version (2.0 or 3.0). Use 3.0 for fixed-layout EPUBs.",
                        "default": "2.0"
                    },
                    "fixedLayout": {
                        "type": "object",
                        "description": "Fixed-layout properties for EPUB 3.0. Required for comics, children's books, and designed publications with exact page dimensions.",
                        "properties": {
                            "rendition_layout": {
                                "type": "string",
                                "enum": ["reflowable", "pre-paginated"],
                                "description": "Layout type. Use 'pre-paginated' for fixed-layout."
                            },
                            "rendition_orientation": {
                                "type": "string",
                                "enum": ["auto", "landscape", "portrait"],
                                "description": "Preferred reading orientation"
                            },
                            "rendition_spread": {
                                "type": "string",
                                "enum": ["auto", "both", "none", "landscape"],
                                "description": "How pages display side-by-side (auto = reading system decides)"
                            }
                        }
                    },
                    "spineProperties": {
                        "type": "array",
                        "description": "Per-spine item overrides for page spread and layout properties",
                        "items": {
                            "type": "object",
                            "properties": {
                                "idref": {
                                    "type": "string",
                                    "description": "Chapter ID to apply properties to"
                                },
                                "properties": {
                                    "type": "array",
                                    "items": { "type": "string" },
                                    "description": "Properties to apply (e.g., ['page-spread-right', 'rendition:layout-pre-paginated'])"
                                }
                            },
                            "required": ["idref"]
                        }
                    }
                },
                "required": ["outputPath", "title", "chapters"]
            }),
        ),
        tool_definition(
            "read_epub_metadata",
            "Read book metadata from an EPUB file",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the EPUB file"
                    }
                },
                "required": ["file_path"]
            }),
        ),
        tool_definition(
            "read_epub_content",
            "Read chapter content from an EPUB file",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string", "description": "Absolute path to the EPUB file" },
                    "chapters": {
                        "oneOf": [
                            { "type": "array", "items": { "type": "string" }, "description": "List of chapter IDs" },
                            { "type": "string", "enum": ["all"], "description": "Read all chapters" }
                        ],
                        "description": "Chapter IDs or 'all'"
                    },
                    "format": {
                        "type": "string",
                        "enum": ["html", "text", "lines"],
                        "default": "text"
                    },
                    "selector": {
                        "type": "string",
                        "description": "Optional CSS selector to filter elements"
                    }
                },
                "required": ["file_path", "chapters"]
            }),
        ),
        tool_definition(
            "read_epub_toc",
            "Read the table of contents from an EPUB file",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string", "description": "Absolute path to the EPUB file" }
                },
                "required": ["file_path"]
            }),
        ),
        tool_definition(
            "write_epub_metadata",
            "Modify metadata fields in an EPUB file",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string", "description": "Absolute path to the source EPUB" },
                    "metadata": {
                        "type": "object",
                        "properties": {
                            "title": { "type": "string" },
                            "creator": { "type": "string" },
                            "publisher": { "type": "string" },
                            "language": { "type": "string" },
                            "identifier": { "type": "string" },
                            "date": { "type": "string" },
                            "rights": { "type": "string" },
                            "description": { "type": "string" },
                            "subjects": { "type": "array", "items": { "type": "string" } }
                        }
                    },
                    "output_path": { "type": "string", "description": "Optional output path" }
                },
                "required": ["file_path", "metadata"]
            }),
        ),
        tool_definition(
            "modify_epub_content",
            "Modify elements within EPUB chapters using CSS selectors",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string", "description": "Absolute path to the source EPUB" },
                    "modifications": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "selector": { "type": "string" },
                                "action": {
                                    "type": "string",
                                    "enum": ["replace_text", "replace_html", "set_attribute", "remove_attribute", "prepend", "append", "remove"]
                                },
                                "value": { "type": "string" },
                                "attribute_name": { "type": "string" }
                            },
                            "required": ["selector", "action"]
                        },
                        "maxItems": 100
                    },
                    "output_path": { "type": "string", "description": "Optional output path" }
                },
                "required": ["file_path", "modifications"]
            }),
        ),
        tool_definition(
            "patch_epub_content",
            "Search and replace text within EPUB chapters using literal text matching",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string", "description": "Absolute path to the source EPUB" },
                    "patches": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "chapter": { "type": "string", "description": "Chapter ID or 'all'" },
                                "search_text": { "type": "string", "description": "Literal text to search for" },
                                "replace_text": { "type": "string", "description": "Replacement text" },
                                "match_occurrence": {
                                    "oneOf": [
                                        { "type": "string", "enum": ["first", "all"] },
                                        { "type": "integer", "minimum": 1 }
                                    ]
                                }
                            },
                            "required": ["chapter", "search_text", "replace_text"]
                        },
                        "maxItems": 100
                    },
                    "output_path": { "type": "string" }
                },
                "required": ["file_path", "patches"]
            }),
        ),
        tool_definition(
            "replace_epub_lines",
            "Replace content at specific line numbers within a chapter",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string" },
                    "chapter": { "type": "string" },
                    "start_line": { "type": "integer", "minimum": 1 },
                    "end_line": { "type": "integer", "minimum": 1 },
                    "new_text": { "type": "string" },
                    "output_path": { "type": "string" }
                },
                "required": ["file_path", "chapter", "start_line", "end_line", "new_text"]
            }),
        ),
        tool_definition(
            "list_epub_stylesheets",
            "List all CSS stylesheets in the EPUB manifest",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string" }
                },
                "required": ["file_path"]
            }),
        ),
        tool_definition(
            "read_epub_stylesheet",
            "Read the full CSS content of a specific stylesheet",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string" },
                    "stylesheet_id": { "type": "string", "description": "Manifest ID from list_epub_stylesheets" }
                },
                "required": ["file_path", "stylesheet_id"]
            }),
        ),
        tool_definition(
            "update_epub_stylesheet",
            "Modify a global CSS stylesheet in the EPUB",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string" },
                    "stylesheet_id": { "type": "string" },
                    "action": {
                        "type": "string",
                        "enum": ["append_rules", "replace_properties"]
                    },
                    "css_text": { "type": "string", "description": "CSS text to append (for append_rules)" },
                    "selector": { "type": "string", "description": "CSS selector for replace_properties" },
                    "properties": {
                        "type": "object",
                        "additionalProperties": { "type": "string" },
                        "description": "Property-value pairs for replace_properties"
                    },
                    "output_path": { "type": "string" }
                },
                "required": ["file_path", "stylesheet_id", "action"]
            }),
        ),
        tool_definition(
            "search_epub_content",
            "Search EPUB chapter content using regex pattern matching",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string", "description": "Absolute path to the EPUB file" },
                    "query": { "type": "string", "description": "Regex pattern to search for" },
                    "chapters": {
                        "oneOf": [
                            { "type": "array", "items": { "type": "string" }, "description": "List of chapter IDs" },
                            { "type": "string", "enum": ["all"], "description": "Search all chapters" }
                        ],
                        "default": "all",
                        "description": "Chapter IDs to search, or 'all'"
                    },
                    "case_sensitive": {
                        "type": "boolean",
                        "default": false,
                        "description": "Whether the search is case-sensitive"
                    },
                    "max_results": {
                        "type": "integer",
                        "default": 100,
                        "minimum": 1,
                        "maximum": 10000,
                        "description": "Maximum results per chapter"
                    }
                },
                "required": ["file_path", "query"]
            }),
        ),
        tool_definition(
            "get_epub_statistics",
            "Get content statistics for EPUB chapters (word count, reading time, headings, links, images)",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string", "description": "Absolute path to the EPUB file" },
                    "chapters": {
                        "oneOf": [
                            { "type": "array", "items": { "type": "string" }, "description": "List of chapter IDs" },
                            { "type": "string", "enum": ["all"], "description": "All chapters" }
                        ],
                        "default": "all",
                        "description": "Chapter IDs or 'all'"
                    }
                },
                "required": ["file_path"]
            }),
        ),
        tool_definition(
            "extract_epub_links",
            "Extract all hyperlinks from EPUB chapters, categorized as internal or external",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string", "description": "Absolute path to the EPUB file" },
                    "chapters": {
                        "oneOf": [
                            { "type": "array", "items": { "type": "string" }, "description": "List of chapter IDs" },
                            { "type": "string", "enum": ["all"], "description": "All chapters" }
                        ],
                        "default": "all",
                        "description": "Chapter IDs or 'all'"
                    }
                },
                "required": ["file_path"]
            }),
        ),
        tool_definition(
            "list_epub_images",
            "List all images in the EPUB manifest with their paths and which chapters reference them",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string", "description": "Absolute path to the EPUB file" }
                },
                "required": ["file_path"]
            }),
        ),
        tool_definition(
            "read_epub_chapter_map",
            "List all chapters with their IDs, titles, file paths, and word counts",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": { "type": "string", "description": "Absolute path to the EPUB file" }
                },
                "required": ["file_path"]
            }),
        ),
        tool_definition(
            "get_epub_spec",
            "Get EPUB specification reference for creating or editing EPUB files. Use this to look up EPUB format rules, required structures, metadata schemas, core media types, and best practices without needing external documentation. Use topic 'list' to see all available topics.",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "topic": {
                        "type": "string",
                        "description": "EPUB specification topic to look up. Use 'list' to see all available topics, or 'all' for the complete reference.",
                        "enum": [
                            "list", "all",
                            "overview", "required_files", "mimetype", "container_xml",
                            "package_document", "opf_metadata", "opf_manifest", "opf_spine",
                            "core_media_types", "content_xhtml", "content_svg",
                            "css_requirements", "css_prefixed_properties",
                            "navigation_document", "zip_container", "fixed_layout",
                            "creating_epub", "editing_epub", "best_practices",
                            "resource_fallbacks", "data_urls"
                        ]
                    }
                },
                "required": ["topic"]
            }),
        ),
        tool_definition(
            "read_epub_fixed_layout",
            "Read fixed-layout properties from an EPUB file. Returns rendition:layout, rendition:orientation, rendition:spread global settings from OPF metadata, and per-spine property overrides from itemref elements. Use this to check if an EPUB uses fixed layout (pre-paginated) and what spread/layout behavior each chapter has.",
            true,
            false,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the EPUB file"
                    }
                },
                "required": ["file_path"]
            }),
        ),
        tool_definition(
            "write_epub_fixed_layout",
            "Write or modify fixed-layout properties in an EPUB file. Updates rendition:layout, rendition:orientation, and rendition:spread global settings in the OPF metadata, and can set per-spine property overrides on individual itemref elements (e.g., page-spread-right, rendition:layout-pre-paginated). Use this to convert a reflowable EPUB to fixed-layout or adjust spread behavior.",
            false,
            true,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "file_path": {
                        "type": "string",
                        "description": "Absolute path to the source EPUB file"
                    },
                    "rendition_layout": {
                        "type": "string",
                        "enum": ["reflowable", "pre-paginated"],
                        "description": "Global layout type. Set to 'pre-paginated' for fixed-layout."
                    },
                    "rendition_orientation": {
                        "type": "string",
                        "enum": ["auto", "landscape", "portrait"],
                        "description": "Global preferred reading orientation"
                    },
                    "rendition_spread": {
                        "type": "string",
                        "enum": ["auto", "both", "none", "landscape"],
                        "description": "Global spread behavior for two-page display"
                    },
                    "spine_overrides": {
                        "type": "array",
                        "description": "Per-spine property overrides for individual chapters",
                        "items": {
                            "type": "object",
                            "properties": {
                                "idref": {
                                    "type": "string",
                                    "description": "Chapter ID to apply properties to"
                                },
                                "properties": {
                                    "type": "array",
                                    "items": { "type": "string" },
                                    "description": "Properties to set (e.g., ['page-spread-right', 'rendition:layout-pre-paginated'])"
                                }
                            },
                            "required": ["idref"]
                        }
                    },
                    "output_path": {
                        "type": "string",
                        "description": "Optional output path. If not provided, overwrites source file."
                    }
                },
                "required": ["file_path"]
            }),
        ),
    ]
}

fn tool_definition(
    name: &str,
    description: &str,
    read_only: bool,
    destructive: bool,
    input_schema: serde_json::Value,
) -> serde_json::Value {
    serde_json::json!({
        "name": name,
        "description": description,
        "inputSchema": input_schema,
        "annotations": {
            "readOnlyHint": read_only,
            "destructiveHint": destructive,
            "idempotentHint": read_only,
            "openWorldHint": true
        }
    })
}

fn map_error(error: &EpubError) -> (i32, String) {
    match error {
        EpubError::FileNotFound(msg) => (-32000, msg.clone()),
        EpubError::NotAnEpub(msg) => (-32001, msg.clone()),
        EpubError::ParseError(msg) => (-32002, msg.clone()),
        EpubError::ChapterNotFound(id, _) => (-32003, format!("Chapter not found: '{}'", id)),
        EpubError::TocNotFound => (-32004, "No table of contents found".to_string()),
        EpubError::WriteError(msg) => (-32005, msg.clone()),
        EpubError::IoError(e) => (-32006, e.to_string()),
        EpubError::ZipError(e) => (-32007, e.to_string()),
        EpubError::XmlError(msg) => (-32008, msg.clone()),
        EpubError::SelectorError { selector, detail } => (
            -32009,
            format!("Invalid CSS selector '{}': {}", selector, detail),
        ),
        EpubError::PatchNotFound { text, chapter } => (
            -32010,
            format!("Text not found in chapter '{}': '{}'", chapter, text),
        ),
        EpubError::LineRangeError { start, end, max } => (
            -32011,
            format!(
                "Invalid line range {}..={} (file has {} lines)",
                start, end, max
            ),
        ),
        EpubError::ContentValidationError { file, detail } => (
            -32013,
            format!("Validation failed in '{}': {}", file, detail),
        ),
        EpubError::WalkdirError(msg) => (-32006, msg.clone()),
    }
}

fn to_camel_case_value<T: serde::Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or_default()
}
