//! The built-in layers and `from_fn` are tower layers like any other: they serve in a
//! plain `tower::ServiceBuilder`, around a service that is not a server's.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_tool::middleware::{
    AuditLayer, Next, RateLimitLayer, Request, Response, ResponseLimitLayer, from_fn,
};
use mcp_tool::model::RequestId;
use serde_json::json;
use tower::{ServiceBuilder, ServiceExt as _, service_fn};

fn call(id: i64, target: &str) -> Request {
    Request::new("tools/call", Some(RequestId::Number(id)))
        .with_target(target)
        .with_arguments(json!({"n": id}).as_object().unwrap().clone())
        .with_session("one-session")
}

#[tokio::test]
async fn the_built_in_layers_serve_in_a_plain_service_builder_around_a_service_of_ones_own() {
    let reached = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&reached);
    // A service of one's own: it answers each call with its target and arguments.
    let echo = service_fn(move |request: Request| {
        counted.fetch_add(1, Ordering::SeqCst);
        let text = format!(
            "{} {}",
            request.target().unwrap_or("-"),
            json!(request.arguments())
        );
        async move { Ok::<_, Infallible>(Response::tool_error(text)) }
    });
    let stack = ServiceBuilder::new()
        .layer(AuditLayer::new())
        .layer(RateLimitLayer::per_minute(3))
        .layer(ResponseLimitLayer::new(120))
        .layer(from_fn(|request: Request, next: Next| async move {
            if request.target() == Some("closed") {
                return Response::error(-32000, "closed today");
            }
            next.run(request).await
        }))
        .service(echo);

    let first = stack.clone().oneshot(call(1, "add")).await.unwrap();
    assert_eq!(first.error_message().as_deref(), Some(r#"add {"n":1}"#));

    let long = "x".repeat(200);
    let bounded = stack.clone().oneshot(call(2, &long)).await.unwrap();
    let message = bounded.error_message().unwrap();
    assert!(
        message.contains("more than this server's limit of 120 bytes"),
        "{message}"
    );

    let refused_by_closure = stack.clone().oneshot(call(3, "closed")).await.unwrap();
    assert_eq!(refused_by_closure.error_code(), Some(-32000));
    assert_eq!(
        reached.load(Ordering::SeqCst),
        2,
        "the closure answered alone"
    );

    // Three calls a minute: the fourth, made on another clone of the stack, is over it,
    // since every clone counts with the layer's one count.
    let over = stack.clone().oneshot(call(4, "add")).await.unwrap();
    assert_eq!(over.error_code(), Some(-32000), "{over:?}");
    let message = over.error_message().unwrap();
    assert!(message.contains("3 requests a minute"), "{message}");
    assert_eq!(
        over.to_json()["data"]["retryAfterSeconds"]
            .as_f64()
            .map(|s| s > 0.0),
        Some(true)
    );
    assert_eq!(
        reached.load(Ordering::SeqCst),
        2,
        "the refused call never reached it"
    );

    // A notification is never counted.
    let notified = stack
        .clone()
        .oneshot(Request::new("notifications/initialized", None))
        .await
        .unwrap();
    assert_eq!(notified.error_code(), None, "{notified:?}");
    assert_eq!(reached.load(Ordering::SeqCst), 3);
}

#[test]
fn each_layer_and_its_service_say_what_they_are() {
    let limit = RateLimitLayer::per_second(5);
    assert!(
        format!("{limit:?}").contains("5 requests a second"),
        "{limit:?}"
    );
    let service = tower::Layer::layer(&limit, ResponseLimitLayer::new(9));
    let shown = format!("{service:?}");
    assert!(shown.starts_with("RateLimit {"), "{shown}");
    assert!(
        shown.contains("ResponseLimitLayer { max_bytes: 9 }"),
        "{shown}"
    );
}
