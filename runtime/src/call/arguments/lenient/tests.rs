//! The conversion table, row by row: each conversion made, and each refused.

use serde_json::{Map, Value, json};

use super::{Conversion, convert, convert_arguments};

/// `value` converted against `schema`, and the conversions made.
fn converted(value: Value, schema: Value) -> (Option<Value>, Vec<Conversion>) {
    let mut made = Vec::new();
    let converted = convert(&value, &schema, &Map::new(), &mut made);
    (converted, made)
}

fn made(path: &str, from: &'static str, to: &'static str) -> Conversion {
    Conversion {
        path: path.to_owned(),
        from,
        to,
    }
}

#[test]
fn a_string_holding_an_integer_becomes_the_integer() {
    let schema = json!({ "type": "integer" });
    for (sent, expected) in [
        ("10", json!(10)),
        ("-3", json!(-3)),
        ("10.0", json!(10)),
        ("18446744073709551615", json!(u64::MAX)),
    ] {
        let (value, conversions) = converted(json!(sent), schema.clone());
        assert_eq!(value, Some(expected), "{sent}");
        assert_eq!(conversions, [made("", "string", "integer")], "{sent}");
    }
}

#[test]
fn a_string_that_is_no_exact_integer_stays_as_sent() {
    let schema = json!({ "type": "integer" });
    for sent in [
        "1.5",
        "1e400",
        "ten",
        "",
        " 10",
        "10 ",
        "+10",
        "010",
        "0x10",
        "NaN",
        "Infinity",
        "true",
        "9007199254740993.0",
        "123456789012345678901234567890",
    ] {
        let (value, conversions) = converted(json!(sent), schema.clone());
        assert_eq!(value, None, "{sent:?} is refused");
        assert!(conversions.is_empty(), "{sent:?}");
    }
}

#[test]
fn a_whole_float_becomes_an_integer_and_a_fraction_does_not() {
    let schema = json!({ "type": "integer" });
    assert_eq!(converted(json!(1.0), schema.clone()).0, Some(json!(1)));
    assert_eq!(converted(json!(-0.0), schema.clone()).0, Some(json!(0)));
    assert_eq!(
        converted(json!(1.0), schema.clone()).1,
        [made("", "number", "integer")]
    );
    for refused in [json!(1.5), json!(1e300), json!(-0.25)] {
        assert_eq!(
            converted(refused.clone(), schema.clone()).0,
            None,
            "{refused}"
        );
    }
}

#[test]
fn a_string_holding_a_number_becomes_the_number() {
    let schema = json!({ "type": "number" });
    assert_eq!(converted(json!("2.5"), schema.clone()).0, Some(json!(2.5)));
    assert_eq!(converted(json!("-7"), schema.clone()).0, Some(json!(-7)));
    assert_eq!(
        converted(json!("1e3"), schema.clone()).1,
        [made("", "string", "number")]
    );
    for refused in ["1e400", "-1e400", "NaN", "inf", "1,5", "2.5 "] {
        assert_eq!(
            converted(json!(refused), schema.clone()).0,
            None,
            "{refused:?}"
        );
    }
}

#[test]
fn a_string_holding_a_boolean_becomes_the_boolean() {
    let schema = json!({ "type": "boolean" });
    assert_eq!(
        converted(json!("true"), schema.clone()).0,
        Some(json!(true))
    );
    assert_eq!(
        converted(json!("false"), schema.clone()).0,
        Some(json!(false))
    );
    for refused in [json!("True"), json!("yes"), json!("1"), json!(1), json!(0)] {
        assert_eq!(
            converted(refused.clone(), schema.clone()).0,
            None,
            "{refused}"
        );
    }
}

#[test]
fn a_boolean_never_becomes_a_number() {
    for kind in ["integer", "number"] {
        let schema = json!({ "type": kind });
        for refused in [json!(true), json!(false)] {
            assert_eq!(converted(refused, schema.clone()).0, None, "{kind}");
        }
    }
}

#[test]
fn a_string_holding_json_becomes_the_object_or_the_array() {
    let object = json!({ "type": "object", "properties": { "a": { "type": "integer" } } });
    assert_eq!(
        converted(json!("{\"a\":1}"), object.clone()).0,
        Some(json!({ "a": 1 }))
    );
    // What the string holds converts in turn.
    let (value, conversions) = converted(json!("{\"a\":\"2\"}"), object.clone());
    assert_eq!(value, Some(json!({ "a": 2 })));
    assert_eq!(
        conversions,
        [
            made(".a", "string", "integer"),
            made("", "string", "object")
        ]
    );
    let array = json!({ "type": "array", "items": { "type": "string" } });
    assert_eq!(
        converted(json!("[\"x\"]"), array.clone()).0,
        Some(json!(["x"]))
    );
    // An array is no object, an object no array, and what is no JSON is neither.
    assert_eq!(converted(json!("[1]"), object.clone()).0, None);
    assert_eq!(converted(json!("{}"), array.clone()).0, None);
    assert_eq!(converted(json!("{a:1}"), object).0, None);
    assert_eq!(converted(json!("x"), array).0, None);
}

#[test]
fn what_the_schema_accepts_as_sent_stays_as_sent() {
    for (value, schema) in [
        (json!("10"), json!({ "type": "string" })),
        (json!("true"), json!({ "type": "string" })),
        (json!("{\"a\":1}"), json!({ "type": "string" })),
        (json!(1.0), json!({ "type": "number" })),
        (json!(10), json!({ "type": "integer" })),
        (
            json!("10"),
            json!({ "anyOf": [{ "type": "integer" }, { "type": "string" }] }),
        ),
        (json!("10"), json!({})),
        (json!(10), json!({ "type": "string" })),
        (json!(true), json!({ "type": "string" })),
    ] {
        assert_eq!(
            converted(value.clone(), schema.clone()),
            (None, vec![]),
            "{value} {schema}"
        );
    }
}

#[test]
fn nested_values_convert_along_properties_items_references_and_options() {
    let definitions = json!({
        "Span": { "type": "object", "properties": { "start": { "type": "integer" } } }
    });
    let schema = json!({
        "type": "array",
        "items": { "anyOf": [{ "$ref": "#/$defs/Span" }, { "type": "null" }] }
    });
    let mut made = Vec::new();
    let value = json!([{ "start": "4" }, null, { "start": 5 }]);
    let converted = convert(&value, &schema, definitions.as_object().unwrap(), &mut made);
    assert_eq!(
        converted,
        Some(json!([{ "start": 4 }, null, { "start": 5 }]))
    );
    assert_eq!(made, [self::made("[0].start", "string", "integer")]);
}

#[test]
fn a_run_time_tool_s_arguments_convert_against_its_input_schema() {
    let schema = json!({
        "type": "object",
        "properties": {
            "count": { "type": "integer" },
            "name": { "type": "string" },
            "flag": { "type": "boolean" }
        }
    });
    let mut args = json!({ "count": "3", "name": "7", "flag": "false", "other": "1" })
        .as_object()
        .unwrap()
        .clone();
    let converted = convert_arguments(&mut args, schema.as_object().unwrap());
    assert_eq!(
        Value::Object(args),
        json!({ "count": 3, "name": "7", "flag": false, "other": "1" })
    );
    let names: Vec<&str> = converted.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["count", "flag"]);
}
