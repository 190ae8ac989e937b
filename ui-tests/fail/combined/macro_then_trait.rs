use mcp_tool::mcp_tool;

// `range` on a `String` is the runtime trait `RangeArg`'s to report, in the generated
// code. On a mistake of its own the attribute emits the function alone, so that build
// reports only the name; the `range` error comes once the name is fixed (see
// `constraints/range_on_string`), never a wave of errors from half-generated code.
/// Greets someone by name.
#[mcp_tool(name = "greet!")]
fn greet(#[arg(range(min = 1, max = 64))] name: String) -> String {
    format!("Hello, {name}!")
}

fn main() {}
