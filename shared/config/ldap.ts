/**
 * LDAP providers are configuration, as GitLab's `gitlab.yml` `ldap.servers`: `LDAP_PROVIDERS`
 * holds a JSON array of providers. Locally the bind password is in the entry itself; in AWS the
 * entry names a Secrets Manager secret instead (`bindPasswordSecret`), read once per container.
 * No provider configured means LDAP group sync is off (POST /groups/:id/ldap_sync answers 404).
 */
import * as v from 'valibot';

export const LDAP_PROVIDERS_VARIABLE = 'LDAP_PROVIDERS';

const text = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));

const providerSchema = v.object({
  /** GitLab's provider name (`ldapmain`): what links and identities name. */
  name: v.pipe(text(64), v.regex(/^[a-z0-9_]+$/i)),
  /** `ldap://host:port` or `ldaps://host:port`. */
  url: v.pipe(text(2048), v.regex(/^ldaps?:\/\//i)),
  /** Upgrade a plain `ldap://` connection with StartTLS before binding. */
  startTls: v.optional(v.boolean(), false),
  /**
   * PEM of a CA to trust for this provider's certificate (ldaps or StartTLS), beside the system's
   * CAs: a directory with a private CA. The certificate is always verified.
   */
  tlsCa: v.optional(v.pipe(text(16_384), v.includes('-----BEGIN CERTIFICATE-----'))),
  bindDn: text(1024),
  bindPassword: v.optional(text(1024)),
  /** ARN of a Secrets Manager secret holding the bind password (AWS). */
  bindPasswordSecret: v.optional(text(2048)),
  /** Where users are searched, and which entries are users. */
  base: text(1024),
  userFilter: v.optional(text(1024), '(objectClass=inetOrgPerson)'),
  /** Where groups are searched (GitLab's `group_base`). */
  groupBase: text(1024),
  /** Attribute mapping: the username and the email of a user entry. */
  uidAttribute: v.optional(text(64), 'uid'),
  mailAttribute: v.optional(text(64), 'mail'),
  /** Milliseconds for connecting and for each operation. */
  timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(60_000)), 10_000),
});

export type LdapProvider = v.InferOutput<typeof providerSchema>;

const providersSchema = v.pipe(v.array(providerSchema), v.maxLength(20));

/**
 * The configured providers; an empty list when none. A malformed setting is a deployment error,
 * reported once with what is wrong, never a silent "off".
 */
export function ldapProviders(env: NodeJS.ProcessEnv = process.env): LdapProvider[] {
  const raw = env[LDAP_PROVIDERS_VARIABLE];
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${LDAP_PROVIDERS_VARIABLE} is not JSON`);
  }
  const result = v.safeParse(providersSchema, parsed);
  if (!result.success) {
    const issue = result.issues[0];
    const where = issue ? v.getDotPath(issue) : undefined;
    throw new Error(`${LDAP_PROVIDERS_VARIABLE}: ${where ? `${where}: ` : ''}${issue?.message ?? 'invalid'}`);
  }
  return result.output;
}

/** The provider of that name, if configured. */
export const findLdapProvider = (name: string, env: NodeJS.ProcessEnv = process.env) =>
  ldapProviders(env).find((provider) => provider.name === name);
