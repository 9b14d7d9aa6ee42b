/** The file the client's types are written to: packages/api-client/src/spec.ts. */
export const CLIENT_FILE: string;
/** The command that writes it again. */
export const REGENERATE: string;
/** The TypeScript source of the client's types for an OpenAPI document. */
export function clientSource(document: object): Promise<string>;
/** The document a server built from packages/server/dist serves, on an embedded store of its own. */
export function servedSpec(): Promise<object>;
