/**
 * Friendli's built-in tools as `effect/ai` provider-defined tools: put them in a `Toolkit` and Friendli runs them
 * (the request goes to the tool-assisted chat endpoint, serverless only). Each run arrives as a provider-executed
 * `tool-call` (its parameters, `{ name: value }`) and `tool-result` (the tool's result, parsed when it is JSON; a
 * failed run is a failure whose result is `{ type, message }`), and the model's answer follows.
 *
 * @example
 * const Tools = Toolkit.make(FriendliTool.Calculator(), FriendliTool.WebSearch())
 * const response = yield* LanguageModel.generateText({ prompt: "What is 150 * 16?", toolkit: Tools })
 *
 * @since 0.2.0
 */
import * as Tool from "effect/ai/Tool"
import * as Schema from "effect/Schema"

const Parameters = Schema.Record(Schema.String, Schema.String)

const builtIn = <const Type extends string, const Name extends string>(type: Type, customName: Name) =>
  Tool.providerDefined({
    id: `friendli.${type}`,
    customName,
    providerName: type,
    parameters: Parameters,
    success: Schema.Unknown,
    failure: Schema.Unknown,
  })

/** `math:calculator`, as the tool `calculator`. @since 0.2.0 */
export const Calculator = builtIn("math:calculator", "calculator")
/** `math:statistics`, as the tool `statistics`. @since 0.2.0 */
export const Statistics = builtIn("math:statistics", "statistics")
/** `math:calendar`, as the tool `calendar`. @since 0.2.0 */
export const Calendar = builtIn("math:calendar", "calendar")
/** `web:search`, as the tool `web_search`. @since 0.2.0 */
export const WebSearch = builtIn("web:search", "web_search")
/** `web:url`, as the tool `web_url`. @since 0.2.0 */
export const WebUrl = builtIn("web:url", "web_url")
/** `code:python-interpreter`, as the tool `python_interpreter`. @since 0.2.0 */
export const PythonInterpreter = builtIn("code:python-interpreter", "python_interpreter")
/** `linkup:search`, as the tool `linkup_search`. @since 0.2.0 */
export const LinkupSearch = builtIn("linkup:search", "linkup_search")
/** `file:text` over the uploaded files given (`FileText({ files })`), as the tool `file_text`. @since 0.2.0 */
export const FileText = Tool.providerDefined({
  id: "friendli.file:text",
  customName: "file_text",
  providerName: "file:text",
  args: Schema.Struct({ files: Schema.Array(Schema.String) }),
  parameters: Parameters,
  success: Schema.Unknown,
  failure: Schema.Unknown,
})
