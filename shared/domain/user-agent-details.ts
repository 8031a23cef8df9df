/**
 * What the request that created an issue or a snippet told of its client (GitLab's
 * UserAgentDetail, kept for spam checks and shown to admins only). Both values come from the
 * request, so each is cut to a bound before it is kept.
 */

/** GitLab keeps the User-Agent header in a text column; here a bound keeps the item small. */
export const USER_AGENT_MAX_LENGTH = 1024;
/** The longest textual IPv6 address (with an embedded IPv4 part) is 45 characters. */
export const IP_ADDRESS_MAX_LENGTH = 45;

export interface UserAgentDetail {
  user_agent: string;
  ip_address: string;
  /** Whether it was sent to Akismet as spam or ham: never, here. */
  akismet_submitted: boolean;
}

/** The detail of a request's client: its User-Agent and source address, each bounded. */
export const userAgentDetailOf = (client: { userAgent: string; sourceIp: string }): UserAgentDetail => ({
  user_agent: client.userAgent.slice(0, USER_AGENT_MAX_LENGTH),
  ip_address: client.sourceIp.slice(0, IP_ADDRESS_MAX_LENGTH),
  akismet_submitted: false,
});

/**
 * The detail a creating request leaves: only when it named its client (GitLab's UserAgentDetail
 * requires a User-Agent), else none.
 */
export const detailOfCreatingRequest = (request: { userAgent?: string; ip?: string }) =>
  request.userAgent?.trim()
    ? userAgentDetailOf({ userAgent: request.userAgent, sourceIp: request.ip ?? '' })
    : undefined;

/** GitLab's UserAgentDetail entity. */
export const userAgentDetailEntity = (detail: UserAgentDetail) => ({
  user_agent: detail.user_agent,
  ip_address: detail.ip_address,
  akismet_submitted: detail.akismet_submitted,
});
