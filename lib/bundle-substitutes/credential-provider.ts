/**
 * Stands in for `@aws-sdk/credential-provider-node` in every function bundle (lib/bundling.ts).
 * Lambda hands a function its role's credentials in the environment, the first source the SDK's
 * default chain tries; the rest of that chain (profiles, SSO, web identity, instance metadata,
 * with the STS and SSO clients they carry, ≈ 90 kB a bundle) is never reached there.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
