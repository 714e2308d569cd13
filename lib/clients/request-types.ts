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
 * The JSON body of a request: the typed fields, then `extraBody`'s, then the client's own
 * `fixed` fields (`stream`), so that neither a typed field nor the escape hatch can turn streaming off.
 */
export function requestBody<R extends { readonly extraBody?: ExtraBody | undefined }>(request: R, fixed: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { extraBody, ...typed } = request;
  return { ...typed, ...(extraBody ?? {}), ...fixed };
}
