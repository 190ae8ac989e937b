//! The builder's options for tasks (the tasks extension): how long a task is kept, how
//! many run at once, how often a client is told to poll, where tasks are kept.

use std::sync::Arc;
use std::time::Duration;

use crate::server::builder::Server;
use crate::server::tasks::TaskStore;

impl Server {
    /// Serves tasks (the tasks extension, `io.modelcontextprotocol/tasks`) even when no
    /// tool of the server allows them yet: for tools added at run time with
    /// [`RuntimeTool::task`](crate::RuntimeTool::task). A server with a tool declared
    /// `#[mcp_tool(task = "...")]` serves tasks without it.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("reports", "1.0.0").serve_tasks();
    /// # drop(server);
    /// ```
    pub fn serve_tasks(mut self) -> Self {
        self.settings.tasks.enabled = true;
        self
    }

    /// How long a task is kept after it is created: its status and then its result
    /// answer `tasks/get` until then, and an expired task's id gets an error that says
    /// it expired. 1 hour unless set.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let server = mcp_tool::Server::from_registry("reports", "1.0.0")
    ///     .task_ttl(Duration::from_secs(15 * 60));
    /// # drop(server);
    /// ```
    pub fn task_ttl(mut self, ttl: Duration) -> Self {
        // A year at most: a store keeps nothing longer, and Redis takes no larger expiry.
        self.settings.tasks.ttl = ttl.min(Duration::from_secs(365 * 24 * 3600));
        self
    }

    /// How many tasks may run at once; a call that would start one more is refused
    /// with an error that says so, and the client may call again when one has ended.
    /// 64 unless set.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("reports", "1.0.0").max_tasks(8);
    /// # drop(server);
    /// ```
    ///
    /// # Panics
    ///
    /// If `tasks` is 0.
    pub fn max_tasks(mut self, tasks: usize) -> Self {
        assert!(
            tasks > 0,
            "max_tasks(0) would refuse every task: allow at least 1"
        );
        self.settings.tasks.max_running = tasks;
        self
    }

    /// How often a client is told to poll a task with `tasks/get` (its
    /// `pollIntervalMs`). 500 ms unless set.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let server = mcp_tool::Server::from_registry("reports", "1.0.0")
    ///     .task_poll_interval(Duration::from_secs(2));
    /// # drop(server);
    /// ```
    pub fn task_poll_interval(mut self, interval: Duration) -> Self {
        self.settings.tasks.poll_interval = interval;
        self
    }

    /// Keeps tasks in `store` instead of this process's memory: a
    /// `RedisStore` (feature `redis`) that every replica of
    /// the server shares, or a [`TaskStore`] of your own. Choosing a store does not
    /// switch tasks on: a tool that allows them does, or
    /// [`serve_tasks`](Self::serve_tasks).
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("reports", "1.0.0")
    ///     .task_store(mcp_tool::tasks::MemoryStore::default());
    /// # drop(server);
    /// ```
    pub fn task_store(mut self, store: impl TaskStore) -> Self {
        self.settings.tasks.store = Some(Arc::new(store));
        self
    }

    /// How long a running task's lease lasts: the process running it renews it three
    /// times as often, and a task whose lease lapsed before it ended (its process died)
    /// is failed, with a message that says so, when it is next read. 15 seconds unless
    /// set.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let server = mcp_tool::Server::from_registry("reports", "1.0.0")
    ///     .task_lease(Duration::from_secs(5));
    /// # drop(server);
    /// ```
    pub fn task_lease(mut self, lease: Duration) -> Self {
        self.settings.tasks.lease = lease;
        self
    }

    /// The largest result a task may keep, in bytes of JSON: a task whose result is
    /// larger fails, with a message that gives both sizes, rather than losing it in the
    /// store. 4 MiB unless set.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("reports", "1.0.0")
    ///     .task_result_limit(1024 * 1024);
    /// # drop(server);
    /// ```
    pub fn task_result_limit(mut self, bytes: usize) -> Self {
        self.settings.tasks.max_result_bytes = bytes;
        self
    }
}
