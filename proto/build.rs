//! Compiles proto/backoffice with protox, so no system `protoc` is needed.
use std::path::PathBuf;

/// Messages holding a password.
const SECRET_MESSAGES: [&str; 3] = [
    ".backoffice.stores.v1.AuthenticateRequest",
    ".backoffice.stores.v1.CreateOwnerRequest",
    ".backoffice.stores.v1.RegisterRequest",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    collect(&root.join("backoffice"), &mut files)?;
    files.sort();
    // The folder too, so a new file triggers a rebuild.
    println!("cargo:rerun-if-changed={}", root.join("backoffice").display());
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    let fds = protox::compile(&files, [&root])?;
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
