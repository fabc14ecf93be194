// The schemas of conformance/schemas, compiled as a user's build script would.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    fury_build::Config::new()
        .include_file("schemas.rs")
        .compile(
            &[
                "../schemas/everything.fdl",
                "../schemas/orders.fdl",
                "../schemas/proto/shop.proto",
            ],
            &["../schemas", "../schemas/proto"],
        )?;
    Ok(())
}
