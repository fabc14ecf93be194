//! tonic clients and servers for a package's `service` definitions: per service a module
//! `<service>_client` (a client struct) and `<service>_server` (a trait to implement and a
//! `tower::Service` that routes to it), with the method paths foryc's gRPC output uses
//! (`/package.Service/Method`) and `fury::tonic::FuryCodec` on the package's `fury()`.

use crate::codegen::{camel, escape_ident, lit, snake, Gen};
use crate::model::{Method, Service};
use crate::resolve::qualified;

const RESULT: &str = "::std::result::Result";
const STATUS: &str = "::tonic::Status";

/// The Rust names and paths of one method, from inside a service module.
struct Rpc<'m> {
    method: &'m Method,
    /// `get`, `r#type`.
    fn_name: String,
    /// `/demo.inv.Inventory/Get`.
    path: String,
    request: String,
    response: String,
    /// `GetStream` (server streaming only).
    stream: String,
}

impl Gen<'_> {
    /// Appends the client and server modules of `services` (declared in this package).
    pub(crate) fn gen_services(&mut self, services: &[&Service]) {
        let (client, server) = (self.config.build_client, self.config.build_server);
        for s in services {
            let full = qualified(self.package(), &s.name);
            let rpcs: Vec<Rpc> = s
                .methods
                .iter()
                .map(|m| Rpc {
                    method: m,
                    fn_name: escape_ident(&snake(&m.name)),
                    path: format!("/{full}/{}", m.name),
                    request: self.service_type(&m.request),
                    response: self.service_type(&m.response),
                    stream: format!("{}Stream", camel(&m.name)),
                })
                .collect();
            if client {
                self.gen_client(s, &full, &rpcs);
            }
            if server {
                self.gen_server(s, &full, &rpcs);
            }
        }
    }

    /// The Rust path of a request or response type from inside a service module (the
    /// names were checked before code generation).
    fn service_type(&self, name: &str) -> String {
        match self.loaded.resolve(name, self.package(), &[]) {
            Some((fq, _)) => self.type_path(&fq, 1),
            None => camel(name),
        }
    }

    fn codec_fn(&mut self) {
        self.line(1, "");
        self.line(1, "/// The codec of one call, on the package's `fury()`.");
        self.line(1, "fn codec<E, D>() -> ::std::result::Result<::fury::tonic::FuryCodec<E, D>, ::tonic::Status> {");
        self.line(
            2,
            "super::fury().map(::fury::tonic::FuryCodec::new).map_err(|e| {",
        );
        self.line(3, "::tonic::Status::internal(::std::format!(\"fury: the schema's types cannot be registered: {e}\"))");
        self.line(2, "})");
        self.line(1, "}");
    }

    fn gen_client(&mut self, s: &Service, full: &str, rpcs: &[Rpc]) {
        let module = escape_ident(&format!("{}_client", snake(&s.name)));
        let ty = format!("{}Client", camel(&s.name));
        self.line(0, "");
        self.line(
            0,
            &format!("/// The tonic client of the service `{full}` (fury-build; feature `tonic` of `fury`)."),
        );
        self.line(0, &format!("pub mod {module} {{"));
        self.doc(1, &s.doc);
        if s.doc.is_some() {
            self.line(1, "///");
        }
        self.line(
            1,
            &format!(
                "/// A client of `{full}`: one async method per rpc, whose messages are xlang"
            ),
        );
        self.line(1, "/// streams written by the package's `fury()`.");
        self.line(1, "#[derive(Debug, Clone)]");
        self.line(1, &format!("pub struct {ty}<T> {{"));
        self.line(2, "inner: ::tonic::client::Grpc<T>,");
        self.line(1, "}");
        self.line(1, "");
        self.line(1, &format!("impl {ty}<::tonic::transport::Channel> {{"));
        self.line(2, "/// Connects to `dst` (`\"http://127.0.0.1:50051\"`); needs tonic's feature `transport`.");
        self.line(2, "pub async fn connect<D>(dst: D) -> ::std::result::Result<Self, ::tonic::transport::Error>");
        self.line(2, "where");
        self.line(
            3,
            "D: ::std::convert::TryInto<::tonic::transport::Endpoint>,",
        );
        self.line(
            3,
            "D::Error: ::std::convert::Into<::tonic::codegen::StdError>,",
        );
        self.line(2, "{");
        self.line(
            3,
            "let channel = ::tonic::transport::Endpoint::new(dst)?.connect().await?;",
        );
        self.line(3, "::std::result::Result::Ok(Self::new(channel))");
        self.line(2, "}");
        self.line(1, "}");
        self.line(1, "");
        self.line(1, &format!("impl<T> {ty}<T>"));
        self.line(1, "where");
        self.line(2, "T: ::tonic::client::GrpcService<::tonic::body::Body>,");
        self.line(
            2,
            "T::Error: ::std::convert::Into<::tonic::codegen::StdError>,",
        );
        self.line(2, "T::ResponseBody: ::tonic::codegen::Body<Data = ::tonic::codegen::Bytes> + ::std::marker::Send + 'static,");
        self.line(2, "<T::ResponseBody as ::tonic::codegen::Body>::Error: ::std::convert::Into<::tonic::codegen::StdError> + ::std::marker::Send,");
        self.line(1, "{");
        self.line(2, "/// A client on a channel (or any `GrpcService`).");
        self.line(2, "pub fn new(inner: T) -> Self {");
        self.line(3, "Self { inner: ::tonic::client::Grpc::new(inner) }");
        self.line(2, "}");
        self.line(2, "");
        self.line(
            2,
            "/// The largest response message accepted (tonic's default: 4 MiB).",
        );
        self.line(
            2,
            "pub fn max_decoding_message_size(mut self, limit: usize) -> Self {",
        );
        self.line(
            3,
            "self.inner = self.inner.max_decoding_message_size(limit);",
        );
        self.line(3, "self");
        self.line(2, "}");
        self.line(2, "");
        self.line(
            2,
            "/// The largest request message sent (tonic's default: no limit).",
        );
        self.line(
            2,
            "pub fn max_encoding_message_size(mut self, limit: usize) -> Self {",
        );
        self.line(
            3,
            "self.inner = self.inner.max_encoding_message_size(limit);",
        );
        self.line(3, "self");
        self.line(2, "}");
        for r in rpcs {
            let m = r.method;
            self.line(2, "");
            self.doc(2, &m.doc);
            if m.doc.is_some() {
                self.line(2, "///");
            }
            self.line(2, &format!("/// Calls `{}`.", r.path));
            let arg = if m.client_streaming {
                format!(
                    "impl ::tonic::IntoStreamingRequest<Message = {}>",
                    r.request
                )
            } else {
                format!("impl ::tonic::IntoRequest<{}>", r.request)
            };
            let out = if m.server_streaming {
                format!("::tonic::Streaming<{}>", r.response)
            } else {
                r.response.clone()
            };
            self.line(
                2,
                &format!(
                    "pub async fn {}(&mut self, request: {arg}) -> {RESULT}<::tonic::Response<{out}>, {STATUS}> {{",
                    r.fn_name
                ),
            );
            self.line(3, "self.inner.ready().await.map_err(|e| {");
            self.line(4, "let e: ::tonic::codegen::StdError = e.into();");
            self.line(
                4,
                "::tonic::Status::unavailable(::std::format!(\"the service is not ready: {e}\"))",
            );
            self.line(3, "})?;");
            self.line(
                3,
                &format!("let codec = codec::<{}, {}>()?;", r.request, r.response),
            );
            self.line(
                3,
                &format!(
                    "let path = ::tonic::codegen::http::uri::PathAndQuery::from_static({});",
                    lit(&r.path)
                ),
            );
            let into = if m.client_streaming {
                "into_streaming_request"
            } else {
                "into_request"
            };
            self.line(3, &format!("let mut request = request.{into}();"));
            self.line(
                3,
                &format!(
                    "request.extensions_mut().insert(::tonic::GrpcMethod::new({}, {}));",
                    lit(full),
                    lit(&m.name)
                ),
            );
            let call = match (m.client_streaming, m.server_streaming) {
                (false, false) => "unary",
                (false, true) => "server_streaming",
                (true, false) => "client_streaming",
                (true, true) => "streaming",
            };
            self.line(3, &format!("self.inner.{call}(request, path, codec).await"));
            self.line(2, "}");
        }
        self.line(1, "}");
        self.codec_fn();
        self.line(0, "}");
    }

    fn gen_server(&mut self, s: &Service, full: &str, rpcs: &[Rpc]) {
        let module = escape_ident(&format!("{}_server", snake(&s.name)));
        let tr = camel(&s.name);
        let ty = format!("{tr}Server");
        self.line(0, "");
        self.line(
            0,
            &format!("/// The tonic server of the service `{full}` (fury-build; feature `tonic` of `fury`)."),
        );
        self.line(0, &format!("pub mod {module} {{"));
        self.doc(1, &s.doc);
        if s.doc.is_some() {
            self.line(1, "///");
        }
        self.line(
            1,
            &format!(
                "/// The service `{full}`: implement it (with `#[tonic::async_trait]` on the impl)"
            ),
        );
        self.line(1, &format!("/// and serve it with [`{ty}`]."));
        self.line(1, "#[::tonic::async_trait]");
        self.line(
            1,
            &format!("pub trait {tr}: ::std::marker::Send + ::std::marker::Sync + 'static {{"),
        );
        for (i, r) in rpcs.iter().enumerate() {
            let m = r.method;
            if i > 0 {
                self.line(2, "");
            }
            let input = if m.client_streaming {
                format!("::tonic::Streaming<{}>", r.request)
            } else {
                r.request.clone()
            };
            let out = if m.server_streaming {
                self.line(
                    2,
                    &format!("/// The stream of responses `{}` returns.", r.fn_name),
                );
                self.line(2, &format!("type {}: ::tonic::codegen::tokio_stream::Stream<Item = {RESULT}<{}, {STATUS}>> + ::std::marker::Send + 'static;", r.stream, r.response));
                self.line(2, "");
                format!("Self::{}", r.stream)
            } else {
                r.response.clone()
            };
            self.doc(2, &m.doc);
            if m.doc.is_some() {
                self.line(2, "///");
            }
            self.line(2, &format!("/// Answers `{}`.", r.path));
            self.line(
                2,
                &format!(
                    "async fn {}(&self, request: ::tonic::Request<{input}>) -> {RESULT}<::tonic::Response<{out}>, {STATUS}>;",
                    r.fn_name
                ),
            );
        }
        self.line(1, "}");
        self.line(1, "");
        self.line(
            1,
            &format!(
                "/// Serves an implementation of [`{tr}`]: add it to a `tonic::transport::Server`"
            ),
        );
        self.line(1, "/// (`add_service`, or `serve` it alone).");
        self.line(1, "#[derive(Debug)]");
        self.line(1, &format!("pub struct {ty}<T> {{"));
        self.line(2, "inner: ::std::sync::Arc<T>,");
        self.line(
            2,
            "max_decoding_message_size: ::std::option::Option<usize>,",
        );
        self.line(
            2,
            "max_encoding_message_size: ::std::option::Option<usize>,",
        );
        self.line(1, "}");
        self.line(1, "");
        self.line(1, &format!("impl<T> {ty}<T> {{"));
        self.line(2, "/// Serves `inner`.");
        self.line(2, "pub fn new(inner: T) -> Self {");
        self.line(3, "Self::from_arc(::std::sync::Arc::new(inner))");
        self.line(2, "}");
        self.line(2, "");
        self.line(2, "/// Serves a shared `inner`.");
        self.line(2, "pub fn from_arc(inner: ::std::sync::Arc<T>) -> Self {");
        self.line(3, "Self { inner, max_decoding_message_size: ::std::option::Option::None, max_encoding_message_size: ::std::option::Option::None }");
        self.line(2, "}");
        self.line(2, "");
        self.line(
            2,
            "/// The largest request message accepted (tonic's default: 4 MiB).",
        );
        self.line(
            2,
            "pub fn max_decoding_message_size(mut self, limit: usize) -> Self {",
        );
        self.line(
            3,
            "self.max_decoding_message_size = ::std::option::Option::Some(limit);",
        );
        self.line(3, "self");
        self.line(2, "}");
        self.line(2, "");
        self.line(
            2,
            "/// The largest response message sent (tonic's default: no limit).",
        );
        self.line(
            2,
            "pub fn max_encoding_message_size(mut self, limit: usize) -> Self {",
        );
        self.line(
            3,
            "self.max_encoding_message_size = ::std::option::Option::Some(limit);",
        );
        self.line(3, "self");
        self.line(2, "}");
        self.line(1, "}");
        self.line(1, "");
        self.line(1, &format!("impl<T> ::std::clone::Clone for {ty}<T> {{"));
        self.line(2, "fn clone(&self) -> Self {");
        self.line(3, "Self { inner: ::std::sync::Arc::clone(&self.inner), max_decoding_message_size: self.max_decoding_message_size, max_encoding_message_size: self.max_encoding_message_size }");
        self.line(2, "}");
        self.line(1, "}");
        self.line(1, "");
        self.line(
            1,
            &format!("impl<T> ::tonic::server::NamedService for {ty}<T> {{"),
        );
        self.line(2, &format!("const NAME: &'static str = {};", lit(full)));
        self.line(1, "}");
        self.line(1, "");
        self.line(1, &format!("impl<T, B> ::tonic::codegen::Service<::tonic::codegen::http::Request<B>> for {ty}<T>"));
        self.line(1, "where");
        self.line(2, &format!("T: {tr},"));
        self.line(
            2,
            "B: ::tonic::codegen::Body + ::std::marker::Send + 'static,",
        );
        self.line(2, "B::Error: ::std::convert::Into<::tonic::codegen::StdError> + ::std::marker::Send + 'static,");
        self.line(1, "{");
        self.line(
            2,
            "type Response = ::tonic::codegen::http::Response<::tonic::body::Body>;",
        );
        self.line(2, "type Error = ::std::convert::Infallible;");
        self.line(
            2,
            "type Future = ::tonic::codegen::BoxFuture<Self::Response, Self::Error>;",
        );
        self.line(2, "");
        self.line(2, "fn poll_ready(&mut self, _cx: &mut ::std::task::Context<'_>) -> ::std::task::Poll<::std::result::Result<(), Self::Error>> {");
        self.line(3, "::std::task::Poll::Ready(::std::result::Result::Ok(()))");
        self.line(2, "}");
        self.line(2, "");
        self.line(
            2,
            "fn call(&mut self, req: ::tonic::codegen::http::Request<B>) -> Self::Future {",
        );
        self.line(3, "let inner = ::std::sync::Arc::clone(&self.inner);");
        self.line(
            3,
            "let limits = (self.max_decoding_message_size, self.max_encoding_message_size);",
        );
        self.line(3, "match req.uri().path() {");
        for r in rpcs {
            let m = r.method;
            let (svc, grpc_fn) = match (m.client_streaming, m.server_streaming) {
                (false, false) => ("UnaryService", "unary"),
                (false, true) => ("ServerStreamingService", "server_streaming"),
                (true, false) => ("ClientStreamingService", "client_streaming"),
                (true, true) => ("StreamingService", "streaming"),
            };
            let input = if m.client_streaming {
                format!("::tonic::Streaming<{}>", r.request)
            } else {
                r.request.clone()
            };
            let out = if m.server_streaming {
                format!("T::{}", r.stream)
            } else {
                r.response.clone()
            };
            self.line(4, &format!("{} => {{", lit(&r.path)));
            // A struct per method adapts the trait's method to tonic's per-kind service trait.
            // `self::` names the trait even if the service itself is called `Call`.
            self.line(5, "struct Call<T>(::std::sync::Arc<T>);");
            self.line(
                5,
                &format!(
                    "impl<T: self::{tr}> ::tonic::server::{svc}<{}> for Call<T> {{",
                    r.request
                ),
            );
            self.line(6, &format!("type Response = {};", r.response));
            if m.server_streaming {
                self.line(6, &format!("type ResponseStream = {out};"));
            }
            self.line(6, &format!("type Future = ::tonic::codegen::BoxFuture<::tonic::Response<{out}>, {STATUS}>;"));
            self.line(
                6,
                &format!(
                    "fn call(&mut self, request: ::tonic::Request<{input}>) -> Self::Future {{"
                ),
            );
            self.line(7, "let inner = ::std::sync::Arc::clone(&self.0);");
            self.line(
                7,
                &format!(
                    "::std::boxed::Box::pin(async move {{ <T as self::{tr}>::{}(&inner, request).await }})",
                    r.fn_name
                ),
            );
            self.line(6, "}");
            self.line(5, "}");
            self.line(5, "::std::boxed::Box::pin(async move {");
            self.line(
                6,
                &format!(
                    "let mut grpc = match grpc::<{}, {}>(limits) {{",
                    r.response, r.request
                ),
            );
            self.line(7, "::std::result::Result::Ok(grpc) => grpc,");
            self.line(7, "::std::result::Result::Err(status) => return ::std::result::Result::Ok(status.into_http()),");
            self.line(6, "};");
            self.line(
                6,
                &format!("::std::result::Result::Ok(grpc.{grpc_fn}(Call(inner), req).await)"),
            );
            self.line(5, "})");
            self.line(4, "}");
        }
        self.line(4, "_ => {");
        self.line(5, "let _ = (inner, limits);");
        self.line(5, "let status = ::tonic::Status::unimplemented(::std::format!(\"no method {}\", req.uri().path()));");
        self.line(
            5,
            "::std::boxed::Box::pin(async move { ::std::result::Result::Ok(status.into_http()) })",
        );
        self.line(4, "}");
        self.line(3, "}");
        self.line(2, "}");
        self.line(1, "}");
        self.line(1, "");
        self.line(1, "/// The server side of one call: its codec on the package's `fury()`, with the limits.");
        self.line(1, "fn grpc<E, D>(limits: (::std::option::Option<usize>, ::std::option::Option<usize>)) -> ::std::result::Result<::tonic::server::Grpc<::fury::tonic::FuryCodec<E, D>>, ::tonic::Status>");
        self.line(1, "where");
        self.line(2, "E: ::fury::Serialize + ::std::marker::Send + 'static,");
        self.line(
            2,
            "D: ::fury::DeserializeOwned + ::std::marker::Send + 'static,",
        );
        self.line(1, "{");
        self.line(2, "let fury = super::fury().map_err(|e| {");
        self.line(3, "::tonic::Status::internal(::std::format!(\"fury: the schema's types cannot be registered: {e}\"))");
        self.line(2, "})?;");
        self.line(2, "::std::result::Result::Ok(::tonic::server::Grpc::new(::fury::tonic::FuryCodec::new(fury)).apply_max_message_size_config(limits.0, limits.1))");
        self.line(1, "}");
        self.line(0, "}");
    }
}
