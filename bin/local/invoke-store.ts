/**
 * The local runtime runs every invocation of every function in one process, side by side, as
 * Lambda Managed Instances run many invocations in one execution environment. Powertools (the
 * logger's Lambda context, keys and level; the metrics and their dimensions) keeps its state per
 * invocation there, not on its one instance per process, when AWS_LAMBDA_MAX_CONCURRENCY is set
 * and Lambda's InvokeStore is on globalThis.awslambda: this sets both up, as Lambda's runtime
 * does, and invocationScope() (shared/observability/log.ts) runs each invocation in a context of its own.
 * Without it a line logged by one request names whichever function started last.
 */
import { InvokeStore } from '@aws/lambda-invoke-store';

/** Powertools and the InvokeStore only ask whether it is set; the runtime sets no limit. */
const MAX_CONCURRENCY = '1000';

let warned = false;

export async function scopeInvocations(): Promise<void> {
  // The one backed by an AsyncLocalStorage, whether or not the variable is set yet.
  const store = await InvokeStore.getInstanceAsync(true);
  // Made earlier for one invocation at a time (an AWS SDK call asks for it), it keeps the context of
  // the last invocation that entered it after that one returns.
  store.run({}, () => undefined);
  if (globalThis.awslambda?.InvokeStore !== store || store.hasContext()) {
    if (warned) return;
    warned = true;
    // Powertools then keeps one state for the process, as before: said once, not fatal.
    process.stderr.write(
      'Warning: Lambda’s InvokeStore was set up for one invocation at a time before the local runtime started (an AWS SDK call in this process before startLocalRuntime?): log lines may carry the Lambda context of another invocation.\n',
    );
    return;
  }
  process.env.AWS_LAMBDA_MAX_CONCURRENCY ||= MAX_CONCURRENCY;
}
