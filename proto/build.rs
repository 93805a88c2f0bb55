//! Compiles proto/backoffice with protox, so no system `protoc` is needed.
use std::path::PathBuf;

/// Messages holding a password.
const SECRET_MESSAGES: [&str; 3] = [
    ".backoffice.stores.v1.AuthenticateRequest",
    ".backoffice.stores.v1.CreateOwnerRequest",
    ".backoffice.stores.v1.RegisterRequest",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Read when the script runs, not when it was compiled: two checkouts sharing a build folder
    // may run one compiled script.
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let mut files = Vec::new();
    collect(&root.join("backoffice"), &mut files)?;
    files.sort();
    // The folder too, so a new file triggers a rebuild. Paths relative to the package, so
    // that two checkouts sharing a build folder each watch their own protos.
    println!("cargo:rerun-if-changed=backoffice");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.strip_prefix(&root).unwrap_or(f).display());
    }
    let fds = protox::compile(&files, [&root])?;
    // The project's own packages (the well-known types they import are prost's).
    packages(fds.file.iter().filter_map(|f| f.package.clone()).filter(|p| p.starts_with("backoffice.")).collect())?;
    wire(&fds)?;
    // Messages that carry a password get a hand-written Debug that hides it (src/lib.rs).
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .skip_debug(SECRET_MESSAGES)
        .compile_fds(fds)?;
    Ok(())
}

fn collect(dir: &std::path::Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "proto") {
            out.push(path);
        }
    }
    Ok(())
}

/// Writes `packages.rs` into the build folder: a module per proto package
/// (`backoffice.<name>.v1` becomes `<name>::v1`), so a new service's protos need no line here
/// or in `src/lib.rs` beyond its client's `services!` entry. Every service package sees the
/// shared paging messages.
fn packages(mut names: Vec<String>) -> Result<(), Box<dyn std::error::Error>> {
    names.sort();
    names.dedup();
    let mut out = String::new();
    for package in &names {
        let parts: Vec<&str> = package.split('.').collect();
        let ["backoffice", name, version] = parts[..] else {
            return Err(format!("proto package {package} is not backoffice.<name>.<version>").into());
        };
        let shared = if name == "common" || name == "events" {
            ""
        } else {
            "        pub use crate::common::v1::{PageInfo, PageRequest};\n"
        };
        out.push_str(&format!(
            "/// `{package}`\npub mod {name} {{\n    pub mod {version} {{\n        tonic::include_proto!(\"{package}\");\n{shared}    }}\n}}\n\n"
        ));
    }
    let dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(dir.join("packages.rs"), out)?;
    Ok(())
}

/// Writes `wire.rs` into the build folder: for every enum of the project's protos, its
/// values' words on the REST API and in storage (`ORDER_STATE_READY_TO_FULFILLMENT` is
/// `ready_to_fulfillment`), as an implementation of `Wire` (src/lib.rs). Each enum's values
/// must start with the enum's name in upper snake case, and its zero value must be
/// `<NAME>_UNSPECIFIED` (buf's style, also checked by `buf lint`).
fn wire(fds: &prost_types::FileDescriptorSet) -> Result<(), Box<dyn std::error::Error>> {
    let mut out = String::new();
    for file in &fds.file {
        let Some(package) = file.package.as_deref().filter(|p| p.starts_with("backoffice.")) else { continue };
        let parts: Vec<&str> = package.split('.').collect();
        let module = format!("crate::{}::{}", parts[1], parts[2]);
        for e in &file.enum_type {
            out.push_str(&wire_impl(&module, e)?);
        }
        for m in &file.message_type {
            let nested = format!("{module}::{}", snake(m.name()));
            for e in &m.enum_type {
                out.push_str(&wire_impl(&nested, e)?);
            }
        }
    }
    let dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(dir.join("wire.rs"), out)?;
    Ok(())
}

fn wire_impl(module: &str, e: &prost_types::EnumDescriptorProto) -> Result<String, Box<dyn std::error::Error>> {
    let prefix = format!("{}_", snake(e.name()).to_uppercase());
    let mut values = String::new();
    for v in &e.value {
        let word = v
            .name()
            .strip_prefix(&prefix)
            .ok_or_else(|| format!("enum value {} does not start with {prefix}", v.name()))?
            .to_lowercase();
        if v.number() == 0 {
            if word != "unspecified" {
                return Err(format!("the zero value of {} must be {prefix}UNSPECIFIED", e.name()).into());
            }
            continue;
        }
        values.push_str(&format!("({}, \"{word}\"), ", v.number()));
    }
    Ok(format!(
        "impl crate::Wire for {module}::{} {{\n    const VALUES: &'static [(i32, &'static str)] = &[{values}];\n}}\n\n",
        e.name()
    ))
}

/// `OrderState` → `order_state`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
