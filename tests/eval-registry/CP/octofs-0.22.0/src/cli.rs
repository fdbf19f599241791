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

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "octofs")]
#[command(version, author = "Muvon Un Limited <contact@muvon.io>")]
#[command(about = "Standalone MCP filesystem tools server", long_about = None)]
pub struct Cli {
	#[command(subcommand)]
	pub command: Commands,
}

#[derive(Subcommand, Debug)]
pub enum Commands {
	/// Start MCP server exposing filesystem tools (view, text_editor, batch_edit, shell, workdir, extract_lines)
	Mcp {
		/// Working directory for filesystem operations (default: current directory).
		/// Supports ssh:// or sftp:// paths for remote filesystem access.
		#[arg(long, value_name = "PATH")]
		path: Option<PathBuf>,

		/// Bind to HTTP server on host:port instead of using stdin/stdout (e.g., "127.0.0.1:12345").
		/// A non-loopback address also needs --auth-token.
		#[arg(long, value_name = "HOST:PORT")]
		bind: Option<String>,

		/// Bearer token HTTP clients must send as "Authorization: Bearer <TOKEN>"; required to bind
		/// a non-loopback address. Prefer the OCTOFS_AUTH_TOKEN environment variable: command-line
		/// arguments are visible to other local users.
		#[arg(long, value_name = "TOKEN")]
		auth_token: Option<String>,

		/// Path to SSH private key for remote filesystem access
		#[arg(long, value_name = "FILE")]
		ssh_key: Option<String>,

		/// SSH connection timeout in seconds for remote filesystem access
		#[arg(long, value_name = "SECS")]
		ssh_timeout: Option<u64>,

		/// Shell misuse enforcement: "hard" (default) rejects the command unexecuted,
		/// "soft" runs it and appends a warning naming the dedicated tool.
		/// Hard suits models that follow tool steering (GLM, gpt-6.1-sol); try soft
		/// for a model that keeps re-sending blocked commands (watch the rejections)
		#[arg(long, value_name = "MODE", default_value = "hard", value_parser = ["soft", "hard"])]
		hint_mode: String,
	},
}
