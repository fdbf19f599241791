//! SQLite-backed vessel log.

use std::{path::Path, sync::{Mutex, MutexGuard}};

use rusqlite::{Connection, OptionalExtension, params};

use crate::{
    error::AppError,
    model::{Berth, CallStatus, ManifestLine, ManifestSummary, VesselCall},
};

const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS berths (
    code TEXT PRIMARY KEY,
    quay TEXT NOT NULL,
    length_m REAL NOT NULL,
    max_draft_m REAL NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0,
    closed_reason TEXT
);
CREATE TABLE IF NOT EXISTS calls (
    id TEXT PRIMARY KEY,
    imo TEXT NOT NULL,
    vessel_name TEXT NOT NULL,
    berth TEXT NOT NULL REFERENCES berths(code),
    eta TEXT NOT NULL,
    etd TEXT NOT NULL,
    draft_m REAL NOT NULL,
    status TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS manifest (
    call_id TEXT NOT NULL REFERENCES calls(id),
    hs_code TEXT NOT NULL,
    description TEXT NOT NULL,
    tonnes REAL NOT NULL,
    dangerous INTEGER NOT NULL
);
"#;

pub struct Store {
    conn: Mutex<Connection>,
}

fn row_to_call(row: &rusqlite::Row<'_>) -> rusqlite::Result<VesselCall> {
    let status: String = row.get(7)?;
    Ok(VesselCall {
        id: row.get(0)?,
        imo: row.get(1)?,
        vessel_name: row.get(2)?,
        berth: row.get(3)?,
        eta: row.get(4)?,
        etd: row.get(5)?,
        draft_m: row.get(6)?,
        status: status.parse().unwrap_or(CallStatus::Expected),
    })
}

impl Store {
    pub fn open(path: &Path) -> Result<Self, AppError> {
        let conn = Connection::open(path)?;
        conn.execute_batch(SCHEMA)?;
        Ok(Self {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> Result<MutexGuard<'_, Connection>, AppError> {
        self.conn.lock().map_err(|_| AppError::Poisoned)
    }

    pub fn list_berths(&self) -> Result<Vec<Berth>, AppError> {
        let conn = self.conn()?;
        let mut stmt = conn.prepare(
            "SELECT code, quay, length_m, max_draft_m, closed, closed_reason FROM berths ORDER BY code",
        )?;
        let rows = stmt.query_map([], |row| {
            Ok(Berth {
                code: row.get(0)?,
                quay: row.get(1)?,
                length_m: row.get(2)?,
                max_draft_m: row.get(3)?,
                closed: row.get::<_, i64>(4)? != 0,
                closed_reason: row.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Looks a berth up; `Ok(None)` when the code is unknown.
    pub fn find_berth(&self, code: &str) -> Result<Option<Berth>, AppError> {
        let conn = self.conn()?;
        let berth = conn
            .query_row(
                "SELECT code, quay, length_m, max_draft_m, closed, closed_reason FROM berths WHERE code = ?1",
                params![code],
                |row| {
                    Ok(Berth {
                        code: row.get(0)?,
                        quay: row.get(1)?,
                        length_m: row.get(2)?,
                        max_draft_m: row.get(3)?,
                        closed: row.get::<_, i64>(4)? != 0,
                        closed_reason: row.get(5)?,
                    })
                },
            )
            .optional()?;
        Ok(berth)
    }

    /// Like `find_berth`, but a missing berth is an error.
    pub fn berth(&self, code: &str) -> Result<Berth, AppError> {
        self.find_berth(code)?
            .ok_or_else(|| AppError::not_found("berth", code))
    }

    pub fn set_berth_closed(&self, code: &str, closed: bool, reason: Option<&str>) -> Result<(), AppError> {
        let conn = self.conn()?;
        let n = conn.execute(
            "UPDATE berths SET closed = ?2, closed_reason = ?3 WHERE code = ?1",
            params![code, closed as i64, reason],
        )?;
        if n == 0 {
            return Err(AppError::not_found("berth", code));
        }
        Ok(())
    }

    pub fn overlapping_calls(&self, berth: &str, eta: &str, etd: &str) -> Result<Vec<String>, AppError> {
        let conn = self.conn()?;
        let mut stmt = conn.prepare(
            "SELECT id FROM calls WHERE berth = ?1 AND status IN ('expected','alongside') \
             AND eta < ?3 AND etd > ?2",
        )?;
        let ids = stmt
            .query_map(params![berth, eta, etd], |row| row.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ids)
    }

    pub fn insert_call(&self, call: &VesselCall) -> Result<(), AppError> {
        let conn = self.conn()?;
        conn.execute(
            "INSERT INTO calls (id, imo, vessel_name, berth, eta, etd, draft_m, status) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                call.id,
                call.imo,
                call.vessel_name,
                call.berth,
                call.eta,
                call.etd,
                call.draft_m,
                call.status.as_str()
            ],
        )?;
        Ok(())
    }

    /// `Ok(None)` when no call has that id.
    pub fn get_call(&self, id: &str) -> Result<Option<VesselCall>, AppError> {
        let conn = self.conn()?;
        let call = conn
            .query_row(
                "SELECT id, imo, vessel_name, berth, eta, etd, draft_m, status FROM calls WHERE id = ?1",
                params![id],
                row_to_call,
            )
            .optional()?;
        Ok(call)
    }

    pub fn set_call_status(&self, id: &str, status: CallStatus) -> Result<VesselCall, AppError> {
        let current = self
            .get_call(id)?
            .ok_or_else(|| AppError::not_found("vessel call", id))?;
        if current.status.is_final() {
            return Err(AppError::Locked(id.to_string()));
        }
        let conn = self.conn()?;
        conn.execute(
            "UPDATE calls SET status = ?2 WHERE id = ?1",
            params![id, status.as_str()],
        )?;
        Ok(VesselCall { status, ..current })
    }

    pub fn search_calls(&self, vessel: &str, limit: usize) -> Result<Vec<VesselCall>, AppError> {
        let conn = self.conn()?;
        let mut stmt = conn.prepare(
            "SELECT id, imo, vessel_name, berth, eta, etd, draft_m, status FROM calls \
             WHERE vessel_name LIKE ?1 ORDER BY eta DESC LIMIT ?2",
        )?;
        let pattern = format!("%{vessel}%");
        let calls = stmt
            .query_map(params![pattern, limit as i64], row_to_call)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(calls)
    }

    pub fn add_manifest_line(&self, line: &ManifestLine) -> Result<(), AppError> {
        let conn = self.conn()?;
        conn.execute(
            "INSERT INTO manifest (call_id, hs_code, description, tonnes, dangerous) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![line.call_id, line.hs_code, line.description, line.tonnes, line.dangerous as i64],
        )?;
        Ok(())
    }

    pub fn manifest_summary(&self, call_id: &str) -> Result<ManifestSummary, AppError> {
        let conn = self.conn()?;
        let (lines, total, dangerous): (i64, f64, i64) = conn.query_row(
            "SELECT COUNT(*), COALESCE(SUM(tonnes), 0), COALESCE(SUM(dangerous), 0) FROM manifest WHERE call_id = ?1",
            params![call_id],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )?;
        Ok(ManifestSummary {
            call_id: call_id.to_string(),
            lines: lines as usize,
            total_tonnes: total,
            dangerous_lines: dangerous as usize,
        })
    }

    pub fn berth_plan(&self, berth: &str) -> Result<Vec<VesselCall>, AppError> {
        let conn = self.conn()?;
        let mut stmt = conn.prepare(
            "SELECT id, imo, vessel_name, berth, eta, etd, draft_m, status FROM calls \
             WHERE berth = ?1 AND status != 'cancelled' ORDER BY eta",
        )?;
        let calls = stmt
            .query_map(params![berth], row_to_call)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(calls)
    }
}
