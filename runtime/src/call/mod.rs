//! One call of a tool, a prompt or a resource, inside the function's generated adapter.
//!
//! **Enters:** a [`CallInput`](future::CallInput): the arguments as sent, and what a
//! [`Context`](crate::Context) or a [`State<T>`](crate::State) is made from. **Leaves:** the
//! future of the call, ending in the function's reply or a
//! [`Failure`](crate::outcome::failure::Failure). On the way: each parameter's schema,
//! the arguments read and checked against it (every fault collected), the values given
//! by the server, and what the function asks of the client while it runs, through the
//! [`Session`](session::Session) the protocol gives it.
//! **May import:** [`outcome`](crate::outcome), [`model`](crate::model); never `rmcp`.

pub(crate) mod arguments;
pub(crate) mod client_request;
pub(crate) mod constraint;
pub(crate) mod context;
pub(crate) mod form;
pub(crate) mod future;
pub(crate) mod inject;
pub(crate) mod param;
pub(crate) mod rounds;
pub(crate) mod schema;
pub(crate) mod serde_message;
pub(crate) mod session;
pub(crate) mod state;
