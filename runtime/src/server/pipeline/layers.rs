//! [`Layers`]: the users' layers of a server, and the stack made of them, ending in
//! [`Endpoint`], the handler the protocol put in the request.

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context as TaskContext, Poll};

use serde_json::Map;
use tower_service::Service;

use super::{Answering, AuditLayer, BoxError, Handler, Next, Request, Response};

/// The end of the stack: the handler the protocol put in the request.
#[derive(Clone, Copy)]
struct Endpoint;

impl Service<Request> for Endpoint {
    type Response = Response;
    type Error = BoxError;
    type Future = Handled;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: Request) -> Handled {
        let Some(mut handler) = request.handler.take() else {
            return Handled(Err(Some("the request reached its handler twice".into())));
        };
        let arguments = (request.arguments.take())
            .map(|shared| Arc::try_unwrap(shared).unwrap_or_else(|shared| Map::clone(&shared)));
        handler.as_mut().start(arguments);
        Handled(Ok(handler))
    }
}

/// The handler's answer, as the end of the stack gives it.
struct Handled(Result<Pin<Box<dyn Handler>>, Option<BoxError>>);

impl Future for Handled {
    type Output = Result<Response, BoxError>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        match &mut self.get_mut().0 {
            Ok(handler) => handler.as_mut().poll(cx).map(Ok),
            Err(error) => Poll::Ready(Err(error.take().unwrap_or_else(|| "polled again".into()))),
        }
    }
}

/// A layer as the builder keeps it: applied to the rest of the stack.
type Wrap = Arc<dyn Fn(Next) -> Next + Send + Sync>;

/// The users' layers of a server, outermost first, and the stack made of them on the
/// first request (inside the runtime, which tower's `Buffer` needs to spawn its worker).
#[derive(Clone, Default)]
pub(crate) struct Layers {
    wraps: Vec<Wrap>,
    stack: Arc<OnceLock<Next>>,
    /// Whether one of them is [`AuditLayer`]: then a request refused before the stack is
    /// recorded too.
    audited: bool,
}

impl Layers {
    pub(crate) fn push<L>(&mut self, layer: L)
    where
        L: tower_layer::Layer<Next> + Send + Sync + 'static,
        L::Service: Service<Request, Response = Response> + Clone + Send + Sync + 'static,
        <L::Service as Service<Request>>::Error: Into<BoxError>,
        <L::Service as Service<Request>>::Future: Send + 'static,
    {
        self.audited |= (&layer as &dyn Any).is::<AuditLayer>();
        self.wraps
            .push(Arc::new(move |next| Next::new(layer.layer(next))));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.wraps.is_empty()
    }

    /// Whether an [`AuditLayer`] is among them.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn audited(&self) -> bool {
        self.audited
    }

    /// Passes `request` through the stack to its handler: a clone of the stack, built
    /// once, answers it, as tower's services answer.
    pub(crate) fn run(&self, request: Request) -> Answering {
        let stack = self.stack.get_or_init(|| {
            let mut next = Next::new(Endpoint);
            for wrap in self.wraps.iter().rev() {
                next = wrap(next);
            }
            next
        });
        Box::pin(stack.clone().run(request))
    }
}

impl fmt::Debug for Layers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Layers")
            .field("layers", &self.wraps.len())
            .finish()
    }
}
