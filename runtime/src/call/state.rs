//! Shared state: values given to the server builder once, which a tool asks for by
//! type in its signature.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A value shared by every call of every tool, given to the server with
/// [`Server::state`](crate::Server::state) and asked for by type in a tool's signature.
///
/// A `State<T>` parameter is no part of the tool's input schema: the client never sends
/// it. A server whose tools ask for a `State<T>` that was never given fails
/// [`build`](crate::Server::build) with [`ServerError::MissingState`](crate::ServerError::MissingState),
/// naming the tool and the type.
///
/// ```standalone_crate
/// use std::sync::atomic::{AtomicU64, Ordering};
///
/// use mcp_tool::{State, mcp_tool};
///
/// /// Counts the calls of this tool and returns how many there were.
/// #[mcp_tool]
/// fn visits(counter: State<AtomicU64>) -> u64 {
///     counter.fetch_add(1, Ordering::Relaxed) + 1
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = mcp_tool::Server::from_registry("visits", "1.0.0")
///     .state(AtomicU64::new(0))
///     .build()?;
/// let schema = &server.tools()[0].input_schema;
/// assert_eq!(schema["properties"], serde_json::json!({}));
/// # Ok(())
/// # }
/// ```
pub struct State<T: ?Sized>(Arc<T>);

impl<T: ?Sized> State<T> {
    /// The shared value, as the server holds it.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # fn f(state: mcp_tool::State<String>) {
    /// let shared: &Arc<String> = state.shared();
    /// # }
    /// ```
    pub fn shared(&self) -> &Arc<T> {
        &self.0
    }
}

impl<T: ?Sized> Clone for State<T> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<T: ?Sized> Deref for State<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for State<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("State").field(&&*self.0).finish()
    }
}

/// Every value given to the server, by type.
#[derive(Default, Clone)]
pub(crate) struct StateMap {
    values: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl StateMap {
    /// Keeps `value`, replacing a value of the same type given before.
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.values.insert(TypeId::of::<T>(), Arc::new(value));
    }

    pub(crate) fn contains(&self, type_id: TypeId) -> bool {
        self.values.contains_key(&type_id)
    }

    pub(crate) fn get<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        let value = Arc::clone(self.values.get(&TypeId::of::<T>())?);
        value.downcast::<T>().ok().map(State)
    }
}

impl fmt::Debug for StateMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateMap")
            .field("values", &self.values.len())
            .finish()
    }
}
