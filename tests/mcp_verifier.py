"`serve` given a `TokenVerifier` of its own (a team's OAuth or identity provider would sit behind one): run as `python mcp_verifier.py PORT`"
import sys
from mcp.server.auth.provider import AccessToken
from fncall.mcp import serve
from mcp_team import slow

class Stamps:
    "Accepts tokens `stamp-<user>`, each its user's"
    async def verify_token(self, token):
        return AccessToken(token=token, client_id=token[6:], scopes=[]) if token.startswith('stamp-') else None

if __name__ == '__main__': serve([slow], http=sys.argv[1], token=Stamps())
