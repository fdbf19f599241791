//! Scheduling rules on top of the appointments store.

use crate::db::{Appointment, AppointmentsDb, Patient, Status};
use crate::error::ClinicError;
use chrono::{Duration, Local, NaiveDate, NaiveDateTime, Timelike};

pub struct SchedulingService {
    pub db: AppointmentsDb,
    pub opening_hour: u32,
    pub closing_hour: u32,
    pub slot_minutes: u32,
}

impl SchedulingService {
    pub fn today(&self) -> NaiveDate {
        Local::now().date_naive()
    }

    fn check_time(&self, start: NaiveDateTime) -> Result<(), ClinicError> {
        let today = self.today();
        if start.date() < today {
            return Err(ClinicError::PastDate(start.date(), today));
        }
        if start.hour() < self.opening_hour || start.hour() >= self.closing_hour {
            return Err(ClinicError::OutsideHours(
                start.format("%H:%M").to_string(),
                self.opening_hour,
                self.closing_hour,
            ));
        }
        Ok(())
    }

    fn check_free(&self, provider: &str, start: NaiveDateTime, except: Option<&str>) -> Result<(), ClinicError> {
        let taken = self
            .db
            .on_day(start.date(), Some(provider))?
            .into_iter()
            .find(|a| a.start == start && Some(a.id.as_str()) != except);
        match taken {
            Some(holder) => Err(ClinicError::SlotTaken {
                provider: provider.to_string(),
                start: start.to_string(),
                holder: holder.id,
            }),
            None => Ok(()),
        }
    }

    pub fn patient(&self, id: &str) -> Result<Patient, ClinicError> {
        self.db
            .patient(id)
            .ok_or_else(|| ClinicError::PatientNotFound(id.to_string()))
    }

    pub fn book(&self, patient_id: &str, provider: &str, start: NaiveDateTime, reason: &str) -> Result<Appointment, ClinicError> {
        let patient = self.patient(patient_id)?;
        if let Some(why) = patient.blocked_reason {
            return Err(ClinicError::PatientBlocked(patient.id, why));
        }
        self.check_time(start)?;
        self.check_free(provider, start, None)?;
        let appt = Appointment {
            id: format!("apt_{}", uuid::Uuid::new_v4().simple()),
            patient_id: patient.id,
            provider: provider.to_string(),
            start,
            minutes: self.slot_minutes,
            reason: reason.to_string(),
            status: Status::Booked,
        };
        self.db.upsert(appt.clone())?;
        Ok(appt)
    }

    pub fn reschedule(&self, id: &str, new_start: NaiveDateTime) -> Result<Appointment, ClinicError> {
        let mut appt = self
            .db
            .appointment(id)?
            .ok_or_else(|| ClinicError::AppointmentNotFound(id.to_string()))?;
        self.check_time(new_start)?;
        self.check_free(&appt.provider, new_start, Some(id))?;
        appt.start = new_start;
        self.db.upsert(appt.clone())?;
        Ok(appt)
    }

    pub fn cancel(&self, id: &str) -> Result<Appointment, ClinicError> {
        self.db
            .set_status(id, Status::Cancelled)?
            .ok_or_else(|| ClinicError::AppointmentNotFound(id.to_string()))
    }

    pub fn free_slots(&self, provider: &str, day: NaiveDate) -> Result<Vec<NaiveDateTime>, ClinicError> {
        let today = self.today();
        if day < today {
            return Err(ClinicError::PastDate(day, today));
        }
        let booked = self.db.on_day(day, Some(provider))?;
        let mut slots = Vec::new();
        let mut t = day.and_hms_opt(self.opening_hour, 0, 0).expect("opening hour validated at start-up");
        let end = day.and_hms_opt(self.closing_hour, 0, 0).expect("closing hour validated at start-up");
        while t < end {
            if !booked.iter().any(|a| a.start == t) {
                slots.push(t);
            }
            t += Duration::minutes(self.slot_minutes as i64);
        }
        Ok(slots)
    }

    pub fn day_sheet(&self, day: NaiveDate) -> Result<String, ClinicError> {
        let list = self.db.on_day(day, None)?;
        serde_json::to_string_pretty(&list).map_err(|source| ClinicError::Encode {
            what: "day sheet",
            source,
        })
    }
}
