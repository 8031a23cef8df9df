/**
 * Run by B11 in a child process whose environment names DynamoDB Local's table: writes root and
 * a token of root's through the store, and prints the token as one JSON line.
 */
import { ensureRootToken } from '../../shared/store/table/bootstrap.ts';

const { token } = await ensureRootToken();
process.stdout.write(`${JSON.stringify({ token })}\n`);
process.exit(0);
