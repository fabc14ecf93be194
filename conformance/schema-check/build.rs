// The schemas of conformance/schemas, compiled as a user's build script would. BTreeMaps keep
// the keys in the order the Python side inserts them (sorted), so the bytes compare. The
// shop's service is compiled without its tonic client and server: this check is about the
// types (examples/grpc_inventory checks the services).
fn main() -> Result<(), Box<dyn std::error::Error>> {
    fury_build::Config::new()
        .include_file("schemas.rs")
        .btree_map(["."])
        .build_client(false)
        .build_server(false)
        .compile(
            &[
                "../schemas/everything.fdl",
                "../schemas/orders.fdl",
                "../schemas/named.fdl",
                "../schemas/proto/shop.proto",
            ],
            &["../schemas", "../schemas/proto"],
        )?;
    Ok(())
}
