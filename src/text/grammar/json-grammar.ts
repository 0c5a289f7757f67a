/**
 * Any JSON object, written compactly (no whitespace between tokens), as XGrammar EBNF: the grammar
 * of `response_format: { type: 'json_object' }`. Compact so that a model cannot wander in whitespace.
 */
export const COMPACT_JSON_OBJECT = String.raw`root ::= object
value ::= object | array | string | number | "true" | "false" | "null"
object ::= "{" (member ("," member)*)? "}"
member ::= string ":" value
array ::= "[" (value ("," value)*)? "]"
string ::= "\"" char* "\""
char ::= [^"\\\x00-\x1f] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F])
number ::= "-"? ("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [+-]? [0-9]+)?
`;
