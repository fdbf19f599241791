// SPDX-License-Identifier: Apache-2.0
//! In-memory viewer state: one transcript per session, plus selection.
use crate::audit::AuditEvent;
use crate::watch::render::{render_event, render_event_stamped, DateSeparators, StyledLine};

pub struct SessionView {
    pub id: String,
    pub transport: String,
    pub closed: bool,
    pub cmd_count: usize,
    pub transcript: Vec<StyledLine>,
}

pub struct AppState {
    pub sessions: Vec<SessionView>,
    pub selected: usize,
}

impl AppState {
    pub fn new() -> Self {
        Self {
            sessions: Vec::new(),
            selected: 0,
        }
    }

    fn index_of(&self, id: &str) -> Option<usize> {
        self.sessions.iter().position(|s| s.id == id)
    }

    fn ensure(&mut self, id: &str, transport: &str) -> usize {
        if let Some(i) = self.index_of(id) {
            return i;
        }
        self.sessions.push(SessionView {
            id: id.to_string(),
            transport: transport.to_string(),
            closed: false,
            cmd_count: 0,
            transcript: Vec::new(),
        });
        self.sessions.len() - 1
    }

    pub fn apply(&mut self, ev: AuditEvent) {
        let lines = render_event(&ev);
        self.push(ev, lines);
    }

    /// [`AppState::apply`] for the TUI: lines carry their local time, and a
    /// date line goes before an event from another day (see
    /// [`DateSeparators`], tracked per session).
    pub fn apply_dated(&mut self, ev: AuditEvent, dates: &mut DateSeparators) {
        let mut lines: Vec<StyledLine> = dates.before(ev.session(), &ev).into_iter().collect();
        lines.extend(render_event_stamped(&ev));
        self.push(ev, lines);
    }

    fn push(&mut self, ev: AuditEvent, mut lines: Vec<StyledLine>) {
        let (id, transport) = match &ev {
            AuditEvent::Open {
                session, transport, ..
            } => (session.clone(), transport.clone()),
            AuditEvent::Exec {
                session, transport, ..
            } => (session.clone(), transport.clone()),
            AuditEvent::Close { session, .. } => (session.clone(), String::new()),
            AuditEvent::Blocked {
                session, transport, ..
            } => (session.clone(), transport.clone()),
        };
        let i = self.ensure(&id, &transport);
        match &ev {
            AuditEvent::Open { .. } => {}
            AuditEvent::Exec { .. } => self.sessions[i].cmd_count += 1,
            AuditEvent::Close { .. } => self.sessions[i].closed = true,
            AuditEvent::Blocked { .. } => {}
        }
        self.sessions[i].transcript.append(&mut lines);
    }

    pub fn selected_view(&self) -> Option<&SessionView> {
        self.sessions.get(self.selected)
    }
    pub fn select_index(&mut self, i: usize) {
        if i < self.sessions.len() {
            self.selected = i;
        }
    }
    pub fn select_next(&mut self) {
        if self.selected + 1 < self.sessions.len() {
            self.selected += 1;
        }
    }
    pub fn select_prev(&mut self) {
        self.selected = self.selected.saturating_sub(1);
    }
}

impl Default for AppState {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::AuditEvent;

    fn open(id: &str) -> AuditEvent {
        AuditEvent::Open {
            ts: 1,
            session: id.into(),
            transport: "local".into(),
        }
    }
    fn exec(id: &str) -> AuditEvent {
        AuditEvent::Exec {
            ts: 2,
            session: id.into(),
            transport: "local".into(),
            command: "echo x".into(),
            stdout: "x".into(),
            stderr: "".into(),
            exit_code: 0,
            duration_ms: 1,
            cwd: "/".into(),
            truncated: false,
            timed_out: false,
        }
    }

    #[test]
    fn apply_builds_sessions_and_transcripts() {
        let mut s = AppState::new();
        s.apply(open("sess_1"));
        s.apply(exec("sess_1"));
        s.apply(open("sess_2"));
        assert_eq!(s.sessions.len(), 2);
        let v = &s.sessions[0];
        assert_eq!(v.id, "sess_1");
        assert_eq!(v.cmd_count, 1);
        assert!(v.transcript.iter().any(|l| l.text == "/ $ echo x"));
        assert!(!v.closed);
    }

    #[test]
    fn close_marks_session_closed() {
        let mut s = AppState::new();
        s.apply(open("sess_1"));
        s.apply(AuditEvent::Close {
            ts: 3,
            session: "sess_1".into(),
            reason: "reaped".into(),
        });
        assert!(s.sessions[0].closed);
        assert!(s.sessions[0]
            .transcript
            .iter()
            .any(|l| l.text == "-- closed (reaped) --"));
    }

    #[test]
    fn selection_navigates_and_clamps() {
        let mut s = AppState::new();
        s.apply(open("a"));
        s.apply(open("b"));
        assert_eq!(s.selected, 0);
        s.select_next();
        assert_eq!(s.selected, 1);
        s.select_next(); // clamp at last
        assert_eq!(s.selected, 1);
        s.select_prev();
        assert_eq!(s.selected, 0);
        assert_eq!(s.selected_view().unwrap().id, "a");
    }

    #[test]
    fn exec_for_unknown_session_is_tolerated() {
        let mut s = AppState::new();
        s.apply(exec("ghost")); // no prior open
        assert_eq!(s.sessions.len(), 1);
        assert_eq!(s.sessions[0].id, "ghost");
        assert_eq!(s.sessions[0].cmd_count, 1);
    }

    #[test]
    fn apply_dated_stamps_and_separates_dates_per_session() {
        let day1 = 1_767_268_800_000; // 2026-01-01 12:00 UTC
        let mut st = AppState::new();
        let mut seps = DateSeparators::default();
        let at = |id: &str, ts: u64| AuditEvent::Open {
            ts,
            session: id.into(),
            transport: "local".into(),
        };
        st.apply_dated(at("a", day1), &mut seps);
        st.apply_dated(at("a", day1 + 1_000), &mut seps);
        st.apply_dated(at("b", day1), &mut seps);
        let text = |i: usize| -> Vec<String> {
            st.sessions[i]
                .transcript
                .iter()
                .map(|l| l.text.clone())
                .collect()
        };
        let a = text(0);
        assert_eq!(a.len(), 3, "{a:?}");
        assert!(a[0].starts_with("-- 20") && a[0].ends_with(" --"), "{a:?}");
        assert!(a[1].starts_with('[') && a[1].ends_with("] -- opened: local --"));
        assert!(a[2].ends_with("] -- opened: local --"));
        let b = text(1);
        assert_eq!(b.len(), 2, "each session gets its own separator: {b:?}");
        assert_eq!(b[0], a[0]);
    }
}
