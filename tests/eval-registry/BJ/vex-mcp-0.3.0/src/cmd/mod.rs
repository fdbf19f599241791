pub mod doctor;
pub mod init;
