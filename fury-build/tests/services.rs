//! What fury-build generates for a schema's services: the method paths foryc's `--grpc`
//! output uses, one client and one server module per service, the four kinds of rpc, the
//! `Config` switches, and the errors (those foryc reports, and names the Rust code cannot
//! take). examples/grpc_inventory compiles and runs generated code against foryc's Python
//! stubs.

use std::path::PathBuf;

fn schema(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fury-build-svc-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("s.fdl");
    std::fs::write(&file, text).unwrap();
    file
}

const SHOP: &str = "package demo.shop;\n\
    message Query { string sku = 1; }\n\
    message Item { string sku = 1; }\n\
    union Event { Item item = 1; Query query = 2; }\n\
    // Sells things.\n\
    service Shop {\n\
    \x20 rpc GetItem (Query) returns (Item);\n\
    \x20 rpc ListItems (Query) returns (stream Item);\n\
    \x20 rpc Upload (stream Item) returns (Query);\n\
    \x20 rpc Chat (stream Event) returns (stream Event);\n\
    \x20 rpc type (Query) returns (Item);\n\
    }\n";

fn generate(config: &mut fury_build::Config, file: &PathBuf) -> String {
    let out = config.generate(&[file], &[file.parent().unwrap()]).unwrap();
    out.files["demo_shop.rs"].clone()
}

#[test]
fn paths_kinds_and_names() {
    let src = generate(&mut fury_build::Config::new(), &schema("all", SHOP));
    for (path, method) in [
        ("/demo.shop.Shop/GetItem", "GetItem"),
        ("/demo.shop.Shop/ListItems", "ListItems"),
        ("/demo.shop.Shop/Upload", "Upload"),
        ("/demo.shop.Shop/Chat", "Chat"),
        ("/demo.shop.Shop/type", "type"),
    ] {
        assert!(
            src.contains(&format!("PathAndQuery::from_static(\"{path}\")")),
            "{path}"
        );
        assert!(src.contains(&format!("\"{path}\" => {{")), "{path}");
        assert!(
            src.contains(&format!(
                "::tonic::GrpcMethod::new(\"demo.shop.Shop\", \"{method}\")"
            )),
            "{method}"
        );
    }
    assert!(src.contains("pub mod shop_client {"));
    assert!(src.contains("pub mod shop_server {"));
    assert!(src.contains("const NAME: &'static str = \"demo.shop.Shop\";"));
    assert!(src.contains("#[doc = \" Sells things.\"]"));
    // One call per kind of rpc, client and server.
    for call in ["unary", "server_streaming", "client_streaming", "streaming"] {
        assert!(
            src.contains(&format!("self.inner.{call}(request, path, codec)")),
            "{call}"
        );
        assert!(
            src.contains(&format!("grpc.{call}(Call(inner), req)")),
            "{call}"
        );
    }
    assert!(src.contains(
        "pub async fn get_item(&mut self, request: impl ::tonic::IntoRequest<super::Query>)"
    ));
    assert!(src.contains("pub async fn upload(&mut self, request: impl ::tonic::IntoStreamingRequest<Message = super::Item>)"));
    assert!(src.contains("async fn chat(&self, request: ::tonic::Request<::tonic::Streaming<super::Event>>) -> ::std::result::Result<::tonic::Response<Self::ChatStream>, ::tonic::Status>;"));
    assert!(src.contains("type ListItemsStream: "));
    assert!(
        src.contains("pub async fn r#type("),
        "a keyword as a method name"
    );
    // The trait by its module path: a service may itself be called `Call`.
    assert!(src
        .contains("impl<T: self::Shop> ::tonic::server::UnaryService<super::Query> for Call<T> {"));
    // The server encodes responses and decodes requests.
    assert!(src.contains("grpc::<super::Item, super::Query>(limits)"));
}

#[test]
fn no_package_and_switches() {
    let file = schema(
        "nopkg",
        "message A { string s = 1; }\nservice S { rpc Do (A) returns (A); }\n",
    );
    let out = fury_build::Config::new()
        .generate(&[&file], &[file.parent().unwrap()])
        .unwrap();
    let src = &out.files["generated.rs"];
    assert!(
        src.contains("PathAndQuery::from_static(\"/S/Do\")"),
        "{src}"
    );

    let shop = schema("switch", SHOP);
    let server_only = generate(fury_build::Config::new().build_client(false), &shop);
    assert!(!server_only.contains("shop_client") && server_only.contains("pub mod shop_server"));
    let client_only = generate(fury_build::Config::new().build_server(false), &shop);
    assert!(client_only.contains("pub mod shop_client") && !client_only.contains("shop_server"));
    let none = generate(
        fury_build::Config::new()
            .build_client(false)
            .build_server(false),
        &shop,
    );
    assert!(!none.contains("tonic"), "{none}");
    let no_services = schema("plain", "package demo.shop;\nmessage A { string s = 1; }\n");
    assert!(!generate(&mut fury_build::Config::new(), &no_services).contains("tonic"));
}

#[test]
fn errors_name_the_method() {
    for (name, text, message) in [
        (
            "missing",
            "message A { string s = 1; }\nservice S {\n  rpc Do (Missing) returns (A);\n}\n",
            "the request type `Missing` of `S.Do` is not defined",
        ),
        (
            "enum",
            "enum E { X = 0; }\nmessage A { string s = 1; }\nservice S {\n  rpc Do (A) returns (E);\n}\n",
            "the response type `E` of `S.Do` must be a message or a union, not an enum",
        ),
        (
            "dup",
            "message A { string s = 1; }\nservice S {\n  rpc Do (A) returns (A);\n  rpc Do (A) returns (A);\n}\n",
            "method `Do` of service `S` is defined twice",
        ),
        (
            "clash",
            "message A { string s = 1; }\nservice S {\n  rpc Connect (A) returns (A);\n}\n",
            "method `Connect` of service `S` would be the client's `connect`: rename it",
        ),
    ] {
        let file = schema(name, text);
        let err = fury_build::Config::new()
            .generate(&[&file], &[file.parent().unwrap()])
            .unwrap_err();
        assert_eq!(err.message(), message, "{name}");
        assert_eq!(err.file(), Some(file.as_path()));
        assert!(err.position().is_some_and(|(line, _)| line >= 3), "{name}");
    }
}
