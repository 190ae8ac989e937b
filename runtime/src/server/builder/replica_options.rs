//! The builder's options for a server run as several replicas: what they share through
//! Redis besides tasks and rate limits (feature `redis`).

use crate::server::builder::Server;
use crate::server::fanout::RedisNotifications;

impl Server {
    /// Shares the server's notifications with its other replicas through Redis:
    /// `notifications/tools/list_changed` and `notifications/resources/updated` raised on
    /// this replica (a tool added or removed, [`ToolServer::notify_resource_updated`](crate::ToolServer::notify_resource_updated))
    /// also reach the sessions and `subscriptions/listen` streams of every replica given
    /// the same Redis and prefix, and theirs reach this one's. A client hears each change
    /// once, from the replica it is connected to, under that replica's rules: an update of
    /// a resource reaches only the sessions and streams that subscribed to its URI, which
    /// they could only do with the resource's scopes.
    ///
    /// Without it, notifications stay in the process, at no cost. With it, Redis down
    /// holds no call and fails none: this replica's clients are still told, the log says
    /// the others are not, and the replica subscribes again once Redis is back (what was
    /// published meanwhile is not heard again). Tools added at run time stay on the
    /// replica that added them; the other replicas' clients are told the list changed,
    /// list again, and see their own replica's tools.
    ///
    /// ```
    /// use mcp_tool::RedisNotifications;
    ///
    /// # fn main() -> Result<(), mcp_tool::middleware::RedisUrlError> {
    /// let server = mcp_tool::Server::from_registry("reports", "1.0.0")
    ///     .share_notifications(RedisNotifications::new("redis://127.0.0.1:6379")?);
    /// # drop(server);
    /// # Ok(())
    /// # }
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub fn share_notifications(mut self, notifications: RedisNotifications) -> Self {
        self.settings.notifications = Some(notifications);
        self
    }
}
