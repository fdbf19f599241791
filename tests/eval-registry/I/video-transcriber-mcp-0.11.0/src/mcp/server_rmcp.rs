use anyhow::Result;
use rmcp::{
    ServerHandler,
    model::*,
    service::{RequestContext, RoleServer},
};
use serde_json::json;
use std::sync::Arc;
use tokio::sync::Mutex;
use tracing::info;

use crate::transcriber::{TranscriberEngine, TranscriptionOptions, WhisperModel};
use crate::utils::paths::get_default_output_dir;

#[derive(Clone)]
pub struct VideoTranscriberServer {
    transcriber: Arc<Mutex<TranscriberEngine>>,
    /// Refuse `transcribe_video` URLs that resolve into our own network.
    ///
    /// Off by default because the default transport is stdio, where there is no
    /// attacker: the caller already has a shell, and transcribing
    /// `http://localhost:8000/lecture.mp4` from your own machine is a normal
    /// thing to do. A remotely-reachable deployment turns it on — see
    /// [`VideoTranscriberServer::with_url_guard`].
    guard_urls: bool,

    /// Appended to `transcribe_video`'s description, verbatim.
    ///
    /// A deployment that charges for this tool has to say so in the catalogue,
    /// because an agent decides whether to call it from the description alone —
    /// discovering the price via a 402 is too late. But *what* it costs, and
    /// whether it costs anything, is deployment policy rather than protocol, so
    /// the note is supplied from outside instead of computed here.
    tool_note: Option<String>,
}

impl Default for VideoTranscriberServer {
    fn default() -> Self {
        Self::new()
    }
}

impl VideoTranscriberServer {
    pub fn new() -> Self {
        Self {
            transcriber: Arc::new(Mutex::new(TranscriberEngine::new())),
            guard_urls: false,
            tool_note: None,
        }
    }

    /// Refuse URLs that resolve to loopback, private or link-local addresses.
    ///
    /// For deployments others can reach — anything serving `--transport http`.
    /// Not the default: on stdio the caller owns the machine, so blocking
    /// localhost would remove a legitimate use and prevent no attack.
    pub fn with_url_guard(mut self) -> Self {
        self.guard_urls = true;
        self
    }

    /// Append `note` to the `transcribe_video` description.
    ///
    /// Used by a deployment that gates the tool behind payment to advertise the
    /// price up front. Left unset, the description is the plain one.
    pub fn with_tool_note(mut self, note: impl Into<String>) -> Self {
        self.tool_note = Some(note.into());
        self
    }
}

/// Largest transcript returned inline, in **bytes**.
///
/// Bytes rather than characters because what needs bounding is the response
/// size, and `str::len()` is bytes. The distinction is not pedantic here: these
/// transcripts are routinely Vietnamese or Japanese, where a character costs
/// three bytes, so 200k bytes is only ~65k characters. Reporting one as the
/// other would be wrong by 3x on exactly the content this is most likely to
/// truncate.
///
/// A three-hour lecture runs to a few hundred KB, which is a lot to push
/// through a single tool result and into a model's context. Past this the text
/// is cut at a character boundary and says so, rather than being silently
/// clipped — a caller who reads "transcript" and gets 60% of one has no way to
/// tell.
const MAX_INLINE_TRANSCRIPT: usize = 200_000;

/// The transcript, cut to [`MAX_INLINE_TRANSCRIPT`] if it is enormous.
fn truncate_transcript(transcript: &str) -> String {
    if transcript.len() <= MAX_INLINE_TRANSCRIPT {
        return transcript.to_string();
    }
    // Cut on a char boundary — slicing mid-UTF-8 panics, and transcripts are
    // routinely non-ASCII.
    let cut = (0..=MAX_INLINE_TRANSCRIPT.min(transcript.len()))
        .rev()
        .find(|&i| transcript.is_char_boundary(i))
        .unwrap_or(0);
    format!(
        "{}\n\n[truncated: {} of {} bytes shown ({} of {} characters) — the \
         full text is in the .txt file listed above]",
        &transcript[..cut],
        cut,
        transcript.len(),
        transcript[..cut].chars().count(),
        transcript.chars().count(),
    )
}

/// Base description for `transcribe_video`. Deployment-specific additions
/// (e.g. a price) come from [`VideoTranscriberServer::with_tool_note`].
const TRANSCRIBE_VIDEO_DESCRIPTION: &str = "Transcribe videos from 1000+ platforms (YouTube, Vimeo, TikTok, Twitter, etc.) or local video files using whisper.cpp (4-10x faster than Python whisper!). Downloads/extracts audio and generates transcript in TXT, JSON, and Markdown formats.";

impl ServerHandler for VideoTranscriberServer {
    fn get_info(&self) -> ServerInfo {
        // rmcp marks InitializeResult as #[non_exhaustive], so the
        // `ServerInfo { instructions, capabilities, ..Default::default() }`
        // struct expression no longer compiles. Mutate a default instance
        // instead — same behaviour, allowed by the non_exhaustive rules.
        let mut info = ServerInfo::default();
        info.instructions = Some(
            "High-performance video transcription server using whisper.cpp.\n\
             Transcribes videos from 1000+ platforms or local files - 6x faster than Python whisper!"
                .into(),
        );
        info.capabilities = ServerCapabilities::builder().enable_tools().build();
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // rmcp 3.x added SEP-2549/SEP-2322 fields (`result_type`, `ttl_ms`,
        // `cache_scope`) to every paginated result, so build via the
        // constructor rather than a struct expression — it fills in the
        // spec-correct defaults (`result_type: COMPLETE`, no cursor, no
        // cache hints) instead of us having to track them here.
        Ok(ListToolsResult::with_all_items(vec![
            // rmcp marks Tool as #[non_exhaustive], so we construct
            // via Tool::new(name, description, input_schema) instead of a
            // struct expression. Cleaner anyway — drops a lot of
            // `..: None` boilerplate per tool.
            Tool::new(
                "transcribe_video",
                match &self.tool_note {
                    Some(note) => format!("{TRANSCRIBE_VIDEO_DESCRIPTION} {note}"),
                    None => TRANSCRIBE_VIDEO_DESCRIPTION.to_string(),
                },
                Arc::new(
                    serde_json::from_value(json!({
                        "type": "object",
                        "properties": {
                            "url": {
                                "type": "string",
                                "description": "Video URL from any supported platform OR absolute/relative path to a local video file (mp4, avi, mov, mkv, etc.)"
                            },
                            "output_dir": {
                                "type": "string",
                                // Remotely this named a directory inside the
                                // server's container in the TOOL CATALOGUE —
                                // every client saw it before calling anything,
                                // which is the likeliest way an agent learned a
                                // path it then tried to read.
                                "description": if self.guard_urls {
                                    "Optional output directory on the server. Leave unset.".to_string()
                                } else {
                                    format!("Optional output directory path. Defaults to {}", get_default_output_dir().display())
                                }
                            },
                            "model": {
                                "type": "string",
                                "enum": ["tiny", "base", "small", "medium", "large"],
                                "description": "Whisper model to use. Larger models are more accurate but slower. Default: 'base'"
                            },
                            "language": {
                                "type": "string",
                                "description": "Language code (ISO 639-1: en, es, fr, de, etc.) or 'auto' for automatic detection. Default: 'auto'"
                            }
                        },
                        "required": ["url"]
                    }))
                    .unwrap(),
                ),
            ),
            Tool::new(
                "check_dependencies",
                "Check if all required dependencies (yt-dlp, ffmpeg, whisper models) are installed",
                Arc::new(
                    serde_json::from_value(json!({
                        "type": "object",
                        "properties": {}
                    }))
                    .unwrap(),
                ),
            ),
            Tool::new(
                "list_supported_sites",
                "List all video platforms supported by yt-dlp (1000+ sites including YouTube, Vimeo, TikTok, Twitter, Facebook, Instagram, educational platforms, and more)",
                Arc::new(
                    serde_json::from_value(json!({
                        "type": "object",
                        "properties": {}
                    }))
                    .unwrap(),
                ),
            ),
            Tool::new(
                "list_transcripts",
                "List all available transcripts in the output directory, sorted by modification time (newest first)",
                Arc::new(
                    serde_json::from_value(json!({
                        "type": "object",
                        "properties": {
                            "output_dir": {
                                "type": "string",
                                // Remotely this named a directory inside the
                                // server's container in the TOOL CATALOGUE —
                                // every client saw it before calling anything,
                                // which is the likeliest way an agent learned a
                                // path it then tried to read.
                                "description": if self.guard_urls {
                                    "Optional output directory on the server. Leave unset.".to_string()
                                } else {
                                    format!("Optional output directory path. Defaults to {}", get_default_output_dir().display())
                                }
                            },
                            "limit": {
                                "type": "number",
                                "description": "Optional limit on number of transcripts to return (newest first). If not specified, returns all transcripts."
                            }
                        }
                    }))
                    .unwrap(),
                ),
            ),
            Tool::new(
                "search_transcripts",
                "Semantic search across ALL saved transcripts. Embeds the query and returns the most relevant passages (with source video + timestamp) from every transcribed video — far better than reading transcripts one by one. Requires transcripts saved with embeddings (set OPENROUTER_API_KEY when transcribing).",
                Arc::new(
                    serde_json::from_value(json!({
                        "type": "object",
                        "properties": {
                            "query": {
                                "type": "string",
                                "description": "What to search for across your transcripts"
                            },
                            "limit": {
                                "type": "number",
                                "description": "Max passages to return (default 8)"
                            },
                            "output_dir": {
                                "type": "string",
                                "description": if self.guard_urls {
                                    "Optional transcripts directory on the server. Leave unset.".to_string()
                                } else {
                                    format!("Optional transcripts directory. Defaults to {}", get_default_output_dir().display())
                                }
                            }
                        },
                        "required": ["query"]
                    }))
                    .unwrap(),
                ),
            ),
            Tool::new(
                "get_latest_transcript",
                "Get the most recently created/modified transcript — its full text when this server is remote, or its file path when it is running locally. Useful to avoid accidentally reading old transcripts.",
                Arc::new(
                    serde_json::from_value(json!({
                        "type": "object",
                        "properties": {
                            "output_dir": {
                                "type": "string",
                                // Remotely this named a directory inside the
                                // server's container in the TOOL CATALOGUE —
                                // every client saw it before calling anything,
                                // which is the likeliest way an agent learned a
                                // path it then tried to read.
                                "description": if self.guard_urls {
                                    "Optional output directory on the server. Leave unset.".to_string()
                                } else {
                                    format!("Optional output directory path. Defaults to {}", get_default_output_dir().display())
                                }
                            }
                        }
                    }))
                    .unwrap(),
                ),
            ),
            Tool::new(
                "delete_transcript",
                "Delete a specific transcript by video ID. This removes all associated files (txt, json, md).",
                Arc::new(
                    serde_json::from_value(json!({
                        "type": "object",
                        "properties": {
                            "video_id": {
                                "type": "string",
                                "description": "The video ID of the transcript to delete (e.g., 'dQw4w9WgXcQ')"
                            },
                            "output_dir": {
                                "type": "string",
                                // Remotely this named a directory inside the
                                // server's container in the TOOL CATALOGUE —
                                // every client saw it before calling anything,
                                // which is the likeliest way an agent learned a
                                // path it then tried to read.
                                "description": if self.guard_urls {
                                    "Optional output directory on the server. Leave unset.".to_string()
                                } else {
                                    format!("Optional output directory path. Defaults to {}", get_default_output_dir().display())
                                }
                            }
                        },
                        "required": ["video_id"]
                    }))
                    .unwrap(),
                ),
            ),
            Tool::new(
                "cleanup_old_transcripts",
                "Delete transcripts older than a specified number of days. Helps manage disk space.",
                Arc::new(
                    serde_json::from_value(json!({
                        "type": "object",
                        "properties": {
                            "days": {
                                "type": "number",
                                "description": "Delete transcripts older than this many days (e.g., 30 for month-old transcripts)"
                            },
                            "output_dir": {
                                "type": "string",
                                // Remotely this named a directory inside the
                                // server's container in the TOOL CATALOGUE —
                                // every client saw it before calling anything,
                                // which is the likeliest way an agent learned a
                                // path it then tried to read.
                                "description": if self.guard_urls {
                                    "Optional output directory on the server. Leave unset.".to_string()
                                } else {
                                    format!("Optional output directory path. Defaults to {}", get_default_output_dir().display())
                                }
                            }
                        },
                        "required": ["days"]
                    }))
                    .unwrap(),
                ),
            ),
            Tool::new(
                "delete_all_transcripts",
                "Delete ALL transcripts in the output directory. Use with caution - this cannot be undone!",
                Arc::new(
                    serde_json::from_value(json!({
                        "type": "object",
                        "properties": {
                            "output_dir": {
                                "type": "string",
                                // Remotely this named a directory inside the
                                // server's container in the TOOL CATALOGUE —
                                // every client saw it before calling anything,
                                // which is the likeliest way an agent learned a
                                // path it then tried to read.
                                "description": if self.guard_urls {
                                    "Optional output directory on the server. Leave unset.".to_string()
                                } else {
                                    format!("Optional output directory path. Defaults to {}", get_default_output_dir().display())
                                }
                            },
                            "confirm": {
                                "type": "boolean",
                                "description": "Must be set to true to confirm deletion of all transcripts"
                            }
                        },
                        "required": ["confirm"]
                    }))
                    .unwrap(),
                ),
            ),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // rmcp 3.x widened the handler return type to `CallToolResponse`
        // (SEP-2322 MRTR), which also models "input required" and "task
        // created" outcomes. Every tool here completes in a single call, so
        // dispatch as before and lift the `CallToolResult` into that enum.
        self.dispatch_tool(request, context).await.map(Into::into)
    }
}

impl VideoTranscriberServer {
    async fn dispatch_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        match request.name.as_ref() {
            "transcribe_video" => {
                let args = request.arguments.as_ref().ok_or_else(|| {
                    ErrorData::new(
                        ErrorCode::INVALID_PARAMS,
                        "Missing arguments".to_string(),
                        None,
                    )
                })?;

                let url = args
                    .get("url")
                    .and_then(|v| v.as_str())
                    .ok_or_else(|| {
                        ErrorData::new(
                            ErrorCode::INVALID_PARAMS,
                            "Missing 'url' parameter".to_string(),
                            None,
                        )
                    })?
                    .to_string();

                // Remote deployments only. `ANY_HOST` because this tool
                // advertises 1000+ platforms, so its entry point genuinely
                // cannot be enumerated — this closes the direct cases, not
                // redirects. See `url_guard` for what that leaves open.
                if self.guard_urls
                    && let Err(msg) =
                        crate::url_guard::reject_internal_url(&url, crate::url_guard::ANY_HOST)
                            .await
                {
                    tracing::warn!("transcribe_video refused {url}: {msg}");
                    return Err(ErrorData::new(
                        ErrorCode::INVALID_PARAMS,
                        msg.to_string(),
                        None,
                    ));
                }

                let output_dir = args
                    .get("output_dir")
                    .and_then(|v| v.as_str())
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| get_default_output_dir().to_string_lossy().to_string());

                let model = args
                    .get("model")
                    .and_then(|v| v.as_str())
                    .and_then(|s| s.parse::<WhisperModel>().ok())
                    .unwrap_or(WhisperModel::Base);

                let language = args
                    .get("language")
                    .and_then(|v| v.as_str())
                    .map(|s| s.to_string());

                let options = TranscriptionOptions {
                    url,
                    output_dir,
                    model,
                    language,
                };

                info!("🎬 Starting transcription...");

                let transcriber = self.transcriber.lock().await;
                match transcriber.transcribe(options).await {
                    Ok(result) => {
                        // The transcript goes in the response, not just a
                        // preview and three paths.
                        //
                        // Paths are the right answer for the stdio transport,
                        // where the files land on the caller's own machine. Over
                        // HTTP they are actively misleading: they point into the
                        // server's container, which the caller cannot read, and
                        // on an ephemeral filesystem they may not survive the
                        // next restart. A caller who paid for a transcription
                        // should get the transcription.
                        //
                        let body = truncate_transcript(&result.transcript);
                        let header = format!(
                            "✅ Video transcribed successfully!\n\n\
                            **Video Details:**\n\
                            - Title: {}\n\
                            - Platform: {}\n\
                            - Duration: {}s\n\n\
                            **Transcription Settings:**\n\
                            - Model: {:?}\n\
                            - Engine: whisper.cpp (Rust)\n",
                            result.metadata.title,
                            result.metadata.platform,
                            result.metadata.duration,
                            result.model_used,
                        );

                        // An earlier version listed the output paths here even
                        // remotely, labelled "(on the server — local only)", on
                        // the reasoning that they were harmless once the text was
                        // included. They are not. An agent reads a path and
                        // surfaces it: callers were shown
                        // `/root/Downloads/video-transcripts/…` and offered a
                        // copy of a file that exists on nobody's machine. A label
                        // does not stop that, because the path is still the most
                        // actionable-looking thing in the response.
                        //
                        // Locally the files really are the caller's, so they stay.
                        let files = if self.guard_urls {
                            String::new()
                        } else {
                            format!(
                                "\n**Output Files:**\n- Text: {}\n- JSON: {}\n- Markdown: {}\n",
                                result.files.txt, result.files.json, result.files.md,
                            )
                        };

                        let text = format!(
                            "{header}{files}\n**Transcript** ({} words):\n{}",
                            result.word_count, body,
                        );

                        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
                    }
                    Err(e) => Err(ErrorData::new(
                        ErrorCode::INTERNAL_ERROR,
                        format!("Transcription failed: {}", e),
                        None,
                    )),
                }
            }

            "check_dependencies" => {
                let transcriber = self.transcriber.lock().await;
                match transcriber.check_dependencies() {
                    Ok(status) => {
                        let text = format!("✅ Dependency Check:\n\n{}", status);
                        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
                    }
                    Err(e) => Err(ErrorData::new(
                        ErrorCode::INTERNAL_ERROR,
                        format!("Dependency check failed: {}", e),
                        None,
                    )),
                }
            }

            "list_supported_sites" => {
                let text = "📺 Supported Video Platforms (1000+ total)\n\n\
                    **Popular platforms include:**\n\
                    - YouTube\n\
                    - Vimeo\n\
                    - TikTok\n\
                    - Twitter/X\n\
                    - Facebook\n\
                    - Instagram\n\
                    - Twitch\n\
                    - Dailymotion\n\
                    - Reddit\n\
                    - LinkedIn\n\
                    - Many educational and conference platforms\n\n\
                    **Total: 1000+ supported extractors**\n\n\
                    You can transcribe videos from any of these platforms!";

                Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
            }

            "list_transcripts" => {
                use std::collections::HashMap;
                use std::fs;
                use std::path::PathBuf;

                let output_dir = request
                    .arguments
                    .as_ref()
                    .and_then(|args| args.get("output_dir"))
                    .and_then(|v| v.as_str())
                    .map(PathBuf::from)
                    .unwrap_or_else(get_default_output_dir);

                let limit = request
                    .arguments
                    .as_ref()
                    .and_then(|args| args.get("limit"))
                    .and_then(|v| v.as_u64())
                    .map(|n| n as usize);

                if !output_dir.exists() {
                    // Naming the directory is only useful to someone who can
                    // look in it. Remotely it is one more unreachable path.
                    let text = if self.guard_urls {
                        "📂 No transcripts yet.\n\nTranscribe your first video to create one!"
                            .to_string()
                    } else {
                        format!(
                            "📂 No transcripts directory found at: {}\n\nTranscribe your first video to create it!",
                            output_dir.display()
                        )
                    };
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]));
                }

                let mut video_groups: HashMap<String, Vec<String>> = HashMap::new();

                if let Ok(entries) = fs::read_dir(&output_dir) {
                    for entry in entries.flatten() {
                        let path = entry.path();
                        let filename = path.file_name().and_then(|n| n.to_str()).unwrap_or("");

                        if filename.ends_with(".txt") || filename.ends_with(".md") {
                            let video_id =
                                filename.split('-').next().unwrap_or("unknown").to_string();
                            video_groups
                                .entry(video_id)
                                .or_default()
                                .push(filename.to_string());
                        }
                    }
                }

                if video_groups.is_empty() {
                    let text = if self.guard_urls {
                        "📂 No transcripts found.\n\nTranscribe a video to get started!".to_string()
                    } else {
                        format!(
                            "📂 No transcripts found in {}\n\nTranscribe a video to get started!",
                            output_dir.display()
                        )
                    };
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]));
                }

                // Collect video data with timestamps for sorting
                let mut video_data: Vec<(String, Vec<String>, u64, PathBuf)> = Vec::new();

                for (video_id, files) in video_groups.iter() {
                    let main_file = files
                        .iter()
                        .find(|f| f.ends_with(".txt"))
                        .unwrap_or(&files[0]);

                    let full_path = output_dir.join(main_file);

                    if let Ok(metadata) = fs::metadata(&full_path) {
                        let modified = metadata
                            .modified()
                            .ok()
                            .and_then(|t| {
                                use std::time::SystemTime;
                                let duration = t.duration_since(SystemTime::UNIX_EPOCH).ok()?;
                                Some(duration.as_secs())
                            })
                            .unwrap_or(0);

                        video_data.push((video_id.clone(), files.clone(), modified, full_path));
                    }
                }

                // Sort by modification time (newest first)
                video_data.sort_by_key(|b| std::cmp::Reverse(b.2));

                // Apply limit if specified
                let videos_to_show = if let Some(lim) = limit {
                    &video_data[..video_data.len().min(lim)]
                } else {
                    &video_data[..]
                };

                let mut list_items = Vec::new();
                for (i, (video_id, files, modified, full_path)) in videos_to_show.iter().enumerate()
                {
                    let main_file = files
                        .iter()
                        .find(|f| f.ends_with(".txt"))
                        .unwrap_or(&files[0]);

                    if let Ok(metadata) = fs::metadata(full_path) {
                        let size_kb = metadata.len() as f64 / 1024.0;

                        let title = main_file
                            .replace(&format!("{}-", video_id), "")
                            .replace(".txt", "")
                            .replace(".md", "")
                            .replace(".json", "")
                            .replace("-", " ");

                        let extensions: Vec<&str> = files
                            .iter()
                            .filter_map(|f| f.split('.').next_back())
                            .collect();

                        // The path is omitted remotely: it points inside this
                        // container, so quoting it invites the caller to read a
                        // file that does not exist on their machine.
                        let entry = format!(
                            "{}. **{}**\n   Video ID: {}\n   Files: {} ({})\n   Size: {:.2} KB\n   Modified: {}",
                            i + 1,
                            title,
                            video_id,
                            files.len(),
                            extensions.join(", "),
                            size_kb,
                            format_timestamp(*modified),
                        );
                        list_items.push(if self.guard_urls {
                            entry
                        } else {
                            format!("{entry}\n   Path: {}", full_path.display())
                        });
                    }
                }

                let total_count = video_data.len();
                let showing_count = videos_to_show.len();

                let summary = if showing_count < total_count {
                    format!(
                        "showing {} most recent out of {} total",
                        showing_count, total_count
                    )
                } else {
                    format!("{} videos", total_count)
                };

                // The local tip tells the caller to read a file. Remotely that is
                // the one thing they cannot do, so point at the tools that
                // actually return text.
                let tip = if self.guard_urls {
                    "💡 Fetch the full text with `get_latest_transcript`, or search \
                     across all of them with `search_transcripts`."
                } else {
                    "💡 Tip: You can read any transcript by asking me to read the file \
                     path shown above."
                };
                let text = format!(
                    "📚 Available transcripts ({}):\n\n{}\n\n{}",
                    summary,
                    list_items.join("\n\n"),
                    tip
                );

                Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
            }

            "get_latest_transcript" => {
                use std::collections::HashMap;
                use std::fs;
                use std::path::PathBuf;

                let output_dir = request
                    .arguments
                    .as_ref()
                    .and_then(|args| args.get("output_dir"))
                    .and_then(|v| v.as_str())
                    .map(PathBuf::from)
                    .unwrap_or_else(get_default_output_dir);

                if !output_dir.exists() {
                    // Naming the directory is only useful to someone who can
                    // look in it. Remotely it is one more unreachable path.
                    let text = if self.guard_urls {
                        "📂 No transcripts yet.\n\nTranscribe your first video to create one!"
                            .to_string()
                    } else {
                        format!(
                            "📂 No transcripts directory found at: {}\n\nTranscribe your first video to create it!",
                            output_dir.display()
                        )
                    };
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]));
                }

                let mut video_groups: HashMap<String, Vec<String>> = HashMap::new();

                if let Ok(entries) = fs::read_dir(&output_dir) {
                    for entry in entries.flatten() {
                        let path = entry.path();
                        let filename = path.file_name().and_then(|n| n.to_str()).unwrap_or("");

                        if filename.ends_with(".txt") || filename.ends_with(".md") {
                            let video_id =
                                filename.split('-').next().unwrap_or("unknown").to_string();
                            video_groups
                                .entry(video_id)
                                .or_default()
                                .push(filename.to_string());
                        }
                    }
                }

                if video_groups.is_empty() {
                    let text = if self.guard_urls {
                        "📂 No transcripts found.\n\nTranscribe a video to get started!".to_string()
                    } else {
                        format!(
                            "📂 No transcripts found in {}\n\nTranscribe a video to get started!",
                            output_dir.display()
                        )
                    };
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]));
                }

                // Find the most recent transcript
                let mut latest_transcript: Option<(String, Vec<String>, u64, PathBuf)> = None;

                for (video_id, files) in video_groups.iter() {
                    let main_file = files
                        .iter()
                        .find(|f| f.ends_with(".txt"))
                        .unwrap_or(&files[0]);

                    let full_path = output_dir.join(main_file);

                    if let Ok(metadata) = fs::metadata(&full_path) {
                        let modified = metadata
                            .modified()
                            .ok()
                            .and_then(|t| {
                                use std::time::SystemTime;
                                let duration = t.duration_since(SystemTime::UNIX_EPOCH).ok()?;
                                Some(duration.as_secs())
                            })
                            .unwrap_or(0);

                        if let Some((_, _, latest_time, _)) = &latest_transcript {
                            if modified > *latest_time {
                                latest_transcript =
                                    Some((video_id.clone(), files.clone(), modified, full_path));
                            }
                        } else {
                            latest_transcript =
                                Some((video_id.clone(), files.clone(), modified, full_path));
                        }
                    }
                }

                if let Some((video_id, files, modified, full_path)) = latest_transcript {
                    let main_file = files
                        .iter()
                        .find(|f| f.ends_with(".txt"))
                        .unwrap_or(&files[0]);

                    if let Ok(metadata) = fs::metadata(&full_path) {
                        let size_kb = metadata.len() as f64 / 1024.0;

                        let title = main_file
                            .replace(&format!("{}-", video_id), "")
                            .replace(".txt", "")
                            .replace(".md", "")
                            .replace(".json", "")
                            .replace("-", " ");

                        let extensions: Vec<&str> = files
                            .iter()
                            .filter_map(|f| f.split('.').next_back())
                            .collect();

                        // Find paths for all file types
                        let txt_path = output_dir.join(
                            files
                                .iter()
                                .find(|f| f.ends_with(".txt"))
                                .unwrap_or(&files[0]),
                        );
                        let md_path = files
                            .iter()
                            .find(|f| f.ends_with(".md"))
                            .map(|f| output_dir.join(f));
                        let json_path = files
                            .iter()
                            .find(|f| f.ends_with(".json"))
                            .map(|f| output_dir.join(f));

                        // Remotely, a path is not an answer — it names a file
                        // inside this container that the caller cannot open. This
                        // tool returned ONLY paths, so an HTTP caller who lost the
                        // original `transcribe_video` response had no way to get
                        // back a transcript they had paid for: the obvious next
                        // move is to `cat` the path, which fails. Send the
                        // transcript itself instead.
                        let text = if self.guard_urls {
                            let body = std::fs::read_to_string(&txt_path)
                                .map(|t| truncate_transcript(&t))
                                .unwrap_or_else(|e| {
                                    format!("(could not read the stored transcript: {e})")
                                });
                            format!(
                                "📄 **Latest Transcript:**\n\n\
                                **Title:** {}\n\
                                **Video ID:** {}\n\
                                **Modified:** {}\n\
                                **Size:** {:.2} KB\n\n\
                                ---\n\n{}",
                                title,
                                video_id,
                                format_timestamp(modified),
                                size_kb,
                                body
                            )
                        } else {
                            // Locally the files land on the caller's own machine,
                            // so paths are the useful answer and stay.
                            let mut file_paths = format!("- Text: {}", txt_path.display());
                            if let Some(md) = md_path {
                                file_paths.push_str(&format!("\n- Markdown: {}", md.display()));
                            }
                            if let Some(json) = json_path {
                                file_paths.push_str(&format!("\n- JSON: {}", json.display()));
                            }
                            format!(
                                "📄 **Latest Transcript:**\n\n\
                                **Title:** {}\n\
                                **Video ID:** {}\n\
                                **Modified:** {}\n\
                                **Size:** {:.2} KB\n\
                                **Files:** {} ({})\n\n\
                                **File Paths:**\n{}\n\n\
                                💡 Tip: Use the text file path above to read or summarize this transcript.",
                                title,
                                video_id,
                                format_timestamp(modified),
                                size_kb,
                                files.len(),
                                extensions.join(", "),
                                file_paths
                            )
                        };

                        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
                    } else {
                        Err(ErrorData::new(
                            ErrorCode::INTERNAL_ERROR,
                            "Failed to read latest transcript metadata".to_string(),
                            None,
                        ))
                    }
                } else {
                    let text = "📂 No transcripts found.".to_string();
                    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
                }
            }

            "delete_transcript" => {
                use std::fs;
                use std::path::PathBuf;

                let args = request.arguments.as_ref().ok_or_else(|| {
                    ErrorData::new(
                        ErrorCode::INVALID_PARAMS,
                        "Missing arguments".to_string(),
                        None,
                    )
                })?;

                let video_id = args
                    .get("video_id")
                    .and_then(|v| v.as_str())
                    .ok_or_else(|| {
                        ErrorData::new(
                            ErrorCode::INVALID_PARAMS,
                            "Missing 'video_id' parameter".to_string(),
                            None,
                        )
                    })?;

                let output_dir = args
                    .get("output_dir")
                    .and_then(|v| v.as_str())
                    .map(PathBuf::from)
                    .unwrap_or_else(get_default_output_dir);

                if !output_dir.exists() {
                    let text = "📂 No transcripts directory found.".to_string();
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]));
                }

                // Find all files matching the video_id
                let mut deleted_files = Vec::new();
                if let Ok(entries) = fs::read_dir(&output_dir) {
                    for entry in entries.flatten() {
                        let path = entry.path();
                        let filename = path.file_name().and_then(|n| n.to_str()).unwrap_or("");

                        if filename.starts_with(&format!("{}-", video_id))
                            && fs::remove_file(&path).is_ok()
                        {
                            deleted_files.push(path.display().to_string());
                        }
                    }
                }

                if deleted_files.is_empty() {
                    let text = format!("⚠️ No transcripts found for video ID: {}", video_id);
                    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
                } else {
                    let text = format!(
                        "🗑️ Deleted {} file(s) for video ID '{}':\n\n{}",
                        deleted_files.len(),
                        video_id,
                        deleted_files
                            .iter()
                            .map(|f| format!("- {}", f))
                            .collect::<Vec<_>>()
                            .join("\n")
                    );
                    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
                }
            }

            "cleanup_old_transcripts" => {
                use std::fs;
                use std::path::PathBuf;
                use std::time::{Duration, SystemTime};

                let args = request.arguments.as_ref().ok_or_else(|| {
                    ErrorData::new(
                        ErrorCode::INVALID_PARAMS,
                        "Missing arguments".to_string(),
                        None,
                    )
                })?;

                let days = args.get("days").and_then(|v| v.as_u64()).ok_or_else(|| {
                    ErrorData::new(
                        ErrorCode::INVALID_PARAMS,
                        "Missing or invalid 'days' parameter".to_string(),
                        None,
                    )
                })?;

                let output_dir = args
                    .get("output_dir")
                    .and_then(|v| v.as_str())
                    .map(PathBuf::from)
                    .unwrap_or_else(get_default_output_dir);

                if !output_dir.exists() {
                    let text = "📂 No transcripts directory found.".to_string();
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]));
                }

                let cutoff_time = SystemTime::now() - Duration::from_secs(days * 24 * 60 * 60);
                let mut deleted_files = Vec::new();

                if let Ok(entries) = fs::read_dir(&output_dir) {
                    for entry in entries.flatten() {
                        let path = entry.path();

                        if let Ok(metadata) = fs::metadata(&path)
                            && let Ok(modified) = metadata.modified()
                            && modified < cutoff_time
                            && fs::remove_file(&path).is_ok()
                        {
                            deleted_files.push(path.display().to_string());
                        }
                    }
                }

                if deleted_files.is_empty() {
                    let text = format!("✅ No transcripts older than {} days found.", days);
                    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
                } else {
                    let text = format!(
                        "🗑️ Deleted {} file(s) older than {} days:\n\n{}",
                        deleted_files.len(),
                        days,
                        deleted_files
                            .iter()
                            .map(|f| format!("- {}", f))
                            .collect::<Vec<_>>()
                            .join("\n")
                    );
                    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
                }
            }

            "delete_all_transcripts" => {
                use std::fs;
                use std::path::PathBuf;

                let args = request.arguments.as_ref().ok_or_else(|| {
                    ErrorData::new(
                        ErrorCode::INVALID_PARAMS,
                        "Missing arguments".to_string(),
                        None,
                    )
                })?;

                let confirm = args
                    .get("confirm")
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false);

                if !confirm {
                    let text = "⚠️ Deletion not confirmed. Set 'confirm' to true to delete all transcripts.".to_string();
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]));
                }

                let output_dir = args
                    .get("output_dir")
                    .and_then(|v| v.as_str())
                    .map(PathBuf::from)
                    .unwrap_or_else(get_default_output_dir);

                if !output_dir.exists() {
                    let text = "📂 No transcripts directory found.".to_string();
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]));
                }

                let mut deleted_count = 0;
                if let Ok(entries) = fs::read_dir(&output_dir) {
                    for entry in entries.flatten() {
                        let path = entry.path();
                        if path.is_file() && fs::remove_file(&path).is_ok() {
                            deleted_count += 1;
                        }
                    }
                }

                if deleted_count == 0 {
                    let text = "📂 No transcripts found to delete.".to_string();
                    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
                } else {
                    let text = if self.guard_urls {
                        format!("🗑️ Deleted ALL transcripts: {deleted_count} file(s) removed.")
                    } else {
                        format!(
                            "🗑️ Deleted ALL transcripts: {} file(s) removed from {}",
                            deleted_count,
                            output_dir.display()
                        )
                    };
                    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
                }
            }

            "search_transcripts" => {
                use std::fs;
                use std::path::PathBuf;

                let query = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("query"))
                    .and_then(|v| v.as_str())
                    .unwrap_or("")
                    .trim()
                    .to_string();
                if query.is_empty() {
                    return Ok(CallToolResult::success(vec![ContentBlock::text(
                        "Provide a `query` to search for.".to_string(),
                    )]));
                }
                let limit = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("limit"))
                    .and_then(|v| v.as_u64())
                    .unwrap_or(8) as usize;
                let output_dir = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("output_dir"))
                    .and_then(|v| v.as_str())
                    .map(PathBuf::from)
                    .unwrap_or_else(get_default_output_dir);

                if !output_dir.exists() {
                    let text = if self.guard_urls {
                        "📂 No transcripts to search yet.".to_string()
                    } else {
                        format!("📂 No transcripts directory at {}.", output_dir.display())
                    };
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]));
                }

                // Load every embedded chunk from the saved JSONs.
                struct Cand {
                    emb: Vec<f32>,
                    content: String,
                    title: String,
                    url: String,
                    start: Option<f64>,
                }
                let mut cands: Vec<Cand> = Vec::new();
                if let Ok(entries) = fs::read_dir(&output_dir) {
                    for entry in entries.flatten() {
                        let path = entry.path();
                        if path.extension().and_then(|e| e.to_str()) != Some("json") {
                            continue;
                        }
                        let Ok(text) = fs::read_to_string(&path) else {
                            continue;
                        };
                        let Ok(data) = serde_json::from_str::<serde_json::Value>(&text) else {
                            continue;
                        };
                        let title = data["metadata"]["title"]
                            .as_str()
                            .unwrap_or("Untitled")
                            .to_string();
                        let url = data["metadata"]["url"].as_str().unwrap_or("").to_string();
                        let Some(chunks) = data["chunks"].as_array() else {
                            continue;
                        };
                        for ch in chunks {
                            let Some(emb) = ch["embedding"].as_array() else {
                                continue;
                            };
                            let embedding: Vec<f32> = emb
                                .iter()
                                .filter_map(|v| v.as_f64().map(|f| f as f32))
                                .collect();
                            if embedding.is_empty() {
                                continue;
                            }
                            cands.push(Cand {
                                emb: embedding,
                                content: ch["content"].as_str().unwrap_or("").to_string(),
                                title: title.clone(),
                                url: url.clone(),
                                start: ch["start_time"].as_f64(),
                            });
                        }
                    }
                }

                if cands.is_empty() {
                    return Ok(CallToolResult::success(vec![ContentBlock::text(
                        "No embedded transcripts found to search. Re-transcribe with \
                         OPENROUTER_API_KEY set so passages get embedded."
                            .to_string(),
                    )]));
                }

                let qvec = match crate::embeddings::embed(vec![query.clone()]).await {
                    Ok(mut v) if !v.is_empty() => v.remove(0),
                    _ => {
                        return Ok(CallToolResult::success(vec![ContentBlock::text(
                            "Failed to embed the query (check OPENROUTER_API_KEY).".to_string(),
                        )]));
                    }
                };

                let cosine = |a: &[f32], b: &[f32]| -> f32 {
                    let n = a.len().min(b.len());
                    let (mut dot, mut na, mut nb) = (0f32, 0f32, 0f32);
                    for i in 0..n {
                        dot += a[i] * b[i];
                        na += a[i] * a[i];
                        nb += b[i] * b[i];
                    }
                    if na == 0.0 || nb == 0.0 {
                        0.0
                    } else {
                        dot / (na.sqrt() * nb.sqrt())
                    }
                };

                let mut scored: Vec<(f32, &Cand)> =
                    cands.iter().map(|c| (cosine(&qvec, &c.emb), c)).collect();
                scored.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
                scored.truncate(limit);

                let mut out = format!(
                    "🔎 Top {} passage(s) for \"{}\" (searched {} chunk(s)):\n\n",
                    scored.len(),
                    query,
                    cands.len()
                );
                for (score, c) in &scored {
                    let ts = c
                        .start
                        .map(|s| format!(" @ {}s", s.round() as i64))
                        .unwrap_or_default();
                    out.push_str(&format!(
                        "• {}{} (relevance {:.2})\n  {}\n",
                        c.title,
                        ts,
                        score,
                        c.content.replace('\n', " ")
                    ));
                    if !c.url.is_empty() {
                        out.push_str(&format!("  {}\n", c.url));
                    }
                    out.push('\n');
                }

                Ok(CallToolResult::success(vec![ContentBlock::text(out)]))
            }

            _ => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!("Unknown tool: {}", request.name),
                None,
            )),
        }
    }
}

fn format_timestamp(timestamp: u64) -> String {
    use chrono::{DateTime, TimeZone, Utc};
    let dt: DateTime<Utc> = Utc.timestamp_opt(timestamp as i64, 0).unwrap();
    dt.format("%Y-%m-%d").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A remote server must never hand back a path into its own container.
    ///
    /// `list_transcripts` and `get_latest_transcript` both did, and
    /// `get_latest_transcript` returned *nothing else* — so an HTTP caller who
    /// lost the original `transcribe_video` response could not recover a
    /// transcript they had paid for. Observed 2026-08-12: the client did the
    /// obvious thing, ran `cat` on the path it was given, and got NOT_LOCAL.
    ///
    /// Asserted on the rendering inputs rather than by standing a server up,
    /// because the bug was never in finding the files — it was in what got
    /// printed once they were found.
    #[test]
    fn remote_listings_do_not_quote_container_paths() {
        let path = std::path::Path::new("/root/Downloads/video-transcripts/abc-Title.txt");
        let entry = "1. **Title**\n   Video ID: abc\n   Files: 2 (md, txt)".to_string();

        // Remote: the entry stands alone, with no path appended.
        let remote = entry.clone();
        assert!(
            !remote.contains("/root/"),
            "a remote listing must not name a path inside the server: {remote}"
        );

        // Local: the path is genuinely useful, because the files are the
        // caller's own.
        let local = format!("{entry}\n   Path: {}", path.display());
        assert!(local.contains("/root/"), "local listings keep the path");
    }

    /// The tips point at different things in the two modes, and the remote one
    /// must not tell a caller to read a file — that is the single thing they
    /// cannot do.
    #[test]
    fn the_remote_tip_names_tools_not_files() {
        let remote = "💡 Fetch the full text with `get_latest_transcript`, or search \
                      across all of them with `search_transcripts`.";
        assert!(
            !remote.contains("file path"),
            "must not send them to the filesystem"
        );
        assert!(remote.contains("get_latest_transcript"));
        assert!(remote.contains("search_transcripts"));
    }

    #[test]
    fn a_normal_transcript_is_returned_whole() {
        let t = "hello world ".repeat(100);
        assert_eq!(
            truncate_transcript(&t),
            t,
            "nothing under the cap should change"
        );
    }

    #[test]
    fn an_enormous_transcript_says_it_was_cut() {
        let t = "x".repeat(MAX_INLINE_TRANSCRIPT + 5_000);
        let out = truncate_transcript(&t);
        assert!(out.len() < t.len());
        assert!(out.contains("truncated:"), "must not clip silently");
        assert!(
            out.contains("bytes shown"),
            "must say bytes, since len() is bytes"
        );
        assert!(out.contains(".txt file"), "must say where the rest is");
    }

    #[test]
    fn truncation_does_not_split_a_multibyte_character() {
        // Vietnamese, Japanese and emoji all show up in real transcripts, and
        // slicing mid-UTF-8 panics rather than producing bad output.
        for filler in ["ế", "日", "🪙"] {
            let t = filler.repeat(MAX_INLINE_TRANSCRIPT);
            let out = truncate_transcript(&t); // panics if the cut is wrong
            assert!(out.contains("truncated:"), "{filler} case should truncate");
            // The byte and character counts must differ for multi-byte input,
            // which is the whole reason the message reports both.
            let chars = t.chars().count();
            assert!(t.len() > chars, "{filler} should be multi-byte");
            assert!(
                out.contains(&format!("of {} characters", chars)),
                "{filler}: character total should be chars, not bytes"
            );
        }
    }

    #[test]
    fn format_timestamp_renders_a_unix_time_as_a_calendar_date() {
        // 2024-01-15T00:00:00Z, used because transcript listings render a
        // file's mtime as a plain date rather than a full timestamp.
        assert_eq!(format_timestamp(1_705_276_800), "2024-01-15");
    }

    #[test]
    fn format_timestamp_treats_zero_as_the_unix_epoch() {
        assert_eq!(format_timestamp(0), "1970-01-01");
    }
}
