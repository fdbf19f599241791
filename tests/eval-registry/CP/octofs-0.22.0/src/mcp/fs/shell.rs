// Copyright 2026 Muvon Un Limited
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

//! Shell execution functionality for the filesystem MCP provider.

use super::super::McpToolCall;
use crate::utils::truncation::{format_megabytes, MAX_RESULT_BYTES};
use anyhow::{anyhow, bail, Result};
use serde_json::Value;
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

// Every command starts in the foreground for quick, interactive-latency work.
// Anything still running at this deadline is automatically promoted to a
// background job without killing or restarting it.
#[cfg(not(test))]
const FOREGROUND_TIMEOUT: Duration = Duration::from_secs(10);
#[cfg(test)]
const FOREGROUND_TIMEOUT: Duration = Duration::from_millis(200);
// Track PIDs of in-flight foreground shell children.
// Each child is spawned as a session leader (setsid) so PGID == child PID.
// On shutdown we kill(-pid, SIGKILL) to terminate the entire process group,
// including any grandchildren the command may have spawned.
static SHELL_CHILDREN: Mutex<Option<HashSet<u32>>> = Mutex::new(None);

pub(super) fn register_child(pid: u32) {
	SHELL_CHILDREN
		.lock()
		.unwrap()
		.get_or_insert_with(HashSet::new)
		.insert(pid);
}

pub(super) fn unregister_child(pid: u32) {
	if let Some(set) = SHELL_CHILDREN.lock().unwrap().as_mut() {
		set.remove(&pid);
	}
}

/// Build the platform shell process for `command`.
///
/// On Windows the command goes to cmd as a raw argument: `args()` would quote it
/// with MSVC rules and escape inner quotes as `\"`, which cmd does not
/// understand, so a command like `powershell -Command "..."` reached its program
/// mangled. `/S` makes cmd strip exactly the outer quote pair we add.
pub(super) fn shell_process(command: &str) -> tokio::process::Command {
	#[cfg(windows)]
	{
		let mut process = tokio::process::Command::new("cmd");
		process.raw_arg(format!("/S /C \"{command}\""));
		process
	}
	#[cfg(not(windows))]
	{
		let mut process = tokio::process::Command::new("sh");
		process.args(["-c", command]);
		process
	}
}

/// Start the child in a new session. A separate process group alone still shares
/// the MCP client's terminal, so an interactive shell (`zsh -ic`) could
/// tcsetpgrp() itself into the foreground and leave the client stopped as a
/// background job. setsid() leaves the child with no controlling terminal
/// (/dev/tty opens fail with ENXIO) and makes it a process group leader
/// (PGID == PID) for kill(-pid) cleanup. Don't combine with process_group(0):
/// setsid() fails with EPERM for a process that already leads a group.
#[cfg(unix)]
pub(super) fn detach_from_terminal(cmd: &mut tokio::process::Command) {
	// SAFETY: setsid() is async-signal-safe, so it may run between fork and exec.
	unsafe {
		cmd.pre_exec(|| {
			if libc::setsid() == -1 {
				return Err(std::io::Error::last_os_error());
			}
			Ok(())
		});
	}
}

/// Kill every tracked in-flight shell child's process group.
/// Called on SIGTERM / EOF so grandchildren don't survive as orphans.
#[cfg(unix)]
pub fn kill_all_shell_children() {
	let pids: Vec<u32> = SHELL_CHILDREN
		.lock()
		.unwrap()
		.as_mut()
		.map(|set| set.drain().collect())
		.unwrap_or_default();

	for pid in pids {
		let pgid = pid as libc::pid_t;
		// SAFETY: kill is always safe with valid arguments.
		// Negative pgid targets the entire process group.
		unsafe {
			libc::kill(-pgid, libc::SIGKILL);
		}
	}
}

#[cfg(not(unix))]
pub fn kill_all_shell_children() {
	// On non-unix, clear the set; kill_on_drop handles the direct child.
	if let Some(set) = SHELL_CHILDREN.lock().unwrap().as_mut() {
		set.clear();
	}
}

// Each entry: (triggering programs, error message with usage example). A match is
// rejected wherever it starts a command — alone, as a chain segment, in a `$(…)`
// substitution or as a pipeline head — because a hint only arrives after the shell
// read already ran. Pipelines are not split, so a later pipe stage
// (`cargo test 2>&1 | tail -20`) is never checked and stays allowed.
static SHELL_MISUSE_HINTS: &[(&[&str], &str)] = &[
	(
		&["cat", "head", "tail", "less", "more"],
		"Reading files with the shell is blocked — use `view` for any path, local or remote: view path=\"src/main.rs\" start=10 end=50, view path=\"ssh://host/~/file\". To feed a program, redirect its stdin instead: `psql < dump.sql`, `python3 - <<'EOF'`. Only a later pipeline stage (`cargo test 2>&1 | tail -20`) stays allowed; this covers every command in a chain (`cd x && cat y`), not only the first.",
	),
	(
		&["grep", "egrep", "fgrep", "rg"],
		"Searching with the shell is blocked — use `view` with content= for any path, local or remote: view path=\"src/\" content=\"TODO\" regex=true. Only a later pipeline stage (`cargo build 2>&1 | grep error`) stays allowed; this covers every command in a chain (`cd x && grep y`), not only the first.",
	),
	(
		&["find", "ls"],
		"Listing with the shell is blocked — use `view` for any path, local or remote: view path=\"src/\" pattern=\"*.rs\" (ripgrep glob), view path=\"ssh://host/~/dir\". Only a later pipeline stage (`cargo build 2>&1 | grep error`) stays allowed; this covers every command in a chain (`cd x && ls y`), not only the first.",
	),
	(
		&["sleep"],
		"Bare `sleep` is blocked — it wastes the call. Commands you start move to the background automatically and notify you on exit, so never sleep or chain short sleeps to wait for them.",
	),
	(
		&["watch", "top", "htop"],
		"This program never exits, so it would never complete or notify you. Run the underlying command once; long runs move to the background automatically.",
	),
];

/// What the gate decides for a command using a program a dedicated tool covers.
enum Misuse {
	/// Refuse to run; the message names the tool to use instead.
	Reject(String),
	/// Run, and append this hint to the result.
	Hint(String),
}

// Only in-place `sed` edits a file; `sed`/`awk` streaming to stdout is text
// processing (line-length checks, previews) that no dedicated tool covers.
static IN_PLACE_EDIT_HINT: &str = "Editing files in place with the shell is blocked — use `text_editor` str_replace or `batch_edit` (atomic, tracked, remote-capable). `sed` to stdout stays allowed.";

// Writing file content from the shell (`echo ... > file`, heredocs into cat/tee)
// breaks on quoting/escaping and bypasses tracked edits. Redirecting other
// programs' OUTPUT to a file stays allowed — only content-authoring is blocked.
static REDIRECT_WRITE_HINT: &str = "Writing file content with echo/printf/cat redirects or a standalone `tee` is blocked — quoting corrupts content and the write is untracked. Use text_editor command=\"create\" or str_replace. `printf … | prog`, `| tee f` and redirecting a program's output (e.g. `cargo test > out.log`) stay allowed.";

// Force well-behaved interactive tools to fail fast instead of prompting.
// stdin=null + no controlling terminal already makes input physically impossible;
// these env vars make cooperative tools surface a clean error instead of
// printing a prompt and hitting EOF mid-read (or invoking a pager that
// misbehaves without a TTY).
pub(super) static NONINTERACTIVE_ENVS: &[(&str, &str)] = &[
	("GIT_TERMINAL_PROMPT", "0"),          // git: fail instead of prompting for credentials
	("DEBIAN_FRONTEND", "noninteractive"), // apt/dpkg: never prompt
	("PAGER", "cat"),                      // don't invoke less (hangs / garbled without TTY)
	("GIT_PAGER", "cat"),                  // same for git log/diff/show
	("NO_COLOR", "1"),                     // suppress ANSI colors at the source (no-color.org)
];

// Matches terminal escape sequences: CSI (colors, cursor movement), OSC (titles,
// hyperlinks; BEL- or ST-terminated), and any other two-char ESC sequence.
// ponytail: regex covers real-world output; swap in the `strip-ansi-escapes` crate
// (vte parser) if exotic partial sequences ever survive.
static ANSI_ESCAPES: OnceLock<regex::Regex> = OnceLock::new();

fn ansi_re() -> &'static regex::Regex {
	ANSI_ESCAPES
		.get_or_init(|| regex::Regex::new(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|.)").unwrap())
}

// Compact captured output to exactly what a human would see on the terminal after
// the command finished — nothing a tool printed as a real line is dropped:
//   - ANSI escape sequences (colors, cursor movement, OSC links) render as nothing
//   - \r-overwritten progress frames: only the final frame is visible
//     (curl/pip/wget redraw the same line hundreds of times into captured stderr)
//   - backspaces erase the character before them (spinner animations)
//   - remaining control chars (BEL, NUL, …) render nothing
//   - trailing whitespace is invisible (progress frames pad with spaces to erase
//     longer previous frames); leading/trailing blank lines carry no information
//   - runs of identical consecutive lines (repeated warnings, wget dots, retry
//     loops) collapse to the line plus a repeat count — the count preserves the
//     information, the repeats were pure token cost
// Leading spaces on the first content line are kept — they may be table alignment.
pub(super) fn clean_terminal_noise(raw: &str) -> String {
	let stripped = ansi_re().replace_all(raw, "");
	let mut lines: Vec<String> = Vec::new();
	let mut repeats = 0usize;
	for line in stripped.split('\n') {
		// CRLF: the trailing \r is a line ending, not a progress redraw.
		let line = line.strip_suffix('\r').unwrap_or(line);
		// A mid-line \r overwrites everything before it — keep the final frame.
		let line = line.rsplit('\r').next().unwrap_or(line);
		let mut out = String::with_capacity(line.len());
		for ch in line.chars() {
			match ch {
				'\u{8}' => {
					out.pop();
				}
				c if c.is_control() && c != '\t' => {}
				c => out.push(c),
			}
		}
		out.truncate(out.trim_end().len());

		// Blank lines are exempt from run-collapsing — a marker after a blank
		// line reads as nonsense and blank runs are cheap anyway.
		if !out.is_empty() && lines.last() == Some(&out) {
			repeats += 1;
			continue;
		}
		flush_repeats(&mut lines, &mut repeats);
		lines.push(out);
	}
	flush_repeats(&mut lines, &mut repeats);
	lines.join("\n").trim_start_matches('\n').trim_end().to_string()
}

// Emit the pending duplicate-run count from clean_terminal_noise.
fn flush_repeats(lines: &mut Vec<String>, repeats: &mut usize) {
	match *repeats {
		0 => {}
		// A single duplicate is kept verbatim — the marker would cost more.
		1 => {
			if let Some(last) = lines.last().cloned() {
				lines.push(last);
			}
		}
		n => lines.push(format!("[... last line repeated {n} more times]")),
	}
	*repeats = 0;
}

// Detect shell commands that should use a dedicated MCP tool instead.
// Returns whether to reject the command or run it with a hint.
//
// A rejection names the offending program and says the whole command was
// rejected: one blocked verb inside a compound (`php -v && sleep 5 && …`)
// takes the legitimate parts down with it, and a hint that names neither leaves
// the caller permuting joiners and re-sending the same command.
//
// `workdir` is where tracked edits live: content written by echo/printf/cat
// redirects resolving outside it (scratch files under /tmp, also relative ones
// after `cd /tmp/x &&`) runs with a hint. `None` (remote commands) treats every
// write target as tracked.
fn detect_shell_misuse(command: &str, workdir: Option<&Path>) -> Option<Misuse> {
	// Depth of `do ... done` loop bodies: `sleep` there is legitimate polling
	// (`until <check>; do sleep 2; done`); everywhere else it's dead waiting.
	let mut loop_depth = 0usize;
	// Split into individual commands on shell separators, respecting
	// quoting so that `&&`/`||`/`;` inside quoted strings (e.g. SSH remote
	// commands: `ssh host 'cd /path && ls'`) are not treated as local
	// separators. Pipelines (`|`) are intentionally NOT split: stream
	// transforms such as `cargo build 2>&1 | grep error` remain allowed.
	let segments = split_shell_segments(command);
	let mut hint = None;
	// The shell's directory as `cd` segments move it; a `cd` we can't resolve
	// (`cd`, `cd -`, `cd ~`, `cd $X`) falls back to the workdir, i.e. tracked.
	let mut cwd: Option<PathBuf> = workdir.map(Path::to_path_buf);
	for segment in segments {
		let segment = segment.trim();
		// Skip leading env assignments (FOO=bar cmd ...) and group openers
		// (`{`) to reach the program; strip subshell parens glued to tokens
		// (`(cat file)`) so they can't hide a forbidden program.
		let prog = segment
			.split_whitespace()
			.map(|tok| tok.trim_start_matches('(').trim_end_matches(')'))
			.find(|tok| !tok.is_empty() && !tok.contains('=') && *tok != "{")
			.unwrap_or("");
		// Strip any path prefix: /bin/grep -> grep
		let prog = prog.rsplit('/').next().unwrap_or(prog);

		match prog {
			// The command after `do` shares its segment, so `do sleep 2`
			// already passes today — keep that leniency unchanged.
			"do" => {
				loop_depth += 1;
				continue;
			}
			"done" => {
				loop_depth = loop_depth.saturating_sub(1);
				continue;
			}
			"sleep" if loop_depth > 0 => continue,
			_ => {}
		}

		if prog == "cd" {
			let dir = segment
				.split_whitespace()
				.nth(1)
				.map(|tok| tok.trim_matches(|c| c == '"' || c == '\''));
			// A `cd` inside `( … )` moves only the subshell, not the commands after it.
			if segment.starts_with('(') || dir.is_some_and(|dir| dir.ends_with(')')) {
				continue;
			}
			cwd = match (cwd, dir) {
				(Some(cur), Some(dir)) if dir != "-" && !dir.contains(['~', '$']) => Some(cur.join(dir)),
				_ => workdir.map(Path::to_path_buf),
			};
			continue;
		}

		// A remote command obeys the same rules as a local one — `ssh host
		// 'grep …'` must not dodge the gate that view/text_editor already
		// cover via ssh:// paths.
		if prog == "ssh" {
			if let Some(remote) = ssh_remote_command(segment) {
				match detect_shell_misuse(remote, None) {
					Some(Misuse::Reject(msg)) => return Some(Misuse::Reject(msg)),
					Some(Misuse::Hint(h)) => {
						hint.get_or_insert(h);
					}
					None => {}
				}
			}
			continue;
		}

		// Content-authoring programs writing a file via redirect, or standalone
		// tee (writes stdin to a file). Checked before the hint table so
		// `cat > file` gets the write guidance, not the read guidance.
		if prog == "tee" {
			return Some(Misuse::Reject(blocked_message(prog, REDIRECT_WRITE_HINT)));
		}
		if matches!(prog, "echo" | "printf" | "cat") {
			let targets = redirect_targets(segment);
			if !targets.is_empty() {
				let untracked = cwd
					.as_deref()
					.zip(workdir)
					.is_some_and(|(cur, root)| targets.iter().all(|t| outside_workdir(t, cur, root)));
				if !untracked {
					return Some(Misuse::Reject(blocked_message(prog, REDIRECT_WRITE_HINT)));
				}
				hint.get_or_insert_with(|| {
					format!(
						"`{prog}` wrote a file via redirect; text_editor create writes content without shell quoting."
					)
				});
				continue;
			}
		}

		if prog == "sed" && sed_edits_in_place(segment) {
			return Some(Misuse::Reject(blocked_message(prog, IN_PLACE_EDIT_HINT)));
		}

		for (progs, message) in SHELL_MISUSE_HINTS {
			if progs.contains(&prog) {
				return Some(Misuse::Reject(blocked_message(prog, message)));
			}
		}
	}

	hint.map(Misuse::Hint)
}

/// True for a redirect target resolving outside the workdir from the shell's
/// current directory `cwd`, e.g. /tmp/x, or `x` after `cd /tmp`. `..` is resolved
/// lexically so `cd /tmp && cd ../work` still lands in /work.
fn outside_workdir(target: &str, cwd: &Path, workdir: &Path) -> bool {
	let mut resolved = PathBuf::new();
	for part in cwd.join(target.trim_matches(|c| c == '"' || c == '\'')).components() {
		match part {
			Component::CurDir => {}
			Component::ParentDir => {
				resolved.pop();
			}
			other => resolved.push(other),
		}
	}
	!resolved.starts_with(workdir)
}

/// True if `command` runs a `git stash` that stashes changes (bare, `push`, `save`,
/// or options only) — not `list`/`show`/`pop`/`apply`/`drop`/`clear`/`branch`.
fn stashes_changes(command: &str) -> bool {
	split_shell_segments(command).iter().any(|segment| {
		let tokens: Vec<&str> = shell_token_spans(segment)
			.into_iter()
			.map(|(s, e)| &segment[s..e])
			.collect();
		// The segment's program, past env assignments and group openers, must be git.
		let Some(git) = tokens.iter().position(|tok| {
			let tok = tok.trim_start_matches('(');
			!tok.is_empty() && !tok.contains('=') && tok != "{"
		}) else {
			return false;
		};
		if tokens[git].trim_start_matches('(').rsplit('/').next() != Some("git") {
			return false;
		}
		// Skip git's global options (`-C dir`, `-c key=val`, `--no-pager`) to its command.
		let mut rest = tokens[git + 1..].iter();
		while let Some(&tok) = rest.next() {
			if matches!(tok, "-C" | "-c") {
				rest.next();
			} else if !tok.starts_with('-') {
				return tok == "stash"
					&& rest
						.next()
						.is_none_or(|sub| sub.starts_with('-') || matches!(*sub, "push" | "save"));
			}
		}
		false
	})
}

/// True if a `sed` segment carries `-i`/`--in-place` (also as a bundled short
/// flag like `-ni` or with a backup suffix like `-i.bak`).
fn sed_edits_in_place(segment: &str) -> bool {
	segment.split_whitespace().skip(1).any(|tok| {
		tok == "--in-place"
			|| tok.starts_with("--in-place=")
			|| (tok.starts_with('-') && !tok.starts_with("--") && tok[1..].contains('i'))
	})
}

/// Name the misused program. Hard mode states that nothing ran, so a compound
/// command can be split instead of retried; soft mode says it ran anyway.
fn blocked_message(prog: &str, hint: &str) -> String {
	misuse_message(prog, hint, crate::mcp::get_hint_mode())
}

fn misuse_message(prog: &str, hint: &str, mode: crate::mcp::HintMode) -> String {
	match mode {
		crate::mcp::HintMode::Hard => format!(
			"`{prog}` is blocked, so the whole command was rejected and no part of it ran — re-send the rest as its own call. {hint}"
		),
		crate::mcp::HintMode::Soft => format!(
			"`{prog}` in the shell is discouraged here; the command ran anyway. {}",
			hint.replace(" is blocked — ", " is discouraged — ")
		),
	}
}

/// Targets of the segment's unquoted `>` / `>>` file redirects.
/// Fd duplications (`>&2`, `2>&1`) are not file writes and don't count.
fn redirect_targets(segment: &str) -> Vec<&str> {
	let bytes = segment.as_bytes();
	let mut in_single = false;
	let mut in_double = false;
	let mut targets = Vec::new();
	let mut i = 0;
	while i < bytes.len() {
		match bytes[i] {
			b'\'' if !in_double => in_single = !in_single,
			b'"' if !in_single => in_double = !in_double,
			b'\\' if !in_single => i += 1, // skip escaped char
			b'>' if !in_single && !in_double => {
				let mut j = i + 1;
				if j < bytes.len() && bytes[j] == b'>' {
					j += 1;
				}
				while j < bytes.len() && bytes[j] == b' ' {
					j += 1;
				}
				if j < bytes.len() && bytes[j] != b'&' {
					let end = segment[j..]
						.find(|c: char| c.is_whitespace() || matches!(c, '|' | '<' | '>' | '&' | ';'))
						.map_or(bytes.len(), |k| j + k);
					targets.push(&segment[j..end]);
					i = end;
					continue;
				}
				i = j;
				continue;
			}
			_ => {}
		}
		i += 1;
	}
	targets
}

/// Split a shell command string into segments on `;`, `&&`, `||`, `\n`,
/// `$(`, and backticks — but only when those separators appear *outside*
/// single or double quotes. This prevents false positives where a quoted
/// remote command (e.g. `ssh host 'cd /x && ls'`) contains `&&` that is
/// part of the remote command, not a local shell separator.
fn split_shell_segments(command: &str) -> Vec<&str> {
	let bytes = command.as_bytes();
	let mut segments = Vec::new();
	let mut start = 0;
	let mut i = 0;
	let mut in_single = false;
	let mut in_double = false;

	while i < bytes.len() {
		let b = bytes[i];
		if in_single {
			if b == b'\'' {
				in_single = false;
			}
		} else if in_double {
			if b == b'\\' && i + 1 < bytes.len() {
				i += 1; // skip escaped char inside double quotes
			} else if b == b'"' {
				in_double = false;
			}
		} else {
			match b {
				b'\'' => in_single = true,
				b'"' => in_double = true,
				b'\\' if i + 1 < bytes.len() => i += 1, // skip escaped char
				b';' | b'\n' => {
					segments.push(&command[start..i]);
					start = i + 1;
				}
				b'&' if i + 1 < bytes.len() && bytes[i + 1] == b'&' => {
					segments.push(&command[start..i]);
					i += 1;
					start = i + 1;
				}
				b'|' if i + 1 < bytes.len() && bytes[i + 1] == b'|' => {
					segments.push(&command[start..i]);
					i += 1;
					start = i + 1;
				}
				b'$' if i + 1 < bytes.len() && bytes[i + 1] == b'(' => {
					segments.push(&command[start..i]);
					i += 1;
					start = i + 1;
				}
				b'`' => {
					segments.push(&command[start..i]);
					start = i + 1;
				}
				_ => {}
			}
		}
		i += 1;
	}
	segments.push(&command[start..]);
	segments
}

/// The remote-command part of an `ssh …` segment, cut at any local pipe and
/// with one whole-string quote layer stripped, so `detect_shell_misuse` can
/// check it by the same rules as a local command. None when ssh runs no
/// remote command (interactive session, -N port forwarding).
fn ssh_remote_command(segment: &str) -> Option<&str> {
	// Single-letter ssh options that take the next token as their argument
	// when not glued to it (`-p 22` vs `-p22`).
	const ARG_OPTS: &[u8] = b"bBcDEeFIiJLlmOopQRSWw";

	let spans = shell_token_spans(segment);
	// Land on the `ssh` token itself, skipping env prefixes and group openers
	// the same way prog extraction does.
	let mut idx = spans.iter().position(|&(s, e)| {
		let tok = segment[s..e].trim_start_matches('(');
		!tok.is_empty() && !tok.contains('=') && tok != "{"
	})?;
	idx += 1; // step past `ssh`

	// Skip options; the first non-option token is the destination.
	while idx < spans.len() {
		let (s, e) = spans[idx];
		let tok = &segment[s..e];
		idx += 1;
		let Some(opt) = tok.strip_prefix('-') else {
			// Destination reached; the remote command is everything after it,
			// up to a local pipe — `ssh host 'dmesg' | grep x` pipes locally,
			// keeping the same downstream-transform leniency as pipelines.
			let rest = segment[e..].trim();
			let rest = rest[..unquoted_pipe(rest).unwrap_or(rest.len())].trim();
			if rest.is_empty() {
				return None;
			}
			// Strip one whole-string quote layer so the remote command parses
			// like a local one (`"cd /x && grep y"` → `cd /x && grep y`).
			let b = rest.as_bytes();
			if rest.len() >= 2
				&& (b[0] == b'\'' || b[0] == b'"')
				&& b[rest.len() - 1] == b[0]
				&& shell_token_spans(rest).len() == 1
			{
				return Some(&rest[1..rest.len() - 1]);
			}
			return Some(rest);
		};
		// A cluster of plain option letters ending in an arg-taker consumes
		// the next token; glued args (`-p22`, `-oKey=val`) do not.
		if opt.bytes().all(|c| c.is_ascii_alphabetic()) && opt.bytes().last().is_some_and(|c| ARG_OPTS.contains(&c)) {
			idx += 1;
		}
	}
	None
}

/// Byte offset of the first `|` outside quotes. `||` cannot appear here —
/// segment splitting already consumed it — so any unquoted `|` is a pipe.
fn unquoted_pipe(s: &str) -> Option<usize> {
	let bytes = s.as_bytes();
	let mut in_single = false;
	let mut in_double = false;
	let mut i = 0;
	while i < bytes.len() {
		match bytes[i] {
			b'\'' if !in_double => in_single = !in_single,
			b'"' if !in_single => in_double = !in_double,
			b'\\' if !in_single && i + 1 < bytes.len() => i += 1,
			b'|' if !in_single && !in_double => return Some(i),
			_ => {}
		}
		i += 1;
	}
	None
}

/// Whitespace-delimited token spans with shell quoting respected, so a quoted
/// argument containing spaces stays one token.
fn shell_token_spans(s: &str) -> Vec<(usize, usize)> {
	let bytes = s.as_bytes();
	let mut spans = Vec::new();
	let mut i = 0;
	while i < bytes.len() {
		while i < bytes.len() && bytes[i].is_ascii_whitespace() {
			i += 1;
		}
		if i >= bytes.len() {
			break;
		}
		let start = i;
		let mut in_single = false;
		let mut in_double = false;
		while i < bytes.len() {
			let b = bytes[i];
			if in_single {
				if b == b'\'' {
					in_single = false;
				}
			} else if in_double {
				if b == b'\\' && i + 1 < bytes.len() {
					i += 1;
				} else if b == b'"' {
					in_double = false;
				}
			} else {
				match b {
					b'\'' => in_single = true,
					b'"' => in_double = true,
					b'\\' if i + 1 < bytes.len() => i += 1,
					_ if b.is_ascii_whitespace() => break,
					_ => {}
				}
			}
			i += 1;
		}
		spans.push((start, i));
	}
	spans
}

/// Delivers a finished background job's resource URI so the server layer can
/// emit `resources/updated`. Boxed so `shell.rs` stays free of MCP/peer types —
/// the server constructs one that captures the rmcp peer.
pub type BackgroundNotify = Box<dyn FnOnce(String) + Send>;

pub(super) fn oversized_output_message(status_code: i32, output_bytes: usize, stored_output: Option<&Path>) -> String {
	if let Some(path) = stored_output {
		return format!(
			"Command exited with code {status_code}, but its digest is {}, too large to return in one tool result (limit {}). Full output: {}. Use `view` to read the parts you need.",
			format_megabytes(output_bytes),
			format_megabytes(MAX_RESULT_BYTES),
			path.display()
		);
	}
	format!(
		"Command exited with code {status_code}, but its output is {}, too large to return in one tool result (limit {}). Redirect it to a file (`cmd > out.log`) and `view` the parts you need, or filter it in the pipeline (`cmd 2>&1 | tail -n 200`).",
		format_megabytes(output_bytes),
		format_megabytes(MAX_RESULT_BYTES)
	)
}

/// The outcome of a shell call. `resource_uri` is set only when the command was
/// automatically promoted to the background: the server advertises it as an
/// MCP resource link so the client can follow it generically. Commands that
/// finish inside the foreground window carry their output inline.
#[derive(Debug)]
pub struct ShellOutcome {
	pub text: String,
	pub resource_uri: Option<String>,
}

impl ShellOutcome {
	fn text(text: String) -> Self {
		Self {
			text,
			resource_uri: None,
		}
	}
}

// Execute a shell command
pub async fn execute_shell_command(
	call: &McpToolCall,
	on_background: Option<BackgroundNotify>,
) -> Result<ShellOutcome> {
	execute_with_timeout(call, FOREGROUND_TIMEOUT, on_background).await
}

async fn execute_with_timeout(
	call: &McpToolCall,
	timeout: Duration,
	on_background: Option<BackgroundNotify>,
) -> Result<ShellOutcome> {
	// Extract command parameter
	let command = match call.parameters.get("command") {
		Some(Value::String(cmd)) => {
			if cmd.trim().is_empty() {
				bail!("Command parameter cannot be empty");
			}
			cmd.clone()
		}
		Some(_) => {
			bail!("Command parameter must be a string");
		}
		None => {
			bail!("Missing required 'command' parameter");
		}
	};

	// Commands a dedicated MCP tool covers: rejected in hard mode, run with a
	// warning in soft mode (--hint-mode).
	match detect_shell_misuse(&command, Some(&call.workdir)) {
		Some(Misuse::Reject(msg)) if crate::mcp::get_hint_mode() == crate::mcp::HintMode::Hard => bail!("{msg}"),
		Some(Misuse::Reject(msg)) => crate::mcp::request_ctx::push_hint(&msg),
		Some(Misuse::Hint(hint)) => crate::mcp::request_ctx::push_hint(&hint),
		None => {}
	}

	// Get the working directory from the call context
	let working_dir = call.workdir.clone();

	// Shell commands always execute on the LOCAL machine. With a remote (ssh://)
	// workdir there is nowhere sane to run them — fail with guidance instead of a
	// cryptic spawn failure on the URL-shaped cwd.
	if crate::mcp::fs::parse_path_source(&working_dir.to_string_lossy()).is_remote() {
		bail!(
			"The shell runs on the local machine, but the working directory is remote ({}). Use view/text_editor/batch_edit for remote files.",
			working_dir.display()
		);
	}

	// Use tokio::process::Command for better cancellation support
	let mut cmd = shell_process(&command);
	cmd.current_dir(&working_dir);

	#[cfg(unix)]
	{
		detach_from_terminal(&mut cmd);
	}

	// Inject environment variables that force non-interactive behavior.
	// This prevents prompts for credentials (git), passwords (sudo),
	// editor launches, and confirmation dialogs.
	for (key, value) in NONINTERACTIVE_ENVS {
		cmd.env(key, value);
	}

	// Capture output in durable files from byte one. A command that crosses the
	// foreground deadline can then keep running as the exact same child while the
	// background resource continues exposing all output produced so far.
	let prepared = super::background::prepare(&command, &working_dir).await?;
	let super::background::PreparedJob {
		mut job,
		stdout_file,
		stderr_file,
	} = prepared;
	cmd.stdout(std::process::Stdio::from(stdout_file))
		.stderr(std::process::Stdio::from(stderr_file))
		.stdin(std::process::Stdio::null())
		// Cancellation before promotion still cleans up the direct child. The
		// timeout path moves `child`, so it does not trigger this guard.
		.kill_on_drop(true);

	// Spawn the process
	let mut child = match cmd.spawn() {
		Ok(child) => child,
		Err(error) => {
			drop(cmd);
			super::background::discard(&job).await;
			return Err(anyhow!("Failed to spawn command: {}", error));
		}
	};

	// Track the child's PID so kill_all_shell_children() can nuke its
	// entire process group (including grandchildren) on shutdown.
	let Some(child_pid) = child.id() else {
		drop(child);
		super::background::discard(&job).await;
		bail!("Failed to get shell process ID");
	};
	job.pid = child_pid;
	register_child(child_pid);

	// Wait normally until the foreground deadline. If it expires, transfer the
	// still-running child into the background registry; dropping the timed wait
	// does not drop, kill, or restart the child.
	let result = match tokio::time::timeout(timeout, child.wait()).await {
		Ok(result) => result,
		Err(_) => {
			let job_id = job.id.clone();
			let job_pid = job.pid;
			let uri = super::background::resource_uri(&job_id);
			let notify = on_background.unwrap_or_else(|| Box::new(|_: String| {}));
			super::background::promote(job, child, notify);
			// A stash in flight means the tree is missing the caller's changes until the
			// command pops them: editing or finishing now works on (or hands back) the
			// stashed state.
			let stash_note = if stashes_changes(&command) {
				" It stashed working-tree changes, which stay off disk until it exits: don't \
				 edit files (tests included) or finish the task before its exit message arrives."
			} else {
				""
			};
			return Ok(ShellOutcome {
				text: format!(
					"Still running after the foreground limit — moved to background job `{}` \
					 (PID {}). Output keeps streaming to the linked resource; its result arrives on its own \
					 as a message when it exits (exit code and output). Do not poll it (`ps`, `tail`, sleep, \
					 viewing the linked resource, any other status check), re-run it or start a variant of it \
					 (other flags or filters). While it runs, keep \
					 working on anything that does not need its result \
					 (read or review related code, write or update tests, prepare the next edit); only when \
					 nothing like that is left, reply with a brief status and no tool call to wait.{} \
					 Stop early: kill -- -{}",
					job_id, job_pid, stash_note, job_pid
				),
				resource_uri: Some(uri),
			});
		}
	};

	// Child finished — remove from tracker before processing result.
	drop(child);
	unregister_child(child_pid);

	let stdout = tokio::fs::read(&job.stdout_path).await;
	let stderr = tokio::fs::read(&job.stderr_path).await;
	super::background::discard(&job).await;

	match result.map_err(|e| anyhow!("Command execution failed: {}", e)) {
		Ok(status) => {
			let stdout = stdout.map_err(|e| anyhow!("Failed to read command stdout: {}", e))?;
			let stderr = stderr.map_err(|e| anyhow!("Failed to read command stderr: {}", e))?;
			let status_code = status.code().unwrap_or(-1);

			// Label stderr by stream, not verdict: warnings and progress land there
			// on success too, and the exit code below is the only failure signal.
			let (final_output, stored_output) = super::background::process_output(&stdout, &stderr, &job).await;

			// Add detailed execution results including status code
			let success = status.success();

			// The command already ran, so its exit code is the one fact worth keeping.
			if final_output.len() > MAX_RESULT_BYTES {
				bail!(oversized_output_message(
					status_code,
					final_output.len(),
					stored_output.as_deref(),
				));
			}

			// MCP Protocol Compliance: Use error() for failed commands, success() for successful ones
			if success {
				Ok(ShellOutcome::text(final_output))
			} else {
				// No command echo: the model just wrote the command and results are
				// matched by tool id — repeating it back is pure token cost.
				bail!("Command failed with exit code {status_code}\n\n{final_output}")
			}
		}
		Err(e) => bail!("Error: {e}"),
	}
}

#[cfg(test)]
#[path = "shell_tests.rs"]
mod shell_tests;
