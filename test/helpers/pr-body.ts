/** A PR body as people write them: a heading, a wrapped paragraph, a list, a table, code, a quote, folded detail, a footer. */
export const PR_BODY = [
  "## Summary",
  "",
  "Withdrawing the whole balance was refused because `can_withdraw` compared",
  "with `<` instead of `<=`. Fixes tests/test_bank.py::test_withdraw_entire_balance.",
  "",
  "Changes:",
  "",
  "- `can_withdraw` now accepts `amount == available`.",
  "- No other behaviour changes.",
  "",
  "| before | after |",
  "|---|---|",
  "| refused | allowed |",
  "",
  "```python",
  "assert Account('a', 50).withdraw(50) == 0",
  "```",
  "",
  "> Quoted from the issue: withdrawing everything fails.",
  "",
  "<details><summary>Logs</summary>",
  "",
  "Traceback says InsufficientFunds was raised.",
  "",
  "</details>",
  "",
  "---",
  "Comment `/fix` to rerun. Generated with a tool.",
].join("\n");

/** Exactly the claims a reader finds in PR_BODY: its prose sentences and list items, wrapped lines joined. */
export const PR_BODY_CLAIMS = [
  "Withdrawing the whole balance was refused because `can_withdraw` compared with `<` instead of `<=`.",
  "Fixes tests/test_bank.py::test_withdraw_entire_balance.",
  "`can_withdraw` now accepts `amount == available`.",
  "No other behaviour changes.",
];
