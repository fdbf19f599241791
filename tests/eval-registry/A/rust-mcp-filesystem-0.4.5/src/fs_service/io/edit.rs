use crate::{
    error::ServiceResult,
    fs_service::{
        FileSystemService,
        utils::{detect_line_ending, normalize_line_endings},
    },
    tools::EditOperation,
};
use rust_mcp_sdk::schema::RpcError;
use similar::TextDiff;
use std::path::Path;

impl FileSystemService {
    pub fn create_unified_diff(
        &self,
        original_content: &str,
        new_content: &str,
        filepath: Option<String>,
    ) -> String {
        // Ensure consistent line endings for diff
        let normalized_original = normalize_line_endings(original_content);
        let normalized_new = normalize_line_endings(new_content);

        // // Generate the diff using TextDiff
        let diff = TextDiff::from_lines(&normalized_original, &normalized_new);

        let file_name = filepath.unwrap_or("file".to_string());
        // Format the diff as a unified diff
        let patch = diff
            .unified_diff()
            .header(
                format!("{file_name}\toriginal").as_str(),
                format!("{file_name}\tmodified").as_str(),
            )
            .context_radius(4)
            .to_string();

        format!("Index: {}\n{}\n{}", file_name, "=".repeat(68), patch)
    }

    pub async fn apply_file_edits(
        &self,
        file_path: &Path,
        edits: Vec<EditOperation>,
        dry_run: Option<bool>,
        save_to: Option<&Path>,
        replace_all: Option<bool>,
    ) -> ServiceResult<String> {
        let resolved = self.resolve(file_path).await?;

        // Read file content and normalize line endings
        let content_str = resolved.dir.read_to_string(&resolved.rel)?;
        let original_line_ending = detect_line_ending(&content_str);
        let content_str = normalize_line_endings(&content_str);

        // Apply edits sequentially
        let mut modified_content = content_str.clone();

        for edit in edits {
            let normalized_old = normalize_line_endings(&edit.old_text);
            let normalized_new = normalize_line_endings(&edit.new_text);
            let do_replace_all = replace_all.unwrap_or(false);

            // If exact match exists, use it
            if modified_content.contains(&normalized_old) {
                let count = modified_content.matches(&normalized_old).count();
                if !do_replace_all && count > 1 {
                    return Err(RpcError::internal_error()
                        .with_message(format!(
                            "Multiple occurrences of oldText found ({}). Use replace_all=true to replace all occurrences",
                            count
                        ))
                        .into());
                }
                if do_replace_all {
                    modified_content = modified_content.replace(&normalized_old, &normalized_new);
                } else {
                    modified_content =
                        modified_content.replacen(&normalized_old, &normalized_new, 1);
                }
                continue;
            }

            // Otherwise, try line-by-line matching with flexibility for whitespace
            let old_lines: Vec<String> = normalized_old
                .trim_end()
                .split('\n')
                .map(|s| s.to_string())
                .collect();

            let content_lines: Vec<String> = modified_content
                .trim_end()
                .split('\n')
                .map(|s| s.to_string())
                .collect();

            // skip when the match is impossible:
            if old_lines.len() > content_lines.len() {
                let error_message = format!(
                    "Cannot apply edit: the original text spans more lines ({}) than the file content ({}).",
                    old_lines.len(),
                    content_lines.len()
                );

                return Err(RpcError::internal_error()
                    .with_message(error_message)
                    .into());
            }

            let max_start = content_lines.len().saturating_sub(old_lines.len());
            let mut match_count = 0;
            let mut last_match_idx = 0;
            for i in 0..=max_start {
                let potential_match = &content_lines[i..i + old_lines.len()];

                // Compare lines with normalized whitespace
                let is_match = old_lines.iter().enumerate().all(|(j, old_line)| {
                    let content_line = &potential_match[j];
                    old_line.trim() == content_line.trim()
                });

                if is_match {
                    match_count += 1;
                    last_match_idx = i;
                    if !do_replace_all {
                        break;
                    }
                }
            }

            if match_count == 0 {
                return Err(RpcError::internal_error()
                    .with_message(format!(
                        "Could not find exact match for edit:\n{}",
                        edit.old_text
                    ))
                    .into());
            }

            if !do_replace_all && match_count > 1 {
                return Err(RpcError::internal_error()
                    .with_message(format!(
                        "Multiple occurrences of oldText found ({}). Use replaceAll:true to replace all occurrences",
                        match_count
                    ))
                    .into());
            }

            // Apply the edit(s)
            let mut content_lines = content_lines.clone();
            if do_replace_all {
                let mut i = 0;
                while i <= content_lines.len().saturating_sub(old_lines.len()) {
                    let potential_match = &content_lines[i..i + old_lines.len()];
                    let is_match = old_lines.iter().enumerate().all(|(j, old_line)| {
                        let content_line = &potential_match[j];
                        old_line.trim() == content_line.trim()
                    });

                    if is_match {
                        let original_indent = content_lines[i]
                            .chars()
                            .take_while(|&c| c.is_whitespace())
                            .collect::<String>();

                        let new_lines: Vec<String> = normalized_new
                            .split('\n')
                            .enumerate()
                            .map(|(j, line)| {
                                if j == 0 {
                                    return format!("{}{}", original_indent, line.trim_start());
                                }

                                let old_indent = old_lines
                                    .get(j)
                                    .map(|line| {
                                        line.chars()
                                            .take_while(|&c| c.is_whitespace())
                                            .collect::<String>()
                                    })
                                    .unwrap_or_default();

                                let new_indent = line
                                    .chars()
                                    .take_while(|&c| c.is_whitespace())
                                    .collect::<String>();

                                let indent_char = if original_indent.contains('\t') {
                                    "\t"
                                } else {
                                    " "
                                };
                                let relative_indent = if new_indent.len() >= old_indent.len() {
                                    new_indent.len() - old_indent.len()
                                } else {
                                    0
                                };
                                format!(
                                    "{}{}{}",
                                    &original_indent,
                                    &indent_char.repeat(relative_indent),
                                    line.trim_start()
                                )
                            })
                            .collect();

                        content_lines.splice(i..i + old_lines.len(), new_lines);
                        // Don't increment i since we replaced the block and need to check again
                    } else {
                        i += 1;
                    }
                }
                modified_content = content_lines.join("\n");
            } else {
                // Single match case - use last_match_idx
                let i = last_match_idx;
                let original_indent = content_lines[i]
                    .chars()
                    .take_while(|&c| c.is_whitespace())
                    .collect::<String>();

                let new_lines: Vec<String> = normalized_new
                    .split('\n')
                    .enumerate()
                    .map(|(j, line)| {
                        if j == 0 {
                            return format!("{}{}", original_indent, line.trim_start());
                        }

                        let old_indent = old_lines
                            .get(j)
                            .map(|line| {
                                line.chars()
                                    .take_while(|&c| c.is_whitespace())
                                    .collect::<String>()
                            })
                            .unwrap_or_default();

                        let new_indent = line
                            .chars()
                            .take_while(|&c| c.is_whitespace())
                            .collect::<String>();

                        let indent_char = if original_indent.contains('\t') {
                            "\t"
                        } else {
                            " "
                        };
                        let relative_indent = if new_indent.len() >= old_indent.len() {
                            new_indent.len() - old_indent.len()
                        } else {
                            0
                        };
                        format!(
                            "{}{}{}",
                            &original_indent,
                            &indent_char.repeat(relative_indent),
                            line.trim_start()
                        )
                    })
                    .collect();

                content_lines.splice(i..i + old_lines.len(), new_lines);
                modified_content = content_lines.join("\n");
            }
            if !do_replace_all && match_count == 1 {
                continue;
            }
            if do_replace_all {
                continue;
            }
        }

        let diff = self.create_unified_diff(
            &content_str,
            &modified_content,
            Some(resolved.display.display().to_string()),
        );

        // Format diff with appropriate number of backticks
        let mut num_backticks = 3;
        while diff.contains(&"`".repeat(num_backticks)) {
            num_backticks += 1;
        }
        let formatted_diff = format!(
            "{}diff\n{}{}\n\n",
            "`".repeat(num_backticks),
            diff,
            "`".repeat(num_backticks)
        );

        let is_dry_run = dry_run.unwrap_or(false);

        if !is_dry_run {
            let modified_content = modified_content.replace("\n", original_line_ending);
            if let Some(save_to_path) = save_to {
                let resolved_save_to = self.resolve(save_to_path).await?;
                resolved_save_to
                    .dir
                    .write(&resolved_save_to.rel, modified_content.as_bytes())?;
            } else {
                resolved
                    .dir
                    .write(&resolved.rel, modified_content.as_bytes())?;
            }
        }

        Ok(formatted_diff)
    }
}
