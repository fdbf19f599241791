use crate::jira::{Comment, CommentResponse, CreatedIssue, Issue, SearchResult};

pub fn format_search_result(result: &SearchResult) -> String {
    let total = result.total.unwrap_or(result.issues.len() as u32);
    let mut output = format!(
        "Found {} issues (showing {} of {}):\n\n",
        total,
        result.issues.len(),
        total
    );

    for issue in &result.issues {
        let status = issue
            .fields
            .status
            .as_ref()
            .map(|s| s.name.as_str())
            .unwrap_or("Unknown");
        let issue_type = issue
            .fields
            .issue_type
            .as_ref()
            .map(|t| t.name.as_str())
            .unwrap_or("Unknown");
        let summary = issue
            .fields
            .summary
            .as_deref()
            .unwrap_or("No summary");
        let assignee = issue
            .fields
            .assignee
            .as_ref()
            .map(|a| format!("{} ({})", a.display_name, a.account_id.as_deref().unwrap_or("No ID")))
            .unwrap_or("Unassigned".to_string());

        output.push_str(&format!(
            "- **{}** [{}/{}] {}\n  Assignee: {}\n\n",
            issue.key, issue_type, status, summary, assignee
        ));
    }

    output
}

pub fn format_issue(issue: &Issue) -> String {
    let status = issue
        .fields
        .status
        .as_ref()
        .map(|s| s.name.as_str())
        .unwrap_or("Unknown");
    let summary = issue
        .fields
        .summary
        .as_deref()
        .unwrap_or("No summary");
    let assignee = issue
        .fields
        .assignee
        .as_ref()
        .map(|a| format!("{} ({})", a.display_name, a.account_id.as_deref().unwrap_or("No ID")))
        .unwrap_or("Unassigned".to_string());
    let priority = issue
        .fields
        .priority
        .as_ref()
        .map(|p| p.name.as_str())
        .unwrap_or("None");
    let issue_type = issue
        .fields
        .issue_type
        .as_ref()
        .map(|t| t.name.as_str())
        .unwrap_or("Unknown");
    let created = issue.fields.created.as_deref().unwrap_or("Unknown");
    let updated = issue.fields.updated.as_deref().unwrap_or("Unknown");

    let description = issue
        .fields
        .description
        .as_ref()
        .map(|d| parse_adf_body(d))
        .unwrap_or_else(|| "No description".to_string());

    format!(
        r#"# {} - {}

**Type:** {}
**Status:** {}
**Assignee:** {}
**Priority:** {}
**Created:** {}
**Updated:** {}
**URL:** {}

### Description
{}
"#,
        issue.key,
        summary,
        issue_type,
        status,
        assignee,
        priority,
        created,
        updated,
        issue.self_url,
        description
    )
}

pub fn format_comment(issue_key: &str, comment: &Comment) -> String {
    let author = comment
        .author
        .as_ref()
        .map(|a| format!("{} ({})", a.display_name, a.account_id.as_deref().unwrap_or("No ID")))
        .unwrap_or("Unknown".to_string());
    let created = comment.created.as_deref().unwrap_or("Unknown");

    format!(
        r#"Comment added successfully to {}

**Comment ID:** {}
**Author:** {}
**Created:** {}
"#,
        issue_key, comment.id, author, created
    )
}

pub fn format_children(parent_key: &str, result: &SearchResult) -> String {
    if result.issues.is_empty() {
        return format!("No child issues found for {}", parent_key);
    }

    let total = result.total.unwrap_or(result.issues.len() as u32);
    let mut output = format!(
        "Found {} child issue(s) for {}:\n\n",
        total, parent_key
    );

    for issue in &result.issues {
        let status = issue
            .fields
            .status
            .as_ref()
            .map(|s| s.name.as_str())
            .unwrap_or("Unknown");
        let issue_type = issue
            .fields
            .issue_type
            .as_ref()
            .map(|t| t.name.as_str())
            .unwrap_or("Unknown");
        let summary = issue
            .fields
            .summary
            .as_deref()
            .unwrap_or("No summary");
        let assignee = issue
            .fields
            .assignee
            .as_ref()
            .map(|a| a.display_name.as_str())
            .unwrap_or("Unassigned");

        output.push_str(&format!(
            "- **{}** [{}/{}] {}\n  Assignee: {}\n\n",
            issue.key, issue_type, status, summary, assignee
        ));
    }

    output
}

pub fn format_create_result(issue: &CreatedIssue) -> String {
    format!(
        "Issue created successfully.\n\n**Key:** {}\n**ID:** {}\n**URL:** {}",
        issue.key, issue.id, issue.self_url
    )
}

pub fn format_update_result(issue_key: &str, updated_fields: &[&str]) -> String {
    if updated_fields.is_empty() {
        return format!("No fields were updated for {}", issue_key);
    }

    format!(
        "Issue {} updated successfully.\n\n**Updated fields:** {}",
        issue_key,
        updated_fields.join(", ")
    )
}

pub fn format_comments(issue_key: &str, response: &CommentResponse) -> String {
    if response.comments.is_empty() {
        return format!("No comments found for {}", issue_key);
    }

    let mut output = format!(
        "Comments for {} (showing {}-{} of {}):\n\n",
        issue_key,
        response.start_at + 1,
        response.start_at + response.comments.len() as u32,
        response.total
    );

    for comment in &response.comments {
        let author = comment
            .author
            .as_ref()
            .map(|a| {
                format!(
                    "{} ({})",
                    a.display_name,
                    a.account_id.as_deref().unwrap_or("No ID")
                )
            })
            .unwrap_or_else(|| "Unknown".to_string());
        let created = comment.created.as_deref().unwrap_or("Unknown");

        let body_text = comment
            .body
            .as_ref()
            .map(|b| parse_adf_body(b))
            .unwrap_or_else(|| "No content".to_string());

        output.push_str(&format!(
            "### Comment by {} ({})\n{}\n\n",
            author,
            created,
            body_text.trim()
        ));
    }

    output
}

fn parse_adf_body(body: &serde_json::Value) -> String {
    let mut text_output = String::new();

    if let Some(content) = body.get("content").and_then(|c| c.as_array()) {
        for node in content {
            if let Some(node_type) = node.get("type").and_then(|t| t.as_str()) {
                match node_type {
                    "paragraph" => {
                        if let Some(para_content) = node.get("content").and_then(|c| c.as_array()) {
                            for text_node in para_content {
                                if let Some(text) = text_node.get("text").and_then(|t| t.as_str()) {
                                    text_output.push_str(text);
                                }
                            }
                            text_output.push('\n');
                        }
                    }
                    _ => {
                        // Very basic fallback for other block types
                        if let Some(para_content) = node.get("content").and_then(|c| c.as_array()) {
                             for text_node in para_content {
                                if let Some(text) = text_node.get("text").and_then(|t| t.as_str()) {
                                    text_output.push_str(text);
                                }
                            }
                             text_output.push('\n');
                        }
                    }
                }
            }
        }
    }

    if text_output.is_empty() {
        return "No content".to_string();
    }
    
    text_output
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jira::{IssueFields, IssueType, Priority, Status, User};

    fn create_test_issue(key: &str, summary: &str, status: &str, assignee: &str) -> Issue {
        Issue {
            id: "10001".to_string(),
            key: key.to_string(),
            self_url: format!("https://example.atlassian.net/rest/api/3/issue/{}", key),
            fields: IssueFields {
                summary: Some(summary.to_string()),
                status: Some(Status {
                    name: status.to_string(),
                }),
                assignee: Some(User {
                    display_name: assignee.to_string(),
                    email_address: Some("test@example.com".to_string()),
                    account_id: Some("account-123".to_string()),
                }),
                priority: Some(Priority {
                    name: "High".to_string(),
                }),
                created: Some("2024-01-15T10:00:00.000+0000".to_string()),
                updated: Some("2024-01-16T14:30:00.000+0000".to_string()),
                description: Some(serde_json::json!({
                    "type": "doc",
                    "version": 1,
                    "content": [
                        {
                            "type": "paragraph",
                            "content": [
                                {
                                    "type": "text",
                                    "text": "This is a test description."
                                }
                            ]
                        }
                    ]
                })),
                issue_type: Some(IssueType {
                    name: "Story".to_string(),
                    subtask: false,
                }),
            },
        }
    }

    #[test]
    fn format_search_result_shows_issue_count_and_details() {
        let result = SearchResult {
            total: Some(2),
            max_results: Some(50),
            start_at: Some(0),
            issues: vec![
                create_test_issue("PROJ-1", "First issue", "Open", "Alice"),
                create_test_issue("PROJ-2", "Second issue", "In Progress", "Bob"),
            ],
        };

        let output = format_search_result(&result);

        assert!(output.contains("Found 2 issues"));
        assert!(output.contains("PROJ-1"));
        assert!(output.contains("First issue"));
        assert!(output.contains("[Story/Open]"));
        assert!(output.contains("Alice"));
        assert!(output.contains("PROJ-2"));
        assert!(output.contains("Second issue"));
        assert!(output.contains("[Story/In Progress]"));
        assert!(output.contains("Bob"));
    }

    #[test]
    fn format_search_result_handles_empty_results() {
        let result = SearchResult {
            total: Some(0),
            max_results: Some(50),
            start_at: Some(0),
            issues: vec![],
        };

        let output = format_search_result(&result);

        assert!(output.contains("Found 0 issues"));
        assert!(output.contains("showing 0 of 0"));
    }

    #[test]
    fn format_search_result_handles_missing_fields() {
        let issue = Issue {
            id: "10001".to_string(),
            key: "PROJ-1".to_string(),
            self_url: "https://example.atlassian.net/rest/api/3/issue/PROJ-1".to_string(),
            fields: IssueFields {
                summary: None,
                status: None,
                assignee: None,
                priority: None,
                created: None,
                updated: None,
                description: None,
                issue_type: None,
            },
        };
        let result = SearchResult {
            total: Some(1),
            max_results: Some(50),
            start_at: Some(0),
            issues: vec![issue],
        };

        let output = format_search_result(&result);

        assert!(output.contains("PROJ-1"));
        assert!(output.contains("[Unknown/Unknown]"));
        assert!(output.contains("No summary"));
        assert!(output.contains("Unassigned"));
    }

    #[test]
    fn format_issue_shows_all_details() {
        let issue = create_test_issue("PROJ-123", "Important bug fix", "Done", "Developer");

        let output = format_issue(&issue);

        assert!(output.contains("# PROJ-123 - Important bug fix"));
        assert!(output.contains("**Status:** Done"));
        assert!(output.contains("**Assignee:** Developer"));
        assert!(output.contains("**Priority:** High"));
        assert!(output.contains("**Created:** 2024-01-15T10:00:00.000+0000"));
        assert!(output.contains("**Updated:** 2024-01-16T14:30:00.000+0000"));
        assert!(output.contains(
            "**URL:** https://example.atlassian.net/rest/api/3/issue/PROJ-123"
        ));
        assert!(output.contains("### Description"));
        assert!(output.contains("This is a test description."));
    }

    #[test]
    fn format_issue_handles_missing_fields() {
        let issue = Issue {
            id: "10001".to_string(),
            key: "PROJ-1".to_string(),
            self_url: "https://example.atlassian.net/rest/api/3/issue/PROJ-1".to_string(),
            fields: IssueFields {
                summary: None,
                status: None,
                assignee: None,
                priority: None,
                created: None,
                updated: None,
                description: None,
                issue_type: None,
            },
        };

        let output = format_issue(&issue);

        assert!(output.contains("# PROJ-1 - No summary"));
        assert!(output.contains("**Status:** Unknown"));
        assert!(output.contains("**Assignee:** Unassigned"));
        assert!(output.contains("**Priority:** None"));
        assert!(output.contains("**Created:** Unknown"));
        assert!(output.contains("**Updated:** Unknown"));
        assert!(output.contains("### Description"));
        assert!(output.contains("No description"));
    }

    #[test]
    fn format_create_result_shows_key_and_url() {
        let issue = CreatedIssue {
            id: "10200".to_string(),
            key: "PROJ-200".to_string(),
            self_url: "https://example.atlassian.net/rest/api/3/issue/10200".to_string(),
        };

        let output = format_create_result(&issue);

        assert!(output.contains("Issue created successfully"));
        assert!(output.contains("**Key:** PROJ-200"));
        assert!(output.contains("**ID:** 10200"));
        assert!(output.contains("**URL:** https://example.atlassian.net/rest/api/3/issue/10200"));
    }

    #[test]
    fn format_comment_shows_success_message_with_details() {
        let comment = Comment {
            id: "10100".to_string(),
            self_url: "https://example.atlassian.net/rest/api/3/issue/PROJ-123/comment/10100"
                .to_string(),
            author: Some(User {
                display_name: "Developer".to_string(),
                email_address: Some("dev@example.com".to_string()),
                account_id: Some("account-456".to_string()),
            }),
            created: Some("2024-01-17T09:00:00.000+0000".to_string()),
            body: None,
        };

        let output = format_comment("PROJ-123", &comment);

        assert!(output.contains("Comment added successfully to PROJ-123"));
        assert!(output.contains("**Comment ID:** 10100"));
        assert!(output.contains("**Author:** Developer"));
        assert!(output.contains("**Created:** 2024-01-17T09:00:00.000+0000"));
    }

    #[test]
    fn format_comment_handles_missing_fields() {
        let comment = Comment {
            id: "10101".to_string(),
            self_url: "https://example.atlassian.net/rest/api/3/issue/PROJ-456/comment/10101"
                .to_string(),
            author: None,
            created: None,
            body: None,
        };

        let output = format_comment("PROJ-456", &comment);

        assert!(output.contains("Comment added successfully to PROJ-456"));
        assert!(output.contains("**Comment ID:** 10101"));
        assert!(output.contains("**Author:** Unknown"));
        assert!(output.contains("**Created:** Unknown"));
    }

}
