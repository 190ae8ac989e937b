//! A tool that asks the user (`mcp_tool::guide::context`): `book_table` asks for the
//! number of guests and a time with `ctx.elicit`, and books only what the user accepted.
//! A client that cannot ask its user gets a tool error that says so; on protocol
//! 2026-07-28 the same body asks in rounds, with nothing more to write.
//!
//! ```text
//! cargo run -p mcp-tool --example asking        # serve over stdio
//! ```

use mcp_tool::model::Elicitation;
use mcp_tool::{Context, Server, ServerError, ToolError, mcp_tool};

/// What the user is asked to fill in.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Booking {
    /// How many guests, 1 to 12.
    #[schemars(range(min = 1, max = 12))]
    guests: u8,
    /// The time, as HH:MM.
    time: String,
}

/// Books a table at `restaurant`, asking the user for how many and when.
#[mcp_tool]
async fn book_table(
    ctx: Context,
    /// The restaurant's name.
    restaurant: String,
) -> Result<String, ToolError> {
    let question = format!("How many guests, and when, at {restaurant}?");
    match ctx.elicit::<Booking>(question).await? {
        Elicitation::Accepted(booking) => Ok(format!(
            "booked a table for {} at {restaurant} at {}",
            booking.guests, booking.time
        )),
        Elicitation::Declined => Ok("nothing booked: the user declined".to_owned()),
        Elicitation::Cancelled => Ok("nothing booked: the user cancelled".to_owned()),
    }
}

fn main() -> Result<(), ServerError> {
    Server::from_registry("tables", env!("CARGO_PKG_VERSION")).run_stdio()
}
