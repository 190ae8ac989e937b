//! What a call keeps for later: the state a tool carries from one round of a call to
//! the next (protocol 2026-07-28), and the point where the call goes on as a task.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::call::context::Context;
use crate::outcome::error::ToolError;

impl Context {
    /// The state this tool [carried](Self::carry) from the last round of the call, on
    /// protocol 2026-07-28, where a tool that asks the client something runs again from
    /// the start once the client answers; `None` in the first round, on earlier
    /// protocols (where a call has one round), and when the state no longer decodes as
    /// `T`.
    ///
    /// ```standalone_crate
    /// use mcp_tool::model::Elicitation;
    /// use mcp_tool::{Context, ToolError, mcp_tool};
    ///
    /// #[derive(serde::Serialize, serde::Deserialize)]
    /// struct Plan { files: Vec<String> }
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Confirm { ok: bool }
    ///
    /// /// Deletes the temporary files, once the user confirms.
    /// #[mcp_tool(destructive)]
    /// async fn clean(ctx: Context) -> Result<String, ToolError> {
    ///     // The expensive part runs once: later rounds read the plan back.
    ///     let plan = match ctx.carried::<Plan>() {
    ///         Some(plan) => plan,
    ///         None => {
    ///             let plan = Plan { files: vec!["a.tmp".into(), "b.tmp".into()] };
    ///             ctx.carry(&plan)?;
    ///             plan
    ///         }
    ///     };
    ///     let question = format!("Delete {} files?", plan.files.len());
    ///     match ctx.elicit::<Confirm>(question).await? {
    ///         Elicitation::Accepted(Confirm { ok: true }) => Ok(format!("deleted {:?}", plan.files)),
    ///         _ => Ok("nothing deleted".into()),
    ///     }
    /// }
    /// # fn main() {}
    /// ```
    pub fn carried<T: DeserializeOwned>(&self) -> Option<T> {
        let state = self.round()?.state()?;
        serde_json::from_value(state).ok()
    }

    /// Keeps `state` for the next round of the call (protocol 2026-07-28): the client
    /// sends it back, sealed by the server so that it cannot be changed, and
    /// [`carried`](Self::carried) returns it. Keep it small (it travels with every
    /// round) and free of secrets (it is signed, not encrypted). Does nothing on earlier
    /// protocols, where the call runs once. Fails when `state` does not serialize.
    pub fn carry<T: Serialize>(&self, state: &T) -> Result<(), ToolError> {
        let Some(round) = self.round() else {
            return Ok(());
        };
        let value = serde_json::to_value(state).map_err(|error| {
            ToolError::new(format!("the state to carry does not serialize: {error}"))
        })?;
        round.carry(value);
        Ok(())
    }

    pub(super) fn round(&self) -> Option<&crate::call::rounds::Round> {
        self.inner.session.as_ref()?.session.round()
    }

    /// Goes on as a task from here, in a tool declared
    /// `#[mcp_tool(task = "...", task_begins = "in_body")]`: the call has run within its
    /// request so far (asking the client in rounds, on protocol 2026-07-28), and now the
    /// client gets its task id while the rest of the body runs on. Elsewhere it does
    /// nothing: in a tool whose task begins with the call, and in a call of a client
    /// that does not declare the tasks extension, which runs within its request to the
    /// end. Fails when the server cannot start one more task.
    ///
    /// ```standalone_crate
    /// use mcp_tool::model::Elicitation;
    /// use mcp_tool::{Context, ToolError, mcp_tool};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Scope { year: u32 }
    ///
    /// /// Builds the yearly report: asks which year, then works for minutes.
    /// #[mcp_tool(task = "required", task_begins = "in_body")]
    /// async fn yearly_report(ctx: Context) -> Result<String, ToolError> {
    ///     let Elicitation::Accepted(Scope { year }) = ctx.elicit("Which year?").await? else {
    ///         return Ok("no report".into());
    ///     };
    ///     ctx.begin_task().await?;
    ///     // ... minutes of work, polled by the client with tasks/get ...
    ///     Ok(format!("the report of {year}"))
    /// }
    /// # fn main() {}
    /// ```
    pub async fn begin_task(&self) -> Result<(), ToolError> {
        let Some(link) = &self.inner.session else {
            return Ok(());
        };
        link.session.begin_task().await.map_err(ToolError::new)
    }
}
