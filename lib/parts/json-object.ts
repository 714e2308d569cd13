/**
 * A JSON object whose fields are not known yet (parsed wire JSON, a part's JSON form, a tool
 * call's arguments): the one name partstream gives a plain JSON object. A field is read as
 * `unknown` until checked; nothing is written through this type.
 */
export type JsonObject = { readonly [key: string]: unknown };
