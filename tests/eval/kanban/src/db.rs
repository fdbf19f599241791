//! Storage. Everything returns `AppError`; the MCP layer decides how to report it.

use serde::Serialize;
use sqlx::sqlite::SqlitePool;
use sqlx::Row;

use crate::error::AppError;

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct BoardInfo {
    pub id: String,
    pub name: String,
    pub columns: Vec<String>,
    pub wip_limit: Option<u32>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Card {
    pub id: i64,
    pub board: String,
    pub column: String,
    pub title: String,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CardList {
    pub cards: Vec<Card>,
}

#[derive(Clone)]
pub struct Board {
    pool: SqlitePool,
}

impl Board {
    pub async fn connect(url: &str) -> anyhow::Result<Self> {
        let pool = SqlitePool::connect(url).await?;
        sqlx::query(
            "CREATE TABLE IF NOT EXISTS boards (id TEXT PRIMARY KEY, name TEXT, columns TEXT, wip INTEGER);
             CREATE TABLE IF NOT EXISTS cards (id INTEGER PRIMARY KEY, board TEXT, col TEXT, title TEXT);",
        )
        .execute(&pool)
        .await?;
        Ok(Self { pool })
    }

    pub async fn board(&self, id: &str) -> Result<BoardInfo, AppError> {
        let row = sqlx::query("SELECT id, name, columns, wip FROM boards WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| AppError::NotFound {
                kind: "board",
                id: id.to_string(),
            })?;
        let columns: String = row.get("columns");
        Ok(BoardInfo {
            id: row.get("id"),
            name: row.get("name"),
            columns: columns.split(',').map(str::to_string).collect(),
            wip_limit: row.get::<Option<i64>, _>("wip").map(|w| w as u32),
        })
    }

    pub async fn boards(&self) -> Result<Vec<(String, String)>, AppError> {
        let rows = sqlx::query("SELECT id, name FROM boards ORDER BY name")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(|r| (r.get("id"), r.get("name"))).collect())
    }

    pub async fn cards(&self, board: &str, column: Option<&str>) -> Result<Vec<Card>, AppError> {
        let rows = sqlx::query(
            "SELECT id, board, col, title FROM cards WHERE board = ? AND (? IS NULL OR col = ?) ORDER BY id",
        )
        .bind(board)
        .bind(column)
        .bind(column)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| Card {
                id: r.get("id"),
                board: r.get("board"),
                column: r.get("col"),
                title: r.get("title"),
            })
            .collect())
    }

    pub async fn card(&self, id: i64) -> Result<Card, AppError> {
        let row = sqlx::query("SELECT id, board, col, title FROM cards WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| AppError::NotFound {
                kind: "card",
                id: id.to_string(),
            })?;
        Ok(Card {
            id: row.get("id"),
            board: row.get("board"),
            column: row.get("col"),
            title: row.get("title"),
        })
    }

    pub async fn insert_card(
        &self,
        board: &str,
        column: &str,
        title: &str,
    ) -> Result<Card, AppError> {
        let id = sqlx::query("INSERT INTO cards (board, col, title) VALUES (?, ?, ?)")
            .bind(board)
            .bind(column)
            .bind(title)
            .execute(&self.pool)
            .await?
            .last_insert_rowid();
        Ok(Card {
            id,
            board: board.to_string(),
            column: column.to_string(),
            title: title.to_string(),
        })
    }

    pub async fn move_card(&self, id: i64, column: &str) -> Result<(), AppError> {
        sqlx::query("UPDATE cards SET col = ? WHERE id = ?")
            .bind(column)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn delete_board(&self, id: &str) -> Result<(), AppError> {
        sqlx::query("DELETE FROM boards WHERE id = ?")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::ErrorData as McpError;

    #[test]
    fn not_found_maps_to_an_internal_error() {
        let e: McpError = AppError::NotFound {
            kind: "card",
            id: "7".into(),
        }
        .into();
        assert_eq!(e.message, "card 7 not found");
    }
}
