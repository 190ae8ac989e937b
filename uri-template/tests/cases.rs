//! The shared table of templates (`tests/cases.txt`), judged by the grammar itself; the
//! attribute's and the server's unit tests judge the same table through their own code.

use mcp_tool_uri_template::parse;

/// What a template comes to: its variables (`+` before a reserved one), or the message
/// that refuses it, in the table's notation.
fn judged(template: &str) -> String {
    match parse(template) {
        Ok(template) => {
            let names: Vec<String> = (template.variables())
                .map(|v| format!("{}{}", if v.reserved { "+" } else { "" }, v.name))
                .collect();
            format!("= {}", names.join(","))
        }
        Err(error) => format!("! {error}"),
    }
}

#[test]
fn the_grammar_judges_each_template_as_the_table_says() {
    let table = include_str!("cases.txt");
    let mut cases = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (template, expected) = line.split_once('\t').expect("a tab after the template");
        assert_eq!(judged(template), expected, "{template}");
        cases += 1;
    }
    assert!(cases >= 30, "the table holds {cases} cases");
}

#[test]
fn literals_and_variables_alternate_in_order() {
    use mcp_tool_uri_template::{Part, Variable};
    let template = parse("users://{org}/{+rest}").unwrap();
    assert_eq!(
        template.parts(),
        [
            Part::Literal("users://"),
            Part::Variable(Variable {
                name: "org",
                reserved: false
            }),
            Part::Literal("/"),
            Part::Variable(Variable {
                name: "rest",
                reserved: true
            }),
        ]
    );
    let adjacent = parse("q://{a}{b}").unwrap();
    assert_eq!(adjacent.parts().len(), 3);
}
