/**
 * Request-body fields the types do not know (yet): merged into the JSON body after the typed ones
 * (so they may also override one), before the client's own `stream`. The one explicit way past the
 * request types, e.g. `extraBody: { top_k: 40 }` for a compatible server's own parameter.
 */
export type ExtraBody = Readonly<Record<string, unknown>>;

/** A JSON Schema object (tool parameters, structured output), passed through as given. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * A provider's built-in or server tool that the types do not spell out (`web_search`,
 * `code_execution_…`, an MCP server …): its `type` and its fields as the provider documents them.
 */
export interface BuiltInTool {
  readonly type: string;
  readonly [field: string]: unknown;
}

/**
 * `T`, or `T` with fields the types do not name: a value of `T`'s shape (an official SDK's typed
 * message) passes as it is, and an object literal may carry a field the API added since, while
 * the fields `T` names keep their types.
 */
export type WithOtherFields<T> = T | (T & { readonly [field: string]: unknown });

/**
 * An object whose `type` is one of `T` (a content block, an input item), its other fields as the
 * API documents them: a misspelt `type` is a compile error; the fields themselves are not checked.
 */
export type TypedBlock<T extends string> = WithOtherFields<{ readonly type: T }>;

/**
 * The JSON body of a request: the typed fields, then `extraBody`'s, then the client's own
 * `fixed` fields (`stream`), so that neither a typed field nor the escape hatch can turn streaming off.
 */
export function requestBody<R extends { readonly extraBody?: ExtraBody | undefined }>(request: R, fixed: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { extraBody, ...typed } = request;
  return { ...typed, ...(extraBody ?? {}), ...fixed };
}
