"""The gateway as the OAuth 2.1 authorization server of its own MCP resource (`/mcp`).

models.py      clients (registered; metadata documents are cached in memory), grants
               (a user's consent to a client: key scopes, confirmation policy and a
               policy of rules), authorization codes and tokens, stored as digests
repository.py  the queries
secrets.py     token formats, digests and lifetimes (one definition each)
clients.py     who a client is: a registered one, or a client ID metadata document
               fetched through the SSRF-safe outbound
provider.py    the MCP SDK's `OAuthAuthorizationServerProvider` over the tables
service.py     `Grants`: consent (a code for the client), the user's grants, revocation,
               a grant's policy; `principal_of`: who calls with a grant's token
schemas.py     the /oauth-grants API's answers
grants_api.py  /oauth-grants: the user's grants and each one's policy (a person only)
verifier.py    an access token to a `Principal` for the MCP door
endpoints.py   the discovery documents and the SDK's authorize/token/register/revoke
               handlers, mounted on the account door
"""
