//! The parameters the server gives a tool instead of reading them from the arguments:
//! `Context` and `State<T>`, recognised by their type, whatever the parameter's name or
//! the alias it is written with.

use std::any::TypeId;

use crate::call::context::Context;
use crate::call::future::CallInput;
use crate::call::param::{ParamKind, ParamType, ToolParam};
use crate::call::state::State;
use crate::outcome::failure::Failure;

// Not offered as alternatives when a type is not a parameter: the fix is a derive.
#[diagnostic::do_not_recommend]
impl ToolParam for Context {
    const PARAM_TYPE: ParamType<Self> = ParamType::injected(ParamKind::Context, context);
}

#[diagnostic::do_not_recommend]
impl<T: Send + Sync + 'static> ToolParam for State<T> {
    const PARAM_TYPE: ParamType<Self> = ParamType::injected(
        ParamKind::State {
            type_id: TypeId::of::<T>,
            type_name: std::any::type_name::<T>,
        },
        state::<T>,
    );
}

fn context(input: &CallInput<'_>) -> Result<Context, Failure> {
    Ok(Context::new(input.tool, input.request, input.log_filter))
}

fn state<T: Send + Sync + 'static>(input: &CallInput<'_>) -> Result<State<T>, Failure> {
    // `build` checked that every state a tool asks for was given.
    input.state.get::<T>().ok_or_else(|| {
        Failure::internal(format!(
            "no state of type `{}` was given to the server",
            std::any::type_name::<T>()
        ))
    })
}
