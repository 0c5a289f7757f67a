/**
 * Any JSON object, written compactly (no whitespace between tokens), as XGrammar EBNF: the grammar
 * of `response_format: { type: 'json_object' }`. Compact so that a model cannot wander in whitespace.
 * A string's end looks ahead to what may follow it (as XGrammar's own JSON grammars do): without
 * that, every token's mask inside a string is recomputed over the whole vocabulary (docs/performance.md).
 */
export const COMPACT_JSON_OBJECT = String.raw`root ::= object
value ::= object | array | string | number | "true" | "false" | "null"
object ::= "{" (member ("," member)*)? "}"
member ::= string ":" value
array ::= "[" (value ("," value)*)? "]"
string ::= "\"" string_rest
string_rest ::= ("\"" | [^"\\\x00-\x1f] string_rest | "\\" escape string_rest) (= [,}\]:])
escape ::= ["\\/bfnrt] | "u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F]
number ::= "-"? ("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [+-]? [0-9]+)?
`;
