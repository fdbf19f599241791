//! Converter between A2A Task/TaskStatus and MCP CallToolResult

use crate::converters::MessageConverter;
use crate::error::{A2aMcpError, Result};
use a2a_rs::domain::{Message, Role, Task, TaskState};
use rmcp::model::{CallToolResult, ContentBlock};

/// Converts between A2A Task and MCP CallToolResult
pub struct TaskResultConverter;

impl TaskResultConverter {
    /// Convert A2A Task to MCP CallToolResult
    ///
    /// Extracts the last agent message and any artifacts as the tool result.
    /// With an `output_schema` — the skill declared a structured result — a
    /// single data part in the agent's final message, or failing that in a
    /// single artifact, becomes the result's `structuredContent` beside the
    /// text; it is not validated against the schema here, which is the
    /// caller's to decide. Without one, a data part is text like everything
    /// else, as before.
    ///
    /// The last text names the task's context, the conversation a next call
    /// goes on in when it passes that `context_id`, and for a suspended task
    /// the `task_id` that answers it too. A model reads ids out of the answer
    /// it was given; there is no session to keep them in.
    pub fn task_to_result(
        task: &Task,
        output_schema: Option<&serde_json::Value>,
    ) -> Result<CallToolResult> {
        // Get history
        let history = &task.history;

        // Find the last agent message in the task
        let agent_message = history
            .iter()
            .rev()
            .find(|m| m.role == buffa::enumeration::EnumValue::Known(Role::ROLE_AGENT))
            .or_else(|| history.last())
            .ok_or_else(|| {
                A2aMcpError::InvalidMessage("No messages in task history".to_string())
            })?;

        // Convert the message to MCP content
        let mut content = MessageConverter::message_to_content(agent_message)?;

        // Add artifacts as additional content if available
        for artifact in &task.artifacts {
            // Artifacts have parts, so convert each part
            for part in &artifact.parts {
                use a2a_rs::domain::generated::part;
                match &part.content {
                    Some(part::Content::Text(text)) => {
                        let artifact_text = if !artifact.name.is_empty() {
                            format!("Artifact '{}': {}", artifact.name, text)
                        } else {
                            format!("Artifact: {}", text)
                        };
                        content.push(ContentBlock::text(artifact_text));
                    }
                    Some(part::Content::Raw(_)) | Some(part::Content::Url(_)) => {
                        // A file artifact keeps its bytes; see
                        // `MessageConverter::part_to_content_block`.
                        let fallback = if artifact.name.is_empty() {
                            format!("artifact://{}", artifact.artifact_id)
                        } else {
                            artifact.name.clone()
                        };
                        if let Some(block) =
                            MessageConverter::part_to_content_block(part, &fallback)?
                        {
                            content.push(block);
                        }
                    }
                    Some(part::Content::Data(value)) => {
                        let data_json = serde_json::to_string_pretty(&value)?;
                        let artifact_data = if !artifact.name.is_empty() {
                            format!("Artifact '{}' data:\n{}", artifact.name, data_json)
                        } else {
                            format!("Artifact data:\n{}", data_json)
                        };
                        content.push(ContentBlock::text(artifact_data));
                    }
                    None => {}
                }
            }
        }

        let is_input_required = task
            .status
            .as_option()
            .map(|s| {
                s.state
                    == buffa::enumeration::EnumValue::Known(TaskState::TASK_STATE_INPUT_REQUIRED)
            })
            .unwrap_or(false);

        if is_input_required {
            // The question the agent asked rides on the status, not in the
            // history, so a suspended result that only read the history told
            // the caller to answer without saying what.
            let question = task
                .status
                .as_option()
                .and_then(|s| s.message.as_option())
                .filter(|q| q.message_id != agent_message.message_id);
            if let Some(question) = question {
                content.extend(MessageConverter::message_to_content(question)?);
            }
            let prompt = match Self::context(task) {
                Some(context) => format!(
                    "\n\n[Task suspended awaiting input. To continue, please call this tool again with `task_id`: '{}' and `context_id`: '{}', and provide the requested information in the `message` parameter.]",
                    task.id, context
                ),
                None => format!(
                    "\n\n[Task suspended awaiting input. To continue, please call this tool again with `task_id`: '{}' and provide the requested information in the `message` parameter.]",
                    task.id
                ),
            };
            content.push(ContentBlock::text(prompt));
        } else if let Some(context) = Self::context(task) {
            content.push(ContentBlock::text(format!(
                "[To continue this conversation, call this tool again with `context_id`: '{context}'.]"
            )));
        }

        // Determine if the task completed successfully
        let is_error = task
            .status
            .as_option()
            .map(|s| {
                matches!(
                    s.state,
                    buffa::enumeration::EnumValue::Known(TaskState::TASK_STATE_FAILED)
                        | buffa::enumeration::EnumValue::Known(TaskState::TASK_STATE_REJECTED)
                        | buffa::enumeration::EnumValue::Known(TaskState::TASK_STATE_CANCELED)
                )
            })
            .unwrap_or(false);

        let mut result = if is_error {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        if output_schema.is_some() {
            result.structured_content = Self::single_data_value(task, agent_message);
        }
        Ok(result)
    }

    /// The conversation `task` is in, if the agent named one.
    fn context(task: &Task) -> Option<&str> {
        Some(task.context_id.as_str()).filter(|id| !id.is_empty())
    }

    /// The one data part of `message`, or of the task's one artifact when the
    /// message has none. Two data parts is not "a structured result", it is
    /// two of them, and none is returned rather than the first.
    fn single_data_value(task: &Task, message: &Message) -> Option<serde_json::Value> {
        use a2a_rs::domain::generated::part;
        let data_parts = |parts: &[a2a_rs::domain::Part]| {
            let mut values = parts.iter().filter_map(|p| match &p.content {
                Some(part::Content::Data(value)) => serde_json::to_value(&**value).ok(),
                _ => None,
            });
            let first = values.next();
            match values.next() {
                Some(_) => None,
                None => first,
            }
        };
        data_parts(&message.parts).or_else(|| match task.artifacts.as_slice() {
            [artifact] => data_parts(&artifact.parts),
            _ => None,
        })
    }

    /// Create a simple success result from text
    pub fn success_from_text(text: impl Into<String>) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::text(text.into())])
    }

    /// Create a simple error result from text
    pub fn error_from_text(text: impl Into<String>) -> CallToolResult {
        CallToolResult::error(vec![ContentBlock::text(text.into())])
    }

    /// Convert MCP content to an A2A message that can be added to a task
    pub fn content_to_task_message(content: &[ContentBlock], role: Role) -> Result<Message> {
        MessageConverter::content_to_message(content, role)
    }

    /// Check if a task is in a final state
    pub fn is_task_final(task: &Task) -> bool {
        task.status
            .as_option()
            .map(|s| {
                matches!(
                    s.state,
                    buffa::enumeration::EnumValue::Known(TaskState::TASK_STATE_COMPLETED)
                        | buffa::enumeration::EnumValue::Known(TaskState::TASK_STATE_FAILED)
                        | buffa::enumeration::EnumValue::Known(TaskState::TASK_STATE_REJECTED)
                        | buffa::enumeration::EnumValue::Known(TaskState::TASK_STATE_CANCELED)
                )
            })
            .unwrap_or(false)
    }

    /// Check if a task completed successfully
    pub fn is_task_successful(task: &Task) -> bool {
        task.status
            .as_option()
            .map(|s| {
                s.state == buffa::enumeration::EnumValue::Known(TaskState::TASK_STATE_COMPLETED)
            })
            .unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_rs::domain::{Artifact, Part, Role, TaskStatus};

    #[test]
    fn test_task_to_result_success() {
        let task = Task::builder()
            .id("task-1".to_string())
            .context_id("ctx-1".to_string())
            .status(TaskStatus::new(TaskState::TASK_STATE_COMPLETED, None))
            .history(vec![
                Message::builder()
                    .role(Role::Agent)
                    .parts(vec![Part::text("Result text".to_string())])
                    .message_id("msg-1".to_string())
                    .build(),
            ])
            .artifacts(vec![Artifact {
                artifact_id: "art-1".to_string(),
                name: "Test Artifact".to_string(),
                description: String::new(),
                parts: vec![Part::text("Additional artifact".to_string())],
                metadata: None.into(),
                extensions: Vec::new(),
                ..Default::default()
            }])
            .build();

        let result = TaskResultConverter::task_to_result(&task, None).unwrap();
        assert!(!result.is_error.unwrap_or(false));
        assert!(result.content.len() >= 2); // Message + artifact
    }

    /// A file artifact reaches the client as the file, not as a line naming
    /// it.
    #[test]
    fn a_file_artifact_is_an_embedded_resource() {
        let task = Task::builder()
            .id("task-4".to_string())
            .context_id("ctx-4".to_string())
            .status(TaskStatus::new(TaskState::TASK_STATE_COMPLETED, None))
            .history(vec![
                Message::builder()
                    .role(Role::Agent)
                    .parts(vec![Part::text("here is the model".to_string())])
                    .message_id("msg-4".to_string())
                    .build(),
            ])
            .artifacts(vec![Artifact {
                artifact_id: "art-4".to_string(),
                name: "semantic".to_string(),
                description: String::new(),
                parts: vec![Part::file_from_bytes(
                    b"[model]\nname = \"lice\"".to_vec(),
                    Some("semantic.toml".to_string()),
                    Some("application/toml".to_string()),
                )],
                metadata: None.into(),
                extensions: Vec::new(),
                ..Default::default()
            }])
            .build();

        let result = TaskResultConverter::task_to_result(&task, None).unwrap();
        let ContentBlock::Resource(embedded) = &result.content[1] else {
            panic!("expected an embedded resource, got {:?}", result.content[1]);
        };
        assert_eq!(
            embedded.resource,
            rmcp::model::ResourceContents::text("[model]\nname = \"lice\"", "semantic.toml")
                .with_mime_type("application/toml")
        );
    }

    #[test]
    fn test_task_to_result_error() {
        let task = Task::builder()
            .id("task-2".to_string())
            .context_id("ctx-2".to_string())
            .status(TaskStatus::new(TaskState::TASK_STATE_FAILED, None))
            .history(vec![
                Message::builder()
                    .role(Role::Agent)
                    .parts(vec![Part::text("Error details".to_string())])
                    .message_id("msg-2".to_string())
                    .build(),
            ])
            .build();

        let result = TaskResultConverter::task_to_result(&task, None).unwrap();
        assert!(result.is_error.unwrap_or(false));
    }

    #[test]
    fn test_is_task_final() {
        let completed = Task::builder()
            .id("1".to_string())
            .context_id("ctx-1".to_string())
            .status(TaskStatus::new(TaskState::TASK_STATE_COMPLETED, None))
            .build();
        assert!(TaskResultConverter::is_task_final(&completed));

        let working = Task::builder()
            .id("2".to_string())
            .context_id("ctx-2".to_string())
            .status(TaskStatus::new(TaskState::TASK_STATE_WORKING, None))
            .build();
        assert!(!TaskResultConverter::is_task_final(&working));
    }

    /// A skill that declared an output schema answers with a data part, and
    /// that value is the result's `structuredContent` — beside the text, not
    /// instead of it.
    #[test]
    fn a_declared_structured_result_is_kept_as_structure() {
        let value: ::buffa_types::google::protobuf::Value =
            serde_json::from_value(serde_json::json!({"rows": [1, 2, 3]})).unwrap();
        let task = Task::builder()
            .id("task-3".to_string())
            .context_id("ctx-3".to_string())
            .status(TaskStatus::new(TaskState::TASK_STATE_COMPLETED, None))
            .history(vec![
                Message::builder()
                    .role(Role::Agent)
                    .parts(vec![Part::text("3 rows".to_string()), Part::data(value)])
                    .message_id("msg-3".to_string())
                    .build(),
            ])
            .build();

        let schema = serde_json::json!({"type": "object"});
        let typed = TaskResultConverter::task_to_result(&task, Some(&schema)).unwrap();
        // Numbers come back as doubles: `google.protobuf.Value` has no integer.
        assert_eq!(
            typed.structured_content,
            Some(serde_json::json!({"rows": [1.0, 2.0, 3.0]}))
        );
        assert_eq!(
            typed.content.len(),
            3,
            "the text and the data are still content, and the context is named"
        );
        assert!(
            typed.content[2]
                .as_text()
                .is_some_and(|t| t.text.contains("`context_id`: 'ctx-3'")),
            "{:?}",
            typed.content[2]
        );

        // Without a declared schema the data is text like everything else.
        let untyped = TaskResultConverter::task_to_result(&task, None).unwrap();
        assert_eq!(untyped.structured_content, None);
    }
}
