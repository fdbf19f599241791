//! Sequential Thinking 核心数据结构定义
//! 
//! 该模块定义了顺序思维过程的核心数据结构，包括思维步骤、分支、解决方案等。

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;
use uuid::Uuid;
use chrono::{DateTime, Utc};

/// 思维步骤数据结构
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ThoughtStep {
    /// 思维步骤唯一标识符
    pub id: String,
    /// 思维步骤编号
    pub thought_number: i32,
    /// 思维内容
    pub thought: String,
    /// 是否需要更多思维步骤
    pub next_thought_needed: bool,
    /// 是否修订之前的思维
    pub is_revision: bool,
    /// 被修订的思维编号
    pub revises_thought: Option<i32>,
    /// 分支点思维编号
    pub branch_from_thought: Option<i32>,
    /// 分支标识符
    pub branch_id: Option<String>,
    /// 创建时间
    pub created_at: DateTime<Utc>,
    /// 更新时间
    pub updated_at: DateTime<Utc>,
}

/// 思维会话数据结构
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ThinkingSession {
    /// 会话唯一标识符
    pub id: String,
    /// 会话标题
    pub title: Option<String>,
    /// 思维步骤列表
    pub thoughts: Vec<ThoughtStep>,
    /// 当前思维步骤总数
    pub total_thoughts: i32,
    /// 会话创建时间
    pub created_at: DateTime<Utc>,
    /// 会话最后更新时间
    pub updated_at: DateTime<Utc>,
    /// 会话状态
    pub status: SessionStatus,
    /// 解决方案假设
    pub solution_hypothesis: Option<String>,
    /// 假设验证结果
    pub hypothesis_verification: Option<String>,
}

/// 会话状态枚举
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum SessionStatus {
    /// 活跃状态
    Active,
    /// 暂停状态
    Paused,
    /// 完成状态
    Completed,
    /// 已归档状态
    Archived,
}

/// 顺序思维服务器
pub struct SequentialThinkingServer {
    /// 思维会话映射
    pub sessions: HashMap<String, ThinkingSession>,
    /// 当前活跃会话ID
    pub current_session_id: Option<String>,
    /// 是否禁用思维日志
    pub disable_thought_logging: bool,
}

impl SequentialThinkingServer {
    /// 创建新的顺序思维服务器
    pub fn new() -> Self {
        let disable_thought_logging = std::env::var("DISABLE_THOUGHT_LOGGING")
            .map(|v| v.to_lowercase() == "true")
            .unwrap_or(false);

        SequentialThinkingServer {
            sessions: HashMap::new(),
            current_session_id: None,
            disable_thought_logging,
        }
    }

    /// 创建新的思维会话
    pub fn create_session(&mut self, title: Option<String>) -> Result<Value, String> {
        let session_id = Uuid::new_v4().to_string();
        let now = Utc::now();

        let session = ThinkingSession {
            id: session_id.clone(),
            title,
            thoughts: Vec::new(),
            total_thoughts: 0,
            created_at: now,
            updated_at: now,
            status: SessionStatus::Active,
            solution_hypothesis: None,
            hypothesis_verification: None,
        };

        self.sessions.insert(session_id.clone(), session);
        self.current_session_id = Some(session_id.clone());

        // 只在非MCP环境下记录日志，避免干扰stdout JSON输出
        if !self.disable_thought_logging && std::env::var("MCP_MODE").is_err() {
            eprintln!("Created new thinking session: {}", session_id);
        }

        Ok(json!({
            "success": true,
            "session_id": session_id,
            "message": "Thinking session created successfully"
        }))
    }

    /// 获取会话信息
    pub fn get_session_info(&self, session_id: Option<String>) -> Result<Value, String> {
        let session_id = session_id.or_else(|| self.current_session_id.clone())
            .ok_or("No active session found")?;

        let session = self.sessions.get(&session_id)
            .ok_or("Session not found")?;

        Ok(json!({
            "success": true,
            "session_id": session_id,
            "title": session.title,
            "total_thoughts": session.total_thoughts,
            "status": format!("{:?}", session.status),
            "created_at": session.created_at.to_rfc3339(),
            "updated_at": session.updated_at.to_rfc3339(),
            "has_solution_hypothesis": session.solution_hypothesis.is_some(),
            "has_hypothesis_verification": session.hypothesis_verification.is_some()
        }))
    }

    /// 添加思维步骤
    pub fn add_thought_step(
        &mut self,
        thought: String,
        next_thought_needed: bool,
        thought_number: i32,
        is_revision: bool,
        revises_thought: Option<i32>,
        branch_from_thought: Option<i32>,
        branch_id: Option<String>,
        session_id: Option<String>,
    ) -> Result<Value, String> {
        let session_id = session_id.or_else(|| self.current_session_id.clone())
            .ok_or("No active session found")?;

        let session = self.sessions.get_mut(&session_id)
            .ok_or("Session not found")?;

        let now = Utc::now();
        let thought_step = ThoughtStep {
            id: Uuid::new_v4().to_string(),
            thought_number,
            thought,
            next_thought_needed,
            is_revision,
            revises_thought,
            branch_from_thought,
            branch_id,
            created_at: now,
            updated_at: now,
        };

        session.thoughts.push(thought_step);
        session.total_thoughts = thought_number;
        session.updated_at = now;

        if !self.disable_thought_logging {
            eprintln!("Added thought step {} to session {}", thought_number, session_id);
        }

        Ok(json!({
            "success": true,
            "session_id": session_id,
            "thought_number": thought_number,
            "next_thought_needed": next_thought_needed,
            "message": "Thought step added successfully"
        }))
    }

    /// 获取思维步骤
    pub fn get_thoughts(&self, session_id: Option<String>) -> Result<Value, String> {
        let session_id = session_id.or_else(|| self.current_session_id.clone())
            .ok_or("No active session found")?;

        let session = self.sessions.get(&session_id)
            .ok_or("Session not found")?;

        let thoughts_json: Vec<Value> = session.thoughts.iter().map(|thought| {
            json!({
                "id": thought.id,
                "thought_number": thought.thought_number,
                "thought": thought.thought,
                "next_thought_needed": thought.next_thought_needed,
                "is_revision": thought.is_revision,
                "revises_thought": thought.revises_thought,
                "branch_from_thought": thought.branch_from_thought,
                "branch_id": thought.branch_id,
                "created_at": thought.created_at.to_rfc3339()
            })
        }).collect();

        Ok(json!({
            "success": true,
            "session_id": session_id,
            "thoughts": thoughts_json,
            "total_thoughts": session.total_thoughts
        }))
    }

    /// 设置解决方案假设
    pub fn set_solution_hypothesis(
        &mut self,
        hypothesis: String,
        session_id: Option<String>,
    ) -> Result<Value, String> {
        let session_id = session_id.or_else(|| self.current_session_id.clone())
            .ok_or("No active session found")?;

        let session = self.sessions.get_mut(&session_id)
            .ok_or("Session not found")?;

        session.solution_hypothesis = Some(hypothesis.clone());
        session.updated_at = Utc::now();

        if !self.disable_thought_logging {
            eprintln!("Set solution hypothesis for session {}", session_id);
        }

        Ok(json!({
            "success": true,
            "session_id": session_id,
            "hypothesis": hypothesis,
            "message": "Solution hypothesis set successfully"
        }))
    }

    /// 验证解决方案假设
    pub fn verify_hypothesis(
        &mut self,
        verification: String,
        session_id: Option<String>,
    ) -> Result<Value, String> {
        let session_id = session_id.or_else(|| self.current_session_id.clone())
            .ok_or("No active session found")?;

        let session = self.sessions.get_mut(&session_id)
            .ok_or("Session not found")?;

        session.hypothesis_verification = Some(verification.clone());
        session.updated_at = Utc::now();

        if !self.disable_thought_logging {
            eprintln!("Verified hypothesis for session {}", session_id);
        }

        Ok(json!({
            "success": true,
            "session_id": session_id,
            "verification": verification,
            "message": "Hypothesis verification completed"
        }))
    }

    /// 完成会话
    pub fn complete_session(&mut self, session_id: Option<String>) -> Result<Value, String> {
        let session_id = session_id.or_else(|| self.current_session_id.clone())
            .ok_or("No active session found")?;

        let session = self.sessions.get_mut(&session_id)
            .ok_or("Session not found")?;

        session.status = SessionStatus::Completed;
        session.updated_at = Utc::now();

        if self.current_session_id == Some(session_id.clone()) {
            self.current_session_id = None;
        }

        if !self.disable_thought_logging {
            eprintln!("Completed session {}", session_id);
        }

        Ok(json!({
            "success": true,
            "session_id": session_id,
            "message": "Session completed successfully"
        }))
    }

    /// 列出所有会话
    pub fn list_sessions(&self) -> Result<Value, String> {
        let sessions: Vec<Value> = self.sessions.iter().map(|(id, session)| {
            json!({
                "session_id": id,
                "title": session.title,
                "total_thoughts": session.total_thoughts,
                "status": format!("{:?}", session.status),
                "created_at": session.created_at.to_rfc3339(),
                "updated_at": session.updated_at.to_rfc3339()
            })
        }).collect();

        Ok(json!({
            "success": true,
            "sessions": sessions,
            "total_sessions": sessions.len()
        }))
    }
}