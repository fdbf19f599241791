#![allow(dead_code)]

use crate::types::{QsFunction, QsInstance, QsTypeRef, TypeData};

fn render_type_ref(t: &QsTypeRef) -> String {
    if t.module.is_empty() || t.module == "unknown" {
        t.name.clone()
    } else {
        format!("{}.{}", t.module, t.name)
    }
}

fn render_instance(inst: &QsInstance) -> String {
    let type_str = render_type_ref(&inst.type_info);
    match &inst.name {
        Some(name) => format!("`{}`: {}", name, type_str),
        None => type_str,
    }
}

fn render_function(f: &QsFunction) -> String {
    let params: Vec<String> = f.params.iter().map(render_instance).collect();
    let ret_type = render_type_ref(&f.ret.type_info);
    let signature = format!("{}({}) → {}", f.name, params.join(", "), ret_type);

    let mut md = format!("#### `{}`\n\n", signature);
    if !f.details.is_empty() {
        md.push_str(&format!("{}\n\n", f.details));
    }
    md
}

pub fn render_type_to_markdown(data: &TypeData, module: &str, version: &str) -> String {
    let mut md = String::new();

    md.push_str(&format!("# {}.{}\n\n", module, data.name));
    md.push_str(&format!(
        "> 文档来源: https://quickshell.outfoxxed.me/docs/{}/types/{}/{}/\n\n",
        version, module, data.name
    ));

    if let Some(flags) = &data.flags {
        if !flags.is_empty() {
            let badges: Vec<String> = flags.iter().map(|f| format!("`{}`", f)).collect();
            md.push_str(&format!("**标志**: {}\n\n", badges.join(" ")));
        }
    }

    if let Some(super_type) = &data.super_type {
        md.push_str(&format!(
            "**继承自**: `{}`\n\n",
            render_type_ref(super_type)
        ));
    }

    if !data.description.is_empty() {
        md.push_str(&format!("{}\n\n", data.description));
    }

    if !data.details.is_empty() {
        md.push_str(&format!("{}\n\n", data.details));
    }

    if let Some(props) = &data.properties {
        if !props.is_empty() {
            md.push_str("## 属性\n\n");
            for (prop_name, prop_val) in props {
                let type_str = prop_val
                    .get("type")
                    .and_then(|t| {
                        let name = t.get("name")?.as_str()?;
                        let module = t.get("module").and_then(|m| m.as_str()).unwrap_or("");
                        if module.is_empty() {
                            Some(name.to_string())
                        } else {
                            Some(format!("{}.{}", module, name))
                        }
                    })
                    .unwrap_or_else(|| "unknown".to_string());

                let details = prop_val
                    .get("details")
                    .and_then(|d| d.as_str())
                    .unwrap_or("");
                let flags = prop_val
                    .get("flags")
                    .and_then(|f| f.as_array())
                    .map(|arr| {
                        arr.iter()
                            .filter_map(|v| v.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default();

                md.push_str(&format!("### `{}`: {}\n\n", prop_name, type_str));
                if !flags.is_empty() {
                    md.push_str(&format!("*标志: {}*\n\n", flags));
                }
                if !details.is_empty() {
                    md.push_str(&format!("{}\n\n", details));
                }
            }
        }
    }

    if let Some(funcs) = &data.functions {
        if !funcs.is_empty() {
            md.push_str("## 函数\n\n");
            for func in funcs {
                md.push_str(&render_function(func));
            }
        }
    }

    if let Some(signals) = &data.signals {
        if !signals.is_empty() {
            md.push_str("## 信号\n\n");
            for (sig_name, sig_val) in signals {
                let details = sig_val
                    .get("details")
                    .and_then(|d| d.as_str())
                    .unwrap_or("");
                let params = sig_val
                    .get("params")
                    .and_then(|p| p.as_array())
                    .map(|arr| {
                        arr.iter()
                            .filter_map(|v| {
                                let name = v.get("name")?.as_str()?;
                                let type_name = v
                                    .get("type")
                                    .and_then(|t| t.get("name"))
                                    .and_then(|n| n.as_str())
                                    .unwrap_or("unknown");
                                Some(format!("{}: {}", name, type_name))
                            })
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default();

                if params.is_empty() {
                    md.push_str(&format!("### `{}()`\n\n", sig_name));
                } else {
                    md.push_str(&format!("### `{}`\n\n", sig_name));
                }
                if !details.is_empty() {
                    md.push_str(&format!("{}\n\n", details));
                }
            }
        }
    }

    if let Some(variants) = &data.variants {
        if !variants.is_empty() {
            md.push_str("## 枚举值\n\n");
            for (variant_name, variant_val) in variants {
                let details = variant_val
                    .get("details")
                    .and_then(|d| d.as_str())
                    .unwrap_or("");
                md.push_str(&format!("- **`{}`**: {}\n", variant_name, details));
            }
            md.push('\n');
        }
    }

    md
}
