"`mcp_tools` against `fncall serve`, started by the test: return annotations from outputSchema, title and annotations kept, progress, timeouts"
import time, typing, typing_extensions
import anyio, pytest
from fncall.mcp import mcp_tools
from fncall.schema import get_schema
from mcp_serve import stdio_session, http_server, http_session

def run(body, *args):
    async def main():
        async with stdio_session('mcp_typed', '--timeout', '20', *args) as s: return await body(s)
    return anyio.run(main)

def test_return_annotations_and_info():
    async def body(s):
        fs = {f.__name__: f for f in await mcp_tools(s)}
        add, movie, flip, untyped = fs['add'], fs['movie'], fs['flip'], fs['untyped']
        ret = add.__annotations__['return']
        assert typing_extensions.is_typeddict(ret) and ret.__name__ == 'addOutput' and typing.get_type_hints(ret) == {'result': int}
        assert typing.get_type_hints(movie.__annotations__['return']) == {'title': str, 'year': int}
        assert set(typing.get_type_hints(flip.__annotations__['return'])) == {'x', 'y'}
        assert 'return' not in untyped.__annotations__
        assert get_schema(add)['input_schema']['properties']['a']['type'] == 'integer'
        assert add.__mcp_info__ == {'title': 'Add numbers', 'annotations': {'readOnlyHint': True, 'idempotentHint': True, 'openWorldHint': False}}
        assert fs['ratio'].__mcp_info__ == {'title': None, 'annotations': None}
        assert await add(2) == {'result': 3} and await flip(1, 2) == {'x': 2.0, 'y': 1.0}
        return True
    assert run(body)

def test_served_again():
    "Functions made by mcp_tools, served again, list the same title, annotations and output schema"
    from fncall.mcp import mcp_server
    async def body(s):
        fs = await mcp_tools(s)
        listed = {t.name: t for t in (await s.list_tools()).tools}
        srv = mcp_server([f for f in fs if f.__name__ in ('add', 'shout')])
        from mcp.client.client import Client
        async with Client(srv) as c: relisted = {t.name: t for t in (await c.list_tools()).tools}
        for nm in ('add', 'shout'): assert (relisted[nm].title, relisted[nm].annotations) == (listed[nm].title, listed[nm].annotations), nm
        return True
    assert run(body, '--no-python')

def test_progress_callback():
    async def body(s):
        got, sync_got = [], []
        async def cb(p, total, msg): got.append(p)
        py = {f.__name__: f for f in await mcp_tools(s, progress=lambda p, t, m: sync_got.append(p))}['python']
        assert await py.options(progress=cb)('import time\ntime.sleep(2.3)\n1') == '1'
        assert got and not sync_got  # the per-call callback replaces the default
        assert await py('import time\ntime.sleep(1.3)\n2') == '2'
        assert sync_got  # a sync callback works too
        return True
    assert run(body)

def test_per_call_timeout():
    async def body(s):
        py = {f.__name__: f for f in await mcp_tools(s)}['python']
        t0 = time.monotonic()
        with pytest.raises(TimeoutError, match="'python' did not answer within 1 s"): await py.options(timeout=1)('import time\ntime.sleep(8)')
        assert time.monotonic() - t0 < 4
        return True
    assert run(body)

def test_default_timeout_over_http():
    async def go(url):
        async with http_session(url) as s:
            py = {f.__name__: f for f in await mcp_tools(s, timeout=1)}['python']
            with pytest.raises(TimeoutError): await py('import time\ntime.sleep(8)')
            assert await py.options(timeout=30)('1+1') == '2'
    with http_server('--timeout', '20') as url: anyio.run(go, url)
