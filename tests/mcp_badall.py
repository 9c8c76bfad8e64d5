"A module whose `__all__` names a function it doesn't have: `fncall serve mcp_badall` says so in one line"
__all__ = ['here', 'gone']

def here()->int: "Here"; return 1
