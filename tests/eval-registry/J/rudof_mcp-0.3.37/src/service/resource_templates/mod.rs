pub mod resource_templates_impl;

pub use resource_templates_impl::list_resource_templates;
