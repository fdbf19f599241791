use anyhow::{Context, Result};
use async_process::Command;
use std::path::PathBuf;
use tempfile::TempDir;
use tracing::{info, warn};

use super::types::VideoMetadata;

pub struct VideoDownloader {
    temp_dir: TempDir,
}

/// Resolves the cookie source for yt-dlp from the environment, returning the
/// flag pair to inject into yt-dlp commands.
///
/// Resolution order:
/// 1. `YT_DLP_COOKIES` — path to a Netscape-format cookies file
///    (`--cookies <file>`). Use this on headless/Linux setups where the
///    browser cookie DB isn't accessible (e.g. cookies exported via a QR
///    login flow).
/// 2. `YT_DLP_COOKIES_FROM_BROWSER` — browser name to read cookies from
///    (`--cookies-from-browser <name>`), piggybacking on a logged-in session.
///
/// Either source bypasses YouTube's "Sign in to confirm you're not a bot"
/// wall and unlocks age-restricted / members-only videos.
fn cookies_args() -> Option<[String; 2]> {
    resolve_cookies_args(
        std::env::var("YT_DLP_COOKIES").ok().as_deref(),
        std::env::var("YT_DLP_COOKIES_FROM_BROWSER").ok().as_deref(),
    )
}

/// yt-dlp's YouTube player clients. `default` defers to yt-dlp's own client
/// set, which it retunes every release as YouTube changes which clients serve
/// audio, and which differs when cookies are passed. A hard-coded list goes
/// stale: `android,web_safari,web` worked around nsig throttling once, but by
/// 2026-11 `web_safari`/`web` returned only images, and yt-dlp skips `android`
/// whenever cookies are set, so every YouTube job failed with "Requested format
/// is not available". Ignored on non-YouTube URLs, so it's safe to always pass.
///
/// Override via `YT_DLP_PLAYER_CLIENT` if a specific client set is needed.
fn youtube_client_args() -> [String; 2] {
    resolve_youtube_client_args(std::env::var("YT_DLP_PLAYER_CLIENT").ok().as_deref())
}

/// Pure resolution of the player-client flag pair, factored out of
/// `youtube_client_args` so the default can be unit-tested without touching
/// process-global env.
fn resolve_youtube_client_args(clients: Option<&str>) -> [String; 2] {
    let clients = clients
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or("default");
    [
        "--extractor-args".to_string(),
        format!("youtube:player_client={clients}"),
    ]
}

/// Parse yt-dlp `--dump-json` output, which is one JSON object PER VIDEO. A
/// `watch?v=…&list=…` URL resolves to one video under `--no-playlist`, but a
/// bare playlist/channel URL still prints a line per entry — refuse it here,
/// before `download_audio` would fetch every entry for the price of one job.
fn parse_single_video_json(stdout: &str) -> Result<serde_json::Value> {
    let mut lines = stdout.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().context("yt-dlp returned no metadata")?;
    if lines.next().is_some() {
        anyhow::bail!("That URL is a playlist. Paste a link to a single video.");
    }
    Ok(serde_json::from_str(first)?)
}

const LIVE_REFUSAL: &str = "Live streams aren't supported. Try again once the broadcast has ended.";

/// yt-dlp `--match-filter` with the same rule as [`refuse_live`]. `!=?` lets
/// media that reports no `live_status` at all (a direct file link) through.
const NOT_LIVE_FILTER: &str = "!is_live & live_status!=?is_live & live_status!=?is_upcoming";

/// Refuse a live or scheduled broadcast. yt-dlp would record a live stream
/// until it ends (unbounded time and size for one request), and an upcoming
/// one has nothing to download yet. A finished broadcast (`was_live`) is an
/// ordinary video.
fn refuse_live(json: &serde_json::Value) -> Result<()> {
    let live = json["is_live"].as_bool() == Some(true)
        || matches!(
            json["live_status"].as_str(),
            Some("is_live" | "is_upcoming")
        );
    if live {
        anyhow::bail!(LIVE_REFUSAL);
    }
    Ok(())
}

/// Length in whole seconds, rounded up; 0 when yt-dlp doesn't report one.
/// Many extractors report a float (`1057.3`), which `as_u64` reads as missing.
fn duration_secs(json: &serde_json::Value) -> u64 {
    json["duration"]
        .as_f64()
        .filter(|d| d.is_finite() && *d > 0.0)
        .map_or(0, |d| d.ceil() as u64)
}

/// Pure resolution of the cookie flag pair, factored out of `cookies_args` so
/// the precedence rules can be unit-tested without touching process-global env.
fn resolve_cookies_args(cookies_file: Option<&str>, browser: Option<&str>) -> Option<[String; 2]> {
    // Prefer an explicit cookies file — works on headless/Linux hosts.
    if let Some(trimmed) = cookies_file.map(str::trim).filter(|s| !s.is_empty()) {
        return Some(["--cookies".to_string(), trimmed.to_string()]);
    }
    // Fall back to reading cookies straight from a local browser.
    let trimmed = browser.map(str::trim).filter(|s| !s.is_empty())?;
    Some(["--cookies-from-browser".to_string(), trimmed.to_string()])
}

impl Default for VideoDownloader {
    fn default() -> Self {
        Self::new()
    }
}

impl VideoDownloader {
    pub fn new() -> Self {
        let temp_dir = TempDir::new().expect("Failed to create temp directory");
        Self { temp_dir }
    }

    /// Fetch metadata, then download the audio. `on_metadata`, when provided,
    /// receives the resolved [`VideoMetadata`] the instant it's known — right
    /// after the (fast) `--dump-json` probe and BEFORE the (slow) audio
    /// download — so callers can surface the title without waiting for the whole
    /// pipeline. The send is best-effort: a closed receiver never blocks or
    /// fails the download.
    pub async fn download(
        &self,
        url: &str,
        on_metadata: Option<&tokio::sync::mpsc::UnboundedSender<VideoMetadata>>,
    ) -> Result<(VideoMetadata, PathBuf)> {
        info!("📥 Fetching video metadata...");
        let metadata = self.fetch_metadata(url).await?;

        info!("📺 Detected platform: {}", metadata.platform);
        info!("🎬 Title: {}", metadata.title);

        if let Some(tx) = on_metadata {
            let _ = tx.send(metadata.clone());
        }

        info!("⬇️  Downloading video (audio only)...");
        let video_path = self.download_audio(url).await?;

        Ok((metadata, video_path))
    }

    pub async fn fetch_metadata(&self, url: &str) -> Result<VideoMetadata> {
        // `--playlist-end 2` stops a bare playlist/channel URL after the second
        // entry — enough for `parse_single_video_json` to refuse it, without
        // enumerating the whole collection first.
        let mut args: Vec<String> = vec![
            "--dump-json".to_string(),
            "--no-playlist".to_string(),
            "--playlist-end".to_string(),
            "2".to_string(),
        ];
        args.extend(youtube_client_args());
        if let Some(c) = cookies_args() {
            info!("Using {} {}", c[0], c[1]);
            args.extend(c);
        }
        args.push(url.to_string());

        let output = Command::new("yt-dlp")
            .args(&args)
            .output()
            .await
            .context("Failed to run yt-dlp. Is it installed?")?;

        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            // Surface a hint when bot-check fires and cookies aren't configured.
            if stderr.contains("Sign in to confirm") && cookies_args().is_none() {
                warn!(
                    "YouTube triggered bot detection. Authenticate with cookies: set YT_DLP_COOKIES=/path/to/cookies.txt (a Netscape-format cookies file, e.g. exported via QR login on headless/Linux), or YT_DLP_COOKIES_FROM_BROWSER=chrome (or brave/firefox/edge) in .env."
                );
            }
            anyhow::bail!("yt-dlp failed to fetch metadata: {}", stderr);
        }

        let json_str = String::from_utf8(output.stdout)?;
        let json = parse_single_video_json(&json_str)?;
        refuse_live(&json)?;

        Ok(VideoMetadata {
            video_id: json["id"].as_str().unwrap_or("unknown").to_string(),
            title: json["title"].as_str().unwrap_or("Unknown").to_string(),
            channel: json["channel"]
                .as_str()
                .or_else(|| json["uploader"].as_str())
                .unwrap_or("Unknown")
                .to_string(),
            duration: duration_secs(&json),
            upload_date: json["upload_date"].as_str().unwrap_or("").to_string(),
            platform: detect_platform(url, &json),
            url: url.to_string(),
        })
    }

    async fn download_audio(&self, url: &str) -> Result<PathBuf> {
        // Generate unique filename to avoid conflicts when downloading multiple videos
        let unique_id = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let output_template = self
            .temp_dir
            .path()
            .join(format!("video_{}.%(ext)s", unique_id));
        let expected_path = self
            .temp_dir
            .path()
            .join(format!("video_{}.mp3", unique_id));

        let mut args: Vec<String> = vec![
            "-x".to_string(), // Extract audio
            "--audio-format".to_string(),
            "mp3".to_string(),
            // Be resilient to YouTube throttling interrupted streams.
            "--retries".to_string(),
            "10".to_string(),
            "--fragment-retries".to_string(),
            "10".to_string(),
            "--no-playlist".to_string(),
            // Cap to one entry on its own, not only via the probe's refusal —
            // the probe and this call each resolve the URL independently.
            "--playlist-items".to_string(),
            "1".to_string(),
            // `refuse_live` checked the probe, but this call resolves the URL
            // again, and a scheduled stream may have gone live in between.
            "--match-filter".to_string(),
            NOT_LIVE_FILTER.to_string(),
            "-o".to_string(),
            output_template.to_string_lossy().to_string(),
        ];
        args.extend(youtube_client_args());
        if let Some(c) = cookies_args() {
            args.extend(c);
        }
        args.push(url.to_string());

        let output = Command::new("yt-dlp")
            .args(&args)
            .output()
            .await
            .context("Failed to run yt-dlp")?;

        if !output.status.success() {
            anyhow::bail!(
                "yt-dlp failed to download video: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }

        // A filtered-out video is skipped with exit 0 and no file.
        if String::from_utf8_lossy(&output.stdout).contains("does not pass filter") {
            anyhow::bail!(LIVE_REFUSAL);
        }

        // Find the downloaded file
        if !expected_path.exists() {
            anyhow::bail!(
                "Downloaded audio file not found at {}",
                expected_path.display()
            );
        }

        info!("✅ Downloaded audio to {}", expected_path.display());

        Ok(expected_path)
    }
}

fn detect_platform(url: &str, json: &serde_json::Value) -> String {
    // Try to detect from URL first
    let url_lower = url.to_lowercase();

    if url_lower.contains("youtube.com") || url_lower.contains("youtu.be") {
        return "YouTube".to_string();
    } else if url_lower.contains("vimeo.com") {
        return "Vimeo".to_string();
    } else if url_lower.contains("tiktok.com") {
        return "TikTok".to_string();
    } else if url_lower.contains("twitter.com") || url_lower.contains("x.com") {
        return "Twitter/X".to_string();
    } else if url_lower.contains("facebook.com") || url_lower.contains("fb.watch") {
        return "Facebook".to_string();
    } else if url_lower.contains("instagram.com") {
        return "Instagram".to_string();
    } else if url_lower.contains("twitch.tv") {
        return "Twitch".to_string();
    }

    // Fallback to extractor from metadata
    json["extractor"].as_str().unwrap_or("Unknown").to_string()
}

#[cfg(test)]
mod tests {
    use super::{
        detect_platform, duration_secs, parse_single_video_json, refuse_live, resolve_cookies_args,
        resolve_youtube_client_args,
    };
    use serde_json::json;

    #[test]
    fn live_and_upcoming_broadcasts_are_refused() {
        for j in [
            json!({"is_live": true}),
            json!({"live_status": "is_live"}),
            json!({"live_status": "is_upcoming"}),
        ] {
            let err = refuse_live(&j).unwrap_err().to_string();
            assert!(err.contains("Live streams aren't supported"), "{j}: {err}");
        }
    }

    #[test]
    fn finished_videos_and_past_broadcasts_are_not_live() {
        for j in [
            json!({}),
            json!({"is_live": false, "live_status": "not_live"}),
            json!({"is_live": false, "live_status": "was_live"}),
            json!({"live_status": "post_live"}),
        ] {
            assert!(refuse_live(&j).is_ok(), "{j}");
        }
    }

    #[test]
    fn durations_are_read_whether_integer_or_float() {
        assert_eq!(duration_secs(&json!({"duration": 1057})), 1057);
        // Rounded up: a 1057.3 s video is billed as 1058 s, never as 0.
        assert_eq!(duration_secs(&json!({"duration": 1057.3})), 1058);
        assert_eq!(duration_secs(&json!({})), 0);
        assert_eq!(duration_secs(&json!({"duration": null})), 0);
        assert_eq!(duration_secs(&json!({"duration": -5.0})), 0);
    }

    #[test]
    fn single_video_json_parses() {
        let json = parse_single_video_json("{\"id\":\"abc\",\"duration\":60}\n").unwrap();
        assert_eq!(json["id"], "abc");
    }

    #[test]
    fn playlist_json_lines_are_refused() {
        let err = parse_single_video_json("{\"id\":\"a\"}\n{\"id\":\"b\"}\n").unwrap_err();
        assert!(err.to_string().contains("playlist"));
    }

    #[test]
    fn empty_output_is_an_error() {
        assert!(parse_single_video_json("\n").is_err());
    }

    #[test]
    fn detect_platform_matches_known_hosts_by_url() {
        let empty = serde_json::json!({});
        assert_eq!(
            detect_platform("https://www.youtube.com/watch?v=abc", &empty),
            "YouTube"
        );
        assert_eq!(detect_platform("https://youtu.be/abc", &empty), "YouTube");
        assert_eq!(detect_platform("https://vimeo.com/123", &empty), "Vimeo");
        assert_eq!(
            detect_platform("https://www.tiktok.com/@a/video/1", &empty),
            "TikTok"
        );
        assert_eq!(
            detect_platform("https://x.com/user/status/1", &empty),
            "Twitter/X"
        );
        assert_eq!(detect_platform("https://fb.watch/abc", &empty), "Facebook");
        assert_eq!(
            detect_platform("https://www.instagram.com/p/abc", &empty),
            "Instagram"
        );
        assert_eq!(
            detect_platform("https://www.twitch.tv/somechannel", &empty),
            "Twitch"
        );
    }

    #[test]
    fn detect_platform_is_case_insensitive_on_the_url() {
        let empty = serde_json::json!({});
        assert_eq!(
            detect_platform("HTTPS://WWW.YOUTUBE.COM/watch?v=abc", &empty),
            "YouTube"
        );
    }

    #[test]
    fn detect_platform_falls_back_to_the_extractor_field() {
        let json = serde_json::json!({"extractor": "Rumble"});
        assert_eq!(detect_platform("https://rumble.com/v1", &json), "Rumble");

        let empty = serde_json::json!({});
        assert_eq!(detect_platform("https://rumble.com/v1", &empty), "Unknown");
    }

    #[test]
    fn player_client_defers_to_yt_dlp_unless_overridden() {
        // A hard-coded client list went stale and broke every YouTube job
        // (2026-11): the default must stay yt-dlp's own `default` set.
        let default = ["--extractor-args", "youtube:player_client=default"];
        assert_eq!(resolve_youtube_client_args(None), default);
        assert_eq!(resolve_youtube_client_args(Some("  ")), default);
        assert_eq!(
            resolve_youtube_client_args(Some(" tv,web ")),
            ["--extractor-args", "youtube:player_client=tv,web"]
        );
    }

    #[test]
    fn cookies_file_takes_priority_over_browser() {
        let args = resolve_cookies_args(Some("/path/cookies.txt"), Some("chrome")).unwrap();
        assert_eq!(args, ["--cookies", "/path/cookies.txt"]);
    }

    #[test]
    fn falls_back_to_browser_when_no_file() {
        let args = resolve_cookies_args(None, Some("firefox")).unwrap();
        assert_eq!(args, ["--cookies-from-browser", "firefox"]);
    }

    #[test]
    fn blank_or_whitespace_values_are_ignored() {
        // Empty/whitespace file falls through to the browser...
        let args = resolve_cookies_args(Some("   "), Some("brave")).unwrap();
        assert_eq!(args, ["--cookies-from-browser", "brave"]);
        // ...and a trimmed file path is used verbatim.
        let args = resolve_cookies_args(Some("  /c.txt  "), None).unwrap();
        assert_eq!(args, ["--cookies", "/c.txt"]);
        // Nothing set → no cookie flags at all.
        assert!(resolve_cookies_args(None, None).is_none());
        assert!(resolve_cookies_args(Some(""), Some("  ")).is_none());
    }
}
