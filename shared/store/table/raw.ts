/** An item as the DocumentClient reads and writes it, before a store module decodes it. */
export type Raw = Record<string, unknown>;
