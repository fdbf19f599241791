//! In-memory appointments store (backed by a nightly sync in production).

use crate::error::ClinicError;
use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::RwLock;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Patient {
    pub id: String,
    pub name: String,
    pub date_of_birth: NaiveDate,
    pub phone: Option<String>,
    pub blocked_reason: Option<String>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub enum Status {
    Booked,
    CheckedIn,
    Cancelled,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Appointment {
    pub id: String,
    pub patient_id: String,
    pub provider: String,
    pub start: NaiveDateTime,
    pub minutes: u32,
    pub reason: String,
    pub status: Status,
}

#[derive(Default)]
pub struct AppointmentsDb {
    appointments: RwLock<HashMap<String, Appointment>>,
    patients: RwLock<HashMap<String, Patient>>,
}

impl AppointmentsDb {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn appointment(&self, id: &str) -> Result<Option<Appointment>, ClinicError> {
        let guard = self
            .appointments
            .read()
            .map_err(|_| ClinicError::LockPoisoned)?;
        Ok(guard.get(id).cloned())
    }

    pub fn patient(&self, id: &str) -> Option<Patient> {
        self.patients.read().ok()?.get(id).cloned()
    }

    pub fn search_patients(&self, query: &str) -> Result<Vec<Patient>, ClinicError> {
        let needle = query.to_lowercase();
        let guard = self.patients.read().map_err(|_| ClinicError::LockPoisoned)?;
        Ok(guard
            .values()
            .filter(|p| p.name.to_lowercase().contains(&needle) || p.id == query)
            .cloned()
            .collect())
    }

    pub fn add_note(&self, patient_id: &str, note: String) -> Result<Option<usize>, ClinicError> {
        let mut guard = self.patients.write().map_err(|_| ClinicError::LockPoisoned)?;
        Ok(guard.get_mut(patient_id).map(|p| {
            p.notes.push(note);
            p.notes.len()
        }))
    }

    pub fn on_day(&self, day: NaiveDate, provider: Option<&str>) -> Result<Vec<Appointment>, ClinicError> {
        let guard = self
            .appointments
            .read()
            .map_err(|_| ClinicError::LockPoisoned)?;
        let mut list: Vec<Appointment> = guard
            .values()
            .filter(|a| a.start.date() == day && a.status != Status::Cancelled)
            .filter(|a| provider.map_or(true, |p| a.provider == p))
            .cloned()
            .collect();
        list.sort_by_key(|a| a.start);
        Ok(list)
    }

    pub fn upsert(&self, appt: Appointment) -> Result<(), ClinicError> {
        let mut guard = self
            .appointments
            .write()
            .map_err(|_| ClinicError::LockPoisoned)?;
        guard.insert(appt.id.clone(), appt);
        Ok(())
    }

    pub fn set_status(&self, id: &str, status: Status) -> Result<Option<Appointment>, ClinicError> {
        let mut guard = self
            .appointments
            .write()
            .map_err(|_| ClinicError::LockPoisoned)?;
        Ok(guard.get_mut(id).map(|a| {
            a.status = status;
            a.clone()
        }))
    }
}
