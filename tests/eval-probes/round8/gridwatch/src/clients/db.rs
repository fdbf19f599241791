//! The asset registry: substations, feeders and outage tickets in SQLite.

use std::path::Path;
use std::sync::Mutex;

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(transparent)]
    Sql(#[from] rusqlite::Error),
    #[error("connection mutex poisoned")]
    Poisoned,
}

pub type DbResult<T> = Result<T, DbError>;

#[derive(Debug, Clone, Serialize)]
pub struct Substation {
    pub id: String,
    pub name: String,
    pub region: String,
    pub voltage_kv: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Feeder {
    pub id: String,
    pub substation_id: String,
    pub rated_amps: f64,
    pub max_load_pct: f64,
    pub locked: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Outage {
    pub id: String,
    pub feeder_id: String,
    pub severity: String,
    pub description: String,
    pub opened_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
    pub resolution: Option<String>,
}

pub struct GridDb {
    conn: Mutex<Connection>,
}

impl GridDb {
    pub fn open(path: &Path) -> DbResult<GridDb> {
        let conn = Connection::open(path)?;
        conn.execute_batch(include_str!("schema.sql"))?;
        Ok(GridDb { conn: Mutex::new(conn) })
    }

    fn conn(&self) -> DbResult<std::sync::MutexGuard<'_, Connection>> {
        self.conn.lock().map_err(|_| DbError::Poisoned)
    }

    pub fn substations(&self, region: Option<&str>) -> DbResult<Vec<Substation>> {
        let conn = self.conn()?;
        let mut stmt = conn.prepare(
            "SELECT id, name, region, voltage_kv FROM substation
             WHERE ?1 IS NULL OR region = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map(params![region], |r| {
            Ok(Substation {
                id: r.get(0)?,
                name: r.get(1)?,
                region: r.get(2)?,
                voltage_kv: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    pub fn substation(&self, id: &str) -> DbResult<Option<Substation>> {
        let conn = self.conn()?;
        let sub = conn
            .query_row(
                "SELECT id, name, region, voltage_kv FROM substation WHERE id = ?1",
                params![id],
                |r| {
                    Ok(Substation {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        region: r.get(2)?,
                        voltage_kv: r.get(3)?,
                    })
                },
            )
            .optional()?;
        Ok(sub)
    }

    pub fn feeder(&self, id: &str) -> DbResult<Option<Feeder>> {
        let conn = self.conn()?;
        let feeder = conn
            .query_row(
                "SELECT id, substation_id, rated_amps, max_load_pct, locked FROM feeder WHERE id = ?1",
                params![id],
                |r| {
                    Ok(Feeder {
                        id: r.get(0)?,
                        substation_id: r.get(1)?,
                        rated_amps: r.get(2)?,
                        max_load_pct: r.get(3)?,
                        locked: r.get(4)?,
                    })
                },
            )
            .optional()?;
        Ok(feeder)
    }

    pub fn feeders_of(&self, substation_id: &str) -> DbResult<Vec<String>> {
        let conn = self.conn()?;
        let mut stmt = conn.prepare("SELECT id FROM feeder WHERE substation_id = ?1 ORDER BY id")?;
        let ids = stmt
            .query_map(params![substation_id], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ids)
    }

    pub fn set_max_load(&self, feeder_id: &str, pct: f64) -> DbResult<usize> {
        let conn = self.conn()?;
        Ok(conn.execute(
            "UPDATE feeder SET max_load_pct = ?2 WHERE id = ?1",
            params![feeder_id, pct],
        )?)
    }

    pub fn insert_outage(&self, o: &Outage) -> DbResult<()> {
        let conn = self.conn()?;
        conn.execute(
            "INSERT INTO outage (id, feeder_id, severity, description, opened_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![o.id, o.feeder_id, o.severity, o.description, o.opened_at],
        )?;
        Ok(())
    }

    pub fn outage(&self, id: &str) -> DbResult<Option<Outage>> {
        let conn = self.conn()?;
        let outage = conn
            .query_row(
                "SELECT id, feeder_id, severity, description, opened_at, closed_at, resolution
                 FROM outage WHERE id = ?1",
                params![id],
                |r| {
                    Ok(Outage {
                        id: r.get(0)?,
                        feeder_id: r.get(1)?,
                        severity: r.get(2)?,
                        description: r.get(3)?,
                        opened_at: r.get(4)?,
                        closed_at: r.get(5)?,
                        resolution: r.get(6)?,
                    })
                },
            )
            .optional()?;
        Ok(outage)
    }

    pub fn close_outage(&self, id: &str, resolution: &str, at: DateTime<Utc>) -> DbResult<()> {
        let conn = self.conn()?;
        conn.execute(
            "UPDATE outage SET closed_at = ?2, resolution = ?3 WHERE id = ?1",
            params![id, at, resolution],
        )?;
        Ok(())
    }
}
