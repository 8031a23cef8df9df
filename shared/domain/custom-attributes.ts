/** Custom attributes of users, groups and projects: key-value pairs only admins see and set. */
import { recordNotFound } from './errors.ts';

export const customAttributeEntities = (attributes: Record<string, string>) =>
  Object.entries(attributes).map(([key, value]) => ({ key, value }));

/** One attribute; 404 `Not found` when the key is not set. */
export function customAttributeEntity(attributes: Record<string, string>, key: string) {
  const value = attributes[key];
  if (value === undefined) throw recordNotFound();
  return { key, value };
}
