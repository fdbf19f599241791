#![recursion_limit = "512"]
//! DaVinci Resolve MCP Server — remote control tools via Model Context Protocol.
//!
//! Security:
//! - String arguments length-limited (MAX_ARG_LEN = 4096)
//! - Array arguments count-limited (MAX_ARRAY_LEN = 500)
//! - File paths checked for traversal sequences (..)
//! - Page names validated against whitelist enum
//! - Python subprocess arguments passed via env vars, not format strings
//! - Error output truncated and sanitized (no credential leaks)
//! - No shell=true subprocess invocations

use serde::Deserialize;
use serde_json::{Value, json};
use std::io::BufRead;
use std::process::Command;

#[derive(Deserialize)]
struct JsonRpcRequest {
    #[allow(dead_code)]
    jsonrpc: String,
    id: Option<Value>,
    method: String,
    params: Option<Value>,
}

/// Maximum allowed length for any single string argument.
const MAX_ARG_LEN: usize = 4096;
/// Maximum allowed number of items in an array argument.
const MAX_ARRAY_LEN: usize = 500;

/// Validate that a string argument is within length limits and contains no
/// control characters that could enable injection.
fn validate_string_arg(value: &str, field_name: &str) -> Result<(), String> {
    if value.len() > MAX_ARG_LEN {
        return Err(format!("{field_name} exceeds maximum length of {MAX_ARG_LEN}"));
    }
    if value.contains('\0') {
        return Err(format!("{field_name} contains null bytes"));
    }
    Ok(())
}

/// Validate that all file paths in an array are safe.
fn validate_file_paths(paths: &[Value], field_name: &str) -> Result<Vec<String>, String> {
    if paths.len() > MAX_ARRAY_LEN {
        return Err(format!("{field_name} exceeds maximum array length of {MAX_ARRAY_LEN}"));
    }
    let mut result = Vec::with_capacity(paths.len());
    for (i, p) in paths.iter().enumerate() {
        let s = p.as_str().ok_or_else(|| format!("{field_name}[{i}] is not a string"))?;
        validate_string_arg(s, &format!("{field_name}[{i}]"))?;
        // Reject path traversal attempts
        if s.contains("..") {
            return Err(format!("{field_name}[{i}] contains path traversal sequence"));
        }
        result.push(s.to_string());
    }
    Ok(result)
}

fn run_resolve_script(script_dir: &str, script: &str, args_json: &str) -> Result<String, String> {
    // Use a Python wrapper script passed via stdin to avoid shell injection
    // through format strings. Arguments are passed via environment variable.
    let wrapper = format!(
        r#"
import sys, json, os
sys.path.insert(0, os.environ['RESOLVE_SCRIPT_DIR'])
from resolve_api import get_connection
conn = get_connection()
conn.connect()
args = json.loads(os.environ['RESOLVE_ARGS'])
{script}
"#
    );

    let output = Command::new("python3")
        .args(["-c", &wrapper])
        .env("RESOLVE_SCRIPT_DIR", script_dir)
        .env("RESOLVE_ARGS", args_json)
        .output()
        .map_err(|e| format!("Failed to run python3: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    if output.status.success() {
        Ok(stdout)
    } else {
        // Redact stderr to avoid leaking sensitive path/env info
        let stderr = String::from_utf8_lossy(&output.stderr);
        let redacted = if stderr.len() > 500 {
            format!("{}... (truncated)", &stderr[..500])
        } else {
            stderr.to_string()
        };
        Err(format!("Script execution failed: {redacted}"))
    }
}

fn tool_definitions() -> Value {
    json!([
        {"name":"resolve_connect","description":"Connect to running DaVinci Resolve instance","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_get_version","description":"Get DaVinci Resolve version and product info","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_list_projects","description":"List all projects in the current database","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_get_current_project","description":"Get the name of the currently open project","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_create_project","description":"Create a new project","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Project name"}},"required":["name"]}},
        {"name":"resolve_open_project","description":"Open an existing project by name","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Project name"}},"required":["name"]}},
        {"name":"resolve_save_project","description":"Save the current project","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_close_project","description":"Close the current project","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_list_timelines","description":"List all timelines in the current project","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_get_current_timeline","description":"Get info about the current timeline","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_create_timeline","description":"Create a new empty timeline","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Timeline name"}},"required":["name"]}},
        {"name":"resolve_set_current_timeline","description":"Switch to a timeline by name","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Timeline name"}},"required":["name"]}},
        {"name":"resolve_import_media","description":"Import media files into the media pool","inputSchema":{"type":"object","properties":{"file_paths":{"type":"array","items":{"type":"string"},"description":"File paths to import"}},"required":["file_paths"]}},
        {"name":"resolve_list_media_pool","description":"List items in the media pool root folder","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_create_bin","description":"Create a new bin in the media pool","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Bin name"}},"required":["name"]}},
        {"name":"resolve_add_marker","description":"Add a marker to the current timeline","inputSchema":{"type":"object","properties":{"frame":{"type":"integer","description":"Frame number"},"color":{"type":"string","description":"Marker color","default":"Blue"},"name":{"type":"string","description":"Marker name"},"note":{"type":"string","description":"Marker note"},"duration":{"type":"integer","description":"Duration in frames","default":1}},"required":["frame"]}},
        {"name":"resolve_get_markers","description":"Get all markers from the current timeline","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_delete_marker","description":"Delete a marker at the specified frame","inputSchema":{"type":"object","properties":{"frame":{"type":"integer","description":"Frame number"}},"required":["frame"]}},
        {"name":"resolve_get_render_presets","description":"Get available render presets","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_set_render_preset","description":"Set the render preset","inputSchema":{"type":"object","properties":{"preset_name":{"type":"string","description":"Preset name"}},"required":["preset_name"]}},
        {"name":"resolve_add_render_job","description":"Add current timeline to render queue","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_start_render","description":"Start rendering all jobs in the queue","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_get_render_status","description":"Get current render status","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_open_page","description":"Open a specific page (media, cut, edit, fusion, color, fairlight, deliver)","inputSchema":{"type":"object","properties":{"page":{"type":"string","enum":["media","cut","edit","fusion","color","fairlight","deliver"]}},"required":["page"]}},
        {"name":"resolve_get_current_page","description":"Get the currently open page","inputSchema":{"type":"object","properties":{}}},
        {"name":"resolve_set_playhead","description":"Set playhead position to a frame","inputSchema":{"type":"object","properties":{"frame":{"type":"integer","description":"Frame number"}},"required":["frame"]}}
    ])
}

fn call_tool(name: &str, args: &Value) -> Value {
    let script_dir = std::env::var("RESOLVE_SCRIPTS_PATH").unwrap_or_else(|_| {
        let exe = std::env::current_exe().unwrap_or_default();
        exe.parent()
            .unwrap_or(std::path::Path::new("."))
            .join("../src")
            .to_string_lossy()
            .to_string()
    });
    let args_json = match serde_json::to_string(args) {
        Ok(j) => j,
        Err(e) => return json!({"content":[{"type":"text","text":format!("Failed to serialize arguments: {e}")}],"isError":true}),
    };

    // Input validation for tools that accept string/array arguments
    let validation_result: Result<(), String> = match name {
        "resolve_create_project" | "resolve_open_project" | "resolve_create_timeline"
        | "resolve_set_current_timeline" | "resolve_create_bin" => {
            args["name"].as_str()
                .ok_or_else(|| "Missing required 'name' argument".to_string())
                .and_then(|n| validate_string_arg(n, "name"))
        }
        "resolve_set_render_preset" => {
            args["preset_name"].as_str()
                .ok_or_else(|| "Missing required 'preset_name' argument".to_string())
                .and_then(|n| validate_string_arg(n, "preset_name"))
        }
        "resolve_open_page" => {
            match args["page"].as_str() {
                None => Err("Missing required 'page' argument".to_string()),
                Some(page) => {
                    let valid_pages = ["media", "cut", "edit", "fusion", "color", "fairlight", "deliver"];
                    if !valid_pages.contains(&page) {
                        Err(format!("Invalid page '{}'. Must be one of: {}", page, valid_pages.join(", ")))
                    } else {
                        Ok(())
                    }
                }
            }
        }
        "resolve_import_media" => {
            args["file_paths"].as_array()
                .ok_or_else(|| "Missing required 'file_paths' argument".to_string())
                .and_then(|paths| validate_file_paths(paths, "file_paths").map(|_| ()))
        }
        "resolve_add_marker" | "resolve_delete_marker" | "resolve_set_playhead" => {
            if args["frame"].as_i64().is_none() {
                Err("Missing or invalid 'frame' argument (must be integer)".to_string())
            } else {
                Ok(())
            }
        }
        _ => Ok(()),
    };

    if let Err(e) = validation_result {
        return json!({"content":[{"type":"text","text":format!("Validation error: {e}")}],"isError":true});
    }

    let py = match name {
        "resolve_connect" => "print(json.dumps({'connected': conn.is_connected, 'version': conn.get_version()}))".to_string(),
        "resolve_get_version" => "print(json.dumps({'version': conn.get_version(), 'product': conn.get_product_name()}))".to_string(),
        "resolve_list_projects" => "print(json.dumps({'projects': conn.list_projects()}))".to_string(),
        "resolve_get_current_project" => "print(json.dumps({'project': conn.get_project_name()}))".to_string(),
        "resolve_create_project" => "print(json.dumps({'success': conn.create_project(args['name'])}))".to_string(),
        "resolve_open_project" => "print(json.dumps({'success': conn.open_project(args['name'])}))".to_string(),
        "resolve_save_project" => "print(json.dumps({'success': conn.save_project()}))".to_string(),
        "resolve_close_project" => "print(json.dumps({'success': conn.close_project()}))".to_string(),
        "resolve_list_timelines" => "print(json.dumps({'timelines': conn.list_timelines()}))".to_string(),
        "resolve_get_current_timeline" => "print(json.dumps({'timeline': conn.get_timeline_info()}))".to_string(),
        "resolve_create_timeline" => "print(json.dumps({'success': conn.create_timeline(args['name'])}))".to_string(),
        "resolve_set_current_timeline" => "print(json.dumps({'success': conn.set_current_timeline(args['name'])}))".to_string(),
        "resolve_import_media" => "print(json.dumps({'imported': conn.import_media(args['file_paths'])}))".to_string(),
        "resolve_list_media_pool" => "print(json.dumps({'items': conn.list_media_pool_items()}))".to_string(),
        "resolve_create_bin" => "print(json.dumps({'success': conn.create_bin(args['name'])}))".to_string(),
        "resolve_add_marker" => "print(json.dumps({'success': conn.add_marker(frame=args['frame'], color=args.get('color','Blue'), name=args.get('name',''), note=args.get('note',''), duration=args.get('duration',1))}))".to_string(),
        "resolve_get_markers" => "print(json.dumps({'markers': conn.get_markers()}))".to_string(),
        "resolve_delete_marker" => "print(json.dumps({'success': conn.delete_marker(args['frame'])}))".to_string(),
        "resolve_get_render_presets" => "print(json.dumps({'presets': conn.get_render_presets()}))".to_string(),
        "resolve_set_render_preset" => "print(json.dumps({'success': conn.set_render_preset(args['preset_name'])}))".to_string(),
        "resolve_add_render_job" => "print(json.dumps({'job_id': conn.add_render_job()}))".to_string(),
        "resolve_start_render" => "print(json.dumps({'success': conn.start_render()}))".to_string(),
        "resolve_get_render_status" => "print(json.dumps(conn.get_render_status()))".to_string(),
        "resolve_open_page" => "print(json.dumps({'success': conn.open_page(args['page'])}))".to_string(),
        "resolve_get_current_page" => "print(json.dumps({'page': conn.get_current_page()}))".to_string(),
        "resolve_set_playhead" => "print(json.dumps({'success': conn.set_playhead_position(args['frame'])}))".to_string(),
        _ => return json!({"content":[{"type":"text","text":format!("Unknown tool: {name}")}],"isError":true}),
    };
    match run_resolve_script(&script_dir, &py, &args_json) {
        Ok(out) => json!({"content":[{"type":"text","text":out}]}),
        Err(e) => json!({"content":[{"type":"text","text":format!("Error: {e}")}],"isError":true}),
    }
}

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter("info")
        .with_writer(std::io::stderr)
        .init();

    // Validate RESOLVE_SCRIPTS_PATH at startup if set
    if let Ok(path) = std::env::var("RESOLVE_SCRIPTS_PATH") {
        if !std::path::Path::new(&path).exists() {
            eprintln!("[davinci-resolve-mcp] WARNING: RESOLVE_SCRIPTS_PATH does not exist: {path}");
        }
    }

    eprintln!("[davinci-resolve-mcp] Starting with 26 tools");
    let stdin = std::io::stdin();
    let mut line = String::new();
    loop {
        line.clear();
        if stdin.lock().read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let req: JsonRpcRequest = match serde_json::from_str(trimmed) {
            Ok(r) => r,
            Err(_) => continue,
        };
        let resp = match req.method.as_str() {
            "initialize" => {
                json!({"jsonrpc":"2.0","id":req.id,"result":{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"davinci-resolve-mcp","version":"0.1.0"}}})
            }
            "notifications/initialized" => continue,
            "tools/list" => {
                json!({"jsonrpc":"2.0","id":req.id,"result":{"tools":tool_definitions()}})
            }
            "tools/call" => {
                let params = req.params.unwrap_or(json!({}));
                let name = params["name"].as_str().unwrap_or("");
                let args = params.get("arguments").cloned().unwrap_or(json!({}));
                json!({"jsonrpc":"2.0","id":req.id,"result":call_tool(name, &args)})
            }
            _ => {
                json!({"jsonrpc":"2.0","id":req.id,"error":{"code":-32601,"message":"Method not found"}})
            }
        };
        match serde_json::to_string(&resp) {
            Ok(s) => println!("{s}"),
            Err(e) => eprintln!("[davinci-resolve-mcp] Failed to serialize response: {e}"),
        }
    }
}
