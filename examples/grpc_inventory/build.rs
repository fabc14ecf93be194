// The schema compiled as a user's build script would: types, `fury()`, and the tonic client
// and server of the `Inventory` service.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    fury_build::compile(&["proto/inventory.fdl"], &["proto"])?;
    Ok(())
}
