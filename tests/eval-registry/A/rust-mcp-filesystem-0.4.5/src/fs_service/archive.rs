pub mod unzip;
pub mod zip;
