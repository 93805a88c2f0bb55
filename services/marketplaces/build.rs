// The migrations are compiled in (`sqlx::migrate!`): a new or changed one rebuilds the crate.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
