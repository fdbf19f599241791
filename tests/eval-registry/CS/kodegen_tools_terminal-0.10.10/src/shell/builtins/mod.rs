mod kgls_impl;
mod ls;
mod lsd;
mod chown;
mod kill;
mod killall;
mod pkill;

pub use ls::LsCommand;
pub use lsd::LsdCommand;
pub use chown::ChownCommand;
pub use kill::KillCommand;
pub use killall::KillallCommand;
pub use pkill::PkillCommand;
