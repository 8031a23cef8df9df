/** Where the document is kept in the repository, and how it is written there. */
export const DOCUMENT_PATH = 'docs/openapi.json';

export const serializeDocument = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;
