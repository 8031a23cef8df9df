/**
 * A provider's bind password: inline (local runs) or read from Secrets Manager (AWS) once per
 * container, as the function's role may read only the secrets the stack names.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { LdapProvider } from '#config/ldap.ts';

/** Why no password could be had; the message names the provider and never a secret. */
export class BindPasswordUnavailable extends Error {}

let client: SecretsManagerClient | undefined;
const secretsClient = () => {
  client ??= new SecretsManagerClient({ maxAttempts: 3 });
  return client;
};

/** Secret id → its password; a failed read is forgotten, so the next sync tries again. */
const readSecrets = new Map<string, Promise<string>>();

/** A secret holds the password alone, or JSON with a `password` field (the console's key/value form). */
function passwordIn(secret: string): string {
  try {
    const parsed: unknown = JSON.parse(secret);
    if (parsed && typeof parsed === 'object' && 'password' in parsed && typeof parsed.password === 'string') {
      return parsed.password;
    }
  } catch {
    // Not JSON: the secret is the password itself.
  }
  return secret;
}

async function readSecret(provider: LdapProvider, secretId: string): Promise<string> {
  const where = `LDAP provider ${provider.name}`;
  let secret: string | undefined;
  try {
    ({ SecretString: secret } = await secretsClient().send(
      new GetSecretValueCommand({ SecretId: secretId }),
    ));
  } catch (error) {
    const name = error instanceof Error ? error.name : 'error';
    throw new BindPasswordUnavailable(
      `${where}: its bind password could not be read from Secrets Manager (${name})`,
    );
  }
  if (!secret) throw new BindPasswordUnavailable(`${where}: its bind password secret holds no text`);
  return passwordIn(secret);
}

export function bindPassword(provider: LdapProvider): Promise<string> {
  if (provider.bindPassword !== undefined) return Promise.resolve(provider.bindPassword);
  const secretId = provider.bindPasswordSecret;
  if (secretId === undefined) {
    return Promise.reject(
      new BindPasswordUnavailable(`LDAP provider ${provider.name}: no bind password configured`),
    );
  }
  let read = readSecrets.get(secretId);
  if (!read) {
    read = readSecret(provider, secretId);
    readSecrets.set(secretId, read);
    read.catch(() => readSecrets.delete(secretId));
  }
  return read;
}
