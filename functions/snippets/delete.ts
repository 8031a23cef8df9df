// PLACEHOLDER-NOT-BUILT: replaced by the real handler.
export const handler = () => {
  throw new Error('not built');
};
