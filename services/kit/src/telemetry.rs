//! Telemetry: tracing everywhere; OpenTelemetry export (OTLP over HTTP) when
//! `OTEL_EXPORTER_OTLP_ENDPOINT` is set, with W3C trace context carried across HTTP, gRPC
//! and NATS headers.

use opentelemetry::propagation::{Extractor, Injector};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_http::{HeaderExtractor, HeaderInjector};
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::{EnvFilter, Layer as _};

/// Flushes spans on drop.
pub struct TelemetryGuard {
    provider: Option<SdkTracerProvider>,
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(p) = self.provider.take() {
            let _ = p.shutdown();
        }
    }
}

/// Installs the global subscriber: readable logs, or JSON lines when `json`; an
/// OpenTelemetry layer when `OTEL_EXPORTER_OTLP_ENDPOINT` is set. `RUST_LOG` filters.
pub fn init(service_name: &str, json: bool) -> anyhow::Result<TelemetryGuard> {
    opentelemetry::global::set_text_map_propagator(opentelemetry_sdk::propagation::TraceContextPropagator::new());
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,async_nats=warn,h2=warn,tower=warn,hyper=warn"));
    let fmt = if json {
        tracing_subscriber::fmt::layer().json().with_current_span(true).boxed()
    } else {
        tracing_subscriber::fmt::layer().compact().with_target(false).boxed()
    };
    let endpoint = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT").ok().filter(|s| !s.is_empty());
    let (otel, provider) = match endpoint {
        Some(_) => {
            let exporter = opentelemetry_otlp::SpanExporter::builder().with_http().build()?;
            let provider = SdkTracerProvider::builder()
                .with_batch_exporter(exporter)
                .with_resource(
                    opentelemetry_sdk::Resource::builder().with_service_name(service_name.to_string()).build(),
                )
                .build();
            let tracer = provider.tracer("backoffice");
            (Some(tracing_opentelemetry::layer().with_tracer(tracer)), Some(provider))
        }
        None => (None, None),
    };
    tracing_subscriber::registry().with(filter).with(fmt).with(otel).try_init()?;
    Ok(TelemetryGuard { provider })
}

struct PairsInjector<'a>(&'a mut Vec<(String, String)>);

impl Injector for PairsInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        self.0.push((key.to_string(), value));
    }
}

struct PairsExtractor<'a>(&'a [(String, String)]);

impl Extractor for PairsExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str())
    }
    fn keys(&self) -> Vec<&str> {
        self.0.iter().map(|(k, _)| k.as_str()).collect()
    }
}

/// Adds the current span's trace context to message headers (NATS).
pub fn inject_pairs(headers: &mut Vec<(String, String)>) {
    let cx = Span::current().context();
    opentelemetry::global::get_text_map_propagator(|p| p.inject_context(&cx, &mut PairsInjector(headers)));
}

/// Makes `span` a child of the trace context in message headers (NATS).
pub fn set_parent_from_pairs(span: &Span, headers: &[(String, String)]) {
    let cx = opentelemetry::global::get_text_map_propagator(|p| p.extract(&PairsExtractor(headers)));
    let _ = span.set_parent(cx);
}

/// Adds the current span's trace context to HTTP (and gRPC) headers.
pub fn inject_http(headers: &mut http::HeaderMap) {
    let cx = Span::current().context();
    opentelemetry::global::get_text_map_propagator(|p| p.inject_context(&cx, &mut HeaderInjector(headers)));
}

/// Makes `span` a child of the trace context in HTTP (and gRPC) headers.
pub fn set_parent_from_http(span: &Span, headers: &http::HeaderMap) {
    let cx = opentelemetry::global::get_text_map_propagator(|p| p.extract(&HeaderExtractor(headers)));
    let _ = span.set_parent(cx);
}
