/**
 * The SDK clients' default credential chain inside a deployed bundle (lib/bundling.ts substitutes
 * this module for @aws-sdk/credential-provider-node). Lambda hands every function its role's
 * credentials in the environment, the first source the full chain tries; the chain's other
 * sources (profiles, SSO, web identity, the instance metadata service, and the STS and SSO
 * clients they carry) are never reached there, yet cost each bundle about 95 kB.
 */
interface EnvironmentCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
  credentialScope?: string;
  accountId?: string;
}

/** Same signature as the chain it stands in for: a provider factory, its options unused. */
export const defaultProvider = (_options?: unknown) => async (): Promise<EnvironmentCredentials> => {
  const accessKeyId = process.env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw new Error('No AWS credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)');
  }
  const expiration = process.env.AWS_CREDENTIAL_EXPIRATION;
  return {
    accessKeyId,
    secretAccessKey,
    ...(process.env.AWS_SESSION_TOKEN ? { sessionToken: process.env.AWS_SESSION_TOKEN } : {}),
    ...(expiration ? { expiration: new Date(expiration) } : {}),
    ...(process.env.AWS_CREDENTIAL_SCOPE ? { credentialScope: process.env.AWS_CREDENTIAL_SCOPE } : {}),
    ...(process.env.AWS_ACCOUNT_ID ? { accountId: process.env.AWS_ACCOUNT_ID } : {}),
  };
};
