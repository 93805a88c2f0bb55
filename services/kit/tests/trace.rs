//! Trace context crosses HTTP headers, in-process gRPC and the bus (through the outbox):
//! the consumer's span belongs to the trace of the request that wrote the event.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use bo_kit::db::Tx;
use bo_kit::inbox::{Consumer, Meta, On};
use bo_kit::outbox::{self, Relay};
use bo_proto::events::v1::CustomerDeleted;
use opentelemetry::trace::{TraceContextExt as _, TraceId, TracerProvider as _};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt as _;
use tracing::Instrument as _;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;
use tracing_subscriber::layer::SubscriberExt as _;

fn current_trace() -> TraceId {
    tracing::Span::current().context().span().span_context().trace_id()
}

struct Records(Arc<Mutex<Vec<TraceId>>>);

#[async_trait]
impl On<CustomerDeleted> for Records {
    async fn on(&self, _tx: &mut Tx, _m: &Meta, _e: CustomerDeleted) -> anyhow::Result<()> {
        self.0.lock().unwrap().push(current_trace());
        Ok(())
    }
}

#[tokio::test]
async fn trace_context_crosses_http_grpc_and_the_bus() {
    let provider = opentelemetry_sdk::trace::SdkTracerProvider::builder().build();
    let subscriber =
        tracing_subscriber::registry().with(tracing_opentelemetry::layer().with_tracer(provider.tracer("test")));
    tracing::subscriber::set_global_default(subscriber).unwrap();
    opentelemetry::global::set_text_map_propagator(opentelemetry_sdk::propagation::TraceContextPropagator::new());

    let request = tracing::info_span!("request");
    let want = request.in_scope(current_trace);
    assert_ne!(want, TraceId::INVALID);

    // HTTP headers.
    let mut headers = http::HeaderMap::new();
    request.in_scope(|| bo_kit::telemetry::inject_http(&mut headers));
    assert!(headers.contains_key("traceparent"));
    let server = tracing::info_span!("server");
    bo_kit::telemetry::set_parent_from_http(&server, &headers);
    assert_eq!(server.in_scope(current_trace), want);

    // gRPC through an in-process channel.
    let seen = Arc::new(Mutex::new(None));
    let seen2 = seen.clone();
    let svc = tower::service_fn(move |_req: http::Request<tonic::body::Body>| {
        let seen = seen2.clone();
        async move {
            *seen.lock().unwrap() = Some(current_trace());
            Ok::<_, Infallible>(http::Response::new(tonic::body::Body::empty()))
        }
    });
    let channel = bo_kit::grpc::in_process(svc, bo_kit::testing::keys());
    let token = bo_kit::testing::keys().service_token("test", 1, 0).unwrap();
    let mut call = http::Request::new(tonic::body::Body::empty());
    call.headers_mut().insert(http::header::AUTHORIZATION, format!("Bearer {token}").parse().unwrap());
    channel.oneshot(call).instrument(request.clone()).await.unwrap();
    assert_eq!(seen.lock().unwrap().unwrap(), want);

    // The bus, through the outbox and a relay running outside the request.
    let t = bo_kit::testing::sqlite().await;
    t.db.create_kit_tables().await.unwrap();
    let bus = bo_kit::testing::bus().await;
    async {
        let mut tx = t.db.begin().await.unwrap();
        outbox::enqueue(&mut tx, 1, 1, &CustomerDeleted { customer_id: 1 }).await.unwrap();
        tx.commit().await.unwrap();
    }
    .instrument(request.clone())
    .await;
    // The relay runs in its own task, outside any request span.
    let relay = Relay::new(t.db.clone(), bus.clone());
    tokio::spawn(async move { relay.relay_once().await }).await.unwrap().unwrap();
    let records = Arc::new(Mutex::new(Vec::new()));
    let cancel = CancellationToken::new();
    let consumer = Consumer::new(t.db.clone(), bus, "traced").on::<CustomerDeleted, _>(Records(records.clone()));
    tokio::spawn(consumer.run(cancel.clone()));
    for _ in 0..100 {
        if !records.lock().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    cancel.cancel();
    assert_eq!(records.lock().unwrap().as_slice(), &[want]);
}
