//! A small module manager: targets are plain names, `all` stands for every module, each
//! module names the modules it depends on; start-up goes in dependency order, shut-down in
//! reverse, and cycles are refused.

/// A module and what must start before it when both run in this process.
#[derive(Debug, Clone, Copy)]
pub struct ModuleSpec {
    /// Target name.
    pub name: &'static str,
    /// Modules that start first when they run in the same process.
    pub deps: &'static [&'static str],
}

/// Every module of the product.
pub const MODULES: &[ModuleSpec] = &[
    ModuleSpec { name: "stores", deps: &[] },
    ModuleSpec { name: "wms", deps: &[] },
    ModuleSpec { name: "products", deps: &[] },
    ModuleSpec { name: "gateway", deps: &["stores", "wms", "products"] },
];

/// The names `--target` accepts.
pub fn target_names() -> Vec<&'static str> {
    std::iter::once("all").chain(MODULES.iter().map(|m| m.name)).collect()
}

/// Resolves a `--target` value (`all`, or a comma list) into modules in start order.
pub fn resolve(spec: &str) -> anyhow::Result<Vec<&'static str>> {
    let mut selected: Vec<&'static str> = Vec::new();
    for raw in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if raw == "all" {
            for m in MODULES {
                if !selected.contains(&m.name) {
                    selected.push(m.name);
                }
            }
            continue;
        }
        let m = MODULES
            .iter()
            .find(|m| m.name == raw)
            .ok_or_else(|| anyhow::anyhow!("unknown target {raw:?}; known targets: {}", target_names().join(", ")))?;
        if !selected.contains(&m.name) {
            selected.push(m.name);
        }
    }
    anyhow::ensure!(!selected.is_empty(), "no target given");
    order(MODULES, &selected)
}

/// Orders `selected` so every module comes after the selected modules it depends on.
pub fn order(modules: &[ModuleSpec], selected: &[&'static str]) -> anyhow::Result<Vec<&'static str>> {
    let deps_of = |name: &str| -> Vec<&'static str> {
        modules
            .iter()
            .find(|m| m.name == name)
            .map(|m| m.deps.iter().copied().filter(|d| selected.contains(d)).collect())
            .unwrap_or_default()
    };
    let mut out: Vec<&'static str> = Vec::new();
    let mut remaining: Vec<&'static str> = selected.to_vec();
    while !remaining.is_empty() {
        let ready: Vec<&'static str> =
            remaining.iter().copied().filter(|m| deps_of(m).iter().all(|d| out.contains(d))).collect();
        anyhow::ensure!(!ready.is_empty(), "module dependency cycle among {}", remaining.join(", "));
        out.extend(ready.iter().copied());
        remaining.retain(|m| !ready.contains(m));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_starts_dependencies_first() {
        assert_eq!(resolve("all").unwrap(), vec!["stores", "wms", "products", "gateway"]);
        assert_eq!(resolve("gateway,stores").unwrap(), vec!["stores", "gateway"]);
        assert_eq!(resolve("gateway,wms,stores").unwrap(), vec!["wms", "stores", "gateway"]);
        assert_eq!(resolve("gateway").unwrap(), vec!["gateway"]);
        assert_eq!(resolve(" stores , stores ").unwrap(), vec!["stores"]);
    }

    #[test]
    fn unknown_targets_are_refused() {
        let e = resolve("gateway,orderz").unwrap_err().to_string();
        assert!(e.contains("orderz") && e.contains("gateway"), "{e}");
        assert!(resolve("").is_err());
    }

    #[test]
    fn cycles_are_refused() {
        const CYCLIC: &[ModuleSpec] = &[ModuleSpec { name: "a", deps: &["b"] }, ModuleSpec { name: "b", deps: &["a"] }];
        assert!(order(CYCLIC, &["a", "b"]).unwrap_err().to_string().contains("cycle"));
        assert_eq!(order(CYCLIC, &["a"]).unwrap(), vec!["a"]);
    }

    #[test]
    fn lists_targets() {
        assert_eq!(target_names(), vec!["all", "stores", "wms", "products", "gateway"]);
    }
}
