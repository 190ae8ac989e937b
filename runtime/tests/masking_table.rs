//! The guide's masking table (`mcp_tool::guide::errors`) says what masking does: every row is checked.

use mcp_tool::masking::mask_failure;

#[test]
fn every_row_of_the_masking_table_holds() {
    let readme = include_str!("../src/guide/errors.md");
    let table = readme
        .split("| before | the client reads |")
        .nth(1)
        .expect("the guide has the masking table");
    let mut checked = 0;
    for row in table
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
    {
        let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
        let [before, after] = cells[..] else {
            panic!("a row with two cells expected: {row}");
        };
        // A PEM block does not fit on one line: the row elides its body, put back here.
        let before = before.replace(
            " … ",
            "\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n",
        );
        if after == "unchanged" {
            for text in before.split(", ").map(|cell| cell.trim_matches('`')) {
                assert_eq!(mask_failure(text), text);
            }
        } else {
            let before = before.trim_matches('`');
            assert_eq!(mask_failure(before), after.trim_matches('`'), "row: {row}");
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} rows checked");
}
