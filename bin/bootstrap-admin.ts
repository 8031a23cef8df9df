/**
 * One-time set-up of a deployed stack: creates the `root` admin (if missing) in the deployed table
 * and prints a new personal access token for it. Uses the AWS credentials of the environment.
 *
 *   npm run bootstrap-admin -- --table <TableName output of the stack> [--region eu-west-1]
 */
import { envNames } from '#config/env.ts';
import { ensureRootToken } from '#store/table/bootstrap.ts';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const table = option('table');
if (!table) {
  process.stderr.write('usage: npm run bootstrap-admin -- --table <TableName> [--region <region>]\n');
  process.exit(2);
}
process.env[envNames.tableName] = table;
const region = option('region');
if (region) process.env.AWS_REGION = region;

const { user, token } = await ensureRootToken();
process.stdout.write(
  `Admin user: ${user.username} (id ${user.id})\nAdmin token (shown once, store it safely): ${token}\n`,
);
